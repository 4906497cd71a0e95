// The multigpu track on the GPUs (multigpu_run.hpp): NCCL opened at run time, the hand-written ring, the
// naive gather, the peer copies, the sum spread over the GPUs, timing in nccl-tests' conventions.
#include "multigpu_run.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <thread>

#include "cuda_check.hpp"
#include "input.hpp"

namespace rs {

namespace {


// libnccl.so.2, opened on first use. The functions are looked up by name with nccl.h's own types.
struct Nccl {
  decltype(&ncclGetVersion) GetVersion = nullptr;
  decltype(&ncclCommInitAll) CommInitAll = nullptr;
  decltype(&ncclCommDestroy) CommDestroy = nullptr;
  decltype(&ncclCommAbort) CommAbort = nullptr;
  decltype(&ncclAllReduce) AllReduce = nullptr;
  decltype(&ncclReduce) Reduce = nullptr;
  decltype(&ncclGroupStart) GroupStart = nullptr;
  decltype(&ncclGroupEnd) GroupEnd = nullptr;
  decltype(&ncclGetErrorString) GetErrorString = nullptr;
  decltype(&ncclGetLastError) GetLastError = nullptr;
  std::string version;

  static Nccl& get() {
    static Nccl n = open();
    return n;
  }

  void check(ncclResult_t r, const char* call) const {
    if (r == ncclSuccess) return;
    std::string msg = std::string(call) + ": NCCL error: " + GetErrorString(r);
    const char* last = GetLastError ? GetLastError(nullptr) : nullptr;
    if (last && *last) msg += " (" + std::string(last) + ")";
    throw MultiGpuError(msg);
  }

 private:
  static Nccl open() {
    std::vector<std::string> tries;
    if (const char* env = std::getenv("RS_NCCL_LIBRARY")) tries.push_back(env);
    tries.push_back("libnccl.so.2");
    tries.push_back(RS_NCCL_LIBRARY_PATH);
    void* lib = nullptr;
    std::string last_error;
    for (const std::string& t : tries) {
      if (t.empty()) continue;
      lib = dlopen(t.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (lib) break;
      const char* e = dlerror();
      last_error = e ? e : t;
    }
    if (!lib) {
      throw MultiGpuError("the multigpu track needs NCCL, and libnccl.so.2 could not be opened (" + last_error +
                          "); set RS_NCCL_LIBRARY to its path");
    }
    Nccl n;
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn) throw MultiGpuError(std::string("libnccl.so.2 has no ") + name + " (NCCL too old?)");
    };
    sym(n.GetVersion, "ncclGetVersion");
    sym(n.CommInitAll, "ncclCommInitAll");
    sym(n.CommDestroy, "ncclCommDestroy");
    sym(n.CommAbort, "ncclCommAbort");
    sym(n.AllReduce, "ncclAllReduce");
    sym(n.Reduce, "ncclReduce");
    sym(n.GroupStart, "ncclGroupStart");
    sym(n.GroupEnd, "ncclGroupEnd");
    sym(n.GetErrorString, "ncclGetErrorString");
    sym(n.GetLastError, "ncclGetLastError");
    int v = 0;
    n.check(n.GetVersion(&v), "ncclGetVersion");
    n.version = std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
    return n;
  }
};

#define MG_NCCL(nccl, call) (nccl).check((nccl).call, #call)

// Whole numbers in [-125, 125]: every order of adding G <= 64 of them gives the same float, so the
// all-reduce's result is checked bit for bit.
__host__ __device__ inline float whole_value(uint64_t i, uint32_t gpu) {
  return static_cast<float>(static_cast<int>((i * 2654435761ull + gpu * 40503ull) % 251ull) - 125);
}

__global__ void fill_kernel(float* out, uint64_t n, uint32_t gpu) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    out[i] = whole_value(i, gpu);
  }
}

// dst[i] += src[i]: the ring's and the naive way's add (a grid-stride loop).
__global__ void add_kernel(float* __restrict__ dst, const float* __restrict__ src, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    dst[i] += src[i];
  }
}

constexpr unsigned kAddThreads = 512;
unsigned add_blocks(uint64_t n, int sms) {
  const uint64_t want = (n + kAddThreads - 1) / kAddThreads;
  return static_cast<unsigned>(std::max<uint64_t>(1, std::min<uint64_t>(want, uint64_t(sms) * 4)));
}

std::string strip_ansi(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      i += 2;
      while (i < s.size() && !(s[i] >= '@' && s[i] <= '~')) ++i;
      continue;
    }
    out += s[i];
  }
  return out;
}

