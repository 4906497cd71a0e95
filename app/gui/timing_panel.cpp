#include <cstdio>
#include <map>
#include <vector>

#include "commands.hpp"
#include "gpu_worker.hpp"
#include "panels.hpp"
#include "plot.hpp"

namespace rs::gui {

ImU32 kernel_color(KernelId k) {
  // The exported charts' order (app/export/charts.cpp), so a kernel has one colour everywhere; the
  // charts' black for reduce6 is the ink colour, which on the dark window is near-white.
  static constexpr ImU32 kColors[kNumKernels] = {color::kOrange,     color::kSkyBlue, color::kGreen,
                                                 color::kBlue,       color::kVermillion, color::kPurple,
                                                 color::rgb(235, 235, 235)};
  return kColors[static_cast<int>(k)];
}

void TimingPanel::drawContent(AppState& s) {
  if (s.timings.empty() && !s.have_device && !s.recorded()) {
    ImGui::TextWrapped("Timings need a CUDA GPU or a recorded session (File > Open).");
    return;
  }
  if (s.recorded()) {
    const SessionMeta& m = s.session->meta;
    ImGui::TextWrapped("RECORDED on %s, %s; N = %llu int32 (%s)", m.gpu.c_str(), m.date.c_str(),
                       static_cast<unsigned long long>(m.n), m.pattern.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Timing method: %s", m.method.c_str());
  } else {
    ImGui::TextWrapped("Live on %s; N = %llu int32 (%s)", s.device.name.c_str(), static_cast<unsigned long long>(s.n),
                       to_string(s.pattern));
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("Timing method: %s",
                        timing_method(kGuiSamples, kTimingWarmups, s.device.l2_bytes).c_str());
    }
  }
  if (ImGui::BeginTabBar("##timingtabs")) {
    struct Tab {
      const char* name;
      TimingTab tab;
      void (TimingPanel::*draw)(AppState&);
    };
    static const Tab kTabs[] = {{"Harris table", TimingTab::Table, &TimingPanel::drawTable},
                                {"Live", TimingTab::Live, &TimingPanel::drawLive},
                                {"vs block size", TimingTab::BlockSize, &TimingPanel::drawBlockSize}};
    for (const Tab& t : kTabs) {
      const ImGuiTabItemFlags f = !tab_applied_ && s.timing_tab == t.tab ? ImGuiTabItemFlags_SetSelected : 0;
      if (ImGui::BeginTabItem(t.name, nullptr, f)) {
        if (tab_applied_) s.timing_tab = t.tab;
        (this->*t.draw)(s);
        ImGui::EndTabItem();
      }
    }
    tab_applied_ = true;
    ImGui::EndTabBar();
  }
}

// Harris's slide: time, bandwidth, % of peak, step and cumulative speedup at the current block
// size, then the times as bars.
void TimingPanel::drawTable(AppState& s) {
  const unsigned bs = s.a.block_size;
  const double peak = s.peak_gbps();
  double first = 0, prev = 0;
  if (ImGui::BeginTable("##harris", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("kernel");
    ImGui::TableSetupColumn("ms");
    ImGui::TableSetupColumn("GB/s");
    ImGui::TableSetupColumn("% peak");
    ImGui::TableSetupColumn("step");
    ImGui::TableSetupColumn("cumul.");
    ImGui::TableHeadersRow();
    for (const KernelInfo& k : kernel_table()) {
      const Timing* t = s.timing(k.id, bs);
      if (!t) continue;
      if (first == 0) first = t->median_ms;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (s.wrong_sum.count({k.id, bs})) {
        ImGui::TextColored(ImVec4(1, 0.35f, 0.25f, 1), "%s WRONG", k.name);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Its sum did not match the CPU reference: the time is not meaningful.");
      } else {
        ImGui::TextUnformatted(k.name);
      }
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", t->median_ms);
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("median %.4f ms, min %.4f, max %.4f, %d samples", t->median_ms, t->min_ms, t->max_ms,
                          t->samples);
      }
      ImGui::TableNextColumn();
      ImGui::Text("%.0f", t->gbps);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("effective bandwidth: N x 4 bytes read / median time");
      ImGui::TableNextColumn();
      ImGui::Text("%.1f%%", peak > 0 ? 100 * t->gbps / peak : 0);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("of the theoretical peak, %.0f GB/s (2 x memory clock x bus width)", peak);
      ImGui::TableNextColumn();
      ImGui::Text("%.2fx", prev > 0 ? prev / t->median_ms : 1.0);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("step speedup: time of the kernel above / this kernel's time");
      ImGui::TableNextColumn();
      ImGui::Text("%.2fx", first / t->median_ms);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("cumulative speedup: time of the first kernel / this one's");
      prev = t->median_ms;
    }
    ImGui::EndTable();
  }
  char title[64];
  std::snprintf(title, sizeof title, "median time, %u threads per block", bs);
  if (plot::BeginBarChart("##times", title, "ms")) {
    for (const KernelInfo& k : kernel_table()) {
      const Timing* t = s.timing(k.id, bs);
      if (!t) continue;
      char tip[160];
      std::snprintf(tip, sizeof tip, "%s at %u threads: %.4f ms (min %.4f, max %.4f)\n%.0f GB/s, %.1f%% of peak",
                    k.name, bs, t->median_ms, t->min_ms, t->max_ms, t->gbps, t->pct_peak);
      const std::string short_label = std::string("r") + (k.name + 6);  // "reduce3" -> "r3"
      plot::Bar(k.name, t->median_ms, k.id == s.a.kernel ? color::kPurple : color::kBlue, tip, short_label.c_str());
    }
    plot::EndBarChart();
  }
}

// The rolling plot of per-launch times while the GPU re-runs the selected kernel; each
// kernel/block-size pair is its own coloured series, so a toggle shows at once.
void TimingPanel::drawLive(AppState& s) {
  if (s.recorded() || !s.have_device) {
    ImGui::TextWrapped("The live plot needs a CUDA GPU: it shows each launch's time while the GPU re-runs the "
                       "selected kernel. A recording keeps medians only (see the other tabs).");
    return;
  }
  ImGui::TextWrapped("Each point: one whole reduction (L2 flushed first), timed with CUDA events. Change the kernel "
                     "or block size and watch the line move.");
  std::map<std::pair<KernelId, unsigned>, std::pair<std::vector<double>, std::vector<double>>> series;
  const double now = s.live.empty() ? 0 : s.live.back().t;
  for (const LiveSample& l : s.live) {
    auto& xy = series[{l.pick.kernel, l.pick.block_size}];
    xy.first.push_back(l.t - now);
    xy.second.push_back(l.ms);
  }
  if (plot::BeginPlot("##live", "time per launch", "seconds ago", "ms", ImVec2(0, 0), plot::PlotFlags_NoMarkers)) {
    for (auto& [key, xy] : series) {
      char label[48];
      std::snprintf(label, sizeof label, "%s @%u", kernel_info(key.first).name, key.second);
      plot::Line(label, xy.first.data(), xy.second.data(), static_cast<int>(xy.first.size()), kernel_color(key.first));
    }
    plot::EndPlot();
  }
}

// Median time and effective bandwidth against block size, one line per kernel.
void TimingPanel::drawBlockSize(AppState& s) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  for (int which = 0; which < 2; ++which) {
    const bool bw = which == 1;
    if (!plot::BeginPlot(bw ? "##bsbw" : "##bstime", bw ? "effective bandwidth" : "median time", "threads per block",
                         bw ? "GB/s" : "ms", ImVec2(0, avail.y * 0.5f - 4), plot::PlotFlags_LogX2)) {
      continue;
    }
    for (const KernelInfo& k : kernel_table()) {
      std::vector<double> xs, ys;
      for (unsigned bs : kBlockSizes) {
        if (const Timing* t = s.timing(k.id, bs)) {
          xs.push_back(bs);
          ys.push_back(bw ? t->gbps : t->median_ms);
        }
      }
      plot::Line(k.name, xs.data(), ys.data(), static_cast<int>(xs.size()), kernel_color(k.id));
    }
    if (bw) {
      plot::HLine("theoretical peak", s.peak_gbps(), ImGui::GetColorU32(ImGuiCol_TextDisabled));
      plot::HLine("copy ceiling (measured)", s.copy_gbps, ImGui::GetColorU32(ImGuiCol_Text));
    } else if (s.cub_ms > 0) {
      plot::HLine("CUB DeviceReduce::Sum", s.cub_ms, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    }
    plot::EndPlot();
  }
}

}  // namespace rs::gui
