// The claims audit (issue 38, item 2): every sentence the explain layer composes (app/explain/sentences.hpp), for
// every step of every trace we ship (the bundled sessions, assets/traces, tests/fixtures), in English and in
// Chinese, is checked claim by claim against the trace's raw records, recomputed here by a second route that does
// not go through the replay model or the facts layer. Zero contradictions.
//
// The first cases are the false sentences issue 38 found (the ClaimsAudit.* tests below name them); each failed on
// the code before the explain layer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "facts.hpp"
#include "i18n.hpp"
#include "input.hpp"  // float_sum_note
#include "sentences.hpp"
#include "lessons.hpp"
#include "questions.hpp"
#include "session.hpp"
#include "stored.hpp"
#include "trace_io.hpp"
#include "two_runs.hpp"
#include "kernel_info.hpp"

namespace rs {
namespace {

namespace fs = std::filesystem;
using explain::Claim;
using explain::ClaimKind;
using explain::Sentence;

bool is_shared(uint8_t k) {
  return k == static_cast<uint8_t>(AccessKind::Load) || k == static_cast<uint8_t>(AccessKind::Store) ||
         k == static_cast<uint8_t>(AccessKind::SharedAtomic);
}
bool is_barrier(uint8_t k) {
  return k == static_cast<uint8_t>(AccessKind::BlockBarrier) || k == static_cast<uint8_t>(AccessKind::WarpBarrier);
}
bool is_lane_op(uint8_t k) {
  return k == static_cast<uint8_t>(AccessKind::Shuffle) || k == static_cast<uint8_t>(AccessKind::WarpReduce);
}

// One trace and what the audit knows beside it: another tracer's trace of the same kernel in the same file.
struct Case {
  std::string where;  // file and index, for messages
  const Trace* trace = nullptr;
  std::vector<const Trace*> twins;  // the same kernel, recorded by the other tracer (any block size)
};

// The records with each thread's epochs put on the block's steps: every thread's k-th __syncthreads() ends the
// same step (the probe counts epochs per thread, and a shuffle or __syncwarp() ends only its own lanes' epoch; the
// replay model's rule, tracing/replay.cpp, written again here from its description). Threads that passed
// different numbers of block barriers keep their epochs.
std::vector<TraceRecord> on_steps(std::vector<TraceRecord> recs) {
  const uint8_t bar = static_cast<uint8_t>(AccessKind::BlockBarrier);
  std::map<uint16_t, std::vector<TraceRecord*>> mine;
  for (TraceRecord& r : recs) mine[r.thread].push_back(&r);
  std::set<size_t> counts;
  for (auto& [t, v] : mine) counts.insert(std::count_if(v.begin(), v.end(), [&](TraceRecord* r) { return r->kind == bar; }));
  if (counts.size() > 1) return recs;
  // Per thread: (phase, epoch within the phase) of each record; a phase's length is its longest thread's.
  std::map<TraceRecord*, std::pair<uint32_t, uint32_t>> at;
  std::vector<uint32_t> len;
  for (auto& [t, v] : mine) {
    std::stable_sort(v.begin(), v.end(), [&](TraceRecord* a, TraceRecord* b) {
      return std::make_pair(a->epoch, a->kind == bar) < std::make_pair(b->epoch, b->kind == bar);
    });
    uint32_t phase = 0, start = 0;
    for (TraceRecord* r : v) {
      const uint32_t within = r->epoch >= start ? r->epoch - start : 0;
      at[r] = {phase, within};
      if (len.size() <= phase) len.push_back(0);
      len[phase] = std::max(len[phase], within + 1);
      if (r->kind == bar) ++phase, start = r->epoch + 1;
    }
  }
  for (auto& [r, pw] : at) {
    uint32_t before = 0;
    for (uint32_t p = 0; p < pw.first; ++p) before += len[p];
    r->epoch = before + (r->kind == bar ? len[pw.first] - 1 : pw.second);
  }
  return recs;
}

// The second route: facts straight from the records.
struct Truth {
  explicit Truth(const Case& c) : t_(*c.trace), recs_(on_steps(c.trace->records)) {
    for (const TraceRecord& r : t_.records) {
      shared_ |= is_shared(r.kind);
      lane_ops_ |= is_lane_op(r.kind);
    }
    for (const Trace* tw : c.twins) {
      for (const TraceRecord& r : tw->records) {
        twin_shared_ |= is_shared(r.kind);
        twin_lane_ops_ |= is_lane_op(r.kind);
      }
    }
  }
  int warps() const { return static_cast<int>((t_.meta.block_size + 31) / 32); }
  // The kernel's declaration of shared memory, by a second route: a `__shared__` or `dynamic_smem(` on a line of
  // the source between the kernel's own `__global__` header and the line after the last line any record names,
  // or dynamic shared memory given to the launch (TraceMeta::smem_bytes), or the other tracer's shared accesses.
  bool declares_shared() const {
    if (twin_shared_) return true;
    std::vector<std::string> lines;
    std::istringstream in(t_.source);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    int first = 0, last = 0;
    for (const TraceRecord& r : t_.records) {
      if (!r.line) continue;
      first = first ? std::min<int>(first, r.line) : r.line;
      last = std::max<int>(last, r.line);
    }
    // The kernel's name as a literal (a program's template names hold '*', '(' and '<').
    const std::string literal = std::regex_replace(t_.meta.kernel, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)");
    const std::regex header("__global__[^(]*\\b" + literal + "\\s*\\(");
    for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
      if (std::regex_search(lines[i], header)) first = first ? std::min(first, i + 1) : i + 1;
    }
    for (int i = std::max(first, 1); i <= std::min<int>(last, lines.size()); ++i) {
      std::string l = lines[i - 1];
      if (const size_t c = l.find("//"); c != std::string::npos) l.resize(c);
      if (l.find("__shared__") != std::string::npos || l.find("dynamic_smem(") != std::string::npos) return true;
    }
    return false;
  }
  // Records of `epoch`.
  template <class F>
  void each(uint32_t epoch, F f) const {
    for (const TraceRecord& r : recs_) {
      if (r.epoch == epoch) f(r);
    }
  }
  std::set<int> warps_with(uint32_t epoch, bool (*pred)(uint8_t)) const {
    std::set<int> w;
    each(epoch, [&](const TraceRecord& r) {
      if (pred(r.kind)) w.insert(r.thread / 32);
    });
    return w;
  }
  // Warp-level instructions of kind `k` in the step: per warp and source line, as many as its busiest lane made
  // (each lane records each instruction it runs once; lanes of one warp run one instruction together).
  int lane_instructions(uint32_t epoch, AccessKind k) const {
    std::map<std::pair<int, uint16_t>, std::map<int, int>> per;  // (warp, line) -> lane -> records
    each(epoch, [&](const TraceRecord& r) {
      if (r.kind == static_cast<uint8_t>(k)) ++per[{r.thread / 32, r.line}][r.thread % 32];
    });
    int n = 0;
    for (const auto& [wl, lanes] : per) {
      int most = 0;
      for (const auto& [l, c] : lanes) most = std::max(most, c);
      n += most;
    }
    return n;
  }
  // The records of warp w's last shuffle or warp reduce.
  std::vector<const TraceRecord*> last_lane_op(int w) const {
    std::pair<uint32_t, uint32_t> best{0, 0};
    bool any = false;
    for (const TraceRecord& r : t_.records) {
      if (r.thread / 32 != w || !is_lane_op(r.kind)) continue;
      if (!any || std::make_pair(r.epoch, r.seq) > best) best = {r.epoch, r.seq}, any = true;
    }
    std::vector<const TraceRecord*> out;
    for (const TraceRecord& r : t_.records) {
      if (r.thread / 32 == w && is_lane_op(r.kind) && std::make_pair(r.epoch, r.seq) == best) out.push_back(&r);
    }
    return out;
  }

  int reached_barrier(uint32_t epoch) const {
    return static_cast<int>(
        warps_with(epoch, [](uint8_t k) { return k == static_cast<uint8_t>(AccessKind::BlockBarrier); }).size());
  }

