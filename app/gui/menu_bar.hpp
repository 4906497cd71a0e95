// The main menu bar: File (open, export, back to the live GPU, quit), View (compare, large charts,
// focus, contrast, size), Help; and, right-aligned in the room the menus leave, where the data comes from.
#pragma once

#include <string>

#include "actions.hpp"
#include "app_state.hpp"

namespace rs::gui {

struct MenuBar {
  float height = 0;  // pixels: the panels go below it
  Actions actions;   // what was chosen that reaches beyond AppState
};

// Draws the menu bar. View's items and File > Back to the live GPU change `s` here; opening, the
// exports and quitting come back as actions. `export_dir` and `web_page_path` are named in the export
// items' tooltips. frame(), after ImGui::NewFrame and before the panels.
MenuBar draw_menu_bar(AppState& s, const std::string& export_dir, const std::string& web_page_path);

}  // namespace rs::gui
