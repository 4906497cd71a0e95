// The timing panel's multigpu tab (MultiGpuView, panels.hpp; issue 21). Two halves, side by side where the
// window allows it (multigpu_split), else under inner tabs (the ring, the chart, the figures):
//   the ring       a traced ring all-reduce replayed step by step: one lane per GPU, its G chunks coloured by
//                  how many GPUs' values they hold after the shown step (ring_contributions), the step's
//                  transfers as arrows to the right neighbour; under it the same ring's measured timeline
//                  (each GPU's peer copies and adds, CUDA events), the shown step's bars highlighted;
//   the bandwidth  busbw against buffer size (nccl-tests' convention) for NCCL, the ring and the naive way,
//                  with the measured one-way peer copy as a dashed reference; the table of figures and the
//                  sum of N ints spread over the GPUs against one GPU.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "panels.hpp"
#include "stored.hpp"  // explain: the recorded method read back
#include "plot.hpp"

namespace rs::gui {

namespace {

struct Method {
  const char* id;     // MultiGpuRow::method
  const char* label;  // in the legend and the table (N_: translated where drawn; NCCL's name stays English)
  ImU32 color;
};
constexpr Method kAllReduce[] = {{"nccl", "NCCL all-reduce", color::kOrange},
                                 {"ring", N_("hand ring"), color::kSkyBlue},
                                 {"naive", N_("naive (gather to GPU 0)"), color::kPurple}};

ImU32 mix(ImU32 a, ImU32 b, float f) {
  const ImVec4 x = ImGui::ColorConvertU32ToFloat4(a), y = ImGui::ColorConvertU32ToFloat4(b);
  return ImGui::ColorConvertFloat4ToU32(
      ImVec4(x.x + (y.x - x.x) * f, x.y + (y.y - x.y) * f, x.z + (y.z - x.z) * f, x.w + (y.w - x.w) * f));
}

// A chunk holding `count` of `gpus` GPUs' values: grey for one GPU's own, deepening blue for a partial sum,
// green for the whole sum.
ImU32 chunk_fill(int count, uint32_t gpus) {
  if (count >= static_cast<int>(gpus)) return color::kGreen;
  const float f = gpus > 2 ? static_cast<float>(count - 1) / static_cast<float>(gpus - 2) : 0.0f;
  return mix(color::kCell, color::kBlue, std::clamp(f, 0.0f, 1.0f));
}

// The first of `forms` that fits `width` pixels (else the last).
const std::string& first_fitting(const std::vector<std::string>& forms, float width) {
  for (const std::string& f : forms) {
    if (ImGui::CalcTextSize(f.c_str()).x <= width) return f;
  }
  return forms.back();
}

// What a chunk holds, in the longest form that fits: "GPU 0's own", "GPUs 0+1+3", "summed: all 4".
std::string held_text(uint64_t mask, uint32_t gpus, float width) {
  const int count = std::popcount(mask);
  if (count >= static_cast<int>(gpus)) return first_fitting({strf(_("summed: all %u"), gpus), _("SUM"), "S"}, width);
  std::string list;
  for (uint32_t k = 0; k < gpus; ++k) {
    if (!(mask >> k & 1)) continue;
    if (!list.empty()) list += '+';  // two appends: GCC 12's -Wrestrict false positive on "+" + string
    list += std::to_string(k);
  }
  if (count == 1) return first_fitting({strf(_("GPU %s's own"), list.c_str()), "GPU " + list, list}, width);
  return first_fitting({strf(_("GPUs %s"), list.c_str()), strf(_("%d of %u"), count, gpus), std::to_string(count)},
                       width);
}

// Text centred in the box [a, b].
void centered_text(ImDrawList* dl, ImVec2 a, ImVec2 b, float y, ImU32 c, const std::string& t) {
  const float w = ImGui::CalcTextSize(t.c_str()).x;
  dl->AddText(ImVec2(a.x + std::max(0.0f, (b.x - a.x - w) / 2), y), c, t.c_str());
}

// An arrow from `a` to `b` with its head at `b`.
void arrow(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 c, float thickness) {
  const float len = std::max(1.0f, std::hypot(b.x - a.x, b.y - a.y));
  const ImVec2 u((b.x - a.x) / len, (b.y - a.y) / len);
  const float head = thickness * 3.5f;
  const ImVec2 base(b.x - u.x * head, b.y - u.y * head);
  dl->AddLine(a, base, c, thickness);
  dl->AddTriangleFilled(b, ImVec2(base.x - u.y * head * 0.6f, base.y + u.x * head * 0.6f),
                        ImVec2(base.x + u.y * head * 0.6f, base.y - u.x * head * 0.6f), c);
}

// Chinese text (issue 31) has no spaces between its words: a line may break before any CJK character, except
// before closing punctuation ("，。：；）" stay with what precedes them) and after opening punctuation ("（"
// stays with what follows).
bool cjk(uint32_t cp) {
  return (cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
         (cp >= 0xFF00 && cp <= 0xFFEF);
}
bool cjk_closing(uint32_t cp) {
  switch (cp) {
    case 0x3001: case 0x3002: case 0x3009: case 0x300B: case 0x300D: case 0x300F: case 0x3011:  // 、。〉》」』】
    case 0xFF01: case 0xFF09: case 0xFF0C: case 0xFF1A: case 0xFF1B: case 0xFF1F: case 0xFF3D:  // ！），：；？］
    case 0xFF5D: case 0x2026: case 0x201D: case 0x2019:                                         // ｝…"'
      return true;
    default:
      return false;
  }
}
bool cjk_opening(uint32_t cp) {
  switch (cp) {
    case 0x3008: case 0x300A: case 0x300C: case 0x300E: case 0x3010: case 0xFF08: case 0xFF3B: case 0xFF5B:
    case 0x201C: case 0x2018:  // 〈《「『【（［｛"'
      return true;
    default:
      return false;
  }
}

// `text` cut into lines of at most `width` pixels at its spaces (ImGui's wrapping also breaks after a '.', which
// splits "99.0 µs" in two) and, in Chinese, between CJK characters; a word wider than `width` gets a line of its own.
std::vector<std::string> wrap_at_spaces(const std::string& text, float width) {
  // The pieces a line may break between, each with whether a space separates it from the one before.
  struct Piece {
    std::string text;
    bool space_before = false;
  };
  std::vector<Piece> pieces;
  bool space = false, open = false;  // open: the last piece is an opening bracket, which takes what follows
  bool last_cjk = false;
  for (size_t at = 0; at < text.size();) {
    const size_t from = at;
    const uint32_t cp = i18n::utf8_next(text, &at);
    const std::string ch = text.substr(from, at - from);
    if (cp == ' ') {
      space = true;
      open = false;
      continue;
    }
    const bool is_cjk = cjk(cp);
    // A new piece after a space, at a CJK character and after one; closing punctuation stays with the piece
    // before it, and the character after an opening bracket with the bracket.
    const bool joins = !pieces.empty() && !space &&
                       (open || cjk_closing(cp) || (!is_cjk && !last_cjk));
    if (joins) pieces.back().text += ch;
    else pieces.push_back({ch, space && !pieces.empty()});
    open = cjk_opening(cp);
    last_cjk = is_cjk;
    space = false;
  }
  std::vector<std::string> lines(1);
  for (const Piece& p : pieces) {
    const std::string longer = lines.back().empty() ? p.text : lines.back() + (p.space_before ? " " : "") + p.text;
    if (!lines.back().empty() && ImGui::CalcTextSize(longer.c_str()).x > width) lines.push_back(p.text);
    else lines.back() = longer;
  }
  return lines;
}

// The height of `text` wrapped to the region's width (wrap_at_spaces), in pixels.
float wrapped_height(const std::string& text) {
  return static_cast<float>(wrap_at_spaces(text, ImGui::GetContentRegionAvail().x).size()) * ImGui::GetTextLineHeight();
}

// `text` wrapped to the region's width (wrap_at_spaces), as one group: the last item for note_widget and the
// hover.
void text_wrapped(const std::string& text) {
  ImGui::BeginGroup();
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0));  // as TextWrapped's lines
  for (const std::string& l : wrap_at_spaces(text, ImGui::GetContentRegionAvail().x)) ImGui::TextUnformatted(l.c_str());
  ImGui::PopStyleVar();
  ImGui::EndGroup();
}

int bytes_format(double value, char* buf, int size, void*) {
  return std::snprintf(buf, static_cast<size_t>(size), "%s", bytes_label(static_cast<uint64_t>(value)).c_str());
}

float row_height() { return ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y; }

// The transfers of schedule step `step` (0-based) of a ring of `gpus`.
std::vector<RingTransfer> transfers_of(uint32_t gpus, uint32_t step) {
  std::vector<RingTransfer> out;
  for (const RingTransfer& t : ring_schedule(gpus)) {
    if (t.step == step) out.push_back(t);
  }
  return out;
}

// The figures table's columns, and the width it needs whole at the current font.
// (English msgids, translated where drawn and measured.)
constexpr const char* kTableColumns[] = {N_("size"),      "P2P GB/s",         "NCCL busbw", N_("ring busbw"),
                                         N_("ring/NCCL"), N_("naive busbw"), N_("correct")};
float table_width() {
  const ImGuiStyle& st = ImGui::GetStyle();
  float w = st.ScrollbarSize + 2 * st.WindowPadding.x;
  for (const char* c : kTableColumns) {
    w += std::max(ImGui::CalcTextSize(i18n::tr(c)).x, ImGui::CalcTextSize("256 MiB").x) + 2 * st.CellPadding.x + 2;
  }
  return w;
}

// "2 × NVIDIA H200, linked by NV18, NCCL 2.28.9, recorded 2026-11-24T17:00:00Z".
std::string header_text(const SessionMultiGpu& m) {
  std::string names;
  for (const std::string& n : m.gpu_names) {
    if (names.find(n) == std::string::npos) names += (names.empty() ? "" : " / ") + n;
  }
  std::string out = std::to_string(m.gpus) + " \u00d7 " + (names.empty() ? std::string("GPU") : names);
  out += m.link.empty() ? std::string(_(", link unknown")) : strf(_(", linked by %s"), m.link.c_str());
  if (!m.peer_access) out += _(" (no peer access: copies go through the host)");
  out += strf(_(", NCCL %s, recorded %s"), m.nccl_version.empty() ? "?" : m.nccl_version.c_str(), m.date.c_str());
  return out;
}

}  // namespace

