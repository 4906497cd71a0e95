#include <cub/device/device_reduce.cuh>

#include "cub_reference.hpp"

namespace rs {

size_t cub_sum_temp_bytes(size_t n) {
  size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const int*>(nullptr), static_cast<int*>(nullptr),
                         static_cast<int>(n));
  return bytes;
}

size_t cub_sum_temp_bytes_f32(size_t n) {
  size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float*>(nullptr), static_cast<float*>(nullptr),
                         static_cast<int>(n));
  return bytes;
}

cudaError_t cub_sum(void* temp, size_t temp_bytes, const int* in, int* out, size_t n, cudaStream_t stream) {
  return cub::DeviceReduce::Sum(temp, temp_bytes, in, out, static_cast<int>(n), stream);
}

cudaError_t cub_sum(void* temp, size_t temp_bytes, const float* in, float* out, size_t n, cudaStream_t stream) {
  return cub::DeviceReduce::Sum(temp, temp_bytes, in, out, static_cast<int>(n), stream);
}

}  // namespace rs
