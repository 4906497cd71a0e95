// Session files (.rssession): round trip, save/load through the file system, the session recorded
// on an H100 (assets/sessions/h100.rssession), every kind of bad input (foreign, truncated, bit
// flips, hand-built files with a valid checksum but bad contents), and the command line of
// `record`, `export` and `show` of a session.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli.hpp"
#include "exact_sum.hpp"
#include "gpu_reduce.hpp"
#include "input.hpp"
#include "kernel_info.hpp"
#include "histogram.hpp"
#include "stored.hpp"  // explain::two_runs_sentence
#include "two_runs.hpp"
#include "replay.hpp"
#include "pitfall_words.hpp"
#include "session.hpp"
#include "trace_io.hpp"
#include "test_util.hpp"

namespace rs {
namespace {

constexpr const char* kName = "unit_test_session.rssession";
const std::string kMagicBytes("RSSESSN\0", 8);

// Section tags of a session file (tracing/session.cpp; docs/trace-format.md, "Session files").
constexpr uint32_t kTagMeta = 1, kTagTimings = 2, kTagTrace = 3, kTagChecksum = 4, kTagLaunches = 6, kTagSweep = 7,
                   kTagRaces = 8;

std::string fixture(const std::string& kernel, unsigned bs) {
  return std::string(RS_FIXTURE_DIR) + "/" + kernel + "_bs" + std::to_string(bs) + ".rstrace";
}

std::string read_bytes(const std::string& path) { return rs::test::read_file(path); }

using test::append_u32;
using test::append_u64;
using test::contains;
using test::Outcome;
using test::put_u32;
using test::put_u64;

// Exact comparison of doubles: the same bits (so -0.0 differs from 0.0, and NaN equals itself).
uint64_t bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

// ---- sessions in memory ------------------------------------------------------------------------

// A session with every meta field set to a distinct value, three timings whose fields are all
// distinct (one of them wrong), and two traces recorded on the H100 (at a block size no timing
// has). Built once: compressing its traces is the slow part of most tests here.
Session make_small_session() {
  Session s;
  SessionMeta& m = s.meta;
  m.gpu = "NVIDIA Test GPU 80GB";
  m.compute_capability = "9.0";
  m.cuda_version = "13.0";
  m.date = "2025-06-07T08:09:10Z";
  m.tool_version = "0.1.0-test";
  m.pattern = "iota";
  m.method = "CUDA events; 3 warm-ups, 30 samples";
  m.n = (uint64_t{1} << 33) + 7;  // needs all 64 bits of the field
  m.sm_count = 132;
  m.l2_bytes = (uint64_t{1} << 35) + 11;  // ditto
  m.samples = 31;
  m.warmups = 4;
  m.peak_gbps = 3352.32;
  m.copy_gbps = 2911.0000000000005;  // one ulp above 2911: a lossy write shows
  m.cub_ms = 0.0234375;
  m.cub_gbps = 2863.3111;
  s.timings = {
      {"reduce0", 128, 1.5, 1.25, 2.75, 30, 44.7, 1.33, true},
      {"reduce3", 256, 0.1, 0.09, 0.3, 31, 671.1, 20.02, false},
      {"reduce6", 1024, 0.0265, 0.026, 0.0288, 32, 2532.5, 75.54, true},
  };
  s.traces = {load_trace(fixture("reduce0", 64)), load_trace(fixture("reduce6", 64))};
  return s;
}
Session small_session() {
  static const Session s = make_small_session();
  return s;
}
// small_session() without its traces, for tests of the timing table.
Session timings_only() {
  Session s = small_session();
  s.traces.clear();
  return s;
}
const std::string& small_bytes() {
  static const std::string b = serialize_session(small_session());
  return b;
}

using test::expect_same_trace;

void expect_same(const Session& a, const Session& b) {
  EXPECT_EQ(a.meta.gpu, b.meta.gpu);
  EXPECT_EQ(a.meta.compute_capability, b.meta.compute_capability);
  EXPECT_EQ(a.meta.cuda_version, b.meta.cuda_version);
  EXPECT_EQ(a.meta.date, b.meta.date);
  EXPECT_EQ(a.meta.tool_version, b.meta.tool_version);
  EXPECT_EQ(a.meta.pattern, b.meta.pattern);
  EXPECT_EQ(a.meta.method, b.meta.method);
  EXPECT_EQ(a.meta.n, b.meta.n);
  EXPECT_EQ(a.meta.sm_count, b.meta.sm_count);
  EXPECT_EQ(a.meta.l2_bytes, b.meta.l2_bytes);
  EXPECT_EQ(a.meta.samples, b.meta.samples);
  EXPECT_EQ(a.meta.warmups, b.meta.warmups);
  EXPECT_EQ(bits(a.meta.peak_gbps), bits(b.meta.peak_gbps)) << a.meta.peak_gbps << " vs " << b.meta.peak_gbps;
  EXPECT_EQ(bits(a.meta.copy_gbps), bits(b.meta.copy_gbps)) << a.meta.copy_gbps << " vs " << b.meta.copy_gbps;
  EXPECT_EQ(bits(a.meta.cub_ms), bits(b.meta.cub_ms)) << a.meta.cub_ms << " vs " << b.meta.cub_ms;
  EXPECT_EQ(bits(a.meta.cub_gbps), bits(b.meta.cub_gbps)) << a.meta.cub_gbps << " vs " << b.meta.cub_gbps;
  ASSERT_EQ(a.timings.size(), b.timings.size());
  for (size_t i = 0; i < a.timings.size(); ++i) {
    const SessionTiming& x = a.timings[i];
    const SessionTiming& y = b.timings[i];
    EXPECT_EQ(x.kernel, y.kernel) << i;
    EXPECT_EQ(x.block_size, y.block_size) << i;
    EXPECT_EQ(bits(x.median_ms), bits(y.median_ms)) << i;
    EXPECT_EQ(bits(x.min_ms), bits(y.min_ms)) << i;
    EXPECT_EQ(bits(x.max_ms), bits(y.max_ms)) << i;
    EXPECT_EQ(x.samples, y.samples) << i;
    EXPECT_EQ(bits(x.gbps), bits(y.gbps)) << i;
    EXPECT_EQ(bits(x.pct_peak), bits(y.pct_peak)) << i;
    EXPECT_EQ(x.correct, y.correct) << i;
    EXPECT_EQ(x.launches, y.launches) << i;
  }
  ASSERT_EQ(a.races.size(), b.races.size());
  for (size_t i = 0; i < a.races.size(); ++i) {
    const SessionRace& x = a.races[i];
    const SessionRace& y = b.races[i];
    EXPECT_EQ(x.kernel, y.kernel) << i;
    EXPECT_EQ(x.block_size, y.block_size) << i;
    EXPECT_EQ(x.kind, y.kind) << i;
    EXPECT_EQ(x.file, y.file) << i;
    EXPECT_EQ(x.first_access, y.first_access) << i;
    EXPECT_EQ(x.first_line, y.first_line) << i;
    EXPECT_EQ(x.second_access, y.second_access) << i;
    EXPECT_EQ(x.second_line, y.second_line) << i;
    EXPECT_EQ(x.hazards, y.hazards) << i;
    EXPECT_EQ(x.words, y.words) << i;
  }
  EXPECT_EQ(a.sweep.gpu, b.sweep.gpu);
  EXPECT_EQ(a.sweep.method, b.sweep.method);
  EXPECT_EQ(bits(a.sweep.peak_gbps), bits(b.sweep.peak_gbps));
  ASSERT_EQ(a.sweep.points.size(), b.sweep.points.size());
  for (size_t i = 0; i < a.sweep.points.size(); ++i) {
    const SweepPoint& x = a.sweep.points[i];
    const SweepPoint& y = b.sweep.points[i];
    EXPECT_EQ(x.series, y.series) << i;
    EXPECT_EQ(x.n, y.n) << i;
    EXPECT_EQ(bits(x.gbps), bits(y.gbps)) << i;
    EXPECT_EQ(x.kernel, y.kernel) << i;
    EXPECT_EQ(x.block_size, y.block_size) << i;
    EXPECT_EQ(bits(x.median_ms), bits(y.median_ms)) << i;
    EXPECT_EQ(x.launches, y.launches) << i;
  }
  ASSERT_EQ(a.traces.size(), b.traces.size());
  for (size_t i = 0; i < a.traces.size(); ++i) {
    SCOPED_TRACE("trace " + std::to_string(i));
    expect_same_trace(a.traces[i], b.traces[i]);
  }
}

// The session recorded on the H100, parsed once for the whole run.
const std::string& h100_bytes() {
  static const std::string b = read_bytes(RS_SESSION_FILE);
  return b;
}
const Session& h100() {
  static const Session s = load_session(RS_SESSION_FILE);
  return s;
}

// ---- parsing outcomes --------------------------------------------------------------------------

Outcome try_parse(const std::string& bytes, Session* out = nullptr, std::string* msg = nullptr) {
  return test::classify_parse<SessionFormatError>([&] { return parse_session(bytes, kName); }, out, msg);
}

// The message of the SessionFormatError that parsing `bytes` raises; fails the test if none.
std::string format_error(const std::string& bytes) {
  std::string msg;
  Outcome o = try_parse(bytes, nullptr, &msg);
  EXPECT_EQ(o, Outcome::FormatError) << (o == Outcome::Parsed ? "parsed without error" : msg);
  EXPECT_TRUE(contains(msg, kName)) << "message does not name the file: " << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << "message is not one line: " << msg;
  return msg;
}

// ---- building files by hand --------------------------------------------------------------------

void put_f64(std::string& b, size_t at, double v) { put_u64(b, at, bits(v)); }
uint32_t get_u32(const std::string& b, size_t at) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t(static_cast<uint8_t>(b[at + i])) << (8 * i);
  return v;
}
uint64_t get_u64(const std::string& b, size_t at) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(static_cast<uint8_t>(b[at + i])) << (8 * i);
  return v;
}

// A session file taken apart: the 16-byte header (magic, version, reserved) and its sections
// (u32 tag, u32 reserved, u64 size, payload), the checksum section left out. assemble() puts it
// back together with a fresh CRC-32, so that a test can change one thing and still reach that
// thing's own check rather than the checksum.
struct RawSection {
  uint32_t tag = 0;
  uint32_t reserved = 0;
  std::string payload;
};
struct RawFile {
  std::string header;
  std::vector<RawSection> sections;
};

RawFile split(const std::string& bytes) {
  RawFile f;
  f.header = bytes.substr(0, 16);
  size_t p = 16;
  while (p + 16 <= bytes.size()) {
    RawSection s;
    s.tag = get_u32(bytes, p);
    s.reserved = get_u32(bytes, p + 4);
    const uint64_t size = get_u64(bytes, p + 8);
    s.payload = bytes.substr(p + 16, size);
    p += 16 + size;
    if (s.tag != kTagChecksum) f.sections.push_back(std::move(s));
  }
  return f;
}

uint32_t zlib_crc(const std::string& b) {
  return static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(b.data()),
                                     static_cast<uInt>(b.size())));
}

std::string assemble(const RawFile& f, bool with_checksum = true) {
  std::string b = f.header;
  for (const RawSection& s : f.sections) {
    append_u32(b, s.tag);
    append_u32(b, s.reserved);
    append_u64(b, s.payload.size());
    b += s.payload;
  }
  if (with_checksum) {
    const uint32_t crc = zlib_crc(b);
    append_u32(b, kTagChecksum);
    append_u32(b, 0);
    append_u64(b, 4);
    append_u32(b, crc);
  }
  return b;
}

// Index of the first section with `tag`; fails the test if there is none.
size_t find_section(const RawFile& f, uint32_t tag) {
  for (size_t i = 0; i < f.sections.size(); ++i) {
    if (f.sections[i].tag == tag) return i;
  }
  ADD_FAILURE() << "no section with tag " << tag;
  return 0;
}

std::string zlib_compress(const std::string& raw) {
  uLongf len = compressBound(static_cast<uLong>(raw.size()));
  std::string z(len, '\0');
  EXPECT_EQ(compress2(reinterpret_cast<Bytef*>(z.data()), &len, reinterpret_cast<const Bytef*>(raw.data()),
                      static_cast<uLong>(raw.size()), Z_BEST_COMPRESSION),
            Z_OK);
  z.resize(len);
  return z;
}

// A trace section payload: u64 declared uncompressed size, then the compressed bytes.
std::string trace_payload(uint64_t declared_size, const std::string& compressed) {
  std::string p;
  append_u64(p, declared_size);
  return p + compressed;
}

// small_session() with its traces replaced by one hand-made trace section payload.
std::string with_trace_payload(const std::string& payload) {
  RawFile f = split(small_bytes());
  f.sections.erase(std::remove_if(f.sections.begin(), f.sections.end(),
                                  [](const RawSection& s) { return s.tag == kTagTrace; }),
                   f.sections.end());
  f.sections.push_back({kTagTrace, 0, payload});
  return assemble(f);
}

// Byte offsets of fields in a timing-table payload (tracing/session.cpp, write_timing): u32
// count, then per timing: str kernel (u32 length + bytes), u32 block size, f64 median, min, max,
// u32 samples, f64 gbps, f64 pct_peak, u8 correct.
size_t timing_offset(const std::string& tab, size_t index) {
  size_t p = 4;
  for (size_t i = 0; i < index; ++i) p += 4 + get_u32(tab, p) + 4 + 24 + 4 + 16 + 1;
  return p;
}

using test::TempDir;

// ---- round trip ------------------------------------------------------------------------------

TEST(SessionIo, RoundTripInMemory) {
  const Session s = small_session();
  const std::string bytes = serialize_session(s);
  EXPECT_EQ(bytes.compare(0, 8, kMagicBytes), 0);
  EXPECT_EQ(get_u32(bytes, 8), 1u);  // no metrics: written as version 1, which earlier releases read
  EXPECT_EQ(get_u32(bytes, 12), 0u);
  Session back = parse_session(bytes, kName);
  expect_same(s, back);
  // Serializing again gives the same bytes.
  EXPECT_EQ(serialize_session(back), bytes);
}

