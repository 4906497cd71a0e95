// Reads top to bottom: setup, the loop (one frame() at a time), shutdown in reverse. The parts:
//   app_setup.*    the command line over the settings, the window, ImGui's backends; closing them
//   headless.*     --headless: the window's frames in an offscreen EGL framebuffer, no X server
//   frame.*        App (what the loop carries) and one frame: input, UI, render, automation
//   keys.*         the key queue and the shortcuts       menu_bar.*     the main menu bar
//   data_feed.*    the GPU worker or an open file        open_dialog.*  File > Open
//   exports.*      File > Export (charts, web page)      theme.*        font and colours
//   automation.*   --frames, --screenshot, --stats and the GUI tests' widget map
//   window_layout.*, layout.*: where the panels go; *_panel.cpp: the panels.
#include "gui_app.hpp"

#include <imgui.h>

#include <chrono>

#include "app_setup.hpp"
#include "frame.hpp"
#include "settings.hpp"

namespace rs {

int run_gui(const Options& o) {
  const auto t_start = std::chrono::steady_clock::now();
  // --- Setup: the settings, the window they place, the app's state -------------------------
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  gui::AppState s;  // what the panels share; it and `geom` outlive the ImGui context, which saves them
  gui::WindowGeometry geom;
  gui::load_settings(gui::settings_path(), &s, &geom);
  gui::apply_options(o, s);  // the command line overrides the saved settings
  // The language before anything is said (the first notices and errors); a failure is said by the first frame.
  if (s.lang != i18n::Lang::En) i18n::set_language(s.lang);
  gui::Surface surface;  // the window, or with --headless the offscreen framebuffer
  if (!gui::open_surface(o, &geom, &surface)) {
    ImGui::DestroyContext();
    return kExitRuntime;
  }
  gui::App app(o, surface, s, t_start);  // starts the GPU worker; opens o.file or asks the GPU for the selection

  // --- Loop: one frame at a time, until the window closes or the automation is done --------
  while (!gui::should_close(surface)) {
    if (!gui::frame(app)) break;
  }
  app.automation.print_stats(app.feed.latencies_ms());
  app.reload.print();

  // --- Shutdown (reverse order) ------------------------------------------------------------
  gui::remember_geometry(surface, &geom);  // for the settings, saved as the ImGui context goes
  app.exports.wait();
  gui::close_surface(surface);
  return app.automation.exit_code() != kExitOk ? app.automation.exit_code() : app.reload.exit_code();
}

}  // namespace rs
