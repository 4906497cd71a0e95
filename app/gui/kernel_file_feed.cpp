#include "kernel_file_feed.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <system_error>
#include <unistd.h>

#include "session_rows.hpp"     // to_timing
#include "exercises.hpp"
#include "panels.hpp"  // strf
#include "user_kernel.hpp"
#include "said_text.hpp"
#include "worker.hpp"

namespace rs::gui {

namespace fs = std::filesystem;

namespace {

// Seconds between two looks at the file.
constexpr double kLookEvery = 0.25;
// At most this much of a worker's stderr is kept (a kernel that prints in a loop).
constexpr size_t kMaxErr = 64 * 1024;

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string base_name(const std::string& path) { return fs::path(path).filename().string(); }

// "1 element per thread, repeated launches, 32 threads per block or more"
std::string shape_words(const UserLaunchShape& s) {
  return strf(s.inputs_per_thread == 1 ? _("%u element per thread, %s, %u threads per block or more")
                                       : _("%u elements per thread, %s, %u threads per block or more"),
              s.inputs_per_thread, i18n::tr(to_string(s.finish)), s.min_block_size);
}

// The banner for a compile that failed: the first error at its line, and how many more.
std::string compile_banner(const std::string& path, const std::vector<YoursDiagnostic>& d) {
  size_t errors = 0;
  const YoursDiagnostic* first = nullptr;
  for (const YoursDiagnostic& x : d) {
    if (x.severity == "error" || x.severity == "catastrophic error") {
      ++errors;
      if (!first) first = &x;
    }
  }
  if (!first) return strf(_("%s does not compile"), base_name(path).c_str());
  std::string what = first->line ? strf(_("line %u: %s"), first->line, first->message.c_str())
                                  : first->message;
  if (errors > 1) what += strf(errors > 2 ? _(" (and %zu more errors)") : _(" (and %zu more error)"), errors - 1);
  return strf(_("%s does not compile: %s"), base_name(path).c_str(), what.c_str());
}

// The worker's messages begin "reducescope record: " or "reducescope check: ": the window says the file instead.
std::string without_prefix(std::string line) {
  for (const char* p : {"reducescope record: ", "reducescope check: ", "reducescope: "}) {
    if (line.rfind(p, 0) == 0) return line.substr(std::string(p).size());
  }
  return line;
}

// The first sentence of `text` (up to ". " or the end), for a one-line banner.
std::string first_sentence(const std::string& text) {
  const size_t dot = text.find(". ");
  const size_t stop = text.find("\u3002");  // a Chinese full stop (UTF-8 E3 80 82), which no space follows
  if (stop != std::string::npos && (dot == std::string::npos || stop < dot) && stop + 3 < text.size()) {
    return text.substr(0, stop + 3);
  }
  return dot == std::string::npos ? text : text.substr(0, dot + 1);
}

}  // namespace

KernelFileFeed::KernelFileFeed(GpuGate& gate) : gate_(gate) {
  const std::string stem =
      (fs::temp_directory_path() / ("reducescope-" + std::to_string(::getpid()) + "-yours")).string();
  compiled_path_ = stem + ".rsuk";
  session_path_ = stem + ".rssession";
  thread_ = std::thread([this] { loop(); });
}

KernelFileFeed::~KernelFileFeed() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    pending_.reset();
  }
  cv_.notify_all();
  thread_.join();
  std::error_code ec;
  fs::remove(compiled_path_, ec);
  fs::remove(session_path_, ec);
}

// --- The UI's side ---------------------------------------------------------------------------------------------

void KernelFileFeed::open(AppState& s, const std::string& path_in, double timeout_s, const std::string& exercise_in) {
  const std::string path = path_in, exercise = exercise_in;  // copies: either may be a part of s.yours, reset below
  path_ = path;
  timeout_s_ = timeout_s;
  YoursState& y = s.yours;
  y = YoursState{};
  y.path = path;
  y.name = user_kernel_name(path);
  y.status = _("waiting for the GPU check");
  y.busy = true;
  if (!exercise.empty()) {
    if (find_exercise(exercise)) y.exercise = exercise;
    else y.checks_note = strf(_("--exercise: '%s' is not an exercise (%s)"), exercise.c_str(),
                              exercise_names().c_str());
  }
  exercise_seen_ = y.exercise;
  s.yours_selected = true;
  waiting_device_ = true;  // compiled for the GPU's architecture, so the GPU must be known first
  busy_ = false;           // a job of a file opened before is dropped: its results carry an older id
  current_ = Job{};
  seen_ = last_poll_ = Stat{};
  build_ = traces_build_ = checks_build_ = failed_build_ = 0;
  failed_.clear();
  checks_failed_ = false;
  next_look_ = 0;
}