uint32_t MultiGpuView::steps() const {
  return of_ && ring_ < of_->rings.size() && of_->rings[ring_].gpus >= 2 ? 2 * (of_->rings[ring_].gpus - 1) : 0;
}

void MultiGpuView::sync(AppState& s) {
  const SessionMultiGpu* m = &s.session->multigpu;
  if (m != of_) {
    of_ = m;
    ring_ = m->rings.empty() ? 0 : m->rings.size() - 1;  // the largest: it shows the bandwidth, not the latency
    step_ = s.ring_step_wanted >= 0 ? static_cast<uint32_t>(s.ring_step_wanted) : 1;
    s.ring_step_wanted = -1;
  }
  ring_ = std::min(ring_, m->rings.empty() ? size_t{0} : m->rings.size() - 1);
  step_ = std::min(step_, steps());
}

std::vector<Key> MultiGpuView::takeKeys(const AppState& s, const std::vector<Key>& keys) {
  if (!s.multigpu_shown() || of_ != &s.session->multigpu || steps() == 0) return keys;
  std::vector<Key> rest;
  for (Key k : keys) {
    switch (k) {
      case Key::Forward: step_ = std::min(step_ + 1, steps()); break;
      case Key::Back: step_ = step_ ? step_ - 1 : 0; break;
      case Key::Start: step_ = 0; break;
      case Key::End: step_ = steps(); break;
      default: rest.push_back(k);
    }
  }
  return rest;
}

