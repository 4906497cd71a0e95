// The charts against block size: one line per kernel over the block sizes it was timed at, for median
// time (also on a log time axis, where the fast kernels do not crowd together at the bottom) and for
// bandwidth.
#include "chart_timings.hpp"

namespace rs::chart {

// One line per kernel over the block sizes it was timed at.
void blocksize_chart(const Session& s, const TimingIndex& ix, const Measure& m, const fs::path& dir,
                     const std::string& prefix, ChartFiles& files) {
  ChartSpec c;
  c.title = std::string(m.what) + " against block size" +
            track_suffix(prefix);
  c.caption = caption(s.meta, 0);
  c.x_title = "block size (threads per block, log2 scale)";
  c.y_title = m.y_title;
  c.x_ticks.assign(ix.block_sizes.begin(), ix.block_sizes.end());
  c.refs = m.refs(s.meta);
  std::string csv = kTimingColumns;
  for (size_t k = 0; k < ix.kernels.size(); ++k) {
    Line l{ix.kernels[k], ix.style[k], {}};
    for (uint32_t bs : ix.block_sizes)
      if (const SessionTiming* t = ix.find(k, bs)) {
        l.points.push_back({double(bs), m.value(*t), !t->correct});
        csv += timing_row(*t);
      }
    c.lines.push_back(l);
  }
  write_chart(dir, prefix + "blocksize_" + std::string(m.name), c, csv, files);
  // Time again on a log axis: from zero, the fast kernels' lines crowd together at the bottom.
  if (&m == &kTime) {
    c.log_y = true;
    c.title += " (log scale)";
    c.y_title = "median time (ms, log scale)";
    write_images(dir, prefix + "blocksize_" + std::string(m.name) + "_log", c, files);
  }
}

}  // namespace rs::chart