// Version 2: the profiler metrics (`reducescope profile`) round-trip; duplicates and non-finite
// values are refused with a message.
TEST(SessionIo, MetricsRoundTripAsVersion2) {
  Session s = small_session();
  s.metrics = {{"reduce0", 256, "gld_efficiency", "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
                "%", 98.99},
               {"reduce0", 256, "inst_per_warp", "smsp__average_inst_executed_per_warp.ratio", "inst", 412.5}};
  const std::string bytes = serialize_session(s);
  EXPECT_EQ(get_u32(bytes, 8), 2u);
  Session back = parse_session(bytes, kName);
  ASSERT_EQ(back.metrics.size(), 2u);
  const SessionMetric* m = back.find_metric("reduce0", 256, "gld_efficiency");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->value, 98.99);
  EXPECT_EQ(m->unit, "%");
  EXPECT_EQ(m->ncu_metric, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct");
  EXPECT_EQ(back.find_metric("reduce0", 512, "gld_efficiency"), nullptr);
  EXPECT_EQ(serialize_session(back), bytes);

  Session dup = s;
  dup.metrics.push_back(dup.metrics[0]);
  EXPECT_TRUE(contains(format_error(serialize_session(dup)), "two values of gld_efficiency")) << "duplicate";
  Session nan = s;
  nan.metrics[1].value = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(contains(format_error(serialize_session(nan)), "not a finite value")) << "NaN";
}

// Launch counts (section 6) and the N sweep (section 7) round-trip without a new version: a release that
// does not know them skips them (shown here by dropping them: the rest reads the same).
TEST(SessionIo, LaunchCountsAndSweepRoundTripWithoutANewVersion) {
  Session s = small_session();
  ASSERT_GE(s.timings.size(), 2u);
  s.timings[0].launches = 3;
  s.sweep.gpu = s.meta.gpu;
  s.sweep.method = "bench";
  s.sweep.peak_gbps = 3352;
  s.sweep.points = {{"modern", 1u << 20, 572.5, "single_pass_atomic", 128, 0.0073, 1},
                    {kCubSeries, 1u << 20, 447.0, "", 0, 0.0094, 0}};
  const std::string bytes = serialize_session(s);
  EXPECT_EQ(get_u32(bytes, 8), 1u) << "no metrics: still version 1";
  Session back = parse_session(bytes, kName);
  expect_same(s, back);
  EXPECT_EQ(back.timings[0].launches, 3u);
  EXPECT_EQ(back.timings[1].launches, 0u) << "not known";
  ASSERT_NE(back.sweep.find("modern", 1u << 20), nullptr);
  EXPECT_EQ(back.sweep.find("modern", 1u << 20)->kernel, "single_pass_atomic");
  EXPECT_EQ(back.sweep.find("modern", 1u << 18), nullptr);
  EXPECT_EQ(serialize_session(back), bytes);

  RawFile f = split(bytes);
  f.sections.erase(std::remove_if(f.sections.begin(), f.sections.end(),
                                  [](const RawSection& x) { return x.tag == kTagLaunches || x.tag == kTagSweep; }),
                   f.sections.end());
  Session older = parse_session(assemble(f), kName);
  EXPECT_EQ(older.timings[0].launches, 0u);
  EXPECT_TRUE(older.sweep.empty());

  Session bad = s;
  bad.sweep.points[0].gbps = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(contains(format_error(serialize_session(bad)), "sweep point 0")) << "NaN bandwidth";
  bad = s;
  bad.sweep.points[1].n = 0;
  EXPECT_TRUE(contains(format_error(serialize_session(bad)), "sweep point 1")) << "N = 0";
  // A launch count for a timing the session does not have.
  f = split(bytes);
  std::string payload;
  append_u32(payload, 1);
  append_u32(payload, 7);
  payload += "reduce9";
  append_u32(payload, 256);
  append_u32(payload, 2);
  f.sections[find_section(f, kTagLaunches)].payload = payload;
  EXPECT_TRUE(contains(format_error(assemble(f)), "launch count of reduce9"));
}

// racecheck's races (`reducescope pitfalls --out`): a section of their own, which readers that predate it
// skip (the session stays version 2, so those readers still open it); bad contents are refused.
TEST(SessionIo, RacesRoundTripAndOlderReadersSkipThem) {
  Session s = small_session();
  s.races.push_back({"pitfall_no_syncwarp", 64, "RAW", "pitfall_kernels.cuh", "Write", 43, "Read", 44, 64, {16, 17, 31}});
  s.races.push_back({"pitfall_no_volatile", 256, "WAR", "pitfall_kernels.cuh", "Read", 36, "Write", 36, 124, {1, 2}});
  const std::string bytes = serialize_session(s);
  EXPECT_EQ(get_u32(bytes, 8), 1u) << "races alone need no new version";
  Session back = parse_session(bytes, kName);
  expect_same(s, back);
  EXPECT_EQ(serialize_session(back), bytes);
  ASSERT_EQ(back.races_of("pitfall_no_syncwarp", 64).size(), 1u);
  EXPECT_TRUE(back.races_of("pitfall_no_syncwarp", 256).empty());
  back.set_races("pitfall_no_syncwarp", 64, {});
  EXPECT_TRUE(back.races_of("pitfall_no_syncwarp", 64).empty());
  EXPECT_EQ(back.races.size(), 1u) << "the other kernel's race stays";

  RawFile f = split(bytes);
  f.sections.erase(f.sections.begin() + static_cast<std::ptrdiff_t>(find_section(f, kTagRaces)));
  EXPECT_TRUE(parse_session(assemble(f), kName).races.empty()) << "a session written before races opens";

  Session bad = s;
  bad.races[0].kind = "RAR";
  EXPECT_TRUE(contains(format_error(serialize_session(bad)), "RAR")) << "unknown hazard kind";
  bad = s;
  bad.races[1].second_access = "Atomic";
  EXPECT_TRUE(contains(format_error(serialize_session(bad)), "Atomic"));
  bad = s;
  bad.races[0].words = {17, 16};
  EXPECT_TRUE(contains(format_error(serialize_session(bad)), "ascending"));
  bad = s;
  bad.races[0].block_size = 0;
  EXPECT_TRUE(contains(format_error(serialize_session(bad)), "block size 0"));
  // A race count that claims more races than the section holds: truncated, refused.
  f = split(bytes);
  std::string& payload = f.sections[find_section(f, kTagRaces)].payload;
  payload[0] = 3;
  EXPECT_FALSE(format_error(assemble(f)).empty());
}

// The bits view (`reducescope bits --out`): a section of its own, skipped by older readers; bad rows refused.
TEST(SessionIo, BitsViewRoundTripsAndOlderReadersSkipIt) {
  Session s = small_session();
  s.bits.n = 1u << 24;
  s.bits.pattern = "random";
  s.bits.runs = 20;
  s.bits.exact_bits = 0x4affffc7u;
  s.bits.exact = 8388579.2859401107;
  s.bits.tolerance = 12300;
  s.bits.rows = {{"reproducible_sum", 0x4affffc7u, 120, {32, 64, 128, 256, 512, 1024}},
                 {"shuffle_block", 0x4affffc6u, 80, {32, 64, 128, 512}},
                 {"shuffle_block", 0x4affffc7u, 40, {256, 1024}},
                 {"CUB DeviceReduce::Sum", 0x4affffc7u, 20, {0}}};
  const std::string bytes = serialize_session(s);
  Session back = parse_session(bytes, kName);
  EXPECT_EQ(serialize_session(back), bytes);
  ASSERT_EQ(back.bits.rows.size(), 4u);
  EXPECT_EQ(back.bits.n, s.bits.n);
  EXPECT_EQ(back.bits.exact_bits, s.bits.exact_bits);
  EXPECT_EQ(back.bits.exact, s.bits.exact);
  EXPECT_EQ(back.bits.tolerance, s.bits.tolerance);
  EXPECT_FALSE(back.bits.wrong(0x4affffc7u)) << "the exact sum rounded once";
  EXPECT_TRUE(back.bits.wrong(0x4b800000u)) << "16777216: 8.4e6 beyond the tolerance";
  EXPECT_TRUE(back.bits.wrong(0x7fc00000u)) << "NaN";
  EXPECT_EQ(back.bits.rows[1].block_sizes, (std::vector<uint32_t>{32, 64, 128, 512}));
  EXPECT_EQ(back.bits.rows[3].kernel, "CUB DeviceReduce::Sum");
  RawFile f = split(bytes);
  f.sections.erase(f.sections.begin() + static_cast<std::ptrdiff_t>(find_section(f, 9)));
  EXPECT_TRUE(parse_session(assemble(f), kName).bits.empty()) << "a session without the view opens";
  Session bad = s;
  bad.bits.rows[0].count = 0;
  EXPECT_TRUE(contains(format_error(serialize_session(bad)), "no run"));
  bad = s;
  bad.bits.runs = 0;
  EXPECT_TRUE(contains(format_error(serialize_session(bad)), "bits view"));
}

// The multigpu track (`record --track multigpu`): a section of its own, skipped by older readers; rows with
// impossible times and rings that are not the ring's schedule are refused.
SessionMultiGpu small_multigpu() {
  SessionMultiGpu m;
  m.gpus = 2;
  m.gpu_names = {"NVIDIA H200", "NVIDIA H200"};
  m.topology = "\tGPU0\tGPU1\nGPU0\t X \tNV18\nGPU1\tNV18\t X \n";
  m.link = "NV18";
  m.nccl_version = "2.28.9";
  m.method = "CUDA events on every GPU";
  m.date = "2026-11-24T17:00:00Z";
  m.rows = {{"allreduce", "nccl", 1u << 30, 2, 3.28, 3.27, 3.31, 20, 327.4, 327.4, true},
            {"allreduce", "ring", 1u << 30, 2, 3.00, 2.99, 3.10, 20, 357.9, 357.9, true},
            {"copy", "p2p", 1u << 30, 2, 2.72, 2.71, 2.74, 20, 394.8, 394.8, true}};
  RingRecording ring;
  ring.bytes = 4096;
  ring.gpus = 2;
  ring.total_us = 30;
  for (const RingTransfer& t : ring_schedule(2)) {
    RingEvent e{t.step, t.phase, t.from, t.to, t.chunk, 2048, 1.0 + 10 * t.step, 5.0 + 10 * t.step, 0, 0};
    if (t.phase == RingPhase::ReduceScatter) e.add_start_us = 6, e.add_end_us = 8;
    ring.events.push_back(e);
  }
  m.rings.push_back(ring);
  return m;
}

TEST(SessionIo, MultiGpuRoundTripsAndOlderReadersSkipIt) {
  Session s = small_session();
  s.multigpu = small_multigpu();
  const std::string bytes = serialize_session(s);
  EXPECT_EQ(get_u32(bytes, 8), 1u) << "the section needs no new version";
  Session back = parse_session(bytes, kName);
  EXPECT_EQ(serialize_session(back), bytes);
  ASSERT_EQ(back.multigpu.gpus, 2u);
  EXPECT_EQ(back.multigpu.link, "NV18");
  EXPECT_EQ(back.multigpu.topology, s.multigpu.topology);
  ASSERT_EQ(back.multigpu.rows.size(), 3u);
  ASSERT_NE(back.multigpu.find("allreduce", "ring", 1u << 30), nullptr);
  EXPECT_EQ(back.multigpu.find("allreduce", "ring", 1u << 30)->median_ms, 3.00);
  EXPECT_EQ(back.multigpu.find("allreduce", "ring", 4096), nullptr);
  EXPECT_EQ(back.multigpu.sizes("allreduce"), std::vector<uint64_t>{1u << 30});
  ASSERT_EQ(back.multigpu.rings.size(), 1u);
  EXPECT_EQ(back.multigpu.rings[0].events.size(), 4u);
  EXPECT_EQ(back.multigpu.rings[0].events[1].add_end_us, 8);
  expect_same(s, back);

  RawFile f = split(bytes);
  f.sections.erase(f.sections.begin() + static_cast<std::ptrdiff_t>(find_section(f, 10)));
  EXPECT_TRUE(parse_session(assemble(f), kName).multigpu.empty()) << "a session without the recording opens";

  Session bad = s;
  bad.multigpu.rows[0].median_ms = 0;
  EXPECT_TRUE(contains(format_error(serialize_session(bad)), "times")) << "a row of 0 ms";
  bad = s;
  bad.multigpu.rows[1].min_ms = 4;
  EXPECT_TRUE(contains(format_error(serialize_session(bad)), "times")) << "min above the median";
  bad = s;
  bad.multigpu.gpus = 1;
  EXPECT_TRUE(contains(format_error(serialize_session(bad)), "1 GPUs"));
  bad = s;
  std::swap(bad.multigpu.rings[0].events[0], bad.multigpu.rings[0].events[1]);
  EXPECT_TRUE(contains(format_error(serialize_session(bad)), "schedule")) << "transfers out of order";
  bad = s;
  bad.multigpu.rings[0].events.pop_back();
  EXPECT_TRUE(contains(format_error(serialize_session(bad)), "transfers")) << "a missing transfer";
  bad = s;
  bad.multigpu.rings[0].events[2].copy_end_us = -1;
  EXPECT_TRUE(contains(format_error(serialize_session(bad)), "time of")) << "a negative time";
  // Truncated: the row count claims more rows than the section holds.
  f = split(bytes);
  std::string& payload = f.sections[find_section(f, 10)].payload;
  payload.resize(payload.size() / 2);
  EXPECT_FALSE(format_error(assemble(f)).empty());
}

