// check_user_kernel_sums: a user's kernel on the GPU through the driver API (user_kernel_gpu.hpp). The
// driver's functions come from cudaGetDriverEntryPointByVersion, so nothing links libcuda; memory and the
// context are the CUDA runtime's (its primary context, current after cudaSetDevice + cudaFree(0)). The
// launches follow GpuReducer::Impl::launch (kernels/gpu_reduce.cu) for the finishes a user's kernel takes.
#include "user_kernel_gpu.hpp"

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>

#include "cuda_check.hpp"  // cuda_message
#include "gpu_reduce.hpp"  // CudaError, NoDeviceError
#include "input.hpp"
#include "reduce_ops.hpp"

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

  Driver() {
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

// Device buffers of one input, freed on the way out.
struct Buffers {
  void* in = nullptr;
  void* a = nullptr;  // partials (ping), or the accumulator at a[0]
  void* b = nullptr;  // partials (pong)
  void* single = nullptr;  // Finish::SinglePass: [0] result, [1] counter, [2..] partials; zeroed once
  ~Buffers() {
    cudaFree(in);
    cudaFree(a);
    cudaFree(b);
    cudaFree(single);
  }
};

class Runner {
 public:
  Runner(const Driver& d, CUfunction fn, const UserLaunchShape& shape) : d_(d), fn_(fn), shape_(shape) {}

  // One whole reduction of the n elements at `in` with `bs` threads per block; returns the result's bits.
  template <class T>
  int32_t reduce(Buffers& buf, size_t n, unsigned bs, unsigned& launches) {
    launches = 0;
    const T* in = static_cast<const T*>(buf.in);
    T* a = static_cast<T*>(buf.a);
    T* b = static_cast<T*>(buf.b);
    switch (shape_.finish) {
      case Finish::GlobalAtomic:
        check(cudaMemset(a, 0, sizeof(T)), "cudaMemset of the accumulator");
        launch(grid(n, bs), bs, in, a, n, launches);
        return read(a);
      case Finish::SinglePass:
        launch(grid(n, bs), bs, in, static_cast<T*>(buf.single), n, launches);
        return read(static_cast<T*>(buf.single));
      case Finish::SecondKernel: {
        const unsigned blocks = grid(n, bs);
        launch(blocks, bs, in, a, n, launches);
        if (blocks == 1) return read(a);
        launch(1, bs, a, b, blocks, launches);
        return read(b);
      }
      case Finish::HostReduce:
      case Finish::HostSum: {  // HostSum never comes (RS_LAUNCH_SHAPE refuses it); added on the host like HostReduce
        const unsigned blocks = grid(n, bs);
        launch(blocks, bs, in, a, n, launches);
        std::vector<T> partials(blocks);
        check(cudaMemcpy(partials.data(), a, blocks * sizeof(T), cudaMemcpyDeviceToHost), after("the partials"));
        T acc = OpSum<T>{}.identity();
        for (T v : partials) acc = OpSum<T>{}(acc, v);
        int32_t bits = 0;
        std::memcpy(&bits, &acc, sizeof bits);
        return bits;
      }
      case Finish::Relaunch: break;
    }
    size_t count = n;
    const T* src = in;
    T* dst = a;
    T* other = b;
    for (;;) {
      const unsigned blocks = grid(count, bs);
      launch(blocks, bs, src, dst, count, launches);
      if (blocks == 1) return read(dst);
      count = blocks;
      src = dst;
      std::swap(dst, other);
    }
  }

  // Blocks of the first launch over `count` elements: one per block_size x elements per thread.
  unsigned grid(size_t count, unsigned bs) const {
    const size_t per_block = static_cast<size_t>(bs) * shape_.inputs_per_thread;
    return static_cast<unsigned>(std::max<size_t>((count + per_block - 1) / per_block, 1));
  }

 private:
  template <class T>
  void launch(unsigned blocks, unsigned bs, const T* in, T* out, size_t n, unsigned& launches) {
    unsigned n32 = static_cast<unsigned>(n);
    unsigned char probe = 0;  // rs::NullProbe: an empty struct, one byte as a kernel parameter
    void* args[] = {&in, &out, &n32, &probe};
    last_ = std::to_string(blocks) + " blocks of " + std::to_string(bs) + " threads, n = " + std::to_string(n);
    d_.check_cu(d_.launch(fn_, blocks, 1, 1, bs, 1, 1, bs * 4u, nullptr, args, nullptr), "cuLaunchKernel (" + last_ + ")");
    ++launches;
  }
  template <class T>
  int32_t read(const T* p) {
    int32_t bits = 0;
    check(cudaMemcpy(&bits, p, sizeof bits, cudaMemcpyDeviceToHost), after("the result"));
    return bits;
  }
  // cudaMemcpy waits for the launches before it, so a kernel's fault shows here.
  std::string after(const char* what) const { return std::string("reading ") + what + " after the launch of " + last_; }

  const Driver& d_;
  CUfunction fn_;
  UserLaunchShape shape_;
  std::string last_;
};

template <class T>
void check_type(const Driver& d, CUfunction fn, const UserKernel& k, const std::vector<uint64_t>& ns,
                const std::vector<unsigned>& block_sizes, DType type, std::vector<UserSumCheck>& out) {
  Runner runner(d, fn, k.shape);
  for (uint64_t n : ns) {
    std::vector<T> data;
    if constexpr (std::is_same_v<T, float>) {
      data = make_input_f32(Pattern::RandomBytes, n);
    } else {
      data = make_input(Pattern::RandomBytes, n);
    }
    const CpuReference ref = cpu_reference(data);
    const size_t partial = runner.grid(n, 32) + 2;
    Buffers buf;
    check(cudaMalloc(&buf.in, n * sizeof(T)), "cudaMalloc of the input");
    check(cudaMalloc(&buf.a, partial * sizeof(T)), "cudaMalloc of the partials");
    check(cudaMalloc(&buf.b, partial * sizeof(T)), "cudaMalloc of the partials");
    check(cudaMalloc(&buf.single, partial * sizeof(T)), "cudaMalloc of the single-pass buffer");
    check(cudaMemset(buf.single, 0, partial * sizeof(T)), "cudaMemset of the single-pass buffer");
    check(cudaMemcpy(buf.in, data.data(), n * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy of the input");
    for (unsigned bs : block_sizes) {
      if (bs < k.shape.min_block_size) continue;
      UserSumCheck c;
      c.type = type;
      c.block_size = bs;
      c.n = n;
      const int32_t bits = runner.template reduce<T>(buf, n, bs, c.launches);
      c.right = ref.accepts(ReduceOp::Sum, bits);
      c.got = format_value(static_cast<uint32_t>(bits), type);
      c.expected = ref.str(ReduceOp::Sum);
      out.push_back(c);
    }
  }
}

}  // namespace

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

std::vector<UserSumCheck> check_user_kernel_sums(const UserKernel& k, const std::vector<uint64_t>& ns,
                                                 const std::vector<unsigned>& block_sizes, int device) {
  user_kernel_device_cc(device);  // throws NoDeviceError without one
  check(cudaSetDevice(device), "cudaSetDevice");
  check(cudaFree(nullptr), "initialising the CUDA context");  // makes the primary context current
  const Driver d;
  CUmodule module = nullptr;
  d.check_cu(d.load(&module, k.timing.ptx.c_str()), "cuModuleLoadData (" + k.file_name + ", timing build)");
  std::vector<UserSumCheck> out;
  try {
    CUfunction fn = nullptr;
    d.check_cu(d.get(&fn, module, k.timing.int_entry.c_str()), "cuModuleGetFunction(" + k.timing.int_entry + ")");
    check_type<int32_t>(d, fn, k, ns, block_sizes, DType::Int32, out);
    if (!k.timing.float_entry.empty()) {
      d.check_cu(d.get(&fn, module, k.timing.float_entry.c_str()), "cuModuleGetFunction(" + k.timing.float_entry + ")");
      check_type<float>(d, fn, k, ns, block_sizes, DType::Float32, out);
    }
  } catch (...) {
    d.unload(module);
    throw;
  }
  d.unload(module);
  return out;
}

}  // namespace rs
