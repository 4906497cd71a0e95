// reducescope grade (issue 40; app/grading/class_grades.hpp): a class's submissions checked on every GPU at once, one worker process
// per submission (app/worker.hpp: the time limit, a crash kept out of the batch), each worker pinned to its GPU with
// CUDA_VISIBLE_DEVICES; per student Gradescope's results.json, for the class a CSV and a page; shards and Slurm.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>

#include <unistd.h>  // getpid

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "store.hpp"  // serve::Store: --from-server
#include "common.hpp"
#include "compile_ahead.hpp"
#include "exercises.hpp"
#include "class_grades.hpp"
#include "user_kernel_gpu.hpp"
#include "worker.hpp"

namespace rs {
namespace {

namespace fs = std::filesystem;

// Not detail::write_file_atomically: its one "<path>.part" would be shared by the shards side by side that all write
// the same roster.json; here each process has its own temporary name.
bool write_file(const fs::path& p, const std::string& text, std::ostream& err) {
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  const fs::path tmp = p.string() + ".part" + std::to_string(static_cast<long>(getpid()));
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    if (!f) {
      err << "grade: cannot write " << tmp.string() << "\n";
      return false;
    }
  }
  fs::rename(tmp, p, ec);  // whole or not at all: a merge running beside a shard reads no half file
  if (ec) {
    err << "grade: cannot write " << p.string() << ": " << ec.message() << "\n";
    return false;
  }
  return true;
}

// The student's page and, where the build draws charts and the run was timed, its roofline chart beside it.
bool write_student_page(const fs::path& sd, const GradeResult& r, std::ostream& err) {
  bool chart = false, chart_failed = false;
#ifdef REDUCESCOPE_HAS_CHARTS
  if (const std::optional<Roofline> f = roofline_of(r)) {
    try {
      export_roofline(*f, sd.string());
      chart = true;
    } catch (const ExportError& e) {
      err << "grade: " << r.student << "'s chart: " << e.what() << "\n";
      chart_failed = true;
    }
  }
#endif
  return write_file(sd / "report.html", submission_html(r, chart), err) && !chart_failed;
}

// The GPUs to grade on: "all" (every device), or a list "0,2". Throws GradeError for a device that does not exist.
std::vector<int> gpus_of(const std::string& list) {
  const int count = cuda_device_count();
  if (count == 0) {
    throw GradeError("no CUDA GPU here: the checks run the kernels (grade --compile-only grades compiling alone)");
  }
  std::vector<int> out;
  if (list == "all") {
    for (int i = 0; i < count; ++i) out.push_back(i);
    return out;
  }
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    char* end = nullptr;
    const long g = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end || g < 0 || g >= count) {
      throw GradeError("--gpus: '" + item + "' is not a GPU here (0 to " + std::to_string(count - 1) + ")");
    }
    out.push_back(static_cast<int>(g));
  }
  return out;
}

// Reads DIR/students/*/grade.json, by student.
std::vector<GradeResult> read_records(const fs::path& dir, std::ostream& err, bool& all_read) {
  std::vector<GradeResult> rs;
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir / "students", ec)) files.push_back(e.path() / "grade.json");
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) continue;  // a student being graded right now
    std::ostringstream text;
    text << in.rdbuf();
    try {
      rs.push_back(parse_grade_record(text.str(), f.string()));
    } catch (const GradeError& e) {
      err << "grade: " << e.what() << " (left out)\n";
      all_read = false;
    }
  }
  return rs;
}

// DIR/roster.json: the exercise and every student of the grade that writes into DIR (all shards' students), so that a
// merge takes this grade's results only, not an earlier grade's left in the same folder.
std::string roster_json(const std::string& exercise, const std::vector<Submission>& subs) {
  nlohmann::json j = {{"format", "reducescope-grade-roster"}, {"version", 1}, {"exercise", exercise}};
  j["students"] = nlohmann::json::array();
  for (const Submission& s : subs) j["students"].push_back(s.student);
  return j.dump(1) + "\n";
}

