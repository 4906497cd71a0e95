// The exercises (issue 19): each is a starting file (kernels/user/exercises/NAME.cu, embedded: `reducescope new
// --exercise NAME`) and checks computed from what the GPU did with the user's kernel: its sums against the CPU,
// its launches, the trace of one block (bank conflicts, warps with idle lanes, barriers, shuffles) and its timing
// against a shipped kernel timed in the same run. Reference solutions are in kernels/user/solutions/ (not in the
// binary). Plain C++: the GPU side (app/commands/check.cpp) gathers ExerciseEvidence; this file judges it, so CI
// tests the checks on traces recorded on the H100.
//
// Index
//   TraceFeatures        what the checks read from one trace (features_of)
//   ExerciseRun          one run of the user's kernel: N, block size, type, sum, launches, grid, features
//   ExerciseEvidence     the runs and the timing against the reference kernel
//   ExerciseCheck        one check's outcome: name, pass, the figure behind it, a hint (grading/check_record.hpp)
//   Exercise             name, title, the note it comes from, the sizes it runs at, its reference kernel
//   exercises(), find_exercise(), judge_exercise(), exercise_json()
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "check_record.hpp"  // ExerciseCheck
#include "fence.hpp"
#include "hazards.hpp"
#include "replay.hpp"
#include "trace_format.hpp"

