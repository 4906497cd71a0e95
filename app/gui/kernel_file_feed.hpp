// The user's own kernel file in the window (issue 19, docs/your-kernel.md; docs/app.md, "Your own kernel"): File >
// Open kernel file or `--kernel-file FILE.cu`. The file is watched (its mtime and size, every 250 ms); each save is
// compiled with NVRTC on this feed's thread (compile_user_kernel_file, no GPU needed), and on a GPU run with
// `reducescope record --kernel-file FILE --compiled C` in a worker process (app/worker.hpp: a time limit on its GPU
// work; a hang or a CUDA fault ends the worker, not the window), then, with an exercise chosen, checked with
// `reducescope check FILE --exercise NAME --json` in another. The window never waits for any of it: poll() takes
// what finished, once a frame.
//
// What the window shows of it lives in AppState::yours (app_state.hpp). A save that does not compile (or an empty,
// missing or half-written file) keeps the last good trace on screen, marked stale; a run stopped by the time limit
// or a CUDA fault says so in the banner and keeps it too; the next save starts afresh.
//
// The thread runs one job at a time: compile (when the file changed), run (record at the selected block size, N and
// pattern), check (the exercise). A newer job stops the run or check in flight (its worker is killed); a compile in
// flight finishes first (NVRTC cannot be interrupted; 1-3 s). The run and the check have the GPU to themselves:
// they hold the gate (gpu_gate.hpp) the window's GPU worker waits at, so neither's timings are slowed by the other.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app_state.hpp"
#include "gpu_gate.hpp"

namespace rs::gui {

// Samples per timing of the user's kernel: `record --samples` (its minimum; the window wants the trace soon).
inline constexpr int kYoursSamples = 20;

class KernelFileFeed {
 public:
  // `gate`: shared with the window's GPU worker (gpu_gate.hpp), held for each run and check; it outlives the feed.
  explicit KernelFileFeed(GpuGate& gate);
  // Stops a run or check in flight (the worker is killed), waits for a compile in flight, removes the temporary files.
  ~KernelFileFeed();
  KernelFileFeed(const KernelFileFeed&) = delete;
  KernelFileFeed& operator=(const KernelFileFeed&) = delete;

  // Opens `path` (replacing a kernel file open before): side A shows it; it is compiled once the window knows
  // whether it has a GPU (AppState::device_known), then on each save. A file that is not there yet is watched
  // until it is. `timeout_s`: the time limit of its GPU work (--kernel-timeout). `exercise` ("": none) is checked
  // after each good run; an unknown name says so under the exercise combo. DataFeed::open_kernel_file.
  void open(AppState& s, const std::string& path, double timeout_s, const std::string& exercise);
  // Once a frame: looks at the file (every 250 ms), takes what the thread finished into `s.yours`, and starts the
  // next job the selection needs (a run at a block size or input without a trace; the exercise's checks, also when
  // the controls panel's combo chose another exercise). Returns
  // true when a new trace arrived: the caller puts it on screen (DataFeed::show_yours). DataFeed::poll.
  bool poll(AppState& s);

  // The session's recording of this kernel file was put in AppState::yours.traces (DataFeed::take_session_yours):
  // marked stale where the file's text, once compiled, is not the recorded one; replaced by the first run here.
  void seeded(AppState& s);

  // True when nothing is in flight or waiting (Automation waits for it before a screenshot).
  bool idle() const { return !busy_ && !waiting_device_; }
  bool is_open() const { return !path_.empty(); }

 private:
  struct Job {
    uint64_t id = 0;
    bool compile = false;      // compile the file first (it changed); else run the last good build
    bool run = false;          // record at block_size, n, pattern (needs a GPU)
    bool check = false;        // then the exercise's checks
    std::string path;
    int cc = 75;               // compile for compute_<cc> (the GPU's, or 75 without one)
    unsigned block_size = 256;
    uint64_t n = 0;
    Pattern pattern = Pattern::RandomBytes;
    double timeout_s = 5;
    std::string exercise;
  };
  // What the thread posts back.
  struct Result {
    enum class Kind { Compiled, Ran, Checked, Status, Done };
    Result(Kind k, uint64_t j) : kind(k), job(j) {}
    Kind kind;
    uint64_t job;
    bool ok = false;
    std::string text;                          // Compiled: the file's text; Status: the line; Ran/Checked: the error
    std::string more;                          // Ran: the whole of an error (the worker's end message)
    std::vector<YoursDiagnostic> diagnostics;  // Compiled
    unsigned min_block_size = 32;              // Compiled
    std::string shape;                         // Compiled: the launch shape in words
    std::shared_ptr<const LoadedTrace> trace;  // Ran
    unsigned block_size = 0;                   // Ran: the block size it ran at
    std::optional<Timing> timing;              // Ran: the record's timing row
    bool correct = true;                       // Ran: the sums matched the CPU reference
    double cub_ms = 0, cub_gbps = 0;           // Ran
    std::vector<ExerciseCheck> checks;            // Checked
  };
  // The file as last looked at.
  struct Stat {
    bool exists = false;
    int64_t mtime = 0;  // nanoseconds
    uintmax_t size = 0;
    bool operator==(const Stat& o) const { return exists == o.exists && mtime == o.mtime && size == o.size; }
  };

  void loop();
  void post(Result r);
  bool superseded();  // a newer job waits, or the feed is closing
  void submit(AppState& s, Job j);
  void take(AppState& s, Result& r, bool& new_trace);
  void watch(AppState& s);
  void want_next(AppState& s);
  // AppState::yours.exercise changed (the controls panel's combo): its checks run after the next good run, or now
  // if there is one.
  void exercise_changed(AppState& s);
  // The status line once nothing is in flight.
  void settle_status(AppState& s) const;
  static Stat stat_of(const std::string& path);
  // Thread side: one step each.
  Result compile(const Job& j);
  Result run(const Job& j);
  Result check(const Job& j);

  // UI side.
  std::string path_;             // "": no kernel file open
  double timeout_s_ = 5;
  bool waiting_device_ = false;  // open() until the first compile is submitted (the GPU, and its architecture, known)
  std::string exercise_seen_;    // AppState::yours.exercise as last seen (the controls panel's combo changes it)
  Stat seen_, last_poll_;        // the file when it was last compiled; at the last poll
  double next_look_ = 0;         // steady seconds of the next look at the file
  bool busy_ = false;            // a job submitted and not Done
  Job current_;                  // the last job submitted
  uint64_t next_id_ = 1;
  uint64_t build_ = 0;           // good compiles so far: the traces' build is traces_build_
  uint64_t traces_build_ = 0, checks_build_ = 0, failed_build_ = 0;
  std::vector<std::string> failed_;  // runs that failed on failed_build_ ("block size/n/pattern"): not retried until
                                     // the next save
  bool checks_failed_ = false;    // the checks of checks_build_ failed to run (not retried)

  // Shared with the thread.
  std::mutex mu_;
  std::condition_variable cv_;
  std::optional<Job> pending_;
  std::deque<Result> results_;
  bool stop_ = false;
  // Thread side: where the build and the record go (temporary files of this process).
  std::string compiled_path_, session_path_;
  bool have_build_ = false;      // compiled_path_ holds the last good build
  unsigned build_min_block_ = 32;  // its launch shape's minimum block size
  GpuGate& gate_;
  std::thread thread_;
};

}  // namespace rs::gui
