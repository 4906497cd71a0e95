// The bank-conflicts view: the step's global-memory requests in one line, the selected warp-level
// shared-memory access drawn as the classic lanes -> banks figure, and the step's accesses to pick from.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <string>

#include "panels.hpp"

namespace rs::gui {

namespace {

// A shared access's kind in the window's language: "load", "store" (to_string for any other).
const char* access_word(AccessKind k) {
  switch (k) {
    case AccessKind::Load: return _("load");
    case AccessKind::Store: return _("store");
    default: return to_string(k);
  }
}

// The warp's lanes and the banks in rows of 32 columns: lane i and bank i share column i.
struct BankFigure {
  float x = 0, pitch = 0, box_w = 0, box_h = 0, pad = 0;
  int label_every = 1;  // label every lane and bank, or every 4th (8th, 16th) where the column is narrower
  // Rows, top to bottom: lane labels, lane boxes, the lines, bank boxes, bank labels.
  float lane_label_y = 0, lane_y = 0, bank_y = 0, bank_label_y = 0, bottom = 0;

  float column_x(int i) const { return x + static_cast<float>(i) * pitch; }
  float centre_x(int i) const { return column_x(i) + box_w * 0.5f; }
};

// Column widths and fixed heights for a figure `width` pixels wide; `lines_h` is the band the lines
// cross (the rest is fixed by the font).
BankFigure bank_figure_layout(float x, float y, float width, float lines_h) {
  BankFigure f;
  const float th = ImGui::GetTextLineHeight();
  f.x = x;
  f.pitch = width / kNumBanks;
  f.box_w = f.pitch - std::max(1.0f, f.pitch * 0.15f);
  f.box_h = std::clamp(f.box_w, th * 0.5f, th * 0.8f);
  f.pad = std::max(1.0f, th * 0.15f);
  const float label_w = ImGui::CalcTextSize("31").x + th * 0.3f;
  f.label_every = f.pitch >= label_w ? 1 : 4;
  while (f.label_every < kNumBanks / 2 && f.label_every * f.pitch < label_w) f.label_every *= 2;
  f.lane_label_y = y;
  f.lane_y = y + th + f.pad;
  f.bank_y = f.lane_y + f.box_h + lines_h;
  f.bank_label_y = f.bank_y + f.box_h + f.pad;
  f.bottom = f.bank_label_y + th;
  return f;
}

// The figure's height without its lines band; the band gets at least bank_lines_min() and at most
// bank_lines_max() (about a fifth of the width, so that the lines keep their slopes as it widens).
float bank_figure_fixed_height() {
  const BankFigure f = bank_figure_layout(0, 0, ImGui::GetContentRegionAvail().x, 0);
  return f.bottom;
}
float bank_lines_min() { return ImGui::GetTextLineHeight() * 2.5f; }
float bank_lines_max() {
  const float th = ImGui::GetTextLineHeight();
  return std::clamp(ImGui::GetContentRegionAvail().x * 0.22f, th * 3.5f, th * 7.0f);
}

// A label centred on `cx`, kept inside [lo, hi].
ImVec2 label_pos(const char* text, float cx, float y, float lo, float hi) {
  const float w = ImGui::CalcTextSize(text).x;
  return ImVec2(std::clamp(cx - w * 0.5f, lo, std::max(lo, hi - w)), y);
}

// The shared-memory bank figure of the CUDA C++ Programming Guide ("Strided Shared Memory Accesses",
// "Irregular Shared Memory Accesses"): the warp's 32 lanes on top, the 32 banks below, a line from each
// lane of the access to the bank its 4-byte word falls in. A bank that must serve n > 1 distinct words
// is an n-way conflict (vermillion, "n-way" over it); lanes reading the same word share one pass
// (a broadcast, no conflict). Hovering a lane or a bank tells its words. Draws `height` pixels.
void draw_bank_figure(const WarpAccess& a, float height) {
  const float th = ImGui::GetTextLineHeight();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const float lines_h = height - bank_figure_fixed_height();
  const BankFigure f = bank_figure_layout(o.x, o.y, width, lines_h);
  ImGui::Dummy(ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImU32 ground = ImGui::GetColorU32(ImGuiCol_WindowBg);
  const float thick = std::max(1.0f, th / 10.0f);
  auto active = [&](int l) { return (a.lanes >> l & 1u) != 0; };
  auto bank_of_lane = [&](int l) { return bank_of(a.addr[static_cast<size_t>(l)]); };
  auto conflicted = [&](int b) { return a.banks.words_per_bank[static_cast<size_t>(b)] > 1; };
  auto bank_colour = [&](int b) { return conflicted(b) ? color::kVermillion : color::kGreen; };

  // What the mouse is over: a lane (its label or box) or a bank (its "n-way", its box or its label).
  int hover_lane = -1, hover_bank = -1;
  if (hovered) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int col = static_cast<int>((m.x - f.x) / f.pitch);
    if (col >= 0 && col < kNumBanks) {
      if (m.y < f.lane_y + f.box_h) hover_lane = col;
      else if (m.y >= f.bank_y - th - f.pad) hover_bank = col;
    }
  }

  // "n-way" over each conflicted bank where every label fits beside its neighbours, else just "n";
  // a label that would still overlap the one before it is left out (the bank stays vermillion).
  char buf[16];
  char degree[kNumBanks][16] = {};
  ImVec2 degree_at[kNumBanks];
  const float degree_y = f.bank_y - th - f.pad;  // the "n-way" labels sit on their banks
  for (const char* fmt : {_("%d-way"), "%d"}) {
    float right = -1e9f;
    bool fits = true;
    for (int b = 0; b < kNumBanks; ++b) {
      degree[b][0] = 0;
      if (!conflicted(b)) continue;
      std::snprintf(buf, sizeof buf, fmt, a.banks.words_per_bank[static_cast<size_t>(b)]);
      const ImVec2 p = label_pos(buf, f.centre_x(b), degree_y, f.x, f.x + width);
      if (p.x < right) {
        fits = false;
        continue;
      }
      right = p.x + ImGui::CalcTextSize(buf).x + th * 0.3f;
      std::snprintf(degree[b], sizeof degree[b], "%s", buf);
      degree_at[b] = p;
    }
    if (fits) break;
  }

  // The lines, conflict-free first, then the conflicts on top, then the hovered lane's or bank's.
  auto line = [&](int l, ImU32 c, float t) {
    const int b = bank_of_lane(l);
    const float end_y = degree[b][0] ? degree_y : f.bank_y;
    dl->AddLine(ImVec2(f.centre_x(l), f.lane_y + f.box_h), ImVec2(f.centre_x(b), end_y), c, t);
  };
  for (int pass = 0; pass < 2; ++pass) {
    for (int l = 0; l < kWarpSize; ++l) {
      if (active(l) && conflicted(bank_of_lane(l)) == (pass == 1)) {
        line(l, pass ? color::kVermillion : color::kGreen, thick);
      }
    }
  }
  for (int l = 0; l < kWarpSize; ++l) {
    if (active(l) && (l == hover_lane || bank_of_lane(l) == hover_bank)) line(l, text, thick * 2);
  }

  // Lanes: filled in the colour of their line, hollow when not in the access; banks: filled when
  // used, vermillion when conflicted, hollow when unused. Labels every `label_every` columns.
  for (int i = 0; i < kWarpSize; ++i) {
    const float x0 = f.column_x(i), x1 = x0 + f.box_w;
    const bool lane_on = active(i), bank_on = a.banks.lanes_per_bank[static_cast<size_t>(i)] > 0;
    if (lane_on) dl->AddRectFilled(ImVec2(x0, f.lane_y), ImVec2(x1, f.lane_y + f.box_h), bank_colour(bank_of_lane(i)));
    else dl->AddRect(ImVec2(x0, f.lane_y), ImVec2(x1, f.lane_y + f.box_h), color::kCell, 0, 0, thick);
    if (bank_on) dl->AddRectFilled(ImVec2(x0, f.bank_y), ImVec2(x1, f.bank_y + f.box_h), bank_colour(i));
    else dl->AddRect(ImVec2(x0, f.bank_y), ImVec2(x1, f.bank_y + f.box_h), color::kCell, 0, 0, thick);
    // The hovered lane or bank framed in the text colour.
    auto frame = [&](float y) {
      dl->AddRect(ImVec2(x0 - thick, y - thick), ImVec2(x1 + thick, y + f.box_h + thick), text, 0, 0, thick);
    };
    if (i == hover_lane) frame(f.lane_y);
    if (i == hover_bank) frame(f.bank_y);
    if (i % f.label_every == 0) {
      std::snprintf(buf, sizeof buf, "%d", i);
      dl->AddText(label_pos(buf, f.centre_x(i), f.lane_label_y, f.x, f.x + width), lane_on ? text : dim, buf);
      dl->AddText(label_pos(buf, f.centre_x(i), f.bank_label_y, f.x, f.x + width), bank_on ? text : dim, buf);
    }
  }
  for (int b = 0; b < kNumBanks; ++b) {
    if (!degree[b][0]) continue;
    const ImVec2 p = degree_at[b];
    const float w = ImGui::CalcTextSize(degree[b]).x;
    dl->AddRectFilled(ImVec2(p.x - 1, p.y), ImVec2(p.x + w + 1, p.y + th), ground);  // lines pass under it
    dl->AddText(p, color::kVermillion, degree[b]);
  }

  if (hover_lane >= 0) {
    const size_t l = static_cast<size_t>(hover_lane);
    ImGui::BeginTooltip();
    if (!active(hover_lane)) {
      ImGui::Text(_("lane %d: not in this %s"), hover_lane, access_word(a.kind));
    } else {
      const int b = bank_of_lane(hover_lane);
      ImGui::Text(_("lane %d -> sdata[%u] (byte %u): bank %d"), hover_lane, a.addr[l] / 4, a.addr[l], b);
      const int lanes = a.banks.lanes_per_bank[static_cast<size_t>(b)];
      const int words = a.banks.words_per_bank[static_cast<size_t>(b)];
      if (words > 1) ImGui::Text(_("bank %d serves %d distinct words: %d-way conflict"), b, words, words);
      else if (lanes > 1) ImGui::Text(_("bank %d serves this word to %d lanes: a broadcast, no conflict"), b, lanes);
      else ImGui::Text(_("bank %d serves this one word: no conflict"), b);
    }
    ImGui::EndTooltip();
  } else if (hover_bank >= 0) {
    const size_t b = static_cast<size_t>(hover_bank);
    ImGui::BeginTooltip();
    const int lanes = a.banks.lanes_per_bank[b], words = a.banks.words_per_bank[b];
    if (lanes == 0) ImGui::Text(_("bank %d: no lane of this %s"), hover_bank, access_word(a.kind));
    else if (words > 1) ImGui::Text(_("bank %d: %d lanes, %d distinct words: %d-way conflict"), hover_bank, lanes, words,
                                    words);
    else if (lanes > 1) ImGui::Text(_("bank %d: %d lanes, one word: a broadcast, no conflict"), hover_bank, lanes);
    else ImGui::Text(_("bank %d: one lane, one word"), hover_bank);
    for (int l = 0; l < kWarpSize; ++l) {
      if (active(l) && bank_of_lane(l) == hover_bank) {
        ImGui::Text("  lane %2d -> sdata[%u]", l, a.addr[static_cast<size_t>(l)] / 4);
      }
    }
    ImGui::EndTooltip();
  }
}

}  // namespace

void BanksPanel::drawContent(AppState& s) {
  if (slot_ == 0) draw_predict_box(s, {explain::QuestionKind::Conflict});
  if (slot_ == 0 && predict_hides_step(s)) {
    draw_predict_hidden_line();
    return;
  }
  const ReplayView v = s.view(slot_);
  const Step* st = stepOrSay(v);
  if (!st) return;
  const Replay& replay = v.trace->replay;
  // A step with no shared load or store and no global request: one line that says so, and names the
  // step's shared atomics, which touch shared memory too (their same-word updates serialise: contention,
  // the atomics view, not bank conflicts).
  const int shared_atomics = shared_atomic_count(replay, *st);
  if (st->accesses.empty() && st->global_requests.empty()) {
    // First the button to the binary trace, where the probe does not trace the kernel's shared memory and the
    // session holds it (the view is a few lines tall at 1280x720: the sentence may scroll, the button may not).
    as_compiled_button(s, v);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    if (const auto line = explain::bank_idle_sentence(trace_facts_of(s, v), explain::step_facts(replay, v.step))) {
      ImGui::TextWrapped("%s", say(*line).c_str());
    }
    ImGui::PopStyleColor();
    if (shared_atomics > 0 && ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", _("Lanes whose atomics update the same shared word take turns (contention: the Atomics "
                                "view);\nthis view shows the bank conflicts of plain shared loads and stores."));
    }
    return;
  }
  // The step's global-memory requests, in one line: 32-byte sectors touched against the fewest that
  // could serve the same bytes. Flagged only where a request touches more sectors than it needs; the
  // share of the moved bytes the lanes asked for (one lane's 4-byte store: 1 sector, 4 of 32 bytes) is
  // a neutral fact.
  if (!st->global_requests.empty()) {
    int loads = 0, stores = 0, sectors = 0, min_sectors = 0, bytes = 0;
    for (size_t gi : st->global_requests) {
      const GlobalRequest& g = replay.global_requests()[gi];
      (g.kind == AccessKind::GlobalStore ? stores : loads) += 1;
      sectors += g.sectors;
      min_sectors += g.min_sectors;
      bytes += g.requested_bytes;
    }
    const double eff = sectors ? 100.0 * bytes / (32.0 * sectors) : 0;
    ImGui::TextWrapped(_("Global memory: %d load, %d store requests"), loads, stores);
    bool any_wasteful = false;
    for (size_t gi : st->global_requests) any_wasteful = any_wasteful || wasteful(replay.global_requests()[gi]);
    if (any_wasteful) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kVermillion));
      ImGui::TextWrapped(_("%d sectors of 32 bytes, %d more than needed (%d): %.0f%% of the bytes used"), sectors,
                         sectors - min_sectors, min_sectors, eff);
      ImGui::PopStyleColor();
    } else {
      ImGui::TextWrapped(sectors == 1 ? _("%d sector of 32 bytes, the fewest possible; %.0f%% of the bytes used")
                                      : _("%d sectors of 32 bytes, the fewest possible; %.0f%% of the bytes used"),
                         sectors, eff);
    }
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          _("One request: the lanes of one warp running one global load or store. The memory system moves\n"
            "32-byte sectors; bytes used = bytes the lanes asked for / bytes in the sectors touched (nvprof's\n"
            "gld_efficiency). 32 consecutive 4-byte words of one warp: 4 sectors, 100%%. One lane's 4-byte\n"
            "store needs one sector whatever the layout: 12%% of its bytes, and nothing to coalesce."));
    }
    if (shared_atomics > 0) ImGui::TextDisabled(_("%d warp-level shared atomics (see Atomics)"), shared_atomics);
    ImGui::Separator();
  }
  if (!replay.has_shared()) {
    // Said from the facts (app/explain/): "does not use" only where that is so; a raw __shared__ array the source
    // probe does not record is "not traced", with the binary trace offered (key B) where the session holds it.
    if (const auto line = explain::no_shared_sentence(trace_facts_of(s, v), explain::Panel::Banks)) {
      as_compiled_button(s, v);
      text_say(*line);
    }
    return;
  }
  // Where Nsight Compute's counter disagrees with the addresses, say so first, in one line (why on hover).
  if (stores_warp_reduce_result(replay)) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kSkyBlue));
    ImGui::TextWrapped("%s", _("Nsight Compute counts more store conflicts here: timing, not these addresses (hover)"));
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _(kNcuReduxNote));
    note_widget(std::string(1, v.tag) + "/ncu-redux-note");
  }
  const auto& accesses = replay.accesses();
  if (selected_step_ != v.step || selected_trace_ != v.trace) {
    selected_step_ = v.step;
    selected_trace_ = v.trace;
    selected_ = static_cast<size_t>(-1);
  }
  auto explain = [] {
    if (!ImGui::IsItemHovered()) return;
    ImGui::SetTooltip(
        "%s", _("Shared memory has 32 banks, 4 bytes wide. A warp's access needs one pass (wavefront) per distinct\n"
                "4-byte word in its busiest bank: an n-way conflict takes n passes and counts n - 1 conflicts.\n"
                "Lanes reading the same word share one pass (broadcast). Nsight Compute counts the same:\n"
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum / _op_st.sum."));
  };
  // The step's and the whole block's conflicts; under the figure when there is one.
  auto totals = [&] {
    const std::string loads = strf(st->loads == 1 ? _("%d load") : _("%d loads"), st->loads);
    const std::string stores = strf(st->stores == 1 ? _("%d store") : _("%d stores"), st->stores);
    ImGui::TextWrapped(_("Step %zu (%s, %s): %d load, %d store conflicts"), v.step, loads.c_str(), stores.c_str(),
                       st->load_conflicts, st->store_conflicts);
    explain();
    static const char* const kWhole = N_("Whole block: %d load, %d store conflicts");
    ImGui::Text(_(kWhole), replay.load_conflicts(), replay.store_conflicts());
    hover_english(strf(kWhole, replay.load_conflicts(), replay.store_conflicts()).c_str());

  };
  if (st->accesses.empty()) {
    ImGui::TextDisabled("%s", _("No shared load or store in this step."));
    totals();
    return;
  }
  if (selected_ == static_cast<size_t>(-1)) {
    selected_ = *std::max_element(st->accesses.begin(), st->accesses.end(), [&](size_t a, size_t b) {
      return accesses[a].banks.degree < accesses[b].banks.degree;
    });
  }

  // The selected access as the classic figure. It gets the height it wants when the totals and a row
  // of the table fit below it; when they cannot, it takes the visible height and the panel scrolls.
  const WarpAccess& sel = accesses[selected_];
  ImGui::TextWrapped(sel.banks.degree > 1 ? _("warp %u %s, line %u: %d-way conflict")
                                          : _("warp %u %s, line %u: %d-way (conflict free)"),
                     sel.warp, access_word(sel.kind), sel.line, sel.banks.degree);
  explain();
  const float row_h = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
  const float table_min = 2 * row_h + 4;  // the header and one access
  const float below_min = 2 * ImGui::GetTextLineHeightWithSpacing() + table_min;
  const float avail_y = ImGui::GetContentRegionAvail().y, fixed = bank_figure_fixed_height();
  const float fig_min = fixed + bank_lines_min(), fig_max = fixed + bank_lines_max();
  const float fig_h = avail_y - below_min >= fig_min ? std::min(fig_max, avail_y - below_min)
                                                     : std::max(avail_y, fig_min);
  draw_bank_figure(sel, fig_h);
  totals();

  // Every warp-level access of the step; click one to draw it.
  if (ImGui::BeginTable("##accesses", 5,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV |
                            ImGuiTableFlags_SizingFixedFit,
                        ImVec2(0, std::max(ImGui::GetContentRegionAvail().y, table_min)))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    // Columns keep their IDs (the English after ###) in every language.
    ImGui::TableSetupColumn(strf("%s###warp", _("warp")).c_str());
    ImGui::TableSetupColumn(strf("%s###access", _("access")).c_str());
    ImGui::TableSetupColumn(strf("%s###line", _("line")).c_str());
    ImGui::TableSetupColumn(strf("%s###lanes", _("lanes")).c_str());
    ImGui::TableSetupColumn(strf("%s###n-way", _("n-way")).c_str(), ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (size_t ai : st->accesses) {
      const WarpAccess& a = accesses[ai];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      char id[32];
      std::snprintf(id, sizeof id, "%u##a%zu", a.warp, ai);
      if (ImGui::Selectable(id, ai == selected_, ImGuiSelectableFlags_SpanAllColumns)) selected_ = ai;
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(access_word(a.kind));
      ImGui::TableNextColumn();
      ImGui::Text("%u", a.line);
      ImGui::TableNextColumn();
      ImGui::Text("%d", std::popcount(a.lanes));
      ImGui::TableNextColumn();
      if (a.banks.degree > 1) ImGui::TextColored(ImVec4(0.84f, 0.37f, 0.0f, 1), _("%d-way"), a.banks.degree);
      else ImGui::TextUnformatted(_("1 (none)"));
    }
    ImGui::EndTable();
  }
}

}  // namespace rs::gui
