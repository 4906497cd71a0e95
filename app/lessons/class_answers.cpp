#include "class_answers.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "markup.hpp"

#include "kernel_info.hpp"
#include "questions.hpp"
#include "replay.hpp"

namespace rs {
namespace {

using nlohmann::json;

// An answer's value as text: numbers joined with "," (a warp set), a string as it is.
std::string answer_text(const json& j) {
  if (j.is_null()) return "";
  if (j.is_string()) return j.get<std::string>();
  if (j.is_number_integer()) return std::to_string(j.get<long long>());
  if (j.is_number()) {
    std::ostringstream o;
    o << j.get<double>();
    return o.str();
  }
  if (j.is_array()) {
    std::string s;
    for (const json& e : j) s += (s.empty() ? "" : ",") + answer_text(e);
    return s;
  }
  return j.dump();
}

std::string str_or(const json& j, const char* k) {
  return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string();
}

std::string percent(int n, int of) { return of ? number_text("%.0f%%", 100.0 * n / of) : "-"; }

using QKey = std::tuple<std::string, std::string, uint32_t, std::string, size_t, std::string>;  // lesson, kernel, ...
QKey key_of(const SavedAnswer& a) { return {a.lesson, a.kernel, a.block_size, a.dtype, a.step, a.kind}; }

// The question's place in `l`: (its item, its step), or nullopt where the lesson does not ask it.
std::optional<std::pair<size_t, size_t>> place_in(const Lesson& l, const QuestionRow& q) {
  for (size_t i = 0; i < l.items.size(); ++i) {
    const LessonItem& it = l.items[i];
    // "yours" asks of a kernel file: any kernel the registry does not know
    const bool kernel_ok = it.kernel == kYoursKernel ? !find_kernel(q.kernel) && !find_library_kernel(q.kernel)
                                                     : it.kernel == q.kernel;
    if (!kernel_ok || it.block_size != q.block_size || explain::to_string(it.ask) != q.kind) continue;
    if (it.type && to_string(*it.type) != q.dtype) continue;
    if (!it.steps.empty() && std::find(it.steps.begin(), it.steps.end(), q.step) == it.steps.end()) continue;
    return std::make_pair(i, q.step);
  }
  return std::nullopt;
}

// Whether the row is a question about the session (the timings, the bits view, two runs), not about a step.
bool of_session(const QuestionRow& q) {
  const auto k = explain::parse_question_kind(q.kind);
  return k && explain::is_session_kind(*k);
}

std::string question_title(const QuestionRow& q) {
  return q.kernel + " at " + std::to_string(q.block_size) + " threads" + (q.dtype == "float32" ? " (float32)" : "") +
         (of_session(q) ? "" : ", step " + std::to_string(q.step)) + ", " + q.kind;
}

std::string wrong_list(const QuestionRow& q) {
  std::string s;
  for (size_t i = 0; i < q.wrong.size(); ++i) {
    s += (i ? ", " : "") + q.wrong[i].answer + " (" + std::to_string(q.wrong[i].students) +
         (i == 0 ? (q.wrong[i].students == 1 ? " student)" : " students)") : ")");
  }
  return s.empty() ? "none" : s;
}

}  // namespace

AnswerFile parse_answers(const std::string& text, const std::string& path) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw AnswersError(path + ": not an answers file (not JSON: " + e.what() + ")");
  }
  if (!j.is_object() || str_or(j, "format") != "reducescope-answers") {
    throw AnswersError(path + ": not an answers file (\"format\" is not \"reducescope-answers\"; the page's Download "
                              "my answers saves one)");
  }
  if (!j.contains("version") || !j["version"].is_number_integer()) throw AnswersError(path + ": no \"version\"");
  if (j["version"].get<int>() > 1) {
    throw AnswersError(path + ": answers format version " + std::to_string(j["version"].get<int>()) +
                       " is newer than this reducescope reads (1): update reducescope");
  }
  AnswerFile f;
  f.path = path;
  f.student = str_or(j, "student");
  if (f.student.empty()) f.student = std::filesystem::path(path).stem().string();
  f.lesson = str_or(j, "lesson");
  f.page = str_or(j, "page");
  f.gpu = str_or(j, "gpu");
  f.session = str_or(j, "session");
  if (!j.contains("answers") || !j["answers"].is_array()) throw AnswersError(path + ": no \"answers\" list");
  size_t n = 0;
  for (const json& a : j["answers"]) {
    const std::string where = path + ": answer " + std::to_string(++n);
    if (!a.is_object()) throw AnswersError(where + ": not an object");
    SavedAnswer s;
    s.kernel = str_or(a, "kernel");
    s.kind = str_or(a, "kind");
    if (s.kernel.empty()) throw AnswersError(where + ": no \"kernel\"");
    if (!explain::parse_question_kind(s.kind)) throw AnswersError(where + ": \"kind\" is not a question kind");
    if (!a.contains("bs") || !a["bs"].is_number_unsigned()) throw AnswersError(where + ": no block size (\"bs\")");
    if (!a.contains("step") || !a["step"].is_number_unsigned()) throw AnswersError(where + ": no \"step\"");
    s.block_size = a["bs"].get<uint32_t>();
    s.step = a["step"].get<size_t>();
    s.lesson = str_or(a, "lesson");
    s.dtype = str_or(a, "dtype");
    if (s.dtype.empty()) s.dtype = "int32";
    s.question = str_or(a, "question");
    s.answer = a.contains("answer") ? answer_text(a["answer"]) : "";
    s.key = a.contains("key_answer") ? answer_text(a["key_answer"]) : "";
    s.right = a.value("right", false);
    s.first_try = a.value("first_try", false);
    s.tries = a.contains("tries") && a["tries"].is_number_integer() ? a["tries"].get<int>() : 0;
    s.seconds = a.contains("seconds") && a["seconds"].is_number() ? a["seconds"].get<double>() : 0;
    if (a.contains("wrong") && a["wrong"].is_array()) {
      for (const json& w : a["wrong"]) s.wrong.push_back(answer_text(w));
    }
    f.answers.push_back(std::move(s));
  }
  return f;
}

