// The modern track: what a fast reduction looks like on current GPUs, beyond the notes. Sources: the
// CUDA C++ Programming Guide ("Warp Shuffle Functions", "Warp Reduce Functions", "Memory Fence
// Functions": the __threadfence() sum example), cuda-samples' threadFenceReduction, and CUB's
// DeviceReduce, which the bench compares with.
//   shuffle_block           each warp reduces in registers with __shfl_down_sync; shared memory holds
//                           one value per warp; a second launch of one block adds the partials
//   reduce_add_sync         the same with the warp-reduce instruction __reduce_add_sync (sm_80+, int)
//   vec4_loads              16-byte loads (int4, float4) in a grid-stride loop, four in flight per
//                           thread, a scalar tail for any N
//   single_pass_atomic      one launch: each block's sum goes into the result with one atomicAdd
//   single_pass_last_block  one launch, no atomics on the data: each block writes its partial, fences,
//                           takes a ticket; the last block to finish adds the partials
//   cg_reduce               vec4_loads with cooperative groups: cg::reduce over thread_block_tile<32>
//   cub_block_reduce        vec4_loads with cub::BlockReduce doing the block's part, as CUB does per block
//   histo_warp              the course's histogram made fast: 16-byte loads, a count per byte value per warp,
//                           the bins made once per block (a histogram kernel: kernels/histogram.hpp)
//   reproducible_sum        float32, the same bits at every block size, grid, run and GPU: the exact sum in
//                           wide integers (kernels/exact_sum.hpp), rounded once; one launch, last block rounds
// (The last two call library code, which the probe cannot see into: their traces hold the loads, the
// values through our own shared memory and the result, not the library's shuffles.)
//
// Each kernel is a template on the element type T (int or float) and the probe (tracing/probe.cuh).
// Every kernel reads `n` elements at g_in with a grid-stride loop over a grid that fills the GPU once
// (the occupancy API x SMs, from the device: GpuReducer::Impl::grid), and adds in Acc<T> (int sums
// wrap like the CPU reference).
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/block/block_reduce.cuh>
#include <type_traits>

#include "exact_sum.hpp"
#include "histogram_bins.hpp"
#include "probe.cuh"

namespace rs {

// Barriers, shuffles and warp reductions go through the probe (a parameter of every kernel and helper)
// so the tracing build sees them; in the timing build each is exactly the intrinsic. #undef'd at the end.
#define __syncthreads() probe.block_barrier(__LINE__)
#define __syncthreads_or(predicate) probe.block_barrier_or(__LINE__, predicate)
#define __shfl_down_sync(...) probe.template shfl<ShuffleKind::Down>(__LINE__, __VA_ARGS__)
#define __reduce_add_sync(...) probe.template reduce<WarpReduceOp::Add>(__LINE__, __VA_ARGS__)

// The warp's sum in lane 0: five __shfl_down_sync steps (offset 16, 8, 4, 2, 1), all 32 lanes taking part.
template <class T, class Probe>
__device__ __forceinline__ Acc<T> warp_sum_shfl(Acc<T> v, Probe& probe) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// The warp's sum in every lane with one instruction, __reduce_add_sync (sm_80 and later; integers only),
// or the shuffles where the GPU or the type has no such instruction.
template <class T, class Probe>
__device__ __forceinline__ Acc<T> warp_sum(Acc<T> v, Probe& probe) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_integral_v<T>) {
    return __reduce_add_sync(0xffffffffu, v);
  } else {
    return warp_sum_shfl<T>(v, probe);
  }
#else
  return warp_sum_shfl<T>(v, probe);
#endif
}

// The block's total of every thread's `v`, in thread 0 (the other threads' results are unspecified):
// each warp reduces in registers, lane 0 writes the warp's sum to warp_sums[warp] (shared memory holds one
// value per warp), then the first warp reduces those. `WarpSum` is warp_sum or warp_sum_shfl.
template <class T, class Probe, class WarpSum>
__device__ __forceinline__ Acc<T> block_sum(Acc<T> v, SharedArray<T, Probe>& warp_sums, Probe& probe, WarpSum sum) {
  const unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = sum(v);
  if (lane == 0) warp_sums[warp] = T(v);
  __syncthreads();
  if (warp == 0) {
    v = (lane < blockDim.x / 32) ? Acc<T>(warp_sums[lane]) : Acc<T>(0);
    v = sum(v);
  }
  return v;
}

