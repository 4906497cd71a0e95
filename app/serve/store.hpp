// The class's store for `reducescope serve` (issue 55): who may come in (the roster, each with a private token),
// and every submission with its source, state and verdict, in SQLite (WAL journal, synchronous=FULL). What the
// server acknowledges is committed before the reply, so it survives a kill -9 of the server; a submission that was
// running when the server died is queued again when it starts (Store::requeue_unfinished).
//
// One connection, serialised by a mutex: the store's work per request is a few rows (the load test in
// tests/serve_test.py reports the server's time per request).
//
// Index
//   Person, Role            a student or the instructor: id (grade's student id), name, token
//   Submission, RunKind     one Run or Check of a kernel file: who, which exercise, the source, state, verdict
//   Store                   open(), people, submissions, the queue's next job
//   StoreError              SQLite's error, with the file and the statement's purpose
//   valid_person_id()       a roster id: letters, digits, '.', '_', '-', 1-64 characters (a folder name for grade)
//   read_roster()           the roster CSV (id,name per line; a header line "id,name" is skipped)
#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct sqlite3;

namespace rs::serve {

struct StoreError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class Role { Student, Instructor };

struct Person {
  std::string id;     // the roster's id: a student's, as `grade` names them; "instructor" for the instructor
  std::string name;
  Role role = Role::Student;
  std::string token;  // 32 hex digits from the system's random source: the private link's secret
};

enum class RunKind { Run, Check };  // Run: compile and check the sums; Check: the exercise's checks (check --json)
const char* to_string(RunKind k);

enum class State { Queued, Running, Done };
const char* to_string(State s);

struct Submission {
  int64_t id = 0;
  std::string student, exercise;
  RunKind kind = RunKind::Check;
  std::string source;         // the kernel file's text, as sent
  State state = State::Queued;
  std::string stage;          // what it is doing now, for the page ("compiling", "on GPU 0")
  std::string result;         // Done: the verdict as JSON text (serve/runner.cpp)
  std::string line;           // Done: the verdict in one line, for lists
  int passed = -1, checks = -1;  // Done, Check: checks passed and run (-1: none, e.g. a compile error)
  double created = 0, finished = 0;  // seconds since the epoch
};

// Roster ids: what may name a student's folder under grade --from-server.
bool valid_person_id(const std::string& id);

// The roster: "id,name" per line (a first line "id,name" is a header; blank lines and '#' comments skipped; a name
// may be quoted). Throws StoreError naming the line for a bad id, a duplicate id or an unreadable file.
std::vector<Person> read_roster(const std::filesystem::path& csv);

// Peer instruction (issue 56): a question opened to the room (a poll), and each student's answer to each vote.
struct Poll {
  int64_t id = 0;
  std::string lesson;
  int ordinal = 0;            // its place among the lesson's questions (0 the first)
  int vote = 1;               // 1, or 2 after the instructor re-opens it (peer instruction's second vote)
  std::string state;          // "open", "closed" (votes counted, not revealed), "revealed"
  std::string question;       // JSON: what room.cpp needs to show, grade and reveal it
  double opened = 0;
};

struct PollAnswer {
  std::string student;
  int vote = 1;
  std::string answer;         // the answer as the distribution bins it ("0,1" for warps; "8"; "yes")
  std::string numbers;        // JSON: the numbers and text sent
  bool right = false;
  double seconds = 0;         // from the vote's opening to the answer
};

class Store {
 public:
  // Opens (creating) DIR/class.sqlite. Throws StoreError.
  explicit Store(const std::filesystem::path& dir);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Adds the people not yet in the store (by id), each with a new token, and the instructor if there is none.
  // Returns those added (their tokens are shown once, by the caller). People already there keep their tokens.
  std::vector<Person> add_people(const std::vector<Person>& roster);
  std::optional<Person> person_by_token(const std::string& token);
  std::vector<Person> people();

  // Adds a queued submission and commits it: its id. Throws StoreError.
  int64_t add_submission(const std::string& student, const std::string& exercise, RunKind kind,
                         const std::string& source, double now);
  // The student's submissions not yet done (queued or running).
  int unfinished(const std::string& student);
  // The oldest queued submission whose student has none running, and whose file (exercise, kind and bytes) is not
  // running for another student (it waits for that verdict, runner.hpp's reuse), marked running with `stage`;
  // nullopt: none.
  std::optional<Submission> take_next(const std::string& stage);
  void set_stage(int64_t id, const std::string& stage);
  // Stores the verdict of a submission not yet done (a second verdict, a run that ended after the reuse of an
  // earlier verdict answered it, is dropped).
  void finish(int64_t id, const std::string& result_json, const std::string& line, int passed, int checks,
              double now);
  // Marks every running submission queued again (a server that died mid-run); returns how many.
  int requeue_unfinished();
  // Place in the queue (1: next) of a queued submission; 0 when it is not queued.
  int place(int64_t id);

  // The newest submission done of the same exercise, kind and source (byte for byte) whose verdict is at most
  // `max_age_s` old and came from the checker (a verdict with "check" or "output", not a limit or a fault): a file
  // checked again gets that verdict at once (runner.cpp says so). nullopt: none.
  std::optional<Submission> same_done(const Submission& s, double now, double max_age_s);

  std::optional<Submission> submission(int64_t id);
  // A student's submissions (every student's with student ""), newest first, at most `limit`; without the source
  // and the result when `brief`.
  std::vector<Submission> submissions(const std::string& student, int limit, bool brief);
  // Every submission done, oldest first.
  std::vector<Submission> done_submissions();
  // Each student's latest submission done of `exercise` and `kind`, by student id (grade --from-server).
  std::vector<Submission> latest_per_student(const std::string& exercise, RunKind kind);

  // Peer instruction. The latest poll (nullopt: none yet); a new one (open, vote 1); its state or vote changed.
  std::optional<Poll> latest_poll();
  int64_t add_poll(const std::string& lesson, int ordinal, const std::string& question_json, double now);
  void set_poll(int64_t id, int vote, const std::string& state, double now);
  // Stores a student's answer to a vote: false when they answered that vote already (a page that reconnects does
  // not vote twice).
  bool add_answer(int64_t poll, const PollAnswer& a, double now);
  std::vector<PollAnswer> answers(int64_t poll);
  // Every poll and its answers, oldest first (lesson-report --from-server).
  std::vector<std::pair<Poll, std::vector<PollAnswer>>> all_polls();

  const std::filesystem::path& file() const { return file_; }

 private:
  void exec(const char* sql, const char* what);
  std::filesystem::path file_;
  sqlite3* db_ = nullptr;
  std::mutex mu_;
};

}  // namespace rs::serve
