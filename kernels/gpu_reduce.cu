// Host dispatch, timing and tracing for the reduction kernels (see gpu_reduce.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <stdexcept>
#include <utility>

#include "cub_reference.hpp"
#include "gpu_reduce.hpp"
#include "reduce_kernels.cuh"

namespace rs {

namespace {

std::string cuda_message(cudaError_t e, const char* call) {
  std::string msg = std::string(call) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
  if (e == cudaErrorMemoryAllocation) msg += " (try a smaller N)";
  return msg;
}

#define RS_CUDA(call)                                          \
  do {                                                         \
    cudaError_t rs_err_ = (call);                              \
    if (rs_err_ != cudaSuccess) throw CudaError(cuda_message(rs_err_, #call)); \
  } while (0)

template <class Probe>
using KernelFn = void (*)(const int*, int*, unsigned int, Probe);

// The dispatch table is generated from kBlockSizes: no hand-written switch over sizes.
template <class Probe, unsigned BS>
KernelFn<Probe> pick(KernelId id) {
  switch (id) {
    case KernelId::reduce0: return reduce0<Probe>;
    case KernelId::reduce1: return reduce1<Probe>;
    case KernelId::reduce2: return reduce2<Probe>;
    case KernelId::reduce3: return reduce3<Probe>;
    case KernelId::reduce4: return reduce4<Probe>;
    case KernelId::reduce5:
      if constexpr (BS >= 64) return reduce5<BS, Probe>;
      break;
    case KernelId::reduce6:
      if constexpr (BS >= 64) return reduce6<BS, Probe>;
      break;
  }
  return nullptr;
}

template <class Probe, size_t... I>
KernelFn<Probe> lookup(KernelId id, unsigned bs, std::index_sequence<I...>) {
  KernelFn<Probe> f = nullptr;
  ((bs == kBlockSizes[I] ? (void)(f = pick<Probe, kBlockSizes[I]>(id)) : (void)0), ...);
  return f;
}

template <class Probe>
KernelFn<Probe> kernel_fn(KernelId id, unsigned bs) {
  if (auto why = block_size_problem(id, bs)) throw std::invalid_argument(*why);
  KernelFn<Probe> f = lookup<Probe>(id, bs, std::make_index_sequence<kBlockSizes.size()>{});
  if (!f) throw std::invalid_argument("no instantiation of " + std::string(kernel_info(id).name) + " for block size " +
                                      std::to_string(bs));
  return f;
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

Timing summarize(std::vector<float> ms, double bytes, double peak_gbps) {
  Timing t;
  std::sort(ms.begin(), ms.end());
  t.samples = static_cast<int>(ms.size());
  t.min_ms = ms.front();
  t.max_ms = ms.back();
  size_t m = ms.size() / 2;
  t.median_ms = ms.size() % 2 ? ms[m] : 0.5 * (ms[m - 1] + ms[m]);
  t.gbps = bytes / (t.median_ms * 1e-3) / 1e9;
  t.pct_peak = peak_gbps > 0 ? 100.0 * t.gbps / peak_gbps : 0;
  return t;
}

}  // namespace

struct GpuReducer::Impl {
  int device = 0;
  DeviceInfo info;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  int* d_in = nullptr;
  int* d_a = nullptr;  // partial sums, ping
  int* d_b = nullptr;  // partial sums, pong
  int* d_copy = nullptr;
  void* d_flush = nullptr;
  size_t flush_bytes = 0;
  void* d_cub_temp = nullptr;
  size_t cub_temp_bytes = 0;
  size_t n = 0;
  Pattern pattern = Pattern::RandomBytes;

  void free_input() {
    cudaFree(d_in);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_copy);
    cudaFree(d_cub_temp);
    d_in = d_a = d_b = d_copy = nullptr;
    d_cub_temp = nullptr;
    cub_temp_bytes = 0;
    n = 0;
  }

  unsigned grid(KernelId id, unsigned bs, size_t count) const {
    const KernelInfo& k = kernel_info(id);
    size_t per_block = static_cast<size_t>(bs) * k.inputs_per_thread;
    size_t blocks = (count + per_block - 1) / per_block;
    if (k.grid_stride) blocks = std::min(blocks, max_resident_blocks(id, bs));
    return static_cast<unsigned>(std::max<size_t>(blocks, 1));
  }

  // Enough blocks to fill the GPU once: SMs x resident blocks per SM (occupancy API).
  size_t max_resident_blocks(KernelId id, unsigned bs) const {
    int per_sm = 0;
    RS_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel_fn<NullProbe>(id, bs), static_cast<int>(bs),
                                                          bs * sizeof(int)));
    return static_cast<size_t>(std::max(per_sm, 1)) * static_cast<size_t>(info.sm_count);
  }

