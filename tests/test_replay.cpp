// The replay model on hand-built traces: bank analysis, steps, warps, divergence, shared-memory
// snapshots, data flows and the text of `reducescope trace`. Expected values are worked out by
// hand in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "barrier_alignment.hpp"
#include "replay.hpp"
#include "trace_io.hpp"

namespace rs {
namespace {

constexpr uint32_t kFull = 0xffffffffu;

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

// ---- bank analysis -------------------------------------------------------------------------

std::array<uint32_t, kWarpSize> strided(uint32_t stride_bytes, uint32_t base = 0) {
  std::array<uint32_t, kWarpSize> a{};
  for (int l = 0; l < kWarpSize; ++l) a[l] = base + stride_bytes * static_cast<uint32_t>(l);
  return a;
}

TEST(BankAnalysis, ConsecutiveWords) {
  BankAnalysis a = analyze_banks(strided(4), kFull);
  EXPECT_EQ(a.degree, 1);
  EXPECT_EQ(a.conflicts(), 0);
  for (int b = 0; b < kNumBanks; ++b) {
    EXPECT_EQ(a.words_per_bank[b], 1) << b;
    EXPECT_EQ(a.lanes_per_bank[b], 1) << b;
  }
  // Shifted by 5 words: still one word per bank.
  EXPECT_EQ(analyze_banks(strided(4, 20), kFull).degree, 1);
}

TEST(BankAnalysis, Broadcast) {
  BankAnalysis a = analyze_banks(strided(0, 4 * 7), kFull);
  EXPECT_EQ(a.degree, 1);
  EXPECT_EQ(a.conflicts(), 0);
  EXPECT_EQ(a.words_per_bank[7], 1);
  EXPECT_EQ(a.lanes_per_bank[7], 32);
  EXPECT_EQ(a.lanes_per_bank[0], 0);
}

TEST(BankAnalysis, StrideTwoWords) {
  // Lane l uses word 2l: banks 0, 2, ..., 30, then again 0, 2, ...: two words per even bank.
  BankAnalysis a = analyze_banks(strided(8), kFull);
  EXPECT_EQ(a.degree, 2);
  EXPECT_EQ(a.conflicts(), 1);
  for (int b = 0; b < kNumBanks; ++b) {
    EXPECT_EQ(a.words_per_bank[b], b % 2 == 0 ? 2 : 0) << b;
    EXPECT_EQ(a.lanes_per_bank[b], b % 2 == 0 ? 2 : 0) << b;
  }
}

TEST(BankAnalysis, StrideThirtyTwoWords) {
  BankAnalysis a = analyze_banks(strided(128), kFull);
  EXPECT_EQ(a.degree, 32);
  EXPECT_EQ(a.conflicts(), 31);
  EXPECT_EQ(a.words_per_bank[0], 32);
  EXPECT_EQ(a.lanes_per_bank[0], 32);
  for (int b = 1; b < kNumBanks; ++b) EXPECT_EQ(a.words_per_bank[b], 0) << b;
}

TEST(BankAnalysis, SixteenLanesStride64Bytes) {
  // Lanes 0..15, byte address 64 l = word 16 l: bank 0 for even l (words 0, 32, ..., 224),
  // bank 16 for odd l (words 16, 48, ..., 240). 8 distinct words per bank: 8-way.
  BankAnalysis a = analyze_banks(strided(64), 0x0000ffffu);
  EXPECT_EQ(a.degree, 8);
  EXPECT_EQ(a.conflicts(), 7);
  EXPECT_EQ(a.words_per_bank[0], 8);
  EXPECT_EQ(a.words_per_bank[16], 8);
  EXPECT_EQ(a.lanes_per_bank[0], 8);
  EXPECT_EQ(a.lanes_per_bank[16], 8);
  int other = 0;
  for (int b = 0; b < kNumBanks; ++b) other += (b == 0 || b == 16) ? 0 : a.words_per_bank[b];
  EXPECT_EQ(other, 0);
}

TEST(BankAnalysis, OnlyLanesInMaskCount) {
  // Stride 32 words is 32-way with every lane, but with two lanes only 2-way, one lane 1-way.
  EXPECT_EQ(analyze_banks(strided(128), 0x00000003u).degree, 2);
  EXPECT_EQ(analyze_banks(strided(128), 0x80000000u).degree, 1);
  EXPECT_EQ(analyze_banks(strided(128), 0x0000ffffu).degree, 16);
  // Lanes outside the mask with wild addresses change nothing.
  auto addr = strided(4);
  for (int l = 16; l < kWarpSize; ++l) addr[l] = 0;  // would be 2-way on bank 0 if they counted
  BankAnalysis a = analyze_banks(addr, 0x0000ffffu);
  EXPECT_EQ(a.degree, 1);
  EXPECT_EQ(a.lanes_per_bank[0], 1);
  EXPECT_EQ(a.lanes_per_bank[20], 0);
}

TEST(BankAnalysis, EmptyMask) {
  BankAnalysis a = analyze_banks(strided(128), 0);
  EXPECT_EQ(a.degree, 0);
  EXPECT_EQ(a.conflicts(), 0);
  for (int b = 0; b < kNumBanks; ++b) {
    EXPECT_EQ(a.words_per_bank[b], 0);
    EXPECT_EQ(a.lanes_per_bank[b], 0);
  }
}

TEST(BankAnalysis, SameWordDifferentBytesIsOneWord) {
  // Unaligned addresses inside one word count as that word (a broadcast), not as a conflict.
  std::array<uint32_t, kWarpSize> addr{};
  for (int l = 0; l < kWarpSize; ++l) addr[l] = 128 + l % 4;
  EXPECT_EQ(analyze_banks(addr, kFull).degree, 1);
  // Mixed: half the lanes on word 0, half on word 32 (both bank 0): 2-way.
  for (int l = 0; l < kWarpSize; ++l) addr[l] = l % 2 ? 128 : 0;
  EXPECT_EQ(analyze_banks(addr, kFull).degree, 2);
}

TEST(BankAnalysis, BankOf) {
  EXPECT_EQ(bank_of(0), 0);
  EXPECT_EQ(bank_of(3), 0);
  EXPECT_EQ(bank_of(4), 1);
  EXPECT_EQ(bank_of(124), 31);
  EXPECT_EQ(bank_of(128), 0);
  EXPECT_EQ(bank_of(132), 1);
  EXPECT_EQ(bank_of(0xfffffffcu), 31);
}

// ---- hand-built traces ---------------------------------------------------------------------

// The fake kernel source the traces' line numbers refer to (1-based).
const char* const kSource =
    "// reduce2, sequential addressing\n"                                  // 1
    "__global__ void reduce2(const int* g_idata, int* g_odata) {\n"        // 2
    "  extern __shared__ int sdata[];\n"                                   // 3
    "  unsigned int tid = threadIdx.x;\n"                                  // 4
    "  sdata[tid] = g_idata[blockIdx.x * blockDim.x + tid];\n"             // 5
    "  __syncthreads();\n"                                                 // 6
    "  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {\n"          // 7
    "    if (tid < s) sdata[tid] += sdata[tid + s];\n"                     // 8
    "    __syncthreads();\n"                                               // 9
    "  }\n"                                                                // 10
    "\tif (tid == 0) g_odata[blockIdx.x] = sdata[0];\n"                    // 11
    "}\n";                                                                 // 12

constexpr uint16_t kLineLoad = 5, kLineSync0 = 6, kLineAdd = 8, kLineSync = 9, kLineResult = 11;

class TraceBuilder {
 public:
  TraceBuilder(uint32_t block_size, uint32_t smem_bytes) {
    t_.meta.kernel = "handmade";
    t_.meta.block_size = block_size;
    t_.meta.smem_bytes = smem_bytes;
    t_.meta.n = block_size;
    t_.meta.grid_size = 1;
    t_.meta.pattern = "ones";
    t_.source = kSource;
  }
  // Appends an event of `thread` in `epoch`; seq is the thread's next event index in the epoch.
  TraceBuilder& add(uint32_t epoch, uint16_t thread, AccessKind kind, uint32_t word, int32_t value, uint16_t line,
                    uint32_t active_mask = kFull) {
    TraceRecord r{};
    r.epoch = epoch;
    r.seq = next_seq(epoch, thread);
    r.addr = kind == AccessKind::Load || kind == AccessKind::Store ? word * 4 : 0;
    r.value = value;
    r.active_mask = active_mask;
    r.thread = thread;
    r.line = line;
    r.kind = static_cast<uint8_t>(kind);
    t_.records.push_back(r);
    return *this;
  }
  TraceBuilder& load(uint32_t e, uint16_t t, uint32_t word, int32_t v, uint16_t line, uint32_t m = kFull) {
    return add(e, t, AccessKind::Load, word, v, line, m);
  }
  TraceBuilder& store(uint32_t e, uint16_t t, uint32_t word, int32_t v, uint16_t line, uint32_t m = kFull) {
    return add(e, t, AccessKind::Store, word, v, line, m);
  }
  TraceBuilder& sync(uint32_t e, uint16_t t, uint16_t line, uint32_t m = kFull) {
    return add(e, t, AccessKind::BlockBarrier, 0, 0, line, m);
  }
  TraceBuilder& syncwarp(uint32_t e, uint16_t t, uint16_t line, uint32_t m = kFull) {
    return add(e, t, AccessKind::WarpBarrier, 0, 0, line, m);
  }
  const Trace& trace() const { return t_; }
  Trace& trace() { return t_; }

