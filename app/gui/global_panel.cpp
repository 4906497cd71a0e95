// The global-memory view: the traced block's slice of the buffer it reduces in place (the book
// track's kernels, on a scratch copy of the input) after the current step, as a grid of cells like
// the shared-memory view, and above it the step's warp-level global requests with the 32-byte
// sectors each touched against the fewest that hold its bytes.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <string>
#include <vector>

#include "exact_steps.hpp"
#include "panels.hpp"

namespace rs::gui {


namespace {

// Request lines shown at once; more scroll.
constexpr size_t kRequestLines = 4;

size_t most_requests(const Replay& r) {
  size_t m = 0;
  for (const Step& st : r.steps()) m = std::max(m, st.global_requests.size());
  return m;
}

// The elements a request's lanes touched, short: "scratch[0..31]", "scratch[0..62 step 2]",
// "output[3]", "input[5..900], 32 elements". The buffer's name stays; the words are in the window's language.
std::string elements(const GlobalRequest& q) {
  std::vector<uint32_t> idx;
  for (int l = 0; l < kWarpSize; ++l) {
    if (q.lanes >> l & 1u) idx.push_back(q.index[l]);
  }
  std::sort(idx.begin(), idx.end());
  idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
  std::string s = to_string(static_cast<GlobalBuffer>(q.space));
  if (idx.empty()) return s;
  if (idx.size() == 1) return s + strf("[%u]", idx[0]);
  const uint32_t d = idx[1] - idx[0];
  bool even = true;
  for (size_t i = 2; i < idx.size() && even; ++i) even = idx[i] - idx[i - 1] == d;
  if (even && d == 1) return s + strf("[%u..%u]", idx.front(), idx.back());
  if (even) return s + strf(_("[%u..%u step %u]"), idx.front(), idx.back(), d);
  return s + strf(_("[%u..%u], %zu elements"), idx.front(), idx.back(), idx.size());
}

// The step's requests, one line each (sectors touched against the fewest that hold the bytes), in a
// child of at most kRequestLines lines. Returns the slice's cells the hovered request touched
// (empty without a slice or a hovered request).
std::vector<uint8_t> request_list(const Replay& r, const Step& st, const GlobalSlice* slice) {
  const std::vector<GlobalRequest>& all = r.global_requests();
  std::vector<uint8_t> outlined;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const size_t list_lines = std::min(std::max<size_t>(most_requests(r), 1), kRequestLines);
  {
    ImGui::BeginChild("##requests", ImVec2(0, line * static_cast<float>(list_lines) + 2), false);
    long hovered_req = -1;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    for (size_t gi : st.global_requests) {
      const GlobalRequest& q = all[gi];
      const float y0 = ImGui::GetCursorScreenPos().y;
      ImGui::TextUnformatted(strf(q.kind == AccessKind::GlobalStore ? _("warp %u store %s line %u:")
                                                                    : _("warp %u load %s line %u:"),
                                  q.warp, elements(q).c_str(), q.line)
                                 .c_str());
      ImGui::SameLine();
      const double eff = 100.0 * q.efficiency();
      // Vermillion only where the request touched more sectors than its bytes need (uncoalesced); one
      // lane's 4-byte store (1 sector, 12% of its bytes) is as good as it can be.
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(wasteful(q) ? color::kVermillion : color::kGreen),
                         q.sectors == 1 ? _("%d sector (%d needed), %.0f%%") : _("%d sectors (%d needed), %.0f%%"),
                         q.sectors, q.min_sectors, eff);
      if (ImGui::IsWindowHovered() && mouse.y >= y0 && mouse.y < y0 + line) hovered_req = static_cast<long>(gi);
    }
    if (hovered_req >= 0) {
      const GlobalRequest& q = all[static_cast<size_t>(hovered_req)];
      if (slice) {
        outlined.assign(slice->count, 0);
        for (int l = 0; l < kWarpSize; ++l) {
          if ((q.lanes >> l & 1u) && q.space == slice->space && q.index[l] >= slice->first &&
              q.index[l] - slice->first < slice->count) {
            outlined[q.index[l] - slice->first] = 1;
          }
        }
      }
      ImGui::SetTooltip(q.kind == AccessKind::GlobalStore
                            ? _("warp %u, %d lanes (mask %08x), store to %s\n%d bytes in %d sectors of 32 bytes; %d would "
                                "hold them")
                            : _("warp %u, %d lanes (mask %08x), load from %s\n%d bytes in %d sectors of 32 bytes; %d "
                                "would hold them"),
                        q.warp, std::popcount(q.lanes), q.lanes, elements(q).c_str(), q.requested_bytes, q.sectors,
                        q.min_sectors);
    }
    ImGui::EndChild();
  }

