// The exercises' table and checks (exercises.hpp).
#include "exercises.hpp"

#include <algorithm>
#include <set>
#include <map>
#include <bit>
#include <utility>
#include <cstdarg>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "i18n.hpp"
#include "markup.hpp"  // number_text

namespace rs {

namespace {

using i18n::strf;

unsigned long long ull(uint64_t v) { return static_cast<unsigned long long>(v); }

std::string at(const ExerciseRun& r) {
  return "N = " + std::to_string(r.n) + ", B = " + std::to_string(r.block_size);
}

unsigned log2u(unsigned v) {
  unsigned l = 0;
  while (v > 1) {
    v >>= 1;
    ++l;
  }
  return l;
}

// Runs that carry a trace and pass `take`; their number.
template <class Take>
std::vector<const ExerciseRun*> traced(const ExerciseEvidence& e, Take take) {
  std::vector<const ExerciseRun*> v;
  for (const ExerciseRun& r : e.runs) {
    if (r.features && take(r)) v.push_back(&r);
  }
  return v;
}

// "in 6 traces (N = 4097; B = 32 ... 1024)", said at the end of a figure
std::string over(const std::vector<const ExerciseRun*>& runs) {
  std::vector<uint64_t> ns;
  std::vector<unsigned> bs;
  for (const ExerciseRun* r : runs) {
    if (std::find(ns.begin(), ns.end(), r->n) == ns.end()) ns.push_back(r->n);
    if (std::find(bs.begin(), bs.end(), r->block_size) == bs.end()) bs.push_back(r->block_size);
  }
  std::sort(bs.begin(), bs.end());
  std::string n_list, b_range;
  for (size_t i = 0; i < ns.size(); ++i) n_list += (i ? ", " : "") + std::to_string(ns[i]);
  if (!bs.empty()) b_range = std::to_string(bs.front()) + (bs.size() > 1 ? " ... " + std::to_string(bs.back()) : "");
  return strf(runs.size() == 1 ? _("in %zu trace (N = %s; B = %s)") : _("in %zu traces (N = %s; B = %s)"),
                  runs.size(), n_list.c_str(), b_range.c_str());
}

// "at least 1.5x reduce2": the user's median against the reference kernel's, timed in the same run. `figure` is a
// format of (user ms, reference name, reference ms, timing N, block size, ratio); `untimed_hint` says why there is
// no timing, `slow_hint` what to change when the ratio misses x.min_speedup.
ExerciseCheck timing_check(const Exercise& x, const ExerciseEvidence& e, const char* untimed_hint, const char* figure,
                           const char* slow_hint) {
  ExerciseCheck t{strf(_("at least %.1fx %s"), x.min_speedup, x.reference_kernel), false, "", ""};
  if (e.user_ms <= 0 || e.reference_ms <= 0) {
    t.figure = _("not timed");
    t.hint = untimed_hint;
    return t;
  }
  const double ratio = e.reference_ms / e.user_ms;
  t.pass = ratio >= x.min_speedup;
  t.figure = strf(figure, e.user_ms, x.reference_kernel, e.reference_ms, ull(e.timing_n), e.timing_block_size, ratio);
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

ExerciseCheck nothing_traced(const char* name) {
  return {name, false, _("no trace to judge: the kernel was not traced at any N and block size"),
          _("the trace is taken at block sizes the launch shape allows; check RS_LAUNCH_SHAPE")};
}

ExerciseCheck sums_right(const ExerciseEvidence& e) {
  ExerciseCheck c{_("sums right"), true, "", ""};
  int wrong = 0;
  const ExerciseRun* first = nullptr;
  for (const ExerciseRun& r : e.runs) {
    if (!r.right) {
      ++wrong;
      if (!first) first = &r;
    }
  }
  if (e.runs.empty()) {
    return {_("sums right"), false, _("the kernel was not run"), _("check RS_LAUNCH_SHAPE's minimum block size")};
  }
  if (!wrong) {
    const auto [lo, hi] = n_span(e.runs);
    c.figure = strf(_("right in all %zu runs against the CPU (N = %llu ... %llu, every block size, int32 and "
                          "float32 where it compiles)"),
                        e.runs.size(), ull(lo), ull(hi));
    return c;
  }
  c.pass = false;
  const std::string got = first->got + (first->result_unwritten ? " " + unwritten_result_note() : std::string());
  c.figure = strf(_("%d of %zu sums wrong; first at %s, %s: got %s, expected %s"), wrong, e.runs.size(),
                      at(*first).c_str(), to_string(first->type), got.c_str(), first->expected.c_str());
  c.hint = _("run it at that N and block size: `reducescope trace --kernel-file FILE.cu --n N --block-size B` shows "
             "each step; look at the loads past the end of the input (i < n) and the last steps of the tree");
  return c;
}

std::vector<ExerciseCheck> check_bank_conflicts(const ExerciseEvidence& e) {
  const auto runs = traced(e, [](const ExerciseRun&) { return true; });
  const char* name = _("no bank conflicts");
  if (runs.empty()) return {nothing_traced(name)};
  for (const ExerciseRun* r : runs) {
    const TraceFeatures& f = *r->features;
    if (f.bank_conflicts > 0) {
      return {{name, false,
               strf(_("%s: %d shared-memory bank conflicts, the worst %d-way at line %u"), at(*r).c_str(),
                        f.bank_conflicts, f.worst_degree, f.worst_conflict_line),
               _("lanes of a warp that touch different words of one bank wait for each other. Let thread tid add "
                 "sdata[tid + s] for s = blockDim.x / 2 down to 1 (sequential addressing, Harris's Reduction #3): "
                 "consecutive lanes then read consecutive words")}};
    }
  }
  return {{name, true, strf(_("0 bank conflicts %s"), over(runs).c_str()), ""}};
}

std::vector<ExerciseCheck> check_divergence(const ExerciseEvidence& e) {
  // One warp cannot show it: a block of 32 threads has one warp, and the tree's last steps always leave
  // lanes of one warp idle.
  const auto runs = traced(e, [](const ExerciseRun& r) { return r.block_size >= 64; });
  const char* name = _("no divergent warps in the tree");
  if (runs.empty()) return {nothing_traced(name)};
  for (const ExerciseRun* r : runs) {
    const TraceFeatures& f = *r->features;
    if (f.most_diverged_warps > 1) {
      return {{name, false,
               strf(_("%s: in step %zu, %d of %d warps ran with some lanes idle (line %u)"), at(*r).c_str(),
                        f.most_diverged_step + 1, f.most_diverged_warps, f.warps, f.diverged_line),
               _("a branch on tid % (2*s) leaves lanes idle in every warp. Make the threads that add contiguous: "
                 "index = 2 * s * tid, if (index < blockDim.x) (Harris's Reduction #2), so whole warps add or sit "
                 "out")}};
    }
  }
  return {{name, true,
           strf(_("at most 1 warp with idle lanes in any step (the tree's last steps, under 32 threads) %s"),
                    over(runs).c_str()),
           ""}};
}

std::vector<ExerciseCheck> check_first_add(const Exercise& x, const ExerciseEvidence& e) {
  std::vector<ExerciseCheck> out;
  ExerciseCheck half{_("half the blocks"), true, "", ""};
  for (const ExerciseRun& r : e.runs) {
    const uint64_t want = std::max<uint64_t>(1, (r.n + 2ull * r.block_size - 1) / (2ull * r.block_size));
    if (r.grid > want) {
      half.pass = false;
      half.figure = strf(_("%s: the first launch has %u blocks; half would be %llu"), at(r).c_str(), r.grid,
                             ull(want));
      half.hint = _("load two elements per thread and add them on the way into shared memory: i = blockIdx.x * "
                    "(blockDim.x * 2) + threadIdx.x; sdata[tid] = in[i] + in[i + blockDim.x] (each checked against "
                    "n), and say RS_LAUNCH_SHAPE(2, ...) so the host launches half the blocks");
      break;
    }
  }
  if (half.pass) {
    half.figure = strf(_("every first launch has ceil(N / 2B) blocks or fewer (%zu runs)"), e.runs.size());
  }
  out.push_back(half);
  if (x.reference_kernel) {
    out.push_back(timing_check(x, e, _("the timing runs on the GPU after the sums"),
                               _("%.4f ms against %s's %.4f ms (N = %llu, B = %u, medians, cold L2): %.2fx"),
                               _("half the blocks do twice the loads each, so fewer threads sit idle in the tree: "
                                 "the first add must happen during the load, not in shared memory")));
  }
  return out;
}

std::vector<ExerciseCheck> check_unroll(const ExerciseEvidence& e) {
  const auto runs = traced(e, [](const ExerciseRun& r) { return r.block_size >= 64; });
  const char* name = _("the last warp without __syncthreads()");
  if (runs.empty()) return {nothing_traced(name)};
  for (const ExerciseRun* r : runs) {
    const int most = static_cast<int>(log2u(r->block_size)) - 5;  // the load's, then one per s = B/2 ... 64
    if (r->features->barriers > most) {
      return {{name, false,
               strf(_("%s: thread 0 passed %d __syncthreads(); with the last warp unrolled it passes at most %d"),
                        at(*r).c_str(), r->features->barriers, most),
               _("when s <= 32 only the first warp adds: stop the loop at s > 32 and unroll the six steps s = 32 ... 1 "
                 "in one if (tid < 32) block with __syncwarp() between them (Harris's Reduction #5 relies on volatile "
                 "and warp-synchronous execution; since Volta the lanes need __syncwarp)")}};
    }
  }
  return {{name, true, strf(_("at most log2(B) - 5 __syncthreads() per thread %s"), over(runs).c_str()), ""}};
}

// The shuffle exercise's hint where warp 0 finished without shuffles.
constexpr const char* kShuffleHint = N_("when 64 elements are left, let warp 0 take v = sdata[tid] + sdata[tid + 32] "
                                        "into a register and finish with v += __shfl_down_sync(0xffffffff, v, offset) "
                                        "for offset = 16, 8, 4, 2, 1");

std::vector<ExerciseCheck> check_shuffle(const ExerciseEvidence& e) {
  const auto runs = traced(e, [](const ExerciseRun&) { return true; });
  const char* name = _("the last warp with shuffles");
  if (runs.empty()) return {nothing_traced(name)};
  bool redux_unseen = false;
  for (const ExerciseRun* r : runs) {
    const TraceFeatures& f = *r->features;
    if (f.warp0_shuffles < 5 && f.warp0_reduces == 0 && f.binary && e.redux_in_ptx) {
      // A right answer is never failed: the warps finish with REDUX, which this tracer cannot see. Said as such, and
      // what could not be checked named.
      redux_unseen = true;
      continue;
    }
    if (f.warp0_shuffles < 5 && f.warp0_reduces == 0 && f.binary && e.ptx_read) {
      // The PTX has no redux.sync: there is no warp reduce for the tracer to miss (issue 57, item 5).
      return {{name, false,
               strf(_("%s: warp 0 made %d shuffles and no warp reduce (the kernel's PTX has no redux.sync, the warp "
                      "reduce's instruction); a warp finishes in registers with 5 shuffles (offsets 16, 8, 4, 2, 1)"),
                    at(*r).c_str(), f.warp0_shuffles),
               _(kShuffleHint)}};
    }
    if (f.warp0_shuffles < 5 && f.warp0_reduces == 0 && f.binary) {
      // What the tracer cannot see is said as such: a warp reduce compiles to REDUX, which it does not record.
      return {{name, false,
               strf(_("%s: the binary tracer saw warp 0 make %d shuffles; it does not see warp reduces (REDUX: "
                      "__reduce_add_sync, and cg::reduce or CUB on integers), so a warp that finishes with one cannot "
                      "be judged here yet"),
                    at(*r).c_str(), f.warp0_shuffles),
               _("finish the warp with __shfl_down_sync(0xffffffff, v, offset) for offset = 16, 8, 4, 2, 1, which the "
                 "binary tracer sees, or write the kernel in the wrapped dialect (reducescope new --wrapped)")}};
    }
    if (f.warp0_shuffles < 5 && f.warp0_reduces == 0) {
      return {{name, false,
               strf(_("%s: warp 0 made %d shuffles and no warp reduce; a warp finishes in registers with 5 shuffles "
                      "(offsets 16, 8, 4, 2, 1) or one __reduce_add_sync"),
                    at(*r).c_str(), f.warp0_shuffles),
               _(kShuffleHint)}};
    }
    if (f.wide_stores_after_lane_op > 0) {
      return {{name, false,
               strf(_("%s: after their first shuffle, warps stored several lanes' values to shared memory at once, %d "
                      "times (first at line %u); between warps, shared memory carries one value per warp"),
                    at(*r).c_str(), f.wide_stores_after_lane_op, f.wide_store_line),
               _("after the shuffles each warp's sum is in one lane: let that lane (lane 0) store it, one word per "
                 "warp, and let one warp add those words with shuffles again (or write the block's sum directly)")}};
    }
    if (f.words_after_lane_op > f.warps) {
      return {{name, false,
               strf(_("%s: after the shuffles %d shared words were written, more than one per warp (%d warps)"),
                    at(*r).c_str(), f.words_after_lane_op, f.warps),
               _("after the shuffles each warp's sum is in one lane: let that lane (lane 0) store it, one word per "
                 "warp, and let one warp add those words with shuffles again (or write the block's sum directly)")}};
    }
  }
  if (redux_unseen) {
    return {{name, true,
             strf(_("the warps finish in registers with REDUX (redux.sync in the kernel's PTX: __reduce_add_sync, "
                    "cg::reduce or CUB); the binary tracer does not record REDUX, so what shared memory carries after "
                    "it was not traced %s"),
                  over(runs).c_str()),
             ""}};
  }
  return {{name, true,
           strf(_("warp 0 finishes in registers (5 or more shuffles, or a warp reduce), and after that shared memory "
                  "carries at most one value per warp %s"),
                over(runs).c_str()),
           ""}};
}

std::vector<ExerciseCheck> check_single_pass(const ExerciseEvidence& e) {
  for (const ExerciseRun& r : e.runs) {
    if (r.launches != 1) {
      return {{_("one launch"), false, strf(_("%s: %u launches"), at(r).c_str(), r.launches),
               _("finish in the kernel: each block writes its partial to out[2 + blockIdx.x], __threadfence(), then "
                 "thread 0 takes a ticket with atomicAdd on the counter out[1]; the block that draws the last ticket "
                 "adds the partials, writes out[0] and sets out[1] back to 0. RS_LAUNCH_SHAPE(..., SinglePass, ...)")}};
    }
  }
  std::string ns;
  std::vector<uint64_t> seen;
  for (const ExerciseRun& r : e.runs) {
    if (std::find(seen.begin(), seen.end(), r.n) != seen.end()) continue;
    seen.push_back(r.n);
    ns += (ns.empty() ? "" : ", ") + std::to_string(r.n);
  }
  std::vector<ExerciseCheck> out = {{_("one launch"), true, strf(_("1 launch at N = %s, every block size"), ns.c_str()), ""}};
  // The ticket counter must be back at 0 after every run: a kernel that never resets it passes one run and then
  // leaves out[0] alone (the result word is poisoned before each run, so the sums fail too; this says why).
  size_t reset = 0, checked = 0;
  const ExerciseRun* bad = nullptr;
  for (const ExerciseRun& r : e.runs) {
    if (!r.ticket_after) continue;
    ++checked;
    if (*r.ticket_after == 0) ++reset;
    else if (!bad) bad = &r;
  }
  if (checked > 0) {
    if (bad) {
      out.push_back({_("ticket counter reset"), false,
                     strf(_("%s: the counter out[1] is %u after the run, not 0"), at(*bad).c_str(), *bad->ticket_after),
                     _("the block that draws the last ticket must set out[1] back to 0 before it exits (or take the "
                       "ticket with atomicInc(&out[1], gridDim.x - 1), which wraps to 0): the next launch starts "
                       "counting from whatever it leaves")});
    } else {
      out.push_back({_("ticket counter reset"), true, strf(_("out[1] back at 0 after all %zu runs"), reset), ""});
    }
  }
  return out;
}

// compute-sanitizer's verdict (issue 57, item 1): a hazard fails the check whatever the sums did; where the tools
// did not run, the check says so and is neither passed nor failed.
std::string finding_sentence(const SanitizerFinding& f) {
  const unsigned bs = f.block_size;
  const std::string b = bs ? "B = " + std::to_string(bs) : std::string("B = ?");
  if (f.tool == SanitizerTool::Racecheck) {
    const char* first = f.first_access == "Write" ? _("written") : _("read");
    const char* second = f.second_access == "Write" ? _("written") : _("read");
    const unsigned w1 = f.first_thread / 32, w2 = f.second_thread / 32;
    const std::string where = f.word >= 0 ? strf(_("shared word %lld"), static_cast<long long>(f.word))
                                          : std::string(_("shared memory"));
    if (w1 == w2) {
      return strf(_("race on %s inside warp %u: %s at line %u by lane %u, %s at line %u by lane %u, with no "
                    "__syncwarp() between (racecheck, %s)"),
                  where.c_str(), w1, first, f.first_line, f.first_thread % 32, second, f.second_line,
                  f.second_thread % 32, b.c_str());
    }
    return strf(_("race on %s: %s at line %u by warp %u, %s at line %u by warp %u, with no barrier between "
                  "(racecheck, %s)"),
                where.c_str(), first, f.first_line, w1, second, f.second_line, w2, b.c_str());
  }
  return strf(_("%s at line %u, thread %u (%s, %s)"), f.kind.c_str(), f.first_line, f.first_thread, to_string(f.tool),
              b.c_str());
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
// PTX (a binary trace) or the trace (the wrapped dialect), the lanes from the trace. "" for none.
std::string mask_violation(const ExerciseEvidence& e) {
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
      return strf(_("lanes %s call the shuffle at line %u, but its mask 0x%08x leaves them out (%s): every lane that "
                    "calls __shfl*_sync must be in its mask"),
                  lane_ranges(lanes & ~mask).c_str(), line, mask, at(r).c_str());
    }
  }
  return "";
}

ExerciseCheck check_hazards(const SanitizerEvidence& s, const std::string& mask_error = "") {
  ExerciseCheck c{_("no data race or sync error (compute-sanitizer)"), false, "", ""};
  if (!mask_error.empty()) {  // seen in the trace, whether or not the tools ran
    c.figure = mask_error;
    c.hint = _("pass 0xffffffff when all 32 lanes call the shuffle, or __activemask() where a branch leaves only some "
               "lanes; a mask that leaves out a calling lane is undefined since Volta, even when the sums come out "
               "right (CUDA C++ Programming Guide, Warp Shuffle Functions)");
    return c;
  }
  if (!s.why_not.empty()) {
    c.ran = false;
    c.figure = strf(_("not run: %s; races and barrier errors were not checked"), s.why_not.c_str());
    return c;
  }
  const SanitizerFinding* first = nullptr;
  size_t findings = 0;
  std::string not_run;
  for (const SanitizerReport& r : s.reports) {
    for (const SanitizerFinding& f : r.output.findings) {
      if (!first) first = &f;
      ++findings;
    }
    if (!r.ran && not_run.empty()) not_run = std::string(to_string(r.tool)) + ": " + r.why_not;
  }
  std::string sizes;
  for (unsigned bs : s.block_sizes) sizes += (sizes.empty() ? "" : ", ") + std::to_string(bs);
  if (first) {
    c.figure = finding_sentence(*first);
    if (findings > 1) c.figure += strf(_(" (and %zu more)"), findings - 1);
    c.hint = first->tool == SanitizerTool::Racecheck
                 ? _("a race changes the sum only when the two accesses come in the wrong order, so the sums can be "
                     "right on every run and the kernel still wrong: put a barrier between the write and the read "
                     "(__syncthreads() between warps, __syncwarp() inside one), or pass the values in registers "
                     "with shuffles")
             : first->tool == SanitizerTool::Synccheck
                 ? _("every thread that calls a __shfl_*_sync, __syncwarp() or vote must be in its mask "
                     "(0xffffffff when all 32 lanes call it), and every thread of the block must reach each "
                     "__syncthreads()")
                 : _("an access outside the buffers, or misaligned: guard each index (i < n) before its load or store");
    return c;
  }
  if (!not_run.empty()) {
    c.ran = false;
    c.figure = strf(_("not run: %s; races and barrier errors were not checked"), not_run.c_str());
    return c;
  }
  c.pass = true;
  c.figure = strf(_("racecheck, synccheck and memcheck found nothing at N = %llu, B = %s"), ull(s.n), sizes.c_str());
  return c;
}

// The fence of a single pass (issue 57, item 2; grading/fence.hpp).
ExerciseCheck check_fence(const FenceFinding& f) {
  ExerciseCheck c{_("partials published before the ticket"), false, "", ""};
  if (!f.judged) {
    c.ran = false;
    c.figure = strf(_("not judged: the kernel's %s could not be read (%s)"), f.code.c_str(), f.why_not.c_str());
    return c;
  }
  if (f.missing) {
    c.figure = strf(_("line %u stores to global memory and line %u takes the ticket, with no GPU-scope fence "
                      "between them on some path (read from the kernel's %s)"),
                    f.store_line, f.atomic_line, f.code.c_str());
    c.hint = _("put __threadfence() between the partial's store and the atomic that takes the ticket (or take the "
               "ticket with cuda::atomic_ref and memory_order_acq_rel). Without it the store and the ticket can reach "
               "L2 in either order, and the last block can add a partial that has not landed. The sums come out "
               "right almost always, because the store has nearly always landed by the time the last block reads "
               "it (CUDA C++ Programming Guide, Memory Fence Functions)");
    return c;
  }
  c.pass = true;
  c.figure = f.stores_before_ticket
                 ? strf(_("a GPU-scope fence between every store and the ticket, on every path (read from the "
                          "kernel's %s)"),
                        f.code.c_str())
                 : strf(_("no store to global memory before the ticket: nothing to publish (read from the kernel's "
                          "%s)"),
                        f.code.c_str());
  return c;
}

}  // namespace

TraceFeatures features_of(const Replay& replay) {
  TraceFeatures f;
  f.warps = replay.num_warps();
  f.bank_conflicts = replay.load_conflicts() + replay.store_conflicts();
  for (const WarpAccess& a : replay.accesses()) {
    if (a.banks.degree > f.worst_degree && a.banks.degree > 1) {
      f.worst_degree = a.banks.degree;
      f.worst_conflict_line = a.line;
    }
  }
  f.binary = replay.meta().tracer == Tracer::Binary;
  std::map<uint32_t, uint32_t> first_lane_op;  // warp -> epoch of its first shuffle or warp reduce
  for (const WarpShuffle& s : replay.shuffles()) {
    auto [it, fresh] = first_lane_op.emplace(s.warp, s.epoch);
    if (!fresh) it->second = std::min(it->second, s.epoch);
    if (s.kind == AccessKind::Shuffle) {
      f.shuffle_lanes_by_line[s.line] |= s.lanes;
      if (!f.binary && s.member_mask) f.shuffle_mask_by_line[s.line] |= s.member_mask;
    }
    if (s.warp != 0) continue;
    if (s.kind == AccessKind::Shuffle) ++f.warp0_shuffles;
    else ++f.warp0_reduces;
  }
  std::set<uint32_t> words;
  for (const WarpAccess& a : replay.accesses()) {
    const auto it = first_lane_op.find(a.warp);
    if (a.kind != AccessKind::Store || it == first_lane_op.end() || a.epoch < it->second) continue;
    if (std::popcount(a.lanes) > 1) {
      if (!f.wide_stores_after_lane_op) f.wide_store_line = a.line;
      ++f.wide_stores_after_lane_op;
    }
    for (int l = 0; l < 32; ++l) {
      if (a.lanes >> l & 1) words.insert(a.addr[l] / 4);
    }
  }
  f.words_after_lane_op = static_cast<int>(words.size());
  for (const GlobalRequest& g : replay.global_requests()) {
    if (g.kind != AccessKind::GlobalLoad) continue;
    ++f.global_load_requests;
    f.global_load_sectors += g.sectors;
  }
  for (const WarpAccess& a : replay.accesses()) {
    ++f.shared_accesses;
    f.shared_wavefronts += std::max(1, static_cast<int>(a.banks.degree));
  }
  double eff = 0;
  int working = 0;
  for (const Step& s : replay.steps()) {
    double lanes = 0;
    int here = 0;
    for (const WarpStep& w : s.warps) {
      if (!w.active()) continue;
      eff += w.efficiency;
      ++working;
      lanes += std::popcount(w.useful);
      ++here;
    }
    f.lanes_per_step.push_back(here ? lanes / here : 0);
  }
  f.lane_efficiency = working ? eff / working : 0;
  for (size_t i = 0; i < replay.num_steps(); ++i) {
    const Step& s = replay.step(i);
    int diverged = 0;
    for (const WarpStep& w : s.warps) diverged += w.diverged ? 1 : 0;
    if (diverged > f.most_diverged_warps) {
      f.most_diverged_warps = diverged;
      f.most_diverged_step = i;
      f.diverged_line = s.lines.empty() ? 0 : s.lines.front();
    }
    if (s.ended_by == StepEnd::BlockBarrier) ++f.barriers;
  }
  return f;
}

const std::vector<Exercise>& exercises() {
  static const std::vector<uint64_t> kNs = {1, 33, 1000, 4097, 1000003, 1u << 24};
  // Block 0 traced at N = 4097 alone: block 0 is full there at every block size and elements per thread (up to 4096),
  // as at 1000003, so a second N traced the same block's work again; a check under 3 s (issue 40).
  static const std::vector<uint64_t> kTraceNs = {4097};
  static const std::vector<Exercise> table = {
      {"bank_conflicts", N_("reduce1 without shared-memory bank conflicts"),
       N_("Harris, Optimizing Parallel Reduction in CUDA, Reduction #2 -> #3 (sequential addressing)"), "reduce1",
       "reduce2", kNs, kTraceNs},
      {"divergence", N_("reduce0 without divergent warps in the tree steps"),
       N_("Harris, Reduction #1 -> #2 (interleaved addressing with a strided index)"), "reduce0", "reduce1", kNs,
       kTraceNs},
      {"first_add", N_("the first add during the global load: half the blocks, at least 1.5x reduce2"),
       N_("Harris, Reduction #4 (first add during load)"), "reduce2", "reduce3", kNs, kTraceNs, "reduce2", 1.5},
      {"unroll_last_warp", N_("the last warp's six steps without __syncthreads()"),
       N_("Harris, Reduction #5 (unroll the last warp)"), "reduce3", "reduce4", kNs, kTraceNs},
      {"shuffle", N_("the last warp with __shfl_down_sync instead of shared memory"),
       N_("The lecture's warp-shuffle reduction; CUDA Programming Guide, Warp Shuffle Functions"), "reduce3", "", kNs,
       kTraceNs},
      {"single_pass", N_("a single-pass finish: one launch, right at N = 1, 33, 1000003 and 2^24"),
       N_("The modern track's single-pass reduction (the last block finishes; threadFenceReduction in cuda-samples)"),
       "reduce3", "", {1, 33, 4097, 1000003, 1u << 24}, {4097}},
      // A histogram, not a sum: N is bytes of text (histogram.hpp, 7 letter bins), odd sizes among them; timed on
      // 2^26 bytes (the course track's size, docs/tracks.md).
      {"histogram", N_("the text histogram privatised in shared memory: at least 10x histo_basic"),
       N_("The course's histogram notes (seeds/004): Shared memory atomics for histogram (privatisation)"),
       "histo_basic", "histo_private", {1, 33, 1000, 4097, 1000003, 1u << 24}, {}, "histo_basic", 10.0},
  };
  return table;
}

const Exercise* find_exercise(const std::string& name) {
  for (const Exercise& x : exercises()) {
    if (name == x.name) return &x;
  }
  return nullptr;
}

std::string exercise_names() {
  std::string s;
  for (const Exercise& x : exercises()) s += (s.empty() ? "" : ", ") + std::string(x.name);
  return s;
}

// The exercise histogram: every bin right, the bins privatised in shared memory, at least min_speedup x the
// reference kernel.
std::vector<ExerciseCheck> check_histogram(const Exercise& x, const ExerciseEvidence& e) {
  std::vector<ExerciseCheck> out;
  ExerciseCheck bins{_("bins right"), true, "", ""};
  const ExerciseRun* first = nullptr;
  int wrong = 0;
  for (const ExerciseRun& r : e.runs) {
    if (!r.right) {
      ++wrong;
      if (!first) first = &r;
    }
  }
  if (e.runs.empty()) {
    bins = {_("bins right"), false, _("the kernel was not run"), ""};
  } else if (first) {
    bins.pass = false;
    bins.figure = strf(_("%d of %zu histograms wrong; first at %s: %s, expected %s"), wrong, e.runs.size(),
                       at(*first).c_str(), first->got.c_str(), first->expected.c_str());
    bins.hint = _("each byte is counted once: a grid-stride loop from threadIdx.x + blockIdx.x * blockDim.x by "
                  "blockDim.x * gridDim.x, while i < n; the private bins are zeroed before __syncthreads() and "
                  "added to the global bins after a second one");
  } else {
    const auto [lo, hi] = n_span(e.runs);
    bins.figure = strf(_("all 7 bins equal the CPU's in all %zu runs (N = %llu ... %llu bytes of text, every block "
                         "size)"),
                       e.runs.size(), ull(lo), ull(hi));
  }
  out.push_back(bins);
  ExerciseCheck priv{_("private bins in shared memory"), e.shared_atomics, "", ""};
  if (e.shared_atomics) {
    priv.figure = _("the kernel makes shared-memory atomics (atom.shared in its PTX): each block counts into its own "
                    "copy of the bins");
  } else {
    priv.figure = _("no shared-memory atomic in the kernel's PTX: every count goes to the global bins");
    priv.hint = _("declare __shared__ unsigned int histo_s[7], zero it, count into it with atomicAdd, then add each "
                  "bin to the global bins once per block");
  }
  out.push_back(priv);
  if (x.reference_kernel) {
    out.push_back(timing_check(x, e, _("the timing runs on the GPU after the bins are checked"),
                               _("%.4f ms against %s's %.4f ms (%llu bytes of text, B = %u, medians, cold L2): %.2fx"),
                               _("the seven global counters are the bottleneck: every thread of the GPU waits on "
                                 "them. Count into shared memory first, so each block touches the global bins only "
                                 "7 times")));
  }
  return out;
}

std::string unwritten_result_note() {
  return _("(out[0] as ReduceScope poisoned it before the run: no block wrote the result)");
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

std::string exercise_report_json(const Exercise& x, const ExerciseEvidence& ev) {
  if (ev.user_ms <= 0 || !x.reference_kernel) return "";
  const ExerciseEvidence* e = &ev;
  const bool bytes = std::string(x.name) == "histogram";  // its input is text: one byte an element
  const double input_bytes = static_cast<double>(e->timing_n) * (bytes ? 1 : 4);
  nlohmann::json rep = {{"block_size", e->timing_block_size},
                        {"input_bytes", input_bytes},
                        {"gbps", input_bytes / (e->user_ms * 1e6)},
                        {"reference_kernel", x.reference_kernel},
                        {"x_reference", e->reference_ms > 0 ? e->reference_ms / e->user_ms : 0.0},
                        {"proof", "The trace's counts are Nsight Compute's for the traced block: `reducescope verify` "
                                  "shows them equal on every counter (docs/gpu-results.md); no counter permission "
                                  "is needed to take them."}};
  if (e->copy_gbps > 0) {
    rep["copy_gbps"] = e->copy_gbps;
    rep["pct_copy_ceiling"] = 100.0 * (input_bytes / (e->user_ms * 1e6)) / e->copy_gbps;
  }
  if (e->blocks_per_sm > 0 && e->max_threads_per_sm > 0) {
    rep["blocks_per_sm"] = e->blocks_per_sm;
    rep["registers"] = e->registers;
    rep["occupancy_pct"] = std::min(100.0, 100.0 * e->blocks_per_sm * e->timing_block_size / e->max_threads_per_sm);
  }
  if (const auto& f = e->report_trace) {
    if (f->global_load_requests) {
      rep["sectors_per_request"] = static_cast<double>(f->global_load_sectors) / f->global_load_requests;
    }
    if (f->shared_accesses) {
      rep["bank_conflict_ways_per_access"] = static_cast<double>(f->shared_wavefronts) / f->shared_accesses;
    }
    rep["active_lanes_pct"] = 100.0 * f->lane_efficiency;
    rep["active_lanes_per_step"] = f->lanes_per_step;  // mean lanes of the working warps, step by step
  }
  return rep.dump();
}

std::string exercise_report_line(const std::string& report_json) {
  if (report_json.empty()) return "";
  nlohmann::json p;
  try {
    p = nlohmann::json::parse(report_json);
  } catch (const nlohmann::json::exception&) {
    return "";
  }
  std::string s = number_text("%.0f GB/s", p.value("gbps", 0.0));
  if (p.contains("pct_copy_ceiling")) {
    s += " = " + number_text("%.0f%%", p["pct_copy_ceiling"].get<double>()) + " of the copy ceiling (" +
         number_text("%.0f GB/s", p.value("copy_gbps", 0.0)) + ")";
  }
  if (p.contains("x_reference")) {
    s += ", " + number_text("%.2f", p["x_reference"].get<double>()) + "x " + p.value("reference_kernel", std::string());
  }
  s += " at " + std::to_string(p.value("block_size", 0)) + " threads";
  if (p.contains("sectors_per_request")) {
    s += "; " + number_text("%.1f", p["sectors_per_request"].get<double>()) + " sectors per global load";
  }
  if (p.contains("bank_conflict_ways_per_access")) {
    s += "; " + number_text("%.2f", p["bank_conflict_ways_per_access"].get<double>()) + "-way shared accesses on average";
  }
  if (p.contains("active_lanes_pct")) s += "; " + number_text("%.0f%%", p["active_lanes_pct"].get<double>()) + " of lanes active";
  if (p.contains("occupancy_pct")) {
    s += "; theoretical occupancy " + number_text("%.0f%%", p["occupancy_pct"].get<double>()) + " (" +
         std::to_string(p.value("blocks_per_sm", 0)) + " blocks per SM, " + std::to_string(p.value("registers", 0)) +
         " registers)";
  }
  return s;
}

std::string exercise_json(const Exercise& x, const std::string& file, const std::vector<ExerciseCheck>& checks,
                          const ExerciseEvidence* e) {
  nlohmann::json j;
  j["exercise"] = x.name;
  j["file"] = file;
  j["passed"] = all_passed(checks);
  j["checks"] = checks_to_json(checks);
  if (e && e->user_ms > 0 && x.reference_kernel) {
    const bool bytes = std::string(x.name) == "histogram";  // its input is text: one byte an element
    const double input_bytes = static_cast<double>(e->timing_n) * (bytes ? 1 : 4);
    j["timing"] = {{"n", e->timing_n},
                   {"block_size", e->timing_block_size},
                   {"user_ms", e->user_ms},
                   {"reference_kernel", x.reference_kernel},
                   {"reference_ms", e->reference_ms},
                   {"gbps", input_bytes / (e->user_ms * 1e6)},
                   {"x_reference", e->reference_ms > 0 ? e->reference_ms / e->user_ms : 0.0}};
    j["report"] = nlohmann::json::parse(exercise_report_json(x, *e));
  }
  return j.dump(2) + "\n";
}

}  // namespace rs