 private:
  uint32_t next_seq(uint32_t epoch, uint16_t thread) {
    uint32_t n = 0;
    for (const auto& r : t_.records) n += r.epoch == epoch && r.thread == thread;
    return n;
  }
  Trace t_;
};

// reduce2 on a 64-thread block of ones, cut short after two tree levels:
//   epoch 0: every thread stores sdata[tid] = 1, then __syncthreads.
//   epoch 1 (s = 32): threads 0..31 (all of warp 0) add sdata[tid + 32]: load, load, store 2.
//   epoch 2 (s = 16): threads 0..15 add sdata[tid + 16] (active mask 0x0000ffff): store 4.
//                     Every thread then reconverges at the barrier (active mask full).
//   epoch 3: thread 0 alone loads sdata[0] for the result; all other threads have exited.
Trace sequential_trace() {
  TraceBuilder b(64, 64 * 4);
  for (uint16_t t = 0; t < 64; ++t) b.store(0, t, t, 1, kLineLoad).sync(0, t, kLineSync0);
  for (uint16_t t = 0; t < 64; ++t) {
    if (t < 32) b.load(1, t, t, 1, kLineAdd).load(1, t, t + 32, 1, kLineAdd).store(1, t, t, 2, kLineAdd);
    b.sync(1, t, kLineSync);
  }
  for (uint16_t t = 0; t < 64; ++t) {
    if (t < 16) {
      b.load(2, t, t, 2, kLineAdd, 0xffffu).load(2, t, t + 16, 2, kLineAdd, 0xffffu);
      b.store(2, t, t, 4, kLineAdd, 0xffffu);
    }
    b.sync(2, t, kLineSync);
  }
  b.load(3, 0, 0, 4, kLineResult, 0x1u);
  return b.trace();
}

std::vector<uint8_t> flags(size_t words, uint32_t first, uint32_t last) {  // 1 in [first, last)
  std::vector<uint8_t> v(words, 0);
  for (uint32_t w = first; w < last; ++w) v[w] = 1;
  return v;
}

TEST(Replay, SequentialShape) {
  Replay r(sequential_trace());
  EXPECT_EQ(r.num_steps(), 4u);
  EXPECT_EQ(r.num_warps(), 2);
  EXPECT_EQ(r.num_words(), 64u);
  EXPECT_EQ(r.meta().kernel, "handmade");
  EXPECT_EQ(r.load_conflicts(), 0);
  EXPECT_EQ(r.store_conflicts(), 0);
  // Warp-level accesses: 2 stores, then 2 loads + 1 store twice, then 1 load.
  EXPECT_EQ(r.accesses().size(), 9u);

  const std::vector<StepEnd> ends = {StepEnd::BlockBarrier, StepEnd::BlockBarrier, StepEnd::BlockBarrier,
                                     StepEnd::KernelEnd};
  const std::vector<uint16_t> barrier_lines = {kLineSync0, kLineSync, kLineSync, 0};
  const std::vector<int> active_warps = {2, 1, 1, 1};
  const std::vector<int> loads = {0, 2, 2, 1}, stores = {2, 1, 1, 0};
  for (size_t s = 0; s < r.num_steps(); ++s) {
    const Step& st = r.step(s);
    EXPECT_EQ(st.epoch, s);
    EXPECT_EQ(st.ended_by, ends[s]) << s;
    EXPECT_EQ(st.barrier_line, barrier_lines[s]) << s;
    EXPECT_EQ(st.active_warps(), active_warps[s]) << s;
    EXPECT_EQ(st.loads, loads[s]) << s;
    EXPECT_EQ(st.stores, stores[s]) << s;
    EXPECT_EQ(st.load_conflicts, 0) << s;
    EXPECT_EQ(st.store_conflicts, 0) << s;
    EXPECT_EQ(st.max_degree, 1) << s;
    EXPECT_EQ(st.warps.size(), 2u) << s;
    EXPECT_EQ(st.smem.size(), 64u) << s;
    EXPECT_EQ(st.defined, std::vector<uint8_t>(64, 1)) << s;
    EXPECT_EQ(st.accesses.size(), static_cast<size_t>(loads[s] + stores[s])) << s;
  }
  EXPECT_THROW(r.step(4), std::out_of_range);
}

TEST(Replay, SequentialStep0AllStore) {
  Replay r(sequential_trace());
  const Step& st = r.step(0);
  for (int w = 0; w < 2; ++w) {
    EXPECT_EQ(st.warps[w].useful, kFull) << w;
    EXPECT_EQ(st.warps[w].active_mask, kFull) << w;
    EXPECT_EQ(st.warps[w].exited, 0u) << w;
    EXPECT_FALSE(st.warps[w].diverged) << w;
    EXPECT_FLOAT_EQ(st.warps[w].efficiency, 1.f) << w;
  }
  EXPECT_EQ(st.smem, std::vector<int32_t>(64, 1));
  EXPECT_EQ(st.written, std::vector<uint8_t>(64, 1));
  EXPECT_EQ(st.read, std::vector<uint8_t>(64, 0));
  EXPECT_TRUE(st.flows.empty());
  EXPECT_EQ(st.lines, std::vector<uint16_t>{kLineLoad});
  // Accesses are ordered by warp: warp 0's store, then warp 1's.
  ASSERT_EQ(st.accesses.size(), 2u);
  const WarpAccess& a0 = r.accesses()[st.accesses[0]];
  const WarpAccess& a1 = r.accesses()[st.accesses[1]];
  EXPECT_EQ(a0.warp, 0u);
  EXPECT_EQ(a1.warp, 1u);
  EXPECT_EQ(a0.kind, AccessKind::Store);
  EXPECT_EQ(a1.lanes, kFull);
  EXPECT_EQ(a1.addr[5], (32u + 5u) * 4u);
  EXPECT_EQ(a1.line, kLineLoad);
}

TEST(Replay, SequentialStep1HalfTheBlock) {
  Replay r(sequential_trace());
  const Step& st = r.step(1);
  const WarpStep& w0 = st.warps[0];
  const WarpStep& w1 = st.warps[1];
  EXPECT_EQ(w0.useful, kFull);
  EXPECT_EQ(w0.active_mask, kFull);
  EXPECT_FALSE(w0.diverged);
  EXPECT_EQ(w0.exited, 0u);
  EXPECT_TRUE(w0.active());
  // Warp 1 only waits at the barrier: no useful lane, but it is running (not exited).
  EXPECT_EQ(w1.useful, 0u);
  EXPECT_FALSE(w1.active());
  // active_mask is what __activemask() said at the warp's shared accesses: it made none.
  EXPECT_EQ(w1.active_mask, 0u);
  EXPECT_EQ(w1.exited, 0u);
  EXPECT_FALSE(w1.diverged);
  EXPECT_FLOAT_EQ(w1.efficiency, 0.f);

  std::vector<int32_t> smem(64, 1);
  for (int w = 0; w < 32; ++w) smem[w] = 2;
  EXPECT_EQ(st.smem, smem);
  EXPECT_EQ(st.written, flags(64, 0, 32));
  EXPECT_EQ(st.read, flags(64, 0, 64));
  // Each thread tid < 32 wrote sdata[tid] from sdata[tid] and sdata[tid + 32]; a word computed
  // from itself is no flow.
  std::vector<std::pair<uint32_t, uint32_t>> flows;
  for (uint32_t t = 0; t < 32; ++t) flows.emplace_back(t, t + 32);
  EXPECT_EQ(st.flows, flows);
  EXPECT_EQ(st.lines, std::vector<uint16_t>{kLineAdd});

  // Program order within the warp: load sdata[tid], load sdata[tid + 32], store sdata[tid].
  ASSERT_EQ(st.accesses.size(), 3u);
  const WarpAccess& ld0 = r.accesses()[st.accesses[0]];
  const WarpAccess& ld1 = r.accesses()[st.accesses[1]];
  const WarpAccess& sto = r.accesses()[st.accesses[2]];
  EXPECT_EQ(ld0.kind, AccessKind::Load);
  EXPECT_EQ(ld1.kind, AccessKind::Load);
  EXPECT_EQ(sto.kind, AccessKind::Store);
  EXPECT_EQ(ld0.addr[31], 31u * 4);
  EXPECT_EQ(ld1.addr[31], 63u * 4);
  EXPECT_EQ(sto.value[7], 2);
  EXPECT_LT(ld0.seq, ld1.seq);
  EXPECT_LT(ld1.seq, sto.seq);
  EXPECT_EQ(ld1.banks.degree, 1);
}

TEST(Replay, SequentialStep2Diverged) {
  Replay r(sequential_trace());
  const Step& st = r.step(2);
  const WarpStep& w0 = st.warps[0];
  EXPECT_EQ(w0.useful, 0x0000ffffu);
  // The accesses ran with 16 lanes while all 32 are live (they reach the barrier): divergence.
  EXPECT_TRUE(w0.diverged);
  // The hardware ran the accesses with only those 16 lanes (the barrier, where the warp has
  // reconverged, does not count).
  EXPECT_EQ(w0.active_mask, 0x0000ffffu);
  EXPECT_EQ(w0.exited, 0u);
  EXPECT_FLOAT_EQ(w0.efficiency, 0.5f);
  EXPECT_FALSE(st.warps[1].active());

  std::vector<int32_t> smem(64, 1);
  for (int w = 0; w < 32; ++w) smem[w] = w < 16 ? 4 : 2;
  EXPECT_EQ(st.smem, smem);
  EXPECT_EQ(st.written, flags(64, 0, 16));
  EXPECT_EQ(st.read, flags(64, 0, 32));
  std::vector<std::pair<uint32_t, uint32_t>> flows;
  for (uint32_t t = 0; t < 16; ++t) flows.emplace_back(t, t + 16);
  EXPECT_EQ(st.flows, flows);
  for (size_t ai : st.accesses) EXPECT_EQ(r.accesses()[ai].lanes, 0x0000ffffu);
  for (size_t ai : st.accesses) EXPECT_EQ(r.accesses()[ai].active_mask, 0x0000ffffu);
}

TEST(Replay, SequentialStep3KernelEnd) {
  Replay r(sequential_trace());
  const Step& st = r.step(3);
  EXPECT_EQ(st.ended_by, StepEnd::KernelEnd);
  const WarpStep& w0 = st.warps[0];
  EXPECT_EQ(w0.useful, 0x1u);
  EXPECT_EQ(w0.active_mask, 0x1u);
  // Only lane 0 is still live, and it ran alone: no divergence.
  EXPECT_FALSE(w0.diverged);
  EXPECT_EQ(w0.exited, 0xfffffffeu);
  EXPECT_EQ(st.warps[1].exited, kFull);
  EXPECT_EQ(st.warps[1].useful, 0u);
  EXPECT_FLOAT_EQ(w0.efficiency, 1.f / 32);
  EXPECT_EQ(st.written, std::vector<uint8_t>(64, 0));
  EXPECT_EQ(st.read, flags(64, 0, 1));
  EXPECT_TRUE(st.flows.empty());
  EXPECT_EQ(st.lines, std::vector<uint16_t>{kLineResult});
  // Nothing was stored: the snapshot is the one after step 2.
  EXPECT_EQ(st.smem, r.step(2).smem);
  ASSERT_EQ(st.accesses.size(), 1u);
  EXPECT_EQ(r.accesses()[st.accesses[0]].value[0], 4);
  EXPECT_EQ(r.accesses()[st.accesses[0]].banks.degree, 1);
}

TEST(Replay, RecordOrderDoesNotMatter) {
  Trace t = sequential_trace();
  Replay a(t);
  std::reverse(t.records.begin(), t.records.end());
  // Also interleave: rotate by an odd amount.
  std::rotate(t.records.begin(), t.records.begin() + 77, t.records.end());
  Replay b(t);
  ASSERT_EQ(a.num_steps(), b.num_steps());
  for (size_t s = 0; s < a.num_steps(); ++s) {
    const Step& x = a.step(s);
    const Step& y = b.step(s);
    EXPECT_EQ(x.smem, y.smem) << s;
    EXPECT_EQ(x.written, y.written) << s;
    EXPECT_EQ(x.read, y.read) << s;
    EXPECT_EQ(x.flows, y.flows) << s;
    EXPECT_EQ(x.loads, y.loads) << s;
    EXPECT_EQ(x.stores, y.stores) << s;
    ASSERT_EQ(x.warps.size(), y.warps.size());
    for (size_t w = 0; w < x.warps.size(); ++w) {
      EXPECT_EQ(x.warps[w].useful, y.warps[w].useful);
      EXPECT_EQ(x.warps[w].active_mask, y.warps[w].active_mask);
      EXPECT_EQ(x.warps[w].diverged, y.warps[w].diverged);
      EXPECT_EQ(x.warps[w].exited, y.warps[w].exited);
    }
    EXPECT_EQ(describe_step(a, s, kSource), describe_step(b, s, kSource));
  }
}

TEST(Replay, DescribeStep) {
  Replay r(sequential_trace());
  std::string s0 = describe_step(r, 0, kSource);
  EXPECT_TRUE(contains(s0, "step 0/3")) << s0;
  EXPECT_TRUE(contains(s0, "__syncthreads()")) << s0;
  EXPECT_TRUE(contains(s0, "(line 6)")) << s0;
  EXPECT_TRUE(contains(s0, "active warps 2/2")) << s0;
  // The store's source line, trimmed.
  EXPECT_TRUE(contains(s0, "line   5: sdata[tid] = g_idata[blockIdx.x * blockDim.x + tid];")) << s0;

  std::string s1 = describe_step(r, 1, kSource);
  EXPECT_TRUE(contains(s1, "active warps 1/2")) << s1;
  EXPECT_TRUE(contains(s1, "loads 2, stores 1")) << s1;
  EXPECT_TRUE(contains(s1, "if (tid < s) sdata[tid] += sdata[tid + s];")) << s1;
  EXPECT_TRUE(contains(s1, "converged")) << s1;
  EXPECT_FALSE(contains(s1, "DIVERGED")) << s1;
  EXPECT_TRUE(contains(s1, "[lane 0: word 32 = 1]")) << s1;  // the second load

  std::string s2 = describe_step(r, 2, kSource);
  EXPECT_TRUE(contains(s2, "DIVERGED")) << s2;
  EXPECT_TRUE(contains(s2, "useful lanes 0000ffff (16)")) << s2;

  std::string s3 = describe_step(r, 3, kSource);
  EXPECT_TRUE(contains(s3, "end of kernel")) << s3;
  EXPECT_FALSE(contains(s3, "(line")) << s3;
  EXPECT_TRUE(contains(s3, "if (tid == 0) g_odata[blockIdx.x] = sdata[0];")) << s3;  // tab trimmed

  // Without source the text still names the line number.
  std::string bare = describe_step(r, 1, "");
  EXPECT_TRUE(contains(bare, "line   8")) << bare;
  EXPECT_FALSE(contains(bare, "sdata[tid + s]")) << bare;
  EXPECT_THROW(describe_step(r, 4, kSource), std::out_of_range);
}

TEST(Replay, SourceLine) {
  EXPECT_EQ(source_line(kSource, 6), "__syncthreads();");
  EXPECT_EQ(source_line(kSource, 11), "if (tid == 0) g_odata[blockIdx.x] = sdata[0];");
  EXPECT_EQ(source_line(kSource, 1), "// reduce2, sequential addressing");
  EXPECT_EQ(source_line(kSource, 0), "");
  EXPECT_EQ(source_line(kSource, -3), "");
  EXPECT_EQ(source_line(kSource, 13), "");
  EXPECT_EQ(source_line("a\n   \nb", 2), "");
  EXPECT_EQ(source_line("a\n   \nb", 3), "b");
  EXPECT_EQ(source_line("", 1), "");
}

TEST(Replay, StepEndNames) {
  EXPECT_STREQ(to_string(StepEnd::BlockBarrier), "__syncthreads()");
  EXPECT_STREQ(to_string(StepEnd::WarpBarrier), "__syncwarp()");
  EXPECT_STREQ(to_string(StepEnd::KernelEnd), "end of kernel");
  EXPECT_STREQ(to_string(StepEnd::Shuffle), "a warp shuffle");
  EXPECT_STREQ(to_string(StepEnd::WarpReduce), "a warp reduce");
}

// ---- conflicts ---------------------------------------------------------------------------------

TEST(Replay, ConflictTotals) {
  // One warp, 4 KiB of shared memory (1024 words).
  //   epoch 0: load word 2l (2-way), load word 32l (32-way), store word 5 from every lane (1-way),
  //            then __syncthreads.
  //   epoch 1: store word 2l + 1 (2-way; banks 1, 3, ...), load word l (1-way).
  TraceBuilder b(32, 4096);
  for (uint16_t l = 0; l < 32; ++l) {
    b.load(0, l, 2u * l, 0, 20).load(0, l, 32u * l, 0, 21).store(0, l, 5, l, 22).sync(0, l, 23);
    b.store(1, l, 2u * l + 1, 0, 24).load(1, l, l, 0, 25);
  }
  Replay r(b.trace());
  ASSERT_EQ(r.num_steps(), 2u);
  const Step& s0 = r.step(0);
  EXPECT_EQ(s0.loads, 2);
  EXPECT_EQ(s0.stores, 1);
  EXPECT_EQ(s0.load_conflicts, 1 + 31);
  EXPECT_EQ(s0.store_conflicts, 0);
  EXPECT_EQ(s0.max_degree, 32);
  EXPECT_EQ(s0.lines, (std::vector<uint16_t>{20, 21, 22}));
  // Every lane stored word 5; the last lane in lane order wins the snapshot (value = lane).
  EXPECT_TRUE(s0.defined[5]);
  EXPECT_FALSE(s0.defined[4]);
  EXPECT_EQ(s0.smem[5], 31);
  // Lanes loaded word 32l (which is 2l' for l' = 16l) before storing word 5: flows into word 5.
  EXPECT_TRUE(std::binary_search(s0.flows.begin(), s0.flows.end(), std::make_pair(5u, 32u * 31)));
  EXPECT_TRUE(std::binary_search(s0.flows.begin(), s0.flows.end(), std::make_pair(5u, 2u * 31)));
  EXPECT_FALSE(std::binary_search(s0.flows.begin(), s0.flows.end(), std::make_pair(5u, 5u)));
  EXPECT_TRUE(std::is_sorted(s0.flows.begin(), s0.flows.end()));
  EXPECT_TRUE(std::adjacent_find(s0.flows.begin(), s0.flows.end()) == s0.flows.end()) << "duplicate flows";

  const Step& s1 = r.step(1);
  EXPECT_EQ(s1.loads, 1);
  EXPECT_EQ(s1.stores, 1);
  EXPECT_EQ(s1.load_conflicts, 0);
  EXPECT_EQ(s1.store_conflicts, 1);
  EXPECT_EQ(s1.max_degree, 2);
  // The load of epoch 1 comes after the store in program order: no flow.
  EXPECT_TRUE(s1.flows.empty());
  EXPECT_EQ(s1.ended_by, StepEnd::KernelEnd);

  EXPECT_EQ(r.load_conflicts(), 32);
  EXPECT_EQ(r.store_conflicts(), 1);
  std::string d = describe_step(r, 0, kSource);
  EXPECT_TRUE(contains(d, "ld 32, st 0 (worst 32-way)")) << d;
  EXPECT_TRUE(contains(d, "32-way")) << d;
}

TEST(Replay, InterleavedAddressingBankConflicts) {
  // reduce1's strided index on a 64-thread block, s = 1: thread tid < 32 adds word 2 tid + 1
  // into word 2 tid. A warp touches 64 words with stride 2: every access is 2-way.
  TraceBuilder b(64, 256);
  for (uint16_t t = 0; t < 64; ++t) b.store(0, t, t, 1, 5).sync(0, t, 6);
  for (uint16_t t = 0; t < 64; ++t) {
    if (t < 32) b.load(1, t, 2u * t, 1, 8).load(1, t, 2u * t + 1, 1, 8).store(1, t, 2u * t, 2, 8);
    b.sync(1, t, 9);
  }
  Replay r(b.trace());
  const Step& st = r.step(1);
  EXPECT_EQ(st.load_conflicts, 2);
  EXPECT_EQ(st.store_conflicts, 1);
  EXPECT_EQ(st.max_degree, 2);
  EXPECT_EQ(r.load_conflicts(), 2);
  EXPECT_EQ(r.store_conflicts(), 1);
  for (uint32_t w = 0; w < 64; ++w) EXPECT_EQ(st.smem[w], w % 2 == 0 ? 2 : 1) << w;
  EXPECT_EQ(st.flows.size(), 32u);
  EXPECT_EQ(st.flows.front(), std::make_pair(0u, 1u));
  EXPECT_EQ(st.flows.back(), std::make_pair(62u, 63u));
}

// ---- divergence ----------------------------------------------------------------------------

TEST(Replay, IfElseDivergence) {
  // One warp: even lanes load word l on line 30 (active mask 0x55555555), odd lanes load on
  // line 31 (0xaaaaaaaa). Every lane is live, so both accesses ran narrower than the warp.
  TraceBuilder b(32, 128);
  for (uint16_t l = 0; l < 32; ++l) {
    if (l % 2 == 0) b.load(0, l, l, 0, 30, 0x55555555u);
    else b.load(0, l, l, 0, 31, 0xaaaaaaaau);
  }
  Replay r(b.trace());
  ASSERT_EQ(r.num_steps(), 1u);
  const Step& st = r.step(0);
  EXPECT_EQ(st.loads, 2);
  const WarpStep& w = st.warps[0];
  EXPECT_TRUE(w.diverged);
  EXPECT_EQ(w.useful, kFull);
  EXPECT_EQ(w.active_mask, kFull);  // the union of both halves
  EXPECT_FLOAT_EQ(w.efficiency, 0.5f);
  EXPECT_EQ(st.lines, (std::vector<uint16_t>{30, 31}));
}

TEST(Replay, NarrowMaskOfLiveLanesIsDivergence) {
  // Lanes 0..7 access with an active mask of 0xff, but lanes 8..31 are live: they reach a
  // barrier later in the same epoch. That is divergence.
  TraceBuilder b(32, 128);
  for (uint16_t l = 0; l < 32; ++l) {
    if (l < 8) b.store(0, l, l, 1, 40, 0xffu);
    b.sync(0, l, 41);
  }
  b.load(1, 0, 0, 1, 42, 0x1u);
  Replay r(b.trace());
  EXPECT_TRUE(r.step(0).warps[0].diverged);
  EXPECT_EQ(r.step(0).warps[0].useful, 0xffu);
  // In epoch 1 only lane 0 is left: a mask of 0x1 is the whole live warp.
  EXPECT_FALSE(r.step(1).warps[0].diverged);
  EXPECT_EQ(r.step(1).warps[0].exited, 0xfffffffeu);
}

TEST(Replay, NarrowMaskOfExitedLanesIsNotDivergence) {
  // Lanes 8..31 record nothing at all (they returned before any access): they have exited, so
  // lanes 0..7 running with a mask of 0xff are the whole live warp.
  TraceBuilder b(32, 128);
  for (uint16_t l = 0; l < 8; ++l) b.store(0, l, l, 1, 40, 0xffu);
  Replay r(b.trace());
  EXPECT_FALSE(r.step(0).warps[0].diverged);
  EXPECT_EQ(r.step(0).warps[0].exited, 0xffffff00u);
}

TEST(Replay, PartialWarpBlock) {
  // 48 threads: warp 1 has only 16 lanes. Its lanes 16..31 do not exist and count as exited;
  // an access by all 16 real lanes is not divergence.
  TraceBuilder b(48, 48 * 4);
  for (uint16_t t = 0; t < 48; ++t) b.store(0, t, t, 1, 5, t < 32 ? kFull : 0x0000ffffu);
  Replay r(b.trace());
  EXPECT_EQ(r.num_warps(), 2);
  const Step& st = r.step(0);
  EXPECT_EQ(st.warps[1].useful, 0x0000ffffu);
  EXPECT_EQ(st.warps[1].exited, 0xffff0000u);
  EXPECT_FALSE(st.warps[1].diverged);
  EXPECT_FLOAT_EQ(st.warps[1].efficiency, 0.5f);
  EXPECT_EQ(st.warps[0].exited, 0u);
}

TEST(Replay, WarpBarrierEndsStep) {
  // The unrolled last warp: lanes 0..31 of a 64-thread block add and __syncwarp.
  TraceBuilder b(64, 256);
  for (uint16_t t = 0; t < 64; ++t) b.store(0, t, t, 1, 5).sync(0, t, 6);
  for (uint16_t t = 0; t < 32; ++t) {
    b.load(1, t, t, 1, 50).load(1, t, t + 32, 1, 50).store(1, t, t, 2, 50).syncwarp(1, t, 51);
    b.load(2, t, t, 2, 52).load(2, t, t + 16, 2, 52).store(2, t, t, 4, 52);
  }
  Replay r(b.trace());
  ASSERT_EQ(r.num_steps(), 3u);
  EXPECT_EQ(r.step(0).ended_by, StepEnd::BlockBarrier);
  EXPECT_EQ(r.step(1).ended_by, StepEnd::WarpBarrier);
  EXPECT_EQ(r.step(1).barrier_line, 51);
  EXPECT_EQ(r.step(2).ended_by, StepEnd::KernelEnd);
  // Warp 1 finished after epoch 0.
  EXPECT_EQ(r.step(1).warps[1].exited, kFull);
  EXPECT_EQ(r.step(0).warps[1].exited, 0u);
  EXPECT_TRUE(contains(describe_step(r, 1, kSource), "__syncwarp()"));
  // All 32 lanes (the whole live warp 0) run together: converged.
  EXPECT_FALSE(r.step(2).warps[0].diverged);
  // Lanes 16..31 read words 32..47 (stale, but real accesses): read flags cover words 0..47.
  EXPECT_EQ(r.step(2).read, flags(64, 0, 48));
}

TEST(Replay, FlowsStartAfterEachStore) {
  // Thread 0 loads word 1, stores word 2 (computed from word 1), then stores word 3 without a
  // load in between: word 3 was not computed from word 1. Thread 1 loads words 4 and 5, stores 6.
  TraceBuilder b(32, 128);
  b.load(0, 0, 1, 0, 60).store(0, 0, 2, 0, 61).store(0, 0, 3, 0, 62);
  b.load(0, 1, 4, 0, 60).load(0, 1, 5, 0, 63).store(0, 1, 6, 0, 61);
  Replay r(b.trace());
  const std::vector<std::pair<uint32_t, uint32_t>> flows = {{2, 1}, {6, 4}, {6, 5}};
  EXPECT_EQ(r.step(0).flows, flows);
}

TEST(Replay, BlockBarrierWinsOverWarpBarrier) {
  // Warp 0 ends the epoch at __syncthreads, warp 1 at __syncwarp: the step ends at the block
  // barrier, whichever record comes first.
  TraceBuilder b(64, 256);
  for (uint16_t t = 0; t < 64; ++t) {
    b.store(0, t, t, 1, 5);
    if (t < 32) b.sync(0, t, 6);
    else b.syncwarp(0, t, 7);
  }
  for (uint16_t t = 0; t < 64; ++t) b.load(1, t, t, 1, 8);
  Replay r(b.trace());
  EXPECT_EQ(r.step(0).ended_by, StepEnd::BlockBarrier);
  EXPECT_EQ(r.step(0).barrier_line, 6);
  std::reverse(b.trace().records.begin(), b.trace().records.end());
  Replay reversed(b.trace());
  EXPECT_EQ(reversed.step(0).ended_by, StepEnd::BlockBarrier);
  EXPECT_EQ(reversed.step(0).barrier_line, 6);
}

TEST(Replay, UndefinedWordsStayUndefined) {
  TraceBuilder b(32, 256);  // 64 words, only 0..31 ever stored
  for (uint16_t l = 0; l < 32; ++l) b.store(0, l, l, -l, 5);
  Replay r(b.trace());
  EXPECT_EQ(r.step(0).defined, flags(64, 0, 32));
  EXPECT_EQ(r.step(0).smem[31], -31);
  EXPECT_EQ(r.step(0).smem[40], 0);
}

// ---- bad traces ----------------------------------------------------------------------------

TEST(Replay, EmptyTraceThrows) {
  TraceBuilder b(64, 256);
  EXPECT_THROW(Replay{b.trace()}, ReplayError);
  Trace blank;  // not even a block size
  EXPECT_THROW(Replay{blank}, ReplayError);
}

TEST(Replay, RecordOutsideBlockThrows) {
  {
    Trace t = sequential_trace();
    t.records[10].thread = 64;  // block size 64
    EXPECT_THROW(Replay{t}, ReplayError);
  }
  {
    Trace t = sequential_trace();
    t.records[0].addr = 256;  // 256 bytes of shared memory
    EXPECT_THROW(Replay{t}, ReplayError);
  }
  {
    Trace t = sequential_trace();
    t.records[0].addr = 0xfffffffcu;
    EXPECT_THROW(Replay{t}, ReplayError);
  }
  {
    Trace t = sequential_trace();
    t.records[0].kind = 10;  // kinds 0-9 exist (format version 3)
    EXPECT_THROW(Replay{t}, ReplayError);
  }
  {
    Trace t = sequential_trace();
    t.records[0].epoch = 5000;
    EXPECT_THROW(Replay{t}, ReplayError);
  }
  {
    Trace t = sequential_trace();
    t.meta.block_size = 0;
    EXPECT_THROW(Replay{t}, ReplayError);
    t.meta.block_size = 2048;
    EXPECT_THROW(Replay{t}, ReplayError);
  }
  {
    Trace t = sequential_trace();
    t.meta.smem_bytes = 0;  // every access lies outside
    EXPECT_THROW(Replay{t}, ReplayError);
  }
  {
    // Barriers carry no address: a barrier's address is not checked.
    Trace t = sequential_trace();
    for (auto& rec : t.records) {
      if (rec.kind == static_cast<uint8_t>(AccessKind::BlockBarrier)) rec.addr = 0xdeadbeef;
    }
    EXPECT_NO_THROW(Replay{t});
  }
}

TEST(Replay, ErrorNamesKernel) {
  Trace t = sequential_trace();
  t.meta.kernel = "reduce3";
  t.records[3].thread = 999;
  try {
    Replay r(t);
    FAIL() << "no ReplayError";
  } catch (const ReplayError& e) {
    EXPECT_TRUE(contains(e.what(), "reduce3")) << e.what();
    EXPECT_TRUE(contains(e.what(), "999")) << e.what();
  }
}


// ---- version 3 events: shuffles, warp reduces, atomics, global memory ---------------------------

// The fake kernel source of the version 3 traces below (1-based lines).
const char* const kV3Source =
    "// lanes, atomics and global memory\n"                                   // 1
    "__global__ void v3(const int* in, int* out) {\n"                          // 2
    "  int sum = in[blockIdx.x * blockDim.x + threadIdx.x];\n"                 // 3
    "  for (int offset = 16; offset > 0; offset /= 2)\n"                       // 4
    "    sum += __shfl_xor_sync(0xffffffff, sum, offset);\n"                   // 5
    "  sum = __reduce_add_sync(0xffffffff, sum);\n"                            // 6
    "  atomicAdd(&out[0], sum);\n"                                             // 7
    "  atomicAdd_block(&s_sum[0], sum);\n"                                     // 8
    "  __syncthreads();\n"                                                     // 9
    "  if (threadIdx.x == 0) out[blockIdx.x] = sum;\n"                         // 10
    "}\n";                                                                     // 11

constexpr uint16_t kV3Load = 3, kV3Shfl = 5, kV3Reduce = 6, kV3Atomic = 7, kV3SharedAtomic = 8, kV3Sync = 9,
                   kV3Store = 10;
constexpr uint8_t kInput = static_cast<uint8_t>(GlobalBuffer::Input);
constexpr uint8_t kOutput = static_cast<uint8_t>(GlobalBuffer::Output);

// A version 3 record with every field spelled out.
TraceRecord ev(uint32_t epoch, uint32_t seq, uint16_t thread, AccessKind kind, uint32_t addr, uint32_t value,
               uint16_t line, uint8_t op = 0, uint8_t lane_arg = 0, uint8_t space = 0, uint32_t aux = 0,
               uint32_t active_mask = kFull) {
  TraceRecord r{};
  r.epoch = epoch;
  r.seq = seq;
  r.addr = addr;
  r.value = static_cast<int32_t>(value);
  r.active_mask = active_mask;
  r.thread = thread;
  r.line = line;
  r.kind = static_cast<uint8_t>(kind);
  r.op = op;
  r.lane_arg = lane_arg;
  r.space = space;
  r.aux = aux;
  return r;
}

Trace v3_trace(uint32_t block_size, uint32_t smem_bytes, uint64_t n, uint32_t grid_size) {
  Trace t;
  t.meta.kernel = "v3";
  t.meta.track = "lecture";
  t.meta.block_size = block_size;
  t.meta.smem_bytes = smem_bytes;
  t.meta.n = n;
  t.meta.grid_size = grid_size;
  t.meta.pattern = "iota";
  t.source = kV3Source;
  return t;
}


// A histogram's loop in one warp, as the probe numbers it: two iterations, each a byte load (line 10)
// and, for the lanes whose byte is a letter, an atomicAdd on a global bin (line 11). Lane 0 counts
// both of its bytes, lane 1 neither, so lane 1's second load has seq 1 where lane 0's has seq 2. The
// replay must still see two load requests of two lanes each (one per iteration) and two atomics.
TEST(ReplayV3, LanesThatSkipAnAtomicInALoopStayInTheirIteration) {
  constexpr uint8_t kBytes = static_cast<uint8_t>(GlobalBuffer::Bytes);
  Trace t = v3_trace(2, 0, 64, 1);
  t.meta.kernel = "histo_basic";
  t.meta.track = "course";
  const uint32_t both = 0x3, lane0 = 0x1;
  t.records = {
      ev(0, 0, 0, AccessKind::GlobalLoad, 0, 'a', 10, 0, 0, kBytes, 0, both),
      ev(0, 0, 1, AccessKind::GlobalLoad, 1, ' ', 10, 0, 0, kBytes, 0, both),
      ev(0, 1, 0, AccessKind::GlobalAtomic, 0, 1, 11, static_cast<uint8_t>(AtomicOp::Add), 0, kOutput, 0, lane0),
      ev(0, 2, 0, AccessKind::GlobalLoad, 32, 'b', 10, 0, 0, kBytes, 0, both),
      ev(0, 1, 1, AccessKind::GlobalLoad, 33, '.', 10, 0, 0, kBytes, 0, both),
      ev(0, 3, 0, AccessKind::GlobalAtomic, 0, 1, 11, static_cast<uint8_t>(AtomicOp::Add), 0, kOutput, 1, lane0),
  };
  Replay r(t);
  ASSERT_EQ(r.global_requests().size(), 2u);
  for (const GlobalRequest& g : r.global_requests()) {
    EXPECT_EQ(g.lanes, both);
    EXPECT_EQ(g.index[1], g.index[0] + 1) << "the two lanes read neighbouring bytes of one iteration";
    EXPECT_EQ(g.sectors, 1);
    EXPECT_EQ(g.requested_bytes, 2);  // two 1-byte elements
  }
  EXPECT_EQ(r.global_requests()[0].index[0], 0u);
  EXPECT_EQ(r.global_requests()[1].index[0], 32u);
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::GlobalAtomic), 2);
  ASSERT_EQ(r.atomic_targets().size(), 1u);
  EXPECT_EQ(r.atomic_targets()[0].chained, 1);
}

