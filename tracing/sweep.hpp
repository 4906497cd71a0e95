// The N sweep: effective bandwidth against the number of elements, for each track's fastest kernel,
// CUB and the device-to-device copy, from `reducescope bench --csv` runs at several N. A session can
// hold one (Session::sweep, written by `reducescope sweep`), so the window and the exports show it
// without a GPU; `reducescope export --sweep` draws one straight from the CSV files.
//
// Index
//   BenchRow, parse_bench_csv()   one line of `reducescope bench --csv`
//   SweepPoint, Sweep             the sweep
//   sweep_from_bench_rows(), sweep_from_bench_csv()
//   BenchCsvError                 what the parsers raise
//
// Plain C++: no CUDA, no GL.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace rs {

// Raised for text that is not `reducescope bench --csv` output.
class BenchCsvError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One row of `reducescope bench --csv` (the columns of its header line, in its units).
struct BenchRow {
  std::string gpu;          // device name
  uint64_t n = 0;           // elements
  std::string pattern;      // input pattern: "ones", "random", "iota"
  std::string kernel;       // kernel name, "cub::DeviceReduce::Sum" or "copy_d2d"
  uint32_t block_size = 0;  // threads per block (0 for CUB and the copy)
  double median_ms = 0;     // median time of one whole reduction, ms
  double gbps = 0;          // effective bandwidth, GB/s (the copy: bytes read + written)
  double pct_peak = 0;      // gbps / the theoretical peak x 100
  bool correct = false;     // ran and matched the CPU reference
  std::string track;        // the track the row was measured in
  std::string dtype;        // "int32" or "float32"
  uint32_t launches = 0;    // kernel launches of one reduction (0: CUB, or skipped)
};

// Every data row of `text` (several CSV files may be concatenated; header lines are skipped). Throws
// BenchCsvError for a line with too few columns or a malformed number, or for text with no data row.
std::vector<BenchRow> parse_bench_csv(const std::string& text);

// One point of an N sweep: a series (a track's fastest kernel, CUB, the copy) at n elements.
struct SweepPoint {
  std::string series;       // "modern", "harris", ..., kCubSeries, kCopySeries
  uint64_t n = 0;           // elements (int32)
  double gbps = 0;          // effective bandwidth, GB/s (the copy: bytes read + written)
  std::string kernel;       // the kernel that was fastest at this n ("" for CUB and the copy)
  uint32_t block_size = 0;  // its block size (0 for CUB and the copy)
  double median_ms = 0;     // its median time, ms (0: not known, sweeps drawn before 0.2)
  uint32_t launches = 0;    // its kernel launches (0: not known, or CUB)
};
inline constexpr const char* kCubSeries = "CUB DeviceReduce::Sum";
inline constexpr const char* kCopySeries = "device-to-device copy";

struct Sweep {
  std::string gpu;                 // the device it was measured on
  std::string method;              // the timing method in words ("" if not known)
  double peak_gbps = 0;            // the device's theoretical peak, GB/s (0: not known)
  std::vector<SweepPoint> points;  // series in first-seen order, n ascending within each
  bool empty() const { return points.empty(); }
  // The distinct N, ascending.
  std::vector<uint64_t> ns() const;
  // The series' names in order.
  std::vector<std::string> series() const;
  // nullptr if `series` has no point at `n`.
  const SweepPoint* find(const std::string& series, uint64_t n) const;
};

// For every N and track, the int32 kernel with the highest bandwidth and a correct result over every block
// size in `rows`; CUB and the copy once per N (their best). The peak comes from gbps / pct_peak. Throws
// BenchCsvError if no row is a correct int32 result.
Sweep sweep_from_bench_rows(const std::vector<BenchRow>& rows);
// parse_bench_csv, then sweep_from_bench_rows.
Sweep sweep_from_bench_csv(const std::string& text);

}  // namespace rs
