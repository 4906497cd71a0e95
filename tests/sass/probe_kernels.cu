// The timing build's kernels: reduce_kernels.cuh instantiated with the NullProbe.
#include "reduce_kernels.cuh"

namespace rs {
template __global__ void reduce0<NullProbe>(const int*, int*, unsigned int, NullProbe);
template __global__ void reduce1<NullProbe>(const int*, int*, unsigned int, NullProbe);
template __global__ void reduce2<NullProbe>(const int*, int*, unsigned int, NullProbe);
template __global__ void reduce3<NullProbe>(const int*, int*, unsigned int, NullProbe);
template __global__ void reduce4<NullProbe>(const int*, int*, unsigned int, NullProbe);
template __global__ void reduce5<256, NullProbe>(const int*, int*, unsigned int, NullProbe);
template __global__ void reduce6<256, NullProbe>(const int*, int*, unsigned int, NullProbe);
}  // namespace rs
