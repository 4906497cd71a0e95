// Trace files (.rstrace): round trip, save/load through the file system, and every kind of bad
// input a user can hand `reducescope show` (empty, foreign, truncated, corrupt, too old or new).
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "replay.hpp"
#include "trace_io.hpp"
#include "test_util.hpp"

namespace rs {
namespace {

constexpr const char* kName = "unit_test_trace.rstrace";

TraceRecord rec(uint32_t epoch, uint32_t seq, uint16_t thread, AccessKind kind, uint32_t addr, int32_t value,
                uint16_t line, uint32_t active_mask = 0xffffffffu) {
  TraceRecord r{};
  r.epoch = epoch;
  r.seq = seq;
  r.addr = addr;
  r.value = value;
  r.active_mask = active_mask;
  r.thread = thread;
  r.line = line;
  r.kind = static_cast<uint8_t>(kind);
  return r;
}

// A small, valid trace of a 64-thread block with 256 bytes of shared memory. Its field values are
// all distinct so that a round trip that mixes fields up shows.
Trace small_trace() {
  Trace t;
  TraceMeta& m = t.meta;
  m.kernel = "reduce2";
  m.block_size = 64;
  m.n = (uint64_t{1} << 33) + 5;  // needs all 64 bits of the field
  m.traced_block = 3;
  m.grid_size = 4096;
  m.smem_bytes = 256;
  m.pattern = "random";
  m.gpu = "NVIDIA H100 80GB HBM3";
  m.compute_capability = "9.0";
  m.cuda_version = "13.0";
  m.date = "2025-01-02T03:04:05Z";
  m.tool_version = "0.1.0";
  m.result = -123456789;
  t.source = "line one\n  sdata[tid] = x;\n\tline three\n";
  t.records = {
      rec(0, 0, 0, AccessKind::Store, 0, 7, 2),
      rec(0, 0, 63, AccessKind::Store, 252, -1, 2, 0x80000001u),
      rec(0, 1, 0, AccessKind::BlockBarrier, 0, 0, 3),
      rec(0, 1, 63, AccessKind::BlockBarrier, 0, 0, 3),
      rec(1, 0, 0, AccessKind::Load, 252, -1, 4, 0x1u),
      rec(1, 1, 0, AccessKind::WarpBarrier, 0, 0, 5, 0x1u),
  };
  return t;
}

using test::append_u32;
using test::append_u64;
using test::contains;
using test::Outcome;
using test::put_u32;
using test::put_u64;

Outcome try_parse(const std::string& bytes, Trace* out = nullptr, std::string* msg = nullptr) {
  return test::classify_parse<TraceFormatError>([&] { return parse_trace(bytes, kName); }, out, msg);
}

// The message of the TraceFormatError that parsing `bytes` raises; fails the test if none.
std::string format_error(const std::string& bytes) {
  std::string msg;
  Outcome o = try_parse(bytes, nullptr, &msg);
  EXPECT_EQ(o, Outcome::FormatError) << (o == Outcome::Parsed ? "parsed without error" : msg);
  EXPECT_NE(msg.find(kName), std::string::npos) << "message does not name the file: " << msg;
  return msg;
}

void append_section(std::string& b, uint32_t tag, const std::string& payload) {
  append_u32(b, tag);
  append_u32(b, 0);
  append_u64(b, payload.size());
  b += payload;
}

// Every version-2 file ends with the checksum section (16-byte header + 4-byte CRC-32). Tests
// that patch a field must reach the field's own check, not the checksum, so they patch the same
// file as format version 1: no checksum section, version field 1.
constexpr size_t kChecksumSection = 20;
std::string as_v1(const std::string& bytes) {
  std::string b = bytes.substr(0, bytes.size() - kChecksumSection);
  put_u32(b, 8, 1);
  return b;
}

// In a version-1 file the record section is last: its payload is a u64 count, then 32 bytes
// per record.
size_t record_count_offset(const std::string& bytes, size_t records) { return bytes.size() - records * 32 - 8; }

void expect_same(const Trace& a, const Trace& b) { test::expect_same_trace(a, b); }

using test::TempDir;

// ---- round trip ----------------------------------------------------------------------------

TEST(TraceIo, RoundTripInMemory) {
  const Trace t = small_trace();
  const std::string bytes = serialize_trace(t);
  EXPECT_EQ(bytes.compare(0, 8, std::string("RSTRACE\0", 8)), 0);
  Trace back = parse_trace(bytes, kName);
  expect_same(t, back);
  // Serializing again gives the same bytes.
  EXPECT_EQ(serialize_trace(back), bytes);
}

TEST(TraceIo, RecordsAre32BytesEach) {
  Trace t = small_trace();
  const size_t with6 = serialize_trace(t).size();
  t.records.push_back(rec(1, 2, 5, AccessKind::Load, 4, 1, 1));
  EXPECT_EQ(serialize_trace(t).size(), with6 + 32);
}

TEST(TraceIo, RoundTripEmptyStringsAndExtremes) {
  Trace t = small_trace();
  t.meta.kernel.clear();
  t.meta.gpu.clear();
  t.meta.date.clear();
  t.source.clear();
  t.meta.block_size = 1024;
  t.meta.smem_bytes = 1u << 20;
  t.meta.n = ~uint64_t{0};
  t.meta.result = INT32_MIN;
  t.records.push_back(rec(4096, 0xffffffffu, 1023, AccessKind::Store, (1u << 20) - 4, INT32_MAX, 0xffff, 0));
  t.records.push_back(rec(0, 0, 0, AccessKind::Load, 0, INT32_MIN, 0, 0));
  expect_same(t, parse_trace(serialize_trace(t), kName));
}

TEST(TraceIo, RoundTripNoRecords) {
  // A valid file with no records parses; it is the replay that refuses it.
  Trace t = small_trace();
  t.records.clear();
  Trace back = parse_trace(serialize_trace(t), kName);
  EXPECT_TRUE(back.records.empty());
  EXPECT_EQ(back.meta.kernel, "reduce2");
  EXPECT_THROW(Replay{back}, ReplayError);
}

TEST(TraceIo, SourceWithNulBytes) {
  Trace t = small_trace();
  t.source = std::string("a\0b\nc", 5);
  Trace back = parse_trace(serialize_trace(t), kName);
  EXPECT_EQ(back.source, t.source);
}

TEST(TraceIo, UnknownSectionIsSkipped) {
  const Trace t = small_trace();
  std::string bytes = as_v1(serialize_trace(t));
  append_section(bytes, 77, "a section from a later version");
  append_section(bytes, 0, "");
  Trace back;
  ASSERT_EQ(try_parse(bytes, &back), Outcome::Parsed);
  expect_same(t, back);
}

TEST(TraceIo, SaveAndLoad) {
  TempDir dir;
  const std::string path = dir.path("saved.rstrace");
  const Trace t = small_trace();
  save_trace(t, path);
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path + ".part")) << "temporary file left behind";
  EXPECT_EQ(std::filesystem::file_size(path), serialize_trace(t).size());
  expect_same(t, load_trace(path));

