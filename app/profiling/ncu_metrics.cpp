#include "ncu_metrics.hpp"
#include "markup.hpp"  // split_csv_line

#include <cstdlib>
#include <sstream>

namespace rs {

const std::vector<ProfilerMetric>& book_metrics() {
  static const std::vector<ProfilerMetric> m = {
      {"inst_per_warp", "smsp__average_inst_executed_per_warp.ratio", "instructions executed per warp, on average"},
      {"gld_efficiency", "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
       "global load efficiency: bytes requested / bytes in the 32-byte sectors moved"},
      {"gld_throughput", "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second",
       "global load throughput through L1, bytes per second"},
      {"dram_read_throughput", "dram__bytes_read.sum.per_second", "DRAM read throughput, bytes per second"},
      {"stall_sync", "smsp__warp_issue_stalled_barrier_per_warp_active.pct",
       "share of active warps stalled at a barrier (__syncthreads), per cycle"},
      {"achieved_occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active",
       "achieved occupancy: active warps / the SM's maximum, while active"},
  };
  return m;
}

namespace {


}  // namespace

std::map<std::string, std::pair<std::string, double>> parse_ncu_csv(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> header;
  int id_col = -1, name_col = -1, unit_col = -1, value_col = -1;
  std::map<std::string, std::pair<std::string, double>> out;
  std::string first_id;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '"') continue;  // "==PROF==" lines, the program's own output
    const auto f = split_csv_line(line);
    if (header.empty()) {
      header = f;
      for (int i = 0; i < static_cast<int>(f.size()); ++i) {
        if (f[i] == "ID") id_col = i;
        if (f[i] == "Metric Name") name_col = i;
        if (f[i] == "Metric Unit") unit_col = i;
        if (f[i] == "Metric Value") value_col = i;
      }
      if (id_col < 0 || name_col < 0 || unit_col < 0 || value_col < 0) {
        throw NcuOutputError("ncu's CSV header lacks ID, Metric Name, Metric Unit or Metric Value: " + line);
      }
      continue;
    }
    if (static_cast<int>(f.size()) != static_cast<int>(header.size())) {
      throw NcuOutputError("an ncu CSV row has " + std::to_string(f.size()) + " fields, the header " +
                           std::to_string(header.size()) + ": " + line);
    }
    if (first_id.empty()) first_id = f[id_col];
    if (f[id_col] != first_id) continue;  // a later launch (relaunched levels): the first one counts
    std::string v;
    for (char c : f[value_col]) {
      if (c != ',') v += c;
    }
    char* end = nullptr;
    const double d = std::strtod(v.c_str(), &end);
    if (v.empty() || end != v.c_str() + v.size()) {
      throw NcuOutputError("ncu reported '" + f[value_col] + "' for " + f[name_col] + ", not a number");
    }
    out[f[name_col]] = {f[unit_col], d};
  }
  if (out.empty()) throw NcuOutputError("ncu printed no metric rows (did the kernel run?)");
  return out;
}

}  // namespace rs
