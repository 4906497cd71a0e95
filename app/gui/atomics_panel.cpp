// The atomics view: the addresses the traced block updated atomically, the current step's
// warp-level atomic instructions with their contention per address, and for each address the
// order in which the block's updates landed, up to and including this step.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <string>
#include <vector>

#include "histogram.hpp"
#include "panels.hpp"
#include "stored.hpp"  // explain: atomic targets
#include "two_runs.hpp"

namespace rs::gui {

namespace {

// "shared +0", "global dev_sum", "global output[3]"; a histogram's bins by the bytes they count ("shared bin e-h"),
// in the window's language (the variable names stay): explain/stored.hpp, as the page says them.
std::string target_label(const AtomicTarget& t, const KernelInfo*, const TraceMeta& meta) {
  return say(explain::atomic_target_sentence(t, meta));
}

std::string atomic_label(AccessKind kind, uint32_t addr, uint8_t space, const KernelInfo* k, const TraceMeta& meta) {
  AtomicTarget t;
  t.kind = kind;
  t.addr = addr;
  t.space = space;
  return target_label(t, k, meta);
}

DType op_type(uint8_t op, DType dflt) { return op & kOpFloatBit ? DType::Float32 : dflt; }

// The sentence for a kernel without atomics (a format of its name), with why it does not need them where known.
const char* no_atomics_sentence(const KernelInfo* k) {
  switch (k ? k->finish : Finish::GlobalAtomic) {
    case Finish::Relaunch:
      return _("%s makes no atomic operations: each block writes its partial sum, and the host launches the kernel "
               "again on them.");
    case Finish::SecondKernel:
      return _("%s makes no atomic operations: each block writes its partial sum, and a second kernel adds them up.");
    default: return _("%s makes no atomic operations.");
  }
}

float bar(float frac, ImU32 c, float width, const char* overlay) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetTextLineHeight();
  dl->AddRectFilled(p, ImVec2(p.x + width, p.y + h), color::kEmpty);
  dl->AddRectFilled(p, ImVec2(p.x + width * std::clamp(frac, 0.0f, 1.0f), p.y + h), c);
  if (overlay) dl->AddText(ImVec2(p.x + 4, p.y), ImGui::GetColorU32(ImGuiCol_Text), overlay);
  ImGui::Dummy(ImVec2(width, h));
  return h;
}

// Why the bits differ (issue 30): the block's float atomic updates in two runs, side by side, in landing order: the
// thread, the element it added, the running value it met and what rounding added; the first update whose rounding
// differs is marked (vermillion), and scrolled to where `scroll` (a pair newly shown), with the sentence of where and
// why the runs part.
void draw_two_runs(const TwoRuns& r, uint64_t elements, bool scroll) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kVermillion));
  ImGui::TextWrapped("%s", say(explain::two_runs_sentence(r)).c_str());
  ImGui::PopStyleColor();
  note_widget("atomics/two-runs/why");
  // The traces' N: the session's, which is not the bits view's (issue 38: 1 pattern at N = 67,108,867 beside two sums
  // at N = 16,777,216, with nothing said).
  ImGui::TextWrapped(_("The sums of N = %llu elements: run 1 %s, run 2 %s%s."), static_cast<unsigned long long>(elements),
                     format_value(r.a.result, DType::Float32).c_str(),
                     format_value(r.b.result, DType::Float32).c_str(),
                     r.results_differ() ? _(" (different bits)") : _(" (the same bits)"));
  if (!ImGui::BeginTable("##tworuns", 5,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit |
                             ImGuiTableFlags_BordersInnerV)) {
    return;
  }
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#");
  ImGui::TableSetupColumn(_("run 1: thread, met + added"));
  ImGui::TableSetupColumn(_("rounding"));
  ImGui::TableSetupColumn(_("run 2"));
  ImGui::TableSetupColumn(_("rounding"));
  ImGui::TableHeadersRow();
  const size_t n = std::max(r.a.updates.size(), r.b.updates.size());
  auto cells = [](const std::vector<RunUpdate>& u, size_t i) {
    if (i >= u.size()) {
      for (int c = 0; c < 2; ++c) ImGui::TableNextColumn();
      return;
    }
    const RunUpdate& x = u[i];
    ImGui::TableNextColumn();
    ImGui::Text("t%-4u %.7g + %.4g", x.thread, x.old_value, x.operand);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(x.after_others ? _("Thread %u met %.9g and stored %.9g; other blocks' updates landed since this "
                                           "block's previous one.")
                                       : _("Thread %u met %.9g and stored %.9g."),
                        x.thread, x.old_value, x.new_value);
    }
    ImGui::TableNextColumn();
    if (x.rounding == 0) ImGui::TextDisabled("0");
    else ImGui::Text("%+.2g", x.rounding);
  };
  for (size_t i = 0; i < n; ++i) {
    ImGui::TableNextRow();
    const bool first = r.first_rounding && *r.first_rounding == i;
    if (first) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, with_alpha(color::kVermillion, 0.55f));
    ImGui::TableNextColumn();
    ImGui::Text("%zu", i + 1);
    if (first) {
      note_widget("atomics/two-runs/first");
      if (scroll) ImGui::SetScrollHereY(0.3f);
    }
    cells(r.a.updates, i);
    cells(r.b.updates, i);
  }
  ImGui::EndTable();
}

}  // namespace

