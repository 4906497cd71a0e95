// export_roofline(): one kernel file's bytes read against its median time, beside the exercise's reference kernel,
// with the copy ceiling as a dashed line through the origin (charts.hpp, Roofline). Both axes linear from 0.
#include "charts.hpp"

#include <algorithm>

#include "chart_spec.hpp"

namespace rs {

using namespace chart;

ChartFiles export_roofline(const Roofline& r, const std::string& dir, const std::string& stem) {
  if (!(r.bytes > 0)) throw ExportError("the roofline needs the bytes the kernel reads");
  double tmax = 0;
  for (const RooflinePoint& p : r.points) tmax = std::max(tmax, p.ms);
  if (!(tmax > 0)) throw ExportError("the roofline needs a kernel with a time");
  ChartFiles files;
  const fs::path d = make_folder(dir);
  const double mb = r.bytes / 1e6;

  ChartSpec c;
  c.title = r.title;
  c.caption = r.caption;
  c.x_title = "median time (ms)";
  c.y_title = "MB read (1e6 bytes)";
  c.linear_x = true;
  std::string csv = "name,ms,bytes,gbps\n";
  if (r.ceiling_gbps > 0) {
    // bytes = GB/s x 1e6 x ms: from the origin to the top of the chart, or to the farthest point's time.
    const double t_end = std::min(tmax * 1.08, r.bytes * 1.15 / (r.ceiling_gbps * 1e6));
    Line l{"copy ceiling " + fixed(r.ceiling_gbps, 0) + " GB/s (bytes read + written)", 0,
           {{0, 0, false}, {t_end, r.ceiling_gbps * t_end, false}}, true};
    l.marked = false;
    c.lines.push_back(l);
    csv += "copy ceiling," + csv_num(r.bytes / (r.ceiling_gbps * 1e6)) + "," + csv_num(r.bytes) + "," +
           csv_num(r.ceiling_gbps) + "\n";
  }
  size_t style = 0;
  for (const RooflinePoint& p : r.points) {
    if (!(p.ms > 0)) continue;
    const double gbps = r.bytes / (p.ms * 1e6);
    // The reference in the palette's blue, the submission in its orange: the same two whatever the names.
    c.lines.push_back({p.name + ": " + fixed(gbps, 0) + " GB/s, " + sig3(p.ms) + " ms", p.reference ? size_t{1} : style,
                       {{p.ms, mb, false}}});
    if (!p.reference) style = 2;  // a second submission point gets the green
    csv += csv_field(p.name) + "," + csv_num(p.ms) + "," + csv_num(r.bytes) + "," + csv_num(gbps) + "\n";
  }
  write_chart(d, stem, c, csv, files);
  return files;
}

}  // namespace rs
