// The exercises' checks (app/exercises.hpp) judged on traces the H100 recorded of the shipped kernels that the
// starting files and solutions follow (the bundled session): reduce1 has bank conflicts and reduce2 none, reduce0
// leaves lanes idle in every warp and reduce1 in at most one, reduce3 passes a barrier per tree step and reduce4
// unrolls the last warp. The checks that read no trace (launches, grid, timing, sums) are judged on runs made here.
// And the worker process's time limit (app/worker.hpp), with /bin/sh as the child.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>
#include <nlohmann/json.hpp>

#include "exercises.hpp"
#include "session.hpp"
#include "user_kernel.hpp"
#include "worker.hpp"

namespace rs {
namespace {

const Session& tracks() {
  static const Session s = load_session(RS_TRACKS_SESSION_FILE);
  return s;
}

// A run at the session's N with the features of `kernel`'s trace at block size `bs`.
ExerciseRun traced_run(const std::string& kernel, unsigned bs) {
  const Trace* t = tracks().find_trace(kernel, bs);
  EXPECT_NE(t, nullptr) << kernel << " @" << bs;
  ExerciseRun r;
  r.n = t->meta.n;
  r.block_size = bs;
  r.right = true;
  r.launches = 3;
  r.grid = t->meta.grid_size;
  r.features = features_of(Replay(*t));
  return r;
}

ExerciseEvidence evidence(const std::string& kernel, std::vector<unsigned> sizes = {64, 256, 1024}) {
  ExerciseEvidence e;
  for (unsigned bs : sizes) e.runs.push_back(traced_run(kernel, bs));
  return e;
}

ExerciseCheck own_check(const std::vector<ExerciseCheck>& checks, size_t i = 1) {
  EXPECT_GT(checks.size(), i);
  return checks.at(i);
}

TEST(Exercises, TableNamesAndStartingFiles) {
  ASSERT_GE(exercises().size(), 6u);
  for (const Exercise& x : exercises()) {
    EXPECT_EQ(find_exercise(x.name), &x);
    ASSERT_NE(exercise_starting_file(x.name), nullptr) << x.name;
    EXPECT_NE(std::string(exercise_starting_file(x.name)).find("--exercise " + std::string(x.name)), std::string::npos)
        << x.name << "'s starting file names its check command";
    EXPECT_NE(std::string(x.title), "");
    EXPECT_FALSE(x.ns.empty());
  }
  EXPECT_EQ(find_exercise("nope"), nullptr);
  EXPECT_NE(exercise_names().find("single_pass"), std::string::npos);
}

TEST(Exercises, BankConflictsFromTheH100Traces) {
  const Exercise& x = *find_exercise("bank_conflicts");
  const auto start = judge_exercise(x, evidence("reduce1"));
  EXPECT_TRUE(start[0].pass);  // sums right
  const ExerciseCheck c = own_check(start);
  EXPECT_FALSE(c.pass);
  EXPECT_NE(english(c.figure).find("B = 64"), std::string::npos) << english(c.figure);  // the first size where it fails
  EXPECT_NE(english(c.figure).find("bank conflicts"), std::string::npos) << english(c.figure);
  EXPECT_NE(english(c.figure).find("-way at line"), std::string::npos) << english(c.figure);
  EXPECT_FALSE(english(c.hint).empty());
  const ExerciseCheck s = own_check(judge_exercise(x, evidence("reduce2")));
  EXPECT_TRUE(s.pass) << english(s.figure);
  EXPECT_NE(english(s.figure).find("0 bank conflicts in 3 traces"), std::string::npos) << english(s.figure);
}

TEST(Exercises, DivergenceFromTheH100Traces) {
  const Exercise& x = *find_exercise("divergence");
  const ExerciseCheck c = own_check(judge_exercise(x, evidence("reduce0")));
  EXPECT_FALSE(c.pass);
  EXPECT_NE(english(c.figure).find("2 of 2 warps ran with some lanes idle"), std::string::npos) << english(c.figure);  // B = 64
  const ExerciseCheck s = own_check(judge_exercise(x, evidence("reduce1")));
  EXPECT_TRUE(s.pass) << english(s.figure);
  // One warp cannot show divergence across warps: block size 32 alone leaves nothing to judge.
  EXPECT_FALSE(own_check(judge_exercise(x, evidence("reduce0", {32}))).pass);
  EXPECT_NE(english(own_check(judge_exercise(x, evidence("reduce0", {32}))).figure).find("no trace"), std::string::npos);
}

TEST(Exercises, UnrollTheLastWarpFromTheH100Traces) {
  const Exercise& x = *find_exercise("unroll_last_warp");
  const ExerciseCheck c = own_check(judge_exercise(x, evidence("reduce3")));
  EXPECT_FALSE(c.pass);
  // reduce3 at 64 threads: the load's barrier and one per s = 32 ... 1 (7); unrolled, at most log2(64) - 5 = 1.
  EXPECT_NE(english(c.figure).find("thread 0 passed 7 __syncthreads(); with the last warp unrolled it passes at most 1"),
            std::string::npos)
      << english(c.figure);
  EXPECT_TRUE(own_check(judge_exercise(x, evidence("reduce4"))).pass);
}

TEST(Exercises, ShuffleFromTheH100Traces) {
  const Exercise& x = *find_exercise("shuffle");
  const ExerciseCheck c = own_check(judge_exercise(x, evidence("reduce3")));
  EXPECT_FALSE(c.pass);
  EXPECT_NE(english(c.figure).find("warp 0 made 0 shuffles and no warp reduce"), std::string::npos) << english(c.figure);
  // The lecture's sum_shuffle is the exercise's solution (with __shfl_xor_sync and an atomicAdd at the end).
  const ExerciseCheck l = own_check(judge_exercise(x, evidence("sum_shuffle")));
  EXPECT_TRUE(l.pass) << english(l.figure);
  // The modern track's shuffle_block shuffles in every warp, then writes each warp's sum to shared memory for
  // warp 0 to add: NVIDIA's blockReduceSum, a right answer (issue 40: it was failed for its shared memory after
  // the first shuffle). One value per warp crosses shared memory.
  const ExerciseCheck m = own_check(judge_exercise(x, evidence("shuffle_block")));
  EXPECT_TRUE(m.pass) << english(m.figure);
  // __reduce_add_sync finishes a warp in registers in one instruction.
  const ExerciseCheck a = own_check(judge_exercise(x, evidence("reduce_add_sync")));
  EXPECT_TRUE(a.pass) << english(a.figure);
  // One traced run at N = 4097 with the given features, judged.
  auto judged = [&](unsigned block_size, const TraceFeatures& f) {
    ExerciseEvidence ev;
    ExerciseRun r;
    r.n = 4097;
    r.block_size = block_size;
    r.right = true;
    r.features = f;
    ev.runs.push_back(r);
    return own_check(judge_exercise(x, ev));
  };
  // A binary trace sees no REDUX: where the PTX was not read, no shuffle there is said as not seen, not as no warp
  // reduce.
  TraceFeatures binary;
  binary.binary = true;
  const ExerciseCheck c3 = judged(32, binary);
  EXPECT_FALSE(c3.pass);
  EXPECT_NE(english(c3.figure).find("does not see warp reduces"), std::string::npos) << english(c3.figure);
  EXPECT_EQ(english(c3.figure).find("no warp reduce"), std::string::npos) << english(c3.figure);
  // Issue 57, item 5: the same trace of a kernel whose PTX was read and has no redux.sync (a bank-conflict solution
  // checked as the shuffle exercise): said plainly, no shuffle and no warp reduce, without the hedge.
  // One traced run at N = 4097 and 32 threads of `f`, with what the PTX said.
  auto judged_ptx = [&](const TraceFeatures& f, bool ptx_read, bool redux) {
    ExerciseEvidence ev;
    ExerciseRun r;
    r.n = 4097;
    r.block_size = 32;
    r.right = true;
    r.features = f;
    ev.runs.push_back(r);
    ev.ptx_read = ptx_read;
    ev.redux_in_ptx = redux;
    return own_check(judge_exercise(x, ev));
  };
  {
    const ExerciseCheck c5 = judged_ptx(binary, true, false);
    EXPECT_FALSE(c5.pass);
    EXPECT_NE(english(c5.figure).find("warp 0 made 0 shuffles and no warp reduce (the kernel's PTX has no redux.sync"),
              std::string::npos)
        << english(c5.figure);
    EXPECT_EQ(english(c5.figure).find("does not see"), std::string::npos) << english(c5.figure);
  }
  // The same trace of a kernel whose PTX has redux.sync (cg::reduce, CUB on integers): a right answer, passed, and
  // what was not traced said (issue 40: the CUDA programming guide's cg::reduce was failed).
  {
    const ExerciseCheck c4 = judged_ptx(binary, true, true);
    EXPECT_TRUE(c4.pass) << english(c4.figure);
    EXPECT_NE(english(c4.figure).find("does not record REDUX, so what shared memory carries after it was not traced"),
              std::string::npos)
        << english(c4.figure);
  }
  // Wrong: shuffles, then every lane's value back into shared memory for a shared-memory tree.
  TraceFeatures tree;
  tree.warps = 4;
  tree.warp0_shuffles = 5;
  tree.wide_stores_after_lane_op = 4;
  tree.wide_store_line = 42;
  const ExerciseCheck c2 = judged(128, tree);
  EXPECT_FALSE(c2.pass);
  EXPECT_NE(english(c2.figure).find("at once, 4 times (first at line 42)"), std::string::npos) << english(c2.figure);
  // What the solution does: five shuffles, nothing shared after the first.
  TraceFeatures solution;
  solution.warp0_shuffles = 5;
  EXPECT_TRUE(judged(128, solution).pass);
}

TEST(Exercises, FirstAddGridAndTiming) {
  const Exercise& x = *find_exercise("first_add");
  ExerciseEvidence e;
  ExerciseRun r;
  r.n = 1000003;
  r.block_size = 256;
  r.right = true;
  r.grid = 3907;  // one element per thread: ceil(1000003 / 256)
  e.runs.push_back(r);
  e.user_ms = 0.0899;
  e.reference_ms = 0.0899;
  e.timing_n = 1u << 24;
  e.timing_block_size = 256;
  auto checks = judge_exercise(x, e);
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_FALSE(checks[1].pass);
  EXPECT_NE(english(checks[1].figure).find("N = 1000003, B = 256: the first launch has 3907 blocks; half would be 1954"),
            std::string::npos)
      << english(checks[1].figure);
  EXPECT_FALSE(checks[2].pass);
  EXPECT_NE(english(checks[2].figure).find("1.00x"), std::string::npos) << english(checks[2].figure);
  e.runs[0].grid = 1954;
  e.user_ms = 0.0555;  // reduce3 against reduce2 on the H100 (docs/gpu-results.md): 1.62x
  checks = judge_exercise(x, e);
  EXPECT_TRUE(checks[1].pass) << english(checks[1].figure);
  EXPECT_TRUE(checks[2].pass) << english(checks[2].figure);
  EXPECT_NE(english(checks[2].figure).find("1.62x"), std::string::npos) << english(checks[2].figure);
  e.user_ms = 0;  // not timed: not passed
  EXPECT_FALSE(judge_exercise(x, e)[2].pass);
}

// The exercise histogram: every bin right (the first wrong bin named), the shared-memory atomics, and the timing
// against histo_basic with its 10x bar.
TEST(Exercises, HistogramBinsPrivatisedAndTimed) {
  const Exercise& x = *find_exercise("histogram");
  EXPECT_STREQ(x.reference_kernel, "histo_basic");
  EXPECT_EQ(x.min_speedup, 10.0);
  // Odd sizes among the sizes checked (a byte count that is no multiple of a block).
  EXPECT_TRUE(std::any_of(x.ns.begin(), x.ns.end(), [](uint64_t n) { return n % 2 == 1 && n > 1; }));
  ExerciseEvidence e;
  for (uint64_t n : {1ull, 33ull, 4097ull}) {
    ExerciseRun r;
    r.n = n;
    r.block_size = 256;
    r.right = true;
    r.launches = 1;
    e.runs.push_back(r);
  }
  e.runs[2].right = false;
  e.runs[2].got = "bin 1 (e-h): 311";
  e.runs[2].expected = "312";
  e.shared_atomics = false;
  e.timing_n = uint64_t{1} << 26;
  e.timing_block_size = 256;
  e.user_ms = 10.7;  // histo_basic's own time against itself: 1.00x
  e.reference_ms = 10.7;
  auto checks = judge_exercise(x, e);
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_FALSE(checks[0].pass);
  EXPECT_NE(english(checks[0].figure).find("1 of 3 histograms wrong; first at N = 4097, B = 256: bin 1 (e-h): 311, expected 312"),
            std::string::npos)
      << english(checks[0].figure);
  EXPECT_FALSE(english(checks[0].hint).empty());
  EXPECT_FALSE(checks[1].pass);
  EXPECT_FALSE(english(checks[1].hint).empty());
  EXPECT_FALSE(checks[2].pass);
  EXPECT_NE(english(checks[2].figure).find("1.00x"), std::string::npos) << english(checks[2].figure);
  // Fixed: every bin right, atomics in shared memory, histo_private's 89x of docs/tracks.md.
  e.runs[2].right = true;
  e.shared_atomics = true;
  e.user_ms = 0.12;
  checks = judge_exercise(x, e);
  for (const ExerciseCheck& c : checks) EXPECT_TRUE(c.pass) << english(c.name) << ": " << english(c.figure);
  EXPECT_NE(english(checks[0].figure).find("all 7 bins equal the CPU's in all 3 runs"), std::string::npos) << english(checks[0].figure);
  EXPECT_NE(english(checks[2].figure).find("89.17x"), std::string::npos) << english(checks[2].figure);
  e.user_ms = 1.2;  // 8.9x: under the bar
  EXPECT_FALSE(judge_exercise(x, e)[2].pass);
}

// Right runs of a single-pass exercise at N = 1, 33 and 1000003, `launches(n)` launches each.
template <class Launches>
ExerciseEvidence single_pass_runs(unsigned block_size, Launches launches) {
  ExerciseEvidence e;
  for (uint64_t n : {1ull, 33ull, 1000003ull}) {
    ExerciseRun r;
    r.n = n;
    r.block_size = block_size;
    r.right = true;
    r.launches = launches(n);
    e.runs.push_back(r);
  }
  return e;
}

TEST(Exercises, SinglePassAndSums) {
  const Exercise& x = *find_exercise("single_pass");
  ExerciseEvidence e = single_pass_runs(128, [](uint64_t n) { return n > 128 ? 3u : 1u; });
  auto checks = judge_exercise(x, e);
  EXPECT_TRUE(checks[0].pass);
  EXPECT_FALSE(checks[1].pass);
  EXPECT_NE(english(checks[1].figure).find("N = 1000003, B = 128: 3 launches"), std::string::npos) << english(checks[1].figure);
  for (auto& r : e.runs) r.launches = 1;
  e.runs[1].right = false;
  e.runs[1].got = "7";
  e.runs[1].expected = "8";
  checks = judge_exercise(x, e);
  EXPECT_TRUE(checks[1].pass);
  EXPECT_NE(english(checks[1].figure).find("N = 1, 33, 1000003"), std::string::npos) << english(checks[1].figure);
  EXPECT_FALSE(checks[0].pass);
  EXPECT_NE(english(checks[0].figure).find("1 of 3 sums wrong; first at N = 33, B = 128, int32: got 7, expected 8"),
            std::string::npos)
      << english(checks[0].figure);
  EXPECT_FALSE(judge_exercise(x, ExerciseEvidence{})[0].pass);  // nothing ran: nothing passes
}

// Issue 29: a single-pass kernel that never sets its ticket counter back to 0 used to pass (its previous run's
// right sum stayed in out[0]). The result word is now poisoned before each run and the counter read after it.
TEST(Exercises, SinglePassTicketCounterReset) {
  const Exercise& x = *find_exercise("single_pass");
  ExerciseEvidence e = single_pass_runs(256, [](uint64_t) { return 1u; });
  for (auto& r : e.runs) r.ticket_after = 0u;
  auto checks = judge_exercise(x, e);
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_EQ(english(checks[2].name), "ticket counter reset");
  EXPECT_TRUE(checks[2].pass) << english(checks[2].figure);
  EXPECT_NE(english(checks[2].figure).find("all 3 runs"), std::string::npos) << english(checks[2].figure);
  e.runs[1].ticket_after = 7u;  // the second run left the counter at its grid size
  e.runs[2].right = false;      // and the third run found its tickets past the last: out[0] kept the poison
  checks = judge_exercise(x, e);
  EXPECT_FALSE(checks[2].pass);
  EXPECT_NE(english(checks[2].figure).find("N = 33, B = 256: the counter out[1] is 7 after the run, not 0"), std::string::npos)
      << english(checks[2].figure);
  EXPECT_NE(english(checks[2].hint).find("set out[1] back to 0"), std::string::npos) << english(checks[2].hint);
  EXPECT_FALSE(checks[0].pass);
  for (auto& r : e.runs) r.ticket_after.reset();  // not a single-pass kernel's runs: no such check
  EXPECT_EQ(judge_exercise(x, e).size(), 2u);
}

TEST(Exercises, JsonForAGrader) {
  const Exercise& x = *find_exercise("bank_conflicts");
  const auto checks = judge_exercise(x, evidence("reduce1", {256}));
  const nlohmann::json j = nlohmann::json::parse(exercise_json(x, "k.cu", checks));
  EXPECT_EQ(j["exercise"], "bank_conflicts");
  EXPECT_EQ(j["file"], "k.cu");
  EXPECT_EQ(j["passed"], false);
  ASSERT_EQ(j["checks"].size(), checks.size());
  EXPECT_EQ(j["checks"][1]["name"], "no bank conflicts");
  EXPECT_EQ(j["checks"][1]["pass"], false);
  EXPECT_EQ(j["checks"][0]["pass"], true);
  const auto solved = judge_exercise(x, evidence("reduce2", {256}));
  EXPECT_EQ(nlohmann::json::parse(exercise_json(x, "k.cu", solved))["passed"], true);
}

// The reference solution of bank_conflicts, recorded on the H100 with `record --kernel-file --block-size all`
// (tests/fixtures/yours-h100.rssession): its traces pass the check they were written for.
TEST(Exercises, TheSolutionsH100TracesPass) {
  const Session s = load_session(RS_YOURS_FIXTURE);
  ASSERT_EQ(s.traces.size(), 6u);
  ExerciseEvidence e;
  for (const Trace& t : s.traces) {
    EXPECT_EQ(t.meta.track, "yours");
    EXPECT_EQ(t.meta.kernel, "bank_conflicts");
    EXPECT_NE(t.source.find("template <class T, class Probe>\n__global__ void user_kernel"), std::string::npos);
    ExerciseRun r;
    r.n = t.meta.n;
    r.block_size = t.meta.block_size;
    r.right = true;
    r.features = features_of(Replay(t));
    e.runs.push_back(r);
  }
  const auto checks = judge_exercise(*find_exercise("bank_conflicts"), e);
  EXPECT_TRUE(checks[1].pass) << english(checks[1].figure);
  EXPECT_NE(english(checks[1].figure).find("0 bank conflicts in 6 traces"), std::string::npos) << english(checks[1].figure);
  EXPECT_TRUE(judge_exercise(*find_exercise("divergence"), e)[1].pass);  // sequential addressing: no divergence either
}

// ---- the worker process (app/worker.hpp) -----------------------------------------------------------------------

TEST(Worker, StopsAChildWhoseGpuWorkOutlivesTheLimit) {
  const auto t0 = std::chrono::steady_clock::now();
  WorkerOptions o;
  o.timeout_s = 0.3;
  // '1' on the busy pipe: GPU work started and never ends.
  const WorkerResult r = run_worker("/bin/bash", {"-c", "printf 1 >&100; sleep 30"}, o);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.end, WorkerEnd::TimedOut);
  EXPECT_GE(r.busy_s, 0.3);
  EXPECT_LT(s, 20.0);  // long before the child's own 30 s
  const std::string m = worker_end_message(r, "k.cu", 0.3);
  EXPECT_NE(m.find("still running after 0.3 s"), std::string::npos) << m;
  EXPECT_NE(m.find("__syncthreads()"), std::string::npos) << m;
  EXPECT_NE(m.find("--kernel-timeout"), std::string::npos) << m;
}

TEST(Worker, IdleTimeDoesNotCountAndOutputComesThrough) {
  WorkerOptions o;
  o.timeout_s = 0.2;
  std::string out, err;
  o.out = [&](const std::string& s) { out += s; };
  o.err = [&](const std::string& s) { err += s; };
  // Busy for a moment, then idle for longer than the limit (the CPU's part: compiling, the CPU reference).
  const WorkerResult r =
      run_worker("/bin/bash", {"-c", "printf 1 >&100; printf 0 >&100; sleep 0.5; echo out; echo err >&2; exit 3"}, o);
  EXPECT_EQ(r.end, WorkerEnd::Exited);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(out, "out\n");
  EXPECT_EQ(err, "err\n");
  EXPECT_EQ(worker_end_message(r, "k.cu", 0.2), "");
}

TEST(Worker, ACrashAndACancelAreReported) {
  WorkerOptions o;
  const WorkerResult crash = run_worker("/bin/sh", {"-c", "kill -SEGV $$"}, o);
  EXPECT_EQ(crash.end, WorkerEnd::Signaled);
  EXPECT_EQ(crash.signal, 11);
  EXPECT_NE(worker_end_message(crash, "k.cu", 5).find("signal 11"), std::string::npos);
  int polls = 0;
  o.cancel = [&] { return ++polls > 3; };
  EXPECT_EQ(run_worker("/bin/sh", {"-c", "sleep 30"}, o).end, WorkerEnd::Cancelled);
  const WorkerResult none = run_worker("/nonexistent/reducescope", {}, o);
  EXPECT_EQ(none.end, WorkerEnd::NotStarted);
  EXPECT_NE(none.message.find("/nonexistent/reducescope"), std::string::npos);
}

// The process tree of a stopped worker (issue 54): worker_stub (tests/tools/worker_stub.cpp) stands for a kernel that
// hangs, started the way the binary tracer's traced run starts its own worker, in a process group of its own.
class WorkerTree : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/rs-worker-tree-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    for (int p : {pid("nest"), pid("hang")}) {
      if (p > 0) ::kill(p, SIGKILL);  // whatever a failed test left running
    }
    std::filesystem::remove_all(dir_);
  }
  // The pid a stub wrote (0 before it has).
  int pid(const std::string& mode) const {
    std::ifstream f(dir_ + "/" + mode + ".pid");
    int p = 0;
    f >> p;
    return p;
  }
  // Waits up to `s` seconds for the stub `mode` to have written its pid.
  int wait_pid(const std::string& mode, double s = 20) const {
    const auto t0 = std::chrono::steady_clock::now();
    while (pid(mode) == 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < s) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return pid(mode);
  }
  std::string dir_;
};

