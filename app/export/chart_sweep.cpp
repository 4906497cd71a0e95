// export_sweep(): bandwidth against N (log2 axis, 2^k labels) from a sweep of `bench --csv` runs, one
// line per series (each track's fastest kernel, CUB, the copy), the theoretical peak as a reference
// line, and its CSV.
#include "charts.hpp"

#include <algorithm>
#include <bit>
#include <set>

#include "chart_spec.hpp"

namespace rs {

using namespace chart;

ChartFiles export_sweep(const Sweep& sw, const std::string& dir, const std::string& method) {
  if (sw.points.empty()) throw ExportError("the sweep has no correct results to draw");
  ChartFiles files;
  const fs::path d = make_folder(dir);
  ChartSpec c;
  c.title = "Bandwidth against N: each track's fastest kernel, CUB, the copy";
  c.caption = {(sw.gpu.empty() ? std::string("unknown GPU") : sw.gpu) +
                   " · int32 · each track's fastest correct kernel over every block size at each N · the copy "
                   "counts bytes read and written",
               method};
  c.x_title = "N (int32 elements, log2 scale)";
  c.y_title = "GB/s";
  std::set<uint64_t> ns;
  std::vector<std::string> series;
  for (const SweepPoint& p : sw.points) {
    ns.insert(p.n);
    if (std::find(series.begin(), series.end(), p.series) == series.end()) series.push_back(p.series);
  }
  for (uint64_t n : ns) {
    c.x_ticks.push_back(n);
    const int e = std::bit_width(n) - 1;
    c.x_tick_labels.push_back((uint64_t{1} << e) == n ? "2^" + std::to_string(e) : std::to_string(n));
  }
  std::string csv = "series,n,gbps,kernel,block_size,median_ms,launches\n";
  for (size_t i = 0; i < series.size(); ++i) {
    Line l{series[i], i, {}};
    for (const SweepPoint& p : sw.points) {
      if (p.series != series[i]) continue;
      l.points.push_back({double(p.n), p.gbps, false});
      csv += csv_field(p.series) + "," + std::to_string(p.n) + "," + csv_num(p.gbps) + "," + csv_field(p.kernel) + "," +
             std::to_string(p.block_size) + "," + csv_num(p.median_ms) + "," + std::to_string(p.launches) + "\n";
    }
    c.lines.push_back(l);
  }
  if (sw.peak_gbps > 0) c.refs.push_back({sw.peak_gbps, "theoretical peak", fixed(sw.peak_gbps, 0) + " GB/s"});
  write_chart(d, "sweep_bandwidth", c, csv, files);
  return files;
}

}  // namespace rs
