#include "questions.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "kernel_info.hpp"
#include "multigpu.hpp"
#include "replay.hpp"
#include "session.hpp"
#include "stored.hpp"  // two_runs_sentence
#include "two_runs.hpp"

namespace rs::explain {
namespace {

constexpr const char* kAskWarps = N_("Which warps make an instruction in step {0}? (click them)");
// The same for the room (class mode): nothing to click.
constexpr const char* kAskWarpsRoom = N_("Which warps make an instruction in step {0}?");
constexpr const char* kAskLanes = N_("How many lanes of warp {0} make an instruction in step {1}?");
constexpr const char* kAskConflictLoad = N_("Warp {0}'s shared load at line {1}: how many ways does it conflict?");
constexpr const char* kAskConflictStore = N_("Warp {0}'s shared store at line {1}: how many ways does it conflict?");
constexpr const char* kAskValue = N_("What will shared word {0} hold after step {1}?");
constexpr const char* kAskShuffle = N_("After the shuffle at line {0}, whose value does lane {1} of warp {2} hold?");
constexpr const char* kAskSectors = N_("How many 32-byte sectors does warp {0}'s global load at line {1} touch?");
constexpr const char* kAskFastest = N_("Which block size is fastest for {0} on {1}?");
constexpr const char* kAskSpeedup = N_("At {0} threads on {1}, how many times faster than {2} is {3}?");
constexpr const char* kAskSameBits = N_("{0} ran {1} times at {2} threads on the same float32 input: do all the runs "
                                        "give the same bits?");
constexpr const char* kAskBitsBlocks = N_("Does {0} give the same float32 bits at {1} threads as at {2} threads, in "
                                          "every run?");
constexpr const char* kAskPart = N_("Two runs of {0}'s block {1} at {2} threads, on the same input: at which of the "
                                    "block's float atomic updates (1 = the first to land) do they first round "
                                    "differently?");

// The pitfalls (issue 57, item 4).
constexpr const char* kAskRunsRight = N_("{0} ran {1} times at {2} threads on the same input: in how many of the runs "
                                         "did its sum come out right?");
constexpr const char* kAskRaceWrite = N_("racecheck watched one block of {0} at {1} threads: the shared write at line "
                                         "{2} races with another access to the same word, with no barrier between. At "
                                         "which line is that access?");
constexpr const char* kAskRaceRead = N_("racecheck watched one block of {0} at {1} threads: the shared read at line {2} "
                                        "races with another access to the same word, with no barrier between. At "
                                        "which line is that access?");
constexpr const char* kAskDistinct = N_("{0} ran {1} times at {2} threads on the same float32 input: how many different "
                                        "sums did the runs give?");
constexpr const char* kWhyAllRight = N_("all {0} runs gave the right sum: the bug did not change the sum here, so no "
                                        "number of runs shows it (racecheck does); any answer from {1} to {2} counts.");
constexpr const char* kWhyNoneRight = N_("none of the {0} runs gave the right sum; any answer from {1} to {2} counts.");
constexpr const char* kWhySomeRight = N_("{0} of the {1} runs gave the right sum: the bug shows only when the threads' "
                                         "timing exposes it; any answer from {2} to {3} counts.");
constexpr const char* kWhyRace = N_("racecheck reported line {0} and line {1} touching shared word(s) {2} of one block "
                                    "with no barrier between ({3} hazards, one per byte).");
constexpr const char* kWhyDistinct = N_("its {0} runs gave {1} different sums: the atomics land in another order each "
                                        "run, and float addition rounds differently in each order; any answer from {2} "
                                        "to {3} counts.");

// The multigpu track's ring (issue 57, item 4).
constexpr const char* kAskRingChunk = N_("The ring all-reduce of {0} per GPU over {1} GPUs: at step {2}, the all-gather's "
                                         "first, which chunk (0 to {3}) does GPU 0 send to GPU 1?");
constexpr const char* kAskRingBytes = N_("The ring all-reduce of {0} per GPU ({1} bytes) over {2} GPUs: how many bytes "
                                         "does GPU 0 send to GPU 1 in the whole all-reduce?");
constexpr const char* kWhyRingChunk = N_("at step {0} GPU 0 sent chunk {1} ({2} bytes): after the reduce-scatter it holds "
                                         "that chunk fully summed, chunk (g + 1) mod G, and the all-gather passes it on.");
constexpr const char* kWhyRingBytes = N_("GPU 0 sent {0} chunks, {1} bytes in all: 2(G-1)/G = {2} of the buffer, the "
                                         "factor that turns algbw into busbw; any answer from {3} to {4} counts.");

constexpr const char* kRight = N_("Right: {0}");
constexpr const char* kWrong = N_("Not quite: {0}");
// Class mode: the step revealed to the room, with no one's answer graded.
constexpr const char* kReveal = N_("On the GPU: {0}");
constexpr const char* kNoAnswer = N_("No answer given: {0}");
constexpr const char* kWhyWarps = N_("warps {0} make an instruction in this step.");
constexpr const char* kWhyNoWarps = N_("no warp makes an instruction in this step.");
constexpr const char* kWhyLanes = N_("{0} of warp {1}'s 32 lanes make an instruction in this step.");
// No article before the number: "a 8-way" reads wrong in English ("an 8-way", but "a 2-way").
constexpr const char* kWhyConflict = N_("its lanes touch {0} distinct words in one bank, so it takes {0} wavefronts: "
                                        "{0}-way bank conflict.");
constexpr const char* kWhyNoConflict = N_("no bank serves two distinct words, so it takes one wavefront: no conflict "
                                          "(1-way).");
constexpr const char* kWhyValue = N_("word {0} holds {1} after this step.");
constexpr const char* kWhyOwn = N_("lane {0} keeps its own value (its source lane is outside the shuffle's width).");
constexpr const char* kWhyShuffle = N_("lane {0} receives lane {1}'s value ({2}).");
constexpr const char* kWhySectors = N_("its lanes' bytes fall in {0} sectors of 32 bytes; the fewest that could hold "
                                       "them is {1}.");
constexpr const char* kWhyFastest = N_("{0} is fastest ({1} ms median); within its spread: {2}.");
constexpr const char* kWhySpeedup = N_("{0} took {1} ms (median) and {2} {3} ms: {4}x; any answer from {5}x to {6}x "
                                       "counts (the timings' spread, at least 15 percent either way).");
constexpr const char* kWhyOneSum = N_("all {0} runs at {1} threads gave {2}.");
constexpr const char* kWhySums = N_("its {0} runs at {1} threads gave {2} different sums: float addition rounds each "
                                    "sum, so another order of the same additions can end in other bits, and the order "
                                    "changed from run to run.");
constexpr const char* kWhyBlocksSame = N_("every run at {0} and at {1} threads gave {2}.");
constexpr const char* kWhyBlocksDiffer = N_("its runs gave {0} different sums at {1} threads and {2} at {3} threads, "
                                            "not one and the same: the block size (or the run) changes the order of "
                                            "its additions.");

std::string num(int64_t v) { return std::to_string(v); }

std::string list(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

// A float32 in its shortest round-trip form, as the views print it (web/js/values.js, fmt).
std::string float_text(uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, 4);
  if (!std::isfinite(v) || v == 0.f) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", static_cast<double>(v));
    return b;
  }
  char b[48];
  for (int p = 1; p <= 9; ++p) {
    std::snprintf(b, sizeof b, "%.*g", p, static_cast<double>(v));
    if (std::strtof(b, nullptr) == v) break;
  }
  return b;
}

std::string value_text(int32_t bits, bool is_float) {
  return is_float ? float_text(static_cast<uint32_t>(bits)) : std::to_string(bits);
}

// Significant digits of a decimal number as typed ("0.0921" -> 3, "120" -> 3, "1.20e3" -> 3); 0 if none.
int significant_digits(const std::string& s) {
  int n = 0;
  bool started = false;
  for (char c : s) {
    if (c == 'e' || c == 'E') break;
    if (c < '0' || c > '9') continue;
    if (c != '0') started = true;
    if (started) ++n;
  }
  return n;
}

bool parse_double(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  *out = std::strtod(s.c_str(), &end);
  while (end && (*end == ' ' || *end == '\t')) ++end;
  return end && *end == '\0' && end != s.c_str();
}

}  // namespace