TEST_F(WorkerTree, ATimedOutWorkersNestedWorkerIsGoneWhenRunWorkerReturns) {
  WorkerOptions o;
  o.timeout_s = 0.5;  // the nest stub says "busy" once its own worker has started: its tree is stopped 0.5 s later
  const WorkerResult r = run_worker(RS_WORKER_STUB, {"nest", dir_}, o);
  ASSERT_EQ(r.end, WorkerEnd::TimedOut);
  const int nest = pid("nest"), hang = pid("hang");
  ASSERT_GT(nest, 0);
  ASSERT_GT(hang, 0);
  EXPECT_NE(getpgid(hang), getpgid(0)) << "the nested worker should sit in a group of its own, as the real one does";
  // Gone when run_worker returned: not killed later by someone else. A group-only SIGKILL left the hang stub running.
  EXPECT_TRUE(process_gone(nest));
  EXPECT_TRUE(process_gone(hang)) << "the nested worker (pid " << hang << ") outlived the stop";
  EXPECT_GE(r.gone_s, 0);
  EXPECT_NE(std::find(r.stopped.begin(), r.stopped.end(), hang), r.stopped.end());
}

TEST_F(WorkerTree, ACancelledWorkersNestedWorkerIsGoneWhenRunWorkerReturns) {
  WorkerOptions o;
  o.timeout_s = 3600;
  o.cancel = [&] { return pid("hang") > 0; };  // the window's newer save, once the kernel hangs
  const WorkerResult r = run_worker(RS_WORKER_STUB, {"nest", dir_}, o);
  ASSERT_EQ(r.end, WorkerEnd::Cancelled);
  ASSERT_GT(pid("hang"), 0);
  EXPECT_TRUE(process_gone(pid("nest")));
  EXPECT_TRUE(process_gone(pid("hang"))) << "the nested worker outlived the cancel";
}

