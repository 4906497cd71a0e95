// The course track: the lecture notes "Reduction operation ... Privatisation" (seeds/004). Each block
// reduces 2 * blockDim.x inputs in the shared partialSum[] and thread 0 writes the block's result to
// partial[blockIdx.x]; "if the number of sums is small, the host copies them back and adds them
// together" (the note's ending; Finish::HostReduce). The reduction trees:
//   naive_sum       the note's first design: thread t loads partialSum[2*t] and [2*t+1] (not coalesced)
//                   and adds at 2*t while t % stride == 0
//   coalesced_sum   the same tree, the inputs loaded as partialSum[t] and [blockDim.x + t] (coalesced)
//   better_<op>     "a better reduction kernel": stride from blockDim.x down, threads t < stride
//   farthest_point  the note's user-defined operator over 3-D points
//
// One kernel source serves every operator: the kernels take an operator policy Op (OpSum, OpMin,
// OpMax in kernels/reduce_ops.hpp, as cub::Sum / cub::Max) with its identity value, which fills the
// slots past the end of the input. Each kernel is a template on the operator, the element type T
// (int or float) and the probe (tracing/probe.cuh): the timing build (NullProbe) is the plain kernel,
// the tracing build (TraceProbe) records one block's global and shared accesses and barriers.
//
// The note's histograms follow: bytes into bins (kernels/histogram_bins.hpp: 7 letter bins of 4, or
// 256 byte bins), counted with atomicAdd, in three steps: sectioned partitioning, interleaved
// partitioning (the note's basic kernel), privatisation (the note's histo_kernel).
//
// Corrections to the note's code: bounds checks (any n >= 1, padded with the identity); the shared
// array is the launch's dynamic shared memory (2 * blockDim.x elements), since
// `__shared__ float partialSum[2*blockDim.x]` does not compile.
#pragma once

#include "histogram_bins.hpp"
#include "probe.cuh"
#include "reduce_ops.hpp"

namespace rs {

// Barriers go through the probe (a parameter of every kernel) so the tracing build sees them; in the
// timing build this is exactly __syncthreads(). #undef'd at the end of the file.
#define __syncthreads() probe.block_barrier(__LINE__)

// naive_sum -- "Simple thread block design": each thread loads 2 neighbouring inputs, so the 32
// lanes of a warp read every other word: each load instruction brings twice the sectors it uses.
// Thread t is responsible for the even index 2*t; in each step the other input comes from further
// away, and only threads with t % stride == 0 add.
template <template <class> class Op, class T, class Probe>
__global__ void naive_sum(const T* g_input, T* g_partial, unsigned int n, Probe probe) {
  GlobalArray<const T, Probe> input(g_input, probe);
  GlobalArray<T, Probe> partial(g_partial, probe);
  SharedArray<T, Probe> partialSum(probe);  // __shared__ float partialSum[2*blockDim.x];
  const Op<T> op;

  unsigned int t = threadIdx.x;
  unsigned int start = 2 * blockDim.x * blockIdx.x;
  unsigned int j = 2 * t;
  partialSum[j] = (start + j < n) ? input[start + j] : op.identity();
  partialSum[j + 1] = (start + j + 1 < n) ? input[start + j + 1] : op.identity();
  for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
    __syncthreads();
    if (t % stride == 0)
      partialSum[2 * t] = op(partialSum[2 * t], partialSum[2 * t + stride]);
  }
  if (t == 0) partial[blockIdx.x] = partialSum[0];
}

