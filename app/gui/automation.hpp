// What tests and screenshots drive the window with (cli.hpp's window automation options): --frames,
// --screenshot (once the GPU work has settled), --stats (frame times, toggle latency), and the widget
// map that tests/gui_xvfb.sh clicks by ($REDUCESCOPE_WIDGET_MAP). With $REDUCESCOPE_SCREENSHOT_AFTER (a path),
// the screenshot also waits until that file exists, then 3 more frames: a test sends its input, then creates
// the file, instead of holding the window open for a fixed number of frames.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "app_setup.hpp"
#include "app_state.hpp"
#include "cli.hpp"


namespace rs::gui {

class Automation {
 public:
  // `t_start`: when the window started. App's constructor.
  Automation(const Options& o, std::chrono::steady_clock::time_point t_start);

  // Marks the start of a frame's work, after its events. frame(), first.
  void start_frame();
  // Writes the widget map, if asked for. frame(), after ImGui::Render.
  void write_widget_map() const;
  // Counts the frame, its time so far (UI + render), and takes the screenshot once it is due: `idle`
  // GPU work (and the user's kernel file's compile and run) settled for 3 frames, at least --frames frames, no
  // export running, and 3 frames since $REDUCESCOPE_SCREENSHOT_AFTER appeared where it is set (or after 120 s). Prints what is shown, and the user's kernel's status where one is open.
  // Returns true when the run is done (the screenshot, or --frames frames without one). frame(), after
  // rendering and before the buffers swap.
  bool end_frame(const Surface& surface, const AppState& s, bool idle, bool exporting);
  // Notes when the first frame was on screen. frame(), after the buffers swap. With --stats and a kernel file open,
  // also prints a line each time a new trace of it is on screen ("yours: trace N on screen at T s") and each time
  // its banner changes (a fault, the time limit), for scripts that time a save against what the window shows
  // (scripts/device/fault_sequence.sh).
  void frame_shown(const AppState& s);
  // With --stats, prints the first frame's time, the frame times and each toggle latency on stdout.
  // run_gui, after the loop.
  void print_stats(const std::vector<double>& latencies_ms) const;
  // kExitOk, or kExitRuntime if the screenshot could not be written. run_gui, last.
  int exit_code() const { return rc_; }

 private:
  const Options& o_;
  std::chrono::steady_clock::time_point t_start_, t_frame_;
  std::string widget_map_;  // $REDUCESCOPE_WIDGET_MAP (GUI tests): where to write widget rectangles
  std::string after_file_;  // $REDUCESCOPE_SCREENSHOT_AFTER (GUI tests): the screenshot waits for this file
  int frame_ = 0, frames_after_idle_ = -1, frames_after_file_ = -1;
  uint64_t yours_arrivals_ = 0;  // --stats: the user's kernel's traces already said to be on screen
  std::string yours_banner_;     // --stats: its banner as last said
  int rc_ = kExitOk;
  double first_frame_ms_ = 0;
  std::vector<double> frame_ms_;  // CPU time to build and render each frame
};

}  // namespace rs::gui
