// `reducescope show`: validates a saved trace or session and prints its summary; summarize_trace and
// summarize_session are also what `trace`, `histogram` and the window print for a trace or a session.
#include "commands.hpp"

#include <algorithm>
#include <bit>
#include <iterator>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "common.hpp"
#include "facts.hpp"
#include "lessons.hpp"
#include "questions.hpp"
#include "pitfall_words.hpp"
#include "racecheck.hpp"
#include "trace_io.hpp"
#include "stored.hpp"  // explain: the two runs in words
#include "two_runs.hpp"

namespace rs {

using namespace cmd;

std::string summarize_trace(const Trace& t, const Replay& replay) {
  const TraceMeta& m = t.meta;
  char b[512];
  // The kernel's name first, whole (a program's demangled template name can fill a buffer by itself).
  std::string s = m.kernel;
  // The launch traced (version 5): a program's K-th launch of the kernel, not its first.
  const std::string launch = m.launch > 1 ? "launch " + std::to_string(m.launch) : std::string("the first launch");
  std::snprintf(b, sizeof b,
                " (track %s, %s), block size %u, block %u of %u in %s, N = %llu (%s)\n"
                "recorded on %s (compute capability %s, CUDA %s) at %s by ReduceScope %s\n"
                "%zu records, %zu steps, %d warps; result %s\n"
                "bank conflicts (extra wavefronts, 32 banks x 4 bytes): loads %d, stores %d\n",
                m.track.c_str(), to_string(m.dtype), m.block_size, m.traced_block, m.grid_size, launch.c_str(),
                static_cast<unsigned long long>(m.n), m.pattern.c_str(), m.gpu.c_str(), m.compute_capability.c_str(),
                m.cuda_version.c_str(), m.date.c_str(), m.tool_version.c_str(), t.records.size(), replay.num_steps(),
                replay.num_warps(), value_str(m.result, m.dtype).c_str(), replay.load_conflicts(),
                replay.store_conflicts());
  s += b;
  s += std::string("recorded by ") + to_string(m.tracer) + "\n";
  if (!m.notes.empty()) {
    size_t start = 0;
    while (start <= m.notes.size()) {
      const size_t nl = m.notes.find('\n', start);
      s += "  note: " + m.notes.substr(start, nl == std::string::npos ? std::string::npos : nl - start) + "\n";
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
  }
  if (replay.has_lane_work() || replay.has_atomics() || replay.has_global()) {
    std::snprintf(b, sizeof b,
                  "warp-level instructions: %d shuffles, %d shared atomics, %d global atomics, %d global load "
                  "requests, %d global store requests\n",
                  replay.shuffle_instruction_count(), replay.atomic_instruction_count(AccessKind::SharedAtomic),
                  replay.atomic_instruction_count(AccessKind::GlobalAtomic),
                  replay.global_request_count(AccessKind::GlobalLoad),
                  replay.global_request_count(AccessKind::GlobalStore));
    s += b;
  }
  if (replay.has_atomics()) {
    // The serialisation each warp-level atomic forces: its worst address takes that many updates in
    // turn. A float add on shared memory is a compare-and-swap loop on sm_90 (ATOMS.CAST.SPIN), so
    // Nsight Compute counts at least this many shared-atomic instructions for it.
    int shared_rounds = 0, global_rounds = 0;
    for (const WarpAtomic& a : replay.atomics()) {
      (a.kind == AccessKind::SharedAtomic ? shared_rounds : global_rounds) += a.max_contention;
    }
    std::snprintf(b, sizeof b, "atomic rounds (worst address per warp instruction, summed): shared %d, global %d\n",
                  shared_rounds, global_rounds);
    s += b;
  }
  if (replay.has_global()) {
    int sectors = 0, min_sectors = 0, bytes = 0;
    for (const GlobalRequest& g : replay.global_requests()) {
      if (g.kind != AccessKind::GlobalLoad) continue;
      sectors += g.sectors;
      min_sectors += g.min_sectors;
      bytes += g.requested_bytes;
    }
    std::snprintf(b, sizeof b,
                  "global load sectors: %d (32 bytes each; at least %d needed), %.0f%% efficiency (requested bytes / "
                  "bytes in the sectors touched)\n",
                  sectors, min_sectors, sectors ? 100.0 * bytes / (32.0 * sectors) : 0.0);
    s += b;
  }
  s += "active warps per step:";
  for (const Step& st : replay.steps()) {
    s += ' ';
    s += std::to_string(st.active_warps());
  }
  s += "\n";
  return s;
}

namespace {

// The pitfalls' results in the window's words (pitfall_words), each kernel at each block size the session
// has results, a timing or a trace for; every race on its own line.
std::string pitfall_section(const Session& s) {
  std::string out;
  for (KernelId id : track_kernels("pitfalls")) {
    const KernelInfo& k = kernel_info(id);
    for (uint32_t bs : s.block_sizes()) {
      if (!s.find_metric(k.name, bs, "wrong_runs") && !s.find_timing(k.name, bs) && !s.find_trace(k.name, bs)) continue;
      if (out.empty()) out = "\npitfalls (reducescope pitfalls --out)\n";
      const PitfallWords w = pitfall_words(&s, k, bs);
      out += std::string(k.name) + " @" + std::to_string(bs) + ": " + w.verdict + "\n";
      if (!w.results.empty()) out += "  " + w.results + " (" + w.results_how + ")\n";
      if (!w.races.empty()) out += "  " + w.races + "\n";
      for (const SessionRace* r : s.races_of(k.name, bs)) out += "    " + describe_race(*r) + " (" + r->file + ")\n";
      if (!w.missing.empty()) out += "  " + w.missing + "\n";
      if (!w.fix.empty()) out += "  the fix: " + w.fix + "\n";
    }
  }
  return out;
}

// The bits view (`reducescope bits --out`): each float32 kernel's distinct result bit patterns.
std::string bits_section(const Session& s) {
  const SessionBits& v = s.bits;
  if (v.empty()) return "";
  std::string out = "\nbits of float32 sums (reducescope bits), N = " + std::to_string(v.n) + " (" + v.pattern + "), " +
                    std::to_string(v.runs) + " runs at each block size; the exact sum rounded once: " +
                    format_value(v.exact_bits, DType::Float32) + "\n";
  std::string kernel;
  for (const BitsRow& r : v.rows) {
    if (r.kernel != kernel) {
      kernel = r.kernel;
      size_t patterns = 0;
      for (const BitsRow& x : v.rows) patterns += x.kernel == kernel;
      char b[96];
      std::snprintf(b, sizeof b, "%s%-24s %3zu pattern%s  ", out.back() == '\n' ? "" : "\n", kernel.c_str(), patterns,
                    patterns == 1 ? " " : "s");
      out += b;
    } else {
      out += "; ";
    }
    std::string sizes;
    for (uint32_t bs : r.block_sizes) {
      if (bs) sizes += (sizes.empty() ? "" : ",") + std::to_string(bs);
    }
    out += format_value(r.bits, DType::Float32) + " (" + ulps_text(r.bits, v.exact_bits) + ") x" + std::to_string(r.count) +
           (sizes.empty() ? "" : " [" + sizes + "]");
    if (v.wrong(r.bits)) {
      float got;
      std::memcpy(&got, &r.bits, 4);
      const std::string why = float_sum_note(got, v.exact);
      out += " WRONG" + (why.empty() ? std::string() : " (" + why + ")");
    }
  }
  return out + "\n";
}

// Every other metric (Nsight Compute's, from `reducescope profile`): kernel, block size, the source's
// name, the value and unit, and how it was measured.
std::string metrics_section(const Session& s) {
  static const char* const kPitfallMetrics[] = {"wrong_runs", "distinct_sums", "racecheck_hazards"};
  std::string out;
  char b[512];
  for (const SessionMetric& m : s.metrics) {
    if (std::find(std::begin(kPitfallMetrics), std::end(kPitfallMetrics), m.name) != std::end(kPitfallMetrics)) continue;
    if (out.empty()) {
      std::snprintf(b, sizeof b, "\nprofiler metrics (reducescope profile)\n%-26s %5s  %-24s %14s  %s\n", "kernel", "bs",
                    "name", "value", "unit (Nsight Compute metric)");
      out = b;
    }
    std::snprintf(b, sizeof b, "%-26s %5u  %-24s %14.6g  %s (%s)\n", m.kernel.c_str(), m.block_size, m.name.c_str(),
                  m.value, m.unit.c_str(), m.ncu_metric.c_str());
    out += b;
  }
  return out;
}

}  // namespace

std::string summarize_session(const Session& s) {
  const SessionMeta& m = s.meta;
  char b[1024];
  std::snprintf(b, sizeof b,
                "recorded on %s (compute capability %s, %u SMs, CUDA %s) at %s by ReduceScope %s\n"
                "N = %llu int32, pattern %s; timing: %s\n"
                "theoretical peak %.1f GB/s; device-to-device copy %.1f GB/s; cub::DeviceReduce::Sum %.4f ms (%.1f GB/s)\n",
                m.gpu.c_str(), m.compute_capability.c_str(), m.sm_count, m.cuda_version.c_str(), m.date.c_str(),
                m.tool_version.c_str(), static_cast<unsigned long long>(m.n), m.pattern.c_str(), m.method.c_str(),
                m.peak_gbps, m.copy_gbps, m.cub_ms, m.cub_gbps);
  std::string out = b;
  for (const TrackInfo& track : track_table()) {
   for (uint32_t bs : s.block_sizes()) {
    bool any = false;
    for (KernelId id : track_kernels(track.id)) any = any || s.find_timing(kernel_info(id).name, bs);
    if (!any) continue;
    std::snprintf(b, sizeof b, "\ntrack %s, %u threads per block\n%-26s %10s %21s %9s %7s %6s %11s %3s  %s\n", track.id,
                  bs, "kernel", "time ms", "[min .. max] ms", "GB/s", "% peak", "step", "cumulative", "L", "result");
    out += b;
    // Speedups only between kernels that do the same job (table_speedups).
    std::vector<KernelId> ids;
    std::vector<double> ms;
    for (KernelId id : track_kernels(track.id)) {
      ids.push_back(id);
      const SessionTiming* t = s.find_timing(kernel_info(id).name, bs);
      ms.push_back(t ? t->median_ms : 0.0);
    }
    const std::vector<Speedup> sp = table_speedups(ids, ms);
    for (size_t i = 0; i < ids.size(); ++i) {
      const KernelInfo& k = kernel_info(ids[i]);
      const SessionTiming* t = s.find_timing(k.name, bs);
      if (!t) continue;
      const std::string launches = t->launches ? std::to_string(t->launches) : "-";
      char step[16];
      if (sp[i].step > 0) std::snprintf(step, sizeof step, "%5.2fx", sp[i].step);
      else std::snprintf(step, sizeof step, "%6s", "-");
      std::snprintf(b, sizeof b, "%-26s %10.4f   [%7.4f .. %7.4f] %9.1f %6.1f%% %s %10.2fx %3s  %s%s%s\n", k.name,
                    t->median_ms, t->min_ms, t->max_ms, t->gbps, t->pct_peak, step, sp[i].cumulative, launches.c_str(),
                    t->correct ? "correct" : "WRONG", k.pitfall && !k.surprise && !t->correct ? " (on purpose)" : "",
                    s.find_trace(k.name, bs) ? ", traced" : "");
      out += b;
    }
   }
  }
  // Kernels of the user's (`record --kernel-file`, track "yours"): no registry row, so a table of their own, against
  // CUB's time in the same session.
  bool yours_header = false;
  for (const SessionTiming& t : s.timings) {
    if (find_kernel(t.kernel)) continue;
    if (!yours_header) {
      std::snprintf(b, sizeof b, "\ntrack yours (kernel files: record --kernel-file)\n%-26s %6s %10s %21s %9s %7s %8s %3s  %s\n",
                    "kernel", "block", "time ms", "[min .. max] ms", "GB/s", "% peak", "vs CUB", "L", "result");
      out += b;
      yours_header = true;
    }
    const std::string launches = t.launches ? std::to_string(t.launches) : "-";
    std::snprintf(b, sizeof b, "%-26s %6u %10.4f   [%7.4f .. %7.4f] %9.1f %6.1f%% %7.2fx %3s  %s%s\n", t.kernel.c_str(),
                  t.block_size, t.median_ms, t.min_ms, t.max_ms, t.gbps, t.pct_peak,
                  m.cub_ms > 0 && t.median_ms > 0 ? m.cub_ms / t.median_ms : 0.0, launches.c_str(),
                  t.correct ? "correct" : "WRONG", s.find_trace(t.kernel, t.block_size) ? ", traced" : "");
    out += b;
  }
  if (!s.sweep.empty()) {  // GB/s of each series' fastest kernel at each N (`reducescope sweep`)
    const std::vector<uint64_t> ns = s.sweep.ns();
    out += "\nN sweep (GB/s; each track's fastest correct kernel over every block size; " + s.sweep.gpu + ")\n";
    std::snprintf(b, sizeof b, "%-24s", "series \\ N");
    out += b;
    for (uint64_t n : ns) {
      const int e = std::bit_width(n) - 1;
      std::snprintf(b, sizeof b, " %7s", ((uint64_t{1} << e) == n ? "2^" + std::to_string(e) : std::to_string(n)).c_str());
      out += b;
    }
    out += "\n";
    for (const std::string& series : s.sweep.series()) {
      std::snprintf(b, sizeof b, "%-24s", series.c_str());
      out += b;
      for (uint64_t n : ns) {
        const SweepPoint* p = s.sweep.find(series, n);
        if (p) std::snprintf(b, sizeof b, " %7.0f", p->gbps);
        else std::snprintf(b, sizeof b, " %7s", "-");
        out += b;
      }
      out += "\n";
    }
  }
  out += bits_section(s);
  if (!s.multigpu.empty()) out += "\nmulti-GPU recording (reducescope record --track multigpu): " + summarize_multigpu(s.multigpu);
  out += pitfall_section(s);
  out += metrics_section(s);
  out += "\n";  // two appends: "\n" + std::to_string(...) trips GCC 12's -Wrestrict false positive here
  out += std::to_string(s.traces.size()) + " traces, " + std::to_string(s.timings.size()) + " timings";
  if (!s.metrics.empty()) out += ", " + std::to_string(s.metrics.size()) + " metrics";
  if (!s.races.empty()) out += ", " + std::to_string(s.races.size()) + " racecheck races";
  out += "\n";
  return out;
}

// A trace's second run (Session::other_runs, `record --two-runs`): both sums, and where the block's float atomics part.
std::string two_runs_lines(const TwoRuns& r) {
  std::string s = "another run of the same block (record --two-runs): result " +
                  value_str(static_cast<int32_t>(r.b.result), DType::Float32) + " against " +
                  value_str(static_cast<int32_t>(r.a.result), DType::Float32) + "; " +
                  std::to_string(r.a.updates.size()) + " and " + std::to_string(r.b.updates.size()) +
                  " float atomic updates of the block\n";
  if (r.first_order) s += "  the landing order differs from update " + std::to_string(*r.first_order + 1) + "\n";
  s += "  " + explain::render(explain::two_runs_sentence(r)) + "\n";
  return s;
}

// What a session kind needs of the session, for the line saying why it was not asked.
std::string session_needs(const LessonItem& it) {
  const std::string at = " at " + std::to_string(it.block_size) + " threads";
  switch (it.ask) {
    case explain::QuestionKind::FastestBlock: return "timings of " + it.kernel + " at two or more block sizes";
    case explain::QuestionKind::Speedup: return "timings of " + it.kernel + " and the kernel before it" + at;
    case explain::QuestionKind::SameBits: return "the bits view's runs of " + it.kernel + at + ", reducescope bits";
    case explain::QuestionKind::BitsAcrossBlocks:
      return "the bits view's runs of " + it.kernel + " at two or more block sizes";
    case explain::QuestionKind::PartAt:
      return "two runs of " + it.kernel + "'s float32 trace" + at + " that part, record --two-runs";
    default: return "";
  }
}

// show --lesson: each item of `l` against the file's traces: the questions it asks, with the trace's answers, or
// why it asks none (docs/lessons.md).
std::string lesson_report(const Lesson& l, const Session* s, const std::vector<const Trace*>& traces) {
  std::string out = "lesson " + l.name + (l.title.en.empty() ? "" : ": " + l.title.en) + "\n";
  int asked = 0;
  for (const LessonItem& it : l.items) {
    out += "  " + it.kernel + " at " + std::to_string(it.block_size) + ", " + explain::to_string(it.ask) + ":";
    if (!it.say.en.empty()) out += " \"" + it.say.en + "\"";
    out += "\n";
    if (explain::is_session_kind(it.ask)) {
      const std::string kernel = s ? it.kernel_in(*s) : "";  // "yours": the session's kernel file's name
      std::vector<explain::Question> qs = !kernel.empty() ? explain::session_questions(*s, kernel, it.block_size)
                                                          : std::vector<explain::Question>{};
      qs.erase(std::remove_if(qs.begin(), qs.end(), [&](const auto& q) { return q.kind != it.ask; }), qs.end());
      if (qs.empty()) out += "    not asked: the session cannot answer it (" + session_needs(it) + ")\n";
      for (const explain::Question& q : qs) {
        out += "    " + explain::render(q.ask) + " -> " +
               (q.kind == explain::QuestionKind::FastestBlock ? std::to_string(q.index) : q.key_text) + "\n";
        out += "      " + explain::render(explain::reason(q)) + "\n";
        ++asked;
      }
      continue;
    }
    const Trace* t = nullptr;
    for (const Trace* x : traces) {
      if (it.matches(x->meta)) {
        t = x;
        break;
      }
    }
    if (!t) {
      out += "    not asked: no trace of " + it.kernel + " at " + std::to_string(it.block_size) + " threads here\n";
      continue;
    }
    const Replay r(*t);
    const explain::TraceFacts facts = explain::trace_facts(r, t->source, explain::context_in(s, t->meta));
    for (size_t si = 0; si < r.num_steps(); ++si) {
      const bool listed = std::find(it.steps.begin(), it.steps.end(), si) != it.steps.end();
      if (!it.steps.empty() && !listed) continue;
      const auto qs = explain::step_questions(r, facts, si);
      const auto q = std::find_if(qs.begin(), qs.end(), [&](const auto& x) { return x.kind == it.ask; });
      if (q != qs.end()) {
        std::string key = q->key_text;
        if (q->kind == explain::QuestionKind::WorkingWarps) key = "warps " + key;
        if (q->kind == explain::QuestionKind::ShuffleSource) {
          key = "lane " + std::to_string(q->key.at(0)) + " (value " + q->key_text + ")";
        }
        out += "    step " + std::to_string(si) + ": " + explain::render(q->ask) + " -> " + key + "\n";
        ++asked;
      } else if (listed) {
        out += "    step " + std::to_string(si) + ": not asked (the trace cannot answer it at this step)\n";
      }
    }
    for (uint32_t si : it.steps) {
      if (si >= r.num_steps()) out += "    step " + std::to_string(si) + ": not asked (the trace has " +
                                      std::to_string(r.num_steps()) + " steps)\n";
    }
  }
  out += "  " + std::to_string(asked) + " questions\n";
  return out;
}

int run_show(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("show", err, [&] {
    if (!o.lesson.empty()) {
      std::vector<Lesson> lessons = o.lesson == "bundled" ? bundled_lessons() : std::vector<Lesson>{bundled_or_file_lesson(o.lesson)};
      Session s;
      std::vector<Trace> own;
      std::vector<const Trace*> traces;
      const bool session = is_session_file(o.file);
      if (session) {
        s = load_session(o.file);
        for (const Trace& t : s.traces) traces.push_back(&t);
      } else {
        own.push_back(load_trace(o.file));
        traces.push_back(&own.back());
      }
      for (const Lesson& l : lessons) out << lesson_report(l, session ? &s : nullptr, traces);
      return kExitOk;
    }
    if (is_session_file(o.file)) {
      const Session s = load_session(o.file);
      out << o.file << ": ReduceScope session\n" << summarize_session(s);
      for (const Trace& t : s.traces) {
        Replay replay(t);
        out << "\n" << summarize_trace(t, replay);
        if (const Trace* other = s.other_run(t.meta.kernel, t.meta.block_size, t.meta.dtype)) {
          out << two_runs_lines(compare_runs(t, *other));
        }
        if (o.steps) {
          for (size_t i = 0; i < replay.num_steps(); ++i) out << "\n" << describe_step(replay, i, t.source);
        }
      }
      return kExitOk;
    }
    Trace t = load_trace(o.file);
    Replay replay(t);
    out << o.file << ": ReduceScope trace\n" << summarize_trace(t, replay);
    if (o.steps) {
      for (size_t i = 0; i < replay.num_steps(); ++i) out << "\n" << describe_step(replay, i, t.source);
    }
    return kExitOk;
  });
}

}  // namespace rs