  // "" where claim `c`, made at step `epoch`, holds; else why not.
  std::string check(const Claim& c, uint32_t epoch) const {
    auto says = [](const std::string& s) { return s; };
    switch (c.kind) {
      case ClaimKind::NoSharedMemory:
        if (shared_) return says("the trace holds shared accesses");
        if (declares_shared()) return says("the kernel declares shared memory (source, launch or the other tracer)");
        return "";
      case ClaimKind::SharedNotTraced:
        if (shared_) return says("the trace holds shared accesses: they are traced");
        if (t_.meta.tracer != Tracer::SourceProbe) return says("the binary tracer sees every shared access");
        if (!declares_shared()) return says("nothing shows the kernel declares shared memory");
        return "";
      case ClaimKind::ActiveWarps: {
        const int active = static_cast<int>(warps_with(epoch, [](uint8_t k) { return !is_barrier(k); }).size());
        if (active != c.a) return says("active warps are " + std::to_string(active) + ", said " + std::to_string(c.a));
        if (warps() != c.b) return says("the block has " + std::to_string(warps()) + " warps, said " + std::to_string(c.b));
        return "";
      }
      case ClaimKind::WarpsAtBarrier: {
        const int n = reached_barrier(epoch);
        return n == c.a ? "" : says(std::to_string(n) + " warps reached the barrier, said " + std::to_string(c.a));
      }
      case ClaimKind::Shuffles: {
        const int n = lane_instructions(epoch, AccessKind::Shuffle);
        return n == c.a ? "" : says(std::to_string(n) + " shuffles, said " + std::to_string(c.a));
      }
      case ClaimKind::WarpReduces: {
        const int n = lane_instructions(epoch, AccessKind::WarpReduce);
        return n == c.a ? "" : says(std::to_string(n) + " warp reduces, said " + std::to_string(c.a));
      }
      case ClaimKind::ResultLane: {
        const auto last = last_lane_op(static_cast<int>(c.a));
        if (last.empty()) return says("the warp makes no shuffle");
        if (last.front()->kind == static_cast<uint8_t>(AccessKind::WarpReduce)) {
          return says("the warp's last lane operation is a warp reduce: every lane holds the result, not one");
        }
        if (last.front()->epoch > epoch) return says("the warp's last shuffle comes after this step");
        const bool took_part = std::any_of(last.begin(), last.end(), [&](const TraceRecord* r) {
          return r->thread % 32 == static_cast<uint16_t>(c.b);
        });
        if (!took_part) return says("lane " + std::to_string(c.b) + " did not take part in the last shuffle");
        return "";
      }
      case ClaimKind::ResultEveryLane: {
        const auto last = last_lane_op(static_cast<int>(c.a));
        if (last.empty()) return says("the warp makes no lane operation");
        if (last.front()->epoch > epoch) return says("the warp's last lane operation comes after this step");
        const bool values = !(last.front()->op & kOpNoValues) && t_.meta.tracer == Tracer::SourceProbe;
        if (last.front()->kind == static_cast<uint8_t>(AccessKind::WarpReduce) && !values) return "";
        for (const TraceRecord* r : last) {
          if (r->value != last.front()->value) return says("the lanes received different values");
        }
        return "";
      }
      case ClaimKind::StepSharedAccesses: {
        const int n = lane_instructions(epoch, AccessKind::Load) + lane_instructions(epoch, AccessKind::Store);
        return n == c.a ? "" : says(std::to_string(n) + " shared loads and stores, said " + std::to_string(c.a));
      }
      case ClaimKind::StepSharedAtomics: {
        const int n = lane_instructions(epoch, AccessKind::SharedAtomic);
        return n == c.a ? "" : says(std::to_string(n) + " shared atomics, said " + std::to_string(c.a));
      }
      case ClaimKind::StepGlobalRequests: {
        const int n =
            lane_instructions(epoch, AccessKind::GlobalLoad) + lane_instructions(epoch, AccessKind::GlobalStore);
        return n == c.a ? "" : says(std::to_string(n) + " global requests, said " + std::to_string(c.a));
      }
      case ClaimKind::NoLaneWork:
        if (lane_ops_) return says("the trace holds shuffles or warp reduces");
        if (twin_lane_ops_) return says("the other tracer's trace holds shuffles or warp reduces");
        return "";
      case ClaimKind::ExchangeShared: return shared_ ? "" : says("the trace holds no shared access");
      case ClaimKind::ExchangeNone: {
        if (shared_ || declares_shared()) return says("the kernel has shared memory");
        for (const TraceRecord& r : t_.records) {
          if (r.kind == static_cast<uint8_t>(AccessKind::GlobalAtomic)) return says("the kernel makes atomics");
        }
        return "";
      }
    }
    return "unknown claim";
  }

 private:
  const Trace& t_;
  std::vector<TraceRecord> recs_;  // t_'s records, on the block's steps
  bool shared_ = false, lane_ops_ = false, twin_shared_ = false, twin_lane_ops_ = false;
};

struct Corpus {
  std::vector<Session> sessions;
  std::vector<Trace> traces;
  std::vector<Case> cases;
};

const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus out;
    const fs::path root = RS_SOURCE_DIR;
    std::vector<fs::path> files;
    for (const char* dir : {"assets/sessions", "assets/traces", "tests/fixtures"}) {
      for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
        const std::string ext = e.path().extension().string();
        if (ext == ".rssession" || ext == ".rstrace") files.push_back(e.path());
      }
    }
    std::sort(files.begin(), files.end());
    std::vector<std::string> names;
    for (const fs::path& p : files) {
      if (p.extension() == ".rssession") {
        out.sessions.push_back(load_session(p.string()));
        names.push_back(p.lexically_relative(root).string());
      } else {
        out.traces.push_back(load_trace(p.string()));
      }
    }
    size_t ti = 0;
    for (const fs::path& p : files) {
      if (p.extension() == ".rstrace") out.cases.push_back({p.lexically_relative(root).string(), &out.traces[ti++], {}});
    }
    for (size_t si = 0; si < out.sessions.size(); ++si) {
      const Session& s = out.sessions[si];
      for (size_t i = 0; i < s.traces.size(); ++i) {
        Case c{names[si] + " #" + std::to_string(i), &s.traces[i], {}};
        for (const Trace& o : s.traces) {
          if (o.meta.kernel == s.traces[i].meta.kernel && o.meta.tracer != s.traces[i].meta.tracer) c.twins.push_back(&o);
        }
        out.cases.push_back(std::move(c));
      }
    }
    return out;
  }();
  return c;
}

// The context the window gives the facts (app/gui): the session's binary trace of the same kernel and block size.
explain::Context context_of(const Case& c) {
  explain::Context ctx;
  for (const Trace* tw : c.twins) {
    if (tw->meta.block_size != c.trace->meta.block_size || tw->meta.tracer != Tracer::Binary) continue;
    ctx.binary_twin = true;
    for (const TraceRecord& r : tw->records) ctx.binary_twin_shared |= is_shared(r.kind);
  }
  return ctx;
}

// The {k} of a message, ascending.
std::set<size_t> placeholders(const std::string& text) {
  std::set<size_t> out;
  for (size_t i = 0; i + 2 < text.size(); ++i) {
    if (text[i] == '{' && std::isdigit(static_cast<unsigned char>(text[i + 1])) && text[i + 2] == '}') {
      out.insert(static_cast<size_t>(text[i + 1] - '0'));
    }
  }
  return out;
}

const char* zh(const char* id) {
  i18n::LanguageScope scope(i18n::Lang::Zh);
  return i18n::tr(id);
}

class ClaimsAudit : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { setenv("RS_LOCALEDIR", RS_LOCALE_DIR, 1); }
};

