// GPU tests (ctest -L gpu; run on the device machine). Every kernel x block size x N gives the
// CPU reference's sum, in the timing build and in the tracing build, and traces are sane.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include <bit>
#include <limits>
#include <map>
#include <numeric>
#include <memory>
#include <set>
#include <tuple>

#include "exact_sum.hpp"
#include "gpu_reduce.hpp"
#include "histogram_bins.hpp"
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
  const CpuReference ref = cpu_reference(data);
  gpu().set_input(data, pattern);
  int checked = 0, expected_pairs = 0;
  for (const KernelInfo& k : kernel_table()) {
    if (k.op == ReduceOp::Histogram) {  // no reduction: HistogramTest covers them
      EXPECT_THROW(gpu().run(k.id, 256), std::invalid_argument) << k.name;
      continue;
    }
    if (k.pitfall) continue;  // wrong code on purpose (`reducescope pitfalls` counts its wrong sums)
    if (!k.takes(DType::Int32)) {  // reproducible_sum: float32 only
      EXPECT_THROW(gpu().run(k.id, 256), std::invalid_argument) << k.name;
      continue;
    }
    for (unsigned bs : kBlockSizes) {
      if (block_size_problem(k.id, bs)) {
        EXPECT_THROW(gpu().run(k.id, bs), std::invalid_argument) << k.name << " bs " << bs;
        continue;
      }
      ++expected_pairs;
      const int32_t got = gpu().run(k.id, bs);
      EXPECT_TRUE(ref.accepts(k.op, got)) << "timing build " << k.name << " bs " << bs << " N " << n << ": " << got
                                          << ", CPU " << ref.str(k.op);
      Trace t = gpu().trace(k.id, bs);
      EXPECT_TRUE(ref.accepts(k.op, t.meta.result)) << "tracing build " << k.name << " bs " << bs << " N " << n
                                                    << ": " << t.meta.result << ", CPU " << ref.str(k.op);
      EXPECT_FALSE(t.records.empty());
      ++checked;
    }
  }
  EXPECT_EQ(checked, expected_pairs);
  // harris: reduce4-6 need 64; lecture: the last 3 need 64; book: the last 3 need 64; course: 6 kernels and
  // modern: 7 kernels, any size
  EXPECT_EQ(expected_pairs, 4 * 6 + 3 * 5 + 5 * 6 + 3 * 5 + 6 * 6 + 3 * 5 + 6 * 6 + 7 * 6);
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
  const CpuReference ref = cpu_reference(data);
  gpu().set_input(data, pattern);
  int checked = 0;
  for (const KernelInfo& k : kernel_table()) {
    for (unsigned bs : kBlockSizes) {
      if (block_size_problem(k.id, bs)) continue;
      if (!k.takes(DType::Float32)) {
        EXPECT_THROW(gpu().run(k.id, bs), std::invalid_argument) << k.name;
        continue;
      }
      const int32_t got = gpu().run(k.id, bs);
      EXPECT_TRUE(ref.accepts(k.op, got)) << "timing build " << k.name << " bs " << bs << " N " << n << ": "
                                          << bits_to_float(static_cast<uint32_t>(got)) << " vs " << ref.str(k.op);
      Trace t = gpu().trace(k.id, bs);
      EXPECT_EQ(t.meta.dtype, DType::Float32);
      EXPECT_TRUE(ref.accepts(k.op, t.meta.result)) << "tracing build " << k.name << " bs " << bs << " N " << n;
      if (k.finish == Finish::SecondKernel || k.finish == Finish::HostReduce || k.finish == Finish::SinglePass) {
        EXPECT_EQ(gpu().run(k.id, bs), gpu().run(k.id, bs)) << k.name << ": no atomics, so the same bits every run";
      }
      ++checked;
    }
  }
  // lecture, course, modern (all but reduce_add_sync; reproducible_sum included), and the two float pitfalls
  // (below 2^25 elements the running sum has not reached 2^24): right within rounding
  EXPECT_EQ(checked, 5 * 6 + 3 * 5 + 5 * 6 + 7 * 6 + 6 + 6);
  EXPECT_TRUE(ref.accepts(ReduceOp::Sum, gpu().run_cub()));
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

