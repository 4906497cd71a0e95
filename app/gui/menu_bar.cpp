#include "menu_bar.hpp"

#include <imgui.h>

#include <algorithm>
#include <vector>

#include "panels.hpp"

namespace rs::gui {

namespace {

void file_menu(AppState& s, const std::string& export_dir, const std::string& web_page_path, Actions& act) {
  const bool file_open = ImGui::BeginMenu(_("File"));
  note_widget("menu/File");
  if (!file_open) return;
  if (ImGui::MenuItem(_("Open session or trace..."), "Ctrl O")) act.open_file = true;
  if (ImGui::MenuItem(_("Open kernel file..."), "Ctrl K")) act.open_kernel_file = true;
  note_widget("menu/File/OpenKernel");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", _("Your own kernel (a .cu file; `reducescope new --from reduce1 FILE.cu` writes one):\n"
                              "compiled on each save, run and traced on a GPU, listed as \"yours\"."));
  }
  if (ImGui::MenuItem(_("Export timing charts"), "Ctrl E", false, !s.timings.empty())) act.export_charts = true;
  note_widget("menu/File/Export");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip(_("PNG, SVG, PDF and CSV into %s"), export_dir.c_str());
  if (ImGui::MenuItem(_("Export web page"), nullptr, false, s.session || s.shown)) act.export_web_page = true;
  note_widget("menu/File/WebPage");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(_("One HTML file that replays in any browser: %s"), web_page_path.c_str());
  }
  if (ImGui::MenuItem(_("Save my answers"), nullptr, false, !s.predict.records.empty())) act.save_answers = true;
  note_widget("menu/File/SaveAnswers");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(_("Predict mode's answers, as the web page saves them (for reducescope lesson-report): %s"),
                      (export_dir + "/reducescope-answers-$USER.json").c_str());
  }
  if (ImGui::MenuItem(_("Back to the live GPU"), nullptr, false, s.have_device && s.recorded())) {
    s.session.reset();
    s.clear_measurements();
    s.selection_changed = true;
  }
  if (ImGui::MenuItem(_("Quit"), "Ctrl Q")) act.quit = true;
  ImGui::EndMenu();
}

void view_menu(AppState& s) {
  const bool view_open = ImGui::BeginMenu(_("View"));
  note_widget("menu/View");
  if (!view_open) return;
  if (ImGui::MenuItem(_("Compare two kernels (A above B)"), "C", s.compare)) {
    s.compare = !s.compare;
    s.selection_changed = true;
  }
  if (ImGui::MenuItem(_("Predict: answer before each step"), nullptr, s.predict.on)) {
    s.predict.on = !s.predict.on;
    s.predict.pending.reset();
    s.predict.verdict.clear();
  }
  if (ImGui::MenuItem(_("Class mode: the room answers, Right reveals"), nullptr, s.predict.on && s.predict.classroom)) {
    s.predict.classroom = !(s.predict.on && s.predict.classroom);
    s.predict.on = s.predict.on || s.predict.classroom;
    s.predict.pending.reset();
    s.predict.verdict.clear();
  }
  note_widget("menu/View/ClassMode");
  ImGui::MenuItem(_("Large timing charts"), "T", &s.large_charts);
  ImGui::MenuItem(_("Focus on the replay"), "F", &s.focus);
  ImGui::MenuItem(_("High contrast"), "Ctrl H", &s.high_contrast);
  if (ImGui::MenuItem(_("Larger"), "Ctrl +")) s.ui_scale = std::min(3.0f, s.ui_scale + 0.25f);
  if (ImGui::MenuItem(_("Smaller"), "Ctrl -")) s.ui_scale = std::max(0.75f, s.ui_scale - 0.25f);
  if (ImGui::MenuItem(_("Normal size"), "Ctrl 0")) s.ui_scale = 1.0f;
  const bool lang_open = ImGui::BeginMenu(_("Language"));
  note_widget("menu/View/Language");
  if (lang_open) {
    for (const i18n::Lang l : {i18n::Lang::En, i18n::Lang::Zh}) {
      if (ImGui::MenuItem(i18n::lang_name(l), nullptr, s.lang == l)) {
        s.lang = l;
        s.lang_saved = true;
      }
      note_widget(std::string("menu/View/Language/") + i18n::lang_code(l));
    }
    ImGui::EndMenu();
  }
  ImGui::EndMenu();
}

void help_menu(AppState& s) {
  const bool help_open = ImGui::BeginMenu(_("Help"));
  note_widget("menu/Help");
  if (!help_open) return;
  if (ImGui::MenuItem(_("Keyboard shortcuts"), "F1")) s.show_help = true;
  ImGui::EndMenu();
}

// Where the data comes from, right-aligned in the room the menus leave: the longest form that fits
// (the whole of it on hover), never over the menus. In the window's language (data_origin_forms).
void data_origin_text(const AppState& s) {
  const std::vector<std::string> forms = data_origin_forms(s);
  const std::string& origin = forms.front();
  const float room = ImGui::GetWindowWidth() - ImGui::GetCursorPosX() - 2 * ImGui::GetStyle().ItemSpacing.x - 8;
  std::string shown;
  for (const std::string& t : forms) {
    if (ImGui::CalcTextSize(t.c_str()).x <= room) {
      shown = t;
      break;
    }
  }
  if (shown.empty()) return;
  ImGui::SameLine(ImGui::GetWindowWidth() - ImGui::CalcTextSize(shown.c_str()).x - 12);
  if (s.recorded()) ImGui::TextColored(ImVec4(0.95f, 0.62f, 0.0f, 1), "%s", shown.c_str());
  else ImGui::TextDisabled("%s", shown.c_str());
  note_widget("menu/origin");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", origin.c_str());
}

}  // namespace

MenuBar draw_menu_bar(AppState& s, const std::string& export_dir, const std::string& web_page_path) {
  MenuBar bar;
  if (!ImGui::BeginMainMenuBar()) return bar;
  file_menu(s, export_dir, web_page_path, bar.actions);
  view_menu(s);
  help_menu(s);
  data_origin_text(s);
  bar.height = ImGui::GetWindowSize().y;
  ImGui::EndMainMenuBar();
  return bar;
}

}  // namespace rs::gui
