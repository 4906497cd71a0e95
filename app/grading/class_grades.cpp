#include "class_grades.hpp"
#include "worker.hpp"  // last_line

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "exercises.hpp"  // exercise_report_line
#include "markup.hpp"

namespace rs {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A single-quoted shell word.
std::string sh_quote(const std::string& v) {
  std::string o = "'";
  for (char c : v) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

Submission from_folder(const fs::path& dir) {
  Submission s{dir.filename().string(), "", ""};
  std::vector<std::string> cu;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_regular_file() && e.path().extension() == ".cu") cu.push_back(e.path().string());
  }
  std::sort(cu.begin(), cu.end());
  if (cu.empty()) {
    s.problem = "no .cu file in " + s.student + "/";
  } else if (cu.size() > 1) {
    s.problem = std::to_string(cu.size()) + " .cu files in " + s.student + "/ (";
    for (size_t i = 0; i < cu.size(); ++i) s.problem += (i ? ", " : "") + fs::path(cu[i]).filename().string();
    s.problem += "): keep one";
  } else {
    s.file = cu[0];
  }
  return s;
}

// The first line of `text` that says what went wrong, for the one-line verdict.
// The commonest key of `counts` and its count ("" and 0 for none; the first in order among equals).
std::pair<std::string, int> most_common(const std::map<std::string, int>& counts) {
  std::pair<std::string, int> best{"", 0};
  for (const auto& [k, v] : counts) {
    if (v > best.second) best = {k, v};
  }
  return best;
}

std::string first_error_line(const std::string& text) {
  std::istringstream in(text);
  std::string line, first;
  while (std::getline(in, line)) {
    if (first.empty() && !line.empty()) first = line;
    if (line.find("error") != std::string::npos) return line;
  }
  return first;
}

}  // namespace

std::vector<Submission> find_submissions(const std::vector<std::string>& paths) {
  std::vector<Submission> out;
  auto add_entry = [&](const fs::path& p) {
    if (fs::is_directory(p)) out.push_back(from_folder(p));
    else if (p.extension() == ".cu") out.push_back({p.stem().string(), p.string(), ""});
  };
  for (const std::string& path : paths) {
    const fs::path p(path);
    std::error_code ec;
    if (!fs::exists(p, ec)) throw GradeError(path + ": no such file or folder");
    if (paths.size() == 1 && fs::is_directory(p)) {
      // One folder: a folder of students (its .cu files and folders), unless it is itself one student's (it holds
      // .cu files and no folder).
      bool folders = false;
      for (const auto& e : fs::directory_iterator(p, ec)) folders |= e.is_directory();
      if (!folders) {
        for (const auto& e : fs::directory_iterator(p, ec)) {
          if (e.path().extension() == ".cu") add_entry(e.path());
        }
      } else {
        for (const auto& e : fs::directory_iterator(p, ec)) {
          if (e.path().filename().string().rfind('.', 0) == 0) continue;  // .git, .DS_Store
          add_entry(e.path());
        }
      }
    } else {
      add_entry(p);
    }
  }
  std::sort(out.begin(), out.end(), [](const Submission& a, const Submission& b) { return a.student < b.student; });
  for (size_t i = 1; i < out.size(); ++i) {
    if (out[i].student == out[i - 1].student) {
      throw GradeError("two submissions are named " + out[i].student + ": give each student one file or folder");
    }
  }
  return out;
}

std::pair<int, int> parse_shard(const std::string& text) {
  int i = 0, n = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%d/%d%c", &i, &n, &tail) != 2 || n < 1 || i < 1 || i > n) {
    throw GradeError("--shard: '" + text + "' is not I/N with 1 <= I <= N (Slurm's $SLURM_ARRAY_TASK_ID/N)");
  }
  return {i, n};
}

std::vector<Submission> shard_of(const std::vector<Submission>& all, int i, int n) {
  if (n < 1 || i < 1 || i > n) throw GradeError("shard " + std::to_string(i) + " of " + std::to_string(n));
  std::vector<Submission> out;
  for (size_t k = static_cast<size_t>(i - 1); k < all.size(); k += static_cast<size_t>(n)) out.push_back(all[k]);
  return out;
}

const char* to_string(Outcome o) {
  switch (o) {
    case Outcome::Graded: return "graded";
    case Outcome::Compiled: return "compiled";
    case Outcome::CompileError: return "compile error";
    case Outcome::TimedOut: return "time limit";
    case Outcome::Crashed: return "crashed";
    case Outcome::NoFile: return "no file";
  }
  return "?";
}