constexpr uint8_t kXor = static_cast<uint8_t>(ShuffleKind::Xor);
constexpr uint8_t kDown = static_cast<uint8_t>(ShuffleKind::Down);
constexpr uint8_t kAdd = static_cast<uint8_t>(AtomicOp::Add);

// One warp (32 threads) sums in[0..31] = 1..32 with a five-round __shfl_xor_sync butterfly:
//   epoch 0: lane l loads in[l] = l + 1 (one 128-byte request), then shuffles with offset 16;
//   epochs 1-4: offsets 8, 4, 2, 1. Round k: lane l offers its sum and receives lane l ^ offset's.
//   epoch 5: lane `store_lane` stores the total 528 to out[0] (if `store`).
// Every lane holds 1 + 2 + ... + 32 = 528 after the five rounds.
Trace butterfly_trace(uint16_t store_lane = 0, bool store = true) {
  Trace t = v3_trace(32, 4, 32, 1);
  std::array<uint32_t, kWarpSize> sum{};
  for (uint16_t l = 0; l < kWarpSize; ++l) {
    sum[l] = l + 1u;
    t.records.push_back(ev(0, 0, l, AccessKind::GlobalLoad, l, sum[l], kV3Load, 0, 0, kInput));
  }
  uint32_t epoch = 0;
  for (uint32_t offset = 16; offset > 0; offset /= 2, ++epoch) {
    std::array<uint32_t, kWarpSize> next{};
    for (uint16_t l = 0; l < kWarpSize; ++l) {
      const uint16_t src = static_cast<uint16_t>(l ^ offset);
      t.records.push_back(ev(epoch, epoch == 0 ? 1 : 0, l, AccessKind::Shuffle, sum[l], sum[src], kV3Shfl, kXor,
                             static_cast<uint8_t>(src), 32, kFull));
      next[l] = sum[l] + sum[src];
    }
    sum = next;
  }
  if (store) t.records.push_back(ev(5, 0, store_lane, AccessKind::GlobalStore, 0, sum[store_lane], kV3Store, 0, 0,
                                    kOutput, 0, 1u << store_lane));
  return t;
}

