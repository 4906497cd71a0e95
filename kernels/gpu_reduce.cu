// Host dispatch, timing and tracing for the reduction kernels (see gpu_reduce.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "cub_reference.hpp"
#include "gpu_reduce.hpp"
#include "cuda_check.hpp"
#include "dispatch.cuh"
#include "reduce_ops.hpp"

namespace rs {

namespace {

// Every track's launchers by kernel id, checked once against the registry: a kernel without a
// binding, or a binding without a registry entry, is a programming error reported on first use.
const std::vector<const KernelLaunchers*>& launcher_table() {
  static const std::vector<const KernelLaunchers*> table = [] {
    std::vector<const KernelLaunchers*> t(kernel_table().size(), nullptr);
    for (const auto* track : {&harris_launchers(), &lecture_launchers(), &book_launchers(), &course_launchers(),
                              &modern_launchers(), &pitfalls_launchers()}) {
      for (const KernelLaunchers& l : *track) {
        const KernelInfo* k = find_kernel(l.name);
        if (!k) throw std::logic_error(std::string("kernel ") + l.name + " has a binding but no registry entry");
        t[static_cast<size_t>(k->id)] = &l;
      }
    }
    for (const auto& k : kernel_table()) {
      if (!t[static_cast<size_t>(k.id)] && k.op != ReduceOp::Histogram) {
        throw std::logic_error(std::string("kernel ") + k.name + " has no binding");
      }
    }
    return t;
  }();
  return table;
}

// Words of the buffer an own_out kernel gets: reproducible_sum's result, counter, flags and 12 limbs take 32.
constexpr size_t kOwnOutWords = 64;

// The histogram kernels' launchers by kernel id (nullptr for the reductions), checked once against the
// registry's ReduceOp::Histogram entries.
const std::vector<const HistoLaunchers*>& histo_table() {
  static const std::vector<const HistoLaunchers*> table = [] {
    std::vector<const HistoLaunchers*> t(kernel_table().size(), nullptr);
    for (const auto* list : {&course_histogram_launchers(), &modern_histogram_launchers()}) {
      for (const HistoLaunchers& l : *list) {
        const KernelInfo* k = find_kernel(l.name);
        if (!k || k->op != ReduceOp::Histogram) {
          throw std::logic_error(std::string("histogram kernel ") + l.name + " has no ReduceOp::Histogram registry entry");
        }
        t[static_cast<size_t>(k->id)] = &l;
      }
    }
    for (const auto& k : kernel_table()) {
      if (k.op == ReduceOp::Histogram && !t[static_cast<size_t>(k.id)]) {
        throw std::logic_error(std::string("histogram kernel ") + k.name + " has no binding");
      }
    }
    return t;
  }();
  return table;
}

// Why `id` cannot be run as a reduction (it is a histogram), or nothing.
std::optional<std::string> histogram_problem(KernelId id) {
  const KernelInfo& k = kernel_info(id);
  if (k.op != ReduceOp::Histogram) return std::nullopt;
  return std::string(k.name) + " is a histogram, not a reduction to one value: run it with `reducescope histogram --kernel " +
         k.name + "`";
}

template <class T>
constexpr DType dtype_of() {
  return std::is_same_v<T, float> ? DType::Float32 : DType::Int32;
}

// The instantiation of `id` for element type T, probe and block size; throws
// std::invalid_argument with the user-facing reason when the pair cannot run.
template <class T, class Probe>
KernelFn<T, Probe> kernel_fn(KernelId id, unsigned bs) {
  if (auto why = histogram_problem(id)) throw std::invalid_argument(*why);
  if (auto why = block_size_problem(id, bs)) throw std::invalid_argument(why->say());
  if (auto why = dtype_problem(id, dtype_of<T>())) throw std::invalid_argument(why->say());
  size_t index = 0;
  while (kBlockSizes[index] != bs) ++index;  // bs is one of kBlockSizes (checked above)
  KernelFn<T, Probe> f = launcher_table()[static_cast<size_t>(id)]->get<T, Probe>(index);
  if (!f) throw std::invalid_argument("no instantiation of " + std::string(kernel_info(id).name) + " for block size " +
                                      std::to_string(bs));
  return f;
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

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

struct GpuReducer::Impl {
  int device = 0;
  DeviceInfo info;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  void* d_in = nullptr;  // N elements of `dtype`
  void* d_a = nullptr;   // partial sums (ping), or the global accumulator at d_a[0]
  void* d_b = nullptr;   // partial sums (pong)
  void* d_own = nullptr;     // KernelInfo::own_out kernels' output (64 words, zeroed once): reproducible_sum's
  void* d_single = nullptr;  // Finish::SinglePass: [0] result, [1] finished-block counter, [2..] partials;
                             // zeroed once; the kernels wrap the counter back to 0
  void* d_copy = nullptr;
  void* d_flush = nullptr;
  size_t flush_bytes = 0;
  void* d_cub_temp = nullptr;
  size_t cub_temp_bytes = 0;
  size_t n = 0;
  size_t partial_elems = 0;  // 32-bit words in d_a and d_b
  DType dtype = DType::Int32;
  Pattern pattern = Pattern::RandomBytes;
  // Finish::HostSum (in place): a zero-padded scratch copy of the input. HostSum and HostReduce:
  // pinned host memory for the per-block partials the host combines.
  void* d_scratch = nullptr;
  size_t scratch_elems = 0;   // n rounded up to whole tiles of kScratchTile elements
  int32_t* h_partials = nullptr;  // partial_elems 32-bit words
  unsigned pending_partials = 0;  // blocks whose partials the last host-finished launch left in h_partials
  ReduceOp pending_op = ReduceOp::Sum;  // that launch's kernel's operator
  static constexpr size_t kScratchTile = 8 * 1024;  // 8 elements per thread x 1024 threads

  // The histogram input (set_histogram_input): bytes, the bins, CUB's storage and letter levels.
  unsigned char* d_bytes = nullptr;
  size_t nbytes = 0;
  HistoBins hbins = HistoBins::Bytes256;
  std::string hlabel;
  unsigned int* d_hist = nullptr;  // 256 counters
  int* d_levels = nullptr;         // kLetterLevels, for CUB's letter bins
  void* d_hist_temp = nullptr;
  size_t hist_temp_bytes = 0;

  void free_histogram() {
    cudaFree(d_bytes);
    cudaFree(d_hist);
    cudaFree(d_levels);
    cudaFree(d_hist_temp);
    d_bytes = nullptr;
    d_hist = nullptr;
    d_levels = nullptr;
    d_hist_temp = nullptr;
    hist_temp_bytes = 0;
    nbytes = 0;
  }

  // Shared memory of a histogram kernel: a copy of the bins per block (private_bins), or a count per byte value
  // per warp (warp_bins).
  static unsigned histo_smem(KernelId k, HistoBins b, unsigned bs) {
    const KernelInfo& info = kernel_info(k);
    if (info.warp_bins) return (bs / 32) * 256 * 4;
    return info.private_bins ? bin_count(b) * 4 : 0;
  }

  template <class Probe>
  HistoFn<Probe> histo_fn(KernelId k, unsigned bs) const {
    if (kernel_info(k).op != ReduceOp::Histogram) {
      throw std::invalid_argument(std::string(kernel_info(k).name) + " is a reduction, not a histogram");
    }
    if (auto why = block_size_problem(k, bs)) throw std::invalid_argument(why->say());
    if (nbytes == 0) throw std::logic_error("GpuReducer: no histogram input (call set_histogram_input first)");
    return histo_table()[static_cast<size_t>(k)]->get<Probe>(hbins == HistoBins::Letters7 ? 0 : 1);
  }

  unsigned histo_grid(KernelId k, unsigned bs) const {
    int per_sm = 0;
    RS_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histo_fn<NullProbe>(k, bs), static_cast<int>(bs),
                                                          histo_smem(k, hbins, bs)));
    const size_t resident = static_cast<size_t>(std::max(per_sm, 1)) * static_cast<size_t>(info.sm_count);
    return static_cast<unsigned>(std::max<size_t>(1, std::min(resident, (nbytes + bs - 1) / bs)));
  }

