// Replay-model tests on traces recorded on an H100 (assets/traces/*.rstrace, made by
// scripts/device/gpu_checks.sh; docs/gpu-results.md). They check the model against the
// hardware (Nsight Compute's bank-conflict counters) and against the slides' analysis.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "barrier_alignment.hpp"
#include "kernel_info.hpp"
#include "replay.hpp"
#include "trace_io.hpp"

namespace rs {
namespace {

namespace fs = std::filesystem;

std::string fixture(const std::string& kernel, unsigned bs) {
  return std::string(RS_FIXTURE_DIR) + "/" + kernel + "_bs" + std::to_string(bs) + ".rstrace";
}

struct Loaded {
  Trace trace;
  Replay replay;
  explicit Loaded(const std::string& path) : trace(load_trace(path)), replay(trace) {}
};

const std::vector<unsigned> kFixtureSizes = {64, 256};

TEST(Fixtures, AllFourteenHarrisTracesArePresentAndRecordedOnAnH100) {
  int count = 0;
  for (KernelId id : track_kernels("harris")) {
    const KernelInfo& k = kernel_info(id);
    for (unsigned bs : kFixtureSizes) {
      ASSERT_TRUE(fs::exists(fixture(k.name, bs))) << fixture(k.name, bs);
      Loaded l(fixture(k.name, bs));
      EXPECT_EQ(l.trace.meta.kernel, k.name);
      EXPECT_EQ(l.trace.meta.block_size, bs);
      EXPECT_NE(l.trace.meta.gpu.find("H100"), std::string::npos) << l.trace.meta.gpu;
      EXPECT_EQ(l.trace.meta.compute_capability, "9.0");
      EXPECT_NE(l.trace.source.find(std::string("__global__ void ") + k.name), std::string::npos);
      ++count;
    }
  }
  EXPECT_EQ(count, 14);
}

// Every kernel stores one value per thread in step 0 (its element, or its first-add or
// grid-stride sum); the tree must leave their int32 sum in sdata[0].
TEST(Fixtures, TheLastStepHoldsTheSumOfWhatStepZeroStored) {
  for (KernelId id : track_kernels("harris")) {
    const KernelInfo& k = kernel_info(id);
    for (unsigned bs : kFixtureSizes) {
      Loaded l(fixture(k.name, bs));
      const Step& first = l.replay.step(0);
      uint32_t sum = 0;
      int stores = 0;
      for (size_t ai : first.accesses) {
        const WarpAccess& a = l.replay.accesses()[ai];
        ASSERT_EQ(a.kind, AccessKind::Store);
        for (int lane = 0; lane < kWarpSize; ++lane) {
          if (a.lanes >> lane & 1u) sum += static_cast<uint32_t>(a.value[lane]), ++stores;
        }
      }
      EXPECT_EQ(stores, static_cast<int>(bs)) << k.name << " " << bs;
      EXPECT_EQ(l.replay.steps().back().smem[0], static_cast<int32_t>(sum)) << k.name << " " << bs;
      EXPECT_EQ(l.replay.steps().back().ended_by, StepEnd::KernelEnd);
    }
  }
}

// The model's totals equal what Nsight Compute counted on the H100 for 1-block launches of
// the timing build (docs/data/ncu-bank-conflicts-h100.csv).
TEST(Fixtures, BankConflictTotalsEqualNsightComputeOnTheH100) {
  std::ifstream csv(RS_NCU_CSV);
  ASSERT_TRUE(csv) << RS_NCU_CSV;
  std::string line;
  std::getline(csv, line);
  ASSERT_EQ(line, "kernel,block,trace_ld,trace_st,ncu_ld,ncu_st");
  int compared = 0;
  while (std::getline(csv, line)) {
    std::stringstream ss(line);
    std::string kernel, f;
    std::vector<long> v;
    std::getline(ss, kernel, ',');
    while (std::getline(ss, f, ',')) v.push_back(std::stol(f));
    ASSERT_EQ(v.size(), 5u) << line;
    const unsigned bs = static_cast<unsigned>(v[0]);
    EXPECT_EQ(v[3], v[1]) << "ncu vs trace, loads: " << line;
    EXPECT_EQ(v[4], v[2]) << "ncu vs trace, stores: " << line;
    if (!fs::exists(fixture(kernel, bs))) continue;
    Loaded l(fixture(kernel, bs));
    EXPECT_EQ(l.replay.load_conflicts(), v[3]) << line;
    EXPECT_EQ(l.replay.store_conflicts(), v[4]) << line;
    ++compared;
  }
  EXPECT_EQ(compared, 14);
}

TEST(Fixtures, Reduce1HasTheStridedIndexConflictsTheSlideDescribes) {
  // index = 2*s*tid: at s = 1 a warp's 32 lanes hit the even banks twice (2-way), at s = 2
  // 4-way, at s = 4 8-way (banks 0, 8, 16, 24). From s = 8 on fewer lanes work (256 / 2s),
  // all in bank 0 and 16 or bank 0 alone, so the degree is min(8, lanes): 8, 8, 4, 2, 1.
  // The last step is thread 0 reading sdata[0].
  Loaded l(fixture("reduce1", 256));
  std::vector<int> worst;
  for (const Step& st : l.replay.steps()) worst.push_back(st.max_degree);
  EXPECT_EQ(worst, (std::vector<int>{1, 2, 4, 8, 8, 8, 4, 2, 1, 1}));
  EXPECT_EQ(l.replay.load_conflicts(), 70);
  EXPECT_EQ(l.replay.store_conflicts(), 35);
}

// reduce0: "highly divergent warps". Every warp stays busy while its useful lanes halve.
TEST(Fixtures, Reduce0KeepsEveryWarpBusyWithFewUsefulLanes) {
  Loaded l(fixture("reduce0", 256));
  const int warps = l.replay.num_warps();
  ASSERT_EQ(warps, 8);
  for (unsigned s = 1, step = 1; s < 32; s *= 2, ++step) {
    const Step& st = l.replay.step(step);
    EXPECT_EQ(st.active_warps(), warps) << "s = " << s;
    for (const WarpStep& w : st.warps) {
      EXPECT_EQ(std::popcount(w.useful), static_cast<int>(16 / s)) << "s = " << s;
      EXPECT_TRUE(w.diverged) << "s = " << s;
      EXPECT_FLOAT_EQ(w.efficiency, 0.5f / static_cast<float>(s));
    }
  }
  // The hardware ran the branch, not a predicated add: the active mask is the useful lanes.
  EXPECT_EQ(l.replay.step(1).warps[0].active_mask, 0x55555555u);
}

// reduce2: sequential addressing packs the useful lanes into the fewest warps.
TEST(Fixtures, Reduce2PacksUsefulLanesIntoTheFewestWarps) {
  Loaded l(fixture("reduce2", 256));
  unsigned step = 1;
  for (unsigned s = 128; s > 0; s >>= 1, ++step) {
    const Step& st = l.replay.step(step);
    EXPECT_EQ(st.active_warps(), static_cast<int>((s + 31) / 32)) << "s = " << s;
    for (int w = 0; w < st.active_warps(); ++w) {
      EXPECT_EQ(std::popcount(st.warps[w].useful), static_cast<int>(std::min(s, 32u))) << "s = " << s;
      EXPECT_EQ(st.warps[w].diverged, s < 32) << "s = " << s;  // only the last warp diverges
    }
    EXPECT_EQ(st.max_degree, 1) << "sequential addressing is conflict free";
  }
}

// reduce4..6 finish with one warp and __syncwarp(): the other warps have exited.
TEST(Fixtures, UnrolledKernelsFinishInOneWarpWhileTheOthersHaveExited) {
  for (const char* name : {"reduce4", "reduce5", "reduce6"}) {
    Loaded l(fixture(name, 256));
    int warp_steps = 0;
    for (const Step& st : l.replay.steps()) {
      if (st.ended_by != StepEnd::WarpBarrier) continue;
      ++warp_steps;
      EXPECT_LE(st.active_warps(), 1) << name;
      for (int w = 1; w < l.replay.num_warps(); ++w) EXPECT_EQ(st.warps[w].exited, 0xffffffffu) << name;
      EXPECT_EQ(st.warps[0].exited, 0u) << name;
    }
    EXPECT_EQ(warp_steps, 12) << name;  // six levels, each: read, __syncwarp, write, __syncwarp
  }
}

// The completely unrolled reduce5 needs fewer block-wide barriers than reduce2's loop.
TEST(Fixtures, UnrollingRemovesBlockBarriers) {
  auto barriers = [](const std::string& k) {
    Loaded l(fixture(k, 256));
    int n = 0;
    for (const Step& st : l.replay.steps()) n += st.ended_by == StepEnd::BlockBarrier;
    return n;
  };
  EXPECT_EQ(barriers("reduce2"), 9);  // the load + 8 levels
  EXPECT_EQ(barriers("reduce5"), 3);  // the load + the 128 and 64 levels; the last warp needs none
}

// ---- the lecture track, recorded on the H100 (scripts/device/tracks_checks.sh) ----------------

TEST(LectureFixtures, EveryKernelAt64And256ThreadsIsPresentAndRecordedOnAnH100) {
  int count = 0;
  for (KernelId id : track_kernels("lecture")) {
    const KernelInfo& k = kernel_info(id);
    for (unsigned bs : kFixtureSizes) {
      ASSERT_TRUE(fs::exists(fixture(k.name, bs))) << fixture(k.name, bs);
      Loaded l(fixture(k.name, bs));
      EXPECT_EQ(l.trace.meta.kernel, k.name);
      EXPECT_EQ(l.trace.meta.track, "lecture");
      EXPECT_EQ(l.trace.meta.dtype, DType::Int32);
      EXPECT_EQ(l.trace.meta.block_size, bs);
      EXPECT_NE(l.trace.meta.gpu.find("H100"), std::string::npos);
      EXPECT_NE(l.trace.source.find(std::string("__global__ void ") + k.name), std::string::npos);
      // Every kernel loads its elements from global memory, and every load request is coalesced.
      ASSERT_TRUE(l.replay.has_global()) << k.name;
      for (const GlobalRequest& g : l.replay.global_requests()) {
        if (g.kind != AccessKind::GlobalLoad) continue;
        EXPECT_EQ(g.sectors, g.min_sectors) << k.name << " line " << g.line;
      }
      ++count;
    }
  }
  EXPECT_EQ(count, 16);
}

TEST(LectureFixtures, Version3FilesReserializeByteForByte) {
  int count = 0;
  for (const auto& e : fs::directory_iterator(RS_FIXTURE_DIR)) {
    if (e.path().filename().string().rfind("sum_", 0) != 0) continue;
    std::ifstream f(e.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << f.rdbuf();
    const Trace t = load_trace(e.path().string());
    EXPECT_EQ(serialize_trace(t), bytes.str()) << e.path();
    ++count;
  }
  EXPECT_EQ(count, 19);
}

TEST(LectureFixtures, ShuffleKernelIsAButterflyOfFiveSteps) {
  Loaded l(fixture("sum_shuffle", 128));
  const Replay& r = l.replay;
  ASSERT_EQ(r.shuffle_instruction_count(), 5);
  int offset = 16;
  for (const WarpShuffle& w : r.shuffles()) {
    EXPECT_TRUE(w.consistent);
    EXPECT_EQ(w.warp, 0u);
    ASSERT_EQ(w.moves.size(), 32u);
    for (const LaneMove& m : w.moves) {
      EXPECT_EQ(m.src, m.dst ^ offset);
      EXPECT_EQ(m.value, w.offered[m.src]);
    }
    offset /= 2;
  }
  // After the butterfly every lane holds the warp's sum; lane 0 adds it to dev_sum.
  const WarpShuffle& last = r.shuffles().back();
  const uint32_t total = last.offered[0] + last.received[0];
  for (int lane = 0; lane < kWarpSize; ++lane) EXPECT_EQ(last.offered[lane] + last.received[lane], total);
  EXPECT_EQ(r.result_lanes()[0], 0);
  ASSERT_EQ(r.atomic_targets().size(), 1u);
  ASSERT_EQ(r.atomic_targets()[0].order.size(), 1u);
  EXPECT_EQ(r.atomic_targets()[0].order[0].operand, total);
  EXPECT_FALSE(r.has_atomics() && r.atomic_instruction_count(AccessKind::SharedAtomic) != 0);
}

TEST(LectureFixtures, FloatShuffleTraceHoldsFloatBits) {
  Loaded l(std::string(RS_FIXTURE_DIR) + "/sum_shuffle_bs128_f32.rstrace");
  EXPECT_EQ(l.trace.meta.dtype, DType::Float32);
  ASSERT_EQ(l.replay.shuffle_instruction_count(), 5);
  for (const WarpShuffle& w : l.replay.shuffles()) EXPECT_TRUE(w.consistent);
  // Inputs are k x 2^-24 in [0, 1): a block of 256 of them sums to about 128.
  const float result = bits_to_float(static_cast<uint32_t>(l.trace.meta.result));
  EXPECT_GT(result, 1000.0f);  // the whole reduction of N = 5000: about 2500
  EXPECT_LT(result, 4000.0f);
}

TEST(LectureFixtures, SharedAtomicsContendThirtyTwoWayAndChainExactly) {
  Loaded l(fixture("sum_shared", 256));
  const Replay& r = l.replay;
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::SharedAtomic), 8);
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::GlobalAtomic), 1);
  for (const WarpAtomic& a : r.atomics()) {
    if (a.kind == AccessKind::SharedAtomic) {
      EXPECT_EQ(a.max_contention, 32);
    } else {
      EXPECT_EQ(a.max_contention, 1);
    }
  }
  const AtomicTarget* s_sum = nullptr;
  const AtomicTarget* dev_sum = nullptr;
  for (const AtomicTarget& t : r.atomic_targets()) (t.kind == AccessKind::SharedAtomic ? s_sum : dev_sum) = &t;
  ASSERT_TRUE(s_sum && dev_sum);
  ASSERT_EQ(s_sum->order.size(), 256u);
  EXPECT_EQ(s_sum->chained, 255);  // s_sum is the block's own: nothing lands between its updates
  uint32_t total = 0;
  for (const AtomicUpdate& u : s_sum->order) total += u.operand;
  ASSERT_EQ(dev_sum->order.size(), 1u);
  EXPECT_EQ(dev_sum->order[0].operand, total);  // thread 0 adds the block's s_sum to dev_sum
}

