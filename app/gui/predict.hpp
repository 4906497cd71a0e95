// Predict mode in the window (issue 39): before a step is shown, a question about it in the panel where its answer
// is drawn; the answer is graded by the trace (app/explain/questions.hpp) and the verdict says why. The questions are
// chosen as the page chooses them (predict_question, app/lessons/lessons.hpp): a bundled lesson's, else each step's default.
// Works on any trace the window shows: a session's, a live GPU's, the user's own kernel file.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "class_answers.hpp"  // SavedAnswer: the page's answers format
#include "lessons.hpp"
#include "questions.hpp"

namespace rs::gui {

struct AppState;

struct PredictState {
  bool on = false;
  bool classroom = false;  // class mode (peer instruction): the question is shown to the room, which answers outside
                           // the app; Right or Enter reveals the step, with the trace's answer; nothing is scored
  int lesson = -1;  // index into bundled_lessons(); -1: none (each step's default question)
  struct Pending {
    size_t step = 0;
    explain::Question q;
    std::string say;  // the lesson's words, in the language of the moment it was asked
    double t0 = 0;    // ImGui::GetTime() when asked
    int tries = 0;
    std::vector<std::string> wrong;  // the answers graded wrong, in order (lesson-report's misconception table)
  };
  std::optional<Pending> pending;
  bool verdict_right = false;
  std::string verdict;  // "Right: ...", "Not quite: ...", "Not yet: ..."; empty: none
  explain::QuestionKind verdict_kind = explain::QuestionKind::WorkingWarps;
  std::set<std::string> answered;  // kernel@bs@dtype@step@kind
  std::array<bool, 32> picked{};
  char input[32] = {};
  int asked = 0, first_try = 0, tries = 0;  // the score
  int box_frame = -1;                       // the frame a panel last drew the box in
  int owner_frame = -1;                     // the frame the panel of the answer last drew it in
  // The lesson's questions about the session (explain::is_session_kind: the fastest block size, a speedup, the bits
  // view, two runs), asked in the timings panel for the kernel on screen; by "lesson#item".
  struct SessionAsk {
    const void* of = nullptr;  // the session its question was taken from (a session opened later asks again), or the
                               // live timings (AppState::timings)
    size_t gen = 0;            // live: the timings' count its key was taken at (more timings: taken again)
    std::optional<explain::Question> q;
    int tries = 0;
    bool done = false, right = false;
    double t0 = 0;
    std::string verdict;
    char input[32] = {};
    std::vector<std::string> wrong;
    bool scroll = false;  // a verdict came this frame: the panel scrolls to it (short at 1280x720)
  };
  std::map<std::string, SessionAsk> session_asks;
  // Every question answered or shown (not in class mode), as the page records them: File > Save my answers writes
  // them in the page's format (answers_json), for lesson-report.
  std::vector<SavedAnswer> records;
};

// Class mode connected to `reducescope serve` (--serve, room_box.cpp): the height of the room's part of the Predict
// box (0 without a server), the part itself under the question (the room's count, the answers' distribution as
// bars, Open to the room, the second vote), and the reveal sent to the students' pages where the room's open
// question is the one on screen.
float room_box_height(const AppState& s, float wrap);
void draw_room_box(AppState& s);
void room_reveal(AppState& s);

// step_to's gate: going forward to `target` in Predict mode, the first step on the way with a question waits for its
// answer (the step shown stays the one before it, play stops). True where one waits. In class mode, going forward
// while a question waits reveals its step (the instructor's one key).
bool predict_gate(AppState& s, long target);
// The question or the verdict, where a panel showing `kind`'s answer calls it (the warps panel for warps and lanes,
// banks for conflicts, shared memory for values, lanes for shuffles, global memory for sectors).
void draw_predict_box(AppState& s, std::initializer_list<explain::QuestionKind> kinds);
// The step bar's Predict switch, lesson and score; the box itself where no panel drew it last frame.
void draw_predict_bar(AppState& s);
// Whether the step on screen is the one a question waits for (a question before step 0): its panels say so in place
// of what they would show.
bool predict_hides_step(const AppState& s);
// That line, drawn by a panel in place of its step.
void draw_predict_hidden_line();
// Whether the lesson's question of `kind` about `kernel` waits (asked, not yet answered) in the Timings panel: the
// atomics panel keeps its two runs (which answer "part") out of sight meanwhile.
bool session_question_waits(const AppState& s, explain::QuestionKind kind, const std::string& kernel);
// The timings panel's top, in Predict mode with a lesson: its questions about the session (the recording's, or the
// live GPU's timings) for the kernel on screen
// (side A), each with its answer row (yes / no, block sizes, or a number) and Show, or in class mode Reveal; then the
// verdict. True while one waits: the panel then keeps its tables (which hold the answers) out of sight.
bool draw_session_questions(AppState& s);
// What Predict mode shows, in one line for the automation's report: "off", or the lesson, the mode, the question
// waiting and the verdict's sentence, and each question about the session asked so far ("session speedup: waiting",
// "session bits: Right: ...").
std::string predict_status(const AppState& s);

}  // namespace rs::gui
