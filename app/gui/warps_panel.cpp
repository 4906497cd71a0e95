#include <algorithm>
#include <bit>
#include <cstdio>
#include <string>
#include <vector>

#include "panels.hpp"

namespace rs::gui {


namespace {

// A row's label ("warp 7", or "w7" where narrow) and its flag ("DIVERGED 100%", " 100%", or "100%" where narrow), in
// the window's language: the grid is measured with the same words it draws.
std::string warp_label(bool compact, int w) { return compact ? strf("w%d", w) : strf(_("warp %d"), w); }
std::string warp_flag(bool compact, bool diverged, double percent) {
  if (compact) return strf("%3.0f%%", percent);
  return diverged ? strf(_("DIVERGED %3.0f%%"), percent) : strf(" %3.0f%%", percent);
}

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
  const float full = ImGui::CalcTextSize(warp_label(false, 31).c_str()).x + 8 +
                     ImGui::CalcTextSize(warp_flag(false, true, 100).c_str()).x + 12;
  g.compact = (width - full) / kWarpSize < 8;
  g.label_w = ImGui::CalcTextSize(warp_label(g.compact, 31).c_str()).x + 8;
  g.flag_w = ImGui::CalcTextSize(warp_flag(g.compact, true, 100).c_str()).x + 12;
  g.cell_w = std::clamp((width - g.label_w - g.flag_w) / kWarpSize, 3.0f, 40.0f);
  g.row_h = std::min(std::max(g.cell_w, ImGui::GetTextLineHeight() + 2), 40.0f);
  return g;
}

}  // namespace

namespace {
// The warps drawn as rows in step `st`: those that made an instruction. The others share one line.
std::vector<int> shown_warps(const Step& st) {
  std::vector<int> out;
  for (size_t w = 0; w < st.warps.size(); ++w) {
    if (st.warps[w].active()) out.push_back(static_cast<int>(w));
  }
  return out;
}

}  // namespace

float WarpsPanel::wanted_height(const Replay& r, const Step& st, float width) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float inner = width - 2 * style.WindowPadding.x;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float chrome = ImGui::GetFrameHeight() + 2 * style.WindowPadding.y;
  const size_t rows = shown_warps(st).size();
  const bool idle = rows < static_cast<size_t>(r.num_warps());
  bool diverged = false;
  for (const WarpStep& ws : st.warps) diverged = diverged || ws.diverged;
  return chrome + line * static_cast<float>(2 + (idle ? 1 : 0) + (diverged ? 1 : 0)) + 4 +
         static_cast<float>(rows) * warp_grid(inner).row_h;
}

