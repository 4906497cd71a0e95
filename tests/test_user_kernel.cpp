// A user's kernel file through NVRTC (kernels/user_kernel.hpp): the compile path, which needs no GPU. Every
// starting file compiles in both builds with the launch shape of the shipped kernel it follows; broken files
// give their errors at the right lines; the entry point, its signature and the launch shape are checked;
// files that are no kernel files (missing, a directory, empty, binary, half-written) are refused clearly.
// In a build without NVRTC the compile tests are skipped; the log parser and the file checks still run.
#include <gtest/gtest.h>
#include <unistd.h>  // getpid

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "kernel_info.hpp"
#include "user_kernel.hpp"

namespace rs {
namespace {

namespace fs = std::filesystem;

#define REQUIRE_NVRTC() \
  if (!user_kernels_supported()) GTEST_SKIP() << "this build has no NVRTC"

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string all(const std::vector<UserDiagnostic>& ds) {
  std::string s;
  for (const UserDiagnostic& d : ds) s += format_diagnostic(d) + "\n";
  return s;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh folder under the test's temporary directory.
fs::path temp_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("rs_user_kernel_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

fs::path write_file(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

// The 1-based line of the code of `s` (from its #include on) that holds `part` (0 if none).
unsigned line_of(const std::string& s, const std::string& part) {
  const size_t at = s.find(part, s.find("\n#include"));
  if (at == std::string::npos) return 0;
  return static_cast<unsigned>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(at), '\n') + 1);
}

// `text` with the first `from` in its code replaced by `to` (which must be there). The code starts at the
// #include: the comment block above it quotes the entry point too.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from, text.find("\n#include"));
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

const std::string& reduce2() {
  static const std::string s = starting_file("reduce2", /*wrapped=*/true);
  return s;
}

// The first error, which the test expects to be there.
UserDiagnostic first_error(const UserCompileResult& r) {
  for (const UserDiagnostic& d : r.diagnostics) {
    if (d.is_error()) return d;
  }
  ADD_FAILURE() << "no error in:\n" << all(r.diagnostics);
  return {};
}

// ---- the embedded files -------------------------------------------------------------------------

TEST(UserKernelEmbedded, HeadersAreTheSourceFiles) {
  const std::vector<std::pair<std::string, fs::path>> files = {
      {"launch_shape.cuh", fs::path(RS_SOURCE_DIR) / "kernels/user/launch_shape.cuh"},
      {"reducescope.cuh", fs::path(RS_SOURCE_DIR) / "kernels/user/reducescope.cuh"},
      {"probe.cuh", fs::path(RS_SOURCE_DIR) / "tracing/probe.cuh"},
      {"trace_format.hpp", fs::path(RS_SOURCE_DIR) / "tracing/trace_format.hpp"}};
  ASSERT_EQ(user_kernel_headers().size(), files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    EXPECT_EQ(user_kernel_headers()[i].name, files[i].first);
    EXPECT_EQ(user_kernel_headers()[i].text, read(files[i].second)) << files[i].first << " is stale: re-run CMake";
  }
}

TEST(UserKernelEmbedded, StartingFiles) {
  EXPECT_EQ(starting_file_names(), "reduce0, reduce1, reduce2, reduce3, sum_shared, sum_shuffle");
  // Plain CUDA (kernels/user/) and the wrapped dialect (kernels/user/wrapped/), the same kernels in both.
  ASSERT_EQ(starting_files().size(), wrapped_starting_files().size());
  for (bool wrapped : {false, true}) {
    for (const StartingFile& f : wrapped ? wrapped_starting_files() : starting_files()) {
      ASSERT_NE(find_kernel(f.kernel), nullptr) << f.kernel << " is not a shipped kernel";
      const fs::path dir = fs::path(RS_SOURCE_DIR) / (wrapped ? "kernels/user/wrapped" : "kernels/user");
      EXPECT_EQ(f.text, read(dir / (std::string(f.kernel) + ".cu")));
      const std::string text = f.text;
      EXPECT_TRUE(contains(text, "What you may change:")) << f.kernel;
      EXPECT_TRUE(contains(text, "What must stay:")) << f.kernel;
      EXPECT_EQ(contains(text, "\n#include \"reducescope.cuh\""), wrapped) << f.kernel;
      EXPECT_TRUE(contains(text, wrapped ? "__global__ void user_kernel(const T* in, T* out, unsigned n, Probe probe)"
                                         : "__global__ void user_kernel(const T* in, T* out, unsigned n) {"))
          << f.kernel;
      EXPECT_EQ(starting_file(f.kernel, wrapped), f.text);
    }
  }
  EXPECT_EQ(starting_file("sum_atomic"), nullptr);
  EXPECT_EQ(starting_file(""), nullptr);
}

// ---- NVRTC's log --------------------------------------------------------------------------------

TEST(UserKernelLog, ParsesLinesColumnsAndHeaderErrors) {
  const std::string log =
      "my dir(1)/k.cu(7): error: identifier \"undefined_thing\" is undefined\n"
      "  \tint y = undefined_thing;\n"
      "  \t        ^\n"
      "\n"
      "probe.cuh(385): error: static assertion failed with \"the input buffer is read-only\"\n"
      "        static_assert(!std::is_const_v<T>, \"the input buffer is read-only\");\n"
      "        ^\n"
      "          detected during:\n"
      "            instantiation of \"Ref::operator=(V) [with T=const float]\" at line 6 of my dir(1)/k.cu\n"
      "            instantiation of \"void user_kernel(const T *, T *, unsigned int, Probe) [with T=float]\" \n"
      "\n"
      "my dir(1)/k.cu(12): warning #177-D: variable \"x\" was declared but never referenced\n"
      "    int x;\n"
      "        ^\n"
      "\n"
      "my dir(1)/k.cu(1): catastrophic error: cannot open source file \"nope.h\"\n"
      "  #include \"nope.h\"\n"
      "                   ^\n"
      "\n"
      "3 errors detected in the compilation of \"my dir(1)/k.cu\".\n"
      "Compilation terminated.\n";
  const std::vector<UserDiagnostic> d = parse_nvrtc_log(log, "my dir(1)/k.cu");
  ASSERT_EQ(d.size(), 4u) << all(d);
  EXPECT_EQ(format_diagnostic(d[0]), "my dir(1)/k.cu:7:10: error: identifier \"undefined_thing\" is undefined");
  // The header's error, at the user's line that caused it.
  EXPECT_EQ(d[1].file, "my dir(1)/k.cu");
  EXPECT_EQ(d[1].line, 6u);
  EXPECT_EQ(d[1].column, 0u);
  EXPECT_EQ(d[1].message, "static assertion failed with \"the input buffer is read-only\" (in probe.cuh:385)");
  EXPECT_EQ(format_diagnostic(d[2]), "my dir(1)/k.cu:12:7: warning: variable \"x\" was declared but never referenced");
  EXPECT_FALSE(d[2].is_error());
  EXPECT_EQ(d[3].severity, "catastrophic error");
  EXPECT_TRUE(d[3].is_error());
  EXPECT_EQ(d[3].column, 18u);
  EXPECT_TRUE(parse_nvrtc_log("", "k.cu").empty());
}

TEST(UserKernelLog, Format) {
  EXPECT_EQ(format_diagnostic({"k.cu", 3, 5, "error", "m"}), "k.cu:3:5: error: m");
  EXPECT_EQ(format_diagnostic({"k.cu", 3, 0, "error", "m"}), "k.cu:3: error: m");
  EXPECT_EQ(format_diagnostic({"k.cu", 0, 0, "error", "m"}), "k.cu: error: m");
}

// ---- files that are not kernel files (no NVRTC needed) -------------------------------------------

TEST(UserKernelFile, RefusesWhatIsNoKernelFile) {
  const fs::path dir = temp_dir("files");
  std::string text;
  auto problem = [&](const fs::path& p) {
    const std::optional<UserDiagnostic> d = read_kernel_file(p.string(), text);
    EXPECT_TRUE(d.has_value()) << p;
    if (!d) return std::string();
    EXPECT_EQ(d->file, p.string());
    EXPECT_EQ(d->line, 0u);
    EXPECT_TRUE(d->is_error());
    return d->message;
  };
  EXPECT_TRUE(contains(problem(dir / "missing.cu"), "no such file"));
  EXPECT_TRUE(contains(problem(dir), "is a directory"));
  EXPECT_TRUE(contains(problem(write_file(dir / "nul.cu", std::string("#include \"reducescope.cuh\"\0abc", 30))),
                       "not a text file (a NUL byte at offset 26)"));
  EXPECT_TRUE(contains(problem(write_file(dir / "big.cu", std::string((1u << 20) + 1, ' '))), "over 1 MiB"));
  // An empty file reads; compiling it says it is empty (with or without NVRTC).
  EXPECT_FALSE(read_kernel_file(write_file(dir / "empty.cu", "").string(), text).has_value());
  for (const char* empty : {"", " \n\t\n"}) {
    const UserCompileResult r = compile_user_kernel_file(write_file(dir / "empty.cu", empty).string());
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(contains(first_error(r).message, "the file is empty")) << all(r.diagnostics);
    EXPECT_TRUE(contains(first_error(r).message, "reducescope new --from reduce1")) << all(r.diagnostics);
  }
  // A directory given to the compile, too.
  const UserCompileResult r = compile_user_kernel_file(dir.string());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(all(r.diagnostics), "is a directory")) << all(r.diagnostics);
  fs::remove_all(dir);
}

// A wrapped kernel (the Probe parameter) without the #include is read as plain CUDA: its signature is wrong there,
// and the message says which include the wrapped dialect needs.
TEST(UserKernelFile, WrappedWithoutThePrelude) {
  REQUIRE_NVRTC();
  const std::string text = replaced(reduce2(), "#include \"reducescope.cuh\"", "");
  const UserCompileResult r = compile_user_kernel(text, "k.cu");
  ASSERT_FALSE(r.ok());
  const UserDiagnostic e = first_error(r);
  EXPECT_EQ(e.line, line_of(reduce2(), "__global__ void user_kernel")) << all(r.diagnostics);
  EXPECT_TRUE(contains(e.message, "wrong signature: user_kernel must be template <class T> __global__ void "
                                  "user_kernel(const T* in, T* out, unsigned n)"))
      << e.message;
  EXPECT_TRUE(contains(e.message, "the wrapped dialect, which needs #include \"reducescope.cuh\"")) << e.message;
}

// ---- compiling (NVRTC, no GPU) ------------------------------------------------------------------

// Every starting file compiles in both builds, for int and float, with the launch shape of the shipped
// kernel it follows.
TEST(UserKernelCompile, EveryWrappedStartingFile) {
  REQUIRE_NVRTC();
  for (const StartingFile& f : wrapped_starting_files()) {
    SCOPED_TRACE(f.kernel);
    const std::string name = std::string(f.kernel) + ".cu";
    const UserCompileResult r = compile_user_kernel(f.text, name);
    ASSERT_TRUE(r.ok()) << all(r.diagnostics);
    const UserKernel& k = *r.kernel;
    EXPECT_TRUE(k.warnings.empty()) << all(k.warnings);
    EXPECT_EQ(k.file_name, name);
    EXPECT_EQ(k.source, f.text);
    EXPECT_EQ(k.arch, "compute_75");
    EXPECT_EQ(k.dtypes, dtype_bit(DType::Int32) | dtype_bit(DType::Float32));
    const KernelInfo& shipped = *find_kernel(f.kernel);
    EXPECT_EQ(k.shape.inputs_per_thread, shipped.inputs_per_thread);
    EXPECT_EQ(k.shape.finish, shipped.finish);
    EXPECT_EQ(k.shape.min_block_size, shipped.min_block_size);
    for (const UserBuild* b : {&k.timing, &k.tracing}) {
      EXPECT_TRUE(contains(b->ptx, ".target sm_75")) << b->ptx.substr(0, 400);
      EXPECT_TRUE(contains(b->ptx, ".entry " + b->int_entry + "(")) << b->int_entry;
      EXPECT_TRUE(contains(b->ptx, ".entry " + b->float_entry + "(")) << b->float_entry;
      EXPECT_TRUE(contains(b->ptx, ".loc")) << "-lineinfo";
    }
    EXPECT_EQ(k.timing.int_entry, "_Z11user_kernelIiN2rs9NullProbeEEvPKT_PS2_jT0_");
    EXPECT_EQ(k.timing.float_entry, "_Z11user_kernelIfN2rs9NullProbeEEvPKT_PS2_jT0_");
    EXPECT_EQ(k.tracing.int_entry, "_Z11user_kernelIiN2rs10TraceProbeEEvPKT_PS2_jT0_");
    EXPECT_EQ(k.tracing.float_entry, "_Z11user_kernelIfN2rs10TraceProbeEEvPKT_PS2_jT0_");
    // The tracing build writes records: it takes a slot with an atomic on the record counter and reads
    // __activemask(); the timing build of a kernel without atomics has neither.
    EXPECT_TRUE(contains(k.tracing.ptx, "activemask")) << f.kernel;
    if (shipped.finish == Finish::Relaunch) {
      EXPECT_FALSE(contains(k.timing.ptx, "atom.")) << f.kernel;
    }
  }
}

// Every plain starting file and exercise file (and each exercise's plain solution) compiles once, to a cubin for
// the asked-for sm_<cc> with a line table, for int and float, with the launch shape of the kernel it follows.
TEST(UserKernelCompile, EveryPlainFile) {
  REQUIRE_NVRTC();
  std::vector<std::pair<std::string, std::string>> files;  // name, text
  for (const StartingFile& f : starting_files()) files.emplace_back(std::string(f.kernel) + ".cu", f.text);
  for (const StartingFile& f : exercise_starting_files()) {
    files.emplace_back(std::string(f.kernel) + ".cu", f.text);
    const fs::path sol = fs::path(RS_SOURCE_DIR) / "kernels/user/solutions" / (std::string(f.kernel) + ".cu");
    files.emplace_back("solution_" + std::string(f.kernel) + ".cu", read(sol));
  }
  for (const auto& [name, text] : files) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(contains(text, "\n#include \"reducescope.cuh\""));
    const UserCompileResult r = compile_user_kernel(text, name, {.cc = 90});
    ASSERT_TRUE(r.ok()) << all(r.diagnostics);
    const UserKernel& k = *r.kernel;
    EXPECT_TRUE(k.plain);
    EXPECT_TRUE(k.warnings.empty()) << all(k.warnings);
    EXPECT_EQ(k.source, text);
    if (contains(name, "histogram")) {  // the exercise histogram: user_histogram, bytes in, no element type
      EXPECT_EQ(k.entry, UserEntry::Histogram);
      EXPECT_EQ(k.timing.int_entry, "_Z14user_histogramPKhlPj");
      EXPECT_TRUE(k.timing.float_entry.empty());
    } else {
      EXPECT_EQ(k.entry, UserEntry::Reduction);
      EXPECT_EQ(k.dtypes, dtype_bit(DType::Int32) | dtype_bit(DType::Float32));
      EXPECT_EQ(k.timing.int_entry, "_Z11user_kernelIiEvPKT_PS0_j");
      EXPECT_EQ(k.timing.float_entry, "_Z11user_kernelIfEvPKT_PS0_j");
    }
    EXPECT_TRUE(k.tracing.empty());
    // An ELF cubin for sm_90 (EM_CUDA = 190), with the -lineinfo line table the binary tracer reads.
    ASSERT_GT(k.timing.cubin.size(), 64u);
    EXPECT_EQ(k.timing.cubin.compare(0, 4, "\x7f" "ELF"), 0);
    EXPECT_EQ(static_cast<unsigned char>(k.timing.cubin[18]), 190u);
    EXPECT_TRUE(contains(k.timing.cubin, ".nv_debug_line_sass") || contains(k.timing.cubin, ".debug_line"));
    EXPECT_TRUE(contains(k.timing.ptx, ".loc")) << "-lineinfo";
    if (const KernelInfo* shipped = find_kernel(name.substr(0, name.size() - 3))) {
      EXPECT_EQ(k.shape.inputs_per_thread, shipped->inputs_per_thread);
      EXPECT_EQ(k.shape.finish, shipped->finish);
      EXPECT_EQ(k.shape.min_block_size, shipped->min_block_size);
    }
    // Saved and loaded (the window compiles, the worker runs), the dialect and the cubin come back.
    const fs::path saved = fs::temp_directory_path() / ("rs_plain_" + std::to_string(::getpid()) + ".rsuk");
    save_user_kernel(k, saved.string());
    const UserKernel back = load_user_kernel(saved.string());
    fs::remove(saved);
    EXPECT_TRUE(back.plain);
    EXPECT_EQ(back.entry, k.entry);
    EXPECT_EQ(back.timing.cubin, k.timing.cubin);
    EXPECT_EQ(back.timing.int_entry, k.timing.int_entry);
  }
}

// A plain file may not include reducescope.cuh's macros by accident, but may include launch_shape.cuh itself.
TEST(UserKernelCompile, PlainWithTheShapeHeaderIncluded) {
  REQUIRE_NVRTC();
  const std::string text = std::string("#include \"launch_shape.cuh\"\n") + starting_file("reduce2");
  const UserCompileResult r = compile_user_kernel(text, "k.cu");
  ASSERT_TRUE(r.ok()) << all(r.diagnostics);
  EXPECT_TRUE(r.kernel->plain);
}

TEST(UserKernelCompile, ForAGivenArchitecture) {
  REQUIRE_NVRTC();
  const UserCompileResult r = compile_user_kernel(reduce2(), "k.cu", {.cc = 90});
  ASSERT_TRUE(r.ok()) << all(r.diagnostics);
  EXPECT_EQ(r.kernel->arch, "compute_90");
  EXPECT_TRUE(contains(r.kernel->timing.ptx, ".target sm_90"));
}

// Without NVRTC's precompiled header (the CLI, which compiles once): the same kernel, the same PTX and cubin, and a
// compile error still at its line.
TEST(UserKernelCompile, WithoutThePrecompiledHeaderTheSameBuild) {
  REQUIRE_NVRTC();
  for (const std::string& text : std::vector<std::string>{reduce2(), starting_file("reduce2")}) {
    const UserCompileResult with = compile_user_kernel(text, "k.cu", {.cc = 90});
    const UserCompileResult without = compile_user_kernel(text, "k.cu", {.cc = 90, .pch = false});
    ASSERT_TRUE(with.ok()) << all(with.diagnostics);
    ASSERT_TRUE(without.ok()) << all(without.diagnostics);
    EXPECT_EQ(with.kernel->plain, without.kernel->plain);
    EXPECT_EQ(with.kernel->timing.ptx, without.kernel->timing.ptx);
    EXPECT_EQ(with.kernel->tracing.ptx, without.kernel->tracing.ptx);
    EXPECT_EQ(with.kernel->timing.cubin, without.kernel->timing.cubin);
  }
  const std::string bad = replaced(reduce2(), "sdata[tid] += sdata[tid + s];", "sdata[tid] += sdata[tid + oops];");
  const UserCompileResult r = compile_user_kernel(bad, "k.cu", {.cc = 90, .pch = false});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(all(r.diagnostics), "oops")) << all(r.diagnostics);
}

