#include <cstdio>

#include "panels.hpp"
#include "plot.hpp"

namespace rs::gui {

void TimingPanel::drawContent(AppState& s) {
  if (!s.have_device) {
    ImGui::TextWrapped("Timings need a CUDA GPU.");
    return;
  }
  ImGui::TextWrapped("N = %llu int32, %s; median of 20 samples, L2 flushed before each",
                     static_cast<unsigned long long>(s.n), to_string(s.pattern));
  // Table in the shape of Harris's slide, for the current block size.
  const double peak = s.device.peak_gbps();
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
      auto it = s.timings.find({k.id, s.block_size});
      if (it == s.timings.end()) continue;
      const Timing& t = it->second;
      if (first == 0) first = t.median_ms;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(k.name);
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", t.median_ms);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("median %.4f ms, min %.4f, max %.4f, %d samples", t.median_ms,
                                                    t.min_ms, t.max_ms, t.samples);
      ImGui::TableNextColumn();
      ImGui::Text("%.0f", t.gbps);
      ImGui::TableNextColumn();
      ImGui::Text("%.1f%%", peak > 0 ? 100 * t.gbps / peak : 0);
      ImGui::TableNextColumn();
      ImGui::Text("%.2fx", prev > 0 ? prev / t.median_ms : 1.0);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("step speedup: time of the kernel above / this kernel's time");
      ImGui::TableNextColumn();
      ImGui::Text("%.2fx", first / t.median_ms);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("cumulative speedup: time of the first kernel / this one's");
      prev = t.median_ms;
    }
    ImGui::EndTable();
  }
  char title[64];
  std::snprintf(title, sizeof title, "median time, %u threads per block", s.block_size);
  if (plot::BeginBarChart("##times", title, "ms")) {
    for (const KernelInfo& k : kernel_table()) {
      auto it = s.timings.find({k.id, s.block_size});
      if (it == s.timings.end()) continue;
      const Timing& t = it->second;
      char tip[160];
      std::snprintf(tip, sizeof tip, "%s at %u threads: %.4f ms (min %.4f, max %.4f)\n%.0f GB/s, %.1f%% of peak",
                    k.name, s.block_size, t.median_ms, t.min_ms, t.max_ms, t.gbps, t.pct_peak);
      const std::string short_label = std::string("r") + (k.name + 6);  // "reduce3" -> "r3"
      plot::Bar(k.name, t.median_ms, k.id == s.kernel ? color::kPurple : color::kBlue, tip, short_label.c_str());
    }
    plot::EndBarChart();
  }
}

}  // namespace rs::gui