void MultiGpuView::draw(AppState& s) {
  sync(s);
  const SessionMultiGpu& m = *of_;
  text_wrapped(header_text(m));
  note_widget("multigpu/header");
  if (ImGui::IsItemHovered()) {
    const auto said = explain::multigpu_method_sentence(m.method);  // stored in English, said in the window's language
    ImGui::SetTooltip(_("Timing method: %s\n\nnvidia-smi topo -m:\n%s"), said ? say(*said).c_str() : m.method.c_str(),
                      m.topology.empty() ? _("(not recorded)") : m.topology.c_str());
  }
  const float font = ImGui::GetFontSize();
  const MultiGpuSplit split = multigpu_split(ImGui::GetContentRegionAvail().x, font * 30, table_width(), font);
  if (split.side_by_side) {
    ImGui::BeginChild("##ring", ImVec2(split.ring_w, 0));
    drawRing(m);
    ImGui::EndChild();
    ImGui::SameLine(0, font);
    ImGui::BeginChild("##bandwidth", ImVec2(0, 0));
    // The chart gets what the tables want whole leave, at least 11 lines (the figures table then scrolls).
    const float line = ImGui::GetTextLineHeightWithSpacing();
    drawChart(m, std::max(ImGui::GetContentRegionAvail().y - figuresHeight(m), line * 11));
    drawFigures(m);
    ImGui::EndChild();
    return;
  }
  if (!ImGui::BeginTabBar("##multigpu")) return;
  // "###" keeps each tab's identity in both languages.
  const bool ring_open = ImGui::BeginTabItem(strf("%s###Ring", _("Ring, step by step")).c_str());
  hover_english("Ring, step by step");
  if (ring_open) {
    drawRing(m);
    ImGui::EndTabItem();
  }
  note_widget("multigpu/tab/ring");
  const bool chart_open = ImGui::BeginTabItem(strf("%s###busbw", _("busbw against size")).c_str());
  hover_english("busbw against size");
  if (chart_open) {
    drawChart(m, 0);
    ImGui::EndTabItem();
  }
  note_widget("multigpu/tab/chart");
  const bool figures_open = ImGui::BeginTabItem(strf("%s###Figures", _("Figures")).c_str());
  hover_english("Figures");
  if (figures_open) {
    drawFigures(m);
    ImGui::EndTabItem();
  }
  note_widget("multigpu/tab/figures");
  ImGui::EndTabBar();
}