// `nvidia-smi topo -m` as printed, and the entry that links GPU0 and GPU1 ("NV18", "SYS", ...).
std::pair<std::string, std::string> topology() {
  std::string text;
  if (FILE* p = popen("nvidia-smi topo -m 2>/dev/null", "r")) {
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, k);
    if (pclose(p) != 0) text.clear();
  }
  text = strip_ansi(text);
  std::string link;
  auto split = [](const std::string& line) {
    std::vector<std::string> v;
    std::string cur;
    for (char ch : line) {
      if (ch == ' ' || ch == '\t') {
        if (!cur.empty()) v.push_back(cur);
        cur.clear();
      } else {
        cur += ch;
      }
    }
    if (!cur.empty()) v.push_back(cur);
    return v;
  };
  std::vector<std::string> header;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = text.find('\n', pos);
    const std::string line = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    pos = end == std::string::npos ? text.size() : end + 1;
    std::vector<std::string> t = split(line);
    if (t.empty()) continue;
    if (header.empty() && t[0] == "GPU0") {
      header = t;  // the column titles
      continue;
    }
    if (!header.empty() && t[0] == "GPU0") {
      for (size_t c = 0; c < header.size() && c + 1 < t.size(); ++c) {
        if (header[c] == "GPU1") link = t[c + 1];
      }
      break;
    }
  }
  return {text, link};
}


// The GPUs, their streams and NCCL communicators.
struct Ctx {
  uint32_t G = 0;
  std::vector<int> dev;
  std::vector<int> sms;
  std::vector<cudaStream_t> stream;
  std::vector<ncclComm_t> comm;
  Nccl* nccl = nullptr;
  double timeout_s = 60;
  bool poisoned = false;  // a call timed out: abort, free nothing (the GPUs may still be busy)

  ~Ctx() {
    for (ncclComm_t c : comm) {
      if (!c) continue;
      if (poisoned) nccl->CommAbort(c);
      else nccl->CommDestroy(c);
    }
    if (poisoned) return;
    for (uint32_t g = 0; g < stream.size(); ++g) {
      cudaSetDevice(dev[g]);
      if (stream[g]) cudaStreamDestroy(stream[g]);
    }
  }

  // Waits for `ev` (one per GPU; nullptr entries skipped) without blocking forever.
  void wait(const std::vector<cudaEvent_t>& ev, const std::string& what) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    for (size_t g = 0; g < ev.size(); ++g) {
      if (!ev[g]) continue;
      for (;;) {
        const cudaError_t e = cudaEventQuery(ev[g]);
        if (e == cudaSuccess) break;
        if (e != cudaErrorNotReady) RS_CUDA(e);
        if (std::chrono::steady_clock::now() > deadline) {
          poisoned = true;
          char b[64];
          std::snprintf(b, sizeof b, "%.0f", timeout_s);
          throw MultiGpuError(what + " did not finish within " + b + " s on GPU " + std::to_string(dev[g]) +
                              " (a GPU stalled, or a collective waits for a peer that never joined); abandoned");
        }
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      }
    }
  }

  void sync_all(const std::vector<cudaStream_t>& streams, const std::string& what) {
    std::vector<cudaEvent_t> ev(streams.size());
    for (size_t g = 0; g < streams.size(); ++g) {
      RS_CUDA(cudaSetDevice(dev[g]));
      RS_CUDA(cudaEventCreateWithFlags(&ev[g], cudaEventDisableTiming));
      RS_CUDA(cudaEventRecord(ev[g], streams[g]));
    }
    wait(ev, what);  // on a timeout the events leak with the poisoned context
    for (size_t g = 0; g < streams.size(); ++g) {
      cudaSetDevice(dev[g]);
      cudaEventDestroy(ev[g]);
    }
  }
};

// Median, min and max of per-call times (ms).
struct Stats {
  double median = 0, min = 0, max = 0;
  uint32_t samples = 0;
};
Stats stats(std::vector<float> ms) {
  std::sort(ms.begin(), ms.end());
  Stats s;
  s.samples = static_cast<uint32_t>(ms.size());
  s.min = ms.front();
  s.max = ms.back();
  const size_t k = ms.size();
  s.median = k % 2 ? ms[k / 2] : 0.5 * (ms[k / 2 - 1] + ms[k / 2]);
  return s;
}

