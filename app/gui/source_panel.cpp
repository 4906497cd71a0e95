#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "panels.hpp"
#include "pitfall_words.hpp"

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

// The races with an end on `line`, as the mark beside it says them: "race: 43 -> 44 (RAW), 44 (WAR)".
std::string race_mark(const std::vector<const SessionRace*>& races, int line) {
  std::string out;
  for (const SessionRace* r : races) {
    if (static_cast<int>(r->first_line) != line && static_cast<int>(r->second_line) != line) continue;
    out += out.empty() ? "<- race: " : ", ";
    out += r->first_line == r->second_line
               ? std::to_string(r->first_line)
               : std::to_string(r->first_line) + " -> " + std::to_string(r->second_line);
    out += " (" + r->kind + ")";
  }
  return out;
}

}  // namespace

// The kernel file the trace's line numbers refer to (embedded in the trace when it was recorded, so it
// matches the code that ran). Lines whose warp instructions ran in the current step are highlighted (A
// orange, B sky blue); the barrier that ends the step is underlined in purple. Above the listing, the
// step's first highlighted line is written out whole, wrapped, so it reads however narrow the panel is.
// Compare mode: A's listing above B's, each scrolled to its own step (B may be another kernel file).
void SourcePanel::drawContent(AppState& s) {
  const ReplayView a = s.view(0);
  if (!a.trace) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", a.missing);
    ImGui::PopStyleColor();
    return;
  }
  const bool two = s.compare && s.view(1).trace;
  static const char* const kLinesTip =
      "Source lines whose warp instructions (shared or global loads and stores, shuffles, atomics) ran in this step.";
  static const char* const kBarrierTip = "The __syncthreads() or __syncwarp() (or the warp shuffle) that ends the step.";
  if (two) {
    legend({{with_alpha(color::kOrange, 0.55f), "A: this step", kLinesTip},
            {with_alpha(color::kSkyBlue, 0.55f), "B: this step", kLinesTip},
            {color::kPurple, "the step's barrier", kBarrierTip}});
  } else {
    legend({{with_alpha(color::kOrange, 0.55f), "this step", kLinesTip}, {color::kPurple, "the step's barrier", kBarrierTip}});
  }
  if (!two) {
    drawListing(s, 0, 0.0f);
    return;
  }
  const float half = (ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y) / 2;
  drawListing(s, 0, half);
  drawListing(s, 1, 0.0f);
}

void SourcePanel::drawListing(AppState& s, int slot, float height) {
  const ReplayView v = s.view(slot);
  const Step* st = v.current();
  const ImU32 hl = with_alpha(slot == 0 ? color::kOrange : color::kSkyBlue, 0.55f);
  ImGui::BeginChild(slot == 0 ? "##listingA" : "##listingB", ImVec2(0, height), false);
  if (split_of_[slot] != v.trace) {
    lines_[slot] = split_lines(v.trace->trace.source);
    split_of_[slot] = v.trace;
  }
  const std::vector<std::string>& lines = lines_[slot];
  const std::vector<const SessionRace*> races = s.races(slot);
  if (lines.size() <= 1) {
    ImGui::TextDisabled("This trace holds no source text.");
    ImGui::EndChild();
    return;
  }
  // The step's first line, whole.
  const int first = st && !st->lines.empty() ? st->lines.front() : st ? st->barrier_line : 0;
  const std::string tag = s.compare ? std::string(slot == 0 ? "A " : "B ") : std::string();
  if (first > 0 && static_cast<size_t>(first) <= lines.size()) {
    std::string text = lines[static_cast<size_t>(first - 1)];
    text.erase(0, std::min(text.find_first_not_of(" \t"), text.size()));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(slot == 0 ? color::kOrange : color::kSkyBlue));
    ImGui::TextWrapped("%sline %d: %s", tag.c_str(), first, text.c_str());
    ImGui::PopStyleColor();
    note_widget(slot == 0 ? "source/lineA" : "source/lineB");
  }
  if (!races.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kVermillion));
    ImGui::TextWrapped("%sracecheck: %zu race%s on %s (red marks).", tag.c_str(),
                       races.size(), races.size() == 1 ? "" : "s", race_lines_phrase(races).c_str());
    ImGui::PopStyleColor();
    note_widget(slot == 0 ? "source/racesA" : "source/racesB");
  }
  ImGui::BeginChild("##src", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const float lh = ImGui::GetTextLineHeightWithSpacing();
  // Scroll the first highlighted line into view when the step or the trace changes.
  if (scrolled_trace_[slot] != v.trace || scrolled_step_[slot] != v.step) {
    scrolled_trace_[slot] = v.trace;
    scrolled_step_[slot] = v.step;
    // Where racecheck found races, they are the lesson (the step's line is written out above): the
    // listing opens at the first race line.
    int target = races.empty() ? first : static_cast<int>(races.front()->first_line);
    for (const SessionRace* r : races) target = std::min(target, static_cast<int>(r->first_line));
    if (target > 0) ImGui::SetScrollY(std::max(0.0f, (target - 1) * lh - ImGui::GetWindowHeight() * 0.3f));
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float w = std::max(ImGui::GetContentRegionAvail().x, 1.0f);
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(lines.size()), lh);
  while (clip.Step()) {
    for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
      const int line = i + 1;
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const bool in = has_line(st, line);
      if (in) dl->AddRectFilled(p, ImVec2(p.x + w, p.y + lh), hl);
      const std::string mark = races.empty() ? std::string() : race_mark(races, line);
      if (!mark.empty()) dl->AddRectFilled(p, ImVec2(p.x + std::max(4.0f, lh * 0.2f), p.y + lh), color::kVermillion);
      if (st && st->barrier_line == line) dl->AddRectFilled(ImVec2(p.x, p.y + lh - 3), ImVec2(p.x + w, p.y + lh), color::kPurple);
      ImGui::TextDisabled("%4d", line);
      ImGui::SameLine();
      ImGui::TextUnformatted(lines[static_cast<size_t>(i)].c_str());
      if (!mark.empty()) {
        const bool hovered = ImGui::IsItemHovered();
        ImGui::SameLine();
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color::kVermillion), "%s", mark.c_str());
        if (hovered || ImGui::IsItemHovered()) {
          ImGui::BeginTooltip();
          for (const SessionRace* r : races) {
            if (static_cast<int>(r->first_line) == line || static_cast<int>(r->second_line) == line) {
              ImGui::TextUnformatted(describe_race(*r).c_str());
            }
          }
          ImGui::TextDisabled("compute-sanitizer --tool racecheck, one block; the first line's access came first");
          ImGui::EndTooltip();
        }
        continue;
      }
      if (in && ImGui::IsItemHovered()) {
        int loads = 0, stores = 0;
        for (size_t ai : st->accesses) {
          const WarpAccess& acc = v.trace->replay.accesses()[ai];
          if (acc.line == line) (acc.kind == AccessKind::Load ? loads : stores)++;
        }
        ImGui::SetTooltip("line %d: %d warp-level shared loads and %d stores in this step (side %c)", line, loads,
                          stores, v.tag);
      }
    }
  }
  ImGui::EndChild();
  ImGui::EndChild();
}

}  // namespace rs::gui
