// The pitfalls track's host dispatch table: the instantiations of kernels/pitfall_kernels.cuh, listed by
// the RS_TRACK_KERNELS line at the end of that file. One translation unit per track keeps builds
// parallel.
#include "dispatch.cuh"
#include "pitfall_kernels.cuh"