TEST(UserKernelCompile, SyntaxErrorAtItsLine) {
  REQUIRE_NVRTC();
  // An undefined name: NVRTC points at it, line and column.
  const std::string bad = replaced(reduce2(), "sdata[tid] += sdata[tid + s];", "sdata[tid] += sdata[tid + oops];");
  const unsigned line = line_of(bad, "oops");
  const UserCompileResult r = compile_user_kernel(bad, "bad.cu");
  ASSERT_FALSE(r.ok());
  const UserDiagnostic e = first_error(r);
  EXPECT_EQ(e.file, "bad.cu");
  EXPECT_EQ(e.line, line) << all(r.diagnostics);
  EXPECT_EQ(e.column, 33u) << all(r.diagnostics);  // "      sdata[tid] += sdata[tid + oops];"
  EXPECT_TRUE(contains(e.message, "\"oops\" is undefined")) << e.message;
  // Only the one error (both builds and both types report it: kept once), and no entry-point error.
  EXPECT_EQ(r.diagnostics.size(), 1u) << all(r.diagnostics);

  // A missing ';': like any C++ compiler, NVRTC reports it at the next token, on the line after.
  const std::string semi = replaced(reduce2(), "sdata[tid] += sdata[tid + s];", "sdata[tid] += sdata[tid + s]");
  const UserCompileResult r2 = compile_user_kernel(semi, "semi.cu");
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(first_error(r2).line, line_of(semi, "sdata[tid] += sdata[tid + s]") + 1) << all(r2.diagnostics);
  EXPECT_TRUE(contains(first_error(r2).message, "expected a \";\"")) << all(r2.diagnostics);
}

