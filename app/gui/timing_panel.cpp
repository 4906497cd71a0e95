#include <bit>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <optional>
#include <vector>

#include "session_rows.hpp"
#include "kernel_file_feed.hpp"  // kYoursSamples
#include "gpu_worker.hpp"
#include "exact_steps.hpp"
#include "panels.hpp"
#include "said_text.hpp"
#include "stored.hpp"  // explain: the sweep's method read back
#include "input.hpp"  // float_sum_note
#include "pitfall_words.hpp"
#include "plot.hpp"
#include "ncu_metrics.hpp"

namespace rs::gui {

ImU32 kernel_color(KernelId k) {
  // The exported charts' palette and order (app/export/charts.cpp: the kernel's place in its track),
  // so a kernel has one colour everywhere and the kernels of one track all differ; the charts'
  // black is the ink colour, which on the dark window is near-white. Yellow comes last, for the
  // 8th kernel of a track (the lecture's sum_two_step).
  static constexpr ImU32 kColors[] = {color::kOrange, color::kSkyBlue,    color::kGreen,
                                      color::kBlue,   color::kVermillion, color::kPurple,
                                      color::rgb(235, 235, 235), color::kYellow};
  static const std::vector<ImU32> by_kernel = [] {
    std::vector<ImU32> c(kernel_table().size());
    for (const TrackInfo& t : track_table()) {
      const auto mine = track_kernels(t.id);
      for (size_t i = 0; i < mine.size(); ++i) c[static_cast<size_t>(mine[i])] = kColors[i % std::size(kColors)];
    }
    return c;
  }();
  return by_kernel.at(static_cast<size_t>(k));
}

// A kernel's name short enough for a bar's slot: "r3" for reduce3, "shuffle" for sum_shuffle.
std::string short_kernel_name(const KernelInfo& k) {
  const std::string n = k.name;
  if (n.rfind("reduce", 0) == 0) return std::string(1, 'r').append(n, 6, std::string::npos);
  const size_t us = n.find('_');
  return us == std::string::npos ? n : n.substr(us + 1);
}

void TimingPanel::drawContent(AppState& s) {
  if (s.timings.empty() && !s.have_device && !s.recorded()) {
    ImGui::TextWrapped("%s", _("Timings need a CUDA GPU or a recorded session (File > Open)."));
    return;
  }
  // Predict mode: the lesson's questions about the session wait here, first (the panel is short at 1280x720), the
  // tables (which answer them) behind them.
  if (draw_session_questions(s)) return;
  if (s.recorded() && !s.multigpu_shown()) {  // (the multigpu tab has its own header: GPUs, link, NCCL, date)
    const SessionMeta& m = s.session->meta;
    ImGui::TextWrapped(_("RECORDED on %s, %s; N = %llu int32 (%s)"), m.gpu.c_str(), m.date.c_str(),
                       static_cast<unsigned long long>(m.n), i18n::tr(m.pattern.c_str()));  // "random": the page's msgid too
    if (ImGui::IsItemHovered()) {  // the recorded English, said in the window's language where it is ours
      const auto said = explain::parse_timing_method(m.method);
      ImGui::SetTooltip(_("Timing method: %s"), said ? say(*said).c_str() : m.method.c_str());
    }
  } else if (!s.recorded()) {
    ImGui::TextWrapped(_("Live on %s; N = %llu %s (%s)"), s.device.name.c_str(), static_cast<unsigned long long>(s.n),
                       to_string(s.live_dtype), i18n::tr(to_string(s.pattern)));
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(_("Timing method: %s"),
                        say(explain::timing_method_sentence(kTimingWarmups, kGuiSamples,
                                                            2.0 * s.device.l2_bytes / 1048576.0))
                            .c_str());
    }
  }
  // The tabs keep their whole names and scroll (issue 38: at 1280x720 they shrank to "Ha…", "vs bloc…").
  if (ImGui::BeginTabBar("##timingtabs", ImGuiTabBarFlags_FittingPolicyScroll)) {
    struct Tab {
      const char* name;  // N_: translated where drawn
      const char* id;    // the tab's ImGui identity, the same in every language
      TimingTab tab;
      void (TimingPanel::*draw)(AppState&);
    };
    static const Tab kTabs[] = {{N_("table"), "###table", TimingTab::Table, &TimingPanel::drawTable},
                                {N_("Live"), "###Live", TimingTab::Live, &TimingPanel::drawLive},
                                {N_("vs block size"), "###vs block size", TimingTab::BlockSize, &TimingPanel::drawBlockSize},
                                {N_("vs N"), "###vs N", TimingTab::Sweep, &TimingPanel::drawSweep},
                                {N_("bits"), "###bits", TimingTab::Bits, &TimingPanel::drawBits},
                                {N_("multigpu"), "###multigpu", TimingTab::MultiGpu, &TimingPanel::drawMultiGpu}};
    for (const Tab& t : kTabs) {
      const ImGuiTabItemFlags f = !tab_applied_ && s.timing_tab == t.tab ? ImGuiTabItemFlags_SetSelected : 0;
      // The table is the track's: "Harris table", "Lecture table".
      std::string label = std::string(_(t.name)) + t.id;
      std::string english = t.name;
      if (t.tab == TimingTab::Table) {
        std::string track = track_of(s.a.kernel).id;
        track[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(track[0])));
        label = strf(_("%s table"), track.c_str()) + t.id;
        english = track + " table";
      }
      const bool open = ImGui::BeginTabItem(label.c_str(), nullptr, f);
      hover_english(english.c_str());
      if (open) {
        if (tab_applied_) s.timing_tab = t.tab;
        (this->*t.draw)(s);
        ImGui::EndTabItem();
      }
    }
    tab_applied_ = true;
    ImGui::EndTabBar();
  }
}

