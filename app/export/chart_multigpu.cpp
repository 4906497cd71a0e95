// export_multigpu(): the multigpu track's all-reduce bus bandwidth against the buffer size (log2 axis, "4 KiB"
// labels) for NCCL, the hand ring and the naive gather, with the P2P copy GPU 0 -> 1 (one way) as a dashed
// reference line, and the CSV of every row of the recording (tracing/multigpu.hpp).
#include "charts.hpp"

#include <algorithm>
#include <set>

#include "chart_spec.hpp"

namespace rs {

using namespace chart;

namespace {

// The title's GPUs: "2 × NVIDIA H200", or each name where they differ.
std::string gpus_text(const SessionMultiGpu& m) {
  std::vector<std::string> names;
  for (const std::string& n : m.gpu_names) {
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  }
  std::string s = std::to_string(m.gpus) + " × ";
  for (size_t i = 0; i < names.size(); ++i) s += (i ? " + " : "") + names[i];
  return names.empty() ? s + "unknown GPU" : s;
}

}  // namespace

ChartFiles export_multigpu(const SessionMultiGpu& m, const std::string& dir) {
  const std::vector<uint64_t> sizes = m.sizes("allreduce");
  if (sizes.empty()) throw ExportError("the multi-GPU recording has no all-reduce rows to draw");
  ChartFiles files;
  const fs::path d = make_folder(dir);

  ChartSpec c;
  c.title = "All-reduce busbw: " + gpus_text(m) + (m.link.empty() ? "" : ", " + m.link) + ", NCCL " + m.nccl_version;
  c.caption = {"busbw = algbw × 2(G−1)/G (nccl-tests, doc/PERFORMANCE.md), algbw = S / t: S the float32 buffer each "
               "GPU holds, t one call's median time; busbw is what each link carries, so it compares with the P2P "
               "copy (cudaMemcpyPeerAsync GPU 0 → 1, bytes / time) whatever G is. GB/s = 1e9 bytes/s." +
                   std::string(m.peer_access ? "" : " No peer access: copies staged through host memory.") +
                   (m.date.empty() ? "" : " Recorded " + m.date + "."),
               "NCCL: " + multigpu_method_text("allreduce", "nccl") + "; " + multigpu_method_text("allreduce", "ring") +
                   "; " + multigpu_method_text("allreduce", "naive") + ". Method: " + m.method};
  c.x_title = "bytes per GPU (log2 scale)";
  c.y_title = "busbw (GB/s)";
  std::set<uint64_t> ticks(sizes.begin(), sizes.end());
  for (uint64_t b : m.sizes("copy")) ticks.insert(b);
  for (uint64_t b : ticks) {
    c.x_ticks.push_back(b);
    c.x_tick_labels.push_back(bytes_label(b));
  }
  // Styles: the kernel palette's orange, blue and purple; the copy in the reference lines' grey, dashed.
  const struct {
    const char *op, *method, *name;
    size_t style;
  } lines[] = {{"allreduce", "nccl", "NCCL all-reduce", 0},
               {"allreduce", "ring", "hand ring all-reduce", 3},
               {"allreduce", "naive", "naive gather to GPU 0", 5},
               {"copy", "p2p", "P2P copy GPU 0 → 1, one way (bytes / time)", 0}};
  for (const auto& spec : lines) {
    Line l{spec.name, spec.style, {}, std::string(spec.op) == "copy"};
    for (uint64_t b : ticks) {
      const MultiGpuRow* r = m.find(spec.op, spec.method, b);
      if (r && r->busbw_gbps > 0) l.points.push_back({double(b), r->busbw_gbps, !r->correct});
    }
    if (!l.points.empty()) c.lines.push_back(l);
  }

  std::string csv = "op,method,bytes,median_ms,min_ms,max_ms,samples,algbw_gbps,busbw_gbps,correct\n";
  for (const MultiGpuRow& r : m.rows) {
    csv += csv_field(r.op) + "," + csv_field(r.method) + "," + std::to_string(r.bytes) + "," + csv_num(r.median_ms) +
           "," + csv_num(r.min_ms) + "," + csv_num(r.max_ms) + "," + std::to_string(r.samples) + "," +
           csv_num(r.algbw_gbps) + "," + csv_num(r.busbw_gbps) + "," + (r.correct ? "true" : "false") + "\n";
  }
  write_chart(d, "multigpu-busbw", c, csv, files);
  return files;
}

}  // namespace rs
