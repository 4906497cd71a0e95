// The multigpu track's CPU side (tracing/multigpu.hpp): the ring schedule for G = 2 ... 8, the chunks of
// any n, nccl-tests' bandwidth formulas.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <vector>

#include "multigpu.hpp"

namespace rs {
namespace {

TEST(MultiGpuSchedule, EveryStepMovesOneChunkPerGpuToItsRightNeighbour) {
  for (uint32_t g = 2; g <= 8; ++g) {
    const std::vector<RingTransfer> s = ring_schedule(g);
    ASSERT_EQ(s.size(), size_t{2} * (g - 1) * g) << "G = " << g;
    for (uint32_t step = 0; step < 2 * (g - 1); ++step) {
      std::set<uint32_t> senders, chunks;
      for (const RingTransfer& t : s) {
        if (t.step != step) continue;
        EXPECT_EQ(t.to, (t.from + 1) % g);
        EXPECT_EQ(t.phase, step < g - 1 ? RingPhase::ReduceScatter : RingPhase::AllGather) << "step " << step;
        senders.insert(t.from);
        chunks.insert(t.chunk);
      }
      EXPECT_EQ(senders.size(), g) << "every GPU sends once at step " << step << ", G = " << g;
      EXPECT_EQ(chunks.size(), g) << "each chunk is on the move once at step " << step << ", G = " << g;
    }
  }
}

TEST(MultiGpuSchedule, KnownStepsOfFourGpus) {
  // Reduce-scatter step s: GPU g sends chunk (g - s) mod G; all-gather step t: (g + 1 - t) mod G.
  const std::vector<RingTransfer> s = ring_schedule(4);
  EXPECT_EQ(s[0].chunk, 0u);   // step 0, GPU 0
  EXPECT_EQ(s[5].chunk, 0u);   // step 1, GPU 1: (1 - 1) mod 4
  EXPECT_EQ(s[4].chunk, 3u);   // step 1, GPU 0: (0 - 1) mod 4
  EXPECT_EQ(s[12].chunk, 1u);  // step 3 (all-gather 0), GPU 0: its summed chunk, (0 + 1) mod 4
  EXPECT_EQ(s[12].phase, RingPhase::AllGather);
  EXPECT_EQ(s.back().step, 5u);
  EXPECT_EQ(s.back().from, 3u);
  EXPECT_EQ(s.back().chunk, 2u);  // (3 + 1 - 2) mod 4
}

TEST(MultiGpuSchedule, SummedChunksAfterEachPhase) {
  for (uint32_t g = 2; g <= 8; ++g) {
    for (uint32_t gpu = 0; gpu < g; ++gpu) {
      EXPECT_TRUE(summed_chunks(g, gpu, 0).empty());
      EXPECT_EQ(summed_chunks(g, gpu, g - 1), std::vector<uint32_t>{(gpu + 1) % g})
          << "after the reduce-scatter GPU " << gpu << " of " << g << " holds chunk gpu + 1 summed";
      EXPECT_EQ(summed_chunks(g, gpu, 2 * (g - 1)).size(), g) << "after the all-gather every chunk";
    }
  }
}

TEST(MultiGpuSchedule, CpuRingSumsEveryElementForAnyLength) {
  for (uint32_t g = 2; g <= 8; ++g) {
    for (size_t n : {size_t{1}, size_t{3}, size_t{7}, size_t{64}, size_t{1001}, size_t{4099}}) {
      std::vector<std::vector<float>> bufs(g, std::vector<float>(n));
      std::vector<float> want(n, 0);
      for (uint32_t k = 0; k < g; ++k) {
        for (size_t i = 0; i < n; ++i) {
          bufs[k][i] = static_cast<float>((i * 2654435761u + k * 40503u) % 251) - 125;  // whole numbers: exact
          want[i] += bufs[k][i];
        }
      }
      ring_allreduce_cpu(bufs);
      for (uint32_t k = 0; k < g; ++k) ASSERT_EQ(bufs[k], want) << "GPU " << k << " of " << g << ", n = " << n;
    }
  }
  std::vector<std::vector<float>> one(1, std::vector<float>(4));
  EXPECT_THROW(ring_allreduce_cpu(one), std::invalid_argument);
  std::vector<std::vector<float>> ragged = {std::vector<float>(4), std::vector<float>(5)};
  EXPECT_THROW(ring_allreduce_cpu(ragged), std::invalid_argument);
}

TEST(MultiGpuSchedule, ChunksCoverAnyLengthWithoutGaps) {
  for (uint32_t g = 1; g <= 8; ++g) {
    for (uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{5}, uint64_t{1000003}, (uint64_t{1} << 28) + 3}) {
      uint64_t next = 0, biggest = 0, smallest = UINT64_MAX;
      for (uint32_t c = 0; c < g; ++c) {
        const ChunkRange r = ring_chunk(n, g, c);
        EXPECT_EQ(r.begin, next);
        next = r.end;
        biggest = std::max(biggest, r.size());
        smallest = std::min(smallest, r.size());
      }
      EXPECT_EQ(next, n);
      EXPECT_LE(biggest - smallest, 1u) << "balanced: n = " << n << ", G = " << g;
    }
  }
  EXPECT_THROW(ring_chunk(10, 0, 0), std::invalid_argument);
  EXPECT_THROW(ring_chunk(10, 2, 2), std::invalid_argument);
  EXPECT_THROW(ring_schedule(1), std::invalid_argument);
}

TEST(MultiGpuBandwidth, NcclTestsConventions) {
  // 1 GiB in 3.28 ms: algbw 327.4 GB/s; the all-reduce's busbw on 2 GPUs is the same (2(G-1)/G = 1), on 8
  // GPUs 1.75 times it.
  const uint64_t gib = uint64_t{1} << 30;
  EXPECT_NEAR(algbw_gbps(gib, 3.28), 327.36, 0.01);
  EXPECT_DOUBLE_EQ(busbw_factor("allreduce", 2), 1.0);
  EXPECT_DOUBLE_EQ(busbw_factor("allreduce", 8), 1.75);
  EXPECT_DOUBLE_EQ(busbw_factor("allgather", 4), 0.75);
  EXPECT_DOUBLE_EQ(busbw_factor("reducescatter", 8), 0.875);
  EXPECT_DOUBLE_EQ(busbw_factor("sum", 8), 1.0);
  EXPECT_DOUBLE_EQ(busbw_factor("copy", 2), 1.0);
  EXPECT_NEAR(busbw_gbps("allreduce", gib, 3.28, 8), 327.36 * 1.75, 0.02);
  EXPECT_EQ(algbw_gbps(gib, 0), 0);
}

TEST(MultiGpuBandwidth, SizeLabels) {
  EXPECT_EQ(bytes_label(4096), "4 KiB");
  EXPECT_EQ(bytes_label(uint64_t{256} << 20), "256 MiB");
  EXPECT_EQ(bytes_label(uint64_t{1} << 30), "1 GiB");
  EXPECT_EQ(bytes_label(4100), "4.0 KiB");
  EXPECT_EQ(bytes_label(1000), "1000 B");
}

// The window's ring replay colours each chunk by how many GPUs' values it holds after the shown step.
TEST(MultiGpuSchedule, ContributionsGrowByOneGpuAReduceScatterStepThenSpread) {
  for (uint32_t g = 2; g <= 8; ++g) {
    const std::vector<RingTransfer> sched = ring_schedule(g);
    for (uint32_t steps = 0; steps <= 2 * (g - 1); ++steps) {
      const auto held = ring_contributions(g, steps);
      ASSERT_EQ(held.size(), g);
      for (uint32_t gpu = 0; gpu < g; ++gpu) {
        for (uint32_t c = 0; c < g; ++c) {
          EXPECT_TRUE(held[gpu][c] >> gpu & 1) << "a GPU never loses its own values: G " << g << ", step " << steps;
        }
        // summed_chunks is exactly the chunks holding every GPU's values.
        std::vector<uint32_t> full;
        for (uint32_t c = 0; c < g; ++c) {
          if (held[gpu][c] == all_gpus_mask(g)) full.push_back(c);
        }
        EXPECT_EQ(full, summed_chunks(g, gpu, steps));
      }
      if (steps == 0 || steps > g - 1) continue;
      // Reduce-scatter step `steps`: the chunk each GPU just received holds steps + 1 GPUs' values.
      for (const RingTransfer& t : sched) {
        if (t.step != steps - 1) continue;
        EXPECT_EQ(std::popcount(held[t.to][t.chunk]), static_cast<int>(steps + 1))
            << "G " << g << ", step " << steps << ", GPU " << t.to << " chunk " << t.chunk;
      }
    }
    for (const auto& gpu : ring_contributions(g, 2 * (g - 1))) {
      for (uint64_t m : gpu) EXPECT_EQ(m, all_gpus_mask(g));
    }
  }
  EXPECT_EQ(ring_contributions(2, 0)[1][0], 2u);
  EXPECT_EQ(ring_contributions(2, 1)[1][0], 3u);  // GPU 0 sent chunk 0 to GPU 1, which added it
  EXPECT_EQ(ring_contributions(2, 1)[1][1], 2u);  // GPU 1's chunk 1 went the other way
  EXPECT_EQ(all_gpus_mask(64), ~uint64_t{0});
  EXPECT_THROW(ring_contributions(1, 0), std::invalid_argument);
  EXPECT_THROW(ring_contributions(65, 0), std::invalid_argument);
}

TEST(MultiGpuSchedule, StepSpanRunsFromTheFirstCopyToTheLastAddOrCopy) {
  RingRecording r;
  r.gpus = 2;
  // step 0: copies 10-50 and 12-40 us, adds until 61 and 55; step 1 (all-gather): copies only, 70-90, 71-95.
  r.events = {{0, RingPhase::ReduceScatter, 0, 1, 0, 64, 10, 50, 52, 61},
              {0, RingPhase::ReduceScatter, 1, 0, 1, 64, 12, 40, 42, 55},
              {1, RingPhase::AllGather, 0, 1, 1, 64, 70, 90, 0, 0},
              {1, RingPhase::AllGather, 1, 0, 0, 64, 71, 95, 0, 0}};
  EXPECT_DOUBLE_EQ(ring_step_span(r, 0).start_us, 10);
  EXPECT_DOUBLE_EQ(ring_step_span(r, 0).end_us, 61);
  EXPECT_DOUBLE_EQ(ring_step_span(r, 1).start_us, 70);
  EXPECT_NEAR(ring_step_span(r, 1).ms(), 0.025, 1e-12);
  EXPECT_DOUBLE_EQ(ring_step_span(r, 2).ms(), 0);  // no such step
}

}  // namespace
}  // namespace rs
