#include "runner.hpp"

#include <chrono>
#include <fstream>
#include <regex>

#include <nlohmann/json.hpp>

#include "check_record.hpp"
#include "server_state.hpp"  // now_s
#include "worker.hpp"

namespace rs::serve {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// `text` with every `from` replaced by `to` (the run's path by the file's own name).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) text.replace(at, from.size(), to);
  return text;
}

const char* end_name(WorkerEnd e) {
  switch (e) {
    case WorkerEnd::Exited: return "exited";
    case WorkerEnd::TimedOut: return "timed_out";
    case WorkerEnd::Signaled: return "signaled";
    case WorkerEnd::Cancelled: return "cancelled";
    case WorkerEnd::NotStarted: return "not_started";
  }
  return "exited";
}

constexpr size_t kMaxOutput = 256 * 1024;  // what a run may write, per stream; more is cut (and said)

// The verdict of a run that ended as `wr` with its output: r["line"] (and r["check"] or r["output"]); returns the
// checks passed and run (-1, -1 where there are none: a limit, a fault, a compile error, a Run).
std::pair<int, int> judge(json& r, RunKind kind, int gpu, const WorkerResult& wr, const std::string& out,
                          const std::string& err, const RunnerOptions& o) {
  if (wr.end == WorkerEnd::Cancelled) {
    r["line"] = "stopped after " + std::to_string(static_cast<int>(o.wall_limit_s)) +
                " s, compiling and running together (the server's limit)";
    return {-1, -1};
  }
  if (wr.end != WorkerEnd::Exited) {
    r["line"] = worker_end_message(wr, "kernel.cu", o.kernel_timeout_s);
    return {-1, -1};
  }
  if (kind == RunKind::Check && out.find('{') != std::string::npos) {
    try {
      json doc = json::parse(out);
      const std::vector<ExerciseCheck> checks = checks_from_json(doc.value("checks", json::array()));
      const int passed = static_cast<int>(checks_passed(checks)), ran = static_cast<int>(checks_ran(checks));
      r["check"] = std::move(doc);
      r["line"] = std::to_string(passed) + " of " + std::to_string(ran) + " checks passed" +
                  (all_passed(checks) ? " - exercise done" : "");
      return {passed, ran};
    } catch (const json::exception&) {
      // not JSON: said below from the last line
    }
  }
  r["output"] = out;
  const json& diags = r["diagnostics"];
  if (!diags.empty() && wr.exit_code != 0) {
    int errors = 0;
    for (const json& d : diags) errors += d["severity"] != "warning" && d["severity"] != "remark";
    r["line"] = "does not compile: " + std::to_string(errors) + (errors == 1 ? " error" : " errors") + ", the first at line " +
                std::to_string(diags[0]["line"].get<int>());
  } else if (gpu < 0 && wr.exit_code == 0) {
    r["line"] = "compiles (NVRTC); this server has no GPU, so nothing was run";
  } else {
    const std::string last = last_line(wr.exit_code == 0 ? out : (err.empty() ? out : err));
    r["line"] = last.empty() ? "exit code " + std::to_string(wr.exit_code) : last;
  }
  return {-1, -1};
}

}  // namespace

std::vector<Diagnostic> read_diagnostics(const std::string& stderr_text, const std::string& file_name) {
  static const std::regex re(R"(^(.*?):(\d+)(?::(\d+))?: (catastrophic error|error|warning|remark): (.*)$)");
  std::vector<Diagnostic> out;
  size_t at = 0;
  while (at < stderr_text.size()) {
    size_t end = stderr_text.find('\n', at);
    if (end == std::string::npos) end = stderr_text.size();
    const std::string line = stderr_text.substr(at, end - at);
    at = end + 1;
    std::smatch m;
    if (!std::regex_match(line, m, re) || m[1].str() != file_name) continue;
    out.push_back({std::stoi(m[2].str()), m[3].matched ? std::stoi(m[3].str()) : 0, m[4].str(), m[5].str()});
  }
  return out;
}

