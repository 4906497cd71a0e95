// The multigpu track in a build without CUDA or without NCCL (nccl.h not found at configure time): the
// commands say why it is missing.
#include "multigpu_run.hpp"

namespace rs {

int multigpu_device_count() { return 0; }

bool multigpu_built() { return false; }

SessionMultiGpu measure_multigpu(const MultiGpuConfig&, const std::function<void(const std::string&)>&) {
  throw MultiGpuError(
      "this build has no multigpu track: it needs CUDA and NCCL (nccl.h), which were not found when it was configured");
}

}  // namespace rs
