// Peer instruction in `reducescope serve` (issue 56, docs/room.md): the instructor opens a lesson's next question to
// the room; every student's page shows it and answers; the instructor's page shows the answers' distribution before
// the reveal; a second vote after discussion; the reveal steps every page to the answer and its reason. The
// questions and their keys are Predict mode's (lessons/lessons.hpp predict_question over explain's step_questions),
// taken from the traces of the session the server holds (the bundled H100 session by default); answers are graded
// by explain::grade and kept in the class's store (store.hpp, Poll and PollAnswer).
//
// Index
//   Room          the lesson's questions over the session, the open one, answers, the distribution
//   RoomError     a request the room refuses (said to the page with its HTTP status)
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "class_answers.hpp"
#include "questions.hpp"
#include "store.hpp"

namespace rs {
struct Session;
struct Trace;
struct LessonItem;
}

namespace rs::serve {

struct RoomError : std::runtime_error {
  RoomError(int status_, const std::string& what) : std::runtime_error(what), status(status_) {}
  int status;
};

class Room {
 public:
  // `session`: the traces the questions are asked of (nullptr: the room has none and says so).
  Room(Store& store, std::shared_ptr<const Session> session);

  // The instructor: opens the next question of `lesson` (a bundled lesson's name: harris, lecture, ...) after the
  // last one opened of it; a second vote of the open one; the reveal. Each returns the room's state (state_json).
  nlohmann::json open_next(const std::string& lesson, double now);
  // The question Predict mode asks before `step` of the session's trace of `kernel` at `block_size` and `dtype`
  // ("int32", "float32"), by `lesson`'s rule ("" for each step's default): what the window in class mode opens for
  // the step on its screen.
  nlohmann::json open_at(const std::string& lesson, const std::string& kernel, uint32_t block_size,
                         const std::string& dtype, size_t step, double now);
  nlohmann::json second_vote(double now);
  nlohmann::json reveal(double now);
  // A student's answer to the open vote: {"numbers": [...], "text": "..."}. 409 when they answered this vote.
  nlohmann::json answer(const std::string& student, const nlohmann::json& body, double now);

  // What a page shows: the question (its sentence as [id, args...], its kind, the lesson's words in English and
  // Chinese, the warps of the block for the warps question), its vote and state; for the student their answer and,
  // after the reveal, their verdict; for the instructor (`student` empty) the distribution of each vote
  // ([{"answer", "count", "right"}]) and the count of answers. {"question": null} before any.
  nlohmann::json state_json(const std::string& student);

  // The lessons the room can open (those whose questions the session's traces can answer), by name.
  nlohmann::json lessons_json();

 private:
  nlohmann::json state_locked(const std::string& student);
  nlohmann::json open_question(const std::string& lesson, int ordinal, int of, const Trace& t, size_t step,
                               const explain::Question& q, const LessonItem* item, double now);
  // The poll's question with its key, rebuilt from the session once per poll (nullopt: the lesson no longer has it).
  const explain::Question* key_of(const Poll& p);
  Store& store_;
  std::shared_ptr<const Session> session_;
  std::mutex mu_;
  std::map<int64_t, std::optional<explain::Question>> keys_;
  std::optional<nlohmann::json> lessons_;
};

// The room's answers in the store as lesson-report's answers files, one per student (`lesson-report --from-server
// DIR`): each poll a question met; its last vote's answer the one given (where right; a wrong last vote reads as
// revealed without a right answer), the earlier votes' wrong answers its wrong tries, right at the first try where
// the first vote was right. The question's words are its English. Throws StoreError.
std::vector<AnswerFile> room_answer_files(Store& store);

}  // namespace rs::serve