TEST(UserKernelCompile, ErrorInAWrapperAtTheUsersLine) {
  REQUIRE_NVRTC();
  // A store to the input, which GlobalArray<const T> refuses in probe.cuh: reported at the user's line.
  const std::string bad = replaced(reduce2(), "  __syncthreads();\n", "  g_idata[i] = T(1);\n  __syncthreads();\n");
  const UserCompileResult r = compile_user_kernel(bad, "store.cu");
  ASSERT_FALSE(r.ok());
  const UserDiagnostic e = first_error(r);
  EXPECT_EQ(e.file, "store.cu") << all(r.diagnostics);
  EXPECT_EQ(e.line, line_of(bad, "g_idata[i] = T(1);")) << all(r.diagnostics);
  EXPECT_TRUE(contains(e.message, "the input buffer is read-only")) << e.message;
  EXPECT_TRUE(std::regex_search(e.message, std::regex(R"(\(in probe\.cuh:\d+\))"))) << e.message;
}

TEST(UserKernelCompile, NoEntryPoint) {
  REQUIRE_NVRTC();
  for (const std::string& bad : {std::regex_replace(reduce2(), std::regex("user_kernel"), "my_kernel"),
                                 // inside a namespace: not at global scope
                                 replaced(replaced(reduce2(), "template <class T, class Probe>\n__global__",
                                                   "namespace mine {\ntemplate <class T, class Probe>\n__global__"),
                                          "g_odata[blockIdx.x] = sdata[0];\n}\n",
                                          "g_odata[blockIdx.x] = sdata[0];\n}\n}  // namespace mine\n")}) {
    const UserCompileResult r = compile_user_kernel(bad, "none.cu");
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.diagnostics.size(), 1u) << all(r.diagnostics);
    EXPECT_EQ(format_diagnostic(r.diagnostics[0]).rfind("none.cu: error: no entry point: the file defines no user_kernel", 0), 0u)
        << all(r.diagnostics);
    EXPECT_TRUE(contains(r.diagnostics[0].message, "unsigned n, Probe probe)")) << all(r.diagnostics);
  }
}

