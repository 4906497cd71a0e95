// Command-line parsing (parse_cli, parse_count, help_text), the kernel table's block-size rules
// and the CPU-side input and reference sum. No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <limits>
#include <cstdint>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "cli.hpp"
#include "input.hpp"
#include "kernel_info.hpp"
#include "commands.hpp"
#include "ncu_metrics.hpp"
#include "replay.hpp"
#include "trace_io.hpp"
#include "test_util.hpp"

namespace rs {
namespace {

using test::Args;
using test::usage_error;

std::string count_error(const std::string& s) {
  try {
    uint64_t n = parse_count(s, "--n");
    ADD_FAILURE() << "parse_count('" << s << "') returned " << n << " instead of throwing";
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

// Every kernel `bench` runs by default: all but the histograms (`reducescope histogram` runs those) and
// the pitfalls (wrong code, by name only).
std::vector<KernelId> all_kernels() {
  std::vector<KernelId> v;
  for (const auto& k : kernel_table()) {
    if (k.op != ReduceOp::Histogram && !k.pitfall) v.push_back(k.id);
  }
  return v;
}

// ---- bench ---------------------------------------------------------------------------------

TEST(ParseCli, BenchDefaults) {
  Options o = parse_cli({"bench"});
  EXPECT_EQ(o.command, Command::Bench);
  ASSERT_EQ(o.kernels.size(), 38u);  // harris (7) + lecture (8) + book (9) + course (6) + modern (8)
  EXPECT_EQ(o.kernels, all_kernels());
  EXPECT_EQ(o.kernels.front(), KernelId::reduce0);
  EXPECT_EQ(o.kernels[6], KernelId::reduce6);
  EXPECT_EQ(std::string(kernel_info(o.kernels[14]).name), "sum_two_step");
  EXPECT_EQ(std::string(kernel_info(o.kernels.back()).name), "reproducible_sum");
  EXPECT_EQ(o.tracks, (std::vector<std::string>{"harris", "lecture", "book", "course", "modern"}));
  EXPECT_TRUE(o.block_sizes.empty());  // each track's own block size
  EXPECT_TRUE(o.dtypes.empty());       // every type a kernel takes
  EXPECT_FALSE(o.block_sizes_all);
  EXPECT_EQ(o.n, uint64_t{1} << 24);
  EXPECT_EQ(o.samples, 30);
  EXPECT_EQ(o.pattern, Pattern::RandomBytes);
  EXPECT_TRUE(o.csv.empty());
}

TEST(ParseCli, BenchAllKernelsAllBlockSizes) {
  Options o = parse_cli({"bench", "--kernel", "all", "--block-size", "all"});
  EXPECT_EQ(o.command, Command::Bench);
  EXPECT_EQ(o.kernels, all_kernels());
  EXPECT_EQ(o.block_sizes, (std::vector<unsigned>{32, 64, 128, 256, 512, 1024}));
  EXPECT_TRUE(o.block_sizes_all);
}

TEST(ParseCli, BenchTrack) {
  Options o = parse_cli({"bench", "--track", "lecture", "--n", "2^24"});
  EXPECT_EQ(o.tracks, std::vector<std::string>{"lecture"});
  EXPECT_EQ(o.kernels, track_kernels("lecture"));
  ASSERT_EQ(o.kernels.size(), 8u);
  EXPECT_EQ(std::string(kernel_info(o.kernels.front()).name), "sum_atomic");
  Options all = parse_cli({"bench", "--track", "all", "--kernel", "all"});
  EXPECT_EQ(all.kernels, all_kernels());
  Options h = parse_cli({"bench", "--track", "harris", "--type", "int32"});
  EXPECT_EQ(h.kernels.size(), 7u);
  EXPECT_EQ(h.dtypes, std::vector<DType>{DType::Int32});
  EXPECT_TRUE(contains(usage_error({"bench", "--track", "nope"}), "unknown track 'nope'"));
  EXPECT_TRUE(contains(usage_error({"bench", "--track", "nope"}), "harris, lecture, book"));
  EXPECT_TRUE(contains(usage_error({"bench", "--type", "int64"}), "int32, float32, all"));
  // A kernel of another track, and a type the kernel does not take.
  EXPECT_TRUE(contains(usage_error({"bench", "--track", "harris", "--kernel", "sum_shuffle"}),
                       "belongs to the track lecture"));
  EXPECT_TRUE(contains(usage_error({"run", "--kernel", "reduce2", "--block-size", "64", "--type", "float32"}),
                       "reduce2 reduces int32 only"));
}

// The multigpu track (issue 21): bench and record only; --gpus, --sizes and --timeout belong to it.
TEST(ParseCli, MultiGpuTrack) {
  Options b = parse_cli({"bench", "--track", "multigpu"});
  EXPECT_EQ(b.tracks, std::vector<std::string>{"multigpu"});
  EXPECT_TRUE(b.kernels.empty());
  EXPECT_EQ(b.gpus, 0u);
  EXPECT_TRUE(b.mg_sizes.empty());
  EXPECT_EQ(b.timeout_s, 60);
  Options r = parse_cli({"record", "--track", "multigpu", "--out", "s.rssession", "--gpus", "2", "--sizes",
                         "4KiB,1M,2^20,4096,1GiB", "--timeout", "5"});
  EXPECT_EQ(r.gpus, 2u);
  EXPECT_EQ(r.mg_sizes, (std::vector<uint64_t>{4096, 1u << 20, 1u << 20, 4096, 1u << 30}));
  EXPECT_EQ(r.timeout_s, 5);
  EXPECT_TRUE(contains(usage_error({"trace", "--track", "multigpu", "--block-size", "256"}), "no kernels to trace"));
  EXPECT_TRUE(contains(usage_error({"record", "--track", "multigpu"}), "--out"));
  EXPECT_TRUE(contains(usage_error({"bench", "--track", "multigpu", "--kernel", "reduce0"}), "not a kernel"));
  EXPECT_TRUE(contains(usage_error({"bench", "--track", "multigpu", "--sizes", "4097"}), "multiple of 4"));
  EXPECT_TRUE(contains(usage_error({"bench", "--track", "multigpu", "--sizes", "4KiB,,8KiB"}), "not a size"));
  EXPECT_TRUE(contains(usage_error({"bench", "--track", "multigpu", "--gpus", "1"}), "at least 2"));
  EXPECT_TRUE(contains(usage_error({"bench", "--track", "multigpu", "--timeout", "0"}), "--timeout"));
  EXPECT_TRUE(contains(usage_error({"bench", "--gpus", "2"}), "belong to --track multigpu"));
  EXPECT_TRUE(contains(usage_error({"bench", "--track", "nope"}), "multigpu"));
  Options all = parse_cli({"bench", "--track", "all"});
  for (const std::string& t : all.tracks) EXPECT_NE(t, "multigpu") << "all means the one-GPU tracks";
  EXPECT_EQ(parse_cli({"--view", "multigpu"}).view, 5) << "the window's multigpu tab (TimingTab::MultiGpu)";
}

TEST(ParseBytes, UnitsAndErrors) {
  EXPECT_EQ(parse_bytes("4096", "--sizes"), 4096u);
  EXPECT_EQ(parse_bytes("4KiB", "--sizes"), 4096u);
  EXPECT_EQ(parse_bytes("4K", "--sizes"), 4096u);
  EXPECT_EQ(parse_bytes("256MiB", "--sizes"), uint64_t{256} << 20);
  EXPECT_EQ(parse_bytes("1G", "--sizes"), uint64_t{1} << 30);
  EXPECT_EQ(parse_bytes("2^30", "--sizes"), uint64_t{1} << 30);
  EXPECT_THROW(parse_bytes("0", "--sizes"), UsageError);
  EXPECT_THROW(parse_bytes("KiB", "--sizes"), UsageError);
  EXPECT_THROW(parse_bytes("2^41", "--sizes"), UsageError);
  EXPECT_THROW(parse_bytes("-4", "--sizes"), UsageError);
}

TEST(ParseCli, TraceAndRunTakeATrack) {
  Options t = parse_cli({"trace", "--track", "lecture", "--block-size", "256"});
  EXPECT_EQ(t.kernels, track_kernels("lecture"));
  Options r = parse_cli({"run", "--kernel", "sum_shuffle", "--block-size", "128", "--type", "float32"});
  EXPECT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.tracks, std::vector<std::string>{"lecture"});
  EXPECT_EQ(r.dtypes, std::vector<DType>{DType::Float32});
  Options rec = parse_cli({"record", "--out", "x.rssession", "--track", "harris"});
  Options book = parse_cli({"bench", "--track", "book", "--n", "2^24"});
  EXPECT_EQ(book.kernels.size(), 9u);
  EXPECT_EQ(rec.kernels.size(), 7u);
  EXPECT_TRUE(contains(usage_error({"trace", "--block-size", "256"}), "needs --kernel NAME or --track T"));
  EXPECT_TRUE(contains(usage_error({"show", "x", "--track", "harris"}), "not an option"));
}

TEST(ParseCli, BenchExplicitValues) {
  Options o = parse_cli({"bench", "--kernel", "reduce3", "--block-size", "128", "--n", "2^20", "--samples", "20",
                         "--pattern", "iota", "--csv", "out.csv"});
  EXPECT_EQ(o.kernels, std::vector<KernelId>{KernelId::reduce3});
  EXPECT_EQ(o.block_sizes, std::vector<unsigned>{128});
  EXPECT_EQ(o.n, uint64_t{1} << 20);
  EXPECT_EQ(o.samples, 20);
  EXPECT_EQ(o.pattern, Pattern::Iota);
  EXPECT_EQ(o.csv, "out.csv");
}

TEST(ParseCli, BenchBlockSizeAllAcceptsUnrolledKernel) {
  // reduce4 cannot take 32 threads, but with --block-size all the bench skips that pair itself.
  Options o = parse_cli({"bench", "--kernel", "reduce4", "--block-size", "all"});
  EXPECT_EQ(o.kernels, std::vector<KernelId>{KernelId::reduce4});
  EXPECT_TRUE(o.block_sizes_all);
}

// Issue 30: bench takes a list of block sizes, as export --html and pitfalls do; in a list, a size the kernel cannot
// take is skipped by the bench with its reason, as with --block-size all.
TEST(ParseCli, BenchTakesAListOfBlockSizes) {
  Options o = parse_cli({"bench", "--kernel", "reduce6", "--block-size", "128,256"});
  EXPECT_EQ(o.block_sizes, (std::vector<unsigned>{128, 256}));
  EXPECT_FALSE(o.block_sizes_all);
  Options p = parse_cli({"bench", "--kernel", "reduce4", "--block-size", "32,64"});
  EXPECT_EQ(p.block_sizes, (std::vector<unsigned>{32, 64}));
  EXPECT_TRUE(contains(usage_error({"bench", "--block-size", "128,7"}), "--block-size")) << "a bad size in the list";
  EXPECT_TRUE(contains(usage_error({"bench", "--block-size", "128,"}), "--block-size")) << "an empty size";
}

TEST(ParseCli, BenchSingleKernelImpossibleBlockSize) {
  std::string msg = usage_error({"bench", "--kernel", "reduce5", "--block-size", "32"});
  EXPECT_TRUE(contains(msg, "at least 64")) << msg;
}

TEST(ParseCli, BenchAllKernelsAt32IsAllowed) {
  // Several kernels: the impossible pairs are skipped by the bench, not rejected here.
  Options o = parse_cli({"bench", "--block-size", "32"});
  EXPECT_EQ(o.kernels.size(), kernel_table().size() - 9);  // every kernel but the 4 histograms and 5 pitfalls
  EXPECT_EQ(o.block_sizes, std::vector<unsigned>{32});
}

// ---- counts --------------------------------------------------------------------------------

TEST(ParseCount, DecimalAndPowerOfTwo) {
  EXPECT_EQ(parse_count("2^24", "--n"), 16777216u);
  EXPECT_EQ(parse_count("16777216", "--n"), 16777216u);
  EXPECT_EQ(parse_count("1", "--n"), 1u);
  EXPECT_EQ(parse_count("2^0", "--n"), 1u);
  EXPECT_EQ(parse_count("1000", "--n"), 1000u);
  EXPECT_EQ(parse_count("2^31", "--n"), uint64_t{1} << 31);
  EXPECT_EQ(parse_count("2147483648", "--n"), uint64_t{1} << 31);
}

TEST(ParseCount, Zero) {
  std::string msg = count_error("0");
  EXPECT_TRUE(contains(msg, "--n")) << msg;
  EXPECT_TRUE(contains(msg, "at least 1")) << msg;
}

TEST(ParseCount, MoreThan2To31) {
  EXPECT_TRUE(contains(count_error("2147483649"), "2^31"));
  EXPECT_TRUE(contains(count_error("2^32"), "2^31"));
  count_error("4294967296");
  count_error("99999999999999999999999");  // overflows uint64
}

TEST(ParseCount, NotANumber) {
  for (const char* s : {"", "abc", "12x", "-5", "+5", " 5", "1e6", "2^", "2^x", "2^-1", "2^24.0", "0x10", "3^4"}) {
    std::string msg = count_error(s);
    EXPECT_TRUE(contains(msg, "--n")) << "'" << s << "': " << msg;
  }
}

TEST(ParseCount, NameOfOptionInMessage) {
  try {
    parse_count("nope", "--elements");
    FAIL() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_TRUE(contains(e.what(), "--elements")) << e.what();
    EXPECT_TRUE(contains(e.what(), "nope")) << e.what();
  }
}

TEST(ParseCli, CountOption) {
  EXPECT_EQ(parse_cli({"bench", "--n", "2^24"}).n, uint64_t{1} << 24);
  EXPECT_EQ(parse_cli({"bench", "--n", "12345"}).n, 12345u);
  EXPECT_EQ(parse_cli({"trace", "--kernel", "reduce0", "--block-size", "64", "--n", "2^10"}).n, 1024u);
}

// ---- usage errors ----------------------------------------------------------------------------

TEST(ParseCli, CountErrors) {
  EXPECT_TRUE(contains(usage_error({"bench", "--n", "0"}), "at least 1"));
  EXPECT_TRUE(contains(usage_error({"bench", "--n", "3000000000"}), "2^31"));
  EXPECT_TRUE(contains(usage_error({"bench", "--n", "lots"}), "lots"));
}

TEST(ParseCli, BadBlockSizes) {
  for (const char* b : {"3", "48", "2048", "0", "16", "96", "1023"}) {
    std::string msg = usage_error({"bench", "--block-size", b});
    EXPECT_TRUE(contains(msg, "--block-size")) << b << ": " << msg;
    EXPECT_TRUE(contains(msg, std::string("block size ") + b)) << b << ": " << msg;
  }
  EXPECT_TRUE(contains(usage_error({"bench", "--block-size", "big"}), "not a number"));
  EXPECT_TRUE(contains(usage_error({"bench", "--block-size", "-64"}), "not a number"));
  // "all" is a bench-only value.
  usage_error({"trace", "--kernel", "reduce0", "--block-size", "all"});
}

TEST(ParseCli, UnknownKernel) {
  std::string msg = usage_error({"bench", "--kernel", "reduce7"});
  EXPECT_TRUE(contains(msg, "reduce7")) << msg;
  EXPECT_TRUE(contains(msg, "reduce0")) << "should list the kernels: " << msg;
  EXPECT_TRUE(contains(usage_error({"trace", "--kernel", "nope", "--block-size", "256"}), "nope"));
  // "all" is a bench-only value.
  usage_error({"trace", "--kernel", "all", "--block-size", "256"});
}

TEST(ParseCli, UnknownOption) {
  EXPECT_TRUE(contains(usage_error({"bench", "--frobnicate"}), "--frobnicate"));
  EXPECT_TRUE(contains(usage_error({"--frobnicate"}), "--frobnicate"));
  EXPECT_TRUE(contains(usage_error({"show", "-x", "file.rstrace"}), "-x"));
}

TEST(ParseCli, MissingValue) {
  for (const char* opt : {"--kernel", "--block-size", "--n", "--samples", "--pattern", "--csv"}) {
    std::string msg = usage_error({"bench", opt});
    EXPECT_TRUE(contains(msg, opt)) << msg;
    EXPECT_TRUE(contains(msg, "needs a value")) << msg;
  }
  EXPECT_TRUE(contains(usage_error({"trace", "--kernel", "reduce0", "--block-size", "64", "--out"}), "--out"));
}

TEST(ParseCli, Samples) {
  EXPECT_EQ(parse_cli({"bench", "--samples", "100"}).samples, 100);
  EXPECT_TRUE(contains(usage_error({"bench", "--samples", "5"}), "20"));
  usage_error({"bench", "--samples", "19"});
  usage_error({"bench", "--samples", "-30"});
  usage_error({"bench", "--samples", "x"});
  usage_error({"bench", "--samples", "100001"});
}

TEST(ParseCli, BadPattern) {
  EXPECT_TRUE(contains(usage_error({"bench", "--pattern", "zeros"}), "zeros"));
  EXPECT_EQ(parse_cli({"bench", "--pattern", "ones"}).pattern, Pattern::Ones);
}

TEST(ParseCli, OptionOfAnotherCommand) {
  std::string msg = usage_error({"show", "--csv", "x"});
  EXPECT_TRUE(contains(msg, "--csv")) << msg;
  EXPECT_TRUE(contains(msg, "show")) << msg;
  EXPECT_TRUE(contains(usage_error({"show", "f.rstrace", "--kernel", "reduce0"}), "--kernel"));
  EXPECT_TRUE(contains(usage_error({"bench", "--out", "x.rstrace"}), "--out"));
  EXPECT_TRUE(contains(usage_error({"bench", "--quiet"}), "--quiet"));
  EXPECT_TRUE(contains(usage_error({"trace", "--kernel", "reduce0", "--block-size", "64", "--csv", "x"}), "--csv"));
  EXPECT_TRUE(contains(usage_error({"trace", "--kernel", "reduce0", "--block-size", "64", "--samples", "30"}),
                       "--samples"));
  EXPECT_TRUE(contains(usage_error({"--samples", "30"}), "window"));
  EXPECT_TRUE(contains(usage_error({"bench", "--screenshot", "a.png"}), "--screenshot"));
}

TEST(ParseCli, TraceNeedsKernelAndBlockSize) {
  EXPECT_TRUE(contains(usage_error({"trace"}), "--kernel"));
  EXPECT_TRUE(contains(usage_error({"trace", "--block-size", "256"}), "--kernel"));
  EXPECT_TRUE(contains(usage_error({"trace", "--kernel", "reduce2"}), "--block-size"));
}

TEST(ParseCli, TraceUnrolledKernelNeeds64Threads) {
  for (const char* k : {"reduce4", "reduce5", "reduce6"}) {
    std::string msg = usage_error({"trace", "--kernel", k, "--block-size", "32"});
    EXPECT_TRUE(contains(msg, "at least 64")) << msg;
    EXPECT_TRUE(contains(msg, k)) << msg;
  }
  // The kernels before the unrolled ones take one warp.
  for (const char* k : {"reduce0", "reduce1", "reduce2", "reduce3"}) {
    Options o = parse_cli({"trace", "--kernel", k, "--block-size", "32"});
    EXPECT_EQ(o.block_sizes, std::vector<unsigned>{32});
  }
}

TEST(ParseCli, TraceOptions) {
  Options o = parse_cli({"trace", "--kernel", "reduce4", "--block-size", "64", "--block", "3", "--out", "t.rstrace",
                         "--quiet", "--pattern", "ones"});
  EXPECT_EQ(o.command, Command::Trace);
  EXPECT_EQ(o.kernels, std::vector<KernelId>{KernelId::reduce4});
  EXPECT_EQ(o.block_sizes, std::vector<unsigned>{64});
  EXPECT_EQ(o.traced_block, 3u);
  EXPECT_EQ(o.out, "t.rstrace");
  EXPECT_TRUE(o.quiet);
  EXPECT_EQ(o.pattern, Pattern::Ones);
  EXPECT_EQ(o.n, uint64_t{1} << 24);
  EXPECT_TRUE(contains(usage_error({"trace", "--kernel", "reduce4", "--block-size", "64", "--block", "-1"}),
                       "--block"));
}

TEST(ParseCli, Show) {
  Options o = parse_cli({"show", "a.rstrace"});
  EXPECT_EQ(o.command, Command::Show);
  EXPECT_EQ(o.file, "a.rstrace");
  EXPECT_TRUE(contains(usage_error({"show"}), "FILE"));
  EXPECT_TRUE(contains(usage_error({"show", "a.rstrace", "b.rstrace"}), "b.rstrace"));
}

TEST(ParseCli, Gui) {
  Options o = parse_cli({});
  EXPECT_EQ(o.command, Command::Gui);
  EXPECT_TRUE(o.file.empty());
  o = parse_cli({"t.rstrace", "--step", "4", "--frames", "2", "--screenshot", "s.png"});
  EXPECT_EQ(o.command, Command::Gui);
  EXPECT_EQ(o.file, "t.rstrace");
  EXPECT_EQ(o.step, 4);
  EXPECT_EQ(o.frames, 2);
  EXPECT_EQ(o.screenshot, "s.png");
  usage_error({"--frames", "0"});
  EXPECT_TRUE(contains(usage_error({"--kernel", "reduce6", "--block-size", "32"}), "at least 64"));
}

TEST(ParseCli, Version) { EXPECT_EQ(parse_cli({"--version"}).command, Command::Version); }

// ---- help ----------------------------------------------------------------------------------

TEST(ParseCli, HelpAnywhere) {
  struct Case {
    Args args;
    const char* topic;
  };
  const std::vector<Case> cases = {
      {{"--help"}, ""},
      {{"-h"}, ""},
      {{"bench", "--help"}, "bench"},
      {{"bench", "--n", "x", "--help"}, "bench"},          // wins over a bad value before it
      {{"bench", "--n", "0", "--samples", "-h"}, "bench"}, // even as an option's value
      {{"bench", "--csv", "--help"}, "bench"},
      {{"trace", "--help"}, "trace"},
      {{"trace", "--kernel", "reduce4", "--block-size", "32", "--help"}, "trace"},
      {{"show", "--help"}, "show"},
      {{"show", "-h"}, "show"},
      {{"t.rstrace", "--bogus", "--help"}, ""},
      {{"help"}, ""},
      {{"help", "trace"}, "trace"},
  };
  for (const auto& c : cases) {
    std::string joined;
    for (const auto& a : c.args) joined += " " + a;
    Options o;
    ASSERT_NO_THROW(o = parse_cli(c.args)) << joined;
    EXPECT_EQ(o.command, Command::Help) << joined;
    EXPECT_EQ(o.help_topic, c.topic) << joined;
  }
}

TEST(HelpText, Topics) {
  const std::string overview = help_text("");
  EXPECT_TRUE(contains(overview, "usage:"));
  for (const auto& k : kernel_table()) EXPECT_TRUE(contains(overview, k.name)) << k.name;
  EXPECT_TRUE(contains(overview, "Exit codes"));
  EXPECT_TRUE(contains(help_text("bench"), "usage: reducescope bench"));
  EXPECT_TRUE(contains(help_text("bench"), "--samples"));
  EXPECT_TRUE(contains(help_text("trace"), "usage: reducescope trace"));
  EXPECT_TRUE(contains(help_text("show"), "usage: reducescope show"));
  EXPECT_NE(help_text("bench"), overview);
  EXPECT_NE(help_text("trace"), help_text("show"));
}

// Issue 38, item 6: the overview names every track, the multigpu track and the ways to bring one's own kernel; a
// mistyped command is an unknown command with the nearest one, not a file the window cannot open.
TEST(HelpText, OverviewSaysWhatIsTrue) {
  const std::string overview = help_text("");
  for (const TrackInfo& t : track_table()) EXPECT_TRUE(contains(overview, std::string("  ") + t.id + " ")) << t.id;
  EXPECT_TRUE(contains(overview, "  multigpu "));
  EXPECT_FALSE(contains(overview, "track by track (Harris's\nreduce0..reduce6; the lecture's"));
  for (const char* form : {"-- PROGRAM ARGS", "--kernel-file FILE.cu", "reducescope new --from", "reducescope check FILE.cu",
                           "reducescope verify --binary"}) {
    EXPECT_TRUE(contains(overview, form)) << form;
  }
}

// Issue 38, item 3: a binary trace of a program's third launch, float32 from its parameters (recorded on an H200).
TEST(Cli, ShowNamesTheLaunchTracedAndItsType) {
  const Trace t = load_trace(std::string(RS_BINARY_FIXTURES) + "/block_max_float-launch3-h200.rstrace");
  const std::string summary = summarize_trace(t, Replay(t));
  EXPECT_NE(summary.find("(track yours, float32), block size 256, block 0 of 4096 in launch 3"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("result 122.625"), std::string::npos) << summary;
  EXPECT_NE(summary.find("note: Values are shown as float32, the type of the kernel's parameter float const*"),
            std::string::npos)
      << summary;
}

TEST(ParseCli, UnknownCommandNamesTheNearest) {
  for (const auto& [args, nearest] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"frobnicate"}, ""},
           {{"frobnicate", "--help"}, ""},
           {{"tarce", "--kernel", "reduce1"}, "'trace'"},
           {{"bnech"}, "'bench'"},
           {{"help", "shwo"}, "'show'"}}) {
    try {
      parse_cli(args);
      ADD_FAILURE() << args[0] << " parsed";
    } catch (const UsageError& e) {
      EXPECT_TRUE(contains(e.what(), "unknown command '" + (args[0] == "help" ? args[1] : args[0]) + "'")) << e.what();
      if (!nearest.empty()) {
        EXPECT_TRUE(contains(e.what(), "the nearest is " + nearest)) << e.what();
      }
    }
  }
  // A file that exists still opens in the window, whatever its name; a path or a name with a dot is a file.
  EXPECT_EQ(parse_cli({RS_SESSION_FILE}).command, Command::Gui);
  EXPECT_EQ(parse_cli({"missing.rssession"}).command, Command::Gui);
  EXPECT_EQ(parse_cli({"help", "bench"}).command, Command::Help);
}

// ---- kernel table, block sizes ---------------------------------------------------------------

TEST(KernelInfo, Table) {
  ASSERT_EQ(kernel_table().size(), 47u);
  for (size_t i = 0; i < kernel_table().size(); ++i) {
    const KernelInfo& k = kernel_table()[i];
    EXPECT_EQ(static_cast<size_t>(k.id), i);
    EXPECT_EQ(find_kernel(k.name), &k) << k.name;  // names are unique across tracks
    EXPECT_EQ(&kernel_info(k.id), &k);
    EXPECT_NE(find_track(k.track), nullptr) << k.name;
    EXPECT_GT(std::string(k.fixes).size(), 10u) << k.name;
    EXPECT_GT(std::string(k.costs).size(), 10u) << k.name;
    EXPECT_NE(k.dtypes, 0) << k.name;
    EXPECT_TRUE(k.inputs_per_thread == 1 || k.inputs_per_thread == 2 || k.inputs_per_thread == 4 ||
                k.inputs_per_thread == 8 || (k.op == ReduceOp::Farthest && k.inputs_per_thread == 6) ||
                (k.op == ReduceOp::Histogram && k.inputs_per_thread == 16))
        << k.name;
    // No dynamic shared memory: the histograms (their shared bins are sized by the bins), the float-atomic
    // pitfall, which adds in registers, and reproducible_sum (its limbs are a fixed __shared__ array).
    const bool no_smem = k.op == ReduceOp::Histogram || std::string(k.name) == "pitfall_float_atomic" ||
                         std::string(k.name) == "pitfall_float_saturation" || std::string(k.name) == "reproducible_sum";
    EXPECT_TRUE(k.smem_per_thread == 1 || k.smem_per_thread == 2 || (no_smem && k.smem_per_thread == 0)) << k.name;
    EXPECT_EQ(k.private_bins, std::string(k.name) == "histo_private") << k.name;
    // (A histogram's inputs are bytes: histo_warp loads 16 a trip; the limit counts the reductions' elements.)
    if (k.op != ReduceOp::Histogram) {
      EXPECT_LE(k.inputs_per_thread, kMaxElementsPerThread) << k.name;
    }
    if (k.min_block_size > 32) {
      EXPECT_GT(std::string(k.min_block_why).size(), 10u) << k.name;
    }
  }
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(std::string(kernel_table()[i].name), "reduce" + std::to_string(i));
    EXPECT_EQ(std::string(kernel_table()[i].track), "harris");
    EXPECT_EQ(kernel_table()[i].finish, Finish::Relaunch);
    EXPECT_FALSE(kernel_table()[i].takes(DType::Float32));
  }
  EXPECT_EQ(find_kernel("reduce7"), nullptr);
  EXPECT_EQ(find_kernel(""), nullptr);
  EXPECT_EQ(find_kernel("REDUCE0"), nullptr);
}

