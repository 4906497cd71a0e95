// What a session says of a pitfall kernel (wrong code on purpose, or the float-atomic surprise), in
// plain words, one sentence each: the same sentences in the window, `reducescope show` and the web page.
// The figures come from `reducescope pitfalls --out` (SessionMetric "wrong_runs", "distinct_sums",
// "racecheck_hazards"; SessionRace for racecheck's races). Made as the explain layer's sentences (a message id and
// its arguments, app/explain/sentences.hpp: pitfall_said, runs_said, race_said, ...), which the page's exporter sends
// and its script says (issue 38, item 1: it composed them twice under a language lock); the string forms below say
// them in the language in force (gettext: English in the CLI, Chinese in a window switched to it).
#pragma once

#include <cstdint>
#include <string>

#include <optional>
#include <vector>

#include "kernel_info.hpp"
#include "sentences.hpp"  // explain::Sentence
#include "session.hpp"

namespace rs {

struct PitfallWords {
  std::string verdict;  // "WRONG CODE on purpose: <KernelInfo::pitfall>." or "NOT WRONG CODE, A SURPRISE: ..."
  std::string results;  // "On NVIDIA H100 80GB HBM3: wrong in all 100 runs, always the same wrong sum." ("": none recorded)
  std::string results_how;  // how they were measured (the command, N, type, pattern)
  std::string races;    // "racecheck, one block of 64 threads: 10 races between lines 43-48 (1032 hazards)." ("": not run)
  std::string races_how;    // how racecheck ran
  std::string missing;  // why a figure is missing: "No recorded results at 256 threads (run `reducescope pitfalls
                        // --out SESSION` on a GPU)." ("": none missing)
  std::string fix;      // the kernel that fixes it (KernelInfo::fixed_by), "" for none
};

// `session` may be null (live GPU, nothing recorded). `k` must be a pitfall kernel (KernelInfo::pitfall).
PitfallWords pitfall_words(const Session* session, const KernelInfo& k, unsigned block_size);

// The same as sentences, formatted at the edge.
struct PitfallSaid {
  explain::Sentence verdict;
  std::vector<explain::Sentence> results;  // the runs, then where a float32 sum saturates; empty: none recorded
  std::string results_how;                 // the recorded command (as stored)
  std::optional<explain::Sentence> races;
  std::string races_how;
  std::optional<explain::Sentence> missing;
  std::string fix;
};
PitfallSaid pitfall_said(const Session* session, const KernelInfo& k, unsigned block_size);
explain::Sentence runs_said(int wrong, int runs, int distinct, bool surprise);
explain::Sentence race_lines_said(const std::vector<const SessionRace*>& races);
explain::Sentence race_said(const SessionRace& r);
// Every message id above (the page's dictionary carries them).
std::vector<const char*> pitfall_message_ids();

// The runs in plain words: `wrong` runs of `runs` outside the reference, `distinct` different sums
// ("wrong in all 100 runs, always the same wrong sum"; "right in all 100 runs"; a surprise: "41 different
// sums in 100 runs, none outside the float tolerance"). `distinct` < 1: not known.
std::string runs_sentence(int wrong, int runs, int distinct, bool surprise);

// "43-48", "36", "36, 103": the lines at either end of the races, ascending, as ranges.
std::string race_lines(const std::vector<const SessionRace*>& races);
// The same with its noun: "line 36", "lines 43-48".
std::string race_lines_phrase(const std::vector<const SessionRace*>& races);

// "RAW: line 43 writes, line 44 reads: 16 words (sdata[16..31]), 64 hazards".
std::string describe_race(const SessionRace& r);
// "16..31, 48" (ascending words as ranges).
std::string word_ranges(const std::vector<uint32_t>& words);

// The bits view's distance between two float32 bit patterns, in units in the last place of the float
// grid (ordered so that adjacent floats differ by 1, across zero too): "0 ulp", "+1 ulp", "-3 ulps".
int64_t ulps_between(uint32_t bits, uint32_t exact_bits);
std::string ulps_text(uint32_t bits, uint32_t exact_bits);

}  // namespace rs