Runner::Runner(Store& store, RunnerOptions options, std::function<void(int64_t)> on_change)
    : store_(store), o_(std::move(options)), on_change_(std::move(on_change)) {
  if (o_.gpus.empty()) {
    for (int i = 0; i < std::max(1, o_.compile_workers); ++i) threads_.emplace_back([this] { work(-1); });
  } else {
    for (const int g : o_.gpus) threads_.emplace_back([this, g] { work(g); });
  }
}

Runner::~Runner() {
  stopping_ = true;
  cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void Runner::wake() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++wakes_;
  }
  cv_.notify_all();
}

void Runner::work(int gpu) {
  const std::string stage = gpu >= 0 ? "compiling" : "compiling (no GPU on this server)";
  while (!stopping_) {
    uint64_t seen;
    {
      std::lock_guard<std::mutex> lock(mu_);
      seen = wakes_;
    }
    std::optional<Submission> s;
    try {
      s = store_.take_next(stage);
    } catch (const StoreError&) {
      s.reset();  // the store is busy or failing: try again on the next wake
    }
    if (s) {
      on_change_(s->id);
      run_one(*s, gpu);
      on_change_(s->id);
      continue;
    }
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(2), [&] { return stopping_ || wakes_ != seen; });
  }
}

bool Runner::reuse_earlier(const Submission& s) {
  if (o_.reuse_s <= 0) return false;
  std::optional<Submission> same;
  try {
    same = store_.same_done(s, now_s(), o_.reuse_s);
  } catch (const StoreError&) {
    return false;
  }
  if (!same) return false;
  json then = json::parse(same->result, nullptr, false);
  if (!then.is_object()) return false;
  then["cached_from"] = same->id;
  then["seconds"] = 0;
  const std::string line = then.value("line", std::string()) + " (the same file as #" + std::to_string(same->id) +
                           ", " + std::to_string(static_cast<int>(now_s() - same->finished)) + " s ago)";
  then["line"] = line;
  try {
    store_.finish(s.id, then.dump(), line, same->passed, same->checks, now_s());
  } catch (const StoreError&) {
    return false;
  }
  return true;
}

