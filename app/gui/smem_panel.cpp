#include <algorithm>
#include <cstdio>
#include <vector>

#include "panels.hpp"

namespace rs::gui {

// One row per 32 words, so each column is one bank (32 banks x 4 bytes).
void SmemPanel::drawContent(AppState& s) {
  const ReplayView v = s.view(slot_);
  const Step* st = v.current();
  if (!st) {
    ImGui::TextDisabled("No trace yet.");
    return;
  }
  if (!v.trace->replay.has_shared()) {
    ImGui::TextWrapped("%s does not use shared memory.", v.trace->trace.meta.kernel.c_str());
    return;
  }
  const size_t words = st->smem.size();
  const int cols = kNumBanks;
  const int rows = static_cast<int>((words + cols - 1) / cols);
  ImDrawList* dl = ImGui::GetWindowDrawList();

  legend_swatch(color::kOrange, "written this step",
                "A lane stored to this 4-byte word in this step (between two barriers).\n"
                "Hover the cell to see which words its new value was computed from.");
  legend_swatch(color::kSkyBlue, "read this step", "A lane loaded this word in this step.");
  legend_swatch(color::kCell, "unchanged", "Holds a value stored in an earlier step.");
  legend_swatch(color::kEmpty, "never written", "No thread has stored to this word yet.");

  ImGui::NewLine();
  ImGui::Checkbox("only rows used this step", &touched_only_);
  note_widget(std::string(1, v.tag) + "/touched-rows");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Hide the rows of 32 words that no lane reads or writes in this step,\n"
                      "so that large blocks (512, 1024 threads) get cells big enough for their values.");
  }

  // The rows shown, top to bottom: those the kernel ever uses (a word stored by its end), or only
  // those with a word read or written this step.
  const Step& last = v.trace->replay.steps().back();
  std::vector<int> row_at(static_cast<size_t>(rows), -1);  // row -> display row, -1 hidden
  int shown_rows = 0, never_used = 0;
  for (int r = 0; r < rows; ++r) {
    bool ever = false;
    for (int c = 0; c < cols && !ever; ++c) {
      const size_t w = static_cast<size_t>(r) * cols + c;
      ever = w < words && (last.defined[w] || st->read[w]);
    }
    if (!ever) {
      ++never_used;
      continue;
    }
    bool used = !touched_only_;
    for (int c = 0; c < cols && !used; ++c) {
      const size_t w = static_cast<size_t>(r) * cols + c;
      used = w < words && (st->written[w] || st->read[w]);
    }
    if (used) row_at[static_cast<size_t>(r)] = shown_rows++;
  }

  if (never_used > 0) {
    ImGui::SameLine();
    ImGui::TextDisabled("(%d of %d rows never used: hidden)", never_used, rows);
  }
  const float label_w = ImGui::CalcTextSize("1023").x + 6;
  ImVec2 avail = ImGui::GetContentRegionAvail();
  const float head_h = ImGui::GetTextLineHeight();
  float cell = std::min((avail.x - label_w) / cols, (avail.y - head_h) / std::max(shown_rows, 1));
  cell = std::max(cell, 6.0f);
  ImVec2 origin = ImGui::GetCursorScreenPos();
  origin.x += label_w;
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);

  // Bank numbers above the columns (every 4th when cells are narrow).
  char buf[32];
  const int bank_every = cell >= ImGui::CalcTextSize("31").x + 4 ? 1 : 4;
  for (int c = 0; c < cols; c += bank_every) {
    std::snprintf(buf, sizeof buf, "%d", c);
    dl->AddText(ImVec2(origin.x + c * cell + 2, origin.y), dim, buf);
  }
  origin.y += head_h;

  const ImVec2 mouse = ImGui::GetIO().MousePos;
  long hovered = -1;
  // Values in a font scaled to the cell: four characters ("1.2k", "123k") must fit.
  ImFont* font = ImGui::GetFont();
  const float full = ImGui::GetFontSize();
  const float four = ImGui::CalcTextSize("0.0k").x;
  const float value_size = std::min(full, full * (cell - 3) / four);
  const bool fits_text = value_size >= 8.0f;
  for (size_t w = 0; w < words; ++w) {
    const int r = row_at[w / cols], c = static_cast<int>(w % cols);
    if (r < 0) continue;
    ImVec2 a(origin.x + c * cell, origin.y + r * cell);
    ImVec2 z(a.x + cell - 1, a.y + cell - 1);
    if (c == 0) {
      std::snprintf(buf, sizeof buf, "%zu", w);
      dl->AddText(ImVec2(origin.x - label_w, a.y + (cell - head_h) / 2), dim, buf);
    }
    ImU32 fill = !st->defined[w] ? color::kEmpty : st->written[w] ? color::kOrange : st->read[w] ? color::kSkyBlue
                                                                                                  : color::kCell;
    dl->AddRectFilled(a, z, fill);
    if (fits_text && st->defined[w]) {
      compact_value(static_cast<uint32_t>(st->smem[w]), v.trace->trace.meta.dtype, buf, sizeof buf);
      ImVec2 ts = font->CalcTextSizeA(value_size, 1e9f, 0, buf);
      bool light = st->written[w] || st->read[w];
      dl->AddText(font, value_size, ImVec2(a.x + (cell - ts.x) / 2, a.y + (cell - ts.y) / 2),
                  light ? color::kInk : text, buf);
    }
    if (mouse.x >= a.x && mouse.x < a.x + cell && mouse.y >= a.y && mouse.y < a.y + cell) hovered = static_cast<long>(w);
  }
  ImGui::Dummy(ImVec2(label_w + cols * cell, shown_rows * cell + 4));

  // Where the hovered cell's value came from: arrows from the cells the writing thread read.
  // (Drawn on hover only: with many flows the arrows would hide the values.)
  auto center = [&](uint32_t w) {
    return ImVec2(origin.x + (w % cols) * cell + cell / 2, origin.y + row_at[w / cols] * cell + cell / 2);
  };
  for (const auto& [dst, src] : st->flows) {
    if (static_cast<long>(dst) != hovered || row_at[src / cols] < 0 || row_at[dst / cols] < 0) continue;
    dl->AddLine(center(src), center(dst), color::kVermillion, 2.5f);
    dl->AddCircleFilled(center(dst), std::max(2.5f, cell * 0.15f), color::kVermillion);
  }

  if (hovered >= 0 && ImGui::IsWindowHovered()) {
    const size_t w = static_cast<size_t>(hovered);
    ImGui::BeginTooltip();
    ImGui::Text("sdata[%zu]  (byte %zu, bank %zu)", w, w * 4, w % kNumBanks);
    if (st->defined[w]) {
      ImGui::Text("value %s", format_value(static_cast<uint32_t>(st->smem[w]), v.trace->trace.meta.dtype).c_str());
    }
    else ImGui::TextUnformatted("never written yet");
    if (st->written[w]) {
      ImGui::TextUnformatted("written this step, from:");
      for (const auto& [dst, src] : st->flows) {
        if (dst == w) ImGui::Text("  sdata[%u]", src);
      }
    } else if (st->read[w]) {
      ImGui::TextUnformatted("read this step");
    }
    ImGui::EndTooltip();
  }
}

}  // namespace rs::gui
