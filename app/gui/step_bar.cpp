// The step bar: the replay's controls and where the replay stands, always on screen (issue 17: in
// compare mode the controls and the step number used to scroll off the left panel).
#include <algorithm>
#include <cstdio>
#include <string>

#include "panels.hpp"

namespace rs::gui {

namespace {

// What ends the step, in the source's words: "__syncthreads_or() (line 168)", "a warp shuffle (line 195)".
std::string step_end(const LoadedTrace& t, const Step& st) {
  const std::string what = step_end_name(st, t.trace.source);
  return st.barrier_line ? strf(_("%s (line %d)"), what.c_str(), st.barrier_line) : what;
}

// One side's sentence: "A  sum_shuffle @128: ends at a warp shuffle (line 195)" (the step number is on the
// slider beside it).
std::string sentence(const AppState& s, int slot) {
  const ReplayView v = s.view(slot);
  const Step* st = v.current();
  if (!st) {
    const Pick& p = slot == 0 ? s.a : s.b;
    const std::string why = s.shows_yours(slot) ? s.yours.status
                            : s.recorded()      ? _("no trace in the session")
                                                : _("no trace yet");
    return std::string(s.compare ? (slot ? "B  " : "A  ") : "") + s.side_name(slot) + " @" +
           std::to_string(p.block_size) + ": " + why;
  }
  const TraceMeta& m = v.trace->trace.meta;
  std::string out = strf("%s%s%s @%u: ", s.compare ? (slot ? "B  " : "A  ") : "",
                         s.shows_yours(slot) && s.yours.stale ? (std::string(_("STALE")) + " ").c_str() : "",
                         m.kernel.c_str(), m.block_size);
  const std::string end = step_end(*v.trace, *st);
  if (slot == 1 && s.step >= v.num_steps()) {
    out += strf(_("holds at its last step, %zu, which ends at %s"), v.step, end.c_str());
  } else {
    out += strf(_("ends at %s"), end.c_str());
  }
  // Focus (F) hides the source panel: the step's first line, whole, here instead.
  const int first = !st->lines.empty() ? st->lines.front() : st->barrier_line;
  if (s.focus && first > 0) {
    const std::string text = source_line(v.trace->trace.source, first);
    out += "  |  " + strf(_("line %d: %s"), first, text.c_str());
  }
  if (!v.trace->correct) out = strf(_("%s; the tracing build's sum differs from the CPU reference!"), out.c_str());
  return out;
}

// `text` as one line that fits `width` pixels: the whole of it, or as much as fits and "..." (the hover shows all).
std::string one_line(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  // A prefix ends at a character's first byte (a Chinese character is 3 bytes in UTF-8).
  auto whole = [&](size_t n) {
    while (n > 0 && n < text.size() && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
    return n;
  };
  size_t lo = 0, hi = text.size();
  while (lo + 1 < hi) {  // the longest prefix that fits with "..."
    const size_t mid = (lo + hi) / 2;
    if (ImGui::CalcTextSize((text.substr(0, whole(mid)) + "...").c_str()).x <= width) lo = mid;
    else hi = mid;
  }
  return text.substr(0, whole(lo)) + "...";
}

// `line` in `colour`, noted in the widget map as `widget`, with `whole` in a tooltip while it is hovered.
void line_with_hover(const std::string& line, const std::string& whole, const ImVec4& colour, const char* widget) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextUnformatted(line.c_str());
  ImGui::PopStyleColor();
  note_widget(widget);
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
    ImGui::TextUnformatted(whole.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

// The user's kernel's banner as one line (the controls panel and the hover show all of it).
std::string banner_line(const std::string& banner, float width) {
  return one_line(strf(_("Your kernel: %s"), banner.c_str()), width);
}

// Whether the step bar shows the user's kernel's banner (it is open and has one).
bool has_banner(const AppState& s) { return s.yours.open() && !s.yours.banner.empty(); }

float controls_width() {
  const ImGuiStyle& st = ImGui::GetStyle();
  float w = 0;
  for (const char* b : {"|<", "<", ">", ">|"}) w += ImGui::CalcTextSize(b).x + 2 * st.FramePadding.x + st.ItemSpacing.x;
  w += std::max(ImGui::CalcTextSize(_("Play")).x, ImGui::CalcTextSize(_("Pause")).x) + 2 * st.FramePadding.x +
       st.ItemSpacing.x;
  return w + ImGui::GetFontSize() * 9 + ImGui::GetFontSize() * 6 + 2 * st.ItemSpacing.x;  // the step and speed sliders
}

}  // namespace

float StepBar::height(const AppState& s, float width) {
  const ImGuiStyle& st = ImGui::GetStyle();
  // The sentences wrap in what the controls leave (less a font's width for rounding).
  const float text_w = std::max(width - 2 * st.WindowPadding.x - controls_width() - st.ItemSpacing.x -
                                    ImGui::GetFontSize(), width * 0.3f);
  float text_h = 0;
  for (int slot = 0; slot < (s.compare ? 2 : 1); ++slot) {
    text_h += ImGui::CalcTextSize(sentence(s, slot).c_str(), nullptr, false, text_w).y;
  }
  float h = std::max(ImGui::GetFrameHeight(), text_h);
  if (!s.error.empty()) {
    h += ImGui::CalcTextSize(strf(_("Error: %s"), s.error.c_str()).c_str(), nullptr, false, width).y + st.ItemSpacing.y;
  }
  if (has_banner(s)) h += ImGui::GetTextLineHeight() + st.ItemSpacing.y;
  if (!s.gl_note.empty()) h += ImGui::GetTextLineHeight() + st.ItemSpacing.y;
  if (s.predict.on) h += ImGui::GetFrameHeight() + st.ItemSpacing.y;  // Predict mode's line: lesson and score
  return h + 2 * st.WindowPadding.y;
}

void StepBar::drawContent(AppState& s) {
  const size_t steps = s.max_steps();
  ImGui::BeginGroup();
  if (ImGui::Button("|<")) step_to(s, 0);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _("First step (Home)"));
  ImGui::SameLine();
  if (ImGui::Button("<")) step_to(s, static_cast<long>(s.step) - 1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _("Step back (Left arrow)"));
  ImGui::SameLine();
  if (ImGui::Button(strf("%s###play", s.playing ? _("Pause") : _("Play")).c_str())) play_pause(s);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _("Play / pause (Space)"));
  ImGui::SameLine();
  if (ImGui::Button(">")) step_to(s, static_cast<long>(s.step) + 1);
  note_widget("step/next");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _("Next step (Right arrow)"));
  ImGui::SameLine();
  if (ImGui::Button(">|")) step_to(s, static_cast<long>(steps) - 1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _("Last step (End)"));
  ImGui::SameLine();
  int st = static_cast<int>(s.step);
  // A slider's format is printf'd by ImGui: a '%' of the translation would need doubling (it has none).
  const std::string label = strf(_("step %d of 0-%d"), st, steps ? static_cast<int>(steps) - 1 : 0);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (ImGui::SliderInt("##step", &st, 0, steps ? static_cast<int>(steps) - 1 : 0, label.c_str()) && steps) {
    step_to(s, st);
  }
  note_widget("step/slider");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", _("The timeline: one step per barrier epoch (between two __syncthreads() or __syncwarp()\n"
                              "barriers, or a warp shuffle). Drag to scrub."));
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  ImGui::SliderFloat("##speed", &s.speed, kMinSpeed, kMaxSpeed, "%.1f/s", ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _("Play speed: steps per second (] faster, [ slower)"));
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(0.0f);
  for (int slot = 0; slot < (s.compare ? 2 : 1); ++slot) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(
                                             slot == 0 ? ImGui::GetColorU32(ImGuiCol_Text) : color::kSkyBlue));
    ImGui::TextUnformatted(sentence(s, slot).c_str());
    ImGui::PopStyleColor();
    note_widget(slot == 0 ? "step/sentenceA" : "step/sentenceB");
  }
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  if (!s.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.45f, 0.35f, 1));
    ImGui::TextWrapped(_("Error: %s"), s.error.c_str());
    ImGui::PopStyleColor();
    note_widget("step/error");
  }
  if (s.predict.on) draw_predict_bar(s);
  // The GPU reset the window's OpenGL context (issue 54): one line, the whole of it on hover.
  if (!s.gl_note.empty()) {
    line_with_hover(one_line(s.gl_note, ImGui::GetContentRegionAvail().x), s.gl_note, ImVec4(1, 0.75f, 0.3f, 1),
                    "step/gl-reset");
  }
  // The user's kernel's banner: one line (a compile error at its line, a deleted file, a run stopped by the time
  // limit or a CUDA fault); the whole of it on hover and in the controls panel.
  if (has_banner(s)) {
    const YoursState& y = s.yours;
    line_with_hover(banner_line(y.banner, ImGui::GetContentRegionAvail().x), y.banner_more.empty() ? y.banner : y.banner_more,
                    ImVec4(1, 0.45f, 0.35f, 1), "step/yours-banner");
  }
}

}  // namespace rs::gui
