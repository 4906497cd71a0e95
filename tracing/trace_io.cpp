#include "trace_io.hpp"

#include "binary_io.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace rs {


// The names below that are words, not identifiers, are msgids (N_): messages for people say them as a Term
// (tracing/said.hpp); files, the CLI and every comparison use them as they are.
const char* to_string(AccessKind k) {
  switch (k) {
    case AccessKind::Load: return N_("load");
    case AccessKind::Store: return N_("store");
    case AccessKind::BlockBarrier: return "__syncthreads";
    case AccessKind::WarpBarrier: return "__syncwarp";
    case AccessKind::GlobalLoad: return N_("global load");
    case AccessKind::GlobalStore: return N_("global store");
    case AccessKind::Shuffle: return N_("shuffle");
    case AccessKind::WarpReduce: return N_("warp reduce");
    case AccessKind::SharedAtomic: return N_("shared atomic");
    case AccessKind::GlobalAtomic: return N_("global atomic");
  }
  return "?";
}

const char* to_string(GlobalBuffer b) {
  switch (b) {
    case GlobalBuffer::Input: return N_("input");
    case GlobalBuffer::Output: return N_("output");
    case GlobalBuffer::Scratch: return N_("scratch");
    case GlobalBuffer::Bytes: return N_("input bytes");
  }
  return "?";
}

const char* to_string(DType t) {
  switch (t) {
    case DType::Int32: return "int32";
    case DType::Float32: return "float32";
  }
  return "?";
}

const char* to_string(Tracer t) {
  switch (t) {
    case Tracer::SourceProbe: return "the source probe";
    case Tracer::Binary: return "the binary backend";
  }
  return "?";
}

std::string format_value(uint32_t bits, DType t) {
  if (t == DType::Float32) {
    char b[32];
    std::snprintf(b, sizeof b, "%.9g", static_cast<double>(bits_to_float(bits)));
    return b;
  }
  return std::to_string(static_cast<int32_t>(bits));
}

