// The pitfalls track: WRONG CODE, on purpose. Each kernel is a correct kernel of another track with one
// of the notes' bugs put back (DESIGN.md, "The seeds contain bugs"), so that a student can see on real
// hardware what the bug does: a wrong sum, and how often, or a right sum that compute-sanitizer still
// flags. They are never part of `--kernel all`, of the default kernel lists or of the clean-sanitizer
// runs; `reducescope pitfalls` runs each many times and counts the wrong results.
//
//   pitfall_no_volatile      Harris's reduce4 whose warpReduce takes a plain `int*`: the slides' code
//                            without `volatile` and without __syncwarp()
//   pitfall_no_syncwarp      the same with `volatile` (the slides' code as printed): no __syncwarp()
//   pitfall_no_syncthreads   Harris's reduce2 without the __syncthreads() between the tree's steps
//   pitfall_float_atomic     not a bug but a surprise: float sums added with atomicAdd in arrival order
//                            change from run to run (KernelInfo::surprise); pitfall_float_saturation, below
//
// Shared memory here is the raw `extern __shared__ int sdata[]`, not the probe's wrapper: the wrapper
// would change what the compiler may keep in registers, which is the bug. So the tracing build records
// these kernels' global loads and stores and their barriers, not their shared-memory accesses.
//
// Two more of the notes' bugs hang the GPU or are undefined behaviour, and are NOT compiled here (shown
// in docs/tracks.md as source only):
//   - `__syncthreads()` inside `if (tid < s)`: the threads with tid >= s never reach the barrier;
//   - `for (s = blockDim.x / 2; s > 0; s >> 1)`: `s >> 1` does not change s, so the loop never ends.
#pragma once

#include "probe.cuh"

namespace rs {

// The slides' last-warp unrolling WITHOUT volatile: the compiler may keep sdata[tid] in a register and
// store it once at the end, and may read a neighbour's word before the neighbour has written it.
__device__ __forceinline__ void warpReduce_plain(int* sdata, unsigned int tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

// The slides' code as printed: volatile, so every access goes to shared memory, but no __syncwarp()
// between the steps. Since Volta the lanes of a warp need not run in lockstep (CUDA C++ Programming
// Guide, "Independent Thread Scheduling"), so a lane may read a word its neighbour has not written yet.
__device__ __forceinline__ void warpReduce_volatile(volatile int* sdata, unsigned int tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

// reduce4 with a last warp `Warp` (warpReduce_plain or warpReduce_volatile). Int sums: the wrap-around of
// the additions is the CPU reference's (two's complement), as in every other track.
template <class Probe, bool Volatile>
__device__ __forceinline__ void reduce4_with(const int* g_idata, int* g_odata, unsigned int n, Probe& probe) {
  int* sdata = reinterpret_cast<int*>(dynamic_smem());
  GlobalArray<const int, Probe> in(g_idata, probe);
  GlobalArray<int, Probe> out(g_odata, probe);
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  unsigned int mySum = (i < n) ? static_cast<unsigned int>(in[i]) : 0u;
  if (i + blockDim.x < n) mySum += static_cast<unsigned int>(in[i + blockDim.x]);
  sdata[tid] = static_cast<int>(mySum);
  probe.block_barrier(__LINE__);
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] = static_cast<int>(static_cast<unsigned int>(sdata[tid]) + static_cast<unsigned int>(sdata[tid + s]));
    probe.block_barrier(__LINE__);
  }
  if (tid < 32) {
    if constexpr (Volatile) {
      warpReduce_volatile(sdata, tid);
    } else {
      warpReduce_plain(sdata, tid);
    }
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// pitfall_no_volatile -- WRONG: reduce4 whose last warp works on a plain int*.
template <class Probe>
__global__ void pitfall_no_volatile(const int* g_idata, int* g_odata, unsigned int n, Probe probe) {
  reduce4_with<Probe, false>(g_idata, g_odata, n, probe);
}

// pitfall_no_syncwarp -- WRONG (a data race): reduce4 whose last warp is the slides' volatile code,
// without __syncwarp().
template <class Probe>
__global__ void pitfall_no_syncwarp(const int* g_idata, int* g_odata, unsigned int n, Probe probe) {
  reduce4_with<Probe, true>(g_idata, g_odata, n, probe);
}

// pitfall_no_syncthreads -- WRONG: reduce2 (sequential addressing) without the barrier between the
// steps: a thread may read sdata[tid + s] before the thread that owns it has added into it.
template <class Probe>
__global__ void pitfall_no_syncthreads(const int* g_idata, int* g_odata, unsigned int n, Probe probe) {
  int* sdata = reinterpret_cast<int*>(dynamic_smem());
  GlobalArray<const int, Probe> in(g_idata, probe);
  GlobalArray<int, Probe> out(g_odata, probe);
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? in[i] : 0;
  probe.block_barrier(__LINE__);
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = static_cast<int>(static_cast<unsigned int>(sdata[tid]) + static_cast<unsigned int>(sdata[tid + s]));
    // the missing __syncthreads()
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// pitfall_float_atomic -- NOT WRONG, NOT REPRODUCIBLE: each warp adds its elements with shuffles, then lane 0
// adds the warp's sum into one global float with atomicAdd. The atomics land in the order the warps arrive,
// which changes from run to run, and float addition is not associative ((a + b) + c may differ from
// a + (b + c) in the last bits; CUDA C++ Programming Guide, "Floating-Point Standard"), so the sum's last
// bits change too. Its shuffles and atomics go through the probe, so it can be traced like any kernel.
template <class T, class Probe>
__global__ void pitfall_float_atomic(const T* g_in, T* g_sum, unsigned int n, Probe probe) {
  GlobalArray<const T, Probe> in(g_in, probe);
  GlobalVar<T, Probe> sum(g_sum, probe);
  const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = (i < n) ? in[i] : T(0);
  for (int offset = 16; offset > 0; offset /= 2) {
    v += probe.template shfl<ShuffleKind::Down>(__LINE__, 0xffffffffu, v, static_cast<uint32_t>(offset));
  }
  if ((threadIdx.x & 31u) == 0) atomicAdd(&sum, v);
}

// pitfall_float_saturation -- NOT WRONG CODE, A SURPRISE: each thread adds its element into one float with
// atomicAdd, as the lecture's sum_atomic does. float32 keeps 24 significant bits, so once the running sum
// reaches 2^24 its values are 2 apart and adding a value below 1 rounds back to it (IEEE 754 round to
// nearest): on values in [0, 1) the sum stops growing at 16777216, whatever N. Right below that N (within
// the float tolerance), wrong above it, always the same wrong sum. `reducescope pitfalls` says where it
// starts on the input it runs.
template <class T, class Probe>
__global__ void pitfall_float_saturation(const T* g_in, T* g_sum, unsigned int n, Probe probe) {
  GlobalArray<const T, Probe> in(g_in, probe);
  GlobalVar<T, Probe> sum(g_sum, probe);
  const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&sum, in[i]);
}

RS_TRACK_KERNELS(pitfalls, RS_KERNEL_INT(pitfall_no_volatile), RS_KERNEL_INT(pitfall_no_syncwarp),
                 RS_KERNEL_INT(pitfall_no_syncthreads), RS_KERNEL_FLOAT(pitfall_float_atomic),
                 RS_KERNEL_FLOAT(pitfall_float_saturation))

}  // namespace rs