TEST(UserKernelCompile, WrongSignature) {
  REQUIRE_NVRTC();
  const std::vector<std::string> bad = {
      replaced(reduce2(), "unsigned n, Probe probe", "int n, Probe probe"),  // compiles, but not the entry point
      replaced(reduce2(), "const T* in, T* out", "T* in, T* out"),
      // one template parameter: user_kernel<int, rs::NullProbe> names nothing
      replaced(replaced(replaced(reduce2(), "template <class T, class Probe>\n__global__", "template <class Probe>\n__global__"),
                        "const T* in, T* out", "const int* in, int* out"),
               "GlobalArray<const T, Probe>", "GlobalArray<const int, Probe>"),
  };
  for (const std::string& b : bad) {
    const UserCompileResult r = compile_user_kernel(b, "sig.cu");
    ASSERT_FALSE(r.ok());
    const UserDiagnostic e = first_error(r);
    EXPECT_TRUE(contains(e.message, "wrong signature: user_kernel must be template <class T, class Probe>")) << all(r.diagnostics);
    // At the declaration.
    EXPECT_EQ(e.line, line_of(b, "__global__ void user_kernel")) << all(r.diagnostics);
    EXPECT_EQ(e.column, 17u) << all(r.diagnostics);
  }
}

TEST(UserKernelCompile, NotAKernel) {
  REQUIRE_NVRTC();
  const std::string bad = replaced(reduce2(), "__global__ void user_kernel", "__device__ void user_kernel");
  const UserCompileResult r = compile_user_kernel(bad, "dev.cu");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(first_error(r).message, "user_kernel is not a kernel: declare it __global__")) << all(r.diagnostics);
  EXPECT_EQ(first_error(r).line, line_of(bad, "__device__ void user_kernel")) << all(r.diagnostics);
}

