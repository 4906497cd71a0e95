// The GPU side of ReduceScope: run, time and trace the reduction kernels.
//
// Index
//   CudaError, NoDeviceError   what every CUDA failure raises
//   DeviceInfo                 the GPU and its theoretical peak bandwidth
//   Timing                     median / min / max of timed samples, effective bandwidth
//   ExternalKernel             a kernel from outside the registry (a user's, compiled at run time)
//   GpuReducer                 owns the device buffers for one input; run / time / trace
//
// The header is plain C++ (no CUDA types), so the CLI and the GUI include it without nvcc.
// Built without CUDA (REDUCESCOPE_CUDA=OFF), GpuReducer's constructor raises NoDeviceError.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "histogram.hpp"
#include "input.hpp"
#include "kernel_info.hpp"
#include "trace_format.hpp"

namespace rs {

// A CUDA call failed. what(): "<call>: <cudaGetErrorName>: <cudaGetErrorString>" plus advice
// where there is some (out of memory: "try a smaller --n").
class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// No usable CUDA device or driver (or a build without CUDA).
class NoDeviceError : public CudaError {
 public:
  using CudaError::CudaError;
};

struct DeviceInfo {
  std::string name;                 // e.g. "NVIDIA H100 80GB HBM3"
  int cc_major = 0, cc_minor = 0;   // compute capability
  int sm_count = 0;                 // streaming multiprocessors
  int max_threads_per_sm = 0;       // resident threads an SM holds at most (2048 on compute capability 8.0 and 9.0)
  size_t l2_bytes = 0;              // L2 cache size, bytes
  size_t global_mem_bytes = 0;      // device memory, bytes
  int mem_clock_khz = 0;            // peak memory clock, kHz
  int bus_width_bits = 0;           // memory bus width, bits
  std::string cuda_runtime;         // e.g. "13.0"
  size_t reserved_smem_bytes = 0;   // shared memory the system reserves per block, bytes, at the start of the
                                    // block's shared window (cudaDeviceProp::reservedSharedMemPerBlock: 1 KiB
                                    // on compute capability 8.0 and later); racecheck's addresses count it
  // Theoretical peak DRAM bandwidth in GB/s (1e9 bytes/s): 2 (double data rate) x memory
  // clock x bus width / 8. Harris's slides compute G80's 86.4 GB/s this way; the H100 SXM
  // gives 2 x 2619 MHz x 5120 bit / 8 = 3352 GB/s.
  double peak_gbps() const { return 2.0 * mem_clock_khz * 1e3 * (bus_width_bits / 8.0) / 1e9; }
};

// Timing of one whole reduction (every launch down to one value), over `samples` samples.
// Method: `warmups` untimed runs, then for each sample an L2 flush (a write of 2x the L2 size
// to a scratch buffer), then CUDA events around the run. Reported: median, min and max.
struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;  // milliseconds
  int samples = 0;
  double gbps = 0;      // effective bandwidth: bytes read (N x 4) / median time, in GB/s
  double pct_peak = 0;  // gbps / DeviceInfo::peak_gbps() x 100
  unsigned launches = 0; // kernel launches in one reduction (GpuReducer::launches); 0: not known (CUB
                         // chooses its own, the copy is none, sessions before 0.2 did not store it)
};

// A reduction kernel from outside the registry: a user's kernel file compiled with NVRTC and loaded with the
// driver API (kernels/user_kernel_gpu.hpp builds one). It has a registry row's launch shape, and GpuReducer runs,
// times and traces it exactly as it does a shipped kernel of that shape: the same buffers, finishes, timing method
// and trace buffer. Its operator is Sum; it is never grid-stride (the first launch has ceil(N / (block size x
// inputs_per_thread)) blocks); its dynamic shared memory is block size x 4 bytes.
struct ExternalKernel {
  std::string name;                 // in traces, timings and messages, e.g. "yours" or the file's stem
  std::string track = "yours";      // TraceMeta::track
  std::string source;               // the source its traces' line numbers refer to (Trace::source)
  Finish finish = Finish::Relaunch; // never HostSum (GpuReducer refuses it: a user's input is const)
  unsigned inputs_per_thread = 1;   // 1 to kMaxElementsPerThread
  unsigned min_block_size = 32;     // 32 ... 1024, a power of two
  uint8_t dtypes = dtype_bit(DType::Int32);
  bool plain = false;               // plain CUDA (kernels/user_kernel.hpp): no tracing build; GpuReducer::trace
                                    // refuses it (the binary tracer traces it: app/commands/plain_trace.hpp)
  // Enqueues one grid of the kernel on `stream` (a cudaStream_t): kernel(in, out, n, probe) with `grid` blocks
  // of `block` threads and `smem_bytes` of dynamic shared memory. `trace_probe` is nullptr for the timing build
  // (Probe = rs::NullProbe), else the address of the rs::TraceProbe (tracing/probe.cuh) to pass by value to the
  // tracing build. `type` is the element type of in and out. Throws CudaError when the launch fails.
  std::function<void(DType type, unsigned grid, unsigned block, unsigned smem_bytes, const void* in, void* out,
                     unsigned n, const void* trace_probe, void* stream)>
      launch;
  // The timing build's int32 kernel (empty where not known): blocks of `block` threads with `smem` bytes of dynamic
  // shared memory resident on one SM at once (cuOccupancyMaxActiveBlocksPerMultiprocessor), and its registers per
  // thread (cuFuncGetAttribute, CU_FUNC_ATTRIBUTE_NUM_REGS). Throw CudaError.
  std::function<int(unsigned block, unsigned smem)> max_blocks_per_sm;
  std::function<int()> registers;
};