void KernelFileFeed::seeded(AppState& s) {
  traces_build_ = 0;  // of no build of ours: a GPU runs the file as soon as it compiles
  YoursState& y = s.yours;
  if (y.compiled && !s.have_device && !y.traces.empty()) y.stale = y.traces.begin()->second->trace.source != y.source;
  if (!busy_ && !waiting_device_) settle_status(s);
}

KernelFileFeed::Stat KernelFileFeed::stat_of(const std::string& path) {
  Stat st;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return st;
  const auto t = fs::last_write_time(path, ec);
  if (ec) return st;
  st.size = fs::file_size(path, ec);
  if (ec) return st;
  st.exists = true;
  st.mtime = std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  return st;
}

void KernelFileFeed::submit(AppState& s, Job j) {
  j.id = next_id_++;
  j.path = path_;
  j.timeout_s = timeout_s_;
  j.cc = s.have_device ? s.device.cc_major * 10 + s.device.cc_minor : 75;
  j.n = s.n;
  j.pattern = s.pattern;
  j.block_size = s.a.block_size;
  j.exercise = s.yours.exercise;
  current_ = j;
  busy_ = true;
  s.yours.busy = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    pending_ = j;
  }
  cv_.notify_all();
}

bool KernelFileFeed::poll(AppState& s) {
  if (path_.empty()) return false;
  std::deque<Result> got;
  {
    std::lock_guard<std::mutex> lock(mu_);
    got.swap(results_);
  }
  bool new_trace = false;
  for (Result& r : got) take(s, r, new_trace);
  if (waiting_device_) {
    if (!s.device_known) return new_trace;
    waiting_device_ = false;
    seen_ = last_poll_ = stat_of(path_);
    next_look_ = now_s() + kLookEvery;
    if (seen_.exists) {
      Job j;
      j.compile = true;
      j.run = s.have_device;
      j.check = s.have_device && !s.yours.exercise.empty();
      s.yours.status = _("compiling");
      submit(s, j);
    } else {
      s.yours.busy = false;
      s.yours.gone = true;
      s.yours.status = _("waiting for the file");
      s.yours.banner =
          strf(_("%s is not there (yet): the window compiles it when it is saved"), base_name(path_).c_str());
    }
  }
  watch(s);
  if (s.yours.exercise != exercise_seen_) exercise_changed(s);
  if (!busy_) want_next(s);
  return new_trace;
}

// Every 250 ms: a file whose mtime or size changed, and stayed so for one look (an editor may save in steps), is
// compiled; a file that is gone says so and keeps the trace.
void KernelFileFeed::watch(AppState& s) {
  const double t = now_s();
  if (t < next_look_) return;
  next_look_ = t + kLookEvery;
  const Stat now = stat_of(path_);
  YoursState& y = s.yours;
  y.gone = !now.exists;
  if (!now.exists) {
    if (seen_.exists) {
      y.banner = strf(y.traces.empty() ? _("%s was deleted or moved: save it again to go on")
                                       : _("%s was deleted or moved: the replay keeps its last good build; save the "
                                           "file again to go on"),
                      base_name(path_).c_str());
      y.banner_more.clear();
      y.stale = !y.traces.empty();
      if (!busy_) y.status = _("waiting for the file");
    }
    seen_ = last_poll_ = now;
    return;
  }
  if (now == seen_) {
    last_poll_ = now;
    return;
  }
  if (!(now == last_poll_)) {  // changed since the last look: wait one more
    last_poll_ = now;
    return;
  }
  seen_ = now;
  Job j;
  j.compile = true;
  j.run = s.have_device;
  j.check = s.have_device && !y.exercise.empty();
  y.status = _("compiling the saved file");
  submit(s, j);
}

void KernelFileFeed::exercise_changed(AppState& s) {
  YoursState& y = s.yours;
  exercise_seen_ = y.exercise;
  y.checks.clear();
  checks_build_ = 0;
  checks_failed_ = false;
  if (y.exercise.empty()) y.checks_note.clear();
  else if (!s.have_device) y.checks_note = _("The checks run the kernel: they need a CUDA GPU.");
  else y.checks_note = _("The checks run after the next good run.");
}

