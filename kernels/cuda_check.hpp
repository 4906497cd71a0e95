// What every CUDA-built file of kernels/ shares for checking CUDA calls (internal: include it only from
// files compiled where CUDA is found: gpu_reduce.cu, multigpu_run.cu, user_kernel_gpu.cpp).
//   cuda_message(e, call)  "<call>: <cudaGetErrorName>: <cudaGetErrorString>", plus advice where there is
//                          some (out of memory: "try a smaller N")
//   RS_CUDA(call)          runs `call` and throws CudaError (gpu_reduce.hpp) with that message on failure
//   utc_now()              the time now, UTC, ISO 8601 ("2026-11-24T17:00:00Z"), for traces and recordings
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "gpu_reduce.hpp"

namespace rs {

inline std::string cuda_message(cudaError_t e, const char* call) {
  std::string msg = std::string(call) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
  if (e == cudaErrorMemoryAllocation) msg += " (try a smaller N)";
  return msg;
}

// Defined in gpu_reduce.cu.
std::string utc_now();

}  // namespace rs

#define RS_CUDA(call)                                                                \
  do {                                                                               \
    cudaError_t rs_err_ = (call);                                                    \
    if (rs_err_ != cudaSuccess) throw ::rs::CudaError(::rs::cuda_message(rs_err_, #call)); \
  } while (0)