const char* to_string(QuestionKind k) {
  switch (k) {
    case QuestionKind::WorkingWarps: return "warps";
    case QuestionKind::ActiveLanes: return "lanes";
    case QuestionKind::Conflict: return "conflict";
    case QuestionKind::WordValue: return "value";
    case QuestionKind::ShuffleSource: return "shuffle";
    case QuestionKind::Sectors: return "sectors";
    case QuestionKind::FastestBlock: return "fastest";
    case QuestionKind::Speedup: return "speedup";
    case QuestionKind::SameBits: return "bits";
    case QuestionKind::BitsAcrossBlocks: return "bits_blocks";
    case QuestionKind::PartAt: return "part";
    case QuestionKind::RunsRight: return "runs_right";
    case QuestionKind::RaceLine: return "race_line";
    case QuestionKind::DistinctSums: return "distinct_sums";
    case QuestionKind::RingChunk: return "ring_chunk";
    case QuestionKind::RingBytes: return "ring_bytes";
  }
  return "?";
}

bool is_session_kind(QuestionKind k) {
  return k == QuestionKind::FastestBlock || k == QuestionKind::Speedup || k == QuestionKind::SameBits ||
         k == QuestionKind::BitsAcrossBlocks || k == QuestionKind::PartAt || k == QuestionKind::RunsRight ||
         k == QuestionKind::RaceLine || k == QuestionKind::DistinctSums || k == QuestionKind::RingChunk ||
         k == QuestionKind::RingBytes;
}

