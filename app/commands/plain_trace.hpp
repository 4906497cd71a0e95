// A user's kernel file traced, whichever its dialect (kernels/user_kernel.hpp): the wrapped dialect by its
// tracing build, in this process; plain CUDA by the binary tracer (app/commands/attach.hpp) attached to a
// `reducescope run --compiled` of the same kernel, input, N and block size, so that the traced block saw the same
// data. For every command that traces a kernel file: trace, record, verify and the exercise checks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "gpu_reduce.hpp"
#include "input.hpp"
#include "trace_format.hpp"
#include "user_kernel.hpp"

namespace rs::cmd {

// What was on the GPU when the kernel ran: the child re-creates it with make_input(pattern, n) (input.hpp).
struct KernelFileTraceRequest {
  DType type = DType::Int32;
  Pattern pattern = Pattern::RandomBytes;
  uint64_t n = 0;                // elements
  unsigned block_size = 256;     // threads per block
  unsigned traced_block = 0;     // blockIdx.x in the first launch
  double kernel_timeout_s = 5;   // the traced run's time limit on its GPU work (--kernel-timeout)
};

// `gpu` holds that input already (GpuReducer::set_input), `ext` is `k` loaded on it (LoadedUserKernel). Returns the
// trace, named ext.name, track "yours", with k's source and the result of one run of the timing build on `gpu`.
// Throws std::invalid_argument for a block that does not exist, std::runtime_error when the binary tracer cannot
// run (a build without it, no Compute Sanitizer API or nvdisasm) or the run does not launch the kernel, CudaError
// when a CUDA call fails.
Trace trace_kernel_file(GpuReducer& gpu, const ExternalKernel& ext, const UserKernel& k,
                        const KernelFileTraceRequest& q);

// The same in two halves, so that a check's traces are taken side by side (issue 40: a check under 3 s): the first,
// on `gpu` while it holds the request's input (the grid and the timing build's result; the wrapped dialect's whole
// trace), the second on its own (the binary tracer attached to a `reducescope run` of its own: several may run at once
// on other threads). Throw as trace_kernel_file does.
struct PreparedKernelFileTrace {
  KernelFileTraceRequest q;
  std::string name, track;
  unsigned grid = 0;
  int32_t result = 0;
  std::optional<Trace> done;  // the wrapped dialect: traced in this process already
};
// A compiled kernel in a folder of its own (save_user_kernel), for a child's `--compiled PATH`; removed with it.
// Throws std::runtime_error when the folder or the file cannot be written.
struct TempCompiledKernel {
  std::string dir, path;
  explicit TempCompiledKernel(const UserKernel& k);
  ~TempCompiledKernel();
  TempCompiledKernel(const TempCompiledKernel&) = delete;
  TempCompiledKernel& operator=(const TempCompiledKernel&) = delete;
};

PreparedKernelFileTrace prepare_kernel_file_trace(GpuReducer& gpu, const ExternalKernel& ext, const UserKernel& k,
                                                  const KernelFileTraceRequest& q);
Trace finish_kernel_file_trace(const PreparedKernelFileTrace& p, const UserKernel& k);

}  // namespace rs::cmd
