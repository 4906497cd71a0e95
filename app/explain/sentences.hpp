// The sentences the views compose about a trace, built from its facts (facts.hpp) as a message id and its
// arguments, with the claims each makes (issue 38; ../shared/DESIGN.md, "Round 5"; the shape of Clang's and
// rustc's diagnostics: the code that knows emits an id and arguments, the edge formats it).
//
// Index
//   Claim, ClaimKind     what a sentence asserts of the trace, checked by the claims audit (tests/test_claims.cpp)
//   Sentence             a message id (an English msgid with {0}, {1} ... in the page's style), its arguments, its claims
//   message_ids()        every message id of this layer (the page's dictionary carries their translations)
//   render()             the text, through a lookup that translates the id (gettext in the window and the CLI, the
//                        page's dictionary in the browser)
//   Panel                which view a sentence is for, where the same fact is said in view-specific words
//   no_shared_sentence() the banks / shared-memory views' one line where the trace holds no shared access
//   lane_exchange_sentence()  the lanes view's one line for a kernel without lane work
//   active_warps_sentence()   the warps view's count, and what ran unrecorded at a barrier
//   result_sentence()    who holds a warp's result after its last shuffle or warp reduce
//   bank_idle_sentence() the bank view's line for a step without shared loads and stores
//   step_count_sentences()    a step's warp instructions by their names: shuffles apart from warp reduces
//   step_sentences()     every sentence above for one step of one trace (what the audit walks)
//   timing_method_sentence(), parse_timing_method()  a session's timing method, which sessions store in English
//   float_stuck_sentence()  the bits view's reason a float32 sum is stuck at a power of two
//
// Messages are marked with N_ so po/update.sh collects them into po/zh_CN.po; nothing here looks one up (this
// layer links no i18n).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "facts.hpp"

#ifndef N_
#define N_(msgid) msgid
#endif

namespace rs::explain {

enum class ClaimKind : uint8_t {
  NoSharedMemory,    // the kernel makes no shared-memory access at all
  SharedNotTraced,   // the kernel declares shared memory that this trace's tracer does not record
  ActiveWarps,       // a: warps of the step with an instruction the tracer records; b: warps in the block
  WarpsAtBarrier,    // a: warps that reached the block barrier ending the step
  Shuffles,          // a: warp-level __shfl*_sync instructions in the step
  WarpReduces,       // a: warp-level __reduce_*_sync instructions in the step
  ResultLane,        // a: warp; b: lane: after the warp's last lane operation, that lane holds the warp's result
                     //    (said of a warp whose last operation is a shuffle, not a warp reduce)
  ResultEveryLane,   // a: warp: every lane that took part holds the warp's result
  NoLaneWork,        // the kernel makes no warp shuffle and no warp reduce
  ExchangeShared,    // its lanes exchange values through shared memory
  ExchangeNone,      // its lanes exchange values not at all (no shared memory, global slice or atomic)
  StepSharedAccesses,  // a: warp-level shared loads and stores in the step
  StepSharedAtomics,   // a: warp-level shared atomics in the step
  StepGlobalRequests,  // a: warp-level global loads and stores in the step
};

struct Claim {
  ClaimKind kind;
  int64_t a = 0, b = 0;
};

struct Sentence {
  Sentence() = default;
  Sentence(const char* id_, std::vector<std::string> args_ = {}, std::vector<Claim> claims_ = {})
      : id(id_), args(std::move(args_)), claims(std::move(claims_)) {}