// Issue 17: single_pass_last_block showed warp 0's partial store (before `if (__syncthreads_or(last))`)
// in the same step as warps 1-7 loading the partials (after it). The probe counts epochs per thread and
// a shuffle ends only its own warp's epoch, so warp 0, which shuffled alone before the barrier, reaches
// it one epoch later than warp 1. The replay must still end one step at the barrier, with every
// store before it in that step or earlier and every store after it later. (The real kernel's trace,
// recorded on a GPU, is tests/fixtures/barrier_variants_bs64.rstrace.)
TEST(ReplayV3, ABlockBarrierEndsOneStepWhenOneWarpShuffledAloneBeforeIt) {
  Trace t = v3_trace(64, 256, 64, 1);
  constexpr uint16_t kBefore = 8, kBarrier = 9, kAfter = 10;
  for (uint16_t th = 0; th < 64; ++th) {
    const uint32_t e = th < 32 ? 1 : 0;  // warp 0's epoch after its shuffle
    if (th < 32) {
      const uint16_t src = th + 16 < 32 ? th + 16 : th;
      t.records.push_back(ev(0, 0, th, AccessKind::Shuffle, th, src, kV3Shfl, kDown, static_cast<uint8_t>(src), 32, kFull));
    }
    t.records.push_back(ev(e, 0, th, AccessKind::Store, 4u * th, th, kBefore));
    t.records.push_back(ev(e, 1, th, AccessKind::BlockBarrier, 0, 0, kBarrier));
    t.records.push_back(ev(e + 1, 0, th, AccessKind::Store, 4u * th, 1, kAfter));
  }
  Replay r(t);
  test::check_barrier_alignment(r, {{kBefore, kBarrier, kAfter}});
  ASSERT_EQ(r.num_steps(), 3u);  // warp 0's shuffle; the stores before the barrier; the stores after
  EXPECT_EQ(r.step(0).ended_by, StepEnd::Shuffle);
  EXPECT_EQ(r.step(1).barrier_line, kBarrier);
  EXPECT_EQ(r.step(2).ended_by, StepEnd::KernelEnd);
}

TEST(ReplayV3, ButterflyShuffleSteps) {
  Replay r(butterfly_trace());
  ASSERT_EQ(r.num_steps(), 6u);
  for (size_t s = 0; s < 5; ++s) {
    EXPECT_EQ(r.step(s).ended_by, StepEnd::Shuffle) << s;
    EXPECT_EQ(r.step(s).barrier_line, kV3Shfl) << s;
    ASSERT_EQ(r.step(s).shuffles.size(), 1u) << s;
    EXPECT_EQ(r.step(s).shuffles[0], s);
    EXPECT_EQ(r.step(s).warps[0].useful, kFull) << s;
    EXPECT_EQ(r.step(s).warps[0].exited, 0u) << s;
    EXPECT_FALSE(r.step(s).warps[0].diverged) << s;
    EXPECT_FLOAT_EQ(r.step(s).warps[0].efficiency, 1.f) << s;
  }
  EXPECT_EQ(r.step(5).ended_by, StepEnd::KernelEnd);
  EXPECT_EQ(r.step(5).barrier_line, 0);
  // Only lane 0 has an event in the last step: the 31 others have finished.
  EXPECT_EQ(r.step(5).warps[0].useful, 0x1u);
  EXPECT_EQ(r.step(5).warps[0].exited, 0xfffffffeu);
  EXPECT_FLOAT_EQ(r.step(5).warps[0].efficiency, 1.f / 32);
  // Step 0: the load and the first shuffle, in program order.
  EXPECT_EQ(r.step(0).lines, (std::vector<uint16_t>{kV3Load, kV3Shfl}));
  EXPECT_EQ(r.step(0).global_requests, std::vector<size_t>{0});
  EXPECT_EQ(r.step(5).global_requests, std::vector<size_t>{1});

  // None of it is shared memory: no warp-level shared accesses, loads, stores or snapshot cells.
  EXPECT_TRUE(r.accesses().empty());
  EXPECT_FALSE(r.has_shared());
  EXPECT_TRUE(r.has_lane_work());
  EXPECT_TRUE(r.has_global());
  EXPECT_FALSE(r.has_atomics());
  for (const Step& st : r.steps()) {
    EXPECT_EQ(st.loads + st.stores, 0);
    EXPECT_EQ(st.max_degree, 0);
    EXPECT_EQ(st.defined, std::vector<uint8_t>(1, 0));
    EXPECT_EQ(st.written, std::vector<uint8_t>(1, 0));
  }
  EXPECT_EQ(r.shuffle_instruction_count(), 5);
  EXPECT_EQ(r.global_request_count(AccessKind::GlobalLoad), 1);
  EXPECT_EQ(r.global_request_count(AccessKind::GlobalStore), 1);
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::GlobalAtomic), 0);
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::SharedAtomic), 0);
  EXPECT_EQ(r.result_lanes(), std::vector<int>{0});
}