// Harris's slide, for the selected kernel's track: time, bandwidth, % of peak, step and cumulative
// speedup at the current block size (as `reducescope bench` prints them); for a track whose source
// reports its own times (the lecture), the source's time and its speedup over the source's first
// GPU kernel too, and the source's CPU loop. Then the times as bars.
namespace {
// A metric for people: rates in GB/s (ncu reports bytes per second), percentages with one decimal.
std::string metric_text(const SessionMetric& v) {
  char b[64];
  if (v.unit == "byte/s" || v.unit == "byte/second") std::snprintf(b, sizeof b, "%.0f GB/s", v.value / 1e9);
  else if (v.unit == "%") std::snprintf(b, sizeof b, "%.1f%%", v.value);
  else std::snprintf(b, sizeof b, "%.1f", v.value);
  return b;
}
}  // namespace

namespace {

// The user's kernel's row under the track's kernels (its time from its own run: the record's timing row, or the
// session's), then CUB's, timed in that same run where there is one: the time to beat.
void yours_rows(const AppState& s, unsigned bs, double peak, int cols, double first_ms) {
  const YoursState& y = s.yours;
  auto it = y.timings.find(bs);
  const Timing* t = it == y.timings.end() ? nullptr : &it->second;
  const bool same_n = y.n == s.n;
  auto rest = [&](int from) {
    for (int c = from; c < cols; ++c) ImGui::TableNextColumn();
  };
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  if (s.shows_yours(0)) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, with_alpha(color::kPurple, 0.35f));
  const bool wrong = y.wrong_sum.count(bs) > 0;
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(wrong ? color::kVermillion : color::kYours), "%s%s%s", y.name.c_str(),
                     y.stale ? _(" (stale)") : "", wrong ? _(" WRONG") : "");
  note_widget("table/yours");
  if (ImGui::IsItemHovered()) {
    const std::string at_n = y.n ? strf(_(" at N = %llu"), static_cast<unsigned long long>(y.n)) : std::string();
    ImGui::SetTooltip(_("Your kernel (%s), timed in its own run%s%s."), y.path.empty() ? y.session.c_str() : y.path.c_str(),
                      at_n.c_str(), y.stale ? _("; the file has changed since (stale)") : "");
  }
  if (!t) {
    ImGui::TableNextColumn();
    ImGui::TextDisabled("-");
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", !y.takes(bs)          ? _("Its launch shape does not take this block size.")
                              : !s.have_device && y.session.empty() ? _("Timing your kernel needs a CUDA GPU.")
                                                                    : _("Not timed at this block size yet."));
    }
    rest(2);
  } else {
    ImGui::TableNextColumn();
    ImGui::Text("%.4f", t->median_ms);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(_("median %.4f ms, min %.4f, max %.4f, %d samples"), t->median_ms, t->min_ms, t->max_ms,
                        t->samples);
    }
    ImGui::TableNextColumn();
    if (t->launches) ImGui::Text("%u", t->launches);
    else ImGui::TextDisabled("?");
    ImGui::TableNextColumn();
    ImGui::Text("%.0f", t->gbps);
    ImGui::TableNextColumn();
    ImGui::Text("%.1f%%", peak > 0 ? 100 * t->gbps / peak : 0);
    ImGui::TableNextColumn();
    ImGui::TextDisabled("-");
    ImGui::TableNextColumn();
    if (same_n && first_ms > 0) ImGui::Text("%.2fx", first_ms / t->median_ms);
    else ImGui::TextDisabled("-");
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", same_n ? _("cumulative speedup: the track's first kernel's time / yours")
                                     : _("Timed at another N than the table's kernels: no speedup."));
    }
    rest(7);
  }
  const double cub_ms = y.cub_ms > 0 ? y.cub_ms : s.cub_ms;
  if (cub_ms <= 0) return;
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("cub::DeviceReduce::Sum");
  note_widget("table/cub");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", y.cub_ms > 0 ? _("CUB's sum, timed in your kernel's run: the time to beat.")
                                          : _("CUB's sum on the same input: the time to beat."));
  }
  ImGui::TableNextColumn();
  ImGui::Text("%.4f", cub_ms);
  ImGui::TableNextColumn();
  ImGui::TextDisabled("?");
  const uint64_t n = y.cub_ms > 0 ? y.n : s.n;
  const double gbps = y.cub_ms > 0 && y.cub_gbps > 0 ? y.cub_gbps : static_cast<double>(n) * 4 / (cub_ms * 1e6);
  ImGui::TableNextColumn();
  ImGui::Text("%.0f", gbps);
  ImGui::TableNextColumn();
  ImGui::Text("%.1f%%", peak > 0 ? 100 * gbps / peak : 0);
  rest(5);
}

}  // namespace

