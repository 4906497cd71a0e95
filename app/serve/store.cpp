#include "store.hpp"

#include <sqlite3.h>

#include <cstdio>
#include <fstream>
#include <random>

#include "markup.hpp"  // split_csv_line

namespace rs::serve {

namespace fs = std::filesystem;

const char* to_string(RunKind k) { return k == RunKind::Run ? "run" : "check"; }

const char* to_string(State s) {
  switch (s) {
    case State::Queued: return "queued";
    case State::Running: return "running";
    case State::Done: return "done";
  }
  return "done";
}

namespace {

State state_of(const std::string& s) { return s == "queued" ? State::Queued : s == "running" ? State::Running : State::Done; }

// 128 bits from the system's random source (std::random_device reads getrandom on Linux), as 32 hex digits.
std::string new_token() {
  std::random_device rd;
  std::string t;
  for (int i = 0; i < 4; ++i) {
    char b[9];
    std::snprintf(b, sizeof b, "%08x", static_cast<unsigned>(rd()));
    t += b;
  }
  return t;
}

// One prepared statement, finalised when it goes.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql, const char* what) : db_(db), what_(what) {
    if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK) fail();
  }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt& bind(int i, const std::string& v) {
    sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& bind(int i, int64_t v) {
    sqlite3_bind_int64(s_, i, v);
    return *this;
  }
  Stmt& bind(int i, double v) {
    sqlite3_bind_double(s_, i, v);
    return *this;
  }
  // true: a row is ready; false: done.
  bool step() {
    const int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) fail();
    return false;
  }
  std::string text(int c) const {
    const unsigned char* t = sqlite3_column_text(s_, c);
    return t ? reinterpret_cast<const char*>(t) : "";
  }
  int64_t i64(int c) const { return sqlite3_column_int64(s_, c); }
  double real(int c) const { return sqlite3_column_double(s_, c); }
  bool null(int c) const { return sqlite3_column_type(s_, c) == SQLITE_NULL; }

 private:
  [[noreturn]] void fail() { throw StoreError(std::string("the class store: ") + what_ + ": " + sqlite3_errmsg(db_)); }
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
  const char* what_;
};

constexpr const char* kColumns =
    "id, student, exercise, kind, state, stage, passed, checks, created, finished, line, source, result";

Submission row_of(const Stmt& s, bool brief) {
  Submission r;
  r.id = s.i64(0);
  r.student = s.text(1);
  r.exercise = s.text(2);
  r.kind = s.text(3) == "run" ? RunKind::Run : RunKind::Check;
  r.state = state_of(s.text(4));
  r.stage = s.text(5);
  r.passed = s.null(6) ? -1 : static_cast<int>(s.i64(6));
  r.checks = s.null(7) ? -1 : static_cast<int>(s.i64(7));
  r.created = s.real(8);
  r.finished = s.null(9) ? 0 : s.real(9);
  r.line = s.text(10);
  if (!brief) {
    r.source = s.text(11);
    r.result = s.text(12);
  }
  return r;
}

// `f` without the blanks around it.
std::string trimmed(const std::string& f) {
  const size_t a = f.find_first_not_of(" \t"), b = f.find_last_not_of(" \t");
  return a == std::string::npos ? "" : f.substr(a, b - a + 1);
}

}  // namespace

bool valid_person_id(const std::string& id) {
  if (id.empty() || id.size() > 64 || id == "." || id == "..") return false;
  for (const char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::vector<Person> read_roster(const fs::path& csv) {
  std::ifstream in(csv);
  if (!in) throw StoreError("--roster: cannot read " + csv.string());
  std::vector<Person> people;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[line.find_first_not_of(" \t")] == '#') continue;
    const std::vector<std::string> fields = split_csv_line(line);
    Person p;
    p.id = trimmed(fields[0]);
    p.name = fields.size() > 1 ? trimmed(fields[1]) : "";
    if (n == 1 && p.id == "id") continue;  // the header
    const std::string where = csv.string() + ":" + std::to_string(n) + ": ";
    if (!valid_person_id(p.id)) {
      throw StoreError(where + "'" + p.id + "' is not a student id (letters, digits, '.', '_', '-'; 1 to 64)");
    }
    if (p.id == "instructor") throw StoreError(where + "'instructor' is the instructor's own id");
    for (const Person& q : people) {
      if (q.id == p.id) throw StoreError(where + "'" + p.id + "' is in the roster twice");
    }
    if (p.name.empty()) p.name = p.id;
    people.push_back(std::move(p));
  }
  return people;
}