void WarpsPanel::drawContent(AppState& s) {
  if (slot_ == 0) draw_predict_box(s, {explain::QuestionKind::WorkingWarps, explain::QuestionKind::ActiveLanes});
  if (slot_ == 0 && predict_hides_step(s)) {
    draw_predict_hidden_line();
    return;
  }
  const ReplayView v = s.view(slot_);
  const Step* st = stepOrSay(v);
  if (!st) return;
  const Replay& r = v.trace->replay;
  if (!r.has_shared() && !r.has_lane_work() && !r.has_atomics() && !r.has_global()) {
    ImGui::TextWrapped(_("%s: the trace holds no warp instruction, only barriers."), v.trace->trace.meta.kernel.c_str());
    return;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  legend({tr_entry(color::kGreen, N_("useful"),
                   N_("The lane made every warp instruction its warp made this step: shared or global loads and stores,\n"
                      "shuffles, atomics.")),
          tr_entry(color::kGreen, N_("in some"),
                   N_("The lane made some of its warp's instructions this step and sat out others (masked off):\n"
                      "for example the last iterations of a loop that other lanes of the warp still run."),
                   color::kCell),
          tr_entry(color::kYellow, N_("active, idle"),
                   N_("In the warp's active mask (__activemask()) but made no instruction the trace records: the lane ran the\n"
                      "instruction predicated off. The compiler often predicates a short `if` instead of branching.")),
          tr_entry(color::kCell, N_("inactive"), N_("Not in the active mask: the warp diverged and this lane waited.")),
          tr_entry(color::kEmpty, N_("exited"), N_("The thread has finished the kernel."))});
  const int warps = static_cast<int>(st->warps.size());
  const std::vector<int> rows = shown_warps(*st);
  ImVec2 avail = ImGui::GetContentRegionAvail();
  const WarpGrid grid = warp_grid(avail.x);
  // From the facts (app/explain/): at a barrier where no warp made a recorded instruction, that the warps reached
  // it running code the tracer does not record, not "0 of 8".
  text_say(explain::active_warps_sentence(trace_facts_of(s, v), explain::step_facts(v.trace->replay, v.step)));
  // The warps that made no instruction this step, in one line instead of rows.
  if (static_cast<int>(rows.size()) < warps) {
    std::string idle, gone;
    for (int w = 0; w < warps;) {
      if (st->warps[w].active()) {
        ++w;
        continue;
      }
      int e = w;
      const bool exited = st->warps[w].exited == 0xffffffffu;
      while (e + 1 < warps && !st->warps[e + 1].active() && (st->warps[e + 1].exited == 0xffffffffu) == exited) ++e;
      std::string& out = exited ? gone : idle;
      if (!out.empty()) out += ", ";  // separate appends: GCC 12's -Wrestrict false positive on ", " + string
      out += std::to_string(w);
      if (e > w) {
        out += '-';
        out += std::to_string(e);
      }
      w = e + 1;
    }
    auto many = [](const std::string& list) { return list.find_first_of(",-") != std::string::npos; };
    std::string line;
    if (!idle.empty()) {
      line = strf(many(idle) ? _("warps %s: no instruction this step") : _("warp %s: no instruction this step"),
                  idle.c_str());
    }
    if (!gone.empty()) {
      const std::string exited = strf(many(gone) ? _("warps %s: exited") : _("warp %s: exited"), gone.c_str());
      line = line.empty() ? exited : strf(_("%s; %s"), line.c_str(), exited.c_str());
    }
    ImGui::TextDisabled("%s", line.c_str());
  }

  avail = ImGui::GetContentRegionAvail();
  int diverged = 0;
  for (const WarpStep& ws : st->warps) diverged += ws.diverged;
  if (diverged > 0) avail.y -= ImGui::GetTextLineHeightWithSpacing();
  const float label_w = grid.label_w;
  const float cw = grid.cell_w;
  const int n_rows = static_cast<int>(rows.size());
  const float cell = std::clamp(std::min(grid.row_h, (avail.y - 4) / std::max(n_rows, 1)), 3.0f, 40.0f);  // row height
  const float th = ImGui::GetTextLineHeight();
  const bool row_text = cell >= th * 0.8f;
  ImVec2 o = ImGui::GetCursorScreenPos();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  int hw = -1, hl = -1;
  int label_every = 1;
  while (label_every * cell < th * 0.8f && label_every < n_rows) label_every *= 2;
  for (int row = 0; row < n_rows; ++row) {
    const int w = rows[static_cast<size_t>(row)];
    const WarpStep& ws = st->warps[w];
    float y = o.y + row * cell;
    if (row % label_every == 0) {
      dl->AddText(ImVec2(o.x, y + (label_every == 1 ? (cell - th) / 2 : 0)), ws.active() ? text : dim,
                  warp_label(grid.compact, w).c_str());
    }
    for (int l = 0; l < kWarpSize; ++l) {
      const uint32_t bit = 1u << l;
      ImU32 c = ws.exited & bit ? color::kEmpty
                : ws.useful & bit ? color::kGreen
                : ws.active_mask & bit ? color::kYellow
                                       : color::kCell;
      ImVec2 a(o.x + label_w + l * cw, y);
      dl->AddRectFilled(a, ImVec2(a.x + cw - 1, a.y + cell - 1), c);
      if ((ws.useful & bit) && !(ws.every & bit)) {  // useful in part of the step: its lower half grey
        dl->AddRectFilled(ImVec2(a.x, a.y + (cell - 1) / 2), ImVec2(a.x + cw - 1, a.y + cell - 1), color::kCell);
      }
      if (mouse.x >= a.x && mouse.x < a.x + cw && mouse.y >= a.y && mouse.y < a.y + cell) hw = w, hl = l;
    }
    const float fx = o.x + label_w + kWarpSize * cw + 6;
    if (row_text) {
      dl->AddText(ImVec2(fx, y + (cell - th) / 2), ws.diverged ? color::kVermillion : text,
                  warp_flag(grid.compact, ws.diverged, 100.0 * ws.efficiency).c_str());
    } else if (ws.diverged) {  // rows too short for text: a marker, explained below
      dl->AddRectFilled(ImVec2(fx, y + 1), ImVec2(fx + std::min(cell * 2, grid.flag_w - 12), y + cell - 1),
                        color::kVermillion);
    }
  }
  ImGui::Dummy(ImVec2(label_w + kWarpSize * cw + grid.flag_w, n_rows * cell + 2));
  if (diverged > 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kVermillion));
    if (row_text) {
      ImGui::Text(diverged == 1 ? _("%d warp diverged") : _("%d warps diverged"), diverged);
    } else {
      ImGui::Text(diverged == 1 ? _("%d warp diverged (vermillion marks)") : _("%d warps diverged (vermillion marks)"),
                  diverged);
    }
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", _("DIVERGED: at least one of the warp's instructions this step ran with part of its live\n"
                                "lanes masked off (__activemask() smaller than the lanes that have not exited)."));
    }
    ImGui::PopStyleColor();
    ImGui::SameLine();
    ImGui::TextDisabled("%s", _("branch or predicate? (hover)"));
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "%s", _("The lanes shown come from the tracing build, where __activemask() saw a real branch: the\n"
                  "idle lanes were masked off (inactive). In the timing build the compiler turns a short `if`\n"
                  "like `if (tid < s) sdata[tid] += sdata[tid + s];` into predicated instructions instead\n"
                  "(sm_90 SASS: @!P1 LDS / @!P1 STS, no branch): there the idle lanes stay active and\n"
                  "issue the instruction with their predicate off. Either way they do no useful work and\n"
                  "the warp spends the same issue slots. See docs/gpu-results.md."));
    }
  } else if (row_text && !rows.empty()) {
    static const char* const kEfficiency = N_("%%: warp execution efficiency (useful lanes / 32)");
    ImGui::TextDisabled(_(kEfficiency));
    hover_english(strf(kEfficiency).c_str());
  }
  if (hw >= 0 && ImGui::IsWindowHovered()) {
    const WarpStep& ws = st->warps[hw];
    ImGui::BeginTooltip();
    ImGui::Text(_("warp %d, lane %d = thread %d"), hw, hl, hw * kWarpSize + hl);
    ImGui::Text(_("active mask %08x, useful lanes %08x (%d), in every instruction %08x (%d)"), ws.active_mask,
                ws.useful, std::popcount(ws.useful), ws.every, std::popcount(ws.every));
    ImGui::Text(_("warp execution efficiency %.0f%% (useful lanes / 32, mean over its %d instructions)"),
                100.0 * ws.efficiency, ws.instructions);
    if (ws.diverged) {
      ImGui::Text(_("diverged: %d of its %d instructions ran with part of the warp masked off"), ws.partial,
                  ws.instructions);
    } else {
      ImGui::TextUnformatted(_("converged: every live lane was active"));
    }
    ImGui::EndTooltip();
  }
}

}  // namespace rs::gui