std::optional<QuestionKind> parse_question_kind(const std::string& name) {
  for (int k = 0; k <= static_cast<int>(QuestionKind::RingBytes); ++k) {
    if (name == to_string(static_cast<QuestionKind>(k))) return static_cast<QuestionKind>(k);
  }
  return std::nullopt;
}

std::vector<Question> step_questions(const Replay& r, const TraceFacts& facts, size_t step) {
  std::vector<Question> out;
  if (step >= r.num_steps()) return out;
  const Step& st = r.step(step);
  const StepFacts f = step_facts(r, step);
  const bool binary = r.meta().tracer == Tracer::Binary;
  const bool is_float = r.meta().dtype == DType::Float32;
  // Who works is known only where the tracer records all of the step's work, and saw some: a step in which it
  // recorded no instruction at all (a binary trace's step between two of warp 0's shuffles, where the others ran
  // arithmetic it does not record) is no evidence that no warp worked.
  const bool work_seen = !f.unrecorded_work && facts.shared != Seen::NotTraced && f.active_warps > 0;
  if (work_seen) {
    Question q;
    q.kind = QuestionKind::WorkingWarps;
    q.step = step;
    q.ask = {kAskWarps, {num(static_cast<int64_t>(step))}};
    for (size_t w = 0; w < st.warps.size(); ++w) {
      if (st.warps[w].active()) q.key.push_back(static_cast<int64_t>(w));
    }
    q.key_text = list(q.key);
    out.push_back(q);

    // The first working warp with lanes sitting out, else the first working warp.
    size_t w = st.warps.size();
    for (size_t i = 0; i < st.warps.size(); ++i) {
      if (st.warps[i].active() && w == st.warps.size()) w = i;
      if (st.warps[i].active() && std::popcount(st.warps[i].useful) < 32) {
        w = i;
        break;
      }
    }
    if (w < st.warps.size()) {
      Question l;
      l.kind = QuestionKind::ActiveLanes;
      l.step = step;
      l.warp = static_cast<int>(w);
      l.ask = {kAskLanes, {num(static_cast<int64_t>(w)), num(static_cast<int64_t>(step))}};
      l.key = {std::popcount(st.warps[w].useful)};
      l.key_text = num(l.key[0]);
      out.push_back(l);
    }
  }
  // The step's worst shared access (the first of them).
  {
    const WarpAccess* worst = nullptr;
    size_t at = 0;
    for (size_t i : st.accesses) {
      const WarpAccess& a = r.accesses()[i];
      if (a.kind != AccessKind::Load && a.kind != AccessKind::Store) continue;
      if (!worst || a.banks.degree > worst->banks.degree) worst = &a, at = i;
    }
    if (worst && worst->banks.degree > 0) {
      Question q;
      q.kind = QuestionKind::Conflict;
      q.step = step;
      q.warp = static_cast<int>(worst->warp);
      q.index = static_cast<int64_t>(at);
      q.ask = {worst->kind == AccessKind::Load ? kAskConflictLoad : kAskConflictStore, {num(worst->warp), num(worst->line)}};
      q.key = {worst->banks.degree};
      q.key_text = num(worst->banks.degree);
      out.push_back(q);
    }
  }
  // The first shared word the step wrote, where the tracer gave its value.
  for (size_t k = 0; k < st.written.size(); ++k) {
    if (!st.written[k] || k >= st.defined.size() || !st.defined[k]) continue;
    Question q;
    q.kind = QuestionKind::WordValue;
    q.step = step;
    q.word = static_cast<int64_t>(k);
    q.ask = {kAskValue, {num(static_cast<int64_t>(k)), num(static_cast<int64_t>(step))}};
    q.key = {st.smem[k]};
    q.float_key = is_float;
    q.key_text = value_text(st.smem[k], is_float);
    out.push_back(q);
    break;
  }
  // A shuffle's source lane: source-probe traces only (their shuffles carry values and known sources).
  if (!binary) {
    for (size_t i : st.shuffles) {
      const WarpShuffle& s = r.shuffles()[i];
      if (s.kind != AccessKind::Shuffle || !s.values || !s.consistent) continue;
      const LaneMove* m = nullptr;
      for (const LaneMove& x : s.moves) {
        if (x.src != x.dst) { m = &x; break; }
      }
      if (!m) continue;
      Question q;
      q.kind = QuestionKind::ShuffleSource;
      q.step = step;
      q.warp = static_cast<int>(s.warp);
      q.lane = m->dst;
      q.index = static_cast<int64_t>(i);
      q.ask = {kAskShuffle, {num(s.line), num(m->dst), num(s.warp)}};
      q.key = {m->src};
      q.key_text = value_text(static_cast<int32_t>(m->value), s.float_values);  // what the lane received
      out.push_back(q);
      break;
    }
  }
  // The first global load's sectors.
  for (size_t i : st.global_requests) {
    const GlobalRequest& g = r.global_requests()[i];
    if (g.kind != AccessKind::GlobalLoad || g.sectors <= 0) continue;
    Question q;
    q.kind = QuestionKind::Sectors;
    q.step = step;
    q.warp = static_cast<int>(g.warp);
    q.index = static_cast<int64_t>(i);
    q.ask = {kAskSectors, {num(g.warp), num(g.line)}};
    q.key = {g.sectors, g.min_sectors};
    q.key_text = num(g.sectors);
    out.push_back(q);
    break;
  }
  return out;
}