// The ring's size choice and step controls, the step's sentence, the lanes, their legend, the timeline.
void MultiGpuView::drawRing(const SessionMultiGpu& m) {
  if (m.rings.empty()) {
    ImGui::TextWrapped("%s", _("This recording traced no ring all-reduce (`record --track multigpu` traces one at 1 MiB "
                             "and one at 256 MiB): its figures are on the bandwidth side."));
    return;
  }
  const RingRecording& r = m.rings[ring_];
  if (m.rings.size() > 1) {
    ImGui::TextUnformatted(_("Ring of"));
    for (size_t i = 0; i < m.rings.size(); ++i) {
      ImGui::SameLine();
      const std::string label = bytes_label(m.rings[i].bytes);
      if (ImGui::RadioButton(label.c_str(), ring_ == i)) {
        ring_ = i;
        step_ = std::min(step_, steps());
      }
      note_widget("multigpu/ring/" + std::to_string(m.rings[i].bytes));
    }
  } else {
    ImGui::Text(_("Ring of %s"), bytes_label(r.bytes).c_str());
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _("The buffer each GPU holds; the ring sums them element by element."));
  const float slider_w = ImGui::GetFontSize() * 8;
  same_line_if_fits(ImGui::GetFrameHeight() * 2 + slider_w + 3 * ImGui::GetStyle().ItemSpacing.x);
  if (ImGui::Button("<")) step_ = step_ ? step_ - 1 : 0;
  note_widget("multigpu/prev");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _("Step back (Left arrow)"));
  ImGui::SameLine();
  if (ImGui::Button(">")) step_ = std::min(step_ + 1, steps());
  note_widget("multigpu/next");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _("Next step (Right arrow)"));
  ImGui::SameLine();
  int st = static_cast<int>(step_);
  // The slider's text (its format, so a '%' in it would be read as one: there is none).
  const std::string label = st ? strf(_("step %d of %u"), st, steps()) : strf(_("start (0 of %u)"), steps());
  ImGui::SetNextItemWidth(slider_w);
  if (ImGui::SliderInt("##ringstep", &st, 0, static_cast<int>(steps()), label.c_str())) step_ = static_cast<uint32_t>(st);
  note_widget("multigpu/step");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(_("0: before the ring; then the %u reduce-scatter steps (each GPU adds the chunk it receives)\n"
                        "and the %u all-gather steps (each GPU stores the summed chunk it receives). Home / End: "
                        "first / last."),
                      r.gpus - 1, r.gpus - 1);
  }
  text_wrapped(ring_step_sentence(r, step_));
  note_widget("multigpu/sentence");
  note_widget("multigpu/shown-step/" + std::to_string(step_));

  // The lanes get what their legend and the timeline's least leave; the timeline the rest.
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float avail = ImGui::GetContentRegionAvail().y;
  const RingRows rows = ring_rows(r.gpus, avail - line - timelineLeast(r), ImGui::GetTextLineHeight());
  drawLanes(r, rows);
  const std::string all = strf(_("summed (all %u)"), r.gpus);
  const LegendEntry own{color::kCell, _("own values"), _("a chunk that holds only its own GPU's values")},
      sum{color::kGreen, all.c_str(), _("a chunk that holds the sum of every GPU's values")},
      got{color::kOrange, _("received"), _("outlined: the chunk a GPU received this step and added or stored")},
      sent{color::kSkyBlue, _("sent"), _("outlined: the chunk a GPU sent to its right neighbour this step")};
  if (r.gpus > 2) legend({own, {mix(color::kCell, color::kBlue, 0.6f), _("partial sum")}, sum, got, sent});
  else legend({own, sum, got, sent});
  drawTimeline(r);
}