TEST(ReplayV3, ButterflyMoves) {
  Replay r(butterfly_trace());
  ASSERT_EQ(r.shuffles().size(), 5u);
  uint32_t offset = 16;
  for (const WarpShuffle& s : r.shuffles()) {
    SCOPED_TRACE("offset " + std::to_string(offset));
    EXPECT_EQ(s.kind, AccessKind::Shuffle);
    EXPECT_EQ(s.op, kXor);
    EXPECT_FALSE(s.float_values);
    EXPECT_EQ(s.width, 32);
    EXPECT_EQ(s.line, kV3Shfl);
    EXPECT_EQ(s.lanes, kFull);
    EXPECT_EQ(s.member_mask, kFull);
    EXPECT_EQ(s.active_mask, kFull);
    EXPECT_TRUE(s.consistent);
    ASSERT_EQ(s.moves.size(), 32u);
    for (int l = 0; l < kWarpSize; ++l) {
      EXPECT_EQ(s.moves[l].dst, l);
      EXPECT_EQ(s.moves[l].src, l ^ offset);
      EXPECT_EQ(s.moves[l].value, s.offered[l ^ offset]);
      EXPECT_EQ(s.received[l], s.offered[l ^ offset]);
    }
    offset /= 2;
  }
  // Round 1 (offset 16): lane 0 holds 1 and gets lane 16's 17. Round 5 (offset 1): lane 0 holds
  // the sum over the even lanes, 1 + 3 + ... + 31 = 256, and gets lane 1's 2 + 4 + ... + 32 = 272.
  EXPECT_EQ(r.shuffles()[0].moves[0].value, 17u);
  EXPECT_EQ(r.shuffles()[0].offered[0], 1u);
  EXPECT_EQ(r.shuffles()[4].offered[0], 256u);
  EXPECT_EQ(r.shuffles()[4].received[0], 272u);
}

TEST(ReplayV3, TamperedShuffleValueIsInconsistent) {
  Trace t = butterfly_trace();
  // Round 3 (epoch 2), lane 7: received one more than lane 7 ^ 4 offered.
  for (TraceRecord& rec : t.records) {
    if (rec.epoch == 2 && rec.thread == 7 && rec.kind == static_cast<uint8_t>(AccessKind::Shuffle)) rec.value += 1;
  }
  Replay r(t);
  for (size_t i = 0; i < r.shuffles().size(); ++i) EXPECT_EQ(r.shuffles()[i].consistent, i != 2) << i;
  EXPECT_TRUE(contains(describe_step(r, 2, kV3Source), "INCONSISTENT"));
  EXPECT_FALSE(contains(describe_step(r, 1, kV3Source), "INCONSISTENT"));
}

TEST(ReplayV3, ShuffleFromALaneThatDidNotTakePartIsInconsistent) {
  Trace t = butterfly_trace();
  // Lane 9 skips the first shuffle: lane 25 reads lane 9, which did not execute it.
  t.records.erase(std::remove_if(t.records.begin(), t.records.end(), [](const TraceRecord& rec) {
    return rec.epoch == 0 && rec.thread == 9 && rec.kind == static_cast<uint8_t>(AccessKind::Shuffle);
  }), t.records.end());
  Replay r(t);
  EXPECT_EQ(r.shuffles()[0].lanes, kFull & ~(1u << 9));
  EXPECT_EQ(r.shuffles()[0].moves.size(), 31u);
  EXPECT_FALSE(r.shuffles()[0].consistent);
  EXPECT_TRUE(r.shuffles()[1].consistent);
}

TEST(ReplayV3, ShuffleDownKeepsTheUpperLanesOwnValues) {
  // __shfl_down_sync(mask, v, 16): lanes 0-15 read lanes 16-31; lanes 16-31 keep their own value.
  Trace t = v3_trace(32, 4, 32, 1);
  for (uint16_t l = 0; l < kWarpSize; ++l) {
    const uint16_t src = l < 16 ? l + 16 : l;
    t.records.push_back(ev(0, 0, l, AccessKind::Shuffle, 100u + l, 100u + src, kV3Shfl, kDown,
                           static_cast<uint8_t>(src), 32, kFull));
  }
  Replay r(t);
  ASSERT_EQ(r.shuffles().size(), 1u);
  const WarpShuffle& s = r.shuffles()[0];
  EXPECT_TRUE(s.consistent);
  EXPECT_EQ(s.moves.size(), 32u);
  EXPECT_EQ(std::count_if(s.moves.begin(), s.moves.end(), [](const LaneMove& m) { return m.src != m.dst; }), 16);
  EXPECT_EQ(r.step(0).ended_by, StepEnd::Shuffle);
  const std::string d = describe_step(r, 0, kV3Source);
  EXPECT_TRUE(contains(d, "ends at a warp shuffle (line 5)")) << d;
  EXPECT_TRUE(contains(d, "__shfl_down_sync width 32")) << d;
  EXPECT_TRUE(contains(d, "32 lanes, 16 moves: 0 <- 16 (116), 1 <- 17 (117), ")) << d;
  EXPECT_TRUE(contains(d, "7 <- 23 (123), ...")) << d;  // eight moves, then "..."
  EXPECT_FALSE(contains(d, "8 <- 24")) << d;
}

TEST(ReplayV3, DescribeButterfly) {
  Replay r(butterfly_trace());
  const std::string d0 = describe_step(r, 0, kV3Source);
  EXPECT_TRUE(contains(d0, "step 0/5  ends at a warp shuffle (line 5)")) << d0;
  EXPECT_TRUE(contains(d0, "shuffles/warp reduces 1  warp atomics 0 (worst 0-way)  global requests 1")) << d0;
  EXPECT_TRUE(contains(d0, "warp  0 __shfl_xor_sync width 32  lanes ffffffff  line   5: "
                           "sum += __shfl_xor_sync(0xffffffff, sum, offset);")) << d0;
  EXPECT_TRUE(contains(d0, "32 lanes, 32 moves: 0 <- 16 (17), 1 <- 17 (18), ")) << d0;
  EXPECT_TRUE(contains(d0, "warp  0 global load input  lanes ffffffff  line   3: ")) << d0;
  EXPECT_TRUE(contains(d0, "128 bytes: 4 sectors of 4 needed, 100% efficiency   [lane 0: input[0] = 1]")) << d0;
  const std::string d5 = describe_step(r, 5, kV3Source);
  EXPECT_TRUE(contains(d5, "end of kernel")) << d5;
  EXPECT_TRUE(contains(d5, "global store output")) << d5;
  EXPECT_TRUE(contains(d5, "4 bytes: 1 sectors of 1 needed, 12% efficiency   [lane 0: output[0] = 528]")) << d5;
}

TEST(ReplayV3, ResultLaneIsTheLaneThatStoresAfterTheLastShuffle) {
  EXPECT_EQ(Replay(butterfly_trace(3)).result_lanes(), std::vector<int>{3});
  EXPECT_EQ(Replay(butterfly_trace(31)).result_lanes(), std::vector<int>{31});
  // No store after the shuffles: lane 0.
  EXPECT_EQ(Replay(butterfly_trace(0, false)).result_lanes(), std::vector<int>{0});
  // A warp with no shuffle has no result lane: -1.
  Trace t = butterfly_trace(5);
  t.meta.block_size = 64;
  t.meta.n = 64;
  t.records.push_back(ev(0, 0, 40, AccessKind::GlobalLoad, 40, 41, kV3Load, 0, 0, kInput, 0, 1u << 8));
  Replay r(t);
  EXPECT_EQ(r.result_lanes(), (std::vector<int>{5, -1}));
  EXPECT_EQ(r.num_warps(), 2);
  // Warp 1's only lane with an event is lane 8, in step 0; in step 1 all of warp 1 has finished.
  EXPECT_EQ(r.step(0).warps[1].useful, 1u << 8);
  EXPECT_EQ(r.step(0).warps[1].exited, ~(1u << 8));
  EXPECT_EQ(r.step(1).warps[1].exited, kFull);
}

TEST(ReplayV3, BarrierWinsOverShuffleAsStepEnd) {
  // Warp 0 shuffles in epoch 0 while warp 1 reaches __syncthreads in epoch 0.
  Trace t = v3_trace(64, 4, 64, 1);
  for (uint16_t l = 0; l < kWarpSize; ++l) {
    t.records.push_back(ev(0, 0, l, AccessKind::Shuffle, l, l ^ 1u, kV3Shfl, kXor, static_cast<uint8_t>(l ^ 1), 32,
                           kFull));
    t.records.push_back(ev(0, 0, static_cast<uint16_t>(32 + l), AccessKind::BlockBarrier, 0, 0, kV3Sync));
  }
  Replay r(t);
  EXPECT_EQ(r.step(0).ended_by, StepEnd::BlockBarrier);
  EXPECT_EQ(r.step(0).barrier_line, kV3Sync);
}

// A warp reduce by each of two warps (64 threads, operand = threadIdx.x), then one atomicAdd of
// each warp's total to out[0] by lane 0 of warp 0 and lane 4 of warp 1.
Trace warp_reduce_trace(uint8_t op = static_cast<uint8_t>(WarpReduceOp::Add)) {
  Trace t = v3_trace(64, 4, 64, 1);
  for (uint32_t w = 0; w < 2; ++w) {
    uint32_t total = 0;
    for (uint32_t l = 0; l < 32; ++l) {
      const uint32_t v = w * 32 + l;
      if (op == static_cast<uint8_t>(WarpReduceOp::Add)) total += v;
      if (op == static_cast<uint8_t>(WarpReduceOp::Min)) total = l == 0 ? v : std::min(total, v);
    }
    for (uint16_t l = 0; l < 32; ++l) {
      t.records.push_back(ev(0, 0, static_cast<uint16_t>(w * 32 + l), AccessKind::WarpReduce, w * 32 + l, total,
                             kV3Reduce, op, 0, 32, kFull));
    }
    const uint16_t lane = w == 0 ? 0 : 4;
    t.records.push_back(ev(1, 0, static_cast<uint16_t>(w * 32 + lane), AccessKind::GlobalAtomic, 0, total, kV3Atomic,
                           kAdd, 0, kOutput, w == 0 ? 0 : 496, 1u << lane));
  }
  return t;
}

TEST(ReplayV3, WarpReduce) {
  Replay r(warp_reduce_trace());
  ASSERT_EQ(r.num_steps(), 2u);
  EXPECT_EQ(r.step(0).ended_by, StepEnd::WarpReduce);
  EXPECT_EQ(r.step(0).barrier_line, kV3Reduce);
  ASSERT_EQ(r.shuffles().size(), 2u);
  for (const WarpShuffle& s : r.shuffles()) {
    EXPECT_EQ(s.kind, AccessKind::WarpReduce);
    EXPECT_TRUE(s.consistent);
    EXPECT_TRUE(s.moves.empty());
    EXPECT_EQ(s.lanes, kFull);
  }
  EXPECT_EQ(r.shuffles()[0].received[31], 496u);   // 0 + ... + 31
  EXPECT_EQ(r.shuffles()[1].received[0], 1520u);   // 32 + ... + 63
  // A warp reduce is not a shuffle instruction.
  EXPECT_EQ(r.shuffle_instruction_count(), 0);
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::GlobalAtomic), 2);
  EXPECT_EQ(r.result_lanes(), (std::vector<int>{0, 4}));
  const std::string d = describe_step(r, 0, kV3Source);
  EXPECT_TRUE(contains(d, "ends at a warp reduce (line 6)")) << d;
  EXPECT_TRUE(contains(d, "warp  1 __reduce_add_sync  lanes ffffffff  line   6: ")) << d;
  EXPECT_TRUE(contains(d, "32 lanes, lane 0: 32 -> 1520")) << d;

  Trace t = warp_reduce_trace();
  t.records[36].value = 1519;  // warp 1, lane 3 (records 33..64 are warp 1's, after warp 0's atomic)
  ASSERT_EQ(t.records[36].thread, 35);
  Replay bad(t);
  EXPECT_TRUE(bad.shuffles()[0].consistent);
  EXPECT_FALSE(bad.shuffles()[1].consistent);

  Replay min(warp_reduce_trace(static_cast<uint8_t>(WarpReduceOp::Min)));
  EXPECT_TRUE(min.shuffles()[0].consistent);
  EXPECT_EQ(min.shuffles()[1].received[9], 32u);
}