TEST(SessionIo, RoundTripEmptySession) {
  // No timings and no traces: a valid (if useless) session; the defaults come back.
  const Session s;
  Session back;
  ASSERT_EQ(try_parse(serialize_session(s), &back), Outcome::Parsed);
  expect_same(s, back);
  EXPECT_TRUE(back.block_sizes().empty());
  EXPECT_EQ(back.find_timing("reduce0", 256), nullptr);
  EXPECT_EQ(back.find_trace("reduce0", 256), nullptr);
}

TEST(SessionIo, RoundTripExtremeValues) {
  Session s = small_session();
  s.meta.gpu = std::string("GPU\0with NUL", 12);
  s.meta.method.clear();
  s.meta.n = ~uint64_t{0};
  s.meta.l2_bytes = ~uint64_t{0};
  s.meta.sm_count = ~uint32_t{0};
  s.meta.peak_gbps = DBL_MAX;
  s.meta.copy_gbps = DBL_MIN;
  s.meta.cub_ms = std::numeric_limits<double>::denorm_min();
  s.meta.cub_gbps = -0.0;
  s.timings[0].min_ms = 0;
  s.timings[0].median_ms = std::nextafter(0.0, 1.0);
  s.timings[0].max_ms = std::numeric_limits<double>::infinity();
  s.timings[1].block_size = 1;
  s.timings[2].block_size = 1024;
  s.timings[2].kernel = std::string(1000, 'k');
  s.timings[2].samples = ~uint32_t{0};
  expect_same(s, parse_session(serialize_session(s), kName));
}

TEST(SessionIo, Lookups) {
  const Session s = small_session();
  const SessionTiming* t = s.find_timing("reduce3", 256);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t, &s.timings[1]);
  EXPECT_EQ(s.find_timing("reduce3", 64), nullptr);
  EXPECT_EQ(s.find_timing("reduce9", 256), nullptr);
  const Trace* tr = s.find_trace("reduce6", 64);
  ASSERT_NE(tr, nullptr);
  EXPECT_EQ(tr, &s.traces[1]);
  EXPECT_EQ(s.find_trace("reduce6", 1024), nullptr);  // timed, not traced
  EXPECT_EQ(s.find_timing("reduce6", 64), nullptr);   // traced, not timed
  // Block sizes of timings and traces together, ascending, each once.
  EXPECT_EQ(s.block_sizes(), (std::vector<uint32_t>{64, 128, 256, 1024}));
}

// A kernel's int32 and float32 traces at one block size (issue 30): each found by its type; without a type the
// int32 one, or the one there is; set_trace replaces only the same type and keeps every int32 trace first (a reader
// before float32 traces takes the first of a kernel and block size); the file round-trips both.
TEST(SessionIo, Float32TracesBesideInt32) {
  Session s = small_session();
  const Trace* int_trace = s.find_trace("reduce6", 64);
  ASSERT_NE(int_trace, nullptr);
  ASSERT_EQ(int_trace->meta.dtype, DType::Int32);
  Trace f = *int_trace;
  f.meta.dtype = DType::Float32;
  f.meta.result = 0x3f800000;  // 1.0f
  s.set_trace(f);
  Trace only_float = f;
  only_float.meta.kernel = "reproducible_sum";
  s.set_trace(only_float);
  Trace int_again = *s.find_trace("reduce6", 64, DType::Int32);
  int_again.meta.result = 12345;
  s.set_trace(int_again);  // replaces the int32 trace only, and goes before the float32 ones
  ASSERT_NE(s.find_trace("reduce6", 64, DType::Float32), nullptr);
  EXPECT_EQ(s.find_trace("reduce6", 64, DType::Float32)->meta.result, 0x3f800000);
  EXPECT_EQ(s.find_trace("reduce6", 64, DType::Int32)->meta.result, 12345);
  EXPECT_EQ(s.find_trace("reduce6", 64)->meta.dtype, DType::Int32);
  EXPECT_EQ(s.find_trace("reproducible_sum", 64, DType::Int32), nullptr);
  ASSERT_NE(s.find_trace("reproducible_sum", 64), nullptr);
  EXPECT_EQ(s.find_trace("reproducible_sum", 64)->meta.dtype, DType::Float32);
  EXPECT_EQ(s.trace_dtypes("reduce6", 64), (std::vector<DType>{DType::Int32, DType::Float32}));
  EXPECT_EQ(s.trace_dtypes("reproducible_sum", 64), (std::vector<DType>{DType::Float32}));
  EXPECT_TRUE(s.trace_dtypes("reduce6", 32).empty());
  bool seen_float = false;
  for (const Trace& t : s.traces) {
    if (t.meta.dtype == DType::Float32) seen_float = true;
    else EXPECT_FALSE(seen_float) << t.meta.kernel << ": an int32 trace after a float32 one";
  }
  const Session back = parse_session(serialize_session(s), kName);
  ASSERT_EQ(back.traces.size(), s.traces.size());
  EXPECT_EQ(back.find_trace("reduce6", 64, DType::Float32)->meta.result, 0x3f800000);
  EXPECT_EQ(back.find_trace("reduce6", 64)->meta.result, 12345);
}

// The binary tracer's trace of a kernel beside the source probe's (issue 29: the pitfalls as compiled): each found
// by its tracer; without one, the source probe's; a kernel traced by the binary tracer alone (a plain kernel file)
// is found without asking; set_trace replaces only the same tracer's.
TEST(SessionIo, BinaryTracesBesideTheSourceProbes) {
  Session s = small_session();
  const Trace probe = *s.find_trace("reduce6", 64);
  Trace bin = probe;
  bin.meta.tracer = Tracer::Binary;
  bin.meta.result = 777;
  s.set_trace(bin);
  EXPECT_EQ(s.find_trace("reduce6", 64)->meta.tracer, Tracer::SourceProbe);
  EXPECT_EQ(s.find_trace("reduce6", 64, std::nullopt, Tracer::Binary)->meta.result, 777);
  EXPECT_EQ(s.find_trace("reduce6", 64, DType::Int32, Tracer::SourceProbe)->meta.result, probe.meta.result);
  EXPECT_EQ(s.find_trace("reduce6", 64, DType::Float32, Tracer::Binary), nullptr);
  EXPECT_TRUE(s.has_tracer("reduce6", 64, Tracer::Binary));
  EXPECT_TRUE(s.has_tracer("reduce6", 64, Tracer::SourceProbe));
  EXPECT_FALSE(s.has_tracer("reduce6", 32, Tracer::Binary));
  bin.meta.result = 778;
  s.set_trace(bin);  // replaces the binary one only
  EXPECT_EQ(s.find_trace("reduce6", 64, std::nullopt, Tracer::Binary)->meta.result, 778);
  EXPECT_EQ(s.find_trace("reduce6", 64)->meta.result, probe.meta.result);
  Trace plain = bin;
  plain.meta.kernel = "mine";
  s.set_trace(plain);
  ASSERT_NE(s.find_trace("mine", 64), nullptr);
  EXPECT_EQ(s.find_trace("mine", 64)->meta.tracer, Tracer::Binary);
  EXPECT_FALSE(s.has_tracer("mine", 64, Tracer::SourceProbe));
  const Session back = parse_session(serialize_session(s), kName);
  EXPECT_EQ(back.find_trace("reduce6", 64, std::nullopt, Tracer::Binary)->meta.result, 778);
  EXPECT_EQ(back.find_trace("reduce6", 64)->meta.tracer, Tracer::SourceProbe);
}

// A second run's trace (issue 30, `record --two-runs`): kept beside its first run in section 11, found by kernel,
// block size and type, replaced by the next of the same key; one without its first run is refused.
TEST(SessionIo, OtherRunsBesideTheirFirstRuns) {
  Session s = small_session();
  Trace second = *s.find_trace("reduce6", 64);
  second.meta.result = 4242;
  s.set_other_run(second);
  EXPECT_EQ(s.other_run("reduce6", 64, DType::Int32)->meta.result, 4242);
  EXPECT_EQ(s.other_run("reduce6", 64, DType::Float32), nullptr);
  EXPECT_EQ(s.other_run("reduce6", 128, DType::Int32), nullptr);
  second.meta.result = 4343;
  s.set_other_run(second);
  ASSERT_EQ(s.other_runs.size(), 1u);
  const Session back = parse_session(serialize_session(s), kName);
  ASSERT_EQ(back.other_runs.size(), 1u);
  EXPECT_EQ(back.other_run("reduce6", 64, DType::Int32)->meta.result, 4343);
  EXPECT_EQ(back.traces.size(), s.traces.size()) << "the second run is no trace of its own";
  EXPECT_NE(back.find_trace("reduce6", 64)->meta.result, 4343) << "the first run stays the session's trace";
  Session orphan = small_session();
  Trace lone = second;
  lone.meta.kernel = "reduce5";
  lone.meta.block_size = 1024;  // the small session has no reduce5 trace at 1024
  ASSERT_EQ(orphan.find_trace("reduce5", 1024), nullptr);
  orphan.set_other_run(lone);
  try {
    parse_session(serialize_session(orphan), kName);
    ADD_FAILURE() << "a second run without its first was accepted";
  } catch (const SessionFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("without its first run"), std::string::npos) << e.what();
  }
}

TEST(SessionIo, SaveAndLoad) {
  TempDir dir;
  const std::string path = dir.path("saved.rssession");
  const Session s = small_session();
  save_session(s, path);
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path + ".part")) << "temporary file left behind";
  EXPECT_EQ(read_bytes(path), serialize_session(s));
  expect_same(s, load_session(path));

  // Saving over an existing session replaces it.
  Session s2 = small_session();
  s2.meta.gpu = "another GPU";
  s2.traces.pop_back();
  save_session(s2, path);
  expect_same(s2, load_session(path));
  int files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.dir())) ++files;
  EXPECT_EQ(files, 1);
}

TEST(SessionIo, SaveIntoMissingDirectory) {
  TempDir dir;
  test::expect_save_into_missing_directory_fails<SessionFormatError>(dir, [](const std::string& p) { save_session(small_session(), p); }, "s.rssession");
}

TEST(SessionIo, FailedSaveLeavesNoTemporary) {
  TempDir dir;
  test::expect_failed_save_leaves_no_temporary<SessionFormatError>(dir, [](const std::string& p) { save_session(small_session(), p); });
}

TEST(SessionIo, LoadMissingFile) {
  TempDir dir;
  const std::string path = dir.path("does_not_exist.rssession");
  test::expect_error_naming<SessionFormatError>([&] { load_session(path); }, path);
}

TEST(SessionIo, LoadErrorsNameThePath) {
  TempDir dir;
  const std::string path = dir.path("damaged.rssession");
  std::string bytes = small_bytes();
  bytes[bytes.size() / 2] ^= 0x20;
  std::ofstream(path, std::ios::binary) << bytes;
  try {
    load_session(path);
    FAIL() << "no SessionFormatError";
  } catch (const SessionFormatError& e) {
    EXPECT_TRUE(contains(e.what(), path)) << e.what();
  }
  // A directory opens as an ifstream on Linux but cannot be read.
  EXPECT_THROW(load_session(dir.dir().string()), SessionFormatError);
}

TEST(SessionIo, IsSessionBytes) {
  EXPECT_TRUE(is_session_bytes(small_bytes()));
  EXPECT_TRUE(is_session_bytes(kMagicBytes));  // the magic alone: a (truncated) session, by content
  EXPECT_TRUE(is_session_bytes(kMagicBytes + "garbage"));
  EXPECT_FALSE(is_session_bytes(""));
  EXPECT_FALSE(is_session_bytes("RSSESSN"));                 // shorter than the magic
  EXPECT_FALSE(is_session_bytes(std::string("RSSESSN ", 8)));  // the NUL is part of the magic
  EXPECT_FALSE(is_session_bytes(std::string("rssessn\0", 8)));
  EXPECT_FALSE(is_session_bytes(read_bytes(fixture("reduce0", 64))));  // a trace
  EXPECT_FALSE(is_session_bytes(serialize_trace(load_trace(fixture("reduce2", 64)))));
}

TEST(SessionIo, IsSessionFile) {
  TempDir dir;
  EXPECT_TRUE(is_session_file(RS_SESSION_FILE));
  const std::string saved = dir.path("s.rssession");
  save_session(small_session(), saved);
  EXPECT_TRUE(is_session_file(saved));
  // By content, not by name.
  const std::string renamed = dir.path("s.rstrace");
  std::filesystem::copy_file(saved, renamed);
  EXPECT_TRUE(is_session_file(renamed));
  const std::string trace_named_session = dir.path("t.rssession");
  std::filesystem::copy_file(fixture("reduce1", 256), trace_named_session);
  EXPECT_FALSE(is_session_file(trace_named_session));
  EXPECT_FALSE(is_session_file(fixture("reduce1", 256)));
  EXPECT_FALSE(is_session_file(dir.path("missing.rssession")));
  EXPECT_FALSE(is_session_file(dir.dir().string()));  // a directory
  const std::string empty = dir.path("empty.rssession");
  std::ofstream(empty).close();
  EXPECT_FALSE(is_session_file(empty));
  const std::string seven = dir.path("seven.rssession");
  std::ofstream(seven, std::ios::binary) << "RSSESSN";
  EXPECT_FALSE(is_session_file(seven));
}

// ---- header ----------------------------------------------------------------------------------

TEST(SessionIo, EmptyAndShortFiles) {
  EXPECT_TRUE(contains(format_error(""), "truncated"));
  EXPECT_TRUE(contains(format_error("RSSE"), "truncated"));
  EXPECT_TRUE(contains(format_error(kMagicBytes), "truncated"));
  // Header only: no sections at all.
  std::string header = kMagicBytes;
  append_u32(header, kSessionFormatVersion);
  append_u32(header, 0);
  EXPECT_TRUE(contains(format_error(header), "no checksum section"));
}

TEST(SessionIo, BadMagic) {
  std::string bytes = small_bytes();
  bytes[0] = 'X';
  EXPECT_TRUE(contains(format_error(bytes), "not a ReduceScope session"));
  bytes = small_bytes();
  bytes[7] = ' ';  // the terminating NUL is part of the magic
  EXPECT_TRUE(contains(format_error(bytes), "magic"));
  EXPECT_TRUE(contains(format_error(std::string(4096, '\0')), "not a ReduceScope session"));
}

