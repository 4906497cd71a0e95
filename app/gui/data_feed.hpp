// Where the replays and timings on screen come from: the live GPU, through GpuWorker's thread, or a
// file opened (a recorded session, or one trace). Without a GPU the bundled H100 session opens. The
// user's own kernel comes from its kernel file (KernelFileFeed) or from a session's "yours" traces, and
// takes side A's place while it is selected (AppState::yours_selected). The App (frame.hpp) owns one;
// frame() polls it once a frame and hands it selection changes.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app_state.hpp"
#include "gpu_worker.hpp"
#include "kernel_file_feed.hpp"

namespace rs::gui {

class DataFeed {
 public:
  // Starts the GPU worker, which opens the device on its own thread. `want_step`: the step the first
  // trace opens at (-1: its middle); `t_start`: when the window started (time 0 of the live plot);
  // `kernel_timeout_s`: the time limit of a user's kernel's GPU work (--kernel-timeout). App's constructor.
  DataFeed(int want_step, std::chrono::steady_clock::time_point t_start, double kernel_timeout_s);

  // Opens `file`, the one named on the command line ("": none), or else asks the GPU for the selection
  // in `s`. `kernel_chosen`: the command line named side A's kernel (--kernel), so a session's "yours" traces
  // do not take side A at the start. App's constructor, once.
  void start(AppState& s, const std::string& file, bool kernel_chosen = false);
  // Opens a session or a trace file into `s`; returns "" or the error. start() and File > Open
  // (open_dialog.cpp).
  std::string open_file(AppState& s, const std::string& path);
  // Opens the user's kernel file `path` (KernelFileFeed::open): side A shows it. `exercise`: checked after each
  // good run ("": none). App's constructor (--kernel-file) and File > Open kernel file (open_dialog.cpp).
  void open_kernel_file(AppState& s, const std::string& path, const std::string& exercise);
  // Takes what the worker finished into `s` (device, traces, timings, live samples, errors). frame(),
  // once a frame.
  void poll(AppState& s);
  // After a panel, a key or the menu changed the selection (s.selection_changed): looks it up in the
  // open session, or asks the GPU. frame(), after the UI.
  void apply_selection(AppState& s);

  // True once the GPU has nothing more to send (it went idle, or there is none, or the file from the
  // command line is open): Automation waits for it before a screenshot.
  bool idle() const { return idle_ && kernel_file_.idle(); }
  // From each change of selection to its trace and timing on screen, ms (--stats).
  const std::vector<double>& latencies_ms() const { return latencies_ms_; }

 private:
  // Puts `t` on screen as side `slot` (0: A, 1: B); side A opens at --step the first time, else at its
  // middle step. open_file, show_from_session, poll.
  void show(AppState& s, int slot, std::shared_ptr<const LoadedTrace> t);
  // Shows side A (and B) from the open session, keeping the step where it can. open_session,
  // apply_selection.
  void show_from_session(AppState& s);
  // Makes `ses` the data shown: its timings, its input, its traces (the GPU's live re-runs pause).
  // open_file.
  void open_session(AppState& s, std::shared_ptr<const Session> ses, const std::string& path);
  // Asks the GPU worker to trace and time the selection (a new input forgets the earlier timings); while the
  // user's kernel is side A, only side B is traced (the kernel file's worker traces A). start, apply_selection.
  void request(AppState& s);
  // Puts the user's kernel's trace at side A's block size on side A (nothing where it has none: the views say
  // why, AppState::yours.missing), at the same step, clamped. poll (a new trace), apply_selection.
  void show_yours(AppState& s);
  // The session's "yours" traces and timings (recorded with `record --kernel-file`) as the user's kernel (with a
  // kernel file of the same name open: its last good trace until it runs here); selects it, unless the command
  // line chose side A's kernel and the session has a trace of it. open_session.
  void take_session_yours(AppState& s);

  GpuGate gate_;                // the GPU's turns between the two below (declared first: it outlives them)
  GpuWorker worker_;
  KernelFileFeed kernel_file_;  // the user's kernel file, when one is open
  std::chrono::steady_clock::time_point t_start_;
  std::string bundled_;  // the session opened when there is no GPU
  int want_step_;        // the first trace opens at this step (-1: its middle)
  double kernel_timeout_s_;  // the time limit of a user's kernel's GPU work
  bool opened_file_ = false;  // start() opened the command line's file
  bool kernel_chosen_ = false;  // start(): the command line named side A's kernel
  bool idle_ = false;
  std::map<const Trace*, std::shared_ptr<const LoadedTrace>> session_traces_;  // replays built so far
  // What the GPU was last asked for: another input makes the earlier timings void.
  uint64_t requested_n_ = 0;
  Pattern requested_pattern_ = Pattern::RandomBytes;
  // Toggle latency: from a change of selection to its trace and timing on screen.
  std::chrono::steady_clock::time_point t_request_{};
  bool waiting_trace_ = false, waiting_timing_ = false;
  std::vector<double> latencies_ms_;
};

}  // namespace rs::gui
