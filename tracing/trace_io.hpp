// Reading and writing ReduceScope trace files (.rstrace). Layout: docs/trace-format.md.
//
// A file is: 8 magic bytes "RSTRACE\0", u32 format version, u32 reserved, then sections,
// each a u32 tag, u32 reserved, u64 payload size in bytes, and the payload. All integers are
// little-endian. Unknown tags are skipped, so sections can be appended in later versions. The
// last section is a CRC-32 of all bytes before it, so any corruption is detected.
#pragma once

#include <stdexcept>
#include <string>

#include "said.hpp"
#include "trace_format.hpp"

namespace rs {

// Version 2 added the checksum section (CRC-32 of everything before it), which version 2 and
// later files must end with. Version 3 added record kinds 4-9 (global memory, shuffles, warp
// reduce, atomics), the record fields op, lane_arg, space and aux in place of 7 reserved bytes,
// and the metadata fields track and dtype. Versions 1 (no checksum) and 2 are still read.
// Version 4 added the metadata fields tracer, output_elements and notes, the op bit kOpNoValues and
// the shuffle source lane kUnknownLane (binary traces). A writer uses the lowest version that holds
// the trace: version 3 unless it is a binary trace or has those fields set.
inline constexpr uint32_t kTraceFormatVersion = 5;

// Raised for any file that is not a valid trace: unreadable, truncated, corrupt, a version
// this build does not read. what() names the file and the problem, in one line, in English; said() says it
// in the window's language (tracing/said.hpp).
class TraceFormatError : public SaidError {
 public:
  using SaidError::SaidError;
};

// Writes `trace` to `path` (through a temporary file, then renamed, so a failed write never
// leaves a half-written trace under the final name). Throws TraceFormatError on I/O failure.
void save_trace(const Trace& trace, const std::string& path);

// Reads and validates a trace file. Every count, offset and size is checked against the
// file's length before use; records are checked with record_problem() (kind, thread < block
// size, shared address inside shared memory, global index inside its buffer, shuffle lane and
// width, operator), and a version 1 or 2 file may hold kinds 0-3 only. Throws TraceFormatError
// naming `path` and what is wrong.
Trace load_trace(const std::string& path);

// Same, from bytes in memory; `name` is used in error messages.
Trace parse_trace(const std::string& bytes, const std::string& name);
// Same, with a name said in the window's language ("run.rsession (trace 3)").
Trace parse_trace(const std::string& bytes, const Said& name);
std::string serialize_trace(const Trace& trace);

}  // namespace rs
