// Settings that persist between runs: UI scale, theme, the selection, play speed, the timing
// tab and the window's place and size. Stored through Dear ImGui's own .ini persistence, as a
// "[ReduceScope][Settings]" section (ImGuiSettingsHandler, imgui_internal.h), in
//   $REDUCESCOPE_CONFIG if set (empty: keep nothing), else
//   $XDG_CONFIG_HOME/reducescope/reducescope.ini, else ~/.config/reducescope/reducescope.ini.
// Unknown or malformed lines are ignored (the defaults stay), so an old or hand-edited file never
// stops the app.
#pragma once

#include <string>

#include "app_state.hpp"

namespace rs::gui {

struct WindowGeometry {
  int x = -1, y = -1;        // -1: let the window manager place it
  int width = 1600, height = 1000;
  bool saved = false;        // read from the settings file (else the defaults above)
};

// The monitor's work area (GLFW's glfwGetMonitorWorkarea: the screen less task bars), in screen
// coordinates.
struct WorkArea {
  int x = 0, y = 0, width = 0, height = 0;
};

// Where the window opens: a saved place and size where the whole window fits in the work area `wa`;
// else the default size (1600 x 1000) centred where it fits; else the whole work area (a 1280 x 720
// projector). `maximize` is set when the window should be maximised, so a window manager fits its
// frame in too. A work area of size 0 (unknown) keeps `g` as it is.
inline WindowGeometry fit_window(WindowGeometry g, const WorkArea& wa, bool* maximize) {
  *maximize = false;
  if (wa.width <= 0 || wa.height <= 0) return g;
  const bool fits = g.width <= wa.width && g.height <= wa.height;
  if (g.saved && fits) {
    const bool inside = g.x >= wa.x && g.y >= wa.y && g.x + g.width <= wa.x + wa.width &&
                        g.y + g.height <= wa.y + wa.height;
    if (!inside && g.x >= 0) {  // a saved place off this monitor: centre the saved size
      g.x = wa.x + (wa.width - g.width) / 2;
      g.y = wa.y + (wa.height - g.height) / 2;
    }
    return g;
  }
  const WindowGeometry d;
  if (d.width <= wa.width && d.height <= wa.height) {
    g.width = d.width;
    g.height = d.height;
  } else {
    g.width = wa.width;
    g.height = wa.height;
    *maximize = true;
  }
  g.x = wa.x + (wa.width - g.width) / 2;
  g.y = wa.y + (wa.height - g.height) / 2;
  return g;
}

// The file settings are kept in; "" when persistence is off. Creates its folder.
std::string settings_path();

// Registers the handler (call after ImGui::CreateContext) and loads `path` if it exists, into
// `s` and `g`, which must outlive the ImGui context. ImGui saves it again when settings change
// and at exit (io.IniFilename is set to `path`).
void load_settings(const std::string& path, AppState* s, WindowGeometry* g);

}  // namespace rs::gui
