// The lecture track: "Reduction Problem" lecture notes (seeds/001), a sum of 16M elements from
// one atomicAdd per element down to a two-step kernel decomposition. Names follow the note's
// files (sum_atomic.cu, sum_shared.cu, sum_reduce.cu) and headings.
//
// Each kernel is a template on the element type T (int or float) and the probe (tracing/probe.cuh):
// the timing build (NullProbe) is the plain kernel; the tracing build (TraceProbe) records one
// block's shared and global accesses, atomics, shuffles and barriers. Every kernel reads `num`
// elements at g_in. Most finish with one atomicAdd into a one-element buffer g_sum, which the
// host zeroes before the launch (the note's `__device__ float dev_sum = 0.0f;`); sum_two_step
// writes one partial per block to g_partial and is launched a second time on those.
//
// Corrections to the note's code: bounds checks (any num >= 1); warpSum synchronises with
// __syncwarp() (since Volta the lanes of a warp need not run in lockstep: CUDA C++ Programming
// Guide, "Independent Thread Scheduling"); int sums wrap like the CPU reference (Acc<T>).
#pragma once

#include "probe.cuh"

namespace rs {

// Barriers and shuffles go through the probe (a parameter of every kernel) so the tracing build
// sees them; in the timing build each is exactly the intrinsic. #undef'd at the end of the file.
#define __syncthreads() probe.block_barrier(__LINE__)
#define __syncwarp() probe.warp_barrier(__LINE__)
#define __shfl_xor_sync(...) probe.template shfl<ShuffleKind::Xor>(__LINE__, __VA_ARGS__)

// sum_atomic -- atomic op: every thread adds its element to one global sum.
// 16M threads, 16M atomicAdd on the same address: the hardware serialises them.
template <class T, class Probe>
__global__ void sum_atomic(const T* g_in, T* g_sum, unsigned int num, Probe probe) {
  GlobalArray<const T, Probe> pData(g_in, probe);  // const float* pData
  GlobalVar<T, Probe> dev_sum(g_sum, probe);       // __device__ float dev_sum = 0.0f;

  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < num) {
    atomicAdd(&dev_sum, pData[i]);
  }
}

// sum_shared -- shared atomic op: each block adds into its own s_sum (1,024 additions per
// block), then one atomicAdd per block (16K of them) into the global sum.
template <class T, class Probe>
__global__ void sum_shared(const T* g_in, T* g_sum, unsigned int num, Probe probe) {
  GlobalArray<const T, Probe> pData(g_in, probe);
  GlobalVar<T, Probe> dev_sum(g_sum, probe);
  SharedArray<T, Probe> s_sum(probe);              // __shared__ float s_sum;  (as s_sum[0])

  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + tx;
  if (tx == 0) s_sum[0] = 0;
  __syncthreads();
  if (i < num) {
    atomicAdd_block(&s_sum[0], pData[i]);
  }
  __syncthreads();
  if (tx == 0) {
    atomicAdd(&dev_sum, s_sum[0]);
  }
}

// sum_reduce -- reduction: a tournament in shared memory with interleaved addressing
// (stride 1, 2, 4, ...; threads with tx % (2 * stride) == 0 work), then one atomicAdd per block.
template <class T, class Probe>
__global__ void sum_reduce(const T* g_in, T* g_sum, unsigned int num, Probe probe) {
  GlobalArray<const T, Probe> pData(g_in, probe);
  GlobalVar<T, Probe> dev_sum(g_sum, probe);
  SharedArray<T, Probe> s_data(probe);             // extern __shared__ float s_data[];

  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + tx;
  s_data[tx] = (i < num) ? pData[i] : T(0);
  __syncthreads();
  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
    if (tx % (2 * stride) == 0) {
      s_data[tx] += s_data[tx + stride];
    }
    __syncthreads();
  }
  if (tx == 0) {
    atomicAdd(&dev_sum, s_data[0]);
  }
}

// sum_reversed -- reversed reduction: the stride runs backwards, so the working threads
// (tx < stride) stay consecutive and whole warps finish early.
template <class T, class Probe>
__global__ void sum_reversed(const T* g_in, T* g_sum, unsigned int num, Probe probe) {
  GlobalArray<const T, Probe> pData(g_in, probe);
  GlobalVar<T, Probe> dev_sum(g_sum, probe);
  SharedArray<T, Probe> s_data(probe);

  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + tx;
  s_data[tx] = (i < num) ? pData[i] : T(0);
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tx < stride) {
      s_data[tx] += s_data[tx + stride];
    }
    __syncthreads();
  }
  if (tx == 0) {
    atomicAdd(&dev_sum, s_data[0]);
  }
}

// sum_add_first -- add first: each thread loads two elements and adds them, so half as many
// threads (blocks) do the same work.
template <class T, class Probe>
__global__ void sum_add_first(const T* g_in, T* g_sum, unsigned int num, Probe probe) {
  GlobalArray<const T, Probe> pData(g_in, probe);
  GlobalVar<T, Probe> dev_sum(g_sum, probe);
  SharedArray<T, Probe> s_data(probe);

  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;
  Acc<T> sum = (i < num) ? pData[i] : T(0);
  if (i + blockDim.x < num) sum += pData[i + blockDim.x];
  s_data[tx] = sum;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tx < stride) {
      s_data[tx] += s_data[tx + stride];
    }
    __syncthreads();
  }
  if (tx == 0) {
    atomicAdd(&dev_sum, s_data[0]);
  }
}