// coalesced_sum -- "Better memory coalescing": thread t loads input[start + t] and
// input[start + blockDim.x + t], so a warp reads 32 consecutive words per load. The tree is still
// the naive one: divergent, with t % stride.
template <template <class> class Op, class T, class Probe>
__global__ void coalesced_sum(const T* g_input, T* g_partial, unsigned int n, Probe probe) {
  GlobalArray<const T, Probe> input(g_input, probe);
  GlobalArray<T, Probe> partial(g_partial, probe);
  SharedArray<T, Probe> partialSum(probe);
  const Op<T> op;

  unsigned int t = threadIdx.x;
  unsigned int start = 2 * blockDim.x * blockIdx.x;
  partialSum[t] = (start + t < n) ? input[start + t] : op.identity();
  partialSum[blockDim.x + t] = (start + blockDim.x + t < n) ? input[start + blockDim.x + t] : op.identity();
  for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
    __syncthreads();
    if (t % stride == 0)
      partialSum[2 * t] = op(partialSum[2 * t], partialSum[2 * t + stride]);
  }
  if (t == 0) partial[blockIdx.x] = partialSum[0];
}

// better_sum, better_min, better_max -- "A better reduction kernel": the stride runs from
// blockDim.x down and threads t < stride work, so the active threads stay contiguous. For 1024
// threads the first 5 steps have no divergence (1024 ... 32 consecutive threads: whole warps active
// or idle); only the last 5 steps diverge, in the first warp.
template <template <class> class Op, class T, class Probe>
__global__ void better_reduce(const T* g_input, T* g_partial, unsigned int n, Probe probe) {
  GlobalArray<const T, Probe> input(g_input, probe);
  GlobalArray<T, Probe> partial(g_partial, probe);
  SharedArray<T, Probe> partialSum(probe);
  const Op<T> op;

  unsigned int t = threadIdx.x;
  unsigned int start = 2 * blockDim.x * blockIdx.x;
  partialSum[t] = (start + t < n) ? input[start + t] : op.identity();
  partialSum[blockDim.x + t] = (start + blockDim.x + t < n) ? input[start + blockDim.x + t] : op.identity();
  for (unsigned int stride = blockDim.x; stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride)
      partialSum[t] = op(partialSum[t], partialSum[t + stride]);
  }
  if (t == 0) partial[blockIdx.x] = partialSum[0];
}

// farthest_point -- the note's user-defined operator: "a custom max function for 3-D coordinate
// data, where each tuple's magnitude is its distance from the origin". The n int32 inputs are n / 3
// points (x, y, z) in a row. The shared array holds point indices (-1: no point, the identity); the
// operator reads both points and keeps the farther one (the lower index on a tie). Thread 0 writes
// the block's winner and its coordinates to partial[4*blockIdx.x ...], for the host to compare.
template <class Probe>
__global__ void farthest_point(const int* g_xyz, int* g_partial, unsigned int n, Probe probe) {
  GlobalArray<const int, Probe> xyz(g_xyz, probe);
  GlobalArray<int, Probe> partial(g_partial, probe);
  SharedArray<int, Probe> best(probe);  // __shared__ int best[2*blockDim.x];
  const unsigned int points = n / 3;

  // The operator: of points a and b, the one farther from the origin.
  auto farthest = [&](int a, int b) {
    if (a < 0 || b < 0) return a < 0 ? b : a;
    unsigned int pa = 3 * a, pb = 3 * b;
    uint64_t da = sq_norm(xyz[pa], xyz[pa + 1], xyz[pa + 2]);
    uint64_t db = sq_norm(xyz[pb], xyz[pb + 1], xyz[pb + 2]);
    return farther(da, a, db, b) ? a : b;
  };

  unsigned int t = threadIdx.x;
  unsigned int start = 2 * blockDim.x * blockIdx.x;
  best[t] = (start + t < points) ? int(start + t) : -1;
  best[blockDim.x + t] = (start + blockDim.x + t < points) ? int(start + blockDim.x + t) : -1;
  for (unsigned int stride = blockDim.x; stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride)
      best[t] = farthest(best[t], best[t + stride]);
  }
  if (t == 0) {
    int p = best[0];
    partial[4 * blockIdx.x] = p;
    for (unsigned int c = 0; c < 3; ++c) partial[4 * blockIdx.x + 1 + c] = (p < 0) ? 0 : xyz[3 * p + c];
  }
}

