// ReduceScope session files (.rssession): everything one `reducescope record` run measured on
// a GPU (timings of every kernel x block size, the references, and a trace of one block of
// each), so that a machine without a GPU can replay it and export its charts.
//
// Index
//   SessionMeta      the GPU, the input, the timing method, when and with what it was recorded
//   SessionTiming    one kernel at one block size: median / min / max time, bandwidth
//   SessionMetric    one profiler metric of one kernel at one block size (version 2)
//   Sweep            bandwidth against N (tracing/sweep.hpp; section 7)
//   Session          meta + timings + traces, with look-ups
//   save_session / load_session / parse_session / serialize_session / is_session_bytes
//
// File layout (docs/trace-format.md, "Session files"): 8 magic bytes "RSSESSN\0", u32 format
// version, u32 reserved (0), then sections like a trace file's (u32 tag, u32 reserved, u64
// size, payload): 1 meta, 2 timing table, 3 one trace (repeated; a zlib-compressed .rstrace
// file), 5 profiler metrics (version 2), 6 launch counts, 7 the N sweep, 8 racecheck's races, 9 the bits
// view, 10 the multi-GPU recording (multigpu.hpp), 11 another run's trace (Session::other_runs; a
// zlib-compressed .rstrace file, as section 3), 4 CRC-32 of every byte
// before it (last). Little-endian; unknown tags are skipped, so sections 6 and 7 need no new
// version: a release before them opens the file and ignores them. A session without metrics is
// written as version 1, so that earlier releases still open it.
//
// Plain C++: no CUDA, no GL.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "multigpu.hpp"
#include "trace_format.hpp"
#include "sweep.hpp"
#include "trace_io.hpp"