// Times `body` (which enqueues one call on `streams`): `reset` (untimed) before each call, then every GPU
// idle, then a start event on every stream, the call, a stop event on every stream. A call's time is the
// slowest GPU's (nccl-tests takes the slowest rank too).
template <class Reset, class Body>
Stats time_calls(Ctx& c, const std::vector<cudaStream_t>& streams, int samples, int warmups, const std::string& what,
                 Reset reset, Body body) {
  const size_t G = streams.size();
  std::vector<cudaEvent_t> start(G), stop(G);
  for (size_t g = 0; g < G; ++g) {
    RS_CUDA(cudaSetDevice(c.dev[g]));
    RS_CUDA(cudaEventCreate(&start[g]));
    RS_CUDA(cudaEventCreate(&stop[g]));
  }
  std::vector<float> ms;
  for (int i = -warmups; i < samples; ++i) {
    reset();
    c.sync_all(streams, what);
    for (size_t g = 0; g < G; ++g) {
      RS_CUDA(cudaSetDevice(c.dev[g]));
      RS_CUDA(cudaEventRecord(start[g], streams[g]));
    }
    body();
    for (size_t g = 0; g < G; ++g) {
      RS_CUDA(cudaSetDevice(c.dev[g]));
      RS_CUDA(cudaEventRecord(stop[g], streams[g]));
    }
    c.wait(stop, what);
    if (i < 0) continue;
    float worst = 0;
    for (size_t g = 0; g < G; ++g) {
      float t = 0;
      RS_CUDA(cudaEventElapsedTime(&t, start[g], stop[g]));
      worst = std::max(worst, t);
    }
    ms.push_back(worst);
  }
  for (size_t g = 0; g < G; ++g) {
    cudaSetDevice(c.dev[g]);
    cudaEventDestroy(start[g]);
    cudaEventDestroy(stop[g]);
  }
  return stats(std::move(ms));
}

// Device memory that frees itself on its own GPU.
struct DevBuf {
  int dev = 0;
  void* p = nullptr;
  DevBuf() = default;
  DevBuf(int d, size_t bytes) : dev(d) {
    RS_CUDA(cudaSetDevice(d));
    const cudaError_t e = cudaMalloc(&p, std::max<size_t>(bytes, 16));
    if (e != cudaSuccess) {
      cudaGetLastError();
      throw CudaError("cudaMalloc of " + bytes_label(bytes) + " on GPU " + std::to_string(d) + ": " +
                      cudaGetErrorString(e) + " (try smaller --sizes)");
    }
  }
  DevBuf(const DevBuf&) = delete;
  DevBuf& operator=(const DevBuf&) = delete;
  DevBuf(DevBuf&& o) noexcept : dev(o.dev), p(o.p) { o.p = nullptr; }
  DevBuf& operator=(DevBuf&& o) noexcept {
    std::swap(dev, o.dev);
    std::swap(p, o.p);
    return *this;
  }
  ~DevBuf() {
    if (p) {
      cudaSetDevice(dev);
      cudaFree(p);
    }
  }
  float* f() const { return static_cast<float*>(p); }
};

// One all-reduce size: each GPU's input, its working buffer, and the scratch the ring and the naive way
// receive into.
struct Buffers {
  uint64_t n = 0;
  std::vector<DevBuf> in, work, scratch;
  DevBuf gather;  // on GPU 0: (G - 1) x n, the naive way's copies
};

Buffers make_buffers(Ctx& c, uint64_t n) {
  Buffers b;
  b.n = n;
  const uint64_t chunk = ring_chunk(n, c.G, 0).size();  // the largest chunk
  for (uint32_t g = 0; g < c.G; ++g) {
    b.in.emplace_back(c.dev[g], n * 4);
    b.work.emplace_back(c.dev[g], n * 4);
    b.scratch.emplace_back(c.dev[g], chunk * 4);
    RS_CUDA(cudaSetDevice(c.dev[g]));
    fill_kernel<<<add_blocks(n, c.sms[g]), kAddThreads, 0, c.stream[g]>>>(b.in[g].f(), n, g);
    RS_CUDA(cudaPeekAtLastError());
  }
  b.gather = DevBuf(c.dev[0], (c.G - 1) * n * 4);
  c.sync_all(c.stream, "filling the inputs");
  return b;
}

// Enqueues the copy of every GPU's input into its working buffer (untimed, before each call).
void reset_work(Ctx& c, Buffers& b) {
  for (uint32_t g = 0; g < c.G; ++g) {
    RS_CUDA(cudaSetDevice(c.dev[g]));
    RS_CUDA(cudaMemcpyAsync(b.work[g].p, b.in[g].p, b.n * 4, cudaMemcpyDeviceToDevice, c.stream[g]));
  }
}

// Whether every GPU's working buffer holds the element-wise sum of the inputs (bit for bit).
bool check_allreduce(Ctx& c, Buffers& b) {
  c.sync_all(c.stream, "the all-reduce");
  std::vector<float> want(b.n, 0), got(b.n);
  for (uint32_t g = 0; g < c.G; ++g) {
    for (uint64_t i = 0; i < b.n; ++i) want[i] += whole_value(i, g);
  }
  for (uint32_t g = 0; g < c.G; ++g) {
    RS_CUDA(cudaSetDevice(c.dev[g]));
    RS_CUDA(cudaMemcpy(got.data(), b.work[g].p, b.n * 4, cudaMemcpyDeviceToHost));
    if (got != want) return false;
  }
  return true;
}

