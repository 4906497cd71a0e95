// reduce0 ... reduce6 from Mark Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007),
// written once against a probe (tracing/probe.cuh) and built twice: the timing build
// (NullProbe: plain shared memory) and the tracing build (TraceProbe: records one block).
//
// Each kernel reduces `n` ints at g_idata to one partial sum per block at g_odata; the host
// launches it again on the partial sums until one value is left (the slides' "kernel
// decomposition"). int32 adds wrap (two's complement), like the CPU reference; sums kept in
// registers are `unsigned int` because signed overflow is undefined in C++ and unsigned
// overflow wraps, with the same bits.
//
// Corrections to the code as the slides and their copies print it:
//   - inputs are bounds-checked, so any n >= 1 works (the slides assume a multiple of the tile);
//   - `s >>= 1`, not `s >> 1`;
//   - every __syncthreads() is reached by all threads of the block, never inside `if (tid < s)`;
//   - warpReduce is a template on blockSize and synchronises with __syncwarp(): since Volta,
//     lanes of a warp are not guaranteed to run in lockstep (CUDA C++ Programming Guide,
//     "Independent Thread Scheduling"), so the slides' volatile-only version is a race.
//   - the input is never modified.
#pragma once

#include "probe.cuh"

namespace rs {

// Barriers go through the shared-memory wrapper so the tracing build can count barrier
// epochs. In the timing build they are exactly __syncthreads() and __syncwarp().
#define __syncthreads() sdata.barrier()
#define __syncwarp() sdata.warp_barrier()

// reduce0 -- Reduction #1: interleaved addressing.
// Problem: highly divergent warps are very inefficient, and the % operator is very slow.
template <class Probe>
__global__ void reduce0(const int* g_idata, int* g_odata, unsigned int n, Probe probe) {
  SharedArray<int, Probe> sdata(probe);  // extern __shared__ int sdata[];

  // each thread loads one element from global to shared mem
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();

  // do reduction in shared mem
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  // write result for this block to global mem
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// reduce1 -- Reduction #2: interleaved addressing with a strided index.
// Fixes: the divergent branch of reduce0 (active threads are now contiguous).
// New problem: shared memory bank conflicts.
template <class Probe>
__global__ void reduce1(const int* g_idata, int* g_odata, unsigned int n, Probe probe) {
  SharedArray<int, Probe> sdata(probe);

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();

  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    unsigned int index = 2 * s * tid;
    if (index < blockDim.x) {
      sdata[index] += sdata[index + s];
    }
    __syncthreads();
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// reduce2 -- Reduction #3: sequential addressing.
// Fixes: bank conflicts (sequential addressing is conflict free).
// Problem: half of the threads are idle on the first loop iteration.
template <class Probe>
__global__ void reduce2(const int* g_idata, int* g_odata, unsigned int n, Probe probe) {
  SharedArray<int, Probe> sdata(probe);

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// reduce3 -- Reduction #4: first add during load.
// Fixes: idle threads; each thread loads two elements and adds them (half as many blocks).
// Problem: instruction overhead (address arithmetic and loop overhead) now limits it.
template <class Probe>
__global__ void reduce3(const int* g_idata, int* g_odata, unsigned int n, Probe probe) {
  SharedArray<int, Probe> sdata(probe);

  // perform first level of reduction, reading from global memory, writing to shared memory
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  unsigned int mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
  sdata[tid] = mySum;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// The last six steps, done by one warp without __syncthreads() ("Unrolling the Last Warp").
// Needs blockSize >= 64: the first step reads sdata[tid + 32].
// Each step reads, waits for the whole warp (__syncwarp), then writes, then waits again.
template <unsigned int blockSize, class Smem>
__device__ __forceinline__ void warpReduce(Smem& sdata, unsigned int tid) {
  unsigned int v = sdata[tid];
  if (blockSize >= 64) { v += sdata[tid + 32]; __syncwarp(); sdata[tid] = v; __syncwarp(); }
  if (blockSize >= 32) { v += sdata[tid + 16]; __syncwarp(); sdata[tid] = v; __syncwarp(); }
  if (blockSize >= 16) { v += sdata[tid + 8]; __syncwarp(); sdata[tid] = v; __syncwarp(); }
  if (blockSize >= 8) { v += sdata[tid + 4]; __syncwarp(); sdata[tid] = v; __syncwarp(); }
  if (blockSize >= 4) { v += sdata[tid + 2]; __syncwarp(); sdata[tid] = v; __syncwarp(); }
  if (blockSize >= 2) { v += sdata[tid + 1]; __syncwarp(); sdata[tid] = v; __syncwarp(); }
}

// reduce4 -- Reduction #5: unroll the last warp.
// Fixes: when s <= 32 only one warp is left, so the last six iterations need neither
// __syncthreads() nor `if (tid < s)`. This saves work in all warps, not just the last one.
// Costs: needs at least 64 threads per block.
template <class Probe>
__global__ void reduce4(const int* g_idata, int* g_odata, unsigned int n, Probe probe) {
  SharedArray<int, Probe> sdata(probe);

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  unsigned int mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
  sdata[tid] = mySum;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid < 32) warpReduce<64>(sdata, tid);

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// reduce5 -- Reduction #6: completely unrolled.
// Fixes: the loop itself. The block size is a template parameter, so every `if (blockSize
// >= ...)` is decided at compile time and the tree is straight-line code.
// Costs: one instantiation per block size.
template <unsigned int blockSize, class Probe>
__global__ void reduce5(const int* g_idata, int* g_odata, unsigned int n, Probe probe) {
  SharedArray<int, Probe> sdata(probe);

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  unsigned int mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockSize < n) mySum += g_idata[i + blockSize];
  sdata[tid] = mySum;
  __syncthreads();

  if (blockSize >= 1024) { if (tid < 512) { sdata[tid] += sdata[tid + 512]; } __syncthreads(); }
  if (blockSize >= 512) { if (tid < 256) { sdata[tid] += sdata[tid + 256]; } __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) { sdata[tid] += sdata[tid + 128]; } __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) { sdata[tid] += sdata[tid + 64]; } __syncthreads(); }

  if (tid < 32) warpReduce<blockSize>(sdata, tid);

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// reduce6 -- Reduction #7: multiple elements per thread (algorithm cascading).
// Fixes: too little work per thread. Brent's theorem: each thread should add O(log n)
// elements sequentially, so the grid is capped (enough blocks to fill the GPU) and each
// thread walks the input with a grid-stride loop, which keeps loads coalesced.
// Unlike the slide, the running sum stays in a register: one shared store per thread.
template <unsigned int blockSize, class Probe>
__global__ void reduce6(const int* g_idata, int* g_odata, unsigned int n, Probe probe) {
  SharedArray<int, Probe> sdata(probe);

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  unsigned int gridSize = blockSize * 2 * gridDim.x;
  unsigned int mySum = 0;
  while (i < n) {
    mySum += g_idata[i];
    if (i + blockSize < n) mySum += g_idata[i + blockSize];
    i += gridSize;
  }
  sdata[tid] = mySum;
  __syncthreads();

  if (blockSize >= 1024) { if (tid < 512) { sdata[tid] += sdata[tid + 512]; } __syncthreads(); }
  if (blockSize >= 512) { if (tid < 256) { sdata[tid] += sdata[tid + 256]; } __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) { sdata[tid] += sdata[tid + 128]; } __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) { sdata[tid] += sdata[tid + 64]; } __syncthreads(); }

  if (tid < 32) warpReduce<blockSize>(sdata, tid);

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

#undef __syncthreads
#undef __syncwarp

// Bindings for the host dispatch (kernels/dispatch.cuh): the track's kernels, in order.
RS_TRACK_KERNELS(harris, RS_KERNEL_INT(reduce0), RS_KERNEL_INT(reduce1), RS_KERNEL_INT(reduce2),
                 RS_KERNEL_INT(reduce3), RS_KERNEL_INT(reduce4), RS_KERNEL_INT_BS(reduce5), RS_KERNEL_INT_BS(reduce6))

}  // namespace rs
