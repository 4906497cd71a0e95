// The charts at one block size: a bar per kernel (median time with min-max whiskers, or bandwidth with
// its % of peak), and Harris's table as CSV (time, GB/s, % of peak, step and cumulative speedup).
#include "chart_timings.hpp"
#include "kernel_info.hpp"

namespace rs::chart {

// Bars at one block size, one per kernel.
void bar_chart(const Session& s, const TimingIndex& ix, uint32_t bs, const Measure& m, const fs::path& dir,
               const std::string& prefix, ChartFiles& files) {
  ChartSpec c;
  c.title = std::string(m.what) + " per kernel, block size " + std::to_string(bs) +
            track_suffix(prefix);
  c.caption = caption(s.meta, bs);
  c.x_title = "kernel";
  c.y_title = std::string(m.y_title) + (m.whiskers ? ", whiskers min–max" : "");
  c.refs = m.refs(s.meta);
  std::string csv = kTimingColumns;
  for (const auto& [k, t] : ix.at_block(bs)) {
    Bar b;
    b.kernel = ix.kernels[k];
    b.style = ix.style[k];
    b.wrong = !t->correct;
    b.value = m.value(*t);
    b.value_lines = {sig3(b.value)};
    if (m.whiskers) {
      b.whisker_lo = t->min_ms;
      b.whisker_hi = t->max_ms;
    }
    if (m.pct_of_peak && s.meta.peak_gbps > 0) b.value_lines.push_back(pct_label(t->pct_peak));
    c.bars.push_back(b);
    csv += timing_row(*t);
  }
  write_chart(dir, prefix + "kernels_" + std::string(m.name) + "_bs" + std::to_string(bs), c, csv, files);
}

// Harris's table (slide "Performance for 4M element reduction") at one block size, the speedups from
// table_speedups (kernels/kernel_info.hpp): step = the nearest row above that does the same job / this
// median (empty where none does), cumulative = the first such row / this median.
void harris_table(const TimingIndex& ix, uint32_t bs, const fs::path& dir, const std::string& prefix,
                  ChartFiles& files) {
  std::string csv = "kernel,block_size,median_ms,gbps,pct_peak,step_speedup,cumulative_speedup,correct\n";
  const auto rows = ix.at_block(bs);
  std::vector<KernelId> ids;
  std::vector<double> ms;
  for (const auto& r : rows) {
    const KernelInfo* k = find_kernel(r.second->kernel);
    ids.push_back(k ? k->id : KernelId::reduce0);
    ms.push_back(k ? r.second->median_ms : 0.0);  // a kernel this build does not know: no speedups
  }
  const std::vector<Speedup> sp = table_speedups(ids, ms);
  for (size_t i = 0; i < rows.size(); ++i) {
    const SessionTiming& t = *rows[i].second;
    const std::string step = sp[i].step > 0 ? csv_num(sp[i].step) : "";
    const std::string cumulative = sp[i].cumulative > 0 ? csv_num(sp[i].cumulative) : "";
    csv += csv_field(t.kernel) + "," + std::to_string(bs) + "," + csv_num(t.median_ms) + "," + csv_num(t.gbps) +
           "," + csv_num(t.pct_peak) + "," + step + "," + cumulative + "," + (t.correct ? "true" : "false") + "\n";
  }
  const fs::path path = dir / ((prefix.empty() ? std::string("harris_") : prefix) + "table_bs" + std::to_string(bs) + ".csv");
  write_text(path, csv);
  files.paths.push_back(path.string());
}

}  // namespace rs::chart
