// A kernel file of the user's (issue 19): compiled at run time with NVRTC, in the timing build and the
// tracing build, like a shipped kernel. Plain C++ (no CUDA types): the CLI, the window and the tests
// include it without nvcc. docs/your-kernel.md is the user's side of it.
//
// Index
//   UserDiagnostic             one compile error or warning: file, line, column, severity, message
//   UserLaunchShape            the file's RS_LAUNCH_SHAPE: a registry row's inputs_per_thread, finish, min block size
//   UserBuild, UserKernel      the PTX and lowered entry-point names of both builds
//   compile_user_kernel()      source text -> UserKernel or diagnostics (NVRTC, no GPU needed)
//   compile_user_kernel_file() the same from a path, with the file's own problems as diagnostics
//   parse_nvrtc_log()          NVRTC's log -> diagnostics (exposed for the tests)
//   starting_files()           the starting files `reducescope new --from K` writes (kernels/user/*.cu)
//
// The file (docs/your-kernel.md) comes in two dialects, told apart by whether it includes "reducescope.cuh":
//   - plain CUDA (the default): one RS_LAUNCH_SHAPE(elements per thread, finish, min block size) (the macro comes
//     from launch_shape.cuh, which NVRTC pre-includes) and one entry point at global scope,
//       template <class T> __global__ void user_kernel(const T* in, T* out, unsigned n)
//     with extern __shared__ memory and plain pointers. NVRTC compiles it once, to a cubin for sm_<cc> with
//     -lineinfo; the binary tracer (tracing/binary/) traces that cubin as compiled.
//   - wrapped, for the fuller trace (shuffle values, the order atomics land in): `#include "reducescope.cuh"`, the
//     same RS_LAUNCH_SHAPE, and
//       template <class T, class Probe> __global__ void user_kernel(const T* in, T* out, unsigned n, Probe probe)
//     written with the probe's wrappers (tracing/probe.cuh). NVRTC compiles it twice to PTX: user_kernel<T,
//     rs::NullProbe> (the timing build) and user_kernel<T, rs::TraceProbe> (the tracing build).
// Both for T = int and, where the body compiles for it, float. launch_shape.cuh, reducescope.cuh, probe.cuh and
// trace_format.hpp are embedded in the binary (copies made at configure time); the only -I is the CCCL include
// folder of the CUDA toolkit found at configure time (<cuda/std/...>, which probe.cuh uses under NVRTC).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel_info.hpp"  // Finish, dtype_bit

