// cub::DeviceReduce::Sum, the reference the kernels are compared with. Kept in its own
// translation unit because CUB is slow to compile.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace rs {

// Bytes of temporary storage cub::DeviceReduce::Sum needs for n ints (or n floats).
size_t cub_sum_temp_bytes(size_t n);
size_t cub_sum_temp_bytes_f32(size_t n);

// Enqueues the sum of n ints (floats) at `in` into *out on `stream`.
cudaError_t cub_sum(void* temp, size_t temp_bytes, const int* in, int* out, size_t n, cudaStream_t stream);
cudaError_t cub_sum(void* temp, size_t temp_bytes, const float* in, float* out, size_t n, cudaStream_t stream);

// cub::DeviceHistogram over n bytes at `in` into hist[], the course track's reference (kernels/cub_histogram.cu):
//   letters = true: HistogramRange with the 8 levels at d_levels ('a', 'e', ..., 'y', '{'): the 7 letter
//                   bins of kernels/histogram_bins.hpp (bytes outside a..z are not counted);
//   letters = false: HistogramEven, 257 levels from 0 to 256: one bin per byte value.
// With temp == nullptr, sets temp_bytes to the storage it needs and enqueues nothing.
cudaError_t cub_histogram(void* temp, size_t& temp_bytes, const unsigned char* in, unsigned int* hist, size_t n,
                          bool letters, const int* d_levels, cudaStream_t stream);
// The 8 levels cub_histogram's letter bins need, for the caller to copy to the device.
inline constexpr int kLetterLevels[8] = {'a', 'e', 'i', 'm', 'q', 'u', 'y', '{'};

}  // namespace rs
