// GPU test of probe hooks that no registered kernel uses yet: the warp-reduce intrinsics
// (__reduce_add_sync / _min_sync / _max_sync, sm_80+). A small kernel calls them through the
// probe, in the timing build (NullProbe) and the tracing build (TraceProbe), and the replay model
// must see each call as one warp-level instruction with the right lanes and result.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <vector>

#include "probe.cuh"
#include "replay.hpp"

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

}  // namespace
}  // namespace rs