int GradeResult::score() const {
  if (outcome == Outcome::NoFile || outcome == Outcome::CompileError) return 0;
  if (outcome == Outcome::TimedOut || outcome == Outcome::Crashed) return 0;  // one line and a zero (issue 40)
  return 1 + static_cast<int>(checks_passed(checks));  // 1: it compiled
}

int GradeResult::max_score() const { return 1 + static_cast<int>(checks_ran(checks)); }

namespace {

// The profiler's report and the timing of a `check --json` document or a grade record (the same members in both).
void read_report_and_timing(const json& j, GradeResult& r) {
  if (j.contains("report") && j["report"].is_object()) r.report = j["report"].dump();
  if (j.contains("timing") && j["timing"].is_object()) {
    const json& t = j["timing"];
    r.has_timing = true;
    r.gbps = t.value("gbps", 0.0);
    r.x_reference = t.value("x_reference", 0.0);
    r.user_ms = t.value("user_ms", 0.0);
    r.reference_ms = t.value("reference_ms", 0.0);
    r.reference_kernel = t.value("reference_kernel", "");
  }
}

}  // namespace

GradeResult grade_from_check(const Submission& s, const std::string& exercise, bool compile_only, int exit_code,
                             const std::string& out, const std::string& err, const std::string& stopped,
                             bool timed_out) {
  GradeResult r;
  r.student = s.student;
  r.file = s.file;
  r.exercise = exercise;
  if (!s.problem.empty()) {
    r.outcome = Outcome::NoFile;
    r.line = s.problem;
    return r;
  }
  r.output = err;
  if (!stopped.empty()) {
    r.outcome = timed_out ? Outcome::TimedOut : Outcome::Crashed;
    r.line = stopped;
    r.output = err + (err.empty() || err.back() == '\n' ? "" : "\n") + stopped + "\n";
    return r;
  }
  if (exit_code == 2) {
    r.outcome = Outcome::CompileError;
    r.line = "does not compile: " + first_error_line(err + out);
    return r;
  }
  if (compile_only) {
    r.outcome = exit_code == 0 ? Outcome::Compiled : Outcome::CompileError;
    r.line = exit_code == 0 ? "compiles" : "does not compile: " + first_error_line(err + out);
    return r;
  }
  json j;
  try {
    j = json::parse(out);
  } catch (const json::exception&) {
    // No JSON: check stopped before its checks (a CUDA fault, a trap, no GPU): its last words say why.
    r.outcome = Outcome::Crashed;
    r.line = "did not finish its checks: " + last_line(err.empty() ? out : err);
    return r;
  }
  r.outcome = Outcome::Graded;
  r.checks = checks_from_json(j.value("checks", json::array()));
  read_report_and_timing(j, r);
  const int passed = static_cast<int>(checks_passed(r.checks));
  const int judged = static_cast<int>(checks_ran(r.checks));
  r.line = std::to_string(passed) + " of " + std::to_string(judged) + " checks passed";
  if (judged < static_cast<int>(r.checks.size())) {
    r.line += " (" + std::to_string(r.checks.size() - judged) + " not run here)";
  }
  for (const ExerciseCheck& c : r.checks) {
    if (!c.pass && c.ran) {
      r.line += "; first failed: " + english(c.name) + ": " + english(c.figure);
      break;
    }
  }
  return r;
}

std::string gradescope_results(const GradeResult& r) {
  json tests = json::array();
  const bool compiled = r.outcome == Outcome::Graded || r.outcome == Outcome::Compiled;
  tests.push_back({{"name", "compiles (NVRTC, both builds)"},
                   {"score", compiled ? 1 : 0},
                   {"max_score", 1},
                   {"output", compiled ? std::string("compiles") : r.output.empty() ? r.line : r.output},
                   {"visibility", "visible"}});
  for (const ExerciseCheck& c : r.checks) {  // a check not run on this machine: a test of no points that says so
    tests.push_back({{"name", english(c.name)},
                     {"score", c.pass ? 1 : 0},
                     {"max_score", c.ran ? 1 : 0},
                     {"output", english(c.figure) + (c.pass || !said_anything(c.hint) ? "" : "\nhint: " + english(c.hint))},
                     {"visibility", "visible"}});
  }
  if (!r.report.empty()) {  // the profiler's report, as a test of no points
    tests.push_back({{"name", "profiler's report (no counter permission needed)"},
                     {"score", 0},
                     {"max_score", 0},
                     {"output", exercise_report_line(r.report) + "\n" + json::parse(r.report).value("proof", "")},
                     {"visibility", "visible"}});
  }
  json j = {{"score", r.score()}, {"output", r.line}, {"tests", tests}};
  if (r.has_timing) {
    j["leaderboard"] = json::array({{{"name", "GB/s"}, {"value", std::round(r.gbps * 10) / 10}},
                                    {{"name", "x " + r.reference_kernel}, {"value", std::round(r.x_reference * 100) / 100}},
                                    {{"name", "ms"}, {"value", r.user_ms}, {"order", "asc"}}});
  }
  return j.dump(2) + "\n";
}