// A text histogram that is not in the registry: the user's user_histogram (the exercise histogram,
// kernels/user_kernel_gpu.hpp), run over the histogram input the way the course's histograms are (the bins zeroed,
// one launch of a grid-stride grid capped at the blocks that fit on the GPU at once).
struct ExternalHistogram {
  std::string name;
  unsigned smem_bytes = 1024;  // dynamic shared memory given to each block
  // Blocks of `block` threads with `smem` bytes that fit on one SM at once (the occupancy calculator).
  std::function<int(unsigned block, unsigned smem)> max_blocks_per_sm;
  // Enqueues kernel(bytes, n, bins) on `stream` (a cudaStream_t). Throws CudaError when the launch fails.
  std::function<void(unsigned grid, unsigned block, unsigned smem, const void* bytes, long n, void* bins, void* stream)>
      launch;
};

class GpuReducer {
 public:
  // Opens CUDA device `device`. Throws NoDeviceError if there is none or no driver.
  explicit GpuReducer(int device = 0);
  ~GpuReducer();
  GpuReducer(const GpuReducer&) = delete;
  GpuReducer& operator=(const GpuReducer&) = delete;

  const DeviceInfo& device() const;

  // Uploads `data` (N = data.size() >= 1 elements; `pattern` is recorded in traces). The
  // input's element type (int32 or float32) selects the instantiation every later call runs.
  // Throws CudaError if the device lacks the memory ("needs X MiB, Y MiB free").
  void set_input(const std::vector<int32_t>& data, Pattern pattern);
  void set_input(const std::vector<float>& data, Pattern pattern);
  size_t n() const;
  DType dtype() const;

  // Grid size of the first launch for `kernel` at `block_size` on the current input.
  unsigned first_grid(KernelId kernel, unsigned block_size) const;
  // Launches one reduction takes on the current input (Finish::Relaunch: one per level; a
  // global-atomic kernel: 1 kernel launch, after a memset of the accumulator; two step: 2).
  unsigned launches(KernelId kernel, unsigned block_size) const;

  // One full reduction with the timing build; returns the result's 32 bits (an int32 sum, or a
  // float32 sum's bit pattern: bits_to_float). Throws std::invalid_argument for a block size
  // the kernel cannot take (block_size_problem) or an element type it does not reduce
  // (dtype_problem), CudaError on failure.
  int32_t run(KernelId kernel, unsigned block_size);

  // Times the timing build (see Timing for the method). samples >= 1, warmups >= 0.
  Timing time(KernelId kernel, unsigned block_size, int samples, int warmups = 3);

  // References measured the same way, for ratios: cub::DeviceReduce::Sum over the input (of its
  // element type; run_cub returns the bits as run does), and a device-to-device copy of the
  // input (its bandwidth counts bytes read + written).
  Timing time_cub(int samples, int warmups = 3);
  int32_t run_cub();
  Timing time_copy(int samples, int warmups = 3);

  // One full reduction with the tracing build, recording block `traced_block` of the first
  // launch. The returned trace's meta.result is the sum the tracing build computed.
  Trace trace(KernelId kernel, unsigned block_size, unsigned traced_block = 0);

