// Where the replays and timings on screen come from: the live GPU, through GpuWorker's thread, or a
// file opened (a recorded session, or one trace). Without a GPU the bundled H100 session opens. The
// App (frame.hpp) owns one; frame() polls it once a frame and hands it selection changes.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app_state.hpp"
#include "gpu_worker.hpp"

namespace rs::gui {

class DataFeed {
 public:
  // Starts the GPU worker, which opens the device on its own thread. `want_step`: the step the first
  // trace opens at (-1: its middle); `t_start`: when the window started (time 0 of the live plot).
  // App's constructor.
  DataFeed(int want_step, std::chrono::steady_clock::time_point t_start);

  // Opens `file`, the one named on the command line ("": none), or else asks the GPU for the selection
  // in `s`. App's constructor, once.
  void start(AppState& s, const std::string& file);
  // Opens a session or a trace file into `s`; returns "" or the error. start() and File > Open
  // (open_dialog.cpp).
  std::string open_file(AppState& s, const std::string& path);
  // Takes what the worker finished into `s` (device, traces, timings, live samples, errors). frame(),
  // once a frame.
  void poll(AppState& s);
  // After a panel, a key or the menu changed the selection (s.selection_changed): looks it up in the
  // open session, or asks the GPU. frame(), after the UI.
  void apply_selection(AppState& s);

  // True once the GPU has nothing more to send (it went idle, or there is none, or the file from the
  // command line is open): Automation waits for it before a screenshot.
  bool idle() const { return idle_; }
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
  // Asks the GPU worker to trace and time the selection (a new input forgets the earlier timings).
  // start, apply_selection.
  void request(AppState& s);

  GpuWorker worker_;
  std::chrono::steady_clock::time_point t_start_;
  std::string bundled_;  // the session opened when there is no GPU
  int want_step_;        // the first trace opens at this step (-1: its middle)
  bool opened_file_ = false;  // start() opened the command line's file
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