// G lanes of G chunk boxes each, coloured by what they hold after the shown step; the step's transfers as
// arrows from each GPU's sent chunk to the same chunk of its right neighbour, labelled.
void MultiGpuView::drawLanes(const RingRecording& r, const RingRows& rows) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x, font = ImGui::GetFontSize();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const uint32_t g = r.gpus;
  const float label_w = ImGui::CalcTextSize(("GPU " + std::to_string(g - 1)).c_str()).x + font * 0.6f;
  const float col_w = (width - label_w) / static_cast<float>(g), box_w = col_w - font * 0.6f;
  const float top = o.y + (g > 2 ? rows.edge_h : 0);
  auto lane_y = [&](uint32_t k) { return top + static_cast<float>(k) * (rows.box_h + rows.gap_h); };
  auto box_x = [&](uint32_t c) { return o.x + label_w + static_cast<float>(c) * col_w; };
  const auto held = ring_contributions(g, step_);
  const std::vector<RingTransfer> moves = step_ ? transfers_of(g, step_ - 1) : std::vector<RingTransfer>{};
  const uint64_t n = r.bytes / 4;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (uint32_t k = 0; k < g; ++k) {
    const float y0 = lane_y(k), y1 = y0 + rows.box_h;
    const std::string name = "GPU " + std::to_string(k);
    dl->AddText(ImVec2(o.x, (y0 + y1 - ImGui::GetTextLineHeight()) / 2), text, name.c_str());
    for (uint32_t c = 0; c < g; ++c) {
      const ImVec2 a(box_x(c), y0), b(box_x(c) + box_w, y1);
      const int count = std::popcount(held[k][c]);
      dl->AddRectFilled(a, b, chunk_fill(count, g), font * 0.2f);
      for (const RingTransfer& t : moves) {
        if (t.chunk != c || (t.to != k && t.from != k)) continue;
        dl->AddRect(a, b, t.to == k ? color::kOrange : color::kSkyBlue, font * 0.2f, 0, std::max(2.0f, font * 0.18f));
      }
      const std::string what = held_text(held[k][c], g, box_w - font * 0.4f);
      const float lh = ImGui::GetTextLineHeight();
      if (rows.box_h >= lh * 2.2f) {
        const float y = (y0 + y1) / 2 - lh;
        centered_text(dl, a, b, y, text, first_fitting({strf(_("chunk %u"), c), std::to_string(c)}, box_w));
        centered_text(dl, a, b, y + lh, text, what);
      } else {
        centered_text(dl, a, b, (y0 + y1 - lh) / 2, text, what);
      }
      if (ImGui::IsWindowHovered() && mouse.x >= a.x && mouse.x <= b.x && mouse.y >= a.y && mouse.y <= b.y) {
        const ChunkRange e = ring_chunk(n, g, c);
        const auto first = static_cast<unsigned long long>(e.begin);
        const auto last = static_cast<unsigned long long>(e.end ? e.end - 1 : 0);
        const std::string bytes = bytes_label(e.size() * 4), holds = held_text(held[k][c], g, 1e9f);
        if (step_) {
          ImGui::SetTooltip(_("GPU %u, chunk %u: float32 elements %llu-%llu (%s)\nholds %s after step %u"), k, c, first,
                            last, bytes.c_str(), holds.c_str(), step_);
        } else {
          ImGui::SetTooltip(_("GPU %u, chunk %u: float32 elements %llu-%llu (%s)\nholds %s after none of the steps"), k,
                            c, first, last, bytes.c_str(), holds.c_str());
        }
      }
    }
  }
  // Arrows: down to the next lane; the wrap (GPU G-1 -> 0) up through the one gap of 2 GPUs, else out of the
  // last lane's bottom and into the first lane's top.
  const float thick = std::max(2.0f, font * 0.14f);
  for (const RingTransfer& t : moves) {
    const float x = box_x(t.chunk) + box_w * 0.3f;
    const bool scatter = t.phase == RingPhase::ReduceScatter;
    const std::string c = std::to_string(t.chunk);
    // The label's room: to the end of the column where 2 GPUs share their one gap, else to the right edge.
    const float room = (g == 2 ? box_x(t.chunk) + col_w : o.x + width) - x - font * 0.6f;
    const bool wraps = t.to != t.from + 1 && g > 2;  // drawn as "to GPU 0: ..." under the last lane
    const std::string to = wraps ? _("to GPU 0: ") : "";
    const std::string label = first_fitting(
        {to + (scatter ? strf(_("chunk %u -> GPU %u, added"), t.chunk, t.to) : strf(_("chunk %u -> GPU %u, stored"), t.chunk, t.to)),
         to + (scatter ? strf(_("chunk %u, added"), t.chunk) : strf(_("chunk %u, stored"), t.chunk)),
         to + c + (scatter ? " +" : " ="), c + (scatter ? " +" : " =")},
        room);
    auto draw = [&](float y_from, float y_to, float label_y) {
      arrow(dl, ImVec2(x, y_from), ImVec2(x, y_to), text, thick);
      dl->AddText(ImVec2(x + font * 0.4f, label_y), text, label.c_str());
    };
    const float lh = ImGui::GetTextLineHeight();
    if (t.to == t.from + 1) {
      const float y0 = lane_y(t.from) + rows.box_h, y1 = lane_y(t.to);
      draw(y0 + 2, y1 - 2, (y0 + y1 - lh) / 2);
    } else if (g == 2) {
      const float y0 = lane_y(0) + rows.box_h, y1 = lane_y(1);
      draw(y1 - 2, y0 + 2, (y0 + y1 - lh) / 2);
    } else {  // the wrap of 3 or more GPUs: leaves the last lane, enters the first
      const float bottom = lane_y(g - 1) + rows.box_h;
      arrow(dl, ImVec2(x, bottom + 2), ImVec2(x, bottom + rows.edge_h - 2), text, thick);
      dl->AddText(ImVec2(x + font * 0.4f, bottom + (rows.edge_h - lh) / 2), text, label.c_str());
      arrow(dl, ImVec2(x, o.y + 2), ImVec2(x, top - 2), text, thick);
      dl->AddText(ImVec2(x + font * 0.4f, o.y + (rows.edge_h - lh) / 2), text,
                  strf(_("from GPU %u"), g - 1).c_str());
    }
  }
  ImGui::Dummy(ImVec2(width, rows.total()));
  note_rect("multigpu/lanes", o, ImVec2(o.x + width, o.y + rows.total()));
}

