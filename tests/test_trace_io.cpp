// Trace files (.rstrace): round trip, save/load through the file system, and every kind of bad
// input a user can hand `reducescope show` (empty, foreign, truncated, corrupt, too old or new).
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "replay.hpp"
#include "session.hpp"
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

// A writer uses the lowest version that holds the trace: 3 for the source probe's traces, 4 (the current
// version) for one with version 4 fields (tests/test_binary_trace.cpp checks binary traces).
TEST(TraceIo, LowestVersionThatHoldsTheTraceWritten) {
  auto version_of = [](const Trace& t) {
    const std::string bytes = serialize_trace(t);
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
    return v;
  };
  EXPECT_EQ(version_of(small_trace()), 3u);
  Trace noted = small_trace();
  noted.meta.notes = "a note";
  EXPECT_EQ(version_of(noted), 4u);
  const Trace back = parse_trace(serialize_trace(noted), kName);
  EXPECT_EQ(back.meta.notes, "a note");
  EXPECT_EQ(back.meta.tracer, Tracer::SourceProbe);
  EXPECT_EQ(back.meta.launch, 0u);
  // Version 5 (issue 38): a program's later launch traced says which; the first launch stays version 4 or 3.
  Trace later = noted;
  later.meta.launch = 3;
  EXPECT_EQ(version_of(later), 5u);
  EXPECT_EQ(parse_trace(serialize_trace(later), kName).meta.launch, 3u);
  later.meta.launch = 1;
  EXPECT_EQ(version_of(later), 4u);
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
// naming the file; v1-valid.rstrace (an old, checksum-free version) and v3-valid.rstrace (every
// version 3 kind) are the good ones. The v2-/v3- files are written by V3CorpusMatchesItsGenerator.
TEST(TraceIo, EveryBadFileInTheCorpusIsRefused) {
  int bad = 0, good = 0;
  for (const auto& e : std::filesystem::directory_iterator(RS_CORPUS_DIR)) {
    const std::string path = e.path().string();
    if (e.path().filename() == "v1-valid.rstrace" || e.path().filename() == "v3-valid.rstrace") {
      EXPECT_NO_THROW(Replay(load_trace(path))) << path;
      ++good;
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
  EXPECT_EQ(good, 2);
  EXPECT_GE(bad, 17);
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
  for (uint8_t kind : {uint8_t{10}, uint8_t{17}, uint8_t{255}}) {
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
  for (uint32_t s : {(1u << 20) + 4, 0xffffffffu}) {
    Trace t = small_trace();
    t.meta.smem_bytes = s;
    EXPECT_TRUE(contains(format_error(serialize_trace(t)), "shared memory size")) << s;
  }
  // 0 bytes: a kernel without shared memory (the global-atomic histograms) is fine, a shared access
  // in it is not.
  Trace t = small_trace();
  t.meta.smem_bytes = 0;
  EXPECT_TRUE(contains(format_error(serialize_trace(t)), "outside the block's 0 bytes of shared memory"));
  std::vector<TraceRecord> kept;
  for (const TraceRecord& r : t.records) {
    if (r.kind != static_cast<uint8_t>(AccessKind::Load) && r.kind != static_cast<uint8_t>(AccessKind::Store)) kept.push_back(r);
  }
  t.records = kept;
  EXPECT_EQ(try_parse(serialize_trace(t)), Outcome::Parsed);
}

TEST(TraceIo, KindNames) {
  EXPECT_STREQ(to_string(AccessKind::Load), "load");
  EXPECT_STREQ(to_string(AccessKind::Store), "store");
  EXPECT_STREQ(to_string(AccessKind::BlockBarrier), "__syncthreads");
  EXPECT_STREQ(to_string(AccessKind::WarpBarrier), "__syncwarp");
  EXPECT_STREQ(to_string(AccessKind::GlobalLoad), "global load");
  EXPECT_STREQ(to_string(AccessKind::GlobalStore), "global store");
  EXPECT_STREQ(to_string(AccessKind::Shuffle), "shuffle");
  EXPECT_STREQ(to_string(AccessKind::WarpReduce), "warp reduce");
  EXPECT_STREQ(to_string(AccessKind::SharedAtomic), "shared atomic");
  EXPECT_STREQ(to_string(AccessKind::GlobalAtomic), "global atomic");
  EXPECT_STREQ(to_string(DType::Int32), "int32");
  EXPECT_STREQ(to_string(DType::Float32), "float32");
  EXPECT_EQ(format_value(static_cast<uint32_t>(-12), DType::Int32), "-12");
  EXPECT_EQ(format_value(float_to_bits(0.5f), DType::Float32), "0.5");
}


// ---- format version 3 ------------------------------------------------------------------------

TraceRecord rec3(uint32_t epoch, uint32_t seq, uint16_t thread, AccessKind kind, uint32_t addr, uint32_t value,
                 uint16_t line, uint8_t op, uint8_t lane_arg, uint8_t space, uint32_t aux,
                 uint32_t active_mask = 0xffffffffu) {
  TraceRecord r = rec(epoch, seq, thread, kind, addr, static_cast<int32_t>(value), line, active_mask);
  r.op = op;
  r.lane_arg = lane_arg;
  r.space = space;
  r.aux = aux;
  return r;
}

constexpr uint8_t kIn = static_cast<uint8_t>(GlobalBuffer::Input);
constexpr uint8_t kOut = static_cast<uint8_t>(GlobalBuffer::Output);

// small_trace() plus one record of each version 3 kind, every new field distinct and nonzero.
Trace small_v3_trace() {
  Trace t = small_trace();
  t.meta.track = "lecture";
  t.meta.dtype = DType::Float32;
  t.records.push_back(rec3(1, 2, 5, AccessKind::GlobalLoad, 1000, float_to_bits(1.5f), 6, 0, 0, kIn, 0));
  t.records.push_back(rec3(1, 3, 6, AccessKind::GlobalStore, 4095, 0x12345678u, 7, 0, 0, kOut, 0));
  t.records.push_back(rec3(1, 4, 7, AccessKind::Shuffle, 0x0badf00du, 0x0ddba11u, 8,
                           static_cast<uint8_t>(ShuffleKind::Down) | kOpFloatBit, 21, 16, 0xffff0000u));
  t.records.push_back(rec3(2, 0, 8, AccessKind::WarpReduce, 77, 99, 9, static_cast<uint8_t>(WarpReduceOp::Max), 0,
                           32, 0x0000ffffu));
  t.records.push_back(rec3(2, 1, 9, AccessKind::SharedAtomic, 248, float_to_bits(2.f), 10,
                           static_cast<uint8_t>(AtomicOp::Add) | kOpFloatBit, 0, 0, float_to_bits(1.f)));
  t.records.push_back(rec3(2, 2, 10, AccessKind::GlobalAtomic, 7, 3, 11, static_cast<uint8_t>(AtomicOp::Cas), 0,
                           kOut, 0xdeadbeefu));
  return t;
}

// expect_same() plus what version 3 added.
void expect_same_v3(const Trace& a, const Trace& b) {
  expect_same(a, b);
  EXPECT_EQ(a.meta.track, b.meta.track);
  EXPECT_EQ(a.meta.dtype, b.meta.dtype);
  ASSERT_EQ(a.records.size(), b.records.size());
  for (size_t i = 0; i < a.records.size(); ++i) {
    EXPECT_EQ(a.records[i].op, b.records[i].op) << i;
    EXPECT_EQ(a.records[i].lane_arg, b.records[i].lane_arg) << i;
    EXPECT_EQ(a.records[i].space, b.records[i].space) << i;
    EXPECT_EQ(a.records[i].aux, b.records[i].aux) << i;
  }
}

// A test-only writer of the older layouts (docs/trace-format.md): version 1 (no checksum) or 2;
// no track or dtype in the metadata, and 7 reserved bytes (filled with `reserved`) in each record
// where version 3 has op, lane_arg, space and aux.
std::string serialize_old(const Trace& t, uint32_t version, uint8_t reserved = 0) {
  auto str = [](std::string& b, const std::string& v) {
    append_u32(b, static_cast<uint32_t>(v.size()));
    b += v;
  };
  std::string b("RSTRACE\0", 8);
  append_u32(b, version);
  append_u32(b, 0);
  std::string meta;
  const TraceMeta& m = t.meta;
  str(meta, m.kernel);
  append_u32(meta, m.block_size);
  append_u64(meta, m.n);
  append_u32(meta, m.traced_block);
  append_u32(meta, m.grid_size);
  append_u32(meta, m.smem_bytes);
  for (const std::string* v : {&m.pattern, &m.gpu, &m.compute_capability, &m.cuda_version, &m.date, &m.tool_version}) {
    str(meta, *v);
  }
  append_u32(meta, static_cast<uint32_t>(m.result));
  append_section(b, 1, meta);
  append_section(b, 2, t.source);
  std::string recs;
  append_u64(recs, t.records.size());
  for (const TraceRecord& r : t.records) {
    for (uint32_t v : {r.epoch, r.seq, r.addr, static_cast<uint32_t>(r.value), r.active_mask}) append_u32(recs, v);
    recs.push_back(static_cast<char>(r.thread & 0xff));
    recs.push_back(static_cast<char>(r.thread >> 8));
    recs.push_back(static_cast<char>(r.line & 0xff));
    recs.push_back(static_cast<char>(r.line >> 8));
    recs.push_back(static_cast<char>(r.kind));
    recs.append(7, static_cast<char>(reserved));
  }
  append_section(b, 3, recs);
  if (version >= 2) {
    std::string crc;
    append_u32(crc, static_cast<uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(b.data()), static_cast<uInt>(b.size()))));
    append_section(b, 4, crc);
  }
  return b;
}

// Recomputes the CRC of a file that ends with its checksum section, after a patch.
void reseal(std::string& bytes) {
  put_u32(bytes, bytes.size() - 4,
          static_cast<uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()),
                                      static_cast<uInt>(bytes.size() - kChecksumSection))));
}