// Signed values, both extremes, and a known farthest point: every course operator against the CPU.
TEST(GpuCourse, OperatorsOnSignedValuesAndAKnownFarthestPoint) {
  std::vector<int32_t> data(300003);
  uint32_t x = 12345;
  for (auto& v : data) {
    x = x * 1664525u + 1013904223u;  // LCG: values of both signs, within +-2^20
    v = static_cast<int32_t>(x >> 11) - (1 << 20);
  }
  data[77777] = std::numeric_limits<int32_t>::min();
  data[88888] = std::numeric_limits<int32_t>::max();
  // Point 40000 (elements 120000..120002) is the farthest: (INT_MIN, INT_MAX, INT_MIN), about 3 x 2^62,
  // beats point 25925, which holds data[77777] = INT_MIN as its y.
  data[120000] = std::numeric_limits<int32_t>::min();
  data[120001] = std::numeric_limits<int32_t>::max();
  data[120002] = std::numeric_limits<int32_t>::min();
  const CpuReference ref = cpu_reference(data);
  ASSERT_EQ(ref.farthest, 40000);
  ASSERT_EQ(ref.min, std::numeric_limits<int32_t>::min());
  ASSERT_EQ(ref.max, std::numeric_limits<int32_t>::max());
  gpu().set_input(data, Pattern::RandomBytes);
  for (KernelId id : track_kernels("course")) {
    const KernelInfo& k = kernel_info(id);
    if (k.op == ReduceOp::Histogram) continue;  // HistogramTest
    for (unsigned bs : {32u, 256u, 1024u}) {
      EXPECT_TRUE(ref.accepts(k.op, gpu().run(id, bs))) << k.name << " bs " << bs << ", CPU " << ref.str(k.op);
    }
  }
  // A tie: two points at the same distance; the lower index wins in every tree shape.
  std::vector<int32_t> tie(3000, 1);
  tie[3 * 700] = 50;
  tie[3 * 200 + 2] = -50;
  gpu().set_input(tie, Pattern::Ones);
  for (unsigned bs : {32u, 64u, 1024u}) EXPECT_EQ(gpu().run(find_kernel("farthest_point")->id, bs), 200) << bs;
}

// The note's two loading schemes, seen in the trace: partialSum[2*t] loads use half of each sector,
// partialSum[t] and partialSum[blockDim.x + t] all of it.
TEST(GpuCourse, StridedLoadsUseHalfOfEachSectorCoalescedLoadsAllOfIt) {
  gpu().set_input(make_input(Pattern::RandomBytes, 1u << 16), Pattern::RandomBytes);
  auto input_loads = [](const Replay& r) {
    std::vector<GlobalRequest> v;
    for (const GlobalRequest& g : r.global_requests()) {
      if (g.kind == AccessKind::GlobalLoad && g.space == static_cast<uint8_t>(GlobalBuffer::Input)) v.push_back(g);
    }
    return v;
  };
  const Trace naive_trace = gpu().trace(find_kernel("naive_sum")->id, 256, 3);
  EXPECT_EQ(naive_trace.meta.smem_bytes, 256u * 2 * 4);  // partialSum[2 * blockDim.x]
  Replay naive(naive_trace);
  Replay coalesced(gpu().trace(find_kernel("coalesced_sum")->id, 256, 3));
  const auto a = input_loads(naive), b = input_loads(coalesced);
  ASSERT_EQ(a.size(), 16u);  // 8 warps x 2 loads
  ASSERT_EQ(b.size(), 16u);
  for (const GlobalRequest& g : a) {
    EXPECT_EQ(g.sectors, 8) << "32 lanes x stride 8 bytes span 256 bytes";
    EXPECT_DOUBLE_EQ(g.efficiency(), 0.5);
  }
  for (const GlobalRequest& g : b) EXPECT_DOUBLE_EQ(g.efficiency(), 1.0);
}

// The course track's histograms: every kernel x block size x input x byte count, bin by bin against
// the CPU, and cub::DeviceHistogram too.
class HistogramTest : public ::testing::TestWithParam<std::tuple<uint64_t, HistoInput>> {};

TEST_P(HistogramTest, EveryKernelAndBlockSizeCountsEveryBin) {
  const auto [n, in] = GetParam();
  const HistoBins bins = bins_of(in);
  const std::vector<uint8_t> data = make_histo_input(in, n);
  const std::vector<uint32_t> want = cpu_histogram(data, bins);
  gpu().set_histogram_input(data, bins, to_string(in));
  EXPECT_EQ(gpu().histogram_bytes(), n);
  int kernels = 0;
  for (const KernelInfo& k : kernel_table()) {
    if (k.op != ReduceOp::Histogram) {
      EXPECT_THROW(gpu().histogram(k.id, 256), std::invalid_argument) << k.name << " is no histogram";
      continue;
    }
    ++kernels;
    for (unsigned bs : kBlockSizes) {
      EXPECT_EQ(gpu().histogram(k.id, bs), want) << k.name << " bs " << bs << " n " << n << " " << to_string(in);
    }
    if (n <= (1u << 20)) {
      const Trace t = gpu().trace_histogram(k.id, 128);
      EXPECT_EQ(static_cast<uint32_t>(t.meta.result), std::accumulate(want.begin(), want.end(), 0u)) << k.name;
      EXPECT_EQ(t.meta.n, n);
    }
  }
  EXPECT_EQ(kernels, 4);  // the course's three and the modern track's histo_warp
  EXPECT_EQ(gpu().cub_histogram(), want);
}

