// reducescope.cuh: what a kernel file of your own includes (docs/your-kernel.md).
//
// Index
//   using namespace rs        the probe's wrappers by their short names: SharedArray, GlobalArray,
//                             GlobalVar, Acc, atomicAdd on a wrapper's address (tracing/probe.cuh)
//   barrier/shuffle macros    __syncthreads(), __syncwarp(), __shfl_*_sync, __reduce_*_sync go through
//                             the kernel's `probe` parameter, as in the shipped kernel files
//   RS_LAUNCH_SHAPE           the launch shape the host reads: elements per thread, finish, min block size
//
// ReduceScope compiles your file with NVRTC twice: the timing build (Probe = rs::NullProbe, every
// wrapper is exactly the plain access or intrinsic) and the tracing build (Probe = rs::TraceProbe,
// which records every access of one block). This header and tracing/probe.cuh are embedded in the
// reducescope binary (kernels/user_kernel.cpp), so the file is all you need.
#pragma once

#include "probe.cuh"

using namespace rs;

// Barriers, shuffles and warp reductions go through the probe (every entry point has a parameter
// `Probe probe`; a __device__ helper that uses them takes `Probe& probe`), so the tracing build
// records them. In the timing build each is exactly the intrinsic. __syncwarp() takes no mask here:
// it is the whole warp's.
#define __syncthreads() probe.block_barrier(__LINE__)
#define __syncthreads_or(predicate) probe.block_barrier_or(__LINE__, predicate)
#define __syncthreads_and(predicate) probe.block_barrier_and(__LINE__, predicate)
#define __syncthreads_count(predicate) probe.block_barrier_count(__LINE__, predicate)
#define __syncwarp() probe.warp_barrier(__LINE__)
#define __shfl_sync(...) probe.template shfl<ShuffleKind::Idx>(__LINE__, __VA_ARGS__)
#define __shfl_up_sync(...) probe.template shfl<ShuffleKind::Up>(__LINE__, __VA_ARGS__)
#define __shfl_down_sync(...) probe.template shfl<ShuffleKind::Down>(__LINE__, __VA_ARGS__)
#define __shfl_xor_sync(...) probe.template shfl<ShuffleKind::Xor>(__LINE__, __VA_ARGS__)
#define __reduce_add_sync(...) probe.template reduce<WarpReduceOp::Add>(__LINE__, __VA_ARGS__)
#define __reduce_min_sync(...) probe.template reduce<WarpReduceOp::Min>(__LINE__, __VA_ARGS__)
#define __reduce_max_sync(...) probe.template reduce<WarpReduceOp::Max>(__LINE__, __VA_ARGS__)

namespace rs::user {

// How the host finishes the reduction after the kernel's first launch: the names of rs::Finish
// (kernels/kernel_info.hpp), in its order; kernels/user_kernel.cpp reads the number back.
enum class Finish : unsigned { Relaunch, GlobalAtomic, SecondKernel, SinglePass, HostSum, HostReduce };

// RS_LAUNCH_SHAPE defines LaunchShape<0>; a file without it has no launch shape.
template <int>
struct LaunchShape;

// The host asks NVRTC for this variable's lowered (mangled) name at the file's launch shape: the
// three numbers are in it (_ZN2rs4user16launch_shape_tagILj2ELj0ELj64EEE: 2, Relaunch, 64).
template <unsigned ElementsPerThread, unsigned FinishValue, unsigned MinBlockSize>
__device__ unsigned launch_shape_tag = 0;

}  // namespace rs::user

// RS_LAUNCH_SHAPE(ELEMENTS_PER_THREAD, FINISH, MIN_BLOCK_SIZE), once per file, at global scope:
//   ELEMENTS_PER_THREAD  elements each thread loads per grid pass, 1 to 8: the first launch has
//                        ceil(N / (block size x ELEMENTS_PER_THREAD)) blocks
//   FINISH               Relaunch, GlobalAtomic, SecondKernel, SinglePass or HostReduce (docs/your-kernel.md)
//   MIN_BLOCK_SIZE       the smallest block size the algorithm takes: 32, 64, ..., 1024
#define RS_LAUNCH_SHAPE(ELEMENTS_PER_THREAD, FINISH, MIN_BLOCK_SIZE)                                          \
  template <>                                                                                                  \
  struct rs::user::LaunchShape<0> {                                                                            \
    static constexpr unsigned elements_per_thread = (ELEMENTS_PER_THREAD);                                     \
    static constexpr rs::user::Finish finish = rs::user::Finish::FINISH;                                       \
    static constexpr unsigned min_block_size = (MIN_BLOCK_SIZE);                                               \
    static_assert(elements_per_thread >= 1 && elements_per_thread <= rs::kMaxElementsPerThread,                \
                  "RS_LAUNCH_SHAPE: elements per thread must be 1 to 8");                                      \
    static_assert(min_block_size >= 32 && min_block_size <= 1024 && (min_block_size & (min_block_size - 1)) == 0, \
                  "RS_LAUNCH_SHAPE: the minimum block size must be 32, 64, 128, 256, 512 or 1024");            \
    static_assert(finish != rs::user::Finish::HostSum,                                                         \
                  "RS_LAUNCH_SHAPE: HostSum works in place on a scratch copy; your kernel's input is const "   \
                  "(use HostReduce: the host adds the per-block results)");                                   \
  }
