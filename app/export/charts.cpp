// export_charts(): every chart of a session, one set per track (the first track's under the plain names,
// every other track's with its id as a prefix), at one block size or all of them. Each chart is first
// described as data (a ChartSpec, chart_spec.hpp), then drawn by one renderer onto PNG, SVG and PDF
// surfaces (chart_render.cpp, chart_files.cpp), with the CSV of the rows it plots beside it.
#include "charts.hpp"

#include <algorithm>
#include <map>

#include "chart_timings.hpp"
#include "kernel_info.hpp"

namespace rs {

using namespace chart;

ChartFiles export_charts(const Session& s, const std::string& dir, uint32_t block_size) {
  const TimingIndex ix = index_timings(s);
  if (block_size != 0 && std::find(ix.block_sizes.begin(), ix.block_sizes.end(), block_size) == ix.block_sizes.end())
    throw ExportError("the session has no timings at block size " + std::to_string(block_size) +
                      "; it has block sizes " + join(ix.block_sizes, ", "));

  make_folder(dir);

  // One set of files per track: the first track's (Harris's) under the plain names, every other
  // track's with its id as a prefix ("lecture_kernels_time_bs256.png"); kernels of no known track
  // go with the first.
  std::map<std::string, Session> by_track;
  std::vector<std::string> order;
  for (const SessionTiming& t : s.timings) {
    const KernelInfo* k = find_kernel(t.kernel);
    const std::string track = k && k->track != track_table().front().id ? k->track : "";
    auto [it, added] = by_track.try_emplace(track);
    if (added) {
      it->second.meta = s.meta;
      order.push_back(track);
    }
    it->second.timings.push_back(t);
  }
  std::sort(order.begin(), order.end(), [](const std::string& a, const std::string& b) {
    auto pos = [](const std::string& id) {
      const auto& tr = track_table();
      for (size_t i = 0; i < tr.size(); ++i) {
        if (id == tr[i].id) return i;
      }
      return size_t{0};  // "": the first track
    };
    return pos(a) < pos(b);
  });
  ChartFiles files;
  for (const std::string& track : order) {
    const Session& part = by_track.at(track);
    const TimingIndex tix = index_timings(part);
    const std::string prefix = track.empty() ? "" : track + "_";
    const std::vector<uint32_t> sizes = block_size ? std::vector<uint32_t>{block_size} : tix.block_sizes;
    for (uint32_t bs : sizes) {
      if (std::find(tix.block_sizes.begin(), tix.block_sizes.end(), bs) == tix.block_sizes.end()) continue;
      bar_chart(part, tix, bs, kTime, dir, prefix, files);
      bar_chart(part, tix, bs, kBandwidth, dir, prefix, files);
      harris_table(tix, bs, dir, prefix, files);
    }
    blocksize_chart(part, tix, kTime, dir, prefix, files);
    blocksize_chart(part, tix, kBandwidth, dir, prefix, files);
  }
  return files;
}

ChartFiles export_session(const Session& s, const std::string& dir, uint32_t block_size) {
  ChartFiles files;
  const auto add = [&](ChartFiles more) {
    for (std::string& p : more.paths) files.paths.push_back(std::move(p));
  };
  // Timing charts where there are timings, and for a session with nothing else, whose error says "no timings".
  if (!s.timings.empty() || (s.sweep.empty() && s.multigpu.empty())) add(export_charts(s, dir, block_size));
  if (!s.sweep.empty()) add(export_sweep(s.sweep, dir, s.sweep.method));
  if (!s.multigpu.empty()) add(export_multigpu(s.multigpu, dir));
  return files;
}

}  // namespace rs