TEST(KernelInfo, Tracks) {
  ASSERT_EQ(track_table().size(), 6u);
  EXPECT_EQ(track_names(), "harris, lecture, book, course, modern, pitfalls");
  // Tracks are contiguous in the table, in track order.
  size_t i = 0;
  for (const TrackInfo& t : track_table()) {
    for (KernelId k : track_kernels(t.id)) EXPECT_EQ(static_cast<size_t>(k), i++) << t.id;
    EXPECT_EQ(&track_of(track_kernels(t.id).front()), &t);
  }
  EXPECT_EQ(i, kernel_table().size());
  EXPECT_TRUE(track_kernels("nope").empty());
  // The lecture's kernels with the note's times (us, 16M elements, the note's GPU).
  const std::vector<std::pair<const char*, double>> lecture = {
      {"sum_atomic", 25922}, {"sum_shared", 2810},  {"sum_reduce", 512},  {"sum_reversed", 408},
      {"sum_add_first", 283}, {"sum_last_warp", 208}, {"sum_shuffle", 427}, {"sum_two_step", 200}};
  const auto ids = track_kernels("lecture");
  ASSERT_EQ(ids.size(), lecture.size());
  for (size_t j = 0; j < ids.size(); ++j) {
    const KernelInfo& k = kernel_info(ids[j]);
    EXPECT_EQ(std::string(k.name), lecture[j].first);
    EXPECT_EQ(k.source_us, lecture[j].second) << k.name;
    EXPECT_TRUE(k.takes(DType::Int32) && k.takes(DType::Float32)) << k.name;
    EXPECT_EQ(k.finish, j + 1 == ids.size() ? Finish::SecondKernel : Finish::GlobalAtomic) << k.name;
  }
  const TrackInfo& lt = *find_track("lecture");
  EXPECT_EQ(lt.source_n, 1u << 24);
  EXPECT_EQ(lt.default_block_size, 1024u);
  EXPECT_EQ(lt.cpu_source_us, 7752);
  EXPECT_EQ(find_track("harris")->default_block_size, 256u);
  // The book's kernels with its times (us, 2^24 ints, 512 threads, Tesla M2070), all in place.
  const std::vector<std::tuple<const char*, double, unsigned>> book = {
      {"reduceNeighbored", 11722, 1},         {"reduceNeighboredLess", 9321, 1}, {"reduceInterleaved", 6967, 1},
      {"reduceUnrolling2", 3430, 2},          {"reduceUnrolling4", 1829, 4},     {"reduceUnrolling8", 1422, 8},
      {"reduceUnrollWarps8", 1355, 8},        {"reduceCompleteUnrollWarps8", 1280, 8},
      {"reduceCompleteUnroll", 1253, 8}};
  const auto bids = track_kernels("book");
  ASSERT_EQ(bids.size(), book.size());
  for (size_t j = 0; j < bids.size(); ++j) {
    const KernelInfo& k = kernel_info(bids[j]);
    EXPECT_EQ(std::string(k.name), std::get<0>(book[j]));
    EXPECT_EQ(k.source_us, std::get<1>(book[j])) << k.name;
    EXPECT_EQ(k.inputs_per_thread, std::get<2>(book[j])) << k.name;
    EXPECT_EQ(k.finish, Finish::HostSum) << k.name;
    EXPECT_TRUE(k.takes(DType::Int32) && !k.takes(DType::Float32)) << k.name;
    EXPECT_EQ(k.min_block_size, j >= 6 ? 64u : 32u) << k.name;
  }
  EXPECT_EQ(find_track("book")->default_block_size, 512u);
  EXPECT_EQ(find_track("book")->cpu_source_us, 29000);
}