TEST(TraceIoV3, CurrentVersionIs5) { EXPECT_EQ(kTraceFormatVersion, 5u); }

TEST(TraceIoV3, RoundTrip) {
  const Trace t = small_v3_trace();
  const std::string bytes = serialize_trace(t);
  Trace back = parse_trace(bytes, kName);
  expect_same_v3(t, back);
  EXPECT_EQ(serialize_trace(back), bytes);
  // Records are still 32 bytes each.
  Trace more = t;
  more.records.push_back(t.records.back());
  EXPECT_EQ(serialize_trace(more).size(), bytes.size() + 32);
}

TEST(TraceIoV3, RecordFieldOffsets) {
  // The last record of a version 3 file ends just before the 20-byte checksum section.
  const Trace t = small_v3_trace();
  const std::string bytes = serialize_trace(t);
  const size_t at = bytes.size() - kChecksumSection - 32;
  auto u8 = [&](size_t i) { return static_cast<uint8_t>(bytes[at + i]); };
  EXPECT_EQ(u8(24), static_cast<uint8_t>(AccessKind::GlobalAtomic));  // kind
  EXPECT_EQ(u8(25), static_cast<uint8_t>(AtomicOp::Cas));              // op
  EXPECT_EQ(u8(26), 0);                                                 // lane_arg
  EXPECT_EQ(u8(27), kOut);                                              // space
  EXPECT_EQ(u8(28), 0xef);                                              // aux, little-endian
  EXPECT_EQ(u8(29), 0xbe);
  EXPECT_EQ(u8(30), 0xad);
  EXPECT_EQ(u8(31), 0xde);
  const size_t shfl = at - 3 * 32;  // the shuffle record
  EXPECT_EQ(static_cast<uint8_t>(bytes[shfl + 24]), static_cast<uint8_t>(AccessKind::Shuffle));
  EXPECT_EQ(static_cast<uint8_t>(bytes[shfl + 25]), 0x82);  // __shfl_down_sync of floats
  EXPECT_EQ(static_cast<uint8_t>(bytes[shfl + 26]), 21);
  EXPECT_EQ(static_cast<uint8_t>(bytes[shfl + 27]), 16);
}