Store::Store(const fs::path& dir) : file_(dir / "class.sqlite") {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (sqlite3_open_v2(file_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw StoreError("--data: cannot open " + file_.string() + ": " + why);
  }
  sqlite3_busy_timeout(db_, 5000);
  exec("PRAGMA journal_mode=WAL", "WAL journal");
  exec("PRAGMA synchronous=FULL", "synchronous writes");  // acknowledged = on disk
  exec("CREATE TABLE IF NOT EXISTS people(id TEXT PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL, "
       "token TEXT NOT NULL UNIQUE)",
       "the people table");
  exec("CREATE TABLE IF NOT EXISTS submissions(id INTEGER PRIMARY KEY AUTOINCREMENT, student TEXT NOT NULL, "
       "exercise TEXT NOT NULL, kind TEXT NOT NULL, source TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'queued', "
       "stage TEXT NOT NULL DEFAULT '', passed INTEGER, checks INTEGER, created REAL NOT NULL, finished REAL, "
       "line TEXT NOT NULL DEFAULT '', result TEXT NOT NULL DEFAULT '')",
       "the submissions table");
  exec("CREATE INDEX IF NOT EXISTS submissions_state ON submissions(state, id)", "the queue's index");
  exec("CREATE INDEX IF NOT EXISTS submissions_student ON submissions(student, id)", "the students' index");
  exec("CREATE TABLE IF NOT EXISTS polls(id INTEGER PRIMARY KEY AUTOINCREMENT, lesson TEXT NOT NULL, ordinal "
       "INTEGER NOT NULL, vote INTEGER NOT NULL DEFAULT 1, state TEXT NOT NULL DEFAULT 'open', question TEXT NOT NULL, "
       "opened REAL NOT NULL)",
       "the polls table");
  exec("CREATE TABLE IF NOT EXISTS answers(poll INTEGER NOT NULL, vote INTEGER NOT NULL, student TEXT NOT NULL, "
       "answer TEXT NOT NULL, numbers TEXT NOT NULL, correct INTEGER NOT NULL, seconds REAL NOT NULL, at REAL NOT NULL, "
       "PRIMARY KEY(poll, vote, student))",
       "the answers table");
  exec("CREATE INDEX IF NOT EXISTS submissions_same ON submissions(exercise, kind, length(source))", "the files' index");
}

Store::~Store() { sqlite3_close(db_); }

void Store::exec(const char* sql, const char* what) {
  char* msg = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
    const std::string why = msg ? msg : "unknown";
    sqlite3_free(msg);
    throw StoreError("the class store " + file_.string() + ": " + what + ": " + why);
  }
}

std::vector<Person> Store::add_people(const std::vector<Person>& roster) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Person> want = roster;
  want.push_back({"instructor", "Instructor", Role::Instructor, ""});
  std::vector<Person> added;
  exec("BEGIN IMMEDIATE", "adding the roster");
  try {
    for (Person p : want) {
      Stmt has(db_, "SELECT 1 FROM people WHERE id = ?", "reading the roster");
      if (has.bind(1, p.id).step()) continue;
      p.token = new_token();
      Stmt add(db_, "INSERT INTO people(id, name, role, token) VALUES(?, ?, ?, ?)", "adding a person");
      add.bind(1, p.id).bind(2, p.name).bind(3, std::string(p.role == Role::Instructor ? "instructor" : "student"));
      add.bind(4, p.token).step();
      added.push_back(p);
    }
    exec("COMMIT", "adding the roster");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  return added;
}

std::optional<Person> Store::person_by_token(const std::string& token) {
  if (token.size() != 32) return std::nullopt;
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, "SELECT id, name, role, token FROM people WHERE token = ?", "reading a token");
  if (!s.bind(1, token).step()) return std::nullopt;
  return Person{s.text(0), s.text(1), s.text(2) == "instructor" ? Role::Instructor : Role::Student, s.text(3)};
}

std::vector<Person> Store::people() {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, "SELECT id, name, role, token FROM people ORDER BY role DESC, id", "reading the roster");
  std::vector<Person> out;
  while (s.step()) {
    out.push_back({s.text(0), s.text(1), s.text(2) == "instructor" ? Role::Instructor : Role::Student, s.text(3)});
  }
  return out;
}

