// grade (app/grading/class_grades.hpp, issue 40): who is graded from a folder of students, shards that cover the class once, the
// outcome of each kind of check run, Gradescope's results.json, the record merge reads back, the class's CSV and
// page, the Slurm script; and the GPU lock keyed by the physical GPU under CUDA_VISIBLE_DEVICES.
#include <gtest/gtest.h>

#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "commands/common.hpp"
#include "commands/compile_ahead.hpp"
#include "gpu_lock.hpp"
#include "class_grades.hpp"
#include "user_kernel.hpp"

namespace rs {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct ClassDir {
  fs::path root;
  ClassDir() {
    root = fs::temp_directory_path() / ("rs-grade-test-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "bob");
    fs::create_directories(root / "dave");
    fs::create_directories(root / "erin");
    for (const char* f : {"alice.cu", "bob/k.cu", "erin/a.cu", "erin/b.cu", "notes.txt"}) std::ofstream(root / f) << "x";
  }
  ~ClassDir() { fs::remove_all(root); }
};

TEST(Grade, AFolderOfStudentsGivesOneSubmissionEachWithWhatIsWrong) {
  ClassDir c;
  const std::vector<Submission> s = find_submissions({c.root.string()});
  ASSERT_EQ(s.size(), 4u);  // notes.txt is nobody's
  EXPECT_EQ(s[0].student, "alice");
  EXPECT_EQ(s[0].file, (c.root / "alice.cu").string());
  EXPECT_EQ(s[1].student, "bob");
  EXPECT_EQ(s[1].file, (c.root / "bob/k.cu").string());
  EXPECT_EQ(s[2].problem, "no .cu file in dave/");
  EXPECT_EQ(s[3].problem, "2 .cu files in erin/ (a.cu, b.cu): keep one");
  EXPECT_THROW(find_submissions({(c.root / "nobody").string()}), GradeError);
  // One student's folder alone (Gradescope's /autograder/submission): its file is the one submission.
  const std::vector<Submission> one = find_submissions({(c.root / "bob").string()});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].student, "k");
}

TEST(Grade, ShardsCoverTheClassExactlyOnce) {
  std::vector<Submission> all;
  for (int i = 0; i < 41; ++i) all.push_back({"s" + std::to_string(100 + i), "f", ""});
  std::multiset<std::string> seen;
  for (int i = 1; i <= 4; ++i) {
    for (const Submission& s : shard_of(all, i, 4)) seen.insert(s.student);
  }
  EXPECT_EQ(seen.size(), 41u);
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 41u);
  EXPECT_EQ(parse_shard("3/4"), std::make_pair(3, 4));
  EXPECT_THROW(parse_shard("5/4"), GradeError);
  EXPECT_THROW(parse_shard("0/4"), GradeError);
  EXPECT_THROW(parse_shard("1/4x"), GradeError);
}

const char* kCheckJson = R"({"exercise": "shuffle", "file": "a.cu", "passed": false, "checks": [
  {"name": "sums right", "pass": true, "figure": "all 36 sums right", "hint": ""},
  {"name": "the last warp with shuffles", "pass": false, "figure": "warp 0 stored 8 words after its first shuffle",
   "hint": "one lane per warp"}],
  "timing": {"n": 16777216, "block_size": 256, "user_ms": 0.05, "reference_kernel": "reduce4", "reference_ms": 0.1,
             "gbps": 1342.2, "x_reference": 2.0},
  "report": {"block_size": 256, "input_bytes": 67108864, "gbps": 1342.2, "reference_kernel": "reduce4",
             "x_reference": 2.0, "copy_gbps": 3723.3, "pct_copy_ceiling": 36.0,
             "sectors_per_request": 4.0, "bank_conflict_ways_per_access": 1.0, "active_lanes_pct": 97.0,
             "occupancy_pct": 100.0, "blocks_per_sm": 8, "registers": 16, "active_lanes_per_step": [32, 16, 8],
             "proof": "The trace's counts are Nsight's."}})";