TEST(TraceIoV3, MetadataEndsWithTrackAndDtype) {
  const Trace t = small_v3_trace();
  const std::string bytes = serialize_trace(t);
  // The metadata section is the first: its u64 size at 24, its payload at 32.
  uint64_t size = 0;
  for (int i = 0; i < 8; ++i) size |= uint64_t(static_cast<uint8_t>(bytes[24 + i])) << (8 * i);
  const std::string meta = bytes.substr(32, size);
  EXPECT_EQ(static_cast<uint8_t>(meta.back()), static_cast<uint8_t>(DType::Float32));
  EXPECT_EQ(meta.substr(meta.size() - 1 - 7 - 4), std::string("\x07\0\0\0lecture\x01", 12));
  // Without the two fields it is exactly the version 2 metadata.
  const std::string v2 = serialize_old(t, 2);
  EXPECT_EQ(v2.substr(32, size - 12), meta.substr(0, size - 12));
}

TEST(TraceIoV3, Version2WriterMatchesTheShippedFiles) {
  // serialize_old() is the version 2 layout: it rewrites a shipped file byte for byte.
  const std::string path = std::string(RS_FIXTURE_DIR) + "/reduce2_bs64.rstrace";
  std::ifstream f(path, std::ios::binary);
  ASSERT_TRUE(f) << path;
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string bytes = ss.str();
  ASSERT_EQ(bytes[8], 2) << "the shipped traces are format version 2";
  EXPECT_EQ(serialize_old(load_trace(path), 2), bytes);
}