const Question* default_question(const std::vector<Question>& qs) {
  for (QuestionKind k : {QuestionKind::Conflict, QuestionKind::ShuffleSource, QuestionKind::Sectors,
                         QuestionKind::WorkingWarps, QuestionKind::ActiveLanes}) {
    for (const Question& q : qs) {
      if (q.kind == k) return &q;
    }
  }
  return nullptr;
}

namespace {

std::string fixed2(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}

std::optional<Question> fastest_question(const Session& s, const std::string& kernel) {
  std::vector<const SessionTiming*> rows;
  for (const SessionTiming& t : s.timings) {
    if (t.kernel == kernel && t.correct && t.median_ms > 0) rows.push_back(&t);
  }
  if (rows.size() < 2) return std::nullopt;
  const SessionTiming* best = *std::min_element(rows.begin(), rows.end(), [](const auto* a, const auto* b) {
    return std::make_pair(a->median_ms, a->block_size) < std::make_pair(b->median_ms, b->block_size);
  });
  Question q;
  q.kind = QuestionKind::FastestBlock;
  q.kernel = kernel;
  q.ask = {kAskFastest, {kernel, s.meta.gpu}};
  // Every block size whose median lies within the fastest one's min..max: the timings cannot tell them apart.
  for (const SessionTiming* t : rows) {
    if (t->median_ms <= best->max_ms) q.key.push_back(t->block_size);
  }
  std::sort(q.key.begin(), q.key.end());
  q.index = best->block_size;
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.4f", best->median_ms);
  q.key_text = ms;  // the fastest one's median, for the reason
  q.why = {kWhyFastest, {num(q.index), q.key_text, list(q.key)}};
  return q;
}

std::optional<Question> speedup_question(const Session& s, const std::string& kernel, uint32_t bs) {
  const KernelInfo* k = find_kernel(kernel);
  if (!k) return std::nullopt;
  const std::vector<KernelId> order = track_kernels(k->track);
  const auto at = std::find_if(order.begin(), order.end(), [&](KernelId id) { return kernel_info(id).name == kernel; });
  if (at == order.end() || at == order.begin()) return std::nullopt;
  const std::string prev = kernel_info(*(at - 1)).name;
  const SessionTiming *t = s.find_timing(kernel, bs), *p = s.find_timing(prev, bs);
  if (!t || !p || !t->correct || !p->correct || t->median_ms <= 0 || p->median_ms <= 0) return std::nullopt;
  Question q;
  q.kind = QuestionKind::Speedup;
  q.kernel = kernel;
  q.block_size = bs;
  q.ask = {kAskSpeedup, {num(bs), s.meta.gpu, prev, kernel}};
  const double ratio = p->median_ms / t->median_ms;
  const double lo = t->max_ms > 0 ? p->min_ms / t->max_ms : ratio, hi = t->min_ms > 0 ? p->max_ms / t->min_ms : ratio;
  q.key_lo = std::min(lo, ratio * 0.85);
  q.key_hi = std::max(hi, ratio * 1.15);
  q.key_text = fixed2(ratio);
  char a[32], b[32];
  std::snprintf(a, sizeof a, "%.4f", p->median_ms);
  std::snprintf(b, sizeof b, "%.4f", t->median_ms);
  q.why = {kWhySpeedup, {prev, a, kernel, b, q.key_text, fixed2(q.key_lo), fixed2(q.key_hi)}};
  return q;
}

// The bits view's patterns of `kernel` that runs at `bs` gave: (bits, runs).
std::vector<std::pair<uint32_t, uint32_t>> patterns_at(const SessionBits& b, const std::string& kernel, uint32_t bs) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const BitsRow& r : b.rows) {
    if (r.kernel == kernel && std::find(r.block_sizes.begin(), r.block_sizes.end(), bs) != r.block_sizes.end()) {
      out.push_back({r.bits, r.count});
    }
  }
  return out;
}