TEST_F(WorkerTree, AWorkerDiesWithItsParentEvenAKilledOne) {
  // The window (or `check`) killed with SIGKILL: nothing of it runs run_worker's stop. Here the nest stub is that
  // parent: killed alone, its worker (in a group of its own) must go with it.
  WorkerResult r;
  std::thread t([&] {
    WorkerOptions o;
    o.timeout_s = 3600;
    r = run_worker(RS_WORKER_STUB, {"nest", dir_}, o);
  });
  const int hang = wait_pid("hang"), nest = pid("nest");
  ASSERT_GT(hang, 0);
  ASSERT_GT(nest, 0);
  ::kill(nest, SIGKILL);
  t.join();  // run_worker returns once the nest stub is reaped
  EXPECT_EQ(r.end, WorkerEnd::Signaled);
  EXPECT_GE(wait_until_gone({hang}, 10.0), 0) << "the nested worker (pid " << hang << ") outlived its parent";
}

TEST(Worker, ProcessDescendantsFindsGrandchildren) {
  // bash -> a subshell -> sleep: the tree walk (/proc) sees both levels. The subshell says "started" once it has
  // started sleep, so all three exist when the cancel comes.
  WorkerOptions o;
  o.timeout_s = 3600;
  std::string out;
  o.out = [&](const std::string& s) { out += s; };
  o.cancel = [&] { return out.find('\n') != std::string::npos; };
  const WorkerResult r = run_worker("/bin/bash", {"-c", "( sleep 30 & echo started; wait ) & wait"}, o);
  EXPECT_EQ(r.end, WorkerEnd::Cancelled);
  EXPECT_GE(r.stopped.size(), 3u) << "bash, its subshell and sleep";
  for (int p : r.stopped) EXPECT_TRUE(process_gone(p)) << p;
}