TEST(Grade, EachOutcomeGetsItsScoreAndOneLine) {
  const Submission s{"al", "a.cu", ""};
  const GradeResult g = grade_from_check(s, "shuffle", false, 1, kCheckJson, "", "", false);
  EXPECT_EQ(g.outcome, Outcome::Graded);
  EXPECT_EQ(g.score(), 2);  // compiles + sums right
  EXPECT_EQ(g.max_score(), 3);
  EXPECT_FALSE(g.passed());
  EXPECT_EQ(g.line, "1 of 2 checks passed; first failed: the last warp with shuffles: warp 0 stored 8 words after its "
                    "first shuffle");
  EXPECT_TRUE(g.has_timing);
  EXPECT_DOUBLE_EQ(g.gbps, 1342.2);

  const GradeResult c = grade_from_check(s, "shuffle", false, 2, "", "a.cu:3:1: error: expected ';'\n", "", false);
  EXPECT_EQ(c.outcome, Outcome::CompileError);
  EXPECT_EQ(c.score(), 0);
  EXPECT_EQ(c.line, "does not compile: a.cu:3:1: error: expected ';'");

  const GradeResult t = grade_from_check(s, "shuffle", false, -1, "", "", "a.cu: still running after 5 s", true);
  EXPECT_EQ(t.outcome, Outcome::TimedOut);
  EXPECT_EQ(t.score(), 0);
  // What check printed last says why it stopped, not its compile's "OK" first line (seen on the H200).
  const GradeResult f = grade_from_check(s, "shuffle", false, 1, "",
                                         "a.cu: OK: NVRTC 13.0 compiled it\nan illegal memory access was encountered\n\n",
                                         "", false);
  EXPECT_EQ(f.outcome, Outcome::Crashed);  // no JSON: check stopped before its checks
  EXPECT_EQ(f.line, "did not finish its checks: an illegal memory access was encountered");
  const GradeResult n = grade_from_check({"dave", "", "no .cu file in dave/"}, "shuffle", false, 0, "", "", "", false);
  EXPECT_EQ(n.outcome, Outcome::NoFile);
  EXPECT_EQ(n.score(), 0);
  const GradeResult k = grade_from_check(s, "shuffle", true, 0, "", "a.cu: OK\n", "", false);
  EXPECT_EQ(k.outcome, Outcome::Compiled);
  EXPECT_TRUE(k.passed());
}

TEST(Grade, GradescopeResultsHoldATestPerCheckAndTheLeaderboard) {
  const GradeResult g = grade_from_check({"al", "a.cu", ""}, "shuffle", false, 1, kCheckJson, "", "", false);
  const json j = json::parse(gradescope_results(g));
  EXPECT_EQ(j["score"], 2);
  EXPECT_EQ(j["tests"][0]["name"], "compiles (NVRTC, both builds)");
  EXPECT_EQ(j["tests"][2]["name"], "the last warp with shuffles");
  EXPECT_EQ(j["tests"][2]["score"], 0);
  EXPECT_EQ(j["tests"][2]["max_score"], 1);
  EXPECT_NE(j["tests"][2]["output"].get<std::string>().find("hint: one lane per warp"), std::string::npos);
  EXPECT_EQ(j["tests"][2]["visibility"], "visible");
  ASSERT_EQ(j["tests"].size(), 4u);  // and the profiler's report, of no points
  EXPECT_EQ(j["tests"][3]["max_score"], 0);
  EXPECT_EQ(j["tests"][3]["output"], "1342 GB/s = 36% of the copy ceiling (3723 GB/s), 2.00x reduce4 at 256 threads; "
                                     "4.0 sectors per global load; 1.00-way shared accesses on average; 97% of lanes "
                                     "active; theoretical occupancy 100% (8 blocks per SM, 16 registers)\nThe trace's "
                                     "counts are Nsight's.");
  ASSERT_EQ(j["leaderboard"].size(), 3u);
  EXPECT_EQ(j["leaderboard"][0]["name"], "GB/s");
  EXPECT_DOUBLE_EQ(j["leaderboard"][0]["value"].get<double>(), 1342.2);
  EXPECT_EQ(j["leaderboard"][1]["name"], "x reduce4");
  EXPECT_EQ(j["leaderboard"][2]["order"], "asc");
}

TEST(Grade, TheStudentsRooflineHoldsTheSubmissionTheReferenceAndTheCopyCeiling) {
  const GradeResult g = grade_from_check({"al", "a.cu", ""}, "shuffle", false, 1, kCheckJson, "", "", false);
  const std::optional<Roofline> f = roofline_of(g);
  ASSERT_TRUE(f);
  EXPECT_DOUBLE_EQ(f->bytes, 67108864.0);
  EXPECT_DOUBLE_EQ(f->ceiling_gbps, 3723.3);
  ASSERT_EQ(f->points.size(), 2u);
  EXPECT_EQ(f->points[0].name, "al");
  EXPECT_DOUBLE_EQ(f->points[0].ms, 0.05);
  EXPECT_FALSE(f->points[0].reference);
  EXPECT_EQ(f->points[1].name, "reduce4");
  EXPECT_DOUBLE_EQ(f->points[1].ms, 0.1);
  EXPECT_TRUE(f->points[1].reference);
  EXPECT_NE(f->caption[0].find("67.1 MB"), std::string::npos);
  const std::string page = submission_html(g, true);
  EXPECT_NE(page.find("Profiler's report"), std::string::npos);
  EXPECT_NE(page.find("<img src='roofline.svg'"), std::string::npos);
  EXPECT_NE(page.find("step by step (the traced block at 256 threads): 32, 16, 8</p>"), std::string::npos);
  EXPECT_EQ(submission_html(g, false).find("roofline.svg"), std::string::npos);
  GradeResult none = g;
  none.report.clear();
  EXPECT_FALSE(roofline_of(none));
}