std::optional<Question> same_bits_question(const Session& s, const std::string& kernel, uint32_t bs) {
  const auto pats = patterns_at(s.bits, kernel, bs);
  if (pats.empty() || s.bits.runs == 0) return std::nullopt;
  Question q;
  q.kind = QuestionKind::SameBits;
  q.kernel = kernel;
  q.block_size = bs;
  q.ask = {kAskSameBits, {kernel, num(s.bits.runs), num(bs)}};
  q.key = {pats.size() == 1 ? 1 : 0};
  q.key_text = pats.size() == 1 ? "yes" : "no";
  q.why = pats.size() == 1 ? Sentence{kWhyOneSum, {num(s.bits.runs), num(bs), float_text(pats[0].first)}}
                           : Sentence{kWhySums, {num(s.bits.runs), num(bs), num(static_cast<int64_t>(pats.size()))}};
  return q;
}

std::optional<Question> bits_blocks_question(const Session& s, const std::string& kernel) {
  std::vector<uint32_t> sizes;
  for (const BitsRow& r : s.bits.rows) {
    if (r.kernel == kernel) sizes.insert(sizes.end(), r.block_sizes.begin(), r.block_sizes.end());
  }
  if (sizes.empty()) return std::nullopt;
  const uint32_t lo = *std::min_element(sizes.begin(), sizes.end()), hi = *std::max_element(sizes.begin(), sizes.end());
  if (lo == hi || lo == 0) return std::nullopt;  // the CUB series has no block size (0)
  const auto a = patterns_at(s.bits, kernel, lo), b = patterns_at(s.bits, kernel, hi);
  const bool same = a.size() == 1 && b.size() == 1 && a[0].first == b[0].first;
  Question q;
  q.kind = QuestionKind::BitsAcrossBlocks;
  q.kernel = kernel;
  q.ask = {kAskBitsBlocks, {kernel, num(lo), num(hi)}};
  q.key = {same ? 1 : 0};
  q.key_text = same ? "yes" : "no";
  q.why = same ? Sentence{kWhyBlocksSame, {num(lo), num(hi), float_text(a[0].first)}}
               : Sentence{kWhyBlocksDiffer, {num(static_cast<int64_t>(a.size())), num(lo),
                                             num(static_cast<int64_t>(b.size())), num(hi)}};
  return q;
}

std::optional<Question> part_question(const Session& s, const std::string& kernel, uint32_t bs) {
  const Trace* t = s.find_trace(kernel, bs, DType::Float32);
  const Trace* o = t ? s.other_run(kernel, bs, DType::Float32) : nullptr;
  if (!o) return std::nullopt;
  TwoRuns r;
  try {
    r = compare_runs(*t, *o);
  } catch (const std::exception&) {
    return std::nullopt;  // traces the replay refuses, or of different inputs: no answer to give
  }
  if (!r.first_rounding) return std::nullopt;
  Question q;
  q.kind = QuestionKind::PartAt;
  q.kernel = kernel;
  q.block_size = bs;
  q.ask = {kAskPart, {kernel, num(t->meta.traced_block), num(bs)}};
  q.key = {static_cast<int64_t>(*r.first_rounding) + 1};
  q.key_text = num(q.key[0]);
  q.why = two_runs_sentence(r);
  return q;
}