void TimingPanel::drawTable(AppState& s) {
  const unsigned bs = s.a.block_size;
  const double peak = s.peak_gbps();
  const TrackInfo& track = track_of(s.a.kernel);
  const std::vector<KernelId> kernels = track_kernels(track.id);
  const bool has_source = track.source_n > 0;
  ImGui::TextDisabled(_("%s, %u threads per block"), track.id, bs);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip(_("%s\nSource: %s"), i18n::tr(track.title), i18n::tr(track.source));
  // The source's profiler metrics (the book's nvprof names), measured by Nsight Compute and stored
  // in the open session (`reducescope profile`): one column each when the session has any here.
  std::vector<const ProfilerMetric*> metric_cols;
  if (s.session) {
    for (const ProfilerMetric& m : book_metrics()) {
      for (KernelId kid : kernels) {
        if (s.session->find_metric(kernel_info(kid).name, bs, m.name)) {
          metric_cols.push_back(&m);
          break;
        }
      }
    }
  }
  const int cols = (has_source ? 9 : 7) + static_cast<int>(metric_cols.size());
  const float row_h = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
  const int rows = static_cast<int>(kernels.size()) + 1 + (has_source && track.cpu_name[0] ? 1 : 0) +
                   (s.yours.open() ? 2 : 0);
  const ImVec2 outer(0, row_h * static_cast<float>(rows) + ImGui::GetStyle().ScrollbarSize + 4);
  double first_source = 0;
  // Step and cumulative speedups only between kernels that do the same job (table_speedups).
  std::vector<double> times;
  for (KernelId kid : kernels) {
    const Timing* t = s.timing(kid, bs);
    times.push_back(t ? t->median_ms : 0.0);
  }
  const std::vector<Speedup> speedups = table_speedups(kernels, times);
  size_t row = 0;
  if (ImGui::BeginTable("##harris", cols,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX, outer)) {
    ImGui::TableSetupScrollFreeze(1, 0);
    // The heads (English msgids; nullptr: a unit or a symbol, the same in every language), then the source's
    // nvprof metric names, which stay as the book prints them.
    std::vector<const char*> heads = {N_("kernel"), nullptr, nullptr, nullptr,
                                      /* xgettext:no-c-format */ N_("% peak"), N_("step"), N_("cumul.")};
    if (has_source) {
      heads.push_back(N_("source us"));
      heads.push_back(N_("src cum."));
    }
    ImGui::TableSetupColumn(_(heads[0]));
    ImGui::TableSetupColumn("ms");
    ImGui::TableSetupColumn("L");
    ImGui::TableSetupColumn("GB/s");
    for (size_t c = 4; c < heads.size(); ++c) ImGui::TableSetupColumn(_(heads[c]));
    for (const ProfilerMetric* m : metric_cols) ImGui::TableSetupColumn(m->name);
    // The headers one by one (ImGui's TableHeadersRow, unrolled), so the short "L" can explain itself (and a
    // translated head shows its English).
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int c = 0; c < cols; ++c) {
      if (!ImGui::TableSetColumnIndex(c)) continue;
      ImGui::TableHeader(ImGui::TableGetColumnName(c));
      if (c == 2 && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _("L: kernel launches in one reduction"));
      if (static_cast<size_t>(c) < heads.size() && heads[static_cast<size_t>(c)]) hover_english(heads[static_cast<size_t>(c)]);
    }
    auto source_tip = [&] {
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(_("The time %s reports on %s at N = %llu; src cum. = its speedup over its first GPU\n"
                            "kernel. Compare ratios, not times: the GPU and N differ."),
                          i18n::tr(track.source), i18n::tr(track.source_gpu),
                          static_cast<unsigned long long>(track.source_n));
      }
    };
    if (has_source && track.cpu_name[0]) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s (CPU)", track.cpu_name);
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s", _("The source's CPU loop; the window does not time it (`reducescope bench` does)."));
      }
      for (int c = 1; c < 7; ++c) {
        ImGui::TableNextColumn();
        ImGui::TextDisabled("-");
      }
      ImGui::TableNextColumn();
      ImGui::Text("%.0f", track.cpu_source_us);
      source_tip();
      ImGui::TableNextColumn();
      for (size_t c = 0; c < metric_cols.size(); ++c) ImGui::TableNextColumn();
    }
    for (KernelId kid : kernels) {
      const KernelInfo& k = kernel_info(kid);
      const Timing* t = s.timing(k.id, bs);
      const Speedup sp = speedups[row++];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (k.id == s.a.kernel && !s.shows_yours(0) && s.a.library < 0) {
        ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, with_alpha(color::kPurple, 0.35f));
      }
      if (s.wrong_sum.count({k.id, bs})) {
        ImGui::TextColored(ImVec4(1, 0.35f, 0.25f, 1), _("%s WRONG"), k.name);
        if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip("%s", _("Its sum did not match the CPU reference: the time is not meaningful."));
        }
      } else {
        ImGui::TextUnformatted(k.name);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr(k.title));
      }
      if (!t) {
        ImGui::TableNextColumn();
        if (auto why = block_size_problem(k.id, bs)) {
          ImGui::TextDisabled("%s", _("n/a"));
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", said_text(*why).c_str());
        } else {
          ImGui::TextDisabled(s.busy ? "..." : "-");
          if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("%s", s.busy ? _("not measured yet") : _("no timing at this block size"));
          }
        }
        for (int c = 2; c < 7; ++c) ImGui::TableNextColumn();
      } else {
        ImGui::TableNextColumn();
        ImGui::Text("%.4f", t->median_ms);
        if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip(_("median %.4f ms, min %.4f, max %.4f, %d samples"), t->median_ms, t->min_ms, t->max_ms,
                            t->samples);
        }
        // Launches: what the end-to-end time includes besides the kernels' work (docs/tracks.md, "The timing
        // method against Nsight Compute"): each launch adds a few microseconds at small N.
        ImGui::TableNextColumn();
        const std::optional<unsigned> fixed = fixed_launches(k.id);
        const unsigned launches = t->launches ? t->launches : fixed.value_or(0);
        if (launches) ImGui::Text("%u", launches);
        else ImGui::TextDisabled("?");
        if (ImGui::IsItemHovered()) {
          if (launches) {
            // One message for one launch, one for several (the English plural; Chinese has one form).
            ImGui::SetTooltip(launches == 1 ? _("%u kernel launch per reduction (%s)%s.\nThe time includes every launch "
                                                "and the gaps between them: a few microseconds each,\nwhich is most of "
                                                "the time at small N.")
                                            : _("%u kernel launches per reduction (%s)%s.\nThe time includes every "
                                                "launch and the gaps between them: a few microseconds each,\nwhich is "
                                                "most of the time at small N."),
                              launches, i18n::tr(to_string(k.finish)),
                              k.finish == Finish::GlobalAtomic ? _(", after a memset of the accumulator, timed too") : "");
          } else {
            ImGui::SetTooltip("%s", _("Not stored: the session was recorded before launch counts were (reducescope "
                                      "sweep adds them from bench rows)."));
          }
        }
        ImGui::TableNextColumn();
        ImGui::Text("%.0f", t->gbps);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _("effective bandwidth: N x 4 bytes read / median time"));
        ImGui::TableNextColumn();
        ImGui::Text("%.1f%%", peak > 0 ? 100 * t->gbps / peak : 0);
        if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip(_("of the theoretical peak, %.0f GB/s (2 x memory clock x bus width)"), peak);
        }
        ImGui::TableNextColumn();
        if (sp.step > 0) ImGui::Text("%.2fx", sp.step);
        else ImGui::TextDisabled("-");
        if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip(sp.step > 0 ? _("step speedup: time of the nearest kernel above that computes the same "
                                            "thing (%s) / this kernel's time")
                                        : _("no kernel above computes the same thing (%s): no step speedup"),
                            i18n::tr(to_string(k.op)));
        }
        ImGui::TableNextColumn();
        ImGui::Text("%.2fx", sp.cumulative);
        if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip(_("cumulative speedup: time of the track's first kernel that computes the same thing (%s) / "
                              "this one's"),
                            i18n::tr(to_string(k.op)));
        }
      }
      if (has_source) {
        if (first_source == 0) first_source = k.source_us;
        ImGui::TableNextColumn();
        if (k.source_us > 0) ImGui::Text("%.0f", k.source_us);
        else ImGui::TextDisabled("-");
        source_tip();
        ImGui::TableNextColumn();
        if (k.source_us > 0 && first_source > 0) ImGui::Text("%.2fx", first_source / k.source_us);
        else ImGui::TextDisabled("-");
        source_tip();
      }
      for (const ProfilerMetric* m : metric_cols) {
        ImGui::TableNextColumn();
        const SessionMetric* v = s.session->find_metric(k.name, bs, m->name);
        if (!v) {
          ImGui::TextDisabled("-");
          continue;
        }
        ImGui::TextUnformatted(metric_text(*v).c_str());
        if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip(_("%s: %s\nNsight Compute: %s = %.6g %s\nmeasured on %s (reducescope profile)"), m->name,
                            i18n::tr(m->what),
                            v->ncu_metric.c_str(), v->value, v->unit.c_str(), s.session->meta.gpu.c_str());
        }
      }
    }
    if (s.yours.open()) {
      double first_ms = 0;  // the track's first sum's time, for the cumulative speedup
      for (size_t i = 0; i < kernels.size() && first_ms <= 0; ++i) {
        if (kernel_info(kernels[i]).op == ReduceOp::Sum && !kernel_info(kernels[i]).pitfall) first_ms = times[i];
      }
      yours_rows(s, bs, peak, cols, first_ms);
    }
    ImGui::EndTable();
    // The user's kernel's rows are the table's last two: once it is shown, at another block size, or when the panel
    // changes height (its first trace moves the panel from the whole right column to its foot), the panel scrolls
    // them into view, so a 1280x720 window shows them. ImGui clamps a scroll to the last frame's content, so it
    // tries again on the next frames (at most 30) until they are in view; after that the scroll bar is the user's.
    const std::string key = s.shows_yours(0) ? s.yours.name + "/" + std::to_string(bs) + "/" +
                                                   std::to_string(static_cast<int>(ImGui::GetWindowHeight()))
                                             : std::string();
    if (key != yours_scrolled_) {
      yours_scrolled_ = key;
      yours_scroll_tries_ = key.empty() ? 0 : 30;
    }
    if (yours_scroll_tries_ > 0) {
      --yours_scroll_tries_;
      const float bottom = ImGui::GetItemRectMax().y;
      const float seen = ImGui::GetWindowPos().y + ImGui::GetWindowHeight() - ImGui::GetStyle().WindowPadding.y;
      if (bottom > seen + 1) ImGui::SetScrollY(ImGui::GetScrollY() + bottom - seen);
      else yours_scroll_tries_ = 0;
    }
  }
  // The selected kernel's metrics as lines (the table's columns may be scrolled out of view), each
  // beside the track's first kernel: the book's reasons, measured.
  if (!metric_cols.empty()) {
    const KernelInfo& sel = kernel_info(s.a.kernel);
    const KernelInfo& base = kernel_info(kernels.front());
    ImGui::TextDisabled(_("Nsight Compute on %s, %s at %u threads (the book's nvprof names):"),
                        s.session->meta.gpu.c_str(), sel.name, bs);
    for (const ProfilerMetric* m : metric_cols) {
      const SessionMetric* v = s.session->find_metric(sel.name, bs, m->name);
      const SessionMetric* b = s.session->find_metric(base.name, bs, m->name);
      if (!v) continue;
      ImGui::Text("  %-20s %12s", m->name, metric_text(*v).c_str());
      if (b && sel.id != base.id) {
        ImGui::SameLine();
        ImGui::TextDisabled("(%s: %s)", base.name, metric_text(*b).c_str());
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\nNsight Compute: %s", i18n::tr(m->what), v->ncu_metric.c_str());
    }
  }
  const std::string title = strf(_("median time, %s, %u threads per block"), track.id, bs);
  if (plot::BeginBarChart("##times", title.c_str(), "ms")) {
    for (KernelId kid : kernels) {
      const KernelInfo& k = kernel_info(kid);
      const Timing* t = s.timing(k.id, bs);
      if (!t) continue;
      const std::string tip = strf(_("%s at %u threads: %.4f ms (min %.4f, max %.4f)\n%.0f GB/s, %.1f%% of peak"),
                                   k.name, bs, t->median_ms, t->min_ms, t->max_ms, t->gbps, t->pct_peak);
      plot::Bar(k.name, t->median_ms, k.id == s.a.kernel && !s.shows_yours(0) && s.a.library < 0 ? color::kPurple : color::kBlue,
                tip.c_str(), short_kernel_name(k).c_str());
    }
    if (auto it = s.yours.timings.find(bs); it != s.yours.timings.end()) {  // the user's kernel, in its own colour
      const std::string tip = strf(_("%s (yours) at %u threads: %.4f ms, %.0f GB/s%s"), s.yours.name.c_str(), bs,
                                   it->second.median_ms, it->second.gbps,
                                   s.yours.n == s.n ? "" : _(" (timed at another N)"));
      plot::Bar(s.yours.name.c_str(), it->second.median_ms, color::kYours, tip.c_str(), _("yours"));
    }
    plot::EndBarChart();
  }
}

