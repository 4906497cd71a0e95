// Predict, then see (issue 39): questions a student answers before a step is shown, with answer keys taken from the
// trace through the same facts the views' sentences use (facts.hpp), and the grade of an answer with one sentence why.
//
// Index
//   QuestionKind        what is asked: which warps work, a warp's active lanes, a shared access's n-way conflict, a
//                       shared word's value, a shuffle's source lane, a global load's sectors, the fastest block size
//   Question            the question as a sentence, where its answer is drawn, and its key
//   step_questions()    every question step `step` of a trace can answer (one of each kind at most)
//   session_questions()  the session's questions for a kernel: timings, the bits view, two runs
//   Answer, Verdict, grade()  a student's answer and its verdict: right or wrong, and why, from the key
//   reason(), verdict_sentence(), reveal_sentence()  that why, and the verdict's sentence, for the views that show them
//
// A question whose answer the trace cannot give is never asked (issue 39, item 1):
//   - "which warps work" and "active lanes" only where the tracer records all the step's work: not at a step where
//     warps reached a barrier running code it does not record, nor in a trace whose shared memory it cannot see;
//   - a shared word's value only where the step wrote it and the tracer gave the value;
//   - a shuffle's source lane only in a source-probe trace (the binary tracer gives no shuffle values, and may not
//     know the source lane: kUnknownLane);
//   - the fastest block size only where the session timed the kernel at two or more block sizes; a speedup only where
//     it timed the kernel and the one before it; bits only where the bits view ran it; two runs' parting only where
//     the session holds the second run and the runs part.
//
// Like the rest of the layer, this links no i18n: questions and reasons are Sentences, said at the edge.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sentences.hpp"

namespace rs {
class Replay;
struct Session;
}  // namespace rs

