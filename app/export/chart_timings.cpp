// The index of a session's timings (validated; kernels in slide order, each with the style of its place
// in its track, as the window draws it), a timing as a CSV row, the caption, and the two measures
// (median time with CUB's line, bandwidth with the peak and the copy ceiling).
#include "chart_timings.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "kernel_info.hpp"

namespace rs::chart {

TimingIndex index_timings(const Session& s) {
  if (s.timings.empty()) throw ExportError("the session has no timings: nothing to chart");
  std::map<std::string, size_t> rank;  // slide position for table kernels; others rank after
  const auto& table = kernel_table();
  for (size_t i = 0; i < table.size(); ++i) rank[table[i].name] = i;

  TimingIndex ix;
  for (const SessionTiming& t : s.timings) {
    const auto ok = [](double v) { return std::isfinite(v) && v >= 0; };
    if (t.block_size == 0 || !(t.median_ms > 0) || !ok(t.median_ms) || !ok(t.min_ms) || !ok(t.max_ms) ||
        !ok(t.gbps) || !ok(t.pct_peak))
      throw ExportError("invalid timing for " + t.kernel + " at block size " + std::to_string(t.block_size) +
                        ": the block size and median must be positive, the other numbers finite and not negative");
    if (std::find(ix.kernels.begin(), ix.kernels.end(), t.kernel) == ix.kernels.end()) ix.kernels.push_back(t.kernel);
    ix.block_sizes.push_back(t.block_size);
  }
  std::sort(ix.kernels.begin(), ix.kernels.end(), [&](const std::string& a, const std::string& b) {
    const size_t ra = rank.count(a) ? rank[a] : table.size(), rb = rank.count(b) ? rank[b] : table.size();
    return ra != rb ? ra < rb : a < b;
  });
  std::sort(ix.block_sizes.begin(), ix.block_sizes.end());
  ix.block_sizes.erase(std::unique(ix.block_sizes.begin(), ix.block_sizes.end()), ix.block_sizes.end());

  // Style: the kernel's place in its track, so the kernels of one track all look different and
  // each keeps the colour the window gives it (app/gui/timing_panel.cpp, kernel_color).
  std::map<std::string, size_t> in_track;
  for (const TrackInfo& tr : track_table()) {
    const auto ks = track_kernels(tr.id);
    for (size_t i = 0; i < ks.size(); ++i) in_track[kernel_info(ks[i]).name] = i;
  }
  size_t next_style = 7;  // kernels of no track: after Harris's seven, cycling through the palette
  for (const std::string& k : ix.kernels) ix.style.push_back(in_track.count(k) ? in_track[k] : next_style++);
  for (const SessionTiming& t : s.timings) {
    const size_t k = std::find(ix.kernels.begin(), ix.kernels.end(), t.kernel) - ix.kernels.begin();
    ix.at[{k, t.block_size}] = &t;
  }
  return ix;
}

std::string timing_row(const SessionTiming& t) {
  return csv_field(t.kernel) + "," + std::to_string(t.block_size) + "," + csv_num(t.median_ms) + "," +
         csv_num(t.min_ms) + "," + csv_num(t.max_ms) + "," + std::to_string(t.samples) + "," + csv_num(t.gbps) + "," +
         csv_num(t.pct_peak) + "," + (t.correct ? "true" : "false") + "\n";
}

std::vector<std::string> caption(const SessionMeta& m, uint32_t block_size) {
  std::string line = m.gpu.empty() ? "unknown GPU" : m.gpu;
  line += " · N = " + group_thousands(std::to_string(m.n)) + " int32";
  if (!m.pattern.empty()) line += " · pattern: " + m.pattern;
  if (block_size) line += " · block size " + std::to_string(block_size) + " threads";
  if (!m.date.empty()) line += " · recorded " + m.date;
  return {line, m.method.empty() ? "timing method not recorded" : m.method};
}

namespace {

std::vector<RefLine> cub_ref(const SessionMeta& m) {
  if (m.cub_ms > 0) return {{m.cub_ms, "CUB DeviceReduce::Sum", sig3(m.cub_ms) + " ms"}};
  return {};
}

std::vector<RefLine> bandwidth_refs(const SessionMeta& m) {
  std::vector<RefLine> r;
  if (m.peak_gbps > 0) r.push_back({m.peak_gbps, "theoretical peak", fixed(m.peak_gbps, 0) + " GB/s"});
  if (m.copy_gbps > 0) r.push_back({m.copy_gbps, "copy ceiling", fixed(m.copy_gbps, 0) + " GB/s"});
  return r;
}

}  // namespace

// Percent of peak for labels: whole percents, one decimal below 10 %.
std::string pct_label(double pct) { return fixed(pct, pct < 10 ? 1 : 0) + "% of peak"; }

const Measure kTime = {"time", "Median time", "median time (ms)",
                       [](const SessionTiming& t) { return t.median_ms; }, cub_ref, true, false};
const Measure kBandwidth = {"bandwidth", "Effective bandwidth", "effective bandwidth (GB/s) = N × 4 B / median",
                            [](const SessionTiming& t) { return t.gbps; }, bandwidth_refs, false, true};

// ", lecture track" for the file prefix "lecture_"; "" for none.
std::string track_suffix(const std::string& prefix) {
  if (prefix.empty()) return "";
  std::string out = ", ";
  out.append(prefix, 0, prefix.size() - 1);
  out += " track";
  return out;
}

}  // namespace rs::chart