TEST(UserKernelCompile, LaunchShape) {
  REQUIRE_NVRTC();
  const std::string shape = "RS_LAUNCH_SHAPE(1, Relaunch, 32);";
  {  // missing
    const UserCompileResult r = compile_user_kernel(replaced(reduce2(), shape, ""), "shape.cu");
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.diagnostics.size(), 1u) << all(r.diagnostics);
    EXPECT_TRUE(contains(r.diagnostics[0].message, "no launch shape: add RS_LAUNCH_SHAPE(")) << all(r.diagnostics);
  }
  // Each finish reads back as itself; HostSum is refused.
  const std::vector<std::pair<const char*, Finish>> finishes = {{"Relaunch", Finish::Relaunch},
                                                                {"GlobalAtomic", Finish::GlobalAtomic},
                                                                {"SecondKernel", Finish::SecondKernel},
                                                                {"SinglePass", Finish::SinglePass},
                                                                {"HostReduce", Finish::HostReduce}};
  for (const auto& [word, finish] : finishes) {
    const UserCompileResult r =
        compile_user_kernel(replaced(reduce2(), shape, std::string("RS_LAUNCH_SHAPE(8, ") + word + ", 1024);"), "s.cu");
    ASSERT_TRUE(r.ok()) << word << "\n" << all(r.diagnostics);
    EXPECT_EQ(r.kernel->shape.finish, finish) << word;
    EXPECT_EQ(r.kernel->shape.inputs_per_thread, 8u);
    EXPECT_EQ(r.kernel->shape.min_block_size, 1024u);
  }
  struct Bad {
    const char* shape;
    const char* says;
  };
  for (const Bad& b : {Bad{"RS_LAUNCH_SHAPE(1, HostSum, 32);", "HostSum works in place"},
                       Bad{"RS_LAUNCH_SHAPE(9, Relaunch, 32);", "elements per thread must be 1 to 8"},
                       Bad{"RS_LAUNCH_SHAPE(0, Relaunch, 32);", "elements per thread must be 1 to 8"},
                       Bad{"RS_LAUNCH_SHAPE(1, Relaunch, 48);", "minimum block size must be 32, 64"},
                       Bad{"RS_LAUNCH_SHAPE(1, Relaunch, 2048);", "minimum block size must be 32, 64"},
                       Bad{"RS_LAUNCH_SHAPE(1, Sometimes, 32);", "Sometimes"}}) {
    const std::string text = replaced(reduce2(), shape, b.shape);
    const UserCompileResult r = compile_user_kernel(text, "s.cu");
    ASSERT_FALSE(r.ok()) << b.shape;
    EXPECT_TRUE(contains(first_error(r).message, b.says)) << b.shape << "\n" << all(r.diagnostics);
    EXPECT_EQ(first_error(r).line, line_of(text, b.shape)) << b.shape << "\n" << all(r.diagnostics);
  }
}