TEST(LectureFixtures, GlobalAtomicPerElementContendsAcrossTheGrid) {
  Loaded l(fixture("sum_atomic", 128));
  const Replay& r = l.replay;
  EXPECT_FALSE(r.has_shared());
  EXPECT_EQ(r.global_request_count(AccessKind::GlobalLoad), 4);
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::GlobalAtomic), 4);
  for (const WarpAtomic& a : r.atomics()) EXPECT_EQ(a.max_contention, 32);
  ASSERT_EQ(r.atomic_targets().size(), 1u);
  const AtomicTarget& t = r.atomic_targets()[0];
  ASSERT_EQ(t.order.size(), 128u);
  for (size_t i = 1; i < t.order.size(); ++i) EXPECT_LE(t.order[i - 1].old, t.order[i].old);
  EXPECT_LE(t.chained, 127);
}

TEST(LectureFixtures, TreeKernelsLeaveTheBlockSumInElementZero) {
  for (const char* name : {"sum_reduce", "sum_reversed", "sum_add_first", "sum_last_warp", "sum_two_step"}) {
    for (unsigned bs : kFixtureSizes) {
      Loaded l(fixture(name, bs));
      const Step& first = l.replay.step(0);
      uint32_t sum = 0;
      for (size_t ai : first.accesses) {
        const WarpAccess& a = l.replay.accesses()[ai];
        ASSERT_EQ(a.kind, AccessKind::Store);
        for (int lane = 0; lane < kWarpSize; ++lane) {
          if (a.lanes >> lane & 1u) sum += static_cast<uint32_t>(a.value[lane]);
        }
      }
      EXPECT_EQ(static_cast<uint32_t>(l.replay.steps().back().smem[0]), sum) << name << " " << bs;
    }
  }
}