int merge(const fs::path& dir, bool hide_names, std::ostream& out, std::ostream& err) {
  bool all_read = true;
  std::vector<GradeResult> rs = read_records(dir, err, all_read);
  // With a roster (every grade since it came in writes one): this grade's students and exercise only.
  std::ifstream roster_in(dir / "roster.json", std::ios::binary);
  if (roster_in) {
    nlohmann::json roster;
    try {
      roster = nlohmann::json::parse(roster_in);
    } catch (const nlohmann::json::exception& e) {
      err << "grade --merge: " << (dir / "roster.json").string() << " is not JSON (" << e.what() << ")\n";
      return kExitRuntime;
    }
    const std::string exercise = roster.value("exercise", std::string());
    std::vector<std::string> names = roster.value("students", std::vector<std::string>{}), stale, missing;
    std::vector<GradeResult> kept;
    for (GradeResult& r : rs) {
      const bool listed = std::find(names.begin(), names.end(), r.student) != names.end();
      if (listed && r.exercise == exercise) kept.push_back(std::move(r));
      else stale.push_back(r.student);
    }
    for (const std::string& n : names) {
      if (std::none_of(kept.begin(), kept.end(), [&](const GradeResult& r) { return r.student == n; })) missing.push_back(n);
    }
    auto list = [](const std::vector<std::string>& v) {
      std::string t;
      for (size_t i = 0; i < v.size() && i < 10; ++i) t += (i ? ", " : "") + v[i];
      return v.size() > 10 ? t + " and " + std::to_string(v.size() - 10) + " more" : t;
    };
    if (!stale.empty()) {
      err << "grade --merge: left out " << stale.size() << " result" << (stale.size() == 1 ? "" : "s")
          << " of an earlier grade in this folder (not on its roster for " << exercise << "): " << list(stale) << "\n";
    }
    if (!missing.empty()) {
      err << "grade --merge: no result yet for " << missing.size() << " of " << names.size()
          << " students (their shard has not finished, or failed): " << list(missing) << "\n";
      all_read = false;
    }
    rs = std::move(kept);
  }
  if (rs.empty()) {
    err << "grade --merge: no results under " << (dir / "students").string() << "\n";
    return kExitRuntime;
  }
  const std::string exercise = rs.front().exercise;
  bool ok = true;
  for (const GradeResult& r : rs) ok = write_student_page(dir / "students" / r.student, r, err) && ok;
  ok = write_file(dir / "class.csv", class_csv(rs), err) && ok;
  ok = write_file(dir / "class.html", class_html(rs, exercise, hide_names), err) && ok;
  int passed = 0;
  for (const GradeResult& r : rs) passed += r.passed();
  out << "class: " << rs.size() << " submissions, " << passed << " passed every check; wrote "
      << (dir / "class.csv").string() << " and " << (dir / "class.html").string() << "\n";
  return ok && all_read ? kExitOk : kExitRuntime;
}

}  // namespace