// The rolling plot of per-launch times while the GPU re-runs the selected kernel; each
// kernel/block-size pair is its own coloured series, so a toggle shows at once.
void TimingPanel::drawLive(AppState& s) {
  if (s.recorded() || !s.have_device) {
    ImGui::TextWrapped("%s", _("The live plot needs a CUDA GPU: it shows each launch's time while the GPU re-runs the "
                             "selected kernel. A recording keeps medians only (see the other tabs)."));
    return;
  }
  ImGui::TextWrapped("%s", _("Each point: one whole reduction (L2 flushed first), timed with CUDA events. Change the "
                           "kernel or block size and watch the line move."));
  std::map<std::pair<KernelId, unsigned>, std::pair<std::vector<double>, std::vector<double>>> series;
  const double now = s.live.empty() ? 0 : s.live.back().t;
  for (const LiveSample& l : s.live) {
    auto& xy = series[{l.pick.kernel, l.pick.block_size}];
    xy.first.push_back(l.t - now);
    xy.second.push_back(l.ms);
  }
  // The user's kernel runs in its worker once per save (or block size): one point per run, its median.
  const YoursState& y = s.yours;
  std::map<unsigned, std::pair<std::vector<double>, std::vector<double>>> yours;
  const double yours_now = y.live.empty() ? now : std::max(now, y.live.back().t);
  for (const YoursState::LivePoint& l : y.live) {
    yours[l.block_size].first.push_back(l.t - yours_now);
    yours[l.block_size].second.push_back(l.ms);
  }
  if (!yours.empty() && s.shows_yours(0)) {
    ImGui::TextWrapped(_("%s: one point per save (the median of its %d timed runs in the worker)."), y.name.c_str(),
                       kYoursSamples);
  }
  if (plot::BeginPlot("##live", _("time per launch"), _("seconds ago"), "ms", ImVec2(0, 0), plot::PlotFlags_NoMarkers)) {
    for (auto& [key, xy] : series) {
      char label[48];
      std::snprintf(label, sizeof label, "%s @%u", kernel_info(key.first).name, key.second);
      for (double& x : xy.first) x -= yours_now - now;  // one time axis for both
      plot::Line(label, xy.first.data(), xy.second.data(), static_cast<int>(xy.first.size()), kernel_color(key.first));
    }
    for (auto& [bs, xy] : yours) {
      const std::string label = y.name + " @" + std::to_string(bs) + _(" (per save)");
      plot::Line(label.c_str(), xy.first.data(), xy.second.data(), static_cast<int>(xy.first.size()), color::kYours,
                 plot::LineFlags_Markers);
    }
    plot::EndPlot();
  }
}

