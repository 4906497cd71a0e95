// LoadedUserKernel and check_user_kernel_sums (user_kernel_gpu.hpp): a user's kernel through the driver API. The
// driver's functions come from cudaGetDriverEntryPointByVersion, so nothing links libcuda; the modules load into
// the CUDA runtime's primary context, which the GpuReducer made current. GpuReducer does the launching, finishing,
// timing and tracing (ExternalKernel): this file only loads the modules and makes one launch.
#include "user_kernel_gpu.hpp"

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdlib>
#include <string_view>
#include <thread>

#include "cuda_check.hpp"  // cuda_message
#include "input.hpp"

namespace rs {

namespace {

void check(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw CudaError(cuda_message(e, what.c_str()));
  }
}

// The driver entry points used, looked up through the runtime.
struct Driver {
  decltype(&cuModuleLoadData) load = nullptr;
  decltype(&cuModuleGetFunction) get = nullptr;
  decltype(&cuModuleUnload) unload = nullptr;
  decltype(&cuLaunchKernel) launch = nullptr;
  decltype(&cuGetErrorString) error_string = nullptr;
  decltype(&cuOccupancyMaxActiveBlocksPerMultiprocessor) occupancy = nullptr;
  decltype(&cuFuncGetAttribute) attribute = nullptr;

  Driver() {
    find("cuFuncGetAttribute", attribute);
    find("cuOccupancyMaxActiveBlocksPerMultiprocessor", occupancy);
    find("cuModuleLoadData", load);
    find("cuModuleGetFunction", get);
    find("cuModuleUnload", unload);
    find("cuLaunchKernel", launch);
    find("cuGetErrorString", error_string);
  }
  template <class Fn>
  static void find(const char* name, Fn& fn) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult status{};
    check(cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &status),
          std::string("cudaGetDriverEntryPointByVersion(") + name + ")");
    if (status != cudaDriverEntryPointSuccess || !p) throw CudaError(std::string("the CUDA driver lacks ") + name);
    fn = reinterpret_cast<Fn>(p);
  }
  void check_cu(CUresult r, const std::string& what) const {
    if (r == CUDA_SUCCESS) return;
    const char* s = nullptr;
    error_string(r, &s);
    throw CudaError(what + ": " + (s ? s : "CUDA driver error " + std::to_string(static_cast<int>(r))));
  }
};

std::function<void(bool)>& busy_hook() {
  static std::function<void(bool)> hook;
  return hook;
}

}  // namespace

void set_user_gpu_busy_hook(std::function<void(bool busy)> hook) { busy_hook() = std::move(hook); }
UserGpuBusy::UserGpuBusy() {
  if (busy_hook()) busy_hook()(true);
}
UserGpuBusy::~UserGpuBusy() {
  if (busy_hook()) busy_hook()(false);
}

struct LoadedUserKernel::Impl {
  Driver d;
  CUmodule timing = nullptr, tracing = nullptr;
  // [build][type]: build 0 timing, 1 tracing; type 0 int32, 1 float32 (nullptr where not compiled)
  CUfunction fn[2][2] = {{nullptr, nullptr}, {nullptr, nullptr}};
  ExternalKernel kernel;
  ExternalHistogram histogram;

  ~Impl() {
    if (timing) d.unload(timing);
    if (tracing) d.unload(tracing);
  }
  CUmodule load(const UserBuild& b, const std::string& what) {
    CUmodule m = nullptr;
    d.check_cu(d.load(&m, b.cubin.empty() ? b.ptx.c_str() : b.cubin.data()), "cuModuleLoadData (" + what + ")");
    return m;
  }
  CUfunction get(CUmodule m, const std::string& entry) {
    if (entry.empty()) return nullptr;
    CUfunction f = nullptr;
    d.check_cu(d.get(&f, m, entry.c_str()), "cuModuleGetFunction(" + entry + ")");
    return f;
  }
};