// warpSum -- the last 6 steps by one warp, without __syncthreads() and without `if (tx < s)`.
// Each step reads, waits for the warp (__syncwarp), writes, and waits again.
template <class T, class Smem, class Probe>
__device__ __forceinline__ void warpSum(Smem& s_data, unsigned int tx, Probe& probe) {
  Acc<T> v = s_data[tx];
  v += s_data[tx + 32]; __syncwarp(); s_data[tx] = v; __syncwarp();
  v += s_data[tx + 16]; __syncwarp(); s_data[tx] = v; __syncwarp();
  v += s_data[tx + 8]; __syncwarp(); s_data[tx] = v; __syncwarp();
  v += s_data[tx + 4]; __syncwarp(); s_data[tx] = v; __syncwarp();
  v += s_data[tx + 2]; __syncwarp(); s_data[tx] = v; __syncwarp();
  v += s_data[tx + 1]; __syncwarp(); s_data[tx] = v; __syncwarp();
}

// sum_last_warp -- last warp: when 32 threads are left they are one warp, so warpSum()
// finishes the tree without barriers.
template <class T, class Probe>
__global__ void sum_last_warp(const T* g_in, T* g_sum, unsigned int num, Probe probe) {
  GlobalArray<const T, Probe> pData(g_in, probe);
  GlobalVar<T, Probe> dev_sum(g_sum, probe);
  SharedArray<T, Probe> s_data(probe);

  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;
  Acc<T> sum = (i < num) ? pData[i] : T(0);
  if (i + blockDim.x < num) sum += pData[i + blockDim.x];
  s_data[tx] = sum;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tx < stride) {
      s_data[tx] += s_data[tx + stride];
    }
    __syncthreads();
  }
  if (tx < 32) warpSum<T>(s_data, tx, probe);
  if (tx == 0) {
    atomicAdd(&dev_sum, s_data[0]);
  }
}

// sum_shuffle -- warp shuffle: the last warp adds registers across lanes with __shfl_xor_sync
// (a butterfly: after 5 steps every lane holds the warp's sum).
template <class T, class Probe>
__global__ void sum_shuffle(const T* g_in, T* g_sum, unsigned int num, Probe probe) {
  GlobalArray<const T, Probe> pData(g_in, probe);
  GlobalVar<T, Probe> dev_sum(g_sum, probe);
  SharedArray<T, Probe> s_data(probe);

  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;
  Acc<T> sum = (i < num) ? pData[i] : T(0);
  if (i + blockDim.x < num) sum += pData[i + blockDim.x];
  s_data[tx] = sum;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tx < stride) {
      s_data[tx] += s_data[tx + stride];
    }
    __syncthreads();
  }
  if (tx < 32) {
    sum = s_data[tx];
    sum += s_data[tx + 32];
    for (int offset = 16; offset > 0; offset /= 2) {
      sum += __shfl_xor_sync(0xffffffff, sum, offset);
    }
    if (tx == 0) {
      atomicAdd(&dev_sum, sum);
    }
  }
}

// sum_two_step -- two step: kernel decomposition without atomics. The first launch writes one
// partial sum per block; a second launch of one block reduces the partials (its grid-stride
// load lets one block take any number of them).
template <class T, class Probe>
__global__ void sum_two_step(const T* g_in, T* g_partial, unsigned int num, Probe probe) {
  GlobalArray<const T, Probe> pData(g_in, probe);
  GlobalArray<T, Probe> partial(g_partial, probe);
  SharedArray<T, Probe> s_data(probe);

  unsigned int tx = threadIdx.x;
  Acc<T> sum = 0;
  for (unsigned int i = blockIdx.x * (blockDim.x * 2) + tx; i < num; i += blockDim.x * 2 * gridDim.x) {
    sum += pData[i];
    if (i + blockDim.x < num) sum += pData[i + blockDim.x];
  }
  s_data[tx] = sum;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tx < stride) {
      s_data[tx] += s_data[tx + stride];
    }
    __syncthreads();
  }
  if (tx < 32) warpSum<T>(s_data, tx, probe);
  if (tx == 0) {
    partial[blockIdx.x] = s_data[0];
  }
}

#undef __syncthreads
#undef __syncwarp
#undef __shfl_xor_sync

// Bindings for the host dispatch (kernels/dispatch.cuh): the track's kernels, in order.
RS_TRACK_KERNELS(lecture, RS_KERNEL(sum_atomic), RS_KERNEL(sum_shared), RS_KERNEL(sum_reduce),
                 RS_KERNEL(sum_reversed), RS_KERNEL(sum_add_first), RS_KERNEL(sum_last_warp),
                 RS_KERNEL(sum_shuffle), RS_KERNEL(sum_two_step))

}  // namespace rs