// ---- Histograms: each kernel counts `size` bytes of g_buffer into g_histo[Bins::kCount], which the
// host zeroes before the launch. The grid is capped at what the GPU holds at once; every thread loops.

// histo_sectioned -- "Sectioned partitioning": each thread counts one contiguous section of the
// input. Adjacent threads read bytes a whole section apart: the loads are not coalesced.
template <class Bins, class Probe>
__global__ void histo_sectioned(const unsigned char* g_buffer, long size, unsigned int* g_histo, Probe probe) {
  GlobalArray<const unsigned char, Probe, GlobalBuffer::Bytes> buffer(g_buffer, probe);
  GlobalArray<unsigned int, Probe> histo(g_histo, probe);

  long threads = (long)blockDim.x * gridDim.x;
  long section = (size + threads - 1) / threads;
  long start = (threadIdx.x + (long)blockIdx.x * blockDim.x) * section;
  for (long k = 0; k < section && start + k < size; ++k) {
    int bin = Bins::bin(buffer[start + k]);
    if (bin >= 0) atomicAdd(&histo[bin], 1u);
  }
}

// histo_basic -- "A basic text histogram kernel", interleaved partitioning: all threads read
// consecutive bytes, then all move on by the total number of threads. One global atomicAdd per byte.
template <class Bins, class Probe>
__global__ void histo_basic(const unsigned char* g_buffer, long size, unsigned int* g_histo, Probe probe) {
  GlobalArray<const unsigned char, Probe, GlobalBuffer::Bytes> buffer(g_buffer, probe);
  GlobalArray<unsigned int, Probe> histo(g_histo, probe);

  long i = threadIdx.x + (long)blockIdx.x * blockDim.x;
  // stride is total number of threads
  long stride = (long)blockDim.x * gridDim.x;
  while (i < size) {
    int bin = Bins::bin(buffer[i]);
    if (bin >= 0) atomicAdd(&histo[bin], 1u);
    i += stride;
  }
}

// histo_private -- "Shared memory atomics for histogram" (the note's histo_kernel): privatisation.
// Each block counts into its own shared histo_private[], then adds it to the global bins.
template <class Bins, class Probe>
__global__ void histo_private(const unsigned char* g_buffer, long size, unsigned int* g_histo, Probe probe) {
  GlobalArray<const unsigned char, Probe, GlobalBuffer::Bytes> buffer(g_buffer, probe);
  GlobalArray<unsigned int, Probe> histo(g_histo, probe);
  SharedArray<unsigned int, Probe> histo_private(probe);  // __shared__ unsigned int histo_private[7];

  // Initialise the bin counters in the private copy (a loop: 256 bins may outnumber the threads)
  for (unsigned int b = threadIdx.x; b < Bins::kCount; b += blockDim.x) histo_private[b] = 0;
  __syncthreads();
  // Build the private histogram
  long i = threadIdx.x + (long)blockIdx.x * blockDim.x;
  long stride = (long)blockDim.x * gridDim.x;
  while (i < size) {
    int bin = Bins::bin(buffer[i]);
    if (bin >= 0) atomicAdd(&histo_private[bin], 1u);
    i += stride;
  }
  // Wait for all other threads in the block to finish
  __syncthreads();
  for (unsigned int b = threadIdx.x; b < Bins::kCount; b += blockDim.x) {
    atomicAdd(&histo[b], histo_private[b]);
  }
}

#undef __syncthreads

RS_TRACK_KERNELS(course, RS_KERNEL_OP(naive_sum, naive_sum, OpSum), RS_KERNEL_OP(coalesced_sum, coalesced_sum, OpSum),
                 RS_KERNEL_OP(better_sum, better_reduce, OpSum), RS_KERNEL_OP(better_min, better_reduce, OpMin),
                 RS_KERNEL_OP(better_max, better_reduce, OpMax), RS_KERNEL_INT(farthest_point))

}  // namespace rs
