// The shared-memory view, and the cell grid it shares with the global-memory view (CellGrid).
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "panels.hpp"
#include "pitfall_words.hpp"

namespace rs::gui {

namespace {

float checkbox_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}

float label_width(const CellGrid& g) {
  const size_t n = g.values->size();
  const std::string last = std::to_string(g.first_index + (n ? n - 1 : 0));
  return ImGui::CalcTextSize(last.size() > 4 ? last.c_str() : "1023").x + 6;
}

int groups_of(const CellGrid& g) { return g.group > 0 ? (g.columns + g.group - 1) / g.group : 1; }

}  // namespace

CellRows cell_rows(const CellGrid& g) {
  CellRows out;
  const size_t n = g.values->size();
  const int cols = g.columns;
  out.rows = static_cast<int>((n + cols - 1) / cols);
  out.row_at.assign(static_cast<size_t>(out.rows), -1);
  for (int r = 0; r < out.rows; ++r) {
    bool ever = false, now = !g.touched_only;
    for (int c = 0; c < cols; ++c) {
      const size_t i = static_cast<size_t>(r) * cols + c;
      if (i >= n) break;
      ever = ever || (*g.used)[i] || (*g.read)[i];
      now = now || (*g.written)[i] || (*g.read)[i];
    }
    if (!ever) ++out.never_used;
    else if (now) out.row_at[static_cast<size_t>(r)] = out.shown++;
  }
  return out;
}

void same_line_if_fits(float width) {
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

float cell_size(const CellGrid& g, const CellRows& rows) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // A gap of a fifth of a cell between groups (sectors).
  return std::min((avail.x - label_width(g)) / (g.columns + 0.2f * (groups_of(g) - 1)),
                  (avail.y - ImGui::GetTextLineHeight()) / std::max(rows.shown, 1));
}

namespace {
// The font size of a value in a cell `cell` pixels wide: four characters ("1.2k", "123k", ".092") must fit.
float value_font_size(float cell) {
  const float full = ImGui::GetFontSize();
  return std::min(full, full * (cell - 3) / ImGui::CalcTextSize("0.0k").x);
}
}  // namespace

bool cell_values_fit(const CellGrid& g, const CellRows& rows) {
  return value_font_size(std::max(cell_size(g, rows), 6.0f)) >= 8.0f;
}

long draw_cell_grid(const CellGrid& g, const CellRows& rows) {
  const size_t n = g.values->size();
  const int cols = g.columns;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  char buf[32];
  const float label_w = label_width(g);
  const float head_h = ImGui::GetTextLineHeight();
  const float cell = std::max(cell_size(g, rows), 6.0f);
  const float gap = groups_of(g) > 1 ? std::max(2.0f, cell * 0.2f) : 0.0f;
  auto col_x = [&](int c) { return c * cell + (g.group > 0 ? static_cast<float>(c / g.group) * gap : 0.0f); };
  ImVec2 origin = ImGui::GetCursorScreenPos();
  origin.x += label_w;
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);

  // Column numbers above the columns, and row labels beside the rows: every one, or every 2nd,
  // 4th, ... where the cells are smaller than the text.
  std::snprintf(buf, sizeof buf, "%d", cols - 1);
  int every = 1;
  while (every < cols && every * cell < ImGui::CalcTextSize(buf).x + 4) every *= 2;
  for (int c = 0; c < cols; c += every) {
    std::snprintf(buf, sizeof buf, "%d", c);
    dl->AddText(ImVec2(origin.x + col_x(c) + 2, origin.y), dim, buf);
  }
  origin.y += head_h;
  int label_every = 1;
  while (label_every * cell < head_h) label_every *= 2;

  const ImVec2 mouse = ImGui::GetIO().MousePos;
  long hovered = -1;
  // Values in a font scaled to the cell: four characters ("1.2k", "123k") must fit.
  ImFont* font = ImGui::GetFont();
  const float value_size = value_font_size(cell);
  const bool fits_text = value_size >= 8.0f;
  for (size_t i = 0; i < n; ++i) {
    const int r = rows.row_at[i / cols], c = static_cast<int>(i % cols);
    if (r < 0) continue;
    ImVec2 a(origin.x + col_x(c), origin.y + r * cell);
    ImVec2 z(a.x + cell - 1, a.y + cell - 1);
    if (c == 0 && r % label_every == 0) {
      std::snprintf(buf, sizeof buf, "%zu", g.first_index + i);
      dl->AddText(ImVec2(origin.x - label_w, a.y + (cell - head_h) / 2 * (label_every == 1)), dim, buf);
    }
    const bool written = (*g.written)[i], read = (*g.read)[i], defined = (*g.defined)[i];
    const bool raced = g.raced && (*g.raced)[i];
    const ImU32 fill = raced     ? color::kVermillion
                       : !defined ? color::kEmpty
                       : written  ? color::kOrange
                       : read     ? color::kSkyBlue
                                  : color::kCell;
    dl->AddRectFilled(a, z, fill);
    if (g.outlined && (*g.outlined)[i]) dl->AddRect(a, z, color::kPurple, 0, 0, std::max(2.0f, cell * 0.1f));
    if (fits_text && defined) {
      compact_value(static_cast<uint32_t>((*g.values)[i]), g.dtype, buf, sizeof buf);
      ImVec2 ts = font->CalcTextSizeA(value_size, 1e9f, 0, buf);
      dl->AddText(font, value_size, ImVec2(a.x + (cell - ts.x) / 2, a.y + (cell - ts.y) / 2),
                  written || read ? color::kInk : text, buf);
    }
    if (mouse.x >= a.x && mouse.x < a.x + cell && mouse.y >= a.y && mouse.y < a.y + cell) hovered = static_cast<long>(i);
  }
  ImGui::Dummy(ImVec2(label_w + col_x(cols - 1) + cell, rows.shown * cell + 4));

  // Where the hovered cell's value came from: arrows from the cells the writing thread read.
  // (Drawn on hover only: with many flows the arrows would hide the values.)
  auto center = [&](uint32_t i) {
    return ImVec2(origin.x + col_x(static_cast<int>(i % cols)) + cell / 2,
                  origin.y + rows.row_at[i / cols] * cell + cell / 2);
  };
  if (g.flows && hovered >= 0) {
    for (const auto& [dst, src] : *g.flows) {
      if (static_cast<long>(dst) != hovered || rows.row_at[src / cols] < 0 || rows.row_at[dst / cols] < 0) continue;
      dl->AddLine(center(src), center(dst), color::kVermillion, 2.5f);
      dl->AddCircleFilled(center(dst), std::max(2.5f, cell * 0.15f), color::kVermillion);
    }
  }
  return ImGui::IsWindowHovered() ? hovered : -1;
}

