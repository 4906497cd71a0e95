#include "multigpu.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#ifndef N_
#define N_(msgid) msgid  // marks a message for po/update.sh; the views translate it
#endif

namespace rs {

double algbw_gbps(uint64_t bytes, double ms) { return ms > 0 ? static_cast<double>(bytes) / (ms * 1e-3) / 1e9 : 0; }

double busbw_factor(const std::string& op, uint32_t gpus) {
  const double g = gpus == 0 ? 1 : gpus;
  if (op == "allreduce") return 2.0 * (g - 1) / g;
  if (op == "reducescatter" || op == "allgather") return (g - 1) / g;
  return 1.0;
}

double busbw_gbps(const std::string& op, uint64_t bytes, double ms, uint32_t gpus) {
  return algbw_gbps(bytes, ms) * busbw_factor(op, gpus);
}

ChunkRange ring_chunk(uint64_t n, uint32_t gpus, uint32_t chunk) {
  if (gpus == 0) throw std::invalid_argument("ring_chunk: no GPUs");
  if (chunk >= gpus) throw std::invalid_argument("ring_chunk: chunk " + std::to_string(chunk) + " of " +
                                                 std::to_string(gpus));
  const uint64_t base = n / gpus, extra = n % gpus;
  const uint64_t begin = chunk * base + std::min<uint64_t>(chunk, extra);
  return {begin, begin + base + (chunk < extra ? 1 : 0)};
}

const char* to_string(RingPhase p) { return p == RingPhase::ReduceScatter ? "reduce-scatter" : "all-gather"; }

std::vector<RingTransfer> ring_schedule(uint32_t gpus) {
  if (gpus < 2) throw std::invalid_argument("a ring needs at least 2 GPUs, not " + std::to_string(gpus));
  std::vector<RingTransfer> v;
  const uint32_t half = gpus - 1;
  for (uint32_t step = 0; step < 2 * half; ++step) {
    const bool scatter = step < half;
    const uint32_t s = scatter ? step : step - half;
    for (uint32_t g = 0; g < gpus; ++g) {
      // reduce-scatter: (g - s) mod G; all-gather: (g + 1 - s) mod G (unsigned arithmetic kept non-negative)
      const uint32_t chunk = scatter ? (g + gpus - s) % gpus : (g + 1 + gpus - s) % gpus;
      v.push_back({step, scatter ? RingPhase::ReduceScatter : RingPhase::AllGather, g, (g + 1) % gpus, chunk});
    }
  }
  return v;
}

std::vector<uint32_t> summed_chunks(uint32_t gpus, uint32_t gpu, uint32_t steps) {
  if (gpu >= gpus) throw std::invalid_argument("summed_chunks: GPU " + std::to_string(gpu) + " of " + std::to_string(gpus));
  const std::vector<std::vector<uint64_t>> held = ring_contributions(gpus, steps);
  std::vector<uint32_t> out;
  for (uint32_t c = 0; c < gpus; ++c) {
    if (held[gpu][c] == all_gpus_mask(gpus)) out.push_back(c);
  }
  return out;
}

void ring_allreduce_cpu(std::vector<std::vector<float>>& bufs) {
  const uint32_t gpus = static_cast<uint32_t>(bufs.size());
  if (gpus < 2) throw std::invalid_argument("ring_allreduce_cpu: at least 2 buffers");
  const size_t n = bufs[0].size();
  for (const auto& b : bufs) {
    if (b.size() != n) throw std::invalid_argument("ring_allreduce_cpu: buffers of unequal length");
  }
  const std::vector<RingTransfer> sched = ring_schedule(gpus);
  for (uint32_t step = 0; step < 2 * (gpus - 1); ++step) {
    // Each step's copies land in a receive buffer first, as the GPUs' peer copies do, so that no transfer
    // reads what another transfer of the same step wrote.
    std::vector<std::vector<float>> recv(gpus);
    for (const RingTransfer& t : sched) {
      if (t.step != step) continue;
      const ChunkRange r = ring_chunk(n, gpus, t.chunk);
      recv[t.to].assign(bufs[t.from].begin() + r.begin, bufs[t.from].begin() + r.end);
    }
    for (const RingTransfer& t : sched) {
      if (t.step != step) continue;
      const ChunkRange r = ring_chunk(n, gpus, t.chunk);
      for (uint64_t i = 0; i < r.size(); ++i) {
        float& dst = bufs[t.to][r.begin + i];
        dst = t.phase == RingPhase::ReduceScatter ? dst + recv[t.to][i] : recv[t.to][i];
      }
    }
  }
}

const MultiGpuRow* SessionMultiGpu::find(const std::string& op, const std::string& method, uint64_t bytes) const {
  for (const MultiGpuRow& r : rows) {
    if (r.op == op && r.method == method && r.bytes == bytes) return &r;
  }
  return nullptr;
}

std::vector<uint64_t> SessionMultiGpu::sizes(const std::string& op) const {
  std::vector<uint64_t> v;
  for (const MultiGpuRow& r : rows) {
    if (r.op == op) v.push_back(r.bytes);
  }
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

std::string multigpu_method_text(const std::string& op, const std::string& method) {
  if (op == "allreduce" && method == "nccl") return N_("ncclAllReduce (NCCL chooses ring or tree, in chunks, one kernel)");
  if (op == "allreduce" && method == "ring") {
    return N_("hand ring: reduce-scatter + all-gather, 2(G-1) steps of cudaMemcpyPeerAsync + an add kernel");
  }
  if (op == "allreduce" && method == "naive") return N_("naive: copy all to GPU 0, add there, copy the sum back");
  if (op == "sum" && method == "nccl") return N_("each GPU reduces its shard (single_pass_atomic, 1024), then ncclReduce");
  if (op == "sum" && method == "one_gpu") return N_("one GPU reduces all N (single_pass_atomic, 1024)");
  if (op == "copy") return N_("cudaMemcpyPeerAsync GPU 0 -> GPU 1");
  if (op == "copy_bidir") return N_("cudaMemcpyPeerAsync 0 -> 1 and 1 -> 0 at once (each way)");
  return op + " " + method;
}

std::string bytes_label(uint64_t bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  double v = static_cast<double>(bytes);
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char b[48];
  if (u == 0) std::snprintf(b, sizeof b, "%llu B", static_cast<unsigned long long>(bytes));
  else if (v == static_cast<double>(static_cast<uint64_t>(v))) std::snprintf(b, sizeof b, "%.0f %s", v, units[u]);
  else std::snprintf(b, sizeof b, "%.1f %s", v, units[u]);
  return b;
}

uint64_t all_gpus_mask(uint32_t gpus) { return gpus >= 64 ? ~uint64_t{0} : (uint64_t{1} << gpus) - 1; }

std::vector<std::vector<uint64_t>> ring_contributions(uint32_t gpus, uint32_t steps) {
  if (gpus < 2 || gpus > 64) throw std::invalid_argument("ring_contributions: 2 to 64 GPUs, not " + std::to_string(gpus));
  std::vector<std::vector<uint64_t>> held(gpus, std::vector<uint64_t>(gpus));
  for (uint32_t g = 0; g < gpus; ++g) {
    for (uint32_t c = 0; c < gpus; ++c) held[g][c] = uint64_t{1} << g;
  }
  const std::vector<RingTransfer> sched = ring_schedule(gpus);
  for (uint32_t step = 0; step < steps && step < 2 * (gpus - 1); ++step) {
    std::vector<std::vector<uint64_t>> next = held;  // every transfer of a step reads the state before it
    for (const RingTransfer& t : sched) {
      if (t.step != step) continue;
      const uint64_t sent = held[t.from][t.chunk];
      next[t.to][t.chunk] = t.phase == RingPhase::ReduceScatter ? next[t.to][t.chunk] | sent : sent;
    }
    held = std::move(next);
  }
  return held;
}

RingSpan ring_step_span(const RingRecording& r, uint32_t step) {
  RingSpan s;
  bool any = false;
  for (const RingEvent& e : r.events) {
    if (e.step != step) continue;
    const double end = std::max(e.copy_end_us, e.add_end_us);
    s.start_us = any ? std::min(s.start_us, e.copy_start_us) : e.copy_start_us;
    s.end_us = any ? std::max(s.end_us, end) : end;
    any = true;
  }
  return s;
}

}  // namespace rs
