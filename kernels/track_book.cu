// The book track's host dispatch table: the instantiations of kernels/book_kernels.cuh, listed by
// the RS_TRACK_KERNELS line at the end of that file. One translation unit per track keeps builds
// parallel.
#include "dispatch.cuh"
#include "book_kernels.cuh"