TEST(TraceIoV3, OldVersionsReadWithDefaults) {
  const Trace t = small_trace();
  for (uint32_t version : {1u, 2u}) {
    // Reserved bytes are ignored, whatever they hold.
    for (uint8_t fill : {uint8_t{0}, uint8_t{0xab}}) {
      Trace back;
      std::string msg;
      ASSERT_EQ(try_parse(serialize_old(t, version, fill), &back, &msg), Outcome::Parsed) << msg;
      expect_same(t, back);
      EXPECT_EQ(back.meta.track, "harris");
      EXPECT_EQ(back.meta.dtype, DType::Int32);
      for (const TraceRecord& r : back.records) {
        EXPECT_EQ(r.op, 0);
        EXPECT_EQ(r.lane_arg, 0);
        EXPECT_EQ(r.space, 0);
        EXPECT_EQ(r.aux, 0u);
      }
    }
  }
}

TEST(TraceIoV3, OldVersionsRefuseNewKinds) {
  for (uint32_t version : {1u, 2u}) {
    Trace t = small_trace();
    t.records[1].kind = static_cast<uint8_t>(AccessKind::Shuffle);
    std::string msg = format_error(serialize_old(t, version));
    EXPECT_TRUE(contains(msg, "record 1: kind 6 (shuffle) needs format version 3, but the file is version " +
                                  std::to_string(version)))
        << msg;
    t.records[1].kind = static_cast<uint8_t>(AccessKind::GlobalLoad);
    EXPECT_TRUE(contains(format_error(serialize_old(t, version)), "kind 4 (global load)"));
    t.records[1].kind = 10;
    EXPECT_TRUE(contains(format_error(serialize_old(t, version)), "unknown kind 10"));
  }
}