float AtomicsPanel::wanted_height(const Replay& r, const Step& st) {
  const float line = ImGui::GetTextLineHeightWithSpacing();
  if (!r.has_atomics()) return line * 1.2f;
  // This step's rows (warps with the same instruction grouped, up to six; a row and its contention bar
  // may take two lines), then each target: its label, the landed bar, the landing strip, "last landed" and
  // three updates (one for a target with one update).
  size_t rows = 0;
  uint32_t prev_line = 0, prev_warp = 0;
  for (size_t ai : st.atomics) {
    const WarpAtomic& a = r.atomics()[ai];
    if (rows == 0 || a.line != prev_line || a.warp > prev_warp + 1) rows += a.contention.size();
    prev_line = a.line;
    prev_warp = a.warp;
  }
  float h = line * (1.5f + 2.0f * static_cast<float>(std::min<size_t>(std::max<size_t>(rows, 1), 6)));
  for (const AtomicTarget& t : r.atomic_targets()) h += line * (t.order.size() > 1 ? 7.0f : 4.0f);
  return h;
}

void AtomicsPanel::drawContent(AppState& s) {
  if (slot_ == 0 && predict_hides_step(s)) {  // a question before the step on screen (step 0) waits
    draw_predict_hidden_line();
    return;
  }
  const ReplayView v = s.view(slot_);
  const Step* st = stepOrSay(v);
  if (!st) return;
  const Replay& r = v.trace->replay;
  const TraceMeta& meta = v.trace->trace.meta;
  // The session's second run of this block (record --two-runs): the two-runs view, on a switch.
  const Trace* other = s.session ? s.session->other_run(meta.kernel, meta.block_size, meta.dtype) : nullptr;
  if (other && meta.dtype == DType::Float32) {
    ImGui::Checkbox(strf("%s###tworuns", _("Two runs side by side: why the bits differ")).c_str(), &s.two_runs);
    note_widget("atomics/two-runs");
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", _("The same block traced in two runs of the same input: its float atomicAdd updates in "
                                "the order they landed, each run beside the other."));
    }
    if (s.two_runs && session_question_waits(s, explain::QuestionKind::PartAt, meta.kernel)) {
      // The two runs answer Predict mode's question about where they part: kept back until it is answered.
      ImGui::TextDisabled("%s", _("Answer the question in the Timings panel to see the two runs."));
      note_widget("atomics/two-runs-held");
      return;
    }
    if (s.two_runs) {
      const std::pair<const Trace*, const Trace*> key{&v.trace->trace, other};
      const bool fresh = runs_of_ != key;  // another pair (or the first): compared once, scrolled to once
      if (fresh) {
        runs_ = compare_runs(v.trace->trace, *other);
        runs_of_ = key;
      }
      draw_two_runs(runs_, meta.n, fresh);
      return;
    }
  }
  const KernelInfo* kinfo = find_kernel(meta.kernel);
  if (!r.has_atomics()) {
    ImGui::TextWrapped(no_atomics_sentence(kinfo), meta.kernel.c_str());
    return;
  }
  const auto& atomics = r.atomics();
  const std::string where = step_ranges(r, [](const Step& x) { return !x.atomics.empty(); });
  const float full_w = ImGui::GetContentRegionAvail().x;
  std::string buf;

  // This step's warp-level atomic instructions and how many updates each address had to take in turn.
  if (st->atomics.empty()) {
    ImGui::TextDisabled(where.find_first_of("-,") == std::string::npos ? _("No atomic in this step; atomics in step %s.")
                                                                      : _("No atomic in this step; atomics in steps %s."),
                        where.c_str());
  } else {
    ImGui::Text(st->atomics.size() == 1 ? _("This step: %zu warp-level atomic instruction")
                                        : _("This step: %zu warp-level atomic instructions"),
                st->atomics.size());
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "%s", _("One warp-level atomic instruction: the lanes of one warp running one atomic. Lanes that update the\n"
                  "same address are serialised: the memory system applies their updates one at a time, so n lanes on\n"
                  "one address cost about n updates in turn (contention). Lanes on different addresses go in parallel."));
    }
    // One row per (intrinsic, address, line, contention), the warps that made it grouped ("warps 0-7"):
    // eight warps making the same shared atomicAdd take one row, not eight.
    struct Row {
      uint32_t first_warp, last_warp;
      std::string what;  // "atomicAdd  shared +0  line 53"
      int n;             // updates to the address from one instruction
    };
    std::vector<Row> rows;
    for (size_t ai : st->atomics) {
      const WarpAtomic& a = atomics[ai];
      for (const auto& [addr, n] : a.contention) {
        buf = strf(_("%s  %s  line %u"), intrinsic_name(a.kind, a.op),
                   atomic_label(a.kind, addr, a.space, kinfo, meta).c_str(), a.line);
        if (!rows.empty() && rows.back().what == buf && rows.back().n == n && rows.back().last_warp + 1 >= a.warp) {
          rows.back().last_warp = a.warp;
        } else {
          rows.push_back({a.warp, a.warp, buf, n});
        }
      }
    }
    const size_t show = std::min<size_t>(rows.size(), 6);
    for (size_t i = 0; i < show; ++i) {
      const Row& row = rows[i];
      const ImU32 c = row.n > 1 ? color::kVermillion : color::kGreen;
      if (row.first_warp == row.last_warp) buf = strf(_("warp %u  %s"), row.first_warp, row.what.c_str());
      else buf = strf(_("warps %u-%u  %s"), row.first_warp, row.last_warp, row.what.c_str());
      ImGui::TextUnformatted(buf.c_str());
      const bool one_warp = row.first_warp == row.last_warp;
      buf = strf(row.n > 1 ? (one_warp ? _("%d updates contend") : _("%d updates contend, each warp"))
                           : (one_warp ? _("%d update, no contention") : _("%d update, no contention, each warp")),
                 row.n);
      // The contention bar in a column at 62% of the width, or after the text where it is longer, or on
      // the next line where it would not fit beside it (so the text and the bar never overlap); at least
      // as wide as its words.
      const float bar_w = std::min(full_w, std::max({60.0f, full_w * 0.36f, ImGui::CalcTextSize(buf.c_str()).x + 8}));
      const float text_end =
          ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetScrollX() + ImGui::GetStyle().ItemSpacing.x;
      const float col = std::max(text_end, full_w * 0.62f);
      if (col + bar_w <= ImGui::GetCursorStartPos().x + full_w) ImGui::SameLine(col);
      else ImGui::SetCursorPosX(ImGui::GetCursorStartPos().x + std::max(0.0f, full_w - bar_w));
      bar(static_cast<float>(row.n) / kWarpSize, c, bar_w, buf.c_str());
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(_("%d lane(s) of a warp update this address in one instruction;\n"
                            "the hardware applies them one after another."),
                          row.n);
      }
    }
    if (rows.size() > show) ImGui::TextDisabled(_("... and %zu more"), rows.size() - show);
  }
  ImGui::Separator();

  // Each target: how many of the block's updates have landed by the end of this step, in landing order.
  for (const AtomicTarget& t : r.atomic_targets()) {
    const size_t total = t.order.size();
    size_t landed = 0, last_landed = 0;
    for (size_t i = 0; i < total; ++i) {
      if (t.order[i].epoch <= st->epoch) {
        ++landed;
        last_landed = i;
      }
    }
    const DType type = op_type(t.op, meta.dtype);
    const std::string label = target_label(t, kinfo, meta);
    ImGui::Text("%s  (%s)", label.c_str(), intrinsic_name(t.kind, t.op));
    if (meta.tracer == Tracer::Binary) {
      // The Compute Sanitizer API reports no operand and no old value: no landing order, no values (one line).
      ImGui::TextDisabled(_("%zu updates from this block; binary trace: no operands, old values or landing order"), total);
      note_widget("atomics/no-values");
      buf = strf(_("%zu of %zu of the block's updates made by this step"), landed, total);
      bar(total ? static_cast<float>(landed) / static_cast<float>(total) : 0.f, with_alpha(color::kBlue, 0.9f), full_w,
          buf.c_str());
      ImGui::Spacing();
      continue;
    }
    ImGui::SameLine();
    if (total > 1) {
      if (t.kind == AccessKind::SharedAtomic) {
        ImGui::TextDisabled(_("chained %d of %zu"), t.chained, total - 1);
      } else if (t.chained + 1 < static_cast<int>(total)) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color::kOrange),
                           _("chained %d of %zu: other blocks' updates landed in %zu gaps"), t.chained, total - 1,
                           total - 1 - static_cast<size_t>(t.chained));
      } else {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color::kGreen), _("chained %d of %zu"), t.chained, total - 1);
      }
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(
            "%s", _("Landing order: the updates sorted by the old value each atomic returned. A pair of consecutive\n"
                    "updates is chained when the later one's old value is exactly the earlier one's result. Where it is\n"
                    "not, updates of other blocks landed in between (only global memory is shared with other blocks)."));
      }
    } else {
      ImGui::TextDisabled("%s", _("1 update from this block"));
    }
    buf = strf(_("%zu of %zu of the block's updates landed by this step"), landed, total);
    bar(total ? static_cast<float>(landed) / static_cast<float>(total) : 0.f, with_alpha(color::kBlue, 0.9f), full_w,
        buf.c_str());

    // The landing order as a strip: one tick per update, landed ones filled (this step's orange),
    // a vermillion gap where another block's updates landed in between.
    if (total > 1) {
      ImDrawList* dl = ImGui::GetWindowDrawList();
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float h = ImGui::GetTextLineHeight() * 0.8f;
      const float w = full_w / static_cast<float>(total);
      const ImVec2 mouse = ImGui::GetIO().MousePos;
      long hovered = -1;
      for (size_t i = 0; i < total; ++i) {
        const AtomicUpdate& u = t.order[i];
        const float x0 = p.x + w * static_cast<float>(i), x1 = p.x + w * static_cast<float>(i + 1);
        const ImU32 c = u.epoch > st->epoch ? color::kEmpty : u.epoch == st->epoch ? color::kOrange : color::kSkyBlue;
        dl->AddRectFilled(ImVec2(x0, p.y), ImVec2(std::max(x0 + 1, x1 - (w > 3 ? 1 : 0)), p.y + h), c);
        if (i > 0 && t.order[i].old != atomic_result(t.order[i - 1].op, t.order[i - 1].old, t.order[i - 1].operand)) {
          dl->AddRectFilled(ImVec2(x0 - 1, p.y - 2), ImVec2(x0 + 1, p.y + h + 2), color::kVermillion);
        }
        if (mouse.x >= x0 && mouse.x < x1 && mouse.y >= p.y && mouse.y < p.y + h) hovered = static_cast<long>(i);
      }
      ImGui::Dummy(ImVec2(full_w, h + 2));
      if (hovered >= 0 && ImGui::IsWindowHovered()) {
        const AtomicUpdate& u = t.order[static_cast<size_t>(hovered)];
        ImGui::SetTooltip(_("#%ld to land: thread %u (warp %u, lane %u), step of epoch %u\nold %s -> new %s (operand %s)"),
                          hovered + 1, u.thread, u.thread / kWarpSize, u.thread % kWarpSize, u.epoch,
                          format_value(u.old, type).c_str(),
                          format_value(atomic_result(u.op, u.old, u.operand), type).c_str(),
                          format_value(u.operand, type).c_str());
      }
    }
    // The last updates that landed, old -> new: three, or as many as the view has room for.
    if (landed > 0) {
      const float line = ImGui::GetTextLineHeightWithSpacing();
      const float rest = ImGui::GetContentRegionAvail().y - line * 2.5f * static_cast<float>(&t != &r.atomic_targets().back());
      const size_t rows = std::clamp<size_t>(static_cast<size_t>(rest / line) - 1, 3, 8);
      std::vector<size_t> lastn;
      for (size_t i = last_landed + 1; i-- > 0 && lastn.size() < rows;) {
        if (t.order[i].epoch <= st->epoch) lastn.push_back(i);
      }
      ImGui::TextDisabled("%s", _("last landed (landing order #, thread: old -> new):"));
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(
            "%s", _("#k: the k-th of this block's updates to land; tN: the thread (threadIdx.x); old -> new: the\n"
                    "value the atomic returned and the value it left. 'other blocks' before an update: its old\n"
                    "value is not the previous update's result, so other blocks' updates landed in between."));
      }
      for (auto it = lastn.rbegin(); it != lastn.rend(); ++it) {
        const size_t i = *it;
        const AtomicUpdate& u = t.order[i];
        const bool gap = i > 0 && u.old != atomic_result(t.order[i - 1].op, t.order[i - 1].old, t.order[i - 1].operand);
        buf = strf("  #%zu t%u: %s -> %s", i + 1, u.thread, format_value(u.old, type).c_str(),
                   format_value(atomic_result(u.op, u.old, u.operand), type).c_str());
        ImGui::TextUnformatted(buf.c_str());
        if (gap) {
          ImGui::SameLine();
          ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color::kVermillion), "%s", _("(other blocks before)"));
        }
      }
    }
    ImGui::Spacing();
  }
}

}  // namespace rs::gui