// Every sentence of every step of every trace: each claim true by the records, each argument in the text in both
// languages, no placeholder left, and the Chinese translated.
TEST_F(ClaimsAudit, EverySentenceOfEveryStepIsTrueInBothLanguages) {
  const Corpus& c = corpus();
  ASSERT_GE(c.cases.size(), 300u) << "the bundled sessions and fixtures hold about 400 traces";
  size_t sentences = 0, claims = 0;
  std::map<std::string, int> failures;
  std::set<std::string> ids;
  for (const Case& k : c.cases) {
    const Replay r(*k.trace);
    const Truth truth(k);
    const explain::Context ctx = context_of(k);
    for (size_t i = 0; i < r.num_steps(); ++i) {
      const Step& st = r.step(i);
      for (const Sentence& s : explain::step_sentences(*k.trace, r, i, ctx)) {
        ++sentences;
        ids.insert(s.id);
        EXPECT_NE(std::find(explain::message_ids().begin(), explain::message_ids().end(), s.id),
                  explain::message_ids().end())
            << "not in message_ids() (the page's dictionary would miss it): " << s.id;
        EXPECT_FALSE(s.claims.empty()) << "a sentence that claims nothing: " << s.id;
        std::vector<std::string> whys;
        for (const Claim& cl : s.claims) {
          ++claims;
          if (std::string why = truth.check(cl, st.epoch); !why.empty()) whys.push_back(std::move(why));
        }
        // "Active warps: 0 of 8" alone, where the warps reached a barrier, says they did nothing there.
        const auto has = [&](ClaimKind kind, int64_t a) {
          return std::any_of(s.claims.begin(), s.claims.end(),
                             [&](const Claim& x) { return x.kind == kind && (a < 0 || x.a == a); });
        };
        if (has(ClaimKind::ActiveWarps, 0) && !has(ClaimKind::WarpsAtBarrier, -1) &&
            st.ended_by == StepEnd::BlockBarrier && truth.reached_barrier(st.epoch) > 0) {
          whys.push_back("no warp is said to be active, but " + std::to_string(truth.reached_barrier(st.epoch)) +
                         " reached the barrier (they ran code the tracer does not record)");
        }
        for (const std::string& why : whys) {
          if (failures[k.where]++ < 3) {
            ADD_FAILURE() << k.where << " (" << k.trace->meta.kernel << " @" << k.trace->meta.block_size << ", "
                          << to_string(k.trace->meta.tracer) << ") step " << i << ": \"" << explain::render(s)
                          << "\" is false: " << why;
          }
        }
        // Both languages use the same placeholders, each filled with its argument.
        const std::string en = explain::render(s), cn = explain::render(s, zh);
        EXPECT_EQ(placeholders(s.id), placeholders(zh(s.id))) << s.id;
        for (const std::string& text : {en, cn}) {
          EXPECT_TRUE(placeholders(text).empty()) << text;
          for (size_t a : placeholders(s.id)) {
            ASSERT_LT(a, s.args.size()) << s.id;
            EXPECT_NE(text.find(s.args[a]), std::string::npos) << s.args[a] << " missing from " << text;
          }
        }
        EXPECT_NE(en, cn) << "not translated: " << s.id;
      }
    }
  }
  std::cout << "claims audit: " << c.cases.size() << " traces, " << sentences << " sentences, " << claims
            << " claims, " << ids.size() << " distinct messages\n";
}

// The cases issue 38 found, each named.
const Case* find_case(const std::string& kernel, uint32_t bs, Tracer tracer, DType dt = DType::Int32) {
  for (const Case& k : corpus().cases) {
    const TraceMeta& m = k.trace->meta;
    if (m.kernel == kernel && m.block_size == bs && m.tracer == tracer && m.dtype == dt &&
        k.where.find("h100-tracks") != std::string::npos) {
      return &k;
    }
  }
  return nullptr;
}

// The banks view said "pitfall_no_syncwarp does not use shared memory: no banks to conflict" beside a source that
// declares `extern __shared__ int sdata[]` (the probe does not record a raw array; the binary tracer does).
TEST_F(ClaimsAudit, RawSharedMemoryIsNotTracedNotAbsent) {
  for (const char* kernel : {"pitfall_no_syncwarp", "pitfall_no_volatile", "reproducible_sum"}) {
    const bool is_float = std::string(kernel) == "reproducible_sum";
    const Case* k = find_case(kernel, 256, Tracer::SourceProbe, is_float ? DType::Float32 : DType::Int32);
    ASSERT_NE(k, nullptr) << kernel;
    const Replay r(*k->trace);
    const explain::TraceFacts f = explain::trace_facts(r, k->trace->source, context_of(*k));
    EXPECT_EQ(f.shared, explain::Seen::NotTraced) << kernel;
    const auto s = explain::no_shared_sentence(f, explain::Panel::Banks);
    ASSERT_TRUE(s) << kernel;
    EXPECT_EQ(explain::render(*s).find("does not use"), std::string::npos) << explain::render(*s);
    EXPECT_FALSE(Truth(*k).check({ClaimKind::NoSharedMemory}, 0).empty())
        << kernel << ": the audit must reject 'does not use shared memory'";
  }
  // The pitfalls' binary traces are in the session: the sentence offers them (key B).
  const Case* k = find_case("pitfall_no_syncwarp", 256, Tracer::SourceProbe);
  EXPECT_TRUE(context_of(*k).binary_twin);
  // The window's context (explain::context_in, from the session) is the audit's.
  size_t checked = 0;
  for (const Session& s : corpus().sessions) {
    for (const Trace& t : s.traces) {
      if (&t != k->trace) continue;
      const explain::Context c = explain::context_in(&s, t.meta);
      EXPECT_TRUE(c.binary_twin && c.binary_twin_shared);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 1u);
  const Replay r(*k->trace);
  EXPECT_NE(explain::render(*explain::no_shared_sentence(explain::trace_facts(r, k->trace->source, context_of(*k)),
                                                         explain::Panel::Banks))
                .find("key B"),
            std::string::npos);
}

// The bank view's line for a step without shared loads or stores (moved here from app/gui/layout.cpp): sum_shared's
// step 1 names its 8 shared atomics (issue 17), and pitfall_no_syncwarp's steps say its shared memory is not traced
// (issue 38: "No shared-memory access or global request in this step" beside racecheck's races on its words).
TEST_F(ClaimsAudit, BankIdleLineNamesSharedAtomicsAndWhatIsNotTraced) {
  const Case* k = find_case("sum_shared", 256, Tracer::SourceProbe);
  ASSERT_NE(k, nullptr);
  Replay r(*k->trace);
  auto line = explain::bank_idle_sentence(explain::trace_facts(r, k->trace->source), explain::step_facts(r, 1));
  ASSERT_TRUE(line);
  EXPECT_EQ(explain::render(*line), "No shared load or store in this step; 8 warp-level shared atomics (see Atomics).");
  k = find_case("pitfall_no_syncwarp", 256, Tracer::SourceProbe);
  ASSERT_NE(k, nullptr);
  const Replay p(*k->trace);
  for (size_t i = 0; i < p.num_steps(); ++i) {
    line = explain::bank_idle_sentence(explain::trace_facts(p, k->trace->source), explain::step_facts(p, i));
    ASSERT_TRUE(line);
    EXPECT_NE(explain::render(*line).find("does not trace"), std::string::npos) << explain::render(*line);
  }
  k = find_case("single_pass_last_block", 256, Tracer::SourceProbe);  // a global store and atomic, no shared access
  ASSERT_NE(k, nullptr);
  const Replay q(*k->trace);
  line = explain::bank_idle_sentence(explain::trace_facts(q, k->trace->source), explain::step_facts(q, 3));
  ASSERT_TRUE(line);
  EXPECT_EQ(explain::render(*line), "No shared load or store in this step.");
}

// At a __syncthreads() step of reproducible_sum the warps view said "Active warps 0 of 8", every warp grey: the warps
// ran there, code the probe does not record.
TEST_F(ClaimsAudit, ZeroActiveAtBarrierSaysTheWarpsReachedIt) {
  const Case* k = find_case("reproducible_sum", 256, Tracer::SourceProbe, DType::Float32);
  ASSERT_NE(k, nullptr);
  const Replay r(*k->trace);
  const explain::TraceFacts tf = explain::trace_facts(r, k->trace->source);
  int seen = 0;
  for (size_t i = 0; i < r.num_steps(); ++i) {
    const explain::StepFacts f = explain::step_facts(r, i);
    if (f.active_warps != 0 || f.ended_by != StepEnd::BlockBarrier) continue;
    ++seen;
    const Sentence s = explain::active_warps_sentence(tf, f);
    const bool at_barrier = std::any_of(s.claims.begin(), s.claims.end(), [&](const Claim& c) {
      return c.kind == ClaimKind::WarpsAtBarrier && c.a == 8;
    });
    EXPECT_TRUE(at_barrier) << "step " << i << ": " << explain::render(s);
    EXPECT_NE(explain::render(s).find("reached the barrier"), std::string::npos) << explain::render(s);
  }
  EXPECT_GT(seen, 0) << "reproducible_sum at 256 threads has barrier steps with no recorded instruction";
}

// reproducible_sum's step 1: its warp reduces were called "8 shuffles", and the caption gave the result to lane 0
// where __reduce_max_sync gives it to every lane.
TEST_F(ClaimsAudit, WarpReducesAreNamedAndGiveEveryLaneTheResult) {
  const Case* k = find_case("reproducible_sum", 256, Tracer::SourceProbe, DType::Float32);
  ASSERT_NE(k, nullptr);
  const Replay r(*k->trace);
  bool reduces = false;
  for (size_t i = 0; i < r.num_steps(); ++i) {
    const explain::StepFacts f = explain::step_facts(r, i);
    if (f.warp_reduces == 0) continue;
    reduces = true;
    EXPECT_EQ(f.shuffles, 0) << "step " << i;
    const auto counts = explain::step_count_sentences(f);
    ASSERT_EQ(counts.size(), 1u);
    EXPECT_NE(explain::render(counts[0]).find("warp reduce"), std::string::npos) << explain::render(counts[0]);
    for (const explain::WarpResult& w : f.results) {
      if (!w.reduce) continue;
      const Sentence s = explain::result_sentence(w);
      EXPECT_NE(explain::render(s).find("every lane"), std::string::npos) << explain::render(s);
    }
  }
  EXPECT_TRUE(reduces);
  // And the audit rejects the old caption: "lane 0 of warp 0 holds the warp's result" after a warp reduce.
  const Truth truth(*k);
  EXPECT_FALSE(truth.check({ClaimKind::ResultLane, 0, 0}, r.step(r.num_steps() - 1).epoch).empty());
}

// Issue 38, item 5: the timing method a session stores in English is said in the reader's language. Every session
// shipped, whatever wrote it, either parses back to the sentence whose English is its text, word for word, or is
// shown as recorded; the bundled ones parse (record.cpp writes the sentence's English); the Chinese keeps each number.
TEST_F(ClaimsAudit, TheRecordedTimingMethodIsSaidInEitherLanguage) {
  const explain::Sentence s = explain::timing_method_sentence(3, 30, 100);
  EXPECT_EQ(explain::render(s), "CUDA events around the whole multi-launch reduction; 3 warm-ups, 30 samples, L2 "
                                "flushed (100 MiB write) before each; median, min-max");
  const auto back = explain::parse_timing_method(explain::render(s));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->args, s.args);
  EXPECT_FALSE(explain::parse_timing_method(explain::render(s) + "; and more"));  // nothing dropped
  EXPECT_FALSE(explain::parse_timing_method("events around the kernel"));
  EXPECT_FALSE(explain::parse_timing_method(""));
  size_t parsed = 0;
  for (const Session& ses : corpus().sessions) {
    const auto said = explain::parse_timing_method(ses.meta.method);
    if (!said) continue;
    ++parsed;
    EXPECT_EQ(explain::render(*said), ses.meta.method);
    const std::string zh_text = explain::render(*said, zh);
    EXPECT_EQ(zh_text.find("CUDA events around"), std::string::npos) << zh_text;
    for (const std::string& a : said->args) EXPECT_NE(zh_text.find(a), std::string::npos) << a << " in " << zh_text;
  }
  EXPECT_GE(parsed, 2u) << "the bundled sessions' methods did not parse";
}