TEST(TraceIoV3, FixturesReadTheSameAfterAVersion3RoundTrip) {
  std::vector<std::string> paths = {std::string(RS_CORPUS_DIR) + "/v1-valid.rstrace"};
  for (const auto& e : std::filesystem::directory_iterator(RS_FIXTURE_DIR)) {
    // The earlier releases' traces (version 2, harris): reduce0..reduce6_bs*.rstrace.
    const std::string f = e.path().filename().string();
    if (e.path().extension() == ".rstrace" && f.size() > 7 && f.rfind("reduce", 0) == 0 && f[6] >= '0' && f[6] <= '9') {
      paths.push_back(e.path().string());
    }
  }
  ASSERT_GE(paths.size(), 15u);
  for (const std::string& path : paths) {
    SCOPED_TRACE(path);
    const Trace old = load_trace(path);
    EXPECT_EQ(old.meta.track, "harris");
    EXPECT_EQ(old.meta.dtype, DType::Int32);
    const Trace v3 = parse_trace(serialize_trace(old), kName);
    expect_same_v3(old, v3);
    const Replay a(old), b(v3);
    EXPECT_TRUE(a.shuffles().empty());
    EXPECT_TRUE(a.atomics().empty());
    EXPECT_TRUE(a.global_requests().empty());
    EXPECT_TRUE(a.atomic_targets().empty());
    EXPECT_EQ(a.result_lanes(), std::vector<int>(a.num_warps(), -1));
    ASSERT_EQ(a.num_steps(), b.num_steps());
    EXPECT_EQ(a.accesses().size(), b.accesses().size());
    EXPECT_EQ(a.load_conflicts(), b.load_conflicts());
    EXPECT_EQ(a.store_conflicts(), b.store_conflicts());
    for (size_t s = 0; s < a.num_steps(); ++s) {
      EXPECT_NE(a.step(s).ended_by, StepEnd::Shuffle);
      EXPECT_EQ(a.step(s).smem, b.step(s).smem) << s;
      EXPECT_EQ(describe_step(a, s, old.source), describe_step(b, s, v3.source)) << s;
      EXPECT_FALSE(contains(describe_step(a, s, old.source), "shuffles/warp reduces")) << s;
    }
  }
}

TEST(TraceIoV3, SessionWithVersion3TracesRoundTrips) {
  Session s;
  s.meta.gpu = "NVIDIA H100 80GB HBM3";
  s.meta.pattern = "iota";
  s.meta.n = 1 << 20;
  s.traces = {small_v3_trace(), small_trace()};
  s.traces[1].meta.kernel = "reduce3";
  const Session back = parse_session(serialize_session(s), "unit_test.rssession");
  ASSERT_EQ(back.traces.size(), 2u);
  expect_same_v3(s.traces[0], back.traces[0]);
  expect_same_v3(s.traces[1], back.traces[1]);
  EXPECT_EQ(back.traces[0].meta.track, "lecture");
  EXPECT_EQ(back.traces[1].meta.track, "harris");
  // A session's trace is validated as a trace: a version 3 record problem is refused.
  s.traces[0].records.back().space = 4;
  try {
    parse_session(serialize_session(s), "unit_test.rssession");
    ADD_FAILURE() << "accepted";
  } catch (const SessionFormatError& e) {
    EXPECT_TRUE(contains(e.what(), "unit_test.rssession")) << e.what();
    EXPECT_TRUE(contains(e.what(), "unknown global buffer 4")) << e.what();
  }
}

// One bad field of one version 3 record: the message names the file, the record and the problem.
void expect_record_refused(const std::string& what, void (*patch)(Trace&), const std::string& needle) {
  SCOPED_TRACE(what);
  Trace t = small_v3_trace();
  patch(t);
  std::string msg = format_error(serialize_trace(t));
  EXPECT_TRUE(contains(msg, needle)) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  EXPECT_THROW(Replay{t}, ReplayError);
}

