#include "window_layout.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "exact_steps.hpp"
#include "layout.hpp"

namespace rs::gui {

namespace {

float chrome() { return ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().WindowPadding.y; }
float line() { return ImGui::GetTextLineHeightWithSpacing(); }

// Rows of 32 shared-memory words the kernel uses (by its last step).
float used_smem_rows(const Replay& r) {
  size_t rows = 0;
  const Step& last = r.steps().back();
  for (size_t i = 0; i < last.defined.size(); i += kNumBanks) {
    bool used = false;
    for (size_t j = i; j < std::min(i + kNumBanks, last.defined.size()); ++j) used = used || last.defined[j];
    rows += used;
  }
  return static_cast<float>(std::max<size_t>(rows, 1));
}

// The side of a grid cell that fits 32 to a row in a window `w` wide (beside the row labels), at most
// 1.6 lines of text: big enough for its value in a font scaled to the cell.
float grid_cell(float w) {
  const float cell_w = (w - 2 * ImGui::GetStyle().WindowPadding.x - ImGui::CalcTextSize("1023").x - 6) / kNumBanks;
  return std::clamp(cell_w, 6.0f, std::max(24.0f, ImGui::GetTextLineHeight() * 1.6f));
}

// What side `slot`'s views ask of a column `w` wide at its current step, in priority order.
std::vector<ViewAsk> asks_of(const AppState& s, int slot, float w) {
  const ReplayView v = s.view(slot);
  const Replay& r = v.trace->replay;
  const Step& st = *v.current();
  std::vector<ViewAsk> out;
  bool any_shown = false;
  for (View view : views_in_order(r)) {
    ViewAsk a;
    a.view = view;
    a.shown = view_has(r, view) && view_active(st, view);
    const float cell = grid_cell(w);
    switch (view) {
      case View::Smem: {
        const float rows = used_smem_rows(r);
        a.want = chrome() + line() * 3 + rows * cell;
        a.least = chrome() + line() * 2.5f + rows * std::min(cell, 12.0f);
        a.grows = true;
        break;
      }
      case View::Global: {
        const float rows = r.has_global_slice() ? static_cast<float>(std::min(GlobalPanel::grid_rows(r), 32)) : 0;
        a.want = chrome() + GlobalPanel::wanted_height(r) + rows * cell;
        if (exact_accumulator_of(v.trace->trace, r)) {  // reproducible_sum's accumulator: at every step, 3 lines more
          a.shown = true;
          a.want += line() * 3;
        }
        a.least = std::min(a.want, chrome() + line() * 4.5f + rows * std::min(cell, 12.0f));
        a.grows = r.has_global_slice();
        break;
      }
      case View::Lanes:
        a.want = chrome() + LanesPanel::wanted_height(st.shuffles.size(), w);
        a.least = chrome() + LanesPanel::wanted_height(1, w);  // one warp whole: its values and arrows
        break;
      case View::Atomics:
        a.want = chrome() + AtomicsPanel::wanted_height(r, st);
        a.least = std::min(a.want, chrome() + line() * 7);  // a target's updates, its bar and old -> new
        if (s.two_runs && s.session &&
            s.session->other_run(v.trace->trace.meta.kernel, v.trace->trace.meta.block_size, v.trace->trace.meta.dtype)) {
          a.want = std::max(a.want, chrome() + line() * 22);  // the two runs: the sentence and a dozen updates
          a.least = chrome() + line() * 14;
          a.grows = true;
        }
        break;
    }
    any_shown = any_shown || a.shown;
    out.push_back(a);
  }
  // A kernel whose shared memory is not recorded but whose races racecheck found (the pitfalls): the
  // shared view shows the words raced on, first, at every step: where the code goes wrong is the lesson.
  if (!r.has_shared()) {
    const auto races = s.races(slot);
    if (!races.empty()) {
      const float words = static_cast<float>(v.trace->trace.meta.block_size);
      const float rows = std::max(1.0f, std::ceil(words / kNumBanks));
      auto it = std::find_if(out.begin(), out.end(), [](const ViewAsk& a) { return a.view == View::Smem; });
      ViewAsk a = *it;
      a.shown = true;
      a.want = chrome() + line() * 4 + rows * grid_cell(w);
      a.least = chrome() + line() * 3.5f + rows * std::min(grid_cell(w), 8.0f);
      a.grows = true;
      out.erase(it);
      out.insert(out.begin(), a);
      any_shown = true;
    }
  }
  // A step with nothing in any view (a barrier-only step): the main view keeps its place.
  if (!any_shown && view_has(r, out.front().view)) out.front().shown = true;
  return out;
}

// Draws side `slot`'s views (above its warps) into the box at (x, y), w x avail; returns the height
// they left unused.
float draw_views(AppState& s, Panels& p, int slot, const std::vector<ViewAsk>& asks, float x, float y, float w,
                 float avail, bool one_line, const std::string& also = "") {
  const ReplayView v = s.view(slot);
  std::vector<View> idle;
  for (const ViewAsk& a : asks) {
    if (!a.shown) idle.push_back(a.view);
  }
  // The idle line: one line, two where its words need them (measured with a fold, the longest it gets).
  const float pad = 2 * ImGui::GetStyle().WindowPadding.y;
  const float wrap = w - 2 * ImGui::GetStyle().WindowPadding.x;
  const float two = 2 * ImGui::GetTextLineHeight() + ImGui::GetStyle().ItemSpacing.y;
  const bool untraced = trace_facts_of(s, v).shared == explain::Seen::NotTraced;
  const std::string before = idle_summary(v.trace->replay, *v.current(), idle, {View::Global}, untraced) + also;
  const float idle_h =
      (one_line ? ImGui::GetTextLineHeight() : std::min(ImGui::CalcTextSize(before.c_str(), nullptr, false, wrap).y, two)) +
      pad;
  const ColumnFit f = fit_views(asks, avail, idle_h, !also.empty());
  std::string text = idle_summary(v.trace->replay, *v.current(), idle, f.folded, untraced);
  // `also` first: a one-line idle line cuts its end.
  if (!also.empty()) text = text.empty() ? also : strf(_("%s. %s"), also.c_str(), text.c_str());
  if (f.idle_line > 0 && !text.empty()) {
    const std::string id = std::string("##idle") + (slot ? "B" : "A");
    ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(w, f.idle_line), ImGuiCond_Always);
    ImGui::Begin(id.c_str(), nullptr,
                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                     ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoSavedSettings);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    if (one_line) ImGui::TextUnformatted(text.c_str());
    else ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
    if (ImGui::IsWindowHovered()) {
      ImGui::SetTooltip(_("%s\nA view with nothing in this step is folded into this line; it opens on the steps "
                          "where it has something."),
                        text.c_str());
    }
    note_rect(std::string("panel/idle") + (slot ? "B" : "A"), ImVec2(x, y), ImVec2(x + w, y + f.idle_line));
    ImGui::End();
    y += f.idle_line;
  }
  for (const ViewAsk& a : asks) {
    const float h = f.height[static_cast<int>(a.view)];
    if (!a.shown || h <= 0 || std::find(f.folded.begin(), f.folded.end(), a.view) != f.folded.end()) continue;
    Panel* panel = a.view == View::Smem     ? static_cast<Panel*>(&p.smem[slot])
                   : a.view == View::Global ? static_cast<Panel*>(&p.global[slot])
                   : a.view == View::Lanes  ? static_cast<Panel*>(&p.lanes[slot])
                                            : static_cast<Panel*>(&p.atomics[slot]);
    panel->draw(s, ImVec2(x, y), ImVec2(w, h));
    y += h;
  }
  return f.left;
}

// The warps panel's height for side `slot` in a column `w` wide: what its rows want.
float warps_want(const AppState& s, int slot, float w) {
  const ReplayView v = s.view(slot);
  if (!v.current()) return chrome() + line() * 2;
  return WarpsPanel::wanted_height(v.trace->replay, *v.current(), w);
}

// Side `slot`'s warps in a few words, where the warps panels are folded for room: "warps: 1 of 4 active,
// 1 diverged (folded for room)".
std::string warps_line(const AppState& s, int slot) {
  const Step* st = s.view(slot).current();
  if (!st) return "";
  int diverged = 0;
  for (const WarpStep& ws : st->warps) diverged += ws.diverged;
  const int active = st->active_warps();
  return diverged ? strf(_("Warps folded for room: %d of %zu active, %d diverged"), active, st->warps.size(), diverged)
                  : strf(_("Warps folded for room: %d of %zu active"), active, st->warps.size());
}

// Over side A's replay while it shows a stale trace of the user's kernel (the file does not compile now, is
// gone, or its run failed): a vermillion frame around the box at (x, y), w x h, and a badge at its top right
// that says so in words. Drawn on the foreground, over the panels.
void stale_mark(const AppState& s, float x, float y, float w, float h) {
  if (!s.shows_yours(0) || !s.yours.stale || !s.view(0).trace) return;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const float t = std::max(3.0f, ImGui::GetFontSize() * 0.2f);
  dl->AddRect(ImVec2(x + t / 2, y + t / 2), ImVec2(x + w - t / 2, y + h - t / 2), color::kVermillion, 0, 0, t);
  const char* words = _("STALE: the last good build (the file has changed)");
  const ImVec2 ts = ImGui::CalcTextSize(words);
  const float pad = ImGui::GetFontSize() * 0.3f;
  const float bx1 = x + w - t, bx0 = std::max(x + t, bx1 - ts.x - 2 * pad);
  const float by0 = y + t, by1 = by0 + ts.y + 2 * pad;
  dl->AddRectFilled(ImVec2(bx0, by0), ImVec2(bx1, by1), color::kVermillion);
  dl->PushClipRect(ImVec2(bx0, by0), ImVec2(bx1, by1), true);
  dl->AddText(ImVec2(bx0 + pad, by0 + pad), color::rgb(255, 255, 255), words);
  dl->PopClipRect();
  note_rect("replay/stale", ImVec2(bx0, by0), ImVec2(bx1, by1));
}

// The replay column: one side, or A above B (compare), each side's warps under its views (one side) or
// both warps panels side by side at the bottom (compare).
void draw_replay(AppState& s, Panels& p, float x, float y, float w, float h) {
  if (!s.compare) {
    if (!s.view(0).current()) {  // nothing traced yet: the grid says so, and the warps
      p.smem[0].draw(s, ImVec2(x, y), ImVec2(w, h * 0.6f));
      p.warps[0].draw(s, ImVec2(x, y + h * 0.6f), ImVec2(w, h * 0.4f));
      return;
    }
    const std::vector<ViewAsk> asks = asks_of(s, 0, w);
    // The warps panel: what its rows want (the warps that worked this step), at most 40% of the height;
    // the views above share the rest (a grid's cells shrink to fit).
    const float warps = std::min(warps_want(s, 0, w), h * 0.4f);
    const float left = draw_views(s, p, 0, asks, x, y, w, h - warps, false);
    p.warps[0].draw(s, ImVec2(x, y + h - warps - left), ImVec2(w, warps + left));
    stale_mark(s, x, y, w, h);
    return;
  }
  // Compare: the warps panels side by side at the bottom, as tall as the taller wants (at most 30%);
  // folded into each side's idle line where the two main views would not fit whole above them.
  const float half = w / 2;
  float warps = 0;
  for (int i = 0; i < 2; ++i) warps = std::max(warps, warps_want(s, i, half));
  warps = std::min(warps, h * 0.3f);
  std::vector<ViewAsk> asks[2];
  float need[2] = {0, 0}, main_need = 0;
  for (int i = 0; i < 2; ++i) {
    if (!s.view(i).current()) continue;
    asks[i] = asks_of(s, i, w);
    need[i] = chrome() * 0.75f;  // the idle line, if any
    for (const ViewAsk& a : asks[i]) need[i] += a.shown ? a.want : 0;
    for (const ViewAsk& a : asks[i]) {
      if (a.shown) {
        main_need += chrome() * 0.75f + std::min(a.want, std::max(a.least, chrome() + line() * 6));
        break;
      }
    }
  }
  const bool fold_warps = h - warps < main_need;
  if (fold_warps) warps = 0;
  const float upper = h - warps;
  // Each side's band: what it wants where both fit; else a side that wants less than half gets it and the
  // other the rest; else half each.
  float band0 = upper / 2;
  if (need[0] + need[1] <= upper) band0 = need[0] + (upper - need[0] - need[1]) / 2;
  else if (need[0] < upper / 2) band0 = need[0];
  else if (need[1] < upper / 2) band0 = upper - need[1];
  const float bands[2] = {band0, upper - band0};
  float top = y;
  for (int i = 0; i < 2; ++i) {
    if (asks[i].empty()) p.smem[i].draw(s, ImVec2(x, top), ImVec2(w, bands[i]));
    else draw_views(s, p, i, asks[i], x, top, w, bands[i], true, fold_warps ? warps_line(s, i) : std::string());
    top += bands[i];
  }
  stale_mark(s, x, y, w, bands[0]);
  if (fold_warps) return;
  for (int i = 0; i < 2; ++i) p.warps[i].draw(s, ImVec2(x + half * static_cast<float>(i), y + upper), ImVec2(half, warps));
}

// Whether side `slot`'s bank view has anything in this step: shared accesses or global requests.
bool banks_busy(const AppState& s, int slot) {
  const Step* st = s.view(slot).current();
  return st && (!st->accesses.empty() || !st->global_requests.empty() || !st->atomics.empty());
}

}  // namespace

