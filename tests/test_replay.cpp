// The replay model on hand-built traces: bank analysis, steps, warps, divergence, shared-memory
// snapshots, data flows and the text of `reducescope trace`. Expected values are worked out by
// hand in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "replay.hpp"

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
    t.records[0].kind = 9;
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

}  // namespace
}  // namespace rs