// The course track: one kernel source per tree, one registry entry per operator.
TEST(KernelInfo, CourseOperators) {
  const auto ids = track_kernels("course");
  ASSERT_EQ(ids.size(), 9u);
  std::map<ReduceOp, int> ops;
  for (KernelId id : ids) {
    const KernelInfo& k = kernel_info(id);
    ++ops[k.op];
    EXPECT_EQ(k.min_block_size, 32u) << k.name;
    if (k.op == ReduceOp::Histogram) {
      EXPECT_EQ(k.finish, Finish::SinglePass) << k.name;
      EXPECT_TRUE(k.grid_stride) << k.name;
      continue;
    }
    EXPECT_EQ(k.finish, Finish::HostReduce) << k.name;
    EXPECT_EQ(k.smem_per_thread, 2u) << k.name << ": partialSum[2*blockDim.x]";
  }
  EXPECT_EQ(ops[ReduceOp::Histogram], 3);
  EXPECT_EQ(ops[ReduceOp::Sum], 3);
  EXPECT_EQ(ops[ReduceOp::Min], 1);
  EXPECT_EQ(ops[ReduceOp::Max], 1);
  EXPECT_EQ(ops[ReduceOp::Farthest], 1);
  const KernelInfo& far = *find_kernel("farthest_point");
  EXPECT_FALSE(far.takes(DType::Float32));
  EXPECT_EQ(far.inputs_per_thread, 6u);  // two points of three ints
  EXPECT_STREQ(to_string(ReduceOp::Farthest), "farthest point");
  EXPECT_STREQ(to_string(Finish::HostReduce), "host reduce");
}