std::string grade_record(const GradeResult& r) {
  const json checks = checks_to_json(r.checks);
  json j = {{"format", "reducescope-grade"}, {"version", 1},       {"student", r.student},
            {"file", r.file},                {"exercise", r.exercise}, {"outcome", to_string(r.outcome)},
            {"line", r.line},                {"output", r.output},     {"checks", checks},
            {"gpu", r.gpu},                  {"seconds", r.seconds}};
  if (!r.report.empty()) j["report"] = json::parse(r.report);
  if (r.has_timing) {
    j["timing"] = {{"gbps", r.gbps},
                   {"x_reference", r.x_reference},
                   {"user_ms", r.user_ms},
                   {"reference_ms", r.reference_ms},
                   {"reference_kernel", r.reference_kernel}};
  }
  return j.dump(2) + "\n";
}

GradeResult parse_grade_record(const std::string& text, const std::string& where) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw GradeError(where + ": not a grade record (not JSON: " + e.what() + ")");
  }
  if (!j.is_object() || j.value("format", "") != "reducescope-grade") throw GradeError(where + ": not a grade record");
  if (j.value("version", 0) > 1) throw GradeError(where + ": a grade record newer than this reducescope reads (1)");
  GradeResult r;
  r.student = j.value("student", "");
  r.file = j.value("file", "");
  r.exercise = j.value("exercise", "");
  const std::string o = j.value("outcome", "");
  bool known = false;
  for (Outcome x : {Outcome::Graded, Outcome::Compiled, Outcome::CompileError, Outcome::TimedOut, Outcome::Crashed,
                    Outcome::NoFile}) {
    if (o == to_string(x)) {
      r.outcome = x;
      known = true;
    }
  }
  if (!known || r.student.empty()) throw GradeError(where + ": no student or outcome");
  r.line = j.value("line", "");
  r.output = j.value("output", "");
  r.checks = checks_from_json(j.value("checks", json::array()));
  r.gpu = j.value("gpu", -1);
  r.seconds = j.value("seconds", 0.0);
  read_report_and_timing(j, r);
  return r;
}

namespace {

// The checks' names in order of first appearance over the class.
std::vector<std::string> check_names(const std::vector<GradeResult>& rs) {
  std::vector<std::string> names;
  for (const GradeResult& r : rs) {
    for (const ExerciseCheck& c : r.checks) {
      if (std::find(names.begin(), names.end(), english(c.name)) == names.end()) names.push_back(english(c.name));
    }
  }
  return names;
}

}  // namespace

std::optional<Roofline> roofline_of(const GradeResult& r) {
  if (r.report.empty() || !r.has_timing || r.user_ms <= 0) return std::nullopt;
  const json p = json::parse(r.report);
  Roofline f;
  f.bytes = p.value("input_bytes", 0.0);
  if (!(f.bytes > 0)) return std::nullopt;
  f.ceiling_gbps = p.value("copy_gbps", 0.0);
  f.title = r.student + ": exercise " + r.exercise + ", bytes read against time";
  f.caption = {"Each kernel reads the same " + number_text("%.1f", f.bytes / 1e6) +
               " MB once, so the faster one sits further left; a point on the dashed line would read its bytes at the "
               "copy ceiling (a device-to-device copy's bytes read + written per second, timed in the same run). "
               "Median times at " + std::to_string(p.value("block_size", 0)) + " threads per block."};
  f.points.push_back({r.student, r.user_ms, false});
  if (r.reference_ms > 0) f.points.push_back({r.reference_kernel, r.reference_ms, true});
  return f;
}