namespace rs {

// What the checks read from one trace of one block (features_of).
struct TraceFeatures {
  int bank_conflicts = 0;        // Replay::load_conflicts + store_conflicts: Nsight Compute's
                                 // l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum on this block
  int worst_degree = 0;          // the worst n-way conflict
  unsigned worst_conflict_line = 0;  // its source line (0: none)
  // Divergence: the step in which the most warps ran an instruction with some of their live lanes idle
  // (WarpStep::diverged), and how many warps that was, of `warps`.
  int most_diverged_warps = 0;
  size_t most_diverged_step = 0;
  unsigned diverged_line = 0;    // the first source line of that step's warp instructions
  int warps = 0;
  int barriers = 0;              // __syncthreads() thread 0 passed (BlockBarrier records of thread 0)
  int warp0_shuffles = 0;        // shuffle instructions (WarpShuffle of kind Shuffle) of warp 0
  int warp0_reduces = 0;         // warp reduces (__reduce_*_sync) of warp 0; a binary trace has none: the Compute
                                 // Sanitizer API does not instrument REDUX (cg::reduce and CUB on integers compile to it)
  bool binary = false;           // the binary tracer's trace (Tracer::Binary)
  // After a warp's first shuffle or warp reduce, what it stores to shared memory (issue 40: the shuffle exercise takes
  // any design whose warps finish in registers and pass at most one value per warp through shared memory, the
  // blockReduceSum of NVIDIA's "Faster Parallel Reductions on Kepler" and cub::BlockReduce included):
  // Issue 57: per source line of a shuffle, the lanes that executed it (union over the warps' shuffles there), and,
  // where the tracer sees it (the wrapped dialect), the mask passed (union); a binary trace's masks come from the PTX
  // (ExerciseEvidence::shuffle_masks).
  std::map<uint32_t, uint32_t> shuffle_lanes_by_line, shuffle_mask_by_line;
  int wide_stores_after_lane_op = 0;  // stores made by more than one lane of the warp
  unsigned wide_store_line = 0;       // the first one's line
  int words_after_lane_op = 0;        // distinct shared words so stored, over every warp
  // The profiler's report (issue 40), over the traced block: what Nsight Compute counts for it (reducescope verify
  // shows the counts equal; docs/gpu-results.md).
  int global_load_requests = 0, global_load_sectors = 0;  // warp-level global loads and their 32-byte sectors
  int shared_accesses = 0, shared_wavefronts = 0;         // warp-level shared loads and stores; sum of their n-ways
  double lane_efficiency = 0;  // mean over the steps' working warps of WarpStep::efficiency (useful lanes / 32)
  std::vector<double> lanes_per_step;  // per step, the mean lanes active (useful) of its working warps, 0..32
};
TraceFeatures features_of(const Replay& replay);

// One run of the user's kernel at one N, block size and element type.
struct ExerciseRun {
  uint64_t n = 0;
  unsigned block_size = 0;
  DType type = DType::Int32;
  bool right = false;            // the sum matched the CPU reference
  std::string got, expected;     // for people
  unsigned launches = 0;         // kernel launches of the whole reduction
  unsigned grid = 0;             // blocks of the first launch
  // A single-pass kernel (UserSumCheck::ticket_after): its ticket counter out[1] after the run (its result word was
  // poisoned before it, so `right` is this run's own sum); must be 0 again for the next launch.
  std::optional<uint32_t> ticket_after;
  bool result_unwritten = false;  // UserSumCheck::result_unwritten: out[0] as the check poisoned it
  std::optional<TraceFeatures> features;  // block 0 traced (int32 runs at Exercise::trace_ns)
};

struct ExerciseEvidence {
  std::vector<ExerciseRun> runs;
  // Timing (Exercise::reference_kernel not null): both medians at timing_n, timing_block_size, int32, measured
  // in the same process with GpuReducer::time's method (cold L2, warm-ups, samples), ms.
  double user_ms = 0, reference_ms = 0;
  double timing_waited_ms = 0;  // how long other processes' timed checks kept the GPU first (gpu_lock.hpp)
  // The exercise histogram: each run is one histogram of the text at (n bytes, block size); `right` when every bin
  // equals the CPU's (cpu_histogram), `got`/`expected` the first bin that does not ("bin 2 (i-l): 1234"). And
  // whether the kernel's PTX has shared-memory atomics (atom.shared or red.shared: a private copy of the bins).
  bool shared_atomics = false;
  // The shuffle exercise: the kernel's PTX has redux.sync, the warp reduce (__reduce_add_sync; cg::reduce and
  // cub::WarpReduce / BlockReduce on integers from compute capability 8.0). The binary tracer does not record REDUX
  // (the Compute Sanitizer API does not instrument it), so a plain file that finishes its warps with it is judged
  // from its PTX.
  bool redux_in_ptx = false;
  // Whether the kernel's PTX was read (redux_in_ptx then says yes or no). A binary trace with too few shuffles of a
  // kernel whose PTX has no redux.sync is then said plainly as no warp reduce (issue 57, item 5); without the PTX it
  // is said as what the tracer cannot see.
  bool ptx_read = false;
  // Issue 57: compute-sanitizer's racecheck, synccheck and memcheck on the kernel at one small N and each traced block
  // size; and, for a SinglePass kernel, the fence between each block's partial and its ticket, read from its SASS
  // (or PTX).
  SanitizerEvidence sanitizers;
  std::optional<FenceFinding> fence;
  std::vector<ShuffleMask> shuffle_masks;  // the PTX's shuffles with a constant mask other than 0xffffffff
  uint64_t timing_n = 0;
  unsigned timing_block_size = 0;
  // Where the check's time went (issue 40's target: a sum exercise under 3 s), wall seconds: the runs checked against
  // the CPU, the traces (`traces` of them), the timing against the reference.
  double runs_s = 0, traces_s = 0, timing_s = 0;
  int traces = 0;
  // The profiler's report (issue 40), where the exercise is timed: the device-to-device copy of the timing input in
  // the same run (GB/s, read + written bytes over its median), and at the timing block size the occupancy calculator's
  // resident blocks per SM (cuOccupancyMaxActiveBlocksPerMultiprocessor with the dynamic shared memory the launch
  // gives), the registers per thread NVRTC's build uses, the SM's thread limit; and the traced block at that size.
  double copy_gbps = 0;
  int blocks_per_sm = 0, registers = 0, max_threads_per_sm = 0;
  std::optional<TraceFeatures> report_trace;
};

struct Exercise {
  const char* name;          // "bank_conflicts"
  const char* title;         // one line (an English msgid, N_(): i18n::tr() to show it)
  const char* source;        // the note and slide it comes from (a msgid too)
  const char* start_kernel;  // the shipped kernel the starting file follows
  const char* solution_kernel;  // the shipped kernel that solves it ("" if none)
  std::vector<uint64_t> ns;  // sums checked at each N x every block size the launch shape takes x int32/float32
  std::vector<uint64_t> trace_ns;  // block 0 traced (int32) at each of these N x every block size
  const char* reference_kernel = nullptr;  // timed against this shipped kernel (nullptr: no timing check)
  double min_speedup = 0;    // reference median / user median must reach this
};

const std::vector<Exercise>& exercises();
const Exercise* find_exercise(const std::string& name);  // nullptr: no such exercise
std::string exercise_names();                            // "bank_conflicts, divergence, ..." for messages

// The exercise's checks on `e`: "sums right" first, then its own (exercise_checks.cpp), said as sentences of
// explain/check_messages.def. Every check that reads traces fails when no run has one (nothing to judge).
std::vector<ExerciseCheck> judge_exercise(const Exercise& x, const ExerciseEvidence& e);

// A single pass's result where no block wrote it (UserSumCheck::result_unwritten), in English: "7 (out[0] as
// ReduceScope poisoned it before the run: no block wrote the result)".
std::string with_unwritten_note(const std::string& got);

// {"exercise": NAME, "file": FILE, "passed": bool, "checks": [{"name", "pass", "figure", "hint"[, "ran": false],
// "said"}, ...]} (check_record.hpp)
// ("passed": every check that ran passed), and with
// `e` holding a timing (ExerciseEvidence::user_ms > 0): "timing": {"n" (elements; bytes for the histogram),
// "block_size", "user_ms", "reference_kernel", "reference_ms", "gbps" (effective bandwidth: the input's bytes over
// the user's median, GB/s = 1e9 bytes/s), "x_reference" (reference median / user median)}.
std::string exercise_json(const Exercise& x, const std::string& file, const std::vector<ExerciseCheck>& checks,
                          const ExerciseEvidence* e = nullptr);

// The profiler's report (issue 40), exercise_json's "report", as JSON text ("" where `x` is untimed or `e` holds no
// timing): "block_size", "input_bytes", "gbps", "reference_kernel", "x_reference", "proof", and where known
// "copy_gbps", "pct_copy_ceiling", "blocks_per_sm", "registers", "occupancy_pct", "sectors_per_request",
// "bank_conflict_ways_per_access", "active_lanes_pct", "active_lanes_per_step".
std::string exercise_report_json(const Exercise& x, const ExerciseEvidence& e);
// That report in one line of words ("1355 GB/s = 36% of the copy ceiling (3738 GB/s), 1.79x reduce2 at 256 threads;
// 4.0 sectors per global load; ..."): check's output, grade's results.json and the student's page. "" for "".
std::string exercise_report_line(const std::string& report_json);

}  // namespace rs
