// Timing charts for slides and handouts: PNG, SVG and PDF through cairo (Debian's
// libcairo2-dev), and CSV of the numbers behind each chart. Used by `reducescope export`
// and by the window's File -> Export.
//
// Index
//   ChartFiles        what one export wrote
//   ExportError       what every failure raises
//   export_charts()   all timing charts of a session into a folder
//   export_multigpu() the multigpu track's busbw against size, and its rows as CSV
//   export_session()  what `reducescope export --out` writes: the above and the N sweep, where the session has them
//   export_sweep()    bandwidth against N
//   Roofline, export_roofline()  one submission's bytes against time beside its reference and the copy ceiling
//
// Each chart's caption states the GPU, N, the pattern, the block size (where one applies) and
// the timing method (SessionMeta::method), so a chart pasted into a slide carries its context.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "session.hpp"
#include "sweep.hpp"

namespace rs {

class ExportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ChartFiles {
  std::vector<std::string> paths;  // every file written, in the order written
};

// Writes into `dir` (created if missing):
//   kernels_time_bs<B>.{png,svg,pdf,csv}       median time per kernel at block size B, min-max whiskers
//   kernels_bandwidth_bs<B>.{png,svg,pdf,csv}  effective bandwidth per kernel at B, with the
//                                              theoretical peak and the measured copy ceiling as lines
//   blocksize_time.{png,svg,pdf,csv}           median time against block size, one line per kernel
//   blocksize_time_log.{png,svg,pdf}           the same on a log time axis (1-2-5 ticks a decade), where
//                                              the fast kernels do not crowd together at the bottom; its
//                                              numbers are blocksize_time.csv's
//   blocksize_bandwidth.{png,svg,pdf,csv}      effective bandwidth against block size, one line per kernel
//   harris_table_bs<B>.csv                     Harris's table at B: time, GB/s, % of peak, step and
//                                              cumulative speedup
// for B = `block_size`, or for every block size in the session when `block_size` is 0. Each track
// gets its own set: the first track's (Harris's) under the names above, every other track's with
// its id as a prefix (lecture_kernels_time_bs<B>..., lecture_blocksize_time..., lecture_blocksize_time_log...,
// lecture_table_bs<B>.csv);
// a kernel keeps its place in its track as its style, as in the window (kernel_color).
// Throws ExportError if the session has no timings, B has none, or a file cannot be written.
ChartFiles export_charts(const Session& s, const std::string& dir, uint32_t block_size = 0);

// Writes multigpu-busbw.{png,svg,pdf,csv} into `dir`: the multigpu track's all-reduce busbw (GB/s) against the
// bytes each GPU holds (log2 axis) for NCCL, the hand ring and the naive gather, beside the P2P copy GPU 0 -> 1
// one way as a dashed grey line; busbw = algbw x 2(G-1)/G and algbw = bytes / median time, as nccl-tests'
// doc/PERFORMANCE.md defines them (tracing/multigpu.hpp). The title names the GPUs, their link and NCCL's
// version. The CSV holds every row of the recording (the copies and the spread sums too): op, method, bytes,
// median_ms, min_ms, max_ms, samples, algbw_gbps, busbw_gbps, correct. Throws ExportError for a recording
// without all-reduce rows or a file that cannot be written.
ChartFiles export_multigpu(const SessionMultiGpu& m, const std::string& dir);

// Everything `reducescope export SESSION --out DIR` writes: export_charts() (where the session has timings),
// export_sweep() of its N sweep and export_multigpu() of its multi-GPU recording, each where the session has
// one. Throws ExportError as they do; a session with none of the three, export_charts()'s "no timings".
ChartFiles export_session(const Session& s, const std::string& dir, uint32_t block_size = 0);

// Writes sweep_bandwidth.{png,svg,pdf,csv} into `dir`: effective bandwidth against N (log2 axis), one line
// per series, the theoretical peak as a reference line; `method` is the caption's timing method.
// Throws ExportError for an empty sweep or a file that cannot be written.
ChartFiles export_sweep(const Sweep& sweep, const std::string& dir, const std::string& method);

// A roofline-style chart of one kernel file's run (grade's page per submission, issue 40, item 3): the bytes the
// kernel reads (the input: N elements x their size) against its median time, beside the exercise's reference
// kernel timed in the same run, and the device-to-device copy ceiling of that run as a dashed line through the origin
// of slope GB/s (bytes = GB/s x 1e6 x ms). A point on the line would move its bytes at the copy ceiling; a point to
// its right took longer. For a reduction every kernel reads the same bytes once, so the points differ in time only
// (Williams, Waterman and Patterson, "Roofline", CACM 2009, plot GB/s against arithmetic intensity; a reduction's
// intensity is fixed at one add per element, so its roofline is this one line).
struct RooflinePoint {
  std::string name;   // "al" (the student), "reduce4" (the reference)
  double ms = 0;      // median time, ms; a point with ms <= 0 is left out
  bool reference = false;
};
struct Roofline {
  std::string title;                 // "al: exercise shuffle"
  std::vector<std::string> caption;  // paragraphs: the GPU, N, the timing method
  double bytes = 0;                  // bytes each run reads
  double ceiling_gbps = 0;           // the copy ceiling measured in the same run, GB/s (1e9 bytes/s); 0: none drawn
  std::vector<RooflinePoint> points;
};
// Writes `stem`.{png,svg,pdf,csv} into `dir` (created if missing); the CSV: name, ms, bytes, gbps. Throws
// ExportError for no bytes, no point with a time, or a file that cannot be written.
ChartFiles export_roofline(const Roofline& r, const std::string& dir, const std::string& stem = "roofline");

}  // namespace rs