TEST(SessionIo, ATraceIsNotASession) {
  const std::string trace = read_bytes(fixture("reduce3", 64));
  ASSERT_FALSE(trace.empty());
  EXPECT_TRUE(contains(format_error(trace), "not a ReduceScope session")) << format_error(trace);
  // Through the file system too, naming the path.
  try {
    load_session(fixture("reduce3", 64));
    FAIL() << "no SessionFormatError";
  } catch (const SessionFormatError& e) {
    EXPECT_TRUE(contains(e.what(), fixture("reduce3", 64))) << e.what();
    EXPECT_TRUE(contains(e.what(), "not a ReduceScope session")) << e.what();
  }
  // And the other way round: the trace reader refuses a session.
  try {
    parse_trace(small_bytes(), "x.rssession");
    FAIL() << "no TraceFormatError";
  } catch (const TraceFormatError& e) {
    EXPECT_TRUE(contains(e.what(), "not a ReduceScope trace")) << e.what();
  }
}

TEST(SessionIo, NewerVersionIsRefused) {
  for (uint32_t v : {kSessionFormatVersion + 1, 99u, 0xffffffffu}) {
    RawFile f = split(small_bytes());
    put_u32(f.header, 8, v);
    std::string msg = format_error(assemble(f));
    EXPECT_TRUE(contains(msg, "newer")) << v << ": " << msg;
    EXPECT_TRUE(contains(msg, std::to_string(v))) << msg;
  }
  RawFile f = split(small_bytes());
  put_u32(f.header, 8, 0);
  EXPECT_TRUE(contains(format_error(assemble(f)), "too old"));
}

TEST(SessionIo, ReservedFieldsMustBeZero) {
  RawFile f = split(small_bytes());
  put_u32(f.header, 12, 1);
  EXPECT_TRUE(contains(format_error(assemble(f)), "reserved"));
  f = split(small_bytes());
  f.sections[find_section(f, kTagTimings)].reserved = 0x80000000u;
  EXPECT_TRUE(contains(format_error(assemble(f)), "reserved"));
}

// ---- sections and checksum -------------------------------------------------------------------

TEST(SessionIo, SplitAndAssembleGiveTheSameFile) {
  // The test's own helpers, checked against the writer: what the other tests build by hand is a
  // valid file apart from the one thing each changes.
  const std::string bytes = small_bytes();
  const RawFile f = split(bytes);
  ASSERT_EQ(f.sections.size(), 4u);  // meta, timings, 2 traces
  EXPECT_EQ(f.sections[0].tag, kTagMeta);
  EXPECT_EQ(f.sections[1].tag, kTagTimings);
  EXPECT_EQ(f.sections[2].tag, kTagTrace);
  EXPECT_EQ(f.sections[3].tag, kTagTrace);
  EXPECT_EQ(assemble(f), bytes);
}

TEST(SessionIo, NoChecksumSection) {
  const RawFile f = split(small_bytes());
  std::string msg = format_error(assemble(f, false));
  EXPECT_TRUE(contains(msg, "no checksum section")) << msg;
  // The checksum section alone does not make a session.
  RawFile bare;
  bare.header = f.header;
  EXPECT_TRUE(contains(format_error(assemble(bare)), "no metadata section"));
}

TEST(SessionIo, DataAfterTheChecksum) {
  std::string bytes = small_bytes();
  append_u32(bytes, 77);
  append_u32(bytes, 0);
  append_u64(bytes, 0);
  EXPECT_TRUE(contains(format_error(bytes), "after the checksum"));
}

TEST(SessionIo, ChecksumCatchesAChangedValue) {
  // A timing's median, changed: structurally fine (and still a valid timing), so only the
  // checksum can tell.
  std::string bytes = small_bytes();
  const RawFile f = split(bytes);
  size_t at = 16;  // the timing section's payload starts after the header and the meta section
  at += 16 + f.sections[0].payload.size() + 16;
  const size_t median = timing_offset(f.sections[1].payload, 0) + 4 + 7 + 4;
  ASSERT_EQ(get_u64(bytes, at + median), bits(1.5));
  put_f64(bytes, at + median, 1.75);
  std::string msg = format_error(bytes);
  EXPECT_TRUE(contains(msg, "checksum mismatch")) << msg;
  // The stored CRC itself, changed.
  bytes = small_bytes();
  bytes.back() ^= 1;
  EXPECT_TRUE(contains(format_error(bytes), "checksum mismatch"));
}

TEST(SessionIo, ChecksumSectionOfTheWrongSize) {
  std::string bytes = assemble(split(small_bytes()), false);
  append_u32(bytes, kTagChecksum);
  append_u32(bytes, 0);
  append_u64(bytes, 8);
  append_u64(bytes, zlib_crc(bytes));
  EXPECT_TRUE(contains(format_error(bytes), "checksum section is 8 bytes"));
}

TEST(SessionIo, MissingMetaOrTimingSection) {
  RawFile f = split(small_bytes());
  f.sections.erase(f.sections.begin() + find_section(f, kTagMeta));
  EXPECT_TRUE(contains(format_error(assemble(f)), "no metadata section"));
  f = split(small_bytes());
  f.sections.erase(f.sections.begin() + find_section(f, kTagTimings));
  EXPECT_TRUE(contains(format_error(assemble(f)), "no timing section"));
}

TEST(SessionIo, UnknownSectionIsSkipped) {
  const Session s = small_session();
  RawFile f = split(serialize_session(s));
  f.sections.insert(f.sections.begin() + 1, RawSection{77, 0, "a section from a later version"});
  f.sections.push_back({0, 0, ""});
  Session back;
  std::string msg;
  ASSERT_EQ(try_parse(assemble(f), &back, &msg), Outcome::Parsed) << msg;
  expect_same(s, back);
}

TEST(SessionIo, SectionSizeBeyondFile) {
  RawFile f = split(small_bytes());
  std::string bytes = assemble(f);
  // The meta section's u64 size follows the 16-byte header, its tag and its reserved field.
  put_u64(bytes, 16 + 8, uint64_t{1} << 40);
  EXPECT_TRUE(contains(format_error(bytes), "truncated"));
  put_u64(bytes, 16 + 8, ~uint64_t{0});
  EXPECT_TRUE(contains(format_error(bytes), "truncated"));
}

TEST(SessionIo, StringLengthBeyondTheMetaSection) {
  RawFile f = split(small_bytes());
  put_u32(f.sections[find_section(f, kTagMeta)].payload, 0, 0xfffffff0u);  // the GPU name's length
  std::string msg = format_error(assemble(f));
  EXPECT_TRUE(contains(msg, "metadata")) << msg;
}

// ---- traces inside a session -----------------------------------------------------------------

TEST(SessionIo, ImplausibleTraceSizeIsRefusedBeforeAllocating) {
  // A valid checksum, and a trace section that claims 2^40 bytes (1 TiB) uncompressed. Allocating
  // that would throw std::bad_alloc (an OtherError here) or abort under ASan, so a
  // SessionFormatError that says "implausible" shows the size was refused before any allocation.
  const std::string z = zlib_compress(serialize_trace(load_trace(fixture("reduce0", 64))));
  for (uint64_t declared : {uint64_t{1} << 40, ~uint64_t{0}, (uint64_t{1} << 30) + 1}) {
    std::string msg = format_error(with_trace_payload(trace_payload(declared, z)));
    EXPECT_TRUE(contains(msg, "implausible")) << declared << ": " << msg;
    EXPECT_TRUE(contains(msg, "trace 0")) << msg;
  }
  // Below 1 GiB, but more than deflate can expand these few kilobytes to (about 1032:1).
  std::string msg = format_error(with_trace_payload(trace_payload(z.size() * 1032 + 65, z)));
  EXPECT_TRUE(contains(msg, "implausible")) << msg;
}

TEST(SessionIo, GarbageCompressedTrace) {
  std::string garbage;
  uint64_t x = 0x2545F4914F6CDD1Dull;
  for (int i = 0; i < 3000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    garbage.push_back(static_cast<char>(x));
  }
  std::string msg = format_error(with_trace_payload(trace_payload(20000, garbage)));
  EXPECT_TRUE(contains(msg, "does not decompress")) << msg;
  // A valid zlib stream cut short.
  const std::string raw = serialize_trace(load_trace(fixture("reduce0", 64)));
  const std::string z = zlib_compress(raw);
  msg = format_error(with_trace_payload(trace_payload(raw.size(), z.substr(0, z.size() / 2))));
  EXPECT_TRUE(contains(msg, "does not decompress")) << msg;
  // Nothing after the declared size.
  msg = format_error(with_trace_payload(trace_payload(0, "")));
  EXPECT_TRUE(contains(msg, "trace 0")) << msg;
}

TEST(SessionIo, DeclaredTraceSizeMustMatch) {
  const std::string raw = serialize_trace(load_trace(fixture("reduce0", 64)));
  const std::string z = zlib_compress(raw);
  ASSERT_EQ(try_parse(with_trace_payload(trace_payload(raw.size(), z))), Outcome::Parsed);
  for (uint64_t declared : {raw.size() - 1, raw.size() + 1, uint64_t{0}}) {
    std::string msg = format_error(with_trace_payload(trace_payload(declared, z)));
    EXPECT_TRUE(contains(msg, "does not decompress")) << declared << ": " << msg;
  }
}

TEST(SessionIo, TraceSectionShorterThanItsSizeField) {
  std::string msg = format_error(with_trace_payload("1234567"));
  EXPECT_TRUE(contains(msg, "truncated")) << msg;
  EXPECT_TRUE(contains(msg, "trace")) << msg;
}

TEST(SessionIo, DecompressesToSomethingThatIsNotATrace) {
  const std::string text = "this decompresses fine but is not a trace file";
  std::string msg = format_error(with_trace_payload(trace_payload(text.size(), zlib_compress(text))));
  EXPECT_TRUE(contains(msg, "not a ReduceScope trace")) << msg;
  EXPECT_TRUE(contains(msg, "trace 0")) << msg;
  // A session inside a session.
  const std::string inner = serialize_session(Session{});
  msg = format_error(with_trace_payload(trace_payload(inner.size(), zlib_compress(inner))));
  EXPECT_TRUE(contains(msg, "not a ReduceScope trace")) << msg;
}

TEST(SessionIo, InvalidTraceInsideIsRefused) {
  // The writer does not check traces; the reader checks them as load_trace does.
  Session s = small_session();
  s.traces[1].records[5].thread = 64;  // the block has 64 threads
  std::string msg = format_error(serialize_session(s));
  EXPECT_TRUE(contains(msg, "trace 1")) << msg;
  EXPECT_TRUE(contains(msg, "thread 64")) << msg;
  s = small_session();
  s.traces[0].meta.block_size = 0;
  msg = format_error(serialize_session(s));
  EXPECT_TRUE(contains(msg, "trace 0")) << msg;
  EXPECT_TRUE(contains(msg, "block size")) << msg;
}

// ---- timings ---------------------------------------------------------------------------------

TEST(SessionIo, TimingWithMinAboveMaxIsRefused) {
  Session s = timings_only();
  s.timings[1].min_ms = 0.4;  // max is 0.3
  s.timings[1].median_ms = 0.35;
  std::string msg = format_error(serialize_session(s));
  EXPECT_TRUE(contains(msg, "reduce3")) << msg;
  EXPECT_TRUE(contains(msg, "min <= median <= max")) << msg;
  // min == max is one repeated value: fine.
  s = timings_only();
  s.timings[1].min_ms = s.timings[1].median_ms = s.timings[1].max_ms = 0.3;
  EXPECT_EQ(try_parse(serialize_session(s)), Outcome::Parsed);
}

TEST(SessionIo, TimingWithNegativeOrNaNTimeIsRefused) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int field = 0; field < 3; ++field) {
    for (double v : {-1.0, -DBL_MIN, nan}) {
      Session s = timings_only();
      SessionTiming& t = s.timings[0];
      (field == 0 ? t.median_ms : field == 1 ? t.min_ms : t.max_ms) = v;
      std::string msg;
      EXPECT_EQ(try_parse(serialize_session(s), nullptr, &msg), Outcome::FormatError)
          << "field " << field << " = " << v << " accepted";
    }
  }
}

TEST(SessionIo, TimingWithBadBlockSizeIsRefused) {
  for (uint32_t b : {0u, 1025u, 0xffffffffu}) {
    Session s = timings_only();
    s.timings[2].block_size = b;
    std::string msg = format_error(serialize_session(s));
    EXPECT_TRUE(contains(msg, "block size " + std::to_string(b))) << msg;
  }
}

TEST(SessionIo, TimingCorrectnessFlagIsZeroOrOne) {
  RawFile f = split(small_bytes());
  std::string& tab = f.sections[find_section(f, kTagTimings)].payload;
  ASSERT_EQ(tab.back(), 1);  // the last timing's flag: correct
  tab.back() = 2;
  std::string msg = format_error(assemble(f));
  EXPECT_TRUE(contains(msg, "correctness flag is 2")) << msg;
  tab.back() = 0;
  Session back;
  ASSERT_EQ(try_parse(assemble(f), &back), Outcome::Parsed);
  EXPECT_FALSE(back.timings[2].correct);
}

TEST(SessionIo, TimingCountMustMatchTheSection) {
  RawFile f = split(small_bytes());
  const size_t tab = find_section(f, kTagTimings);
  put_u32(f.sections[tab].payload, 0, 4097);
  EXPECT_TRUE(contains(format_error(assemble(f)), "implausible"));
  put_u32(f.sections[tab].payload, 0, 0xffffffffu);
  EXPECT_TRUE(contains(format_error(assemble(f)), "implausible"));
  put_u32(f.sections[tab].payload, 0, 4);  // one more than there are
  EXPECT_TRUE(contains(format_error(assemble(f)), "truncated timing section"));
  put_u32(f.sections[tab].payload, 0, 2);  // one fewer
  EXPECT_TRUE(contains(format_error(assemble(f)), "stray bytes"));
}

