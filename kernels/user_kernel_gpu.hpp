// A compiled user kernel (user_kernel.hpp) on the GPU: its timing build loaded with the driver API
// (cuModuleLoadData, cuModuleGetFunction, cuLaunchKernel; the driver's entry points come through the CUDA
// runtime, so the binary does not link libcuda), launched and finished as its launch shape says, and its
// result checked against the CPU reference. Plain C++ (no CUDA types).
//
// This runs the user's code in the calling process, with no time limit: a kernel that hangs hangs the
// caller, an illegal address ends the process's CUDA context. The worker process of issue 19 (a later
// step) is where the window will run it; `reducescope check` uses it as is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "user_kernel.hpp"

namespace rs {

// One run of the timing build against the CPU reference.
struct UserSumCheck {
  DType type = DType::Int32;
  unsigned block_size = 0;   // threads per block
  uint64_t n = 0;            // elements
  unsigned launches = 0;     // kernel launches the reduction took
  bool right = false;        // int32: the exact wrapped sum; float32: within FloatReference::tolerance()
  std::string got, expected; // the values, for people (CpuReference::str for the expected one)
};

// The compute capability of CUDA device `device` as major x 10 + minor (90 for an H100), for
// UserCompileOptions::cc. Throws NoDeviceError (gpu_reduce.hpp) when there is no GPU or no driver, or the
// build has no CUDA.
int user_kernel_device_cc(int device = 0);

// Runs `k`'s timing build on `device` over a random input (Pattern::RandomBytes) of each n in `ns`, at each
// block size in `block_sizes` the launch shape allows (min_block_size and up; others are skipped), for each
// element type it takes, and checks each result against the CPU. `k` should be compiled for the device's
// compute capability (user_kernel_device_cc). Finishes: Relaunch, GlobalAtomic, SecondKernel, HostReduce;
// SinglePass gets the zeroed buffer GpuReducer gives its own single-pass kernels ([0] result, [1] the
// finished-block counter, [2..] partials). Throws NoDeviceError without a GPU, CudaError when a CUDA call or
// the kernel fails (the message names the call and the launch).
std::vector<UserSumCheck> check_user_kernel_sums(const UserKernel& k, const std::vector<uint64_t>& ns,
                                                 const std::vector<unsigned>& block_sizes, int device = 0);

}  // namespace rs
