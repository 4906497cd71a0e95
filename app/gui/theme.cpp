#include "theme.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace rs::gui {

namespace {

namespace fs = std::filesystem;

// A large, readable UI font from Debian's fonts-dejavu-core; ImGui's built-in font if it is missing.
void load_font(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("REDUCESCOPE_FONT")) candidates.push_back(env);
  candidates.push_back("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
  for (const auto& path : candidates) {
    if (fs::exists(path) && io.Fonts->AddFontFromFileTTF(path.c_str(), 17.0f * scale)) return;
  }
  ImFontConfig cfg;
  cfg.SizePixels = 13.0f * scale;
  io.Fonts->AddFontDefault(&cfg);
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

void Theme::update(const AppState& s) {
  if (s.ui_scale == applied_scale_ && s.high_contrast == applied_contrast_) return;
  applied_scale_ = s.ui_scale;
  applied_contrast_ = s.high_contrast;
  load_font(content_scale_ * s.ui_scale);
  ImGui::GetIO().Fonts->Build();
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  apply_theme(s.high_contrast, content_scale_ * s.ui_scale);
}

}  // namespace rs::gui