LoadedUserKernel::LoadedUserKernel(const UserKernel& k, const std::string& name) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.timing = m.load(k.timing, k.file_name + (k.plain ? "" : ", timing build"));
  m.fn[0][0] = m.get(m.timing, k.timing.int_entry);
  m.fn[0][1] = m.get(m.timing, k.timing.float_entry);
  if (!k.plain) {  // plain CUDA has no tracing build: the binary tracer traces the one build
    m.tracing = m.load(k.tracing, k.file_name + ", tracing build");
    m.fn[1][0] = m.get(m.tracing, k.tracing.int_entry);
    m.fn[1][1] = m.get(m.tracing, k.tracing.float_entry);
  }
  if (k.entry == UserEntry::Histogram) {
    ExternalHistogram& h = m.histogram;
    h.name = name;
    CUfunction f = m.fn[0][0];
    Impl* self = &m;
    h.max_blocks_per_sm = [self, f, name](unsigned block, unsigned smem) {
      int blocks = 0;
      self->d.check_cu(self->d.occupancy(&blocks, f, static_cast<int>(block), smem),
                       "cuOccupancyMaxActiveBlocksPerMultiprocessor (" + name + ")");
      return blocks;
    };
    h.launch = [self, f, name](unsigned grid, unsigned block, unsigned smem, const void* bytes, long n, void* bins,
                               void* stream) {
      void* args[] = {&bytes, &n, &bins};
      self->d.check_cu(self->d.launch(f, grid, 1, 1, block, 1, 1, smem, static_cast<CUstream>(stream), args, nullptr),
                       "cuLaunchKernel (" + name + ", " + std::to_string(grid) + " blocks of " + std::to_string(block) +
                           " threads, n = " + std::to_string(n) + " bytes)");
    };
    return;  // no ExternalKernel: a histogram is not a reduction
  }
  ExternalKernel& e = m.kernel;
  e.plain = k.plain;
  e.name = name;
  e.track = "yours";
  e.source = k.source;
  e.finish = k.shape.finish;
  e.inputs_per_thread = k.shape.inputs_per_thread;
  e.min_block_size = k.shape.min_block_size;
  e.dtypes = k.dtypes;
  Impl* self = &m;
  const bool plain = k.plain;
  // The profiler's report (issue 40): the timing build's int32 entry, as the timing runs it.
  e.max_blocks_per_sm = [self, name](unsigned block, unsigned smem) {
    int blocks = 0;
    self->d.check_cu(self->d.occupancy(&blocks, self->fn[0][0], static_cast<int>(block), smem),
                     "cuOccupancyMaxActiveBlocksPerMultiprocessor (" + name + ")");
    return blocks;
  };
  e.registers = [self, name] {
    int regs = 0;
    self->d.check_cu(self->d.attribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, self->fn[0][0]),
                     "cuFuncGetAttribute (" + name + ")");
    return regs;
  };
  e.launch = [self, name, plain](DType type, unsigned grid, unsigned block, unsigned smem, const void* in, void* out,
                                 unsigned n, const void* trace_probe, void* stream) {
    if (plain && trace_probe) {
      throw std::logic_error(name + " is plain CUDA: it has no tracing build (the binary tracer traces it)");
    }
    CUfunction f = self->fn[trace_probe ? 1 : 0][type == DType::Float32 ? 1 : 0];
    if (!f) throw std::invalid_argument(name + " does not take " + to_string(type) + " elements");
    unsigned char null_probe = 0;  // rs::NullProbe: an empty struct, one byte as a kernel parameter
    void* probe = trace_probe ? const_cast<void*>(trace_probe) : &null_probe;
    void* args[] = {&in, &out, &n, probe};  // plain CUDA: the driver reads the first three
    const std::string what = "cuLaunchKernel (" + name + ", " + std::to_string(grid) + " blocks of " +
                             std::to_string(block) + " threads, n = " + std::to_string(n) + ")";
    self->d.check_cu(self->d.launch(f, grid, 1, 1, block, 1, 1, smem, static_cast<CUstream>(stream), args, nullptr),
                     what);
  };
}