// ---- the book track, recorded on the H100: in place in global memory -----------------------------

TEST(BookFixtures, EveryKernelAt64And256ThreadsReducesItsSliceInPlace) {
  int count = 0;
  for (KernelId id : track_kernels("book")) {
    const KernelInfo& k = kernel_info(id);
    for (unsigned bs : kFixtureSizes) {
      ASSERT_TRUE(fs::exists(fixture(k.name, bs))) << fixture(k.name, bs);
      Loaded l(fixture(k.name, bs));
      EXPECT_EQ(l.trace.meta.track, "book");
      EXPECT_NE(l.trace.meta.gpu.find("H100"), std::string::npos);
      EXPECT_FALSE(l.replay.has_shared()) << k.name;
      // Block 0 loads and stores only its own slice of the scratch copy: [0, bs x elements per thread).
      int stores = 0;
      for (const GlobalRequest& g : l.replay.global_requests()) {
        if (g.space != static_cast<uint8_t>(GlobalBuffer::Scratch)) continue;
        for (int lane = 0; lane < kWarpSize; ++lane) {
          if (g.lanes >> lane & 1u) {
            EXPECT_LT(g.index[lane], bs * k.inputs_per_thread) << k.name;
          }
        }
        stores += g.kind == AccessKind::GlobalStore;
      }
      EXPECT_GT(stores, 0) << k.name;
      ++count;
    }
  }
  EXPECT_EQ(count, 18);
}