// The pitfalls' runs: "wrong_runs" of "of N runs" (pitfall_words.hpp reads them the same way).
int recorded_runs(const SessionMetric& m) {
  return m.unit.rfind("of ", 0) == 0 ? std::atoi(m.unit.c_str() + 3) : 0;
}

bool is_surprise(const std::string& kernel) {
  const KernelInfo* k = find_kernel(kernel);
  return k && k->surprise;
}

std::optional<Question> runs_right_question(const Session& s, const std::string& kernel, uint32_t bs) {
  const SessionMetric* wrong = s.find_metric(kernel, bs, "wrong_runs");
  if (!wrong || is_surprise(kernel)) return std::nullopt;
  const int runs = recorded_runs(*wrong);
  if (runs <= 0) return std::nullopt;
  const int64_t right = runs - static_cast<int64_t>(wrong->value);
  Question q;
  q.kind = QuestionKind::RunsRight;
  q.kernel = kernel;
  q.block_size = bs;
  q.ask = {kAskRunsRight, {kernel, num(runs), num(bs)}};
  q.key = {right};
  q.key_text = num(right);
  q.key_lo = static_cast<double>(std::max<int64_t>(0, right - 10));
  q.key_hi = static_cast<double>(std::min<int64_t>(runs, right + 10));
  const std::string lo = num(static_cast<int64_t>(q.key_lo)), hi = num(static_cast<int64_t>(q.key_hi));
  q.why = right == runs ? Sentence{kWhyAllRight, {num(runs), lo, hi}}
          : right == 0  ? Sentence{kWhyNoneRight, {num(runs), lo, hi}}
                        : Sentence{kWhySomeRight, {num(right), num(runs), lo, hi}};
  return q;
}

std::optional<Question> race_line_question(const Session& s, const std::string& kernel, uint32_t bs) {
  const std::vector<const SessionRace*> races = s.races_of(kernel, bs);
  if (races.empty()) return std::nullopt;
  const SessionRace& r = *races.front();
  Question q;
  q.kind = QuestionKind::RaceLine;
  q.kernel = kernel;
  q.block_size = bs;
  q.ask = {r.first_access == "Write" ? kAskRaceWrite : kAskRaceRead, {kernel, num(bs), num(r.first_line)}};
  q.key = {static_cast<int64_t>(r.second_line)};
  q.key_text = num(r.second_line);
  std::vector<int64_t> words(r.words.begin(), r.words.end());
  if (words.size() > 8) words.resize(8);  // the first few: the sentence names the place, not every word
  std::string w = list(words) + (r.words.size() > 8 ? ", ..." : "");
  q.why = {kWhyRace, {num(r.first_line), num(r.second_line), w, num(r.hazards)}};
  return q;
}

std::optional<Question> distinct_sums_question(const Session& s, const std::string& kernel, uint32_t bs) {
  const SessionMetric* distinct = s.find_metric(kernel, bs, "distinct_sums");
  const SessionMetric* wrong = s.find_metric(kernel, bs, "wrong_runs");
  if (!distinct || !wrong || !is_surprise(kernel)) return std::nullopt;
  const int runs = recorded_runs(*wrong);
  const int64_t n = static_cast<int64_t>(distinct->value);
  if (runs <= 0 || n <= 0) return std::nullopt;
  const int64_t slack = std::max<int64_t>(2, (n + 5) / 10);
  Question q;
  q.kind = QuestionKind::DistinctSums;
  q.kernel = kernel;
  q.block_size = bs;
  q.ask = {kAskDistinct, {kernel, num(runs), num(bs)}};
  q.key = {n};
  q.key_text = num(n);
  q.key_lo = static_cast<double>(std::max<int64_t>(1, n - slack));
  q.key_hi = static_cast<double>(std::min<int64_t>(runs, n + slack));
  q.why = {kWhyDistinct, {num(runs), num(n), num(static_cast<int64_t>(q.key_lo)), num(static_cast<int64_t>(q.key_hi))}};
  return q;
}

// The session's largest traced ring all-reduce, or nullptr.
const RingRecording* largest_ring(const Session& s) {
  const RingRecording* best = nullptr;
  for (const RingRecording& r : s.multigpu.rings) {
    if (r.gpus >= 2 && !r.events.empty() && (!best || r.bytes > best->bytes)) best = &r;
  }
  return best;
}

