// compute-sanitizer's reports on a student's kernel (app/grading/hazards.hpp, issue 57 item 1), read from output
// recorded on the H100 (tests/fixtures/racecheck/, tests/fixtures/user/trap-memcheck.txt, tests/fixtures/grading/),
// and the exercise check they make: a hazard fails it whatever the sums did; no compute-sanitizer is said as not run,
// never as passed.
#include <gtest/gtest.h>

#include "check_words.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "exercises.hpp"
#include "hazards.hpp"

namespace rs {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  EXPECT_TRUE(f) << p;
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

const fs::path kFixtures = fs::path(RS_USER_FIXTURES).parent_path();

TEST(Hazards, RacecheckWithItsBlockSizeAndWords) {
  const SanitizerOutput o = read_sanitizer_output(
      SanitizerTool::Racecheck, read_text(kFixtures / "racecheck/hazard-pitfall_no_syncthreads-bs64.txt"), 1024);
  EXPECT_TRUE(o.complete);
  EXPECT_EQ(o.summary_count, 372u);
  ASSERT_FALSE(o.findings.empty());
  const SanitizerFinding& f = o.findings[0];
  EXPECT_EQ(f.kind, "RAW");
  EXPECT_TRUE(f.warp_level);
  EXPECT_EQ(f.first_access, "Write");
  EXPECT_EQ(f.second_access, "Read");
  EXPECT_EQ(f.first_line, 103u);
  EXPECT_EQ(f.first_thread, 16u);
  EXPECT_EQ(f.second_thread, 0u);
  EXPECT_EQ(f.word, (0x440 - 1024) / 4);
  EXPECT_EQ(f.block_size, 64u);  // the program's line for block size 64 follows its reports
  uint32_t total = 0;
  for (const SanitizerFinding& g : o.findings) total += g.count;
  EXPECT_EQ(total, 372u);  // every report, folded
}

TEST(Hazards, MemcheckReportAndACutOffOutput) {
  const SanitizerOutput o =
      read_sanitizer_output(SanitizerTool::Memcheck, read_text(kFixtures / "user/trap-memcheck.txt"), 1024);
  EXPECT_TRUE(o.complete);
  EXPECT_EQ(o.summary_count, 42u);  // not the "41 errors were not printed" line
  ASSERT_EQ(o.findings.size(), 1u);
  EXPECT_EQ(o.findings[0].kind, "Trace/breakpoint trap");
  EXPECT_EQ(o.findings[0].first_line, 31u);
  EXPECT_EQ(o.findings[0].first_thread, 5u);
  // Cut before its summary: not complete (the check then says the tool did not run to the end).
  const std::string text = read_text(kFixtures / "user/trap-memcheck.txt");
  EXPECT_FALSE(read_sanitizer_output(SanitizerTool::Memcheck, text.substr(0, text.find("ERROR SUMMARY")), 1024).complete);
  EXPECT_FALSE(read_sanitizer_output(SanitizerTool::Synccheck, "", 1024).complete);
}

const ExerciseCheck* find_check(const std::vector<ExerciseCheck>& v, const std::string& name) {
  for (const ExerciseCheck& c : v) {
    if (english(c.name) == name) return &c;
  }
  return nullptr;
}

const char* kHazardCheck = "no data race or sync error (compute-sanitizer)";

// Evidence whose other checks pass (single_pass: one launch, sums right).
ExerciseEvidence passing_single_pass() {
  ExerciseEvidence e;
  for (unsigned bs : {64u, 128u}) {
    ExerciseRun r;
    r.n = 4097;
    r.block_size = bs;
    r.right = true;
    r.launches = 1;
    r.ticket_after = 0;
    e.runs.push_back(r);
  }
  return e;
}

TEST(Hazards, NoSanitizerIsSaidAsNotRunAndNeverAsPassed) {
  const Exercise* x = find_exercise("single_pass");
  ASSERT_NE(x, nullptr);
  ExerciseEvidence e = passing_single_pass();
  e.sanitizers.attempted = true;
  e.sanitizers.why_not = "compute-sanitizer is not on the PATH nor in /usr/local/cuda/bin";
  const std::vector<ExerciseCheck> checks = judge_exercise(*x, e);
  const ExerciseCheck* c = find_check(checks, kHazardCheck);
  ASSERT_NE(c, nullptr);
  EXPECT_FALSE(c->ran);
  EXPECT_FALSE(c->pass);
  EXPECT_NE(english(c->figure).find("not run"), std::string::npos) << english(c->figure);
  EXPECT_NE(english(c->figure).find("compute-sanitizer is not on the PATH"), std::string::npos) << english(c->figure);
  const nlohmann::json j = nlohmann::json::parse(exercise_json(*x, "k.cu", checks));
  EXPECT_TRUE(j["passed"].get<bool>());  // a right answer is not failed for what could not be run
  bool said = false;
  for (const auto& cj : j["checks"]) {
    if (cj["name"] == kHazardCheck) {
      said = true;
      EXPECT_FALSE(cj["pass"].get<bool>());
      EXPECT_FALSE(cj.value("ran", true));
    } else {
      EXPECT_FALSE(cj.contains("ran"));
    }
  }
  EXPECT_TRUE(said);
}

TEST(Hazards, ARaceFailsTheCheckWhileTheSumsAreRight) {
  const Exercise* x = find_exercise("single_pass");
  ExerciseEvidence e = passing_single_pass();
  e.sanitizers.attempted = true;
  e.sanitizers.n = 2049;
  e.sanitizers.block_sizes = {64, 128};
  for (SanitizerTool t : {SanitizerTool::Racecheck, SanitizerTool::Synccheck, SanitizerTool::Memcheck}) {
    SanitizerReport r;
    r.tool = t;
    r.ran = true;
    r.output.complete = true;
    e.sanitizers.reports.push_back(r);
  }
  std::vector<ExerciseCheck> checks = judge_exercise(*x, e);
  ASSERT_NE(find_check(checks, kHazardCheck), nullptr);
  EXPECT_TRUE(find_check(checks, kHazardCheck)->pass);
  EXPECT_NE(english(find_check(checks, kHazardCheck)->figure).find("found nothing at N = 2049, B = 64, 128"), std::string::npos);
  // Warp 1 writes word 5 at line 14, warp 0 reads it at line 17.
  SanitizerFinding f;
  f.tool = SanitizerTool::Racecheck;
  f.block_size = 64;
  f.kind = "RAW";
  f.first_access = "Write";
  f.first_line = 14;
  f.first_thread = 32;
  f.second_access = "Read";
  f.second_line = 17;
  f.second_thread = 0;
  f.word = 5;
  e.sanitizers.reports[0].output.findings.push_back(f);
  checks = judge_exercise(*x, e);
  const ExerciseCheck* c = find_check(checks, kHazardCheck);
  EXPECT_FALSE(c->pass);
  EXPECT_TRUE(c->ran);
  EXPECT_EQ(english(c->figure), "race on shared word 5: written at line 14 by warp 1, read at line 17 by warp 0, with no barrier "
                       "between (racecheck, B = 64)");
  EXPECT_TRUE(find_check(checks, "sums right")->pass);
  EXPECT_FALSE(nlohmann::json::parse(exercise_json(*x, "k.cu", checks))["passed"].get<bool>());
  // A tool stopped by its time limit, with nothing found: not run, not passed.
  e.sanitizers.reports[0].output.findings.clear();
  e.sanitizers.reports[1].ran = false;
  e.sanitizers.reports[1].why_not = "it stopped at the time limit";
  checks = judge_exercise(*x, e);
  c = find_check(checks, kHazardCheck);
  ASSERT_NE(c, nullptr);
  EXPECT_FALSE(c->ran);
  EXPECT_NE(english(c->figure).find("synccheck: it stopped at the time limit"), std::string::npos) << english(c->figure);
}

}  // namespace
}  // namespace rs

