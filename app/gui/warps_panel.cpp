#include <algorithm>
#include <bit>
#include <cstdio>

#include "panels.hpp"

namespace rs::gui {

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
  ImGui::Text("Active warps: %d of %d", st->active_warps(), static_cast<int>(st->warps.size()));

  const int warps = static_cast<int>(st->warps.size());
  const float label_w = ImGui::CalcTextSize("warp 31").x + 8;
  const float flag_w = ImGui::CalcTextSize("DIVERGED 100%").x + 12;
  ImVec2 avail = ImGui::GetContentRegionAvail();
  float cell = std::min((avail.x - label_w - flag_w) / kWarpSize, (avail.y - 4) / std::max(warps, 1));
  cell = std::clamp(cell, 4.0f, 40.0f);
  ImVec2 o = ImGui::GetCursorScreenPos();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  int hw = -1, hl = -1;
  char buf[64];
  const float th = ImGui::GetTextLineHeight();
  for (int w = 0; w < warps; ++w) {
    const WarpStep& ws = st->warps[w];
    float y = o.y + w * cell;
    std::snprintf(buf, sizeof buf, "warp %d", w);
    if (cell >= th * 0.8f || w % 4 == 0) dl->AddText(ImVec2(o.x, y + (cell - th) / 2), ws.active() ? text : dim, buf);
    for (int l = 0; l < kWarpSize; ++l) {
      const uint32_t bit = 1u << l;
      ImU32 c = ws.exited & bit ? color::kEmpty
                : ws.useful & bit ? color::kGreen
                : ws.active_mask & bit ? color::kYellow
                                       : color::kCell;
      ImVec2 a(o.x + label_w + l * cell, y);
      dl->AddRectFilled(a, ImVec2(a.x + cell - 1, a.y + cell - 1), c);
      if (mouse.x >= a.x && mouse.x < a.x + cell && mouse.y >= a.y && mouse.y < a.y + cell) hw = w, hl = l;
    }
    const float fx = o.x + label_w + kWarpSize * cell + 6;
    if (ws.active() && cell >= th * 0.8f) {
      std::snprintf(buf, sizeof buf, "%s %3.0f%%", ws.diverged ? "DIVERGED" : "", 100.0 * ws.efficiency);
      dl->AddText(ImVec2(fx, y + (cell - th) / 2), ws.diverged ? color::kVermillion : text, buf);
    } else if (ws.diverged) {  // rows too short for text: a marker, explained once below
      dl->AddRectFilled(ImVec2(fx, y + 1), ImVec2(fx + cell * 2, y + cell - 1), color::kVermillion);
    }
  }
  ImGui::Dummy(ImVec2(label_w + kWarpSize * cell + flag_w, warps * cell + 2));
  int diverged_rows = 0;
  for (const WarpStep& ws : st->warps) diverged_rows += ws.diverged;
  if (cell < th * 0.8f && diverged_rows > 0) {
    const int diverged = diverged_rows;
    ImGui::TextColored(ImVec4(0.84f, 0.37f, 0.0f, 1), "%d warp(s) diverged (red marks); hover a row for its masks",
                       diverged);
  }
  int diverged = 0;
  for (const WarpStep& ws : st->warps) diverged += ws.diverged;
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