std::string submission_html(const GradeResult& r, bool chart) {
  std::ostringstream o;
  o << "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>" << html_escape(r.student) << ": "
    << html_escape(r.exercise) << "</title><style>body{font:15px/1.4 sans-serif;margin:1.5em;max-width:60em}"
    << "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}"
    << ".pass{color:#1a7f37}.fail{color:#c0392b}.small{color:#555}</style></head><body>";
  o << "<h1>" << html_escape(r.student) << ": exercise " << html_escape(r.exercise) << ", " << r.score() << " / "
    << r.max_score() << "</h1><p>" << html_escape(r.line) << "</p>";
  if (!r.checks.empty()) {
    o << "<table><tr><th></th><th>check</th><th>figure</th><th>hint</th></tr>";
    for (const ExerciseCheck& c : r.checks) {
      o << "<tr><td class='" << (!c.ran ? "small'>&#8211;" : c.pass ? "pass'>&#10003;" : "fail'>&#10007;") << "</td><td>" << html_escape(said(c.name))
        << "</td><td>" << html_escape(said(c.figure)) << "</td><td>" << html_escape(c.pass ? "" : said(c.hint)) << "</td></tr>";
    }
    o << "</table>";
  }
  if (!r.report.empty()) {
    const json p = json::parse(r.report);
    o << "<h2>Profiler's report</h2><p>" << html_escape(exercise_report_line(r.report)) << "</p>";
    if (p.contains("active_lanes_per_step") && p["active_lanes_per_step"].is_array()) {
      o << "<p>Active lanes of the working warps, step by step (the traced block at " << p.value("block_size", 0)
        << " threads): ";
      size_t i = 0;
      for (const json& v : p["active_lanes_per_step"]) o << (i++ ? ", " : "") << number_text("%.0f", v.get<double>());
      o << "</p>";
    }
    if (chart) {
      o << "<p><img src='roofline.svg' width='800' alt='bytes read against time: the submission, the reference and "
           "the copy ceiling'></p><p class='small'>The chart as <a href='roofline.png'>PNG</a>, <a href='roofline.pdf'>"
           "PDF</a>, <a href='roofline.csv'>CSV</a>.</p>";
    }
    o << "<p class='small'>" << html_escape(json::parse(r.report).value("proof", "")) << "</p>";
  }
  if (r.outcome != Outcome::Graded && !r.output.empty()) o << "<pre>" << html_escape(r.output) << "</pre>";
  o << "</body></html>\n";
  return o.str();
}

std::string class_csv(const std::vector<GradeResult>& rs) {
  const std::vector<std::string> names = check_names(rs);
  std::ostringstream o;
  o << "student,file,outcome,score,max_score";
  for (const std::string& n : names) o << "," << csv_field(n);
  o << ",gbps,x_reference,gpu,seconds,line\n";
  for (const GradeResult& r : rs) {
    o << csv_field(r.student) << "," << csv_field(r.file) << "," << to_string(r.outcome) << "," << r.score() << ","
      << r.max_score();
    for (const std::string& n : names) {
      auto c = std::find_if(r.checks.begin(), r.checks.end(), [&](const ExerciseCheck& x) { return english(x.name) == n; });
      o << "," << (c == r.checks.end() || !c->ran ? "" : c->pass ? "1" : "0");
    }
    o << "," << (r.has_timing ? number_text("%.1f", r.gbps) : "") << "," << (r.has_timing ? number_text("%.2f", r.x_reference) : "")
      << "," << (r.gpu >= 0 ? std::to_string(r.gpu) : "") << "," << number_text("%.1f", r.seconds) << "," << csv_field(r.line)
      << "\n";
  }
  return o.str();
}

