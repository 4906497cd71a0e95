// reproducible_sum's exact accumulator, step by step (issue 30, item 2): what each step of the traced block adds
// to the exact sum it keeps (its threads' exact partial sums and its limbs, kernels/exact_sum.hpp), what the block
// holds after the step, and the one rounding at the end, of the grid's exact sum to float32.
//
// The trace says which elements the block loaded in each step (its global load requests: the element index of each
// lane and the access width; a float4 load is four elements); the values come from the session's input, made again
// from its pattern and N (make_input_f32, seeded: the same values the GPU read), and are checked against the
// values the trace recorded (the first of each lane's access). The kernel's 64-bit limbs are not in the trace
// (modern_kernels.cuh says why), so the accumulator is the exact sum of what the block has loaded: every element
// goes in exactly, in any order. For the window (the global panel) and the page (the step's sentence).
#pragma once

#include "sentences.hpp"  // explain::Sentence

#include <cstdint>
#include <string>
#include <vector>

#include "replay.hpp"

namespace rs {

// The kernel whose traces get the accumulator view: the modern track's exact, reproducible float sum.
inline constexpr const char* kExactSumKernel = "reproducible_sum";

// An exact sum of floats as M x 2^E (M an integer, E a power of two's exponent), with its value for people.
struct ExactValue {
  bool fits = false;        // M fits 64 bits (else only `approx` is shown)
  int64_t m = 0;
  int e = 0;
  long double approx = 0;   // the value (exact where it has 64 significant bits or fewer)
  std::string str() const;  // "6421.0625 (107727716352 x 2^-24)"
};

struct ExactStep {
  uint64_t elements = 0;    // elements the block loaded in this step
  uint64_t so_far = 0;      // ... in this step and the ones before
  ExactValue adds;          // their exact sum: what the step adds to the accumulator
  ExactValue holds;         // the block's exact sum of every element it loaded so far
};

struct ExactAccumulator {
  std::vector<ExactStep> steps;  // one per replay step
  uint64_t loaded = 0;           // elements the block loaded in all
  bool matches_input = true;     // every value the trace recorded equals the input's element at its index
  ExactValue grid;               // the exact sum of all N elements (what the last block rounds)
  uint32_t rounded_bits = 0;     // it rounded once to float32 (to nearest, ties to even): the kernel's result
  uint32_t result_bits = 0;      // TraceMeta::result, the result the run gave
};

// The accumulator of `r`'s trace, of a float32 sum over `input` (the session's input, in full). Empty `steps` for a
// trace that is not float32 or loads nothing of its input.
ExactAccumulator exact_accumulator(const Replay& r, const TraceMeta& meta, const std::vector<float>& input);

// The accumulator of a session's trace of kExactSumKernel (float32), its input made again from the trace's pattern and
// N; nullptr for any other trace. Computed once per trace (the input once per pattern and N) and kept. Thread-safe:
// the window's global panel and its web export (off the UI thread) both call it.
const ExactAccumulator* exact_accumulator_of(const Trace& t, const Replay& r);

// Step `i`'s sentences, as the explain layer's (a message id with {k}, its arguments; app/explain/sentences.hpp),
// formatted at the edge (gettext in the window, the page's dictionary): what the step adds and what the block holds,
// and on the last step the one rounding. Empty past the last step.
std::vector<explain::Sentence> exact_step_sentences(const ExactAccumulator& a, size_t i);
// Their message ids (the page's dictionary carries them).
std::vector<const char*> exact_message_ids();

}  // namespace rs