LoadedUserKernel::~LoadedUserKernel() = default;

const ExternalHistogram& LoadedUserKernel::histogram() const {
  if (!impl_->histogram.launch) throw std::logic_error("the kernel file is not a histogram (it defines user_kernel)");
  return impl_->histogram;
}

const ExternalKernel& LoadedUserKernel::kernel() const { return impl_->kernel; }

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

struct CudaContextWarmup::Impl {
  std::thread thread;
};

CudaContextWarmup::CudaContextWarmup(int device) : impl_(std::make_unique<Impl>()) {
  if (const char* v = std::getenv("REDUCESCOPE_WARM_CONTEXT"); v && std::string_view(v) == "0") return;
  impl_->thread = std::thread([device] {
    if (cudaSetDevice(device) == cudaSuccess) cudaFree(nullptr);
    cudaGetLastError();  // the error, if any, is met again by the GPU work that follows (class comment)
  });
}

CudaContextWarmup::~CudaContextWarmup() {
  if (impl_->thread.joinable()) impl_->thread.join();
}

int user_kernel_device_cc(int device) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    std::string why = "no CUDA GPU is available";
    if (e != cudaSuccess) why += std::string(" (") + cudaGetErrorString(e) + ")";
    cudaGetLastError();
    throw NoDeviceError(why);
  }
  if (device < 0 || device >= count) throw NoDeviceError("CUDA device " + std::to_string(device) + " does not exist");
  int major = 0, minor = 0;
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "cudaDeviceGetAttribute");
  check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), "cudaDeviceGetAttribute");
  return major * 10 + minor;
}

void for_each_user_run(GpuReducer& gpu, const ExternalKernel& ext, const std::vector<uint64_t>& ns,
                       const std::vector<unsigned>& block_sizes, const std::function<void(const UserSumCheck&)>& each) {
  for (DType type : {DType::Int32, DType::Float32}) {
    if (!(ext.dtypes & dtype_bit(type))) continue;
    for (uint64_t n : ns) {
      CpuReference ref;
      if (type == DType::Float32) {
        const std::vector<float> data = make_input_f32(Pattern::RandomBytes, n);
        ref = cpu_reference(data);
        gpu.set_input(data, Pattern::RandomBytes);
      } else {
        const std::vector<int32_t> data = make_input(Pattern::RandomBytes, n);
        ref = cpu_reference(data);
        gpu.set_input(data, Pattern::RandomBytes);
      }
      for (unsigned bs : block_sizes) {
        if (bs < ext.min_block_size) continue;
        UserSumCheck c;
        c.type = type;
        c.block_size = bs;
        c.n = n;
        int32_t bits = 0;
        const bool single = ext.finish == Finish::SinglePass;
        {
          const UserGpuBusy busy;
          if (single) gpu.poison_single_pass_result(kSinglePassPoison);
          bits = gpu.run(ext, bs);
          if (single) c.ticket_after = gpu.single_pass_counter();
        }
        c.launches = gpu.launches(ext, bs);
        c.right = ref.accepts(ReduceOp::Sum, bits);
        c.got = format_value(static_cast<uint32_t>(bits), type);
        c.result_unwritten = single && static_cast<uint32_t>(bits) == kSinglePassPoison;
        c.expected = ref.str(ReduceOp::Sum);
        each(c);
      }
    }
  }
}

std::vector<UserSumCheck> check_user_kernel_sums(const UserKernel& k, const std::vector<uint64_t>& ns,
                                                 const std::vector<unsigned>& block_sizes, int device) {
  GpuReducer gpu(device);
  const LoadedUserKernel loaded(k, k.file_name);
  std::vector<UserSumCheck> out;
  for_each_user_run(gpu, loaded.kernel(), ns, block_sizes, [&](const UserSumCheck& c) { out.push_back(c); });
  return out;
}

}  // namespace rs
