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

#include "launch_shape.cuh"