// The timeline's sentence: the shown step's measured time (the whole ring's at step 0).
std::string MultiGpuView::timelineText(const RingRecording& r) const {
  const RingSpan span = step_ ? ring_step_span(r, step_ - 1) : RingSpan{};
  return step_ ? strf(_("Measured, CUDA events on each GPU: step %u took %s. NCCL is a black box: timed, not traced."),
                      step_, duration_text(span.end_us - span.start_us).c_str())
               : strf(_("Measured, CUDA events on each GPU: %s for the whole ring. NCCL is a black box: timed, not "
                        "traced."),
                      duration_text(r.total_us).c_str());
}

// The least height the timeline is readable in: its sentence, the span's label, the lanes at 1.1 lines, the
// axis and the legend.
float MultiGpuView::timelineLeast(const RingRecording& r) const {
  const float lh = ImGui::GetTextLineHeight(), line = ImGui::GetTextLineHeightWithSpacing();
  return wrapped_height(timelineText(r)) + ImGui::GetStyle().ItemSpacing.y + lh * (2.3f + 1.1f * static_cast<float>(r.gpus)) + line * 1.2f;
}

// Each GPU's lane on a µs axis: its peer copies (the sender's) in the upper half, its adds (the receiver's)
// in the lower; the shown step's bars bright and outlined, the others faint, its span shaded and timed.
void MultiGpuView::drawTimeline(const RingRecording& r) {
  const float lh = ImGui::GetTextLineHeight();
  const RingSpan span = step_ ? ring_step_span(r, step_ - 1) : RingSpan{};
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped(timelineText(r));
  ImGui::PopStyleColor();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float font = ImGui::GetFontSize();
  const uint32_t g = r.gpus;
  const float axis_h = lh * 1.3f;
  const float legend_h = ImGui::GetTextLineHeightWithSpacing() * 1.2f;
  const float lane_h = std::clamp((avail.y - axis_h - lh - legend_h) / static_cast<float>(g), lh * 1.1f, lh * 3.2f);
  const float height = lh + lane_h * static_cast<float>(g) + axis_h;  // a line above for the span's label
  const float label_w = ImGui::CalcTextSize(("GPU " + std::to_string(g - 1)).c_str()).x + font * 0.6f;
  const float x0 = o.x + label_w, x1 = o.x + avail.x - font * 0.8f;
  double t_max = r.total_us;
  for (const RingEvent& e : r.events) t_max = std::max({t_max, e.copy_end_us, e.add_end_us});
  if (t_max <= 0 || x1 - x0 < font * 4) {
    ImGui::Dummy(ImVec2(avail.x, height));
    return;
  }
  auto px = [&](double us) { return x0 + static_cast<float>(us / t_max) * (x1 - x0); };
  const float lanes_top = o.y + lh, lanes_bottom = lanes_top + lane_h * static_cast<float>(g);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), grid = ImGui::GetColorU32(ImGuiCol_TextDisabled, 0.35f);
  // The axis: about 5 nice ticks, in µs or (from 2 ms) in ms.
  const bool ms = t_max >= 2000;
  const double step = plot::NiceStep(t_max, 5);
  float last_right = -1e9f;
  for (double t = 0; t <= t_max * 1.0001; t += step) {
    const float x = px(t);
    dl->AddLine(ImVec2(x, lanes_top), ImVec2(x, lanes_bottom), grid);
    char b[32];
    std::snprintf(b, sizeof b, ms ? "%g ms" : "%g \u00b5s", ms ? t * 1e-3 : t);
    const float w = ImGui::CalcTextSize(b).x, lx = std::clamp(x - w / 2, o.x, x1 + font * 0.8f - w);
    if (lx < last_right + font * 0.6f) continue;
    dl->AddText(ImVec2(lx, lanes_bottom + lh * 0.15f), text, b);
    last_right = lx + w;
  }
  if (step_) {  // the step's span, shaded over every lane, its time above it
    const float a = px(span.start_us), b = std::max(px(span.end_us), a + 2);
    dl->AddRectFilled(ImVec2(a, lanes_top), ImVec2(b, lanes_bottom), ImGui::GetColorU32(ImGuiCol_Text, 0.12f));
    const std::string t = strf(_("step %u: %s"), step_, duration_text(span.end_us - span.start_us).c_str());
    const float w = ImGui::CalcTextSize(t.c_str()).x;
    dl->AddText(ImVec2(std::clamp((a + b - w) / 2, x0, x1 - w), o.y), text, t.c_str());
  } else {  // before the ring: every step named over its span, where the name fits
    for (uint32_t k = 0; k < steps(); ++k) {
      const RingSpan sp = ring_step_span(r, k);
      const std::string t = strf(_("step %u"), k + 1);
      const float w = ImGui::CalcTextSize(t.c_str()).x, a = px(sp.start_us), b = px(sp.end_us);
      if (w <= b - a) dl->AddText(ImVec2((a + b - w) / 2, o.y), text, t.c_str());
    }
  }
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (uint32_t k = 0; k < g; ++k) {
    const float y = lanes_top + lane_h * static_cast<float>(k);
    dl->AddText(ImVec2(o.x, y + (lane_h - lh) / 2), text, ("GPU " + std::to_string(k)).c_str());
    dl->AddLine(ImVec2(x0, y + lane_h), ImVec2(x1, y + lane_h), grid);
  }
  for (const RingEvent& e : r.events) {
    const bool shown = step_ && e.step + 1 == step_;
    const float alpha = !step_ ? 0.85f : shown ? 1.0f : 0.3f;
    struct Bar {
      uint32_t lane;
      double t0, t1;
      float half;  // 0: the upper half (copies), 1: the lower (adds)
      ImU32 color;
      const char* what;
    };
    const Bar bars[] = {{e.from, e.copy_start_us, e.copy_end_us, 0, color::kSkyBlue, _("peer copy")},
                        {e.to, e.add_start_us, e.add_end_us, 1, color::kOrange, _("add kernel")}};
    for (const Bar& bar : bars) {
      if (bar.t1 <= bar.t0) continue;  // the all-gather has no add
      const float y = lanes_top + lane_h * static_cast<float>(bar.lane) + lane_h * (0.08f + 0.46f * bar.half);
      const ImVec2 a(px(bar.t0), y), b(std::max(px(bar.t1), px(bar.t0) + 2), y + lane_h * 0.38f);
      dl->AddRectFilled(a, b, with_alpha(bar.color, alpha));
      if (shown) dl->AddRect(a, b, text, 0, 0, 1.5f);
      if (ImGui::IsWindowHovered() && mouse.x >= a.x - 1 && mouse.x <= b.x + 1 && mouse.y >= a.y && mouse.y <= b.y) {
        ImGui::SetTooltip(_("step %u (%s), GPU %u -> GPU %u, chunk %u (%s)\n%s on GPU %u: %s, from %.1f to %.1f \u00b5s"),
                          e.step + 1, to_string(e.phase), e.from, e.to, e.chunk, bytes_label(e.chunk_bytes).c_str(),
                          bar.what, bar.lane, duration_text(bar.t1 - bar.t0).c_str(), bar.t0, bar.t1);
      }
    }
  }
  ImGui::Dummy(ImVec2(avail.x, height));
  note_rect("multigpu/timeline", o, ImVec2(o.x + avail.x, o.y + height));
  legend({{color::kSkyBlue, _("peer copy (on the sender)")}, {color::kOrange, _("add kernel (on the receiver)")}});
}