// Issue 38, item 5, and issue 53: the bits view's reason a float32 sum is stuck at a power of two, composed by the
// explain layer from kernels/input.hpp's numbers (no English read back), in either language; its English is
// float_sum_note's word for word, so a rewording of either fails here; the note's other reasons, and a negative
// sum's, are not this sentence.
TEST_F(ClaimsAudit, TheStuckFloatSumIsSaidInEitherLanguage) {
  for (const auto& [got, exact] : std::vector<std::pair<float, double>>{{33554432.0f, 4e7}, {16777216.0f, 33556881.0},
                                                                         {1073741824.0f, 2e9}}) {
    const auto said = explain::float_stuck_sentence(got, exact);
    ASSERT_TRUE(said) << got;
    EXPECT_EQ(explain::render(*said), float_sum_note(got, exact));
  }
  const auto said = explain::float_stuck_sentence(33554432.0f, 4e7);
  EXPECT_EQ(said->args, (std::vector<std::string>{"25", "33554432", "2", "1"}));
  const std::string zh_text = explain::render(*said, zh);
  EXPECT_EQ(zh_text.find("float32 keeps"), std::string::npos) << zh_text;
  for (const std::string& a : said->args) EXPECT_NE(zh_text.find(a), std::string::npos) << a << " in " << zh_text;
  EXPECT_FALSE(explain::float_stuck_sentence(-16777216.0f, -3e7));  // a negative sum: the note's own words
  EXPECT_FALSE(explain::float_stuck_sentence(NAN, NAN));
  EXPECT_FALSE(explain::float_stuck_sentence(16777216.0f, 16777216.5));  // not below its exact value by 0.1%
  EXPECT_FALSE(explain::float_stuck_sentence(12345.0f, 5e7));             // not a power of two
}

// Issue 38, items 1 and 5: what sessions and traces store in English (a binary trace's notes, the multi-GPU and sweep
// methods) reads back word for word into the explain layer's sentences, so the window and the page say it in either
// language; text in other words reads back as itself, never as a wrong sentence.
TEST_F(ClaimsAudit, StoredEnglishIsReadBackInEitherLanguage) {
  auto said_in_chinese = [](const explain::Sentence& s, const std::string& english) {
    const std::string zh_text = explain::render(s, zh);
    EXPECT_NE(zh_text, english) << "not translated: " << english;
    for (const std::string& a : s.args) EXPECT_NE(zh_text.find(a), std::string::npos) << a << " in " << zh_text;
  };
  size_t notes = 0, methods = 0, sweeps = 0;
  for (const Case& c : corpus().cases) {
    for (const explain::Sentence& n : explain::trace_note_sentences(c.trace->meta.notes)) {
      SCOPED_TRACE(c.where);
      EXPECT_STRNE(n.id, "{0}") << "a note in words the layer does not know: " << explain::render(n);
      EXPECT_NE(c.trace->meta.notes.find(explain::render(n)), std::string::npos);
      said_in_chinese(n, explain::render(n));
      ++notes;
    }
  }
  for (const Session& ses : corpus().sessions) {
    if (!ses.multigpu.method.empty()) {
      const auto m = explain::multigpu_method_sentence(ses.multigpu.method);
      if (!m) {  // a synthetic fixture's own words are shown as they are; a recording's must read back
        EXPECT_EQ(ses.multigpu.method.rfind("nccl-tests'", 0), std::string::npos) << ses.multigpu.method;
        continue;
      }
      EXPECT_EQ(explain::render(*m), ses.multigpu.method);
      said_in_chinese(*m, ses.multigpu.method);
      ++methods;
    }
    if (!ses.sweep.method.empty()) {
      const auto m = explain::sweep_method_sentence(ses.sweep.method);
      ASSERT_TRUE(m) << ses.sweep.method;
      said_in_chinese(*m, ses.sweep.method);
      ++sweeps;
    }
  }
  EXPECT_GT(notes, 5u) << "the binary traces' notes";
  EXPECT_GE(methods, 2u) << "the multi-GPU recordings' methods";
  EXPECT_GE(sweeps, 1u) << "the N sweep's method";
  // Other words: the line itself, or nothing.
  const auto other = explain::trace_note_sentences("Values are shown as float32, the type of the kernel's parameter "
                                                   "float const* (--type sets another). And more.\nhand-written");
  ASSERT_EQ(other.size(), 2u);
  EXPECT_STREQ(other[0].id, "{0}");
  EXPECT_EQ(explain::render(other[1]), "hand-written");
  EXPECT_FALSE(explain::multigpu_method_sentence("nccl-tests' conventions: 5 warm-up calls"));
  EXPECT_FALSE(explain::sweep_method_sentence(""));
  const auto typed = explain::read_back("Values are shown as float32, the type of the kernel's parameter float const* "
                                        "(--type sets another).", explain::stored_message_ids());
  ASSERT_TRUE(typed);
  EXPECT_EQ(typed->args, (std::vector<std::string>{"float32", "float const*"}));
  // One access "is" not shown (traces before 2026-11-28 evening said "are": both read back).
  for (const char* line : {"1 global access outside the input and output allocations is not shown.",
                           "1 global access outside the input and output allocations are not shown."}) {
    const auto one = explain::trace_note_sentences(line);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_STRNE(one[0].id, "{0}") << line;
    EXPECT_EQ(explain::render(one[0]), line);
  }
}