  return outlined;
}

}  // namespace

int GlobalPanel::grid_rows(const Replay& r) {
  return static_cast<int>((r.global_slice().count + kCellGridColumns - 1) / kCellGridColumns);
}

float GlobalPanel::wanted_height(const Replay& r) {
  const float line = ImGui::GetTextLineHeightWithSpacing();
  if (!r.has_global_slice()) {
    // One line, and the step's requests when the kernel makes any (its loads of the input).
    const size_t most = most_requests(r);
    return line * 1.2f + (most ? line * static_cast<float>(std::min(most, kRequestLines)) + 2 : 0.0f);
  }
  // The slice's name, "This step", the requests, the legend, the checkbox, the column numbers.
  const size_t req = std::min(std::max<size_t>(most_requests(r), 1), kRequestLines);
  return line * (4.5f + static_cast<float>(req)) + ImGui::GetTextLineHeight();
}

void GlobalPanel::drawContent(AppState& s) {
  if (slot_ == 0) draw_predict_box(s, {explain::QuestionKind::Sectors});
  if (slot_ == 0 && predict_hides_step(s)) {
    draw_predict_hidden_line();
    return;
  }
  const ReplayView v = s.view(slot_);
  const Step* st = stepOrSay(v);
  if (!st) return;
  const Replay& r = v.trace->replay;
  const TraceMeta& meta = v.trace->trace.meta;
  // reproducible_sum (issue 30): what the step adds to the block's exact accumulator, and the one rounding at the end.
  if (const ExactAccumulator* acc = exact_accumulator_of(v.trace->trace, r)) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kGreen));
    std::string said;
    for (const explain::Sentence& x : exact_step_sentences(*acc, v.step)) {
      if (!said.empty() && i18n::language() != i18n::Lang::Zh) said += ' ';  // no space after "。"
      said += say(x);
    }
    ImGui::TextWrapped("%s", said.c_str());
    ImGui::PopStyleColor();
    note_widget(std::string(slot_ ? "B" : "A") + "/exact-accumulator");
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", _("Every float is an integer times a power of two, so their sum is one exact integer, "
                                "whatever the order:\nthe block keeps it in wide integers (its limbs), and only the "
                                "last block rounds, once, at the end.\nThe values are the session's input, made again "
                                "from its pattern and N."));
    }
  }
  if (!r.has_global_slice()) {
    const bool any = most_requests(r) > 0;
    ImGui::TextWrapped(!any                          ? _("%s does not reduce in global memory.")
                       : st->global_requests.empty() ? _("%s does not reduce in global memory; no global request in this step.")
                                                     : _("%s does not reduce in global memory; the step's global requests:"),
                       meta.kernel.c_str());
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", _("Its block stores nothing back into the input (or a scratch copy of it): it reduces in\n"
                                "shared memory, registers or atomics and stores at most its result to the output.\n"
                                "Its loads are listed one request a line: the lanes of one warp running one global load\n"
                                "or store, the 32-byte sectors it touched and the fewest that hold its bytes."));
    }
    if (any && !st->global_requests.empty()) request_list(r, *st, nullptr);
    return;
  }
  const GlobalSlice& slice = r.global_slice();
  const char* buffer = to_string(static_cast<GlobalBuffer>(slice.space));

  ImGui::Text(_("%s[%u..%u]: block %u's slice, reduced in place"), buffer, slice.first, slice.first + slice.count - 1,
              meta.traced_block);
  if (ImGui::IsItemHovered()) {
    const bool scratch = slice.space == static_cast<uint8_t>(GlobalBuffer::Scratch);
    ImGui::SetTooltip(_("The elements the traced block loads or stores in the buffer it reduces in place:\n%s\n"
                        "A row is 32 elements, 128 bytes (16, 64 or 128 where that gives larger cells); a group of 8\n"
                        "cells is one 32-byte sector "
                        "(cudaMalloc bases are 256-byte aligned)."),
                      scratch ? _("a scratch copy of the input, padded with zeros to whole blocks (the input stays intact).")
                              : _("the kernel's input itself, which it destroys."));
  }
  if (slice.truncated) {
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color::kOrange), _("(first %u of %u elements)"), slice.count,
                       slice.span);
  }

  // This step's requests, one line each: sectors touched against the fewest that hold the bytes.
  std::vector<uint8_t> outlined;
  if (st->global_requests.empty()) {
    ImGui::TextDisabled("%s", _("No global request in this step."));
  } else {
    ImGui::Text(st->global_requests.size() == 1 ? _("This step: %zu warp-level global request")
                                                : _("This step: %zu warp-level global requests"),
                st->global_requests.size());
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          _("One request: the lanes of one warp running one global load or store. The memory system moves\n"
            "32-byte sectors; efficiency = bytes the lanes asked for / bytes in the sectors touched (nvprof's\n"
            "gld_efficiency / gst_efficiency). 32 consecutive 4-byte elements of one warp: 4 sectors, 100%%.\n"
            "Hover a request to frame its elements in the grid."));
    }
  }
  if (!st->global_requests.empty() || most_requests(r) > 0) outlined = request_list(r, *st, &slice);

  legend({tr_entry(color::kOrange, N_("written this step"),
                   N_("A lane stored to this element in this step (between two barriers).\n"
                      "Hover the cell to see which elements its new value was computed from.")),
          tr_entry(color::kSkyBlue, N_("read this step"), N_("A lane loaded this element in this step.")),
          tr_entry(color::kCell, N_("unchanged"), N_("Holds the value the block last loaded or stored here.")),
          tr_entry(color::kEmpty, N_("not touched yet"),
                   N_("The block has not loaded or stored this element yet (its value is known only from then on)."))},
         true);
  // The label translated, its ID the same in every language.
  const char* rows_label = _("rows used this step");
  same_line_if_fits(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(rows_label).x);
  ImGui::Checkbox(strf("%s###global-touched-rows", rows_label).c_str(), &touched_only_);
  note_widget(std::string(1, v.tag) + "/global-touched-rows");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", _("Hide the rows of 32 elements that no lane reads or writes in this step,\n"
                              "so that wide slices (unrolled kernels, large blocks) get cells big enough for their "
                              "values."));
  }

  CellGrid g;
  g.values = &st->global_values;
  g.defined = &st->global_defined;
  g.written = &st->global_written;
  g.read = &st->global_read;
  g.used = &r.steps().back().global_defined;
  g.flows = &st->global_flows;
  g.outlined = outlined.empty() ? nullptr : &outlined;
  g.dtype = meta.dtype;
  g.first_index = slice.first;
  g.group = slice.first % 8 == 0 ? 8 : 0;  // sectors line up with the columns
  g.touched_only = touched_only_;
  // 32 elements a row (128 bytes), unless the values do not fit in the cells and 16 (a short, tall
  // slice) or 64 or 128 (a wide slice) give cells larger by a fifth.
  CellRows rows = cell_rows(g);
  float best = cell_size(g, rows);
  const bool fits = best >= ImGui::GetFontSize() * 2;
  for (int cols : {16, 64, 128}) {
    if (fits) break;
    CellGrid wide = g;
    wide.columns = cols;
    CellRows wide_rows = cell_rows(wide);
    const float cell = cell_size(wide, wide_rows);
    if (cell > best * 1.2f) {
      best = cell;
      g = wide;
      rows = std::move(wide_rows);
    }
  }
  std::string note;
  if (rows.never_used > 0) {
    note = strf(_("(%d of %d rows never used: hidden)"), rows.never_used, rows.rows);
  } else if (g.columns != kCellGridColumns) {
    note = strf(_("(%d elements a row)"), g.columns);
  }
  if (!note.empty()) {
    same_line_if_fits(ImGui::CalcTextSize(note.c_str()).x);
    ImGui::TextDisabled("%s", note.c_str());
  }
  const long hovered = draw_cell_grid(g, rows);
  if (hovered >= 0) {
    const size_t c = static_cast<size_t>(hovered);
    const size_t index = slice.first + c;
    ImGui::BeginTooltip();
    ImGui::Text(_("%s[%zu]  (byte %zu, 32-byte sector %zu)"), buffer, index, index * 4, index / 8);
    if (st->global_defined[c]) {
      ImGui::Text(_("value %s"), format_value(static_cast<uint32_t>(st->global_values[c]), meta.dtype).c_str());
    } else {
      ImGui::TextUnformatted(_("not loaded or stored by the block yet"));
    }
    if (st->global_written[c]) {
      ImGui::TextUnformatted(_("written this step, from:"));
      for (const auto& [dst, src] : st->global_flows) {
        if (dst == c) ImGui::Text("  %s[%zu]", buffer, static_cast<size_t>(slice.first) + src);
      }
    } else if (st->global_read[c]) {
      ImGui::TextUnformatted(_("read this step"));
    }
    ImGui::EndTooltip();
  }
}

}  // namespace rs::gui
