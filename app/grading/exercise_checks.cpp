// The exercises' checks (exercises.hpp, judge_exercise): each judged from the evidence and said as sentences of
// explain/check_messages.def, ids with their arguments, which every edge says in its reader's language (issue 53).
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "check_words.hpp"
#include "exercises.hpp"
#include "markup.hpp"  // number_text

namespace rs {

namespace {

using explain::Sentence;
using namespace explain::check_msg;

std::string num(uint64_t v) { return std::to_string(v); }
std::string num(int v) { return std::to_string(v); }
std::string num(unsigned v) { return std::to_string(v); }

std::string at(const ExerciseRun& r) { return "N = " + num(r.n) + ", B = " + num(r.block_size); }

unsigned log2u(unsigned v) {
  unsigned l = 0;
  while (v > 1) {
    v >>= 1;
    ++l;
  }
  return l;
}

// A sentence whose argument `k` is the sentence `sub`, said in the same language.
Sentence with(Sentence s, size_t k, Sentence sub) {
  s.with(k, std::move(sub));
  return s;
}

// Runs that carry a trace and pass `take`.
template <class Take>
std::vector<const ExerciseRun*> traced(const ExerciseEvidence& e, Take take) {
  std::vector<const ExerciseRun*> v;
  for (const ExerciseRun& r : e.runs) {
    if (r.features && take(r)) v.push_back(&r);
  }
  return v;
}

// "in 6 traces (N = 4097; B = 32 ... 1024)", said at the end of a figure
Sentence over(const std::vector<const ExerciseRun*>& runs) {
  std::vector<uint64_t> ns;
  std::vector<unsigned> bs;
  for (const ExerciseRun* r : runs) {
    if (std::find(ns.begin(), ns.end(), r->n) == ns.end()) ns.push_back(r->n);
    if (std::find(bs.begin(), bs.end(), r->block_size) == bs.end()) bs.push_back(r->block_size);
  }
  std::sort(bs.begin(), bs.end());
  std::string n_list, b_range;
  for (size_t i = 0; i < ns.size(); ++i) n_list += (i ? ", " : "") + num(ns[i]);
  if (!bs.empty()) b_range = num(bs.front()) + (bs.size() > 1 ? " ... " + num(bs.back()) : "");
  return Sentence(runs.size() == 1 ? kOverTrace : kOverTraces, {num(static_cast<uint64_t>(runs.size())), n_list, b_range});
}

// A passing check whose figure ends with where it was judged.
ExerciseCheck passed_over(const char* name, const char* figure, const std::vector<const ExerciseRun*>& runs) {
  return {name, true, with(Sentence(figure), 0, over(runs)), {}};
}

// "at least 1.5x reduce2": the user's median against the reference kernel's, timed in the same run. `figure` has the
// arguments (user ms, reference name, reference ms, timing N, block size, ratio); `untimed_hint` says why there is
// no timing, `slow_hint` what to change when the ratio misses x.min_speedup.
ExerciseCheck timing_check(const Exercise& x, const ExerciseEvidence& e, const char* untimed_hint, const char* figure,
                           const char* slow_hint) {
  ExerciseCheck t{Sentence(kAtLeastX, {number_text("%.1f", x.min_speedup), x.reference_kernel}), false, {}, {}};
  if (e.user_ms <= 0 || e.reference_ms <= 0) {
    t.figure = kNotTimed;
    t.hint = untimed_hint;
    return t;
  }
  const double ratio = e.reference_ms / e.user_ms;
  t.pass = ratio >= x.min_speedup;
  t.figure = Sentence(figure, {number_text("%.4f", e.user_ms), x.reference_kernel, number_text("%.4f", e.reference_ms),
                               num(e.timing_n), num(e.timing_block_size), number_text("%.2f", ratio)});
  if (!t.pass) t.hint = slow_hint;
  return t;
}

// The smallest and the largest N of `runs` (not empty).
std::pair<uint64_t, uint64_t> n_span(const std::vector<ExerciseRun>& runs) {
  uint64_t lo = runs.front().n, hi = lo;
  for (const ExerciseRun& r : runs) {
    lo = std::min(lo, r.n);
    hi = std::max(hi, r.n);
  }
  return {lo, hi};
}

// The first run whose result is wrong, and how many are.
std::pair<const ExerciseRun*, int> first_wrong(const ExerciseEvidence& e) {
  const ExerciseRun* first = nullptr;
  int wrong = 0;
  for (const ExerciseRun& r : e.runs) {
    if (r.right) continue;
    ++wrong;
    if (!first) first = &r;
  }
  return {first, wrong};
}

ExerciseCheck nothing_traced(const char* name) { return {name, false, kNothingTraced, kNothingTracedHint}; }

ExerciseCheck sums_right(const ExerciseEvidence& e) {
  if (e.runs.empty()) return {kSumsRight, false, kNotRun, kNotRunHint};
  const auto [first, wrong] = first_wrong(e);
  if (!first) {
    const auto [lo, hi] = n_span(e.runs);
    return {kSumsRight, true, Sentence(kSumsAllRight, {num(static_cast<uint64_t>(e.runs.size())), num(lo), num(hi)}),
            {}};
  }
  Sentence figure(kSumsWrong, {num(wrong), num(static_cast<uint64_t>(e.runs.size())), at(*first),
                               to_string(first->type), first->got, first->expected});
  if (first->result_unwritten) figure.with(4, Sentence(kGotUnwritten, {first->got}));
  return {kSumsRight, false, std::move(figure), kSumsWrongHint};
}

std::vector<ExerciseCheck> check_bank_conflicts(const ExerciseEvidence& e) {
  const auto runs = traced(e, [](const ExerciseRun&) { return true; });
  if (runs.empty()) return {nothing_traced(kNoBankConflicts)};
  for (const ExerciseRun* r : runs) {
    const TraceFeatures& f = *r->features;
    if (f.bank_conflicts > 0) {
      return {{kNoBankConflicts, false,
               Sentence(kBankConflicts, {at(*r), num(f.bank_conflicts), num(f.worst_degree), num(f.worst_conflict_line)}),
               kBankConflictsHint}};
    }
  }
  return {passed_over(kNoBankConflicts, kNoBankConflictsOver, runs)};
}

std::vector<ExerciseCheck> check_divergence(const ExerciseEvidence& e) {
  // One warp cannot show it: a block of 32 threads has one warp, and the tree's last steps always leave
  // lanes of one warp idle.
  const auto runs = traced(e, [](const ExerciseRun& r) { return r.block_size >= 64; });
  if (runs.empty()) return {nothing_traced(kNoDivergentWarps)};
  for (const ExerciseRun* r : runs) {
    const TraceFeatures& f = *r->features;
    if (f.most_diverged_warps > 1) {
      return {{kNoDivergentWarps, false,
               Sentence(kDiverged, {at(*r), num(static_cast<uint64_t>(f.most_diverged_step + 1)),
                                    num(f.most_diverged_warps), num(f.warps), num(f.diverged_line)}),
               kDivergedHint}};
    }
  }
  return {passed_over(kNoDivergentWarps, kNotDivergedOver, runs)};
}

std::vector<ExerciseCheck> check_first_add(const Exercise& x, const ExerciseEvidence& e) {
  std::vector<ExerciseCheck> out;
  ExerciseCheck half{kHalfTheBlocks, true,
                     Sentence(kHalfBlocksRuns, {num(static_cast<uint64_t>(e.runs.size()))}), {}};
  for (const ExerciseRun& r : e.runs) {
    const uint64_t want = std::max<uint64_t>(1, (r.n + 2ull * r.block_size - 1) / (2ull * r.block_size));
    if (r.grid > want) {
      half = {kHalfTheBlocks, false, Sentence(kTooManyBlocks, {at(r), num(r.grid), num(want)}), kTooManyBlocksHint};
      break;
    }
  }
  out.push_back(half);
  if (x.reference_kernel) out.push_back(timing_check(x, e, kTimedAfterSums, kTimingAgainst, kFirstAddSlowHint));
  return out;
}

std::vector<ExerciseCheck> check_unroll(const ExerciseEvidence& e) {
  const auto runs = traced(e, [](const ExerciseRun& r) { return r.block_size >= 64; });
  if (runs.empty()) return {nothing_traced(kLastWarpNoBarrier)};
  for (const ExerciseRun* r : runs) {
    const int most = static_cast<int>(log2u(r->block_size)) - 5;  // the load's, then one per s = B/2 ... 64
    if (r->features->barriers > most) {
      return {{kLastWarpNoBarrier, false, Sentence(kTooManyBarriers, {at(*r), num(r->features->barriers), num(most)}),
               kTooManyBarriersHint}};
    }
  }
  return {passed_over(kLastWarpNoBarrier, kBarriersOver, runs)};
}

// The first reason warp 0 of `r` did not finish the way the shuffle exercise asks, or nullopt.
std::optional<ExerciseCheck> shuffle_fault(const ExerciseEvidence& e, const ExerciseRun& r) {
  const TraceFeatures& f = *r.features;
  const bool few = f.warp0_shuffles < 5 && f.warp0_reduces == 0;
  auto fail = [](Sentence figure, const char* hint) {
    return ExerciseCheck{kLastWarpShuffles, false, std::move(figure), hint};
  };
  if (few && f.binary && e.ptx_read) {
    // The PTX has no redux.sync: there is no warp reduce for the tracer to miss (issue 57, item 5).
    return fail(Sentence(kFewShufflesNoRedux, {at(r), num(f.warp0_shuffles)}), kShuffleHint);
  }
  if (few && f.binary) {
    // What the tracer cannot see is said as such: a warp reduce compiles to REDUX, which it does not record.
    return fail(Sentence(kFewShufflesBinary, {at(r), num(f.warp0_shuffles)}), kFewShufflesBinaryHint);
  }
  if (few) return fail(Sentence(kFewShuffles, {at(r), num(f.warp0_shuffles)}), kShuffleHint);
  if (f.wide_stores_after_lane_op > 0) {
    return fail(Sentence(kWideStores, {at(r), num(f.wide_stores_after_lane_op), num(f.wide_store_line)}),
                kOneWordPerWarpHint);
  }
  if (f.words_after_lane_op > f.warps) {
    return fail(Sentence(kTooManyWords, {at(r), num(f.words_after_lane_op), num(f.warps)}), kOneWordPerWarpHint);
  }
  return std::nullopt;
}

std::vector<ExerciseCheck> check_shuffle(const ExerciseEvidence& e) {
  const auto runs = traced(e, [](const ExerciseRun&) { return true; });
  if (runs.empty()) return {nothing_traced(kLastWarpShuffles)};
  bool redux_unseen = false;
  for (const ExerciseRun* r : runs) {
    const TraceFeatures& f = *r->features;
    if (f.warp0_shuffles < 5 && f.warp0_reduces == 0 && f.binary && e.redux_in_ptx) {
      // A right answer is never failed: the warps finish with REDUX, which this tracer cannot see. Said as such, and
      // what could not be checked named.
      redux_unseen = true;
      continue;
    }
    if (auto fault = shuffle_fault(e, *r)) return {*fault};
  }
  return {passed_over(kLastWarpShuffles, redux_unseen ? kReduxUnseenOver : kShufflesOver, runs)};
}

std::vector<ExerciseCheck> check_single_pass(const ExerciseEvidence& e) {
  for (const ExerciseRun& r : e.runs) {
    if (r.launches != 1) return {{kOneLaunch, false, Sentence(kLaunches, {at(r), num(r.launches)}), kLaunchesHint}};
  }
  std::string ns;
  std::vector<uint64_t> seen;
  for (const ExerciseRun& r : e.runs) {
    if (std::find(seen.begin(), seen.end(), r.n) != seen.end()) continue;
    seen.push_back(r.n);
    ns += (ns.empty() ? "" : ", ") + num(r.n);
  }
  std::vector<ExerciseCheck> out = {{kOneLaunch, true, Sentence(kOneLaunchAt, {ns}), {}}};
  // The ticket counter must be back at 0 after every run: a kernel that never resets it passes one run and then
  // leaves out[0] alone (the result word is poisoned before each run, so the sums fail too; this says why).
  uint64_t reset = 0, checked = 0;
  const ExerciseRun* bad = nullptr;
  for (const ExerciseRun& r : e.runs) {
    if (!r.ticket_after) continue;
    ++checked;
    if (*r.ticket_after == 0) ++reset;
    else if (!bad) bad = &r;
  }
  if (bad) {
    out.push_back({kTicketReset, false, Sentence(kTicketLeft, {at(*bad), num(*bad->ticket_after)}), kTicketLeftHint});
  } else if (checked > 0) {
    out.push_back({kTicketReset, true, Sentence(kTicketBack, {num(reset)}), {}});
  }
  return out;
}

// compute-sanitizer's verdict (issue 57, item 1): a hazard fails the check whatever the sums did; where the tools
// did not run, the check says so and is neither passed nor failed.
Sentence finding_sentence(const SanitizerFinding& f) {
  const std::string b = f.block_size ? "B = " + num(f.block_size) : std::string("B = ?");
  if (f.tool == SanitizerTool::Racecheck) {
    const Sentence first(f.first_access == "Write" ? kWritten : kRead);
    const Sentence second(f.second_access == "Write" ? kWritten : kRead);
    const unsigned w1 = f.first_thread / 32, w2 = f.second_thread / 32;
    const Sentence where = f.word >= 0 ? Sentence(kSharedWord, {std::to_string(f.word)}) : Sentence(kSharedMemory);
    if (w1 == w2) {
      Sentence s(kRaceInWarp, {"", num(w1), "", num(f.first_line), num(f.first_thread % 32), "", num(f.second_line),
                               num(f.second_thread % 32), b});
      return s.with(0, where).with(2, first).with(5, second);
    }
    Sentence s(kRaceBetweenWarps, {"", "", num(f.first_line), num(w1), "", num(f.second_line), num(w2), b});
    return s.with(0, where).with(1, first).with(4, second);
  }
  return Sentence(kOtherFinding, {f.kind, num(f.first_line), num(f.first_thread), to_string(f.tool), b});
}

// "16-31", "0, 2-5": lanes in a mask, as ranges.
std::string lane_ranges(uint32_t lanes) {
  std::string out;
  for (int l = 0; l < 32; ++l) {
    if (!(lanes >> l & 1)) continue;
    int e = l;
    while (e + 1 < 32 && (lanes >> (e + 1) & 1)) ++e;
    out += (out.empty() ? "" : ", ") + std::to_string(l) + (e > l ? "-" + std::to_string(e) : "");
    l = e;
  }
  return out;
}

// A shuffle that lanes outside its mask execute (issue 57: a partial mask where all lanes run): the mask from the
// PTX (a binary trace) or the trace (the wrapped dialect), the lanes from the trace. nullopt for none.
std::optional<Sentence> mask_violation(const ExerciseEvidence& e) {
  for (const ExerciseRun& r : e.runs) {
    if (!r.features) continue;
    for (const auto& [line, lanes] : r.features->shuffle_lanes_by_line) {
      uint32_t mask = 0;
      for (const ShuffleMask& m : e.shuffle_masks) {
        if (m.line == line) mask |= m.mask;
      }
      const auto traced = r.features->shuffle_mask_by_line.find(line);
      if (!mask && traced != r.features->shuffle_mask_by_line.end()) mask = traced->second;
      if (!mask || !(lanes & ~mask)) continue;
      char hex[16];
      std::snprintf(hex, sizeof hex, "%08x", mask);
      return Sentence(kMaskLeavesOut, {lane_ranges(lanes & ~mask), num(line), hex, at(r)});
    }
  }
  return std::nullopt;
}

ExerciseCheck check_hazards(const SanitizerEvidence& s, const std::optional<Sentence>& mask_error = std::nullopt) {
  ExerciseCheck c{kNoHazard, false, {}, {}};
  if (mask_error) return {kNoHazard, false, *mask_error, kMaskHint};  // seen in the trace, whether or not the tools ran
  if (!s.why_not.empty()) return {kNoHazard, false, Sentence(kSanitizerNotRun, {s.why_not}), {}, false};
  const SanitizerFinding* first = nullptr;
  uint64_t findings = 0;
  std::string not_run;
  for (const SanitizerReport& r : s.reports) {
    for (const SanitizerFinding& f : r.output.findings) {
      if (!first) first = &f;
      ++findings;
    }
    if (!r.ran && not_run.empty()) not_run = std::string(to_string(r.tool)) + ": " + r.why_not;
  }
  if (first) {
    c.figure = finding_sentence(*first);
    if (findings > 1) c.figure = with(Sentence(kAndMore, {"", num(findings - 1)}), 0, c.figure);
    c.hint = first->tool == SanitizerTool::Racecheck   ? kRaceHint
             : first->tool == SanitizerTool::Synccheck ? kSyncHint
                                                       : kMemoryHint;
    return c;
  }
  if (!not_run.empty()) return {kNoHazard, false, Sentence(kSanitizerNotRun, {not_run}), {}, false};
  std::string sizes;
  for (unsigned bs : s.block_sizes) sizes += (sizes.empty() ? "" : ", ") + num(bs);
  return {kNoHazard, true, Sentence(kSanitizersClean, {num(s.n), sizes}), {}};
}

// The fence of a single pass (issue 57, item 2; grading/fence.hpp).
ExerciseCheck check_fence(const FenceFinding& f) {
  if (!f.judged) return {kFencePublished, false, Sentence(kFenceNotJudged, {f.code, f.why_not}), {}, false};
  if (f.missing) {
    return {kFencePublished, false, Sentence(kFenceMissing, {num(f.store_line), num(f.atomic_line), f.code}),
            kFenceHint};
  }
  return {kFencePublished, true, Sentence(f.stores_before_ticket ? kFenced : kNothingToPublish, {f.code}), {}};
}

// The exercise histogram: every bin right, the bins privatised in shared memory, at least min_speedup x the
// reference kernel.
std::vector<ExerciseCheck> check_histogram(const Exercise& x, const ExerciseEvidence& e) {
  std::vector<ExerciseCheck> out;
  const auto [first, wrong] = first_wrong(e);
  if (e.runs.empty()) {
    out.push_back({kBinsRight, false, kNotRun, {}});
  } else if (first) {
    out.push_back({kBinsRight, false,
                   Sentence(kHistogramsWrong, {num(wrong), num(static_cast<uint64_t>(e.runs.size())), at(*first),
                                               first->got, first->expected}),
                   kHistogramsWrongHint});
  } else {
    const auto [lo, hi] = n_span(e.runs);
    out.push_back(
        {kBinsRight, true, Sentence(kBinsAllRight, {num(static_cast<uint64_t>(e.runs.size())), num(lo), num(hi)}), {}});
  }
  if (e.shared_atomics) out.push_back({kPrivateBins, true, kSharedAtomics, {}});
  else out.push_back({kPrivateBins, false, kNoSharedAtomics, kNoSharedAtomicsHint});
  if (x.reference_kernel) {
    out.push_back(timing_check(x, e, kTimedAfterBins, kHistogramTimingAgainst, kHistogramSlowHint));
  }
  return out;
}

}  // namespace

std::string with_unwritten_note(const std::string& got) {
  return explain::render(Sentence(kGotUnwritten, {got}));
}

std::vector<ExerciseCheck> judge_exercise(const Exercise& x, const ExerciseEvidence& e) {
  if (std::string(x.name) == "histogram") {
    std::vector<ExerciseCheck> out = check_histogram(x, e);
    if (e.sanitizers.attempted) out.push_back(check_hazards(e.sanitizers));
    return out;
  }
  std::vector<ExerciseCheck> out{sums_right(e)};
  std::vector<ExerciseCheck> own;
  const std::string name = x.name;
  if (name == "bank_conflicts") own = check_bank_conflicts(e);
  if (name == "divergence") own = check_divergence(e);
  if (name == "first_add") own = check_first_add(x, e);
  if (name == "unroll_last_warp") own = check_unroll(e);
  if (name == "shuffle") own = check_shuffle(e);
  if (name == "single_pass") own = check_single_pass(e);
  out.insert(out.end(), own.begin(), own.end());
  if (e.fence) out.push_back(check_fence(*e.fence));
  if (e.sanitizers.attempted) out.push_back(check_hazards(e.sanitizers, mask_violation(e)));
  return out;
}

}  // namespace rs
