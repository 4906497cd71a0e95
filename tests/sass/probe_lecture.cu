// The timing build of the lecture track: lecture_kernels.cuh instantiated for float with the NullProbe.
#include "lecture_kernels.cuh"

namespace rs {
template __global__ void sum_atomic<float, NullProbe>(const float*, float*, unsigned int, NullProbe);
template __global__ void sum_shared<float, NullProbe>(const float*, float*, unsigned int, NullProbe);
template __global__ void sum_reduce<float, NullProbe>(const float*, float*, unsigned int, NullProbe);
template __global__ void sum_reversed<float, NullProbe>(const float*, float*, unsigned int, NullProbe);
template __global__ void sum_add_first<float, NullProbe>(const float*, float*, unsigned int, NullProbe);
template __global__ void sum_last_warp<float, NullProbe>(const float*, float*, unsigned int, NullProbe);
template __global__ void sum_shuffle<float, NullProbe>(const float*, float*, unsigned int, NullProbe);
template __global__ void sum_two_step<float, NullProbe>(const float*, float*, unsigned int, NullProbe);
}  // namespace rs