// This thread's sum of its elements: a grid-stride loop over 16-byte vectors, four loads in flight per
// thread, then the last n % 4 elements one by one.
template <class T, class Probe>
__device__ __forceinline__ Acc<T> thread_sum_vec4(const GlobalArray<const T, Probe>& in, unsigned int n) {
  auto add4 = [](const auto& x) { return Acc<T>(x.x) + Acc<T>(x.y) + Acc<T>(x.z) + Acc<T>(x.w); };
  Acc<T> sum = 0;
  const unsigned int n4 = n / 4;
  const unsigned int stride = blockDim.x * gridDim.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    const auto a = in.load4(i), b = in.load4(i + stride), c = in.load4(i + 2 * stride), d = in.load4(i + 3 * stride);
    sum += add4(a) + add4(b) + add4(c) + add4(d);
  }
  for (; i < n4; i += stride) sum += add4(in.load4(i));
  for (unsigned int t = 4 * n4 + blockIdx.x * blockDim.x + threadIdx.x; t < n; t += stride) sum += Acc<T>(in[t]);
  return sum;
}

// shuffle_block -- warp-shuffle block reduction: a grid-stride loop, then each warp reduces in
// registers with __shfl_down_sync and only one value per warp goes through shared memory.
template <class T, class Probe>
__global__ void shuffle_block(const T* g_in, T* g_out, unsigned int n, Probe probe) {
  GlobalArray<const T, Probe> in(g_in, probe);
  GlobalArray<T, Probe> out(g_out, probe);
  SharedArray<T, Probe> warp_sums(probe);  // __shared__ T warp_sums[32];

  Acc<T> sum = 0;
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += Acc<T>(in[i]);
  sum = block_sum<T>(sum, warp_sums, probe, [&](Acc<T> v) { return warp_sum_shfl<T>(v, probe); });
  if (threadIdx.x == 0) out[blockIdx.x] = T(sum);
}

// reduce_add_sync -- the same with __reduce_add_sync: one instruction reduces the warp (sm_80 and later,
// integers only; the registry does not offer it on older GPUs).
template <class Probe>
__global__ void reduce_add_sync(const int* g_in, int* g_out, unsigned int n, Probe probe) {
  GlobalArray<const int, Probe> in(g_in, probe);
  GlobalArray<int, Probe> out(g_out, probe);
  SharedArray<int, Probe> warp_sums(probe);

  Acc<int> sum = 0;
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += Acc<int>(in[i]);
  sum = block_sum<int>(sum, warp_sums, probe, [&](Acc<int> v) { return __reduce_add_sync(0xffffffffu, v); });
  if (threadIdx.x == 0) out[blockIdx.x] = int(sum);
}

// vec4_loads -- 16-byte loads: each thread reads int4 (float4) vectors, four in flight, so a warp moves
// 512 bytes per load instruction; the warps reduce with __reduce_add_sync (int, sm_80+) or shuffles.
template <class T, class Probe>
__global__ void vec4_loads(const T* g_in, T* g_out, unsigned int n, Probe probe) {
  GlobalArray<const T, Probe> in(g_in, probe);
  GlobalArray<T, Probe> out(g_out, probe);
  SharedArray<T, Probe> warp_sums(probe);

  const Acc<T> sum = block_sum<T>(thread_sum_vec4(in, n), warp_sums, probe, [&](Acc<T> v) { return warp_sum<T>(v, probe); });
  if (threadIdx.x == 0) out[blockIdx.x] = T(sum);
}

// single_pass_atomic -- one launch: vec4_loads' block sum, then one atomicAdd per block into the result
// (which the host zeroes first). Float sums then depend on the order the blocks finish in.
template <class T, class Probe>
__global__ void single_pass_atomic(const T* g_in, T* g_out, unsigned int n, Probe probe) {
  GlobalArray<const T, Probe> in(g_in, probe);
  GlobalVar<T, Probe> result(g_out, probe);
  SharedArray<T, Probe> warp_sums(probe);

  const Acc<T> sum = block_sum<T>(thread_sum_vec4(in, n), warp_sums, probe, [&](Acc<T> v) { return warp_sum<T>(v, probe); });
  if (threadIdx.x == 0) atomicAdd(&result, T(sum));
}