// Record indices in small_v3_trace(): 6 global load, 7 global store, 8 shuffle, 9 warp reduce,
// 10 shared atomic, 11 global atomic.
TEST(TraceIoV3, BadRecordsAreRefused) {
  expect_record_refused("buffer", [](Trace& t) { t.records[6].space = 4; },
                        "record 6: global load: unknown global buffer 4");
  // Scratch (2): the input's padded copy holds at most 8 elements per thread of the grid.
  expect_record_refused("scratch index", [](Trace& t) { t.records[6].space = 2, t.records[6].addr = 1u << 30; },
                        "outside the scratch buffer");
  expect_record_refused("atomic buffer", [](Trace& t) { t.records[11].space = 0xff; }, "unknown global buffer 255");
  expect_record_refused("input index", [](Trace& t) { t.meta.n = 1000; },  // record 6 reads input[1000]
                        "record 6: global load index 1000 is outside the input buffer of 1000 elements");
  // Output: 4 words per block of the grid (4096 blocks here), or 256 (a histogram's bins).
  expect_record_refused("output index", [](Trace& t) { t.records[7].addr = 16384; },
                        "record 7: global store index 16384 is outside the output buffer of 16384 elements");
  expect_record_refused("atomic index", [](Trace& t) { t.records[11].addr = 20000; }, "record 11: global atomic index 20000");
  expect_record_refused("lane", [](Trace& t) { t.records[8].lane_arg = 32; },
                        "record 8: shuffle source lane 32 is not in 0..31");
  expect_record_refused("width 0", [](Trace& t) { t.records[8].space = 0; }, "shuffle width 0 is not a power of two");
  expect_record_refused("width 24", [](Trace& t) { t.records[8].space = 24; }, "shuffle width 24");
  expect_record_refused("width 64", [](Trace& t) { t.records[8].space = 64; }, "shuffle width 64");
  expect_record_refused("shuffle op", [](Trace& t) { t.records[8].op = 4; }, "record 8: unknown shuffle variant 4");
  expect_record_refused("reduce op", [](Trace& t) { t.records[9].op = 3; }, "record 9: unknown warp-reduce operator 3");
  expect_record_refused("float reduce", [](Trace& t) { t.records[9].op = kOpFloatBit; }, "warp reduce of float values");
  expect_record_refused("atomic op", [](Trace& t) { t.records[11].op = 6; }, "record 11: unknown atomic operation 6");
  expect_record_refused("shared atomic op", [](Trace& t) { t.records[10].op = 0x3f | kOpFloatBit; },
                        "unknown atomic operation 63");
  expect_record_refused("shared atomic address", [](Trace& t) { t.records[10].addr = 256; },
                        "record 10: shared atomic address 256 is outside the block's 256 bytes of shared memory");
  expect_record_refused("unaligned shared atomic", [](Trace& t) { t.records[10].addr = 2; }, "not 4-byte aligned");
}

TEST(TraceIoV3, GoodEdgesAreAccepted) {
  Trace t = small_v3_trace();
  t.records[6].addr = static_cast<uint32_t>(t.meta.n - 1);  // last input element
  t.records[8].lane_arg = 31;
  t.records[8].space = 1;
  t.records[11].op = static_cast<uint8_t>(AtomicOp::Cas) | kOpFloatBit;
  Trace back;
  std::string msg;
  EXPECT_EQ(try_parse(serialize_trace(t), &back, &msg), Outcome::Parsed) << msg;
  // A launch of one block, or a grid size of 0 (unknown): the output buffer may hold up to 256 elements
  // (4 words per block for farthest_point, or a histogram's bins).
  t.meta.grid_size = 0;
  t.records[7].addr = 0;
  t.records[11].addr = 255;
  EXPECT_EQ(try_parse(serialize_trace(t), &back, &msg), Outcome::Parsed) << msg;
  t.records[11].addr = 256;
  EXPECT_TRUE(contains(format_error(serialize_trace(t)), "outside the output buffer of 256 elements"));
  // The input read as bytes (the histograms): indices up to N.
  t.records[11].addr = 0;
  t.records[7].space = static_cast<uint8_t>(GlobalBuffer::Bytes);
  EXPECT_EQ(try_parse(serialize_trace(t), &back, &msg), Outcome::Parsed) << msg;
}

TEST(TraceIoV3, UnknownDtypeIsRefused) {
  Trace t = small_v3_trace();
  t.meta.dtype = static_cast<DType>(2);
  std::string msg = format_error(serialize_trace(t));
  EXPECT_TRUE(contains(msg, "unknown element type: dtype 2")) << msg;
  t.meta.dtype = static_cast<DType>(255);
  msg = format_error(serialize_trace(t));
  EXPECT_TRUE(contains(msg, "dtype 255")) << msg;
}

TEST(TraceIoV3, Version2MetadataInAVersion3FileIsTruncated) {
  // A version 2 file relabelled as version 3: its metadata lacks track and dtype.
  std::string bytes = serialize_old(small_trace(), 2);
  put_u32(bytes, 8, 3);
  reseal(bytes);
  std::string msg = format_error(bytes);
  EXPECT_TRUE(contains(msg, "truncated metadata section")) << msg;
}

