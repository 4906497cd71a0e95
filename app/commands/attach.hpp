// The binary tracer attached to a program (app/commands/attach.cpp), for `trace -- PROGRAM` and
// `verify --binary`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "assemble.hpp"
#include "trace_format.hpp"

namespace rs {

struct AttachRequest {
  std::vector<std::string> program;  // PROGRAM ARGS
  std::string kernel;                // text the demangled kernel name must contain
  uint32_t launch = 1;               // the K-th matching launch, 1-based
  std::string block = "0";           // "X" or "X,Y,Z"
  std::optional<DType> dtype;        // how the values are shown; nullopt: from the kernel's parameters
                                     // (bt::element_type_of)
  bool quiet_program = false;        // the program's stdout to /dev/null (its stderr stays)
  std::string keep_stem;             // non-empty: keep the capture and listing as STEM.rscapture, STEM.sass
  // The text of the file the line table names `source_name` (a kernel compiled from memory, NVRTC): taken instead of
  // reading that path. Empty: every source file is read from disk.
  std::string source_name, source_text;
};

struct Attached {
  Trace trace;
  bt::AssembleReport report;
  int program_rc = 0;                // the program's exit code (128 + signal)
  std::string kernel;                // the traced launch's kernel, demangled
  uint32_t launch = 0;
  double program_s = 0;              // seconds the program ran attached
  double after_s = 0;                // seconds to disassemble and assemble the trace
};

// The request that traces block 0 of a shipped kernel's first launch as compiled: `reducescope run` of its timing
// build (kernels named ...NullProbe) on make_input(pattern, n) of `type`, the program's output to /dev/null. For
// `verify --binary` and `record --add --binary`.
AttachRequest attach_to_run(const std::string& kernel, unsigned block_size, uint64_t n, DType type,
                            const std::string& pattern);

// Runs the program with the injector, then builds the trace. Throws std::runtime_error with one line (or, for no
// matching launch, the line and the kernels that did launch): no binary tracer in this build, no Sanitizer API or
// nvdisasm on the machine, no GPU, no match, a tracer failure, a capture that cannot become a trace.
Attached attach_and_trace(const AttachRequest& q);

// `nvdisasm -gi -c` of a module's cubin (the listing tracing/binary/sass.hpp reads), once per module and process; ""
// where the toolkit has no nvdisasm. Throws std::runtime_error when nvdisasm cannot read it.
std::string disassemble_module(const std::string& cubin_bytes);

}  // namespace rs