// A median of samples cannot lie outside their range; such a timing (valid checksum) is refused,
// or its charts would draw a median above the max whisker.
TEST(SessionIo, TimingWithMedianOutsideMinMaxIsRefused) {
  for (double median : {5.0, 1.0}) {  // min 1.25, max 2.75
    Session s = timings_only();
    s.timings[0].median_ms = median;
    std::string msg;
    EXPECT_EQ(try_parse(serialize_session(s), nullptr, &msg), Outcome::FormatError)
        << "a timing of reduce0 at 128 threads with median " << median << " ms outside [1.25, 2.75] ms was accepted";
  }
}

// Session::timings holds at most one per (kernel, block size); a file with two (valid checksum)
// is refused, or find_timing would silently return the first.
TEST(SessionIo, DuplicateTimingIsRefused) {
  Session s = timings_only();
  s.timings.push_back(s.timings[0]);
  s.timings.back().median_ms = 2.0;
  std::string msg;
  EXPECT_EQ(try_parse(serialize_session(s), nullptr, &msg), Outcome::FormatError)
      << "two timings of reduce0 at 128 threads were accepted";
}

// ---- truncation and corruption ---------------------------------------------------------------

// Smaller sessions cut from the H100's, so that every bit can be flipped quickly (a full parse of
// the H100 file, 39 traces, takes about 20 ms). Both begin with the H100 file's header, meta and
// timing table, byte for byte (checked below).
//   h100_head():  the H100's meta and timing table, no traces (2.7 KB)
//   h100_small(): the same with its two smallest traces (reduce0 at 32 and 64 threads, 12.6 KB)
const std::string& h100_head() {
  static const std::string b = [] {
    Session s;
    s.meta = h100().meta;
    s.timings = h100().timings;
    return serialize_session(s);
  }();
  return b;
}
const std::string& h100_small() {
  static const std::string b = [] {
    Session s;
    s.meta = h100().meta;
    s.timings = h100().timings;
    s.traces = {*h100().find_trace("reduce0", 32), *h100().find_trace("reduce0", 64)};
    return serialize_session(s);
  }();
  return b;
}

// Bytes of the header, the meta section and the timing section of a session file.
size_t head_size(const std::string& bytes) {
  const RawFile f = split(bytes);
  return 16 + 16 + f.sections[0].payload.size() + 16 + f.sections[1].payload.size();
}

// Offsets of the 16-byte section headers of `bytes`, the checksum section's included.
std::vector<size_t> section_starts(const std::string& bytes) {
  std::vector<size_t> v;
  for (size_t p = 16; p + 16 <= bytes.size(); p += 16 + get_u64(bytes, p + 8)) v.push_back(p);
  return v;
}

// Flips bit `bit` of byte `at`; the result must be a SessionFormatError naming the file.
void expect_flip_rejected(const std::string& bytes, size_t at, int bit) {
  std::string b = bytes;
  b[at] = static_cast<char>(b[at] ^ (1 << bit));
  std::string msg;
  Outcome o = try_parse(b, nullptr, &msg);
  ASSERT_EQ(o, Outcome::FormatError) << "byte " << at << " bit " << bit << " of " << bytes.size() << ": " << msg;
  ASSERT_TRUE(contains(msg, kName)) << msg;
}

void expect_cut_rejected(const std::string& bytes, size_t len) {
  std::string msg;
  Outcome o = try_parse(bytes.substr(0, len), nullptr, &msg);
  ASSERT_EQ(o, Outcome::FormatError) << "truncated to " << len << " of " << bytes.size() << " bytes: "
                                     << (o == Outcome::Parsed ? "parsed" : msg);
  ASSERT_TRUE(contains(msg, kName)) << msg;
}

TEST(SessionIo, CutDownH100SessionsShareTheH100FilesFirstBytes) {
  const size_t head = head_size(h100_bytes());
  ASSERT_GT(head, 2048u);
  EXPECT_EQ(head_size(h100_head()), head);
  EXPECT_EQ(h100_head().compare(0, head, h100_bytes(), 0, head), 0);
  EXPECT_EQ(h100_small().compare(0, head, h100_bytes(), 0, head), 0);
  EXPECT_EQ(h100_head().size(), head + 20);  // then only the checksum section
  EXPECT_EQ(section_starts(h100_bytes()).size(), 42u);  // meta, timings, 39 traces, checksum
  EXPECT_EQ(section_starts(h100_small()).size(), 5u);
  EXPECT_EQ(try_parse(h100_head()), Outcome::Parsed);
  EXPECT_EQ(try_parse(h100_small()), Outcome::Parsed);
}

TEST(SessionIo, BitFlipAnywhereInTheH100MetaAndTimingsIsRejected) {
  // The CRC covers every byte: any single-bit flip is an error, never a different session. Every
  // bit of the H100 file's first 2.7 KB (header, meta, timing table) and of a checksum section.
  const std::string& bytes = h100_head();
  for (size_t at = 0; at < bytes.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      expect_flip_rejected(bytes, at, bit);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(SessionIo, BitFlipInTraceSectionsIsRejected) {
  // Every bit of every section header (tag, reserved, size) and of the stored CRC; a bit of every
  // 29th byte of the compressed traces.
  const std::string& bytes = h100_small();
  const std::vector<size_t> starts = section_starts(bytes);
  for (size_t start : starts) {
    for (size_t at = start; at < std::min(start + 16, bytes.size()); ++at) {
      for (int bit = 0; bit < 8; ++bit) {
        expect_flip_rejected(bytes, at, bit);
        if (HasFatalFailure()) return;
      }
    }
  }
  for (size_t at = bytes.size() - 4; at < bytes.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) expect_flip_rejected(bytes, at, bit);
  }
  for (size_t at = starts[2]; at < starts.back(); at += 29) {
    expect_flip_rejected(bytes, at, static_cast<int>(at % 8));
    if (HasFatalFailure()) return;
  }
}

TEST(SessionIo, BitFlipSampledAcrossTheH100FileIsRejected) {
  // The whole file: 16 places spread over its 39 traces, and the checksum section. (Each parse
  // of the whole file takes about 20 ms; the cut-down sessions above take every bit.)
  const std::string& bytes = h100_bytes();
  for (size_t k = 1; k <= 16; ++k) {
    expect_flip_rejected(bytes, bytes.size() * k / 17 + k, static_cast<int>(k % 8));
    if (HasFatalFailure()) return;
  }
  for (size_t at : {bytes.size() - 20, bytes.size() - 12, bytes.size() - 1}) expect_flip_rejected(bytes, at, 0);
}

TEST(SessionIo, TruncationIsRejected) {
  // A cut file lacks at least its checksum section. The cut-down session: every length through
  // its meta, timing table and first trace section header, then every 31st, then the last 24.
  const std::string& small = h100_small();
  const size_t dense = section_starts(small)[2] + 16;
  for (size_t len = 0; len < small.size(); len += len < dense ? 1 : 31) {
    expect_cut_rejected(small, len);
    if (HasFatalFailure()) return;
  }
  for (size_t k = 1; k <= 24; ++k) expect_cut_rejected(small, small.size() - k);
  // The H100 file: the first 64 lengths, then every 65536th byte, and just before the checksum.
  const std::string& bytes = h100_bytes();
  for (size_t len = 0; len < 64; ++len) expect_cut_rejected(bytes, len);
  for (size_t len = 64; len < bytes.size(); len += 65536) expect_cut_rejected(bytes, len);
  for (size_t len : {bytes.size() - 1, bytes.size() - 4, bytes.size() - 20}) expect_cut_rejected(bytes, len);
  // Cut at a section boundary: every section is whole, only the ones after it are missing.
  for (size_t start : section_starts(small)) {
    std::string msg = format_error(small.substr(0, start));
    EXPECT_TRUE(contains(msg, "no checksum section")) << "cut at " << start << ": " << msg;
  }
}

TEST(SessionIo, RandomGarbageAfterTheHeader) {
  // Deterministic pseudo-random bytes after a valid magic and version: never a crash.
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int round = 0; round < 300; ++round) {
    std::string b = kMagicBytes;
    append_u32(b, kSessionFormatVersion);
    append_u32(b, 0);
    if (round % 2) {  // half of them start like a real section, so the garbage reaches a payload
      append_u32(b, 1 + round % 4);
      append_u32(b, 0);
      append_u64(b, round * 2);
    }
    for (int i = 0; i < round * 3; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      b.push_back(static_cast<char>(x));
    }
    std::string msg;
    ASSERT_EQ(try_parse(b, nullptr, &msg), Outcome::FormatError) << "round " << round << ": " << msg;
  }
}

// tests/corpus/session-*.bin: the fuzzer's session seeds, built by hand (struct + zlib) around
// assets/traces/reduce0_bs64.rstrace: valid, no-checksum, too-new (version 2), huge-trace-size
// (2^40, valid CRC), garbage-trace (valid CRC), min-above-max (valid CRC), bitflip, truncated.
// session-valid.bin is the one good file.
TEST(SessionIo, SessionFilesInTheCorpus) {
  int bad = 0, good = 0;
  for (const auto& e : std::filesystem::directory_iterator(RS_CORPUS_DIR)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("session-", 0) != 0) continue;
    const std::string path = e.path().string();
    if (name == "session-valid.bin") {
      EXPECT_NO_THROW(load_session(path)) << path;
      ++good;
      continue;
    }
    try {
      load_session(path);
      ADD_FAILURE() << path << " was accepted";
    } catch (const SessionFormatError& ex) {
      EXPECT_TRUE(contains(ex.what(), path)) << ex.what();
    }
    ++bad;
  }
  EXPECT_EQ(good, 1);
  EXPECT_GE(bad, 5);
}

// ---- the session recorded on the H100 ----------------------------------------------------------

TEST(SessionH100, LoadsAndNamesTheGpu) {
  const Session& s = h100();
  const SessionMeta& m = s.meta;
  EXPECT_TRUE(contains(m.gpu, "H100")) << m.gpu;
  EXPECT_EQ(m.compute_capability, "9.0");
  EXPECT_FALSE(m.cuda_version.empty());
  // UTC, ISO 8601: 2025-01-02T03:04:05Z
  ASSERT_EQ(m.date.size(), 20u) << m.date;
  EXPECT_EQ(m.date[4], '-');
  EXPECT_EQ(m.date[10], 'T');
  EXPECT_EQ(m.date.back(), 'Z');
  EXPECT_FALSE(m.tool_version.empty());
  EXPECT_TRUE(parse_pattern(m.pattern).has_value()) << m.pattern;
  EXPECT_FALSE(m.method.empty());
  EXPECT_EQ(m.n, uint64_t{1} << 24);
  EXPECT_EQ(m.sm_count, 132u);  // H100 SXM
  EXPECT_GT(m.l2_bytes, 0u);
  EXPECT_GE(m.samples, 20u);
  EXPECT_GT(m.peak_gbps, 1000.0);
  EXPECT_GT(m.copy_gbps, 0.0);
  EXPECT_LT(m.copy_gbps, m.peak_gbps);
  EXPECT_GT(m.cub_ms, 0.0);
  EXPECT_NEAR(m.cub_gbps, m.n * 4.0 / m.cub_ms / 1e6, m.cub_gbps * 1e-3);
}

// The first release's session (harris only): it must keep opening, with every Harris pair.
TEST(SessionH100, HasATimingAndATraceOfEveryHarrisPair) {
  const Session& s = h100();
  EXPECT_EQ(s.timings.size(), 39u);
  EXPECT_EQ(s.traces.size(), 39u);
  int pairs = 0;
  for (KernelId id : track_kernels("harris")) {
    const KernelInfo& k = kernel_info(id);
    for (unsigned bs : kBlockSizes) {
      SCOPED_TRACE(std::string(k.name) + " at " + std::to_string(bs));
      if (block_size_problem(k.id, bs)) {
        EXPECT_EQ(s.find_timing(k.name, bs), nullptr);
        EXPECT_EQ(s.find_trace(k.name, bs), nullptr);
        continue;
      }
      ++pairs;
      const SessionTiming* t = s.find_timing(k.name, bs);
      ASSERT_NE(t, nullptr);
      EXPECT_EQ(t->kernel, k.name);
      EXPECT_EQ(t->block_size, bs);
      const Trace* tr = s.find_trace(k.name, bs);
      ASSERT_NE(tr, nullptr);
      EXPECT_EQ(tr->meta.kernel, k.name);
      EXPECT_EQ(tr->meta.block_size, bs);
    }
  }
  EXPECT_EQ(pairs, 39);
  // At most one of each, as Session promises.
  std::set<std::pair<std::string, uint32_t>> timed, traced;
  for (const auto& t : s.timings) EXPECT_TRUE(timed.insert({t.kernel, t.block_size}).second) << t.kernel;
  for (const auto& t : s.traces) EXPECT_TRUE(traced.insert({t.meta.kernel, t.meta.block_size}).second);
}

TEST(SessionH100, Lookups) {
  const Session& s = h100();
  EXPECT_EQ(s.block_sizes(), std::vector<uint32_t>(kBlockSizes.begin(), kBlockSizes.end()));
  EXPECT_EQ(s.find_timing("reduce4", 32), nullptr);  // reduce4 needs at least 64 threads
  EXPECT_EQ(s.find_trace("reduce6", 32), nullptr);
  EXPECT_EQ(s.find_timing("reduce7", 256), nullptr);
  EXPECT_EQ(s.find_timing("reduce0", 48), nullptr);
  EXPECT_EQ(s.find_timing("", 0), nullptr);
  ASSERT_NE(s.find_timing("reduce0", 32), nullptr);
  ASSERT_NE(s.find_trace("reduce6", 1024), nullptr);
  EXPECT_EQ(s.find_trace("reduce6", 1024)->meta.kernel, "reduce6");
}