TEST(TraceIoV3, TruncatedAndFlippedVersion3Files) {
  const std::string bytes = serialize_trace(small_v3_trace());
  ASSERT_LT(bytes.size(), 1000u);
  for (size_t len = 0; len < bytes.size(); ++len) {
    std::string msg;
    ASSERT_EQ(try_parse(bytes.substr(0, len), nullptr, &msg), Outcome::FormatError) << len;
    ASSERT_TRUE(contains(msg, kName)) << msg;
  }
  for (size_t at = 0; at < bytes.size(); ++at) {
    std::string b = bytes;
    b[at] = static_cast<char>(b[at] ^ 0x20);
    ASSERT_EQ(try_parse(b), Outcome::FormatError) << at;
  }
}

// ---- tests/corpus: version 3 files ---------------------------------------------------------------

// The fuzzers' version 3 seeds. A valid trace of one warp with every version 3 kind:
//   epoch 0: lane l loads input[l] = l + 1, then __shfl_xor_sync(.., 16) (ends the epoch);
//   epoch 1: lane l does atomicAdd_block(&s[0], 1) (landing in lane order), then __syncthreads;
//   epoch 2: __reduce_add_sync of l; epoch 3: lane 0 does atomicAdd(&out[0], 496) and stores
//   out[0]. Bad files are this one with one field broken.
Trace corpus_trace() {
  Trace t;
  t.meta.kernel = "corpus_v3";
  t.meta.track = "modern";
  t.meta.dtype = DType::Int32;
  t.meta.block_size = 32;
  t.meta.n = 32;
  t.meta.grid_size = 1;
  t.meta.smem_bytes = 4;
  t.meta.pattern = "iota";
  t.meta.gpu = "hand-made";
  t.meta.date = "2025-01-01T00:00:00Z";
  t.meta.tool_version = "test";
  t.meta.result = 528;
  t.source = "int v = in[threadIdx.x];\nv += __shfl_xor_sync(~0u, v, 16);\n";
  for (uint16_t l = 0; l < 32; ++l) {
    t.records.push_back(rec3(0, 0, l, AccessKind::GlobalLoad, l, l + 1u, 1, 0, 0, kIn, 0));
    t.records.push_back(rec3(0, 1, l, AccessKind::Shuffle, l + 1u, (l ^ 16u) + 1, 2,
                             static_cast<uint8_t>(ShuffleKind::Xor), static_cast<uint8_t>(l ^ 16), 32, 0xffffffffu));
    t.records.push_back(rec3(1, 0, l, AccessKind::SharedAtomic, 0, 1, 3, static_cast<uint8_t>(AtomicOp::Add), 0, 0, l));
    t.records.push_back(rec(1, 1, l, AccessKind::BlockBarrier, 0, 0, 4));
    t.records.push_back(rec3(2, 0, l, AccessKind::WarpReduce, l, 496, 5, static_cast<uint8_t>(WarpReduceOp::Add), 0,
                             32, 0xffffffffu));
  }
  t.records.push_back(rec3(3, 0, 0, AccessKind::GlobalAtomic, 0, 496, 6, static_cast<uint8_t>(AtomicOp::Add), 0,
                           kOut, 0, 1u));
  t.records.push_back(rec3(3, 1, 0, AccessKind::GlobalStore, 0, 496, 7, 0, 0, kOut, 0, 1u));
  return t;
}

