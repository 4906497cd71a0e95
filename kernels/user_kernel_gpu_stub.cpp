// A build without CUDA: a user's kernel cannot run (user_kernel_gpu.hpp).
#include "gpu_reduce.hpp"  // NoDeviceError
#include "user_kernel_gpu.hpp"

namespace rs {

namespace {
const char* const kNoCuda = "this build has no CUDA (built with REDUCESCOPE_CUDA=OFF)";
}

struct LoadedUserKernel::Impl {
  ExternalKernel kernel;
  ExternalHistogram histogram;
};
LoadedUserKernel::LoadedUserKernel(const UserKernel&, const std::string&) { throw NoDeviceError(kNoCuda); }
LoadedUserKernel::~LoadedUserKernel() = default;
const ExternalKernel& LoadedUserKernel::kernel() const { return impl_->kernel; }
const ExternalHistogram& LoadedUserKernel::histogram() const { return impl_->histogram; }

int user_kernel_device_cc(int) { throw NoDeviceError(kNoCuda); }

struct CudaContextWarmup::Impl {};
CudaContextWarmup::CudaContextWarmup(int) {}  // no CUDA: nothing to open
CudaContextWarmup::~CudaContextWarmup() = default;

int cuda_device_count() { return 0; }  // a build without CUDA sees no GPU

std::vector<UserSumCheck> check_user_kernel_sums(const UserKernel&, const std::vector<uint64_t>&,
                                                 const std::vector<unsigned>&, int) {
  throw NoDeviceError(kNoCuda);
}

void for_each_user_run(GpuReducer&, const ExternalKernel&, const std::vector<uint64_t>&, const std::vector<unsigned>&,
                       const std::function<void(const UserSumCheck&)>&) {
  throw NoDeviceError(kNoCuda);
}

void set_user_gpu_busy_hook(std::function<void(bool)>) {}
UserGpuBusy::UserGpuBusy() = default;
UserGpuBusy::~UserGpuBusy() = default;

}  // namespace rs
