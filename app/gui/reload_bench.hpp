// --reload-bench N (issue 19, docs/your-kernel.md "Save -> new trace"): the window's own measure of what a user
// sees after saving a kernel file: from the save to the frame that has the new trace on screen (its buffers
// swapped). A benchmark that prints figures, not a test: `reducescope --kernel-file FILE.cu --reload-bench 20`.
//
// Method: once the first trace of the file is on screen and nothing is in flight (the compile, the run in the
// worker, the exercise's checks), it waits a pause of 100-400 ms (a fixed-seed random draw, so that the saves fall
// at every phase of the feed's 250 ms look at the file) and saves the file: it rewrites it in place with its own
// text plus one comment line that names the save (the text changes, as an edit does, so NVRTC compiles it again).
// Then it waits for the next good run's trace on side A and notes the time after that frame's buffer swap. What
// the figure holds: the feed's look at the file (every 250 ms) and its settle look (one more, kernel_file_feed.hpp),
// the NVRTC compile on the feed's thread, the worker process (start, CUDA context, the record at the selected block
// size and N: timing and the traced launch), reading its session, and the frame. At the end it prints every save
// and the median, p10, p90, min and max in ms, and writes the file's own text back.
//
// It changes the file it is given while it runs: point it at a copy (scripts/device/gui_yours.sh does). With
// --screenshot too, the screenshot is taken once the benchmark is over (the live plot has a point per save).
#pragma once

#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "app_state.hpp"
#include "cli.hpp"

namespace rs::gui {

class ReloadBench {
 public:
  // `saves`: how many (0: off); `path`: the kernel file (--kernel-file); `t_start`: when the window started (the
  // first trace's time is from there). Reads the file's text (to write it back).
  ReloadBench(int saves, std::string path, std::chrono::steady_clock::time_point t_start);
  // Writes the file's own text back if a save of ours is the last thing in it.
  ~ReloadBench();
  ReloadBench(const ReloadBench&) = delete;
  ReloadBench& operator=(const ReloadBench&) = delete;

  bool on() const { return saves_ > 0; }
  // On, and neither every save measured nor stopped early (a --screenshot waits for this to end).
  bool running() const { return on() && rc_ == kExitOk && static_cast<int>(ms_.size()) < saves_; }
  // After each frame's buffer swap: notes a new trace on screen, saves the file when the next save is due.
  // `feed_idle`: nothing in flight (DataFeed::idle). Returns true when the benchmark is over: every save measured,
  // or one that brought no new trace in 60 s (the file does not compile or its run failed: see exit_code()).
  // frame(), last.
  bool frame_shown(const AppState& s, bool feed_idle);
  // Prints the figures (or why there are none) on stdout. run_gui, after the loop.
  void print() const;
  // kExitOk, or kExitRuntime when a save brought no trace or the file could not be written. run_gui.
  int exit_code() const { return rc_; }

 private:
  using Clock = std::chrono::steady_clock;
  bool save();  // writes the text plus this save's comment line; false (and rc_) if it cannot

  int saves_;
  std::string path_, text_;      // the file and its own text
  bool read_ok_ = false;
  Clock::time_point t_start_, t_save_, t_ready_;
  bool saved_ = false;           // a save is waiting for its trace
  bool pausing_ = false;         // the last trace is on screen and the feed idle: waiting until t_ready_
  bool wrote_ = false;           // the file holds a save of ours
  uint64_t base_arrivals_ = 0;   // YoursState::arrivals at the save
  double first_ms_ = -1;         // from the window's start to the first trace on screen
  std::vector<double> ms_;       // each save -> new trace on screen
  std::string why_;              // why it stopped early ("": it did not)
  std::mt19937 rng_{19};
  int rc_ = kExitOk;
};

}  // namespace rs::gui