  // Launches every level of the reduction on `stream`; returns where the sum will be.
  template <class Probe>
  int* launch_levels(KernelId id, unsigned bs, Probe first, Probe rest) {
    if (n == 0) throw std::logic_error("GpuReducer: no input (call set_input first)");
    KernelFn<Probe> fn = kernel_fn<Probe>(id, bs);
    size_t count = n;
    const int* src = d_in;
    int* dst = d_a;
    int* other = d_b;
    bool first_level = true;
    for (;;) {
      unsigned blocks = grid(id, bs, count);
      fn<<<blocks, bs, bs * sizeof(int), stream>>>(src, dst, static_cast<unsigned>(count), first_level ? first : rest);
      RS_CUDA(cudaPeekAtLastError());
      if (blocks == 1) return dst;
      count = blocks;
      src = dst;
      std::swap(dst, other);
      first_level = false;
    }
  }

  int32_t read_result(const int* d_result) {
    int32_t v = 0;
    RS_CUDA(cudaMemcpyAsync(&v, d_result, sizeof v, cudaMemcpyDeviceToHost, stream));
    RS_CUDA(cudaStreamSynchronize(stream));
    return v;
  }

  void ensure_flush() {
    if (d_flush) return;
    flush_bytes = std::max<size_t>(2 * info.l2_bytes, 8u << 20);
    RS_CUDA(cudaMalloc(&d_flush, flush_bytes));
  }

  // Times `body` (which enqueues work on `stream`) with the method described in Timing.
  template <class Body>
  std::vector<float> sample(Body body, int samples, int warmups) {
    if (samples < 1) throw std::invalid_argument("samples must be at least 1");
    ensure_flush();
    for (int w = 0; w < warmups; ++w) body();
    RS_CUDA(cudaStreamSynchronize(stream));
    std::vector<float> ms;
    ms.reserve(samples);
    for (int s = 0; s < samples; ++s) {
      RS_CUDA(cudaMemsetAsync(d_flush, s & 0xff, flush_bytes, stream));  // evicts the input from L2
      RS_CUDA(cudaEventRecord(start, stream));
      body();
      RS_CUDA(cudaEventRecord(stop, stream));
      RS_CUDA(cudaEventSynchronize(stop));
      float t = 0;
      RS_CUDA(cudaEventElapsedTime(&t, start, stop));
      ms.push_back(t);
    }
    return ms;
  }
};

GpuReducer::GpuReducer(int device) : impl_(std::make_unique<Impl>()) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    std::string why = "no CUDA GPU is available";
    if (e != cudaSuccess) why += std::string(" (") + cudaGetErrorString(e) + ")";
    cudaGetLastError();  // clear
    throw NoDeviceError(why);
  }
  if (device < 0 || device >= count) throw NoDeviceError("CUDA device " + std::to_string(device) + " does not exist");
  impl_->device = device;
  RS_CUDA(cudaSetDevice(device));
  cudaDeviceProp p{};
  RS_CUDA(cudaGetDeviceProperties(&p, device));
  DeviceInfo& d = impl_->info;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.l2_bytes = static_cast<size_t>(p.l2CacheSize);
  d.global_mem_bytes = p.totalGlobalMem;
  d.bus_width_bits = p.memoryBusWidth;
  RS_CUDA(cudaDeviceGetAttribute(&d.mem_clock_khz, cudaDevAttrMemoryClockRate, device));
  int rt = 0;
  RS_CUDA(cudaRuntimeGetVersion(&rt));
  d.cuda_runtime = std::to_string(rt / 1000) + "." + std::to_string(rt % 1000 / 10);
  RS_CUDA(cudaStreamCreateWithFlags(&impl_->stream, cudaStreamNonBlocking));
  RS_CUDA(cudaEventCreate(&impl_->start));
  RS_CUDA(cudaEventCreate(&impl_->stop));
}