// A kernel whose shared memory the trace does not hold (the pitfalls: the probe's wrapper would change
// the bug) but whose races racecheck found: the block's shared words, those raced on in vermillion, with
// the races of the hovered word.
void SmemPanel::drawRaces(const AppState& s, const ReplayView& v, const std::vector<const SessionRace*>& races) {
  const TraceMeta& m = v.trace->trace.meta;
  const KernelInfo* k = find_kernel(m.kernel);
  size_t words = static_cast<size_t>(m.block_size) * (k ? std::max(k->smem_per_thread, 1u) : 1u);
  for (const SessionRace* r : races) {
    if (!r->words.empty()) words = std::max<size_t>(words, r->words.back() + 1);
  }
  if (race_words_ != words || race_of_ != v.trace) {
    race_of_ = v.trace;
    race_words_ = words;
    race_cells_.assign(words, 0);
    for (const SessionRace* r : races) {
      for (uint32_t w : r->words) race_cells_[w] = 1;
    }
    race_zero_.assign(words, 0);
    race_ones_.assign(words, 1);
    race_values_.assign(words, 0);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kVermillion));
  ImGui::TextWrapped(_("Not recorded here: this kernel's shared memory (the probe's wrapper would change what the "
                       "compiler keeps in registers, which is the bug). In red: the words compute-sanitizer's racecheck "
                       "found raced on in block 0, %s."),
                     race_lines_phrase(races).c_str());
  ImGui::PopStyleColor();
  note_widget(std::string(1, v.tag) + "/races");
  legend({tr_entry(color::kVermillion, N_("raced on"),
                   N_("Two threads read and wrote (or both wrote) this word with no barrier between them (racecheck). "
                      "Hover a word for its races.")),
          tr_entry(color::kEmpty, N_("no race found"), N_("racecheck reported no hazard on this word."))});
  CellGrid g;
  g.values = &race_values_;
  g.defined = &race_zero_;
  g.written = &race_zero_;
  g.read = &race_zero_;
  g.used = &race_ones_;
  g.raced = &race_cells_;
  const CellRows rows = cell_rows(g);
  const long hovered = draw_cell_grid(g, rows);
  (void)s;
  if (hovered < 0) return;
  const uint32_t w = static_cast<uint32_t>(hovered);
  ImGui::BeginTooltip();
  ImGui::Text(_("sdata[%u]  (byte %u, bank %u)"), w, w * 4, w % kNumBanks);
  bool any = false;
  for (const SessionRace* r : races) {
    if (!std::binary_search(r->words.begin(), r->words.end(), w)) continue;
    any = true;
    ImGui::Text(_("%s: line %u %s, then line %u %s"), r->kind.c_str(), r->first_line,
                r->first_access == "Write" ? _("writes") : _("reads"), r->second_line,
                r->second_access == "Write" ? _("writes") : _("reads"));
  }
  if (!any) ImGui::TextUnformatted(_("no race found on this word"));
  ImGui::EndTooltip();
}