  // Saving over an existing trace replaces it.
  Trace t2 = small_trace();
  t2.meta.kernel = "reduce5";
  t2.records.resize(2);
  save_trace(t2, path);
  expect_same(t2, load_trace(path));
  int files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.dir())) ++files;
  EXPECT_EQ(files, 1);
}

TEST(TraceIo, SaveReplacesThroughRename) {
  // save_trace writes a temporary file and renames it into place: a second name (hard link) of
  // the old file keeps the old contents. Writing in place would change both names.
  TempDir dir;
  const std::string path = dir.path("t.rstrace");
  const std::string other = dir.path("old_link.rstrace");
  Trace t1 = small_trace();
  save_trace(t1, path);
  std::filesystem::create_hard_link(path, other);
  Trace t2 = small_trace();
  t2.meta.kernel = "reduce6";
  save_trace(t2, path);
  EXPECT_EQ(load_trace(path).meta.kernel, "reduce6");
  EXPECT_EQ(load_trace(other).meta.kernel, "reduce2");
}

TEST(TraceIo, FailedSaveLeavesNoTemporary) {
  TempDir dir;
  test::expect_failed_save_leaves_no_temporary<TraceFormatError>(dir, [](const std::string& p) { save_trace(small_trace(), p); });
}

TEST(TraceIo, SaveIntoMissingDirectory) {
  TempDir dir;
  test::expect_save_into_missing_directory_fails<TraceFormatError>(dir, [](const std::string& p) { save_trace(small_trace(), p); }, "t.rstrace");
}

