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
  int checked = 0, expected_pairs = 0;
  for (const KernelInfo& k : kernel_table()) {
    for (unsigned bs : kBlockSizes) {
      if (block_size_problem(k.id, bs)) {
        EXPECT_THROW(gpu().run(k.id, bs), std::invalid_argument) << k.name << " bs " << bs;
        continue;
      }
      ++expected_pairs;
      EXPECT_EQ(gpu().run(k.id, bs), expected) << "timing build " << k.name << " bs " << bs << " N " << n;
      Trace t = gpu().trace(k.id, bs);
      EXPECT_EQ(t.meta.result, expected) << "tracing build " << k.name << " bs " << bs << " N " << n;
      EXPECT_FALSE(t.records.empty());
      ++checked;
    }
  }
  EXPECT_EQ(checked, expected_pairs);
  // harris: reduce4-6 need 64; lecture: the last 3 need 64; book: the last 3 need 64
  EXPECT_EQ(expected_pairs, 4 * 6 + 3 * 5 + 5 * 6 + 3 * 5 + 6 * 6 + 3 * 5);
  EXPECT_EQ(gpu().run_cub(), expected);
}

INSTANTIATE_TEST_SUITE_P(Counts, SumTest,
                         ::testing::Combine(::testing::ValuesIn(kCounts),
                                            ::testing::Values(Pattern::RandomBytes, Pattern::Ones, Pattern::Iota)));

// float32: every kernel that takes it, both builds, against the double-precision sum with the
// stated tolerance (FloatReference). Tree kernels without atomics give the same bits every run.
class FloatSumTest : public ::testing::TestWithParam<std::tuple<uint64_t, Pattern>> {};

TEST_P(FloatSumTest, EveryFloatKernelAndBlockSizeIsWithinTolerance) {
  const auto [n, pattern] = GetParam();
  std::vector<float> data = make_input_f32(pattern, n);
  const FloatReference ref = cpu_reduce_f64(data);
  gpu().set_input(data, pattern);
  int checked = 0;
  for (const KernelInfo& k : kernel_table()) {
    for (unsigned bs : kBlockSizes) {
      if (block_size_problem(k.id, bs)) continue;
      if (!k.takes(DType::Float32)) {
        EXPECT_THROW(gpu().run(k.id, bs), std::invalid_argument) << k.name;
        continue;
      }
      const float got = bits_to_float(static_cast<uint32_t>(gpu().run(k.id, bs)));
      EXPECT_TRUE(ref.accepts(got)) << "timing build " << k.name << " bs " << bs << " N " << n << ": " << got
                                    << " vs " << ref.sum << " +- " << ref.tolerance();
      Trace t = gpu().trace(k.id, bs);
      EXPECT_EQ(t.meta.dtype, DType::Float32);
      const float traced = bits_to_float(static_cast<uint32_t>(t.meta.result));
      EXPECT_TRUE(ref.accepts(traced)) << "tracing build " << k.name << " bs " << bs << " N " << n;
      if (k.finish == Finish::SecondKernel) {
        EXPECT_EQ(gpu().run(k.id, bs), gpu().run(k.id, bs)) << k.name << ": no atomics, so the same bits every run";
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 5 * 6 + 3 * 5);
  EXPECT_TRUE(ref.accepts(bits_to_float(static_cast<uint32_t>(gpu().run_cub()))));
}

INSTANTIATE_TEST_SUITE_P(Counts, FloatSumTest,
                         ::testing::Combine(::testing::Values(1u, 31u, 33u, 1000003u, 1u << 24),
                                            ::testing::Values(Pattern::RandomBytes, Pattern::Ones)));

KernelId lecture(const char* name) { return find_kernel(name)->id; }

TEST(GpuTraceLecture, ShuffleKernelMovesLanesInAButterfly) {
  gpu().set_input(make_input(Pattern::Iota, 1000), Pattern::Iota);
  Trace t = gpu().trace(lecture("sum_shuffle"), 128);
  EXPECT_EQ(t.meta.track, "lecture");
  Replay r(t);
  ASSERT_EQ(r.shuffle_instruction_count(), 5);  // offsets 16, 8, 4, 2, 1 in warp 0
  int offset = 16;
  for (const WarpShuffle& w : r.shuffles()) {
    EXPECT_EQ(w.warp, 0u);
    EXPECT_EQ(w.lanes, 0xffffffffu);
    EXPECT_EQ(w.member_mask, 0xffffffffu);
    EXPECT_TRUE(w.consistent);
    ASSERT_EQ(w.moves.size(), 32u);
    for (const LaneMove& m : w.moves) EXPECT_EQ(m.src, m.dst ^ offset);
    offset /= 2;
  }
  // Each shuffle is a step of its own.
  int shuffle_steps = 0;
  for (const Step& st : r.steps()) shuffle_steps += st.ended_by == StepEnd::Shuffle;
  EXPECT_EQ(shuffle_steps, 5);
  EXPECT_EQ(r.result_lanes()[0], 0);
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::GlobalAtomic), 1);
}