TEST(UserKernelCompile, FloatWhereItCompiles) {
  REQUIRE_NVRTC();
  // `%` on T: fine for int, not for float.
  const std::string int_only =
      replaced(reduce2(), "  __syncthreads();\n", "  if (tid == 0) sdata[1] = sdata[1] % T(2);\n  __syncthreads();\n");
  const UserCompileResult r = compile_user_kernel(int_only, "int.cu");
  ASSERT_TRUE(r.ok()) << all(r.diagnostics);
  EXPECT_EQ(r.kernel->dtypes, dtype_bit(DType::Int32));
  EXPECT_TRUE(r.kernel->timing.float_entry.empty());
  EXPECT_TRUE(r.kernel->tracing.float_entry.empty());
  ASSERT_FALSE(r.kernel->warnings.empty());
  EXPECT_TRUE(contains(all(r.kernel->warnings), "float32 is not taken")) << all(r.kernel->warnings);
  EXPECT_TRUE(contains(all(r.kernel->warnings), "int.cu:" + std::to_string(line_of(int_only, "% T(2)"))))
      << all(r.kernel->warnings);
  // Saved for another process (`check --compiled`, grade's compiling ahead), the warnings come back, each field.
  const fs::path dir = temp_dir("warnings");
  save_user_kernel(*r.kernel, (dir / "int.rsuk").string());
  const UserKernel back = load_user_kernel((dir / "int.rsuk").string());
  ASSERT_EQ(back.warnings.size(), r.kernel->warnings.size());
  for (size_t i = 0; i < back.warnings.size(); ++i) {
    EXPECT_EQ(format_diagnostic(back.warnings[i]), format_diagnostic(r.kernel->warnings[i]));
    EXPECT_EQ(back.warnings[i].column, r.kernel->warnings[i].column);
  }
  fs::remove_all(dir);
}

TEST(UserKernelCompile, HalfWrittenFile) {
  REQUIRE_NVRTC();
  const fs::path dir = temp_dir("half");
  const std::string& full = reduce2();
  const std::string half = full.substr(0, full.find("for (unsigned int s") + 12);  // ends mid-line
  const fs::path p = write_file(dir / "half.cu", half);
  const UserCompileResult r = compile_user_kernel_file(p.string());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(first_error(r).is_error());
  EXPECT_EQ(r.diagnostics.back().severity, "note") << all(r.diagnostics);
  EXPECT_EQ(r.diagnostics.back().line, line_of(full, "for (unsigned int s")) << all(r.diagnostics);
  EXPECT_TRUE(contains(r.diagnostics.back().message, "ends mid-line")) << all(r.diagnostics);
  // The whole file, saved: compiles.
  const UserCompileResult whole = compile_user_kernel_file(write_file(dir / "whole.cu", full).string());
  EXPECT_TRUE(whole.ok()) << all(whole.diagnostics);
  fs::remove_all(dir);
}

