#include "theme.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "i18n.hpp"

namespace rs::gui {

namespace {

namespace fs = std::filesystem;

// Noto Sans CJK SC (Debian's fonts-noto-cjk; face 2 of the collection: JP, KR, SC, TC, HK), for Chinese.
constexpr const char* kCjkFontName = "NotoSansCJK-Regular.ttc";
constexpr int kCjkFaceSc = 2;

// The Chinese glyphs the atlas needs: Dear ImGui's 2500 common simplified characters and the CJK punctuation,
// plus every character of the compiled catalogue (its bytes read as UTF-8: the translations' characters are
// all there, whatever their frequency). `ranges` must outlive the atlas's build.
void cjk_ranges(ImVector<ImWchar>* ranges) {
  ImFontGlyphRangesBuilder b;
  b.AddRanges(ImGui::GetIO().Fonts->GetGlyphRangesChineseSimplifiedCommon());
  const std::string dir = i18n::catalogue_dir();
  if (!dir.empty()) {
    std::ifstream f(fs::path(dir) / "zh_CN" / "LC_MESSAGES" / "reducescope.mo", std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    // Control bytes (the file's NUL separators, its binary header) become spaces: a range from code point 0
    // would end the zero-terminated ranges array before it begins.
    for (char& c : bytes) {
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    }
    b.AddText(bytes.data(), bytes.data() + bytes.size());
  }
  b.AddText("中文");
  b.BuildRanges(ranges);
}

// A large, readable UI font from Debian's fonts-dejavu-core, with Noto Sans CJK SC merged in for Chinese;
// ImGui's built-in font if DejaVu is missing. Returns false where Chinese needs the CJK font and it is missing.
bool load_font(float scale, i18n::Lang lang, ImVector<ImWchar>* ranges) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("REDUCESCOPE_FONT")) candidates.push_back(env);
  candidates.push_back("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
  bool loaded = false;
  for (const auto& path : candidates) {
    if (fs::exists(path) && io.Fonts->AddFontFromFileTTF(path.c_str(), 17.0f * scale)) {
      loaded = true;
      break;
    }
  }
  if (!loaded) {
    ImFontConfig cfg;
    cfg.SizePixels = 13.0f * scale;
    io.Fonts->AddFontDefault(&cfg);
  }
  if (lang != i18n::Lang::Zh) return true;
  std::string cjk_font;
  for (const std::string& p : cjk_font_candidates()) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) {
      cjk_font = p;
      break;
    }
  }
  if (cjk_font.empty()) return false;
  ranges->clear();
  cjk_ranges(ranges);
  ImFontConfig cjk;
  cjk.MergeMode = true;
  cjk.FontNo = kCjkFaceSc;
  cjk.OversampleH = 1;  // the atlas stays small: CJK strokes gain little from horizontal oversampling
  // Hanzi at DejaVu's pixel size look a size smaller than its Latin letters (DejaVu's large x-height): one size up,
  // lowered a little so both sit on one baseline within DejaVu's line height.
  const float px = (loaded ? 17.0f : 13.0f) * scale;
  cjk.GlyphOffset = ImVec2(0, 0.06f * px);
  return io.Fonts->AddFontFromFileTTF(cjk_font.c_str(), px * 1.12f, &cjk, ranges->Data) != nullptr;
}

// Dark (default) or high-contrast: black ground, white text, bright borders and a yellow focus.
void apply_theme(bool high_contrast, float scale) {
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  // Secondary text bright enough for the back of a room (Dear ImGui's dark theme uses 50% grey).
  style.Colors[ImGuiCol_TextDisabled] = ImVec4(0.70f, 0.70f, 0.72f, 1);
  if (high_contrast) {
    ImVec4* c = style.Colors;
    c[ImGuiCol_Text] = ImVec4(1, 1, 1, 1);
    c[ImGuiCol_TextDisabled] = ImVec4(0.85f, 0.85f, 0.85f, 1);
    c[ImGuiCol_WindowBg] = c[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 1);
    c[ImGuiCol_PopupBg] = ImVec4(0.05f, 0.05f, 0.05f, 1);
    c[ImGuiCol_Border] = ImVec4(1, 1, 1, 1);
    c[ImGuiCol_FrameBg] = ImVec4(0.15f, 0.15f, 0.15f, 1);
    c[ImGuiCol_TitleBg] = c[ImGuiCol_TitleBgActive] = c[ImGuiCol_MenuBarBg] = ImVec4(0.1f, 0.1f, 0.1f, 1);
    c[ImGuiCol_Header] = c[ImGuiCol_Button] = c[ImGuiCol_Tab] = ImVec4(0.0f, 0.3f, 0.55f, 1);
    c[ImGuiCol_HeaderHovered] = c[ImGuiCol_ButtonHovered] = c[ImGuiCol_TabHovered] = ImVec4(0.0f, 0.45f, 0.7f, 1);
    c[ImGuiCol_HeaderActive] = c[ImGuiCol_ButtonActive] = c[ImGuiCol_TabActive] = ImVec4(0.0f, 0.45f, 0.7f, 1);
    c[ImGuiCol_CheckMark] = c[ImGuiCol_SliderGrab] = ImVec4(1, 0.9f, 0.2f, 1);
    c[ImGuiCol_NavHighlight] = ImVec4(1, 0.9f, 0.2f, 1);
    style.WindowBorderSize = 2;
    style.FrameBorderSize = 1;
  }
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

}  // namespace

std::vector<std::string> cjk_font_candidates() {
  std::vector<std::string> out;
  if (const char* env = std::getenv("REDUCESCOPE_CJK_FONT"); env && *env) out.push_back(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    out.push_back((exe.parent_path() / "fonts" / kCjkFontName).string());  // beside the binary (a build, a copy)
    out.push_back((exe.parent_path().parent_path() / "share/reducescope/fonts" / kCjkFontName).string());  // install
  }
  out.push_back(std::string("/usr/share/fonts/opentype/noto/") + kCjkFontName);  // Debian's fonts-noto-cjk
  return out;
}

std::string font_missing_message() {
  std::string where;
  for (const std::string& p : cjk_font_candidates()) where += (where.empty() ? "" : ", ") + p;
  return i18n::strf(_("The Chinese font (Noto Sans CJK, %s) is missing: looked for %s. Install Debian's "
                      "fonts-noto-cjk (scripts/setup.sh), or put the file in one of those places, or name it in "
                      "REDUCESCOPE_CJK_FONT."),
                    kCjkFontName, where.c_str());
}

bool Theme::update(const AppState& s) {
  if (s.ui_scale == applied_scale_ && s.high_contrast == applied_contrast_ && s.lang == applied_lang_) return true;
  applied_scale_ = s.ui_scale;
  applied_contrast_ = s.high_contrast;
  applied_lang_ = s.lang;
  const bool font_ok = load_font(content_scale_ * s.ui_scale, s.lang, &cjk_ranges_);
  ImGui::GetIO().Fonts->Build();
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  // The texture is on the GPU now: free the font files (Noto Sans CJK is a 19 MB collection). The pixels stay:
  // freeing them too (ClearTexData) garbled every glyph on the next frame.
  ImGui::GetIO().Fonts->ClearInputData();
  apply_theme(s.high_contrast, content_scale_ * s.ui_scale);
  return font_ok;
}

}  // namespace rs::gui