namespace {

constexpr uint32_t kWarpLanes = 32;

bool power_of_two(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace

Said record_problem(const TraceMeta& m, const TraceRecord& r) {
  if (r.kind > kMaxAccessKind) return Said(N_("unknown kind %d"), int{r.kind});
  if (r.thread >= m.block_size) return Said(N_("thread %d is outside the block"), int{r.thread});
  if (r.epoch > kMaxEpoch) return Said(N_("epoch %u is implausible (above %u)"), r.epoch, kMaxEpoch);
  const auto kind = static_cast<AccessKind>(r.kind);
  // The kind's name, said in the message's language.
  auto what = [kind] { return Term{to_string(kind)}; };
  const uint8_t op = r.op & kOpMask;
  switch (kind) {
    case AccessKind::Load:
    case AccessKind::Store:
    case AccessKind::SharedAtomic:
      if (r.addr % 4 != 0 || uint64_t{r.addr} + 4 > m.smem_bytes) {
        return Said(N_("%s address %u is outside the block's %u bytes of shared memory or not 4-byte aligned"), what(),
                    r.addr, m.smem_bytes);
      }
      break;
    case AccessKind::GlobalLoad:
    case AccessKind::GlobalStore:
    case AccessKind::GlobalAtomic: {
      if (r.space > kMaxGlobalBuffer) return Said(N_("%s: unknown global buffer %d"), what(), int{r.space});
      const GlobalBuffer b = static_cast<GlobalBuffer>(r.space);
      // Scratch: the input's padded copy, at most 8 elements per thread of every block of the grid.
      const uint64_t size = (b == GlobalBuffer::Input || b == GlobalBuffer::Bytes) ? m.n
                            : b == GlobalBuffer::Scratch ? uint64_t{std::max<uint32_t>(m.grid_size, 1)} *
                                                               m.block_size * kMaxElementsPerThread
                            : m.output_elements ? m.output_elements
                                                         : std::max<uint64_t>(4ull * m.grid_size, kMinOutputElements);
      // lane_arg: bytes per lane of a vector access (4, 8 or 16), 0 for one element.
      if (r.lane_arg != 0 && r.lane_arg != 4 && r.lane_arg != 8 && r.lane_arg != 16) {
        return Said(N_("%s: access width %d bytes is not 4, 8 or 16"), what(), int{r.lane_arg});
      }
      const uint32_t last = r.lane_arg ? r.lane_arg / element_bytes(r.space) - 1 : 0;
      if (uint64_t{r.addr} + last >= size) {
        return Said(N_("%s index %llu is outside the %s buffer of %llu elements"), what(),
                    static_cast<unsigned long long>(uint64_t{r.addr} + last), Term{to_string(b)},
                    static_cast<unsigned long long>(size));
      }
      break;
    }
    case AccessKind::Shuffle:
      if (op > static_cast<uint8_t>(ShuffleKind::Xor)) return Said(N_("unknown shuffle variant %d"), int{op});
      // kUnknownLane: the binary tracer could not work the source lane out (only with kOpNoValues).
      if (r.lane_arg >= kWarpLanes && !(r.lane_arg == kUnknownLane && (r.op & kOpNoValues))) {
        return Said(N_("shuffle source lane %d is not in 0..31"), int{r.lane_arg});
      }
      if (r.space > kWarpLanes || !power_of_two(r.space)) {
        return Said(N_("shuffle width %d is not a power of two in 1..32"), int{r.space});
      }
      break;
    case AccessKind::WarpReduce:
      if (op > static_cast<uint8_t>(WarpReduceOp::Max)) return Said(N_("unknown warp-reduce operator %d"), int{op});
      if (r.op & kOpFloatBit) return Said(N_("warp reduce of float values (the __reduce_*_sync intrinsics take integers)"));
      break;
    case AccessKind::BlockBarrier:
    case AccessKind::WarpBarrier:
      break;
  }
  if ((kind == AccessKind::SharedAtomic || kind == AccessKind::GlobalAtomic) && op > static_cast<uint8_t>(AtomicOp::Cas)) {
    return Said(N_("unknown atomic operation %d"), int{op});
  }
  return {};
}

using detail::Reader;
using detail::section;
using detail::Writer;

namespace {

constexpr char kMagic[8] = {'R', 'S', 'T', 'R', 'A', 'C', 'E', '\0'};

// Section tags. Append-only: never renumber.
enum Tag : uint32_t { kTagMeta = 1, kTagSource = 2, kTagRecords = 3, kTagChecksum = 4 };

constexpr uint64_t kMaxRecords = 1ull << 26;  // 2 GiB of records: far beyond any one block

void write_meta(Writer& w, const TraceMeta& m, uint32_t version) {
  w.str(m.kernel);
  w.u32(m.block_size);
  w.u64(m.n);
  w.u32(m.traced_block);
  w.u32(m.grid_size);
  w.u32(m.smem_bytes);
  w.str(m.pattern);
  w.str(m.gpu);
  w.str(m.compute_capability);
  w.str(m.cuda_version);
  w.str(m.date);
  w.str(m.tool_version);
  w.u32(static_cast<uint32_t>(m.result));
  w.str(m.track);  // version 3
  w.u8(static_cast<uint8_t>(m.dtype));
  if (version >= 4) {
    w.u8(static_cast<uint8_t>(m.tracer));
    w.u64(m.output_elements);
    w.str(m.notes);
  }
  if (version >= 5) w.u32(m.launch);
}

TraceMeta read_meta(Reader& r, uint32_t version) {
  TraceMeta m;
  m.kernel = r.str();
  m.block_size = r.u32();
  m.n = r.u64();
  m.traced_block = r.u32();
  m.grid_size = r.u32();
  m.smem_bytes = r.u32();
  m.pattern = r.str();
  m.gpu = r.str();
  m.compute_capability = r.str();
  m.cuda_version = r.str();
  m.date = r.str();
  m.tool_version = r.str();
  m.result = static_cast<int32_t>(r.u32());
  if (version >= 3) {
    m.track = r.str();
    const uint8_t dtype = r.u8();
    if (dtype > static_cast<uint8_t>(DType::Float32)) {
      r.fail(Said(N_("unknown element type: dtype %d (this build reads 0 int32, 1 float32)"), int{dtype}));
    }
    m.dtype = static_cast<DType>(dtype);
  }
  if (version >= 4) {
    const uint8_t tracer = r.u8();
    if (tracer > static_cast<uint8_t>(Tracer::Binary)) {
      r.fail(Said(N_("unknown tracer %d (this build reads 0 source probe, 1 binary)"), int{tracer}));
    }
    m.tracer = static_cast<Tracer>(tracer);
    m.output_elements = r.u64();
    m.notes = r.str();
  }
  if (version >= 5) m.launch = r.u32();
  return m;
}

void write_record(Writer& w, const TraceRecord& rec) {
  w.u32(rec.epoch);
  w.u32(rec.seq);
  w.u32(rec.addr);
  w.u32(static_cast<uint32_t>(rec.value));
  w.u32(rec.active_mask);
  w.u16(rec.thread);
  w.u16(rec.line);
  w.u8(rec.kind);
  w.u8(rec.op);  // version 3: where versions 1 and 2 had 7 reserved bytes
  w.u8(rec.lane_arg);
  w.u8(rec.space);
  w.u32(rec.aux);
}

TraceRecord read_record(Reader& r, uint32_t version) {
  TraceRecord rec{};
  rec.epoch = r.u32();
  rec.seq = r.u32();
  rec.addr = r.u32();
  rec.value = static_cast<int32_t>(r.u32());
  rec.active_mask = r.u32();
  rec.thread = r.u16();
  rec.line = r.u16();
  rec.kind = r.u8();
  if (version >= 3) {
    rec.op = r.u8();
    rec.lane_arg = r.u8();
    rec.space = r.u8();
    rec.aux = r.u32();
  } else {
    r.skip(7);  // reserved: ignored, the fields stay 0
  }
  return rec;
}

}  // namespace

// The lowest version that holds `t`: 5 for a trace of a later launch than the first, 4 for a binary trace or one with
// version 4 fields, else 3.
static uint32_t version_needed(const Trace& t) {
  if (t.meta.launch > 1) return 5;
  if (t.meta.tracer != Tracer::SourceProbe || t.meta.output_elements != 0 || !t.meta.notes.empty()) return 4;
  for (const auto& r : t.records) {
    if ((r.op & kOpNoValues) || (r.kind == static_cast<uint8_t>(AccessKind::Shuffle) && r.lane_arg == kUnknownLane)) {
      return 4;
    }
  }
  return 3;
}

std::string serialize_trace(const Trace& t) {
  Writer w;
  const uint32_t version = version_needed(t);
  detail::write_header(w, kMagic, version);
  Writer meta;
  write_meta(meta, t.meta, version);
  section(w, kTagMeta, meta.data());
  section(w, kTagSource, t.source);
  Writer recs;
  recs.u64(t.records.size());
  for (const auto& r : t.records) write_record(recs, r);
  section(w, kTagRecords, recs.data());
  // Last: CRC-32 (zlib) of every byte before this section's header.
  detail::append_checksum(w, kTagChecksum);
  return std::move(w.data());
}

Trace parse_trace(const std::string& bytes, const std::string& name) { return parse_trace(bytes, Said::verbatim(name)); }

Trace parse_trace(const std::string& bytes, const Said& name) {
  Reader top(bytes.data(), bytes.size(), name, N_("file"));
  const uint32_t version = detail::read_header(top, bytes, kMagic, kTraceFormatVersion, N_("trace"));
  Trace t;
  bool have_meta = false, have_records = false;
  const bool have_checksum = detail::walk_sections(top, bytes, kTagChecksum, [&](uint32_t tag, const char* payload,
                                                                                 uint64_t size) {
    switch (tag) {
      case kTagMeta: {
        Reader r(payload, size, name, N_("metadata section"));
        t.meta = read_meta(r, version);
        have_meta = true;
        break;
      }
      case kTagSource:
        t.source.assign(payload, size);
        break;
      case kTagRecords: {
        Reader r(payload, size, name, N_("record section"));
        uint64_t count = r.u64();
        if (count > kMaxRecords) r.fail(Said(N_("record count %llu is implausible"), static_cast<unsigned long long>(count)));
        if (count * sizeof(TraceRecord) != r.left()) {
          r.fail(Said(N_("record section holds %zu bytes, but %llu records need %llu"), r.left(), static_cast<unsigned long long>(count),
                      static_cast<unsigned long long>(count * sizeof(TraceRecord))));
        }
        t.records.reserve(count);
        for (uint64_t i = 0; i < count; ++i) t.records.push_back(read_record(r, version));
        have_records = true;
        break;
      }
      default:
        break;  // a section from a later minor revision: skip it
    }
  });
  if (version >= 2 && !have_checksum) {
    throw TraceFormatError(
        Said(N_("%s: no checksum section (the file is truncated or was not written completely)"), name));
  }
  if (!have_meta) throw TraceFormatError(Said(N_("%s: no metadata section"), name));
  if (!have_records) throw TraceFormatError(Said(N_("%s: no record section"), name));

  const TraceMeta& m = t.meta;
  if (m.block_size == 0 || m.block_size > 1024) {
    throw TraceFormatError(Said(N_("%s: block size %u is outside 1..1024"), name, m.block_size));
  }
  // 0 is a kernel without shared memory (the course track's global-atomic histograms); any shared
  // access in it is then refused below.
  if (m.smem_bytes > (1u << 20)) {
    throw TraceFormatError(Said(N_("%s: shared memory size %u bytes is implausible"), name, m.smem_bytes));
  }
  for (size_t i = 0; i < t.records.size(); ++i) {
    const uint8_t kind = t.records[i].kind;
    if (version < 3 && kind > static_cast<uint8_t>(AccessKind::WarpBarrier) && kind <= kMaxAccessKind) {
      throw TraceFormatError(Said(N_("%s: record %zu: kind %d (%s) needs format version 3, but the file is version %u"),
                                  name, i, int{kind}, Term{to_string(static_cast<AccessKind>(kind))},
                                  version));
    }
    if (version < 4 && (t.records[i].op & kOpNoValues)) {
      throw TraceFormatError(
          Said(N_("%s: record %zu: the no-values bit needs format version 4, but the file is version %u"), name,
               i, version));
    }
    Said why = record_problem(m, t.records[i]);
    if (!why.empty()) throw TraceFormatError(Said(N_("%s: record %zu: %s"), name, i, why));
  }
  return t;
}

namespace detail {

void write_file_atomically(const std::string& path, const std::string& bytes) {
  const std::string tmp = path + ".part";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw TraceFormatError(Said(N_("%s: cannot open for writing"), path.c_str()));
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!f.flush()) {
      f.close();
      std::remove(tmp.c_str());
      throw TraceFormatError(Said(N_("%s: write failed (disk full?)"), path.c_str()));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw TraceFormatError(Said(N_("%s: cannot rename the finished file into place"), path.c_str()));
  }
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw TraceFormatError(Said(N_("%s: cannot open (does the file exist?)"), path.c_str()));
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) throw TraceFormatError(Said(N_("%s: read failed"), path.c_str()));
  return ss.str();
}

}  // namespace detail

void save_trace(const Trace& trace, const std::string& path) { detail::write_file_atomically(path, serialize_trace(trace)); }

Trace load_trace(const std::string& path) { return parse_trace(detail::read_file(path), path); }

}  // namespace rs