// The CPU reference for every operator: what the GPU results are checked against.
TEST(CpuReference, EveryOperatorOnInt32) {
  const std::vector<int32_t> v = {5, -7, 2147483647, 3, -2147483647 - 1, 0, 9, 9, 9};
  const CpuReference r = cpu_reference(v);
  EXPECT_EQ(r.sum, cpu_reduce(v));
  EXPECT_EQ(r.min, -2147483647 - 1);
  EXPECT_EQ(r.max, 2147483647);
  // Points (5,-7,INT_MAX), (3,INT_MIN,0), (9,9,9): |INT_MIN| > INT_MAX, so point 1.
  EXPECT_EQ(r.farthest, 1);
  EXPECT_TRUE(r.accepts(ReduceOp::Min, -2147483647 - 1));
  EXPECT_FALSE(r.accepts(ReduceOp::Min, 0));
  EXPECT_FALSE(r.accepts(ReduceOp::Max, r.min));
  EXPECT_TRUE(r.accepts(ReduceOp::Farthest, 1));
  EXPECT_FALSE(r.accepts(ReduceOp::Farthest, 0));
  EXPECT_EQ(r.str(ReduceOp::Farthest), "point 1 (farthest)");
  // Fewer than 3 elements: no point; a tie: the lower index.
  EXPECT_EQ(cpu_farthest_point({1, 2}), -1);
  EXPECT_EQ(cpu_farthest_point({0, 0, 3, 4, 0, 0, 0, 0, -3}), 1);  // squared norms 9, 16, 9
  EXPECT_EQ(cpu_farthest_point({0, 0, 3, 0, 0, 0, 0, 0, -3}), 0);
}