namespace rs {

// The newest version this build reads and writes (2: the metrics section).
inline constexpr uint32_t kSessionFormatVersion = 2;

// Raised for any file that is not a valid session (unreadable, truncated, corrupt, too new,
// or holding an invalid trace). Derives from TraceFormatError: the CLI maps both to exit 1.
class SessionFormatError : public TraceFormatError {
 public:
  using TraceFormatError::TraceFormatError;
};

struct SessionMeta {
  std::string gpu;                 // device name, e.g. "NVIDIA H100 80GB HBM3"
  std::string compute_capability;  // e.g. "9.0"
  std::string cuda_version;        // CUDA runtime, e.g. "13.0"
  std::string date;                // when it was recorded, UTC, ISO 8601
  std::string tool_version;        // ReduceScope version that recorded it
  std::string pattern;             // input pattern: "ones", "random", "iota"
  std::string method;              // timing method in words, for chart captions
  uint64_t n = 0;                  // elements (int32) reduced in the timed runs
  uint32_t sm_count = 0;           // streaming multiprocessors
  uint64_t l2_bytes = 0;           // L2 cache size, bytes
  uint32_t samples = 0;            // timed samples per measurement
  uint32_t warmups = 0;            // untimed runs before them
  double peak_gbps = 0;            // theoretical DRAM peak, GB/s (2 x memory clock x bus width / 8)
  double copy_gbps = 0;            // measured device-to-device copy, GB/s (bytes read + written)
  double cub_ms = 0;               // cub::DeviceReduce::Sum median time on the same input, ms
  double cub_gbps = 0;             // its effective bandwidth, GB/s (N x 4 bytes / median)
};

// One kernel at one block size, timed as SessionMeta::method says.
struct SessionTiming {
  std::string kernel;         // slide name, "reduce0" ... "reduce6"
  uint32_t block_size = 0;    // threads per block
  double median_ms = 0, min_ms = 0, max_ms = 0;  // milliseconds
  uint32_t samples = 0;
  double gbps = 0;            // effective bandwidth: N x 4 bytes / median, GB/s
  double pct_peak = 0;        // gbps / SessionMeta::peak_gbps x 100
  bool correct = true;        // the sum matched the CPU reference
  uint32_t launches = 0;      // kernel launches of one reduction (0: not known; sessions before 0.2)
};

// One measured figure of one kernel at one block size: a metric Nsight Compute measured (`reducescope
// profile`, under the name the source reads it by: the book's nvprof names, e.g. "gld_efficiency"), or a
// pitfall kernel's result (`reducescope pitfalls --out`: "wrong_runs", "distinct_sums",
// "racecheck_hazards").
struct SessionMetric {
  std::string kernel;        // kernel name
  uint32_t block_size = 0;   // threads per block
  std::string name;          // the source's (nvprof) name: "inst_per_warp", "gld_efficiency", ...; or a pitfall's
  std::string ncu_metric;    // how it was measured: the Nsight Compute metric, e.g.
                             // "smsp__average_inst_executed_per_warp.ratio"; for the pitfalls the command and N,
                             // and racecheck's first report line
  std::string unit;          // as Nsight Compute reports it: "%", "inst", "byte/second", ...; "of 100 runs"
  double value = 0;          // finite
};

// One data race that compute-sanitizer's racecheck found in a kernel (`reducescope pitfalls --out` runs
// `compute-sanitizer --tool racecheck --racecheck-report hazard` on a one-block launch): a pair of source
// lines, one access at each end, with the shared-memory words where the two met. Racecheck's hazard
// kinds (Compute Sanitizer User Manual, "Racecheck Tool"): RAW, a read that may come before the write it
// needs; WAR, a write that may come before a read of the old value; WAW, two writes in no fixed order.
// Racecheck reports each hazard as "<first access> Thread ... at <file>:<line>" then "<second access>
// Thread ... at <file>:<line>"; the pair is kept in that order.
struct SessionRace {
  std::string kernel;             // kernel name
  uint32_t block_size = 0;        // threads per block of the launch racecheck watched
  std::string kind;               // "RAW", "WAR" or "WAW"
  std::string file;               // the source file racecheck names (base name, e.g. "pitfall_kernels.cuh")
  std::string first_access;       // "Write" or "Read": the access racecheck lists first
  uint32_t first_line = 0;        // its line in `file` (1-based)
  std::string second_access;      // "Write" or "Read"
  uint32_t second_line = 0;       // its line in `file` (1-based)
  uint32_t hazards = 0;           // hazards racecheck reported for this pair in block (0,0,0)
  std::vector<uint32_t> words;    // the shared-memory words (byte offset / 4) they touched: ascending, unique
};

// The bits view (`reducescope bits --out`, issue 20): every float32 kernel run `runs` times at each block size
// on one input, and the distinct result bit patterns it gave. Float addition is not associative, so a
// kernel's bits can change with the block size (the tree's shape), the grid and the run (atomics in
// arrival order); reproducible_sum's do not.
struct BitsRow {
  std::string kernel;                // kernel name, or kCubSeries (sweep.hpp; no block size: the one entry 0)
  uint32_t bits = 0;                 // the result's float32 bit pattern
  uint32_t count = 0;                // runs that gave it
  std::vector<uint32_t> block_sizes; // the block sizes that gave it, ascending
};
struct SessionBits {
  uint64_t n = 0;                    // elements (0: the session has no bits view)
  std::string pattern;               // the input pattern, "random"
  uint32_t runs = 0;                 // runs per kernel and block size
  uint32_t exact_bits = 0;           // the exact sum rounded once (correctly rounded: kernels/exact_sum.hpp)
  double exact = 0;                  // the exact sum to double precision (for "ulps" and the value)
  double tolerance = 0;              // how far a float32 sum in any order may land from `exact` (FloatReference)
  std::vector<BitsRow> rows;         // kernels in the order run; patterns of a kernel most frequent first
  bool empty() const { return rows.empty(); }
  // Whether the float32 result `bits` lies outside `tolerance` of `exact` (a NaN or an infinity does): WRONG.
  bool wrong(uint32_t bits) const;
};

struct Session {
  SessionMeta meta;
  std::vector<SessionTiming> timings;  // any order; at most one per (kernel, block size)
  std::vector<Trace> traces;           // one block of each kernel x block size x element type recorded (int32 first:
                                       // a reader before float32 traces takes the first of a kernel and block size)
  std::vector<SessionMetric> metrics;  // any order; at most one per (kernel, block size, name)
  Sweep sweep;                         // bandwidth against N on the same GPU (`reducescope sweep`); may be empty
  SessionBits bits;                    // the bits view of float32 sums (`reducescope bits --out`); may be empty
  std::vector<Trace> other_runs;       // a second run's trace of the same block (issue 30, the two-runs view: a float
                                       // atomic kernel's updates land in another order each run); at most one per
                                       // (kernel, block size, type, tracer), each beside its trace in `traces`; older
                                       // readers skip the section (11)
  std::vector<SessionRace> races;      // racecheck's data races, per kernel and block size; any order (older sessions
                                       // have none; readers that predate the section skip it)
  SessionMultiGpu multigpu;            // the multigpu track (`record --track multigpu`); may be empty. It keeps its own
                                       // GPUs' names: a session recorded on one GPU can carry it (`record --add`)

