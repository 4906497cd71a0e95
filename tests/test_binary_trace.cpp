// The binary tracer's host side without a GPU (issue 28): the nvdisasm listing parser, SASS decoding,
// capture files, and captures recorded on an H100 turned into traces that replay like any other
// (tests/fixtures/binary/, recorded with scripts/device/binary_trace.sh from examples/two_reductions.cu).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "assemble.hpp"
#include "proof.hpp"
#include "capture.hpp"
#include "cli.hpp"
#include "replay.hpp"
#include "sass.hpp"
#include "test_util.hpp"
#include "trace_io.hpp"

namespace rs {
namespace {

std::string fixture_path(const std::string& name) { return std::string(RS_BINARY_FIXTURES) + "/" + name; }

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Source files the line table names, read from this checkout: the program was built from examples/.
bt::AssembleOptions options() {
  bt::AssembleOptions o;
  o.tool_version = "test";
  o.date = "2026-11-25T00:00:00Z";
  o.read_source = [](const std::string& path) -> std::optional<std::string> {
    const std::string name = path.substr(path.rfind('/') + 1);
    if (name != "two_reductions.cu") return std::nullopt;
    return slurp(std::string(RS_SOURCE_DIR) + "/examples/two_reductions.cu");
  };
  return o;
}

struct Fixture {
  bt::Capture capture;
  std::vector<bt::SassFunction> sass;
};

Fixture load(const std::string& stem) {
  Fixture f;
  f.capture = bt::load_capture(fixture_path(stem + ".rscapture"));
  f.sass = bt::parse_nvdisasm(slurp(fixture_path(stem + ".sass")));
  return f;
}

const bt::SassFunction& function(const std::vector<bt::SassFunction>& fns, const std::string& name) {
  for (const auto& f : fns) {
    if (f.name == name) return f;
  }
  throw std::runtime_error("no function " + name);
}

// ---- the listing ----------------------------------------------------------------------------------

TEST(Sass, ParsesBothKernelsWithOffsetsAndLines) {
  const auto fns = bt::parse_nvdisasm(slurp(fixture_path("strided.sass")));
  ASSERT_EQ(fns.size(), 2u);
  const auto& strided = function(fns, "_Z14reduce_stridedPKiPij");
  const auto& shuffle = function(fns, "_Z14reduce_shufflePKiPij");
  for (const auto* f : {&strided, &shuffle}) {
    ASSERT_GT(f->code.size(), 20u);
    for (size_t i = 1; i < f->code.size(); ++i) EXPECT_EQ(f->code[i].offset, f->code[i - 1].offset + 16);
    EXPECT_NE(f->main_file().find("two_reductions.cu"), std::string::npos);
  }
  // The strided kernel's loop body: sdata[index] += sdata[index + s] is line 32 of the example.
  int sts_on_32 = 0;
  for (const auto& i : strided.code) {
    if (i.opcode == "STS" && bt::SassFunction::line_in(i, strided.main_file()) == 32) ++sts_on_32;
  }
  EXPECT_GE(sts_on_32, 1);
  // __shfl_down_sync is inlined from the toolkit's header: the kernel's own line is the call (42).
  int shuffles = 0;
  for (const auto& i : shuffle.code) {
    if (i.opcode.rfind("SHFL.", 0) != 0) continue;
    ++shuffles;
    ASSERT_GE(i.where.size(), 2u);
    EXPECT_NE(i.where.front().file.find("intrinsics"), std::string::npos);
    const uint32_t line = bt::SassFunction::line_in(i, shuffle.main_file());
    EXPECT_TRUE(line == 42 || line == 48) << i.text << " line " << line;
  }
  EXPECT_EQ(shuffles, 10);
}

TEST(Sass, ListingIsOneInstructionALine) {
  const auto fns = bt::parse_nvdisasm(slurp(fixture_path("strided.sass")));
  const auto& f = function(fns, "_Z14reduce_stridedPKiPij");
  const std::string text = f.listing();
  EXPECT_EQ(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')), f.code.size());
  EXPECT_EQ(source_line(text, 1), "/*0000*/ " + f.code[0].text);
}

TEST(Sass, GarbageGivesNoFunctions) {
  EXPECT_TRUE(bt::parse_nvdisasm("").empty());
  EXPECT_TRUE(bt::parse_nvdisasm("not a listing\n/*zz*/ FOO ;\n.text.x:\n").empty());
}

TEST(Sass, DecodesShuffles) {
  auto down = bt::decode_shuffle("SHFL.DOWN", "SHFL.DOWN PT, R3, R6, 0x10, 0x1f");
  ASSERT_TRUE(down);
  EXPECT_EQ(down->kind, ShuffleKind::Down);
  EXPECT_TRUE(down->lane_known);
  EXPECT_EQ(down->b, 16u);
  EXPECT_EQ(down->width, 32u);
  EXPECT_EQ(down->source_lane(0), 16u);
  EXPECT_EQ(down->source_lane(20), 20u);  // past the end of the warp: keeps its own value
  auto bfly = bt::decode_shuffle("SHFL.BFLY", "@P0 SHFL.BFLY PT, R5, R4, 0x1, 0x181f");
  ASSERT_TRUE(bfly);
  EXPECT_EQ(bfly->kind, ShuffleKind::Xor);
  EXPECT_EQ(bfly->width, 8u);
  EXPECT_EQ(bfly->source_lane(9), 8u);
  auto idx = bt::decode_shuffle("SHFL.IDX", "SHFL.IDX PT, R3, R2, RZ, 0x1f");
  ASSERT_TRUE(idx);
  EXPECT_TRUE(idx->lane_known);
  EXPECT_EQ(idx->source_lane(13), 0u);
  auto up = bt::decode_shuffle("SHFL.UP", "SHFL.UP PT, R3, R2, 0x2, RZ");
  ASSERT_TRUE(up);
  EXPECT_EQ(up->source_lane(1), 1u);
  EXPECT_EQ(up->source_lane(5), 3u);
  auto reg = bt::decode_shuffle("SHFL.DOWN", "SHFL.DOWN PT, R3, R2, R7, 0x1f");
  ASSERT_TRUE(reg);
  EXPECT_FALSE(reg->lane_known);
  EXPECT_FALSE(bt::decode_shuffle("LDS", "LDS R2, [R8]"));
}

TEST(Sass, NamesAtomics) {
  EXPECT_EQ(bt::atomic_op("ATOMS.ADD"), static_cast<uint8_t>(AtomicOp::Add));
  EXPECT_EQ(bt::atomic_op("RED.E.ADD.F32.FTZ.RN.STRONG.GPU"), static_cast<uint8_t>(AtomicOp::Add) | kOpFloatBit);
  EXPECT_EQ(bt::atomic_op("ATOMG.E.CAS.STRONG.GPU"), static_cast<uint8_t>(AtomicOp::Cas));
  EXPECT_EQ(bt::atomic_op("ATOMS.POPC.INC"), static_cast<uint8_t>(AtomicOp::Add));
  EXPECT_EQ(bt::atomic_op("ATOMG.E.INC.STRONG.GPU"), static_cast<uint8_t>(AtomicOp::Inc));
  EXPECT_EQ(bt::atomic_op("RED.E.MAX.S32.STRONG.GPU"), static_cast<uint8_t>(AtomicOp::Max));
  EXPECT_FALSE(bt::atomic_op("LDG.E"));
  EXPECT_FALSE(bt::atomic_op("STS"));
}

TEST(Sass, ShortKernelNames) {
  EXPECT_EQ(bt::short_kernel_name("reduce_strided(int const*, int*, unsigned int)"), "reduce_strided");
  EXPECT_EQ(bt::short_kernel_name("void rs::reduce1<rs::NullProbe>(int const*, int*, unsigned int, rs::NullProbe)"),
            "rs::reduce1<rs::NullProbe>");
  EXPECT_EQ(bt::short_kernel_name("f<(anonymous namespace)::X>(int)"), "f<(anonymous namespace)::X>");
}

// Issue 38, item 3, on the GPU: examples/block_max.cu attached on an H200 with `trace --kernel block_max --launch 3`
// and no --type (scripts/device/typed_values.sh, 2026-11-28): float32 from its parameters, launch 3 named (trace
// format version 5), its shared words printed as floats.
TEST(BinaryTrace, FloatProgramTracedOnTheGpuShowsFloatsAndItsLaunch) {
  const Trace t = load_trace(std::string(RS_BINARY_FIXTURES) + "/block_max_float-launch3-h200.rstrace");
  EXPECT_EQ(t.meta.tracer, Tracer::Binary);
  EXPECT_EQ(t.meta.dtype, DType::Float32);
  EXPECT_EQ(t.meta.launch, 3u);
  EXPECT_NE(t.meta.notes.find("float const*"), std::string::npos);
  EXPECT_EQ(format_value(static_cast<uint32_t>(t.meta.result), DType::Float32), "122.625");  // block 0's max, x + 2
  const Replay r(t);  // `show` says "in launch 3": Cli.ShowNamesTheLaunchTracedAndItsType
  const std::string step0 = describe_step(r, 0, t.source);
  EXPECT_NE(step0.find("word 0 = -1.5]"), std::string::npos) << step0;  // x[0] + 2 = -3.5 + 2
}

// Issue 38, item 3: a binary trace's values are typed by the kernel's parameters (a float kernel showed int32 bits).
TEST(BinaryTrace, ElementTypeFromTheDemangledParameters) {
  std::string p;
  EXPECT_EQ(bt::element_type_of("block_max<float>(float const*, float*, int)", &p), DType::Float32);
  EXPECT_EQ(p, "float const*");
  EXPECT_EQ(bt::element_type_of("reduce_strided(int const*, int*, unsigned int)"), DType::Int32);
  EXPECT_EQ(bt::element_type_of("k(unsigned int*, unsigned int)"), DType::Int32);
  EXPECT_EQ(bt::element_type_of("k(const float* __restrict__, float*)"), DType::Float32);
  // CUB's first pass: template arguments hold pointers too; the parameter list decides.
  EXPECT_EQ(bt::element_type_of("void cub::CUB_300000_SM_900_NS::detail::reduce::DeviceReduceKernel<cub::"
                                "DeviceReducePolicy<float, int, cuda::std::plus<void>>::Policy600, float const*, "
                                "float*, int, cuda::std::plus<void>, float>(float const*, float*, int, "
                                "cub::GridEvenShare<int>, cuda::std::plus<void>)"),
            DType::Float32);
  EXPECT_EQ(bt::element_type_of("k(double const*, double*)"), std::nullopt);  // 8 bytes: not a type a trace shows
  EXPECT_EQ(bt::element_type_of("k(MyStruct*, float*)"), DType::Float32);   // the first it can show
  EXPECT_EQ(bt::element_type_of("k(int)"), std::nullopt);
  EXPECT_EQ(bt::element_type_of("k"), std::nullopt);
}

// ---- capture files --------------------------------------------------------------------------------

TEST(Capture, RoundTripsAndRefusesDamage) {
  const std::string bytes = slurp(fixture_path("strided.rscapture"));
  const bt::Capture c = bt::parse_capture(bytes, "c");
  EXPECT_EQ(bt::serialize_capture(c), bytes);
  EXPECT_THROW(bt::parse_capture(bytes.substr(0, bytes.size() - 1), "c"), TraceFormatError);
  EXPECT_THROW(bt::parse_capture(bytes.substr(0, 40), "c"), TraceFormatError);
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  EXPECT_THROW(bt::parse_capture(flipped, "c"), TraceFormatError);
  EXPECT_THROW(bt::parse_capture("RSTRACE" + std::string(30, '\0'), "c"), TraceFormatError);
}

TEST(Capture, NoMatchListsTheKernelsThatLaunched) {
  const bt::Capture c = bt::load_capture(fixture_path("nosuch.rscapture"));
  EXPECT_EQ(c.status, bt::CaptureStatus::NoMatch);
  EXPECT_NE(c.message.find("nosuch"), std::string::npos);
  std::set<std::string> names;
  for (const auto& [name, count] : c.launched) names.insert(name);
  EXPECT_TRUE(names.count("reduce_strided(int const*, int*, unsigned int)"));
  EXPECT_TRUE(names.count("reduce_shuffle(int const*, int*, unsigned int)"));
  EXPECT_THROW(bt::assemble_trace(c, {}, options()), bt::AssembleError);
}

// ---- captures as traces ---------------------------------------------------------------------------

// Harris's strided index at 256 threads: Nsight Compute counted 70 shared-load and 35 shared-store bank
// conflicts for this launch shape on the H100 (shared/device/README.md); the binary trace gives the same.
TEST(BinaryTrace, StridedReductionMatchesNsightCompute) {
  const Fixture f = load("strided");
  bt::AssembleReport rep;
  const Trace t = bt::assemble_trace(f.capture, f.sass, options(), &rep);
  EXPECT_EQ(t.meta.tracer, Tracer::Binary);
  EXPECT_EQ(t.meta.kernel, "reduce_strided");
  EXPECT_EQ(t.meta.block_size, 256u);
  EXPECT_EQ(t.meta.smem_bytes, 1024u);
  EXPECT_TRUE(rep.source_found);
  EXPECT_EQ(t.source, slurp(std::string(RS_SOURCE_DIR) + "/examples/two_reductions.cu"));
  EXPECT_EQ(rep.unknown_pc, 0u);
  EXPECT_EQ(rep.other_global, 0u);
  std::map<AccessKind, int> count;
  for (const auto& r : t.records) count[static_cast<AccessKind>(r.kind)]++;
  EXPECT_EQ(count[AccessKind::Load], 511);
  EXPECT_EQ(count[AccessKind::Store], 511);
  EXPECT_EQ(count[AccessKind::BlockBarrier], 256 * 9);
  EXPECT_EQ(count[AccessKind::GlobalLoad], 256);
  EXPECT_EQ(count[AccessKind::GlobalStore], 1);
  const Replay r(t);
  EXPECT_EQ(r.num_steps(), 10u);
  EXPECT_EQ(r.load_conflicts(), 70);
  EXPECT_EQ(r.store_conflicts(), 35);
  // Stores per step: 256 (the loads from global), then 128, 64, ... 1 lanes.
  std::vector<int> lanes_stored;
  for (const Step& s : r.steps()) {
    int lanes = 0;
    for (size_t a : s.accesses) {
      if (r.accesses()[a].kind == AccessKind::Store) lanes += __builtin_popcount(r.accesses()[a].lanes);
    }
    lanes_stored.push_back(lanes);
  }
  EXPECT_EQ(lanes_stored, (std::vector<int>{256, 128, 64, 32, 16, 8, 4, 2, 1, 0}));
  // The block's sum: what its 256 global loads read, in shared word 0 at the end and in the global store.
  int32_t sum = 0;
  for (const auto& rec : t.records) {
    if (rec.kind == static_cast<uint8_t>(AccessKind::GlobalLoad)) sum += rec.value;
  }
  EXPECT_EQ(r.steps().back().smem[0], sum);
  EXPECT_EQ(t.meta.result, sum);
  // Every shared access is on the loop's or the load's line of the example.
  for (const auto& a : r.accesses()) EXPECT_TRUE(a.line == 28 || a.line == 32 || a.line == 35) << a.line;
  // Its values are int32 because its parameters say so (int const*), and the trace says where the type came from.
  EXPECT_EQ(t.meta.dtype, DType::Int32);
  EXPECT_NE(t.meta.notes.find("int const*"), std::string::npos) << t.meta.notes;
}

// Issue 38, item 3: a float kernel attached with no --type shows floats: in `show`'s steps (describe_step) the
// shared words print as float32; --type int32 still overrides. Shuffles print no value where the API gives none.
TEST(BinaryTrace, FloatKernelsShowFloatsAndShufflesNoValue) {
  Fixture f = load("strided");
  f.capture.kernel = "reduce_strided(float const*, float*, unsigned int)";
  const Trace t = bt::assemble_trace(f.capture, f.sass, options());
  EXPECT_EQ(t.meta.dtype, DType::Float32);
  const Replay r(t);
  const std::string step0 = describe_step(r, 0, t.source);
  const WarpAccess& a = r.accesses()[r.step(0).accesses.front()];
  const int first = __builtin_ctz(a.lanes);
  const std::string word = "word " + std::to_string(a.addr[first] / 4) + " = ";
  EXPECT_NE(step0.find(word + format_value(static_cast<uint32_t>(a.value[first]), DType::Float32) + "]"),
            std::string::npos)
      << step0;
  bt::AssembleOptions as_int = options();
  as_int.dtype = DType::Int32;
  EXPECT_EQ(bt::assemble_trace(f.capture, f.sass, as_int).meta.dtype, DType::Int32);

  const Fixture s = load("shuffle");
  const Trace st = bt::assemble_trace(s.capture, s.sass, options());
  const Replay rs(st);
  bool shuffles = false;
  for (size_t i = 0; i < rs.num_steps(); ++i) {
    if (rs.step(i).shuffles.empty()) continue;
    shuffles = true;
    const std::string text = describe_step(rs, i, st.source);
    EXPECT_EQ(text.find(" (0)"), std::string::npos) << text;
    EXPECT_NE(text.find("no values"), std::string::npos) << text;
  }
  EXPECT_TRUE(shuffles);
}

TEST(BinaryTrace, ShuffleLanesComeFromTheSass) {
  const Fixture f = load("shuffle");
  const Trace t = bt::assemble_trace(f.capture, f.sass, options());
  const Replay r(t);
  ASSERT_TRUE(r.has_lane_work());
  // Five shuffles per warp of 8, then five more in warp 0.
  EXPECT_EQ(r.shuffle_instruction_count(), 8 * 5 + 5);
  for (const WarpShuffle& s : r.shuffles()) {
    EXPECT_EQ(s.op, static_cast<uint8_t>(ShuffleKind::Down));
    EXPECT_EQ(s.lanes, 0xffffffffu);
    ASSERT_EQ(s.moves.size(), 32u);
    EXPECT_TRUE(s.line == 42 || s.line == 48) << s.line;
  }
  // The first shuffle of warp 0: lane l reads lane l + 16, lanes 16..31 keep their own.
  const WarpShuffle& first = r.shuffles().front();
  for (const LaneMove& m : first.moves) EXPECT_EQ(m.src, m.dst < 16 ? m.dst + 16 : m.dst);
  EXPECT_NE(t.meta.notes.find("no shuffle values"), std::string::npos);
  for (const auto& rec : t.records) {
    if (rec.kind == static_cast<uint8_t>(AccessKind::Shuffle)) {
      EXPECT_TRUE(rec.op & kOpNoValues);
    }
  }
}

TEST(BinaryTrace, WithoutLineInfoTheSourceIsTheSass) {
  const Fixture f = load("strided_noline");
  bt::AssembleReport rep;
  const Trace t = bt::assemble_trace(f.capture, f.sass, options(), &rep);
  EXPECT_TRUE(rep.source_file.empty());
  EXPECT_NE(t.meta.notes.find("-lineinfo"), std::string::npos);
  const Replay r(t);
  for (const auto& a : r.accesses()) {
    const std::string text = source_line(t.source, a.line);
    EXPECT_TRUE(text.find(a.kind == AccessKind::Load ? "LDS" : "STS") != std::string::npos) << text;
  }
  EXPECT_EQ(r.load_conflicts(), 70);
}

TEST(BinaryTrace, SavesAsVersion4AndReadsBack) {
  test::TempDir dir;
  const Fixture f = load("strided");
  const Trace t = bt::assemble_trace(f.capture, f.sass, options());
  const std::string bytes = serialize_trace(t);
  uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  EXPECT_EQ(version, 4u);
  const Trace back = parse_trace(bytes, "b");
  EXPECT_EQ(back.meta.tracer, Tracer::Binary);
  EXPECT_EQ(back.meta.notes, t.meta.notes);
  EXPECT_EQ(back.meta.output_elements, t.meta.output_elements);
  EXPECT_EQ(back.records.size(), t.records.size());
  EXPECT_EQ(serialize_trace(back), bytes);
}

TEST(BinaryTrace, SourceProbeTracesStayVersion3) {
  Trace t;
  t.meta.kernel = "k";
  t.meta.block_size = 32;
  t.meta.smem_bytes = 128;
  TraceRecord r{};
  r.kind = static_cast<uint8_t>(AccessKind::Store);
  t.records.push_back(r);
  const std::string bytes = serialize_trace(t);
  uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  EXPECT_EQ(version, 3u);
  // The no-values bit is version 4's: a version 3 file with it is refused.
  Trace bad = t;
  bad.records[0].kind = static_cast<uint8_t>(AccessKind::SharedAtomic);
  bad.records[0].op = kOpNoValues;
  std::string b = serialize_trace(bad);  // written as version 4
  EXPECT_NO_THROW(parse_trace(b, "v4"));
  const uint32_t v3 = 3;
  std::memcpy(b.data() + 8, &v3, 4);
  EXPECT_THROW(parse_trace(b, "v3"), TraceFormatError);
}

TEST(BinaryTrace, UnknownShuffleLaneNeedsTheNoValuesBit) {
  TraceMeta m;
  m.block_size = 32;
  TraceRecord r{};
  r.kind = static_cast<uint8_t>(AccessKind::Shuffle);
  r.space = 32;
  r.lane_arg = kUnknownLane;
  EXPECT_FALSE(record_problem(m, r).empty());
  r.op = kOpNoValues;
  EXPECT_EQ(record_problem(m, r).say(), "");
}

}  // namespace
}  // namespace rs

namespace rs {
namespace {

// Proof by agreement on a pair recorded on the H100 (scripts/device/binary_trace.sh): reduce1 at 256 threads,
// N = 65536, block 0 traced by the source probe (`trace`) and by the binary tracer attached to `reducescope run`.
TEST(Proof, Reduce1SourceProbeAndBinaryAgree) {
  const Trace probe = load_trace(fixture_path("reduce1-probe.rstrace"));
  const Trace binary = load_trace(fixture_path("reduce1-binary.rstrace"));
  EXPECT_EQ(probe.meta.tracer, Tracer::SourceProbe);
  EXPECT_EQ(binary.meta.tracer, Tracer::Binary);
  const Replay p(probe), b(binary);
  std::map<std::string, bt::Agreement> rows;
  for (const auto& r : bt::compare_tracers(p, b)) rows[r.what] = r;
  EXPECT_TRUE(rows.at("steps").equal);
  EXPECT_TRUE(rows.at("shared memory after each step").equal) << rows.at("shared memory after each step").binary;
  EXPECT_TRUE(rows.at("load bank conflicts per step").equal);
  EXPECT_EQ(rows.at("load bank conflicts per step").probe, "0 8 12 14 14 14 6 2 0 0");
  EXPECT_TRUE(rows.at("store bank conflicts per step").equal);
  // Harris's kernels reach global memory through plain pointers: only the binary tracer sees those requests.
  EXPECT_TRUE(rows.at("global load / store requests").binary_only);
  EXPECT_EQ(rows.at("global load / store requests").binary, "8 / 1");
}

// The comparison can fail: one shared word changed in the binary trace is found at its step and word.
TEST(Proof, FindsAChangedWord) {
  const Trace probe = load_trace(fixture_path("reduce1-probe.rstrace"));
  Trace binary = load_trace(fixture_path("reduce1-binary.rstrace"));
  for (auto& r : binary.records) {
    if (r.kind == static_cast<uint8_t>(AccessKind::Store) && r.thread == 5 && r.epoch == 0) r.value += 1;
  }
  const Replay p(probe), b(binary);
  bool found = false;
  for (const auto& r : bt::compare_tracers(p, b)) {
    if (r.what != "shared memory after each step") continue;
    found = true;
    EXPECT_FALSE(r.equal);
    EXPECT_NE(r.binary.find("step 0, word 5"), std::string::npos) << r.binary;
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace rs

namespace rs {
namespace {

// trace ... -- PROGRAM ARGS: the binary tracer's command line.
TEST(AttachCli, ParsesOptionsAndTheProgram) {
  const Options o = parse_cli({"trace", "--kernel", "reduce_strided", "--launch", "2", "--block", "3,1,0", "--out",
                               "t.rstrace", "--type", "float32", "--", "./prog", "--n", "5", "--help"});
  EXPECT_EQ(o.command, Command::Trace);
  EXPECT_EQ(o.attach_kernel, "reduce_strided");
  EXPECT_EQ(o.launch, 2u);
  EXPECT_EQ(o.block_index, "3,1,0");
  EXPECT_EQ(o.out, "t.rstrace");
  ASSERT_EQ(o.dtypes.size(), 1u);
  EXPECT_EQ(o.dtypes[0], DType::Float32);
  // Everything after -- is the program's, --help included.
  EXPECT_EQ(o.program, (std::vector<std::string>{"./prog", "--n", "5", "--help"}));
  const Options d = parse_cli({"trace", "--kernel", "k", "--out", "t.rstrace", "--", "./prog"});
  EXPECT_EQ(d.launch, 1u);
  EXPECT_EQ(d.block_index, "0");
}

TEST(AttachCli, RefusesBadCommandLines) {
  EXPECT_THROW(parse_cli({"trace", "--kernel", "k", "--out", "t", "--"}), UsageError);               // no program
  EXPECT_THROW(parse_cli({"trace", "--out", "t", "--", "./p"}), UsageError);                        // no --kernel
  EXPECT_THROW(parse_cli({"trace", "--kernel", "k", "--", "./p"}), UsageError);                     // no --out
  EXPECT_THROW(parse_cli({"trace", "--kernel", "k", "--out", "t", "--launch", "0", "--", "./p"}), UsageError);
  EXPECT_THROW(parse_cli({"trace", "--kernel", "k", "--out", "t", "--block", "1,2", "--", "./p"}), UsageError);
  EXPECT_THROW(parse_cli({"trace", "--kernel", "k", "--out", "t", "--block", "x", "--", "./p"}), UsageError);
  EXPECT_THROW(parse_cli({"trace", "--kernel", "k", "--out", "t", "--n", "5", "--", "./p"}), UsageError);
  EXPECT_THROW(parse_cli({"trace", "--kernel", "k", "--out", "t", "--type", "int8", "--", "./p"}), UsageError);
}

}  // namespace
}  // namespace rs

#include "session.hpp"
#include "web_export.hpp"

namespace rs {
namespace {

// A binary trace travels in a session like any other (the format holds version 4 traces) and becomes a page.
TEST(BinaryTrace, TravelsInASessionAndAPage) {
  const Fixture f = load("shuffle");
  Session s;
  s.meta.gpu = f.capture.gpu;
  s.meta.n = 1;
  s.traces.push_back(bt::assemble_trace(f.capture, f.sass, options()));
  const Session back = parse_session(serialize_session(s), "s.rssession");
  ASSERT_EQ(back.traces.size(), 1u);
  EXPECT_EQ(back.traces[0].meta.tracer, Tracer::Binary);
  EXPECT_EQ(back.traces[0].records.size(), s.traces[0].records.size());
  EXPECT_EQ(back.traces[0].meta.notes, s.traces[0].meta.notes);
  // The page's data says it is a binary trace, with its notes.
  const std::string json = web_trace_json(back.traces[0], 0);
  EXPECT_NE(json.find("\"binary\":true"), std::string::npos);
  EXPECT_NE(json.find("no shuffle values"), std::string::npos);
}

}  // namespace
}  // namespace rs

namespace rs {
namespace {

// verify --binary on the pitfalls whose shared memory is a raw extern __shared__ array on purpose
// (pitfall_no_volatile, pitfall_no_syncwarp): the source probe records no shared memory for them, so the shared
// memory and its bank conflicts are the binary tracer's only, said so, not a disagreement. The bundled session holds
// both tracers' block 0 at 64 and 256 threads (recorded on the H100 on 2026-11-26).
TEST(Proof, PitfallsWithRawSharedMemoryAreBinaryOnly) {
  const Session s = load_session(std::string(RS_SOURCE_DIR) + "/assets/sessions/h100-tracks.rssession");
  for (const char* k : {"pitfall_no_volatile", "pitfall_no_syncwarp"}) {
    for (uint32_t bs : {64u, 256u}) {
      SCOPED_TRACE(std::string(k) + " at " + std::to_string(bs));
      const Trace* probe = s.find_trace(k, bs, DType::Int32, Tracer::SourceProbe);
      const Trace* binary = s.find_trace(k, bs, DType::Int32, Tracer::Binary);
      ASSERT_TRUE(probe && binary);
      const Replay p(*probe), b(*binary);
      EXPECT_FALSE(p.has_shared());
      EXPECT_TRUE(b.has_shared());
      std::map<std::string, bt::Agreement> rows;
      for (const auto& r : bt::compare_tracers(p, b)) rows[r.what] = r;
      for (const char* only : {"shared memory after each step", "load bank conflicts per step", "store bank conflicts per step"}) {
        EXPECT_TRUE(rows.at(only).binary_only) << only;
        EXPECT_NE(rows.at(only).probe.find("not traced"), std::string::npos) << only << ": " << rows.at(only).probe;
      }
      EXPECT_EQ(rows.at("shared memory after each step").binary, std::to_string(b.num_words()) + " words");
      // What both tracers see, compared for real: the steps (barriers) and the global requests and sectors.
      for (const char* both : {"steps", "global load / store requests", "global load / store sectors"}) {
        EXPECT_TRUE(rows.at(both).equal && !rows.at(both).binary_only) << both << ": " << rows.at(both).probe << " vs "
                                                                      << rows.at(both).binary;
      }
    }
  }
}

}  // namespace
}  // namespace rs