// The atomics view's names for the addresses a block updated, one layer for the window and the page: "shared bin
// e-h" in English, and in Chinese no English word left around the bytes' labels and the array's name.
TEST_F(ClaimsAudit, AtomicTargetsAreNamedInEitherLanguage) {
  size_t named = 0;
  std::set<std::string> ids;
  for (const Case& c : corpus().cases) {
    Replay r(*c.trace);
    for (const AtomicTarget& t : r.atomic_targets()) {
      const explain::Sentence s = explain::atomic_target_sentence(t, c.trace->meta);
      const std::string en = explain::render(s), zh_text = explain::render(s, zh);
      const bool shared = t.kind == AccessKind::SharedAtomic;
      EXPECT_EQ(en.rfind(shared ? "shared " : "global ", 0), 0u) << c.where << ": " << en;
      EXPECT_EQ(zh_text.find(shared ? "shared" : "global"), std::string::npos) << c.where << ": " << zh_text;
      for (const std::string& a : s.args) EXPECT_NE(zh_text.find(a), std::string::npos) << a << " in " << zh_text;
      ids.insert(s.id);
      ++named;
    }
  }
  EXPECT_GT(named, 100u);
  EXPECT_GE(ids.size(), 4u) << "histogram bins, histo_warp's byte counts, a shared word and a global element";
}


// Issue 39: every question a step can answer, on every trace we ship. Its key is the trace's, recomputed here from the
// replay's per-lane data by a second route (distinct words per bank, distinct 32-byte sectors, the lane whose offered
// value the asked lane received); the key is graded right and a wrong answer wrong; and what a tracer cannot give is
// never asked (a binary trace's shuffle sources; who works at a step that ran unrecorded code).
TEST_F(ClaimsAudit, QuestionKeysAreTheTracesAndOnlyWhatItCanAnswerIsAsked) {
  const Corpus& c = corpus();
  std::map<explain::QuestionKind, int> asked;
  std::map<std::string, int> failures;
  auto fail = [&](const std::string& what) { ++failures[what]; };
  for (const Case& k : c.cases) {
    const Replay r(*k.trace);
    const explain::TraceFacts facts = explain::trace_facts(r, k.trace->source, context_of(k));
    const bool binary = k.trace->meta.tracer == Tracer::Binary;
    for (size_t si = 0; si < r.num_steps(); ++si) {
      const explain::StepFacts f = explain::step_facts(r, si);
      for (const explain::Question& q : explain::step_questions(r, facts, si)) {
        ++asked[q.kind];
        explain::Answer right, wrong;
        switch (q.kind) {
          case explain::QuestionKind::WorkingWarps: {
            if (f.unrecorded_work || facts.shared == explain::Seen::NotTraced) fail("who works, where the tracer missed work");
            std::vector<int64_t> w;
            for (size_t i = 0; i < r.step(si).warps.size(); ++i) {
              if (r.step(si).warps[i].useful) w.push_back(static_cast<int64_t>(i));
            }
            if (w != q.key) fail("working warps key");
            if (w.empty()) fail("who works, asked of a step in which the tracer recorded no instruction");
            right.numbers = w;
            wrong.numbers = w;
            if (w.empty()) wrong.numbers.push_back(0);
            else wrong.numbers.pop_back();
            break;
          }
          case explain::QuestionKind::ActiveLanes: {
            const uint32_t useful = r.step(si).warps.at(q.warp).useful;
            int n = 0;
            for (int l = 0; l < 32; ++l) n += (useful >> l) & 1;
            if (q.key.at(0) != n) fail("active lanes key");
            if (n == 0) fail("active lanes, asked of a warp the tracer saw do nothing in the step");
            right.numbers = {n};
            wrong.numbers = {n == 32 ? 31 : n + 1};
            break;
          }
          case explain::QuestionKind::Conflict: {
            const WarpAccess& a = r.accesses().at(q.index);
            std::map<uint32_t, std::set<uint32_t>> words;  // bank -> distinct words
            for (int l = 0; l < 32; ++l) {
              if (a.lanes >> l & 1) words[(a.addr[l] / 4) % 32].insert(a.addr[l] / 4);
            }
            size_t deg = 0;
            for (const auto& [bank, w] : words) deg = std::max(deg, w.size());
            if (q.key.at(0) != static_cast<int64_t>(deg)) fail("conflict key");
            right.numbers = {static_cast<int64_t>(deg)};
            wrong.numbers = {static_cast<int64_t>(deg == 1 ? 2 : deg / 2)};
            break;
          }
          case explain::QuestionKind::WordValue: {
            const Step& st = r.step(si);
            if (!st.written.at(q.word) || !st.defined.at(q.word)) fail("a value of a word the step did not write");
            if (q.key.at(0) != st.smem.at(q.word)) fail("value key");
            right.text = q.key_text;
            if (q.float_key) {
              wrong.text = q.key_text == "1" ? "2" : "1";
            } else {
              right.numbers = {st.smem.at(q.word)};
              wrong.numbers = {static_cast<int64_t>(st.smem.at(q.word)) + 1};
            }
            break;
          }
          case explain::QuestionKind::ShuffleSource: {
            if (binary) fail("a shuffle source asked of a binary trace");
            const WarpShuffle& sh = r.shuffles().at(q.index);
            if (!sh.values) fail("a shuffle source asked without values");
            const int64_t src = q.key.at(0);
            if (src < 0 || src > 31 || sh.received[q.lane] != sh.offered[src]) fail("shuffle source key");
            right.numbers = {src};
            wrong.numbers = {src == q.lane ? (src + 1) % 32 : q.lane};
            break;
          }
          case explain::QuestionKind::Sectors: {
            const GlobalRequest& g = r.global_requests().at(q.index);
            std::set<uint64_t> sectors;
            for (int l = 0; l < 32; ++l) {
              if (!(g.lanes >> l & 1)) continue;
              const uint64_t bytes = g.requested_bytes / std::max(1, static_cast<int>(__builtin_popcount(g.lanes)));
              const uint64_t first = uint64_t{g.index[l]} * element_bytes(g.space);
              for (uint64_t b = first; b < first + bytes; b += 1) sectors.insert(b / 32);
            }
            if (q.key.at(0) != static_cast<int64_t>(sectors.size())) fail("sectors key");
            right.numbers = {q.key.at(0)};
            wrong.numbers = {q.key.at(0) + 1};
            break;
          }
          case explain::QuestionKind::FastestBlock:
          case explain::QuestionKind::Speedup:
          case explain::QuestionKind::SameBits:
          case explain::QuestionKind::BitsAcrossBlocks:
          case explain::QuestionKind::PartAt:
          case explain::QuestionKind::RunsRight:
          case explain::QuestionKind::RaceLine:
          case explain::QuestionKind::DistinctSums:
          case explain::QuestionKind::RingChunk:
          case explain::QuestionKind::RingBytes:
            fail("a question about the session from a step");
            break;
        }
        if (!explain::grade(q, right).right) fail(std::string("the key graded wrong: ") + to_string(q.kind));
        if (explain::grade(q, wrong).right) fail(std::string("a wrong answer graded right: ") + to_string(q.kind));
        const std::string why = explain::render(explain::grade(q, wrong).why);
        if (why.find('{') != std::string::npos || why.rfind("Not quite: ", 0) != 0) fail("why: " + why);
      }
    }
  }
  for (const auto& [what, n] : failures) ADD_FAILURE() << n << " x " << what;
  for (int k = 0; k <= static_cast<int>(explain::QuestionKind::Sectors); ++k) {
    EXPECT_GT(asked[static_cast<explain::QuestionKind>(k)], 10)
        << "questions of kind " << to_string(static_cast<explain::QuestionKind>(k));
  }
}

// Class mode asks the room, which has nothing to click: the warps question without "(click them)"; the others as
// they are; the reveal says the trace's reason without grading anyone.
TEST(Questions, TheRoomIsAskedWithoutClicksAndTheRevealGradesNoOne) {
  explain::Question w;
  w.kind = explain::QuestionKind::WorkingWarps;
  w.step = 3;
  w.key = {0, 1};
  w.ask = {"Which warps make an instruction in step {0}? (click them)", {"3"}};
  EXPECT_EQ(explain::render(explain::ask_for_room(w)), "Which warps make an instruction in step 3?");
  EXPECT_EQ(explain::render(w.ask), "Which warps make an instruction in step 3? (click them)");
  explain::Question c;
  c.kind = explain::QuestionKind::Conflict;
  c.ask = {"How many ways?", {}};
  EXPECT_EQ(explain::render(explain::ask_for_room(c)), "How many ways?");
  const std::string reveal = explain::render(explain::reveal_sentence(w));
  EXPECT_EQ(reveal.rfind("On the GPU: ", 0), 0u) << reveal;
  EXPECT_EQ(reveal.find("Right"), std::string::npos) << reveal;
}