// What the selection needs next, once nothing is in flight: a run at the selected block size and input where the
// current build has no trace (and did not fail there), else the exercise's checks of the current build.
void KernelFileFeed::want_next(AppState& s) {
  YoursState& y = s.yours;
  if (!y.compiled || !s.have_device || !seen_.exists) return;
  const unsigned bs = s.a.block_size;
  const std::string key = std::to_string(bs) + "/" + std::to_string(s.n) + "/" + to_string(s.pattern);
  const bool same_input = y.n == s.n && y.pattern == to_string(s.pattern);
  const bool have = traces_build_ == build_ && same_input && y.traces.count(bs);
  const bool failed = failed_build_ == build_ && std::find(failed_.begin(), failed_.end(), key) != failed_.end();
  if (s.yours_selected && y.takes(bs) && !have && !failed) {
    Job j;
    j.run = true;
    j.check = !y.exercise.empty() && checks_build_ != build_;
    y.status = strf(_("running at %u threads"), bs);
    submit(s, j);
    return;
  }
  if (!y.exercise.empty() && checks_build_ != build_ && !checks_failed_ && traces_build_ == build_ &&
      !y.traces.empty() && !y.stale) {
    Job j;
    j.check = true;
    y.status = _("checking the exercise");
    y.checks_note = _("Running the checks (every N and block size the exercise asks for)...");
    submit(s, j);
  }
}

void KernelFileFeed::settle_status(AppState& s) const {
  YoursState& y = s.yours;
  y.busy = false;
  if (!seen_.exists) {
    y.status = _("waiting for the file");
  } else if (!y.compiled) {
    size_t errors = 0;
    for (const YoursDiagnostic& d : y.diagnostics) errors += d.severity == "error" || d.severity == "catastrophic error";
    y.status = strf(errors == 1 ? _("does not compile: %zu error") : _("does not compile: %zu errors"), errors);
  } else if (!s.have_device) {
    y.status = y.traces.empty() ? _("compiles; running it needs a CUDA GPU")
               : y.stale ? _("compiles; the replay is a recording of an older text (running it needs a CUDA GPU)")
                         : _("compiles; the replay is the session's recording of this text");
  } else if (y.stale) {
    y.status = _("compiles; its run failed (the banner says why)");
  } else if (auto it = y.traces.find(s.a.block_size); it != y.traces.end()) {
    y.status = strf(_("compiles; traced at %u threads"), s.a.block_size);
  } else {
    y.status = _("compiles");
  }
}

void KernelFileFeed::take(AppState& s, Result& r, bool& new_trace) {
  if (r.job != current_.id) return;  // an older job's (a newer one replaced it)
  YoursState& y = s.yours;
  using K = Result::Kind;
  switch (r.kind) {
    case K::Status:
      y.status = r.text;
      break;
    case K::Compiled:
      y.source = std::move(r.text);
      y.diagnostics = std::move(r.diagnostics);
      y.compiled = r.ok;
      if (r.ok) {
        ++build_;
        y.min_block_size = r.min_block_size;
        y.shape = r.shape;
        y.banner.clear();
        y.banner_more.clear();
        if (!s.have_device) {
          if (!y.exercise.empty()) y.checks_note = _("The checks run the kernel: they need a CUDA GPU.");
          // No GPU to run it again: a session's recording (seeded) stands while the text is the one recorded.
          y.stale = !y.traces.empty() && y.traces.begin()->second->trace.source != y.source;
        } else if (s.yours_selected && s.a.block_size < y.min_block_size) {
          s.a.block_size = y.min_block_size;  // as Pick::valid() does for a shipped kernel
        }
      } else {
        y.banner = compile_banner(path_, y.diagnostics);
        y.banner_more.clear();
        y.stale = !y.traces.empty();
        if (!y.exercise.empty()) {
          y.checks_note = y.checks.empty() ? _("The checks wait for a build that compiles.")
                                           : _("These checks are of the last good build; they run again once the "
                                               "file compiles.");
        }
      }
      break;
    case K::Ran: {
      const std::string key = std::to_string(r.block_size) + "/" + std::to_string(current_.n) + "/" +
                              to_string(current_.pattern);
      if (!r.ok) {
        y.banner = r.text;
        y.banner_more = r.more;
        y.stale = !y.traces.empty();
        if (failed_build_ != build_) failed_.clear();
        failed_build_ = build_;
        failed_.push_back(key);
        if (!y.exercise.empty()) {
          y.checks_note = y.checks.empty() ? _("The checks wait for a good run.")
                                           : _("These checks are of the last good build; they run again after a "
                                               "good run.");
        }
        break;
      }
      const std::string pattern = to_string(current_.pattern);
      if (traces_build_ != build_ || y.n != current_.n || y.pattern != pattern) {
        y.traces.clear();
        y.timings.clear();
        y.wrong_sum.clear();
        y.session.clear();  // a session's recording (seeded) gives way to the runs here
      }
      traces_build_ = build_;
      y.n = current_.n;
      y.pattern = pattern;
      const unsigned bs = r.trace->trace.meta.block_size;
      y.traces[bs] = r.trace;
      if (r.timing) y.timings[bs] = *r.timing;
      if (r.correct) y.wrong_sum.erase(bs);
      else y.wrong_sum.insert(bs);
      y.cub_ms = r.cub_ms;
      y.cub_gbps = r.cub_gbps;
      y.stale = false;
      y.banner = r.text;  // "" or why the sum is wrong
      y.banner_more.clear();
      ++y.arrivals;
      y.last_block_size = bs;
      new_trace = true;
      break;
    }
    case K::Checked:
      checks_build_ = build_;
      if (r.ok) {
        y.checks = std::move(r.checks);
        const size_t passed = checks_passed(y.checks), judged = checks_ran(y.checks);
        y.checks_note = strf(passed == judged ? _("%zu of %zu checks passed: exercise done.")
                                              : _("%zu of %zu checks passed."),
                             passed, judged);
      } else {
        checks_failed_ = true;
        y.checks.clear();
        y.checks_note = strf(_("The checks did not run: %s"), r.text.c_str());
      }
      break;
    case K::Done:
      busy_ = false;
      settle_status(s);
      break;
  }
}

