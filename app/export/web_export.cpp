#include "web_export.hpp"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <system_error>
#include <unistd.h>

#include "gpu_reduce.hpp"  // kernel_source, kToolVersion
#include "input.hpp"  // float_sum_note
#include "pitfall_words.hpp"
#include "histogram.hpp"
#include "exact_steps.hpp"
#include "facts.hpp"      // explain: the trace's facts and the sentences made of them (issue 38)
#include "sentences.hpp"
#include "stored.hpp"     // explain: stored English read back, atomic targets
#include "kernel_info.hpp"
#include "two_runs.hpp"
#include "multigpu.hpp"
#include "views.hpp"   // explain: views_in_order, stores_warp_reduce_result, the idle line: as the window
#include "replay.hpp"
#include "web_assets.hpp"
#include "web_i18n.hpp"
#include "lessons.hpp"
#include "questions.hpp"
#include "web_json.hpp"

namespace rs {

namespace {

using webjson::Json;
using webjson::said;

// Runs of set flags as [start, count, start, count, ...].
std::vector<uint32_t> ranges(const std::vector<uint8_t>& flags) {
  std::vector<uint32_t> r;
  for (size_t i = 0; i < flags.size();) {
    if (!flags[i]) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < flags.size() && flags[j]) ++j;
    r.push_back(static_cast<uint32_t>(i));
    r.push_back(static_cast<uint32_t>(j - i));
    i = j;
  }
  return r;
}

// Per-lane values of the lanes in `mask`, ascending lane; with `delta`, each after the first as
// the difference from the one before (addresses of one warp are mostly evenly spaced, which
// deflate then shrinks to almost nothing).
template <class A>
std::vector<int64_t> lane_values(const A& per_lane, uint32_t mask, bool delta) {
  std::vector<int64_t> v;
  int64_t prev = 0;
  bool first = true;
  for (int l = 0; l < kWarpSize; ++l) {
    if (!(mask >> l & 1u)) continue;
    const int64_t x = static_cast<int64_t>(per_lane[l]);
    v.push_back(delta && !first ? x - prev : x);
    prev = x;
    first = false;
  }
  return v;
}

// Cells whose value or definedness changed from `prev` to `now`, as [cell, value, ...].
void changed_cells(Json& j, const char* k, const std::vector<int32_t>& prev_v, const std::vector<uint8_t>& prev_d,
                   const std::vector<int32_t>& now_v, const std::vector<uint8_t>& now_d) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < now_v.size(); ++i) {
    const bool was = i < prev_d.size() && prev_d[i];
    if (!now_d[i]) continue;
    if (!was || prev_v[i] != now_v[i]) {
      out.push_back(static_cast<int64_t>(i));
      out.push_back(now_v[i]);
    }
  }
  if (!out.empty()) j.ints(k, out);
}

// Whether the page may hold `t`: one trace per kernel, block size and element type, the source probe's where the
// session also holds the binary tracer's (the window's key B; the page shows the binary tracer's where it is the
// only one: a plain kernel file, CUB).
bool on_page(const Session& s, const Trace& t) {
  return s.find_trace(t.meta.kernel, t.meta.block_size, t.meta.dtype) == &t;
}
size_t page_traces(const Session& s) {
  return static_cast<size_t>(std::count_if(s.traces.begin(), s.traces.end(), [&](const Trace& t) { return on_page(s, t); }));
}

// A float32 trace beside the same kernel's int32 one at its block size: the page's int32 / float32 switch
// (issue 30). The other traces the page holds are each kernel's only, or first, trace at its block size.
bool second_type(const Session& s, const Trace& t) {
  const Trace* first = s.find_trace(t.meta.kernel, t.meta.block_size);
  return first && first->meta.dtype != t.meta.dtype;
}

// ---- zlib, base64, CRC ---------------------------------------------------------------------------

std::string deflate_bytes(const std::string& in) {
  uLongf cap = compressBound(static_cast<uLong>(in.size()));
  std::string out(cap, '\0');
  if (compress2(reinterpret_cast<Bytef*>(out.data()), &cap, reinterpret_cast<const Bytef*>(in.data()),
                static_cast<uLong>(in.size()), Z_BEST_COMPRESSION) != Z_OK) {
    throw WebExportError("zlib could not compress the page's data");
  }
  out.resize(cap);
  return out;
}

uint32_t crc_of(const std::string& s, size_t from) {
  uLong c = crc32(0L, Z_NULL, 0);
  c = crc32(c, reinterpret_cast<const Bytef*>(s.data() + from), static_cast<uInt>(s.size() - from));
  return static_cast<uint32_t>(c);
}

void put_u32(std::string& s, uint32_t v) {
  for (int i = 0; i < 4; ++i) s += static_cast<char>(v >> (8 * i) & 0xff);
}
uint32_t get_u32(const std::string& s, size_t at) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(s[at + i])) << (8 * i);
  return v;
}

constexpr const char* kB64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr size_t kB64Line = 120;  // characters per line of the data block (the browser's atob skips newlines)

std::string base64(const std::string& in) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4 + in.size() / 90 + 2);
  size_t col = 0;
  for (size_t i = 0; i < in.size(); i += 3) {
    uint32_t v = static_cast<uint32_t>(static_cast<unsigned char>(in[i])) << 16;
    if (i + 1 < in.size()) v |= static_cast<uint32_t>(static_cast<unsigned char>(in[i + 1])) << 8;
    if (i + 2 < in.size()) v |= static_cast<uint32_t>(static_cast<unsigned char>(in[i + 2]));
    out += kB64[v >> 18 & 63];
    out += kB64[v >> 12 & 63];
    out += i + 1 < in.size() ? kB64[v >> 6 & 63] : '=';
    out += i + 2 < in.size() ? kB64[v & 63] : '=';
    col += 4;
    if (col >= kB64Line) {
      out += '\n';
      col = 0;
    }
  }
  return out;
}

// Bytes of base64(n bytes) with its line breaks.
size_t base64_size(size_t n) {
  const size_t chars = (n + 2) / 3 * 4;
  return chars + chars / kB64Line;
}

// ---- one trace ---------------------------------------------------------------------------------

// Every block size of the session with a trace, and per trace: its part's JSON and compressed bytes.
struct TracePart {
  const Trace* trace = nullptr;
  size_t steps = 0;
  std::string json;
  std::string packed;   // zlib, of this trace alone: the budget's estimate
  bool second = false;  // second_type()
};

// A trace the page holds, and where: its kernel's part (1...) and the byte offset of its JSON there.
struct HeldTrace {
  const TracePart* p = nullptr;
  size_t part = 0, at = 0;
};

uint32_t default_block_size(const std::string& track) {
  const TrackInfo* t = find_track(track);
  return t ? t->default_block_size : 256;
}

}  // namespace

