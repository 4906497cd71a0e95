// `reducescope profile`: the metrics a source reads with nvprof, measured with Nsight Compute
// under their current names, and stored in a session (SessionMetric) so the window can show them
// without a GPU. Plain C++ (no CUDA): the mapping and the parser of ncu's CSV are tested in CI.
//
// The mapping follows NVIDIA's "Nsight Compute CLI" documentation, section "nvprof Transition
// Guide", "Metric Comparison" (nvprof metric -> Nsight Compute metric).
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rs {

struct ProfilerMetric {
  const char* name;  // the nvprof name the source uses
  const char* ncu;   // the Nsight Compute metric that replaces it
  const char* what;  // what it measures, for the window and the CLI
};

// The metrics the book (seeds/002) reads: inst_per_warp, gld_efficiency, gld_throughput,
// dram_read_throughput, stall_sync, achieved_occupancy.
const std::vector<ProfilerMetric>& book_metrics();

// A line of ncu output that is not what parse_ncu_csv expects.
class NcuOutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses the output of `ncu --csv --print-units base --metrics ...` (other lines, e.g. "==PROF==",
// are skipped): metric name -> (unit, value) of the FIRST kernel launch it lists (ID 0). Numbers may
// carry thousands separators. Throws NcuOutputError if no metric row is found or a value is not a
// number.
std::map<std::string, std::pair<std::string, double>> parse_ncu_csv(const std::string& text);

}  // namespace rs