std::vector<std::pair<std::string, std::string>> v3_corpus() {
  const Trace good = corpus_trace();
  std::vector<std::pair<std::string, std::string>> files;
  files.emplace_back("v3-valid.rstrace", serialize_trace(good));
  auto broken = [&](const char* name, void (*patch)(Trace&)) {
    Trace t = good;
    patch(t);
    files.emplace_back(name, serialize_trace(t));
  };
  broken("v3-shuffle-bad-lane.rstrace", [](Trace& t) { t.records[1 + 5 * 7].lane_arg = 40; });
  broken("v3-shuffle-bad-width.rstrace", [](Trace& t) { t.records[1 + 5 * 7].space = 24; });
  broken("v3-global-index-out-of-range.rstrace", [](Trace& t) { t.records[5 * 9].addr = 32; });
  broken("v3-bad-buffer.rstrace", [](Trace& t) { t.records.back().space = 4; });
  broken("v3-bad-atomic-op.rstrace", [](Trace& t) { t.records[2 + 5 * 4].op = 9; });
  broken("v3-bad-dtype.rstrace", [](Trace& t) { t.meta.dtype = static_cast<DType>(2); });
  const std::string whole = serialize_trace(good);
  files.emplace_back("v3-truncated.rstrace", whole.substr(0, whole.size() * 2 / 3));
  files.emplace_back("v2-kind-shuffle.rstrace", serialize_old(good, 2));
  return files;
}

// The v2-/v3- corpus files are what v3_corpus() writes. RS_WRITE_CORPUS=1 rewrites them.
TEST(TraceIoV3, V3CorpusMatchesItsGenerator) {
  const bool write = std::getenv("RS_WRITE_CORPUS") != nullptr;
  for (const auto& [name, bytes] : v3_corpus()) {
    const std::string path = std::string(RS_CORPUS_DIR) + "/" + name;
    if (write) {
      std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    std::ifstream f(path, std::ios::binary);
    ASSERT_TRUE(f) << path << " is missing: run the unit tests with RS_WRITE_CORPUS=1";
    std::stringstream ss;
    ss << f.rdbuf();
    EXPECT_EQ(ss.str(), bytes) << path << " differs from its generator";
  }
}

TEST(TraceIoV3, CorpusMessages) {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"v3-shuffle-bad-lane.rstrace", "record 36: shuffle source lane 40 is not in 0..31"},
      {"v3-shuffle-bad-width.rstrace", "record 36: shuffle width 24 is not a power of two in 1..32"},
      {"v3-global-index-out-of-range.rstrace", "record 45: global load index 32 is outside the input buffer of 32 elements"},
      {"v3-bad-buffer.rstrace", "record 161: global store: unknown global buffer 4"},
      {"v3-bad-atomic-op.rstrace", "record 22: unknown atomic operation 9"},
      {"v3-bad-dtype.rstrace", "unknown element type: dtype 2"},
      {"v3-truncated.rstrace", "truncated"},
      {"v2-kind-shuffle.rstrace", "record 0: kind 4 (global load) needs format version 3, but the file is version 2"},
  };
  for (const auto& [name, needle] : expected) {
    const std::string path = std::string(RS_CORPUS_DIR) + "/" + name;
    const std::string msg = test::expect_error_naming<TraceFormatError>([&] { load_trace(path); }, path);
    EXPECT_TRUE(contains(msg, needle)) << msg;
  }
  // The valid one replays: 4 steps, each kind once per warp.
  Replay r(load_trace(std::string(RS_CORPUS_DIR) + "/v3-valid.rstrace"));
  EXPECT_EQ(r.num_steps(), 4u);
  EXPECT_EQ(r.step(0).ended_by, StepEnd::Shuffle);
  EXPECT_EQ(r.step(1).ended_by, StepEnd::BlockBarrier);
  EXPECT_EQ(r.step(2).ended_by, StepEnd::WarpReduce);
  EXPECT_EQ(r.step(3).ended_by, StepEnd::KernelEnd);
  EXPECT_EQ(r.shuffle_instruction_count(), 1);
  EXPECT_TRUE(r.shuffles()[0].consistent);
  EXPECT_TRUE(r.shuffles()[1].consistent);
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::SharedAtomic), 1);
  EXPECT_EQ(r.atomic_instruction_count(AccessKind::GlobalAtomic), 1);
  EXPECT_EQ(r.global_request_count(AccessKind::GlobalLoad), 1);
  EXPECT_EQ(r.global_request_count(AccessKind::GlobalStore), 1);
  EXPECT_EQ(r.atomic_targets()[0].chained, 31);
  EXPECT_EQ(r.step(1).smem[0], 32);
  EXPECT_EQ(r.result_lanes(), std::vector<int>{0});
}

}  // namespace
}  // namespace rs