namespace rs::explain {

enum class QuestionKind : uint8_t {
  WorkingWarps,   // which warps make a recorded instruction in the step? (a set of warps: click them)
  ActiveLanes,    // how many lanes of warp w make an instruction in the step? (0..32)
  Conflict,       // how many ways does this shared-memory access conflict? (1, 2, 4 ... 32: the n of n-way)
  WordValue,      // what does shared word k hold after the step? (int32 exactly; float32 to its printed digits)
  ShuffleSource,  // after this shuffle, whose value does lane L hold? (a lane number)
  Sectors,        // how many 32-byte sectors does warp w's global load touch? (1..32 x width)
  FastestBlock,   // which block size is fastest for the kernel on the recorded GPU? (a block size)
  Speedup,        // how many times faster is the kernel than the one before it in its track, at this block size? (x)
  SameBits,       // do the bits view's runs of the kernel at this block size all give the same float32 bits? (yes/no)
  BitsAcrossBlocks,  // do its runs at the bits view's smallest and largest block sizes all give one sum? (yes/no)
  PartAt,         // two runs of the same block: at which of its float atomic updates do the runs first round
                  // differently? (1 = the first update to land)
  // The pitfalls (issue 57, item 4), from `reducescope pitfalls --out`'s results:
  RunsRight,      // in how many of the recorded runs did the kernel's sum come out right? (a number, within 10)
  RaceLine,       // racecheck found line L's access racing with another: at which line is that other access?
  DistinctSums,   // how many different sums did the recorded runs give? (a number, within 10 percent, at least 2)
  // The multigpu track's traced ring all-reduce (issue 57, item 4), asked of kernel kMultiGpuTrack ("multigpu"):
  RingChunk,      // at the all-gather's first step, which chunk does GPU 0 send to GPU 1? (0 .. G-1)
  RingBytes,      // in the whole all-reduce, how many bytes does GPU 0 send to GPU 1? (within 1 percent)
};
// The kind's name in lesson files ("warps", "lanes", "conflict", "value", "shuffle", "sectors", "fastest", "speedup",
// "bits", "bits_blocks", "part", "runs_right", "race_line", "distinct_sums", "ring_chunk", "ring_bytes").
const char* to_string(QuestionKind k);
// Back from that name; nullopt for any other.
std::optional<QuestionKind> parse_question_kind(const std::string& name);
// Whether `k` is asked of a session's timings, bits or pitfalls' results rather than of a trace's step (FastestBlock,
// Speedup, SameBits, BitsAcrossBlocks, PartAt, RunsRight, RaceLine, DistinctSums, RingChunk, RingBytes):
// session_questions() gives them; the
// views' Predict mode, which asks before a step, does not.
bool is_session_kind(QuestionKind k);

struct Question {
  QuestionKind kind = QuestionKind::WorkingWarps;
  size_t step = 0;        // the step whose drawing reveals the answer (the question is asked before it)
  Sentence ask;           // the question, said in the reader's language
  // Where the answer is drawn, for the view to put the question there: -1 where it does not apply.
  int warp = -1;          // WorkingWarps: -1; ActiveLanes, Conflict, ShuffleSource, Sectors: the warp
  int lane = -1;          // ShuffleSource: the lane asked about
  int64_t word = -1;      // WordValue: the shared word
  int64_t index = -1;     // Conflict: Replay::accesses() index; ShuffleSource: shuffles(); Sectors: global_requests();
                          // FastestBlock: the fastest block size
  std::string kernel;     // the session kinds: the kernel asked about
  uint32_t block_size = 0;  // Speedup, SameBits, PartAt: the block size asked about
  // The key.
  std::vector<int64_t> key;   // WorkingWarps: the warps, ascending; FastestBlock: every block size whose median is
                              // within the fastest one's min..max spread (each is right); Sectors: the sectors, then
                              // the fewest that could serve the bytes; WordValue: the word's bits; else one number
  bool float_key = false;     // WordValue of a float32 word: key_text is the value, graded to its printed digits
  std::string key_text;       // the key as the views print it ("3", "0.75"); ShuffleSource: the value the lane
                              // received; FastestBlock: the fastest one's median in ms; Speedup: the ratio of the
                              // medians ("1.93"); SameBits, BitsAcrossBlocks: "yes" or "no"
  double key_lo = 0, key_hi = 0;  // Speedup: the ratios counted right (grade()); RunsRight, DistinctSums: the counts
  Sentence why;               // the session kinds: the reason, composed where the key is (reason() returns it)
};

// The questions step `step` of the trace `r` replays can answer, at most one of each kind: the first working warp
// whose lanes are not all active (else the first working warp; neither is asked of a step in which the tracer
// recorded no instruction), the step's worst shared access, the first word the step wrote, the
// step's first shuffle's first lane whose source is another lane, the first global load. `facts`: trace_facts(r, ...).
std::vector<Question> step_questions(const Replay& r, const TraceFacts& facts, size_t step);

// Predict mode's question at a step where no lesson chooses one: the first of `qs` by kind, in the order conflict,
// shuffle, sectors, warps, lanes (a value is asked only where a lesson asks: a word loaded from global memory cannot
// be predicted from what the page shows). nullptr where none.
const Question* default_question(const std::vector<Question>& qs);

// The session's questions about `kernel` (the session kinds), each only where the session holds its answer:
//   FastestBlock     where the kernel was timed correct at two or more block sizes;
//   Speedup          where it and the kernel before it in its track (kernels/kernel_info.hpp) were timed correct at
//                    `block_size`: key the ratio of their medians (previous / this), right within the spread the two
//                    timings allow (the previous one's min..max over this one's max..min) or 15% of that ratio,
//                    whichever is wider ("about 2x" for 1.93x is right);
//   SameBits         where the bits view (`reducescope bits`) ran the kernel at `block_size`: yes where all its runs
//                    gave one float32 bit pattern;
//   BitsAcrossBlocks where the bits view ran it at two or more block sizes: yes where every run at the smallest and
//                    at the largest gave one and the same bits;
//   PartAt           where the session holds two runs of its float32 trace at `block_size` (record --two-runs) and
//                    their atomic updates round differently somewhere: key that update's place (1-based).
//   RunsRight        where `pitfalls --out` ran the kernel at `block_size` ("wrong_runs", "of N runs") and it is a
//                    bug, not a surprise (KernelInfo::surprise): key N - wrong, any answer within 10 runs of it right;
//   RaceLine         where racecheck's races of the kernel at `block_size` are kept (SessionRace): the first race's
//                    first line is given, key its second line (the same line where one line races with itself);
//   DistinctSums     where the pitfalls' runs counted distinct sums ("distinct_sums") of a surprise (float atomics):
//                    key that count, any answer within 10 percent of it (at least 2) right.
//   RingChunk        `kernel` "multigpu" (kMultiGpuTrack), where the session holds a traced ring all-reduce
//                    (SessionMultiGpu::rings, the largest): key the chunk its event at step G-1 from GPU 0 sent;
//   RingBytes        the same ring: key the bytes of every event GPU 0 sent, any answer within 1 percent right.
std::vector<Question> session_questions(const Session& s, const std::string& kernel, uint32_t block_size);

// A student's answer: numbers (a warp set, a count, a lane, a block size, 1 for yes and 0 for no) or, for a value and
// a speedup, the text typed ("1.9", "2x").
struct Answer {
  std::vector<int64_t> numbers;
  std::string text;
};

struct Verdict {
  bool right = false;
  Sentence why;  // one sentence from the key: "Warps 0 and 1 make an instruction; 2-7 have no work: ..."
};

// Grades `a` against `q`'s key. A value of a float32 word is right where it agrees with the trace's value to the
// significant digits the student gave, at least 3 (or all of the value's shortest form where it has fewer): 0.0921
// for 0.092064. A fastest block size is right where it is any block size of the key (their timings overlap). A
// speedup is right within key_lo..key_hi (a number, "2x" or "2×").
// An answer with nothing in it is wrong.
Verdict grade(const Question& q, const Answer& a);

// Why the key is the answer, from the key ("its lanes touch 8 distinct words in one bank, ..."): what a verdict
// says after "Right:" or "Not quite:".
Sentence reason(const Question& q);
// "Right: <reason>" or "Not quite: <reason>" (the window's verdict after an answer or after Show).
Sentence verdict_sentence(const Question& q, bool right);
// The question as the room hears it in class mode: without the "(click them)" of the warps question.
Sentence ask_for_room(const Question& q);
// "On the GPU: <reason>": the window's class mode, where the room answered outside the app and nothing is graded.
Sentence reveal_sentence(const Question& q);

// The ids of this file's sentences (part of message_ids()).
const std::vector<const char*>& question_message_ids();

}  // namespace rs::explain
