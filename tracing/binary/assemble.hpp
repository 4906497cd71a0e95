// Turns what the binary tracer captured (capture.hpp) and the kernel's SASS (sass.hpp) into a
// ReduceScope trace (trace_format.hpp), so that every view, compare mode, the session format,
// `show`, `verify` and the web page work on it unchanged. Plain C++: no CUDA. Tested in CI on
// captures recorded on an H100 (tests/fixtures/binary/).
//
// How each event becomes records (docs/binary-trace.md has the full table):
//   - each thread's events in its own order (Event::tseq); a block barrier, a __syncwarp and a
//     shuffle end the thread's epoch, as the source probe counts them;
//   - shared accesses: the byte offset after the reserved window (Capture::reserved_smem), one
//     record per 4-byte word (a 16-byte access is four); an atomic (its SASS opcode ATOMS.*) is a
//     SharedAtomic with kOpNoValues;
//   - global accesses: the allocation they fall in names the buffer: the one the block loads most from
//     is the input (read as bytes when every access to it is 1 byte wide), the one it stores to most
//     is the output; accesses to other memory are left out and counted in the notes;
//   - shuffles: mode, source lane and width from the SHFL instruction's immediates, else
//     kUnknownLane; no values (kOpNoValues);
//   - lines: the kernel's own file in the line table (`-lineinfo`); without line info, the SASS
//     listing is the source and line k is its k-th instruction.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "capture.hpp"
#include "sass.hpp"
#include "trace_format.hpp"

namespace rs::bt {

// A capture that cannot become a trace (no such function in the SASS, a block above 1024 threads,
// more epochs than a trace holds). what() is one line.
class AssembleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct AssembleOptions {
  // How the values are shown. nullopt: the element type of the kernel's first pointer parameter in its demangled
  // name (element_type_of), else int32 with a note saying so.
  std::optional<DType> dtype;
  std::string tool_version;     // TraceMeta::tool_version
  std::string date;             // TraceMeta::date (UTC ISO 8601)
  // Reads a source file the line table names (nullopt: not readable); empty: none are read.
  std::function<std::optional<std::string>(const std::string& path)> read_source;
};

// What assemble_trace() counted on the way, for the command's report.
struct AssembleReport {
  std::string source_file;       // the kernel's file in the line table ("" without line info)
  bool source_found = false;     // its text was read (else the source panel shows the SASS)
  size_t events = 0;             // events in the capture
  size_t records = 0;            // records in the trace
  size_t other_global = 0;       // global accesses outside the input and output allocations, left out
  size_t unknown_pc = 0;         // events whose pc is not an instruction of the function, left out
  size_t dropped = 0;            // events the device buffer had no room for
};

// Throws AssembleError. The trace's notes say what it cannot show.
Trace assemble_trace(const Capture& c, const std::vector<SassFunction>& sass, const AssembleOptions& opt,
                     AssembleReport* report = nullptr);

// The element type of a kernel's values, from its demangled name: the type its first pointer parameter points to
// whose type the trace can show (float -> float32; int, unsigned int, unsigned -> int32), e.g. float32 for
// "block_max<float>(float const*, float*, int)" and for CUB's "DeviceReduceKernel<...>(float const*, float*, int,
// ...)". `pointee`, if given, gets that parameter's type as written ("float const*"). nullopt where no pointer
// parameter points to one (a double*, a struct, a name without its parameter list).
std::optional<DType> element_type_of(const std::string& demangled, std::string* pointee = nullptr);

// "reduce_strided" for "reduce_strided(int const*, int*, unsigned int)": the demangled name without
// its parameter list (templates kept).
std::string short_kernel_name(const std::string& demangled);

}  // namespace rs::bt