TEST(CpuReference, FloatMinMaxAreExactAndTheSumHasATolerance) {
  const std::vector<float> v = {0.5f, -2.25f, 1e30f, 3.0f};
  const CpuReference r = cpu_reference(v);
  EXPECT_EQ(bits_to_float(static_cast<uint32_t>(r.min)), -2.25f);
  EXPECT_EQ(bits_to_float(static_cast<uint32_t>(r.max)), 1e30f);
  EXPECT_TRUE(r.accepts(ReduceOp::Max, r.max));
  EXPECT_FALSE(r.accepts(ReduceOp::Max, static_cast<int32_t>(float_to_bits(1e30f) + 1)));  // one ulp off
  EXPECT_FALSE(r.accepts(ReduceOp::Farthest, 0)) << "float32 has no farthest point";
  EXPECT_TRUE(r.accepts(ReduceOp::Sum, static_cast<int32_t>(float_to_bits(1e30f))));
  EXPECT_FALSE(r.accepts(ReduceOp::Sum, static_cast<int32_t>(float_to_bits(1e29f))));
}

// CUB's own kernels (issue 29, item 3): `run --cub reduce|histogram` runs the library alone; `record --add --binary
// --kernel cub` (or one of their names) traces them; the window takes their names for side A and --compare (names
// with "::", so K:B splits at the last colon).
TEST(Cli, CubKernelsRunRecordAndCompare) {
  Options r = parse_cli({"run", "--cub", "reduce", "--n", "2^24"});
  EXPECT_EQ(r.cub, "reduce");
  EXPECT_TRUE(r.kernels.empty());
  EXPECT_EQ(parse_cli({"run", "--cub", "histogram", "--n", "1048576"}).cub, "histogram");
  EXPECT_TRUE(contains(usage_error({"run", "--cub", "scan"}), "not one of reduce"));
  EXPECT_TRUE(contains(usage_error({"run", "--cub", "reduce", "--kernel", "reduce1"}), "runs the library alone"));
  EXPECT_TRUE(contains(usage_error({"run", "--cub", "reduce", "--block-size", "256"}), "CUB picks its own block size"));
  EXPECT_TRUE(contains(usage_error({"run", "--cub", "histogram", "--type", "float32"}), "leave out --type"));

  Options rec = parse_cli({"record", "--add", "--binary", "--kernel", "cub", "--out", "s.rssession"});
  EXPECT_EQ(rec.library, "cub");
  EXPECT_TRUE(rec.kernels.empty()) << "no shipped kernel is recorded beside CUB's";
  EXPECT_EQ(parse_cli({"record", "--add", "--binary", "--kernel", "cub::DeviceReduceKernel", "--out", "s.rssession"})
                .library,
            "cub::DeviceReduceKernel");
  EXPECT_TRUE(contains(usage_error({"record", "--kernel", "cub::DeviceReduceKernel", "--out", "s.rssession"}),
                       "--add --binary"));
  EXPECT_TRUE(contains(usage_error({"bench", "--kernel", "cub::DeviceReduceKernel"}), "unknown kernel"));

  Options w = parse_cli({"--kernel", "cub::DeviceReduceKernel", "--compare", "single_pass_last_block"});
  EXPECT_EQ(w.library, "cub::DeviceReduceKernel");
  EXPECT_TRUE(w.compare);
  EXPECT_EQ(w.compare_kernel, find_kernel("single_pass_last_block")->id);
  Options c = parse_cli({"--kernel", "reduce6", "--compare", "cub::DeviceReduceSingleTileKernel"});
  EXPECT_EQ(c.compare_library, "cub::DeviceReduceSingleTileKernel");
  Options cb = parse_cli({"--compare", "cub::DeviceHistogramSweepKernel:512"});
  EXPECT_EQ(cb.compare_library, "cub::DeviceHistogramSweepKernel");
  EXPECT_EQ(cb.compare_block_size, 512u);
  Options k = parse_cli({"--compare", "reduce3:128"});
  EXPECT_EQ(k.compare_kernel, KernelId::reduce3);
  EXPECT_EQ(k.compare_block_size, 128u);
  EXPECT_TRUE(contains(usage_error({"--compare", "cub::Nope"}), "unknown kernel"));

  // record --two-runs (issue 30): float32 source-probe traces only; the window's --two-runs opens the view.
  EXPECT_TRUE(parse_cli({"record", "--add", "--type", "float32", "--kernel", "sum_atomic", "--two-runs", "--out", "s.rssession"})
                  .two_runs);
  EXPECT_TRUE(contains(usage_error({"record", "--kernel", "sum_atomic", "--two-runs", "--out", "s.rssession"}),
                       "give --type float32"));
  EXPECT_TRUE(parse_cli({"--kernel", "sum_atomic", "--two-runs"}).two_runs);

  for (const LibraryKernelInfo& lk : library_table()) {
    EXPECT_EQ(find_library_kernel(lk.name), &lk);
    EXPECT_EQ(find_kernel(lk.name), nullptr) << lk.name << " is no kernel of the registry";
    EXPECT_NE(find_track(lk.track), nullptr) << lk.track;
    for (const char* b : lk.beside) EXPECT_TRUE(!b || find_kernel(b)) << b;
    EXPECT_TRUE(std::string(lk.run) == "reduce" || std::string(lk.run) == "histogram") << lk.run;
  }
  EXPECT_EQ(track_library_kernels("modern").size(), library_table().size());
  EXPECT_TRUE(track_library_kernels("harris").empty());
}

// The histograms' inputs and CPU reference (the GPU tests compare every bin with these).
TEST(Histogram, InputsAndCpuCounts) {
  EXPECT_GT(histogram_text().size(), 100000u);
  EXPECT_NE(histogram_text().find("Alice"), std::string_view::npos);
  // Text repeats the embedded text.
  const auto text = make_histo_input(HistoInput::Text, histogram_text().size() + 10);
  EXPECT_EQ(std::string(text.begin(), text.begin() + 20), std::string(histogram_text().substr(0, 20)));
  EXPECT_EQ(std::string(text.end() - 10, text.end()), std::string(histogram_text().substr(0, 10)));
  // The note's bins: a-d, e-h, ..., y-z; capitals and other bytes are not counted.
  const std::string s = "abcd efgh yz ABC {|";
  const auto h = cpu_histogram(std::vector<uint8_t>(s.begin(), s.end()), HistoBins::Letters7);
  EXPECT_EQ(h, (std::vector<uint32_t>{4, 4, 0, 0, 0, 0, 2}));
  EXPECT_EQ(bin_label(HistoBins::Letters7, 0), "a-d");
  EXPECT_EQ(bin_label(HistoBins::Letters7, 6), "y-z");
  EXPECT_EQ(bin_label(HistoBins::Bytes256, 0x41), "0x41 'A'");
  EXPECT_EQ(bin_label(HistoBins::Letters7, 7), "#7 (no such bin)") << "never a character past z";
  EXPECT_EQ(bin_label(HistoBins::Bytes256, 7), "0x07");
  // Skewed: 90% of the bytes in one bin ('e'), give or take the sampling.
  const auto skewed = make_histo_input(HistoInput::Skewed, 1u << 20);
  const auto hs = cpu_histogram(skewed, HistoBins::Bytes256);
  EXPECT_EQ(hs.size(), 256u);
  EXPECT_NEAR(hs['e'] / double(1u << 20), 0.9 + 0.1 / 256, 0.005);
  const auto uniform = cpu_histogram(make_histo_input(HistoInput::Uniform, 1u << 20), HistoBins::Bytes256);
  EXPECT_NEAR(uniform['e'] / double(1u << 20), 1.0 / 256, 0.001);
  EXPECT_EQ(std::accumulate(uniform.begin(), uniform.end(), 0u), 1u << 20);
  EXPECT_EQ(bins_of(HistoInput::Text), HistoBins::Letters7);
  EXPECT_EQ(parse_histo_input("skewed"), HistoInput::Skewed);
  EXPECT_FALSE(parse_histo_input("zipf").has_value());
}

