// The exercise's checks over the replay column (issue 19): see panels.hpp, draw_exercise_band.
#include <algorithm>
#include <string>

#include "panels.hpp"

namespace rs::gui {

namespace {

constexpr ImGuiWindowFlags kBandFlags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove |
                                        ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings;

// The checks' names, figures and hints come from the worker as message ids with their arguments (`check --json`,
// kernel_file_feed.cpp), said here in the window's language, so View > Language changes them at once; the notes were
// written by the feed with _().
std::string heading(const YoursState& y) {
  return strf(_("Exercise %s: %s"), y.exercise.c_str(), y.checks_note.empty() ? _("checks") : y.checks_note.c_str());
}
std::string line_of(const ExerciseCheck& c) { return strf(_("%s: %s"), said(c.name).c_str(), said(c.figure).c_str()); }
std::string hint_of(const ExerciseCheck& c) { return strf(_("hint: %s"), said(c.hint).c_str()); }

// The room a tick or a cross and the space after it take.
float mark_width() { return ImGui::GetTextLineHeight() + ImGui::GetStyle().ItemSpacing.x; }

}  // namespace

void check_mark(bool pass, bool ran) {
  const float h = ImGui::GetTextLineHeight();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float t = std::max(2.0f, h * 0.14f);
  if (!ran) {  // not run here: a dash, neither tick nor cross
    dl->AddLine(ImVec2(p.x + h * 0.2f, p.y + h * 0.5f), ImVec2(p.x + h * 0.8f, p.y + h * 0.5f),
                ImGui::GetColorU32(ImGuiCol_TextDisabled), t);
  } else if (pass) {
    const ImVec2 pts[3] = {ImVec2(p.x + h * 0.15f, p.y + h * 0.55f), ImVec2(p.x + h * 0.4f, p.y + h * 0.8f),
                           ImVec2(p.x + h * 0.85f, p.y + h * 0.2f)};
    dl->AddPolyline(pts, 3, color::kGreen, 0, t);
  } else {
    dl->AddLine(ImVec2(p.x + h * 0.2f, p.y + h * 0.2f), ImVec2(p.x + h * 0.8f, p.y + h * 0.8f), color::kVermillion, t);
    dl->AddLine(ImVec2(p.x + h * 0.8f, p.y + h * 0.2f), ImVec2(p.x + h * 0.2f, p.y + h * 0.8f), color::kVermillion, t);
  }
  ImGui::Dummy(ImVec2(h, h));
  ImGui::SameLine();
}

float exercise_band_height(const AppState& s, float w) {
  const YoursState& y = s.yours;
  if (!s.shows_yours(0) || y.exercise.empty() || y.checks.empty()) return 0;
  const ImGuiStyle& st = ImGui::GetStyle();
  const float wrap = w - 2 * st.WindowPadding.x;
  const float gap = st.ItemSpacing.y;
  float h = 2 * st.WindowPadding.y + ImGui::CalcTextSize(heading(y).c_str(), nullptr, false, wrap).y;
  for (const ExerciseCheck& c : y.checks) {
    h += gap + ImGui::CalcTextSize(line_of(c).c_str(), nullptr, false, wrap - mark_width()).y;
    if (!c.pass && c.ran && said_anything(c.hint)) {
      h += gap + ImGui::CalcTextSize(hint_of(c).c_str(), nullptr, false, wrap - mark_width()).y;
    }
  }
  return h + 2;  // a pixel's rounding each side, so that no scroll bar shows when it all fits
}

float draw_exercise_band(const AppState& s, float x, float y, float w, float max_h) {
  const float want = exercise_band_height(s, w);
  if (want <= 0) return 0;
  const float h = std::min(want, max_h);
  const YoursState& ys = s.yours;
  ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_Always);
  ImGui::Begin("##exercise-band", nullptr, kBandFlags);
  ImGui::PushStyleColor(ImGuiCol_Text,
                        ImGui::ColorConvertU32ToFloat4(all_passed(ys.checks) ? color::kGreen : color::kYours));
  ImGui::TextWrapped("%s", heading(ys).c_str());
  ImGui::PopStyleColor();
  for (size_t i = 0; i < ys.checks.size(); ++i) {
    const ExerciseCheck& c = ys.checks[i];
    check_mark(c.pass, c.ran);
    ImGui::TextWrapped("%s", line_of(c).c_str());
    note_widget("yours/check/" + std::to_string(i));  // by position: the name is in the window's language
    if (!c.pass && c.ran && said_anything(c.hint)) {
      ImGui::Indent(mark_width());
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("%s", hint_of(c).c_str());
      ImGui::PopStyleColor();
      ImGui::Unindent(mark_width());
    }
  }
  note_rect("panel/exercise", ImVec2(x, y), ImVec2(x + w, y + h));
  ImGui::End();
  return h;
}

}  // namespace rs::gui