// Median time and effective bandwidth against block size, one line per kernel. The time axis is
// logarithmic unless "log time axis" is off: from zero, the fast kernels' lines crowd at the bottom.
void TimingPanel::drawBlockSize(AppState& s) {
  ImGui::Checkbox(strf("%s###log time axis", _("log time axis")).c_str(), &log_time_);
  note_widget("bs/log-time");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", _("The time in decades (ticks at 1, 2 and 5 x 10^k ms), so that the fast kernels\n"
                              "do not crowd together at the bottom; off: from zero."));
  }
  // Both charts where each gets 8 lines of text; else the time alone, and T shows both, large.
  const bool both = ImGui::GetContentRegionAvail().y >= ImGui::GetTextLineHeightWithSpacing() * 16;
  if (!both) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", _("(T: with bandwidth)"));
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", _("T shows the timing panel in place of the replay, with both charts."));
    }
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  for (int which = 0; which < (both ? 2 : 1); ++which) {
    const bool bw = which == 1;
    const int flags = plot::PlotFlags_LogX2 | (!bw && log_time_ ? plot::PlotFlags_LogY : 0);
    const char* title = bw ? _("effective bandwidth") : log_time_ ? _("median time (log scale)") : _("median time");
    if (!plot::BeginPlot(bw ? "##bsbw" : "##bstime", title, _("threads per block"), bw ? "GB/s" : "ms",
                         ImVec2(0, both ? avail.y * 0.5f - 4 : 0), flags)) {
      continue;
    }
    for (KernelId kid : track_kernels(kernel_info(s.a.kernel).track)) {
      const KernelInfo& k = kernel_info(kid);
      std::vector<double> xs, ys;
      for (unsigned bs : kBlockSizes) {
        if (const Timing* t = s.timing(k.id, bs)) {
          xs.push_back(bs);
          ys.push_back(bw ? t->gbps : t->median_ms);
        }
      }
      plot::Line(k.name, xs.data(), ys.data(), static_cast<int>(xs.size()), kernel_color(k.id));
    }
    // The user's kernel, in its own colour, at the block sizes it has run at on this input (each a marker).
    if (s.yours.open() && s.yours.n == s.n && !s.yours.timings.empty()) {
      std::vector<double> xs, ys;
      for (const auto& [bs, t] : s.yours.timings) {
        xs.push_back(bs);
        ys.push_back(bw ? t.gbps : t.median_ms);
      }
      plot::Line(s.yours.name.c_str(), xs.data(), ys.data(), static_cast<int>(xs.size()), color::kYours);
    }
    if (bw) {
      plot::HLine(_("theoretical peak"), s.peak_gbps(), ImGui::GetColorU32(ImGuiCol_TextDisabled));
      plot::HLine(_("copy ceiling (measured)"), s.copy_gbps, ImGui::GetColorU32(ImGuiCol_Text));
    } else if (s.cub_ms > 0) {
      plot::HLine("CUB DeviceReduce::Sum", s.cub_ms, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    }
    plot::EndPlot();
  }
}