INSTANTIATE_TEST_SUITE_P(Bytes, HistogramTest,
                         ::testing::Combine(::testing::Values(1u, 31u, 33u, 1000003u, 1u << 24),
                                            ::testing::Values(HistoInput::Text, HistoInput::Uniform,
                                                              HistoInput::Skewed)));

// The privatised kernel in the trace: every byte of the traced block is one shared atomic on its bin,
// and the merge is one global atomic per bin; the basic kernel sends every byte to the global bins.
TEST(GpuCourse, PrivatisedHistogramTraceCountsTheBlocksBytes) {
  // 2^20 bytes: several iterations per thread on any GPU (about 4 on an H100), so that lanes skip the
  // atomic in some iterations and not in others.
  const std::vector<uint8_t> text = make_histo_input(HistoInput::Text, 1u << 20);
  gpu().set_histogram_input(text, HistoBins::Letters7, "text");
  const KernelId priv = find_kernel("histo_private")->id;
  const unsigned bs = 256, block = 1;
  const unsigned grid = gpu().histogram_grid(priv, bs);
  ASSERT_GT(grid, block);
  Replay r(gpu().trace_histogram(priv, bs, block));
  // The bytes block 1 reads: i = block * bs + t, then + grid * bs, ...
  uint32_t letters = 0, loads = 0;
  for (size_t i = size_t{block} * bs; i < text.size(); i += size_t{grid} * bs) {
    for (size_t t = 0; t < bs && i + t < text.size(); ++t) {
      ++loads;
      letters += LetterBins::bin(text[i + t]) >= 0;
    }
  }
  int shared_updates = 0, global_updates = 0;
  for (const AtomicTarget& t : r.atomic_targets()) {
    (t.kind == AccessKind::SharedAtomic ? shared_updates : global_updates) += static_cast<int>(t.order.size());
    if (t.kind == AccessKind::SharedAtomic) {
      EXPECT_EQ(t.chained + 1, static_cast<int>(t.order.size())) << "a shared bin belongs to the block: no gaps";
    }
  }
  EXPECT_EQ(shared_updates, static_cast<int>(letters));
  EXPECT_EQ(global_updates, 7);  // the merge: one atomicAdd per bin
  int byte_loads = 0, requests = 0;
  for (const GlobalRequest& g : r.global_requests()) {
    if (g.space != static_cast<uint8_t>(GlobalBuffer::Bytes)) continue;
    byte_loads += std::popcount(g.lanes);
    ++requests;
    EXPECT_LE(g.sectors, 1) << "32 consecutive bytes of one iteration: one sector";
  }
  EXPECT_EQ(byte_loads, static_cast<int>(loads));
  // One request per warp and iteration: (bytes the block reads) / 32, as every warp reads 32 at a time.
  EXPECT_EQ(requests, static_cast<int>((loads + 31) / 32));
  // Sectioned partitioning: each lane's bytes lie a section apart (at least 32 bytes at 2^24 bytes on any
  // GPU with fewer than 2^19 resident threads), one sector per lane.
  gpu().set_histogram_input(make_histo_input(HistoInput::Text, 1u << 24), HistoBins::Letters7, "text");
  Replay sec(gpu().trace_histogram(find_kernel("histo_sectioned")->id, bs, 0));
  const GlobalRequest* first = nullptr;
  for (const GlobalRequest& g : sec.global_requests()) {
    if (g.space == static_cast<uint8_t>(GlobalBuffer::Bytes) && std::popcount(g.lanes) == 32) {
      first = &g;
      break;
    }
  }
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->sectors, 32);
  EXPECT_EQ(first->requested_bytes, 32);
}

// The single-pass kernel leaves its counter at 0 for the next launch: many runs in a row, across block
// sizes and N, each right; its trace shows the ticket (atomicInc) and, in the last block, the partials.
TEST(GpuModern, SinglePassLastBlockRunsAgainAndAgain) {
  const KernelId k = find_kernel("single_pass_last_block")->id;
  for (uint64_t n : {1000003u, 1u, 1u << 20}) {
    std::vector<int32_t> data = make_input(Pattern::RandomBytes, n);
    const int32_t want = cpu_reduce(data);
    gpu().set_input(data, Pattern::RandomBytes);
    for (int run = 0; run < 20; ++run) {
      for (unsigned bs : {32u, 256u, 1024u}) EXPECT_EQ(gpu().run(k, bs), want) << "n " << n << " bs " << bs << " run " << run;
    }
  }
  Replay r(gpu().trace(k, 256));
  ASSERT_EQ(r.atomic_targets().size(), 1u);
  EXPECT_EQ(r.atomic_targets()[0].order.size(), 1u);  // block 0's one ticket
  EXPECT_EQ(r.atomic_targets()[0].addr, 1u);          // out[1], the counter
}