// single_pass_last_block -- one launch, no memset and no atomics on the data (the threadFenceReduction
// pattern): each block writes its partial to g_out[2 + blockIdx.x], makes it visible to the whole GPU
// with __threadfence(), then takes a ticket with atomicInc on g_out[1]. The block that draws the last
// ticket adds all the partials and writes g_out[0]. atomicInc wraps the counter back to 0 at the last
// ticket, ready for the next launch (the buffer is zeroed once, when it is allocated).
template <class T, class Probe>
__global__ void single_pass_last_block(const T* g_in, T* g_out, unsigned int n, Probe probe) {
  GlobalArray<const T, Probe> in(g_in, probe);
  GlobalArray<T, Probe> out(g_out, probe);                                        // [0] result, [2 + b] partials
  GlobalArray<unsigned int, Probe> counter(reinterpret_cast<unsigned int*>(g_out), probe);  // [1] blocks done
  SharedArray<T, Probe> warp_sums(probe);
  auto sum = [&](Acc<T> v) { return warp_sum<T>(v, probe); };

  Acc<T> total = block_sum<T>(thread_sum_vec4(in, n), warp_sums, probe, sum);
  int last = 0;
  if (threadIdx.x == 0) {
    out[2 + blockIdx.x] = T(total);
    __threadfence();  // the partial is visible to every block before this block's ticket is
    last = atomicInc(&counter[1], gridDim.x - 1) == gridDim.x - 1;
  }
  if (__syncthreads_or(last)) {  // the last block to finish: every partial is written
    Acc<T> partials = 0;
    for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x) partials += Acc<T>(out.load_cg(2 + b));
    total = block_sum<T>(partials, warp_sums, probe, sum);
    if (threadIdx.x == 0) out[0] = T(total);
  }
}

// cg_reduce -- cooperative groups: the block is partitioned into tiles of 32 threads, and cg::reduce adds
// a tile's values (with __reduce_add_sync or shuffles, as the library chooses); shared memory holds one
// value per tile, as in vec4_loads.
template <class T, class Probe>
__global__ void cg_reduce(const T* g_in, T* g_out, unsigned int n, Probe probe) {
  namespace cg = cooperative_groups;
  GlobalArray<const T, Probe> in(g_in, probe);
  GlobalArray<T, Probe> out(g_out, probe);
  SharedArray<T, Probe> tile_sums(probe);
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());

  Acc<T> sum = cg::reduce(tile, thread_sum_vec4(in, n), cg::plus<Acc<T>>());
  if (tile.thread_rank() == 0) tile_sums[tile.meta_group_rank()] = T(sum);
  __syncthreads();
  if (tile.meta_group_rank() == 0) {
    sum = tile.thread_rank() < tile.meta_group_size() ? Acc<T>(tile_sums[tile.thread_rank()]) : Acc<T>(0);
    sum = cg::reduce(tile, sum, cg::plus<Acc<T>>());
  }
  if (threadIdx.x == 0) out[blockIdx.x] = T(sum);
}

// cub_block_reduce -- what CUB does per block: cub::BlockReduce adds the block's values (warp reductions,
// then one value per warp through its own shared TempStorage). The block size is a template parameter, as
// cub::BlockReduce needs it at compile time.
template <unsigned int blockSize, class T, class Probe>
__global__ void cub_block_reduce(const T* g_in, T* g_out, unsigned int n, Probe probe) {
  using BlockReduce = cub::BlockReduce<Acc<T>, blockSize>;
  __shared__ typename BlockReduce::TempStorage temp;
  GlobalArray<const T, Probe> in(g_in, probe);
  GlobalArray<T, Probe> out(g_out, probe);

  const Acc<T> sum = BlockReduce(temp).Sum(thread_sum_vec4(in, n));
  if (threadIdx.x == 0) out[blockIdx.x] = T(sum);
}