TEST(ReplayV3, WarpReduceMinIsSigned) {
  // Operands -5, 0, 1, ..., 30 (int32): the minimum is -5, not 0 (as unsigned it would be 0).
  Trace t = v3_trace(32, 4, 32, 1);
  for (uint16_t l = 0; l < 32; ++l) {
    const uint32_t v = l == 0 ? static_cast<uint32_t>(-5) : l - 1u;
    t.records.push_back(ev(0, 0, l, AccessKind::WarpReduce, v, static_cast<uint32_t>(-5), kV3Reduce,
                           static_cast<uint8_t>(WarpReduceOp::Min), 0, 32, kFull));
  }
  EXPECT_TRUE(Replay(t).shuffles()[0].consistent);
  for (auto& rec : t.records) rec.value = 0;
  EXPECT_FALSE(Replay(t).shuffles()[0].consistent);
}

// 64 threads each atomicAdd(&out[0], 1) once; the updates landed in the order
// p(t) = 37 t mod 64 (a permutation: 37 is odd), so thread t got old = base + p(t) (+ gap for the
// second half of the landing order, as if another block's update had landed in between).
Trace global_atomic_trace(uint32_t gap = 0) {
  Trace t = v3_trace(64, 4, 64 * 16, 16);
  for (uint16_t th = 0; th < 64; ++th) {
    const uint32_t p = th * 37u % 64u;
    t.records.push_back(ev(0, 0, th, AccessKind::GlobalAtomic, 0, 1, kV3Atomic, kAdd, 0, kOutput,
                           100 + p + (p >= 32 ? gap : 0)));
  }
  return t;
}

TEST(ReplayV3, GlobalAtomicContentionAndLandingOrder) {
  Replay r(global_atomic_trace());
  ASSERT_EQ(r.atomics().size(), 2u);
  for (uint32_t w = 0; w < 2; ++w) {
    const WarpAtomic& a = r.atomics()[w];
    EXPECT_EQ(a.warp, w);
    EXPECT_EQ(a.kind, AccessKind::GlobalAtomic);
    EXPECT_EQ(a.op, kAdd);
    EXPECT_EQ(a.space, kOutput);
    EXPECT_EQ(a.lanes, kFull);
    EXPECT_EQ(a.contention, (std::vector<std::pair<uint32_t, int>>{{0u, 32}}));
    EXPECT_EQ(a.max_contention, 32);
  }
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::GlobalAtomic), 2);
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::SharedAtomic), 0);
  EXPECT_EQ(r.step(0).atomics, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(r.step(0).ended_by, StepEnd::KernelEnd);
  EXPECT_TRUE(r.has_atomics());
  EXPECT_EQ(r.step(0).warps[1].useful, kFull);

  ASSERT_EQ(r.atomic_targets().size(), 1u);
  const AtomicTarget& tg = r.atomic_targets()[0];
  EXPECT_EQ(tg.kind, AccessKind::GlobalAtomic);
  EXPECT_EQ(tg.space, kOutput);
  EXPECT_EQ(tg.addr, 0u);
  EXPECT_EQ(tg.op, kAdd);
  ASSERT_EQ(tg.order.size(), 64u);
  for (uint32_t k = 0; k < 64; ++k) {
    // 45 = 37^-1 mod 64 (37 * 45 = 1665 = 26 * 64 + 1): the thread whose update landed k-th.
    const uint32_t thread = k * 45 % 64;
    EXPECT_EQ(tg.order[k].old, 100 + k) << k;
    EXPECT_EQ(tg.order[k].thread, thread) << k;
    EXPECT_EQ(tg.order[k].operand, 1u);
    EXPECT_EQ(tg.order[k].instruction, thread / 32) << k;
  }
  EXPECT_EQ(tg.chained, 63);

  const std::string d = describe_step(r, 0, kV3Source);
  EXPECT_TRUE(contains(d, "warp  0 atomicAdd (output)  lanes ffffffff  line   7: atomicAdd(&out[0], sum);")) << d;
  EXPECT_TRUE(contains(d, "32 lanes -> 1 address: 32-way contention")) << d;
  EXPECT_TRUE(contains(d, "warp atomics 2 (worst 32-way)")) << d;

  // Another block's five updates landed between the 32nd and the 33rd: one pair is not chained.
  EXPECT_EQ(Replay(global_atomic_trace(5)).atomic_targets()[0].chained, 62);
}

TEST(ReplayV3, AtomicContentionPerAddress) {
  // One warp: lane l adds to out[l % 4]: 8 lanes per address.
  Trace t = v3_trace(32, 4, 32, 4);
  for (uint16_t l = 0; l < 32; ++l) {
    t.records.push_back(ev(0, 0, l, AccessKind::GlobalAtomic, l % 4u, 1, kV3Atomic, kAdd, 0, kOutput, l / 4u));
  }
  Replay r(t);
  ASSERT_EQ(r.atomics().size(), 1u);
  EXPECT_EQ(r.atomics()[0].contention, (std::vector<std::pair<uint32_t, int>>{{0u, 8}, {1u, 8}, {2u, 8}, {3u, 8}}));
  EXPECT_EQ(r.atomics()[0].max_contention, 8);
  ASSERT_EQ(r.atomic_targets().size(), 4u);
  for (uint32_t a = 0; a < 4; ++a) {
    EXPECT_EQ(r.atomic_targets()[a].addr, a);
    EXPECT_EQ(r.atomic_targets()[a].order.size(), 8u);
    EXPECT_EQ(r.atomic_targets()[a].chained, 7);
    EXPECT_EQ(r.atomic_targets()[a].order[0].thread, a);  // lanes a, a + 4, ... got old 0, 1, ...
    EXPECT_EQ(r.atomic_targets()[a].order[7].thread, a + 28);
  }
  EXPECT_TRUE(contains(describe_step(r, 0, ""), "32 lanes -> 4 addresses: worst 8-way contention"));
}

TEST(ReplayV3, LandingOrderTiesByEpochThenThread) {
  // Equal old values (a broken trace, or other ops): epoch, then thread decides.
  Trace t = v3_trace(8, 4, 8, 1);
  t.records.push_back(ev(1, 0, 2, AccessKind::GlobalAtomic, 0, 1, kV3Atomic, kAdd, 0, kOutput, 7));
  t.records.push_back(ev(0, 0, 5, AccessKind::GlobalAtomic, 0, 1, kV3Atomic, kAdd, 0, kOutput, 7));
  t.records.push_back(ev(0, 0, 3, AccessKind::GlobalAtomic, 0, 1, kV3Atomic, kAdd, 0, kOutput, 7));
  t.records.push_back(ev(0, 1, 3, AccessKind::BlockBarrier, 0, 0, kV3Sync));
  t.records.push_back(ev(0, 1, 5, AccessKind::BlockBarrier, 0, 0, kV3Sync));
  Replay r(t);
  const AtomicTarget& tg = r.atomic_targets().at(0);
  ASSERT_EQ(tg.order.size(), 3u);
  EXPECT_EQ(tg.order[0].thread, 3u);
  EXPECT_EQ(tg.order[1].thread, 5u);
  EXPECT_EQ(tg.order[2].thread, 2u);
  EXPECT_EQ(tg.order[2].epoch, 1u);
  EXPECT_EQ(tg.chained, 0);
}