  // --- A kernel from outside the registry (ExternalKernel), on the current input: the same as run(), time(),
  // trace(), first_grid() and launches() for a shipped kernel. Each throws std::invalid_argument for a block size
  // below k.min_block_size or not a power of two in [32, 1024], an element type k does not take, or
  // Finish::HostSum; CudaError when k.launch or a CUDA call fails (an illegal address, a trap, a launch the GPU
  // refuses: the context is then unusable, and the caller should start afresh in a new process).
  int32_t run(const ExternalKernel& k, unsigned block_size);
  // A user's Finish::SinglePass kernel finishes in a buffer of [0] result, [1] ticket counter, [2..] partials that
  // lives across runs (issue 29). poison_single_pass_result() writes `poison` into its result word before a run,
  // so a kernel that never writes out[0] shows the poison, not the previous run's right sum;
  // single_pass_counter() reads its counter after a run: the kernel's last block must set it back to 0, or the next
  // launch's tickets never reach the last one. Throw CudaError.
  void poison_single_pass_result(uint32_t poison);
  uint32_t single_pass_counter();
  Timing time(const ExternalKernel& k, unsigned block_size, int samples, int warmups = 3);
  // The tracing build of a wrapped kernel; std::logic_error for a plain one (ExternalKernel::plain).
  Trace trace(const ExternalKernel& k, unsigned block_size, unsigned traced_block = 0);
  unsigned first_grid(const ExternalKernel& k, unsigned block_size) const;
  unsigned launches(const ExternalKernel& k, unsigned block_size) const;

  // --- For the multigpu track (kernels/multigpu.cu), which combines several reducers' results with NCCL on
  // the GPUs. Enqueues one reduction of the current input with the timing build on the reducer's stream and
  // returns, without waiting, the device address (on this reducer's GPU) where its 32-bit result will be;
  // valid until the next call. Throws std::invalid_argument for a kernel whose finish runs on the host
  // (Finish::HostSum / HostReduce: no device result) or a block size it cannot take, CudaError on failure.
  const void* enqueue_on_device(KernelId kernel, unsigned block_size);
  // Enqueues the write of 2 x the L2 size that time() makes before each sample (evicts the input from L2).
  void enqueue_l2_flush();
  // The reducer's CUDA stream (a cudaStream_t, non-blocking), on its device.
  void* stream_handle() const;

  // --- The course track's histograms (histogram.hpp; registry entries with ReduceOp::Histogram, which
  // run(), time() and trace() refuse): bytes into bin_count(bins) counters. A histogram input lives
  // beside the reduction input; each has its own buffers. The methods below throw
  // std::invalid_argument for a kernel that is not a histogram.
  // Uploads `bytes` (1 to 2^31 of them); `label` names the input in traces ("text", "uniform").
  // Throws std::invalid_argument for an empty input, CudaError if the device lacks the memory.
  void set_histogram_input(const std::vector<uint8_t>& bytes, HistoBins bins, const std::string& label);
  size_t histogram_bytes() const;
  // Blocks of `k` at `block_size`: enough to fill the GPU once (SMs x resident blocks per SM, from the
  // occupancy API), at most one per block_size bytes; every thread loops over the input.
  unsigned histogram_grid(KernelId k, unsigned block_size) const;
  // One histogram with the timing build: the counts per bin. Throws std::invalid_argument for a block
  // size that is not a power of two in [32, 1024], CudaError on failure.
  std::vector<uint32_t> histogram(KernelId k, unsigned block_size);
  // Times it as time() does (zeroing the bins is inside the timed region); gbps counts the bytes read.
  Timing time_histogram(KernelId k, unsigned block_size, int samples, int warmups = 3);
  // The same for a histogram of the user's (ExternalHistogram): the grid, the counts per bin, the timing.
  unsigned histogram_grid(const ExternalHistogram& h, unsigned block_size) const;
  std::vector<uint32_t> histogram(const ExternalHistogram& h, unsigned block_size);
  Timing time_histogram(const ExternalHistogram& h, unsigned block_size, int samples, int warmups = 3);
  // cub::DeviceHistogram over the same bytes and bins (cub_reference.hpp), run and timed the same way.
  std::vector<uint32_t> cub_histogram();
  Timing time_cub_histogram(int samples, int warmups = 3);
  // The tracing build, recording block `traced_block`: its byte loads, its atomics on the shared and
  // global bins, its barriers. meta.n is the byte count, meta.result the number of bytes counted (the
  // bins' total), meta.pattern the label.
  Trace trace_histogram(KernelId k, unsigned block_size, unsigned traced_block = 0);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The embedded text of a track's kernel file (TrackInfo::kernel_file; the line numbers in its
// traces refer to it); "" for an unknown track.
const char* kernel_source(const std::string& track);
// ReduceScope's version, e.g. "0.1.0".
extern const char* const kToolVersion;

}  // namespace rs