std::optional<Question> ring_chunk_question(const Session& s) {
  const RingRecording* r = largest_ring(s);
  if (!r) return std::nullopt;
  const uint32_t step = r->gpus - 1;  // the all-gather's first step
  for (const RingEvent& e : r->events) {
    if (e.step != step || e.from != 0) continue;
    Question q;
    q.kind = QuestionKind::RingChunk;
    q.kernel = kMultiGpuTrack;
    q.ask = {kAskRingChunk, {bytes_label(r->bytes), num(r->gpus), num(step + 1), num(r->gpus - 1)}};
    q.key = {static_cast<int64_t>(e.chunk)};
    q.key_text = num(e.chunk);
    q.why = {kWhyRingChunk, {num(step + 1), num(e.chunk), num(static_cast<int64_t>(e.chunk_bytes))}};
    return q;
  }
  return std::nullopt;
}

std::optional<Question> ring_bytes_question(const Session& s) {
  const RingRecording* r = largest_ring(s);
  if (!r) return std::nullopt;
  uint64_t sent = 0;
  int64_t chunks = 0;
  for (const RingEvent& e : r->events) {
    if (e.from != 0) continue;
    sent += e.chunk_bytes;
    ++chunks;
  }
  if (!chunks) return std::nullopt;
  Question q;
  q.kind = QuestionKind::RingBytes;
  q.kernel = kMultiGpuTrack;
  q.ask = {kAskRingBytes, {bytes_label(r->bytes), num(static_cast<int64_t>(r->bytes)), num(r->gpus)}};
  q.key = {static_cast<int64_t>(sent)};
  q.key_text = num(static_cast<int64_t>(sent));
  q.key_lo = std::floor(0.99 * static_cast<double>(sent));
  q.key_hi = std::ceil(1.01 * static_cast<double>(sent));
  char factor[32];
  std::snprintf(factor, sizeof factor, "%.2f", static_cast<double>(sent) / static_cast<double>(r->bytes));
  q.why = {kWhyRingBytes, {num(chunks), num(static_cast<int64_t>(sent)), factor,
                           num(static_cast<int64_t>(q.key_lo)), num(static_cast<int64_t>(q.key_hi))}};
  return q;
}

}  // namespace

std::vector<Question> session_questions(const Session& s, const std::string& kernel, uint32_t block_size) {
  std::vector<Question> out;
  if (kernel == kMultiGpuTrack) {  // the ring: no kernel, no block size
    for (auto q : {ring_chunk_question(s), ring_bytes_question(s)}) {
      if (q) out.push_back(std::move(*q));
    }
    return out;
  }
  for (auto q : {fastest_question(s, kernel), speedup_question(s, kernel, block_size),
                 same_bits_question(s, kernel, block_size), bits_blocks_question(s, kernel),
                 part_question(s, kernel, block_size), runs_right_question(s, kernel, block_size),
                 race_line_question(s, kernel, block_size), distinct_sums_question(s, kernel, block_size)}) {
    if (q) out.push_back(std::move(*q));
  }
  return out;
}

Sentence reason(const Question& q) {
  switch (q.kind) {
    case QuestionKind::WorkingWarps:
      return q.key.empty() ? Sentence{kWhyNoWarps} : Sentence{kWhyWarps, {list(q.key)}};
    case QuestionKind::ActiveLanes:
      return {kWhyLanes, {num(q.key.at(0)), num(q.warp)}};
    case QuestionKind::Conflict:
      return q.key.at(0) > 1 ? Sentence{kWhyConflict, {num(q.key.at(0))}} : Sentence{kWhyNoConflict};
    case QuestionKind::WordValue:
      return {kWhyValue, {num(q.word), q.key_text}};
    case QuestionKind::ShuffleSource:
      return q.key.at(0) == q.lane ? Sentence{kWhyOwn, {num(q.lane)}}
                                   : Sentence{kWhyShuffle, {num(q.lane), num(q.key.at(0)), q.key_text}};
    case QuestionKind::Sectors:
      return {kWhySectors, {num(q.key.at(0)), num(q.key.at(1))}};
    case QuestionKind::FastestBlock:
    case QuestionKind::Speedup:
    case QuestionKind::SameBits:
    case QuestionKind::BitsAcrossBlocks:
    case QuestionKind::PartAt:
    case QuestionKind::RunsRight:
    case QuestionKind::RaceLine:
    case QuestionKind::DistinctSums:
    case QuestionKind::RingChunk:
    case QuestionKind::RingBytes:
      return q.why;
  }
  return {};
}

Sentence verdict_sentence(const Question& q, bool right) {
  Sentence v{right ? kRight : kWrong, {""}};
  v.with(0, reason(q));
  return v;
}

