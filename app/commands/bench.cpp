// `reducescope bench`: times each kernel of the selected tracks, element types and block sizes on the
// GPU and prints one table per track and type in the shape of Harris's slide (time, launches, GB/s,
// % of peak, step and cumulative speedup, vs CUB, the source's own times), checks every result against
// the CPU reference, and writes the rows as CSV with --csv.
#include "commands.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "common.hpp"

namespace rs {

using namespace cmd;

namespace {

struct Row {
  KernelId kernel;
  unsigned block;
  std::optional<std::string> skipped;  // why the pair cannot run
  Timing t;
  int32_t got = 0;
  bool correct = false;
  unsigned launches = 0;
  int runs = 0, distinct = 0;          // float32: repeated runs and how many different results they gave
};

constexpr int kRepeatRuns = 5;  // float32 rows: runs compared bit for bit

}  // namespace

int run_bench(const Options& o, std::ostream& out, std::ostream& err) {
  if (o.tracks == std::vector<std::string>{kMultiGpuTrack}) return run_multigpu(o, false, out, err);
  return guarded("bench", err, [&] {
    GpuReducer gpu;
    const DeviceInfo& d = gpu.device();
    out << "ReduceScope bench on " << device_line(d) << "\n";
    char b[768];
    std::snprintf(b, sizeof b,
                  "N = %llu, pattern %s. Method: %d timed samples per row after 3 warm-ups; before each sample the "
                  "L2 is flushed\n        by writing %.0f MiB; CUDA events around the whole reduction (every launch "
                  "and memset); median [min .. max].\nBandwidth: N x 4 bytes / median time. Theoretical peak %.1f "
                  "GB/s (2 x %.0f MHz x %d-bit / 8).\n",
                  static_cast<unsigned long long>(o.n), to_string(o.pattern), o.samples, 2.0 * d.l2_bytes / 1048576.0,
                  d.peak_gbps(), d.mem_clock_khz / 1000.0, d.bus_width_bits);
    out << b;
    bool all_correct = true;
    std::ofstream csv;
    if (!o.csv.empty()) {
      csv.open(o.csv);
      if (!csv) throw std::runtime_error(o.csv + ": cannot open for writing");
      csv << "gpu,n,pattern,kernel,block_size,median_ms,min_ms,max_ms,samples,gbps,pct_peak,correct,skipped_reason,"
             "track,dtype,launches,source_us,distinct_results\n";
    }
    auto q = [](std::string s) {
      for (auto& c : s) if (c == '"') c = '\'';
      return "\"" + s + "\"";
    };
    auto csv_line = [&](const std::string& track, DType type, const std::string& k, unsigned bs, const Timing& t,
                        bool ok, const std::string& why, unsigned launches, double source_us, int distinct) {
      if (!csv.is_open()) return;
      csv << q(d.name) << ',' << o.n << ',' << to_string(o.pattern) << ',' << k << ',' << bs << ','
          << fmt("%.6f", t.median_ms) << ',' << fmt("%.6f", t.min_ms) << ',' << fmt("%.6f", t.max_ms) << ','
          << t.samples << ',' << fmt("%.2f", t.gbps) << ',' << fmt("%.2f", t.pct_peak) << ',' << (ok ? 1 : 0) << ','
          << q(why) << ',' << track << ',' << to_string(type) << ',' << launches << ',' << fmt("%.1f", source_us)
          << ',' << distinct << '\n';
    };

    for (const std::string& track_id : o.tracks) {
      const TrackInfo& track = *find_track(track_id);
      std::vector<KernelId> kernels;
      for (KernelId k : o.kernels) {
        if (track_id == kernel_info(k).track) kernels.push_back(k);
      }
      if (kernels.empty()) continue;
      std::vector<DType> types = o.dtypes;
      if (types.empty()) types = {DType::Int32, DType::Float32};
      std::vector<unsigned> sizes = o.block_sizes;
      if (sizes.empty()) sizes = {track.default_block_size};
      for (DType type : types) {
        bool any = false;
        for (KernelId k : kernels) any = any || kernel_info(k).takes(type);
        if (!any) continue;
        double cpu_us = 0;
        const CpuReference ref = prepare_typed_input(gpu, o, type, &cpu_us);
        out << "\n== track " << track.id << ": " << track.title << " -- " << to_string(type) << " ==\n"
            << "Source: " << track.source << "\n"
            << "Reference: " << (type == DType::Int32 ? "CPU sum (int32, wraps) " : "CPU sum in double ")
            << ref.str(ReduceOp::Sum) << "\n";
        std::set<ReduceOp> other_ops;
        for (KernelId k : kernels) {
          if (kernel_info(k).op != ReduceOp::Sum && kernel_info(k).takes(type)) other_ops.insert(kernel_info(k).op);
        }
        if (!other_ops.empty()) {
          out << "           ";
          for (ReduceOp op : other_ops) out << " " << to_string(op) << ": " << ref.str(op) << ";";
          out << " (CUB's column is cub::DeviceReduce::Sum for every operator)\n";
        }
        if (type == DType::Float32) {
          out << "Float tolerance: 6 x sqrt(N) x 2^-24 x sum|x| (Higham & Mary 2019, probabilistic bound for "
                 "summation in any order).\n";
        }
        out.flush();
        const Timing copy = gpu.time_copy(o.samples);
        const Timing cub = gpu.time_cub(o.samples);
        const int32_t cub_sum = gpu.run_cub();
        const bool cub_ok = ref.accepts(ReduceOp::Sum, cub_sum);
        all_correct = all_correct && cub_ok;
        std::snprintf(b, sizeof b,
                      "References (same method): device-to-device copy %.1f GB/s counting read+write (%.1f%% of "
                      "peak);\n                          cub::DeviceReduce::Sum %.4f ms, %.1f GB/s (%.1f%% of peak), "
                      "result %s %s\n",
                      copy.gbps, copy.pct_peak, cub.median_ms, cub.gbps, cub.pct_peak,
                      value_str(cub_sum, type).c_str(), cub_ok ? "correct" : "WRONG");
        out << b;
        csv_line(track.id, type, "copy_d2d", 0, copy, true, "", 1, 0, 0);
        csv_line(track.id, type, "cub::DeviceReduce::Sum", 0, cub, cub_ok, "", 0, 0, 0);
        out.flush();

        std::vector<Row> rows;
        for (unsigned bs : sizes) {
          for (KernelId k : kernels) {
            // The reasons in English (the CLI's language): Said::say().
            auto english = [](const std::optional<Said>& s) {
              return s ? std::optional<std::string>(s->say()) : std::nullopt;
            };
            Row r{k, bs, english(block_size_problem(k, bs)), {}, 0, false};
            if (!r.skipped) r.skipped = english(dtype_problem(k, type));
            if (!r.skipped) {
              r.got = gpu.run(k, bs);
              const ReduceOp op = kernel_info(k).op;
              r.correct = ref.accepts(op, r.got);
              if (type == DType::Float32) {
                std::set<int32_t> seen{r.got};
                for (int i = 1; i < kRepeatRuns; ++i) {
                  const int32_t again = gpu.run(k, bs);
                  seen.insert(again);
                  r.correct = r.correct && ref.accepts(op, again);
                }
                r.runs = kRepeatRuns;
                r.distinct = static_cast<int>(seen.size());
              }
              r.launches = gpu.launches(k, bs);
              r.t = gpu.time(k, bs, o.samples);
            }
            rows.push_back(r);
          }
        }

        const bool has_source = track.source_n > 0;
        const bool source_applies = has_source && o.n == track.source_n;
        out << "\n";
        // The kernel column fits the track's longest name (the book's reduceCompleteUnrollWarps8).
        int w = static_cast<int>(std::strlen(track.cpu_name)) + 6;
        for (KernelId k : kernels) w = std::max(w, static_cast<int>(std::strlen(kernel_info(k).name)));
        w = std::max(w, 14);
        std::snprintf(b, sizeof b, "%-*s %5s %10s %21s %3s %8s %7s %6s %8s %7s", w, "kernel", "block", "time ms",
                      "[min .. max] ms", "L", "GB/s", "% peak", "step", "cumul.", "vs CUB");
        out << b;
        if (has_source) {
          std::snprintf(b, sizeof b, " %10s %8s", "source us", "src cum.");
          out << b;
        }
        out << "  result\n";
        if (track.cpu_name[0]) {
          std::snprintf(b, sizeof b, "%-*s %5s %10.4f %21s %3s %8.1f %7s %6s %8s %7s", w, (std::string(track.cpu_name) +
                        " (CPU)").c_str(), "-", cpu_us / 1000.0, "", "-", o.n * 4.0 / (cpu_us * 1e-6) / 1e9, "", "", "",
                        "");
          out << b;
          if (has_source) {
            std::snprintf(b, sizeof b, " %10.0f %8s", track.cpu_source_us, "");
            out << b;
          }
          out << "  one loop on the CPU, median of 5\n";
        }
        // Per block size, the rows so far: step and cumulative speedups only between kernels that do the
        // same job (table_speedups: no "0.02x" from farthest_point to a histogram).
        std::map<unsigned, std::pair<std::vector<KernelId>, std::vector<double>>> so_far;
        double first_source = 0;
        unsigned last_bs = 0;
        for (const Row& r : rows) {
          if (r.block != last_bs && last_bs != 0) out << "\n";
          last_bs = r.block;
          const KernelInfo& k = kernel_info(r.kernel);
          if (r.skipped) {
            std::snprintf(b, sizeof b, "%-*s %5u  n/a: ", w, k.name, r.block);
            out << b << *r.skipped << "\n";
            csv_line(track.id, type, k.name, r.block, r.t, false, *r.skipped, 0, k.source_us, 0);
            continue;
          }
          all_correct = all_correct && r.correct;
          auto& [ids, ms] = so_far[r.block];
          ids.push_back(r.kernel);
          ms.push_back(r.t.median_ms);
          const Speedup sp = table_speedups(ids, ms).back();
          char step[16];
          if (sp.step > 0) std::snprintf(step, sizeof step, "%5.2fx", sp.step);
          else std::snprintf(step, sizeof step, "%6s", "-");
          std::snprintf(b, sizeof b, "%-*s %5u %10.4f   [%7.4f .. %7.4f] %3u %8.1f %6.1f%% %s %7.2fx %6.2fx", w,
                        k.name, r.block, r.t.median_ms, r.t.min_ms, r.t.max_ms, r.launches, r.t.gbps, r.t.pct_peak,
                        step, sp.cumulative, cub.median_ms / r.t.median_ms);
          out << b;
          if (has_source) {
            if (first_source == 0) first_source = k.source_us;
            std::snprintf(b, sizeof b, " %10.0f %7.2fx", k.source_us, k.source_us > 0 ? first_source / k.source_us : 0);
            out << b;
          }
          std::string result = (r.correct ? "correct " : "WRONG ") + value_str(r.got, type);
          if (!r.correct && type == DType::Float32) {
            float got;
            std::memcpy(&got, &r.got, 4);
            const std::string why = float_sum_note(got, ref.f.sum);
            if (!why.empty()) result += " (" + why + ")";
          }
          if (r.runs) {
            result += r.distinct == 1 ? ", same bits in " + std::to_string(r.runs) + " runs"
                                      : ", " + std::to_string(r.distinct) + " different results in " +
                                            std::to_string(r.runs) + " runs";
          }
          out << "  " << result << "\n";
          csv_line(track.id, type, k.name, r.block, r.t, r.correct, "", r.launches, k.source_us, r.distinct);
        }
        out << "\nL = launches (a global-atomic kernel's memset of the accumulator is timed too; an in-place kernel's "
               "time includes copying its partials back and the host adding them, not the scratch copy made before); "
               "step = speedup over the row above; cumul. = over the first GPU kernel listed; vs CUB = CUB time / "
               "kernel time.\n";
        if (has_source) {
          out << "source us = the time " << track.source << " reports on " << track.source_gpu << " at N = "
              << track.source_n << "; src cum. = its speedup over its first GPU kernel. Compare ratios, not times"
              << (source_applies ? "" : " (and note N differs from the source's)") << ".\n";
        }
        out.flush();
      }
    }
    if (csv.is_open()) {
      if (!csv.flush()) throw std::runtime_error(o.csv + ": write failed");
      out << "CSV written to " << o.csv << "\n";
    }
    if (!all_correct) {
      err << "reducescope bench: some results do not match the CPU reference\n";
      return kExitRuntime;
    }
    return kExitOk;
  });
}

}  // namespace rs