TEST(TraceIo, LoadMissingFile) {
  TempDir dir;
  const std::string path = dir.path("does_not_exist.rstrace");
  test::expect_error_naming<TraceFormatError>([&] { load_trace(path); }, path);
}

TEST(TraceIo, LoadErrorsNameThePath) {
  TempDir dir;
  const std::string path = dir.path("garbage.rstrace");
  {
    std::ofstream f(path, std::ios::binary);
    f << "this is not a trace at all, just some text";
  }
  try {
    load_trace(path);
    FAIL() << "no TraceFormatError";
  } catch (const TraceFormatError& e) {
    EXPECT_TRUE(contains(e.what(), path)) << e.what();
    EXPECT_TRUE(contains(e.what(), "magic")) << e.what();
  }
}

TEST(TraceIo, LoadDirectory) {
  TempDir dir;
  // A directory opens as an ifstream on Linux but cannot be read: must still be a TraceFormatError.
  EXPECT_THROW(load_trace(dir.dir().string()), TraceFormatError);
}

// ---- header ----------------------------------------------------------------------------------

TEST(TraceIo, EmptyFile) {
  std::string msg = format_error("");
  EXPECT_TRUE(contains(msg, "truncated")) << msg;
}

TEST(TraceIo, BadMagic) {
  std::string bytes = serialize_trace(small_trace());
  bytes[0] = 'X';
  EXPECT_TRUE(contains(format_error(bytes), "magic"));
  bytes = serialize_trace(small_trace());
  bytes[7] = ' ';  // the terminating NUL is part of the magic
  EXPECT_TRUE(contains(format_error(bytes), "magic"));
  EXPECT_TRUE(contains(format_error("RSTRACX"), "truncated"));  // shorter than the magic
  EXPECT_TRUE(contains(format_error(std::string(64, '\0')), "magic"));
}

TEST(TraceIo, VersionTooOld) {
  std::string bytes = serialize_trace(small_trace());
  put_u32(bytes, 8, 0);
  std::string msg = format_error(bytes);
  EXPECT_TRUE(contains(msg, "too old")) << msg;
  EXPECT_TRUE(contains(msg, "version 0")) << msg;
}

TEST(TraceIo, VersionTooNew) {
  std::string bytes = serialize_trace(small_trace());
  put_u32(bytes, 8, 99);
  std::string msg = format_error(bytes);
  EXPECT_TRUE(contains(msg, "newer")) << msg;
  EXPECT_TRUE(contains(msg, "99")) << msg;
  put_u32(bytes, 8, kTraceFormatVersion + 1);
  EXPECT_TRUE(contains(format_error(bytes), "newer"));
}

TEST(TraceIo, CurrentVersionWritten) {
  std::string bytes = serialize_trace(small_trace());
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
  EXPECT_EQ(v, kTraceFormatVersion);
}

TEST(TraceIo, MissingSections) {
  const Trace t = small_trace();
  std::string header("RSTRACE\0", 8);
  append_u32(header, 1);
  append_u32(header, 0);
  EXPECT_TRUE(contains(format_error(header), "no metadata section"));

  // Header + source only.
  std::string only_source = header;
  append_section(only_source, 2, t.source);
  EXPECT_TRUE(contains(format_error(only_source), "no metadata section"));

  // The full file less its record section (which is written last).
  std::string full = as_v1(serialize_trace(t));
  const size_t records_section = record_count_offset(full, t.records.size()) - 16;
  EXPECT_TRUE(contains(format_error(full.substr(0, records_section)), "no record section"));
}

// ---- truncation and corruption ---------------------------------------------------------------

