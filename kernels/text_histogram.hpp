// The course track's histograms as `record` and the window run them: over the embedded text (the
// note's 7 letter bins), timed over N bytes and traced over min(N, kHistogramTraceBytes) bytes, each
// result checked bin by bin against the CPU. Plain C++ over GpuReducer.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu_reduce.hpp"
#include "histogram.hpp"

namespace rs {

class TextHistogram {
 public:
  // Uses `gpu`'s histogram input (set_histogram_input), which it replaces as needed.
  explicit TextHistogram(GpuReducer& gpu) : gpu_(gpu) {}

  // Times histogram kernel `k` at `block_size` over `n` bytes of text (GpuReducer::time_histogram).
  // *correct: its bins equal the CPU's. Throws what GpuReducer throws.
  Timing time(KernelId k, unsigned block_size, uint64_t n, int samples, int warmups, bool* correct);
  // Traces block 0 over min(n, kHistogramTraceBytes) bytes of text; *correct: the timing build's bins
  // equal the CPU's and the trace's meta.result (bytes counted) equals their total.
  Trace trace(KernelId k, unsigned block_size, uint64_t n, bool* correct);

 private:
  // Uploads `bytes` bytes of text unless they are already there; returns the CPU's bins.
  const std::vector<uint32_t>& load(uint64_t bytes);

  GpuReducer& gpu_;
  uint64_t loaded_ = 0;
  std::vector<uint32_t> bins_;
};

}  // namespace rs