  // Enqueues zeroing the bins and one launch.
  template <class Probe>
  void launch_histogram(KernelId k, unsigned bs, Probe probe) {
    HistoFn<Probe> fn = histo_fn<Probe>(k, bs);
    RS_CUDA(cudaMemsetAsync(d_hist, 0, 256 * sizeof(unsigned int), stream));
    fn<<<histo_grid(k, bs), bs, histo_smem(k, hbins, bs), stream>>>(d_bytes, static_cast<long>(nbytes), d_hist, probe);
    RS_CUDA(cudaPeekAtLastError());
  }

  // Enqueues zeroing the bins and one launch of a user's histogram (ExternalHistogram) over the histogram input.
  void launch_external_histogram(const ExternalHistogram& h, unsigned grid, unsigned bs) {
    RS_CUDA(cudaMemsetAsync(d_hist, 0, 256 * sizeof(unsigned int), stream));
    h.launch(grid, bs, h.smem_bytes, d_bytes, static_cast<long>(nbytes), d_hist, stream);
  }

  std::vector<uint32_t> read_bins() {
    std::vector<uint32_t> h(bin_count(hbins));
    RS_CUDA(cudaMemcpyAsync(h.data(), d_hist, h.size() * 4, cudaMemcpyDeviceToHost, stream));
    RS_CUDA(cudaStreamSynchronize(stream));
    return h;
  }

  cudaError_t enqueue_cub_histogram() {
    const bool letters = hbins == HistoBins::Letters7;
    if (!d_hist_temp) {
      cudaError_t e = ::rs::cub_histogram(nullptr, hist_temp_bytes, d_bytes, d_hist, nbytes, letters, d_levels, stream);
      if (e != cudaSuccess) return e;
      e = cudaMalloc(&d_hist_temp, std::max<size_t>(hist_temp_bytes, 16));
      if (e != cudaSuccess) return e;
    }
    // CUB's HistogramEven and HistogramRange zero the bins themselves; the memset keeps bins past
    // bin_count (unused) at zero and matches the kernels' timed region.
    cudaError_t e = cudaMemsetAsync(d_hist, 0, 256 * sizeof(unsigned int), stream);
    if (e != cudaSuccess) return e;
    return ::rs::cub_histogram(d_hist_temp, hist_temp_bytes, d_bytes, d_hist, nbytes, letters, d_levels, stream);
  }

  void free_input() {
    cudaFree(d_in);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_single);
    d_single = nullptr;
    cudaFree(d_own);
    d_own = nullptr;
    cudaFree(d_copy);
    cudaFree(d_cub_temp);
    cudaFree(d_scratch);
    cudaFreeHost(h_partials);
    d_scratch = nullptr;
    h_partials = nullptr;
    scratch_elems = partial_elems = 0;
    d_in = d_a = d_b = d_copy = nullptr;
    d_cub_temp = nullptr;
    cub_temp_bytes = 0;
    n = 0;
  }