  const char* id = "";              // an English msgid, {0} .. {9} standing for args
  std::vector<std::string> args;    // each already in the form shown (numbers in decimal; names as they are)
  std::vector<Claim> claims;        // what the sentence asserts
  // Arguments that are words of their own, said in the same language: nested[i] stands for args[nested_at[i]]
  // ("On {0}: {1}." with {1} "wrong in all 100 runs"). The page gets them as nested [k, args] arrays.
  std::vector<Sentence> nested;
  std::vector<size_t> nested_at;
  // The sentence standing for argument k, or nullptr.
  const Sentence* nested_arg(size_t k) const;
  // Sets argument k to `s`, said in the reader's language; returns *this.
  Sentence& with(size_t k, Sentence s);
};

// Every id a Sentence of this layer can carry, each once.
const std::vector<const char*>& message_ids();

// id translated by `lookup` (nullptr: English), each {k} replaced by args[k]. A {k} without an argument is left.
std::string render(const Sentence& s, const std::function<const char*(const char*)>& lookup = nullptr);

enum class Panel : uint8_t { Banks, SharedMemory, Lanes, Warps, Summary };

// The banks (Panel::Banks) or shared-memory (Panel::SharedMemory) view's line where the trace holds no shared
// access: "reduce_add_sync ... does not use shared memory" only where that is so (Seen::None); where the tracer
// could not see it (Seen::NotTraced), that it is not traced and where to see it (key B, or record --add --binary).
// nullopt where shared accesses are recorded.
std::optional<Sentence> no_shared_sentence(const TraceFacts& f, Panel p);

// The lanes view's line for a kernel without shuffles or warp reduces: how its lanes exchange values instead.
// `global_slice`, `atomics`: Replay::has_global_slice(), has_atomics(). nullopt where it has lane work.
std::optional<Sentence> lane_exchange_sentence(const TraceFacts& f, bool global_slice, bool atomics);

// "Active warps: 3 of 8"; at a barrier step where no warp made a recorded instruction, that the warps reached the
// barrier and ran code the tracer does not record (not "0 of 8").
Sentence active_warps_sentence(const TraceFacts& t, const StepFacts& f);

// "after its last shuffle, lane 0 of warp 1 holds the warp's result"; after a warp reduce, every lane. The arguments
// are (lane, warp) in each form (the every-lane forms leave the lane out).
Sentence result_sentence(const WarpResult& r);

// The bank view's line for a step with no shared load or store (nullopt where it has some): that the source probe
// does not trace the kernel's shared memory (Seen::NotTraced), else the step's shared atomics, which touch shared
// memory too (issue 17: it said "No shared-memory access" while 8 shared atomicAdds ran), else that it has no
// shared access (nor global request, where it has none).
std::optional<Sentence> bank_idle_sentence(const TraceFacts& t, const StepFacts& f);

// The step's lane instructions by name: "8 shuffles.", "8 warp reduces." (one sentence each, where non-zero).
std::vector<Sentence> step_count_sentences(const StepFacts& f);

// Every sentence of this layer for step `step` of `t` (replay `r`), in the order a reader meets them.
std::vector<Sentence> step_sentences(const Trace& t, const Replay& r, size_t step, const Context& c = {});

// How `record` times a session's kernels (SessionMeta::method): CUDA events around the whole reduction, `warmups`
// warm-ups, `samples` samples, the L2 flushed by writing `l2_flush_mib` MiB (twice the L2) before each; median and
// min-max (kernels/gpu_reduce.hpp). No claims: it is about the timing, not a trace. record.cpp stores it rendered in
// English, as sessions always have.
Sentence timing_method_sentence(int warmups, int samples, double l2_flush_mib);

// The sentence back from a session's stored text, where that is timing_method_sentence's English (every session
// `record` has written, 2026-11-23 on); nullopt for any other text, which the views then show as it is.
std::optional<Sentence> parse_timing_method(const std::string& recorded);

// Why a float32 sum stopped growing ("stuck at 2^24 = 16777216: float32 keeps 24 significant bits, ..."), from
// kernels/input.hpp's numbers (float_sum_stuck); its English is float_sum_note's, word for word (the claims audit
// checks it). nullopt for the note's other reasons and a negative sum's, which the views show as the note words them.
std::optional<Sentence> float_stuck_sentence(float got, double exact);

}  // namespace rs::explain
