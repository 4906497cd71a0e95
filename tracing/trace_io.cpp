#include "trace_io.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <zlib.h>

namespace rs {

const char* to_string(AccessKind k) {
  switch (k) {
    case AccessKind::Load: return "load";
    case AccessKind::Store: return "store";
    case AccessKind::BlockBarrier: return "__syncthreads";
    case AccessKind::WarpBarrier: return "__syncwarp";
  }
  return "?";
}

std::string record_problem(const TraceMeta& m, const TraceRecord& r) {
  if (r.kind > static_cast<uint8_t>(AccessKind::WarpBarrier)) return "unknown kind " + std::to_string(r.kind);
  if (r.thread >= m.block_size) return "thread " + std::to_string(r.thread) + " is outside the block";
  const bool access = r.kind <= static_cast<uint8_t>(AccessKind::Store);
  if (access && (r.addr % 4 != 0 || uint64_t{r.addr} + 4 > m.smem_bytes)) {
    return "address " + std::to_string(r.addr) + " is outside the block's " + std::to_string(m.smem_bytes) +
           " bytes of shared memory or not 4-byte aligned";
  }
  if (r.epoch > kMaxEpoch) return "barrier epoch " + std::to_string(r.epoch) + " is implausible";
  return {};
}

namespace {

constexpr char kMagic[8] = {'R', 'S', 'T', 'R', 'A', 'C', 'E', '\0'};

// Section tags. Append-only: never renumber.
enum Tag : uint32_t { kTagMeta = 1, kTagSource = 2, kTagRecords = 3, kTagChecksum = 4 };

constexpr uint64_t kMaxRecords = 1ull << 26;  // 2 GiB of records: far beyond any one block

class Writer {
 public:
  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u16(uint16_t v) { for (int i = 0; i < 2; ++i) u8(static_cast<uint8_t>(v >> (8 * i))); }
  void u32(uint32_t v) { for (int i = 0; i < 4; ++i) u8(static_cast<uint8_t>(v >> (8 * i))); }
  void u64(uint64_t v) { for (int i = 0; i < 8; ++i) u8(static_cast<uint8_t>(v >> (8 * i))); }
  void bytes(const void* p, size_t n) { out_.append(static_cast<const char*>(p), n); }
  void str(const std::string& s) { u32(static_cast<uint32_t>(s.size())); bytes(s.data(), s.size()); }
  std::string& data() { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  Reader(const char* p, size_t n, const std::string& name, const char* what)
      : p_(p), n_(n), name_(name), what_(what) {}
  [[noreturn]] void fail(const std::string& msg) const {
    throw TraceFormatError(name_ + ": " + msg);
  }
  void need(uint64_t k) const {
    if (k > n_ - pos_) {
      fail(std::string("truncated ") + what_ + " (needs " + std::to_string(k) + " more bytes at offset " +
           std::to_string(pos_) + ", has " + std::to_string(n_ - pos_) + ")");
    }
  }
  uint8_t u8() { need(1); return static_cast<uint8_t>(p_[pos_++]); }
  uint16_t u16() { uint16_t v = 0; for (int i = 0; i < 2; ++i) v |= uint16_t(u8()) << (8 * i); return v; }
  uint32_t u32() { uint32_t v = 0; for (int i = 0; i < 4; ++i) v |= uint32_t(u8()) << (8 * i); return v; }
  uint64_t u64() { uint64_t v = 0; for (int i = 0; i < 8; ++i) v |= uint64_t(u8()) << (8 * i); return v; }
  std::string str() {
    uint32_t len = u32();
    need(len);
    std::string s(p_ + pos_, len);
    pos_ += len;
    return s;
  }
  void skip(uint64_t k) { need(k); pos_ += k; }
  size_t pos() const { return pos_; }
  size_t left() const { return n_ - pos_; }

 private:
  const char* p_;
  size_t n_;
  size_t pos_ = 0;
  const std::string& name_;
  const char* what_;
};

void write_meta(Writer& w, const TraceMeta& m) {
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
}

TraceMeta read_meta(Reader& r) {
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
  for (int i = 0; i < 7; ++i) w.u8(0);
}

TraceRecord read_record(Reader& r) {
  TraceRecord rec{};
  rec.epoch = r.u32();
  rec.seq = r.u32();
  rec.addr = r.u32();
  rec.value = static_cast<int32_t>(r.u32());
  rec.active_mask = r.u32();
  rec.thread = r.u16();
  rec.line = r.u16();
  rec.kind = r.u8();
  r.skip(7);
  return rec;
}

uint32_t crc32_of(const char* p, size_t n) {
  uLong c = crc32(0L, Z_NULL, 0);
  while (n > 0) {
    uInt chunk = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    c = crc32(c, reinterpret_cast<const Bytef*>(p), chunk);
    p += chunk;
    n -= chunk;
  }
  return static_cast<uint32_t>(c);
}

void section(Writer& w, uint32_t tag, const std::string& payload) {
  w.u32(tag);
  w.u32(0);
  w.u64(payload.size());
  w.bytes(payload.data(), payload.size());
}

}  // namespace

std::string serialize_trace(const Trace& t) {
  Writer w;
  w.bytes(kMagic, sizeof kMagic);
  w.u32(kTraceFormatVersion);
  w.u32(0);
  Writer meta;
  write_meta(meta, t.meta);
  section(w, kTagMeta, meta.data());
  section(w, kTagSource, t.source);
  Writer recs;
  recs.u64(t.records.size());
  for (const auto& r : t.records) write_record(recs, r);
  section(w, kTagRecords, recs.data());
  // Last: CRC-32 (zlib) of every byte before this section's header.
  Writer crc;
  crc.u32(crc32_of(w.data().data(), w.data().size()));
  section(w, kTagChecksum, crc.data());
  return std::move(w.data());
}

Trace parse_trace(const std::string& bytes, const std::string& name) {
  Reader top(bytes.data(), bytes.size(), name, "file");
  top.need(sizeof kMagic);
  if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    top.fail("not a ReduceScope trace (bad magic bytes)");
  }
  top.skip(sizeof kMagic);
  uint32_t version = top.u32();
  if (top.u32() != 0) top.fail("the header's reserved field is not zero");
  if (version > kTraceFormatVersion) {
    top.fail("format version " + std::to_string(version) + " is newer than this build reads (" +
             std::to_string(kTraceFormatVersion) + "); update ReduceScope");
  }
  if (version < 1) top.fail("format version " + std::to_string(version) + " is too old (oldest read: 1)");

