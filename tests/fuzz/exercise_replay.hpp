// Shared by the fuzz targets: touches everything a Replay offers, the way the views and the CLI
// do, and traps (a fuzzer finding) where the model breaks its own documented invariants.
#pragma once

#include <bit>
#include <cstddef>

#include "replay.hpp"

namespace rs::fuzz {

inline void check(bool ok) {
  if (!ok) __builtin_trap();
}

inline void exercise_replay(const Replay& r, const Trace& t) {
  for (size_t s = 0; s < r.num_steps(); ++s) {
    (void)describe_step(r, s, t.source);
    const Step& st = r.step(s);
    check(st.warps.size() == static_cast<size_t>(r.num_warps()));
    check(st.smem.size() == r.num_words() && st.written.size() == r.num_words());
    for (size_t i : st.accesses) check(i < r.accesses().size());
    for (size_t i : st.shuffles) check(i < r.shuffles().size() && r.shuffles()[i].epoch == s);
    for (size_t i : st.atomics) check(i < r.atomics().size() && r.atomics()[i].epoch == s);
    for (size_t i : st.global_requests) check(i < r.global_requests().size() && r.global_requests()[i].epoch == s);
    // The block's slice of global memory: one entry per cell, flows inside the slice.
    const size_t cells = r.global_slice().count;
    check(st.global_values.size() == cells && st.global_defined.size() == cells &&
          st.global_written.size() == cells && st.global_read.size() == cells);
    for (const auto& f : st.global_flows) check(f.first < cells && f.second < cells);
  }
  check(r.global_slice().count <= kMaxGlobalSliceCells && r.global_slice().count <= r.global_slice().span);
  check(r.has_global_slice() == (r.global_slice().count != 0));
  for (const WarpShuffle& sh : r.shuffles()) {
    check(sh.moves.size() <= static_cast<size_t>(kWarpSize));
    for (const LaneMove& m : sh.moves) check(m.src < kWarpSize && m.dst < kWarpSize && (sh.lanes >> m.dst & 1u));
  }
  int updates = 0;
  for (const WarpAtomic& a : r.atomics()) {
    int lanes = 0;
    for (const auto& c : a.contention) lanes += c.second;
    check(lanes >= std::popcount(a.lanes) && a.max_contention >= 1);
    updates += lanes;
  }
  int landed = 0;
  for (const AtomicTarget& tg : r.atomic_targets()) {
    check(!tg.order.empty() && tg.chained >= 0 && static_cast<size_t>(tg.chained) < tg.order.size());
    for (const AtomicUpdate& u : tg.order) check(u.instruction < r.atomics().size() && u.thread < t.meta.block_size);
    landed += static_cast<int>(tg.order.size());
  }
  check(landed == updates);
  for (const GlobalRequest& g : r.global_requests()) {
    // Each lane asks for 1 (bytes), 4 (an element) or up to 16 bytes (a vector load).
    check(g.sectors >= g.min_sectors && g.min_sectors >= 1 && g.requested_bytes >= std::popcount(g.lanes) &&
          g.requested_bytes <= 16 * std::popcount(g.lanes));
    (void)g.efficiency();
  }
  check(r.result_lanes().size() == static_cast<size_t>(r.num_warps()));
  for (int lane : r.result_lanes()) check(lane >= -1 && lane < kWarpSize);
  check(r.shuffle_instruction_count() <= static_cast<int>(r.shuffles().size()));
  check(r.atomic_instruction_count(AccessKind::SharedAtomic) + r.atomic_instruction_count(AccessKind::GlobalAtomic) ==
        static_cast<int>(r.atomics().size()));
  check(r.global_request_count(AccessKind::GlobalLoad) + r.global_request_count(AccessKind::GlobalStore) ==
        static_cast<int>(r.global_requests().size()));
  (void)r.has_shared(), (void)r.has_lane_work(), (void)r.has_atomics(), (void)r.has_global();
}

}  // namespace rs::fuzz