// The spread sum's caption and table, in pixels.
float MultiGpuView::sumHeight(const SessionMultiGpu& m) const {
  const size_t sums = m.sizes("sum").size();
  if (!sums) return 0;
  return ImGui::GetTextLineHeightWithSpacing() + row_height() * static_cast<float>(sums + 1) + 4 +
         ImGui::GetStyle().ItemSpacing.y;
}

// Both tables whole, in pixels.
float MultiGpuView::figuresHeight(const SessionMultiGpu& m) const {
  return row_height() * static_cast<float>(m.sizes("allreduce").size() + 1) + 4 + ImGui::GetStyle().ItemSpacing.y +
         sumHeight(m);
}

// busbw against buffer size: NCCL, the ring, the naive way, and the one-way peer copy dashed; `height` 0: the
// rest of the region.
void MultiGpuView::drawChart(const SessionMultiGpu& m, float height) {
  const std::vector<uint64_t> sizes = m.sizes("allreduce");
  const ImVec2 chart_at = ImGui::GetCursorScreenPos();
  const float chart_h = height > 0 ? height : ImGui::GetContentRegionAvail().y;
  if (plot::BeginPlot("##busbw", _("busbw against buffer size"), _("bytes per GPU"), "GB/s", ImVec2(0, chart_h),
                      plot::PlotFlags_LogX2)) {
    plot::SetupXFormat(bytes_format);
    for (const Method& me : kAllReduce) {
      std::vector<double> xs, ys;
      for (uint64_t b : sizes) {
        if (const MultiGpuRow* row_of = m.find("allreduce", me.id, b)) {
          xs.push_back(static_cast<double>(b));
          ys.push_back(row_of->busbw_gbps);
        }
      }
      plot::Line(i18n::tr(me.label), xs.data(), ys.data(), static_cast<int>(xs.size()), me.color);
    }
    std::vector<double> xs, ys;
    for (uint64_t b : m.sizes("copy")) {
      xs.push_back(static_cast<double>(b));
      ys.push_back(m.find("copy", "p2p", b) ? m.find("copy", "p2p", b)->busbw_gbps : 0);
    }
    plot::Line(_("P2P copy, GPU 0 -> 1"), xs.data(), ys.data(), static_cast<int>(xs.size()),
               ImGui::GetColorU32(ImGuiCol_Text), plot::LineFlags_Dashed);
    plot::EndPlot();
  }
  note_rect("multigpu/chart", chart_at, ImVec2(chart_at.x + ImGui::GetContentRegionAvail().x, chart_at.y + chart_h));
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(_("busbw (nccl-tests): bytes per GPU / time x 2(G-1)/G for an all-reduce, the bandwidth each link\n"
                        "carries: comparable with the peer copy's whatever G is.\nNCCL: %s\nring: %s\nnaive: %s"),
                      i18n::tr(multigpu_method_text("allreduce", "nccl").c_str()), i18n::tr(multigpu_method_text("allreduce", "ring").c_str()),
                      i18n::tr(multigpu_method_text("allreduce", "naive").c_str()));
  }
}