  Trace t;
  bool have_meta = false, have_records = false, have_checksum = false;
  while (top.left() > 0) {
    const size_t section_start = top.pos();
    uint32_t tag = top.u32();
    if (top.u32() != 0) top.fail("a section header's reserved field is not zero (corrupt file)");
    uint64_t size = top.u64();
    if (size > top.left()) {
      top.fail("truncated file: section " + std::to_string(tag) + " at offset " + std::to_string(section_start) +
               " declares " + std::to_string(size) + " bytes, but only " + std::to_string(top.left()) + " remain");
    }
    const char* payload = bytes.data() + top.pos();
    top.skip(size);
    switch (tag) {
      case kTagMeta: {
        Reader r(payload, size, name, "metadata section");
        t.meta = read_meta(r);
        have_meta = true;
        break;
      }
      case kTagSource:
        t.source.assign(payload, size);
        break;
      case kTagRecords: {
        Reader r(payload, size, name, "record section");
        uint64_t count = r.u64();
        if (count > kMaxRecords) r.fail("record count " + std::to_string(count) + " is implausible");
        if (count * sizeof(TraceRecord) != r.left()) {
          r.fail("record section holds " + std::to_string(r.left()) + " bytes, but " + std::to_string(count) +
                 " records need " + std::to_string(count * sizeof(TraceRecord)));
        }
        t.records.reserve(count);
        for (uint64_t i = 0; i < count; ++i) t.records.push_back(read_record(r));
        have_records = true;
        break;
      }
      case kTagChecksum: {
        Reader r(payload, size, name, "checksum section");
        const uint32_t stored = r.u32();
        const uint32_t actual = crc32_of(bytes.data(), section_start);
        if (stored != actual) top.fail("checksum mismatch: the file is corrupt");
        if (top.left() != 0) top.fail("data after the checksum section");
        have_checksum = true;
        break;
      }
      default:
        break;  // a section from a later minor revision: skip it
    }
  }
  if (version >= 2 && !have_checksum) {
    throw TraceFormatError(name + ": no checksum section (the file is truncated or was not written completely)");
  }
  if (!have_meta) throw TraceFormatError(name + ": no metadata section");
  if (!have_records) throw TraceFormatError(name + ": no record section");

  const TraceMeta& m = t.meta;
  if (m.block_size == 0 || m.block_size > 1024) {
    throw TraceFormatError(name + ": block size " + std::to_string(m.block_size) + " is outside 1..1024");
  }
  if (m.smem_bytes == 0 || m.smem_bytes > (1u << 20)) {
    throw TraceFormatError(name + ": shared memory size " + std::to_string(m.smem_bytes) + " bytes is implausible");
  }
  for (size_t i = 0; i < t.records.size(); ++i) {
    std::string why = record_problem(m, t.records[i]);
    if (!why.empty()) throw TraceFormatError(name + ": record " + std::to_string(i) + ": " + why);
  }
  return t;
}

void save_trace(const Trace& trace, const std::string& path) {
  const std::string bytes = serialize_trace(trace);
  const std::string tmp = path + ".part";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw TraceFormatError(path + ": cannot open for writing");
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!f.flush()) throw TraceFormatError(path + ": write failed");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw TraceFormatError(path + ": cannot rename the finished file into place");
  }
}

Trace load_trace(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw TraceFormatError(path + ": cannot open (does the file exist?)");
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) throw TraceFormatError(path + ": read failed");
  return parse_trace(ss.str(), path);
}

}  // namespace rs