TEST(Questions, FloatValuesAreGradedToTheDigitsGiven) {
  explain::Question q;
  q.kind = explain::QuestionKind::WordValue;
  q.word = 3;
  const float v = 0.092064f;
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  q.key = {static_cast<int32_t>(bits)};
  q.float_key = true;
  q.key_text = "0.092064";
  auto says = [&](const char* text) { return explain::grade(q, {{}, text}).right; };
  EXPECT_TRUE(says("0.092064"));
  EXPECT_TRUE(says("0.0921"));    // 3 digits, rounded as the value rounds
  EXPECT_TRUE(says("9.21e-2"));
  EXPECT_FALSE(says("0.092"));    // 2 digits: too few
  EXPECT_FALSE(says("0.0920"));   // 3 digits that the value does not round to
  EXPECT_FALSE(says("abc"));
  EXPECT_FALSE(says(""));
  EXPECT_EQ(explain::render(explain::grade(q, {{}, "0.0921"}).why), "Right: word 3 holds 0.092064 after this step.");
  EXPECT_EQ(explain::render(explain::grade(q, {}).why), "No answer given: word 3 holds 0.092064 after this step.");
}

TEST(Questions, EveryBlockSizeWithinTheFastestOnesSpreadIsRight) {
  Session s;
  s.meta.gpu = "NVIDIA H100 80GB HBM3";
  auto row = [](uint32_t bs, double med, double lo, double hi) {
    SessionTiming t;
    t.kernel = "reduce3";
    t.block_size = bs;
    t.median_ms = med;
    t.min_ms = lo;
    t.max_ms = hi;
    return t;
  };
  s.timings = {row(128, 0.101, 0.099, 0.104), row(256, 0.100, 0.098, 0.103), row(512, 0.120, 0.118, 0.125)};
  const auto qs = explain::session_questions(s, "reduce3", 256);
  ASSERT_EQ(qs.size(), 1u);  // the fastest block size; no speedup (reduce2 not timed), no bits view, no two runs
  ASSERT_EQ(qs[0].kind, explain::QuestionKind::FastestBlock);
  EXPECT_EQ(qs[0].key, (std::vector<int64_t>{128, 256}));
  EXPECT_TRUE(explain::grade(qs[0], {{256}, ""}).right);
  EXPECT_TRUE(explain::grade(qs[0], {{128}, ""}).right);  // within the fastest one's spread: not failed
  EXPECT_FALSE(explain::grade(qs[0], {{512}, ""}).right);
  EXPECT_EQ(explain::render(explain::grade(qs[0], {{512}, ""}).why),
            "Not quite: 256 is fastest (0.1000 ms median); within its spread: 128, 256.");
  EXPECT_TRUE(explain::session_questions(s, "reduce0", 256).empty());  // never timed: not asked
}


// Issue 39, item 1, timing: how many times faster than the kernel before it in its track (reduce0 before reduce1 in
// Harris's), right within the spread the timings allow or 15%, whichever is wider; typed as "1.9", "2x" or "2×".
TEST(Questions, ASpeedupIsRightWithinTheTimingsSpread) {
  Session s;
  s.meta.gpu = "NVIDIA H100 80GB HBM3";
  auto row = [](const char* k, double med, double lo, double hi) {
    SessionTiming t;
    t.kernel = k;
    t.block_size = 256;
    t.median_ms = med;
    t.min_ms = lo;
    t.max_ms = hi;
    return t;
  };
  s.timings = {row("reduce0", 0.40, 0.39, 0.44), row("reduce1", 0.20, 0.18, 0.21)};
  const auto qs = explain::session_questions(s, "reduce1", 256);
  const auto q = std::find_if(qs.begin(), qs.end(), [](const auto& x) { return x.kind == explain::QuestionKind::Speedup; });
  ASSERT_NE(q, qs.end());
  EXPECT_EQ(explain::render(q->ask), "At 256 threads on NVIDIA H100 80GB HBM3, how many times faster than reduce0 is reduce1?");
  EXPECT_EQ(q->key_text, "2.00");
  // The spread: 0.39 / 0.21 = 1.857 .. 0.44 / 0.18 = 2.444; 15% of 2: 1.7 .. 2.3.
  for (const char* right : {"2", "2x", "2×", "1.75", "2.4 x"}) EXPECT_TRUE(explain::grade(*q, {{}, right}).right) << right;
  for (const char* wrong : {"1.5", "3", "0.5", "", "two"}) EXPECT_FALSE(explain::grade(*q, {{}, wrong}).right) << wrong;
  EXPECT_TRUE(explain::grade(*q, {{2}, ""}).right);  // a whole number typed
  EXPECT_EQ(explain::render(explain::reason(*q)),
            "reduce0 took 0.4000 ms (median) and reduce1 0.2000 ms: 2.00x; any answer from 1.70x to 2.44x counts (the "
            "timings' spread, at least 15 percent either way).");
  // reduce0 is its track's first kernel: nothing before it to beat.
  const auto first = explain::session_questions(s, "reduce0", 256);
  EXPECT_TRUE(std::none_of(first.begin(), first.end(), [](const auto& x) { return x.kind == explain::QuestionKind::Speedup; }));
  // A wrong sum is no speedup.
  s.timings[0].correct = false;
  const auto wrong = explain::session_questions(s, "reduce1", 256);
  EXPECT_TRUE(std::none_of(wrong.begin(), wrong.end(), [](const auto& x) { return x.kind == explain::QuestionKind::Speedup; }));
}

// Issue 39, item 1, float: do the bits view's runs give the same bits (at one block size; at the smallest and the
// largest), and at which update two runs of the same block part; keys from the session, yes = 1, no = 0.
TEST(Questions, FloatBitsQuestionsTakeTheirKeysFromTheBitsViewAndTheTwoRuns) {
  Session s;
  s.bits.n = 1000;
  s.bits.runs = 10;
  auto row = [](const char* k, uint32_t bits, uint32_t count, std::vector<uint32_t> bs) {
    BitsRow r;
    r.kernel = k;
    r.bits = bits;
    r.count = count;
    r.block_sizes = std::move(bs);
    return r;
  };
  const uint32_t one = 0x3f800000, two = 0x40000000;  // 1.0f, 2.0f
  s.bits.rows = {row("reproducible_sum", one, 20, {32, 1024}), row("sum_shared", one, 6, {32, 1024}),
                 row("sum_shared", two, 14, {32, 1024})};
  auto of = [&](const char* k, uint32_t bs, explain::QuestionKind kind) -> std::optional<explain::Question> {
    for (const auto& q : explain::session_questions(s, k, bs)) {
      if (q.kind == kind) return q;
    }
    return std::nullopt;
  };
  const auto same = of("reproducible_sum", 32, explain::QuestionKind::SameBits);
  ASSERT_TRUE(same);
  EXPECT_EQ(explain::render(same->ask), "reproducible_sum ran 10 times at 32 threads on the same float32 input: do all "
                                        "the runs give the same bits?");
  EXPECT_TRUE(explain::grade(*same, {{1}, ""}).right);
  EXPECT_FALSE(explain::grade(*same, {{0}, ""}).right);
  EXPECT_EQ(explain::render(explain::reason(*same)), "all 10 runs at 32 threads gave 1.");
  const auto differ = of("sum_shared", 1024, explain::QuestionKind::SameBits);
  ASSERT_TRUE(differ);
  EXPECT_EQ(differ->key_text, "no");
  EXPECT_TRUE(explain::grade(*differ, {{0}, ""}).right);
  const auto blocks = of("reproducible_sum", 32, explain::QuestionKind::BitsAcrossBlocks);
  ASSERT_TRUE(blocks);
  EXPECT_EQ(explain::render(blocks->ask), "Does reproducible_sum give the same float32 bits at 32 threads as at 1024 "
                                          "threads, in every run?");
  EXPECT_EQ(blocks->key_text, "yes");
  EXPECT_EQ(of("sum_shared", 32, explain::QuestionKind::BitsAcrossBlocks)->key_text, "no");
  EXPECT_FALSE(of("sum_shared", 64, explain::QuestionKind::SameBits));   // not run at 64: not asked
  EXPECT_FALSE(of("sum_atomic", 32, explain::QuestionKind::SameBits));   // not in the bits view

  // Two runs: the bundled H100 session's sum_atomic (record --two-runs), whose runs part at their first update.
  const Session h100 = load_session(std::string(RS_SOURCE_DIR) + "/assets/sessions/h100-tracks.rssession");
  std::optional<explain::Question> part;
  for (uint32_t bs : kBlockSizes) {
    for (const auto& q : explain::session_questions(h100, "sum_atomic", bs)) {
      if (q.kind == explain::QuestionKind::PartAt && !part) part = q;
    }
  }
  ASSERT_TRUE(part);
  const Trace* t = h100.find_trace("sum_atomic", part->block_size, DType::Float32);
  const TwoRuns r = compare_runs(*t, *h100.other_run("sum_atomic", part->block_size, DType::Float32));
  ASSERT_TRUE(r.first_rounding);
  EXPECT_EQ(part->key.at(0), static_cast<int64_t>(*r.first_rounding) + 1);
  EXPECT_TRUE(explain::grade(*part, {{part->key.at(0)}, ""}).right);
  EXPECT_FALSE(explain::grade(*part, {{part->key.at(0) + 1}, ""}).right);
  EXPECT_EQ(explain::render(explain::reason(*part)), explain::render(explain::two_runs_sentence(r)));
  // No second run of the int32 reduce1: not asked.
  const auto none = explain::session_questions(h100, "reduce1", 256);
  EXPECT_TRUE(std::none_of(none.begin(), none.end(), [](const auto& x) { return x.kind == explain::QuestionKind::PartAt; }));
}

