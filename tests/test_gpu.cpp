// GPU tests (ctest -L gpu; run on the device machine). Every kernel x block size x N gives the
// CPU reference's sum, in the timing build and in the tracing build, and traces are sane.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <tuple>

#include "gpu_reduce.hpp"
#include "replay.hpp"

namespace rs {
namespace {

// One GpuReducer for the whole binary: opening the device is slow.
GpuReducer& gpu() {
  static std::unique_ptr<GpuReducer> g = std::make_unique<GpuReducer>();
  return *g;
}

struct Input {
  std::vector<int32_t> data;
  int32_t expected;
};

// N values from the issue: 1, fewer than a warp, one over a warp, not a power of two, 2^24,
// and 2^26 random bytes, whose sum overflows int32.
const std::vector<uint64_t> kCounts = {1, 31, 32, 33, 1000003, 1u << 24, 1u << 26};

class SumTest : public ::testing::TestWithParam<std::tuple<uint64_t, Pattern>> {};

TEST_P(SumTest, EveryKernelAndBlockSizeMatchesCpuReferenceInBothBuilds) {
  const auto [n, pattern] = GetParam();
  std::vector<int32_t> data = make_input(pattern, n);
  const int32_t expected = cpu_reduce(data);
  gpu().set_input(data, pattern);
  int checked = 0;
  for (const KernelInfo& k : kernel_table()) {
    for (unsigned bs : kBlockSizes) {
      if (block_size_problem(k.id, bs)) {
        EXPECT_THROW(gpu().run(k.id, bs), std::invalid_argument) << k.name << " bs " << bs;
        continue;
      }
      EXPECT_EQ(gpu().run(k.id, bs), expected) << "timing build " << k.name << " bs " << bs << " N " << n;
      Trace t = gpu().trace(k.id, bs);
      EXPECT_EQ(t.meta.result, expected) << "tracing build " << k.name << " bs " << bs << " N " << n;
      EXPECT_FALSE(t.records.empty());
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4 * 6 + 3 * 5);  // reduce4-6 cannot take 32 threads
  EXPECT_EQ(gpu().run_cub(), expected);
}

INSTANTIATE_TEST_SUITE_P(Counts, SumTest,
                         ::testing::Combine(::testing::ValuesIn(kCounts),
                                            ::testing::Values(Pattern::RandomBytes, Pattern::Ones, Pattern::Iota)));

TEST(GpuTrace, RandomBytesOf2To26OverflowInt32AndStillMatch) {
  std::vector<int32_t> data = make_input(Pattern::RandomBytes, 1u << 26);
  int64_t wide = 0;
  for (int32_t x : data) wide += x;
  ASSERT_GT(wide, INT32_MAX);  // the test is only meaningful if the sum wraps
  gpu().set_input(data, Pattern::RandomBytes);
  EXPECT_EQ(gpu().run(KernelId::reduce6, 256), cpu_reduce(data));
}

TEST(GpuTrace, Reduce1At256ThreadsHasTheBankConflictsNsightComputeCounts) {
  // Reference figures measured with ncu on the H100 (shared/device/README.md): a 1-block launch
  // of reduce1 at 256 threads has 70 shared-load and 35 shared-store bank conflicts.
  gpu().set_input(make_input(Pattern::RandomBytes, 256), Pattern::RandomBytes);
  Replay r(gpu().trace(KernelId::reduce1, 256));
  EXPECT_EQ(r.load_conflicts(), 70);
  EXPECT_EQ(r.store_conflicts(), 35);
}

TEST(GpuTrace, EveryStepEndsAtABarrierAndTheLastHoldsTheBlockSum) {
  std::vector<int32_t> data = make_input(Pattern::Iota, 1000);
  gpu().set_input(data, Pattern::Iota);
  for (const KernelInfo& k : kernel_table()) {
    Trace t = gpu().trace(k.id, 128, 1);  // block 1: elements 128.. (or 256.. for two loads per thread)
    Replay r(t);
    ASSERT_GE(r.num_steps(), 2u) << k.name;
    EXPECT_EQ(r.step(0).ended_by, StepEnd::BlockBarrier) << k.name;
    EXPECT_EQ(r.steps().back().ended_by, StepEnd::KernelEnd) << k.name;
    // Block 1's sum, from the input, must be in sdata[0] at the end.
    const unsigned per_block = 128 * k.inputs_per_thread;
    int32_t block_sum = 0;
    if (k.grid_stride) {
      const unsigned grid = t.meta.grid_size;
      for (size_t i = 0; i < data.size(); ++i) {
        if ((i / 128) % (2 * grid) == 2 || (i / 128) % (2 * grid) == 3) block_sum += data[i];
      }
    } else {
      for (size_t i = per_block; i < std::min<size_t>(2 * per_block, data.size()); ++i) block_sum += data[i];
    }
    EXPECT_EQ(r.steps().back().smem[0], block_sum) << k.name;
  }
}

TEST(GpuTrace, TracedBlockOutsideTheGridIsRefused) {
  gpu().set_input(make_input(Pattern::Ones, 100), Pattern::Ones);
  EXPECT_THROW(gpu().trace(KernelId::reduce0, 64, 5), std::invalid_argument);
}

TEST(GpuInput, EmptyInputIsRefused) {
  EXPECT_THROW(gpu().set_input({}, Pattern::Ones), std::invalid_argument);
}

}  // namespace
}  // namespace rs