TEST(SessionH100, EveryResultIsCorrect) {
  for (const auto& t : h100().timings) EXPECT_TRUE(t.correct) << t.kernel << " at " << t.block_size;
}

TEST(SessionH100, TimingsAreConsistent) {
  const Session& s = h100();
  for (const auto& t : s.timings) {
    SCOPED_TRACE(t.kernel + " at " + std::to_string(t.block_size));
    EXPECT_GT(t.min_ms, 0.0);
    EXPECT_LE(t.min_ms, t.median_ms);
    EXPECT_LE(t.median_ms, t.max_ms);
    EXPECT_EQ(t.samples, s.meta.samples);
    // Effective bandwidth: N x 4 bytes / median (Harris, slide 9), GB/s.
    const double gbps = s.meta.n * 4.0 / t.median_ms / 1e6;
    EXPECT_NEAR(t.gbps, gbps, gbps * 1e-3);
    const double pct = t.gbps / s.meta.peak_gbps * 100;
    EXPECT_NEAR(t.pct_peak, pct, pct * 1e-3);
    EXPECT_LT(t.gbps, s.meta.peak_gbps);
  }
}

TEST(SessionH100, Reduce6IsFasterThanReduce0AtEveryBlockSize) {
  const Session& s = h100();
  int compared = 0;
  for (unsigned bs : kBlockSizes) {
    const SessionTiming* r0 = s.find_timing("reduce0", bs);
    const SessionTiming* r6 = s.find_timing("reduce6", bs);
    if (block_size_problem(KernelId::reduce6, bs)) continue;
    ASSERT_NE(r0, nullptr) << bs;
    ASSERT_NE(r6, nullptr) << bs;
    EXPECT_LT(r6->median_ms, r0->median_ms) << bs << " threads";
    EXPECT_LT(r6->max_ms, r0->min_ms) << bs << " threads: the ranges overlap";
    ++compared;
  }
  EXPECT_EQ(compared, 5);  // 64 ... 1024
}

TEST(SessionH100, EveryTraceReplaysAndHasTheSameSum) {
  const Session& s = h100();
  const auto pattern = parse_pattern(s.meta.pattern);
  ASSERT_TRUE(pattern.has_value()) << s.meta.pattern;
  // Every kernel reduced the same input, so every trace's run ended with the same sum: the CPU's.
  const int32_t expected = cpu_reduce(make_input(*pattern, s.meta.n));
  for (const Trace& t : s.traces) {
    SCOPED_TRACE(t.meta.kernel + " at " + std::to_string(t.meta.block_size));
    EXPECT_EQ(t.meta.result, expected);
    EXPECT_EQ(t.meta.n, s.meta.n);
    EXPECT_EQ(t.meta.pattern, s.meta.pattern);
    EXPECT_EQ(t.meta.gpu, s.meta.gpu);
    EXPECT_EQ(t.meta.traced_block, 0u);
    EXPECT_TRUE(contains(t.source, "__global__ void " + t.meta.kernel)) << "source of another file";
    try {
      Replay r(t);
      EXPECT_GE(r.num_steps(), 2u);
      EXPECT_EQ(r.num_warps(), static_cast<int>((t.meta.block_size + kWarpSize - 1) / kWarpSize));
    } catch (const std::exception& e) {
      ADD_FAILURE() << "does not replay: " << e.what();
    }
  }
}

TEST(SessionH100, ReserializesToTheSameSession) {
  // Three of its traces (the whole file takes a second to compress): parse(serialize(s)) == s.
  Session s = h100();
  s.traces = {*s.find_trace("reduce0", 32), *s.find_trace("reduce3", 512), *s.find_trace("reduce6", 1024)};
  const std::string bytes = serialize_session(s);
  // The header, meta and timing table do not depend on the zlib build: byte for byte the file's.
  const size_t head = head_size(h100_bytes());
  EXPECT_EQ(bytes.compare(0, head, h100_bytes(), 0, head), 0);
  expect_same(s, parse_session(bytes, kName));
}

// ---- command line: record, export, show of a session -------------------------------------------

using test::Args;
using test::usage_error;

TEST(ParseCliSession, Record) {
  Options o = parse_cli({"record", "--out", "f.rssession"});
  EXPECT_EQ(o.command, Command::Record);
  EXPECT_EQ(o.out, "f.rssession");
  EXPECT_EQ(o.n, uint64_t{1} << 24);
  EXPECT_EQ(o.samples, 30);
  EXPECT_EQ(o.pattern, Pattern::RandomBytes);
  EXPECT_TRUE(o.file.empty());

  o = parse_cli({"record", "--samples", "50", "--n", "2^20", "--pattern", "ones", "--out", "g"});
  EXPECT_EQ(o.command, Command::Record);
  EXPECT_EQ(o.samples, 50);
  EXPECT_EQ(o.n, uint64_t{1} << 20);
  EXPECT_EQ(o.pattern, Pattern::Ones);
  EXPECT_EQ(o.out, "g");
}

TEST(ParseCliSession, RecordErrors) {
  EXPECT_TRUE(contains(usage_error({"record"}), "--out"));
  EXPECT_TRUE(contains(usage_error({"record", "--samples", "40"}), "--out"));
  usage_error({"record", "--out"});                    // --out needs a value
  usage_error({"record", "--out", "f", "--samples", "5"});  // the median needs at least 20
  EXPECT_TRUE(contains(usage_error({"record", "f.rssession"}), "f.rssession"));  // no positional file
  usage_error({"record", "--out", "f", "--block-size", "100"});  // not a block size
  usage_error({"record", "--out", "f", "--block-size", "128,100"});
  usage_error({"record", "--out", "f", "--type", "float64"});
  usage_error({"record", "--out", "f", "--csv", "x.csv"});
}

// record --block-size B[,B...] and --type (issue 30: the float32 traces at some block sizes).
TEST(ParseCliSession, RecordBlockSizesAndType) {
  Options o = parse_cli({"record", "--out", "f", "--block-size", "256"});
  EXPECT_EQ(o.block_sizes, (std::vector<unsigned>{256}));
  o = parse_cli({"record", "--out", "f", "--block-size", "32,64,128", "--type", "float32", "--add"});
  EXPECT_EQ(o.block_sizes, (std::vector<unsigned>{32, 64, 128}));
  EXPECT_EQ(o.dtypes, (std::vector<DType>{DType::Float32}));
  EXPECT_TRUE(o.add);
  o = parse_cli({"record", "--out", "f"});
  EXPECT_TRUE(o.block_sizes.empty()) << "every block size";
  EXPECT_TRUE(o.dtypes.empty()) << "int32 and float32";
}

TEST(ParseCliSession, Export) {
  Options o = parse_cli({"export", "s.rssession", "--out", "charts"});
  EXPECT_EQ(o.command, Command::Export);
  EXPECT_EQ(o.file, "s.rssession");
  EXPECT_EQ(o.out, "charts");
  EXPECT_TRUE(o.block_sizes.empty());  // every block size

  o = parse_cli({"export", "s.rssession", "--out", "d", "--block-size", "128"});
  EXPECT_EQ(o.file, "s.rssession");
  EXPECT_EQ(o.out, "d");
  EXPECT_EQ(o.block_sizes, std::vector<unsigned>{128});

  // Options before the file.
  o = parse_cli({"export", "--out", "d", "s.rssession"});
  EXPECT_EQ(o.file, "s.rssession");
  EXPECT_EQ(o.out, "d");
}

TEST(ParseCliSession, ExportErrors) {
  EXPECT_TRUE(contains(usage_error({"export"}), "SESSION"));
  EXPECT_TRUE(contains(usage_error({"export", "--out", "d"}), "SESSION"));
  EXPECT_TRUE(contains(usage_error({"export", "s.rssession"}), "--out"));
  usage_error({"export", "s.rssession", "--out"});
  usage_error({"export", "a.rssession", "b.rssession", "--out", "d"});
  usage_error({"export", "s", "--out", "d", "--block-size", "48"});
  usage_error({"export", "s", "--out", "d", "--block-size", "all"});
  usage_error({"export", "s", "--out", "d", "--samples", "30"});
  usage_error({"export", "s", "--out", "d", "--n", "2^20"});
  usage_error({"export", "s", "--out", "d", "--kernel", "reduce0"});
}

TEST(ParseCliSession, ShowOfASession) {
  Options o = parse_cli({"show", "s.rssession"});
  EXPECT_EQ(o.command, Command::Show);
  EXPECT_EQ(o.file, "s.rssession");
  EXPECT_FALSE(o.steps);
  EXPECT_TRUE(parse_cli({"show", "s.rssession", "--steps"}).steps);
  EXPECT_TRUE(contains(usage_error({"show", "s.rssession", "--out", "x"}), "--out"));
  usage_error({"show", "s.rssession", "--samples", "30"});
  // The window opens a session too.
  o = parse_cli({"s.rssession"});
  EXPECT_EQ(o.command, Command::Gui);
  EXPECT_EQ(o.file, "s.rssession");
}

TEST(ParseCliSession, Help) {
  for (const char* c : {"record", "export"}) {
    Options o = parse_cli({c, "--help"});
    EXPECT_EQ(o.command, Command::Help);
    EXPECT_EQ(o.help_topic, c);
    EXPECT_TRUE(contains(help_text(c), std::string("reducescope ") + c)) << c;
    o = parse_cli({"help", c});
    EXPECT_EQ(o.help_topic, c);
  }
  EXPECT_TRUE(contains(help_text(""), "record"));
  EXPECT_TRUE(contains(help_text(""), "export"));
  EXPECT_TRUE(contains(help_text("show"), "session"));
}

// The session recorded on the H100 with every track (scripts/device/tracks_checks.sh): every
// kernel x block size of every track, timed, traced and correct.
TEST(SessionH100Tracks, HoldsEveryPairOfEveryTrack) {
  const Session s = load_session(RS_TRACKS_SESSION_FILE);
  EXPECT_NE(s.meta.gpu.find("H100"), std::string::npos);
  int pairs = 0;
  for (const KernelInfo& k : kernel_table()) {
    if (k.pitfall) continue;  // `record` leaves the wrong code out; `pitfalls --out` adds it (below)
    if (!k.takes(DType::Int32)) continue;  // sessions hold int32 runs (reproducible_sum is float32 only)
    for (unsigned bs : kBlockSizes) {
      SCOPED_TRACE(std::string(k.name) + " at " + std::to_string(bs));
      if (block_size_problem(k.id, bs)) {
        EXPECT_EQ(s.find_timing(k.name, bs), nullptr);
        continue;
      }
      ++pairs;
      const SessionTiming* t = s.find_timing(k.name, bs);
      ASSERT_NE(t, nullptr);
      EXPECT_TRUE(t->correct);
      EXPECT_GT(t->median_ms, 0.0);
      const Trace* tr = s.find_trace(k.name, bs);
      ASSERT_NE(tr, nullptr);
      EXPECT_EQ(tr->meta.track, k.track);
      EXPECT_NE(tr->source.find(k.name), std::string::npos) << "the trace carries its own kernel file";
      Replay replay(*tr);
      EXPECT_GT(replay.num_steps(), 0u);
    }
  }
  // harris, lecture, book, course reductions, course histograms, modern (histo_warp: `record --add`)
  EXPECT_EQ(pairs, 39 + 45 + 51 + 36 + 18 + 42 + 6);
  // ... and the pitfalls, timed and traced at every block size they take (5 + 5 + 6 + 6).
  EXPECT_EQ(s.timings.size(), 237u + 28u);  // 5 + 5 + 6 + 6 + 6 (pitfall_float_saturation)
  // ... and the float32 traces (issue 30, `record --add --type float32`): 35 of them (below), 12 of which took the
  // place of the float pitfalls' own (pitfall_float_atomic and pitfall_float_saturation take float32 only).
  // ... and 4 traces by the binary tracer: pitfall_no_volatile and pitfall_no_syncwarp as compiled (below), and
  // CUB's 3 kernels (HoldsCubsKernelsAsCompiled); the float32 traces since at every block size (129 in all).
  EXPECT_EQ(s.traces.size(), 237u + 28u + 129u - 12u + 4u + 3u);
}

// The pitfalls as compiled (issue 29, item 4: `record --add --binary`, on the H100): pitfall_no_volatile and
// pitfall_no_syncwarp at 64 and 256 threads traced by the binary tracer beside the source probe's traces and
// racecheck's races. pitfall_no_volatile's last warp goes through a plain pointer the source probe cannot see; the
// binary trace shows the shared memory as the compiler built it (docs/binary-trace.md: six loads and one store in
// the last warp, the compiler's removed loads absent).
TEST(SessionH100Tracks, HoldsThePitfallsAsCompiled) {
  const Session s = load_session(RS_TRACKS_SESSION_FILE);
  for (const char* k : {"pitfall_no_volatile", "pitfall_no_syncwarp"}) {
    for (unsigned bs : {64u, 256u}) {
      SCOPED_TRACE(std::string(k) + " at " + std::to_string(bs));
      const Trace* bin = s.find_trace(k, bs, DType::Int32, Tracer::Binary);
      const Trace* src = s.find_trace(k, bs, DType::Int32, Tracer::SourceProbe);
      ASSERT_NE(bin, nullptr);
      ASSERT_NE(src, nullptr);
      EXPECT_EQ(s.find_trace(k, bs), src) << "without a tracer: the source probe's";
      EXPECT_FALSE(s.races_of(k, bs).empty()) << "racecheck's races beside them";
      EXPECT_EQ(bin->meta.block_size, bs);
      EXPECT_EQ(bin->meta.n, s.meta.n);
      auto shared_loads = [](const Trace& t) {
        size_t n = 0;
        for (const TraceRecord& r : t.records) n += r.kind == static_cast<uint8_t>(AccessKind::Load);
        return n;
      };
      const size_t b = shared_loads(*bin), p = shared_loads(*src);
      EXPECT_GT(b, 0u);
      if (std::string(k) == "pitfall_no_volatile") {
        // Its last warp works through a plain (not volatile) pointer, which the source probe cannot see: its trace
        // holds no shared load at all; the binary tracer sees every load the compiler kept.
        EXPECT_EQ(p, 0u) << "the source probe sees no shared load of pitfall_no_volatile";
      }
      EXPECT_GT(Replay(*bin).num_steps(), 0u);
    }
  }
}

