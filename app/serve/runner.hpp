// The runs of `reducescope serve` (issue 55): workers that take the store's queued submissions, fairly (one running
// per student, the oldest first: Store::take_next), and check each in a worker process of its own, as `grade`
// does (grading/worker.hpp): `reducescope check FILE [--exercise X --json]` with CUDA_VISIBLE_DEVICES naming the
// worker's GPU, the kernel's time limit, and a wall limit on the whole run (NVRTC included). A hang, fault or trap
// ends that run only: the worker's process tree is killed and its CUDA context gone before the next run.
//
// The student's text reaches NVRTC and nothing else: it is written to RUNS/ID/kernel.cu (a name of ours) and that
// path alone is given to the checker; no name or option from a request reaches a command line.
//
// Index
//   RunnerOptions   the checker program, GPUs, limits, where the files go
//   RunResult       what a run gave, as the JSON the store keeps and the page reads (result_json)
//   Runner          the worker threads
//   read_diagnostics()  NVRTC's diagnostics for kernel.cu from the checker's stderr (line, column, severity, text)
#pragma once

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "store.hpp"

namespace rs::serve {

struct RunnerOptions {
  std::string checker;              // the program that checks and traces a file: this reducescope
                                    // (self_executable()), or the one --checker names
  std::string exporter;             // the program that makes a trace's page (`export T.rstrace --html`, no GPU):
                                    // this reducescope
  uint64_t trace_n = 4097;          // a Run's trace: block 0 at this N and block size (the exercises' own)
  unsigned trace_block_size = 256;
  std::vector<int> gpus;            // one worker per GPU (CUDA_VISIBLE_DEVICES); empty: compile-only workers
  int compile_workers = 2;          // without a GPU: workers that compile only (NVRTC's verdict)
  double kernel_timeout_s = 5;      // the kernel's limit (check --kernel-timeout)
  double wall_limit_s = 180;        // the whole run's limit, NVRTC and compute-sanitizer included, seconds
  std::filesystem::path runs_dir;   // RUNS/ID/kernel.cu
  // A file sent again as it was (the same exercise, kind and bytes) within this many seconds gets the verdict it got
  // then, said as such (Check pressed twice; a class handing in the starting file). 0: every run is made.
  // compute-sanitizer makes a check cost ~5 s of wall and 10 s of CPU on the H100, and only ~0.3 checks a second
  // fit one GPU (docs/serve.md), so a repeat is not run again.
  double reuse_s = 600;
};

struct Diagnostic {
  int line = 0, column = 0;
  std::string severity, message;
};
// Lines "FILE:LINE[:COL]: SEVERITY: TEXT" of `file_name` in `stderr_text` (user_kernel.hpp's format_diagnostic).
std::vector<Diagnostic> read_diagnostics(const std::string& stderr_text, const std::string& file_name);

class Runner {
 public:
  // on_change(id): a submission's state or stage changed (the server tells the pages).
  Runner(Store& store, RunnerOptions options, std::function<void(int64_t)> on_change);
  ~Runner();  // stops the workers; a run in flight is killed and queued again on the next start
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  void wake();  // a submission was queued
  // Where the same file (exercise, kind, bytes) got its verdict within RunnerOptions::reuse_s: gives `s` that
  // verdict ("cached_from": its id; its line says "the same file as #ID, S s ago") and returns true. The server asks
  // at once when a file arrives, and a worker again when it takes one (the first may still have been running).
  bool reuse_earlier(const Submission& s);
  size_t workers() const { return threads_.size(); }

 private:
  void work(int gpu);
  void run_one(const Submission& s, int gpu);
  // After a Run whose sums are right: block 0 traced by the checker (`trace --kernel-file`, the binary tracer for a
  // plain file) into DIR/trace.rstrace, and its page made (`export --html`) into DIR/trace.html, which the server
  // serves to the student. Sets r["trace"] (true) or r["trace_error"] (the line why not).
  void trace_run(nlohmann::json& r, const Submission& s, int gpu, const std::filesystem::path& dir);
  Store& store_;
  RunnerOptions o_;
  std::function<void(int64_t)> on_change_;
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable cv_;
  uint64_t wakes_ = 0;
  std::atomic<bool> stopping_{false};
};

}  // namespace rs::serve
