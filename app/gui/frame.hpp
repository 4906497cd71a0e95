// One frame of the window, and the App it runs on: what the loop carries from frame to frame. A frame
// reads top to bottom: events, the GPU's results, the keys, the font, then the UI (menu bar, panels,
// File > Open), the selection's consequences, rendering, the automation.
#pragma once

#include <chrono>

#include "app_setup.hpp"
#include "app_state.hpp"
#include "automation.hpp"
#include "cli.hpp"
#include "data_feed.hpp"
#include "exports.hpp"
#include "open_dialog.hpp"
#include "reload_bench.hpp"
#include "theme.hpp"
#include "window_layout.hpp"

namespace rs::gui {

// Each part keeps its own state; AppState (what the panels share) and the window belong to run_gui.
struct App {
  // Starts the GPU worker, opens the command line's kernel file (--kernel-file), then opens the command line's
  // file or asks the GPU for the selection. run_gui, once the window is open.
  App(const Options& o, Surface& surface, AppState& s, std::chrono::steady_clock::time_point t_start);

  const Options& o;
  Surface& surface;  // the window, or the offscreen framebuffer (--headless)
  AppState& s;
  DataFeed feed;      // the GPU worker, or the open file
  Exports exports;    // File > Export
  Panels panels;      // every panel, each with its own view state (window_layout.hpp)
  OpenDialog open_dialog;  // File > Open, File > Open kernel file
  Theme theme;        // font and colours at the UI scale
  Automation automation;  // --frames, --screenshot, --stats, the widget map
  ReloadBench reload;     // --reload-bench: save -> new trace on screen
};

// Runs one frame: polls the events and the GPU worker, reads the keys, draws the UI and renders it,
// then takes the screenshot if one is due. Returns false when the automation is done (the loop ends).
// run_gui's loop.
bool frame(App& app);

}  // namespace rs::gui