// --- The thread's side -----------------------------------------------------------------------------------------

void KernelFileFeed::post(Result r) {
  std::lock_guard<std::mutex> lock(mu_);
  results_.push_back(std::move(r));
}

bool KernelFileFeed::superseded() {
  std::lock_guard<std::mutex> lock(mu_);
  return stop_ || pending_.has_value();
}

void KernelFileFeed::loop() {
  for (;;) {
    Job j;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return stop_ || pending_.has_value(); });
      if (stop_) return;
      j = *pending_;
      pending_.reset();
    }
    auto status = [&](const std::string& text) {
      Result r(Result::Kind::Status, j.id);
      r.text = text;
      post(std::move(r));
    };
    bool ok = true;
    if (j.compile) {
      status(strf(_("compiling %s (NVRTC, both builds)"), base_name(j.path).c_str()));
      Result c = compile(j);
      ok = c.ok;
      post(std::move(c));
    }
    if (ok && (j.run || j.check) && have_build_ && !superseded()) {
      // The GPU to itself for the run and the checks: the window's GPU worker waits at its next boundary.
      const GpuGate::Held held(gate_);
      if (j.run) {
        status(strf(_("running %s at %u threads in a worker (%d timed samples, then the trace)"),
                    base_name(j.path).c_str(), std::max(j.block_size, build_min_block_), kYoursSamples));
        Result r = run(j);
        ok = r.ok;
        if (r.kind == Result::Kind::Ran) post(std::move(r));  // else stopped for a newer job
      }
      if (ok && j.check && !superseded()) {
        status(strf(_("checking the exercise %s in a worker"), j.exercise.c_str()));
        Result c = check(j);
        if (c.kind == Result::Kind::Checked) post(std::move(c));
      }
    }
    post(Result(Result::Kind::Done, j.id));
  }
}

KernelFileFeed::Result KernelFileFeed::compile(const Job& j) {
  Result out(Result::Kind::Compiled, j.id);
  std::string text;
  read_kernel_file(j.path, text);  // the text the source view shows (its problems come back from the compile too)
  UserCompileOptions opt;
  opt.cc = j.cc;
  UserCompileResult r;
  try {
    r = compile_user_kernel_file(j.path, opt);
  } catch (const std::exception& e) {
    r.diagnostics.push_back({j.path, 0, 0, "error", e.what()});
  }
  auto add = [&](const UserDiagnostic& d) {
    out.diagnostics.push_back({d.line, d.column, d.severity, d.message});
  };
  if (!r.ok()) {
    for (const UserDiagnostic& d : r.diagnostics) add(d);
    out.text = std::move(text);
    return out;
  }
  for (const UserDiagnostic& d : r.kernel->warnings) add(d);
  out.text = r.kernel->source;
  out.min_block_size = r.kernel->shape.min_block_size;
  build_min_block_ = out.min_block_size;
  out.shape = shape_words(r.kernel->shape);
  try {
    save_user_kernel(*r.kernel, compiled_path_);
    have_build_ = true;
    out.ok = true;
  } catch (const std::exception& e) {
    have_build_ = false;
    out.diagnostics.push_back({0, 0, "error", strf(_("cannot hand the build to the worker: %s"), e.what())});
  }
  return out;
}