  void upload(const void* data, size_t count, DType type, Pattern p) {
    if (count == 0) throw std::invalid_argument("N must be at least 1");
    if (count > (1ull << 31)) throw std::invalid_argument("N must be at most 2^31 (2147483648)");
    free_input();
    // The first launch at 32 threads/block writes ceil(n/32) partials; farthest_point writes 4 words
    // per 6 x 32 inputs.
    const size_t partial = count / 32 + 8;
    const size_t need = (2 * count + 2 * partial) * 4;
    size_t free_b = 0, total_b = 0;
    RS_CUDA(cudaMemGetInfo(&free_b, &total_b));
    if (need + (64u << 20) > free_b) {
      throw CudaError("N = " + std::to_string(count) + " needs " + std::to_string(need >> 20) +
                      " MiB of device memory; " + std::to_string(free_b >> 20) + " MiB are free on " + info.name +
                      " (try a smaller N)");
    }
    RS_CUDA(cudaMalloc(&d_in, count * 4));
    RS_CUDA(cudaMalloc(&d_copy, count * 4));
    RS_CUDA(cudaMalloc(&d_a, partial * 4));
    RS_CUDA(cudaMalloc(&d_b, partial * 4));
    RS_CUDA(cudaMalloc(&d_single, (partial + 2) * 4));
    RS_CUDA(cudaMalloc(&d_own, kOwnOutWords * 4));
    // On `stream`, where the kernels run: a plain cudaMemset on the legacy default stream is not ordered
    // before work on a non-blocking stream, and the first single-pass launch read a stale counter.
    RS_CUDA(cudaMemsetAsync(d_single, 0, (partial + 2) * 4, stream));
    RS_CUDA(cudaMemsetAsync(d_own, 0, kOwnOutWords * 4, stream));
    // On `stream` and waited for: a cudaMemcpy from pageable memory may return before its DMA lands, and
    // the legacy default stream does not order work on the non-blocking `stream`.
    RS_CUDA(cudaMemcpyAsync(d_in, data, count * 4, cudaMemcpyHostToDevice, stream));
    RS_CUDA(cudaStreamSynchronize(stream));
    partial_elems = partial;
    n = count;
    dtype = type;
    pattern = p;
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
    if (dtype == DType::Float32) {
      RS_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel_fn<float, NullProbe>(id, bs),
                                                            static_cast<int>(bs), smem_bytes(id, bs)));
    } else {
      RS_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel_fn<int, NullProbe>(id, bs),
                                                            static_cast<int>(bs), smem_bytes(id, bs)));
    }
    return static_cast<size_t>(std::max(per_sm, 1)) * static_cast<size_t>(info.sm_count);
  }

  // Dynamic shared memory of one block, bytes (all element types are 4 bytes).
  static unsigned smem_bytes(KernelId id, unsigned bs) { return bs * kernel_info(id).smem_per_thread * 4; }

  // Finish::HostSum: a fresh zero-padded scratch copy of the input, since the kernel destroys it.
  // Enqueued before (and timed apart from) the reduction: the user's input is never modified.
  void prepare_scratch() {
    if (!d_scratch) {
      scratch_elems = (n + kScratchTile - 1) / kScratchTile * kScratchTile;
      RS_CUDA(cudaMalloc(&d_scratch, scratch_elems * 4));
    }
    RS_CUDA(cudaMemcpyAsync(d_scratch, d_in, n * 4, cudaMemcpyDeviceToDevice, stream));
    if (scratch_elems > n) {
      RS_CUDA(cudaMemsetAsync(static_cast<char*>(d_scratch) + n * 4, 0, (scratch_elems - n) * 4, stream));
    }
  }

  static bool host_finished(KernelId id) {
    const Finish f = kernel_info(id).finish;
    return f == Finish::HostSum || f == Finish::HostReduce;
  }

  void prepare(KernelId id) {
    if (host_finished(id) && !h_partials) {
      RS_CUDA(cudaMallocHost(reinterpret_cast<void**>(&h_partials), partial_elems * 4));
    }
    if (kernel_info(id).finish == Finish::HostSum) prepare_scratch();
  }

  // Enqueues the copy of `blocks` partials of the launch just enqueued to pinned host memory.
  void fetch_partials(ReduceOp op, unsigned blocks) {
    const size_t words = static_cast<size_t>(blocks) * (op == ReduceOp::Farthest ? 4 : 1);
    RS_CUDA(cudaMemcpyAsync(h_partials, d_a, words * 4, cudaMemcpyDeviceToHost, stream));
    pending_partials = blocks;
    pending_op = op;
  }

  // HostSum and HostReduce: waits for the partials and combines them on the host with the kernel's
  // operator (kernels/reduce_ops.hpp; int sums wrap). Returns the result's 32 bits.
  int32_t host_finish() {
    RS_CUDA(cudaStreamSynchronize(stream));
    if (pending_op == ReduceOp::Farthest) {
      int32_t best = -1;
      uint64_t best_d = 0;
      for (unsigned b = 0; b < pending_partials; ++b) {
        const int32_t* p = h_partials + 4 * b;
        const uint64_t d = sq_norm(p[1], p[2], p[3]);
        if (farther(d, p[0], best_d, best)) {
          best = p[0];
          best_d = d;
        }
      }
      return best;
    }
    if (dtype == DType::Float32) return combine_partials<float>(pending_op);
    return combine_partials<int32_t>(pending_op);
  }

  // host_finish(), timed: milliseconds (the host's part of a host-finished reduction, added to its sample).
  double timed_host_finish() {
    const auto t0 = std::chrono::steady_clock::now();
    host_finish();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }

  template <class T>
  int32_t combine_partials(ReduceOp op) const {
    const T* v = reinterpret_cast<const T*>(h_partials);
    auto fold = [&](auto f) {
      T acc = f.identity();
      for (unsigned i = 0; i < pending_partials; ++i) acc = f(acc, v[i]);
      int32_t bits = 0;
      std::memcpy(&bits, &acc, sizeof bits);
      return bits;
    };
    switch (op) {
      case ReduceOp::Min: return fold(OpMin<T>{});
      case ReduceOp::Max: return fold(OpMax<T>{});
      case ReduceOp::Sum:
      case ReduceOp::Farthest: break;
    }
    return fold(OpSum<T>{});
  }

  unsigned launches(KernelId id, unsigned bs) const {
    return count_launches(kernel_info(id).finish, [&](size_t c) { return grid(id, bs, c); });
  }
  // Launches one reduction takes with `finish`, the grid of a launch over `count` elements being grid_of(count).
  template <class Grid>
  unsigned count_launches(Finish finish, Grid grid_of) const {
    switch (finish) {
      case Finish::GlobalAtomic:
      case Finish::HostSum:
      case Finish::HostReduce:
      case Finish::SinglePass: return 1;
      case Finish::SecondKernel: return grid_of(n) > 1 ? 2 : 1;
      case Finish::Relaunch: break;
    }
    unsigned count = 0;
    size_t c = n;
    for (;;) {
      ++count;
      unsigned blocks = grid_of(c);
      if (blocks == 1) return count;
      c = blocks;
    }
  }

  // Enqueues the whole reduction on `stream` as the kernel's Finish says; returns where the
  // result will be. `first` is the probe of the first launch, `rest` of any later one.
  template <class T, class Probe>
  T* launch(KernelId id, unsigned bs, Probe first, Probe rest) {
    if (n == 0) throw std::logic_error("GpuReducer: no input (call set_input first)");
    if (auto why = cc_problem(id, info.cc_major, info.cc_minor)) throw std::invalid_argument(why->say());
    KernelFn<T, Probe> fn = kernel_fn<T, Probe>(id, bs);
    const size_t smem = smem_bytes(id, bs);
    const KernelInfo& k = kernel_info(id);
    auto go = [&](unsigned blocks, unsigned threads, const T* src, T* dst, size_t count, Probe p) {
      fn<<<blocks, threads, smem, stream>>>(src, dst, static_cast<unsigned>(count), p);
      RS_CUDA(cudaPeekAtLastError());
    };
    return enqueue<T>(k.finish, k.op, k.own_out, k.name, bs, go, [&](size_t c) { return grid(id, bs, c); }, first,
                      rest);
  }

  // The finishes of Finish for any kernel: go(blocks, threads, src, dst, count, probe) enqueues one grid of it,
  // grid_of(count) is the grid of a launch over `count` elements.
  template <class T, class Probe, class Go, class Grid>
  T* enqueue(Finish finish, ReduceOp op, bool own_out, const char* name, unsigned bs, Go go, Grid grid_of,
             Probe first, Probe rest) {
    const T* in = static_cast<const T*>(d_in);
    T* a = static_cast<T*>(d_a);
    T* b = static_cast<T*>(d_b);
    switch (finish) {
      case Finish::HostSum: {
        // In place on the scratch copy (prepare_scratch), `n` its padded length; the partials go
        // to pinned host memory, which host_finish() adds up.
        if constexpr (std::is_same_v<T, int>) {
          const unsigned blocks = grid_of(n);
          go(blocks, bs, static_cast<const T*>(d_scratch), a, scratch_elems, first);
          fetch_partials(op, blocks);
          return nullptr;
        } else {
          throw std::invalid_argument(std::string(name) + " reduces int32 only");
        }
      }
      case Finish::HostReduce: {
        // Each block writes its result to d_a; host_finish() combines them.
        const unsigned blocks = grid_of(n);
        go(blocks, bs, in, a, n, first);
        fetch_partials(op, blocks);
        return nullptr;
      }
      case Finish::GlobalAtomic: {
        RS_CUDA(cudaMemsetAsync(a, 0, sizeof(T), stream));
        go(grid_of(n), bs, in, a, n, first);
        return a;
      }
      case Finish::SinglePass: {
        T* single = static_cast<T*>(own_out ? d_own : d_single);
        go(grid_of(n), bs, in, single, n, first);
        return single;
      }
      case Finish::SecondKernel: {
        const unsigned blocks = grid_of(n);
        go(blocks, bs, in, a, n, first);
        if (blocks == 1) return a;
        go(1, bs, a, b, blocks, rest);
        return b;
      }
      case Finish::Relaunch: break;
    }
    size_t count = n;
    const T* src = in;
    T* dst = a;
    T* other = b;
    bool first_level = true;
    for (;;) {
      unsigned blocks = grid_of(count);
      go(blocks, bs, src, dst, count, first_level ? first : rest);
      if (blocks == 1) return dst;
      count = blocks;
      src = dst;
      std::swap(dst, other);
      first_level = false;
    }
  }

  // Kernels from outside the registry (ExternalKernel), defined with GpuReducer's methods for them below.
  void check_external(const ExternalKernel& k, unsigned bs) const;
  unsigned external_grid(const ExternalKernel& k, unsigned bs, size_t count) const;
  template <class T, class Probe>
  T* launch_external(const ExternalKernel& k, unsigned bs, Probe first, Probe rest);
  template <class Probe>
  void* launch_external_any(const ExternalKernel& k, unsigned bs, Probe first, Probe rest);
  template <class Launch>
  Trace record_trace(const std::string& name, uint32_t capacity, unsigned traced_block, Launch launch);

  // The same, dispatched on the input's element type; returns the result's address.
  template <class Probe>
  void* launch_any(KernelId id, unsigned bs, Probe first, Probe rest) {
    if (dtype == DType::Float32) return launch<float>(id, bs, first, rest);
    return launch<int>(id, bs, first, rest);
  }

  // The result of the reduction just enqueued: at d_result, or (nullptr) the host's finish of the partials.
  int32_t read_result(const void* d_result) {
    if (!d_result) return host_finish();
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

  cudaError_t enqueue_cub() {
    if (dtype == DType::Float32) {
      return cub_sum(d_cub_temp, cub_temp_bytes, static_cast<const float*>(d_in), static_cast<float*>(d_a), n,
                     stream);
    }
    return cub_sum(d_cub_temp, cub_temp_bytes, static_cast<const int*>(d_in), static_cast<int*>(d_a), n, stream);
  }

  // Times `body` (which enqueues work on `stream`) with the method described in Timing.
  // `prepare` runs before each run, untimed (a fresh scratch copy for in-place kernels, then the L2
  // flush evicts it); `host_finish` returns the milliseconds of host work after the GPU's part (the
  // book's host sum of the partials), which is added to the sample.
  template <class Body, class Prepare, class HostFinish>
  std::vector<float> sample(Body body, int samples, int warmups, Prepare prepare, HostFinish host_finish) {
    if (samples < 1) throw std::invalid_argument("samples must be at least 1");
    ensure_flush();
    for (int w = 0; w < warmups; ++w) {
      prepare();
      body();
      RS_CUDA(cudaStreamSynchronize(stream));
      host_finish();
    }
    std::vector<float> ms;
    ms.reserve(samples);
    for (int s = 0; s < samples; ++s) {
      prepare();
      RS_CUDA(cudaMemsetAsync(d_flush, s & 0xff, flush_bytes, stream));  // evicts the input from L2
      RS_CUDA(cudaEventRecord(start, stream));
      body();
      RS_CUDA(cudaEventRecord(stop, stream));
      RS_CUDA(cudaEventSynchronize(stop));
      float t = 0;
      RS_CUDA(cudaEventElapsedTime(&t, start, stop));
      ms.push_back(t + static_cast<float>(host_finish()));
    }
    return ms;
  }
  template <class Body>
  std::vector<float> sample(Body body, int samples, int warmups) {
    return sample(body, samples, warmups, [] {}, [] { return 0.0; });
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
  d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  d.l2_bytes = static_cast<size_t>(p.l2CacheSize);
  d.global_mem_bytes = p.totalGlobalMem;
  d.bus_width_bits = p.memoryBusWidth;
  d.reserved_smem_bytes = p.reservedSharedMemPerBlock;
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
  impl_->free_histogram();
  cudaFree(impl_->d_flush);
  if (impl_->start) cudaEventDestroy(impl_->start);
  if (impl_->stop) cudaEventDestroy(impl_->stop);
  if (impl_->stream) cudaStreamDestroy(impl_->stream);
}

const DeviceInfo& GpuReducer::device() const { return impl_->info; }
size_t GpuReducer::n() const { return impl_->n; }
DType GpuReducer::dtype() const { return impl_->dtype; }

void GpuReducer::set_input(const std::vector<int32_t>& data, Pattern pattern) {
  impl_->upload(data.data(), data.size(), DType::Int32, pattern);
}

void GpuReducer::set_input(const std::vector<float>& data, Pattern pattern) {
  impl_->upload(data.data(), data.size(), DType::Float32, pattern);
}

unsigned GpuReducer::first_grid(KernelId kernel, unsigned block_size) const {
  return impl_->grid(kernel, block_size, impl_->n);
}

unsigned GpuReducer::launches(KernelId kernel, unsigned block_size) const {
  return impl_->launches(kernel, block_size);
}

int32_t GpuReducer::run(KernelId kernel, unsigned block_size) {
  Impl& m = *impl_;
  if (m.n == 0) throw std::logic_error("GpuReducer: no input (call set_input first)");
  m.prepare(kernel);
  return m.read_result(m.launch_any(kernel, block_size, NullProbe{}, NullProbe{}));
}

Timing GpuReducer::time(KernelId kernel, unsigned block_size, int samples, int warmups) {
  Impl& m = *impl_;
  run(kernel, block_size);  // validates before timing
  const bool host_part = Impl::host_finished(kernel);
  auto ms = m.sample([&] { m.launch_any(kernel, block_size, NullProbe{}, NullProbe{}); }, samples, warmups,
                     [&] { m.prepare(kernel); }, [&] { return host_part ? m.timed_host_finish() : 0.0; });
  Timing t = summarize(std::move(ms), static_cast<double>(m.n) * 4, m.info.peak_gbps());
  t.launches = m.launches(kernel, block_size);
  return t;
}

const void* GpuReducer::enqueue_on_device(KernelId kernel, unsigned block_size) {
  Impl& m = *impl_;
  if (m.n == 0) throw std::logic_error("GpuReducer: no input (call set_input first)");
  if (Impl::host_finished(kernel)) {
    throw std::invalid_argument(std::string(kernel_info(kernel).name) + " finishes on the host: no device result");
  }
  RS_CUDA(cudaSetDevice(m.device));
  m.prepare(kernel);
  return m.launch_any(kernel, block_size, NullProbe{}, NullProbe{});
}

void GpuReducer::enqueue_l2_flush() {
  Impl& m = *impl_;
  RS_CUDA(cudaSetDevice(m.device));
  m.ensure_flush();
  RS_CUDA(cudaMemsetAsync(m.d_flush, 0x5a, m.flush_bytes, m.stream));
}

void* GpuReducer::stream_handle() const { return impl_->stream; }

int32_t GpuReducer::run_cub() {
  Impl& m = *impl_;
  if (!m.d_cub_temp) {
    m.cub_temp_bytes = m.dtype == DType::Float32 ? cub_sum_temp_bytes_f32(m.n) : cub_sum_temp_bytes(m.n);
    RS_CUDA(cudaMalloc(&m.d_cub_temp, std::max<size_t>(m.cub_temp_bytes, 16)));
  }
  RS_CUDA(m.enqueue_cub());
  return m.read_result(m.d_a);
}

Timing GpuReducer::time_cub(int samples, int warmups) {
  Impl& m = *impl_;
  run_cub();  // allocates the temporary storage outside the timed region
  auto ms = m.sample([&] { RS_CUDA(m.enqueue_cub()); }, samples, warmups);
  return summarize(std::move(ms), static_cast<double>(m.n) * 4, m.info.peak_gbps());
}

Timing GpuReducer::time_copy(int samples, int warmups) {
  Impl& m = *impl_;
  auto ms = m.sample([&] { RS_CUDA(cudaMemcpyAsync(m.d_copy, m.d_in, m.n * 4, cudaMemcpyDeviceToDevice, m.stream)); },
                     samples, warmups);
  return summarize(std::move(ms), 2.0 * static_cast<double>(m.n) * 4, m.info.peak_gbps());
}

namespace {

// Trace records one reduction may write: reduce0 at 1024 threads writes about 16 records per thread; a
// grid-stride kernel one per element (or 16-byte vector) it loads on top (a single-pass kernel's last block also
// loads the grid's partials). Throws std::invalid_argument past 8M records (256 MiB).
uint32_t trace_capacity(const std::string& name, uint64_t n, unsigned grid, unsigned block_size, bool grid_stride) {
  const uint64_t per_thread_loads =
      grid_stride ? (n + uint64_t{grid} * block_size - 1) / (uint64_t{grid} * block_size) + grid / block_size + 1 : 0;
  const uint64_t want = uint64_t{block_size} * (128 + per_thread_loads);
  constexpr uint64_t kMaxRecords = 1u << 23;
  if (want > kMaxRecords) {
    throw std::invalid_argument("a trace of " + name + " over " + std::to_string(n) + " elements would need " +
                                std::to_string(want) + " records (at most " + std::to_string(kMaxRecords) +
                                "): trace a smaller N");
  }
  return static_cast<uint32_t>(want);
}

}  // namespace

// Enqueues `launch(first, rest)` (one whole reduction with the tracing build; returns where its result is, or
// nullptr for a host finish) with a buffer of `capacity` records that the first launch's block `traced_block`
// fills, and returns the trace with its records, result and the meta this reducer knows.
template <class Launch>
Trace GpuReducer::Impl::record_trace(const std::string& name, uint32_t capacity, unsigned traced_block,
                                     Launch launch) {
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
    RS_CUDA(cudaMemsetAsync(d_count, 0, sizeof(uint32_t), stream));
    TraceProbe first{d_records, capacity, d_count, traced_block, 0, 0};
    TraceProbe rest{d_records, capacity, d_count, 0xffffffffu, 0, 0};
    t.meta.result = read_result(launch(first, rest));
    uint32_t count = 0;
    RS_CUDA(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
    if (count > capacity) {
      throw CudaError("trace of " + name + " overflowed its buffer (" + std::to_string(count) + " records, room for " +
                      std::to_string(capacity) + ")");
    }
    t.records.resize(count);
    RS_CUDA(cudaMemcpy(t.records.data(), d_records, count * sizeof(TraceRecord), cudaMemcpyDeviceToHost));
  } catch (...) {
    cleanup();
    throw;
  }
  cleanup();
  TraceMeta& meta = t.meta;
  meta.kernel = name;
  meta.dtype = dtype;
  meta.n = n;
  meta.traced_block = traced_block;
  meta.pattern = to_string(pattern);
  meta.gpu = info.name;
  meta.compute_capability = std::to_string(info.cc_major) + "." + std::to_string(info.cc_minor);
  meta.cuda_version = info.cuda_runtime;
  meta.date = utc_now();
  meta.tool_version = kToolVersion;
  return t;
}

Trace GpuReducer::trace(KernelId kernel, unsigned block_size, unsigned traced_block) {
  Impl& m = *impl_;
  if (m.n == 0) throw std::logic_error("GpuReducer: no input (call set_input first)");
  if (m.dtype == DType::Float32) {
    kernel_fn<float, TraceProbe>(kernel, block_size);  // validate
  } else {
    kernel_fn<int, TraceProbe>(kernel, block_size);
  }
  const KernelInfo& info = kernel_info(kernel);
  const unsigned grid = m.grid(kernel, block_size, m.n);
  if (traced_block >= grid) {
    throw std::invalid_argument("block " + std::to_string(traced_block) + " does not exist: the first launch of " +
                                info.name + " has " + std::to_string(grid) + " blocks");
  }
  const uint32_t capacity = trace_capacity(info.name, m.n, grid, block_size, info.grid_stride);
  m.prepare(kernel);
  Trace t = m.record_trace(info.name, capacity, traced_block, [&](TraceProbe first, TraceProbe rest) {
    return m.launch_any(kernel, block_size, first, rest);
  });
  t.meta.track = info.track;
  t.meta.block_size = block_size;
  t.meta.grid_size = grid;
  t.meta.smem_bytes = Impl::smem_bytes(kernel, block_size);
  t.source = kernel_source(info.track);
  return t;
}

// ---- Kernels from outside the registry (ExternalKernel) ---------------------------------------------------

void GpuReducer::Impl::check_external(const ExternalKernel& k, unsigned bs) const {
  if (n == 0) throw std::logic_error("GpuReducer: no input (call set_input first)");
  if (!k.launch) throw std::invalid_argument(k.name + " has no launcher");
  if (auto why = block_size_problem(bs)) throw std::invalid_argument(why->say());
  if (bs < k.min_block_size) {
    throw std::invalid_argument(k.name + " needs at least " + std::to_string(k.min_block_size) +
                                " threads per block (its RS_LAUNCH_SHAPE says so)");
  }
  if (!(k.dtypes & dtype_bit(dtype))) {
    throw std::invalid_argument(k.name + " does not take " + to_string(dtype) + " elements");
  }
  if (k.finish == Finish::HostSum) throw std::invalid_argument(k.name + ": HostSum works in place; not for this kernel");
  if (k.inputs_per_thread < 1 || k.inputs_per_thread > kMaxElementsPerThread) {
    throw std::invalid_argument(k.name + ": elements per thread must be 1 to " + std::to_string(kMaxElementsPerThread));
  }
}

unsigned GpuReducer::Impl::external_grid(const ExternalKernel& k, unsigned bs, size_t count) const {
  const size_t per_block = static_cast<size_t>(bs) * k.inputs_per_thread;
  return static_cast<unsigned>(std::max<size_t>((count + per_block - 1) / per_block, 1));
}

template <class T, class Probe>
T* GpuReducer::Impl::launch_external(const ExternalKernel& k, unsigned bs, Probe first, Probe rest) {
  check_external(k, bs);
  if (k.finish == Finish::HostReduce && !h_partials) {
    RS_CUDA(cudaMallocHost(reinterpret_cast<void**>(&h_partials), partial_elems * 4));
  }
  auto go = [&](unsigned blocks, unsigned threads, const T* src, T* dst, size_t count, Probe p) {
    const void* probe = nullptr;
    if constexpr (std::is_same_v<Probe, TraceProbe>) probe = &p;
    k.launch(dtype, blocks, threads, threads * 4, src, dst, static_cast<unsigned>(count), probe, stream);
  };
  return enqueue<T>(k.finish, ReduceOp::Sum, false, k.name.c_str(), bs, go,
                    [&](size_t c) { return external_grid(k, bs, c); }, first, rest);
}

template <class Probe>
void* GpuReducer::Impl::launch_external_any(const ExternalKernel& k, unsigned bs, Probe first, Probe rest) {
  if (dtype == DType::Float32) return launch_external<float>(k, bs, first, rest);
  return launch_external<int>(k, bs, first, rest);
}

int32_t GpuReducer::run(const ExternalKernel& k, unsigned block_size) {
  Impl& m = *impl_;
  return m.read_result(m.launch_external_any(k, block_size, NullProbe{}, NullProbe{}));
}

void GpuReducer::poison_single_pass_result(uint32_t poison) {
  Impl& m = *impl_;
  if (!m.d_single) throw std::logic_error("poison_single_pass_result before set_input");
  RS_CUDA(cudaMemcpyAsync(m.d_single, &poison, sizeof poison, cudaMemcpyHostToDevice, m.stream));
  RS_CUDA(cudaStreamSynchronize(m.stream));
}

uint32_t GpuReducer::single_pass_counter() {
  Impl& m = *impl_;
  if (!m.d_single) throw std::logic_error("single_pass_counter before set_input");
  uint32_t v = 0;
  RS_CUDA(cudaMemcpyAsync(&v, static_cast<const uint32_t*>(m.d_single) + 1, sizeof v, cudaMemcpyDeviceToHost, m.stream));
  RS_CUDA(cudaStreamSynchronize(m.stream));
  return v;
}

Timing GpuReducer::time(const ExternalKernel& k, unsigned block_size, int samples, int warmups) {
  Impl& m = *impl_;
  run(k, block_size);  // validates before timing
  const bool host_part = k.finish == Finish::HostReduce;
  auto ms = m.sample([&] { m.launch_external_any(k, block_size, NullProbe{}, NullProbe{}); }, samples, warmups,
                     [] {}, [&] { return host_part ? m.timed_host_finish() : 0.0; });
  Timing t = summarize(std::move(ms), static_cast<double>(m.n) * 4, m.info.peak_gbps());
  t.launches = launches(k, block_size);
  return t;
}

Trace GpuReducer::trace(const ExternalKernel& k, unsigned block_size, unsigned traced_block) {
  Impl& m = *impl_;
  if (k.plain) throw std::logic_error(k.name + " is plain CUDA: the binary tracer traces it (trace_kernel_file)");
  m.check_external(k, block_size);
  const unsigned grid = m.external_grid(k, block_size, m.n);
  if (traced_block >= grid) {
    throw std::invalid_argument("block " + std::to_string(traced_block) + " does not exist: the first launch of " +
                                k.name + " has " + std::to_string(grid) + " blocks");
  }
  const uint32_t capacity = trace_capacity(k.name, m.n, grid, block_size, false);
  Trace t = m.record_trace(k.name, capacity, traced_block, [&](TraceProbe first, TraceProbe rest) {
    return m.launch_external_any(k, block_size, first, rest);
  });
  t.meta.track = k.track;
  t.meta.block_size = block_size;
  t.meta.grid_size = grid;
  t.meta.smem_bytes = block_size * 4;
  t.source = k.source;
  return t;
}

unsigned GpuReducer::first_grid(const ExternalKernel& k, unsigned block_size) const {
  return impl_->external_grid(k, block_size, impl_->n);
}

unsigned GpuReducer::launches(const ExternalKernel& k, unsigned block_size) const {
  return impl_->count_launches(k.finish, [&](size_t c) { return impl_->external_grid(k, block_size, c); });
}

// ---- Histograms --------------------------------------------------------------------------------

void GpuReducer::set_histogram_input(const std::vector<uint8_t>& bytes, HistoBins bins, const std::string& label) {
  Impl& m = *impl_;
  if (bytes.empty()) throw std::invalid_argument("the histogram input must hold at least 1 byte");
  if (bytes.size() > (1ull << 31)) throw std::invalid_argument("the histogram input must be at most 2^31 bytes");
  m.free_histogram();
  size_t free_b = 0, total_b = 0;
  RS_CUDA(cudaMemGetInfo(&free_b, &total_b));
  if (bytes.size() + (64u << 20) > free_b) {
    throw CudaError(std::to_string(bytes.size() >> 20) + " MiB of histogram input do not fit: " +
                    std::to_string(free_b >> 20) + " MiB are free on " + m.info.name + " (try fewer bytes)");
  }
  RS_CUDA(cudaMalloc(&m.d_bytes, bytes.size()));
  RS_CUDA(cudaMalloc(&m.d_hist, 256 * sizeof(unsigned int)));
  RS_CUDA(cudaMalloc(&m.d_levels, sizeof kLetterLevels));
  RS_CUDA(cudaMemcpyAsync(m.d_bytes, bytes.data(), bytes.size(), cudaMemcpyHostToDevice, m.stream));
  RS_CUDA(cudaMemcpyAsync(m.d_levels, kLetterLevels, sizeof kLetterLevels, cudaMemcpyHostToDevice, m.stream));
  RS_CUDA(cudaStreamSynchronize(m.stream));
  m.nbytes = bytes.size();
  m.hbins = bins;
  m.hlabel = label;
}

size_t GpuReducer::histogram_bytes() const { return impl_->nbytes; }

unsigned GpuReducer::histogram_grid(KernelId k, unsigned block_size) const {
  return impl_->histo_grid(k, block_size);
}

std::vector<uint32_t> GpuReducer::histogram(KernelId k, unsigned block_size) {
  impl_->launch_histogram(k, block_size, NullProbe{});
  return impl_->read_bins();
}

Timing GpuReducer::time_histogram(KernelId k, unsigned block_size, int samples, int warmups) {
  Impl& m = *impl_;
  histogram(k, block_size);  // validates before timing
  auto ms = m.sample([&] { m.launch_histogram(k, block_size, NullProbe{}); }, samples, warmups);
  Timing t = summarize(std::move(ms), static_cast<double>(m.nbytes), m.info.peak_gbps());
  t.launches = 1;  // one kernel launch (after a memset of the bins, timed too)
  return t;
}

unsigned GpuReducer::histogram_grid(const ExternalHistogram& h, unsigned block_size) const {
  const Impl& m = *impl_;
  if (block_size < 32 || block_size > 1024 || (block_size & (block_size - 1)) != 0) {
    throw std::invalid_argument("block size " + std::to_string(block_size) + ": use 32, 64, ..., 1024");
  }
  const size_t resident = static_cast<size_t>(std::max(h.max_blocks_per_sm(block_size, h.smem_bytes), 1)) *
                          static_cast<size_t>(m.info.sm_count);
  return static_cast<unsigned>(std::max<size_t>(1, std::min(resident, (m.nbytes + block_size - 1) / block_size)));
}

std::vector<uint32_t> GpuReducer::histogram(const ExternalHistogram& h, unsigned block_size) {
  Impl& m = *impl_;
  if (m.nbytes == 0) throw std::logic_error("GpuReducer: no histogram input (call set_histogram_input first)");
  m.launch_external_histogram(h, histogram_grid(h, block_size), block_size);
  return m.read_bins();
}

Timing GpuReducer::time_histogram(const ExternalHistogram& h, unsigned block_size, int samples, int warmups) {
  Impl& m = *impl_;
  histogram(h, block_size);  // validates before timing
  const unsigned grid = histogram_grid(h, block_size);
  auto ms = m.sample([&] { m.launch_external_histogram(h, grid, block_size); }, samples, warmups);
  Timing t = summarize(std::move(ms), static_cast<double>(m.nbytes), m.info.peak_gbps());
  t.launches = 1;
  return t;
}

std::vector<uint32_t> GpuReducer::cub_histogram() {
  Impl& m = *impl_;
  if (m.nbytes == 0) throw std::logic_error("GpuReducer: no histogram input (call set_histogram_input first)");
  RS_CUDA(m.enqueue_cub_histogram());
  return m.read_bins();
}

Timing GpuReducer::time_cub_histogram(int samples, int warmups) {
  Impl& m = *impl_;
  cub_histogram();  // allocates CUB's storage outside the timed region
  auto ms = m.sample([&] { RS_CUDA(m.enqueue_cub_histogram()); }, samples, warmups);
  return summarize(std::move(ms), static_cast<double>(m.nbytes), m.info.peak_gbps());
}

Trace GpuReducer::trace_histogram(KernelId k, unsigned block_size, unsigned traced_block) {
  Impl& m = *impl_;
  const unsigned grid = m.histo_grid(k, block_size);
  if (traced_block >= grid) {
    throw std::invalid_argument("block " + std::to_string(traced_block) + " does not exist: " +
                                std::string(kernel_info(k).name) + " runs " +
                                std::to_string(grid) + " blocks");
  }
  // Each thread loads about nbytes / (grid x block) bytes and makes an atomic per byte (histo_warp's lanes a
  // load and a store of their own counter); the privatised kernels also zero their copies, merge them and
  // pass two barriers (histo_warp: up to warps x 32 x 7 or warps x 256 words each way).
  const uint64_t per_thread = (m.nbytes + uint64_t{grid} * block_size - 1) / (uint64_t{grid} * block_size);
  const uint64_t want = uint64_t{block_size} * (3 * per_thread + 16) + 4 * 256 + 2 * uint64_t{block_size} * 256;
  constexpr uint64_t kMaxRecords = 1u << 22;  // 4M records, 128 MiB: trace a smaller input than that
  if (want > kMaxRecords) {
    throw std::invalid_argument("a trace of " + std::string(kernel_info(k).name) + " over " + std::to_string(m.nbytes) +
                                " bytes would need " + std::to_string(want) + " records (at most " +
                                std::to_string(kMaxRecords) + "): trace fewer bytes");
  }
  const auto capacity = static_cast<uint32_t>(want);
  TraceRecord* d_records = nullptr;
  uint32_t* d_count = nullptr;
  Trace t;
  try {
    RS_CUDA(cudaMalloc(&d_records, capacity * sizeof(TraceRecord)));
    RS_CUDA(cudaMalloc(&d_count, sizeof(uint32_t)));
    RS_CUDA(cudaMemsetAsync(d_count, 0, sizeof(uint32_t), m.stream));
    m.launch_histogram(k, block_size, TraceProbe{d_records, capacity, d_count, traced_block, 0, 0});
    const std::vector<uint32_t> bins = m.read_bins();
    uint64_t total = 0;
    for (uint32_t b : bins) total += b;
    t.meta.result = static_cast<int32_t>(static_cast<uint32_t>(total));
    uint32_t count = 0;
    RS_CUDA(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
    if (count > capacity) {
      throw CudaError("trace of " + std::string(kernel_info(k).name) + " overflowed its buffer (" +
                      std::to_string(count) + " records, room for " + std::to_string(capacity) + ")");
    }
    t.records.resize(count);
    RS_CUDA(cudaMemcpy(t.records.data(), d_records, count * sizeof(TraceRecord), cudaMemcpyDeviceToHost));
  } catch (...) {
    cudaFree(d_records);
    cudaFree(d_count);
    throw;
  }
  cudaFree(d_records);
  cudaFree(d_count);
  TraceMeta& meta = t.meta;
  meta.kernel = kernel_info(k).name;
  meta.track = kernel_info(k).track;
  meta.dtype = DType::Int32;
  meta.block_size = block_size;
  meta.n = m.nbytes;
  meta.traced_block = traced_block;
  meta.grid_size = grid;
  meta.smem_bytes = Impl::histo_smem(k, m.hbins, block_size);
  meta.pattern = m.hlabel;
  meta.gpu = m.info.name;
  meta.compute_capability = std::to_string(m.info.cc_major) + "." + std::to_string(m.info.cc_minor);
  meta.cuda_version = m.info.cuda_runtime;
  meta.date = utc_now();
  meta.tool_version = kToolVersion;
  t.source = kernel_source(kernel_info(k).track);  // the course's histograms, or the modern track's histo_warp
  return t;
}

}  // namespace rs