namespace rs {
namespace {

// racecheck on a student's kernel at two block sizes in one process (tests/fixtures/grading/sanitizer/: the H100's
// output, cut to its first reports per block size): the reports before the program's line for B = 64 are 64's.
TEST(Hazards, EachReportGoesToTheBlockSizeWhoseLineFollowsIt) {
  const SanitizerOutput o = read_sanitizer_output(
      SanitizerTool::Racecheck,
      read_text(fs::path(RS_GRADING_FIXTURES) / "sanitizer/wrong_no_barrier_before_warp_sums-racecheck-cut.txt"), 1024);
  EXPECT_TRUE(o.complete);
  EXPECT_EQ(o.summary_count, 352u);
  ASSERT_FALSE(o.findings.empty());
  bool b64 = false, b128 = false;
  for (const SanitizerFinding& f : o.findings) {
    EXPECT_EQ(f.kind, "RAW");
    EXPECT_FALSE(f.warp_level);
    EXPECT_EQ(f.first_line, 26u);   // lane 0 of each warp stores its warp's sum
    EXPECT_EQ(f.second_line, 28u);  // warp 0 reads the sums with no barrier between
    EXPECT_NE(f.first_thread / 32, f.second_thread / 32);
    b64 = b64 || f.block_size == 64;
    b128 = b128 || f.block_size == 128;
  }
  EXPECT_TRUE(b64 && b128);
  // synccheck said nothing of a shuffle whose mask leaves out lanes that call it: why the check also reads the mask
  const SanitizerOutput s = read_sanitizer_output(
      SanitizerTool::Synccheck, read_text(fs::path(RS_GRADING_FIXTURES) / "sanitizer/wrong_half_mask_all_lanes-synccheck.txt"),
      1024);
  EXPECT_TRUE(s.complete);
  EXPECT_TRUE(s.findings.empty());
}

TEST(Hazards, AShuffleCalledByLanesOutsideItsMaskFailsTheCheck) {
  const Exercise* x = find_exercise("shuffle");
  ASSERT_NE(x, nullptr);
  ExerciseEvidence e;
  ExerciseRun r;
  r.n = 4097;
  r.block_size = 64;
  r.right = true;
  r.launches = 2;
  TraceFeatures f;
  f.shuffle_lanes_by_line[11] = 0xffffffffu;
  r.features = f;
  e.runs.push_back(r);
  e.sanitizers.attempted = true;
  e.sanitizers.why_not = "compute-sanitizer is not on the PATH nor in /usr/local/cuda/bin";
  e.shuffle_masks.push_back({11, 0xffffu});
  std::vector<ExerciseCheck> checks = judge_exercise(*x, e);
  const ExerciseCheck* c = find_check(checks, kHazardCheck);
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->ran);  // seen in the trace: judged without the tools
  EXPECT_FALSE(c->pass);
  EXPECT_NE(english(c->figure).find("lanes 16-31 call the shuffle at line 11, but its mask 0x0000ffff leaves them out"),
            std::string::npos)
      << english(c->figure);
  // Lanes 0-15 alone calling it (a branch on lane < 16) is right.
  e.runs[0].features->shuffle_lanes_by_line[11] = 0xffffu;
  checks = judge_exercise(*x, e);
  EXPECT_FALSE(find_check(checks, kHazardCheck)->ran);  // back to "not run": no tools here
}

}  // namespace
}  // namespace rs

