// cub::DeviceHistogram, the reference for the course track's histograms (cub_reference.hpp). In its own
// translation unit because CUB is slow to compile.
#include <cub/device/device_histogram.cuh>

#include "cub_reference.hpp"

namespace rs {

cudaError_t cub_histogram(void* temp, size_t& temp_bytes, const unsigned char* in, unsigned int* hist, size_t n,
                          bool letters, const int* d_levels, cudaStream_t stream) {
  const auto samples = static_cast<long long>(n);
  if (letters) {
    return cub::DeviceHistogram::HistogramRange(temp, temp_bytes, in, hist, 8, d_levels, samples, stream);
  }
  return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, in, hist, 257, 0, 256, samples, stream);
}

}  // namespace rs