std::string class_html(const std::vector<GradeResult>& rs, const std::string& exercise, bool hide_names) {
  const std::vector<std::string> names = check_names(rs);
  std::ostringstream o;
  const int n = static_cast<int>(rs.size());
  int passed_all = 0;
  for (const GradeResult& r : rs) passed_all += r.passed();
  o << "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>ReduceScope grades: " << html_escape(exercise)
    << "</title><style>body{font:15px/1.4 sans-serif;margin:1.5em;max-width:72em}table{border-collapse:collapse;"
    << "margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}td.n{text-align:right}"
    << ".bar{background:#2b7bb9;height:.8em;display:inline-block}.small{color:#555}</style></head><body>";
  o << "<h1>Exercise " << html_escape(exercise) << ": " << n << " submissions, " << passed_all
    << " passed every check</h1>";
  // Outcomes.
  std::map<std::string, int> outcomes;
  for (const GradeResult& r : rs) ++outcomes[to_string(r.outcome)];
  o << "<h2>Outcomes</h2><table><tr><th>outcome</th><th>submissions</th></tr>";
  for (const auto& [k, v] : outcomes) o << "<tr><td>" << k << "</td><td class='n'>" << v << "</td></tr>";
  o << "</table>";
  // Per check: the pass rate over the submissions that reached it, and the most common failure.
  o << "<h2>Checks</h2><table><tr><th>check</th><th>passed</th><th>pass rate</th><th>most common failure</th></tr>";
  int compiled = 0;
  for (const GradeResult& r : rs) compiled += r.outcome == Outcome::Graded || r.outcome == Outcome::Compiled;
  {
    std::map<std::string, int> why;
    for (const GradeResult& r : rs) {
      if (r.outcome != Outcome::Graded && r.outcome != Outcome::Compiled) ++why[r.line.substr(0, 160)];
    }
    const auto [common, most] = most_common(why);
    const bool ran = std::any_of(rs.begin(), rs.end(), [](const GradeResult& r) { return r.outcome == Outcome::Graded; });
    o << "<tr><td>" << (ran ? "compiles and runs" : "compiles") << "</td><td class='n'>" << compiled << " of " << n << "</td><td class='n'>"
      << (n ? number_text("%.0f%%", 100.0 * compiled / n) : "-") << "</td><td>"
      << (most ? html_escape(common) + " <span class='small'>(" + std::to_string(most) + ")</span>" : "") << "</td></tr>";
  }
  for (const std::string& name : names) {
    int ran = 0, pass = 0;
    std::map<std::string, int> why;
    for (const GradeResult& r : rs) {
      for (const ExerciseCheck& c : r.checks) {
        if (english(c.name) != name || !c.ran) continue;
        ++ran;
        pass += c.pass;
        if (!c.pass) ++why[said(c.figure)];
      }
    }
    const auto [common, most] = most_common(why);
    o << "<tr><td>" << html_escape(name) << "</td><td class='n'>" << pass << " of " << ran << "</td><td class='n'>"
      << (ran ? number_text("%.0f%%", 100.0 * pass / ran) : "-") << "</td><td>"
      << (most ? html_escape(common) + " <span class='small'>(" + std::to_string(most) + ")</span>" : "") << "</td></tr>";
  }
  o << "</table>";
  // Leaderboard and distribution of the passing submissions' speeds.
  std::vector<const GradeResult*> fast;
  for (const GradeResult& r : rs) {
    if (r.passed() && r.has_timing) fast.push_back(&r);
  }
  std::sort(fast.begin(), fast.end(), [](const GradeResult* a, const GradeResult* b) { return a->gbps > b->gbps; });
  o << "<h2>Speed of the submissions that passed every check</h2>";
  if (fast.empty()) {
    o << "<p>None timed (the exercise has no timing, a compile-only grade, or no submission passed).</p>";
  } else {
    // Names hidden: numbered by the sorted roster, so the same student keeps one number across pages.
    std::map<std::string, int> anon;
    for (size_t i = 0; i < rs.size(); ++i) anon[rs[i].student] = static_cast<int>(i) + 1;
    o << "<table><tr><th>#</th><th>student</th><th>GB/s</th><th>x " << html_escape(fast[0]->reference_kernel)
      << "</th><th>ms</th></tr>";
    const double top = fast[0]->gbps > 0 ? fast[0]->gbps : 1;
    for (size_t i = 0; i < fast.size(); ++i) {
      const GradeResult& r = *fast[i];
      o << "<tr><td class='n'>" << i + 1 << "</td><td>"
        << (hide_names ? "student " + std::to_string(anon[r.student]) : html_escape(r.student)) << "</td><td class='n'>"
        << number_text("%.1f", r.gbps) << " <span class='bar' style='width:" << number_text("%.0f", 120 * r.gbps / top)
        << "px'></span></td><td class='n'>" << number_text("%.2f", r.x_reference) << "</td><td class='n'>"
        << number_text("%.4f", r.user_ms) << "</td></tr>";
    }
    o << "</table>";
    // Distribution: counts per tenth of the fastest one's GB/s.
    int bins[10] = {};
    for (const GradeResult* r : fast) bins[std::min(9, static_cast<int>(10 * r->gbps / top))]++;
    int most = *std::max_element(bins, bins + 10);
    o << "<h3>Distribution (GB/s)</h3><svg xmlns='http://www.w3.org/2000/svg' width='440' height='150' role='img' "
      << "aria-label='submissions per GB/s band'>";
    for (int b = 0; b < 10; ++b) {
      const int h = most ? 110 * bins[b] / most : 0;
      o << "<rect x='" << 20 + b * 40 << "' y='" << 120 - h << "' width='36' height='" << h << "' fill='#2b7bb9'/>";
      o << "<text x='" << 20 + b * 40 << "' y='135' font-size='9'>" << number_text("%.0f", top * b / 10) << "</text>";
      if (bins[b]) o << "<text x='" << 32 + b * 40 << "' y='" << 116 - h << "' font-size='10'>" << bins[b] << "</text>";
    }
    o << "<text x='20' y='148' font-size='9'>GB/s (each bar a tenth of the fastest: " << number_text("%.0f", top)
      << ")</text></svg>";
  }
  o << "<h2>Submissions</h2><table><tr><th>student</th><th>score</th><th>outcome</th><th>GPU</th><th>s</th>"
    << "<th>verdict</th></tr>";
  for (size_t i = 0; i < rs.size(); ++i) {
    const GradeResult& r = rs[i];
    o << "<tr><td>"
      << (hide_names ? "student " + std::to_string(i + 1)
                     : "<a href='students/" + html_escape(r.student) + "/report.html'>" + html_escape(r.student) + "</a>")
      << "</td><td class='n'>"
      << r.score() << " / " << r.max_score() << "</td><td>" << to_string(r.outcome) << "</td><td class='n'>"
      << (r.gpu >= 0 ? std::to_string(r.gpu) : "") << "</td><td class='n'>" << number_text("%.1f", r.seconds) << "</td><td>"
      << html_escape(r.line) << "</td></tr>";
  }
  o << "</table></body></html>\n";
  return o.str();
}