// CUB's own kernels, traced as compiled (issue 29, item 3: `record --add --binary --kernel cub` on the H100,
// attached to `reducescope run --cub`): named after CUB's kernels, in the modern track, at the block size CUB's tuning
// picked; the first pass's block 0 loads its 4096-element tile as 16-byte vectors, each element once, and stores
// their sum (checked against the CPU); the second pass reduces the first pass's partials to the whole sum.
TEST(SessionH100Tracks, HoldsCubsKernelsAsCompiled) {
  const Session s = load_session(RS_TRACKS_SESSION_FILE);
  auto find = [&](const char* name) -> const Trace* {
    for (const Trace& t : s.traces) {
      if (t.meta.kernel == name) return &t;
    }
    return nullptr;
  };
  for (const LibraryKernelInfo& lk : library_table()) {
    SCOPED_TRACE(lk.name);
    const Trace* t = find(lk.name);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->meta.tracer, Tracer::Binary);
    EXPECT_EQ(t->meta.track, lk.track);
    EXPECT_EQ(t->meta.track, "modern");
    EXPECT_EQ(s.find_trace(lk.name, t->meta.block_size), t) << "one trace of it, found by name and block size";
    EXPECT_NE(t->meta.notes.find("CUB's tuning policy"), std::string::npos) << t->meta.notes;
    EXPECT_GT(Replay(*t).num_steps(), 1u);
  }
  const std::vector<int32_t> in = make_input(Pattern::RandomBytes, s.meta.n);
  // The first pass: block 0 of 4096 blocks of 256 threads, one 4096-element tile.
  const Trace& first = *find("cub::DeviceReduceKernel");
  EXPECT_EQ(first.meta.block_size, 256u);
  EXPECT_EQ(first.meta.n, s.meta.n);
  EXPECT_EQ(first.meta.grid_size, s.meta.n / 4096);
  std::set<uint32_t> loaded;
  size_t vectors = 0, warp_sums = 0;
  for (const TraceRecord& r : first.records) {
    if (r.kind == static_cast<uint8_t>(AccessKind::GlobalLoad)) {
      EXPECT_EQ(r.space, static_cast<uint8_t>(GlobalBuffer::Input));
      EXPECT_EQ(r.lane_arg, 16) << "a 16-byte vector load";
      for (uint32_t i = 0; i < 4; ++i) EXPECT_TRUE(loaded.insert(r.addr + i).second) << "element " << r.addr + i;
      ++vectors;
    }
    warp_sums += r.kind == static_cast<uint8_t>(AccessKind::Store);
  }
  EXPECT_EQ(vectors, 256u * 4) << "16 elements per thread, four at a time";
  ASSERT_EQ(loaded.size(), 4096u);
  EXPECT_EQ(*loaded.begin(), 0u);
  EXPECT_EQ(*loaded.rbegin(), 4095u);
  EXPECT_EQ(warp_sums, 8u) << "one warp sum per warp in shared memory";
  uint32_t tile = 0;
  for (size_t i = 0; i < 4096; ++i) tile += static_cast<uint32_t>(in[i]);
  EXPECT_EQ(static_cast<uint32_t>(first.meta.result), tile) << "the block's partial: its tile's sum";
  // The second pass: one block over the first pass's partials, to the whole sum.
  const Trace& second = *find("cub::DeviceReduceSingleTileKernel");
  EXPECT_EQ(second.meta.block_size, 256u);
  EXPECT_EQ(second.meta.grid_size, 1u);
  EXPECT_EQ(second.meta.n, first.meta.grid_size) << "its input: one partial per first-pass block";
  EXPECT_EQ(second.meta.result, cpu_reduce(in));
  // The histogram's sweep: shared atomics per byte, global atomics into the bins.
  const Trace& histo = *find("cub::DeviceHistogramSweepKernel");
  EXPECT_EQ(histo.meta.pattern, "text");
  EXPECT_EQ(histo.meta.n, std::min<uint64_t>(s.meta.n, kHistogramTraceBytes));
  size_t shared_atomics = 0, global_atomics = 0;
  for (const TraceRecord& r : histo.records) {
    shared_atomics += r.kind == static_cast<uint8_t>(AccessKind::SharedAtomic);
    global_atomics += r.kind == static_cast<uint8_t>(AccessKind::GlobalAtomic);
  }
  EXPECT_GT(shared_atomics, histo.meta.block_size) << "a shared atomic per byte";
  EXPECT_GT(global_atomics, 0u);
}

// The two-runs model (issue 30, tracing/two_runs.hpp) on the H100's float32 trace of sum_atomic: each update of
// the block's accumulator stores old + operand rounded to float32, and `rounding` is exactly the difference; a run
// compared with itself parts nowhere; a run whose updates met other running values (other blocks' updates landing
// between) rounds differently, and the sentence says where and why.
TEST(TwoRuns, SumAtomicsUpdatesAndWhereTwoRunsPart) {
  const Session s = load_session(RS_TRACKS_SESSION_FILE);
  const Trace* t = s.find_trace("sum_atomic", 256, DType::Float32);
  ASSERT_NE(t, nullptr);
  const RunUpdates u = float_atomic_updates(*t);
  ASSERT_EQ(u.updates.size(), 256u) << "one float atomicAdd per thread of the block";
  std::set<uint32_t> threads;
  for (const RunUpdate& x : u.updates) {
    threads.insert(x.thread);
    EXPECT_EQ(x.new_value, x.old_value + x.operand) << "the stored value: the float32 sum";
    EXPECT_EQ(static_cast<double>(x.new_value) - (static_cast<double>(x.old_value) + static_cast<double>(x.operand)),
              x.rounding) << "thread " << x.thread;
    EXPECT_GE(x.operand, 0.0f);
  }
  EXPECT_EQ(threads.size(), 256u);
  for (size_t i = 1; i < u.updates.size(); ++i) EXPECT_GE(u.updates[i].old_value, u.updates[i - 1].old_value);
  EXPECT_TRUE(std::any_of(u.updates.begin(), u.updates.end(), [](const RunUpdate& x) { return x.rounding != 0; }))
      << "at about 8e6 a float's step is 0.5 or 1: most additions round";
  EXPECT_EQ(u.result, static_cast<uint32_t>(t->meta.result));

  const TwoRuns same = compare_runs(*t, *t);
  EXPECT_FALSE(same.first_order);
  EXPECT_FALSE(same.first_rounding);
  EXPECT_NE(explain::render(explain::two_runs_sentence(same)).find("the sums are the same bits"), std::string::npos);

  // Another run, made by hand: updates 11 and 12 land the other way round (their threads swap the running values
  // they met), so update 11 adds another element; and the final sum differs. At about 8e6 a float's step is 1, so an
  // addition's rounding depends on the element added, not on the running value: the runs part where the order does.
  Trace other = *t;
  const uint32_t ta = u.updates[10].thread, tb = u.updates[11].thread;
  ASSERT_NE(u.updates[10].rounding, u.updates[11].rounding) << "pick two updates that round differently";
  for (TraceRecord& r : other.records) {
    if (r.kind != static_cast<uint8_t>(AccessKind::GlobalAtomic)) continue;
    if (r.thread == ta) r.aux = float_to_bits(u.updates[11].old_value);
    else if (r.thread == tb) r.aux = float_to_bits(u.updates[10].old_value);
  }
  other.meta.result = static_cast<int32_t>(float_to_bits(bits_to_float(static_cast<uint32_t>(t->meta.result)) + 3.0f));
  const TwoRuns two = compare_runs(*t, other);
  ASSERT_TRUE(two.first_order);
  EXPECT_EQ(*two.first_order, 10u);
  ASSERT_TRUE(two.first_rounding);
  EXPECT_EQ(*two.first_rounding, 10u);
  EXPECT_EQ(two.b.updates[10].thread, tb);
  EXPECT_TRUE(two.results_differ());
  const std::string why = explain::render(explain::two_runs_sentence(two));
  EXPECT_NE(why.find("Update " + std::to_string(*two.first_rounding + 1)), std::string::npos) << why;
  EXPECT_NE(why.find("not associative"), std::string::npos) << why;
  Trace wrong = other;
  wrong.meta.block_size = 128;
  EXPECT_THROW(compare_runs(*t, wrong), std::invalid_argument);
}

// The bundled session's second runs (issue 30, `record --add --type float32 --two-runs` on the H100): sum_atomic and
// pitfall_float_atomic at 256 threads, each beside its first run; the two runs' sums differ and the block's float
// atomics round differently from some update on (the two-runs view's mark).
TEST(SessionH100Tracks, HoldsTwoRunsOfTheFloatAtomics) {
  const Session s = load_session(RS_TRACKS_SESSION_FILE);
  EXPECT_EQ(s.other_runs.size(), 2u);
  for (const char* k : {"sum_atomic", "pitfall_float_atomic"}) {
    SCOPED_TRACE(k);
    const Trace* first = s.find_trace(k, 256, DType::Float32);
    const Trace* second = s.other_run(k, 256, DType::Float32);
    ASSERT_NE(first, nullptr);
    ASSERT_NE(second, nullptr);
    const TwoRuns r = compare_runs(*first, *second);
    EXPECT_TRUE(r.results_differ());
    EXPECT_FALSE(r.a.updates.empty());
    EXPECT_EQ(r.a.updates.size(), r.b.updates.size()) << "the same block's updates in both runs";
    EXPECT_TRUE(r.first_rounding);
    EXPECT_NE(explain::render(explain::two_runs_sentence(r)).find("Update "), std::string::npos);
  }
}

// The float32 traces the H100 session holds (issue 30: `record --add --type float32 --block-size 256`, then the
// pitfalls' float kernels at every block size and reproducible_sum at 32 ... 256): each kernel that takes float32 at
// 256 threads, traced on float32 input (the same random pattern), its result within the float tolerance of the
// CPU's sum, except the float pitfalls; every int32 trace before the first float32 one.
TEST(SessionH100Tracks, HoldsFloat32Traces) {
  const Session s = load_session(RS_TRACKS_SESSION_FILE);
  const std::vector<float> data = make_input_f32(Pattern::RandomBytes, s.meta.n);
  const CpuReference ref = cpu_reference(data);
  int floats = 0;
  bool seen_other = false;
  for (const Trace& t : s.traces) {
    const bool primary = t.meta.dtype == DType::Int32 && t.meta.tracer == Tracer::SourceProbe;
    if (primary) {
      EXPECT_FALSE(seen_other) << t.meta.kernel << " " << t.meta.block_size << ": a source-probe int32 trace after "
                               << "a float32 or binary one";
    }
    seen_other = seen_other || !primary;
    if (t.meta.dtype != DType::Float32) continue;
    ++floats;
    const KernelInfo* k = find_kernel(t.meta.kernel);
    ASSERT_NE(k, nullptr) << t.meta.kernel;
    EXPECT_TRUE(k->takes(DType::Float32)) << k->name;
    EXPECT_EQ(t.meta.n, s.meta.n);
    EXPECT_EQ(t.meta.pattern, s.meta.pattern);
    if (!k->pitfall) {
      EXPECT_TRUE(ref.accepts(k->op, t.meta.result)) << k->name << " at " << t.meta.block_size;
    }
    EXPECT_GT(Replay(t).num_steps(), 0u);
  }
  // Every kernel that takes float32 at every block size it takes (2026-11-26: 256 threads first, then
  // `record --add --type float32 --block-size 32,64,128,512,1024`, docs/data/float32-h100-2026-11-26/all-sizes).
  int pairs = 0;
  for (const KernelInfo& k : kernel_table()) {
    if (!k.takes(DType::Float32) || k.op == ReduceOp::Histogram) continue;
    for (unsigned bs : kBlockSizes) {
      if (block_size_problem(k.id, bs)) continue;
      SCOPED_TRACE(std::string(k.name) + " at " + std::to_string(bs));
      ++pairs;
      ASSERT_NE(s.find_trace(k.name, bs, DType::Float32), nullptr);
      EXPECT_EQ(s.trace_dtypes(k.name, bs).back(), DType::Float32);
    }
  }
  EXPECT_EQ(floats, pairs);
  // reproducible_sum, float32 only: found without asking for a type, at every block size, with the same bits.
  ASSERT_NE(s.find_trace("reproducible_sum", 256), nullptr);
  for (unsigned bs : kBlockSizes) {
    const Trace* t = s.find_trace("reproducible_sum", bs);
    ASSERT_NE(t, nullptr) << bs;
    EXPECT_EQ(t->meta.dtype, DType::Float32);
    EXPECT_EQ(t->meta.result, s.find_trace("reproducible_sum", 256)->meta.result) << bs << ": the same bits";
  }
  for (const char* pitfall : {"pitfall_float_atomic", "pitfall_float_saturation"}) {
    for (unsigned bs : kBlockSizes) EXPECT_NE(s.find_trace(pitfall, bs, DType::Float32), nullptr) << pitfall << bs;
  }
}