GpuReducer::~GpuReducer() {
  if (!impl_) return;
  impl_->free_input();
  cudaFree(impl_->d_flush);
  if (impl_->start) cudaEventDestroy(impl_->start);
  if (impl_->stop) cudaEventDestroy(impl_->stop);
  if (impl_->stream) cudaStreamDestroy(impl_->stream);
}

const DeviceInfo& GpuReducer::device() const { return impl_->info; }
size_t GpuReducer::n() const { return impl_->n; }

void GpuReducer::set_input(const std::vector<int32_t>& data, Pattern pattern) {
  if (data.empty()) throw std::invalid_argument("N must be at least 1");
  if (data.size() > (1ull << 31)) throw std::invalid_argument("N must be at most 2^31 (2147483648)");
  Impl& m = *impl_;
  m.free_input();
  const size_t n = data.size();
  const size_t partial = n / 32 + 2;  // first launch at 32 threads/block writes ceil(n/32) sums
  const size_t need = (2 * n + 2 * partial) * sizeof(int);
  size_t free_b = 0, total_b = 0;
  RS_CUDA(cudaMemGetInfo(&free_b, &total_b));
  if (need + (64u << 20) > free_b) {
    throw CudaError("N = " + std::to_string(n) + " needs " + std::to_string(need >> 20) + " MiB of device memory; " +
                    std::to_string(free_b >> 20) + " MiB are free on " + m.info.name + " (try a smaller N)");
  }
  RS_CUDA(cudaMalloc(&m.d_in, n * sizeof(int)));
  RS_CUDA(cudaMalloc(&m.d_copy, n * sizeof(int)));
  RS_CUDA(cudaMalloc(&m.d_a, partial * sizeof(int)));
  RS_CUDA(cudaMalloc(&m.d_b, partial * sizeof(int)));
  RS_CUDA(cudaMemcpy(m.d_in, data.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  m.n = n;
  m.pattern = pattern;
}

unsigned GpuReducer::first_grid(KernelId kernel, unsigned block_size) const {
  return impl_->grid(kernel, block_size, impl_->n);
}

int32_t GpuReducer::run(KernelId kernel, unsigned block_size) {
  return impl_->read_result(impl_->launch_levels(kernel, block_size, NullProbe{}, NullProbe{}));
}

Timing GpuReducer::time(KernelId kernel, unsigned block_size, int samples, int warmups) {
  Impl& m = *impl_;
  kernel_fn<NullProbe>(kernel, block_size);  // validate before timing
  auto ms = m.sample([&] { m.launch_levels(kernel, block_size, NullProbe{}, NullProbe{}); }, samples, warmups);
  return summarize(std::move(ms), static_cast<double>(m.n) * sizeof(int), m.info.peak_gbps());
}

int32_t GpuReducer::run_cub() {
  Impl& m = *impl_;
  if (!m.d_cub_temp) {
    m.cub_temp_bytes = cub_sum_temp_bytes(m.n);
    RS_CUDA(cudaMalloc(&m.d_cub_temp, std::max<size_t>(m.cub_temp_bytes, 16)));
  }
  RS_CUDA(cub_sum(m.d_cub_temp, m.cub_temp_bytes, m.d_in, m.d_a, m.n, m.stream));
  return m.read_result(m.d_a);
}

Timing GpuReducer::time_cub(int samples, int warmups) {
  Impl& m = *impl_;
  run_cub();  // allocates the temporary storage outside the timed region
  auto ms = m.sample([&] { RS_CUDA(cub_sum(m.d_cub_temp, m.cub_temp_bytes, m.d_in, m.d_a, m.n, m.stream)); }, samples,
                     warmups);
  return summarize(std::move(ms), static_cast<double>(m.n) * sizeof(int), m.info.peak_gbps());
}

Timing GpuReducer::time_copy(int samples, int warmups) {
  Impl& m = *impl_;
  auto ms = m.sample(
      [&] { RS_CUDA(cudaMemcpyAsync(m.d_copy, m.d_in, m.n * sizeof(int), cudaMemcpyDeviceToDevice, m.stream)); },
      samples, warmups);
  return summarize(std::move(ms), 2.0 * static_cast<double>(m.n) * sizeof(int), m.info.peak_gbps());
}

Trace GpuReducer::trace(KernelId kernel, unsigned block_size, unsigned traced_block) {
  Impl& m = *impl_;
  kernel_fn<TraceProbe>(kernel, block_size);  // validate
  const unsigned grid = m.grid(kernel, block_size, m.n);
  if (traced_block >= grid) {
    throw std::invalid_argument("block " + std::to_string(traced_block) + " does not exist: the first launch of " +
                                kernel_info(kernel).name + " has " + std::to_string(grid) + " blocks");
  }
  // Generous: reduce0 at 1024 threads writes about 16 records per thread.
  const uint32_t capacity = block_size * 128;
  TraceRecord* d_records = nullptr;
  uint32_t* d_count = nullptr;
  auto cleanup = [&] {
    cudaFree(d_records);
    cudaFree(d_count);
  };
  Trace t;
  try {
    RS_CUDA(cudaMalloc(&d_records, capacity * sizeof(TraceRecord)));
    RS_CUDA(cudaMalloc(&d_count, sizeof(uint32_t)));
    RS_CUDA(cudaMemsetAsync(d_count, 0, sizeof(uint32_t), m.stream));
    TraceProbe first{d_records, capacity, d_count, traced_block, 0, 0};
    TraceProbe rest{d_records, capacity, d_count, 0xffffffffu, 0, 0};
    int* d_result = m.launch_levels(kernel, block_size, first, rest);
    t.meta.result = m.read_result(d_result);
    uint32_t count = 0;
    RS_CUDA(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
    if (count > capacity) {
      throw CudaError("trace of " + std::string(kernel_info(kernel).name) + " overflowed its buffer (" +
                      std::to_string(count) + " records, room for " + std::to_string(capacity) + ")");
    }
    t.records.resize(count);
    RS_CUDA(cudaMemcpy(t.records.data(), d_records, count * sizeof(TraceRecord), cudaMemcpyDeviceToHost));
  } catch (...) {
    cleanup();
    throw;
  }
  cleanup();
  TraceMeta& meta = t.meta;
  meta.kernel = kernel_info(kernel).name;
  meta.block_size = block_size;
  meta.n = m.n;
  meta.traced_block = traced_block;
  meta.grid_size = grid;
  meta.smem_bytes = block_size * sizeof(int);
  meta.pattern = to_string(m.pattern);
  meta.gpu = m.info.name;
  meta.compute_capability = std::to_string(m.info.cc_major) + "." + std::to_string(m.info.cc_minor);
  meta.cuda_version = m.info.cuda_runtime;
  meta.date = utc_now();
  meta.tool_version = kToolVersion;
  t.source = kKernelSource;
  return t;
}

}  // namespace rs
