// compile_user_kernel: a user's kernel file through NVRTC, in the timing and the tracing build
// (user_kernel.hpp). Without NVRTC (a build without the CUDA toolkit) every compile says so.
//
// How the entry point, its signature and the launch shape are found, without parsing C++ here:
//   - nvrtcAddNameExpression("user_kernel<int, rs::NullProbe>") instantiates the entry point and gives its
//     lowered name; NVRTC reports a failure in its pseudo-file "__nv_name_map";
//   - a line appended after the user's text (under `#line 1 "<entry point>"`, so the user's line numbers are
//     untouched) asserts the entry point's type: decltype(&user_kernel<int, P>) == void (*)(const int*, int*,
//     unsigned, P);
//   - the name expression rs::user::launch_shape_tag<elements, finish, min block> (kernels/user/reducescope.cuh)
//     has the three numbers of RS_LAUNCH_SHAPE in its lowered name: ...launch_shape_tagILj2ELj0ELj64EEE.
#include "user_kernel.hpp"
#include "user_includes.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <regex>
#include <set>
#include <sstream>

#ifdef RS_HAS_NVRTC
#include <nvrtc.h>
#endif

namespace rs {

namespace {

constexpr size_t kMaxFileBytes = 1u << 20;  // a larger file is no kernel file

UserDiagnostic error_at(const std::string& file, unsigned line, unsigned column, std::string message) {
  return {file, line, column, "error", std::move(message)};
}

bool includes_prelude(const std::string& text) {
  static const std::regex re(R"((^|\n)[ \t]*#[ \t]*include[ \t]*["<]reducescope\.cuh[">])");
  return std::regex_search(text, re);
}

// Appends `d` unless the same message at the same place is there already.
void add_unique(std::vector<UserDiagnostic>& out, std::set<std::string>& seen, const UserDiagnostic& d) {
  const std::string key = d.file + '\n' + std::to_string(d.line) + '\n' + std::to_string(d.column) + '\n' +
                          d.severity + '\n' + d.message;
  if (seen.insert(key).second) out.push_back(d);
}

#ifdef RS_HAS_NVRTC

constexpr const char* kEntryCheckFile = "<entry point>";  // the appended check's file name in NVRTC's messages
constexpr const char* kNameMapFile = "__nv_name_map";      // NVRTC's file for name-expression errors
constexpr const char* kSignature =
    "template <class T, class Probe> __global__ void user_kernel(const T* in, T* out, unsigned n, Probe probe)";
constexpr const char* kPlainSignature = "template <class T> __global__ void user_kernel(const T* in, T* out, unsigned n)";
constexpr const char* kHistogramSignature =
    "__global__ void user_histogram(const unsigned char* text, long n, unsigned int* bins)";
// The build's "probe" says the dialect: "NullProbe" or "TraceProbe" (wrapped), nullptr (plain CUDA), or kHistogram
// (a plain histogram file: user_histogram, compared by address).
const char* const kHistogram = "<histogram>";
bool plain_build(const char* probe) { return !probe || probe == kHistogram; }
// The entry point a file of this dialect must define, and its name.
const char* signature(const char* probe) {
  return probe == kHistogram ? kHistogramSignature : probe ? kSignature : kPlainSignature;
}
std::string entry_name(const char* probe) { return probe == kHistogram ? "user_histogram" : "user_kernel"; }
constexpr const char* kShapeHelp =
    "RS_LAUNCH_SHAPE(elements per thread, finish, minimum block size), e.g. RS_LAUNCH_SHAPE(1, Relaunch, 32);";

// The name expression of the launch shape (see the top of this file).
constexpr const char* kShapeExpression =
    "&rs::user::launch_shape_tag<rs::user::LaunchShape<0>::elements_per_thread, "
    "static_cast<unsigned>(rs::user::LaunchShape<0>::finish), rs::user::LaunchShape<0>::min_block_size>";

std::string entry_expression(const char* type, const char* probe) {
  if (probe == kHistogram) return "user_histogram";
  if (!probe) return std::string("user_kernel<") + type + ">";
  return std::string("user_kernel<") + type + ", rs::" + probe + ">";
}

// The check appended after the user's text: the entry point's type for this build's probe (nullptr: plain CUDA,
// where no CCCL header is included, so the check is a template of its own).
std::string entry_check(const char* probe) {
  const std::string head = std::string("\n#line 1 \"") + kEntryCheckFile + "\"\n";
  if (plain_build(probe)) {
    const char* type = probe == kHistogram ? "void (*)(const unsigned char*, long, unsigned int*)"
                                           : "void (*)(const int*, int*, unsigned)";
    return head +
           "template <class A, class B> struct rs_entry_same { static constexpr bool value = false; };\n"
           "template <class A> struct rs_entry_same<A, A> { static constexpr bool value = true; };\n"
           "static_assert(rs_entry_same<decltype(&" + entry_expression("int", probe) + "), " + type +
           ">::value, \"" + entry_name(probe) + " has the wrong signature\");\n";
  }
  return head + "static_assert(::cuda::std::is_same_v<decltype(&" + entry_expression("int", probe) +
         "), void (*)(const int*, int*, unsigned, rs::" + probe + ")>, \"user_kernel has the wrong signature\");\n";
}

// The first line and column (1-based) where `word` appears as a whole identifier outside comments; {0, 0}
// if it does not.
std::pair<unsigned, unsigned> find_identifier(const std::string& text, const std::string& word) {
  bool in_block = false;
  unsigned line = 1;
  size_t start = 0;
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (start <= text.size()) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string l = text.substr(start, end - start);
    for (size_t i = 0; i < l.size(); ++i) {
      if (in_block) {
        if (l.compare(i, 2, "*/") == 0) in_block = false, ++i;
        continue;
      }
      if (l.compare(i, 2, "//") == 0) break;
      if (l.compare(i, 2, "/*") == 0) {
        in_block = true, ++i;
        continue;
      }
      if (l.compare(i, word.size(), word) == 0 && (i == 0 || !ident(l[i - 1])) &&
          (i + word.size() >= l.size() || !ident(l[i + word.size()]))) {
        return {line, static_cast<unsigned>(i + 1)};
      }
    }
    if (end == text.size()) break;
    start = end + 1;
    ++line;
  }
  return {0, 0};
}

// Lines of `text` (1-based count; a last line without '\n' counts).
unsigned line_count(const std::string& text) {
  if (text.empty()) return 0;
  return static_cast<unsigned>(std::count(text.begin(), text.end(), '\n') + (text.back() == '\n' ? 0 : 1));
}

std::string not_a_kernel(const char* probe) {
  return entry_name(probe) + " is not a kernel: declare it __global__ (" + signature(probe) + ")";
}

// The errors about the entry point and the launch shape, which NVRTC reports in kEntryCheckFile and
// kNameMapFile, become one clear error each; the others pass through. Those two files' errors are dropped
// when the user's file has errors of its own (a syntax error in the signature hides the entry point too).
std::vector<UserDiagnostic> explain(const std::vector<UserDiagnostic>& raw, const std::string& source,
                                    const std::string& file, const char* probe) {
  std::vector<UserDiagnostic> out, synthetic;
  bool own_errors = false, no_entry = false, bad_entry = false, not_global = false, no_shape = false;
  std::string entry_detail;
  const std::string entry = entry_name(probe);
  for (const UserDiagnostic& d : raw) {
    const bool ours = d.file == kEntryCheckFile || d.file == kNameMapFile;
    if (!ours) {
      own_errors = own_errors || d.is_error();
      out.push_back(d);
      continue;
    }
    if (d.message.find("LaunchShape") != std::string::npos || d.message.find("launch_shape_tag") != std::string::npos) {
      no_shape = no_shape || d.message.find("incomplete type") != std::string::npos;
    } else if (d.message.find("identifier \"" + entry + "\" is undefined") != std::string::npos) {
      no_entry = true;
    } else if (d.message.find("non-__global__ function") != std::string::npos) {
      not_global = true;
    } else if (d.message.find(entry) != std::string::npos || d.file == kEntryCheckFile) {
      if (!bad_entry) entry_detail = d.message;
      bad_entry = true;
    }
  }
  if (own_errors) return out;
  if (no_entry) {
    synthetic.push_back(error_at(file, 0, 0,
                                 "no entry point: the file defines no " + entry + " at global scope (it must define " +
                                     std::string(signature(probe)) + ")"));
  } else if (bad_entry || not_global) {
    const auto [line, column] = find_identifier(source, entry);
    // A wrapped kernel (the Probe parameter) in a file that does not include reducescope.cuh is read as plain CUDA.
    const std::string other = probe ? ""
                                    : "; a kernel with a Probe parameter is the wrapped dialect, which needs "
                                      "#include \"reducescope.cuh\"";
    const char* shown = probe == kHistogram ? kHistogram : probe ? "NullProbe" : nullptr;
    synthetic.push_back(error_at(file, line, column,
                                 not_global ? not_a_kernel(probe)
                                            : "wrong signature: " + entry + " must be " +
                                                  std::string(signature(probe)) + " (" +
                                                  entry_expression("int", shown) + " does not match: " + entry_detail +
                                                  ")" + other));
  }
  if (no_shape) {
    synthetic.push_back(error_at(file, 0, 0, std::string("no launch shape: add ") + kShapeHelp +
                                                 " (finish: Relaunch, GlobalAtomic, SecondKernel, SinglePass or "
                                                 "HostReduce)"));
  }
  if (synthetic.empty()) return raw;  // nothing recognised: NVRTC's own words
  out.insert(out.end(), synthetic.begin(), synthetic.end());
  return out;
}

// The names of rs::Finish in its order, as reducescope.cuh's rs::user::Finish lists them.
constexpr Finish kFinishes[] = {Finish::Relaunch,   Finish::GlobalAtomic, Finish::SecondKernel,
                                Finish::SinglePass, Finish::HostSum,      Finish::HostReduce};

struct BuildOut {
  bool ok = false;
  std::string log;
  UserBuild build;
  std::string shape_name;  // the lowered name of kShapeExpression (timing build)
};

std::string nvrtc_text(nvrtcResult r) { return nvrtcGetErrorString(r); }

// One NVRTC program: `source` plus the entry check for `probe` (nullptr: plain CUDA, which also gets the cubin), with
// name expressions for int (and float).
// `local`: the files of the kernel's folder it includes (check_includes), given to NVRTC as headers.
using LocalHeaders = std::vector<std::pair<std::string, std::string>>;

BuildOut compile_one(const std::string& source, const std::string& file, const char* probe, bool with_float,
                     bool with_shape, const std::vector<std::string>& options, const LocalHeaders& local) {
  BuildOut out;
  std::vector<const char*> names, texts;
  for (const EmbeddedHeader& h : user_kernel_headers()) {
    names.push_back(h.name);
    texts.push_back(h.text);
  }
  for (const auto& [name, text] : local) {
    names.push_back(name.c_str());
    texts.push_back(text.c_str());
  }
  const std::string text = source + entry_check(probe);
  nvrtcProgram prog = nullptr;
  nvrtcResult r = nvrtcCreateProgram(&prog, text.c_str(), file.c_str(), static_cast<int>(names.size()), texts.data(),
                                     names.data());
  if (r != NVRTC_SUCCESS) {
    out.log = file + "(0): error: NVRTC could not take the program: " + nvrtc_text(r) + "\n";
    return out;
  }
  const std::string int_name = entry_expression("int", probe), float_name = entry_expression("float", probe);
  nvrtcAddNameExpression(prog, int_name.c_str());
  if (with_float) nvrtcAddNameExpression(prog, float_name.c_str());
  if (with_shape) nvrtcAddNameExpression(prog, kShapeExpression);
  std::vector<const char*> opts;
  for (const std::string& o : options) opts.push_back(o.c_str());
  r = nvrtcCompileProgram(prog, static_cast<int>(opts.size()), opts.data());
  size_t log_size = 0;
  if (nvrtcGetProgramLogSize(prog, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    out.log.resize(log_size);
    nvrtcGetProgramLog(prog, out.log.data());
    out.log.resize(log_size - 1);  // the terminating NUL
  }
  if (r == NVRTC_SUCCESS) {
    const char* lowered = nullptr;
    if (nvrtcGetLoweredName(prog, int_name.c_str(), &lowered) == NVRTC_SUCCESS) out.build.int_entry = lowered;
    if (with_float && nvrtcGetLoweredName(prog, float_name.c_str(), &lowered) == NVRTC_SUCCESS) {
      out.build.float_entry = lowered;
    }
    if (with_shape && nvrtcGetLoweredName(prog, kShapeExpression, &lowered) == NVRTC_SUCCESS) out.shape_name = lowered;
    size_t ptx_size = 0;
    if (nvrtcGetPTXSize(prog, &ptx_size) == NVRTC_SUCCESS && ptx_size > 1) {
      out.build.ptx.resize(ptx_size);
      nvrtcGetPTX(prog, out.build.ptx.data());
      out.build.ptx.resize(ptx_size - 1);
    }
    size_t cubin_size = 0;
    if (plain_build(probe) && nvrtcGetCUBINSize(prog, &cubin_size) == NVRTC_SUCCESS && cubin_size > 0) {
      out.build.cubin.resize(cubin_size);
      nvrtcGetCUBIN(prog, out.build.cubin.data());
    }
    out.ok = !out.build.int_entry.empty() && !out.build.ptx.empty() && (!plain_build(probe) || !out.build.cubin.empty());
  } else if (r != NVRTC_ERROR_COMPILATION) {
    out.log += file + "(0): error: NVRTC failed: " + nvrtc_text(r) + "\n";
  }
  nvrtcDestroyProgram(&prog);
  return out;
}

// One build (probe), for int and float; if only the float instantiation fails, again for int alone, and
// `float_why` says why float32 is not taken.
BuildOut compile_build(const std::string& source, const std::string& file, const char* probe, bool with_shape,
                       const std::vector<std::string>& options, const LocalHeaders& local, std::string& float_why) {
  BuildOut both = compile_one(source, file, probe, probe != kHistogram, with_shape, options, local);
  if (both.ok || both.log.find("T=float") == std::string::npos) return both;
  BuildOut int_only = compile_one(source, file, probe, false, with_shape, options, local);
  if (int_only.ok) {
    for (const UserDiagnostic& d : parse_nvrtc_log(both.log, file)) {
      if (d.is_error()) {
        float_why = format_diagnostic(d);
        break;
      }
    }
  }
  return int_only;
}

// The three numbers in the launch shape's lowered name.
std::optional<UserLaunchShape> read_shape(const std::string& lowered) {
  static const std::regex re(R"(launch_shape_tagILj(\d+)ELj(\d+)ELj(\d+)EE)");
  std::smatch m;
  if (!std::regex_search(lowered, m, re)) return std::nullopt;
  const unsigned finish = static_cast<unsigned>(std::stoul(m[2]));
  if (finish >= std::size(kFinishes)) return std::nullopt;
  return UserLaunchShape{static_cast<unsigned>(std::stoul(m[1])), kFinishes[finish],
                         static_cast<unsigned>(std::stoul(m[3]))};
}

// Whether `lowered` is a kernel (.entry) in `ptx`, not a __device__ function (.func).
bool is_entry(const std::string& ptx, const std::string& lowered) {
  return ptx.find(".entry " + lowered + "(") != std::string::npos;
}

#endif  // RS_HAS_NVRTC

}  // namespace

std::string format_diagnostic(const UserDiagnostic& d) {
  std::string s = d.file;
  if (d.line) {
    s += ':' + std::to_string(d.line);
    if (d.column) s += ':' + std::to_string(d.column);
  }
  return s + ": " + d.severity + ": " + d.message;
}

std::vector<UserDiagnostic> parse_nvrtc_log(const std::string& log, const std::string& user_file) {
  static const std::regex head(R"(^(.*)\((\d+)\): (catastrophic error|error|warning|remark)( #[0-9A-Za-z-]+)?: (.*)$)");
  static const std::regex caret(R"(^[ \t]*\^[ \t]*$)");
  static const std::regex at_line(R"(at line (\d+) of )");
  std::vector<std::string> lines;
  {
    std::istringstream in(log);
    for (std::string l; std::getline(in, l);) {
      if (!l.empty() && l.back() == '\r') l.pop_back();
      lines.push_back(l);
    }
  }
  std::vector<UserDiagnostic> out;
  std::set<std::string> seen;
  std::smatch m;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!std::regex_match(lines[i], m, head)) continue;
    UserDiagnostic d{m[1], static_cast<unsigned>(std::stoul(m[2])), 0, m[3], m[5]};
    size_t j = i + 1;
    // The source line echoed with two spaces before it, then the caret under the column.
    if (j + 1 < lines.size() && lines[j].rfind("  ", 0) == 0 && std::regex_match(lines[j + 1], caret)) {
      d.column = static_cast<unsigned>(lines[j + 1].find('^') - 2 + 1);
      j += 2;
    }
    // Notes ("detected during: instantiation of ... at line 6 of FILE") until the next message.
    for (; j < lines.size() && !lines[j].empty() && !std::regex_match(lines[j], head); ++j) {
      if (d.file == user_file) continue;
      for (std::sregex_iterator it(lines[j].begin(), lines[j].end(), at_line), end; it != end; ++it) {
        const size_t after = static_cast<size_t>(it->position(0) + it->length(0));
        if (lines[j].compare(after, user_file.size(), user_file) == 0) {
          d.message += " (in " + std::filesystem::path(d.file).filename().string() + ":" + std::to_string(d.line) + ")";
          d.file = user_file;
          d.line = static_cast<unsigned>(std::stoul((*it)[1]));
          d.column = 0;
          break;
        }
      }
    }
    i = j - 1;
    add_unique(out, seen, d);
  }
  return out;
}