// The bits view from the H100 (`reducescope bits --n 67108867 --out`, 2^26 + 3 random floats in [0, 1), 10
// runs at each block size): reproducible_sum gives one pattern, the exact sum rounded once; the float
// atomics give many; sum_atomic's running sum is stuck at 2^24 at every block size, and the reason is known.
TEST(SessionH100Tracks, HoldsTheBitsView) {
  const Session s = load_session(RS_TRACKS_SESSION_FILE);
  const SessionBits& v = s.bits;
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v.n, (1u << 26) + 3);
  const std::vector<float> data = make_input_f32(Pattern::RandomBytes, v.n);
  const float exact = exact::sum_host(data.data(), data.size());
  uint32_t exact_bits;
  std::memcpy(&exact_bits, &exact, 4);
  EXPECT_EQ(v.exact_bits, exact_bits) << "the exact sum of the same input, rounded once, on this machine";
  std::map<std::string, std::pair<int, uint32_t>> by;  // kernel -> patterns, runs
  for (const BitsRow& r : v.rows) {
    ++by[r.kernel].first;
    by[r.kernel].second += r.count;
  }
  ASSERT_EQ(by.count("reproducible_sum"), 1u);
  EXPECT_EQ(by["reproducible_sum"].first, 1);
  EXPECT_EQ(by["reproducible_sum"].second, 6 * v.runs) << "every block size";
  EXPECT_GT(by["pitfall_float_atomic"].first, 5);
  for (const BitsRow& r : v.rows) {
    float got;
    std::memcpy(&got, &r.bits, 4);
    if (r.kernel == "reproducible_sum") {
      EXPECT_EQ(r.bits, exact_bits);
    }
    if (r.kernel == "sum_atomic") {
      EXPECT_EQ(got, 16777216.0f) << "stuck at 2^24";
      EXPECT_GT(std::fabs(got - v.exact), v.tolerance) << "outside the tolerance: WRONG";
      EXPECT_NE(float_sum_note(got, v.exact).find("stuck at 2^24"), std::string::npos);
    }
  }
}

// The course track from the H100: privatisation wins by far, and the replay sees why: each byte of the
// traced block is a shared atomic on one of 7 bins, merged by one global atomic per bin; the basic
// kernel sends every byte to the global bins, and the note's partialSum[2*t] loads use half of each sector.
TEST(SessionH100Tracks, CourseTrackShowsPrivatisationAndCoalescing) {
  const Session s = load_session(RS_TRACKS_SESSION_FILE);
  const SessionTiming* basic = s.find_timing("histo_basic", 256);
  const SessionTiming* priv = s.find_timing("histo_private", 256);
  ASSERT_TRUE(basic && priv);
  EXPECT_GT(basic->median_ms / priv->median_ms, 20.0);
  const Trace* tr = s.find_trace("histo_private", 256);
  ASSERT_NE(tr, nullptr);
  EXPECT_EQ(tr->meta.n, kHistogramTraceBytes);
  EXPECT_EQ(tr->meta.pattern, "text");
  Replay r(*tr);
  int shared_targets = 0, global_targets = 0, shared_updates = 0;
  for (const AtomicTarget& t : r.atomic_targets()) {
    if (t.kind == AccessKind::SharedAtomic) {
      ++shared_targets;
      shared_updates += static_cast<int>(t.order.size());
      EXPECT_EQ(t.chained + 1, static_cast<int>(t.order.size())) << "a block's shared bin: updates chain exactly";
    } else {
      ++global_targets;
      EXPECT_EQ(t.order.size(), 1u);  // the merge: one update per bin from this block
    }
  }
  EXPECT_EQ(shared_targets, 7);
  EXPECT_EQ(global_targets, 7);
  EXPECT_GT(shared_updates, 256);  // several bytes per thread
  for (const GlobalRequest& g : r.global_requests()) {
    if (g.space == static_cast<uint8_t>(GlobalBuffer::Bytes)) {
      EXPECT_EQ(g.sectors, 1);  // 32 consecutive bytes
    }
  }
  Replay basic_r(*s.find_trace("histo_basic", 256));
  for (const AtomicTarget& t : basic_r.atomic_targets()) EXPECT_EQ(t.kind, AccessKind::GlobalAtomic);
  Replay naive(*s.find_trace("naive_sum", 256));
  Replay coalesced(*s.find_trace("coalesced_sum", 256));
  for (const GlobalRequest& g : naive.global_requests()) {
    if (g.kind == AccessKind::GlobalLoad) {
      EXPECT_DOUBLE_EQ(g.efficiency(), 0.5);
    }
  }
  for (const GlobalRequest& g : coalesced.global_requests()) {
    if (g.kind == AccessKind::GlobalLoad) {
      EXPECT_DOUBLE_EQ(g.efficiency(), 1.0);
    }
  }
}

// The pitfalls' results from the H100 (`reducescope pitfalls --out`), for the window without a GPU: the
// plain int* last warp is wrong every time; the volatile one without __syncwarp() is right every time but
// racecheck finds its hazards; the missing __syncthreads() is wrong with many warps.
TEST(SessionH100Tracks, HoldsThePitfallsResults) {
  const Session s = load_session(RS_TRACKS_SESSION_FILE);
  auto v = [&](const char* k, unsigned bs, const char* m) {
    const SessionMetric* x = s.find_metric(k, bs, m);
    EXPECT_NE(x, nullptr) << k << " " << bs << " " << m;
    return x ? x->value : -1.0;
  };
  for (unsigned bs : {64u, 128u, 256u, 512u, 1024u}) {
    EXPECT_EQ(v("pitfall_no_volatile", bs, "wrong_runs"), 100.0) << bs;
    EXPECT_EQ(v("pitfall_no_syncwarp", bs, "wrong_runs"), 0.0) << bs;
    EXPECT_GT(v("pitfall_no_syncwarp", bs, "racecheck_hazards"), 0.0) << bs;
  }
  EXPECT_EQ(v("pitfall_no_syncthreads", 1024, "wrong_runs"), 100.0);
  EXPECT_GT(v("pitfall_no_syncthreads", 1024, "distinct_sums"), 50.0);
  // racecheck's races on one block, with both lines (pitfall_kernels.cuh): the volatile last warp races
  // each of its lines (43-48) with the next (RAW) and with itself (WAR); the plain one only on its last
  // line, where the compiler's register copy ends; the missing barrier on the tree's one line, 103.
  const std::string src = kernel_source("pitfalls");
  for (unsigned bs : {64u, 128u, 256u, 512u, 1024u}) {
    const auto sw = s.races_of("pitfall_no_syncwarp", bs);
    ASSERT_EQ(sw.size(), 10u) << bs;
    for (const SessionRace* r : sw) {
      EXPECT_EQ(r->file, "pitfall_kernels.cuh");
      EXPECT_GE(r->first_line, 43u);
      EXPECT_LE(r->second_line, 48u);
      EXPECT_LE(r->second_line - r->first_line, 1u);
      EXPECT_EQ(r->words.back(), 31u) << "the last warp's words";
      EXPECT_EQ(r->hazards, 4 * r->words.size()) << "a hazard per byte";
    }
    const auto nv = s.races_of("pitfall_no_volatile", bs);
    ASSERT_EQ(nv.size(), 1u) << bs;
    EXPECT_EQ(nv[0]->first_line, 36u);
    for (const SessionRace* r : s.races_of("pitfall_no_syncthreads", bs)) EXPECT_EQ(r->first_line, 103u);
    EXPECT_FALSE(s.races_of("pitfall_no_syncthreads", bs).empty()) << bs;
  }
  // The lines the races name are the warpReduce lines of the kernel source the traces carry.
  auto line_of = [&](const std::string& text, unsigned n) {
    size_t at = 0;
    for (unsigned i = 1; i < n; ++i) at = text.find('\n', at) + 1;
    return text.substr(at, text.find('\n', at) - at);
  };
  EXPECT_NE(line_of(src, 43).find("sdata[tid + 32]"), std::string::npos) << line_of(src, 43);
  EXPECT_NE(line_of(src, 48).find("sdata[tid + 1]"), std::string::npos) << line_of(src, 48);
  EXPECT_NE(line_of(src, 103).find("sdata[tid + s]"), std::string::npos) << line_of(src, 103);
  // Timed and traced like any kernel; the trace keeps the bug: no_volatile's traced block stores the same
  // wrong sum every time, so its traced result is wrong too; the timing says WRONG.
  for (unsigned bs : {64u, 256u, 1024u}) {
    const SessionTiming* t = s.find_timing("pitfall_no_volatile", bs);
    ASSERT_NE(t, nullptr);
    EXPECT_FALSE(t->correct);
    const Trace* tr = s.find_trace("pitfall_no_volatile", bs);
    ASSERT_NE(tr, nullptr);
    Replay r(*tr);
    EXPECT_FALSE(r.has_shared()) << "shared memory is not recorded: the probe would change the bug";
    EXPECT_TRUE(r.has_global());
    ASSERT_NE(s.find_timing("pitfall_no_syncwarp", bs), nullptr);
    EXPECT_TRUE(s.find_timing("pitfall_no_syncwarp", bs)->correct) << "right sums, racy code";
  }
  // The float running sum stops growing at 2^24: where that is on the session's input, checked here on the CPU.
  const SessionMetric* at = s.find_metric("pitfall_float_saturation", 256, "saturates_at_n");
  ASSERT_NE(at, nullptr);
  const auto n_at = static_cast<size_t>(at->value);
  const std::vector<float> in = make_input_f32(Pattern::RandomBytes, n_at);
  double prefix = 0;
  for (size_t i = 0; i + 1 < in.size(); ++i) prefix += in[i];
  EXPECT_LT(prefix, 16777216.0) << "one element short of " << n_at << ": below 2^24";
  EXPECT_GE(prefix + in.back(), 16777216.0) << "at " << n_at << ": 2^24 reached";
  EXPECT_EQ(v("pitfall_float_saturation", 256, "wrong_runs"), 0.0) << "2^24 elements: below the point, right";
  EXPECT_NE(pitfall_words(&s, *find_kernel("pitfall_float_saturation"), 256).results.find("from N = " + std::to_string(n_at)),
            std::string::npos);
  // The float atomics are right within rounding every time, yet give many different sums, with no race.
  for (unsigned bs : kBlockSizes) {
    EXPECT_EQ(v("pitfall_float_atomic", bs, "wrong_runs"), 0.0) << bs;
    EXPECT_GT(v("pitfall_float_atomic", bs, "distinct_sums"), 10.0) << bs;
    EXPECT_EQ(v("pitfall_float_atomic", bs, "racecheck_hazards"), 0.0) << bs;
  }
  EXPECT_NE(s.find_metric("pitfall_float_atomic", 256, "wrong_runs")->ncu_metric.find("float32"), std::string::npos);
}

// The launch count of every timing and the N sweep of every track (`reducescope sweep` over
// docs/data/sweep/, the H100's bench rows at 2^16 ... 2^30), for the window's L column and vs N tab.
TEST(SessionH100Tracks, HoldsLaunchCountsAndTheSweep) {
  const Session s = load_session(RS_TRACKS_SESSION_FILE);
  for (const SessionTiming& t : s.timings) {
    EXPECT_GE(t.launches, 1u) << t.kernel << " " << t.block_size;
    const KernelInfo* k = find_kernel(t.kernel);
    ASSERT_NE(k, nullptr) << t.kernel;
    if (auto fixed = fixed_launches(k->id)) {
      EXPECT_EQ(t.launches, *fixed) << t.kernel;
    }
  }
  ASSERT_NE(s.find_timing("reduce6", 256), nullptr);
  EXPECT_EQ(s.find_timing("reduce6", 256)->launches, 3u) << "2^24 / (2 x 256 x ...) -> 3 levels";
  EXPECT_EQ(s.find_timing("vec4_loads", 1024)->launches, 2u);
  EXPECT_EQ(s.sweep.gpu, s.meta.gpu);
  EXPECT_EQ(s.sweep.ns().size(), 8u);
  EXPECT_EQ(s.sweep.ns().front(), 1u << 16);
  EXPECT_EQ(s.sweep.ns().back(), 1u << 30);
  for (const char* series : {"harris", "lecture", "book", "course", "modern", kCubSeries, kCopySeries}) {
    for (uint64_t n : s.sweep.ns()) EXPECT_NE(s.sweep.find(series, n), nullptr) << series << " " << n;
  }
  // The modern track's fastest kernel is at least as fast as CUB at every N of the sweep (issue 11).
  for (uint64_t n : s.sweep.ns()) {
    EXPECT_GE(s.sweep.find("modern", n)->gbps, s.sweep.find(kCubSeries, n)->gbps) << n;
    EXPECT_EQ(s.sweep.find("modern", n)->launches, 1u) << n << ": a single-pass kernel";
  }
  EXPECT_GT(s.sweep.find("modern", 1u << 30)->gbps, 3100.0);
}

// The book's nvprof metrics, measured by Nsight Compute on the H100 (`reducescope profile`,
// docs/data/profile-book-h100.txt), tell the book's story: coalescing, then fewer barrier stalls.
TEST(SessionH100Tracks, HoldsTheBooksMetricsFromNsightCompute) {
  const Session s = load_session(RS_TRACKS_SESSION_FILE);
  for (KernelId id : track_kernels("book")) {
    for (const char* m : {"inst_per_warp", "gld_efficiency", "gld_throughput", "dram_read_throughput", "stall_sync",
                          "achieved_occupancy"}) {
      EXPECT_NE(s.find_metric(kernel_info(id).name, 512, m), nullptr) << kernel_info(id).name << " " << m;
    }
  }
  auto v = [&](const char* k, const char* m) { return s.find_metric(k, 512, m)->value; };
  EXPECT_LT(v("reduceNeighboredLess", "gld_efficiency"), 50.0);   // strided: a quarter of each sector
  EXPECT_GT(v("reduceInterleaved", "gld_efficiency"), 90.0);      // contiguous
  EXPECT_LT(v("reduceNeighboredLess", "inst_per_warp"), v("reduceNeighbored", "inst_per_warp"));
  EXPECT_GT(v("reduceUnrolling8", "dram_read_throughput"), 2 * v("reduceInterleaved", "dram_read_throughput"));
  EXPECT_LT(v("reduceUnrollWarps8", "stall_sync"), v("reduceUnrolling8", "stall_sync"));
  EXPECT_EQ(s.find_metric("reduce0", 512, "gld_efficiency"), nullptr);
}

}  // namespace
}  // namespace rs
