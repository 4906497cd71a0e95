// Text a session or trace stores in English, read back word for word into sentences the views say in their language
// (issue 38, items 1 and 5), and the atomics view's names for the addresses a block updated.
//
// Index
//   read_back()              a stored text matched whole against message ids ({0} .. {9} match any text)
//   trace_note_sentences()   a binary trace's notes (TraceMeta::notes), one sentence per line
//   multigpu_method_sentence()  a multi-GPU recording's timing method (SessionMultiGpu::method)
//   sweep_method_sentence()  the N sweep's method (Sweep::method, app/commands/sweep.cpp)
//   atomic_target_sentence() "shared bin e-h", "global dev_sum": an atomic target, as the atomics view names it
//   two_runs_sentence()      where and why two runs of a float atomic sum part (tracing/two_runs.hpp)
//   stored_message_ids()     every id above (message_ids() in sentences.hpp includes them)
//
// Why read back, not store ids: sessions and traces written since 2026-11 hold these texts in English, and must still
// open (DESIGN.md, "never break a user's files"). A text in other words (an older release's, or a hand-edited file)
// reads back as nullopt, or as the line itself (Sentence{"{0}", {line}}), and is shown as it is.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "replay.hpp"
#include "two_runs.hpp"
#include "sentences.hpp"

namespace rs::explain {

// The first id of `ids` whose words equal `text` with each {k} standing for any non-empty text, as a Sentence whose
// render() is `text` again; nullopt where none does.
std::optional<Sentence> read_back(const std::string& text, const std::vector<const char*>& ids);

// Each line of a binary trace's notes (tracing/binary/assemble.cpp, app/commands/record.cpp's CUB lines) as a
// sentence; a line in other words as Sentence{"{0}", {line}}. Empty notes: none.
std::vector<Sentence> trace_note_sentences(const std::string& notes);

// kernels/multigpu_run.cu's method ("nccl-tests' conventions: 5 warm-up calls, 20 timed; ..."), or an emulated
// recording's; nullopt for other text.
std::optional<Sentence> multigpu_method_sentence(const std::string& recorded);

// `reducescope sweep`'s method; nullopt for other text.
std::optional<Sentence> sweep_method_sentence(const std::string& recorded);

// The atomics view's name for target `t` of a trace of `meta`: "shared +8", "global dev_sum", "global output[3]",
// a histogram's bins by the bytes they count ("shared bin e-h", "global bin 0x41 'A'"), histo_warp's per-warp byte
// counts ("shared warp 0 byte 0x61 'a'"). The window's and the page's atomics views both say these.
Sentence atomic_target_sentence(const AtomicTarget& t, const TraceMeta& meta);

// Where and why two runs of the same block part (issue 30): the first update whose rounding differs, its operands
// and roundings in each run, and why (float addition is not associative; the landing order is the hardware's). Where
// this block's updates round the same in both runs, that the sums part in other blocks' updates, which the trace does
// not record (issue 38: it said "every update rounds the same in both runs" beside two different sums), or, with the
// same sums, that the runs agree.
Sentence two_runs_sentence(const TwoRuns& r);

const std::vector<const char*>& stored_message_ids();

}  // namespace rs::explain
