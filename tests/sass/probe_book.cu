// The timing build of the book track: book_kernels.cuh instantiated with the NullProbe.
#include "book_kernels.cuh"

namespace rs {
template __global__ void reduceNeighbored<NullProbe>(const int*, int*, unsigned int, NullProbe);
template __global__ void reduceNeighboredLess<NullProbe>(const int*, int*, unsigned int, NullProbe);
template __global__ void reduceInterleaved<NullProbe>(const int*, int*, unsigned int, NullProbe);
template __global__ void reduceUnrolling2<NullProbe>(const int*, int*, unsigned int, NullProbe);
template __global__ void reduceUnrolling4<NullProbe>(const int*, int*, unsigned int, NullProbe);
template __global__ void reduceUnrolling8<NullProbe>(const int*, int*, unsigned int, NullProbe);
template __global__ void reduceUnrollWarps8<NullProbe>(const int*, int*, unsigned int, NullProbe);
template __global__ void reduceCompleteUnrollWarps8<NullProbe>(const int*, int*, unsigned int, NullProbe);
template __global__ void reduceCompleteUnroll<512, NullProbe>(const int*, int*, unsigned int, NullProbe);
}  // namespace rs
