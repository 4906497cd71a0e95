// A compiled user kernel (user_kernel.hpp) on the GPU: both builds loaded with the driver API (cuModuleLoadData,
// cuModuleGetFunction, cuLaunchKernel; the driver's entry points come through the CUDA runtime, so the binary does
// not link libcuda) and handed to GpuReducer as an ExternalKernel, which runs, times and traces it exactly as it
// does a shipped kernel of the same launch shape (same buffers, finishes, timing method, trace buffer). Plain C++.
//
// This runs the user's code in the calling process, with no time limit: a kernel that hangs hangs the caller, an
// illegal address ends the process's CUDA context. The CLI and the window therefore run it in a worker process
// (app/worker.hpp), which calls user_gpu_busy() around every GPU call so that the parent can stop it after the
// time limit.
//
// Index
//   LoadedUserKernel          both builds' modules on the current GPU, as an ExternalKernel
//   user_kernel_device_cc()   the GPU's compute capability, to compile for it
//   CudaContextWarmup         opens the GPU's context on another thread while NVRTC compiles
//   check_user_kernel_sums()  the timing build against the CPU reference at several N and block sizes
//   UserGpuBusy               marks GPU work in progress for the worker's time limit
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "gpu_reduce.hpp"
#include "user_kernel.hpp"

namespace rs {

// The kernel's both builds loaded into the current CUDA context (a GpuReducer's: construct it after the
// GpuReducer, on its device). Unloads them when destroyed; the ExternalKernel is valid until then.
class LoadedUserKernel {
 public:
  // `name` names it in traces and timings (e.g. the file's stem). Throws CudaError when the driver refuses the
  // PTX (compiled for a newer GPU than this one, say) or lacks an entry point.
  LoadedUserKernel(const UserKernel& k, const std::string& name);
  ~LoadedUserKernel();
  LoadedUserKernel(const LoadedUserKernel&) = delete;
  LoadedUserKernel& operator=(const LoadedUserKernel&) = delete;
  const ExternalKernel& kernel() const;
  // A histogram file (UserEntry::Histogram) as an ExternalHistogram; std::logic_error for a reduction.
  const ExternalHistogram& histogram() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One run of the timing build against the CPU reference.
struct UserSumCheck {
  DType type = DType::Int32;
  unsigned block_size = 0;   // threads per block
  uint64_t n = 0;            // elements
  unsigned launches = 0;     // kernel launches the reduction took
  bool right = false;        // int32: the exact wrapped sum; float32: within FloatReference::tolerance()
  std::string got, expected; // the values, for people (CpuReference::str for the expected one)
  // A Finish::SinglePass kernel: its result word was poisoned with kSinglePassPoison before the run (so a sum
  // left over from the previous run cannot pass), and this is its ticket counter out[1] after the run, which must be
  // 0 again. Absent for other kernels.
  std::optional<uint32_t> ticket_after;
  // A single pass whose result word still holds kSinglePassPoison after the run: no block wrote the result (the app
  // says so beside `got`: kernels/ links no gettext).
  bool result_unwritten = false;
};
// What a single-pass kernel's result word holds before each checked run (a kernel that never writes it shows this).
inline constexpr uint32_t kSinglePassPoison = 0x7fbadbadu;

// Runs `ext` (loaded on `gpu`) over a random input (Pattern::RandomBytes) of each n in `ns`, at each block size in
// `block_sizes` it takes (ExternalKernel::min_block_size and up), for each element type it takes, checks each sum
// against the CPU and calls each(check) after each run, with that input still on `gpu` (to trace it, say). The
// runs are UserGpuBusy. Throws CudaError when a CUDA call or the kernel fails.
void for_each_user_run(GpuReducer& gpu, const ExternalKernel& ext, const std::vector<uint64_t>& ns,
                       const std::vector<unsigned>& block_sizes, const std::function<void(const UserSumCheck&)>& each);

// The compute capability of CUDA device `device` as major x 10 + minor (90 for an H100), for
// UserCompileOptions::cc. Throws NoDeviceError (gpu_reduce.hpp) when there is no GPU or no driver, or the
// build has no CUDA.
int user_kernel_device_cc(int device = 0);
// Opens CUDA device `device`'s primary context (cudaSetDevice, cudaFree(0): the driver's set-up, a few hundred ms
// on an H100) on a thread of its own, so that it overlaps the NVRTC compile that comes before the first GPU call
// (issue 40: a check under 3 s). The destructor waits for it. What the set-up meets (no GPU, a CUDA error) is
// dropped here: the GPU work after it meets it again and reports it as it always has. Does nothing in a build
// without CUDA. REDUCESCOPE_WARM_CONTEXT=0 turns it off (bench/check_time.py --compare measures what it saves).
class CudaContextWarmup {
 public:
  explicit CudaContextWarmup(int device = 0);
  ~CudaContextWarmup();
  CudaContextWarmup(const CudaContextWarmup&) = delete;
  CudaContextWarmup& operator=(const CudaContextWarmup&) = delete;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The CUDA GPUs this process sees (CUDA_VISIBLE_DEVICES applies): 0 with none, no driver, or a driver too old.
int cuda_device_count();

// Runs `k`'s timing build on `device` over a random input (Pattern::RandomBytes) of each n in `ns`, at each
// block size in `block_sizes` the launch shape allows (min_block_size and up; others are skipped), for each
// element type it takes, and checks each result against the CPU. `k` should be compiled for the device's
// compute capability (user_kernel_device_cc). Throws NoDeviceError without a GPU, CudaError when a CUDA call or
// the kernel fails (the message names the call).
std::vector<UserSumCheck> check_user_kernel_sums(const UserKernel& k, const std::vector<uint64_t>& ns,
                                                 const std::vector<unsigned>& block_sizes, int device = 0);

// While one lives, the calling process has GPU work in flight that a user's kernel may never finish: the
// constructor calls the hook with true, the destructor with false. The worker process sets the hook
// (app/worker.cpp) to tell its parent, which stops it when the work outlives the time limit. No hook: nothing.
void set_user_gpu_busy_hook(std::function<void(bool busy)> hook);
struct UserGpuBusy {
  UserGpuBusy();
  ~UserGpuBusy();
  UserGpuBusy(const UserGpuBusy&) = delete;
  UserGpuBusy& operator=(const UserGpuBusy&) = delete;
};

}  // namespace rs