int64_t Store::add_submission(const std::string& student, const std::string& exercise, RunKind kind,
                              const std::string& source, double now) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, "INSERT INTO submissions(student, exercise, kind, source, created) VALUES(?, ?, ?, ?, ?)",
         "storing a submission");
  s.bind(1, student).bind(2, exercise).bind(3, std::string(to_string(kind))).bind(4, source).bind(5, now).step();
  return sqlite3_last_insert_rowid(db_);
}

int Store::unfinished(const std::string& student) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, "SELECT count(*) FROM submissions WHERE student = ? AND state != 'done'", "counting the queue");
  s.bind(1, student).step();
  return static_cast<int>(s.i64(0));
}

std::optional<Submission> Store::take_next(const std::string& stage) {
  std::lock_guard<std::mutex> lock(mu_);
  exec("BEGIN IMMEDIATE", "taking the next submission");
  try {
    Stmt s(db_,
           "SELECT id FROM submissions q WHERE state = 'queued' AND NOT EXISTS (SELECT 1 FROM submissions r WHERE "
           "r.state = 'running' AND (r.student = q.student OR (r.exercise = q.exercise AND r.kind = q.kind AND "
           "length(r.source) = length(q.source) AND r.source = q.source))) ORDER BY id LIMIT 1",
           "taking the next submission");
    if (!s.step()) {
      exec("COMMIT", "taking the next submission");
      return std::nullopt;
    }
    const int64_t id = s.i64(0);
    Stmt run(db_, "UPDATE submissions SET state = 'running', stage = ? WHERE id = ?", "starting a submission");
    run.bind(1, stage).bind(2, id).step();
    Stmt get(db_, (std::string("SELECT ") + kColumns + " FROM submissions WHERE id = ?").c_str(), "reading a submission");
    get.bind(1, id).step();
    Submission out = row_of(get, false);
    exec("COMMIT", "taking the next submission");
    return out;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void Store::set_stage(int64_t id, const std::string& stage) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, "UPDATE submissions SET stage = ? WHERE id = ?", "setting a stage");
  s.bind(1, stage).bind(2, id).step();
}

void Store::finish(int64_t id, const std::string& result_json, const std::string& line, int passed, int checks,
                   double now) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_,
         "UPDATE submissions SET state = 'done', stage = '', result = ?, passed = ?, checks = ?, finished = ?, "
         "line = ? WHERE id = ? AND state != 'done'",
         "storing a verdict");
  s.bind(1, result_json).bind(4, now).bind(5, line).bind(6, id);
  if (passed >= 0) s.bind(2, static_cast<int64_t>(passed));
  if (checks >= 0) s.bind(3, static_cast<int64_t>(checks));
  s.step();
}

int Store::requeue_unfinished() {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, "UPDATE submissions SET state = 'queued', stage = '' WHERE state = 'running'", "queueing again");
  s.step();
  return sqlite3_changes(db_);
}

int Store::place(int64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_,
         "SELECT (SELECT state FROM submissions WHERE id = ?1), (SELECT count(*) FROM submissions WHERE state = "
         "'queued' AND id <= ?1)",
         "reading a queue place");
  s.bind(1, id).step();
  return s.text(0) == "queued" ? static_cast<int>(s.i64(1)) : 0;
}

std::optional<Submission> Store::same_done(const Submission& q, double now, double max_age_s) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_,
         (std::string("SELECT ") + kColumns +
          " FROM submissions WHERE exercise = ? AND kind = ? AND source = ? AND state = 'done' AND id != ? AND "
          "length(source) = ? AND finished >= ? AND json_extract(result, '$.cached_from') IS NULL AND (json_type(result, '$.check') = "
          "'object' OR json_extract(result, '$.end') = 'exited') ORDER BY id DESC LIMIT 1")
             .c_str(),
         "looking for the same file");
  s.bind(1, q.exercise).bind(2, std::string(to_string(q.kind))).bind(3, q.source).bind(4, q.id);
  s.bind(5, static_cast<int64_t>(q.source.size())).bind(6, now - max_age_s);
  if (!s.step()) return std::nullopt;
  return row_of(s, false);
}

namespace {

Poll poll_of(const Stmt& s) {
  Poll p;
  p.id = s.i64(0);
  p.lesson = s.text(1);
  p.ordinal = static_cast<int>(s.i64(2));
  p.vote = static_cast<int>(s.i64(3));
  p.state = s.text(4);
  p.question = s.text(5);
  p.opened = s.real(6);
  return p;
}

constexpr const char* kPollColumns = "SELECT id, lesson, ordinal, vote, state, question, opened FROM polls";

}  // namespace