TEST(Grade, TheRecordReadsBackAsItWasWritten) {
  GradeResult g = grade_from_check({"al", "a.cu", ""}, "shuffle", false, 1, kCheckJson, "", "", false);
  g.gpu = 1;
  g.seconds = 2.5;
  const GradeResult b = parse_grade_record(grade_record(g), "x");
  EXPECT_EQ(b.student, "al");
  EXPECT_EQ(b.outcome, Outcome::Graded);
  EXPECT_EQ(b.checks.size(), 2u);
  EXPECT_EQ(b.line, g.line);
  EXPECT_EQ(b.gpu, 1);
  EXPECT_EQ(b.score(), g.score());
  EXPECT_DOUBLE_EQ(b.x_reference, 2.0);
  EXPECT_EQ(grade_record(b), grade_record(g));
  EXPECT_THROW(parse_grade_record("{", "x"), GradeError);
  EXPECT_THROW(parse_grade_record(R"({"format": "reducescope-answers"})", "x"), GradeError);
}

TEST(Grade, TheClassPageGivesPassRatesTheCommonestFailureAndTheLeaderboard) {
  std::vector<GradeResult> rs;
  const std::string pass_all = R"({"checks": [{"name": "sums right", "pass": true, "figure": "ok"}],
    "timing": {"gbps": 900, "x_reference": 1.5, "user_ms": 0.07, "reference_kernel": "reduce4"}})";
  const std::string fail = R"({"checks": [{"name": "sums right", "pass": false, "figure": "N = 33: got 32"}]})";
  rs.push_back(grade_from_check({"zed", "z.cu", ""}, "first_add", false, 0, pass_all, "", "", false));
  rs.push_back(grade_from_check({"amy", "a.cu", ""}, "first_add", false, 1, fail, "", "", false));
  rs.push_back(grade_from_check({"bo", "b.cu", ""}, "first_add", false, 1, fail, "", "", false));
  rs.push_back(grade_from_check({"cy", "c.cu", ""}, "first_add", false, 2, "", "c.cu:1:1: error: x", "", false));
  const std::string html = class_html(rs, "first_add", false);
  EXPECT_NE(html.find("4 submissions, 1 passed every check"), std::string::npos);
  EXPECT_NE(html.find("<td>sums right</td><td class='n'>1 of 3</td><td class='n'>33%</td><td>N = 33: got 32 "
                      "<span class='small'>(2)</span>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<td>compiles and runs</td><td class='n'>3 of 4</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>zed</td><td class='n'>900.0"), std::string::npos);
  const std::string hidden = class_html(rs, "first_add", true);
  EXPECT_EQ(hidden.find("zed"), std::string::npos);
  EXPECT_EQ(hidden.find("amy"), std::string::npos);
  const std::string csv = class_csv(rs);
  EXPECT_NE(csv.find("student,file,outcome,score,max_score,sums right,gbps,x_reference,gpu,seconds,line\n"),
            std::string::npos);
  EXPECT_NE(csv.find("\nzed,z.cu,graded,2,2,1,900.0,1.50,,0.0,1 of 1 checks passed\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\ncy,c.cu,compile error,0,1,,,,,0.0,does not compile: c.cu:1:1: error: x\n"), std::string::npos)
      << csv;
}