// The claims audit for the questions about the session: every bundled lesson's item of a session kind, on the bundled
// H100 session, has a key, and the key is the session's by a second route: the timings' medians, the bits view's
// rows counted here, the two runs compared here.
TEST(Questions, EveryLessonsSessionQuestionHasTheSessionsKey) {
  const Session s = load_session(std::string(RS_SOURCE_DIR) + "/assets/sessions/h100-tracks.rssession");
  auto patterns = [&](const std::string& k, uint32_t bs) {
    std::set<uint32_t> p;
    for (const BitsRow& r : s.bits.rows) {
      if (r.kernel == k && std::count(r.block_sizes.begin(), r.block_sizes.end(), bs)) p.insert(r.bits);
    }
    return p;
  };
  int checked = 0;
  for (const Lesson& l : bundled_lessons()) {
    for (const LessonItem& it : l.items) {
      if (!explain::is_session_kind(it.ask) || it.kernel == kYoursKernel) continue;
      const std::string where = l.name + ": " + it.kernel + " " + explain::to_string(it.ask);
      std::optional<explain::Question> q;
      for (const auto& x : explain::session_questions(s, it.kernel, it.block_size)) {
        if (x.kind == it.ask) q = x;
      }
      ASSERT_TRUE(q) << where << ": no key";
      ++checked;
      switch (it.ask) {
        case explain::QuestionKind::FastestBlock: {
          double best = 1e30;
          uint32_t at = 0;
          for (const SessionTiming& t : s.timings) {
            if (t.kernel == it.kernel && t.correct && t.median_ms < best) best = t.median_ms, at = t.block_size;
          }
          EXPECT_EQ(q->index, at) << where;
          EXPECT_TRUE(explain::grade(*q, {{at}, ""}).right) << where;
          break;
        }
        case explain::QuestionKind::Speedup: {
          const auto order = track_kernels(find_kernel(it.kernel)->track);
          size_t i = 0;
          while (kernel_info(order[i]).name != it.kernel) ++i;
          ASSERT_GT(i, 0u) << where;
          const double ratio = s.find_timing(kernel_info(order[i - 1]).name, it.block_size)->median_ms /
                               s.find_timing(it.kernel, it.block_size)->median_ms;
          EXPECT_NEAR(std::stod(q->key_text), ratio, 0.006) << where;
          EXPECT_TRUE(explain::grade(*q, {{}, q->key_text}).right) << where;
          EXPECT_FALSE(explain::grade(*q, {{}, std::to_string(ratio * 2)}).right) << where;
          break;
        }
        case explain::QuestionKind::SameBits:
          EXPECT_EQ(q->key.at(0), patterns(it.kernel, it.block_size).size() == 1 ? 1 : 0) << where;
          break;
        case explain::QuestionKind::BitsAcrossBlocks: {
          const auto a = patterns(it.kernel, 32), b = patterns(it.kernel, 1024);
          EXPECT_EQ(q->key.at(0), a.size() == 1 && a == b ? 1 : 0) << where;
          break;
        }
        case explain::QuestionKind::PartAt: {
          const TwoRuns r = compare_runs(*s.find_trace(it.kernel, it.block_size, DType::Float32),
                                         *s.other_run(it.kernel, it.block_size, DType::Float32));
          ASSERT_TRUE(r.first_rounding) << where;
          EXPECT_EQ(q->key.at(0), static_cast<int64_t>(*r.first_rounding) + 1) << where;
          break;
        }
        case explain::QuestionKind::RunsRight: {  // the runs of `pitfalls --out`, read here from the metric itself
          const SessionMetric* m = s.find_metric(it.kernel, it.block_size, "wrong_runs");
          ASSERT_NE(m, nullptr) << where;
          ASSERT_EQ(m->unit, "of 100 runs") << where;
          EXPECT_EQ(q->key.at(0), 100 - static_cast<int64_t>(m->value)) << where;
          EXPECT_TRUE(explain::grade(*q, {{q->key.at(0)}, ""}).right) << where;
          EXPECT_FALSE(explain::grade(*q, {{q->key.at(0) > 50 ? 0 : 100}, ""}).right) << where;
          break;
        }
        case explain::QuestionKind::RaceLine: {  // racecheck's race, and its line in the kernel's source
          const auto races = s.races_of(it.kernel, it.block_size);
          ASSERT_FALSE(races.empty()) << where;
          EXPECT_EQ(q->key.at(0), races.front()->second_line) << where;
          EXPECT_NE(explain::render(q->ask).find("line " + std::to_string(races.front()->first_line)), std::string::npos)
              << where;
          EXPECT_FALSE(explain::grade(*q, {{q->key.at(0) + 1}, ""}).right) << where;
          break;
        }
        case explain::QuestionKind::RingChunk: {  // the ring's rule (Patarasuk & Yuan) against the recorded event
          const RingRecording* ring = nullptr;
          for (const RingRecording& r : s.multigpu.rings) {
            if (!ring || r.bytes > ring->bytes) ring = &r;
          }
          ASSERT_NE(ring, nullptr) << where;
          const uint32_t g = ring->gpus;
          EXPECT_EQ(q->key.at(0), static_cast<int64_t>((0 + 1) % g)) << where << ": all-gather step 0 sends (g + 1) mod G";
          for (const RingTransfer& t : ring_schedule(g)) {
            if (t.step == g - 1 && t.from == 0) EXPECT_EQ(q->key.at(0), static_cast<int64_t>(t.chunk)) << where;
          }
          break;
        }
        case explain::QuestionKind::RingBytes: {  // 2(G-1) chunks of ring_chunk's sizes
          const RingRecording* ring = nullptr;
          for (const RingRecording& r : s.multigpu.rings) {
            if (!ring || r.bytes > ring->bytes) ring = &r;
          }
          ASSERT_NE(ring, nullptr) << where;
          uint64_t bytes = 0;
          for (const RingTransfer& t : ring_schedule(ring->gpus)) {
            if (t.from == 0) bytes += ring_chunk(ring->bytes / 4, ring->gpus, t.chunk).size() * 4;
          }
          EXPECT_EQ(q->key.at(0), static_cast<int64_t>(bytes)) << where;
          EXPECT_TRUE(explain::grade(*q, {{q->key.at(0)}, ""}).right) << where;
          EXPECT_FALSE(explain::grade(*q, {{static_cast<int64_t>(ring->bytes) * 2}, ""}).right) << where;
          break;
        }
        case explain::QuestionKind::DistinctSums: {
          const SessionMetric* m = s.find_metric(it.kernel, it.block_size, "distinct_sums");
          ASSERT_NE(m, nullptr) << where;
          EXPECT_EQ(q->key.at(0), static_cast<int64_t>(m->value)) << where;
          EXPECT_FALSE(explain::grade(*q, {{1}, ""}).right) << where << ": one sum is the wrong guess here";
          break;
        }
        default:
          break;
      }
    }
  }
  EXPECT_GE(checked, 18);  // harris 3, lecture 2, modern 1, float 4, pitfalls 7, multigpu 2
}

