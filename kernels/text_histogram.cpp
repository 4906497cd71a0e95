#include "text_histogram.hpp"

#include <algorithm>
#include <numeric>

namespace rs {

const std::vector<uint32_t>& TextHistogram::load(uint64_t bytes) {
  if (loaded_ != bytes) {
    loaded_ = 0;
    const std::vector<uint8_t> text = make_histo_input(HistoInput::Text, bytes);
    bins_ = cpu_histogram(text, HistoBins::Letters7);
    gpu_.set_histogram_input(text, HistoBins::Letters7, to_string(HistoInput::Text));
    loaded_ = bytes;
  }
  return bins_;
}

Timing TextHistogram::time(KernelId k, unsigned block_size, uint64_t n, int samples, int warmups, bool* correct) {
  const std::vector<uint32_t>& want = load(n);
  *correct = gpu_.histogram(k, block_size) == want;
  return gpu_.time_histogram(k, block_size, samples, warmups);
}

Trace TextHistogram::trace(KernelId k, unsigned block_size, uint64_t n, bool* correct) {
  const std::vector<uint32_t>& want = load(std::min<uint64_t>(n, kHistogramTraceBytes));
  Trace t = gpu_.trace_histogram(k, block_size);
  *correct = gpu_.histogram(k, block_size) == want &&
             static_cast<uint32_t>(t.meta.result) == std::accumulate(want.begin(), want.end(), 0u);
  return t;
}

}  // namespace rs
