// The facts of a trace and of each of its steps, computed once from the replay model, for every sentence a view
// composes (issue 38; ../shared/DESIGN.md, "Round 5": facts, then sentences, then questions, in one layer).
//
// Index
//   Seen                   what a tracer saw of one kind of event: recorded, none, or not traced
//   Context                what the facts need beyond the trace (the session's other tracer)
//   TraceFacts, trace_facts()   the whole block: its tracer, its shared memory, its lane work
//   WarpResult             who holds a warp's result after its last shuffle or warp reduce
//   StepFacts, step_facts()     one step: warps that ran recorded work, warps at the barrier, the counts by name
//   shared_declared()      whether the kernel's own functions in its source declare shared memory
//
// A fact carries what the tracer could see: "not traced by this tracer" is a fact (Seen::NotTraced), never "none".
// The source probe records shared memory only through its wrapper (tracing/probe.cuh's SharedArray, dynamic_smem()
// read through it); a raw `__shared__` array, or `extern __shared__` memory read through a plain pointer, is not
// recorded (kernels/pitfall_kernels.cuh says why the pitfalls keep it raw). The binary tracer (the Compute Sanitizer
// patching API) sees every shared access as compiled (docs/binary-trace.md).
//
// Plain C++ over tracing/: no GL, no i18n, no CUDA. Sentences are made from these facts in sentences.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "replay.hpp"
#include "session.hpp"

namespace rs::explain {

// What a trace says of one kind of event.
enum class Seen : uint8_t {
  Recorded = 0,   // the trace holds such events
  None = 1,       // the tracer sees this kind, and the kernel made none
  NotTraced = 2,  // the tracer cannot see this kind here (the source declares it): the trace says nothing either way
};

// What the facts need beyond the trace itself.
struct Context {
  bool binary_twin = false;        // the session holds the binary tracer's trace of this kernel at this block size
  bool binary_twin_shared = false; // ... and that trace holds shared-memory accesses
};

struct TraceFacts {
  std::string kernel;                  // TraceMeta::kernel
  Tracer tracer = Tracer::SourceProbe;
  Seen shared = Seen::None;            // shared loads and stores (shared atomics count: they change its words)
  bool binary_twin = false;            // Context::binary_twin: "see it as compiled" can be offered
  int shuffles = 0;                    // warp-level __shfl*_sync instructions, whole block
  int warp_reduces = 0;                // warp-level __reduce_*_sync instructions, whole block
};

// The context a session gives a trace of its own, `m`: its binary trace of the same kernel and block size, and
// whether that one holds shared-memory accesses. Empty without a session, or for a binary trace.
Context context_in(const Session* s, const TraceMeta& m);

// The facts of the trace `r` replays; `source` is its kernel source (Trace::source). Throws nothing.
TraceFacts trace_facts(const Replay& r, const std::string& source, const Context& c = {});

// Who holds warp `warp`'s result after its last lane operation (shuffle or warp reduce).
struct WarpResult {
  uint32_t warp = 0;
  int lane = -1;            // the lane named as the holder (Replay::result_lanes(): the lane that stores it next)
  bool every_lane = false;  // every lane that took part received the same value (a warp reduce, an xor butterfly)
  bool reduce = false;      // the last lane operation was a warp reduce (__reduce_*_sync)
};

struct StepFacts {
  size_t step = 0;
  StepEnd ended_by = StepEnd::KernelEnd;
  uint16_t barrier_line = 0;
  int warps = 0;              // warps in the block
  int active_warps = 0;       // warps that made an instruction the tracer records (Step::active_warps())
  int exited_warps = 0;       // warps whose every lane has finished the kernel
  int at_barrier = 0;         // warps that reached the block barrier ending this step (0 unless ended_by BlockBarrier)
  bool unrecorded_work = false;  // no recorded instruction, but warps reached the barrier: they ran code the tracer
                                 // does not record (a raw shared array, registers)
  int loads = 0, stores = 0;  // warp-level shared loads and stores
  int shuffles = 0;           // warp-level __shfl*_sync instructions this step
  int warp_reduces = 0;       // warp-level __reduce_*_sync instructions this step
  int atomics = 0;            // warp-level atomics this step
  int shared_atomics = 0;     // ... of them on shared memory
  int global_requests = 0;    // warp-level global loads and stores this step
  std::vector<WarpResult> results;  // warps whose last lane operation is at or before this step, ascending warp
};

StepFacts step_facts(const Replay& r, size_t step);

// Whether the functions of `source` that hold one of `lines` (1-based), or whose header names `kernel`, declare
// shared memory: `__shared__` or the probe's raw `dynamic_smem()`. Comments and strings are skipped. Top-level
// bodies are found by matching braces (a `namespace` body is transparent).
bool shared_declared(const std::string& source, const std::string& kernel, const std::vector<uint16_t>& lines);

}  // namespace rs::explain