// Effective bandwidth against N (the session's sweep, `reducescope sweep`): each track's fastest kernel, CUB
// and the copy, then the selected kernel's track beside CUB at each N with its launches, so the launch
// overhead at small N and the bandwidth ceiling at large N read off one table.
// The bits view (`reducescope bits --out`, SessionBits): each float32 kernel's distinct result bit patterns
// over its runs at every block size, the most frequent first, with their distance in ulps from the exact sum
// rounded once; the row of side A's kernel highlighted; hover a row for all of its patterns.
void TimingPanel::drawBits(AppState& s) {
  const SessionBits* v = s.session && !s.session->bits.empty() ? &s.session->bits : nullptr;
  if (!v) {
    ImGui::TextWrapped("%s", _("No bits view here: `reducescope bits --out SESSION` on a GPU runs every float32 sum at "
                             "every block size and stores the distinct results. The bundled H100 session has one."));
    return;
  }
  // Why they differ, stepped: the session's second runs of a float atomic kernel's block (record --two-runs) open
  // side A in the atomics panel's two-runs view. The buttons flow on one line where they fit (a projector's small panel).
  bool first_button = true;
  auto flow = [&](const std::string& label) {
    const float w = ImGui::CalcTextSize(label.c_str()).x + ImGui::GetStyle().FramePadding.x * 2;
    if (!first_button) {
      const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
      if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
    }
    first_button = false;
    return ImGui::Button(label.c_str());
  };
  for (const Trace& t : s.session->other_runs) {
    const KernelInfo* k = find_kernel(t.meta.kernel);
    if (!k || t.meta.dtype != DType::Float32) continue;
    if (flow(strf(_("Two runs: %s"), k->name))) {
      s.a = Pick{k->id, t.meta.block_size};
      s.yours_selected = false;
      s.float32 = true;
      s.two_runs = true;
      s.selection_changed = true;
    }
    note_widget(std::string("bits/two-runs/") + k->name);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(_("Block 0 of %s at %u threads traced in two runs of the same input, N = %llu (the session's; "
                          "the table's is N = %llu): each float atomicAdd in the order it landed, and the first whose "
                          "rounding differs."),
                        k->name, t.meta.block_size, static_cast<unsigned long long>(t.meta.n),
                        static_cast<unsigned long long>(s.session->bits.n));
    }
  }
  // ... and how reproducible_sum avoids it: its exact accumulator, step by step (the global panel).
  if (const KernelInfo* k = find_kernel(kExactSumKernel); k && s.session->find_trace(k->name, 256, DType::Float32)) {
    if (flow(strf(_("Exact sum: %s"), k->name))) {
      s.a = Pick{k->id, 256};
      s.yours_selected = false;
      s.float32 = true;
      s.selection_changed = true;
    }
    note_widget(std::string("bits/exact/") + k->name);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", _("Each step's exact additions and what the block holds, in the global panel; at the end "
                                "the one rounding."));
    }
  }
  ImGui::TextWrapped(_("float32, N = %llu (%s), %u runs at each block size: distinct results; ulps from the exact sum "
                       "rounded once (%s)"),
                     static_cast<unsigned long long>(v->n), i18n::tr(v->pattern.c_str()), v->runs,
                     format_value(v->exact_bits, DType::Float32).c_str());
  if (!ImGui::BeginTable("##bits", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn(_("kernel"));
  ImGui::TableSetupColumn(_("patterns"));
  ImGui::TableSetupColumn(_("most frequent (ulps) x runs"), ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  const std::string selected = kernel_info(s.a.kernel).name;
  for (size_t i = 0; i < v->rows.size();) {
    size_t j = i;
    while (j < v->rows.size() && v->rows[j].kernel == v->rows[i].kernel) ++j;
    const BitsRow& top = v->rows[i];
    ImGui::TableNextRow();
    if (top.kernel == selected) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, with_alpha(color::kPurple, 0.45f));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(top.kernel.c_str());
    const bool hovered = ImGui::IsItemHovered();
    const bool wrong = v->wrong(top.bits);
    ImGui::TableNextColumn();
    if (j - i == 1 && !wrong) {  // green: one pattern, and a right one
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color::kGreen), "1");
      note_widget("bits/one/" + top.kernel);
    } else {
      ImGui::Text("%zu", j - i);
    }
    ImGui::TableNextColumn();
    ImGui::Text("%s (%s) x%u", format_value(top.bits, DType::Float32).c_str(), ulps_text(top.bits, v->exact_bits).c_str(),
                top.count);
    if (wrong) {
      // The verdict stays WRONG; the reason beside it where it is the known one (float_sum_note).
      float got;
      std::memcpy(&got, &top.bits, 4);
      const auto said = explain::float_stuck_sentence(got, v->exact);  // in the window's language
      const std::string why = said ? say(*said) : float_sum_note(got, v->exact);
      ImGui::SameLine();
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::kVermillion));
      if (why.empty()) ImGui::TextWrapped("%s", _("WRONG"));
      else ImGui::TextWrapped(_("WRONG: %s"), why.c_str());
      ImGui::PopStyleColor();
      note_widget("bits/wrong/" + top.kernel);
    }
    if (hovered || ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      for (size_t k = i; k < j && k < i + 12; ++k) {
        const BitsRow& r = v->rows[k];
        std::string sizes;
        for (uint32_t bs : r.block_sizes) {
          if (bs) sizes += (sizes.empty() ? " [" : ",") + std::to_string(bs);
        }
        ImGui::Text("%s (%s) x%u%s%s", format_value(r.bits, DType::Float32).c_str(),
                    ulps_text(r.bits, v->exact_bits).c_str(), r.count, sizes.c_str(), sizes.empty() ? "" : "]");
      }
      if (j - i > 12) ImGui::Text(_("... %zu more"), j - i - 12);
      ImGui::EndTooltip();
    }
    i = j;
  }
  ImGui::EndTable();
}