TEST(ParseCli, Histogram) {
  Options o = parse_cli({"histogram"});
  EXPECT_EQ(o.command, Command::Histogram);
  EXPECT_EQ(o.n, 1u << 26);
  EXPECT_EQ(o.histo_inputs.size(), 3u);
  ASSERT_EQ(o.histo_kernels.size(), 4u);
  EXPECT_STREQ(kernel_info(o.histo_kernels[2]).name, "histo_private");
  EXPECT_STREQ(kernel_info(o.histo_kernels[3]).name, "histo_warp");  // the modern track's
  EXPECT_EQ(o.block_sizes, std::vector<unsigned>{256});
  o = parse_cli({"histogram", "--kernel", "histo_basic", "--input", "text", "--n", "2^20", "--out", "h.rstrace"});
  EXPECT_EQ(o.histo_kernels.size(), 1u);
  EXPECT_EQ(o.n, 1u << 20);
  EXPECT_THROW(parse_cli({"histogram", "--kernel", "reduce0"}), UsageError);
  EXPECT_THROW(parse_cli({"histogram", "--input", "zipf"}), UsageError);
  EXPECT_THROW(parse_cli({"histogram", "--out", "h.rstrace"}), UsageError);  // one kernel, one input
  // The histograms are no reductions: bench, run and trace refuse them and leave them out of --track.
  EXPECT_THROW(parse_cli({"run", "--kernel", "histo_private", "--block-size", "256"}), UsageError);
  o = parse_cli({"bench", "--track", "course"});
  EXPECT_EQ(o.kernels.size(), 6u);
  o = parse_cli({"record", "--track", "course", "--out", "x.rssession"});
  EXPECT_EQ(o.kernels.size(), 9u);
}

// The modern track: __reduce_add_sync needs sm_80; the registry says so in words for older GPUs.
TEST(KernelInfo, ModernTrackAndComputeCapability) {
  const auto ids = track_kernels("modern");
  ASSERT_EQ(ids.size(), 9u);
  for (KernelId id : ids) EXPECT_TRUE(kernel_info(id).grid_stride) << kernel_info(id).name;
  const KernelId redux = find_kernel("reduce_add_sync")->id;
  EXPECT_EQ(kernel_info(redux).min_cc, 80);
  EXPECT_FALSE(cc_problem(redux, 8, 0).has_value());
  EXPECT_FALSE(cc_problem(redux, 9, 0).has_value());
  const auto why = cc_problem(redux, 7, 5);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->say().find("needs compute capability 8.0"), std::string::npos) << why->say();
  EXPECT_NE(why->say().find("7.5"), std::string::npos) << why->say();
  EXPECT_FALSE(cc_problem(find_kernel("vec4_loads")->id, 7, 5).has_value()) << "shuffles below sm_80";
  EXPECT_EQ(kernel_info(find_kernel("single_pass_last_block")->id).finish, Finish::SinglePass);
  // reproducible_sum: float32 only (exact integer accumulation of floats), one launch, sm_80+ (__reduce_max_sync).
  const KernelInfo& rep = kernel_info(find_kernel("reproducible_sum")->id);
  EXPECT_TRUE(rep.takes(DType::Float32));
  EXPECT_FALSE(rep.takes(DType::Int32));
  EXPECT_EQ(rep.finish, Finish::SinglePass);
  EXPECT_EQ(rep.min_cc, 80);
}

// The pitfalls: wrong code, labelled, and never in a default kernel list.
TEST(KernelInfo, PitfallsAreLabelledAndLeftOutOfDefaults) {
  const auto ids = track_kernels("pitfalls");
  ASSERT_EQ(ids.size(), 5u);
  for (KernelId id : ids) {
    const KernelInfo& k = kernel_info(id);
    ASSERT_NE(k.pitfall, nullptr) << k.name;
    EXPECT_GT(std::string(k.pitfall).size(), 20u) << k.name;
    // The title says so: WRONG code, or (float atomics: right within rounding) a SURPRISE.
    EXPECT_EQ(std::string(k.title).rfind(k.surprise ? "SURPRISE" : "WRONG", 0), 0u) << k.name;
    // Compare mode's other side: a correct kernel that takes the same element types and block sizes.
    ASSERT_NE(k.fixed_by, nullptr) << k.name;
    const KernelInfo* fix = find_kernel(k.fixed_by);
    ASSERT_NE(fix, nullptr) << k.fixed_by;
    EXPECT_EQ(fix->pitfall, nullptr) << k.fixed_by;
    EXPECT_EQ(fix->dtypes & k.dtypes, k.dtypes) << k.name << " -> " << k.fixed_by;
    EXPECT_LE(fix->min_block_size, k.min_block_size) << k.name << " -> " << k.fixed_by;
  }
  for (const KernelInfo& k : kernel_table()) EXPECT_TRUE(!k.fixed_by || k.pitfall) << k.name;
  for (const KernelInfo& k : kernel_table()) EXPECT_TRUE(!k.surprise || k.pitfall) << k.name;
  const KernelInfo* fa = find_kernel("pitfall_float_atomic");
  ASSERT_NE(fa, nullptr);
  EXPECT_TRUE(fa->surprise);
  EXPECT_TRUE(fa->takes(DType::Float32));
  EXPECT_FALSE(fa->takes(DType::Int32)) << "int atomics are exact: no surprise";
  for (const KernelInfo& k : kernel_table()) EXPECT_EQ(k.pitfall != nullptr, std::string(k.track) == "pitfalls");
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"bench"}, {"bench", "--track", "all"}, {"bench", "--kernel", "all"}, {"record", "--out", "x.rssession"}}) {
    for (KernelId k : parse_cli(args).kernels) EXPECT_EQ(kernel_info(k).pitfall, nullptr) << args[0];
  }
  EXPECT_EQ(parse_cli({"bench", "--track", "pitfalls"}).kernels.size(), 5u);  // by name only
  const Options o = parse_cli({"pitfalls", "--runs", "20"});
  EXPECT_EQ(o.command, Command::Pitfalls);
  EXPECT_EQ(o.runs, 20);
  EXPECT_EQ(o.kernels.size(), 5u);
  EXPECT_THROW(parse_cli({"pitfalls", "--runs", "0"}), UsageError);
  const Options one = parse_cli({"pitfalls", "--kernel", "pitfall_float_atomic"});
  ASSERT_EQ(one.kernels.size(), 1u);
  EXPECT_EQ(one.kernels[0], fa->id);
  EXPECT_THROW(parse_cli({"pitfalls", "--kernel", "reduce6"}), UsageError) << "not a pitfall";
  EXPECT_EQ(parse_cli({"pitfalls", "--block-size", "all"}).block_sizes.size(), kBlockSizes.size());
  EXPECT_EQ(parse_cli({"pitfalls", "--block-size", "64,256"}).block_sizes, (std::vector<unsigned>{64, 256}));
  EXPECT_EQ(parse_cli({"pitfalls"}).block_sizes, (std::vector<unsigned>{256}));
  EXPECT_THROW(parse_cli({"pitfalls", "--block-size", "64,48"}), UsageError);
  EXPECT_THROW(parse_cli({"bench", "--runs", "5"}), UsageError);
  // bits: every float32 sum, 20 runs by default; a kernel that adds no float is refused.
  const Options bits = parse_cli({"bits"});
  EXPECT_EQ(bits.command, Command::Bits);
  EXPECT_EQ(bits.runs, 20);
  for (KernelId k : bits.kernels) EXPECT_TRUE(kernel_info(k).takes(DType::Float32)) << kernel_info(k).name;
  EXPECT_NE(std::find(bits.kernels.begin(), bits.kernels.end(), find_kernel("reproducible_sum")->id), bits.kernels.end());
  EXPECT_NE(std::find(bits.kernels.begin(), bits.kernels.end(), fa->id), bits.kernels.end()) << "the float atomics too";
  EXPECT_EQ(parse_cli({"bits", "--runs", "3"}).runs, 3);
  EXPECT_THROW(parse_cli({"bits", "--kernel", "reduce0"}), UsageError) << "int32 only";
  EXPECT_THROW(parse_cli({"bits", "--kernel", "histo_basic"}), UsageError);
  EXPECT_EQ(parse_cli({"--view", "bits"}).view, 4);
  // record --add --kernel: one kernel into an existing session.
  const Options add = parse_cli({"record", "--out", "s.rssession", "--kernel", "histo_warp", "--add"});
  EXPECT_TRUE(add.add);
  ASSERT_EQ(add.kernels.size(), 1u);
  EXPECT_STREQ(kernel_info(add.kernels[0]).name, "histo_warp");
  EXPECT_FALSE(parse_cli({"record", "--out", "s.rssession"}).add);
  EXPECT_THROW(parse_cli({"bench", "--add"}), UsageError) << "record's switch only";
}

