// Checks shared by the GPU test that records tests/fixtures/barrier_variants_bs64.rstrace and the CI
// test that replays it (issue 17: work from both sides of __syncthreads_or in one step).
//
// The kernel (tests/test_gpu_probe.cu, barrier_variants_kernel) runs, for each of __syncthreads_or,
// _and and _count: a warp shuffle in warp 0 only (which ends warp 0's epoch, not the others'), then a
// store by every thread's lane 0 ("before" line), the barrier, then a store by every thread ("after"
// line). The replay must put every "before" store in a step at or before the one the barrier ends, and
// every "after" store after it.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "replay.hpp"

namespace rs::test {

struct BarrierCase {
  uint16_t before, barrier, after;  // source lines
};

inline void check_barrier_alignment(const Replay& r, const std::vector<BarrierCase>& cases) {
  for (const BarrierCase& c : cases) {
    // The step the barrier ends: exactly one.
    std::vector<size_t> ends;
    for (size_t i = 0; i < r.num_steps(); ++i) {
      if (r.step(i).ended_by == StepEnd::BlockBarrier && r.step(i).barrier_line == c.barrier) ends.push_back(i);
    }
    ASSERT_EQ(ends.size(), 1u) << "the barrier on line " << c.barrier << " must end exactly one step";
    const size_t end = ends[0];
    std::set<int> before_warps, after_warps;
    for (const WarpAccess& a : r.accesses()) {
      if (a.line == c.before) {
        EXPECT_LE(a.epoch, end) << "line " << c.before << " (before the barrier on line " << c.barrier
                                << ") replayed after it, warp " << a.warp;
        before_warps.insert(static_cast<int>(a.warp));
      }
      if (a.line == c.after) {
        EXPECT_GT(a.epoch, end) << "line " << c.after << " (after the barrier on line " << c.barrier
                                << ") replayed in or before its step, warp " << a.warp;
        after_warps.insert(static_cast<int>(a.warp));
      }
    }
    EXPECT_EQ(static_cast<int>(before_warps.size()), r.num_warps()) << "every warp stores before line " << c.barrier;
    EXPECT_EQ(static_cast<int>(after_warps.size()), r.num_warps()) << "every warp stores after line " << c.barrier;
  }
}

}  // namespace rs::test