Sentence ask_for_room(const Question& q) {
  Sentence s = q.ask;
  if (s.id == std::string(kAskWarps)) s.id = kAskWarpsRoom;
  return s;
}

Sentence reveal_sentence(const Question& q) {
  Sentence v{kReveal, {""}};
  v.with(0, reason(q));
  return v;
}

namespace {

// Whether `a` answers `q` (grade's rules, without the words).
bool answers(const Question& q, const Answer& a) {
  const bool one = a.numbers.size() == 1;
  switch (q.kind) {
    case QuestionKind::WorkingWarps: {
      std::vector<int64_t> got = a.numbers;
      std::sort(got.begin(), got.end());
      got.erase(std::unique(got.begin(), got.end()), got.end());
      return got == q.key;
    }
    case QuestionKind::FastestBlock:
      return one && std::find(q.key.begin(), q.key.end(), a.numbers[0]) != q.key.end();
    case QuestionKind::WordValue:
      break;
    case QuestionKind::RunsRight:
    case QuestionKind::DistinctSums:
    case QuestionKind::RingBytes: {  // a count within the key's range
      double v;
      if (one) return a.numbers[0] >= q.key_lo && a.numbers[0] <= q.key_hi;
      return parse_double(a.text, &v) && v >= q.key_lo && v <= q.key_hi;
    }
    case QuestionKind::Speedup: {
      double v;
      std::string t = a.text;
      for (const char* x : {"x", "X", "\u00d7"}) {  // "2x", "2×"
        const size_t at = t.rfind(x);
        if (at != std::string::npos && at + std::strlen(x) == t.size()) t.erase(at);
      }
      while (!t.empty() && t.back() == ' ') t.pop_back();
      if (!parse_double(t, &v)) return one && a.numbers[0] >= q.key_lo && a.numbers[0] <= q.key_hi;
      return v >= q.key_lo && v <= q.key_hi;
    }
    default:
      return one && a.numbers[0] == q.key.at(0);
  }
  if (!q.float_key) {
    double v;
    return one ? a.numbers[0] == q.key.at(0) : parse_double(a.text, &v) && v == static_cast<double>(q.key.at(0));
  }
  double v;
  float key;
  const uint32_t bits = static_cast<uint32_t>(q.key.at(0));
  std::memcpy(&key, &bits, 4);
  if (!parse_double(a.text, &v)) return false;
  if (v == static_cast<double>(key)) return true;
  // To the significant digits given, at least 3 (or all of the key's shortest form where it has fewer).
  const int need = std::min(3, significant_digits(q.key_text));
  const int p = significant_digits(a.text);
  if (p < need || p > 9) return false;
  char b[48];
  std::snprintf(b, sizeof b, "%.*g", p, static_cast<double>(key));
  return std::strtod(b, nullptr) == std::strtod(a.text.c_str(), nullptr);
}

}  // namespace

Verdict grade(const Question& q, const Answer& a) {
  // "No warp" is an answer to which warps work (an empty click set); elsewhere an empty answer is none.
  const bool given = q.kind == QuestionKind::WorkingWarps || !a.numbers.empty() || !a.text.empty();
  Verdict v;
  v.right = given && answers(q, a);
  if (given) {
    v.why = verdict_sentence(q, v.right);
  } else {
    v.why = Sentence{kNoAnswer, {""}};
    v.why.with(0, reason(q));
  }
  return v;
}

const std::vector<const char*>& question_message_ids() {
  static const std::vector<const char*> ids = {
      kAskWarps, kAskLanes,   kAskValue,   kAskShuffle, kAskSectors,    kAskFastest, kRight,
      kWrong,    kNoAnswer,   kWhyWarps,      kWhyNoWarps, kWhyLanes,   kWhyConflict,   kWhyNoConflict,
      kWhyValue, kWhyOwn,     kWhyShuffle,    kWhySectors, kWhyFastest, kAskConflictLoad, kAskConflictStore,
      kReveal,   kAskWarpsRoom, kAskSpeedup, kAskSameBits, kAskBitsBlocks, kAskPart, kWhySpeedup, kWhyOneSum,
      kWhySums,  kWhyBlocksSame, kWhyBlocksDiffer, kAskRunsRight, kAskRaceWrite, kAskRaceRead, kAskDistinct,
      kWhyAllRight, kWhyNoneRight, kWhySomeRight, kWhyRace, kWhyDistinct, kAskRingChunk, kAskRingBytes,
      kWhyRingChunk, kWhyRingBytes};
  return ids;
}

}  // namespace rs::explain
