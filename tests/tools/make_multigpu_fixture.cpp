// Writes tests/fixtures/multigpu-synthetic.rssession: a SYNTHETIC multi-GPU recording (its method says so) for
// the replay tests of the window and the page when no recording of the G-GPU case exists (G = 2 by default;
// `make_multigpu_fixture OUT [G]`). Its figures follow a latency + size / bandwidth model shaped like the
// 2 x H200 figures in issue 21 (P2P 395 GB/s one way); they are test input, not measurements.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include "session.hpp"
using namespace rs;
int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: make_multigpu_fixture OUT.rssession [G]\n");
    return 2;
  }
  const uint32_t G = argc > 2 ? static_cast<uint32_t>(std::atoi(argv[2])) : 2;
  Session s;
  s.meta.gpu = "NVIDIA H200"; s.meta.compute_capability = "9.0"; s.meta.cuda_version = "13.0";
  s.meta.date = "2026-11-24T17:00:00Z"; s.meta.tool_version = "dev"; s.meta.pattern = "random";
  s.meta.method = "SYNTHETIC test input, not measured"; s.meta.n = 1 << 24; s.meta.samples = 20; s.meta.warmups = 3;
  SessionMultiGpu& m = s.multigpu;
  m.gpus = G; m.gpu_names.assign(G, "NVIDIA H200");
  m.topology = "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tNV18\t0-31\t0\nGPU1\tNV18\t X \t0-31\t0\n";
  m.link = "NV18"; m.nccl_version = "2.28.9"; m.method = "SYNTHETIC test input (tests/tools/make_multigpu_fixture.cpp), not measured"; m.date = s.meta.date;
  for (uint64_t b = 4096; b <= (1ull << 30); b *= 4) {
    auto add = [&](const char* op, const char* meth, double lat_us, double bw) {
      double ms = (lat_us + b / bw / 1e3) / 1e3;
      MultiGpuRow r{op, meth, b, std::string(op) == "allreduce" ? G : 2, ms, ms * 0.98, ms * 1.05, 20, algbw_gbps(b, ms), busbw_gbps(op, b, ms, std::string(op) == "allreduce" ? G : 2), true};
      m.rows.push_back(r);
    };
    add("copy", "p2p", 8, 395); add("copy_bidir", "p2p", 9, 389);
    add("allreduce", "nccl", 12, 330); add("allreduce", "ring", 40, 340); add("allreduce", "naive", 45, 180);
  }
  for (uint64_t n : {1ull << 20, 1ull << 24, 1ull << 28}) {
    double one = (5 + n * 4 / 3000.0 / 1e3) / 1e3, two = (25 + n * 4 / 6000.0 / 1e3) / 1e3;
    m.rows.push_back({"sum", "one_gpu", n * 4, 1, one, one * .99, one * 1.02, 20, algbw_gbps(n * 4, one), algbw_gbps(n * 4, one), true});
    m.rows.push_back({"sum", "nccl", n * 4, G, two, two * .99, two * 1.02, 20, algbw_gbps(n * 4, two), algbw_gbps(n * 4, two), true});
  }
  for (uint64_t b : {1ull << 20, 256ull << 20}) {
    RingRecording ring;
    ring.bytes = b;
    ring.gpus = G;
    const double chunk = static_cast<double>(b) / G, copy_us = 6 + chunk / 395e3, add_us = 4 + chunk * 3 / 4.0e6;
    double step_start = 3;
    for (uint32_t step = 0; step < 2 * (G - 1); ++step) {
      double step_end = step_start;
      for (const RingTransfer& tr : ring_schedule(G)) {
        if (tr.step != step) continue;
        const double st = step_start + tr.from * 1.5;
        RingEvent e{tr.step, tr.phase, tr.from, tr.to, tr.chunk, static_cast<uint64_t>(chunk), st, st + copy_us, 0, 0};
        if (tr.phase == RingPhase::ReduceScatter) {
          e.add_start_us = e.copy_end_us + 2;
          e.add_end_us = e.add_start_us + add_us;
        }
        step_end = std::max(step_end, std::max(e.copy_end_us, e.add_end_us));
        ring.events.push_back(e);
      }
      step_start = step_end + 3;  // the next copy waits for the neighbour's add (an event wait)
    }
    ring.total_us = step_start - 3;
    m.rings.push_back(ring);
  }
  save_session(s, argv[1]);
  std::printf("wrote %s\n", argv[1]);
}
