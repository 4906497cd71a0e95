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

}  // namespace rs
