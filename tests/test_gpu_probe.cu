// GPU test of probe hooks that no registered kernel uses yet: the warp-reduce intrinsics
// (__reduce_add_sync / _min_sync / _max_sync, sm_80+). A small kernel calls them through the
// probe, in the timing build (NullProbe) and the tracing build (TraceProbe), and the replay model
// must see each call as one warp-level instruction with the right lanes and result.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <vector>

#include "barrier_alignment.hpp"
#include "probe.cuh"
#include "replay.hpp"
#include "trace_io.hpp"

namespace rs {
namespace {

#define CHECK_CUDA(call) ASSERT_EQ((call), cudaSuccess) << #call

template <class Probe>
__global__ void warp_reduce_kernel(const int* in, int* out, unsigned int n, Probe probe) {
  const unsigned int tx = threadIdx.x;
  const int v = tx < n ? in[tx] : 0;
  const int sum = probe.template reduce<WarpReduceOp::Add>(__LINE__, 0xffffffffu, v);
  const int lo = probe.template reduce<WarpReduceOp::Min>(__LINE__, 0xffffffffu, v);
  const int hi = probe.template reduce<WarpReduceOp::Max>(__LINE__, 0xffffffffu, v);
  if (tx % 32 == 0) {
    out[3 * (tx / 32)] = sum;
    out[3 * (tx / 32) + 1] = lo;
    out[3 * (tx / 32) + 2] = hi;
  }
}

TEST(GpuProbe, WarpReduceIntrinsicsAreRecordedAsOneStepEach) {
  int dev = 0, major = 0;
  CHECK_CUDA(cudaGetDevice(&dev));
  CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  if (major < 8) GTEST_SKIP() << "warp-reduce intrinsics need compute capability 8.0";
  constexpr unsigned kThreads = 64;
  std::vector<int> h(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) h[i] = static_cast<int>((i * 37) % 101) - 50;
  int *in = nullptr, *out = nullptr;
  uint32_t* count = nullptr;
  TraceRecord* recs = nullptr;
  const uint32_t capacity = 1024;
  CHECK_CUDA(cudaMalloc(&in, kThreads * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&out, 6 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&count, sizeof(uint32_t)));
  CHECK_CUDA(cudaMalloc(&recs, capacity * sizeof(TraceRecord)));
  CHECK_CUDA(cudaMemcpy(in, h.data(), kThreads * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(count, 0, sizeof(uint32_t)));

  std::vector<int> want(6);
  for (unsigned w = 0; w < 2; ++w) {
    int s = 0, lo = h[32 * w], hi = h[32 * w];
    for (unsigned l = 0; l < 32; ++l) s += h[32 * w + l], lo = std::min(lo, h[32 * w + l]), hi = std::max(hi, h[32 * w + l]);
    want[3 * w] = s, want[3 * w + 1] = lo, want[3 * w + 2] = hi;
  }
  std::vector<int> got(6);
  warp_reduce_kernel<<<1, kThreads>>>(in, out, kThreads, NullProbe{});
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(got.data(), out, 6 * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(got, want) << "timing build";

  warp_reduce_kernel<<<1, kThreads>>>(in, out, kThreads, TraceProbe{recs, capacity, count, 0, 0, 0});
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(got.data(), out, 6 * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(got, want) << "tracing build";
  uint32_t n = 0;
  CHECK_CUDA(cudaMemcpy(&n, count, sizeof n, cudaMemcpyDeviceToHost));
  ASSERT_EQ(n, 3 * kThreads);
  Trace t;
  t.records.resize(n);
  CHECK_CUDA(cudaMemcpy(t.records.data(), recs, n * sizeof(TraceRecord), cudaMemcpyDeviceToHost));
  cudaFree(in), cudaFree(out), cudaFree(count), cudaFree(recs);

  t.meta.kernel = "warp_reduce_kernel";
  t.meta.track = "test";
  t.meta.block_size = kThreads;
  t.meta.n = kThreads;
  t.meta.grid_size = 1;
  t.meta.smem_bytes = 4;
  Replay r(t);
  ASSERT_EQ(r.shuffles().size(), 6u);  // 3 intrinsics x 2 warps
  for (const WarpShuffle& s : r.shuffles()) {
    EXPECT_EQ(s.kind, AccessKind::WarpReduce);
    EXPECT_EQ(s.lanes, 0xffffffffu);
    EXPECT_EQ(s.member_mask, 0xffffffffu);
    EXPECT_TRUE(s.consistent) << "warp " << s.warp << " op " << int(s.op);
    const int expect = want[3 * s.warp + s.op];
    for (int l = 0; l < kWarpSize; ++l) EXPECT_EQ(static_cast<int>(s.received[l]), expect);
  }
  ASSERT_EQ(r.num_steps(), 3u);  // each intrinsic ends a step (the plain stores after them are not recorded)
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(r.step(i).ended_by, StepEnd::WarpReduce);
}

// Issue 17: __syncthreads_or / _and / _count after a shuffle that only warp 0 makes. Shared stores are
// recorded through the probe directly (word = thread), so the trace needs no SharedArray.
constexpr uint16_t kOrBefore = 1001, kOrBarrier = 1002, kOrAfter = 1003;
constexpr uint16_t kAndBefore = 1011, kAndBarrier = 1012, kAndAfter = 1013;
constexpr uint16_t kCountBefore = 1021, kCountBarrier = 1022, kCountAfter = 1023;

template <class Probe>
__global__ void barrier_variants_kernel(int* out, Probe probe) {
  const unsigned int tx = threadIdx.x;
  __shared__ int s[1024];
  int v = static_cast<int>(tx);
  // __syncthreads_or
  if (tx < 32) v += probe.template shfl<ShuffleKind::Down>(__LINE__, 0xffffffffu, v, 16u);
  s[tx] = v;
  probe.access(AccessKind::Store, 4 * tx, static_cast<uint32_t>(v), kOrBefore);
  const int any = probe.block_barrier_or(kOrBarrier, tx == 0);
  probe.access(AccessKind::Store, 4 * tx, static_cast<uint32_t>(any), kOrAfter);
  // __syncthreads_and
  if (tx < 32) v += probe.template shfl<ShuffleKind::Down>(__LINE__, 0xffffffffu, v, 8u);
  probe.access(AccessKind::Store, 4 * tx, static_cast<uint32_t>(v), kAndBefore);
  const int all = probe.block_barrier_and(kAndBarrier, tx < blockDim.x);
  probe.access(AccessKind::Store, 4 * tx, static_cast<uint32_t>(all), kAndAfter);
  // __syncthreads_count
  if (tx < 32) v += probe.template shfl<ShuffleKind::Down>(__LINE__, 0xffffffffu, v, 4u);
  probe.access(AccessKind::Store, 4 * tx, static_cast<uint32_t>(v), kCountBefore);
  const int count = probe.block_barrier_count(kCountBarrier, tx % 2 == 0);
  probe.access(AccessKind::Store, 4 * tx, static_cast<uint32_t>(count), kCountAfter);
  if (tx == 0) out[0] = any, out[1] = all, out[2] = count, out[3] = s[0];
}

TEST(GpuProbe, BlockBarrierVariantsEndOneStepForEveryWarp) {
  constexpr unsigned kThreads = 64;
  int* out = nullptr;
  uint32_t* count = nullptr;
  TraceRecord* recs = nullptr;
  const uint32_t capacity = 4096;
  CHECK_CUDA(cudaMalloc(&out, 4 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&count, sizeof(uint32_t)));
  CHECK_CUDA(cudaMalloc(&recs, capacity * sizeof(TraceRecord)));
  CHECK_CUDA(cudaMemset(count, 0, sizeof(uint32_t)));
  const std::vector<int> want = {1, 1, static_cast<int>(kThreads / 2)};
  std::vector<int> got(4);
  barrier_variants_kernel<<<1, kThreads>>>(out, NullProbe{});
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(got.data(), out, 4 * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(std::vector<int>(got.begin(), got.begin() + 3), want) << "timing build: or, and, count";
  barrier_variants_kernel<<<1, kThreads>>>(out, TraceProbe{recs, capacity, count, 0, 0, 0});
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(got.data(), out, 4 * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(std::vector<int>(got.begin(), got.begin() + 3), want) << "tracing build: or, and, count";
  uint32_t n = 0;
  CHECK_CUDA(cudaMemcpy(&n, count, sizeof n, cudaMemcpyDeviceToHost));
  ASSERT_LE(n, capacity);
  Trace t;
  t.records.resize(n);
  CHECK_CUDA(cudaMemcpy(t.records.data(), recs, n * sizeof(TraceRecord), cudaMemcpyDeviceToHost));
  cudaFree(out), cudaFree(count), cudaFree(recs);
  t.meta.kernel = "barrier_variants_kernel";
  t.meta.track = "test";
  t.meta.block_size = kThreads;
  t.meta.n = kThreads;
  t.meta.grid_size = 1;
  t.meta.smem_bytes = 4 * kThreads;
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  t.meta.gpu = prop.name;
  {  // UTC, ISO 8601, as every trace's date (the tool field says where it came from)
    const std::time_t now = std::time(nullptr);
    char d[32];
    std::strftime(d, sizeof d, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    t.meta.date = d;
    t.meta.tool_version = "tests/test_gpu_probe.cu";
  }
  // Warp 0 made 3 shuffles the others did not: its raw epochs run 3 ahead by the last barrier.
  Replay r(t);
  test::check_barrier_alignment(r, {{kOrBefore, kOrBarrier, kOrAfter},
                                    {kAndBefore, kAndBarrier, kAndAfter},
                                    {kCountBefore, kCountBarrier, kCountAfter}});
  // RS_WRITE_FIXTURE=PATH keeps the trace for the CI test (tests/fixtures/barrier_variants_bs64.rstrace).
  if (const char* path = std::getenv("RS_WRITE_FIXTURE")) save_trace(t, path);
}

}  // namespace
}  // namespace rs