// histo_warp (issue 20): each warp counts byte values into its own 256 counters, so the traced block's shared
// atomics in the loop go to 8 copies at 256 threads (histo_private's to 1), and a hot value (the skewed
// input's 'e') is 8 addresses, not one for the block.
TEST(GpuModern, HistoWarpCountsIntoACopyPerWarp) {
  const KernelId warp = find_kernel("histo_warp")->id, priv = find_kernel("histo_private")->id;
  gpu().set_histogram_input(make_histo_input(HistoInput::Skewed, 1u << 20), HistoBins::Bytes256, "skewed");
  // The shared words the traced block's atomics on 'e' went to.
  auto hot_words = [&](KernelId k) {
    std::set<uint32_t> at;
    for (const TraceRecord& r : gpu().trace_histogram(k, 256).records) {
      if (static_cast<AccessKind>(r.kind) == AccessKind::SharedAtomic && (r.addr / 4) % 256 == 'e') at.insert(r.addr);
    }
    return at.size();
  };
  EXPECT_EQ(hot_words(priv), 1u);
  EXPECT_EQ(hot_words(warp), 8u);
  // Its trace carries its own kernel file (the modern track's), whose lines the trace names.
  EXPECT_NE(gpu().trace_histogram(warp, 256).source.find("void histo_warp("), std::string::npos);
}

// reproducible_sum (issue 20): the exact sum rounded once, the same bits at every block size, every run and
// in both builds, equal to the CPU's exact sum (exact::sum_host, a different code path: every element
// straight into the limbs), on inputs with mixed signs and magnitudes 2^-60 .. 2^10; IEEE's special cases.
TEST(GpuModern, ReproducibleSumIsTheExactSumRoundedOnceEverywhere) {
  const KernelId k = find_kernel("reproducible_sum")->id;
  auto as_bits = [](float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return static_cast<int32_t>(u);
  };
  for (uint64_t n : {1u, 33u, 1000003u, 1u << 24, (1u << 26) + 3}) {
    std::vector<float> data = make_input_f32(Pattern::RandomBytes, n);
    for (size_t i = 0; i < data.size(); i += 7) data[i] = -data[i] * 1024.0f;
    for (size_t i = 3; i < data.size(); i += 11) data[i] *= 1e-18f;
    const int32_t want = as_bits(exact::sum_host(data.data(), data.size()));
    gpu().set_input(data, Pattern::RandomBytes);
    // The other single-pass kernels write their partials where they like: reproducible_sum's limbs are its own.
    gpu().run(find_kernel("single_pass_last_block")->id, 32);
    gpu().run(find_kernel("single_pass_atomic")->id, 32);
    for (unsigned bs : kBlockSizes) {
      for (int run = 0; run < 3; ++run) EXPECT_EQ(gpu().run(k, bs), want) << "n " << n << " bs " << bs << " run " << run;
    }
    EXPECT_EQ(gpu().trace(k, 128).meta.result, want) << "tracing build, n " << n;
  }
  const float big = 3.0e38f;
  for (const std::vector<float>& v : std::vector<std::vector<float>>{
           {1e30f, 1.0f, -1e30f}, {-0.0f, -0.0f, -0.0f}, {0.0f, -0.0f}, {1.0f, NAN, 2.0f}, {INFINITY, 1.0f},
           {-INFINITY, INFINITY}, {big, big}, {big, big, -big}}) {
    gpu().set_input(v, Pattern::Ones);
    const int32_t want = as_bits(exact::sum_host(v.data(), v.size()));
    for (unsigned bs : {32u, 1024u}) EXPECT_EQ(gpu().run(k, bs), want) << v.size() << " values, first " << v[0];
  }
}

// 16-byte loads in the trace: one request per warp and load, 512 bytes in 16 sectors, 100 %.
TEST(GpuModern, Vec4LoadsAreOneRequestOf512Bytes) {
  gpu().set_input(make_input(Pattern::Ones, 1u << 16), Pattern::Ones);
  Replay r(gpu().trace(find_kernel("vec4_loads")->id, 128));
  int vec_requests = 0;
  for (const GlobalRequest& g : r.global_requests()) {
    if (g.kind != AccessKind::GlobalLoad || std::popcount(g.lanes) != 32 || g.requested_bytes != 512) continue;
    ++vec_requests;
    EXPECT_EQ(g.sectors, 16);
    EXPECT_DOUBLE_EQ(g.efficiency(), 1.0);
  }
  EXPECT_GT(vec_requests, 0);
  EXPECT_GT(r.shuffles().size(), 0u) << "the warps reduce in registers (shuffles or __reduce_add_sync)";
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
