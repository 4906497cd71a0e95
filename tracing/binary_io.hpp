// Little-endian binary writing and bounds-checked reading, the section framing and the
// CRC-32 shared by trace files and session files. Internal to tracing/.
#pragma once

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "said.hpp"
#include "trace_io.hpp"

namespace rs::detail {

class Writer {
 public:
  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u16(uint16_t v) { for (int i = 0; i < 2; ++i) u8(static_cast<uint8_t>(v >> (8 * i))); }
  void u32(uint32_t v) { for (int i = 0; i < 4; ++i) u8(static_cast<uint8_t>(v >> (8 * i))); }
  void u64(uint64_t v) { for (int i = 0; i < 8; ++i) u8(static_cast<uint8_t>(v >> (8 * i))); }
  void f64(double v) { uint64_t b; std::memcpy(&b, &v, 8); u64(b); }
  void bytes(const void* p, size_t n) { out_.append(static_cast<const char*>(p), n); }
  void str(const std::string& s) { u32(static_cast<uint32_t>(s.size())); bytes(s.data(), s.size()); }
  // A u32 count, then the values.
  void u32s(const std::vector<uint32_t>& v) {
    u32(static_cast<uint32_t>(v.size()));
    for (uint32_t x : v) u32(x);
  }
  std::string& data() { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  // `name` names the file in errors ("run.rstrace", "run.rsession (trace 3)"); `what` (marked N_()) the part
  // being read ("metadata section").
  Reader(const char* p, size_t n, Said name, const char* what) : p_(p), n_(n), name_(std::move(name)), what_(what) {}
  Reader(const char* p, size_t n, const std::string& name, const char* what)
      : Reader(p, n, Said::verbatim(name), what) {}
  // Throws TraceFormatError: "<name>: <msg>".
  [[noreturn]] void fail(const Said& msg) const { throw TraceFormatError(Said(N_("%s: %s"), name_, msg)); }
  // Same, with a message that stays English (the capture file's, which only the CLI reads).
  [[noreturn]] void fail(const std::string& english) const { fail(Said::verbatim(english)); }
  void need(uint64_t k) const {
    if (k > n_ - pos_) {
      fail(Said(N_("truncated %s (needs %zu more bytes at offset %zu, has %zu)"), Term{what_}, static_cast<size_t>(k),
                static_cast<size_t>(pos_), static_cast<size_t>(n_ - pos_)));
    }
  }
  uint8_t u8() { need(1); return static_cast<uint8_t>(p_[pos_++]); }
  uint16_t u16() { uint16_t v = 0; for (int i = 0; i < 2; ++i) v |= uint16_t(u8()) << (8 * i); return v; }
  uint32_t u32() { uint32_t v = 0; for (int i = 0; i < 4; ++i) v |= uint32_t(u8()) << (8 * i); return v; }
  uint64_t u64() { uint64_t v = 0; for (int i = 0; i < 8; ++i) v |= uint64_t(u8()) << (8 * i); return v; }
  double f64() { uint64_t b = u64(); double v; std::memcpy(&v, &b, 8); return v; }
  std::string str() {
    uint32_t len = u32();
    need(len);
    std::string s(p_ + pos_, len);
    pos_ += len;
    return s;
  }
  // Writer::u32s' list; a count above `max` fails naming `what` (marked N_(): "a race's words").
  std::vector<uint32_t> u32s(uint32_t max, const char* what) {
    const uint32_t count = u32();
    if (count > max) {
      fail(Said(N_("%s: %llu values is implausible"), Term{what}, static_cast<unsigned long long>(count)));
    }
    need(uint64_t{count} * 4);
    std::vector<uint32_t> v(count);
    for (uint32_t& x : v) x = u32();
    return v;
  }
  void skip(uint64_t k) { need(k); pos_ += k; }
  size_t pos() const { return pos_; }
  size_t left() const { return n_ - pos_; }

 private:
  const char* p_;
  size_t n_;
  size_t pos_ = 0;
  Said name_;
  const char* what_;
};

// CRC-32 (zlib) of n bytes.
inline uint32_t crc32_of(const char* p, size_t n) {
  uLong c = crc32(0L, Z_NULL, 0);
  while (n > 0) {
    uInt chunk = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    c = crc32(c, reinterpret_cast<const Bytef*>(p), chunk);
    p += chunk;
    n -= chunk;
  }
  return static_cast<uint32_t>(c);
}

inline void section(Writer& w, uint32_t tag, const std::string& payload) {
  w.u32(tag);
  w.u32(0);
  w.u64(payload.size());
  w.bytes(payload.data(), payload.size());
}

// Writes the file header read_header() reads: magic, version, reserved (0).
inline void write_header(Writer& w, const char (&magic)[8], uint32_t version) {
  w.bytes(magic, sizeof magic);
  w.u32(version);
  w.u32(0);
}

// Reads the file header: 8 magic bytes, u32 version, u32 reserved (0). `kind` names the file
// type in errors (marked N_(): "trace"). Returns the version, which is in [1, max_version].
inline uint32_t read_header(Reader& top, const std::string& bytes, const char (&magic)[8], uint32_t max_version,
                            const char* kind) {
  top.need(sizeof magic);
  if (std::memcmp(bytes.data(), magic, sizeof magic) != 0) {
    top.fail(Said(N_("not a ReduceScope %s (bad magic bytes)"), Term{kind}));
  }
  top.skip(sizeof magic);
  const uint32_t version = top.u32();
  if (top.u32() != 0) top.fail(Said(N_("the header's reserved field is not zero")));
  if (version > max_version) {
    top.fail(Said(N_("format version %u is newer than this build reads (%u); update ReduceScope"),
                  static_cast<unsigned>(version), static_cast<unsigned>(max_version)));
  }
  if (version < 1) {
    top.fail(Said(N_("format version %u is too old (oldest read: 1)"), static_cast<unsigned>(version)));
  }
  return version;
}

// Walks the sections after the header, calling on_section(tag, payload, size) for each one
// except the checksum section (tag `checksum_tag`), which must be last and match the CRC-32 of
// every byte before it. All framing and the checksum are verified before the first call, so a
// corrupt file is refused before any payload is decoded. Returns true if a checksum was found.
template <class OnSection>
bool walk_sections(Reader& top, const std::string& bytes, uint32_t checksum_tag, OnSection&& on_section) {
  struct Span {
    uint32_t tag;
    const char* payload;
    uint64_t size;
  };
  std::vector<Span> sections;
  bool have_checksum = false;
  while (top.left() > 0) {
    const size_t section_start = top.pos();
    const uint32_t tag = top.u32();
    if (top.u32() != 0) top.fail(Said(N_("a section header's reserved field is not zero (corrupt file)")));
    const uint64_t size = top.u64();
    if (size > top.left()) {
      top.fail(Said(N_("truncated file: section %u at offset %zu declares %llu bytes, but only %zu remain"),
                    static_cast<unsigned>(tag), static_cast<size_t>(section_start), static_cast<unsigned long long>(size),
                    static_cast<size_t>(top.left())));
    }
    const char* payload = bytes.data() + top.pos();
    top.skip(size);
    if (tag == checksum_tag) {
      if (size != 4) {
        top.fail(Said(N_("the checksum section is %llu bytes, not 4"), static_cast<unsigned long long>(size)));
      }
      uint32_t stored = 0;
      for (int i = 0; i < 4; ++i) stored |= uint32_t(static_cast<uint8_t>(payload[i])) << (8 * i);
      if (stored != crc32_of(bytes.data(), section_start)) top.fail(Said(N_("checksum mismatch: the file is corrupt")));
      if (top.left() != 0) top.fail(Said(N_("data after the checksum section")));
      have_checksum = true;
    } else {
      sections.push_back({tag, payload, size});
    }
  }
  for (const Span& sp : sections) on_section(sp.tag, sp.payload, sp.size);
  return have_checksum;
}

// Appends the checksum section: CRC-32 of every byte written so far.
inline void append_checksum(Writer& w, uint32_t checksum_tag) {
  Writer crc;
  crc.u32(crc32_of(w.data().data(), w.data().size()));
  section(w, checksum_tag, crc.data());
}

// Writes `bytes` to `path` through "<path>.part", renamed into place, so a failed write never
// leaves a half-written file under the final name. Throws TraceFormatError on failure.
void write_file_atomically(const std::string& path, const std::string& bytes);
// The whole file. Throws TraceFormatError if it cannot be opened or read.
std::string read_file(const std::string& path);

}  // namespace rs::detail