// The events of one ring all-reduce: for each transfer (ring_schedule order) "copied" on the sender's
// stream and "added" on the receiver's (synchronisation), and, when traced, timed events around both.
struct RingPlan {
  std::vector<RingTransfer> sched;
  std::vector<cudaEvent_t> copied, added;                          // disable-timing
  std::vector<cudaEvent_t> copy_start, copy_end, add_start, add_end;  // timing (traced runs)
  std::vector<int> dev_of_copy, dev_of_add;
  RingPlan(Ctx& c) : sched(ring_schedule(c.G)) {
    const size_t k = sched.size();
    for (auto* v : {&copied, &added, &copy_start, &copy_end, &add_start, &add_end}) v->resize(k);
    for (size_t i = 0; i < k; ++i) {
      RS_CUDA(cudaSetDevice(c.dev[sched[i].from]));
      RS_CUDA(cudaEventCreateWithFlags(&copied[i], cudaEventDisableTiming));
      RS_CUDA(cudaEventCreate(&copy_start[i]));
      RS_CUDA(cudaEventCreate(&copy_end[i]));
      dev_of_copy.push_back(c.dev[sched[i].from]);
      RS_CUDA(cudaSetDevice(c.dev[sched[i].to]));
      RS_CUDA(cudaEventCreateWithFlags(&added[i], cudaEventDisableTiming));
      RS_CUDA(cudaEventCreate(&add_start[i]));
      RS_CUDA(cudaEventCreate(&add_end[i]));
      dev_of_add.push_back(c.dev[sched[i].to]);
    }
  }
  ~RingPlan() {
    for (size_t i = 0; i < sched.size(); ++i) {
      cudaSetDevice(dev_of_copy[i]);
      for (cudaEvent_t e : {copied[i], copy_start[i], copy_end[i]}) cudaEventDestroy(e);
      cudaSetDevice(dev_of_add[i]);
      for (cudaEvent_t e : {added[i], add_start[i], add_end[i]}) cudaEventDestroy(e);
    }
  }
  RingPlan(const RingPlan&) = delete;
  RingPlan& operator=(const RingPlan&) = delete;
};

// Enqueues the ring all-reduce of the working buffers: 2(G-1) steps; at each, every GPU pushes one chunk to
// its right neighbour with cudaMemcpyPeerAsync on its own stream; in the reduce-scatter the neighbour's add
// kernel then adds it into its copy of that chunk, in the all-gather it lands in place. A sender waits for
// the receiver's previous step (its scratch is free again) before it copies.
void enqueue_ring(Ctx& c, Buffers& b, RingPlan& p, bool traced) {
  const uint32_t G = c.G;
  const uint32_t steps = 2 * (G - 1);
  for (uint32_t step = 0; step < steps; ++step) {
    const size_t first = static_cast<size_t>(step) * G;
    for (size_t k = first; k < first + G; ++k) {
      const RingTransfer& t = p.sched[k];
      RS_CUDA(cudaSetDevice(c.dev[t.from]));
      if (step > 0) RS_CUDA(cudaStreamWaitEvent(c.stream[t.from], p.added[k - G], 0));
      const ChunkRange r = ring_chunk(b.n, G, t.chunk);
      float* dst = t.phase == RingPhase::ReduceScatter ? b.scratch[t.to].f() : b.work[t.to].f() + r.begin;
      if (traced) RS_CUDA(cudaEventRecord(p.copy_start[k], c.stream[t.from]));
      if (r.size() > 0) {
        RS_CUDA(cudaMemcpyPeerAsync(dst, c.dev[t.to], b.work[t.from].f() + r.begin, c.dev[t.from], r.size() * 4,
                                    c.stream[t.from]));
      }
      if (traced) RS_CUDA(cudaEventRecord(p.copy_end[k], c.stream[t.from]));
      RS_CUDA(cudaEventRecord(p.copied[k], c.stream[t.from]));
    }
    for (size_t k = first; k < first + G; ++k) {
      const RingTransfer& t = p.sched[k];
      RS_CUDA(cudaSetDevice(c.dev[t.to]));
      RS_CUDA(cudaStreamWaitEvent(c.stream[t.to], p.copied[k], 0));
      const ChunkRange r = ring_chunk(b.n, G, t.chunk);
      if (t.phase == RingPhase::ReduceScatter) {
        if (traced) RS_CUDA(cudaEventRecord(p.add_start[k], c.stream[t.to]));
        if (r.size() > 0) {
          add_kernel<<<add_blocks(r.size(), c.sms[t.to]), kAddThreads, 0, c.stream[t.to]>>>(
              b.work[t.to].f() + r.begin, b.scratch[t.to].f(), r.size());
          RS_CUDA(cudaPeekAtLastError());
        }
        if (traced) RS_CUDA(cudaEventRecord(p.add_end[k], c.stream[t.to]));
      }
      RS_CUDA(cudaEventRecord(p.added[k], c.stream[t.to]));
    }
  }
}