void Runner::run_one(const Submission& s, int gpu) {
  const auto t0 = std::chrono::steady_clock::now();
  const fs::path dir = o_.runs_dir / std::to_string(s.id);
  const fs::path file = dir / "kernel.cu";
  json r = {{"kind", to_string(s.kind)}, {"exercise", s.exercise}, {"gpu", gpu}};
  auto finish = [&](int passed, int checks) {
    r["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    try {
      store_.finish(s.id, r.dump(), r.value("line", std::string()), passed, checks, now_s());
    } catch (const StoreError& e) {
      // Not stored: the run is queued again when the server starts next (it stays "running").
      (void)e;
    }
  };
  if (reuse_earlier(s)) return;
  std::error_code ec;
  fs::create_directories(dir, ec);
  {
    std::ofstream f(file, std::ios::binary);
    f << s.source;
    if (!f) {
      r["end"] = "not_started";
      r["line"] = "the server could not write the kernel file (its disk): nothing was run";
      finish(-1, -1);
      return;
    }
  }
  std::vector<std::string> args = {"check", file.string(), "--kernel-timeout",
                                   std::to_string(static_cast<int>(o_.kernel_timeout_s + 0.5))};
  if (s.kind == RunKind::Check) args.insert(args.end(), {"--exercise", s.exercise, "--json"});
  if (gpu < 0) args.push_back("--compile-only");
  std::string out, err;
  bool cut = false, compiled = false;
  WorkerOptions w;
  w.timeout_s = o_.kernel_timeout_s;
  w.env = compiling_worker_env();
  if (gpu >= 0) w.env.push_back("CUDA_VISIBLE_DEVICES=" + std::to_string(gpu));
  w.out = [&](const std::string& chunk) {
    if (out.size() < kMaxOutput) out += chunk;
    else cut = true;
  };
  w.err = [&](const std::string& chunk) {
    if (err.size() < kMaxOutput) err += chunk;
    else cut = true;
    if (!compiled && gpu >= 0 && err.find(": OK: NVRTC") != std::string::npos) {
      compiled = true;
      try {
        store_.set_stage(s.id, "on GPU " + std::to_string(gpu));
      } catch (const StoreError&) {
      }
      on_change_(s.id);
    }
  };
  w.cancel = [&] {
    return stopping_.load() ||
           std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > o_.wall_limit_s;
  };
  const WorkerResult wr = run_worker(o_.checker, args, w);
  // Said with the file's own name, not the server's path.
  out = replaced(out, file.string(), "kernel.cu");
  err = replaced(err, file.string(), "kernel.cu");
  r["end"] = end_name(wr.end);
  r["exit"] = wr.exit_code;
  r["output_cut"] = cut;
  json diags = json::array();
  for (const Diagnostic& d : read_diagnostics(err, "kernel.cu")) {
    diags.push_back({{"line", d.line}, {"column", d.column}, {"severity", d.severity}, {"message", d.message}});
  }
  r["diagnostics"] = diags;
  r["stderr"] = err.size() > 8192 ? err.substr(err.size() - 8192) : err;
  if (stopping_ && wr.end == WorkerEnd::Cancelled) return;  // the server stops: queued again on its next start
  const auto [passed, checks] = judge(r, s.kind, gpu, wr, out, err, o_);
  if (s.kind == RunKind::Run && gpu >= 0 && wr.end == WorkerEnd::Exited && wr.exit_code == 0) {
    store_.set_stage(s.id, "tracing on GPU " + std::to_string(gpu));
    on_change_(s.id);
    trace_run(r, s, gpu, dir);
  }
  finish(passed, checks);
}

void Runner::trace_run(json& r, const Submission& s, int gpu, const fs::path& dir) {
  const fs::path trace = dir / "trace.rstrace", page = dir / "trace.html";
  std::string err;
  WorkerOptions w;
  w.timeout_s = o_.kernel_timeout_s;
  w.env = compiling_worker_env();
  w.env.push_back("CUDA_VISIBLE_DEVICES=" + std::to_string(gpu));
  w.err = [&](const std::string& chunk) {
    if (err.size() < kMaxOutput) err += chunk;
  };
  const auto t0 = std::chrono::steady_clock::now();
  w.cancel = [&] {
    return stopping_.load() ||
           std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > o_.wall_limit_s;
  };
  const std::string file = (dir / "kernel.cu").string();
  WorkerResult wr = run_worker(o_.checker, {"trace", "--kernel-file", file, "--n", std::to_string(o_.trace_n),
                                            "--block-size", std::to_string(o_.trace_block_size), "--out",
                                            trace.string(), "--quiet"},
                               w);
  std::error_code ec;
  if (wr.end == WorkerEnd::Exited && wr.exit_code == 0 && fs::is_regular_file(trace, ec)) {
    w.env = {};
    wr = run_worker(o_.exporter, {"export", trace.string(), "--html", page.string()}, w);
    if (wr.end == WorkerEnd::Exited && wr.exit_code == 0 && fs::is_regular_file(page, ec)) {
      r["trace"] = true;
      r["trace_n"] = o_.trace_n;
      r["trace_block_size"] = o_.trace_block_size;
      return;
    }
  }
  const std::string why = wr.end == WorkerEnd::Exited ? last_line(replaced(err, file, "kernel.cu"))
                                                      : worker_end_message(wr, "kernel.cu", o_.kernel_timeout_s);
  r["trace_error"] = why.empty() ? "the trace could not be taken" : why;
}

}  // namespace rs::serve