// GpuReducer for builds without CUDA (REDUCESCOPE_CUDA=OFF): there is no device to open.
#include "gpu_reduce.hpp"

namespace rs {

struct GpuReducer::Impl {};

GpuReducer::GpuReducer(int) {
  throw NoDeviceError("this build of ReduceScope has no CUDA support (the CUDA toolkit was not found at build time)");
}
GpuReducer::~GpuReducer() = default;
const DeviceInfo& GpuReducer::device() const { throw NoDeviceError("no CUDA support"); }
void GpuReducer::set_input(const std::vector<int32_t>&, Pattern) { throw NoDeviceError("no CUDA support"); }
void GpuReducer::set_input(const std::vector<float>&, Pattern) { throw NoDeviceError("no CUDA support"); }
DType GpuReducer::dtype() const { return DType::Int32; }
unsigned GpuReducer::launches(KernelId, unsigned) const { throw NoDeviceError("no CUDA support"); }
size_t GpuReducer::n() const { return 0; }
unsigned GpuReducer::first_grid(KernelId, unsigned) const { throw NoDeviceError("no CUDA support"); }
int32_t GpuReducer::run(KernelId, unsigned) { throw NoDeviceError("no CUDA support"); }
Timing GpuReducer::time(KernelId, unsigned, int, int) { throw NoDeviceError("no CUDA support"); }
Timing GpuReducer::time_cub(int, int) { throw NoDeviceError("no CUDA support"); }
int32_t GpuReducer::run_cub() { throw NoDeviceError("no CUDA support"); }
Timing GpuReducer::time_copy(int, int) { throw NoDeviceError("no CUDA support"); }
Trace GpuReducer::trace(KernelId, unsigned, unsigned) { throw NoDeviceError("no CUDA support"); }
void GpuReducer::set_histogram_input(const std::vector<uint8_t>&, HistoBins, const std::string&) {
  throw NoDeviceError("no CUDA support");
}
size_t GpuReducer::histogram_bytes() const { return 0; }
unsigned GpuReducer::histogram_grid(KernelId, unsigned) const { throw NoDeviceError("no CUDA support"); }
std::vector<uint32_t> GpuReducer::histogram(KernelId, unsigned) { throw NoDeviceError("no CUDA support"); }
Timing GpuReducer::time_histogram(KernelId, unsigned, int, int) { throw NoDeviceError("no CUDA support"); }
unsigned GpuReducer::histogram_grid(const ExternalHistogram&, unsigned) const { throw NoDeviceError("no CUDA support"); }
std::vector<uint32_t> GpuReducer::histogram(const ExternalHistogram&, unsigned) { throw NoDeviceError("no CUDA support"); }
Timing GpuReducer::time_histogram(const ExternalHistogram&, unsigned, int, int) {
  throw NoDeviceError("no CUDA support");
}
std::vector<uint32_t> GpuReducer::cub_histogram() { throw NoDeviceError("no CUDA support"); }
Timing GpuReducer::time_cub_histogram(int, int) { throw NoDeviceError("no CUDA support"); }
Trace GpuReducer::trace_histogram(KernelId, unsigned, unsigned) { throw NoDeviceError("no CUDA support"); }
int32_t GpuReducer::run(const ExternalKernel&, unsigned) { throw NoDeviceError("no CUDA support"); }
void GpuReducer::poison_single_pass_result(uint32_t) { throw NoDeviceError("no CUDA support"); }
uint32_t GpuReducer::single_pass_counter() { throw NoDeviceError("no CUDA support"); }
Timing GpuReducer::time(const ExternalKernel&, unsigned, int, int) { throw NoDeviceError("no CUDA support"); }
Trace GpuReducer::trace(const ExternalKernel&, unsigned, unsigned) { throw NoDeviceError("no CUDA support"); }
unsigned GpuReducer::first_grid(const ExternalKernel&, unsigned) const { throw NoDeviceError("no CUDA support"); }
unsigned GpuReducer::launches(const ExternalKernel&, unsigned) const { throw NoDeviceError("no CUDA support"); }

}  // namespace rs