// The naive way: every GPU copies its whole buffer to GPU 0, GPU 0 adds them, then copies the sum back to
// each GPU in turn.
void enqueue_naive(Ctx& c, Buffers& b, std::vector<cudaEvent_t>& ev) {
  const uint32_t G = c.G;
  for (uint32_t g = 1; g < G; ++g) {
    RS_CUDA(cudaSetDevice(c.dev[g]));
    RS_CUDA(cudaMemcpyPeerAsync(b.gather.f() + (g - 1) * b.n, c.dev[0], b.work[g].p, c.dev[g], b.n * 4, c.stream[g]));
    RS_CUDA(cudaEventRecord(ev[g], c.stream[g]));
  }
  RS_CUDA(cudaSetDevice(c.dev[0]));
  for (uint32_t g = 1; g < G; ++g) {
    RS_CUDA(cudaStreamWaitEvent(c.stream[0], ev[g], 0));
    add_kernel<<<add_blocks(b.n, c.sms[0]), kAddThreads, 0, c.stream[0]>>>(b.work[0].f(), b.gather.f() + (g - 1) * b.n,
                                                                          b.n);
    RS_CUDA(cudaPeekAtLastError());
  }
  for (uint32_t g = 1; g < G; ++g) {
    RS_CUDA(cudaMemcpyPeerAsync(b.work[g].p, c.dev[g], b.work[0].p, c.dev[0], b.n * 4, c.stream[0]));
  }
  RS_CUDA(cudaEventRecord(ev[0], c.stream[0]));
  for (uint32_t g = 1; g < G; ++g) {
    RS_CUDA(cudaSetDevice(c.dev[g]));
    RS_CUDA(cudaStreamWaitEvent(c.stream[g], ev[0], 0));  // GPU g's call ends when its copy has landed
  }
}

void enqueue_nccl_allreduce(Ctx& c, Buffers& b) {
  MG_NCCL(*c.nccl, GroupStart());
  for (uint32_t g = 0; g < c.G; ++g) {
    MG_NCCL(*c.nccl, AllReduce(b.in[g].p, b.work[g].p, b.n, ncclFloat, ncclSum, c.comm[g], c.stream[g]));
  }
  MG_NCCL(*c.nccl, GroupEnd());
}

MultiGpuRow make_row(const std::string& op, const std::string& method, uint64_t bytes, uint32_t gpus, const Stats& s,
                     bool ok) {
  MultiGpuRow r;
  r.op = op;
  r.method = method;
  r.bytes = bytes;
  r.gpus = gpus;
  r.median_ms = s.median;
  r.min_ms = s.min;
  r.max_ms = s.max;
  r.samples = s.samples;
  r.algbw_gbps = algbw_gbps(bytes, s.median);
  r.busbw_gbps = busbw_gbps(op, bytes, s.median, gpus);
  r.correct = ok;
  return r;
}

std::string row_line(const MultiGpuRow& r) {
  char b[200];
  std::snprintf(b, sizeof b, "%-10s %-7s %9s %10.4f ms  algbw %7.1f GB/s  busbw %7.1f GB/s  %s", r.op.c_str(),
                r.method.c_str(), bytes_label(r.bytes).c_str(), r.median_ms, r.algbw_gbps, r.busbw_gbps,
                r.correct ? "correct" : "WRONG");
  return b;
}

// The ring once more with timed events around every copy and add.
RingRecording trace_ring(Ctx& c, Buffers& b, RingPlan& p) {
  reset_work(c, b);
  c.sync_all(c.stream, "the traced ring");
  std::vector<cudaEvent_t> origin(c.G);
  for (uint32_t g = 0; g < c.G; ++g) {
    RS_CUDA(cudaSetDevice(c.dev[g]));
    RS_CUDA(cudaEventCreate(&origin[g]));
  }
  for (uint32_t g = 0; g < c.G; ++g) {
    RS_CUDA(cudaSetDevice(c.dev[g]));
    RS_CUDA(cudaEventRecord(origin[g], c.stream[g]));
  }
  enqueue_ring(c, b, p, true);
  c.sync_all(c.stream, "the traced ring");
  RingRecording rec;
  rec.bytes = b.n * 4;
  rec.gpus = c.G;
  auto us = [&](uint32_t gpu, cudaEvent_t e) {
    float ms = 0;
    RS_CUDA(cudaEventElapsedTime(&ms, origin[gpu], e));
    return std::max(0.0, 1000.0 * ms);
  };
  for (size_t k = 0; k < p.sched.size(); ++k) {
    const RingTransfer& t = p.sched[k];
    RingEvent e;
    e.step = t.step;
    e.phase = t.phase;
    e.from = t.from;
    e.to = t.to;
    e.chunk = t.chunk;
    e.chunk_bytes = ring_chunk(b.n, c.G, t.chunk).size() * 4;
    e.copy_start_us = us(t.from, p.copy_start[k]);
    e.copy_end_us = us(t.from, p.copy_end[k]);
    if (t.phase == RingPhase::ReduceScatter) {
      e.add_start_us = us(t.to, p.add_start[k]);
      e.add_end_us = us(t.to, p.add_end[k]);
    }
    rec.total_us = std::max({rec.total_us, e.copy_end_us, e.add_end_us});
    rec.events.push_back(e);
  }
  for (uint32_t g = 0; g < c.G; ++g) {
    cudaSetDevice(c.dev[g]);
    cudaEventDestroy(origin[g]);
  }
  return rec;
}

}  // namespace