TEST(ReplayV3, LandingOrderOfMinMaxAndFloatAdd) {
  auto target = [](uint8_t op, const std::vector<std::pair<uint32_t, uint32_t>>& operand_old) {
    Trace t = v3_trace(32, 4, 32, 1);
    for (size_t i = 0; i < operand_old.size(); ++i) {
      t.records.push_back(ev(0, 0, static_cast<uint16_t>(i), AccessKind::GlobalAtomic, 0, operand_old[i].first,
                             kV3Atomic, op, 0, kOutput, operand_old[i].second));
    }
    Replay r(t);
    return r.atomic_targets().at(0);
  };
  auto threads = [](const AtomicTarget& tg) {
    std::vector<uint32_t> v;
    for (const AtomicUpdate& u : tg.order) v.push_back(u.thread);
    return v;
  };
  const auto f = float_to_bits;
  // atomicMin, int32: the old values fall, so the order is by descending old value:
  // thread 1 (old 50 -> min(50, 40) = 40), thread 2 (old 40 -> 10), thread 0 (old 10, operand 30).
  AtomicTarget mn = target(static_cast<uint8_t>(AtomicOp::Min), {{30, 10}, {40, 50}, {10, 40}});
  EXPECT_EQ(threads(mn), (std::vector<uint32_t>{1, 2, 0}));
  EXPECT_EQ(mn.chained, 2);
  // atomicMax on floats, including negative ones (as int32 bits they would sort the other way):
  // olds -3, -2, -1, 0.5 in that order, each the max of the previous old and its operand.
  const uint8_t fmax = static_cast<uint8_t>(AtomicOp::Max) | kOpFloatBit;
  AtomicTarget mx = target(fmax, {{f(0.25f), f(0.5f)}, {f(-1.f), f(-2.f)}, {f(0.5f), f(-1.f)}, {f(-2.f), f(-3.f)}});
  EXPECT_EQ(threads(mx), (std::vector<uint32_t>{3, 1, 2, 0}));
  EXPECT_EQ(mx.chained, 3);
  EXPECT_EQ(mx.op, fmax);
  // float atomicAdd of 0.1f: chained when old' == float(old + 0.1f) exactly, in float arithmetic.
  std::vector<std::pair<uint32_t, uint32_t>> adds;
  float acc = 0.f;
  for (int i = 0; i < 10; ++i) {
    adds.emplace_back(f(0.1f), f(acc));
    acc += 0.1f;
  }
  std::reverse(adds.begin(), adds.end());  // thread 9 landed first
  AtomicTarget fa = target(kAdd | kOpFloatBit, adds);
  EXPECT_EQ(threads(fa), (std::vector<uint32_t>{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(fa.chained, 9);
  // The same bits read as int32 adds chain only where the old value is 0 (0 + x is x either way).
  EXPECT_EQ(target(kAdd, adds).chained, 1);
}

TEST(ReplayV3, AtomicResult) {
  const uint8_t add = kAdd, fadd = kAdd | kOpFloatBit;
  EXPECT_EQ(atomic_result(add, 0x7fffffffu, 1), 0x80000000u);  // int32 wraps
  EXPECT_EQ(atomic_result(fadd, float_to_bits(1.5f), float_to_bits(0.25f)), float_to_bits(1.75f));
  EXPECT_EQ(atomic_result(static_cast<uint8_t>(AtomicOp::Min), static_cast<uint32_t>(-1), 3), static_cast<uint32_t>(-1));
  EXPECT_EQ(atomic_result(static_cast<uint8_t>(AtomicOp::Max), static_cast<uint32_t>(-1), 3), 3u);
  EXPECT_EQ(atomic_result(static_cast<uint8_t>(AtomicOp::Inc), 4, 4), 0u);  // atomicInc wraps to 0 at the limit
  EXPECT_EQ(atomic_result(static_cast<uint8_t>(AtomicOp::Inc), 3, 4), 4u);
  EXPECT_EQ(atomic_result(static_cast<uint8_t>(AtomicOp::Exch), 3, 9), 9u);
  EXPECT_STREQ(intrinsic_name(AccessKind::Shuffle, kXor | kOpFloatBit), "__shfl_xor_sync");
  EXPECT_STREQ(intrinsic_name(AccessKind::WarpReduce, 2), "__reduce_max_sync");
  EXPECT_STREQ(intrinsic_name(AccessKind::SharedAtomic, static_cast<uint8_t>(AtomicOp::Cas)), "atomicCAS");
  EXPECT_STREQ(intrinsic_name(AccessKind::Load, 0), "load");
}

// The lecture's shared-atomic kernel on 64 threads:
//   epoch 0: thread 0 stores s_sum = 0; everyone reaches __syncthreads;
//   epoch 1: each thread t does atomicAdd_block(&s_sum, t + 1), landing in the order
//            37 t mod 64; then __syncthreads;
//   epoch 2: thread 0 loads s_sum = 1 + 2 + ... + 64 = 2080.
Trace shared_atomic_trace() {
  Trace t = v3_trace(64, 8, 64, 1);
  std::vector<uint32_t> landed(64);  // landed[k]: the thread whose update landed k-th
  for (uint32_t th = 0; th < 64; ++th) landed[th * 37 % 64] = th;
  std::vector<uint32_t> old(64);
  uint32_t acc = 0;
  for (uint32_t th : landed) {
    old[th] = acc;
    acc += th + 1;
  }
  t.records.push_back(ev(0, 0, 0, AccessKind::Store, 0, 0, kV3SharedAtomic, 0, 0, 0, 0, 1u));
  for (uint16_t th = 0; th < 64; ++th) {
    t.records.push_back(ev(0, th == 0 ? 1 : 0, th, AccessKind::BlockBarrier, 0, 0, kV3Sync));
    t.records.push_back(ev(1, 0, th, AccessKind::SharedAtomic, 0, th + 1u, kV3SharedAtomic, kAdd, 0, 0, old[th]));
    t.records.push_back(ev(1, 1, th, AccessKind::BlockBarrier, 0, 0, kV3Sync));
  }
  t.records.push_back(ev(2, 0, 0, AccessKind::Load, 0, 2080, kV3Store, 0, 0, 0, 0, 1u));
  return t;
}

TEST(ReplayV3, SharedAtomicsUpdateTheSnapshot) {
  Replay r(shared_atomic_trace());
  ASSERT_EQ(r.num_steps(), 3u);
  const Step& st = r.step(1);
  EXPECT_EQ(st.ended_by, StepEnd::BlockBarrier);
  // Atomics are not shared loads or stores: no warp-level access, no bank analysis.
  EXPECT_TRUE(st.accesses.empty());
  EXPECT_EQ(st.loads + st.stores, 0);
  EXPECT_EQ(st.max_degree, 0);
  EXPECT_EQ(r.accesses().size(), 2u);  // the store of step 0 and the load of step 2
  EXPECT_EQ(st.atomics, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::SharedAtomic), 2);
  EXPECT_EQ(st.warps[0].useful, kFull);
  EXPECT_EQ(st.warps[1].useful, kFull);
  EXPECT_EQ(r.atomics()[1].contention, (std::vector<std::pair<uint32_t, int>>{{0u, 32}}));
  // The word holds the last update's result; it counts as written this step.
  EXPECT_EQ(r.step(0).smem[0], 0);
  EXPECT_EQ(st.smem, (std::vector<int32_t>{2080, 0}));
  EXPECT_EQ(st.written, (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(st.defined, (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(st.read, (std::vector<uint8_t>{0, 0}));
  EXPECT_EQ(r.step(2).smem[0], 2080);
  EXPECT_EQ(r.step(2).written, (std::vector<uint8_t>{0, 0}));

  ASSERT_EQ(r.atomic_targets().size(), 1u);
  const AtomicTarget& tg = r.atomic_targets()[0];
  EXPECT_EQ(tg.kind, AccessKind::SharedAtomic);
  EXPECT_EQ(tg.addr, 0u);
  EXPECT_EQ(tg.chained, 63);
  EXPECT_EQ(tg.order.front().thread, 0u);
  EXPECT_EQ(tg.order.front().old, 0u);
  EXPECT_EQ(tg.order.back().thread, 19u);  // 37 * 19 = 703 = 10 * 64 + 63
  EXPECT_EQ(tg.order.back().old + tg.order.back().operand, 2080u);
  EXPECT_TRUE(contains(describe_step(r, 1, kV3Source), "warp  1 atomicAdd (shared)  lanes ffffffff  line   8: "));
}

TEST(ReplayV3, TargetsAreSharedFirstThenGlobal) {
  Trace t = shared_atomic_trace();
  t.meta.grid_size = 4;
  t.records.push_back(ev(2, 1, 0, AccessKind::GlobalAtomic, 3, 2080, kV3Atomic, kAdd, 0, kOutput, 0, 1u));
  t.records.push_back(ev(2, 2, 0, AccessKind::GlobalAtomic, 1, 2080, kV3Atomic, kAdd, 0, kOutput, 0, 1u));
  Replay r(t);
  ASSERT_EQ(r.atomic_targets().size(), 3u);
  EXPECT_EQ(r.atomic_targets()[0].kind, AccessKind::SharedAtomic);
  EXPECT_EQ(r.atomic_targets()[1].kind, AccessKind::GlobalAtomic);
  EXPECT_EQ(r.atomic_targets()[1].addr, 1u);
  EXPECT_EQ(r.atomic_targets()[2].addr, 3u);
  EXPECT_EQ(r.atomic_targets()[2].order[0].instruction, 2u);  // the third warp atomic
  // Global atomics leave shared memory alone.
  EXPECT_EQ(r.step(2).smem, (std::vector<int32_t>{2080, 0}));
}

// One warp's global loads, each a request: lane l reads input[f(l)].
TEST(ReplayV3, GlobalRequestSectors) {
  Trace t = v3_trace(32, 4, 4096, 1);
  auto request = [&](uint32_t seq, uint32_t lanes, auto index) {
    for (uint16_t l = 0; l < 32; ++l) {
      if (lanes >> l & 1u) {
        t.records.push_back(ev(0, seq, l, AccessKind::GlobalLoad, index(l), 1, kV3Load, 0, 0, kInput, 0, lanes));
      }
    }
  };
  request(0, kFull, [](uint32_t l) { return l; });          // coalesced: 128 bytes in 4 sectors
  request(1, kFull, [](uint32_t l) { return 2 * l; });      // stride 2: 8 sectors
  request(2, kFull, [](uint32_t l) { return 8 * l; });      // stride 8 (32 bytes): one sector per lane
  request(3, kFull, [](uint32_t l) { return l + 1; });      // misaligned by 4 bytes: 5 sectors
  request(4, kFull, [](uint32_t) { return 100u; });          // broadcast: 1 sector
  request(5, 0xffffu, [](uint32_t l) { return l; });        // half a warp: 2 sectors
  Replay r(t);
  ASSERT_EQ(r.global_requests().size(), 6u);
  const std::vector<int> sectors = {4, 8, 32, 5, 1, 2}, min_sectors = {4, 4, 4, 4, 1, 2},
                         bytes = {128, 128, 128, 128, 128, 64};
  const std::vector<double> efficiency = {1.0, 0.5, 0.125, 0.8, 4.0, 1.0};
  for (size_t i = 0; i < 6; ++i) {
    const GlobalRequest& g = r.global_requests()[i];
    EXPECT_EQ(g.seq, i);
    EXPECT_EQ(g.kind, AccessKind::GlobalLoad);
    EXPECT_EQ(g.sectors, sectors[i]) << i;
    EXPECT_EQ(g.min_sectors, min_sectors[i]) << i;
    EXPECT_EQ(g.requested_bytes, bytes[i]) << i;
    EXPECT_DOUBLE_EQ(g.efficiency(), efficiency[i]) << i;
  }
  EXPECT_EQ(r.global_requests()[2].index[31], 248u);
  EXPECT_EQ(r.global_request_count(AccessKind::GlobalLoad), 6);
  EXPECT_EQ(r.global_request_count(AccessKind::GlobalStore), 0);
  // The half-warp request ran with 16 of 32 live lanes: divergence; efficiency is the mean.
  EXPECT_TRUE(r.step(0).warps[0].diverged);
  EXPECT_FLOAT_EQ(r.step(0).warps[0].efficiency, 5.5f / 6);
  const std::string d = describe_step(r, 0, kV3Source);
  EXPECT_TRUE(contains(d, "128 bytes: 4 sectors of 4 needed, 100% efficiency")) << d;
  EXPECT_TRUE(contains(d, "128 bytes: 32 sectors of 4 needed, 12% efficiency")) << d;
  EXPECT_TRUE(contains(d, "128 bytes: 5 sectors of 4 needed, 80% efficiency")) << d;
  EXPECT_TRUE(contains(d, "global requests 6")) << d;
}

TEST(ReplayV3, FloatValuesAreDescribedAsFloats) {
  Trace t = v3_trace(32, 4, 32, 1);
  t.meta.dtype = DType::Float32;
  for (uint16_t l = 0; l < 32; ++l) {
    const uint16_t src = l ^ 16;
    t.records.push_back(ev(0, 0, l, AccessKind::Shuffle, float_to_bits(0.5f * l), float_to_bits(0.5f * src), kV3Shfl,
                           kXor | kOpFloatBit, static_cast<uint8_t>(src), 32, kFull));
    t.records.push_back(ev(1, 0, l, AccessKind::GlobalLoad, l, float_to_bits(1.25f), kV3Load, 0, 0, kInput));
  }
  Replay r(t);
  EXPECT_TRUE(r.shuffles()[0].float_values);
  EXPECT_TRUE(r.shuffles()[0].consistent);
  EXPECT_TRUE(contains(describe_step(r, 0, ""), "0 <- 16 (8), 1 <- 17 (8.5)")) << describe_step(r, 0, "");
  EXPECT_TRUE(contains(describe_step(r, 1, ""), "[lane 0: input[0] = 1.25]")) << describe_step(r, 1, "");
}

TEST(ReplayV3, BadVersion3RecordsThrow) {
  auto throws = [](auto patch) {
    Trace t = butterfly_trace();
    patch(t.records[40]);  // a shuffle
    EXPECT_THROW(Replay{t}, ReplayError);
  };
  throws([](TraceRecord& rec) { rec.lane_arg = 32; });
  throws([](TraceRecord& rec) { rec.space = 0; });
  throws([](TraceRecord& rec) { rec.space = 12; });
  throws([](TraceRecord& rec) { rec.kind = static_cast<uint8_t>(AccessKind::GlobalLoad), rec.addr = 32; });
  throws([](TraceRecord& rec) { rec.kind = static_cast<uint8_t>(AccessKind::GlobalAtomic), rec.space = 4; });
  // The scratch buffer holds 8 elements per thread of the grid: 32 x 8 = 256 here.
  throws([](TraceRecord& rec) {
    rec.kind = static_cast<uint8_t>(AccessKind::GlobalStore), rec.space = 2, rec.addr = 256;
  });
  throws([](TraceRecord& rec) { rec.kind = static_cast<uint8_t>(AccessKind::SharedAtomic), rec.addr = 4; });
}


// ---- the global slice: reductions in place in global memory (the book track) --------------------

// The fake source of the in-place traces (1-based lines), after the book's reduceInterleaved.
const char* const kBookSource =
    "__global__ void reduceInterleaved(int* g_idata, int* g_odata, unsigned int n) {\n"  // 1
    "  unsigned int tid = threadIdx.x;\n"                                               // 2
    "  int* idata = g_idata + blockIdx.x * blockDim.x;\n"                               // 3
    "  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {\n"                 // 4
    "    if (tid < stride) idata[tid] += idata[tid + stride];\n"                        // 5
    "    __syncthreads();\n"                                                            // 6
    "  }\n"                                                                             // 7
    "  if (tid == 0) g_odata[blockIdx.x] = idata[0];\n"                                 // 8
    "}\n";                                                                              // 9
constexpr uint16_t kBookAdd = 5, kBookSync = 6, kBookResult = 8;
constexpr uint8_t kScratch = static_cast<uint8_t>(GlobalBuffer::Scratch);

// reduceInterleaved on block `block` of a 64-thread launch, in place on buffer `space`, whose
// elements are their own index (iota): the block's slice is elements base..base+63, base = 64 x block.
//   epoch k = 0..5 (stride s = 32 >> k): thread t < s loads idata[t] and idata[t + s] and stores
//     their sum to idata[t]; every thread then reaches __syncthreads().
//   epoch 6: thread 0 loads idata[0] (the block's sum) and stores it to output[block].
// Values (v = the slice, iota): after epoch 0 v[t] = 2t + 32 + 2 base for t < 32; after epoch 1
// v[t] = 4t + 96 + 4 base for t < 16; ...; v[0] = sum of base..base+63 = 2016 + 64 base.
Trace interleaved_trace(uint8_t space = kScratch, uint32_t block = 0) {
  Trace t;
  t.meta.kernel = "reduceInterleaved";
  t.meta.track = "book";
  t.meta.block_size = 64;
  t.meta.smem_bytes = 0;
  t.meta.grid_size = block + 1;
  t.meta.n = 64u * (block + 1);
  t.meta.traced_block = block;
  t.meta.pattern = "iota";
  t.source = kBookSource;
  const uint32_t base = 64 * block;
  std::vector<int32_t> v(64);
  for (uint32_t i = 0; i < 64; ++i) v[i] = static_cast<int32_t>(base + i);
  uint32_t epoch = 0;
  for (uint32_t s = 32; s > 0; s >>= 1, ++epoch) {
    std::vector<int32_t> next = v;
    for (uint16_t th = 0; th < 64; ++th) {
      uint32_t seq = 0;
      if (th < s) {
        // Warp 0 runs the add with lanes 0..s-1 (all of them at s = 32).
        const uint32_t m = s >= 32 ? kFull : (1u << s) - 1;
        t.records.push_back(ev(epoch, seq++, th, AccessKind::GlobalLoad, base + th, v[th], kBookAdd, 0, 0, space, 0, m));
        t.records.push_back(
            ev(epoch, seq++, th, AccessKind::GlobalLoad, base + th + s, v[th + s], kBookAdd, 0, 0, space, 0, m));
        next[th] = v[th] + v[th + s];
        t.records.push_back(
            ev(epoch, seq++, th, AccessKind::GlobalStore, base + th, next[th], kBookAdd, 0, 0, space, 0, m));
      }
      t.records.push_back(ev(epoch, seq, th, AccessKind::BlockBarrier, 0, 0, kBookSync));
    }
    v = next;
  }
  t.records.push_back(ev(epoch, 0, 0, AccessKind::GlobalLoad, base, v[0], kBookResult, 0, 0, space, 0, 1u));
  t.records.push_back(ev(epoch, 1, 0, AccessKind::GlobalStore, block, v[0], kBookResult, 0, 0, kOutput, 0, 1u));
  return t;
}

TEST(ReplayGlobalSlice, InPlaceTreeSliceBounds) {
  Replay r(interleaved_trace());
  const GlobalSlice& g = r.global_slice();
  EXPECT_TRUE(r.has_global_slice());
  EXPECT_EQ(g.space, kScratch);
  EXPECT_EQ(g.first, 0u);
  EXPECT_EQ(g.count, 64u);
  EXPECT_EQ(g.span, 64u);
  EXPECT_FALSE(g.truncated);
  EXPECT_FALSE(r.has_shared());
  ASSERT_EQ(r.num_steps(), 7u);
  for (const Step& st : r.steps()) {
    EXPECT_EQ(st.global_values.size(), 64u);
    EXPECT_EQ(st.global_defined.size(), 64u);
    EXPECT_EQ(st.global_written.size(), 64u);
    EXPECT_EQ(st.global_read.size(), 64u);
    EXPECT_TRUE(st.smem.empty());
  }
}

TEST(ReplayGlobalSlice, InPlaceTreeStep0) {
  Replay r(interleaved_trace());
  const Step& st = r.step(0);
  // Threads 0..31 read every element (idata[t] and idata[t + 32]) and write the lower half.
  EXPECT_EQ(st.global_read, flags(64, 0, 64));
  EXPECT_EQ(st.global_written, flags(64, 0, 32));
  EXPECT_EQ(st.global_defined, flags(64, 0, 64));
  for (int32_t t = 0; t < 32; ++t) EXPECT_EQ(st.global_values[t], 2 * t + 32) << t;
  // The upper half shows what the loads found in memory: the input, untouched.
  for (int32_t t = 32; t < 64; ++t) EXPECT_EQ(st.global_values[t], t) << t;
  // Each written cell was computed from the cell 32 above it (and from itself, not a flow).
  ASSERT_EQ(st.global_flows.size(), 32u);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(st.global_flows[t], std::make_pair(t, t + 32)) << t;
  // Warp 0's three requests (two loads, one store of 32 consecutive ints): 4 sectors each, 100%.
  ASSERT_EQ(st.global_requests.size(), 3u);
  for (size_t gi : st.global_requests) {
    const GlobalRequest& q = r.global_requests()[gi];
    EXPECT_EQ(q.warp, 0u);
    EXPECT_EQ(q.space, kScratch);
    EXPECT_EQ(q.sectors, 4);
    EXPECT_DOUBLE_EQ(q.efficiency(), 1.0);
  }
  // Shared memory is untouched.
  EXPECT_TRUE(st.flows.empty());
  EXPECT_EQ(st.ended_by, StepEnd::BlockBarrier);
}

TEST(ReplayGlobalSlice, InPlaceTreeLaterSteps) {
  Replay r(interleaved_trace());
  // Step 1 (stride 16): threads 0..15 read cells 0..31 and write 0..15.
  const Step& s1 = r.step(1);
  EXPECT_EQ(s1.global_read, flags(64, 0, 32));
  EXPECT_EQ(s1.global_written, flags(64, 0, 16));
  for (int32_t t = 0; t < 16; ++t) EXPECT_EQ(s1.global_values[t], 4 * t + 96) << t;
  for (int32_t t = 16; t < 32; ++t) EXPECT_EQ(s1.global_values[t], 2 * t + 32) << t;  // from step 0
  for (int32_t t = 32; t < 64; ++t) EXPECT_EQ(s1.global_values[t], t) << t;
  ASSERT_EQ(s1.global_flows.size(), 16u);
  EXPECT_EQ(s1.global_flows.front(), std::make_pair(0u, 16u));
  // Half a warp stores 16 ints: 2 sectors, all needed.
  const GlobalRequest& store = r.global_requests()[s1.global_requests.back()];
  EXPECT_EQ(store.kind, AccessKind::GlobalStore);
  EXPECT_EQ(store.sectors, 2);
  EXPECT_EQ(store.min_sectors, 2);
  EXPECT_TRUE(s1.warps[0].diverged);
  // Step 5 (stride 1): thread 0 reads cells 0 and 1 and writes the block's sum to cell 0.
  const Step& s5 = r.step(5);
  EXPECT_EQ(s5.global_read, flags(64, 0, 2));
  EXPECT_EQ(s5.global_written, flags(64, 0, 1));
  EXPECT_EQ(s5.global_values[0], 2016);  // 0 + 1 + ... + 63
  EXPECT_EQ(s5.global_flows, (std::vector<std::pair<uint32_t, uint32_t>>{{0, 1}}));
  // Step 6: thread 0 reads the sum back and stores it to the output, outside the slice.
  const Step& s6 = r.step(6);
  EXPECT_EQ(s6.global_read, flags(64, 0, 1));
  EXPECT_EQ(s6.global_written, flags(64, 0, 0));
  EXPECT_TRUE(s6.global_flows.empty());
  EXPECT_EQ(s6.global_values, s5.global_values);
  EXPECT_EQ(s6.ended_by, StepEnd::KernelEnd);
  EXPECT_EQ(r.global_request_count(AccessKind::GlobalStore), 7);  // 6 levels + the output
}

TEST(ReplayGlobalSlice, SliceOfALaterBlockStartsAtItsFirstElement) {
  Replay r(interleaved_trace(kScratch, 3));
  EXPECT_EQ(r.global_slice().first, 192u);
  EXPECT_EQ(r.global_slice().count, 64u);
  // Cell i is element 192 + i; its value is its index (iota) until the block writes it.
  EXPECT_EQ(r.step(0).global_values[63], 255);
  EXPECT_EQ(r.step(0).global_values[0], 192 + 224);  // element 192 + element 224
  EXPECT_EQ(r.step(5).global_values[0], 2016 + 64 * 192);
}

TEST(ReplayGlobalSlice, InputBufferInPlace) {
  // The seeds' kernels reduce their input itself in place: buffer 0 is the slice then.
  Replay r(interleaved_trace(kInput));
  EXPECT_EQ(r.global_slice().space, kInput);
  EXPECT_EQ(r.global_slice().count, 64u);
  EXPECT_EQ(r.step(5).global_values[0], 2016);
}

TEST(ReplayGlobalSlice, ScratchWinsOverInputAndOtherBuffersAreLeftOut) {
  // A block that loads input[0..31], stores scratch[100..131] (a copy), then input[5] in place.
  Trace t = interleaved_trace();
  t.records.clear();
  t.meta.n = 64;
  for (uint16_t l = 0; l < 32; ++l) {
    t.records.push_back(ev(0, 0, l, AccessKind::GlobalLoad, l, 7, kBookAdd, 0, 0, kInput));
    t.records.push_back(ev(0, 1, l, AccessKind::GlobalStore, 100 + l, 7, kBookAdd, 0, 0, kScratch));
  }
  t.records.push_back(ev(0, 2, 0, AccessKind::GlobalStore, 5, 9, kBookAdd, 0, 0, kInput, 0, 1u));
  Replay r(t);
  EXPECT_EQ(r.global_slice().space, kScratch);
  EXPECT_EQ(r.global_slice().first, 100u);
  EXPECT_EQ(r.global_slice().count, 32u);
  EXPECT_EQ(r.step(0).global_written, flags(32, 0, 32));
  EXPECT_EQ(r.step(0).global_read, flags(32, 0, 0));  // the loads were of the input
  EXPECT_TRUE(r.step(0).global_flows.empty());         // nor are they flows into the slice
}

TEST(ReplayGlobalSlice, LoadsDefineOnlyUndefinedCells) {
  // Thread 0 stores 5 to scratch[0] in epoch 0; in epoch 1 thread 1 loads it (5) and loads
  // scratch[1] (3, never stored: memory held it).
  Trace t = interleaved_trace();
  t.records = {ev(0, 0, 0, AccessKind::GlobalStore, 0, 5, kBookAdd, 0, 0, kScratch, 0, 1u),
               ev(0, 1, 0, AccessKind::BlockBarrier, 0, 0, kBookSync), ev(0, 0, 1, AccessKind::BlockBarrier, 0, 0, kBookSync),
               ev(1, 0, 1, AccessKind::GlobalLoad, 0, 5, kBookAdd, 0, 0, kScratch, 0, 2u),
               ev(1, 1, 1, AccessKind::GlobalLoad, 1, 3, kBookAdd, 0, 0, kScratch, 0, 2u)};
  Replay r(t);
  ASSERT_EQ(r.global_slice().count, 2u);
  EXPECT_EQ(r.step(0).global_defined, (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(r.step(0).global_values, (std::vector<int32_t>{5, 0}));
  EXPECT_EQ(r.step(1).global_defined, (std::vector<uint8_t>{1, 1}));
  EXPECT_EQ(r.step(1).global_values, (std::vector<int32_t>{5, 3}));
  EXPECT_EQ(r.step(1).global_read, (std::vector<uint8_t>{1, 1}));
  EXPECT_EQ(r.step(1).global_written, (std::vector<uint8_t>{0, 0}));
}

TEST(ReplayGlobalSlice, WideSliceIsTruncated) {
  // Stores to scratch[0] and scratch[9000] (grid 20 x 64 threads x 8: 10240 elements).
  Trace t = interleaved_trace();
  t.meta.grid_size = 20;
  t.records = {ev(0, 0, 0, AccessKind::GlobalStore, 0, 1, kBookAdd, 0, 0, kScratch, 0, 1u),
               ev(0, 1, 0, AccessKind::GlobalStore, 9000, 2, kBookAdd, 0, 0, kScratch, 0, 1u),
               ev(0, 2, 0, AccessKind::GlobalLoad, kMaxGlobalSliceCells - 1, 4, kBookAdd, 0, 0, kScratch, 0, 1u)};
  Replay r(t);
  const GlobalSlice& g = r.global_slice();
  EXPECT_EQ(g.first, 0u);
  EXPECT_EQ(g.span, 9001u);
  EXPECT_EQ(g.count, kMaxGlobalSliceCells);
  EXPECT_TRUE(g.truncated);
  const Step& st = r.step(0);
  ASSERT_EQ(st.global_values.size(), kMaxGlobalSliceCells);
  EXPECT_EQ(st.global_values[0], 1);
  EXPECT_EQ(st.global_values[kMaxGlobalSliceCells - 1], 4);  // the last cell kept
  EXPECT_EQ(std::count(st.global_written.begin(), st.global_written.end(), 1), 1);  // 9000 is left out
}

TEST(ReplayGlobalSlice, TooManyStepsOfASliceThrow) {
  // 4097 steps x (1 + 8192) cells is more than kMaxSnapshotCells; without the slice it fits.
  Trace t = interleaved_trace();
  t.meta.grid_size = 20;
  t.records = {ev(0, 0, 0, AccessKind::GlobalStore, 0, 1, kBookAdd, 0, 0, kScratch, 0, 1u),
               ev(0, 1, 0, AccessKind::GlobalStore, 8191, 1, kBookAdd, 0, 0, kScratch, 0, 1u),
               ev(kMaxEpoch, 0, 0, AccessKind::BlockBarrier, 0, 0, kBookSync, 0, 0, 0, 0, 1u)};
  try {
    Replay r(t);
    FAIL() << "no ReplayError";
  } catch (const ReplayError& e) {
    EXPECT_TRUE(contains(e.what(), "8192 global elements")) << e.what();
  }
  t.records[1].addr = 1;  // a 2-element slice
  EXPECT_NO_THROW(Replay{t});
}

TEST(ReplayGlobalSlice, KernelsThatStoreOnlyTheirResultHaveNoSlice) {
  // The butterfly loads the input and stores out[0]; reduce2 uses shared memory only.
  for (const Trace& t : {butterfly_trace(), sequential_trace()}) {
    Replay r(t);
    EXPECT_FALSE(r.has_global_slice());
    EXPECT_EQ(r.global_slice().count, 0u);
    for (const Step& st : r.steps()) {
      EXPECT_TRUE(st.global_values.empty());
      EXPECT_TRUE(st.global_defined.empty());
      EXPECT_TRUE(st.global_written.empty());
      EXPECT_TRUE(st.global_read.empty());
      EXPECT_TRUE(st.global_flows.empty());
    }
  }
}

TEST(ReplayGlobalSlice, LectureFixturesHaveNoSlice) {
  // Recorded on an H100: the lecture kernels store only to the output buffer.
  int seen = 0;
  for (const auto& e : std::filesystem::directory_iterator(RS_FIXTURE_DIR)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("sum_", 0) != 0 || e.path().extension() != ".rstrace") continue;
    const Trace t = load_trace(e.path().string());
    Replay r(t);
    EXPECT_FALSE(r.has_global_slice()) << name;
    EXPECT_TRUE(r.step(0).global_values.empty()) << name;
    ++seen;
  }
  EXPECT_GE(seen, 10);
}

}  // namespace
}  // namespace rs