namespace {

// `source`: the trace's kernel source (for the predicate barriers' names).
// `acc`: reproducible_sum's exact accumulator (exact_steps.hpp), or nullptr: each step then says what it adds ("exact").
std::string trace_json(const Replay& r, int source_index, const std::string& source, const ExactAccumulator* acc = nullptr,
                       const std::vector<Lesson>& lessons = {}) {
  const TraceMeta& m = r.meta();
  Json j;
  j.obj();
  j.kv("kernel", m.kernel).kv("track", m.track).kv("bs", m.block_size).kv("dtype", to_string(m.dtype));
  j.kv("n", m.n).kv("grid", m.grid_size).kv("block", m.traced_block).kv("words", static_cast<uint64_t>(r.num_words()));
  j.kv("warps", r.num_warps()).kv("result", m.result).kv("pattern", m.pattern).kv("gpu", m.gpu).kv("date", m.date);
  j.kv("src", source_index);
  // Version 4: a binary trace (docs/binary-trace.md) has no shuffle or atomic values; its notes say what it lacks.
  j.kv("binary", m.tracer == Tracer::Binary).kv("notes", m.notes);
  // The notes line by line in the page's language where they are the words the tracer writes (explain/stored.hpp).
  if (!m.notes.empty()) {
    j.key("notes_say").arr();
    for (const explain::Sentence& s : explain::trace_note_sentences(m.notes)) said(j, nullptr, s);
    j.end_arr();
  }
  j.kv("ldc", r.load_conflicts()).kv("stc", r.store_conflicts());
  j.key("has").obj();
  j.kv("shared", r.has_shared()).kv("lanes", r.has_lane_work()).kv("atomics", r.has_atomics());
  j.kv("global", r.has_global()).kv("slice", r.has_global_slice());
  j.end_obj();
  j.key("counts").obj();
  j.kv("shuffles", r.shuffle_instruction_count());
  j.kv("shared_atomics", r.atomic_instruction_count(AccessKind::SharedAtomic));
  j.kv("global_atomics", r.atomic_instruction_count(AccessKind::GlobalAtomic));
  j.kv("global_loads", r.global_request_count(AccessKind::GlobalLoad));
  j.kv("global_stores", r.global_request_count(AccessKind::GlobalStore));
  j.end_obj();
  if (r.has_global_slice()) {
    const GlobalSlice& g = r.global_slice();
    j.key("slice").obj();
    j.kv("space", g.space).kv("name", to_string(static_cast<GlobalBuffer>(g.space))).kv("first", g.first);
    j.kv("count", g.count).kv("span", g.span).kv("truncated", g.truncated);
    j.end_obj();
  }
  j.ints("result_lanes", r.result_lanes());
  // What the views say from the facts (app/explain/, issue 38), where the page would otherwise compose it: the
  // shared-memory, banks and lanes views' line for a kernel without shared accesses or lane work (a raw __shared__
  // array the source probe does not record is "not traced", not absent), and who holds each warp's result.
  const explain::TraceFacts facts = explain::trace_facts(r, source);
  if (!r.has_shared()) {
    j.key("say").obj();
    if (auto s = explain::no_shared_sentence(facts, explain::Panel::SharedMemory)) said(j, "smem", *s);
    if (auto s = explain::no_shared_sentence(facts, explain::Panel::Banks)) said(j, "banks", *s);
    if (auto s = explain::lane_exchange_sentence(facts, r.has_global_slice(), r.has_atomics())) said(j, "lanes", *s);
    j.end_obj();
  } else if (auto s = explain::lane_exchange_sentence(facts, r.has_global_slice(), r.has_atomics())) {
    j.key("say").obj();
    said(j, "lanes", *s);
    j.end_obj();
  }
  if (r.num_steps() > 0 && r.has_lane_work()) {
    // Who holds each warp's result after its last lane operation: "held" per warp the index of its sentence's msgid
    // in "msgs" (-1: none), whose arguments are (result_lanes[w], w) in every form. Left out where
    // every warp's is the lane form ("after its last shuffle, lane {0} of warp {1} ..."), which the page then says
    // with result_lanes (the page's 3.5 MB: most traces with shuffles are so).
    const explain::StepFacts last = explain::step_facts(r, r.num_steps() - 1);
    const auto& ids = explain::message_ids();
    std::vector<int> held(r.num_warps(), -1);
    bool lane_form_only = true;
    for (const explain::WarpResult& w : last.results) {
      const explain::Sentence s = explain::result_sentence(w);
      const auto k = std::find_if(ids.begin(), ids.end(), [&](const char* id) { return std::string_view(id) == s.id; });
      if (w.warp < held.size()) held[w.warp] = static_cast<int>(k - ids.begin());
      lane_form_only &= !w.every_lane;
    }
    if (!lane_form_only) j.ints("held", held);
  }
  // The views the kernel has, in the window's order (app/explain/views.hpp, views_in_order): the page shows
  // those with something in the step (each step's "on": bit View::x), the first of them first; the others
  // fold into one line (each step's "idle").
  j.key("views").arr();
  for (explain::View v : explain::views_in_order(r)) {
    if (!explain::view_has(r, v)) continue;
    using explain::View;
    j.str(v == View::Lanes ? "lanes" : v == View::Atomics ? "atomics" : v == View::Smem ? "smem" : "global");
  }
  j.end_arr();
  j.kv("ncu_redux", explain::stores_warp_reduce_result(r));

  // Atomic targets with the order their updates landed: [thread, epoch, operand, old, result, ...].
  j.key("targets").arr();
  for (const AtomicTarget& t : r.atomic_targets()) {
    j.obj();
    j.kv("k", static_cast<int>(t.kind)).kv("sp", t.space).kv("addr", t.addr).kv("op", t.op & kOpMask);
    j.kv("f", (t.op & kOpFloatBit) != 0).kv("fn", intrinsic_name(t.kind, t.op));
    said(j, "label", explain::atomic_target_sentence(t, m));
    j.kv("chained", t.chained);
    std::vector<int64_t> o;
    for (const AtomicUpdate& u : t.order) {
      o.insert(o.end(), {u.thread, u.epoch, static_cast<int32_t>(u.operand), static_cast<int32_t>(u.old),
                         static_cast<int32_t>(atomic_result(u.op, u.old, u.operand))});
    }
    j.ints("o", o);
    j.end_obj();
  }
  j.end_arr();

  j.key("steps").arr();
  std::vector<int32_t> prev_smem, prev_g;
  std::vector<uint8_t> prev_def, prev_gdef;
  for (size_t si = 0; si < r.num_steps(); ++si) {
    const Step& st = r.step(si);
    j.obj();
    j.kv("end", static_cast<int>(st.ended_by)).kv("bl", st.barrier_line);
    // The predicate barriers by their name (the page's names for `end` say "__syncthreads()").
    if (const std::string e = explain::barrier_call(st, source); !e.empty()) {
      j.kv("endname", e);
    }
    if (acc) {  // [[k, args], ...]: said in the page's language
      j.key("exact").arr();
      for (const explain::Sentence& x : exact_step_sentences(*acc, si)) said(j, nullptr, x);
      j.end_arr();
    }
    j.ints("lines", st.lines);
    j.kv("ld", st.loads).kv("st", st.stores).kv("ldc", st.load_conflicts).kv("stc", st.store_conflicts);
    j.kv("deg", st.max_degree).kv("aw", st.active_warps());
    {
      // The step's warp count where "Active warps: 0 of 8" would mislead (the warps reached a barrier running code
      // the tracer does not record), and the lane instructions by name.
      const explain::StepFacts f = explain::step_facts(r, si);
      if (f.unrecorded_work) said(j, "aws", explain::active_warps_sentence(facts, f));
      if (f.warp_reduces) j.kv("wred", f.warp_reduces);
    }
    std::vector<int64_t> w;
    for (const WarpStep& ws : st.warps) {
      w.insert(w.end(), {ws.useful, ws.active_mask, ws.exited, ws.diverged ? 1 : 0,
                         static_cast<int64_t>(std::lround(ws.efficiency * 1000.0))});
    }
    j.ints("warps", w);
    // Lanes useful in part of the step only (made some of their warp's instructions, sat out others):
    // (warp, lanes) pairs, drawn half green as in the window; absent where there are none.
    std::vector<int64_t> part;
    for (size_t wi = 0; wi < st.warps.size(); ++wi) {
      const uint32_t p = st.warps[wi].useful & ~st.warps[wi].every;
      if (p) part.insert(part.end(), {static_cast<int64_t>(wi), p});
    }
    if (!part.empty()) j.ints("part", part);
    // The views with something in this step (bit View::x), and the others in one line, as the window's
    // idle line: its parts ([folded views], [[view, steps], ...], [views never used], untraced), which the page's
    // script says in its language with the ids explain::render_idle uses (web/js/views-step.js, idleText).
    {
      std::vector<explain::View> idle;
      int on = 0;
      for (explain::View v : explain::views_in_order(r)) {
        if (!explain::view_active(st, v)) idle.push_back(v);
        else on |= 1 << static_cast<int>(v);
      }
      j.kv("on", on);
      const explain::IdleLine line =
          explain::idle_line(r, st, idle, {}, facts.shared == explain::Seen::NotTraced);
      if (!line.empty()) {
        j.key("idle").arr().arr();
        for (explain::View v : line.folded) j.num(static_cast<int64_t>(v));
        j.end_arr().arr();
        for (const auto& [v, where] : line.busy) j.arr().num(static_cast<int64_t>(v)).str(where).end_arr();
        j.end_arr().arr();
        for (explain::View v : line.never) j.num(static_cast<int64_t>(v));
        j.end_arr().num(static_cast<int64_t>(line.untraced)).end_arr();
      }
    }
    // The bank view's sentence for a step with no shared load or store.
    if (auto line = explain::bank_idle_sentence(facts, explain::step_facts(r, si))) said(j, "bank_idle", *line);
    // Predict mode (issue 39): the questions the page may ask before this step, keys from the trace
    // (app/explain/questions.hpp): the one it asks without a lesson (default_question), at its track's block size in
    // int32 (the page's budget: every block size's questions cost it five traces), and those a lesson asks here;
    // [kind, ask [k, args], warp, lane, word, [key...], key text, float key, why [k, args]]; "why" is the verdict's
    // sentence, which the page says after "Right:" or "Not quite:".
    const auto all_qs = explain::step_questions(r, facts, si);
    std::vector<explain::Question> qs;
    for (const explain::Question& q : all_qs) {
      bool asked = m.dtype == DType::Int32 && (m.block_size == default_block_size(m.track) || m.track == kYoursKernel) &&
                   &q == explain::default_question(all_qs);
      for (const Lesson& l : lessons) {
        for (const LessonItem& it : l.items) {
          asked |= it.matches(m) && it.ask == q.kind &&
                   (it.steps.empty() || std::find(it.steps.begin(), it.steps.end(), si) != it.steps.end());
        }
      }
      if (asked) qs.push_back(q);
    }
    if (!qs.empty()) {
      j.key("q").arr();
      for (const explain::Question& q : qs) {
        j.arr().str(explain::to_string(q.kind));
        said(j, nullptr, q.ask);
        j.num(q.warp).num(q.lane).num(q.word).arr();
        for (int64_t k : q.key) j.num(k);
        j.end_arr().str(q.key_text).boolean(q.float_key);
        said(j, nullptr, explain::reason(q));
        j.end_arr();
      }
      j.end_arr();
    }
    changed_cells(j, "set", prev_smem, prev_def, st.smem, st.defined);
    prev_smem = st.smem;
    prev_def = st.defined;
    if (auto x = ranges(st.written); !x.empty()) j.ints("wr", x);
    if (auto x = ranges(st.read); !x.empty()) j.ints("rd", x);
    if (!st.flows.empty()) {
      std::vector<uint32_t> f;
      for (auto [dst, src] : st.flows) f.insert(f.end(), {dst, src});
      j.ints("flows", f);
    }
    if (!st.accesses.empty()) {
      j.key("acc").arr();
      for (size_t ai : st.accesses) {
        const WarpAccess& a = r.accesses()[ai];
        j.obj();
        j.kv("k", static_cast<int>(a.kind)).kv("w", a.warp).kv("l", a.line).kv("m", a.lanes).kv("am", a.active_mask);
        j.kv("deg", a.banks.degree);
        std::array<uint32_t, kWarpSize> words{};
        for (int l = 0; l < kWarpSize; ++l) words[l] = a.addr[l] / kBankWidthBytes;
        j.ints("a", lane_values(words, a.lanes, true));
        j.ints("wpb", a.banks.words_per_bank);
        j.end_obj();
      }
      j.end_arr();
    }
    if (!st.shuffles.empty()) {
      j.key("shf").arr();
      for (size_t i : st.shuffles) {
        const WarpShuffle& s = r.shuffles()[i];
        j.obj();
        j.kv("k", static_cast<int>(s.kind)).kv("w", s.warp).kv("op", s.op).kv("fn", intrinsic_name(s.kind, s.op));
        j.kv("wd", s.width).kv("f", s.float_values).kv("l", s.line).kv("m", s.lanes).kv("mm", s.member_mask);
        j.kv("am", s.active_mask).kv("ok", s.consistent);
        if (s.kind == AccessKind::Shuffle) {
          // One source lane per lane of `m`, in lane order; -1 where the binary tracer could not tell it.
          std::vector<int> src;
          for (int l = 0; l < kWarpSize; ++l) {
            if (!(s.lanes >> l & 1u)) continue;
            int from = -1;
            for (const LaneMove& mv : s.moves) {
              if (mv.dst == l) from = mv.src;
            }
            src.push_back(from);
          }
          j.ints("src", src);
        }
        std::array<int32_t, kWarpSize> of{}, rc{};
        for (int l = 0; l < kWarpSize; ++l) {
          of[l] = static_cast<int32_t>(s.offered[l]);
          rc[l] = static_cast<int32_t>(s.received[l]);
        }
        j.ints("of", lane_values(of, s.lanes, false));
        j.ints("rc", lane_values(rc, s.lanes, false));
        j.end_obj();
      }
      j.end_arr();
    }
    if (!st.atomics.empty()) {
      j.key("atm").arr();
      for (size_t i : st.atomics) {
        const WarpAtomic& a = r.atomics()[i];
        j.obj();
        j.kv("k", static_cast<int>(a.kind)).kv("w", a.warp).kv("op", a.op).kv("fn", intrinsic_name(a.kind, a.op));
        j.kv("f", a.float_values).kv("sp", a.space).kv("l", a.line).kv("m", a.lanes).kv("mx", a.max_contention);
        std::vector<int64_t> ct;
        for (auto [addr, n] : a.contention) ct.insert(ct.end(), {addr, n});
        j.ints("ct", ct);
        j.key("labels").arr();
        for (auto [addr, n] : a.contention) {
          AtomicTarget t;
          t.kind = a.kind;
          t.space = a.space;
          t.addr = addr;
          said(j, nullptr, explain::atomic_target_sentence(t, m));
        }
        j.end_arr();
        j.end_obj();
      }
      j.end_arr();
    }
    if (!st.global_requests.empty()) {
      int loads = 0, stores = 0, sectors = 0, min_sectors = 0, bytes = 0;
      j.key("req").arr();
      for (size_t i : st.global_requests) {
        const GlobalRequest& g = r.global_requests()[i];
        (g.kind == AccessKind::GlobalStore ? stores : loads) += 1;
        sectors += g.sectors;
        min_sectors += g.min_sectors;
        bytes += g.requested_bytes;
        j.obj();
        j.kv("k", static_cast<int>(g.kind)).kv("w", g.warp).kv("sp", g.space);
        j.kv("buf", to_string(static_cast<GlobalBuffer>(g.space))).kv("l", g.line).kv("m", g.lanes);
        j.kv("am", g.active_mask);
        j.ints("ix", lane_values(g.index, g.lanes, true));
        j.kv("sec", g.sectors).kv("min", g.min_sectors).kv("rb", g.requested_bytes);
        j.kv("eff", std::round(g.efficiency() * 1000.0) / 1000.0);
        j.end_obj();
      }
      j.end_arr();
      // The step's requests together: the window's one-line summary.
      j.key("gsum").arr().num(loads).num(stores).num(sectors).num(min_sectors).num(bytes);
      j.num(sectors ? std::round(1000.0 * bytes / (32.0 * sectors)) / 1000.0 : 0.0).end_arr();
    }
    if (r.has_global_slice()) {
      changed_cells(j, "gset", prev_g, prev_gdef, st.global_values, st.global_defined);
      prev_g = st.global_values;
      prev_gdef = st.global_defined;
      if (auto x = ranges(st.global_written); !x.empty()) j.ints("gwr", x);
      if (auto x = ranges(st.global_read); !x.empty()) j.ints("grd", x);
      if (!st.global_flows.empty()) {
        std::vector<uint32_t> f;
        for (auto [dst, src] : st.global_flows) f.insert(f.end(), {dst, src});
        j.ints("gflows", f);
      }
    }
    j.end_obj();
  }
  j.end_arr();
  j.end_obj();
  return j.take();
}


// The titles of the index's own tracks (the page translates them with the kernel table's words).
constexpr const char* kYoursTitle = N_("Yours: kernel files of your own (reducescope record --kernel-file)");
constexpr const char* kOtherTitle = N_("Other kernels in the session (not in this build's registry)");

// The index part: everything but the steps.
std::string index_json(const Session& s, const std::vector<HeldTrace>& parts, const std::vector<std::string>& sources,
                       const std::map<std::string, std::vector<uint32_t>>& held, const WebExportOptions& o) {
  Json j;
  j.obj();
  j.kv("format", static_cast<int>(kWebDataVersion)).kv("exporter", std::string("ReduceScope ") + kToolVersion);
  j.kv("ncu_redux_note", std::string(explain::kNcuReduxNote));
  j.kv("session_name", o.session_name);
  const SessionMeta& m = s.meta;
  j.key("meta").obj();
  j.kv("gpu", m.gpu).kv("cc", m.compute_capability).kv("cuda", m.cuda_version).kv("date", m.date);
  j.kv("tool", m.tool_version).kv("pattern", m.pattern).kv("method", m.method).kv("n", m.n);
  // The method in the page's language where it is the words `record` writes ([k, args], as the trace's sentences).
  if (const auto said_method = explain::parse_timing_method(m.method)) said(j, "method_say", *said_method);
  j.kv("sm", m.sm_count).kv("l2", m.l2_bytes).kv("samples", m.samples).kv("warmups", m.warmups);
  j.kv("peak_gbps", m.peak_gbps).kv("copy_gbps", m.copy_gbps).kv("cub_ms", m.cub_ms).kv("cub_gbps", m.cub_gbps);
  j.end_obj();

  // Tracks and kernels from the registry; a session kernel the registry lacks goes under "other".
  std::set<std::string> known;
  j.key("tracks").arr();
  for (const TrackInfo& t : track_table()) {
    j.obj();
    j.kv("id", t.id).kv("title", t.title).kv("source", t.source).kv("bs", t.default_block_size);
    j.kv("file", t.kernel_file);
    j.key("kernels").arr();
    for (KernelId id : track_kernels(t.id)) {
      const KernelInfo& k = kernel_info(id);
      known.insert(k.name);
      j.obj();
      j.kv("name", k.name).kv("title", k.title).kv("fixes", k.fixes).kv("costs", k.costs);
      j.kv("min_bs", k.min_block_size).kv("min_why", k.min_block_why ? k.min_block_why : "");
      j.kv("op", to_string(k.op)).kv("finish", to_string(k.finish));
      if (const auto fixed = fixed_launches(id)) j.kv("fixed_launches", *fixed);
      if (k.pitfall) j.kv("pitfall", k.pitfall).kv("surprise", k.surprise).kv("fixed_by", k.fixed_by ? k.fixed_by : "");
      j.end_obj();
    }
    j.end_arr();
    // The library's own kernels doing the same jobs (CUB's, traced as compiled: LibraryKernelInfo), where the
    // session holds them; listed after the track's kernels, with the shipped kernels to compare them with.
    j.key("library").arr();
    for (const LibraryKernelInfo* lk : track_library_kernels(t.id)) {
      if (std::none_of(s.traces.begin(), s.traces.end(), [&](const Trace& x) { return x.meta.kernel == lk->name; })) {
        continue;
      }
      known.insert(lk->name);
      j.obj().kv("name", lk->name).kv("title", lk->title).kv("how", lk->what).kv("costs", lk->costs);
      j.kv("file", lk->file);
      j.key("beside").arr();
      for (const char* b : lk->beside) {
        if (b) j.str(b);
      }
      j.end_arr().end_obj();
    }
    j.end_arr();
    j.end_obj();
  }
  // A user's kernel files (`record --kernel-file`: traces of track "yours") under a track of their own.
  std::set<std::string> yours, other;
  for (const Trace& t : s.traces) {
    if (!known.count(t.meta.kernel)) (t.meta.track == "yours" ? yours : other).insert(t.meta.kernel);
  }
  for (const SessionTiming& t : s.timings) {
    if (!known.count(t.kernel) && !yours.count(t.kernel)) other.insert(t.kernel);
  }
  auto unknown_track = [&](const char* id, const char* title, const std::set<std::string>& names) {
    if (names.empty()) return;
    j.obj().kv("id", id).kv("title", title);
    j.kv("source", "").kv("bs", 256).kv("file", "");
    j.key("kernels").arr();
    for (const std::string& k : names) j.obj().kv("name", k).kv("title", k).kv("fixes", "").kv("costs", "").end_obj();
    j.end_arr().end_obj();
  };
  unknown_track("yours", kYoursTitle, yours);
  unknown_track("other", kOtherTitle, other);
  j.end_arr();

  // Sources: per track the one this build embeds (for kernels without a trace here), then the
  // traces' own (their line numbers refer to those).
  j.key("track_source").obj();
  for (const TrackInfo& t : track_table()) {
    const std::string src = kernel_source(t.id);
    const auto it = std::find(sources.begin(), sources.end(), src);
    j.kv(t.id, it == sources.end() ? -1 : static_cast<int>(it - sources.begin()));
  }
  j.end_obj();
  j.key("sources").arr();
  for (const std::string& src : sources) j.str(src);
  j.end_arr();

  j.key("timings").arr();
  for (const SessionTiming& t : s.timings) {
    j.arr().str(t.kernel).num(t.block_size).num(t.median_ms).num(t.min_ms).num(t.max_ms).num(t.gbps);
    j.num(t.pct_peak).num(m.cub_ms > 0 && t.median_ms > 0 ? m.cub_ms / t.median_ms : 0.0).boolean(t.correct);
    j.num(t.launches).end_arr();
  }
  j.end_arr();
  // The N sweep (tracing/sweep.hpp), as the window's "vs N" tab draws it: points in the session's order
  // (series in first-seen order, N ascending within each).
  j.key("sweep").obj();
  j.kv("gpu", s.sweep.gpu).kv("method", s.sweep.method).kv("peak_gbps", s.sweep.peak_gbps);
  if (const auto m = explain::sweep_method_sentence(s.sweep.method)) said(j, "method_say", *m);
  j.kv("cub", kCubSeries).kv("copy", kCopySeries);
  j.key("points").arr();
  for (const SweepPoint& p : s.sweep.points) {
    j.arr().str(p.series).num(p.n).num(p.gbps).str(p.kernel).num(p.block_size).num(p.median_ms).num(p.launches);
    j.end_arr();
  }
  j.end_arr();
  j.end_obj();
  j.key("metrics").arr();
  for (const SessionMetric& x : s.metrics) {
    j.arr().str(x.kernel).num(x.block_size).str(x.name).str(x.unit).num(x.value).str(x.ncu_metric).end_arr();
  }
  j.end_arr();

  // racecheck's races (`reducescope pitfalls --out`): [kernel, bs, kind, first access, first line, second
  // access, second line, hazards, [words], the race in the window's words (describe_race)], and the pitfalls' results in the window's sentences
  // (pitfall_words.hpp) per kernel and block size.
  j.key("races").arr();
  for (const SessionRace& r : s.races) {
    j.arr().str(r.kernel).num(r.block_size).str(r.kind).str(r.first_access).num(r.first_line).str(r.second_access);
    j.num(r.second_line).num(r.hazards);
    j.arr();
    for (uint32_t w : r.words) j.num(w);
    j.end_arr();
    said(j, nullptr, race_said(r));  // [k, args]: said in the page's language
    j.end_arr();
  }
  j.end_arr();
  // The bits view (`reducescope bits --out`): rows [kernel, bits, count, ulps from the exact sum, [block sizes]].
  j.key("bits").obj();
  j.kv("n", s.bits.n).kv("pattern", s.bits.pattern).kv("runs", s.bits.runs).kv("exact_bits", s.bits.exact_bits);
  j.kv("exact", s.bits.exact).kv("tolerance", s.bits.tolerance);
  // [kernel, bits, count, ulps, [block sizes], wrong: outside the tolerance, why (or ""): the explain layer's
  // [k, args] where it knows the words (explain::float_stuck_sentence), else the English]
  j.key("rows").arr();
  for (const BitsRow& r : s.bits.rows) {
    float got;
    std::memcpy(&got, &r.bits, 4);
    const bool wrong = s.bits.wrong(r.bits);
    j.arr().str(r.kernel).num(r.bits).num(r.count).num(static_cast<int64_t>(ulps_between(r.bits, s.bits.exact_bits)));
    j.arr();
    for (uint32_t bs : r.block_sizes) j.num(bs);
    j.end_arr().boolean(wrong);
    const auto said_note = wrong ? explain::float_stuck_sentence(got, s.bits.exact) : std::nullopt;
    if (said_note) {
      said(j, nullptr, *said_note);
    } else {
      j.str(wrong ? float_sum_note(got, s.bits.exact) : std::string());  // its other reasons, in English
    }
    j.end_arr();
  }
  j.end_arr();
  j.end_obj();
  // Why the bits differ (issue 30): each second run of a float atomic kernel's block (Session::other_runs) beside its
  // first: both sums, the sentence, and the block's first updates in landing order (up to kTwoRunsRows past the first
  // rounding that differs), each [thread, running value met, element added, rounding] per run.
  j.key("two_runs").arr();
  for (const Trace& other : s.other_runs) {
    const Trace* first = s.find_trace(other.meta.kernel, other.meta.block_size, other.meta.dtype, other.meta.tracer);
    if (!first || other.meta.dtype != DType::Float32) continue;
    const TwoRuns r = compare_runs(*first, other);
    if (r.a.updates.empty()) continue;
    constexpr size_t kTwoRunsRows = 8;
    const size_t rows = std::min(std::max(r.a.updates.size(), r.b.updates.size()), r.first_rounding.value_or(0) + kTwoRunsRows);
    j.obj().kv("kernel", other.meta.kernel).kv("bs", other.meta.block_size).kv("n", other.meta.n);
    j.kv("result1", r.a.result).kv("result2", r.b.result).kv("updates", r.a.updates.size());
    j.kv("first", r.first_rounding ? static_cast<int64_t>(*r.first_rounding) : int64_t{-1});
    said(j, "sentence", explain::two_runs_sentence(r));
    j.key("rows").arr();
    for (size_t i = 0; i < rows; ++i) {
      j.arr();
      for (const RunUpdates* u : {&r.a, &r.b}) {
        if (i < u->updates.size()) {
          const RunUpdate& x = u->updates[i];
          j.arr().num(x.thread).num(static_cast<double>(x.old_value)).num(static_cast<double>(x.operand)).num(x.rounding);
          j.end_arr();
        } else {
          j.null();
        }
      }
      j.end_arr();
    }
    j.end_arr().end_obj();
  }
  j.end_arr();
  if (!s.multigpu.empty()) webjson::multigpu_json(j, s.multigpu);
  j.key("pitfall_words").arr();
  for (KernelId id : track_kernels("pitfalls")) {
    const KernelInfo& k = kernel_info(id);
    for (uint32_t bs : s.block_sizes()) {
      if (block_size_problem(id, bs)) continue;
      // The explain layer's sentences ([k, args], said in the page's language); the commands as recorded.
      const PitfallSaid w = pitfall_said(&s, k, bs);
      j.obj().kv("kernel", k.name).kv("bs", bs);
      said(j, "verdict", w.verdict);
      j.key("results").arr();
      for (const explain::Sentence& r : w.results) said(j, nullptr, r);
      j.end_arr().kv("results_how", w.results_how);
      if (w.races) said(j, "races", *w.races);
      j.kv("races_how", w.races_how);
      if (w.missing) said(j, "missing", *w.missing);
      j.kv("fix", w.fix).end_obj();
    }
  }
  j.end_arr();
  j.ints("block_sizes", s.block_sizes());
  j.key("held").obj();
  for (const auto& [track, sizes] : held) j.ints(track.c_str(), sizes);
  j.end_obj();
  j.key("traces").arr();
  for (size_t i = 0; i < parts.size(); ++i) {
    const TraceMeta& t = parts[i].p->trace->meta;
    j.obj().kv("kernel", t.kernel).kv("track", t.track).kv("bs", t.block_size).kv("dtype", to_string(t.dtype));
    j.kv("part", static_cast<uint64_t>(parts[i].part)).kv("at", static_cast<uint64_t>(parts[i].at));
    j.kv("bytes", static_cast<uint64_t>(parts[i].p->json.size())).kv("steps", static_cast<uint64_t>(parts[i].p->steps));
    j.end_obj();
  }
  j.end_arr();
  j.kv("traces_in_session", static_cast<uint64_t>(page_traces(s)));
  // Predict mode's lessons (app/lessons/lessons.hpp): which questions to ask where, and the instructor's words.
  j.key("lessons").arr();
  for (const Lesson& l : o.lessons.empty() ? bundled_lessons() : o.lessons) {
    j.obj().kv("name", l.name).kv("track", l.track).kv("title", l.title.en).kv("title_zh", l.title.zh);
    j.key("items").arr();
    for (const LessonItem& it : l.items) {
      j.obj().kv("kernel", it.kernel).kv("bs", it.block_size).kv("ask", explain::to_string(it.ask));
      j.kv("type", it.type ? to_string(*it.type) : "");
      j.ints("steps", it.steps);
      j.kv("say", it.say.en).kv("say_zh", it.say.zh).end_obj();
    }
    j.end_arr().end_obj();
  }
  j.end_arr();
  // The lessons' questions about the session rather than a step (explain::is_session_kind: the fastest block size, a
  // speedup, the bits view, two runs), keys from the session (explain::session_questions), asked in the panel that
  // shows the answer: [lesson, item index, kind, ask [k, args], kernel, bs, [key...], key text, lo, hi, why [k, args]].
  j.key("session_q").arr();
  for (const Lesson& l : o.lessons.empty() ? bundled_lessons() : o.lessons) {
    for (size_t i = 0; i < l.items.size(); ++i) {
      const LessonItem& it = l.items[i];
      if (!explain::is_session_kind(it.ask)) continue;
      const std::string kernel = it.kernel_in(s);  // "yours": the session's kernel file
      if (kernel.empty()) continue;
      for (const explain::Question& q : explain::session_questions(s, kernel, it.block_size)) {
        if (q.kind != it.ask) continue;
        j.arr().str(l.name).num(static_cast<uint64_t>(i)).str(explain::to_string(q.kind));
        said(j, nullptr, q.ask);
        j.str(kernel).num(it.block_size).arr();
        for (int64_t k : q.key) j.num(k);
        j.end_arr().str(q.key_text).num(q.key_lo).num(q.key_hi);
        said(j, nullptr, explain::reason(q));
        j.end_arr();
      }
    }
  }
  j.end_arr();
  j.key("msgs").arr();  // the explain layer's msgids, which the traces' sentences ([k, args...]) name by index
  for (const char* id : explain::message_ids()) j.str(id);
  j.end_arr();
  j.end_obj();
  return j.take();
}

std::string container(const std::vector<std::string>& packed, const std::vector<size_t>& raw_sizes) {
  std::string c(kWebDataMagic, 8);
  put_u32(c, kWebDataVersion);
  put_u32(c, static_cast<uint32_t>(packed.size()));
  put_u32(c, 0);  // body length, below
  put_u32(c, 0);  // CRC, below
  for (size_t i = 0; i < packed.size(); ++i) {
    put_u32(c, static_cast<uint32_t>(packed[i].size()));
    put_u32(c, static_cast<uint32_t>(raw_sizes[i]));
    c += packed[i];
  }
  const uint32_t body = static_cast<uint32_t>(c.size() - 24), crc = crc_of(c, 24);
  for (int i = 0; i < 4; ++i) {
    c[16 + i] = static_cast<char>(body >> (8 * i) & 0xff);
    c[20 + i] = static_cast<char>(crc >> (8 * i) & 0xff);
  }
  return c;
}

void replace_once(std::string& s, const std::string& marker, const std::string& with) {
  const size_t at = s.find(marker);
  if (at == std::string::npos) throw WebExportError("the page template has no " + marker + " (web/replay.html)");
  s.replace(at, marker.size(), with);
}

// Text for HTML: the markup characters as entities, and every non-ASCII character (a Chinese title) as &#x...;
// so the page stays plain ASCII.
std::string html_escape(const std::string& v) {
  std::string o;
  for (size_t i = 0; i < v.size();) {
    if (static_cast<unsigned char>(v[i]) >= 0x80) {
      char b[16];
      std::snprintf(b, sizeof b, "&#x%x;", i18n::utf8_next(v, &i));
      o += b;
      continue;
    }
    switch (v[i]) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default: o += v[i];
    }
    ++i;
  }
  return o;
}