// histo_warp -- the course's privatised histogram (histo_private) made fast, in three steps:
//   1. 16-byte loads: each thread reads 16 bytes a trip (uint4) in a grid-stride loop, so a warp moves
//      512 bytes per load instruction instead of 32;
//   2. a copy of the counters per warp, not per block: a value many bytes have (the skewed input's 'e') is
//      one address per warp, so warps do not queue for it, and the lanes of one atomic that hit the same
//      word are combined into one update by the hardware;
//   3. the warp counts bytes, not bins: 256 counters indexed by the byte itself, so the loop is one atomicAdd
//      per byte with no test and no arithmetic (the letters' bins, a test and a shift per byte, cost 0.80x
//      CUB; counted by byte value, the letters spread over ~30 words instead of 7); the bins are made from the
//      bytes' counts once per block, then one global atomicAdd per nonzero bin.
// The host zeroes the global bins first (as for every histogram kernel). Variants that were slower are in
// docs/tracks.md.
template <class Bins, class Probe>
__global__ void histo_warp(const unsigned char* g_buffer, long size, unsigned int* g_histo, Probe probe) {
  GlobalArray<const unsigned char, Probe, GlobalBuffer::Bytes> buffer(g_buffer, probe);
  GlobalArray<unsigned int, Probe> histo(g_histo, probe);
  SharedArray<unsigned int, Probe> counts(probe);  // 256 per warp: how many bytes of each value it read
  const unsigned warp = threadIdx.x / 32, warps = blockDim.x / 32;
  for (unsigned b = threadIdx.x; b < warps * 256; b += blockDim.x) counts[b] = 0;
  __syncthreads();
  const unsigned base = warp * 256;
  const long n16 = size / 16;
  const long stride = static_cast<long>(blockDim.x) * gridDim.x;
  long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  for (; i < n16; i += stride) {
    const uint4 v = buffer.load16(static_cast<uint32_t>(i));
    const uint32_t w[4] = {v.x, v.y, v.z, v.w};
    for (int j = 0; j < 16; ++j) atomicAdd(&counts[base + ((w[j / 4] >> (8 * (j % 4))) & 0xffu)], 1u);
  }
  for (long t = 16 * n16 + blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; t < size; t += stride) {
    atomicAdd(&counts[base + buffer[static_cast<uint32_t>(t)]], 1u);
  }
  __syncthreads();
  // The block's count of each byte value into warp 0's copy, then the bins from those.
  for (unsigned c = threadIdx.x; c < 256; c += blockDim.x) {
    unsigned sum = 0;
    for (unsigned w = 0; w < warps; ++w) sum += counts[w * 256 + c];
    counts[c] = sum;
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < Bins::kCount; b += blockDim.x) {
    unsigned sum = 0;
    if constexpr (Bins::kCount == 256) {
      sum = counts[b];  // a bin per byte value
    } else {
      for (unsigned c = 0; c < 256; ++c) sum += Bins::bin(c) == static_cast<int>(b) ? counts[c] : 0u;
    }
    if (sum) atomicAdd(&histo[b], sum);
  }
}

