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
};

// The file settings are kept in; "" when persistence is off. Creates its folder.
std::string settings_path();

// Registers the handler (call after ImGui::CreateContext) and loads `path` if it exists, into
// `s` and `g`, which must outlive the ImGui context. ImGui saves it again when settings change
// and at exit (io.IniFilename is set to `path`).
void load_settings(const std::string& path, AppState* s, WindowGeometry* g);

}  // namespace rs::gui