// Every exercise's starting file (embedded: `new --exercise`) and its reference solution (kernels/user/solutions/)
// compile in both builds, for int32 and float32, and the solution declares the launch shape its check needs. On
// the H100 each starting file fails its exercise's check and each solution passes (scripts/device/user_kernel.sh).
TEST(UserKernelCompile, EveryExerciseAndSolution) {
  REQUIRE_NVRTC();
  ASSERT_GE(exercise_starting_files().size(), 6u);
  for (const StartingFile& x : exercise_starting_files()) {
    SCOPED_TRACE(x.kernel);
    const UserCompileResult start = compile_user_kernel(x.text, std::string(x.kernel) + ".cu");
    ASSERT_TRUE(start.ok()) << all(start.diagnostics);
    const fs::path sol = fs::path(RS_SOURCE_DIR) / "kernels/user/solutions" / (std::string(x.kernel) + ".cu");
    const UserCompileResult solved = compile_user_kernel_file(sol.string());
    ASSERT_TRUE(solved.ok()) << all(solved.diagnostics);
    const std::string name = x.kernel;
    if (name == "histogram") {
      // A histogram: the starting file has no shared-memory atomic, the solution has (the check "private bins in
      // shared memory" reads the PTX for atom.shared).
      EXPECT_EQ(start.kernel->entry, UserEntry::Histogram);
      EXPECT_EQ(solved.kernel->entry, UserEntry::Histogram);
      EXPECT_FALSE(contains(start.kernel->timing.ptx, "atom.shared"));
      EXPECT_TRUE(contains(solved.kernel->timing.ptx, "atom.shared"));
      continue;
    }
    EXPECT_EQ(start.kernel->dtypes, dtype_bit(DType::Int32) | dtype_bit(DType::Float32));
    EXPECT_EQ(solved.kernel->dtypes, dtype_bit(DType::Int32) | dtype_bit(DType::Float32));
    if (name == "first_add") {
      EXPECT_EQ(start.kernel->shape.inputs_per_thread, 1u);
      EXPECT_EQ(solved.kernel->shape.inputs_per_thread, 2u);
    }
    if (name == "single_pass") {
      EXPECT_EQ(start.kernel->shape.finish, Finish::Relaunch);
      EXPECT_EQ(solved.kernel->shape.finish, Finish::SinglePass);
    }
    if (name == "shuffle" || name == "unroll_last_warp") {
      EXPECT_EQ(solved.kernel->shape.min_block_size, 64u);
    }
  }
}

// A kernel compiled by one process and run by another (save_user_kernel, `--compiled FILE`): every field comes
// back; a file that is not one, or is cut short, is refused with its name.
TEST(UserKernelCompiled, SavedAndLoaded) {
  REQUIRE_NVRTC();
  const fs::path dir = temp_dir("compiled");
  const UserCompileResult r = compile_user_kernel(reduce2(), "r2.cu", {.cc = 90});
  ASSERT_TRUE(r.ok()) << all(r.diagnostics);
  const UserKernel& k = *r.kernel;
  const std::string path = (dir / "r2.rsuk").string();
  save_user_kernel(k, path);
  const UserKernel back = load_user_kernel(path);
  EXPECT_EQ(back.file_name, k.file_name);
  EXPECT_EQ(back.source, k.source);
  EXPECT_EQ(back.arch, "compute_90");
  EXPECT_EQ(back.shape.inputs_per_thread, k.shape.inputs_per_thread);
  EXPECT_EQ(back.shape.finish, k.shape.finish);
  EXPECT_EQ(back.shape.min_block_size, k.shape.min_block_size);
  EXPECT_EQ(back.dtypes, k.dtypes);
  EXPECT_EQ(back.timing.ptx, k.timing.ptx);
  EXPECT_EQ(back.tracing.ptx, k.tracing.ptx);
  EXPECT_EQ(back.timing.int_entry, k.timing.int_entry);
  EXPECT_EQ(back.tracing.float_entry, k.tracing.float_entry);
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string whole = ss.str();
  write_file(dir / "cut.rsuk", whole.substr(0, whole.size() / 2));
  try {
    load_user_kernel((dir / "cut.rsuk").string());
    ADD_FAILURE() << "a truncated compiled kernel was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "cut.rsuk: truncated")) << e.what();
  }
  write_file(dir / "other.rsuk", "not a kernel\n");
  EXPECT_THROW(load_user_kernel((dir / "other.rsuk").string()), std::runtime_error);
  EXPECT_THROW(load_user_kernel((dir / "missing.rsuk").string()), std::runtime_error);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace rs

namespace rs {
namespace {

// What a kernel file may include (issue 29, kernels/user_includes.hpp): a course grades untrusted files. Refused
// includes are errors at their line, and the file they name is never read: its text would reach the messages.
TEST(UserKernelIncludes, RefusedAtTheirLineWithoutReadingTheFile) {
  const fs::path dir = temp_dir("includes");
  const fs::path outside = temp_dir("includes_outside");
  // A file whose text would show if anything compiled it.
  const fs::path secret = write_file(outside / "secret.h", "#error SECRET_TEXT_LEAKED\n");
  const std::string base = reduce2();
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"#include \"" + secret.string() + "\"", "an absolute path"},
      {"#include \"../" + outside.filename().string() + "/secret.h\"", "a path out of the kernel's folder"},
      {"#include <stdio.h>", "the system's headers"},
      {"#include <thrust/reduce.h>", "other than cooperative groups and CCCL's"},
      {"#include <cub/../../stdio.h>", "the system's headers"},
      {"#define H \"x.h\"\n#include H", "a computed include"},
      {"  #  include_next <cuda/std/cstdint>", "only #include"},
  };
  for (const auto& [line, why] : bad) {
    const std::string text = replaced(base, "#include \"reducescope.cuh\"", "#include \"reducescope.cuh\"\n" + line);
    const fs::path f = write_file(dir / "k.cu", text);
    const UserCompileResult r = compile_user_kernel(text, f.string());
    ASSERT_FALSE(r.ok()) << line;
    const UserDiagnostic e = first_error(r);
    EXPECT_EQ(e.line, line_of(text, line.substr(line.rfind('\n') + 1))) << all(r.diagnostics);
    EXPECT_TRUE(contains(e.message, "is not allowed")) << e.message;
    EXPECT_TRUE(contains(e.message, why)) << e.message;
    EXPECT_FALSE(contains(all(r.diagnostics), "SECRET_TEXT_LEAKED"));
  }
  // The same through a header of the kernel's own folder: refused at the header's line.
  write_file(dir / "helper.cuh", "// a helper\n#include \"" + secret.string() + "\"\n");
  const std::string via = replaced(base, "#include \"reducescope.cuh\"", "#include \"reducescope.cuh\"\n#include \"helper.cuh\"");
  const UserCompileResult r = compile_user_kernel(via, (dir / "k.cu").string());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(first_error(r).file, "helper.cuh")) << all(r.diagnostics);
  EXPECT_EQ(first_error(r).line, 2u) << all(r.diagnostics);
  EXPECT_FALSE(contains(all(r.diagnostics), "SECRET_TEXT_LEAKED"));
  // A link in the folder that points out of it.
  std::error_code ec;
  fs::create_symlink(secret, dir / "link.h", ec);
  if (!ec) {
    const std::string link = replaced(base, "#include \"reducescope.cuh\"", "#include \"reducescope.cuh\"\n#include \"link.h\"");
    const UserCompileResult rl = compile_user_kernel(link, (dir / "k.cu").string());
    ASSERT_FALSE(rl.ok());
    EXPECT_TRUE(contains(first_error(rl).message, "out of the kernel's folder")) << all(rl.diagnostics);
  }
  // Comments are not directives.
  const std::string commented =
      replaced(base, "#include \"reducescope.cuh\"", "#include \"reducescope.cuh\"\n// #include <stdio.h>\n/*\n#include \"/etc/passwd\"\n*/");
  for (const UserDiagnostic& d : compile_user_kernel(commented, (dir / "k.cu").string()).diagnostics) {
    EXPECT_FALSE(contains(d.message, "is not allowed")) << format_diagnostic(d);
  }
  fs::remove_all(dir);
  fs::remove_all(outside);
}