// The book's gld_efficiency story, from the trace: the neighbored kernels' strided accesses use a
// fraction of each 32-byte sector; the interleaved kernel's are contiguous.
TEST(BookFixtures, InterleavedPairsAreCoalescedAndNeighboredPairsAreNot) {
  auto efficiency = [](const char* name) {
    Loaded l(fixture(name, 256));
    double requested = 0, transferred = 0;
    for (const GlobalRequest& g : l.replay.global_requests()) {
      if (g.kind != AccessKind::GlobalLoad || g.space != static_cast<uint8_t>(GlobalBuffer::Scratch)) continue;
      requested += g.requested_bytes;
      transferred += 32.0 * g.sectors;
    }
    return requested / transferred;
  };
  const double neighbored = efficiency("reduceNeighbored"), less = efficiency("reduceNeighboredLess"),
               interleaved = efficiency("reduceInterleaved");
  EXPECT_LT(neighbored, 0.5);
  EXPECT_LT(less, 0.5);
  EXPECT_GT(interleaved, 0.9);
}

}  // namespace
}  // namespace rs

// Issue 17's replay bug, on a trace recorded on the H100 (tests/test_gpu_probe.cu,
// BlockBarrierVariantsEndOneStepForEveryWarp): __syncthreads_or, _and and _count, each after a shuffle
// that only warp 0 makes. The raw epochs drift apart (warp 0 counts one more per shuffle); the replay
// still ends one step at each barrier, with every store before it earlier and every store after it later.
TEST(BarrierFixture, BlockBarrierVariantsAfterAShuffleInOneWarp) {
  const rs::Trace t = rs::load_trace(RS_BARRIER_FIXTURE);
  ASSERT_EQ(t.meta.block_size, 64u);
  // The fixture does exercise the drift: at the last barrier warp 0's raw epoch is ahead of warp 1's.
  uint32_t w0 = 0, w1 = 0;
  for (const rs::TraceRecord& r : t.records) {
    if (r.kind != static_cast<uint8_t>(rs::AccessKind::BlockBarrier)) continue;
    (r.thread < 32 ? w0 : w1) = std::max(r.thread < 32 ? w0 : w1, r.epoch);
  }
  EXPECT_GT(w0, w1) << "warp 0's raw epochs should run ahead of warp 1's";
  const rs::Replay r(t);
  rs::test::check_barrier_alignment(r, {{1001, 1002, 1003}, {1011, 1012, 1013}, {1021, 1022, 1023}});
}
