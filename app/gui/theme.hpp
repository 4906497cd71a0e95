// The UI's font and colours: a large, readable font at the UI scale, and the dark (default) or
// high-contrast theme. Rebuilt whenever AppState's ui_scale or high_contrast changes (Ctrl +/-/0,
// Ctrl H, the View menu).
#pragma once

#include "app_state.hpp"

namespace rs::gui {

class Theme {
 public:
  // `content_scale`: the window's content scale (glfwGetWindowContentScale); fonts and sizes are that
  // times the UI scale. App's constructor.
  explicit Theme(float content_scale) : content_scale_(content_scale) {}
  // Rebuilds the font atlas (and its texture) and the style if the scale or the contrast of `s` differ
  // from those last applied (always on the first call). frame(), before ImGui::NewFrame.
  void update(const AppState& s);

 private:
  float content_scale_;
  float applied_scale_ = 0;  // 0: nothing applied yet
  bool applied_contrast_ = false;
};

}  // namespace rs::gui