void TimingPanel::drawMultiGpu(AppState& s) {
  if (!s.session || s.session->multigpu.empty()) {
    ImGui::TextWrapped("%s", _("No multi-GPU recording here: `reducescope record --track multigpu --out SESSION` on a "
                             "machine with 2 or more GPUs records one (NCCL's all-reduce, a hand ring and the naive "
                             "way); with --add it goes into an existing session."));
    note_widget("multigpu/none");
    return;
  }
  multigpu_.draw(s);
}

void TimingPanel::drawSweep(AppState& s) {
  const Sweep* sw = s.session && !s.session->sweep.empty() ? &s.session->sweep : nullptr;
  if (!sw) {
    ImGui::TextWrapped(
        "%s", _("No N sweep here. A sweep is `reducescope bench --csv` at several N (2^16 ... 2^30), stored into a "
                "session with `reducescope sweep BENCH.csv ... --out SESSION`. The bundled H100 session has one: File > "
                "Open assets/sessions/h100-tracks.rssession."));
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(_("RECORDED on %s: each track's fastest correct kernel over every block size, at each N"),
                     sw->gpu.c_str());
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) {
    const auto said = explain::sweep_method_sentence(sw->method);  // stored in English, said in the window's language
    ImGui::SetTooltip(_("Timing method: %s"), said ? say(*said).c_str() : sw->method.c_str());
  }
  const std::vector<std::string> series = sw->series();
  const std::vector<uint64_t> ns = sw->ns();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float table_h = (ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y) * static_cast<float>(ns.size() + 1) +
                        ImGui::GetStyle().ScrollbarSize + 4;
  const float plot_h = std::max(avail.y - table_h - line * 2, avail.y * 0.45f);
  // A small panel (the right column at 1280x720) keeps the table, which carries the lesson, and leaves the
  // plot to the large-charts view.
  if (avail.y - table_h - line * 2 < line * 10) {
    ImGui::TextDisabled("%s", _("(T: the plot, in the large-charts view)"));
  } else if (plot::BeginPlot("##sweep", _("effective bandwidth against N"), "N", "GB/s", ImVec2(0, plot_h),
                      plot::PlotFlags_LogX2 | plot::PlotFlags_Pow2Labels)) {
    static constexpr ImU32 kColors[] = {color::kOrange, color::kSkyBlue, color::kGreen,     color::kBlue,
                                        color::kVermillion, color::kPurple, color::kYellow};
    size_t track_index = 0;
    for (const std::string& name : series) {
      std::vector<double> xs, ys;
      for (const SweepPoint& p : sw->points) {
        if (p.series != name) continue;
        xs.push_back(static_cast<double>(p.n));
        ys.push_back(p.gbps);
      }
      const ImU32 c = name == kCubSeries    ? ImGui::GetColorU32(ImGuiCol_TextDisabled)
                      : name == kCopySeries ? ImGui::GetColorU32(ImGuiCol_Text)
                                            : kColors[track_index++ % std::size(kColors)];
      // The copy's name is a sentence's words; CUB's and the tracks' are names.
      plot::Line(name == kCopySeries ? _("device-to-device copy") : name.c_str(), xs.data(), ys.data(),
                 static_cast<int>(xs.size()), c);
    }
    if (sw->peak_gbps > 0) plot::HLine(_("theoretical peak"), sw->peak_gbps, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    plot::EndPlot();
  }
  const std::string track = track_of(s.a.kernel).id;
  ImGui::Text(_("%s against CUB at each N"), track.c_str());
  if (ImGui::BeginTable("##sweeptable", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX)) {
    ImGui::TableSetupColumn("N");
    ImGui::TableSetupColumn("CUB GB/s");
    ImGui::TableSetupColumn(_("fastest kernel (threads)"));
    ImGui::TableSetupColumn("GB/s");
    ImGui::TableSetupColumn(_("vs CUB"));
    ImGui::TableSetupColumn(_("launches"));
    ImGui::TableHeadersRow();
    for (uint64_t n : ns) {
      const SweepPoint* cub = sw->find(kCubSeries, n);
      const SweepPoint* p = sw->find(track, n);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("2^%d", static_cast<int>(std::bit_width(n)) - 1);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip(_("%llu int32 elements"), static_cast<unsigned long long>(n));
      ImGui::TableNextColumn();
      if (cub) ImGui::Text("%.0f", cub->gbps);
      else ImGui::TextDisabled("-");
      ImGui::TableNextColumn();
      if (!p) {
        ImGui::TextDisabled("%s", _("not measured"));
        continue;
      }
      ImGui::Text("%s (%u)", p->kernel.c_str(), p->block_size);
      if (ImGui::IsItemHovered() && p->median_ms > 0) ImGui::SetTooltip(_("median %.4f ms"), p->median_ms);
      ImGui::TableNextColumn();
      ImGui::Text("%.0f", p->gbps);
      ImGui::TableNextColumn();
      if (cub && cub->gbps > 0) {
        const double r = p->gbps / cub->gbps;
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(r >= 1.0 ? color::kGreen : ImGui::GetColorU32(ImGuiCol_Text)),
                           "%.2fx", r);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", _("CUB's time / this kernel's time, measured in the same run"));
      } else {
        ImGui::TextDisabled("-");
      }
      ImGui::TableNextColumn();
      if (p->launches) ImGui::Text("%u", p->launches);
      else ImGui::TextDisabled("?");
    }
    ImGui::EndTable();
  }
}

}  // namespace rs::gui