UserCompileResult compile_user_kernel(const std::string& source, const std::string& file_name,
                                      const UserCompileOptions& options) {
  UserCompileResult res;
  if (source.find_first_not_of(" \t\r\n") == std::string::npos) {
    res.diagnostics.push_back(error_at(file_name, 0, 0,
                                       "the file is empty: write a kernel in it (`reducescope new --from reduce1 " +
                                           file_name + "` writes a starting file)"));
    return res;
  }
  // The dialect: a file that includes reducescope.cuh is wrapped; any other is plain CUDA. A plain file that defines
  // user_histogram and no user_kernel is a histogram (the exercise histogram).
  const bool plain = !includes_prelude(source);
  // What it includes, before anything reads an included file (user_includes.hpp).
  std::vector<std::string> embedded;
  for (const EmbeddedHeader& h : user_kernel_headers()) embedded.emplace_back(h.name);
  const IncludeCheck includes = check_includes(source, file_name, embedded);
  if (!includes.refused.empty()) {
    res.diagnostics = includes.refused;
    return res;
  }
#ifndef RS_HAS_NVRTC
  (void)options;
  (void)plain;
  res.diagnostics.push_back(error_at(file_name, 0, 0,
                                     "this build cannot compile kernels: it was built without the CUDA toolkit's "
                                     "NVRTC"));
  return res;
#else
  if (!std::filesystem::exists(std::filesystem::path(RS_CCCL_INCLUDE_DIR) / "cuda/std/type_traits")) {
    res.diagnostics.push_back(error_at(file_name, 0, 0,
                                       std::string("the CUDA toolkit's CCCL headers are not at ") + RS_CCCL_INCLUDE_DIR +
                                           " any more (this build found them there): reinstall the toolkit or "
                                           "rebuild ReduceScope"));
    return res;
  }
  const bool histogram =
      plain && find_identifier(source, "user_histogram").first != 0 && find_identifier(source, "user_kernel").first == 0;
  const std::string arch = "compute_" + std::to_string(options.cc);
  // Plain CUDA: a cubin for the GPU's own architecture (sm_<cc>), whose SASS and line table the binary tracer
  // reads as the driver loads it; RS_LAUNCH_SHAPE from the pre-included launch_shape.cuh.
  // -pch: NVRTC's automatic precompiled header (CUDA 12.8+) for what the file includes before its first line of
  // code (reducescope.cuh, probe.cuh, CCCL): kept in this process, so a process that compiles again (the window
  // on each save) compiles in about a tenth of the time (2.4 s, then 0.2 s on this project's 2-core machine);
  // off in a process that compiles once (UserCompileOptions::pch), where building it costs more than it saves.
  std::vector<std::string> nvrtc_options = {"--gpu-architecture=" + arch, "-lineinfo", "-std=c++17",
                                            std::string("-I") + RS_CCCL_INCLUDE_DIR};
  if (options.pch) nvrtc_options.insert(nvrtc_options.begin() + 3, "-pch");  // (UserCompileOptions::pch)
#ifdef RS_CUDA_INCLUDE_DIR
  nvrtc_options.push_back(std::string("-I") + RS_CUDA_INCLUDE_DIR);  // <cooperative_groups.h> (issue 40)
#endif
  if (plain) {
    nvrtc_options[0] = "--gpu-architecture=sm_" + std::to_string(options.cc);
    nvrtc_options.push_back("--pre-include=launch_shape.cuh");
  }
  const char* timing_probe = histogram ? kHistogram : plain ? nullptr : "NullProbe";
  // The two builds are independent programs: compiled side by side. Plain CUDA has one build (the tracing one
  // stays empty and "compiles").
  std::string float_why_timing, float_why_tracing;
  auto tracing_future = std::async(plain ? std::launch::deferred : std::launch::async, [&] {
    if (plain) {
      BuildOut none;
      none.ok = true;
      return none;
    }
    return compile_build(source, file_name, "TraceProbe", false, nvrtc_options, includes.local, float_why_tracing);
  });
  BuildOut timing =
      compile_build(source, file_name, timing_probe, !histogram, nvrtc_options, includes.local, float_why_timing);
  BuildOut tracing = tracing_future.get();

  std::vector<UserDiagnostic> raw;
  std::set<std::string> seen;
  for (const BuildOut* b : {&timing, &tracing}) {
    for (const UserDiagnostic& d : parse_nvrtc_log(b->log, file_name)) {
      // -pch's own remarks ("PCH creation disabled because #line directive encountered": the line appended
      // after the user's text) are about ReduceScope's use of NVRTC, not about the file.
      if (!d.is_error() && d.message.rfind("PCH ", 0) == 0) continue;
      add_unique(raw, seen, d);
    }
  }
  std::vector<UserDiagnostic> warnings;
  for (const UserDiagnostic& d : raw) {
    if (!d.is_error()) warnings.push_back(d);
  }
  if (!timing.ok || !tracing.ok) {
    res.diagnostics = explain(raw, source, file_name, timing_probe);
    if (std::none_of(res.diagnostics.begin(), res.diagnostics.end(), [](const UserDiagnostic& d) { return d.is_error(); })) {
      res.diagnostics.push_back(error_at(file_name, 0, 0, "NVRTC did not compile the file and gave no error"));
    }
    // A save still being written ends mid-line: say so beside the errors.
    if (!source.empty() && source.back() != '\n') {
      res.diagnostics.push_back({file_name, line_count(source), 0, "note",
                                 "the file ends mid-line: if it was still being saved, check it again"});
    }
    return res;
  }
  UserKernel k;
  k.plain = plain;
  k.entry = histogram ? UserEntry::Histogram : UserEntry::Reduction;
  k.file_name = file_name;
  k.source = source;
  k.arch = arch;
  // A histogram has no launch shape: the host launches a grid-stride grid (user_kernel_gpu.hpp).
  const std::optional<UserLaunchShape> shape = histogram ? UserLaunchShape{} : read_shape(timing.shape_name);
  if (!shape) {
    res.diagnostics.push_back(error_at(file_name, 0, 0,
                                       "could not read the launch shape back from NVRTC (lowered name '" +
                                           timing.shape_name + "'): " + kShapeHelp));
    return res;
  }
  k.shape = *shape;
  if (!is_entry(timing.build.ptx, timing.build.int_entry) ||
      (!plain && !is_entry(tracing.build.ptx, tracing.build.int_entry))) {
    const auto [line, column] = find_identifier(source, entry_name(timing_probe));
    res.diagnostics.push_back(error_at(file_name, line, column, not_a_kernel(timing_probe)));
    return res;
  }
  k.timing = std::move(timing.build);
  k.tracing = std::move(tracing.build);
  k.dtypes = dtype_bit(DType::Int32);
  if (!k.timing.float_entry.empty() && (plain || !k.tracing.float_entry.empty())) {
    k.dtypes |= dtype_bit(DType::Float32);
  } else if (!histogram) {  // a histogram counts bytes: no element type
    k.timing.float_entry.clear();
    k.tracing.float_entry.clear();
    const std::string& why = float_why_timing.empty() ? float_why_tracing : float_why_timing;
    warnings.push_back({file_name, 0, 0, "warning",
                        "float32 is not taken: user_kernel<float, ...> does not compile" +
                            (why.empty() ? std::string() : " (" + why + ")") + "; int32 is"});
  }
  k.warnings = std::move(warnings);
  res.kernel = std::move(k);
  return res;
#endif
}