int run_grade(const Options& o, std::ostream& out, std::ostream& err) {
  try {
    if (!o.merge.empty()) return merge(o.merge, o.hide_names, out, err);
    if (!find_exercise(o.exercise)) {
      err << "reducescope grade: --exercise: '" << o.exercise << "' is not an exercise (" << exercise_names() << ")\n";
      return kExitUsage;
    }
    std::vector<std::string> sources = o.csv_files;
    if (!o.from_server.empty()) {  // serve's store: each student's latest Check of the exercise (issue 55)
      const fs::path folder = fs::absolute(o.out) / "from-server";
      std::error_code ec;
      fs::remove_all(folder, ec);
      fs::create_directories(folder, ec);
      size_t n = 0;
      serve::Store store(o.from_server);
      for (const serve::Submission& s : store.latest_per_student(o.exercise, serve::RunKind::Check)) {
        if (!write_file(folder / (s.student + ".cu"), s.source, err)) return kExitRuntime;  // ids: valid_person_id
        ++n;
      }
      if (!n) {
        err << "reducescope grade: --from-server " << o.from_server << ": no student has checked " << o.exercise
            << " there yet\n";
        return kExitRuntime;
      }
      out << "the latest Check of " << o.exercise << " of " << n << " students, from " << store.file().string()
          << ", in " << folder.string() << "\n";
      sources = {folder.string()};
    }
    std::vector<Submission> subs = find_submissions(sources);
    const fs::path dir = fs::absolute(o.out);
    if (!write_file(dir / "roster.json", roster_json(o.exercise, subs), err)) return kExitRuntime;
    if (o.slurm) {
      SlurmOptions so;
      so.reducescope = self_executable();
      for (const std::string& p : sources) so.submissions.push_back(fs::absolute(p).string());
      so.exercise = o.exercise;
      so.out = dir.string();
      so.shards = static_cast<int>(o.shards);
      so.compile_only = o.compile_only;
      so.kernel_timeout_s = o.kernel_timeout_s;
      so.partition = o.partition;
      std::error_code ec;
      fs::create_directories(dir, ec);
      for (int i = 1; i <= so.shards + 64; ++i) fs::remove(dir / ("shard-" + std::to_string(i) + ".done"), ec);
      if (!write_file(dir / "grade.sbatch", slurm_script(so), err)) return kExitRuntime;
      out << "wrote " << (dir / "grade.sbatch").string() << ": " << so.shards << " tasks over " << subs.size()
          << " submissions" << (so.compile_only ? " (compile only)" : ", one GPU each") << "\n"
          << "submit it: sbatch " << (dir / "grade.sbatch").string() << "\n";
      return kExitOk;
    }
    if (!o.shard.empty()) {
      const auto [i, n] = parse_shard(o.shard);
      subs = shard_of(subs, i, n);
      out << "shard " << i << " of " << n << ": " << subs.size() << " submissions\n";
    }
    // One worker thread per GPU (each runs one check process at a time); compile-only: one per core, no GPU.
    std::vector<int> gpus;
    if (o.compile_only) {
      const unsigned cores = std::min(4u, cmd::usable_cores());
      gpus.assign(cores, -1);
    } else {
      gpus = gpus_of(o.gpu_list);
    }
    out << "grading " << subs.size() << " submissions on exercise " << o.exercise << " with "
        << (o.compile_only ? std::to_string(gpus.size()) + " compile workers (no GPU)"
                           : std::to_string(gpus.size()) + (gpus.size() == 1 ? " GPU" : " GPUs"))
        << "\n";
    const std::string exe = self_executable();
    // Compiling ahead on the CPU while the GPUs check (compile_ahead.hpp).
    std::vector<std::string> files;
    for (const Submission& s : subs) files.push_back(s.problem.empty() ? s.file : "");
    std::unique_ptr<cmd::CompileAhead> ahead =
        o.compile_only ? nullptr : cmd::compile_ahead_for_grade(exe, std::move(files), gpus, out);
    std::atomic<size_t> next{0};
    std::mutex mu;
    size_t done = 0;
    bool wrote = true;
    const auto t0 = std::chrono::steady_clock::now();
    auto work = [&](int gpu) {
      for (size_t k; (k = next++) < subs.size();) {
        const Submission& s = subs[k];
        std::string so, se, stopped;
        bool timed_out = false;
        int exit_code = 0;
        const auto t = std::chrono::steady_clock::now();
        const std::string compiled = ahead ? ahead->take(k) : "";  // "": the check compiles it
        if (s.problem.empty()) {
          std::vector<std::string> args = {"check", s.file};
          if (!compiled.empty()) args.insert(args.end(), {"--compiled", compiled});
          if (o.compile_only) {
            args.push_back("--compile-only");
          } else {
            args.insert(args.end(), {"--exercise", o.exercise, "--json", "--kernel-timeout",
                                     std::to_string(static_cast<int>(o.kernel_timeout_s))});
          }
          WorkerOptions wo;
          wo.timeout_s = o.kernel_timeout_s;
          wo.out = [&](const std::string& c) { so += c; };
          wo.err = [&](const std::string& c) { se += c; };
          wo.env = compiling_worker_env();  // the check compiles, unless compiled ahead (worker.hpp)
          if (gpu >= 0) wo.env.push_back("CUDA_VISIBLE_DEVICES=" + std::to_string(gpu));
          const WorkerResult w = run_worker(exe, args, wo);
          exit_code = w.exit_code;
          if (w.end != WorkerEnd::Exited) {
            stopped = w.end == WorkerEnd::NotStarted ? w.message : worker_end_message(w, s.file, o.kernel_timeout_s);
            timed_out = w.end == WorkerEnd::TimedOut;
          }
        }
        if (ahead) ahead->remove(compiled);
        GradeResult r = grade_from_check(s, o.exercise, o.compile_only, exit_code, so, se, stopped, timed_out);
        r.gpu = gpu;
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
        const fs::path sd = dir / "students" / s.student;
        std::ostringstream werr;
        const bool ok = write_file(sd / "results.json", gradescope_results(r), werr) &&
                        write_file(sd / "grade.json", grade_record(r), werr) &&
                        write_student_page(sd, r, werr);
        const std::lock_guard<std::mutex> lock(mu);
        wrote = wrote && ok;
        err << werr.str();
        ++done;
        char head[64];
        std::snprintf(head, sizeof head, "[%*zu/%zu] ", static_cast<int>(std::to_string(subs.size()).size()), done,
                      subs.size());
        out << head << s.student << ": " << r.score() << "/" << r.max_score() << " " << r.line
            << (gpu >= 0 ? " (GPU " + std::to_string(gpu) + ", " : " (") << cmd::fmt("%.1f", r.seconds) << " s)"
            << std::endl;
      }
    };
    std::vector<std::thread> threads;
    for (int g : gpus) threads.emplace_back(work, g);
    for (std::thread& th : threads) th.join();
    out << "graded " << subs.size() << " submissions in "
        << cmd::fmt("%.1f", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()) << " s";
    if (ahead) out << " (" << cmd::fmt("%.1f", ahead->compile_seconds()) << " s of compiling done beside the GPUs)";
    out << "\n";
    ahead.reset();  // its folder goes
    if (!wrote) return kExitRuntime;
    if (!o.shard.empty()) return kExitOk;  // the class files: grade --merge, once every shard is done
    return merge(dir, o.hide_names, out, err);
  } catch (const GradeError& e) {
    err << "reducescope grade: " << e.what() << "\n";
    return kExitRuntime;
  }
}

}  // namespace rs