// The figures at each all-reduce size (the table scrolls where the region is short), then the spread sum.
void MultiGpuView::drawFigures(const SessionMultiGpu& m) {
  const std::vector<uint64_t> sizes = m.sizes("allreduce"), sums = m.sizes("sum");
  const float row = row_height();
  const float table_want = row * static_cast<float>(sizes.size() + 1) + 4;
  const float table_h = std::max(ImGui::GetContentRegionAvail().y - sumHeight(m), row * 3);
  const int cols = static_cast<int>(std::size(kTableColumns));
  if (ImGui::BeginTable("##mgtable", cols, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY,
                        ImVec2(0, std::min(table_h, table_want)))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* c : kTableColumns) ImGui::TableSetupColumn(i18n::tr(c));
    ImGui::TableHeadersRow();
    auto gbps = [](const MultiGpuRow* r) {
      if (r) ImGui::Text("%.1f", r->busbw_gbps);
      else ImGui::TextDisabled("-");
    };
    for (uint64_t b : sizes) {
      const MultiGpuRow *copy = m.find("copy", "p2p", b), *nccl = m.find("allreduce", "nccl", b),
                        *ring = m.find("allreduce", "ring", b), *naive = m.find("allreduce", "naive", b);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(bytes_label(b).c_str());
      ImGui::TableNextColumn();
      gbps(copy);
      ImGui::TableNextColumn();
      gbps(nccl);
      ImGui::TableNextColumn();
      gbps(ring);
      ImGui::TableNextColumn();
      if (ring && nccl && nccl->busbw_gbps > 0) ImGui::Text("%.2fx", ring->busbw_gbps / nccl->busbw_gbps);
      else ImGui::TextDisabled("-");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _("the ring's busbw / NCCL's (NCCL's time / the ring's)"));
      ImGui::TableNextColumn();
      gbps(naive);
      ImGui::TableNextColumn();
      std::string wrong;
      for (const MultiGpuRow* r : {nccl, ring, naive}) {
        if (r && !r->correct) wrong += (wrong.empty() ? "" : ", ") + r->method;
      }
      if (wrong.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color::kGreen), "%s", _("yes"));
      else ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color::kVermillion), _("NO: %s"), wrong.c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _("every GPU's result checked against the sum on the CPU"));
    }
    ImGui::EndTable();
  }
  note_widget("multigpu/table");
  if (sums.empty()) return;
  ImGui::Text(_("Sum of N int32 spread over %u GPUs (shards, then ncclReduce) against one GPU:"), m.gpus);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s\n%s", i18n::tr(multigpu_method_text("sum", "nccl").c_str()), i18n::tr(multigpu_method_text("sum", "one_gpu").c_str()));
  }
  const std::string many = strf(_("%u GPUs ms"), m.gpus);
  if (ImGui::BeginTable("##mgsum", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("N");
    ImGui::TableSetupColumn(_("1 GPU ms"));
    ImGui::TableSetupColumn(many.c_str());
    ImGui::TableSetupColumn(_("speedup"));
    ImGui::TableHeadersRow();
    for (uint64_t b : sums) {
      const MultiGpuRow *one = m.find("sum", "one_gpu", b), *spread = m.find("sum", "nccl", b);
      const uint64_t n = b / 4;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (std::has_single_bit(n)) ImGui::Text("2^%d", static_cast<int>(std::bit_width(n)) - 1);
      else ImGui::Text("%llu", static_cast<unsigned long long>(n));
      for (const MultiGpuRow* r : {one, spread}) {
        ImGui::TableNextColumn();
        if (!r) ImGui::TextDisabled("-");
        else if (!r->correct) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color::kVermillion), "%s", _("WRONG"));
        else ImGui::Text("%.3f", r->median_ms);
      }
      ImGui::TableNextColumn();
      if (one && spread && spread->median_ms > 0) ImGui::Text("%.2fx", one->median_ms / spread->median_ms);
      else ImGui::TextDisabled("-");
    }
    ImGui::EndTable();
  }
  note_widget("multigpu/sum");
}

}  // namespace rs::gui
