#include <algorithm>
#include <bit>
#include <cstdio>

#include "panels.hpp"

namespace rs::gui {

void BanksPanel::drawContent(AppState& s) {
  const ReplayView v = s.view(slot_);
  const Step* st = stepOrSay(v);
  if (!st) return;
  const Replay& replay = v.trace->replay;
  // The step's global-memory requests, in one line: 32-byte sectors touched against the fewest
  // that could serve the same bytes.
  if (replay.has_global()) {
    int loads = 0, stores = 0, sectors = 0, min_sectors = 0, bytes = 0;
    for (size_t gi : st->global_requests) {
      const GlobalRequest& g = replay.global_requests()[gi];
      (g.kind == AccessKind::GlobalStore ? stores : loads) += 1;
      sectors += g.sectors;
      min_sectors += g.min_sectors;
      bytes += g.requested_bytes;
    }
    if (loads + stores == 0) {
      ImGui::TextDisabled("Global memory: no request in this step.");
    } else {
      const double eff = sectors ? 100.0 * bytes / (32.0 * sectors) : 0;
      const ImVec4 c = ImGui::ColorConvertU32ToFloat4(eff < 99.5 ? color::kVermillion : color::kGreen);
      ImGui::Text("Global memory: %d load, %d store requests", loads, stores);
      ImGui::TextColored(c, "  %d sectors of 32 bytes (%d needed): %.0f%% efficiency", sectors, min_sectors, eff);
    }
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "One request: the lanes of one warp running one global load or store. The memory system moves\n"
          "32-byte sectors; efficiency = bytes the lanes asked for / bytes in the sectors touched (nvprof's\n"
          "gld_efficiency). 32 consecutive 4-byte words of one warp: 4 sectors, 100%%.");
    }
    ImGui::Separator();
  }
  if (!replay.has_shared()) {
    ImGui::TextWrapped("%s does not use shared memory: no banks to conflict.", v.trace->trace.meta.kernel.c_str());
    return;
  }
  const auto& accesses = replay.accesses();
  if (selected_step_ != v.step || selected_trace_ != v.trace) {
    selected_step_ = v.step;
    selected_trace_ = v.trace;
    selected_ = static_cast<size_t>(-1);
  }
  ImGui::TextWrapped("Step %zu: %d warp-level loads, %d stores; bank conflicts: %d load, %d store", v.step, st->loads,
              st->stores, st->load_conflicts, st->store_conflicts);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Shared memory has 32 banks, 4 bytes wide. A warp's access needs one pass (wavefront) per distinct\n"
        "4-byte word in its busiest bank: an n-way conflict takes n passes and counts n - 1 conflicts.\n"
        "Lanes reading the same word share one pass (broadcast). Nsight Compute counts the same:\n"
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum / _op_st.sum.");
  }
  ImGui::Text("Whole block: %d load, %d store conflicts", v.trace->replay.load_conflicts(),
              v.trace->replay.store_conflicts());
  if (st->accesses.empty()) {
    ImGui::TextDisabled("No shared-memory access in this step.");
    return;
  }
  if (selected_ == static_cast<size_t>(-1)) {
    selected_ = *std::max_element(st->accesses.begin(), st->accesses.end(), [&](size_t a, size_t b) {
      return accesses[a].banks.degree < accesses[b].banks.degree;
    });
  }

  // The selected access: 32 bank columns, one square per distinct word the bank must serve.
  const WarpAccess& sel = accesses[selected_];
  ImGui::Text("warp %u %s, line %u: %d-way%s", sel.warp, to_string(sel.kind), sel.line, sel.banks.degree,
              sel.banks.degree > 1 ? " conflict" : " (conflict free)");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  const float col = std::max(6.0f, avail.x / kNumBanks);
  const int max_deg = std::max(sel.banks.degree, 2);
  const float diagram_h = std::min(avail.y * 0.45f, col * static_cast<float>(max_deg) + ImGui::GetTextLineHeight());
  const float sq = std::min(col - 2, (diagram_h - ImGui::GetTextLineHeight()) / static_cast<float>(max_deg));
  ImVec2 o = ImGui::GetCursorScreenPos();
  const float base = o.y + diagram_h - ImGui::GetTextLineHeight();
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  int hovered_bank = -1;
  char buf[16];
  for (int b = 0; b < kNumBanks; ++b) {
    float x = o.x + b * col;
    const int words = sel.banks.words_per_bank[b];
    for (int k = 0; k < words; ++k) {
      ImU32 c = k == 0 ? color::kGreen : color::kVermillion;
      dl->AddRectFilled(ImVec2(x + 1, base - (k + 1) * sq), ImVec2(x + sq - 1, base - k * sq - 1), c);
    }
    if (words == 0) dl->AddRect(ImVec2(x + 1, base - sq), ImVec2(x + sq - 1, base - 1), dim);
    if (b % (col >= ImGui::CalcTextSize("31").x + 2 ? 1 : 4) == 0) {
      std::snprintf(buf, sizeof buf, "%d", b);
      dl->AddText(ImVec2(x, base + 1), dim, buf);
    }
    if (mouse.x >= x && mouse.x < x + col && mouse.y >= o.y && mouse.y < base) hovered_bank = b;
  }
  ImGui::Dummy(ImVec2(avail.x, diagram_h + 2));
  if (hovered_bank >= 0 && ImGui::IsWindowHovered()) {
    ImGui::BeginTooltip();
    ImGui::Text("bank %d: %d lane(s), %d distinct word(s)", hovered_bank, sel.banks.lanes_per_bank[hovered_bank],
                sel.banks.words_per_bank[hovered_bank]);
    for (int l = 0; l < kWarpSize; ++l) {
      if ((sel.lanes >> l & 1u) && bank_of(sel.addr[l]) == hovered_bank) {
        ImGui::Text("  lane %2d -> sdata[%u]", l, sel.addr[l] / 4);
      }
    }
    ImGui::EndTooltip();
  }

  // Every warp-level access of the step; click one to show its banks.
  if (ImGui::BeginTable("##accesses", 5,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV |
                            ImGuiTableFlags_SizingFixedFit,
                        ImGui::GetContentRegionAvail())) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("warp");
    ImGui::TableSetupColumn("access");
    ImGui::TableSetupColumn("line");
    ImGui::TableSetupColumn("lanes");
    ImGui::TableSetupColumn("n-way", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (size_t ai : st->accesses) {
      const WarpAccess& a = accesses[ai];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      char id[32];
      std::snprintf(id, sizeof id, "%u##a%zu", a.warp, ai);
      if (ImGui::Selectable(id, ai == selected_, ImGuiSelectableFlags_SpanAllColumns)) selected_ = ai;
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(to_string(a.kind));
      ImGui::TableNextColumn();
      ImGui::Text("%u", a.line);
      ImGui::TableNextColumn();
      ImGui::Text("%d", std::popcount(a.lanes));
      ImGui::TableNextColumn();
      if (a.banks.degree > 1) ImGui::TextColored(ImVec4(0.84f, 0.37f, 0.0f, 1), "%d-way", a.banks.degree);
      else ImGui::TextUnformatted("1 (none)");
    }
    ImGui::EndTable();
  }
}

}  // namespace rs::gui