std::string list_sizes(const std::vector<uint32_t>& v) {
  std::string s;
  for (uint32_t b : v) s += (s.empty() ? "" : ", ") + std::to_string(b);
  return s;
}

}  // namespace

std::string web_trace_json(const Trace& trace, int source_index) {
  return trace_json(Replay(trace), source_index, trace.source);
}

std::string web_page(const Session& s, const WebExportOptions& o, WebExportResult* result) {
  if (s.traces.empty() && s.multigpu.empty()) {
    throw WebExportError("the session holds no traces and no multi-GPU recording: a web page replays those (record one "
                         "with `reducescope record`)");
  }
  std::set<uint32_t> traced;
  for (const Trace& t : s.traces) traced.insert(t.meta.block_size);
  for (uint32_t b : o.block_sizes) {
    if (!traced.count(b)) {
      throw WebExportError("the session holds no trace at " + std::to_string(b) + " threads per block (it has " +
                           list_sizes({traced.begin(), traced.end()}) + ")");
    }
  }

  // Every candidate trace, encoded once. Sources are shared between traces of one track.
  std::vector<std::string> sources;
  for (const TrackInfo& t : track_table()) {
    const std::string src = kernel_source(t.id);
    if (!src.empty() && std::find(sources.begin(), sources.end(), src) == sources.end()) sources.push_back(src);
  }
  const std::set<uint32_t> chosen(o.block_sizes.begin(), o.block_sizes.end());
  std::vector<TracePart> all;
  for (const Trace& t : s.traces) {
    if (!chosen.empty() && !chosen.count(t.meta.block_size)) continue;
    if (!on_page(s, t)) continue;
    auto it = std::find(sources.begin(), sources.end(), t.source);
    if (it == sources.end()) it = sources.insert(sources.end(), t.source);
    TracePart p;
    p.trace = &t;
    p.second = second_type(s, t);
    try {
      const Replay replay(t);
      p.json = trace_json(replay, static_cast<int>(it - sources.begin()), t.source, exact_accumulator_of(t, replay),
                          o.lessons.empty() ? bundled_lessons() : o.lessons);
      p.steps = replay.num_steps();
    } catch (const ReplayError& e) {
      throw WebExportError(std::string("cannot replay a trace of the session: ") + e.what());
    }
    p.packed = deflate_bytes(p.json);
    all.push_back(std::move(p));
  }

  // Which traces, in units that the page holds whole or not at all: each track's default block size (each kernel's
  // first trace there) always; then the other block sizes, cheapest first; then the float32 traces beside int32
  // ones (the page's int32 / float32 switch), one track and block size at a time, cheapest first (the most block
  // sizes switch; the bundled page: 32 to 256 threads); each while the page fits the budget. A chosen list of block
  // sizes holds every trace there.
  using Unit = std::tuple<int, std::string, uint32_t>;  // (0, "", block size; 0: each track's default) or
                                                        // (1, track, block size): float32 beside int32
  auto unit_of = [](const TracePart& p) {
    const uint32_t b = p.trace->meta.block_size;
    if (p.second) return Unit{1, p.trace->meta.track, b};
    return Unit{0, "", b == default_block_size(p.trace->meta.track) ? 0u : b};
  };
  const Unit always{0, "", 0};
  const std::string tmpl = web_asset_html();
  std::vector<std::string> messages = webi18n::page_messages(web_asset_js(), tmpl);
  for (const std::string& m : webi18n::data_messages()) messages.push_back(m);
  messages.insert(messages.end(), {kYoursTitle, kOtherTitle, explain::kNcuReduxNote});
  const auto catalogue = i18n::dictionary(i18n::Lang::Zh, messages);
  std::map<Unit, size_t> cost;  // packed bytes per optional unit, each trace deflated alone
  for (const TracePart& p : all) {
    if (unit_of(p) != always) cost[unit_of(p)] += p.packed.size() + 8;
  }
  std::vector<Unit> optional;  // in the order they are tried
  for (const auto& [u, c] : cost) optional.push_back(u);
  std::stable_sort(optional.begin(), optional.end(), [&](const Unit& a, const Unit& b) {
    if (std::get<0>(a) != std::get<0>(b)) return std::get<0>(a) < std::get<0>(b);
    return cost[a] < cost[b];
  });

  // The traces of one kernel share one part (their JSON texts one after the other, each on its own line):
  // deflate finds what they have in common, 9% fewer bytes than each alone on the bundled session. A part's
  // compression is kept for the next candidate page.
  std::map<std::string, std::string> packed_groups;
  auto build = [&](const std::set<Unit>& extras, std::string* page, WebExportResult* r) {
    std::vector<TracePart*> held_parts;
    for (TracePart& p : all) {
      if (!chosen.empty() || unit_of(p) == always || extras.count(unit_of(p))) held_parts.push_back(&p);
    }
    // Traces in registry order (tracks, kernels), then block size, int32 before float32; unknown kernels last.
    auto rank = [](const TraceMeta& m) {
      const KernelInfo* k = find_kernel(m.kernel);
      return std::make_tuple(k ? static_cast<int>(k->id) : 1 << 20, m.kernel, m.block_size, static_cast<int>(m.dtype));
    };
    std::stable_sort(held_parts.begin(), held_parts.end(),
                     [&](const TracePart* a, const TracePart* b) { return rank(a->trace->meta) < rank(b->trace->meta); });
    std::map<std::string, std::vector<uint32_t>> held;
    std::vector<HeldTrace> ordered;
    std::vector<std::string> packed;
    std::vector<size_t> raw;
    std::string group, group_key;
    auto close_group = [&] {
      if (group.empty()) return;
      auto it = packed_groups.find(group_key);
      if (it == packed_groups.end()) it = packed_groups.emplace(group_key, deflate_bytes(group)).first;
      packed.push_back(it->second);
      raw.push_back(group.size());
      group.clear();
      group_key.clear();
    };
    for (size_t i = 0; i < held_parts.size(); ++i) {
      TracePart* p = held_parts[i];
      if (i > 0 && held_parts[i - 1]->trace->meta.kernel != p->trace->meta.kernel) close_group();
      if (!p->second) {
        auto& v = held[p->trace->meta.track];
        if (std::find(v.begin(), v.end(), p->trace->meta.block_size) == v.end()) v.push_back(p->trace->meta.block_size);
      }
      if (!group.empty()) group += '\n';
      ordered.push_back({p, packed.size() + 1, group.size()});  // part 0 is the index
      group += p->json;
      group_key += std::to_string(p - all.data()) + ',';
    }
    close_group();
    for (auto& [t, v] : held) std::sort(v.begin(), v.end());
    const std::string index = index_json(s, ordered, sources, held, o);
    const std::string dictionary = webi18n::dictionary_json(o.lang, catalogue);
    packed.insert(packed.begin(), deflate_bytes(index));
    raw.insert(raw.begin(), index.size());
    const std::string data = base64(container(packed, raw));
    std::string html = tmpl;
    // The title in the language the page opens in (the browser's tab; the page's switch leaves it).
    const std::string where = s.meta.gpu + (s.meta.date.empty() ? "" : ", " + s.meta.date);
    // Looked up in the catalogue without switching the process's language (the window may be exporting).
    const char* const kTitle = N_("ReduceScope replay: {0}");
    const auto title_zh = o.lang == i18n::Lang::Zh ? i18n::dictionary(i18n::Lang::Zh, {kTitle})
                                                   : std::vector<std::pair<std::string, std::string>>{};
    const std::string title =
        explain::render(explain::Sentence{title_zh.empty() ? kTitle : title_zh.front().second.c_str(), {where}, {}});
    // From the template's last marker to its first, so that each search finds the template's marker
    // before any text already put in.
    replace_once(html, "@@RS_DATA@@", data);
    // The number of base64 characters (line breaks not counted): the page checks it first.
    replace_once(html, "@@RS_DATA_LENGTH@@", std::to_string(data.size() - std::count(data.begin(), data.end(), '\n')));
    replace_once(html, "@@RS_JS@@", web_asset_js());
    // The dictionary packed as the data is (a one-part container, inflated by the page before it shows words):
    // about a third of its size as escaped JSON (issue 30, the page's budget).
    const std::string words = base64(container({deflate_bytes(dictionary)}, {dictionary.size()}));
    replace_once(html, "@@RS_I18N_LENGTH@@", std::to_string(words.size() - std::count(words.begin(), words.end(), '\n')));
    replace_once(html, "@@RS_I18N@@", words);
    replace_once(html, "@@RS_LANG@@", i18n::lang_code(o.lang));
    replace_once(html, "@@RS_CSS@@", web_asset_css());
    replace_once(html, "@@RS_TITLE@@", html_escape(title));
    replace_once(html, "@@RS_PAGE_VERSION@@", std::to_string(kWebPageVersion));
    if (r) {
      r->bytes = html.size();
      r->data_bytes = data.size();
      r->traces = ordered.size();
      r->traces_in_session = page_traces(s);
      r->held = held;
      r->second_types =
          static_cast<size_t>(std::count_if(ordered.begin(), ordered.end(), [](const HeldTrace& h) { return h.p->second; }));
      // Block sizes of which every first trace of the session (each kernel's, the int32 one where it has two) is held.
      r->block_sizes.clear();
      for (uint32_t b : traced) {
        size_t in_session = 0, in_page = 0;
        for (const Trace& t : s.traces) in_session += t.meta.block_size == b && on_page(s, t) && !second_type(s, t);
        for (const HeldTrace& h : ordered) in_page += h.p->trace->meta.block_size == b && !h.p->second;
        if (in_page == in_session) r->block_sizes.push_back(b);
      }
    }
    *page = std::move(html);
  };

  std::string page;
  WebExportResult r;
  std::set<Unit> extras;
  build(extras, &page, &r);
  if (chosen.empty()) {
    r.over_budget = page.size() > o.max_bytes;
    std::string every;
    WebExportResult every_r;
    if (!r.over_budget && !optional.empty()) {  // everything at once first: the common case
      build({optional.begin(), optional.end()}, &every, &every_r);
    }
    if (!every.empty() && every.size() <= o.max_bytes) {
      page = std::move(every);
      r = std::move(every_r);
    } else if (!r.over_budget) {
      size_t estimate = page.size();
      for (const Unit& u : optional) {
        // Traces deflated alone take about a tenth more than in their kernels' parts: a unit surely too large is
        // not tried.
        const size_t more = base64_size(cost[u] * 4 / 5);
        if (estimate + more > o.max_bytes) continue;
        std::set<Unit> trial = extras;
        trial.insert(u);
        std::string p2;
        WebExportResult r2;
        build(trial, &p2, &r2);
        if (p2.size() > o.max_bytes) continue;
        extras = trial;
        page = std::move(p2);
        r = std::move(r2);
        estimate = page.size();
      }
    }
  }
  if (result) *result = r;
  return page;
}

