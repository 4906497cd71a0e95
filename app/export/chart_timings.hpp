// A session's timings as charts: the index of its timings (kernels in slide order, block sizes, each
// kernel's style), the two measures a chart plots (median time, effective bandwidth) with their
// reference lines, the caption every chart carries, and the chart kinds export_charts() writes per
// track: bar_chart and harris_table (chart_kernels.cpp), blocksize_chart (chart_blocksize.cpp).
// Internal to app/export.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "chart_spec.hpp"

namespace rs::chart {

// The session's timings, kernels in slide order (kernel_table()), then other kernels by name.
struct TimingIndex {
  std::vector<std::string> kernels;
  std::vector<size_t> style;  // per kernel: table position, or 7, 8, ... for others
  std::vector<uint32_t> block_sizes;  // with at least one timing, ascending
  std::map<std::pair<size_t, uint32_t>, const SessionTiming*> at;  // (kernel index, block size)

  const SessionTiming* find(size_t k, uint32_t bs) const {
    const auto it = at.find({k, bs});
    return it == at.end() ? nullptr : it->second;
  }
  // Every timing at `bs`, in kernel order, with its kernel index.
  std::vector<std::pair<size_t, const SessionTiming*>> at_block(uint32_t bs) const {
    std::vector<std::pair<size_t, const SessionTiming*>> out;
    for (size_t k = 0; k < kernels.size(); ++k)
      if (const SessionTiming* t = find(k, bs)) out.push_back({k, t});
    return out;
  }
};

// Throws ExportError if the session has no timings or one is not a valid number.
TimingIndex index_timings(const Session& s);

inline constexpr const char* kTimingColumns =
    "kernel,block_size,median_ms,min_ms,max_ms,samples,gbps,pct_peak,correct\n";
std::string timing_row(const SessionTiming& t);
// GPU, N, pattern, block size (0: none), date; then the timing method.
std::vector<std::string> caption(const SessionMeta& m, uint32_t block_size);
std::string pct_label(double pct);
std::string track_suffix(const std::string& prefix);

// What a chart plots of each timing, and how it is labelled.
struct Measure {
  const char* name;     // in the file names: kernels_<name>_bs<B>, blocksize_<name>
  const char* what;     // in the title
  const char* y_title;  // with units
  double (*value)(const SessionTiming&);
  std::vector<RefLine> (*refs)(const SessionMeta&);
  bool whiskers;     // bars: min-max whiskers
  bool pct_of_peak;  // bars: "% of peak" under the value
};

extern const Measure kTime, kBandwidth;

void bar_chart(const Session& s, const TimingIndex& ix, uint32_t bs, const Measure& m, const fs::path& dir,
               const std::string& prefix, ChartFiles& files);
void harris_table(const TimingIndex& ix, uint32_t bs, const fs::path& dir, const std::string& prefix,
                  ChartFiles& files);
void blocksize_chart(const Session& s, const TimingIndex& ix, const Measure& m, const fs::path& dir,
                     const std::string& prefix, ChartFiles& files);

}  // namespace rs::chart
