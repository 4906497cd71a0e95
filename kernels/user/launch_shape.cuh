// launch_shape.cuh: RS_LAUNCH_SHAPE, the launch shape a kernel file of your own declares (docs/your-kernel.md).
// ReduceScope puts this header before a plain CUDA file (NVRTC's --pre-include), so the file needs no
// #include of its own; reducescope.cuh (the wrapped dialect) includes it. Embedded in the reducescope binary.
#pragma once

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
    static_assert(elements_per_thread >= 1 && elements_per_thread <= 8,                \
                  "RS_LAUNCH_SHAPE: elements per thread must be 1 to 8");                                      \
    static_assert(min_block_size >= 32 && min_block_size <= 1024 && (min_block_size & (min_block_size - 1)) == 0, \
                  "RS_LAUNCH_SHAPE: the minimum block size must be 32, 64, 128, 256, 512 or 1024");            \
    static_assert(finish != rs::user::Finish::HostSum,                                                         \
                  "RS_LAUNCH_SHAPE: HostSum works in place on a scratch copy; your kernel's input is const "   \
                  "(use HostReduce: the host adds the per-block results)");                                   \
  }