WebExportResult export_web_page(const Session& s, const std::string& path, const WebExportOptions& options) {
  WebExportResult r;
  std::string page = web_page(s, options, &r);
  namespace fs = std::filesystem;
  const fs::path target(path);
  if (target.has_parent_path()) {
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    if (ec) throw WebExportError(path + ": cannot create the folder " + target.parent_path().string() + ": " + ec.message());
  }
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw WebExportError(path + ": cannot open for writing");
    f.write(page.data(), static_cast<std::streamsize>(page.size()));
    f.flush();
    if (!f) {
      f.close();
      std::error_code ec;
      fs::remove(tmp, ec);
      throw WebExportError(path + ": write failed");
    }
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignore;
    fs::remove(tmp, ignore);
    throw WebExportError(path + ": cannot write (" + ec.message() + ")");
  }
  r.path = path;
  return r;
}

uint32_t web_page_version(const std::string& page) {
  const std::string tag = "<meta name=\"reducescope-page-version\" content=\"";
  const size_t at = page.find(tag);
  if (at == std::string::npos) return 1;  // written before the pages said it
  return static_cast<uint32_t>(std::strtoul(page.c_str() + at + tag.size(), nullptr, 10));
}

std::string web_data_block(const std::string& page) {
  const std::string open = "id=\"rs-data\"";
  const size_t at = page.find(open);
  if (at == std::string::npos) throw WebExportError("the page has no rs-data block");
  const size_t start = page.find('>', at);
  const size_t end = page.find("</script>", start);
  if (start == std::string::npos || end == std::string::npos) throw WebExportError("the rs-data block is not closed");
  return page.substr(start + 1, end - start - 1);
}