// Issue 39, item 2: every bundled lesson parses, and each of its items asks at least one question of the bundled H100
// session (a lesson that asks nothing the trace can answer is a defect of the lesson); the words are in both languages.
TEST(Lessons, EveryBundledLessonAsksQuestionsOfTheBundledSession) {
  const Session bundled = load_session(std::string(RS_SOURCE_DIR) + "/assets/sessions/h100-tracks.rssession");
  // The lesson for a kernel file ("kernel": "yours") asks of a session `record --kernel-file` made on the H100.
  const Session yours = load_session(std::string(RS_SOURCE_DIR) + "/tests/fixtures/yours/my_reduce1.rssession");
  ASSERT_GE(bundled_lessons().size(), 1u);
  for (const Lesson& l : bundled_lessons()) {
    const bool of_yours = std::any_of(l.items.begin(), l.items.end(), [](const LessonItem& it) {
      return it.kernel == kYoursKernel;
    });
    const Session& s = of_yours ? yours : bundled;
    int yours_asked = 0;
    EXPECT_FALSE(l.title.en.empty() || l.title.zh.empty()) << l.name << ": a title in both languages";
    for (const LessonItem& it : l.items) {
      const std::string where = l.name + ": " + it.kernel + " at " + std::to_string(it.block_size) + ", " +
                                explain::to_string(it.ask);
      EXPECT_FALSE(it.say.en.empty() || it.say.zh.empty()) << where << ": words in both languages";
      if (explain::is_session_kind(it.ask)) {
        const auto qs = explain::session_questions(s, it.kernel_in(s), it.block_size);
        EXPECT_TRUE(std::any_of(qs.begin(), qs.end(), [&](const auto& q) { return q.kind == it.ask; })) << where;
        continue;
      }
      const Trace* t = nullptr;
      for (const Trace& x : s.traces) {
        if (!t && it.matches(x.meta) && (it.type || x.meta.dtype == DType::Int32)) t = &x;
      }
      if (!t && !it.type) t = s.find_trace(it.kernel, it.block_size, DType::Float32);
      ASSERT_NE(t, nullptr) << where << ": no trace in the session";
      const Replay r(*t);
      const explain::TraceFacts facts = explain::trace_facts(r, t->source, explain::context_in(&s, t->meta));
      int asked = 0;
      for (size_t si = 0; si < r.num_steps(); ++si) {
        if (!it.steps.empty() && std::find(it.steps.begin(), it.steps.end(), si) == it.steps.end()) continue;
        for (const auto& q : explain::step_questions(r, facts, si)) asked += q.kind == it.ask;
      }
      // Each step asks one question: an item whose step another item before it takes is never asked (issue 39: the
      // page's test found cub's conflict question hidden behind its warps question at the same step).
      if (it.kernel != kYoursKernel) {
        for (size_t si : it.steps) {
          const auto qs = explain::step_questions(r, facts, si);
          if (std::none_of(qs.begin(), qs.end(), [&](const auto& q) { return q.kind == it.ask; })) continue;
          const auto asked_here = predict_question(&l, t->meta, qs, si);
          EXPECT_TRUE(asked_here && asked_here->item == &it) << where << ": step " << si << " asks another item's question";
        }
      }
      // A kernel file's lesson is written before the student's kernel: an item about shuffles asks nothing of a
      // kernel without any (reduce1's file here), so the lesson as a whole must ask, not each item.
      if (it.kernel == kYoursKernel) yours_asked += asked;
      else EXPECT_GT(asked, 0) << where << ": asks nothing the trace can answer";
    }
    if (of_yours) EXPECT_GE(yours_asked, 5) << l.name << ": asks little of a kernel file's trace";
  }
}

TEST(Lessons, ABadLessonIsRefusedWithItsReason) {
  auto why = [](const std::string& json) {
    try {
      parse_lesson(json, "mine");
    } catch (const LessonError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string head = R"({"format": "reducescope-lesson", "version": 1, "items": [)";
  EXPECT_EQ(why("{"), why("{")) << "deterministic";
  EXPECT_NE(why("{").find("not valid JSON"), std::string::npos);
  EXPECT_NE(why(R"({"format": "x", "version": 1, "items": []})").find("\"format\""), std::string::npos);
  EXPECT_NE(why(R"({"format": "reducescope-lesson", "version": 2, "items": []})").find("newer than this build"),
            std::string::npos);
  EXPECT_NE(why(head + "]}").find("non-empty"), std::string::npos);
  EXPECT_NE(why(head + R"({"kernel": "reduce9", "ask": "warps"}]})").find("unknown kernel \"reduce9\""),
            std::string::npos);
  EXPECT_NE(why(head + R"({"kernel": "reduce1", "ask": "banks"}]})").find("not one of warps"), std::string::npos);
  EXPECT_NE(why(head + R"({"kernel": "reduce1", "block_size": 100, "ask": "conflict"}]})").find("power of two"),
            std::string::npos);
  EXPECT_NE(why(head + R"({"kernel": "reduce1", "ask": "conflict", "steps": [-1]}]})").find("step"), std::string::npos);
  const Lesson l = parse_lesson(head + R"({"kernel": "reduce1", "ask": "conflict", "steps": [3, 1], "say": "Go."}]})",
                                "mine");
  ASSERT_EQ(l.items.size(), 1u);
  EXPECT_EQ(l.items[0].block_size, 256u);
  EXPECT_EQ(l.items[0].steps, (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(l.items[0].say.en, "Go.");
  EXPECT_EQ(l.items[0].ask, explain::QuestionKind::Conflict);
}


// The question Predict mode asks (the window's predict_question; the page's questionAt does the same): the lesson's
// where it covers the kernel at the block size, none at the steps it leaves out, else the step's default.
TEST(Lessons, PredictModeAsksTheLessonsQuestionElseTheDefault) {
  const Session s = load_session(std::string(RS_SOURCE_DIR) + "/assets/sessions/h100-tracks.rssession");
  const Lesson* harris = nullptr;
  for (const Lesson& l : bundled_lessons()) {
    if (l.name == "harris") harris = &l;
  }
  ASSERT_NE(harris, nullptr);
  auto asked = [&](const std::string& kernel, size_t step, const Lesson* l) {
    const Trace* t = s.find_trace(kernel, 256, DType::Int32);
    const Replay r(*t);
    const auto facts = explain::trace_facts(r, t->source, explain::context_in(&s, t->meta));
    return predict_question(l, t->meta, explain::step_questions(r, facts, step), step);
  };
  const auto q1 = asked("reduce1", 2, harris);  // reduce1 at step 2: the lesson's conflict, 4-way
  ASSERT_TRUE(q1);
  EXPECT_EQ(q1->q.kind, explain::QuestionKind::Conflict);
  EXPECT_EQ(q1->q.key.at(0), 4);
  ASSERT_NE(q1->item, nullptr);
  EXPECT_FALSE(q1->item->say.en.empty());
  EXPECT_FALSE(asked("reduce1", 7, harris)) << "the lesson covers reduce1 at 256 but not step 7";
  const auto q2 = asked("reduce0", 1, harris);  // the lanes question the lesson asks there
  ASSERT_TRUE(q2);
  EXPECT_EQ(q2->q.kind, explain::QuestionKind::ActiveLanes);
  EXPECT_EQ(q2->q.key.at(0), 16);
  const auto q3 = asked("sum_reduce", 1, harris);  // not in the lesson: the default (conflict first)
  ASSERT_TRUE(q3);
  EXPECT_EQ(q3->item, nullptr);
  EXPECT_EQ(q3->q.kind, explain::QuestionKind::Conflict);
  const auto q4 = asked("reduce1", 7, nullptr);  // no lesson: the default
  ASSERT_TRUE(q4);
  EXPECT_EQ(q4->q.kind, explain::QuestionKind::Conflict);
  // reduce6 at 256: harris asks only which block size is fastest (a question about the session, in its panel), which
  // covers the kernel: no default step question there; without the lesson, the default.
  for (size_t step = 0; step < 4; ++step) EXPECT_FALSE(asked("reduce6", step, harris)) << "step " << step;
  EXPECT_TRUE(asked("reduce6", 0, nullptr) || asked("reduce6", 1, nullptr) || asked("reduce6", 2, nullptr));
}

}  // namespace
}  // namespace rs