// `reducescope sweep BENCH.csv ... --out SESSION`: CSV files, then the session; --view sweep opens the tab.
TEST(ParseCli, Sweep) {
  const Options o = parse_cli({"sweep", "a.csv", "b.csv", "--out", "s.rssession"});
  EXPECT_EQ(o.command, Command::Sweep);
  EXPECT_EQ(o.csv_files, (std::vector<std::string>{"a.csv", "b.csv"}));
  EXPECT_EQ(o.out, "s.rssession");
  EXPECT_THROW(parse_cli({"sweep", "--out", "s.rssession"}), UsageError) << "no CSV";
  EXPECT_THROW(parse_cli({"sweep", "a.csv"}), UsageError) << "no session";
  EXPECT_THROW(parse_cli({"sweep", "a.csv", "--out", "s", "--n", "5"}), UsageError) << "not an option of sweep";
  EXPECT_EQ(parse_cli({"--view", "sweep"}).view, 3);
  EXPECT_TRUE(contains(help_text("sweep"), "usage: reducescope sweep"));
}

// Launch counts that do not depend on the GPU or N.
TEST(KernelInfo, FixedLaunches) {
  EXPECT_EQ(fixed_launches(find_kernel("single_pass_atomic")->id), 1u);
  EXPECT_EQ(fixed_launches(find_kernel("sum_atomic")->id), 1u);
  EXPECT_EQ(fixed_launches(find_kernel("histo_private")->id), 1u);
  EXPECT_EQ(fixed_launches(find_kernel("reduceNeighbored")->id), 1u);  // the host adds the partials
  EXPECT_FALSE(fixed_launches(KernelId::reduce6)) << "repeated launches: depends on N";
  EXPECT_FALSE(fixed_launches(find_kernel("vec4_loads")->id)) << "second kernel: skipped when one block suffices";
}

TEST(KernelInfo, DtypeProblem) {
  EXPECT_FALSE(dtype_problem(KernelId::reduce0, DType::Int32).has_value());
  auto p = dtype_problem(KernelId::reduce0, DType::Float32);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->say(), "reduce0 reduces int32 only, not float32");
  EXPECT_FALSE(dtype_problem(find_kernel("sum_atomic")->id, DType::Float32).has_value());
}

// Issue 17: the step column divided unrelated kernels (farthest_point -> histo_sectioned "0.02x").
TEST(KernelInfo, TableSpeedupsOnlyBetweenKernelsOfOneJob) {
  const KernelId far = find_kernel("farthest_point")->id,
                 histo = find_kernel("histo_sectioned")->id, histo2 = find_kernel("histo_private")->id;
  const auto sp = table_speedups({KernelId::reduce0, KernelId::reduce1, far, histo, KernelId::reduce2, histo2},
                                 {8.0, 4.0, 100.0, 50.0, 0.0, 25.0});
  ASSERT_EQ(sp.size(), 6u);
  EXPECT_EQ(sp[0].step, 0);  // the first row has no row above
  EXPECT_DOUBLE_EQ(sp[0].cumulative, 1.0);
  EXPECT_DOUBLE_EQ(sp[1].step, 2.0);
  EXPECT_DOUBLE_EQ(sp[1].cumulative, 2.0);
  EXPECT_EQ(sp[2].step, 0);  // farthest_point after two sums: its own first row
  EXPECT_DOUBLE_EQ(sp[2].cumulative, 1.0);
  EXPECT_EQ(sp[3].step, 0);  // a histogram after farthest_point: not "0.5x"
  EXPECT_EQ(sp[4].step, 0);  // no time: nothing to show
  EXPECT_EQ(sp[4].cumulative, 0);
  EXPECT_DOUBLE_EQ(sp[5].step, 2.0);  // histogram over the histogram above, skipping the other jobs
  EXPECT_DOUBLE_EQ(sp[5].cumulative, 2.0);
  // The pitfalls: each bug is its own job ("0.57x" from pitfall_no_syncwarp to pitfall_no_syncthreads said
  // nothing), and no reference for a correct kernel after them.
  const KernelId nv = find_kernel("pitfall_no_volatile")->id, nst = find_kernel("pitfall_no_syncthreads")->id;
  const auto pit = table_speedups({nv, nst, KernelId::reduce4}, {1.0, 2.0, 4.0});
  EXPECT_EQ(pit[1].step, 0);
  EXPECT_DOUBLE_EQ(pit[1].cumulative, 1.0);
  EXPECT_EQ(pit[2].step, 0);
  EXPECT_DOUBLE_EQ(pit[2].cumulative, 1.0);
}

TEST(BlockSizeProblem, AnyKernel) {
  for (unsigned b : kBlockSizes) EXPECT_FALSE(block_size_problem(b).has_value()) << b;
  for (unsigned b : {0u, 1u, 3u, 16u, 31u, 33u, 48u, 96u, 1000u, 1023u, 2048u, 4096u, 0x80000000u}) {
    auto p = block_size_problem(b);
    ASSERT_TRUE(p.has_value()) << b;
    EXPECT_TRUE(contains(p->say(), std::to_string(b))) << p->say();
  }
}

TEST(BlockSizeProblem, PerKernel) {
  for (KernelId id : {KernelId::reduce0, KernelId::reduce1, KernelId::reduce2, KernelId::reduce3}) {
    for (unsigned b : kBlockSizes) EXPECT_FALSE(block_size_problem(id, b).has_value());
  }
  for (KernelId id : {KernelId::reduce4, KernelId::reduce5, KernelId::reduce6}) {
    auto p = block_size_problem(id, 32);
    ASSERT_TRUE(p.has_value());
    EXPECT_TRUE(contains(p->say(), kernel_info(id).name)) << p->say();
    EXPECT_TRUE(contains(p->say(), "at least 64")) << p->say();
    for (unsigned b : {64u, 128u, 256u, 512u, 1024u}) EXPECT_FALSE(block_size_problem(id, b).has_value());
  }
  // The generic problem comes first.
  auto p = block_size_problem(KernelId::reduce0, 48);
  ASSERT_TRUE(p.has_value());
  EXPECT_TRUE(contains(p->say(), "48"));
}

// ---- input and CPU reference ---------------------------------------------------------------

TEST(Input, Patterns) {
  auto ones = make_input(Pattern::Ones, 1000);
  ASSERT_EQ(ones.size(), 1000u);
  EXPECT_TRUE(std::all_of(ones.begin(), ones.end(), [](int32_t x) { return x == 1; }));
  EXPECT_EQ(cpu_reduce(ones), 1000);

  auto iota = make_input(Pattern::Iota, 1000);
  ASSERT_EQ(iota.size(), 1000u);
  for (size_t i = 0; i < iota.size(); ++i) ASSERT_EQ(iota[i], static_cast<int32_t>(i));
  EXPECT_EQ(cpu_reduce(iota), 999 * 1000 / 2);

  EXPECT_TRUE(make_input(Pattern::RandomBytes, 0).empty());
  EXPECT_EQ(make_input(Pattern::Ones, 7).size(), 7u);
}

TEST(Input, RandomBytes) {
  const size_t n = 100003;  // not a multiple of 8: the last draw is split
  auto v = make_input(Pattern::RandomBytes, n);
  ASSERT_EQ(v.size(), n);
  std::vector<int> histogram(256, 0);
  for (int32_t x : v) {
    ASSERT_GE(x, 0);
    ASSERT_LE(x, 255);
    histogram[x]++;
  }
  // Uniform: each value expected ~391 times; all 256 values appear, none wildly over-represented.
  for (int c = 0; c < 256; ++c) {
    EXPECT_GT(histogram[c], 200) << c;
    EXPECT_LT(histogram[c], 600) << c;
  }
  int64_t sum = 0;
  for (int32_t x : v) sum += x;
  EXPECT_EQ(cpu_reduce(v), static_cast<int32_t>(sum));
}

TEST(Input, RandomDeterministicPerSeed) {
  auto a = make_input(Pattern::RandomBytes, 4099, 42);
  auto b = make_input(Pattern::RandomBytes, 4099, 42);
  auto c = make_input(Pattern::RandomBytes, 4099, 43);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  // The default seed is fixed too, and a shorter input is a prefix of a longer one.
  auto d = make_input(Pattern::RandomBytes, 1000);
  auto e = make_input(Pattern::RandomBytes, 1003);
  EXPECT_TRUE(std::equal(d.begin(), d.end(), e.begin()));
}

TEST(Input, PatternNames) {
  for (Pattern p : {Pattern::Ones, Pattern::RandomBytes, Pattern::Iota}) {
    auto back = parse_pattern(to_string(p));
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, p);
  }
  EXPECT_EQ(std::string(to_string(Pattern::RandomBytes)), "random");
  EXPECT_FALSE(parse_pattern("Random").has_value());
  EXPECT_FALSE(parse_pattern("").has_value());
}

