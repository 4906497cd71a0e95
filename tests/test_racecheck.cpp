// compute-sanitizer racecheck's hazard report read into races (app/commands/racecheck.*), on the output
// racecheck printed on the H100 for one block of 64 threads of each wrong kernel (tests/fixtures/racecheck/,
// its host back-traces removed). The expected races follow from the kernels' code, not from the files.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "commands/racecheck.hpp"

namespace rs {
namespace {

std::string fixture(const std::string& kernel) {
  std::ifstream f(std::string(RS_RACECHECK_DIR) + "/hazard-" + kernel + "-bs64.txt", std::ios::binary);
  EXPECT_TRUE(f) << kernel;
  return std::string(std::istreambuf_iterator<char>(f), {});
}

std::vector<uint32_t> range(uint32_t first, uint32_t last) {
  std::vector<uint32_t> v;
  for (uint32_t i = first; i <= last; ++i) v.push_back(i);
  return v;
}

const SessionRace* find(const RacecheckReport& r, const std::string& kind, uint32_t first, uint32_t second) {
  for (const SessionRace& x : r.races) {
    if (x.kind == kind && x.first_line == first && x.second_line == second) return &x;
  }
  return nullptr;
}

constexpr uint32_t kReserved = 1024;  // cudaDevAttrReservedSharedMemoryPerBlock on the H100

// The slides' volatile last warp without __syncwarp() (pitfall_kernels.cuh lines 43-48: sdata[tid] +=
// sdata[tid + off], off = 32, 16, 8, 4, 2, 1). Between the line with offset `off` and the line before,
// lane t reads sdata[t + off], which lane t + off wrote one line earlier (RAW) and writes again on
// this line (WAR): the words off..31, 4 bytes each.
TEST(Racecheck, NoSyncwarpRacesEveryLineWithTheNext) {
  const RacecheckReport r = parse_racecheck(fixture("pitfall_no_syncwarp"), "pitfall_no_syncwarp", 64, kReserved);
  EXPECT_EQ(r.hazards_total, 1032u);
  ASSERT_EQ(r.races.size(), 10u);
  const uint32_t offsets[] = {16, 8, 4, 2, 1};
  for (int k = 0; k < 5; ++k) {
    const uint32_t line = 44 + static_cast<uint32_t>(k), off = offsets[k];
    const SessionRace* raw = find(r, "RAW", line - 1, line);
    ASSERT_NE(raw, nullptr) << line;
    EXPECT_EQ(raw->first_access, "Write");
    EXPECT_EQ(raw->second_access, "Read");
    EXPECT_EQ(raw->words, range(off, 31)) << line;
    EXPECT_EQ(raw->hazards, 4 * (32 - off)) << "one hazard per byte";
    const SessionRace* war = find(r, "WAR", line, line);
    ASSERT_NE(war, nullptr) << line;
    EXPECT_EQ(war->first_access, "Read");
    EXPECT_EQ(war->second_access, "Write");
    EXPECT_EQ(war->words, range(off, 31)) << line;
    EXPECT_EQ(war->file, "pitfall_kernels.cuh");
    EXPECT_EQ(war->kernel, "pitfall_no_syncwarp");
    EXPECT_EQ(war->block_size, 64u);
  }
}

// Without volatile the compiler keeps the sums in registers; what is left in shared memory is line 36's
// read of sdata[t + 1] against lane t + 1's write of it: words 1..31.
TEST(Racecheck, NoVolatileRacesOnItsLastLine) {
  const RacecheckReport r = parse_racecheck(fixture("pitfall_no_volatile"), "pitfall_no_volatile", 64, kReserved);
  ASSERT_EQ(r.races.size(), 1u);
  EXPECT_EQ(r.races[0].kind, "WAR");
  EXPECT_EQ(r.races[0].first_line, 36u);
  EXPECT_EQ(r.races[0].second_line, 36u);
  EXPECT_EQ(r.races[0].words, range(1, 31));
  EXPECT_EQ(describe_race(r.races[0]), "WAR: line 36 reads and writes: 31 words (sdata[1..31]), 124 hazards");
}

// reduce2 without its barrier, at 64 threads: only warp 0 works in the tree (tid < s <= 32), so the races
// are its lanes reading, one step later, the words 1..31 other lanes wrote (line 103, both ends). The file
// also holds block 1's hazards, which are left out.
TEST(Racecheck, NoSyncthreadsKeepsBlockZero) {
  const std::string text = fixture("pitfall_no_syncthreads");
  ASSERT_NE(text.find("in block (1,0,0)"), std::string::npos) << "the fixture has a second block";
  const RacecheckReport r = parse_racecheck(text, "pitfall_no_syncthreads", 64, kReserved);
  ASSERT_EQ(r.races.size(), 1u);
  EXPECT_EQ(r.races[0].kind, "RAW");
  EXPECT_EQ(r.races[0].first_line, 103u);
  EXPECT_EQ(r.races[0].words, range(1, 31));
  EXPECT_LT(r.races[0].hazards, r.hazards_total) << "block 1's hazards are not counted";
}

TEST(Racecheck, ReservedOffsetAndBadOutput) {
  // With no reserved memory assumed, the words move up by 1 KiB / 4.
  const RacecheckReport r = parse_racecheck(fixture("pitfall_no_volatile"), "pitfall_no_volatile", 64, 0);
  ASSERT_EQ(r.races.size(), 1u);
  EXPECT_EQ(r.races[0].words.front(), 256u + 1);
  EXPECT_THROW(parse_racecheck("", "k", 64, kReserved), RacecheckError) << "no summary: racecheck did not finish";
  EXPECT_THROW(parse_racecheck("error while loading shared libraries: libcairo.so.2\n", "k", 64, kReserved),
               RacecheckError);
  const std::string cut =
      "========= Warning: Potential RAW hazard detected at __shared__ 0x440 in block (0,0,0) :\n"
      "=========     Write Thread (16,0,0) at f()+0x2e0\n"
      "=========     Read Thread (0,0,0) at f()+0x300 in k.cuh:44\n"
      "========= RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)\n";
  EXPECT_THROW(parse_racecheck(cut, "k", 64, kReserved), RacecheckError) << "an access with no file:line";
  const RacecheckReport none = parse_racecheck("========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n",
                                               "reduce4", 256, kReserved);
  EXPECT_EQ(none.hazards_total, 0u);
  EXPECT_TRUE(none.races.empty());
  EXPECT_EQ(word_ranges({1, 2, 3, 7, 9, 10}), "1..3, 7, 9..10");
}

}  // namespace
}  // namespace rs