TEST(TraceIo, TruncatedAtEveryByte) {
  const std::string bytes = serialize_trace(small_trace());
  ASSERT_LT(bytes.size(), 1000u);  // keep this test fast
  for (size_t len = 0; len < bytes.size(); ++len) {
    std::string msg;
    Outcome o = try_parse(bytes.substr(0, len), nullptr, &msg);
    ASSERT_EQ(o, Outcome::FormatError) << "truncated to " << len << " of " << bytes.size() << " bytes: "
                                       << (o == Outcome::Parsed ? "parsed" : msg);
    ASSERT_TRUE(contains(msg, kName)) << msg;
  }
  EXPECT_EQ(try_parse(bytes), Outcome::Parsed);
}

// tests/corpus: bad files kept for the fuzzer's seed corpus. Each must be refused with a message
// naming the file; v1-valid.rstrace is the one good file (an old, checksum-free version).
TEST(TraceIo, EveryBadFileInTheCorpusIsRefused) {
  int bad = 0;
  for (const auto& e : std::filesystem::directory_iterator(RS_CORPUS_DIR)) {
    const std::string path = e.path().string();
    if (e.path().filename() == "v1-valid.rstrace") {
      EXPECT_NO_THROW(Replay(load_trace(path))) << path;
      continue;
    }
    try {
      Replay r(load_trace(path));
      ADD_FAILURE() << path << " was accepted";
    } catch (const TraceFormatError& ex) {
      EXPECT_TRUE(contains(ex.what(), path)) << ex.what();
    } catch (const ReplayError&) {
    }
    ++bad;
  }
  EXPECT_GE(bad, 10);
}

TEST(TraceIo, Version1FilesWithoutChecksumAreStillRead) {
  const Trace t = small_trace();
  Trace back;
  ASSERT_EQ(try_parse(as_v1(serialize_trace(t)), &back), Outcome::Parsed);
  expect_same(t, back);
}

TEST(TraceIo, ChecksumCatchesAChangedValue) {
  Trace t = small_trace();
  std::string bytes = serialize_trace(t);
  // A value byte of the last record: structurally fine, so only the checksum can tell.
  const size_t value_at = bytes.size() - kChecksumSection - 32 + 12;
  bytes[value_at] = static_cast<char>(bytes[value_at] ^ 0x10);
  EXPECT_TRUE(contains(format_error(bytes), "checksum mismatch")) << format_error(bytes);
  EXPECT_TRUE(contains(format_error(bytes), kName));
}

TEST(TraceIo, Version2WithoutChecksumOrWithDataAfterItIsRefused) {
  const std::string bytes = serialize_trace(small_trace());
  std::string cut = bytes.substr(0, bytes.size() - kChecksumSection);
  EXPECT_TRUE(contains(format_error(cut), "no checksum section")) << format_error(cut);
  std::string extra = bytes;
  append_section(extra, 77, "after the checksum");
  EXPECT_TRUE(contains(format_error(extra), "after the checksum")) << format_error(extra);
}

TEST(TraceIo, BitFlipAtEveryByteOfAVersion2FileIsRejected) {
  // The checksum section makes every single-bit flip detectable.
  const std::string bytes = serialize_trace(small_trace());
  for (size_t at = 0; at < bytes.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string b = bytes;
      b[at] = static_cast<char>(b[at] ^ (1 << bit));
      std::string msg;
      ASSERT_EQ(try_parse(b, nullptr, &msg), Outcome::FormatError) << "byte " << at << " bit " << bit;
      ASSERT_TRUE(contains(msg, kName)) << msg;
    }
  }
}

