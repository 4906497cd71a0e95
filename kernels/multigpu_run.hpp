// The multigpu track's GPU side (issue 21): a sum spread over G GPUs combined with NCCL, and an
// element-wise all-reduce three ways (NCCL's ncclAllReduce, a hand-written ring of peer copies and add
// kernels, the naive gather to GPU 0), timed in nccl-tests' conventions beside the measured peer-to-peer
// copy bandwidth. The results go into a SessionMultiGpu (tracing/multigpu.hpp).
//
// NCCL is the CUDA toolkit's libnccl (nccl.h at configure time); the library is opened at run time
// (dlopen "libnccl.so.2"), so the binary runs on machines without it and says so when the track is asked
// for. NVLink multicast stays off: NCCL_NVLS_ENABLE=0 is set in the process before any communicator is
// created (the GPU machines here require it), and cuMulticastCreate is never called.
//
// Plain C++ header: the CLI includes it without nvcc. Built without CUDA or without NCCL, measure_multigpu
// raises MultiGpuError saying why.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpu_reduce.hpp"
#include "multigpu.hpp"

namespace rs {

// A multi-GPU measurement that cannot run or went wrong: fewer GPUs than asked for, no NCCL, an NCCL
// error (NCCL's own message), a collective that did not finish within the time limit. what() is one line.
class MultiGpuError : public CudaError {
 public:
  using CudaError::CudaError;
};

struct MultiGpuConfig {
  uint32_t gpus = 0;                 // GPUs to use, >= 2; 0: every GPU the machine has
  std::vector<uint64_t> sizes;       // all-reduce buffer sizes per GPU, bytes, each a multiple of 4 (float32)
  std::vector<uint64_t> check_elems; // extra float32 element counts checked (not timed): not divisible by G or 4
  std::vector<uint64_t> sum_n;       // the spread sum's N (int32 elements), each >= gpus
  std::vector<uint64_t> ring_trace_sizes;  // sizes whose ring is recorded step by step
  int samples = 20;                  // timed calls per row (median, min, max)
  int warmups = 5;                   // untimed calls before them
  double timeout_s = 60;             // a call that has not finished after this long is an error
  // Tests only (tests/test_gpu_multigpu.cpp): >= 2 runs the ring, the naive way and the peer copies with this
  // many virtual GPUs that are all device 0, without NCCL (which refuses one device twice), so the ring's
  // code is checked on a one-GPU machine. Its times mean nothing. 0: off.
  uint32_t emulate_gpus = 0;
};

// How many CUDA GPUs the machine has (0 with no driver or a build without CUDA).
int multigpu_device_count();
// Whether this build has the track (CUDA and nccl.h at configure time).
bool multigpu_built();

// Runs every measurement of `c` and returns them with the GPUs, their topology (`nvidia-smi topo -m`
// where it runs) and NCCL's version. `progress` gets one line per finished row (may be empty). Every result
// is checked against the CPU; a wrong one is stored with correct = false. Throws MultiGpuError (see above),
// CudaError for other CUDA failures, std::invalid_argument for a bad config (a size that is not a multiple of
// 4 bytes, an N below G).
SessionMultiGpu measure_multigpu(const MultiGpuConfig& c, const std::function<void(const std::string&)>& progress);

}  // namespace rs