std::vector<std::string> decode_web_data(const std::string& b64) {
  std::string bin;
  bin.reserve(b64.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  bool padding = false;
  for (char c : b64) {
    if (c == '\n' || c == '\r' || c == ' ' || c == '\t') continue;
    if (c == '=') {
      padding = true;
      continue;
    }
    if (padding) throw WebExportError("the data block has characters after its base64 padding");
    const char* p = std::strchr(kB64, c);
    if (!p || c == 0) throw WebExportError(std::string("the data block has a character that is not base64: '") + c + "'");
    acc = acc << 6 | static_cast<uint32_t>(p - kB64);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bin += static_cast<char>(acc >> bits & 0xff);
    }
  }
  if (bin.size() < 24 || std::memcmp(bin.data(), kWebDataMagic, 8) != 0) {
    throw WebExportError("the data block does not start with the ReduceScope web magic");
  }
  if (get_u32(bin, 8) != kWebDataVersion) {
    throw WebExportError("the data block is version " + std::to_string(get_u32(bin, 8)) + ", this build reads " +
                         std::to_string(kWebDataVersion));
  }
  const uint32_t parts = get_u32(bin, 12), body = get_u32(bin, 16), crc = get_u32(bin, 20);
  if (bin.size() - 24 != body) {
    throw WebExportError("the data block is truncated or too long: " + std::to_string(bin.size() - 24) + " bytes, expected " +
                         std::to_string(body));
  }
  if (crc_of(bin, 24) != crc) throw WebExportError("the data block is corrupt (CRC-32 mismatch)");
  std::vector<std::string> out;
  size_t at = 24;
  for (uint32_t i = 0; i < parts; ++i) {
    if (bin.size() - at < 8) throw WebExportError("the data block ends inside part " + std::to_string(i));
    const uint32_t packed = get_u32(bin, at), raw = get_u32(bin, at + 4);
    at += 8;
    if (bin.size() - at < packed) throw WebExportError("the data block ends inside part " + std::to_string(i));
    std::string text(raw, '\0');
    uLongf len = raw;
    if (uncompress(reinterpret_cast<Bytef*>(text.data()), &len, reinterpret_cast<const Bytef*>(bin.data() + at),
                   packed) != Z_OK ||
        len != raw) {
      throw WebExportError("part " + std::to_string(i) + " of the data block does not inflate");
    }
    out.push_back(std::move(text));
    at += packed;
  }
  if (at != bin.size()) throw WebExportError("the data block has bytes after its last part");
  return out;
}

std::string web_trace_text(const std::vector<std::string>& parts, size_t part, size_t at, size_t bytes) {
  if (part == 0 || part >= parts.size()) {
    throw WebExportError("the index names part " + std::to_string(part) + " of " + std::to_string(parts.size()));
  }
  if (at > parts[part].size() || bytes > parts[part].size() - at) {
    throw WebExportError("the index names bytes " + std::to_string(at) + " to " + std::to_string(at + bytes) + " of part " +
                         std::to_string(part) + ", which holds " + std::to_string(parts[part].size()));
  }
  return parts[part].substr(at, bytes);
}

}  // namespace rs