namespace rs {

// One message about the user's file. From NVRTC's log, whose lines read
//   FILE(LINE): error: MESSAGE
//     <the source line>
//     <spaces>^              (the caret marks the column)
// or ReduceScope's own (the file cannot be read, the entry point or the launch shape is missing).
struct UserDiagnostic {
  std::string file;      // the file name as given to the compiler; for an error inside an embedded header
                         // that NVRTC traces back to the user's file, the user's file (see message)
  unsigned line = 0;     // 1-based; 0: the file as a whole
  unsigned column = 0;   // 1-based, in characters of the source line as NVRTC echoes it (a tab counts 1);
                         // 0 where NVRTC shows no caret
  std::string severity;  // "error", "warning", "catastrophic error" (NVRTC stopped), "remark", "note"
  std::string message;   // one line; an error in an embedded header ends "(in probe.cuh:385)"
  bool is_error() const { return severity == "error" || severity == "catastrophic error"; }
};
// "FILE:LINE:COL: error: message" (the compilers' usual form); "FILE:LINE: ..." without a column,
// "FILE: ..." without a line.
std::string format_diagnostic(const UserDiagnostic& d);

// The file's RS_LAUNCH_SHAPE(elements per thread, finish, minimum block size): the fields of a registry
// row (KernelInfo) that the host needs to launch it.
struct UserLaunchShape {
  unsigned inputs_per_thread = 1;   // KernelInfo::inputs_per_thread: 1 to 8
  Finish finish = Finish::Relaunch; // KernelInfo::finish; never HostSum (in place: a user's input is const)
  unsigned min_block_size = 32;     // KernelInfo::min_block_size: 32, 64, ..., 1024
};

// One build of the file: its PTX, or for a plain file its cubin (for cuModuleLoadData), and the lowered (mangled)
// names of its entry points (for cuModuleGetFunction).
struct UserBuild {
  std::string ptx;
  std::string cubin;        // plain CUDA: the cubin for the GPU's own sm_<cc> (the binary tracer reads its SASS and
                            // -lineinfo line table); "" for the wrapped dialect, whose PTX the driver compiles
  std::string int_entry;    // user_kernel<int, Probe>, or user_kernel<int> in plain CUDA
  std::string float_entry;  // the float instantiation; "" when the body does not compile for float
  bool empty() const { return ptx.empty() && cubin.empty(); }
};

// What the file's entry point computes: a reduction (user_kernel) or the text histogram of the exercise histogram
// (plain CUDA only: __global__ void user_histogram(const unsigned char* text, long n, unsigned int* bins), 7 letter
// bins, kernels/user/exercises/histogram.cu).
enum class UserEntry : uint8_t { Reduction = 0, Histogram = 1 };

struct UserKernel {
  // The dialect: plain CUDA (the default: no #include "reducescope.cuh", entry point user_kernel(in, out, n)),
  // traced by the binary tracer (tracing/binary/, app/commands/plain_trace.hpp); or wrapped (#include
  // "reducescope.cuh", the Probe parameter and the wrappers), traced by its own tracing build.
  bool plain = false;
  UserEntry entry = UserEntry::Reduction;  // Histogram: int_entry is user_histogram's; no launch shape, no float
  std::string file_name;    // as given; the name NVRTC's messages and -lineinfo use
  std::string source;       // the text compiled: the line numbers of the tracing build's records refer to it
  UserLaunchShape shape;
  uint8_t dtypes = 0;       // dtype_bit(DType::Int32), | dtype_bit(DType::Float32) when float compiles
  std::string arch;         // the virtual architecture, e.g. "compute_75"
  UserBuild timing;         // Probe = rs::NullProbe; plain CUDA: the one build
  UserBuild tracing;        // Probe = rs::TraceProbe; plain CUDA: empty (the binary tracer traces the timing build)
  std::vector<UserDiagnostic> warnings;  // NVRTC's warnings, and why float32 is not taken (if it is not)
};

struct UserCompileOptions {
  int cc = 75;  // compile for the virtual architecture compute_<cc>: 75 (Turing, the oldest GPU the app
                // supports: the PTX then runs on any of them), or the GPU's own, e.g. 90
  // NVRTC's automatic precompiled header (-pch, CUDA 12.8+), kept in this process's memory: it pays only in a
  // process that compiles again, the window on each save (2.4 s, then 0.2 s). A process that compiles once (the
  // CLI's check, run --kernel-file, grade's workers) turns it off: building it made the first compile of a
  // cub::BlockReduce file 2.1-2.5 s against 1.8-1.9 s without on this project's 2-core machine (docs/grading.md).
  bool pch = true;
};

// A kernel, or why not: without a kernel, `diagnostics` holds at least one error.
struct UserCompileResult {
  std::optional<UserKernel> kernel;
  std::vector<UserDiagnostic> diagnostics;  // the errors in the order NVRTC gave them, duplicates (from the two
                                            // builds and the two element types) removed, then any note
                                            // (severity "note": a file that ends mid-line)
  bool ok() const { return kernel.has_value(); }
};

// Compiles `source` (the file's text; `file_name` names it in messages) in both builds. Needs no GPU.
// Errors come back as diagnostics, never as exceptions: a compile error at its line and column; a file
// without user_kernel ("no entry point"); a user_kernel of another shape ("wrong signature", at the line
// that declares it); a __device__ user_kernel ("not __global__"); no RS_LAUNCH_SHAPE; an empty file. In a
// build without NVRTC (no CUDA toolkit at configure time) it returns one error saying so; so does a
// toolkit whose CCCL headers are gone.
UserCompileResult compile_user_kernel(const std::string& source, const std::string& file_name,
                                      const UserCompileOptions& options = {});

// Reads a kernel file into `text`. Its problems come back as one error with line 0: it does not exist,
// cannot be read, is a directory or not a regular file, is not text (a NUL byte: a binary, or a save still
// being written), or is over 1 MiB. nullopt: read.
std::optional<UserDiagnostic> read_kernel_file(const std::string& path, std::string& text);

// Reads `path` (read_kernel_file) and compiles it. A file that ends mid-line (a half-written save) gets,
// besides NVRTC's errors, a note at its last line.
UserCompileResult compile_user_kernel_file(const std::string& path, const UserCompileOptions& options = {});

// A compiled kernel in a file of its own, so that one process compiles (the window, whose NVRTC keeps its
// precompiled header warm) and another runs it (the worker, `--compiled FILE`). The format is private to one
// reducescope binary: "RSUK 3\n", then each field as its byte length, a newline and the bytes (the file name, the
// source, the architecture, the shape, both builds, then NVRTC's warnings). save throws
// std::runtime_error when the file cannot be written; load when it cannot be read or is not such a file.
void save_user_kernel(const UserKernel& k, const std::string& path);
UserKernel load_user_kernel(const std::string& path);

// The name a user's kernel file's traces and timings carry: the file's stem ("my_reduce" for my_reduce.cu), with
// "_yours" added where it is a shipped kernel's name (reduce1.cu: reduce1_yours). Characters other than letters,
// digits, '_' and '-' become '_'; an empty stem is "yours". The CLI and the window both name a file so.
std::string user_kernel_name(const std::string& path);

// Whether this build can compile a user's kernel (NVRTC found at configure time), and NVRTC's version
// ("13.0"), or why not.
bool user_kernels_supported();
std::string nvrtc_version();

// NVRTC's log as diagnostics (see UserDiagnostic). An error inside an embedded header that NVRTC traces to
// a line of `user_file` ("detected during ... at line N of FILE") is reported at that line.
std::vector<UserDiagnostic> parse_nvrtc_log(const std::string& log, const std::string& user_file);

// A starting file: a shipped kernel's algorithm rewritten as user_kernel, with a comment block that says
// what may be changed (kernels/user/<kernel>.cu, embedded at configure time).
struct StartingFile {
  const char* kernel;  // the shipped kernel it follows, e.g. "reduce1"
  const char* text;
};
const std::vector<StartingFile>& starting_files();          // plain CUDA (kernels/user/)
const std::vector<StartingFile>& wrapped_starting_files();  // the wrapped dialect (kernels/user/wrapped/)
// nullptr when there is no starting file for `kernel`.
const char* starting_file(std::string_view kernel, bool wrapped = false);
// "reduce0, reduce1, ...", for messages.
std::string starting_file_names();
// The exercises' starting files (kernels/user/exercises/NAME.cu; StartingFile::kernel is the exercise's name,
// app/exercises.hpp); nullptr for an unknown exercise.
const std::vector<StartingFile>& exercise_starting_files();
const std::vector<StartingFile>& wrapped_exercise_starting_files();  // kernels/user/wrapped/exercises/
const char* exercise_starting_file(std::string_view exercise, bool wrapped = false);

// The embedded headers NVRTC is given (name, text): launch_shape.cuh, reducescope.cuh, probe.cuh, trace_format.hpp.
struct EmbeddedHeader {
  const char* name;
  const char* text;
};
const std::vector<EmbeddedHeader>& user_kernel_headers();

}  // namespace rs