std::optional<UserDiagnostic> read_kernel_file(const std::string& path, std::string& text) {
  namespace fs = std::filesystem;
  text.clear();
  auto fail = [&](const std::string& why) { return std::optional<UserDiagnostic>(error_at(path, 0, 0, why)); };
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return fail("no such file");
  if (fs::is_directory(st)) return fail("is a directory, not a kernel file (give the .cu file's path)");
  if (!fs::is_regular_file(st)) return fail("is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(std::string("cannot be read: ") + std::strerror(errno));
  char buf[1 << 14];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes) return fail("is over 1 MiB: not a kernel file");
  }
  if (in.bad()) return fail(std::string("cannot be read: ") + std::strerror(errno));
  if (const size_t nul = text.find('\0'); nul != std::string::npos) {
    return fail("is not a text file (a NUL byte at offset " + std::to_string(nul) +
                "): a binary file, or a save still being written");
  }
  return std::nullopt;
}

UserCompileResult compile_user_kernel_file(const std::string& path, const UserCompileOptions& options) {
  std::string text;
  if (std::optional<UserDiagnostic> problem = read_kernel_file(path, text)) {
    UserCompileResult res;
    res.diagnostics.push_back(*problem);
    return res;
  }
  return compile_user_kernel(text, path, options);
}

