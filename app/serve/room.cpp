#include "room.hpp"

#include <algorithm>
#include <map>

#include "check_record.hpp"  // sentence_json
#include "facts.hpp"
#include "lessons.hpp"
#include "replay.hpp"
#include "session.hpp"

namespace rs::serve {

using nlohmann::json;
using explain::Question;
using explain::QuestionKind;

namespace {

// One question of a lesson over the session: the item, the trace and the step.
struct Slot {
  const LessonItem* item;
  const Trace* trace;
  size_t step;
};

const Lesson* find_lesson(const std::string& name) {
  for (const Lesson& l : bundled_lessons()) {
    if (l.name == name) return &l;
  }
  return nullptr;
}

// The lesson's questions over the session's traces, in the order a student meets them (the item's order, then the
// steps): where predict_question asks that item at that step, as the page's Predict mode does.
std::vector<Slot> plan(const Lesson& l, const Session& s) {
  std::vector<Slot> out;
  for (const LessonItem& it : l.items) {
    if (explain::is_session_kind(it.ask)) continue;  // asked of a step's picture only, here
    const Trace* t = nullptr;
    for (const Trace& x : s.traces) {
      if (it.matches(x.meta)) {
        t = &x;
        break;
      }
    }
    if (!t) continue;
    const Replay r(*t);
    const explain::TraceFacts facts = explain::trace_facts(r, t->source, explain::context_in(&s, t->meta));
    for (size_t si = 0; si < r.num_steps(); ++si) {
      if (!it.steps.empty() && std::find(it.steps.begin(), it.steps.end(), si) == it.steps.end()) continue;
      const auto asked = predict_question(&l, t->meta, explain::step_questions(r, facts, si), si);
      if (asked && asked->item == &it) out.push_back({&it, t, si});
    }
  }
  return out;
}

// The slot's question, with its key.
Question question_of(const Slot& sl, const Session& s) {
  const Replay r(*sl.trace);
  const explain::TraceFacts facts = explain::trace_facts(r, sl.trace->source, explain::context_in(&s, sl.trace->meta));
  for (const Question& q : explain::step_questions(r, facts, sl.step)) {
    if (q.kind == sl.item->ask) return q;
  }
  throw RoomError(500, "the trace no longer answers this question");
}

// The answer as the distribution bins it: the warps sorted ("0,1"; "none"), a number, a word's value as typed.
std::string binned(const Question& q, const explain::Answer& a) {
  switch (q.kind) {
    case QuestionKind::WorkingWarps: {
      std::vector<int64_t> w = a.numbers;
      std::sort(w.begin(), w.end());
      w.erase(std::unique(w.begin(), w.end()), w.end());
      std::string s;
      for (const int64_t x : w) s += (s.empty() ? "" : ",") + std::to_string(x);
      return s.empty() ? "none" : s;
    }
    case QuestionKind::WordValue:
      return a.text.substr(0, 32);
    default:
      return a.numbers.empty() ? a.text.substr(0, 32) : std::to_string(a.numbers.front());
  }
}

}  // namespace

Room::Room(Store& store, std::shared_ptr<const Session> session) : store_(store), session_(std::move(session)) {}

// The trace of the session with that kernel, block size and element type, or nullptr.
const Trace* find_trace_of(const Session& s, const std::string& kernel, uint32_t block_size, const std::string& dtype) {
  for (const Trace& t : s.traces) {
    if (t.meta.kernel == kernel && t.meta.block_size == block_size && to_string(t.meta.dtype) == dtype) return &t;
  }
  return nullptr;
}

const Question* Room::key_of(const Poll& p) {
  auto it = keys_.find(p.id);
  if (it == keys_.end()) {  // rebuilt from the trace, the step and the kind the poll names
    std::optional<Question> q;
    const json j = json::parse(p.question, nullptr, false);
    const Trace* t = j.is_object() && session_ ? find_trace_of(*session_, j.value("kernel", std::string()),
                                                                j.value("block_size", 0u), j.value("dtype", std::string()))
                                               : nullptr;
    if (t) {
      const Replay r(*t);
      const explain::TraceFacts facts = explain::trace_facts(r, t->source, explain::context_in(session_.get(), t->meta));
      const size_t step = j.value("step", size_t{0});
      if (step < r.num_steps()) {
        for (const Question& x : explain::step_questions(r, facts, step)) {
          if (explain::to_string(x.kind) == j.value("kind", std::string())) q = x;
        }
      }
    }
    it = keys_.emplace(p.id, std::move(q)).first;
  }
  return it->second ? &*it->second : nullptr;
}

json Room::lessons_json() {
  std::lock_guard<std::mutex> lock(mu_);
  if (lessons_) return *lessons_;
  json out = json::array();
  if (!session_) return out;
  for (const Lesson& l : bundled_lessons()) {
    const size_t n = plan(l, *session_).size();
    if (n) out.push_back({{"name", l.name}, {"title", {{"en", l.title.en}, {"zh", l.title.zh}}}, {"questions", n}});
  }
  lessons_ = out;
  return out;
}

json Room::open_next(const std::string& lesson, double now) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!session_) throw RoomError(503, "the server holds no session to ask from (serve --session FILE)");
  const Lesson* l = find_lesson(lesson);
  if (!l) throw RoomError(400, "'" + lesson.substr(0, 64) + "' is not a bundled lesson");
  const std::vector<Slot> slots = plan(*l, *session_);
  if (slots.empty()) throw RoomError(409, "the session's traces answer none of " + lesson + "'s questions");
  int next = 0;
  for (const auto& [p, answers] : store_.all_polls()) {
    if (p.lesson == lesson && p.ordinal >= 0) next = p.ordinal + 1;
  }
  if (next >= static_cast<int>(slots.size())) next = 0;  // the lesson again from its first question
  const Slot& sl = slots[static_cast<size_t>(next)];
  return open_question(lesson, next, static_cast<int>(slots.size()), *sl.trace, sl.step, question_of(sl, *session_),
                       sl.item, now);
}