TEST(TraceIo, BitFlipAtEveryByteOfAVersion1FileNeverCrashes) {
  const std::string bytes = as_v1(serialize_trace(small_trace()));
  int parsed = 0, rejected = 0, replayed = 0;
  for (size_t at = 0; at < bytes.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string b = bytes;
      b[at] = static_cast<char>(b[at] ^ (1 << bit));
      Trace t;
      std::string msg;
      Outcome o = try_parse(b, &t, &msg);
      ASSERT_NE(o, Outcome::OtherError) << "byte " << at << " bit " << bit << ": " << msg;
      if (o == Outcome::FormatError) {
        ++rejected;
        ASSERT_TRUE(contains(msg, kName)) << msg;
        continue;
      }
      ++parsed;
      try {
        Replay r(t);
        ASSERT_GE(r.num_steps(), 1u);
        for (size_t s = 0; s < r.num_steps(); ++s) describe_step(r, s, t.source);
        ++replayed;
      } catch (const ReplayError&) {
        // A consistent file, but not a consistent run: fine.
      } catch (const std::exception& e) {
        FAIL() << "byte " << at << " bit " << bit << ": Replay threw something other than ReplayError: " << e.what();
      }
    }
  }
  // Both outcomes occur: flips in strings and values parse, flips in sizes and counts do not.
  EXPECT_GT(parsed, 0);
  EXPECT_GT(rejected, 0);
  EXPECT_GT(replayed, 0);
}

TEST(TraceIo, RandomGarbageAfterMagic) {
  // Deterministic pseudo-random bytes after a valid magic and version: never a crash.
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int round = 0; round < 200; ++round) {
    std::string b("RSTRACE\0", 8);
    append_u32(b, kTraceFormatVersion);
    append_u32(b, 0);
    const int len = round * 3;
    for (int i = 0; i < len; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      b.push_back(static_cast<char>(x));
    }
    std::string msg;
    ASSERT_NE(try_parse(b, nullptr, &msg), Outcome::OtherError) << msg;
  }
}

TEST(TraceIo, SectionSizeBeyondFile) {
  std::string bytes = serialize_trace(small_trace());
  // The metadata section header follows the 16-byte file header: tag, reserved, u64 size.
  put_u64(bytes, 16 + 8, ~uint64_t{0});
  EXPECT_TRUE(contains(format_error(bytes), "truncated"));
  put_u64(bytes, 16 + 8, uint64_t{1} << 40);
  EXPECT_TRUE(contains(format_error(bytes), "truncated"));
}

TEST(TraceIo, StringLengthBeyondSection) {
  std::string bytes = serialize_trace(small_trace());
  // The first field of the metadata payload is the kernel name's u32 length.
  put_u32(bytes, 32, 0xfffffff0u);
  // Re-seal, so the reader gets past the checksum (verified first) to the metadata: the CRC in
  // the last 4 bytes covers every byte before the checksum section's 16-byte header.
  put_u32(bytes, bytes.size() - 4,
          static_cast<uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()),
                                      static_cast<uInt>(bytes.size() - 20))));
  std::string msg = format_error(bytes);
  EXPECT_TRUE(contains(msg, "metadata")) << msg;
}

// ---- records -----------------------------------------------------------------------------------

TEST(TraceIo, ImplausibleRecordCount) {
  const Trace t = small_trace();
  std::string bytes = as_v1(serialize_trace(t));
  const size_t at = record_count_offset(bytes, t.records.size());
  put_u64(bytes, at, uint64_t{1} << 40);
  EXPECT_TRUE(contains(format_error(bytes), "implausible"));
  put_u64(bytes, at, ~uint64_t{0});
  EXPECT_TRUE(contains(format_error(bytes), "implausible"));
  // A count that does not match the section's size.
  put_u64(bytes, at, t.records.size() + 1);
  EXPECT_TRUE(contains(format_error(bytes), "record section"));
  put_u64(bytes, at, t.records.size() - 1);
  EXPECT_TRUE(contains(format_error(bytes), "record section"));
  // 2^59 records of 32 bytes is 2^64 bytes: must not wrap around to "0 bytes needed".
  std::string no_records = as_v1(serialize_trace(Trace{t.meta, t.source, {}}));
  put_u64(no_records, no_records.size() - 8, uint64_t{1} << 59);
  format_error(no_records);
}

TEST(TraceIo, ThreadOutsideBlock) {
  Trace t = small_trace();
  t.records[1].thread = 64;  // block_size is 64
  std::string msg = format_error(serialize_trace(t));
  EXPECT_TRUE(contains(msg, "record 1")) << msg;
  EXPECT_TRUE(contains(msg, "thread 64")) << msg;
  t.records[1].thread = 0xffff;
  format_error(serialize_trace(t));
  // Barriers are records of a thread too.
  t = small_trace();
  t.records[2].thread = 100;
  EXPECT_TRUE(contains(format_error(serialize_trace(t)), "thread 100"));
  // The last thread of the block is fine.
  t = small_trace();
  t.records[2].thread = 63;
  EXPECT_EQ(try_parse(serialize_trace(t)), Outcome::Parsed);
}