TEST(GpuTraceLecture, SharedAtomicKernelContendsOnOneAddress) {
  gpu().set_input(make_input(Pattern::RandomBytes, 100000), Pattern::RandomBytes);
  Replay r(gpu().trace(lecture("sum_shared"), 256, 3));
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::SharedAtomic), 8);  // one per warp
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::GlobalAtomic), 1);  // thread 0, once
  for (const WarpAtomic& a : r.atomics()) {
    if (a.kind != AccessKind::SharedAtomic) continue;
    ASSERT_EQ(a.contention.size(), 1u);
    EXPECT_EQ(a.max_contention, 32);
  }
  // s_sum belongs to the block: the 256 updates chain exactly, one after the other.
  const AtomicTarget* s_sum = nullptr;
  for (const AtomicTarget& t : r.atomic_targets()) {
    if (t.kind == AccessKind::SharedAtomic) s_sum = &t;
  }
  ASSERT_NE(s_sum, nullptr);
  EXPECT_EQ(s_sum->order.size(), 256u);
  EXPECT_EQ(s_sum->chained, 255);
  EXPECT_EQ(s_sum->order.front().old, 0u);
}

TEST(GpuTraceLecture, GlobalLoadsAreCoalesced) {
  gpu().set_input(make_input(Pattern::Ones, 100000), Pattern::Ones);
  Replay r(gpu().trace(lecture("sum_atomic"), 128, 2));
  ASSERT_EQ(r.global_request_count(AccessKind::GlobalLoad), 4);  // 4 warps, one load each
  for (const GlobalRequest& g : r.global_requests()) {
    EXPECT_EQ(g.sectors, 4);  // 32 lanes x 4 bytes = 128 bytes = 4 sectors
    EXPECT_EQ(g.min_sectors, 4);
    EXPECT_DOUBLE_EQ(g.efficiency(), 1.0);
  }
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::GlobalAtomic), 4);
  EXPECT_FALSE(r.has_shared());
}

TEST(GpuBook, InPlaceKernelsLeaveTheInputIntactAndTraceTheirSlice) {
  std::vector<int32_t> data = make_input(Pattern::RandomBytes, 100003);
  gpu().set_input(data, Pattern::RandomBytes);
  for (KernelId id : track_kernels("book")) {
    const KernelInfo& k = kernel_info(id);
    // Twice: the first run must not have destroyed the input the second one reads.
    EXPECT_EQ(gpu().run(id, 512), cpu_reduce(data)) << k.name;
    EXPECT_EQ(gpu().run(id, 512), cpu_reduce(data)) << k.name << " (second run)";
    Replay r(gpu().trace(id, 128, 1));
    EXPECT_FALSE(r.has_shared()) << k.name;
    ASSERT_TRUE(r.has_global()) << k.name;
    // Block 1's slice: elements [128 k, 256 k) of the scratch copy, loaded and stored in place.
    int stores_in_place = 0;
    for (const GlobalRequest& g : r.global_requests()) {
      if (g.space != static_cast<uint8_t>(GlobalBuffer::Scratch)) continue;
      for (int l = 0; l < kWarpSize; ++l) {
        if (!(g.lanes >> l & 1u)) continue;
        EXPECT_GE(g.index[l], 128u * k.inputs_per_thread) << k.name;
        EXPECT_LT(g.index[l], 256u * k.inputs_per_thread) << k.name;
      }
      stores_in_place += g.kind == AccessKind::GlobalStore;
    }
    EXPECT_GT(stores_in_place, 0) << k.name;
  }
  // reduceNeighboredLess scatters each warp's accesses: its first step's loads touch more sectors
  // than they need; reduceInterleaved's are contiguous.
  auto first_step_efficiency = [](const char* name) {
    Replay r(gpu().trace(find_kernel(name)->id, 256));
    const Step& st = r.step(0);
    double worst = 1;
    for (size_t gi : st.global_requests) worst = std::min(worst, r.global_requests()[gi].efficiency());
    return worst;
  };
  EXPECT_LE(first_step_efficiency("reduceNeighboredLess"), 0.5);  // every other element: 8 sectors for 4
  EXPECT_DOUBLE_EQ(first_step_efficiency("reduceInterleaved"), 1.0);
}

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
  for (KernelId id : track_kernels("harris")) {
    const KernelInfo& k = kernel_info(id);
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
  EXPECT_THROW(gpu().set_input(std::vector<int32_t>{}, Pattern::Ones), std::invalid_argument);
}

}  // namespace
}  // namespace rs