namespace rs {
namespace {

// One check record for check, the window and grade (grading/check_record.hpp): a not-run check keeps "ran": false
// through the JSON; a record written before issue 57 (no "ran") reads as run; members of another type read as their
// defaults.
TEST(CheckRecord, RoundTripsAndReadsOldRecords) {
  const std::vector<ExerciseCheck> checks = {{"sums right", true, "right in all 60 runs", ""},
                                             {kHazardCheck, false, "not run: no compute-sanitizer", "", false},
                                             {"one launch", false, "3 launches", "finish in the kernel"}};
  const nlohmann::json j = checks_to_json(checks);
  ASSERT_EQ(j.size(), 3u);
  EXPECT_FALSE(j[0].contains("ran"));
  EXPECT_FALSE(j[1]["ran"].get<bool>());
  const std::vector<ExerciseCheck> back = checks_from_json(j);
  ASSERT_EQ(back.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(english(back[i].name), english(checks[i].name));
    EXPECT_EQ(back[i].pass, checks[i].pass);
    EXPECT_EQ(back[i].ran, checks[i].ran);
    EXPECT_EQ(english(back[i].figure), english(checks[i].figure));
    EXPECT_EQ(english(back[i].hint), english(checks[i].hint));
  }
  EXPECT_EQ(checks_passed(back), 1u);
  EXPECT_EQ(checks_ran(back), 2u);
  EXPECT_FALSE(all_passed(back));  // "one launch" ran and failed
  EXPECT_TRUE(all_passed({checks[0], checks[1]}));  // the not-run one counts neither way
  EXPECT_FALSE(all_passed({}));
  const auto old = checks_from_json(nlohmann::json::parse(R"([{"name": "sums right", "pass": true, "figure": "f",
                                                               "hint": ""}, {"name": 3, "pass": "yes"}, 7])"));
  ASSERT_EQ(old.size(), 2u);
  EXPECT_TRUE(old[0].ran && old[0].pass);
  EXPECT_EQ(english(old[0].figure), "f");
  EXPECT_EQ(english(old[1].name), "");
  EXPECT_FALSE(said_anything(old[1].name));
  EXPECT_FALSE(old[1].pass);
  EXPECT_TRUE(checks_from_json(nlohmann::json::object()).empty());
}

// Issue 53: check --json carries each check as message ids with their arguments ("said"), nested sentences
// included, and the reader gets the same ids back, so it says them in its own language; an id this release does not
// know (a newer release's) reads as the record's English words, never as an id.
TEST(CheckRecord, CarriesMessageIds) {
  using namespace explain::check_msg;
  explain::Sentence race(kRaceBetweenWarps, {"", "", "26", "1", "", "28", "0", "B = 64"});
  race.with(0, explain::Sentence(kSharedWord, {"1"})).with(1, explain::Sentence(kWritten)).with(4, explain::Sentence(kRead));
  explain::Sentence more(kAndMore, {"", "3"});
  more.with(0, race);
  const std::vector<ExerciseCheck> checks = {{kNoHazard, false, more, kRaceHint}};
  const nlohmann::json j = checks_to_json(checks);
  EXPECT_EQ(j[0]["said"]["name"], nlohmann::json::array({kNoHazard}));
  EXPECT_EQ(j[0]["said"]["figure"][0], kAndMore);
  EXPECT_EQ(j[0]["said"]["figure"][1][0], kRaceBetweenWarps);  // nested: an array of its own
  EXPECT_EQ(j[0]["figure"], "race on shared word 1: written at line 26 by warp 1, read at line 28 by warp 0, with no "
                            "barrier between (racecheck, B = 64) (and 3 more)");
  const std::vector<ExerciseCheck> back = checks_from_json(j);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].name.id, kNoHazard);  // the same constant: the catalogue translates it
  EXPECT_EQ(back[0].figure.id, kAndMore);
  ASSERT_NE(back[0].figure.nested_arg(0), nullptr);
  EXPECT_EQ(back[0].figure.nested_arg(0)->id, kRaceBetweenWarps);
  EXPECT_EQ(back[0].hint.id, kRaceHint);
  EXPECT_EQ(english(back[0].figure), j[0]["figure"].get<std::string>());
  // A translated reader: every id through the lookup, the arguments as they are.
  const std::string zh = explain::render(back[0].figure, [](const char* id) {
    return std::string_view(id) == kRead ? "READ" : id;
  });
  EXPECT_NE(zh.find("READ at line 28"), std::string::npos) << zh;
  // An id from another release: its English words.
  nlohmann::json newer = j;
  newer[0]["said"]["figure"][1][0] = "a sentence of a later release about {0}";
  const std::vector<ExerciseCheck> b2 = checks_from_json(newer);
  EXPECT_EQ(english(b2[0].figure), j[0]["figure"].get<std::string>());
  EXPECT_EQ(b2[0].name.id, kNoHazard);
  // Every id listed once.
  const auto& ids = explain::check_message_ids();
  for (size_t i = 0; i < ids.size(); ++i) {
    for (size_t k = i + 1; k < ids.size(); ++k) EXPECT_STRNE(ids[i], ids[k]);
  }
}

}  // namespace
}  // namespace rs
