#include <algorithm>
#include <bit>
#include <cstdio>

#include "panels.hpp"

namespace rs::gui {

namespace {

// The grid's geometry in a window `width` wide: row labels ("warp 7", or "w7" where narrow), 32 lane
// cells, then each warp's flag ("DIVERGED 100%", or "100%" where narrow, vermillion when diverged).
// A row is as tall as a line of text, or as the cells are wide where they are wider, so its label and
// flag read on every row; the cells may be narrower than they are tall.
struct WarpGrid {
  bool compact = false;
  float label_w = 0, flag_w = 0, cell_w = 0, row_h = 0;
};
WarpGrid warp_grid(float width) {
  WarpGrid g;
  const float full = ImGui::CalcTextSize("warp 31").x + 8 + ImGui::CalcTextSize("DIVERGED 100%").x + 12;
  g.compact = (width - full) / kWarpSize < 8;
  g.label_w = ImGui::CalcTextSize(g.compact ? "w31" : "warp 31").x + 8;
  g.flag_w = ImGui::CalcTextSize(g.compact ? "100%" : "DIVERGED 100%").x + 12;
  g.cell_w = std::clamp((width - g.label_w - g.flag_w) / kWarpSize, 3.0f, 40.0f);
  g.row_h = std::min(std::max(g.cell_w, ImGui::GetTextLineHeight() + 2), 40.0f);
  return g;
}

// The legend's lines in a window `width` wide: the swatches wrap (legend_swatch).
int legend_lines(float width) {
  const float h = ImGui::GetTextLineHeight(), gap = ImGui::GetStyle().ItemSpacing.x;
  int lines = 1;
  float x = 0;
  for (const char* label : {"useful", "active, idle", "inactive", "exited"}) {
    const float w = h + gap + ImGui::CalcTextSize(label).x;
    if (x > 0 && x + w > width) {
      ++lines;
      x = 0;
    }
    x += w + h;
  }
  return lines;
}

}  // namespace

float WarpsPanel::wanted_height(const Replay& r, float width) {
  const ImGuiStyle& st = ImGui::GetStyle();
  const float inner = width - 2 * st.WindowPadding.x;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float chrome = ImGui::GetFrameHeight() + 2 * st.WindowPadding.y;
  return chrome + line * static_cast<float>(legend_lines(inner) + 2) + 4 +
         static_cast<float>(r.num_warps()) * warp_grid(inner).row_h;
}

void WarpsPanel::drawContent(AppState& s) {
  const ReplayView v = s.view(slot_);
  const Step* st = stepOrSay(v);
  if (!st) return;
  const Replay& r = v.trace->replay;
  if (!r.has_shared() && !r.has_lane_work() && !r.has_atomics() && !r.has_global()) {
    ImGui::TextWrapped("%s: the trace holds no warp instruction, only barriers.", v.trace->trace.meta.kernel.c_str());
    return;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  legend_swatch(color::kGreen, "useful",
                "The lane made a warp instruction this step: a shared or global load or store, a shuffle or an atomic.");
  legend_swatch(color::kYellow, "active, idle",
         "In the warp's active mask (__activemask()) but made no instruction the trace records: the lane ran the instruction\n"
         "predicated off. The compiler often predicates a short `if` instead of branching.");
  legend_swatch(color::kCell, "inactive", "Not in the active mask: the warp diverged and this lane waited.");
  legend_swatch(color::kEmpty, "exited", "The thread has finished the kernel.");
  ImGui::NewLine();
  const int warps = static_cast<int>(st->warps.size());
  ImVec2 avail = ImGui::GetContentRegionAvail();
  const WarpGrid grid = warp_grid(avail.x);
  ImGui::Text("Active warps: %d of %d", st->active_warps(), warps);
  if (grid.compact) {
    same_line_if_fits(ImGui::CalcTextSize("(%: efficiency)").x);
    ImGui::TextDisabled("(%%: efficiency)");
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("Each row ends with the warp's execution efficiency (useful lanes / 32),\n"
                        "in vermillion where the warp diverged. Hover a lane for its masks.");
    }
  }

  avail = ImGui::GetContentRegionAvail();
  // Room under the grid for the lines about divergence (up to two), so they need no scrolling.
  int diverged = 0;
  for (const WarpStep& ws : st->warps) diverged += ws.diverged;
  char note[96];
  std::snprintf(note, sizeof note, "%d warp(s) diverged (red marks); hover a row for its masks", diverged);
  if (diverged > 0) {
    avail.y -= ImGui::GetTextLineHeightWithSpacing() * 2 + ImGui::CalcTextSize(note, nullptr, false, avail.x).y -
               ImGui::GetTextLineHeight();
  }
  const float label_w = grid.label_w;
  const float cw = grid.cell_w;
  const float cell = std::clamp(std::min(grid.row_h, (avail.y - 4) / std::max(warps, 1)), 3.0f, 40.0f);  // row height
  ImVec2 o = ImGui::GetCursorScreenPos();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  int hw = -1, hl = -1;
  char buf[64];
  const float th = ImGui::GetTextLineHeight();
  int label_every = 1;
  while (label_every * cell < th * 0.8f && label_every < warps) label_every *= 2;
  for (int w = 0; w < warps; ++w) {
    const WarpStep& ws = st->warps[w];
    float y = o.y + w * cell;
    std::snprintf(buf, sizeof buf, grid.compact ? "w%d" : "warp %d", w);
    if (w % label_every == 0) {
      dl->AddText(ImVec2(o.x, y + (label_every == 1 ? (cell - th) / 2 : 0)), ws.active() ? text : dim, buf);
    }
    for (int l = 0; l < kWarpSize; ++l) {
      const uint32_t bit = 1u << l;
      ImU32 c = ws.exited & bit ? color::kEmpty
                : ws.useful & bit ? color::kGreen
                : ws.active_mask & bit ? color::kYellow
                                       : color::kCell;
      ImVec2 a(o.x + label_w + l * cw, y);
      dl->AddRectFilled(a, ImVec2(a.x + cw - 1, a.y + cell - 1), c);
      if (mouse.x >= a.x && mouse.x < a.x + cw && mouse.y >= a.y && mouse.y < a.y + cell) hw = w, hl = l;
    }
    const float fx = o.x + label_w + kWarpSize * cw + 6;
    if (ws.active() && cell >= th * 0.8f) {
      if (grid.compact) std::snprintf(buf, sizeof buf, "%3.0f%%", 100.0 * ws.efficiency);
      else std::snprintf(buf, sizeof buf, "%s %3.0f%%", ws.diverged ? "DIVERGED" : "", 100.0 * ws.efficiency);
      dl->AddText(ImVec2(fx, y + (cell - th) / 2), ws.diverged ? color::kVermillion : text, buf);
    } else if (ws.diverged) {  // rows too short for text: a marker, explained once below
      dl->AddRectFilled(ImVec2(fx, y + 1), ImVec2(fx + std::min(cell * 2, grid.flag_w - 12), y + cell - 1),
                        color::kVermillion);
    }
  }
  ImGui::Dummy(ImVec2(label_w + kWarpSize * cw + grid.flag_w, warps * cell + 2));
  if (cell < th * 0.8f && diverged > 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.84f, 0.37f, 0.0f, 1));
    ImGui::TextWrapped("%s", note);
    ImGui::PopStyleColor();
  }
  if (diverged > 0) {
    ImGui::TextDisabled("Branch or predicate? (hover)");
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "The lanes shown come from the tracing build, where __activemask() saw a real branch: the\n"
          "idle lanes were masked off (inactive). In the timing build the compiler turns a short `if`\n"
          "like `if (tid < s) sdata[tid] += sdata[tid + s];` into predicated instructions instead\n"
          "(sm_90 SASS: @!P1 LDS / @!P1 STS, no branch): there the idle lanes stay active and\n"
          "issue the instruction with their predicate off. Either way they do no useful work and\n"
          "the warp spends the same issue slots. See docs/gpu-results.md.");
    }
  }
  if (hw >= 0 && ImGui::IsWindowHovered()) {
    const WarpStep& ws = st->warps[hw];
    ImGui::BeginTooltip();
    ImGui::Text("warp %d, lane %d = thread %d", hw, hl, hw * kWarpSize + hl);
    ImGui::Text("active mask %08x, useful lanes %08x (%d)", ws.active_mask, ws.useful, std::popcount(ws.useful));
    ImGui::Text("warp execution efficiency %.0f%% (useful lanes / 32, mean over its accesses)", 100.0 * ws.efficiency);
    ImGui::TextUnformatted(ws.diverged ? "diverged: an access ran with part of the warp masked off"
                                       : "converged: every live lane was active");
    ImGui::EndTooltip();
  }
}

}  // namespace rs::gui