int multigpu_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
}

bool multigpu_built() { return true; }

SessionMultiGpu measure_multigpu(const MultiGpuConfig& cfg, const std::function<void(const std::string&)>& progress) {
  auto say = [&](const std::string& s) {
    if (progress) progress(s);
  };
  for (uint64_t s : cfg.sizes) {
    if (s == 0 || s % 4) throw std::invalid_argument("--sizes: " + std::to_string(s) + " bytes is not a whole number of float32 elements (a multiple of 4)");
  }
  if (cfg.samples < 1 || cfg.warmups < 0) throw std::invalid_argument("samples must be at least 1");
  const bool emulate = cfg.emulate_gpus >= 2;
  const int present = multigpu_device_count();
  if (present < 2 && !(emulate && present == 1)) {
    std::string what = present == 1 ? "1 GPU" : "no GPU";
    if (present == 1) {
      cudaDeviceProp p{};
      if (cudaGetDeviceProperties(&p, 0) == cudaSuccess) what += " (" + std::string(p.name) + ")";
    }
    throw MultiGpuError("the multigpu track needs at least 2 GPUs; this machine has " + what);
  }
  const uint32_t G = emulate ? cfg.emulate_gpus : cfg.gpus ? cfg.gpus : static_cast<uint32_t>(present);
  if (G < 2) throw std::invalid_argument("--gpus: the multigpu track needs at least 2 GPUs");
  if (!emulate && G > static_cast<uint32_t>(present)) {
    throw MultiGpuError("--gpus " + std::to_string(G) + ": this machine has " + std::to_string(present) + " GPUs");
  }
  for (uint64_t n : cfg.sum_n) {
    if (n < G) throw std::invalid_argument("the spread sum's N (" + std::to_string(n) + ") is below the GPU count");
    if (n > (uint64_t{1} << 31)) throw std::invalid_argument("the spread sum's N must be at most 2^31");
  }
  // NVLink multicast off before any communicator exists (the GPU machines require it; see the header).
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  Nccl* nccl_p = emulate ? nullptr : &Nccl::get();

  SessionMultiGpu out;
  out.gpus = G;
  out.nccl_version = emulate ? "none (emulated on one GPU)" : nccl_p->version;
  out.date = utc_now();
  char m[400];
  std::snprintf(m, sizeof m,
                "nccl-tests' conventions: %d warm-up calls, %d timed; CUDA events on every GPU's stream around each "
                "call, after every GPU is idle; the slowest GPU's time counts; median [min .. max]; algbw = bytes / "
                "time; busbw = algbw x 2(G-1)/G for the all-reduce. The spread sum: L2 flushed before each call",
                cfg.warmups, cfg.samples);
  out.method = m;
  if (emulate) out.method = "EMULATED: " + std::to_string(G) + " virtual GPUs on device 0, no NCCL; times mean nothing";
  else std::tie(out.topology, out.link) = topology();

  Ctx c;
  c.G = G;
  c.nccl = nccl_p;
  c.timeout_s = cfg.timeout_s;
  for (uint32_t g = 0; g < G; ++g) {
    const int d = emulate ? 0 : static_cast<int>(g);
    c.dev.push_back(d);
    cudaDeviceProp p{};
    RS_CUDA(cudaGetDeviceProperties(&p, d));
    out.gpu_names.push_back(p.name);
    c.sms.push_back(p.multiProcessorCount);
    RS_CUDA(cudaSetDevice(d));
    cudaStream_t s = nullptr;
    RS_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    c.stream.push_back(s);
  }
  // Peer access between every pair (the ring uses neighbours, the naive way GPU 0 and the others).
  for (uint32_t a = 0; a < G && !emulate; ++a) {
    for (uint32_t b = 0; b < G; ++b) {
      if (a == b) continue;
      int ok = 0;
      RS_CUDA(cudaDeviceCanAccessPeer(&ok, c.dev[a], c.dev[b]));
      if (!ok) {
        if (out.peer_access) say("GPU " + std::to_string(a) + " cannot access GPU " + std::to_string(b) +
                                 " directly: peer copies are staged through host memory (slower)");
        out.peer_access = false;
        continue;
      }
      RS_CUDA(cudaSetDevice(c.dev[a]));
      const cudaError_t e = cudaDeviceEnablePeerAccess(c.dev[b], 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();
      else RS_CUDA(e);
    }
  }
  if (!emulate) {
    c.comm.resize(G);
    MG_NCCL(*nccl_p, CommInitAll(c.comm.data(), static_cast<int>(G), c.dev.data()));
    say("NCCL " + nccl_p->version + " on " + std::to_string(G) + " GPUs" +
        (out.link.empty() ? "" : ", linked by " + out.link) + " (NCCL_NVLS_ENABLE=0)");
  }

  // Correctness at element counts that divide by neither G nor 4 (untimed).
  for (uint64_t n : cfg.check_elems) {
    Buffers b = make_buffers(c, n);
    RingPlan plan(c);
    std::vector<cudaEvent_t> ev(G);
    for (uint32_t g = 0; g < G; ++g) {
      RS_CUDA(cudaSetDevice(c.dev[g]));
      RS_CUDA(cudaEventCreateWithFlags(&ev[g], cudaEventDisableTiming));
    }
    std::string line = "checked at " + std::to_string(n) + " elements:";
    for (const char* method : {"nccl", "ring", "naive"}) {
      if (emulate && std::string(method) == "nccl") continue;
      reset_work(c, b);
      if (std::string(method) == "nccl") enqueue_nccl_allreduce(c, b);
      else if (std::string(method) == "ring") enqueue_ring(c, b, plan, false);
      else enqueue_naive(c, b, ev);
      const bool ok = check_allreduce(c, b);
      line += std::string(" ") + method + (ok ? " correct" : " WRONG");
      if (!ok) {
        MultiGpuRow r = make_row("allreduce", method, n * 4, G, Stats{1, 1, 1, 1}, false);
        out.rows.push_back(r);
      }
    }
    for (uint32_t g = 0; g < G; ++g) {
      cudaSetDevice(c.dev[g]);
      cudaEventDestroy(ev[g]);
    }
    say(line);
  }

  std::vector<uint64_t> sizes = cfg.sizes;
  std::sort(sizes.begin(), sizes.end());
  for (uint64_t bytes : sizes) {
    Buffers b = make_buffers(c, bytes / 4);
    RingPlan plan(c);
    std::vector<cudaEvent_t> ev(G);
    for (uint32_t g = 0; g < G; ++g) {
      RS_CUDA(cudaSetDevice(c.dev[g]));
      RS_CUDA(cudaEventCreateWithFlags(&ev[g], cudaEventDisableTiming));
    }
    auto reset = [&] { reset_work(c, b); };
    auto add = [&](MultiGpuRow r) {
      say(row_line(r));
      out.rows.push_back(std::move(r));
    };
    // The peer copy line: GPU 0 -> 1, then both ways at once.
    {
      const Stats s = time_calls(c, c.stream, cfg.samples, cfg.warmups, "the peer copy", [] {}, [&] {
        RS_CUDA(cudaSetDevice(c.dev[0]));
        RS_CUDA(cudaMemcpyPeerAsync(b.work[1].p, c.dev[1], b.in[0].p, c.dev[0], bytes, c.stream[0]));
      });
      c.sync_all(c.stream, "the peer copy");
      std::vector<float> got(b.n);
      RS_CUDA(cudaSetDevice(c.dev[1]));
      RS_CUDA(cudaMemcpy(got.data(), b.work[1].p, bytes, cudaMemcpyDeviceToHost));
      bool ok = true;
      for (uint64_t i = 0; i < b.n && ok; ++i) ok = got[i] == whole_value(i, 0);
      add(make_row("copy", "p2p", bytes, 2, s, ok));
      const Stats s2 = time_calls(c, c.stream, cfg.samples, cfg.warmups, "the peer copies", [] {}, [&] {
        RS_CUDA(cudaSetDevice(c.dev[0]));
        RS_CUDA(cudaMemcpyPeerAsync(b.work[1].p, c.dev[1], b.in[0].p, c.dev[0], bytes, c.stream[0]));
        RS_CUDA(cudaSetDevice(c.dev[1]));
        RS_CUDA(cudaMemcpyPeerAsync(b.work[0].p, c.dev[0], b.in[1].p, c.dev[1], bytes, c.stream[1]));
      });
      c.sync_all(c.stream, "the peer copies");
      RS_CUDA(cudaSetDevice(c.dev[0]));
      RS_CUDA(cudaMemcpy(got.data(), b.work[0].p, bytes, cudaMemcpyDeviceToHost));
      bool ok2 = true;
      for (uint64_t i = 0; i < b.n && ok2; ++i) ok2 = got[i] == whole_value(i, 1);
      add(make_row("copy_bidir", "p2p", bytes, 2, s2, ok2));
    }
    if (!emulate) {
      const Stats s = time_calls(c, c.stream, cfg.samples, cfg.warmups, "ncclAllReduce", reset,
                                 [&] { enqueue_nccl_allreduce(c, b); });
      add(make_row("allreduce", "nccl", bytes, G, s, check_allreduce(c, b)));
    }
    {
      const Stats s = time_calls(c, c.stream, cfg.samples, cfg.warmups, "the ring all-reduce", reset,
                                 [&] { enqueue_ring(c, b, plan, false); });
      add(make_row("allreduce", "ring", bytes, G, s, check_allreduce(c, b)));
    }
    {
      const Stats s = time_calls(c, c.stream, cfg.samples, cfg.warmups, "the naive all-reduce", reset,
                                 [&] { enqueue_naive(c, b, ev); });
      add(make_row("allreduce", "naive", bytes, G, s, check_allreduce(c, b)));
    }
    if (std::find(cfg.ring_trace_sizes.begin(), cfg.ring_trace_sizes.end(), bytes) != cfg.ring_trace_sizes.end()) {
      out.rings.push_back(trace_ring(c, b, plan));
      const bool ok = check_allreduce(c, b);
      char line[160];
      std::snprintf(line, sizeof line, "ring traced at %s: %zu transfers in %.1f us%s", bytes_label(bytes).c_str(),
                    out.rings.back().events.size(), out.rings.back().total_us, ok ? "" : " (WRONG result)");
      say(line);
    }
    for (uint32_t g = 0; g < G; ++g) {
      cudaSetDevice(c.dev[g]);
      cudaEventDestroy(ev[g]);
    }
  }

  // The sum of N int32 spread over the GPUs against one GPU reducing all N.
  const KernelInfo* k = find_kernel("single_pass_atomic");
  if (!k) throw std::logic_error("single_pass_atomic is not in the kernel table");
  constexpr unsigned kBlock = 1024;
  for (uint64_t n : emulate ? std::vector<uint64_t>{} : cfg.sum_n) {
    const std::vector<int32_t> all = make_input(Pattern::RandomBytes, n);
    const int32_t want = cpu_reduce(all);
    {
      GpuReducer one(c.dev[0]);
      one.set_input(all, Pattern::RandomBytes);
      const bool ok = one.run(k->id, kBlock) == want;
      const Timing t = one.time(k->id, kBlock, cfg.samples, cfg.warmups);
      MultiGpuRow r = make_row("sum", "one_gpu", n * 4, 1, Stats{t.median_ms, t.min_ms, t.max_ms,
                                                                 static_cast<uint32_t>(t.samples)}, ok);
      say(row_line(r));
      out.rows.push_back(r);
    }
    std::vector<std::unique_ptr<GpuReducer>> red;
    std::vector<cudaStream_t> streams;
    for (uint32_t g = 0; g < G; ++g) {
      const ChunkRange r = ring_chunk(n, G, g);
      red.push_back(std::make_unique<GpuReducer>(c.dev[g]));
      RS_CUDA(cudaSetDevice(c.dev[g]));
      red.back()->set_input(std::vector<int32_t>(all.begin() + r.begin, all.begin() + r.end), Pattern::RandomBytes);
      streams.push_back(static_cast<cudaStream_t>(red.back()->stream_handle()));
    }
    DevBuf result(c.dev[0], 4);
    auto body = [&] {
      std::vector<const void*> part(G);
      for (uint32_t g = 0; g < G; ++g) {
        RS_CUDA(cudaSetDevice(c.dev[g]));
        part[g] = red[g]->enqueue_on_device(k->id, kBlock);
      }
      MG_NCCL(*nccl_p, GroupStart());
      for (uint32_t g = 0; g < G; ++g) {
        MG_NCCL(*nccl_p, Reduce(part[g], g == 0 ? result.p : const_cast<void*>(part[g]), 1, ncclInt32, ncclSum, 0,
                             c.comm[g], streams[g]));
      }
      MG_NCCL(*nccl_p, GroupEnd());
    };
    auto flush = [&] {
      for (uint32_t g = 0; g < G; ++g) {
        RS_CUDA(cudaSetDevice(c.dev[g]));
        red[g]->enqueue_l2_flush();
      }
    };
    const Stats s = time_calls(c, streams, cfg.samples, cfg.warmups, "the spread sum (shards + ncclReduce)", flush, body);
    c.sync_all(streams, "the spread sum");
    int32_t got = 0;
    RS_CUDA(cudaSetDevice(c.dev[0]));
    RS_CUDA(cudaMemcpy(&got, result.p, 4, cudaMemcpyDeviceToHost));
    MultiGpuRow r = make_row("sum", "nccl", n * 4, G, s, got == want);
    say(row_line(r) + (got == want ? "" : " (got " + std::to_string(got) + ", CPU " + std::to_string(want) + ")"));
    out.rows.push_back(r);
  }
  return out;
}

}  // namespace rs