TEST(Worker, ACompilingWorkersMallocAsksForHugePagesUnlessTheUserChose) {
  EXPECT_EQ(malloc_hugetlb_tunables(nullptr), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(malloc_hugetlb_tunables(""), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(malloc_hugetlb_tunables("glibc.malloc.check=3"), "glibc.malloc.check=3:glibc.malloc.hugetlb=1");
  EXPECT_EQ(malloc_hugetlb_tunables("glibc.malloc.hugetlb=0"), "glibc.malloc.hugetlb=0");  // the user's own
  EXPECT_EQ(malloc_hugetlb_tunables("glibc.malloc.check=3", true), "glibc.malloc.check=3");
  EXPECT_EQ(malloc_hugetlb_tunables(nullptr, true), "");
  // What the child sees: the entry reaches its environment, over this process's GLIBC_TUNABLES. The two variables
  // are put back as they were at the end, for the tests after this one.
  const auto saved = [](const char* name) {
    const char* v = std::getenv(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  const std::optional<std::string> tunables = saved("GLIBC_TUNABLES"), huge = saved("REDUCESCOPE_HUGEPAGES");
  ::setenv("GLIBC_TUNABLES", "glibc.malloc.check=0", 1);
  ::unsetenv("REDUCESCOPE_HUGEPAGES");
  WorkerOptions o;
  o.env = compiling_worker_env();
  std::string out;
  o.out = [&](const std::string& s) { out += s; };
  EXPECT_EQ(run_worker("/bin/sh", {"-c", "printf %s \"$GLIBC_TUNABLES\""}, o).exit_code, 0);
  EXPECT_EQ(out, "glibc.malloc.check=0:glibc.malloc.hugetlb=1");
  ::setenv("REDUCESCOPE_HUGEPAGES", "0", 1);
  ::unsetenv("GLIBC_TUNABLES");
  EXPECT_TRUE(compiling_worker_env().empty());
  const auto restore = [](const char* name, const std::optional<std::string>& v) {
    v ? ::setenv(name, v->c_str(), 1) : ::unsetenv(name);
  };
  restore("GLIBC_TUNABLES", tunables);
  restore("REDUCESCOPE_HUGEPAGES", huge);
}

}  // namespace
}  // namespace rs
