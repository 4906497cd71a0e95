#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "panels.hpp"

namespace rs::gui {

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

bool has_line(const Step* st, int line) {
  return st && std::binary_search(st->lines.begin(), st->lines.end(), static_cast<uint16_t>(line));
}

}  // namespace

// The kernel file the trace's line numbers refer to (embedded in the trace when it was
// recorded, so it matches the code that ran). Lines that made shared-memory accesses in the
// current step are highlighted (A orange, B sky blue in compare mode); the barrier that ends the
// step is underlined.
void SourcePanel::drawContent(AppState& s) {
  const ReplayView a = s.view(0), b = s.view(1);
  if (!a.trace) {
    ImGui::TextDisabled("No trace yet.");
    return;
  }
  const Step* sa = a.current();
  const Step* sb = s.compare ? b.current() : nullptr;
  // Short labels in compare mode, where the panel is narrow and there are three (the tooltips say more).
  static const char* const kLinesTip =
      "Source lines whose warp instructions (shared or global loads and stores, shuffles, atomics) ran in this step.";
  legend_swatch(with_alpha(color::kOrange, 0.55f), sb ? "A: this step" : "accesses this step", kLinesTip);
  if (sb) legend_swatch(with_alpha(color::kSkyBlue, 0.55f), "B: this step", kLinesTip);
  legend_swatch(color::kPurple, "barrier ending the step",
                "The __syncthreads() or __syncwarp() every thread reaches before the next step.");
  ImGui::NewLine();

  // One copy of the split source per trace shown.
  if (split_of_ != a.trace) {
    lines_ = split_lines(a.trace->trace.source);
    split_of_ = a.trace;
  }
  const std::vector<std::string>& lines = lines_;
  if (lines.size() <= 1) {
    ImGui::TextDisabled("This trace holds no source text.");
    return;
  }

  ImGui::BeginChild("##src", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const float lh = ImGui::GetTextLineHeightWithSpacing();
  // Scroll the first highlighted line into view when the step or the trace changes.
  if (scrolled_trace_ != a.trace || scrolled_step_ != a.step) {
    scrolled_trace_ = a.trace;
    scrolled_step_ = a.step;
    int first = sa && !sa->lines.empty() ? sa->lines.front() : sa ? sa->barrier_line : 0;
    if (first > 0) ImGui::SetScrollY(std::max(0.0f, (first - 1) * lh - ImGui::GetWindowHeight() * 0.3f));
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float w = std::max(ImGui::GetContentRegionAvail().x, 1.0f);
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(lines.size()), lh);
  while (clip.Step()) {
    for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
      const int line = i + 1;
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const bool in_a = has_line(sa, line), in_b = has_line(sb, line);
      if (in_a && in_b) {
        dl->AddRectFilled(p, ImVec2(p.x + w * 0.5f, p.y + lh), with_alpha(color::kOrange, 0.55f));
        dl->AddRectFilled(ImVec2(p.x + w * 0.5f, p.y), ImVec2(p.x + w, p.y + lh), with_alpha(color::kSkyBlue, 0.55f));
      } else if (in_a || in_b) {
        dl->AddRectFilled(p, ImVec2(p.x + w, p.y + lh), with_alpha(in_a ? color::kOrange : color::kSkyBlue, 0.55f));
      }
      if ((sa && sa->barrier_line == line) || (sb && sb->barrier_line == line)) {
        dl->AddRectFilled(ImVec2(p.x, p.y + lh - 3), ImVec2(p.x + w, p.y + lh), color::kPurple);
      }
      ImGui::TextDisabled("%4d", line);
      ImGui::SameLine();
      ImGui::TextUnformatted(lines[static_cast<size_t>(i)].c_str());
      if ((in_a || in_b) && ImGui::IsItemHovered()) {
        int loads = 0, stores = 0;
        for (size_t ai : sa ? sa->accesses : std::vector<size_t>{}) {
          const WarpAccess& acc = a.trace->replay.accesses()[ai];
          if (acc.line == line) (acc.kind == AccessKind::Load ? loads : stores)++;
        }
        ImGui::SetTooltip("line %d: %d warp-level loads and %d stores in this step (side A)", line, loads, stores);
      }
    }
  }
  ImGui::EndChild();
}

}  // namespace rs::gui
