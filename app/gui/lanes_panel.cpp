// The lanes view: what the warp shuffles (and warp-reduce intrinsics) of the current step moved
// between the 32 lanes of each warp. Per warp: a row of the values the lanes offered, a row of
// what they received, and an arrow from the source lane to the destination lane of every move.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "panels.hpp"

namespace rs::gui {


namespace {

float cell_height() { return ImGui::GetTextLineHeight() + 6; }
float band_height() { return std::clamp(ImGui::GetTextLineHeight() * 3.0f, 36.0f, 90.0f); }
// One warp's block: the offered row, the arrows (the warp's label beside them), the received row,
// room for the result label.
float warp_block_height() { return 2 * cell_height() + band_height() + ImGui::GetTextLineHeight() * 0.9f; }

// The shuffle's lane distance in words: "lane ^ 16", "lane + 8" (down), "lane - 1" (up), "lane 0" (idx).
std::string lane_rule(const WarpShuffle& sh) {
  if (sh.kind == AccessKind::WarpReduce) return _("every lane gets the reduction of all");
  // A binary trace may not know the source lanes (kUnknownLane), or hold no moves: that is not "keeps its own value".
  const bool unknown = sh.moves.empty() || std::any_of(sh.moves.begin(), sh.moves.end(), [](const LaneMove& m) {
    return m.src == kUnknownLane;
  });
  if (unknown) return _("source lanes not recorded by this tracer");
  for (const LaneMove& m : sh.moves) {
    if (m.src == m.dst) continue;
    char b[48];
    switch (static_cast<ShuffleKind>(sh.op)) {
      case ShuffleKind::Xor: std::snprintf(b, sizeof b, "lane <- lane ^ %d", m.src ^ m.dst); break;
      case ShuffleKind::Down: std::snprintf(b, sizeof b, "lane <- lane + %d", m.src - m.dst); break;
      case ShuffleKind::Up: std::snprintf(b, sizeof b, "lane <- lane - %d", m.dst - m.src); break;
      case ShuffleKind::Idx: std::snprintf(b, sizeof b, "lane <- lane %d", m.src); break;
    }
    return b;
  }
  return _("every lane keeps its own value");
}

void arrow(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 c, float thick, float head) {
  const float dy = (b.y - a.y) * 0.5f;
  dl->AddBezierCubic(a, ImVec2(a.x, a.y + dy), ImVec2(b.x, b.y - dy), ImVec2(b.x, b.y - head), c, thick);
  dl->AddTriangleFilled(ImVec2(b.x - head * 0.6f, b.y - head), ImVec2(b.x + head * 0.6f, b.y - head), b, c);
}

// The row labels' column: as wide as the widest label it may hold ("offered", "received", "check!", "warp 31").
float label_width() {
  return std::max({ImGui::CalcTextSize(_("offered")).x, ImGui::CalcTextSize(_("received")).x,
                   ImGui::CalcTextSize(_("check!")).x, ImGui::CalcTextSize(strf(_("warp %u"), 31u).c_str()).x}) +
         8;
}
// The font size at which a compact value ("-1.2k", 0.82, 1e-05: compact_value) fits a cell `cw` wide.
float value_font(float cw) {
  return std::min(ImGui::GetFontSize(), ImGui::GetFontSize() * (cw - 3) / ImGui::CalcTextSize("0.0k").x);
}
// Issue 38, item 4: at 1280x720 a lane's cell is about 17 pixels wide, too narrow for its value, and every cell was
// empty. Where the values do not fit the 32 cells, each warp's values follow its arrows in a table of 16 lanes a
// row (lane numbers, offered, received; twice), at least 8-pixel text; the exact value on hover.
bool values_fit(float width) { return value_font(std::max(8.0f, (width - label_width() - 4) / kWarpSize)) >= 8.0f; }
// The table's text size and row height for a content `width` wide: rows as tall as its text needs, so that at scale
// 1.5 in a 720-pixel window a warp's arrows and all 32 values fit the view together.
struct TableRows {
  float cell_w = 0, text = 0, row = 0;
};
TableRows table_rows(float width, float label_w) {
  TableRows t;
  t.cell_w = (width - label_w - 4) / (kWarpSize / 2);
  t.text = std::max(8.0f, value_font(t.cell_w));
  t.row = std::max(t.text + 6, ImGui::GetTextLineHeight() * 0.6f);
  return t;
}
float table_height(float width, float label_w) { return 6 * table_rows(width, label_w).row + 4; }

}  // namespace

float LanesPanel::wanted_height(size_t warps, float width) {
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float block =
      warp_block_height() + (width > 0 && !values_fit(width) ? table_height(width, label_width()) : 0);
  return line * 2.6f + ImGui::GetTextLineHeight() + static_cast<float>(std::max<size_t>(warps, 1)) * block;
}

void LanesPanel::drawContent(AppState& s) {
  if (slot_ == 0) draw_predict_box(s, {explain::QuestionKind::ShuffleSource});
  if (slot_ == 0 && predict_hides_step(s)) {
    draw_predict_hidden_line();
    return;
  }
  const ReplayView v = s.view(slot_);
  const Step* st = stepOrSay(v);
  if (!st) return;
  const Replay& r = v.trace->replay;
  const TraceMeta& meta = v.trace->trace.meta;
  if (!r.has_lane_work()) {
    // From the facts (app/explain/): a kernel whose shared memory the probe does not trace is not said to exchange
    // values "not at all".
    if (const auto line = explain::lane_exchange_sentence(trace_facts_of(s, v), r.has_global_slice(), r.has_atomics())) {
      text_say(*line);
      as_compiled_button(s, v);
    }
    return;
  }
  const auto& all = r.shuffles();
  const std::string where = step_ranges(r, [](const Step& x) { return !x.shuffles.empty(); });
  const bool one_step = where.find_first_of("-,") == std::string::npos;  // "step 3", else "steps 3-5"

  // What to show: this step's shuffles; after a warp's last shuffle, that shuffle, with the lane
  // that holds the warp's result.
  std::vector<size_t> shown = st->shuffles;
  bool after = false;
  if (shown.empty()) {
    std::map<uint32_t, size_t> last;  // warp -> its latest shuffle before this step
    for (size_t i = 0; i < all.size(); ++i) {
      const WarpShuffle& sh = all[i];
      if (sh.epoch >= st->epoch) continue;
      auto it = last.find(sh.warp);
      if (it == last.end() || std::make_pair(all[it->second].epoch, all[it->second].seq) < std::make_pair(sh.epoch, sh.seq)) {
        last[sh.warp] = i;
      }
    }
    for (const auto& [w, i] : last) shown.push_back(i);
    after = !shown.empty();
  }
  if (shown.empty()) {
    ImGui::TextWrapped(one_step ? _("No warp shuffle in this step. %s shuffles in step %s (Right arrow to step on).")
                                : _("No warp shuffle in this step. %s shuffles in steps %s (Right arrow to step on)."),
                       meta.kernel.c_str(), where.c_str());
    return;
  }
  // A warp's last shuffle: from then on its result lane is highlighted.
  std::map<uint32_t, uint32_t> last_epoch;
  for (const WarpShuffle& sh : all) last_epoch[sh.warp] = std::max(last_epoch[sh.warp], sh.epoch);

  const WarpShuffle& head = all[shown.front()];
  // A binary trace (docs/binary-trace.md): the Compute Sanitizer API reports which lanes ran a shuffle, not the
  // values or the member mask; the source lanes come from the SHFL instruction's immediates.
  const bool binary = meta.tracer == Tracer::Binary;
  if (binary) {
    // The SASS names the source lanes where SHFL takes its offset as an immediate; otherwise (a register, or an
    // instruction the SASS parser did not read) no source is known: that is said, not "who read from whom".
    const bool sources = !head.moves.empty() && std::none_of(head.moves.begin(), head.moves.end(), [](const LaneMove& m) {
      return m.src == kUnknownLane;
    });
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.75f, 0.75f, 0.75f, 1));
    ImGui::TextWrapped("%s", sources ? _("Binary trace: who read from whom, from the SASS; no values (the API does not report them).")
                                     : _("Binary trace: no values and no source lanes for this shuffle (its SASS does not "
                                         "name them, and the API does not report them)."));
    ImGui::PopStyleColor();
    note_widget("lanes/no-values");
  }
  const std::string line = source_line(v.trace->trace.source, head.line);
  if (after) {
    ImGui::TextWrapped(one_step ? _("No shuffle in this step (shuffles: step %s). The warps' last shuffle, and the lane "
                                    "that holds each warp's result:")
                                : _("No shuffle in this step (shuffles: steps %s). The warps' last shuffle, and the lane "
                                    "that holds each warp's result:"),
                       where.c_str());
  } else {
    char mask[16] = "?";
    if (!binary) std::snprintf(mask, sizeof mask, "%08x", head.member_mask);
    ImGui::Text(_("%s  mask %s  width %d  line %u:  %s"), intrinsic_name(head.kind, head.op), mask, head.width,
                head.line, lane_rule(head).c_str());
    if (ImGui::IsItemHovered()) {
      // The line, what a shuffle is, where the kernel shuffles: three paragraphs.
      ImGui::SetTooltip(
          "%s\n\n%s\n%s", strf(_("line %u: %s"), head.line, line.c_str()).c_str(),
          _("A warp shuffle moves a register value from one lane to another inside the warp, without shared memory.\n"
            "mask: the lanes that must take part (the intrinsic's first argument); width: the size of the lane\n"
            "groups it works within. Each arrow runs from the lane that sent a value to the lane that got it."),
          strf(one_step ? _("Shuffles in step %s.") : _("Shuffles in steps %s."), where.c_str()).c_str());
    }
  }
  legend({tr_entry(color::kSkyBlue, N_("sent"), N_("The lane's value was read by another lane (the lane offered it).")),
          tr_entry(color::kOrange, N_("received"), N_("The lane got a value from another lane.")),
          tr_entry(color::kEmpty, N_("not in mask"), N_("The lane is not in the member mask: it takes no part.")),
          tr_entry(color::kPurple, N_("result lane"), N_("The lane that holds the warp's result after its last shuffle."))});

  ImDrawList* dl = ImGui::GetWindowDrawList();
  // The row labels' column: as wide as the widest of them as drawn ("offered", "received", "warp 7", "check!").
  const char* offered_label = _("offered");
  const char* received_label = _("received");
  const char* check_label = _("check!");
  uint32_t last_warp = 0;
  for (size_t idx : shown) last_warp = std::max(last_warp, all[idx].warp);
  const float label_w =
      std::max({ImGui::CalcTextSize(offered_label).x, ImGui::CalcTextSize(received_label).x,
                ImGui::CalcTextSize(check_label).x, ImGui::CalcTextSize(strf(_("warp %u"), last_warp).c_str()).x}) +
      8;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float cw = std::max(8.0f, (avail.x - label_w - 4) / kWarpSize);
  const float ch = cell_height();
  const float value_size = value_font(cw);
  const bool fits = value_size >= 8.0f;
  const bool table = !fits && !binary;  // the values in a table under each warp (values_fit)
  const TableRows rows = table_rows(avail.x, label_w);
  const float tcw = rows.cell_w, table_size = rows.text;
  // The arrows' band: its usual height, or less where the view is short (one warp shown).
  const float band = shown.size() == 1 ? std::clamp(avail.y - ImGui::GetTextLineHeight() * 1.9f - 2 * ch -
                                                        (table ? table_height(avail.x, label_w) : 0), 16.0f,
                                                    band_height())
                                       : band_height();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  ImFont* font = ImGui::GetFont();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  char buf[48];

  // The lanes' numbers once, above the first warp.
  ImVec2 o = ImGui::GetCursorScreenPos();
  const int every = cw >= ImGui::CalcTextSize("31").x + 3 ? 1 : 4;
  for (int l = 0; l < kWarpSize; l += every) {
    std::snprintf(buf, sizeof buf, "%d", l);
    const float tw = ImGui::CalcTextSize(buf).x;
    dl->AddText(ImVec2(o.x + label_w + l * cw + (cw - tw) / 2, o.y), dim, buf);
  }
  ImGui::Dummy(ImVec2(avail.x, ImGui::GetTextLineHeight()));

  struct Hover {
    const WarpShuffle* sh = nullptr;
    int lane = -1;
    bool received = false;
  } hover;
  const explain::StepFacts facts = explain::step_facts(r, v.step);
  for (size_t idx : shown) {
    const WarpShuffle& sh = all[idx];
    const int result = sh.warp < r.result_lanes().size() ? r.result_lanes()[sh.warp] : -1;
    const bool show_result = sh.epoch >= last_epoch[sh.warp] && result >= 0;
    // Who holds the result (app/explain/): after a warp reduce every lane does, not the lane that stores it.
    const auto held = std::find_if(facts.results.begin(), facts.results.end(),
                                   [&](const explain::WarpResult& w) { return w.warp == sh.warp; });
    const bool every = show_result && held != facts.results.end() && held->every_lane;
    // A lane operation's own type: the probe marks float operands (kOpFloatBit); reproducible_sum's __reduce_max_sync
    // of exponents is int32 in a float32 trace (its lanes showed "2e-43").
    const DType t = sh.float_values ? DType::Float32 : DType::Int32;
    uint32_t sent = 0;
    for (const LaneMove& m : sh.moves) {
      if (m.src != m.dst) sent |= 1u << m.src;
    }
    if (sh.kind == AccessKind::WarpReduce) sent = sh.lanes;

    o = ImGui::GetCursorScreenPos();
    // "32 lanes, mask 0000ffff, its last shuffle: step 4; INCONSISTENT: ...", in the window's language.
    std::string info = strf(_("%d lanes"), std::popcount(sh.lanes));
    if (sh.member_mask != head.member_mask) info = strf(_("%s, mask %08x"), info.c_str(), sh.member_mask);
    if (after) {
      for (size_t i = 0; i < r.num_steps(); ++i) {
        if (r.step(i).epoch == sh.epoch) info = strf(_("%s, its last shuffle: step %zu"), info.c_str(), i);
      }
    }
    if (!sh.consistent) {
      info = strf(_("%s; INCONSISTENT: a value does not match what its source lane offered"), info.c_str());
    }
    const float y_off = o.y;
    // The warp's name in the arrows' band; with the table, in the table's first row, where a short band would put
    // it over "offered" (issue 38: at scale 1.5 in Chinese the two overlapped).
    if (!table) {
      dl->AddText(ImVec2(o.x, y_off + ch + band / 2 - ImGui::GetTextLineHeight()), text,
                  strf(_("warp %u"), sh.warp).c_str());
    }
    if (ImGui::IsMouseHoveringRect(ImVec2(o.x, y_off + ch), ImVec2(o.x + label_w, y_off + ch + band)) &&
        ImGui::IsWindowHovered()) {
      ImGui::SetTooltip(_("warp %u: %s"), sh.warp, info.c_str());
    }
    if (!sh.consistent) {
      dl->AddText(ImVec2(o.x, y_off + ch + band / 2), color::kVermillion, check_label);
    }
    const float y_rec = y_off + ch + band;
    dl->AddText(ImVec2(o.x, y_off + (ch - ImGui::GetTextLineHeight()) / 2), dim, offered_label);
    dl->AddText(ImVec2(o.x, y_rec + (ch - ImGui::GetTextLineHeight()) / 2), dim, received_label);
    auto cell_x = [&](int l) { return o.x + label_w + l * cw; };

    for (int row = 0; row < 2; ++row) {
      const bool rec = row == 1;
      const float y = rec ? y_rec : y_off;
      for (int l = 0; l < kWarpSize; ++l) {
        const uint32_t bit = 1u << l;
        const bool member = (binary || (sh.member_mask & bit)) && (sh.lanes & bit);
        const ImVec2 a(cell_x(l), y), z(cell_x(l) + cw - 1, y + ch);
        ImU32 fill = !member ? color::kEmpty : rec ? color::kOrange : (sent & bit) ? color::kSkyBlue : color::kCell;
        dl->AddRectFilled(a, z, fill);
        if (show_result && rec && (every ? (sh.lanes >> l & 1u) != 0 : l == result)) {
          dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(z.x + 1, z.y + 1), color::kPurple, 0, 0, 3.0f);
        }
        if (fits && member && !binary) {
          compact_value(rec ? sh.received[l] : sh.offered[l], t, buf, sizeof buf);
          const ImVec2 ts = font->CalcTextSizeA(value_size, 1e9f, 0, buf);
          dl->AddText(font, value_size, ImVec2(a.x + (cw - 1 - ts.x) / 2, a.y + (ch - ts.y) / 2), color::kInk, buf);
        }
        if (mouse.x >= a.x && mouse.x < a.x + cw && mouse.y >= a.y && mouse.y < z.y) hover = {&sh, l, rec};
      }
    }
    if (every) {
      // The whole sentence where it fits the warp's row, else its short form (the sentence on hover).
      const std::string sentence = say(explain::result_sentence(*held));
      const bool whole = ImGui::CalcTextSize(sentence.c_str()).x <= kWarpSize * cw;
      const char* label = whole ? sentence.c_str() : _("result: every lane");
      dl->AddText(ImVec2(cell_x(0), y_rec + ch + 1), color::kPurple, label);
      if (!whole && ImGui::IsMouseHoveringRect(ImVec2(cell_x(0), y_rec + ch),
                                               ImVec2(cell_x(kWarpSize), y_rec + ch + ImGui::GetTextLineHeight()))) {
        ImGui::SetTooltip("%s", sentence.c_str());
      }
    } else if (show_result) {
      const char* label = _("result");
      const float tw = ImGui::CalcTextSize(label).x;
      const float cx = std::clamp(cell_x(result) + cw / 2 - tw / 2, cell_x(0), cell_x(kWarpSize) - tw);
      dl->AddText(ImVec2(cx, y_rec + ch + 1), color::kPurple, label);
    }

    // The moves: an arrow from the sending lane's offered cell to the receiving lane's cell.
    const bool hovering_warp = hover.sh == &sh;
    const float head_sz = std::clamp(cw * 0.3f, 4.0f, 8.0f);
    auto involved = [&](int src, int dst) {
      return !hovering_warp || (hover.received ? dst == hover.lane : src == hover.lane);
    };
    if (sh.kind == AccessKind::WarpReduce) {
      const ImVec2 mid(cell_x(0) + kWarpSize * cw / 2, y_off + ch + band / 2);
      for (int l = 0; l < kWarpSize; ++l) {
        if (!(sh.lanes >> l & 1u)) continue;
        const ImU32 c = with_alpha(color::kSkyBlue, hovering_warp && hover.lane != l ? 0.2f : 0.7f);
        dl->AddLine(ImVec2(cell_x(l) + cw / 2, y_off + ch), mid, c, 1.2f);
        arrow(dl, mid, ImVec2(cell_x(l) + cw / 2, y_rec), with_alpha(color::kOrange, 0.7f), 1.2f, head_sz);
      }
      dl->AddCircleFilled(mid, 5, color::kPurple);
    } else {
      for (const LaneMove& m : sh.moves) {
        const ImVec2 a(cell_x(m.src) + cw / 2, y_off + ch + 1), b(cell_x(m.dst) + cw / 2, y_rec - 1);
        if (m.src == m.dst) {  // kept its own value (past the end of its width segment)
          dl->AddLine(a, b, with_alpha(dim, 0.5f), 1.0f);
          continue;
        }
        const bool on = involved(m.src, m.dst);
        arrow(dl, a, b, with_alpha(color::kOrange, on ? (hovering_warp ? 1.0f : 0.75f) : 0.12f),
              on && hovering_warp ? 2.5f : 1.3f, head_sz);
      }
    }
    ImGui::Dummy(ImVec2(avail.x, 2 * ch + band + ImGui::GetTextLineHeight() * 0.9f - ImGui::GetStyle().ItemSpacing.y));
    if (!table) continue;
    // The values, 16 lanes a row: the lanes' numbers, what each offered, what each received; then lanes 16-31.
    const ImVec2 t0 = ImGui::GetCursorScreenPos();
    const float lh = rows.row, label_size = std::min(ImGui::GetFontSize(), lh - 2);
    auto row_label = [&](float y, ImU32 c, const char* s) {
      const float h = font->CalcTextSizeA(label_size, 1e9f, 0, s).y;
      dl->AddText(font, label_size, ImVec2(t0.x, y + (lh - h) / 2), c, s);
    };
    row_label(t0.y, text, strf(_("warp %u"), sh.warp).c_str());
    for (int half = 0; half < 2; ++half) {
      const float y = t0.y + half * 3 * lh;
      row_label(y + lh, dim, offered_label);
      row_label(y + 2 * lh, dim, received_label);
      for (int k = 0; k < kWarpSize / 2; ++k) {
        const int l = half * (kWarpSize / 2) + k;
        const float x = t0.x + label_w + k * tcw;
        std::snprintf(buf, sizeof buf, "%d", l);
        const ImVec2 ns = font->CalcTextSizeA(table_size, 1e9f, 0, buf);
        dl->AddText(font, table_size, ImVec2(x + (tcw - 1 - ns.x) / 2, y + (lh - ns.y) / 2), dim, buf);
        const uint32_t bit = 1u << l;
        if (!((sh.member_mask & bit) && (sh.lanes & bit))) continue;
        for (int row = 0; row < 2; ++row) {
          const bool rec = row == 1;
          const ImVec2 a(x, y + (1 + row) * lh), z(x + tcw - 2, y + (2 + row) * lh - 2);
          dl->AddRectFilled(a, z, rec ? color::kOrange : (sent & bit) ? color::kSkyBlue : color::kCell);
          // The whole value where it fits (an int, or a float to 3 significant digits), else its compact form.
          const uint32_t bits = rec ? sh.received[l] : sh.offered[l];
          if (t == DType::Int32) std::snprintf(buf, sizeof buf, "%d", static_cast<int32_t>(bits));
          else std::snprintf(buf, sizeof buf, "%.3g", static_cast<double>(bits_to_float(bits)));
          if (font->CalcTextSizeA(table_size, 1e9f, 0, buf).x > z.x - a.x - 2) compact_value(bits, t, buf, sizeof buf);
          const ImVec2 ts = font->CalcTextSizeA(table_size, 1e9f, 0, buf);
          dl->AddText(font, table_size, ImVec2(a.x + (z.x - a.x - ts.x) / 2, a.y + (z.y - a.y - ts.y) / 2),
                      rec || (sent & bit) ? color::kInk : text, buf);
          note_rect(strf("%c/lanes-value/%u/%d/%s", v.tag, sh.warp, l, rec ? "received" : "offered"), a, z);
          if (mouse.x >= a.x && mouse.x < z.x && mouse.y >= a.y && mouse.y < z.y) hover = {&sh, l, rec};
        }
      }
    }
    ImGui::Dummy(ImVec2(avail.x, table_height(avail.x, label_w) - ImGui::GetStyle().ItemSpacing.y));
  }

  if (hover.sh && ImGui::IsWindowHovered()) {
    const WarpShuffle& sh = *hover.sh;
    const int l = hover.lane;
    // A lane operation's own type: the probe marks float operands (kOpFloatBit); reproducible_sum's __reduce_max_sync
    // of exponents is int32 in a float32 trace (its lanes showed "2e-43").
    const DType t = sh.float_values ? DType::Float32 : DType::Int32;
    ImGui::BeginTooltip();
    ImGui::Text(_("warp %u, lane %d = thread %u"), sh.warp, l, sh.warp * kWarpSize + l);
    if (!(sh.lanes >> l & 1u)) {
      ImGui::TextUnformatted(binary                     ? _("did not execute the shuffle")
                             : sh.member_mask >> l & 1u ? _("in the mask, but did not execute the shuffle")
                                                        : _("not in the member mask: takes no part"));
    } else if (binary) {  // the lanes only: the binary tracer has no values
      for (const LaneMove& m : sh.moves) {
        if (m.dst == l) ImGui::Text(_("read lane %d's value"), m.src);
        if (m.src == l && m.dst != l) ImGui::Text(_("sent its value to lane %d"), m.dst);
      }
      ImGui::TextUnformatted(_("values: not recorded by the binary tracer"));
    } else {
      ImGui::Text(_("offered %s"), format_value(sh.offered[l], t).c_str());
      for (const LaneMove& m : sh.moves) {
        if (m.dst == l) ImGui::Text(_("received %s from lane %d"), format_value(m.value, t).c_str(), m.src);
        if (m.src == l && m.dst != l) ImGui::Text(_("sent its value to lane %d"), m.dst);
      }
      if (sh.kind == AccessKind::WarpReduce) ImGui::Text(_("received %s"), format_value(sh.received[l], t).c_str());
    }
    if (binary) ImGui::Text(_("active mask %08x"), sh.active_mask);
    else ImGui::Text(_("active mask %08x, member mask %08x"), sh.active_mask, sh.member_mask);
    ImGui::EndTooltip();
  }
}

}  // namespace rs::gui
