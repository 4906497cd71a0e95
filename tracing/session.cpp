#include "session.hpp"

#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <cmath>
#include <cstring>
#include <set>
#include <tuple>

#include "binary_io.hpp"

namespace rs {

using detail::Reader;
using detail::Writer;

namespace {

constexpr char kMagic[8] = {'R', 'S', 'S', 'E', 'S', 'S', 'N', '\0'};

// Section tags. Append-only: never renumber.
enum Tag : uint32_t {
  kTagMeta = 1,
  kTagTimings = 2,
  kTagTrace = 3,
  kTagChecksum = 4,
  kTagMetrics = 5,
  kTagLaunches = 6,  // u32 count, then (str kernel, u32 block size, u32 launches) for timings that know them
  kTagSweep = 7,     // str gpu, str method, f64 peak GB/s, u32 count, then the points
  kTagRaces = 8,     // u32 count, then the races (write_race); readers that predate it skip it
  kTagBits = 9,      // SessionBits (write_bits); readers that predate it skip it
  kTagMultiGpu = 10, // SessionMultiGpu (write_multigpu); readers that predate it skip it
  kTagOtherRun = 11, // a trace of another run (Session::other_runs), as kTagTrace; readers that predate it skip it
};

constexpr uint32_t kMaxTimings = 4096;
constexpr uint32_t kMaxMetrics = 65536;
constexpr uint32_t kMaxSweepPoints = 65536;
constexpr uint32_t kMaxRaces = 65536;
constexpr uint32_t kMaxRaceWords = 1u << 16;  // 256 KiB of shared memory in 4-byte words

constexpr uint32_t kMaxBitsRows = 65536;
constexpr uint32_t kMaxMultiGpuRows = 65536;
constexpr uint32_t kMaxRings = 64;
constexpr uint32_t kMaxGpus = 64;

void write_multigpu(Writer& w, const SessionMultiGpu& m) {
  w.u32(m.gpus);
  w.u32(static_cast<uint32_t>(m.gpu_names.size()));
  for (const std::string& g : m.gpu_names) w.str(g);
  for (const std::string* s : {&m.topology, &m.link, &m.nccl_version, &m.method, &m.date}) w.str(*s);
  w.u8(m.peer_access ? 1 : 0);
  w.u32(static_cast<uint32_t>(m.rows.size()));
  for (const MultiGpuRow& r : m.rows) {
    w.str(r.op);
    w.str(r.method);
    w.u64(r.bytes);
    w.u32(r.gpus);
    for (double v : {r.median_ms, r.min_ms, r.max_ms}) w.f64(v);
    w.u32(r.samples);
    w.f64(r.algbw_gbps);
    w.f64(r.busbw_gbps);
    w.u8(r.correct ? 1 : 0);
  }
  w.u32(static_cast<uint32_t>(m.rings.size()));
  for (const RingRecording& ring : m.rings) {
    w.u64(ring.bytes);
    w.u32(ring.gpus);
    w.f64(ring.total_us);
    w.u32(static_cast<uint32_t>(ring.events.size()));
    for (const RingEvent& e : ring.events) {
      w.u32(e.step);
      w.u8(static_cast<uint8_t>(e.phase));
      w.u32(e.from);
      w.u32(e.to);
      w.u32(e.chunk);
      w.u64(e.chunk_bytes);
      for (double v : {e.copy_start_us, e.copy_end_us, e.add_start_us, e.add_end_us}) w.f64(v);
    }
  }
}

SessionMultiGpu read_multigpu(Reader& r) {
  SessionMultiGpu m;
  m.gpus = r.u32();
  if (m.gpus < 2 || m.gpus > kMaxGpus) r.fail(Said(N_("a multi-GPU recording on %u GPUs"), m.gpus));
  const uint32_t names = r.u32();
  if (names != m.gpus) r.fail(Said(N_("%u GPU names for %u GPUs"), names, m.gpus));
  for (uint32_t i = 0; i < names; ++i) m.gpu_names.push_back(r.str());
  for (std::string* s : {&m.topology, &m.link, &m.nccl_version, &m.method, &m.date}) *s = r.str();
  m.peer_access = r.u8() != 0;
  const uint32_t rows = r.u32();
  if (rows > kMaxMultiGpuRows) r.fail(Said(N_("multi-GPU row count %u is implausible"), rows));
  for (uint32_t i = 0; i < rows; ++i) {
    MultiGpuRow x;
    x.op = r.str();
    x.method = r.str();
    x.bytes = r.u64();
    x.gpus = r.u32();
    for (double* v : {&x.median_ms, &x.min_ms, &x.max_ms}) *v = r.f64();
    x.samples = r.u32();
    x.algbw_gbps = r.f64();
    x.busbw_gbps = r.f64();
    x.correct = r.u8() != 0;
    if (!(x.median_ms > 0) || !(x.min_ms <= x.median_ms) || !(x.median_ms <= x.max_ms)) {
      r.fail(Said(N_("a multi-GPU row (%s %s) with times %f / %f / %f ms"), x.op.c_str(), x.method.c_str(), x.min_ms,
                  x.median_ms, x.max_ms));
    }
    if (x.gpus == 0 || x.gpus > kMaxGpus || x.bytes == 0 || x.samples == 0) {
      r.fail(Said(N_("a multi-GPU row (%s %s) of %llu bytes on %u GPUs, %u samples"), x.op.c_str(), x.method.c_str(),
                  static_cast<unsigned long long>(x.bytes), x.gpus, x.samples));
    }
    m.rows.push_back(std::move(x));
  }
  const uint32_t rings = r.u32();
  if (rings > kMaxRings) r.fail(Said(N_("ring recording count %u is implausible"), rings));
  for (uint32_t i = 0; i < rings; ++i) {
    RingRecording ring;
    ring.bytes = r.u64();
    ring.gpus = r.u32();
    ring.total_us = r.f64();
    if (ring.gpus != m.gpus) r.fail(Said(N_("a ring on %u GPUs in a %u-GPU recording"), ring.gpus, m.gpus));
    const uint32_t events = r.u32();
    const std::vector<RingTransfer> sched = ring_schedule(ring.gpus);
    if (events != sched.size()) {
      r.fail(Said(N_("a ring on %u GPUs with %u transfers, not %zu"), ring.gpus, events, sched.size()));
    }
    for (uint32_t k = 0; k < events; ++k) {
      RingEvent e;
      e.step = r.u32();
      const uint8_t phase = r.u8();
      if (phase > 1) r.fail(Said(N_("a ring transfer of phase %d"), int{phase}));
      e.phase = static_cast<RingPhase>(phase);
      e.from = r.u32();
      e.to = r.u32();
      e.chunk = r.u32();
      e.chunk_bytes = r.u64();
      for (double* v : {&e.copy_start_us, &e.copy_end_us, &e.add_start_us, &e.add_end_us}) *v = r.f64();
      const RingTransfer& t = sched[k];
      if (e.step != t.step || e.phase != t.phase || e.from != t.from || e.to != t.to || e.chunk != t.chunk) {
        r.fail(Said(N_("ring transfer %u is not the ring's schedule (step %u, GPU %u -> %u, chunk %u)"), k, e.step,
                    e.from, e.to, e.chunk));
      }
      for (double v : {e.copy_start_us, e.copy_end_us, e.add_start_us, e.add_end_us}) {
        if (!std::isfinite(v) || v < 0) r.fail(Said(N_("a ring transfer with a time of %f us"), v));
      }
      ring.events.push_back(e);
    }
    m.rings.push_back(std::move(ring));
  }
  return m;
}

void write_bits(Writer& w, const SessionBits& b) {
  w.u64(b.n);
  w.str(b.pattern);
  w.u32(b.runs);
  w.u32(b.exact_bits);
  w.f64(b.exact);
  w.f64(b.tolerance);
  w.u32(static_cast<uint32_t>(b.rows.size()));
  for (const BitsRow& r : b.rows) {
    w.str(r.kernel);
    w.u32(r.bits);
    w.u32(r.count);
    w.u32s(r.block_sizes);
  }
}

SessionBits read_bits(Reader& r) {
  SessionBits b;
  b.n = r.u64();
  b.pattern = r.str();
  b.runs = r.u32();
  b.exact_bits = r.u32();
  b.exact = r.f64();
  b.tolerance = r.f64();
  if (!(b.tolerance >= 0)) r.fail(Said(N_("a bits view with a tolerance of %f"), b.tolerance));
  if (b.n == 0 || b.runs == 0) r.fail(Said(N_("a bits view of N = %llu, %u runs"), static_cast<unsigned long long>(b.n), b.runs));
  const uint32_t rows = r.u32();
  if (rows > kMaxBitsRows) r.fail(Said(N_("bits row count %u is implausible"), rows));
  for (uint32_t i = 0; i < rows; ++i) {
    BitsRow row;
    row.kernel = r.str();
    row.bits = r.u32();
    row.count = r.u32();
    if (row.count == 0) r.fail(Said(N_("a bits row of %s with no run"), row.kernel.c_str()));
    row.block_sizes = r.u32s(64, N_("a bits row's block sizes"));
    b.rows.push_back(std::move(row));
  }
  return b;
}

void write_race(Writer& w, const SessionRace& r) {
  w.str(r.kernel);
  w.u32(r.block_size);
  for (const std::string* s : {&r.kind, &r.file, &r.first_access}) w.str(*s);
  w.u32(r.first_line);
  w.str(r.second_access);
  w.u32(r.second_line);
  w.u32(r.hazards);
  w.u32s(r.words);
}

SessionRace read_race(Reader& r) {
  SessionRace x;
  x.kernel = r.str();
  x.block_size = r.u32();
  for (std::string* s : {&x.kind, &x.file, &x.first_access}) *s = r.str();
  x.first_line = r.u32();
  x.second_access = r.str();
  x.second_line = r.u32();
  x.hazards = r.u32();
  if (x.kind != "RAW" && x.kind != "WAR" && x.kind != "WAW") r.fail(Said(N_("a race of kind \"%s\""), x.kind.c_str()));
  for (const std::string* a : {&x.first_access, &x.second_access}) {
    if (*a != "Read" && *a != "Write") r.fail(Said(N_("a race with a \"%s\" access"), a->c_str()));
  }
  if (x.block_size == 0 || x.block_size > 1024) r.fail(Said(N_("a race at block size %u"), x.block_size));
  x.words = r.u32s(kMaxRaceWords, N_("a race's words"));
  for (size_t i = 1; i < x.words.size(); ++i) {
    if (x.words[i] <= x.words[i - 1]) r.fail(Said(N_("a race's words are not ascending")));
  }
  return x;
}

void write_sweep(Writer& w, const Sweep& sw) {
  w.str(sw.gpu);
  w.str(sw.method);
  w.f64(sw.peak_gbps);
  w.u32(static_cast<uint32_t>(sw.points.size()));
  for (const SweepPoint& p : sw.points) {
    w.str(p.series);
    w.u64(p.n);
    w.f64(p.gbps);
    w.str(p.kernel);
    w.u32(p.block_size);
    w.f64(p.median_ms);
    w.u32(p.launches);
  }
}

Sweep read_sweep(Reader& r) {
  Sweep sw;
  sw.gpu = r.str();
  sw.method = r.str();
  sw.peak_gbps = r.f64();
  const uint32_t count = r.u32();
  if (count > kMaxSweepPoints) r.fail(Said(N_("sweep point count %u is implausible"), count));
  for (uint32_t i = 0; i < count; ++i) {
    SweepPoint p;
    p.series = r.str();
    p.n = r.u64();
    p.gbps = r.f64();
    p.kernel = r.str();
    p.block_size = r.u32();
    p.median_ms = r.f64();
    p.launches = r.u32();
    if (p.series.empty() || p.n == 0 || !std::isfinite(p.gbps) || p.gbps < 0 || !std::isfinite(p.median_ms) ||
        p.median_ms < 0 || p.block_size > 1024) {
      r.fail(Said(N_("sweep point %u is not a series at N >= 1 with finite, non-negative figures"), i));
    }
    sw.points.push_back(std::move(p));
  }
  if (!std::isfinite(sw.peak_gbps) || sw.peak_gbps < 0) {
    r.fail(Said(N_("the sweep's peak is not a finite, non-negative GB/s")));
  }
  return sw;
}

void write_metric(Writer& w, const SessionMetric& m) {
  w.str(m.kernel);
  w.u32(m.block_size);
  w.str(m.name);
  w.str(m.ncu_metric);
  w.str(m.unit);
  w.f64(m.value);
}

SessionMetric read_metric(Reader& r) {
  SessionMetric m;
  m.kernel = r.str();
  m.block_size = r.u32();
  m.name = r.str();
  m.ncu_metric = r.str();
  m.unit = r.str();
  m.value = r.f64();
  return m;
}
constexpr uint64_t kMaxTraceBytes = 1ull << 30;  // one uncompressed trace: far beyond one block's

void write_meta(Writer& w, const SessionMeta& m) {
  for (const std::string* s : {&m.gpu, &m.compute_capability, &m.cuda_version, &m.date, &m.tool_version, &m.pattern,
                               &m.method}) {
    w.str(*s);
  }
  w.u64(m.n);
  w.u32(m.sm_count);
  w.u64(m.l2_bytes);
  w.u32(m.samples);
  w.u32(m.warmups);
  for (double d : {m.peak_gbps, m.copy_gbps, m.cub_ms, m.cub_gbps}) w.f64(d);
}

SessionMeta read_meta(Reader& r) {
  SessionMeta m;
  for (std::string* s : {&m.gpu, &m.compute_capability, &m.cuda_version, &m.date, &m.tool_version, &m.pattern,
                         &m.method}) {
    *s = r.str();
  }
  m.n = r.u64();
  m.sm_count = r.u32();
  m.l2_bytes = r.u64();
  m.samples = r.u32();
  m.warmups = r.u32();
  for (double* d : {&m.peak_gbps, &m.copy_gbps, &m.cub_ms, &m.cub_gbps}) *d = r.f64();
  return m;
}

void write_timing(Writer& w, const SessionTiming& t) {
  w.str(t.kernel);
  w.u32(t.block_size);
  for (double d : {t.median_ms, t.min_ms, t.max_ms}) w.f64(d);
  w.u32(t.samples);
  w.f64(t.gbps);
  w.f64(t.pct_peak);
  w.u8(t.correct ? 1 : 0);
}

SessionTiming read_timing(Reader& r) {
  SessionTiming t;
  t.kernel = r.str();
  t.block_size = r.u32();
  for (double* d : {&t.median_ms, &t.min_ms, &t.max_ms}) *d = r.f64();
  t.samples = r.u32();
  t.gbps = r.f64();
  t.pct_peak = r.f64();
  const uint8_t c = r.u8();
  if (c > 1) r.fail(Said(N_("a timing's correctness flag is %d, not 0 or 1"), int{c}));
  t.correct = c == 1;
  return t;
}

// A trace section: u64 size of the .rstrace bytes, then those bytes compressed with zlib.
std::string pack_trace(const Trace& t) {
  const std::string raw = serialize_trace(t);
  uLongf len = compressBound(static_cast<uLong>(raw.size()));
  std::string z(len, '\0');
  if (compress2(reinterpret_cast<Bytef*>(z.data()), &len, reinterpret_cast<const Bytef*>(raw.data()),
                static_cast<uLong>(raw.size()), Z_BEST_COMPRESSION) != Z_OK) {
    throw SessionFormatError(Said(N_("cannot compress the trace of %s"), t.meta.kernel.c_str()));
  }
  z.resize(len);
  Writer w;
  w.u64(raw.size());
  w.bytes(z.data(), z.size());
  return std::move(w.data());
}

Trace unpack_trace(const char* payload, uint64_t size, const std::string& name, size_t index) {
  Reader r(payload, size, name, N_("trace section"));
  const uint64_t raw_size = r.u64();
  const uint64_t z_size = r.left();
  // deflate expands at most about 1032:1 (zlib's FAQ), so a larger claim is corruption; checking
  // it first keeps a corrupt file from making us allocate gigabytes.
  if (raw_size > kMaxTraceBytes || raw_size > z_size * 1032 + 64) {
    r.fail(Said(N_("trace %zu declares an implausible size (corrupt file)"), index));
  }
  std::string raw(raw_size, '\0');
  uLongf len = static_cast<uLongf>(raw_size);
  const int rc = uncompress(reinterpret_cast<Bytef*>(raw.data()), &len,
                            reinterpret_cast<const Bytef*>(payload + 8), static_cast<uLong>(z_size));
  if (rc != Z_OK || len != raw_size) r.fail(Said(N_("trace %zu does not decompress (corrupt file)"), index));
  return parse_trace(raw, Said(N_("%s (trace %zu)"), name.c_str(), index));
}

}  // namespace

const SessionTiming* Session::find_timing(const std::string& kernel, uint32_t block_size) const {
  for (const auto& t : timings) {
    if (t.kernel == kernel && t.block_size == block_size) return &t;
  }
  return nullptr;
}

const Trace* Session::find_trace(const std::string& kernel, uint32_t block_size, std::optional<DType> dtype,
                                 std::optional<Tracer> tracer) const {
  // The best match: the asked-for type and tracer; where one is not asked for, int32 and the source probe first.
  const Trace* best = nullptr;
  int best_score = -1;
  for (const auto& t : traces) {
    if (t.meta.kernel != kernel || t.meta.block_size != block_size) continue;
    if (dtype && t.meta.dtype != *dtype) continue;
    if (tracer && t.meta.tracer != *tracer) continue;
    const int score = (t.meta.dtype == DType::Int32 ? 2 : 0) + (t.meta.tracer == Tracer::SourceProbe ? 1 : 0);
    if (score > best_score) {
      best = &t;
      best_score = score;
    }
  }
  return best;
}

bool Session::has_tracer(const std::string& kernel, uint32_t block_size, Tracer tracer) const {
  return find_trace(kernel, block_size, std::nullopt, tracer) != nullptr;
}

std::vector<DType> Session::trace_dtypes(const std::string& kernel, uint32_t block_size) const {
  std::vector<DType> out;
  for (DType d : {DType::Int32, DType::Float32}) {
    if (find_trace(kernel, block_size, d)) out.push_back(d);
  }
  return out;
}

std::vector<uint32_t> Session::block_sizes() const {
  std::set<uint32_t> b;
  for (const auto& t : timings) b.insert(t.block_size);
  for (const auto& t : traces) b.insert(t.meta.block_size);
  return {b.begin(), b.end()};
}

bool SessionBits::wrong(uint32_t bits) const {
  float got;
  std::memcpy(&got, &bits, 4);
  return !(std::fabs(static_cast<double>(got) - exact) <= tolerance);
}

std::vector<const SessionRace*> Session::races_of(const std::string& kernel, uint32_t block_size) const {
  std::vector<const SessionRace*> out;
  for (const auto& r : races) {
    if (r.kernel == kernel && r.block_size == block_size) out.push_back(&r);
  }
  return out;
}

void Session::set_races(const std::string& kernel, uint32_t block_size, std::vector<SessionRace> rs) {
  races.erase(std::remove_if(races.begin(), races.end(),
                             [&](const SessionRace& x) { return x.kernel == kernel && x.block_size == block_size; }),
              races.end());
  for (auto& r : rs) races.push_back(std::move(r));
}

void Session::set_timing(SessionTiming t) {
  timings.erase(std::remove_if(timings.begin(), timings.end(),
                               [&](const SessionTiming& x) { return x.kernel == t.kernel && x.block_size == t.block_size; }),
                timings.end());
  timings.push_back(std::move(t));
}

const Trace* Session::other_run(const std::string& kernel, uint32_t block_size, DType dtype) const {
  for (const Trace& t : other_runs) {
    if (t.meta.kernel == kernel && t.meta.block_size == block_size && t.meta.dtype == dtype) return &t;
  }
  return nullptr;
}

namespace {
// Removes from `v` the trace of `t`'s kernel, block size, element type and tracer (a session holds one of each).
void erase_same(std::vector<Trace>& v, const Trace& t) {
  v.erase(std::remove_if(v.begin(), v.end(),
                         [&](const Trace& x) {
                           return x.meta.kernel == t.meta.kernel && x.meta.block_size == t.meta.block_size &&
                                  x.meta.dtype == t.meta.dtype && x.meta.tracer == t.meta.tracer;
                         }),
          v.end());
}
}  // namespace

void Session::set_other_run(Trace t) {
  erase_same(other_runs, t);
  other_runs.push_back(std::move(t));
}

void Session::set_trace(Trace t) {
  erase_same(traces, t);
  // The source probe's int32 traces first (what a reader before float32 and binary traces takes), then the rest.
  auto primary = [](const Trace& x) { return x.meta.dtype == DType::Int32 && x.meta.tracer == Tracer::SourceProbe; };
  if (primary(t)) {
    const auto first_other = std::find_if(traces.begin(), traces.end(), [&](const Trace& x) { return !primary(x); });
    traces.insert(first_other, std::move(t));
  } else {
    traces.push_back(std::move(t));
  }
}

void Session::set_metric(SessionMetric m) {
  metrics.erase(std::remove_if(metrics.begin(), metrics.end(),
                               [&](const SessionMetric& x) {
                                 return x.kernel == m.kernel && x.block_size == m.block_size && x.name == m.name;
                               }),
                metrics.end());
  metrics.push_back(std::move(m));
}

const SessionMetric* Session::find_metric(const std::string& kernel, uint32_t block_size,
                                          const std::string& name) const {
  for (const auto& m : metrics) {
    if (m.kernel == kernel && m.block_size == block_size && m.name == name) return &m;
  }
  return nullptr;
}

std::string serialize_session(const Session& s) {
  Writer w;
  // The lowest version that holds what the session has: version 1 readers open metric-less files.
  detail::write_header(w, kMagic, s.metrics.empty() ? 1 : 2);
  Writer meta;
  write_meta(meta, s.meta);
  detail::section(w, kTagMeta, meta.data());
  Writer tab;
  tab.u32(static_cast<uint32_t>(s.timings.size()));
  for (const auto& t : s.timings) write_timing(tab, t);
  detail::section(w, kTagTimings, tab.data());
  for (const auto& t : s.traces) detail::section(w, kTagTrace, pack_trace(t));
  for (const auto& t : s.other_runs) detail::section(w, kTagOtherRun, pack_trace(t));
  std::vector<const SessionTiming*> counted;
  for (const auto& t : s.timings) {
    if (t.launches > 0) counted.push_back(&t);
  }
  if (!counted.empty()) {
    Writer lw;
    lw.u32(static_cast<uint32_t>(counted.size()));
    for (const SessionTiming* t : counted) {
      lw.str(t->kernel);
      lw.u32(t->block_size);
      lw.u32(t->launches);
    }
    detail::section(w, kTagLaunches, lw.data());
  }
  if (!s.sweep.empty()) {
    Writer sw;
    write_sweep(sw, s.sweep);
    detail::section(w, kTagSweep, sw.data());
  }
  if (!s.metrics.empty()) {
    Writer mt;
    mt.u32(static_cast<uint32_t>(s.metrics.size()));
    for (const auto& m : s.metrics) write_metric(mt, m);
    detail::section(w, kTagMetrics, mt.data());
  }
  if (!s.bits.empty()) {
    Writer bw;
    write_bits(bw, s.bits);
    detail::section(w, kTagBits, bw.data());
  }
  if (!s.multigpu.empty()) {
    Writer mw;
    write_multigpu(mw, s.multigpu);
    detail::section(w, kTagMultiGpu, mw.data());
  }
  if (!s.races.empty()) {
    Writer rw;
    rw.u32(static_cast<uint32_t>(s.races.size()));
    for (const auto& r : s.races) write_race(rw, r);
    detail::section(w, kTagRaces, rw.data());
  }
  detail::append_checksum(w, kTagChecksum);
  return std::move(w.data());
}

Session parse_session(const std::string& bytes, const std::string& name) {
  try {
    Reader top(bytes.data(), bytes.size(), name, N_("file"));
    detail::read_header(top, bytes, kMagic, kSessionFormatVersion, N_("session"));
    Session s;
    bool have_meta = false, have_timings = false;
    struct LaunchCount {
      std::string kernel;
      uint32_t block_size, launches;
    };
    std::vector<LaunchCount> launch_counts;  // applied once every timing has been read
    const bool have_checksum =
        detail::walk_sections(top, bytes, kTagChecksum, [&](uint32_t tag, const char* payload, uint64_t size) {
          switch (tag) {
            case kTagMeta: {
              Reader r(payload, size, name, N_("metadata section"));
              s.meta = read_meta(r);
              have_meta = true;
              break;
            }
            case kTagTimings: {
              Reader r(payload, size, name, N_("timing section"));
              const uint32_t count = r.u32();
              if (count > kMaxTimings) r.fail(Said(N_("timing count %u is implausible"), count));
              for (uint32_t i = 0; i < count; ++i) s.timings.push_back(read_timing(r));
              if (r.left() != 0) r.fail(Said(N_("the timing section has %zu stray bytes"), r.left()));
              have_timings = true;
              break;
            }
            case kTagTrace: {
              s.traces.push_back(unpack_trace(payload, size, name, s.traces.size()));
              break;
            }
            case kTagOtherRun: {
              s.other_runs.push_back(unpack_trace(payload, size, name, s.traces.size() + s.other_runs.size()));
              break;
            }
            case kTagMetrics: {
              Reader r(payload, size, name, N_("metrics section"));
              const uint32_t count = r.u32();
              if (count > kMaxMetrics) r.fail(Said(N_("metric count %u is implausible"), count));
              for (uint32_t i = 0; i < count; ++i) s.metrics.push_back(read_metric(r));
              if (r.left() != 0) r.fail(Said(N_("the metrics section has %zu stray bytes"), r.left()));
              break;
            }
            case kTagLaunches: {
              Reader r(payload, size, name, N_("launch count section"));
              const uint32_t count = r.u32();
              if (count > kMaxTimings) r.fail(Said(N_("launch count entries %u are implausible"), count));
              for (uint32_t i = 0; i < count; ++i) {
                std::string kernel = r.str();
                const uint32_t bs = r.u32(), launches = r.u32();
                launch_counts.push_back({std::move(kernel), bs, launches});
              }
              if (r.left() != 0) r.fail(Said(N_("the launch count section has %zu stray bytes"), r.left()));
              break;
            }
            case kTagSweep: {
              Reader r(payload, size, name, N_("sweep section"));
              s.sweep = read_sweep(r);
              if (r.left() != 0) r.fail(Said(N_("the sweep section has %zu stray bytes"), r.left()));
              break;
            }
            case kTagBits: {
              Reader r(payload, size, name, N_("bits section"));
              s.bits = read_bits(r);
              if (r.left() != 0) r.fail(Said(N_("the bits section has %zu stray bytes"), r.left()));
              break;
            }
            case kTagMultiGpu: {
              Reader r(payload, size, name, N_("multi-GPU section"));
              s.multigpu = read_multigpu(r);
              if (r.left() != 0) r.fail(Said(N_("the multi-GPU section has %zu stray bytes"), r.left()));
              break;
            }
            case kTagRaces: {
              Reader r(payload, size, name, N_("race section"));
              const uint32_t count = r.u32();
              if (count > kMaxRaces) r.fail(Said(N_("race count %u is implausible"), count));
              for (uint32_t i = 0; i < count; ++i) s.races.push_back(read_race(r));
              if (r.left() != 0) r.fail(Said(N_("the race section has %zu stray bytes"), r.left()));
              break;
            }
            default:
              break;  // a section from a later minor revision: skip it
          }
        });
    if (!have_checksum) {
      throw SessionFormatError(
          Said(N_("%s: no checksum section (the file is truncated or was not written completely)"), name.c_str()));
    }
    if (!have_meta) throw SessionFormatError(Said(N_("%s: no metadata section"), name.c_str()));
    if (!have_timings) throw SessionFormatError(Said(N_("%s: no timing section"), name.c_str()));
    for (const Trace& t : s.other_runs) {  // a second run stands beside its first
      if (!s.find_trace(t.meta.kernel, t.meta.block_size, t.meta.dtype, t.meta.tracer)) {
        throw SessionFormatError(Said(N_("%s: another run of %s at %u threads without its first run"), name.c_str(),
                                      t.meta.kernel.c_str(), t.meta.block_size));
      }
    }
    std::set<std::pair<std::string, uint32_t>> seen;
    for (const auto& t : s.timings) {
      if (!seen.insert({t.kernel, t.block_size}).second) {
        throw SessionFormatError(
            Said(N_("%s: two timings of %s at %u threads"), name.c_str(), t.kernel.c_str(), t.block_size));
      }
      if (t.block_size == 0 || t.block_size > 1024) {
        throw SessionFormatError(
            Said(N_("%s: a timing of %s has block size %u"), name.c_str(), t.kernel.c_str(), t.block_size));
      }
      if (!(t.min_ms >= 0) || !(t.median_ms >= t.min_ms) || !(t.max_ms >= t.median_ms)) {
        throw SessionFormatError(
            Said(N_("%s: the timing of %s at %u threads is not a valid 0 <= min <= median <= max in ms"), name.c_str(),
                 t.kernel.c_str(), t.block_size));
      }
    }
    for (const LaunchCount& c : launch_counts) {
      auto it = std::find_if(s.timings.begin(), s.timings.end(),
                             [&](const SessionTiming& t) { return t.kernel == c.kernel && t.block_size == c.block_size; });
      if (it == s.timings.end() || c.launches == 0 || it->launches != 0) {
        throw SessionFormatError(
            Said(N_("%s: the launch count of %s at %u threads has no timing, is 0 or is given twice"), name.c_str(),
                 c.kernel.c_str(), c.block_size));
      }
      it->launches = c.launches;
    }
    std::set<std::tuple<std::string, uint32_t, std::string>> seen_metrics;
    for (const auto& m : s.metrics) {
      if (!seen_metrics.insert({m.kernel, m.block_size, m.name}).second) {
        throw SessionFormatError(Said(N_("%s: two values of %s for %s at %u threads"), name.c_str(), m.name.c_str(),
                                      m.kernel.c_str(), m.block_size));
      }
      if (!std::isfinite(m.value) || m.block_size == 0 || m.block_size > 1024 || m.name.empty()) {
        throw SessionFormatError(
            Said(N_("%s: the metric %s of %s at %u threads is not a finite value at a valid block size"), name.c_str(),
                 m.name.c_str(), m.kernel.c_str(), m.block_size));
      }
    }
    return s;
  } catch (const SessionFormatError&) {
    throw;
  } catch (const TraceFormatError& e) {
    throw SessionFormatError(e.what());
  }
}

void save_session(const Session& s, const std::string& path) {
  try {
    detail::write_file_atomically(path, serialize_session(s));
  } catch (const SessionFormatError&) {
    throw;
  } catch (const TraceFormatError& e) {
    throw SessionFormatError(e.what());
  }
}

Session load_session(const std::string& path) {
  std::string bytes;
  try {
    bytes = detail::read_file(path);
  } catch (const TraceFormatError& e) {
    throw SessionFormatError(e.what());
  }
  return parse_session(bytes, path);
}

bool is_session_bytes(const std::string& bytes) {
  return bytes.size() >= sizeof kMagic && std::equal(kMagic, kMagic + sizeof kMagic, bytes.begin());
}

bool is_session_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  char head[sizeof kMagic] = {};
  if (!f.read(head, sizeof head)) return false;
  return std::equal(kMagic, kMagic + sizeof kMagic, head);
}

}  // namespace rs