std::string answers_json(const AnswerFile& f) {
  json j = {{"format", "reducescope-answers"}, {"version", 1}, {"lesson", f.lesson}, {"page", f.page}, {"gpu", f.gpu},
            {"session", f.session}, {"student", f.student}, {"answers", json::array()}};
  for (const SavedAnswer& a : f.answers) {
    j["answers"].push_back({{"key", a.kernel + "@" + std::to_string(a.block_size) + "@" + a.dtype + "@" +
                                        std::to_string(a.step) + "@" + a.kind},
                            {"lesson", a.lesson},
                            {"kernel", a.kernel},
                            {"bs", a.block_size},
                            {"dtype", a.dtype},
                            {"step", a.step},
                            {"kind", a.kind},
                            {"question", a.question},
                            {"answer", a.answer.empty() ? json(nullptr) : json(a.answer)},
                            {"key_answer", a.key},
                            {"right", a.right},
                            {"first_try", a.first_try},
                            {"tries", a.tries},
                            {"wrong", a.wrong},
                            {"seconds", a.seconds}});
  }
  return j.dump(1) + "\n";
}

AnswerFile load_answers(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw AnswersError(path + ": cannot be read");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_answers(ss.str(), path);
}

ClassReport make_class_report(const std::vector<AnswerFile>& files, const Lesson* lesson) {
  ClassReport r;
  std::set<std::string> lessons;
  for (const AnswerFile& f : files) {
    lessons.insert(f.lesson);
    if (!f.gpu.empty() && std::find(r.gpus.begin(), r.gpus.end(), f.gpu) == r.gpus.end()) r.gpus.push_back(f.gpu);
  }
  r.lesson = lessons.size() == 1 ? *lessons.begin() : lessons.empty() ? "" : "several";
  if (!lesson && lessons.size() == 1) {
    for (const Lesson& l : bundled_lessons()) {
      if (l.name == r.lesson) lesson = &l;
    }
  }

  std::map<QKey, size_t> index;  // into r.questions, in the order first met
  std::vector<std::vector<double>> times;
  std::vector<std::vector<std::pair<std::string, std::set<std::string>>>> wrongs;  // answer, students: in order given
  std::vector<std::map<QKey, int>> marks;  // per student
  for (const AnswerFile& f : files) {
    marks.emplace_back();
    StudentRow st;
    st.student = f.student;
    st.path = f.path;
    std::set<QKey> seen;
    for (const SavedAnswer& a : f.answers) {
      QKey k = key_of(a);
      if (!seen.insert(k).second) continue;  // asked once per lesson: a second record of it is the same question
      auto [it, fresh] = index.emplace(k, r.questions.size());
      if (fresh) {
        QuestionRow q;
        q.lesson = a.lesson;
        q.kernel = a.kernel;
        q.dtype = a.dtype;
        q.kind = a.kind;
        q.question = a.question;
        q.key = a.key;
        q.block_size = a.block_size;
        q.step = a.step;
        r.questions.push_back(q);
        times.emplace_back();
        wrongs.emplace_back();
      }
      QuestionRow& q = r.questions[it->second];
      ++q.answered;
      q.first_try += a.first_try;
      q.shown += !a.right;
      times[it->second].push_back(a.seconds);
      auto& w = wrongs[it->second];
      for (const std::string& x : a.wrong) {
        auto at = std::find_if(w.begin(), w.end(), [&](const auto& e) { return e.first == x; });
        if (at == w.end()) w.push_back({x, {f.path}});
        else at->second.insert(f.path);
      }
      marks.back()[k] = a.first_try ? 1 : 0;
      ++st.answered;
      st.first_try += a.first_try;
      st.tries += a.tries;
    }
    r.students.push_back(st);
  }
  for (size_t i = 0; i < r.questions.size(); ++i) {
    QuestionRow& q = r.questions[i];
    std::vector<double>& t = times[i];
    std::sort(t.begin(), t.end());
    if (!t.empty()) {
      q.min_s = t.front();
      q.max_s = t.back();
      q.median_s = t.size() % 2 ? t[t.size() / 2] : (t[t.size() / 2 - 1] + t[t.size() / 2]) / 2;
    }
    auto& w = wrongs[i];
    std::stable_sort(w.begin(), w.end(), [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
    for (size_t k = 0; k < w.size() && k < 3; ++k) q.wrong.push_back({w[k].first, static_cast<int>(w[k].second.size())});
  }
  if (lesson) {
    // The lesson's order; what it does not ask (the default question) after, as first met.
    std::vector<std::pair<std::pair<size_t, size_t>, size_t>> order;
    for (size_t i = 0; i < r.questions.size(); ++i) {
      auto p = place_in(*lesson, r.questions[i]);
      order.push_back({p ? *p : std::make_pair(lesson->items.size(), i), i});
    }
    std::stable_sort(order.begin(), order.end());
    std::vector<QuestionRow> sorted;
    for (auto& o : order) sorted.push_back(r.questions[o.second]);
    r.questions = std::move(sorted);
  }
  for (size_t si = 0; si < r.students.size(); ++si) {
    for (const QuestionRow& q : r.questions) {
      auto m = marks[si].find({q.lesson, q.kernel, q.block_size, q.dtype, q.step, q.kind});
      r.students[si].marks.push_back(m == marks[si].end() ? -1 : m->second);
    }
  }
  std::stable_sort(r.students.begin(), r.students.end(),
                   [](const StudentRow& a, const StudentRow& b) { return a.student < b.student; });
  return r;
}

std::string class_report_text(const ClassReport& r) {
  std::ostringstream o;
  o << "lesson " << (r.lesson.empty() ? "(none: a question per step)" : r.lesson) << ": " << r.students.size()
    << (r.students.size() == 1 ? " student, " : " students, ") << r.questions.size() << " questions";
  for (size_t i = 0; i < r.gpus.size(); ++i) o << (i ? ", " : "; recorded on ") << r.gpus[i];
  o << "\n\nQuestions, in the lesson's order:\n";
  for (size_t i = 0; i < r.questions.size(); ++i) {
    const QuestionRow& q = r.questions[i];
    o << "  " << i + 1 << ". " << question_title(q) << (q.question.empty() ? "" : ": " + q.question) << "\n";
    o << "     the trace's answer " << (q.key.empty() ? "?" : q.key) << "; " << q.answered << " answered, "
      << q.first_try << " right at the first try (" << percent(q.first_try, q.answered) << "), " << q.shown
      << " pressed Show; time " << number_text("%.1f", q.median_s) << " s median (" << number_text("%.1f", q.min_s) << "-"
      << number_text("%.1f", q.max_s) << ")\n";
    o << "     most common wrong answers: " << wrong_list(q) << "\n";
  }
  o << "\nMisconception table (the three most common wrong answers; students who gave each):\n";
  o << "  #   kernel           step  kind      answer  first try  wrong answers\n";
  for (size_t i = 0; i < r.questions.size(); ++i) {
    const QuestionRow& q = r.questions[i];
    char line[160];
    std::snprintf(line, sizeof line, "  %-3zu %-16s %4s  %-8s  %-6s  %9s  ", i + 1, q.kernel.c_str(),
                  of_session(q) ? "-" : std::to_string(q.step).c_str(), q.kind.c_str(), q.key.c_str(),
                  percent(q.first_try, q.answered).c_str());
    o << line << wrong_list(q) << "\n";
  }
  o << "\nStudents:\n  student                answered  right at the first try  tries\n";
  for (const StudentRow& s : r.students) {
    char line[200];
    std::string share = "(";  // appended, not "(" + ...: GCC 12's -Wrestrict misfires on that (its bug 105329)
    share.append(percent(s.first_try, s.answered)).append(")");
    std::snprintf(line, sizeof line, "  %-22s %8d  %9d %-12s %5d\n", s.student.c_str(), s.answered, s.first_try,
                  share.c_str(), s.tries);
    o << line;
  }
  return o.str();
}

std::string class_report_csv(const ClassReport& r) {
  std::ostringstream o;
  o << "student,file,answered,right_first_try,tries";
  for (size_t i = 0; i < r.questions.size(); ++i) {
    const QuestionRow& q = r.questions[i];
    std::string name = "q";  // appended, not "q" + ...: GCC 12's -Wrestrict misfires on that (its bug 105329)
    name.append(std::to_string(i + 1)).append(" ").append(q.kernel).append("@").append(std::to_string(q.block_size));
    if (!of_session(q)) name.append(" step ").append(std::to_string(q.step));
    o << "," << csv_field(name.append(" ").append(q.kind));
  }
  o << "\n";
  for (const StudentRow& s : r.students) {
    o << csv_field(s.student) << "," << csv_field(s.path) << "," << s.answered << "," << s.first_try << "," << s.tries;
    for (int m : s.marks) o << "," << (m < 0 ? "" : std::to_string(m));
    o << "\n";
  }
  return o.str();
}

namespace {

// The step's warps x lanes as SVG: a lane that made an instruction in the step filled, the asked warp outlined.
std::string lanes_svg(const Replay& rp, size_t step, int warp) {
  const Step& st = rp.step(step);
  const int warps = static_cast<int>(st.warps.size()), cell = warps > 16 ? 5 : 8, gap = 1;
  const int w = 34 + 32 * (cell + gap), h = 14 + warps * (cell + gap);
  std::ostringstream o;
  o << "<svg xmlns='http://www.w3.org/2000/svg' width='" << w << "' height='" << h << "' role='img' aria-label='step "
    << step << ": lanes that made an instruction'>";
  o << "<text x='0' y='10' font-size='10'>warp</text><text x='34' y='10' font-size='10'>lanes 0-31</text>";
  for (int wi = 0; wi < warps; ++wi) {
    const uint32_t useful = st.warps[wi].useful;
    const int y = 14 + wi * (cell + gap);
    o << "<text x='0' y='" << y + cell << "' font-size='" << std::min(cell + 1, 9) << "'>" << wi << "</text>";
    for (int l = 0; l < 32; ++l) {
      o << "<rect x='" << 34 + l * (cell + gap) << "' y='" << y << "' width='" << cell << "' height='" << cell
        << "' fill='" << ((useful >> l) & 1u ? "#2b7bb9" : "#e4e4e4") << "'/>";
    }
    if (wi == warp) {
      o << "<rect x='33' y='" << y - 1 << "' width='" << 32 * (cell + gap) + 1 << "' height='" << cell + 2
        << "' fill='none' stroke='#d2691e' stroke-width='1.5'/>";
    }
  }
  o << "</svg>";
  return o.str();
}

// A shared access's 32 banks as SVG: per bank, the distinct words its lanes touch (the n of an n-way conflict is
// the tallest bar).
std::string banks_svg(const WarpAccess& a) {
  int most = 1;
  for (auto w : a.banks.words_per_bank) most = std::max<int>(most, w);
  const int bar = 8, h = 60;
  std::ostringstream o;
  o << "<svg xmlns='http://www.w3.org/2000/svg' width='" << 32 * (bar + 1) + 2 << "' height='" << h + 14
    << "' role='img' aria-label='distinct words per bank'>";
  for (int b = 0; b < 32; ++b) {
    const int n = a.banks.words_per_bank[b], bh = n * h / most;
    o << "<rect x='" << b * (bar + 1) << "' y='" << h - bh << "' width='" << bar << "' height='" << bh
      << "' fill='" << (n > 1 ? "#c0392b" : "#2b7bb9") << "'/>";
  }
  o << "<text x='0' y='" << h + 12 << "' font-size='10'>banks 0-31 (tallest: " << most << " words)</text></svg>";
  return o.str();
}

}  // namespace

std::string class_report_html(const ClassReport& r, const Session* session) {
  std::ostringstream o;
  o << "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>ReduceScope lesson report: "
    << html_escape(r.lesson) << "</title><style>body{font:15px/1.4 sans-serif;margin:1.5em;max-width:70em}"
    << "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}"
    << ".q{display:flex;gap:1.5em;border-top:1px solid #aaa;padding:.8em 0}.pic{flex:none}.small{color:#555}"
    << "</style></head><body>";
  o << "<h1>Lesson " << html_escape(r.lesson.empty() ? "(none)" : r.lesson) << ": " << r.students.size()
    << " students, " << r.questions.size() << " questions</h1>";
  if (!r.gpus.empty()) {
    o << "<p class='small'>Answer keys from the trace recorded on ";
    for (size_t i = 0; i < r.gpus.size(); ++i) o << (i ? ", " : "") << html_escape(r.gpus[i]);
    o << ".</p>";
  }
  if (!session) o << "<p class='small'>No pictures: give --session with the session the page was exported from.</p>";
  for (size_t i = 0; i < r.questions.size(); ++i) {
    const QuestionRow& q = r.questions[i];
    std::string pic, why;
    const Trace* t = session && !of_session(q) ? session->find_trace(q.kernel, q.block_size, q.dtype == "float32" ? DType::Float32
                                                                                               : DType::Int32)
                             : nullptr;
    if (session && of_session(q)) {  // the session's answer, without a step's picture
      for (const explain::Question& x : explain::session_questions(*session, q.kernel, q.block_size)) {
        if (explain::to_string(x.kind) == q.kind) why = explain::render(explain::reason(x));
      }
    }
    if (t) {
      try {
        Replay rp(*t);
        if (q.step < rp.num_steps()) {
          int warp = -1;
          for (const explain::Question& x : explain::step_questions(rp, explain::trace_facts(rp, t->source), q.step)) {
            if (explain::to_string(x.kind) != q.kind) continue;
            warp = x.warp;
            why = explain::render(explain::reason(x));
            if (x.kind == explain::QuestionKind::Conflict && x.index >= 0) {
              pic = banks_svg(rp.accesses().at(static_cast<size_t>(x.index))) +
                    "<div class='small'>the access: distinct words per bank</div>";
            }
          }
          pic = lanes_svg(rp, q.step, warp) + "<div class='small'>step " + std::to_string(q.step) +
                ": lanes that made an instruction</div>" + pic;
        }
      } catch (const ReplayError&) {
        // a trace the session cannot replay: the question without its picture
      }
    }
    o << "<div class='q'><div><h3>" << i + 1 << ". " << html_escape(question_title(q)) << "</h3>";
    if (!q.question.empty()) o << "<p><b>" << html_escape(q.question) << "</b></p>";
    o << "<p>The trace's answer: <b>" << html_escape(q.key) << "</b>" << (why.empty() ? "" : ": " + html_escape(why))
      << "</p>";
    o << "<p>" << q.answered << " answered; " << q.first_try << " right at the first try ("
      << percent(q.first_try, q.answered) << "); " << q.shown << " pressed Show. Time: " << number_text("%.1f", q.median_s)
      << " s median (" << number_text("%.1f", q.min_s) << "-" << number_text("%.1f", q.max_s) << ").</p>";
    o << "<table><tr><th>wrong answer</th><th>students</th></tr>";
    for (const WrongAnswer& w : q.wrong) o << "<tr><td>" << html_escape(w.answer) << "</td><td>" << w.students << "</td></tr>";
    if (q.wrong.empty()) o << "<tr><td colspan='2'>none</td></tr>";
    o << "</table></div>";
    if (!pic.empty()) o << "<div class='pic'>" << pic << "</div>";
    o << "</div>";
  }
  o << "<h2>Students</h2><table><tr><th>student</th><th>answered</th><th>right at the first try</th><th>tries</th></tr>";
  for (const StudentRow& s : r.students) {
    o << "<tr><td>" << html_escape(s.student) << "</td><td>" << s.answered << "</td><td>" << s.first_try << " ("
      << percent(s.first_try, s.answered) << ")</td><td>" << s.tries << "</td></tr>";
  }
  o << "</table></body></html>\n";
  return o.str();
}

}  // namespace rs