// One row per 32 words, so each column is one bank (32 banks x 4 bytes).
void SmemPanel::drawContent(AppState& s) {
  if (slot_ == 0) draw_predict_box(s, {explain::QuestionKind::WordValue});
  if (slot_ == 0 && predict_hides_step(s)) {
    draw_predict_hidden_line();
    return;
  }
  const ReplayView v = s.view(slot_);
  const Step* st = stepOrSay(v);
  if (!st) return;
  if (!v.trace->replay.has_shared()) {
    if (const auto races = s.races(slot_); !races.empty()) {
      drawRaces(s, v, races);
      return;
    }
    if (const auto line = explain::no_shared_sentence(trace_facts_of(s, v), explain::Panel::SharedMemory)) {
      text_say(*line);
      as_compiled_button(s, v);
    }
    return;
  }
  legend({tr_entry(color::kOrange, N_("written this step"),
                   N_("A lane stored to this 4-byte word in this step (between two barriers).\n"
                      "Hover the cell to see which words its new value was computed from.")),
          tr_entry(color::kSkyBlue, N_("read this step"), N_("A lane loaded this word in this step.")),
          tr_entry(color::kCell, N_("unchanged"), N_("Holds a value stored in an earlier step.")),
          tr_entry(color::kEmpty, N_("never written"), N_("No thread has stored to this word yet."))},
         true);

  // The label translated, its ID the same in every language.
  const char* rows_label = _("rows used this step");
  same_line_if_fits(checkbox_width(rows_label));
  ImGui::Checkbox(strf("%s###touched-rows", rows_label).c_str(), &touched_only_);
  note_widget(std::string(1, v.tag) + "/touched-rows");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", _("Hide the rows of 32 words that no lane reads or writes in this step,\n"
                              "so that large blocks (512, 1024 threads) get cells big enough for their values."));
  }

  // The rows shown, top to bottom: those the kernel ever uses (a word stored by its end), or only
  // those with a word read or written this step.
  CellGrid g;
  g.values = &st->smem;
  g.defined = &st->defined;
  g.written = &st->written;
  g.read = &st->read;
  g.used = &v.trace->replay.steps().back().defined;
  g.flows = &st->flows;
  g.dtype = v.trace->trace.meta.dtype;
  g.touched_only = touched_only_;
  const CellRows rows = cell_rows(g);
  if (rows.never_used > 0) {
    const std::string note = strf(_("(%d of %d rows never used: hidden)"), rows.never_used, rows.rows);
    same_line_if_fits(ImGui::CalcTextSize(note.c_str()).x);
    ImGui::TextDisabled("%s", note.c_str());
  }
  // Cells too small for their values (scale 1.5 at 1280 pixels): the values written this step in a line above
  // the grid, the others on hover.
  if (!cell_values_fit(g, rows)) {
    // As many as two lines hold, each in the cells' short form (3.8, .092, 1.2k): the grid keeps its room.
    std::string list;
    int more = 0;
    const float room = 3 * ImGui::GetContentRegionAvail().x -
                       ImGui::CalcTextSize(_("Cells too small for values; written this step: %s (hover a cell for any "
                                             "value).")).x;
    char cbuf[32];
    for (size_t w = 0; w < st->written.size(); ++w) {
      if (!st->written[w]) continue;
      const std::string item = strf(list.empty() ? "[%zu] %s" : _(", [%zu] %s"), w,
                                    compact_value(static_cast<uint32_t>(st->smem[w]), g.dtype, cbuf, sizeof cbuf));
      if (more || ImGui::CalcTextSize((list + item).c_str()).x > room) {
        ++more;
        continue;
      }
      list += item;
    }
    if (more) list += strf(_(" and %d more"), more);
    ImGui::TextWrapped("%s", list.empty() ? _("Cells too small for values: hover a cell for its value.")
                                          : strf(_("Cells too small for values; written this step: %s (hover a cell "
                                                   "for any value)."),
                                                 list.c_str())
                                                .c_str());
    note_widget(std::string(1, v.tag) + "/smem-values");
  }
  const long hovered = draw_cell_grid(g, rows);

  if (hovered >= 0) {
    const size_t w = static_cast<size_t>(hovered);
    ImGui::BeginTooltip();
    ImGui::Text(_("sdata[%zu]  (byte %zu, bank %zu)"), w, w * 4, w % kNumBanks);
    if (st->defined[w]) {
      ImGui::Text(_("value %s"), format_value(static_cast<uint32_t>(st->smem[w]), v.trace->trace.meta.dtype).c_str());
    }
    else ImGui::TextUnformatted(_("never written yet"));
    if (st->written[w]) {
      ImGui::TextUnformatted(_("written this step, from:"));
      for (const auto& [dst, src] : st->flows) {
        if (dst == w) ImGui::Text("  sdata[%u]", src);
      }
    } else if (st->read[w]) {
      ImGui::TextUnformatted(_("read this step"));
    }
    ImGui::EndTooltip();
  }
}

}  // namespace rs::gui