TEST(TraceIo, UnalignedAddress) {
  for (uint32_t addr : {1u, 2u, 3u, 6u, 250u}) {
    Trace t = small_trace();
    t.records[4].addr = addr;
    std::string msg = format_error(serialize_trace(t));
    EXPECT_TRUE(contains(msg, "record 4")) << msg;
    EXPECT_TRUE(contains(msg, "address " + std::to_string(addr))) << msg;
  }
}

TEST(TraceIo, AddressOutsideSharedMemory) {
  // smem_bytes is 256: the last word starts at 252.
  for (uint32_t addr : {256u, 260u, 1024u, 0x7ffffffcu, 0xfffffff8u}) {
    Trace t = small_trace();
    t.records[0].addr = addr;
    std::string msg = format_error(serialize_trace(t));
    EXPECT_TRUE(contains(msg, "address " + std::to_string(addr))) << msg;
  }
  // Barriers carry no address: theirs is not checked.
  Trace t = small_trace();
  t.records[2].addr = 4096;
  EXPECT_EQ(try_parse(serialize_trace(t)), Outcome::Parsed);
}

TEST(TraceIo, AddressThatWrapsAroundTheCheck) {
  // 0xfffffffc is 4-byte aligned, and 0xfffffffc + 4 wraps to 0 in 32 bits, which is not
  // greater than smem_bytes: the bounds check must not be fooled by the overflow.
  Trace t = small_trace();
  t.records[0].addr = 0xfffffffcu;
  std::string msg;
  Outcome o = try_parse(serialize_trace(t), nullptr, &msg);
  EXPECT_EQ(o, Outcome::FormatError) << "a record at byte address 4294967292 of a 256-byte shared memory was "
                                        "accepted (uint32 overflow in `r.addr + 4 > m.smem_bytes`)";
  // Whatever the parser says, the replay must not index shared memory with it.
  EXPECT_THROW(Replay{t}, ReplayError);
}

TEST(TraceIo, UnknownKind) {
  for (uint8_t kind : {uint8_t{4}, uint8_t{17}, uint8_t{255}}) {
    Trace t = small_trace();
    t.records[3].kind = kind;
    std::string msg = format_error(serialize_trace(t));
    EXPECT_TRUE(contains(msg, "record 3")) << msg;
    EXPECT_TRUE(contains(msg, "unknown kind " + std::to_string(kind))) << msg;
  }
}

TEST(TraceIo, ImplausibleEpoch) {
  Trace t = small_trace();
  t.records[5].epoch = 4097;
  EXPECT_TRUE(contains(format_error(serialize_trace(t)), "epoch"));
  t.records[5].epoch = 4096;
  EXPECT_EQ(try_parse(serialize_trace(t)), Outcome::Parsed);
}

TEST(TraceIo, BadMeta) {
  for (uint32_t b : {0u, 1025u, 0xffffffffu}) {
    Trace t = small_trace();
    t.meta.block_size = b;
    EXPECT_TRUE(contains(format_error(serialize_trace(t)), "block size")) << b;
  }
  for (uint32_t s : {0u, (1u << 20) + 4, 0xffffffffu}) {
    Trace t = small_trace();
    t.meta.smem_bytes = s;
    EXPECT_TRUE(contains(format_error(serialize_trace(t)), "shared memory size")) << s;
  }
}

TEST(TraceIo, KindNames) {
  EXPECT_STREQ(to_string(AccessKind::Load), "load");
  EXPECT_STREQ(to_string(AccessKind::Store), "store");
  EXPECT_STREQ(to_string(AccessKind::BlockBarrier), "__syncthreads");
  EXPECT_STREQ(to_string(AccessKind::WarpBarrier), "__syncwarp");
}

}  // namespace
}  // namespace rs