TEST(Grade, TheSlurmScriptIsAnArrayOfShardsOneGpuEachThatMerges) {
  SlurmOptions o;
  o.reducescope = "/opt/rs/reducescope";
  o.submissions = {"/course/hw3 subs"};
  o.exercise = "shuffle";
  o.out = "/course/out";
  o.shards = 8;
  const std::string s = slurm_script(o);
  EXPECT_NE(s.find("#SBATCH --array=1-8\n"), std::string::npos);
  EXPECT_NE(s.find("#SBATCH --gres=gpu:1\n"), std::string::npos);
  EXPECT_NE(s.find("#SBATCH --cpus-per-task=8\n"), std::string::npos);  // the traces side by side, compiling ahead
  EXPECT_NE(s.find("'/opt/rs/reducescope' grade '/course/hw3 subs' --exercise 'shuffle' --out '/course/out' "
                   "--shard \"$SLURM_ARRAY_TASK_ID/8\""),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("grade --merge '/course/out'"), std::string::npos);
  o.compile_only = true;
  EXPECT_EQ(slurm_script(o).find("--gres"), std::string::npos);
  EXPECT_EQ(slurm_script(o).find("--cpus-per-task"), std::string::npos);
}

// grade's compiling ahead with no GPU: real `reducescope check --compile-only --cc 90 --save-compiled` processes, two
// at once, one file ahead of the last taken. A file that compiles gives its kernel for compute_90; one that does not,
// and a student with no file, give "" (their check compiles them itself); the folder goes with the object.
TEST(Grade, CompileAheadGivesEachFileItsKernelOrNothing) {
  const char* exe = std::getenv("REDUCESCOPE_EXE");
  if (!exe) GTEST_SKIP() << "REDUCESCOPE_EXE (reducescope's path) not set: ctest sets it";
  if (!user_kernels_supported()) GTEST_SKIP() << "this build has no NVRTC";
  const fs::path root = fs::temp_directory_path() / ("rs-ahead-test-" + std::to_string(::getpid()));
  fs::create_directories(root);
  const std::string good = (root / "good.cu").string(), bad = (root / "bad.cu").string();
  std::ofstream(good) << starting_file("reduce2");
  std::ofstream(bad) << "int x = ;\n";
  const fs::path dir = root / "ahead";
  {
    cmd::CompileAhead ahead(exe, {good, bad, "", good}, dir, 90, 2, 1);
    const std::string first = ahead.take(0);
    ASSERT_FALSE(first.empty());
    const UserKernel k = load_user_kernel(first);
    EXPECT_EQ(k.arch, "compute_90");
    EXPECT_EQ(k.file_name, good);
    EXPECT_FALSE(k.timing.cubin.empty());  // plain CUDA: the cubin the GPU runs
    EXPECT_EQ(ahead.take(1), "");          // does not compile
    EXPECT_EQ(ahead.take(2), "");          // no file
    const std::string again = ahead.take(3);
    EXPECT_FALSE(again.empty());
    EXPECT_NE(again, first);
    ahead.remove(first);
    EXPECT_FALSE(fs::exists(first));
    EXPECT_TRUE(fs::exists(again));
    EXPECT_GT(ahead.compile_seconds(), 0);
  }
  EXPECT_FALSE(fs::exists(dir));
  fs::remove_all(root);
}

// How many processes check and grade start at once follows the cores this process may use (Slurm's
// --cpus-per-task, taskset), not the machine's.
TEST(Grade, UsableCoresAreTheAffinitysNotTheMachines) {
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  EXPECT_EQ(cmd::usable_cores(), static_cast<unsigned>(CPU_COUNT(&before)));
  int first = 0;
  while (!CPU_ISSET(first, &before)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  EXPECT_EQ(cmd::usable_cores(), 1u);
  ASSERT_EQ(sched_setaffinity(0, sizeof before, &before), 0);
}

TEST(GpuTimingLock, TheLockIsThePhysicalGpusUnderCudaVisibleDevices) {
  ::unsetenv("CUDA_VISIBLE_DEVICES");
  const std::string plain1 = GpuTimingLock::path(1);
  ::setenv("CUDA_VISIBLE_DEVICES", "1", 1);
  EXPECT_EQ(GpuTimingLock::path(0), plain1);  // grade's worker on GPU 1 sees it as device 0
  ::setenv("CUDA_VISIBLE_DEVICES", "2,3", 1);
  EXPECT_NE(GpuTimingLock::path(0).find("/reducescope-gpu2.lock"), std::string::npos);
  EXPECT_NE(GpuTimingLock::path(1).find("/reducescope-gpu3.lock"), std::string::npos);
  ::setenv("CUDA_VISIBLE_DEVICES", "GPU-8f3a/../x", 1);
  EXPECT_EQ(GpuTimingLock::path(0).find(".."), std::string::npos);
  ::unsetenv("CUDA_VISIBLE_DEVICES");
  EXPECT_NE(GpuTimingLock::path(0).find("/reducescope-gpu0.lock"), std::string::npos);
}

}  // namespace
}  // namespace rs
