// `reducescope lesson-report ANSWERS.json...` (issue 39, item 6): what a class answered in Predict mode, from the
// files the page's "Download my answers" saves (web/js/predict.js, format "reducescope-answers", version 1).
//
// Per question, in the lesson's order: how many answered, how many were right at the first try, the three most
// common wrong answers with how many students gave each (the misconception table: what to discuss before the next
// class), and the time taken (median, min..max). Per student: questions answered, right at the first try, tries.
//
// A wrong answer is a try that the page graded wrong before the right answer or Show (the answer's "wrong" list,
// written since this report; an older file has none, and its question counts only as answered).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lessons.hpp"
#include "session.hpp"

namespace rs {

// One answer, as the page saved it.
struct SavedAnswer {
  std::string lesson;          // the lesson it was asked for ("" without one: the default question)
  std::string kernel;
  uint32_t block_size = 0;
  std::string dtype;           // "int32" or "float32"
  size_t step = 0;
  std::string kind;            // explain::to_string(QuestionKind): "warps", "conflict", ...
  std::string question;        // the question as the page said it (in the page's language)
  std::string answer;          // the right answer given ("0,1" for warps), or "" where the student pressed Show
  std::string key;             // the trace's answer as the page printed it
  bool right = false, first_try = false;
  int tries = 0;
  std::vector<std::string> wrong;  // the answers graded wrong before, in order
  double seconds = 0;          // from the question appearing to the reveal
};

struct AnswerFile {
  std::string path;
  std::string student;         // "student" as typed on the page, else the file's name without .json
  std::string lesson, page, gpu, session;
  std::vector<SavedAnswer> answers;
};

// A file that is not an answers file, or is damaged; what() names the file and, where there is one, the answer and
// field.
class AnswersError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses an answers file's text; `path` names it in errors and gives the student's name when the file has none.
// Throws AnswersError: not JSON, "format" not "reducescope-answers", a "version" after 1, an answer without its
// kernel, block size, step or kind.
AnswerFile parse_answers(const std::string& json, const std::string& path);
// Reads and parses the file. Throws AnswersError (also for a file that cannot be read).
AnswerFile load_answers(const std::string& path);
// The file's text in the page's format (version 1), which parse_answers reads back to the same answers: what the
// window's File > Save my answers writes. An answer given is written as its text ("" where Show revealed it: null).
std::string answers_json(const AnswerFile& f);

struct WrongAnswer {
  std::string answer;
  int students = 0;            // how many students gave it (once each, however often they tried it)
};

struct QuestionRow {
  std::string lesson, kernel, dtype, kind, question, key;
  uint32_t block_size = 0;
  size_t step = 0;
  int answered = 0;            // students who met the question (right, or Show)
  int first_try = 0;           // right at the first try
  int shown = 0;               // revealed by Show, without a right answer
  std::vector<WrongAnswer> wrong;  // the three most common, most first (ties: the earlier given)
  double median_s = 0, min_s = 0, max_s = 0;
};

struct StudentRow {
  std::string student, path;
  int answered = 0, first_try = 0, tries = 0;
  std::vector<int> marks;      // per ClassReport::questions: 1 right at the first try, 0 not, -1 not met
};

struct ClassReport {
  std::string lesson;                // the files' lesson, or "several" where they differ
  std::vector<std::string> gpus;     // the sessions' GPUs, distinct
  std::vector<QuestionRow> questions;  // the lesson's order (its items, then steps); questions it does not list after
  std::vector<StudentRow> students;    // by name
};

// The class's report. `lesson`: the lesson that orders the questions (nullptr: the bundled one the files name, else
// the order the first file met them in).
ClassReport make_class_report(const std::vector<AnswerFile>& files, const Lesson* lesson = nullptr);

// The terminal's report: per question, then the misconception table, then per student.
std::string class_report_text(const ClassReport& r);
// One row per student, one column per question ("1" right at the first try, "0" not, "" not met), then the totals.
std::string class_report_csv(const ClassReport& r);
// The page: per question in the lesson's order, with the step's picture beside it (its warps x lanes: which lanes
// made an instruction; the asked warp outlined) and the trace's reason, when `session` holds the question's trace.
std::string class_report_html(const ClassReport& r, const Session* session);

}  // namespace rs
