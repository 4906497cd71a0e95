// Why the bits differ (issue 30, item 2): the same block of a float atomic kernel (sum_atomic,
// pitfall_float_atomic) traced in two runs of the same input. Each run's float atomicAdd updates of the block's
// accumulator, in the order they landed, with the running value each one met and stored, and what rounding to
// float32 added there; and where the two runs part. Float addition is not associative (IEEE 754 rounds each sum to
// the nearest float32), so a sum depends on the order of its additions; a global atomic's order is the order the
// updates reach the memory system (the L2), which the hardware decides run by run (CUDA C++ Programming Guide,
// "Atomic Functions": atomics are serialised, in no specified order).
//
// The block's updates are its source-probe trace's global atomic records: each holds the operand and the old value
// the atomic returned (TraceRecord::value, ::aux), and Replay::atomic_targets() orders them by the old values
// (monotone for an add of non-negative values). Plain C++.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace_format.hpp"

namespace rs {

struct RunUpdate {
  uint32_t thread = 0;
  float operand = 0;          // the element the thread added
  float old_value = 0;        // the running value the update met (what atomicAdd returned)
  float new_value = 0;        // what it stored: old_value + operand rounded to float32 (to nearest, even)
  double rounding = 0;        // new_value minus the exact old_value + operand: what the rounding added (0: none). The
                              // error of one float addition is itself a float (Knuth's TwoSum), so a double holds it
  bool after_others = false;  // other blocks' updates landed between the block's previous update and this one
};

struct RunUpdates {
  std::vector<RunUpdate> updates;  // the block's updates of its float global accumulator, in landing order
  uint32_t result = 0;             // the run's sum (float32 bits: TraceMeta::result)
  uint32_t address = 0;            // the accumulator: element index in its buffer
};

// The float global-atomic updates of `t`'s block, in landing order: those of the global address it updated most.
// Empty `updates` where the trace has no float global atomic. Throws ReplayError for a trace the replay refuses.
RunUpdates float_atomic_updates(const Trace& t);

struct TwoRuns {
  RunUpdates a, b;                       // run 1 (the session's trace) and run 2 (Session::other_run)
  std::optional<size_t> first_order;     // the first landing position where the two runs' updates come from other
                                         // threads or meet another running value
  std::optional<size_t> first_rounding;  // the first position whose rounding differs: from there the sums part
  bool results_differ() const { return a.result != b.result; }
};

// Compares two runs of the same block (the same kernel, block size and input). Throws ReplayError as above,
// std::invalid_argument for traces of different kernels, block sizes, inputs or element types.
TwoRuns compare_runs(const Trace& run1, const Trace& run2);

// Where and why the two runs part, in words: app/explain/stored.hpp, two_runs_sentence.

}  // namespace rs