json Room::open_at(const std::string& lesson, const std::string& kernel, uint32_t block_size,
                   const std::string& dtype, size_t step, double now) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!session_) throw RoomError(503, "the server holds no session to ask from (serve --session FILE)");
  const Trace* t = find_trace_of(*session_, kernel, block_size, dtype);
  if (!t) throw RoomError(404, "the server's session has no trace of " + kernel.substr(0, 64) + " at that block size");
  const Lesson* l = lesson.empty() ? nullptr : find_lesson(lesson);
  const Replay r(*t);
  if (step >= r.num_steps()) throw RoomError(400, "that trace has " + std::to_string(r.num_steps()) + " steps");
  const explain::TraceFacts facts = explain::trace_facts(r, t->source, explain::context_in(session_.get(), t->meta));
  const auto asked = predict_question(l, t->meta, explain::step_questions(r, facts, step), step);
  if (!asked) throw RoomError(409, "the trace answers no question at that step");
  return open_question(lesson, -1, 0, *t, step, asked->q, asked->item, now);
}

json Room::open_question(const std::string& lesson, int ordinal, int of, const Trace& t, size_t step,
                         const Question& q, const LessonItem* item, double now) {
  const Replay r(t);
  const json question = {{"kernel", t.meta.kernel},
                         {"block_size", t.meta.block_size},
                         {"dtype", to_string(t.meta.dtype)},
                         {"step", step},
                         {"steps", r.num_steps()},
                         {"kind", explain::to_string(q.kind)},
                         {"ask", sentence_json(explain::ask_for_room(q))},
                         {"warps", r.num_warps()},
                         {"warp", q.warp},
                         {"say", {{"en", item ? item->say.en : ""}, {"zh", item ? item->say.zh : ""}}},
                         {"of", of},
                         {"ask_en", explain::render(explain::ask_for_room(q))},  // lesson-report's words
                         {"key", q.kind == QuestionKind::ShuffleSource ? std::to_string(q.key.at(0)) : q.key_text}};
  if (const auto open = store_.latest_poll(); open && open->state == "open") {
    store_.set_poll(open->id, open->vote, "closed", now);
  }
  const int64_t id = store_.add_poll(lesson, ordinal, question.dump(), now);
  keys_[id] = q;
  return state_locked("");
}

json Room::second_vote(double now) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto p = store_.latest_poll();
  if (!p) throw RoomError(409, "no question is open");
  if (p->vote >= 2) throw RoomError(409, "this question had its second vote");
  store_.set_poll(p->id, 2, "open", now);
  return state_locked("");
}

json Room::reveal(double now) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto p = store_.latest_poll();
  if (!p) throw RoomError(409, "no question is open");
  store_.set_poll(p->id, p->vote, "revealed", now);
  return state_locked("");
}

json Room::answer(const std::string& student, const json& body, double now) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto p = store_.latest_poll();
  if (!p || p->state != "open") throw RoomError(409, "no question is open to answer now");
  if (!body.is_object()) throw RoomError(400, "the answer is not a JSON object");
  if (body.value("poll", int64_t{0}) != p->id || body.value("vote", 0) != p->vote) {
    throw RoomError(409, "that question is no longer open: the room has moved on");
  }
  explain::Answer a;
  if (const auto it = body.find("numbers"); it != body.end() && it->is_array()) {
    for (const json& x : *it) {
      if (!x.is_number_integer() || a.numbers.size() >= 64) throw RoomError(400, "numbers: whole numbers, at most 64");
      a.numbers.push_back(x.get<int64_t>());
    }
  }
  if (const auto it = body.find("text"); it != body.end() && it->is_string()) a.text = it->get<std::string>().substr(0, 64);
  if (a.numbers.empty() && a.text.empty()) throw RoomError(400, "an empty answer");
  const Question* key = key_of(*p);
  if (!key) throw RoomError(500, "the question's lesson changed");
  const Question& q = *key;
  PollAnswer pa;
  pa.student = student;
  pa.vote = p->vote;
  pa.answer = binned(q, a);
  pa.numbers = json{{"numbers", a.numbers}, {"text", a.text}}.dump();
  pa.right = explain::grade(q, a).right;
  pa.seconds = now - p->opened;
  if (!store_.add_answer(p->id, pa, now)) throw RoomError(409, "you answered this vote already");
  return {{"answered", pa.answer}};
}