// reproducible_sum -- float32 sums that are the same bits at every block size, grid, run and GPU, and
// correctly rounded: each float is an integer times a power of two, so their sum is one exact integer
// (kernels/exact_sum.hpp: a long accumulator, Kulisch; on GPUs, Collange et al. 2015), whatever the order
// of the additions, rounded to float once at the end. Per thread (exact::ThreadSum), the elements within 14
// binary orders of the warp's largest first exponent are added in a double, which is exact for them (the
// fast path: an exponent test, a conversion and a double add); the others, and at the end each warp's
// sum, go into the block's limbs in shared memory (64-bit atomicAdd), the block's limbs into the grid's in
// global memory; the last block to finish (the single_pass_last_block ticket) rounds them, writes the
// result and zeroes the limbs for the next launch. Out (32-bit words, a buffer of its own: KernelInfo::
// own_out): [0] the result, [1] the ticket counter, [2] the OR of (bits ^ sign bit) over the elements (0:
// every element was -0, so the sum is -0), [4] the special flags (NaN, +inf, -inf); from byte 32 the
// kLimbs limbs. Float32 only; needs __reduce_max_sync (compute capability 8.0).
template <class T, class Probe>
__global__ void reproducible_sum(const T* g_in, T* g_out, unsigned int n, Probe probe) {
  static_assert(std::is_same_v<T, float>, "reproducible_sum adds float32");
  using namespace exact;
  GlobalArray<const float, Probe> in(g_in, probe);
  GlobalArray<float, Probe> out(g_out, probe);
  unsigned int* words = reinterpret_cast<unsigned int*>(g_out);                 // [1] .. [4], above
  GlobalArray<unsigned int, Probe> counter(words, probe);                        // [1]: the ticket, traced
  unsigned long long* limbs = reinterpret_cast<unsigned long long*>(g_out) + 4;  // kLimbs from byte 32
  __shared__ unsigned long long block_limbs[kLimbs];
  __shared__ unsigned int block_bits[3];  // as words [2], [3], [4]
  if (threadIdx.x < kLimbs) block_limbs[threadIdx.x] = 0;
  if (threadIdx.x < 3) block_bits[threadIdx.x] = 0;
  __syncthreads();
  // The limbs are 64-bit, which the trace does not record: plain atomics (::), not the probe's.
  auto to_block = [&](int j, int64_t v) { ::atomicAdd(&block_limbs[j], static_cast<unsigned long long>(v)); };

  const unsigned int n4 = n / 4, stride = blockDim.x * gridDim.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  // The warp's window: from 12 binary orders below the largest exponent of its lanes' first vectors to one above.
  float4 first = make_float4(0, 0, 0, 0);
  if (i < n4) first = in.load4(i);
  const auto exp_of = [](float x) { return static_cast<int>((__float_as_uint(x) >> 23) & 0xffu); };
  const int e_first = max(max(exp_of(first.x), exp_of(first.y)), max(exp_of(first.z), exp_of(first.w)));
  ThreadSum sum;
  sum.base = ThreadSum::clamp_base(probe.template reduce<WarpReduceOp::Max>(__LINE__, 0xffffffffu, e_first) - 13);
  uint32_t not_neg_zero = 0, special = 0;
  auto take = [&](float x) {
    const uint32_t u = __float_as_uint(x);
    not_neg_zero |= u ^ 0x80000000u;
    if (sum.take(u)) return;
    // The slow path: zeros, subnormals, inf, NaN and values outside the window.
    if (((u >> 23) & 0xffu) == 0xffu) {
      special |= special_flags(u);
      return;
    }
    const Parts p = parts_of(u);
    if (p.m) add_piece(p.m, p.e, p.neg, to_block);
  };
  auto take4 = [&](const float4& v) {
    take(v.x);
    take(v.y);
    take(v.z);
    take(v.w);
  };
  if (i < n4) {
    take4(first);
    i += stride;
  }
  for (; i + stride < n4; i += 2 * stride) {
    const float4 a = in.load4(i), b = in.load4(i + stride);
    take4(a);
    take4(b);
  }
  for (; i < n4; i += stride) take4(in.load4(i));
  for (unsigned int t = 4 * n4 + blockIdx.x * blockDim.x + threadIdx.x; t < n; t += stride) take(in[t]);
  sum.flush();

  // The warp's windows share `base`: their 32-bit pieces add up across the warp, then into the block.
  int64_t piece[5] = {};
  sum.window.deposit(sum.base, [&](int j, int64_t v) { piece[j - (sum.base >> 5)] = v; });
  for (int k = 0; k < 5; ++k) {
    for (int offset = 16; offset > 0; offset /= 2) {
      piece[k] += (__shfl_down_sync)(0xffffffffu, static_cast<long long>(piece[k]), offset);
    }
  }
  if (threadIdx.x % 32 == 0) {
    for (int k = 0; k < 5; ++k) {
      if (piece[k]) to_block((sum.base >> 5) + k, piece[k]);
    }
  }
  if (not_neg_zero) ::atomicOr(&block_bits[0], not_neg_zero);
  if (special) ::atomicOr(&block_bits[2], special);
  __syncthreads();
  int last = 0;
  if (threadIdx.x < kLimbs && block_limbs[threadIdx.x]) ::atomicAdd(&limbs[threadIdx.x], block_limbs[threadIdx.x]);
  if (threadIdx.x < 3 && block_bits[threadIdx.x]) ::atomicOr(&words[2 + threadIdx.x], block_bits[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();  // this block's limbs are visible to every block before its ticket is
    last = atomicInc(&counter[1], gridDim.x - 1) == gridDim.x - 1;
  }
  if (__syncthreads_or(last) && threadIdx.x == 0) {
    int64_t total[kLimbs];
    for (int j = 0; j < kLimbs; ++j) total[j] = static_cast<int64_t>(::atomicExch(&limbs[j], 0ull));  // zeroed for the next launch
    const uint32_t any_not_neg_zero = ::atomicExch(&words[2], 0u);
    const uint32_t flags = ::atomicExch(&words[4], 0u) | (any_not_neg_zero ? kNotNegZero : kNegZero);
    out[0] = round_limbs(total, flags);
  }
}

#undef __syncthreads
#undef __syncthreads_or
#undef __shfl_down_sync
#undef __reduce_add_sync

RS_TRACK_KERNELS(modern, RS_KERNEL(shuffle_block), RS_KERNEL_INT(reduce_add_sync), RS_KERNEL(vec4_loads),
                 RS_KERNEL(single_pass_atomic), RS_KERNEL(single_pass_last_block), RS_KERNEL(cg_reduce),
                 RS_KERNEL_BS(cub_block_reduce), RS_KERNEL_FLOAT(reproducible_sum))

}  // namespace rs
