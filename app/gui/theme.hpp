// The UI's font and colours: a large, readable font at the UI scale, and the dark (default) or
// high-contrast theme. Rebuilt whenever AppState's ui_scale or high_contrast changes (Ctrl +/-/0,
// Ctrl H, the View menu).
#pragma once

#include <string>
#include <vector>

#include <imgui.h>

#include "app_state.hpp"

namespace rs::gui {

// Where the Chinese font (Noto Sans CJK's collection, NotoSansCJK-Regular.ttc) is looked for, in order:
// $REDUCESCOPE_CJK_FONT, fonts/ beside the binary, ../share/reducescope/fonts/ from it (`cmake --install`), and
// Debian's /usr/share/fonts/opentype/noto/.
std::vector<std::string> cjk_font_candidates();
// For the window when Chinese is chosen and none of those files is there: which file, every place looked, and how
// to put it there.
std::string font_missing_message();

class Theme {
 public:
  // `content_scale`: the window's content scale (glfwGetWindowContentScale); fonts and sizes are that
  // times the UI scale. App's constructor.
  explicit Theme(float content_scale) : content_scale_(content_scale) {}
  // Rebuilds the font atlas (and its texture) and the style if the scale, the contrast or the language of `s`
  // differ from those last applied (always on the first call). frame(), before ImGui::NewFrame. Chinese merges
  // Noto Sans CJK SC into the atlas; false where its font file is missing (the text then shows '?').
  bool update(const AppState& s);

 private:
  float content_scale_;
  float applied_scale_ = 0;  // 0: nothing applied yet
  bool applied_contrast_ = false;
  i18n::Lang applied_lang_ = i18n::Lang::En;
  ImVector<ImWchar> cjk_ranges_;  // the Chinese glyph ranges the atlas was built with (it keeps a pointer)
};

}  // namespace rs::gui