std::optional<Poll> Store::latest_poll() {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, (std::string(kPollColumns) + " ORDER BY id DESC LIMIT 1").c_str(), "reading the room's question");
  if (!s.step()) return std::nullopt;
  return poll_of(s);
}

int64_t Store::add_poll(const std::string& lesson, int ordinal, const std::string& question_json, double now) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, "INSERT INTO polls(lesson, ordinal, question, opened) VALUES(?, ?, ?, ?)", "opening a question");
  s.bind(1, lesson).bind(2, static_cast<int64_t>(ordinal)).bind(3, question_json).bind(4, now).step();
  return sqlite3_last_insert_rowid(db_);
}

void Store::set_poll(int64_t id, int vote, const std::string& state, double now) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, "UPDATE polls SET vote = ?1, state = ?2, opened = CASE WHEN vote != ?1 THEN ?3 ELSE opened END WHERE id = ?4",
         "changing the room's question");
  s.bind(1, static_cast<int64_t>(vote)).bind(2, state).bind(3, now).bind(4, id).step();
}

bool Store::add_answer(int64_t poll, const PollAnswer& a, double now) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_,
         "INSERT OR IGNORE INTO answers(poll, vote, student, answer, numbers, correct, seconds, at) "
         "VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
         "storing an answer");
  s.bind(1, poll).bind(2, static_cast<int64_t>(a.vote)).bind(3, a.student).bind(4, a.answer).bind(5, a.numbers);
  s.bind(6, static_cast<int64_t>(a.right ? 1 : 0)).bind(7, a.seconds).bind(8, now).step();
  return sqlite3_changes(db_) == 1;
}

std::vector<PollAnswer> Store::answers(int64_t poll) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, "SELECT student, vote, answer, numbers, correct, seconds FROM answers WHERE poll = ? ORDER BY at",
         "reading answers");
  s.bind(1, poll);
  std::vector<PollAnswer> out;
  while (s.step()) out.push_back({s.text(0), static_cast<int>(s.i64(1)), s.text(2), s.text(3), s.i64(4) != 0, s.real(5)});
  return out;
}

std::vector<std::pair<Poll, std::vector<PollAnswer>>> Store::all_polls() {
  std::vector<Poll> polls;
  {
    std::lock_guard<std::mutex> lock(mu_);
    Stmt s(db_, (std::string(kPollColumns) + " ORDER BY id").c_str(), "reading the room's questions");
    while (s.step()) polls.push_back(poll_of(s));
  }
  std::vector<std::pair<Poll, std::vector<PollAnswer>>> out;
  for (Poll& p : polls) {
    std::vector<PollAnswer> a = answers(p.id);
    out.emplace_back(std::move(p), std::move(a));
  }
  return out;
}

std::optional<Submission> Store::submission(int64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, (std::string("SELECT ") + kColumns + " FROM submissions WHERE id = ?").c_str(), "reading a submission");
  if (!s.bind(1, id).step()) return std::nullopt;
  return row_of(s, false);
}

std::vector<Submission> Store::submissions(const std::string& student, int limit, bool brief) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string sql = std::string("SELECT ") + kColumns + " FROM submissions" +
                          (student.empty() ? "" : " WHERE student = ?1") + " ORDER BY id DESC LIMIT ?2";
  Stmt s(db_, sql.c_str(), "reading submissions");
  if (!student.empty()) s.bind(1, student);
  s.bind(2, static_cast<int64_t>(limit));
  std::vector<Submission> out;
  while (s.step()) out.push_back(row_of(s, brief));
  return out;
}

std::vector<Submission> Store::done_submissions() {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, (std::string("SELECT ") + kColumns + " FROM submissions WHERE state = 'done' ORDER BY id").c_str(),
         "reading submissions");
  std::vector<Submission> out;
  while (s.step()) out.push_back(row_of(s, false));
  return out;
}

std::vector<Submission> Store::latest_per_student(const std::string& exercise, RunKind kind) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_,
         (std::string("SELECT ") + kColumns +
          " FROM submissions WHERE id IN (SELECT max(id) FROM submissions WHERE exercise = ? AND kind = ? AND state = "
          "'done' GROUP BY student) ORDER BY student")
             .c_str(),
         "reading the latest submissions");
  s.bind(1, exercise).bind(2, std::string(to_string(kind)));
  std::vector<Submission> out;
  while (s.step()) out.push_back(row_of(s, false));
  return out;
}

}  // namespace rs::serve