std::string slurm_script(const SlurmOptions& o) {
  std::ostringstream s;
  const std::string n = std::to_string(o.shards);
  s << "#!/bin/bash\n"
    << "# ReduceScope: grade " << o.exercise << " as a Slurm job array of " << n << " tasks, one GPU each, written by\n"
    << "# `reducescope grade --slurm`. Submit: sbatch --wait " << sh_quote(o.out + "/grade.sbatch") << "\n"
    << "# Each task grades every " << n << "-th student (grade --shard I/" << n << ") into " << o.out << "/students;\n"
    << "# the last task to finish writes the class files (grade --merge), as does running that by hand.\n"
    << "#SBATCH --job-name=reducescope-grade\n"
    << "#SBATCH --array=1-" << n << "\n"
    << "#SBATCH --ntasks=1\n"
    << "#SBATCH --output=" << o.out << "/slurm-%A_%a.out\n";
  // Eight cores a GPU task: its check's traces run side by side, and the next files compile ahead (docs/grading.md).
  if (!o.compile_only) s << "#SBATCH --gres=gpu:1\n#SBATCH --cpus-per-task=8\n";
  if (!o.partition.empty()) s << "#SBATCH --partition=" << o.partition << "\n";
  s << "set -u\n";
  s << sh_quote(o.reducescope) << " grade";
  for (const std::string& p : o.submissions) s << " " << sh_quote(p);
  s << " --exercise " << sh_quote(o.exercise) << " --out " << sh_quote(o.out) << " --shard \"$SLURM_ARRAY_TASK_ID/"
    << n << "\"";
  if (o.compile_only) s << " --compile-only";
  if (o.kernel_timeout_s > 0) s << " --kernel-timeout " << o.kernel_timeout_s;
  s << "\nrc=$?\n"
    << "# One marker per finished task; the task that finds all " << n << " merges.\n"
    << "touch " << sh_quote(o.out) << "/shard-$SLURM_ARRAY_TASK_ID.done\n"
    << "if [ \"$(ls " << sh_quote(o.out) << "/shard-*.done 2>/dev/null | wc -l)\" -ge " << n << " ]; then\n"
    << "  " << sh_quote(o.reducescope) << " grade --merge " << sh_quote(o.out) << "\n"
    << "fi\n"
    << "exit $rc\n";
  return s.str();
}

}  // namespace rs
