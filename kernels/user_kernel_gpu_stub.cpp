// A build without CUDA: a user's kernel cannot run (user_kernel_gpu.hpp).
#include "gpu_reduce.hpp"  // NoDeviceError
#include "user_kernel_gpu.hpp"

namespace rs {

int user_kernel_device_cc(int) { throw NoDeviceError("this build has no CUDA (built with REDUCESCOPE_CUDA=OFF)"); }

std::vector<UserSumCheck> check_user_kernel_sums(const UserKernel&, const std::vector<uint64_t>&,
                                                 const std::vector<unsigned>&, int) {
  throw NoDeviceError("this build has no CUDA (built with REDUCESCOPE_CUDA=OFF)");
}

}  // namespace rs