// Issue 40: the styles NVIDIA's guide and CUB's documentation teach compile: cooperative groups' cg::reduce on a
// 32-thread tile, and cub::BlockReduce (tests/fixtures/user/styles/), which were refused at their include line; and
// the blog's blockReduceSum and a wrong shuffle design, which scripts/device/exercise_styles.sh judges on the GPU.
TEST(UserKernelIncludes, CooperativeGroupsAndCubCompile) {
  REQUIRE_NVRTC();
  for (const char* name : {"cg_reduce_tile.cu", "cub_block_reduce.cu", "block_reduce_sum.cu", "wrong_shuffle_then_tree.cu"}) {
    SCOPED_TRACE(name);
    const fs::path f = fs::path(RS_USER_FIXTURES) / "styles" / name;
    const UserCompileResult r = compile_user_kernel_file(f.string(), {.cc = 90});
    ASSERT_TRUE(r.ok()) << all(r.diagnostics);
    EXPECT_TRUE(r.kernel->plain);
    EXPECT_EQ(r.kernel->timing.int_entry, "_Z11user_kernelIiEvPKT_PS0_j");
    EXPECT_GT(r.kernel->timing.cubin.size(), 64u);
  }
}

TEST(UserKernelIncludes, OwnFolderAndCudaStdCompile) {
  REQUIRE_NVRTC();
  const fs::path dir = temp_dir("includes_ok");
  write_file(dir / "twice.cuh", "#include <cuda/std/cstdint>\n__device__ inline int twice(int v) { return 2 * v; }\n");
  const std::string text = replaced(replaced(reduce2(), "#include \"reducescope.cuh\"",
                                             "#include \"reducescope.cuh\"\n#include \"twice.cuh\""),
                                    "sdata[tid] += sdata[tid + s];", "sdata[tid] += sdata[tid + s] + twice(0);");
  const fs::path f = write_file(dir / "k.cu", text);
  const UserCompileResult r = compile_user_kernel(text, f.string());
  EXPECT_TRUE(r.ok()) << all(r.diagnostics);
  // A name the folder lacks: said at its line.
  const std::string missing = replaced(reduce2(), "#include \"reducescope.cuh\"", "#include \"reducescope.cuh\"\n#include \"nope.cuh\"");
  const UserCompileResult rm = compile_user_kernel(missing, f.string());
  ASSERT_FALSE(rm.ok());
  EXPECT_TRUE(contains(first_error(rm).message, "no such file in the kernel's folder")) << all(rm.diagnostics);
  EXPECT_EQ(first_error(rm).line, line_of(missing, "nope.cuh"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace rs

namespace rs {
namespace {

// The name a kernel file's traces and timings carry (the CLI's and the window's): the file's stem, made safe, and
// "_yours" after a shipped kernel's name.
TEST(UserKernelName, StemMadeSafeAndNotAShippedKernel) {
  EXPECT_EQ(user_kernel_name("/home/s/my_reduce.cu"), "my_reduce");
  EXPECT_EQ(user_kernel_name("two words.cu"), "two_words");
  EXPECT_EQ(user_kernel_name("dir/reduce1.cu"), "reduce1_yours");
  EXPECT_EQ(user_kernel_name("k-2.v1.cu"), "k-2_v1");
  EXPECT_EQ(user_kernel_name(".cu"), "_cu");  // a leading dot is no extension
  EXPECT_EQ(user_kernel_name("dir/"), "yours");
}

}  // namespace
}  // namespace rs