json Room::state_json(const std::string& student) {
  std::lock_guard<std::mutex> lock(mu_);
  return state_locked(student);
}

json Room::state_locked(const std::string& student) {
  const auto p = store_.latest_poll();
  if (!p) return {{"question", nullptr}};
  json q = json::parse(p->question, nullptr, false);
  if (q.is_object() && !student.empty()) {
    q.erase("key");  // a student's page gets the key with the reveal alone
    q.erase("ask_en");
  }
  json out = {{"poll", p->id}, {"vote", p->vote}, {"state", p->state}, {"lesson", p->lesson},
              {"ordinal", p->ordinal}, {"question", q}};
  const std::vector<PollAnswer> answers = store_.answers(p->id);
  const Question* key = p->state == "revealed" || student.empty() ? key_of(*p) : nullptr;
  if (student.empty()) {  // the instructor: the distribution of each vote, no names
    json votes = json::array();
    for (int v = 1; v <= p->vote; ++v) {
      std::map<std::string, std::pair<int, bool>> bins;
      int n = 0;
      for (const PollAnswer& a : answers) {
        if (a.vote != v) continue;
        ++n;
        auto& b = bins[a.answer];
        ++b.first;
        b.second = a.right;
      }
      json dist = json::array();
      for (const auto& [answer, b] : bins) dist.push_back({{"answer", answer}, {"count", b.first}, {"right", b.second}});
      votes.push_back({{"vote", v}, {"answers", n}, {"bins", dist}});
    }
    out["votes"] = votes;
    if (key) {
      out["key"] = key->kind == QuestionKind::ShuffleSource ? std::to_string(key->key.at(0)) : key->key_text;
      out["reveal"] = sentence_json(explain::reveal_sentence(*key));
    }
    return out;
  }
  for (const PollAnswer& a : answers) {
    if (a.student == student && a.vote == p->vote) out["mine"] = a.answer;
  }
  if (p->state == "revealed" && key) {
    const PollAnswer* last = nullptr;
    for (const PollAnswer& a : answers) {
      if (a.student == student && (!last || a.vote >= last->vote)) last = &a;
    }
    out["key"] = key->kind == QuestionKind::ShuffleSource ? std::to_string(key->key.at(0)) : key->key_text;
    out["verdict"] = sentence_json(last ? explain::verdict_sentence(*key, last->right) : explain::reveal_sentence(*key));
    if (last) out["right"] = last->right;
  }
  return out;
}

std::vector<AnswerFile> room_answer_files(Store& store) {
  std::map<std::string, AnswerFile> by_student;
  for (const auto& [p, answers] : store.all_polls()) {
    const json q = json::parse(p.question, nullptr, false);
    if (!q.is_object()) continue;
    std::map<std::string, std::vector<const PollAnswer*>> mine;
    for (const PollAnswer& a : answers) mine[a.student].push_back(&a);
    for (auto& [student, votes] : mine) {
      std::sort(votes.begin(), votes.end(), [](const PollAnswer* a, const PollAnswer* b) { return a->vote < b->vote; });
      SavedAnswer s;
      s.lesson = p.lesson;
      s.kernel = q.value("kernel", std::string());
      s.block_size = q.value("block_size", 0u);
      s.dtype = q.value("dtype", std::string("int32"));
      s.step = q.value("step", size_t{0});
      s.kind = q.value("kind", std::string());
      s.question = q.value("ask_en", std::string());
      s.key = q.value("key", std::string());
      s.first_try = votes.front()->right;
      s.right = votes.back()->right;
      s.answer = s.right ? votes.back()->answer : "";
      s.tries = static_cast<int>(votes.size());
      for (const PollAnswer* a : votes) {
        if (!a->right) s.wrong.push_back(a->answer);
      }
      s.seconds = votes.back()->seconds;
      AnswerFile& f = by_student[student];
      f.student = student;
      f.path = "class.sqlite (" + student + ")";
      f.lesson = p.lesson;
      f.answers.push_back(std::move(s));
    }
  }
  std::vector<AnswerFile> out;
  for (auto& [student, f] : by_student) out.push_back(std::move(f));
  return out;
}

}  // namespace rs::serve