void draw_panels(AppState& s, Panels& p, float top) {
  const ImVec2 d = ImGui::GetIO().DisplaySize;
  if (s.multigpu_shown()) {  // the ring has its own step controls; the kernel replay has nothing to say here
    p.timing.draw(s, ImVec2(0, top), ImVec2(d.x, d.y - top));
    return;
  }
  const float bar = StepBar::height(s, d.x);
  p.step_bar.draw(s, ImVec2(0, top), ImVec2(d.x, bar));
  top += bar;
  const float h = d.y - top;
  const WindowColumns c = window_columns(d.x, ImGui::GetFontSize());
  if (s.focus && !s.large_charts) {  // F: the replay alone, the whole width (the step bar holds the source line)
    draw_replay(s, p, 0, top, d.x, h);
    return;
  }
  p.controls.draw(s, ImVec2(0, top), ImVec2(c.left, h));
  if (s.large_charts) {
    p.timing.draw(s, ImVec2(c.left, top), ImVec2(d.x - c.left, h));
    return;
  }
  if (s.shows_yours(0) && !s.view(0).trace && !s.compare) {
    // The user's kernel without a trace (no GPU, a first run going, or a file that does not compile): the replay has
    // nothing to show, so its place goes to the file (its errors at their lines) under one line saying why; the
    // timings take the right column.
    const std::string why = s.view(0).missing;
    const float pad = 2 * ImGui::GetStyle().WindowPadding.y;
    const float note = std::min(h * 0.3f, ImGui::CalcTextSize(why.c_str(), nullptr, false,
                                                             c.middle - 2 * ImGui::GetStyle().WindowPadding.x).y + pad);
    ImGui::SetNextWindowPos(ImVec2(c.left, top), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(c.middle, note), ImGuiCond_Always);
    ImGui::Begin("##yours-note", nullptr,
                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                     ImGuiWindowFlags_NoSavedSettings);
    ImGui::TextWrapped("%s", why.c_str());
    note_rect("panel/yours-note", ImVec2(c.left, top), ImVec2(c.left + c.middle, top + note));
    ImGui::End();
    p.source.draw(s, ImVec2(c.left, top + note), ImVec2(c.middle, h - note));
    p.timing.draw(s, ImVec2(c.left + c.middle, top), ImVec2(c.right, h));
    return;
  }
  // The exercise's checks, where an exercise is chosen for the user's kernel: over the replay, at most a third of it.
  const float band = draw_exercise_band(s, c.left, top, c.middle, h * 0.34f);
  draw_replay(s, p, c.left, top + band, c.middle, h - band);
  // The right column: the source (A above B in compare mode), the bank view (one line when no side has an
  // access in this step), the timings.
  const float rx = c.left + c.middle;
  const float src = h * (s.compare ? 0.5f : 0.42f);
  p.source.draw(s, ImVec2(rx, top), ImVec2(c.right, src));
  const bool busy = banks_busy(s, 0) || (s.compare && banks_busy(s, 1));
  // Idle: its one sentence, wrapped to the panel (two lines at a projector scale).
  const float bank_w = (s.compare ? c.right / 2 : c.right) - 2 * ImGui::GetStyle().WindowPadding.x;
  const float idle_text =
      ImGui::CalcTextSize(_("No shared-memory access or global request in this step."), nullptr, false, bank_w).y;
  const float banks = busy ? h * 0.27f : chrome() + std::min(idle_text, 3 * line());
  if (s.compare) {
    p.banks[0].draw(s, ImVec2(rx, top + src), ImVec2(c.right / 2, banks));
    p.banks[1].draw(s, ImVec2(rx + c.right / 2, top + src), ImVec2(c.right / 2, banks));
  } else {
    p.banks[0].draw(s, ImVec2(rx, top + src), ImVec2(c.right, banks));
  }
  p.timing.draw(s, ImVec2(rx, top + src + banks), ImVec2(c.right, h - src - banks));
}

}  // namespace rs::gui