TEST(CpuReduce, WrapsAround) {
  EXPECT_EQ(cpu_reduce({}), 0);
  EXPECT_EQ(cpu_reduce({INT32_MAX, 1}), INT32_MIN);
  EXPECT_EQ(cpu_reduce({INT32_MIN, -1}), INT32_MAX);
  EXPECT_EQ(cpu_reduce({INT32_MAX, INT32_MAX, 2}), 0);
  EXPECT_EQ(cpu_reduce({-5, 3, 7}), 5);
  // 2^16 elements of 2^16 sum to 2^32, which wraps to 0.
  std::vector<int32_t> big(1 << 16, 1 << 16);  // 2^16 x 2^16 = 2^32
  EXPECT_EQ(cpu_reduce(big), 0);
  big.push_back(7);
  EXPECT_EQ(cpu_reduce(big), 7);
}

// ---- float32 input and its reference -------------------------------------------------------

TEST(FloatInput, PatternsAndReference) {
  auto ones = make_input_f32(Pattern::Ones, 1000);
  ASSERT_EQ(ones.size(), 1000u);
  FloatReference r = cpu_reduce_f64(ones);
  EXPECT_EQ(r.sum, 1000.0);
  EXPECT_EQ(r.sum_abs, 1000.0);
  auto iota = make_input_f32(Pattern::Iota, 1000);
  EXPECT_EQ(iota[999], 999.0f);
  EXPECT_EQ(cpu_reduce_f64(iota).sum, 999.0 * 1000 / 2);
  auto rnd = make_input_f32(Pattern::RandomBytes, 100000);
  double lo = 1, hi = 0;
  for (float x : rnd) lo = std::min<double>(lo, x), hi = std::max<double>(hi, x);
  EXPECT_GE(lo, 0.0);
  EXPECT_LT(hi, 1.0);
  EXPECT_GT(hi, 0.99);  // uniform in [0, 1)
  EXPECT_EQ(make_input_f32(Pattern::RandomBytes, 4099, 7), make_input_f32(Pattern::RandomBytes, 4099, 7));
}

TEST(FloatInput, ToleranceFromNEpsilonAndSumAbs) {
  FloatReference r;
  r.n = 1u << 24;
  r.sum = 8388608.0;
  r.sum_abs = 8388608.0;
  // 6 x sqrt(2^24) x 2^-24 x 2^23 = 6 x 4096 / 2 = 12288
  EXPECT_DOUBLE_EQ(r.tolerance(), 12288.0);
  EXPECT_TRUE(r.accepts(8388608.0f + 12000.0f));
  EXPECT_FALSE(r.accepts(8388608.0f + 13000.0f));
  EXPECT_FALSE(r.accepts(std::numeric_limits<float>::quiet_NaN()));
  // N = 1: the sum must be the element itself.
  FloatReference one = cpu_reduce_f64({0.5f});
  EXPECT_TRUE(one.accepts(0.5f));
  EXPECT_FALSE(one.accepts(0.5f + 1e-6f));
  // A float atomic sum of 2^25 ones stops at 2^24 (2^24 + 1 is not a float): refused, rightly.
  FloatReference big;
  big.n = 1u << 25;
  big.sum = big.sum_abs = 33554432.0;
  EXPECT_FALSE(big.accepts(16777216.0f));
}

// ---- profile: the book's nvprof metrics through Nsight Compute -------------------------------

TEST(ParseCli, Profile) {
  Options o = parse_cli({"profile", "s.rssession", "--n", "2^20"});
  EXPECT_EQ(o.command, Command::Profile);
  EXPECT_EQ(o.file, "s.rssession");
  EXPECT_EQ(o.kernels, track_kernels("book"));
  EXPECT_EQ(o.n, 1u << 20);
  EXPECT_TRUE(contains(usage_error({"profile"}), "profile needs a SESSION file"));
  EXPECT_TRUE(contains(usage_error({"profile", "s.rssession", "--track", "harris"}), "--track book"));
  EXPECT_TRUE(contains(usage_error({"profile", "s.rssession", "--samples", "30"}), "not an option"));
  EXPECT_TRUE(contains(help_text("profile"), "gld_efficiency"));
}

TEST(Profile, BookMetricsMapToNsightComputeNames) {
  const auto& m = book_metrics();
  ASSERT_EQ(m.size(), 6u);
  std::vector<std::string> names;
  for (const auto& x : m) {
    names.push_back(x.name);
    EXPECT_GT(std::string(x.ncu).size(), 10u) << x.name;
    EXPECT_GT(std::string(x.what).size(), 10u) << x.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"inst_per_warp", "gld_efficiency", "gld_throughput",
                                             "dram_read_throughput", "stall_sync", "achieved_occupancy"}));
}

TEST(Profile, ParsesNcuCsvOfTheFirstLaunch) {
  const std::string text =
      "==PROF== Connected to process 123 (reducescope)\n"
      "reduceInterleaved block size 512 N 16777216: result 2138686821, correct\n"
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
      "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"123\",\"reducescope\",\"127.0.0.1\",\"void rs::reduceInterleaved<rs::NullProbe>(const int *, int *, "
      "unsigned int, T1)\",\"1\",\"13\",\"(512, 1, 1)\",\"(32768, 1, 1)\",\"0\",\"9.0\",\"Command line profiler "
      "metrics\",\"dram__bytes_read.sum.per_second\",\"byte/second\",\"1,234,567,890\"\n"
      "\"0\",\"123\",\"reducescope\",\"127.0.0.1\",\"k\",\"1\",\"13\",\"(512, 1, 1)\",\"(32768, 1, 1)\",\"0\",\"9.0\","
      "\"m\",\"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct\",\"%\",\"77.94\"\n"
      "\"1\",\"123\",\"reducescope\",\"127.0.0.1\",\"k\",\"1\",\"13\",\"(512, 1, 1)\",\"(64, 1, 1)\",\"0\",\"9.0\","
      "\"m\",\"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct\",\"%\",\"12.5\"\n"
      "==PROF== Disconnected from process 123\n";
  const auto v = parse_ncu_csv(text);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v.at("dram__bytes_read.sum.per_second").first, "byte/second");
  EXPECT_DOUBLE_EQ(v.at("dram__bytes_read.sum.per_second").second, 1234567890.0);
  EXPECT_DOUBLE_EQ(v.at("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct").second, 77.94);  // ID 0
  EXPECT_THROW(parse_ncu_csv("==PROF== nothing\n"), NcuOutputError);
  EXPECT_THROW(parse_ncu_csv("\"ID\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n\"0\",\"m\",\"%\",\"n/a\"\n"),
               NcuOutputError);
  EXPECT_THROW(parse_ncu_csv("\"ID\",\"Metric Name\"\n\"0\",\"m\"\n"), NcuOutputError);
}

TEST(ParseCli, ExportHtml) {
  Options o = parse_cli({"export", "s.rssession", "--html", "page.html"});
  EXPECT_EQ(o.command, Command::Export);
  EXPECT_EQ(o.file, "s.rssession");
  EXPECT_EQ(o.html, "page.html");
  EXPECT_TRUE(o.out.empty());
  EXPECT_TRUE(o.block_sizes.empty());  // the default: as many block sizes as fit the budget
  o = parse_cli({"export", "s.rssession", "--html", "page.html", "--block-size", "128,256,1024"});
  EXPECT_EQ(o.block_sizes, (std::vector<unsigned>{128, 256, 1024}));
  o = parse_cli({"export", "s.rssession", "--html", "page.html", "--block-size", "all"});
  EXPECT_EQ(o.block_sizes.size(), kBlockSizes.size());
  EXPECT_THROW(parse_cli({"export", "s.rssession", "--html", "page.html", "--block-size", "128,48"}), UsageError);
  EXPECT_THROW(parse_cli({"export", "s.rssession", "--html", "page.html", "--block-size", "128,"}), UsageError);
  EXPECT_THROW(parse_cli({"export", "s.rssession", "--html", "p.html", "--out", "dir"}), UsageError);
  EXPECT_THROW(parse_cli({"export", "--sweep", "b.csv", "--html", "p.html"}), UsageError);
  EXPECT_THROW(parse_cli({"export", "--html", "p.html"}), UsageError);  // no session
  EXPECT_THROW(parse_cli({"export", "s.rssession", "--html"}), UsageError);
  EXPECT_THROW(parse_cli({"show", "s.rssession", "--html", "p.html"}), UsageError);
  // The charts take one block size (or every one).
  EXPECT_THROW(parse_cli({"export", "s.rssession", "--out", "dir", "--block-size", "128,256"}), UsageError);
  EXPECT_EQ(parse_cli({"export", "s.rssession", "--out", "dir", "--block-size", "128"}).block_sizes,
            (std::vector<unsigned>{128}));
  try {
    parse_cli({"export", "s.rssession"});
    FAIL() << "export without --out or --html was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--html"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rs