bool user_kernels_supported() {
#ifdef RS_HAS_NVRTC
  return true;
#else
  return false;
#endif
}

std::string nvrtc_version() {
#ifdef RS_HAS_NVRTC
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor);
#else
  return "none (built without the CUDA toolkit)";
#endif
}

const char* exercise_starting_file(std::string_view exercise, bool wrapped) {
  for (const StartingFile& f : wrapped ? wrapped_exercise_starting_files() : exercise_starting_files()) {
    if (exercise == f.kernel) return f.text;
  }
  return nullptr;
}

const char* starting_file(std::string_view kernel, bool wrapped) {
  for (const StartingFile& f : wrapped ? wrapped_starting_files() : starting_files()) {
    if (kernel == f.kernel) return f.text;
  }
  return nullptr;
}

std::string starting_file_names() {
  std::string s;
  for (const StartingFile& f : starting_files()) s += (s.empty() ? "" : ", ") + std::string(f.kernel);
  return s;
}

std::string user_kernel_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  std::string stem = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t dot = stem.rfind('.');
  if (dot != std::string::npos && dot > 0) stem.resize(dot);
  for (char& c : stem) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  }
  if (stem.empty()) stem = "yours";
  if (find_kernel(stem)) stem += "_yours";  // reduce1.cu from `new --from reduce1`: not the shipped reduce1
  return stem;
}

}  // namespace rs