KernelFileFeed::Result KernelFileFeed::run(const Job& j) {
  Result out(Result::Kind::Ran, j.id);
  const std::string name = user_kernel_name(j.path);
  out.block_size = std::max(j.block_size, build_min_block_);  // a compile's run: the launch shape was not known
  std::error_code ec;
  fs::remove(session_path_, ec);
  const std::vector<std::string> args = {"record",        "--kernel-file", j.path,
                                         "--compiled",    compiled_path_,  "--out",
                                         session_path_,   "--block-size",  std::to_string(out.block_size),
                                         "--n",           std::to_string(j.n), "--pattern",
                                         to_string(j.pattern), "--samples", std::to_string(kYoursSamples)};
  std::string err;
  WorkerOptions w;
  w.timeout_s = j.timeout_s;
  w.err = [&](const std::string& chunk) {
    if (err.size() < kMaxErr) err += chunk;
  };
  w.cancel = [this] { return superseded(); };
  const WorkerResult wr = run_worker(self_executable(), args, w);
  if (wr.end == WorkerEnd::Cancelled) {
    out.kind = Result::Kind::Done;  // not posted: a newer job took over
    return out;
  }
  if (wr.end != WorkerEnd::Exited) {
    out.more = worker_end_message(wr, base_name(j.path), j.timeout_s);
    out.text = first_sentence(out.more);
    return out;
  }
  if (!fs::exists(session_path_, ec)) {
    std::string why = without_prefix(last_line(err));
    if (why.empty()) why = strf(_("the worker ended with exit code %d and wrote no session"), wr.exit_code);
    out.text = base_name(j.path) + ": " + why;
    out.more = err;
    return out;
  }
  try {
    const Session ses = load_session(session_path_);
    fs::remove(session_path_, ec);
    const Trace* t = nullptr;
    for (const Trace& x : ses.traces) {
      if (x.meta.kernel == name) t = &x;  // one block size was recorded
    }
    if (!t) throw std::runtime_error(strf(_("the recorded session holds no trace of %s"), name.c_str()));
    auto loaded = std::make_shared<LoadedTrace>(*t);
    loaded->origin = j.path;
    if (const SessionTiming* st = ses.find_timing(name, t->meta.block_size)) {
      out.timing = to_timing(*st);
      out.correct = st->correct;
      loaded->correct = st->correct;
    }
    out.cub_ms = ses.meta.cub_ms;
    out.cub_gbps = ses.meta.cub_gbps;
    out.trace = std::move(loaded);
    out.ok = true;
    if (wr.exit_code != 0) out.text = base_name(j.path) + ": " + without_prefix(last_line(err));
  } catch (const std::exception& e) {
    out.text = base_name(j.path) + ": " + said_text(e);
  }
  return out;
}

KernelFileFeed::Result KernelFileFeed::check(const Job& j) {
  Result out(Result::Kind::Checked, j.id);
  std::vector<std::string> args = {"check", j.path, "--compiled", compiled_path_, "--exercise", j.exercise,
                                   "--json"};
  // The checks come back as message ids with their arguments (check_record.hpp): the band says them in the window's
  // language, with no --lang for the worker.
  std::string json, err;
  WorkerOptions w;
  w.timeout_s = j.timeout_s;
  w.out = [&](const std::string& chunk) { json += chunk; };
  w.err = [&](const std::string& chunk) {
    if (err.size() < kMaxErr) err += chunk;
  };
  w.cancel = [this] { return superseded(); };
  const WorkerResult wr = run_worker(self_executable(), args, w);
  if (wr.end == WorkerEnd::Cancelled) {
    out.kind = Result::Kind::Done;
    return out;
  }
  if (wr.end != WorkerEnd::Exited) {
    out.text = first_sentence(worker_end_message(wr, base_name(j.path), j.timeout_s));
    return out;
  }
  try {
    const nlohmann::json doc = nlohmann::json::parse(json);
    out.checks = checks_from_json(doc.at("checks"));
    out.ok = true;
  } catch (const std::exception&) {
    const std::string why = without_prefix(last_line(err));
    out.text = why.empty() ? strf(_("exit code %d, no JSON"), wr.exit_code) : why;
  }
  return out;
}

}  // namespace rs::gui