  // The races recorded for `kernel` at `block_size`, in the session's order; empty when none.
  std::vector<const SessionRace*> races_of(const std::string& kernel, uint32_t block_size) const;
  // Replaces every race of (kernel, block size) by `rs` (which may be empty: racecheck found none).
  void set_races(const std::string& kernel, uint32_t block_size, std::vector<SessionRace> rs);

  // nullptr when the session has no such metric.
  const SessionMetric* find_metric(const std::string& kernel, uint32_t block_size, const std::string& name) const;
  // Adds `m`, replacing the metric of the same kernel, block size and name if there is one.
  void set_metric(SessionMetric m);
  // Adds `t`, replacing the timing of the same kernel and block size if there is one.
  void set_timing(SessionTiming t);
  // Adds `t`, replacing the trace of the same kernel, block size, element type (TraceMeta::dtype) and tracer
  // (TraceMeta::tracer) if there is one. The source probe's int32 traces come first, then the other ones (older
  // readers take the first of a kernel and block size).
  void set_trace(Trace t);

  // nullptr when the session has no such entry.
  const SessionTiming* find_timing(const std::string& kernel, uint32_t block_size) const;
  // The trace of `kernel` at `block_size` in element type `dtype` made by `tracer`. Without a type: the int32 trace
  // if there is one, else the trace of any type (reproducible_sum: float32 only). Without a tracer: the source
  // probe's if there is one, else the binary tracer's (a plain kernel file's, the pitfalls as compiled).
  const Trace* find_trace(const std::string& kernel, uint32_t block_size, std::optional<DType> dtype = std::nullopt,
                          std::optional<Tracer> tracer = std::nullopt) const;
  // The other run's trace of `kernel` at `block_size` in `dtype` (other_runs), or nullptr.
  const Trace* other_run(const std::string& kernel, uint32_t block_size, DType dtype) const;
  // Adds `t` to other_runs, or replaces the one of the same kernel, block size, type and tracer.
  void set_other_run(Trace t);
  // Whether the session holds a trace of `kernel` at `block_size` by each tracer (any element type).
  bool has_tracer(const std::string& kernel, uint32_t block_size, Tracer tracer) const;
  // The element types the session has a trace of `kernel` at `block_size` in (int32 first).
  std::vector<DType> trace_dtypes(const std::string& kernel, uint32_t block_size) const;
  // Block sizes that have a timing or a trace, ascending.
  std::vector<uint32_t> block_sizes() const;
};

// Writes through a temporary file renamed into place. Throws SessionFormatError on I/O failure.
void save_session(const Session& s, const std::string& path);
// Reads and validates every section and every trace inside (as load_trace does). Throws
// SessionFormatError naming `path` and the problem.
Session load_session(const std::string& path);
Session parse_session(const std::string& bytes, const std::string& name);
std::string serialize_session(const Session& s);
// True if `bytes` start with the session magic (to tell sessions from traces by content).
bool is_session_bytes(const std::string& bytes);
// True if the file at `path` starts with the session magic; false if not or unreadable.
bool is_session_file(const std::string& path);

}  // namespace rs
