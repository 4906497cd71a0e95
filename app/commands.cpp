#include "commands.hpp"

#include <bit>
#include <chrono>
#include <cstdlib>
#include <unistd.h>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>
#include <type_traits>
#include <algorithm>
#include <ostream>

#include "gpu_reduce.hpp"
#include "profile.hpp"
#include "text_histogram.hpp"
#include "trace_io.hpp"
#ifdef REDUCESCOPE_HAS_CHARTS
#include "charts.hpp"
#endif
#include "web_export.hpp"

namespace rs {

namespace {

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string device_line(const DeviceInfo& d) {
  char b[256];
  std::snprintf(b, sizeof b, "%s (compute capability %d.%d, %d SMs, %.0f MiB L2), CUDA runtime %s", d.name.c_str(),
                d.cc_major, d.cc_minor, d.sm_count, d.l2_bytes / 1048576.0, d.cuda_runtime.c_str());
  return b;
}

// Runs a command body, turning what it throws into the one-line message and exit code the CLI
// promises: a request the GPU code cannot take (std::invalid_argument) is a usage error (2),
// anything else (no GPU, CUDA error, bad file) a runtime error (1).
template <class Body>
int guarded(const char* command, std::ostream& err, Body body) {
  try {
    return body();
  } catch (const std::invalid_argument& e) {
    err << "reducescope " << command << ": " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    err << "reducescope " << command << ": " << e.what() << "\n";
    return kExitRuntime;
  }
}

// The whole of a text file. Throws std::runtime_error naming it if it cannot be read.
std::string read_text_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error(path + ": cannot read");
  std::stringstream text;
  text << f.rdbuf();
  return text.str();
}

// The CPU loop the sources start from (sum_host, "cpu reduce"): one sequential loop in the element
// type over `data`, median of 5 runs, in microseconds.
template <class E>
double time_cpu_sum_us(const std::vector<E>& data) {
  std::vector<double> us;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    volatile E sink = 0;
    if constexpr (std::is_same_v<E, float>) {
      float sum = 0;
      for (float x : data) sum += x;
      sink = sum;
    } else {
      sink = cpu_reduce(data);
    }
    (void)sink;
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

// Uploads the input of type `t` and returns its reference; with `cpu_us`, also times the CPU loop
// over it (time_cpu_sum_us).
CpuReference prepare_typed_input(GpuReducer& gpu, const Options& o, DType t, double* cpu_us = nullptr) {
  CpuReference r;
  if (t == DType::Float32) {
    std::vector<float> input = make_input_f32(o.pattern, o.n);
    r = cpu_reference(input);
    if (cpu_us) *cpu_us = time_cpu_sum_us(input);
    gpu.set_input(input, o.pattern);
  } else {
    std::vector<int32_t> input = make_input(o.pattern, o.n);
    r = cpu_reference(input);
    if (cpu_us) *cpu_us = time_cpu_sum_us(input);
    gpu.set_input(input, o.pattern);
  }
  return r;
}

std::string value_str(int32_t bits, DType t) { return format_value(static_cast<uint32_t>(bits), t); }

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
            Row r{k, bs, block_size_problem(k, bs), {}, 0, false};
            if (!r.skipped) r.skipped = dtype_problem(k, type);
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
        std::map<unsigned, double> first_time, prev_time;
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
          const double step = prev_time.count(r.block) ? prev_time[r.block] / r.t.median_ms : 1.0;
          if (!first_time.count(r.block)) first_time[r.block] = r.t.median_ms;
          const double cumulative = first_time[r.block] / r.t.median_ms;
          prev_time[r.block] = r.t.median_ms;
          std::snprintf(b, sizeof b, "%-*s %5u %10.4f   [%7.4f .. %7.4f] %3u %8.1f %6.1f%% %5.2fx %7.2fx %6.2fx", w,
                        k.name, r.block, r.t.median_ms, r.t.min_ms, r.t.max_ms, r.launches, r.t.gbps, r.t.pct_peak,
                        step, cumulative, cub.median_ms / r.t.median_ms);
          out << b;
          if (has_source) {
            if (first_source == 0) first_source = k.source_us;
            std::snprintf(b, sizeof b, " %10.0f %7.2fx", k.source_us, k.source_us > 0 ? first_source / k.source_us : 0);
            out << b;
          }
          std::string result = (r.correct ? "correct " : "WRONG ") + value_str(r.got, type);
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

std::string summarize_trace(const Trace& t, const Replay& replay) {
  const TraceMeta& m = t.meta;
  char b[512];
  std::string s;
  std::snprintf(b, sizeof b,
                "%s (track %s, %s), block size %u, block %u of %u in the first launch, N = %llu (%s)\n"
                "recorded on %s (compute capability %s, CUDA %s) at %s by ReduceScope %s\n"
                "%zu records, %zu steps, %d warps; result %s\n"
                "bank conflicts (extra wavefronts, 32 banks x 4 bytes): loads %d, stores %d\n",
                m.kernel.c_str(), m.track.c_str(), to_string(m.dtype), m.block_size, m.traced_block, m.grid_size,
                static_cast<unsigned long long>(m.n), m.pattern.c_str(), m.gpu.c_str(), m.compute_capability.c_str(),
                m.cuda_version.c_str(), m.date.c_str(), m.tool_version.c_str(), t.records.size(), replay.num_steps(),
                replay.num_warps(), value_str(m.result, m.dtype).c_str(), replay.load_conflicts(),
                replay.store_conflicts());
  s += b;
  if (replay.has_lane_work() || replay.has_atomics() || replay.has_global()) {
    std::snprintf(b, sizeof b,
                  "warp-level instructions: %d shuffles, %d shared atomics, %d global atomics, %d global load "
                  "requests, %d global store requests\n",
                  replay.shuffle_instruction_count(), replay.atomic_instruction_count(AccessKind::SharedAtomic),
                  replay.atomic_instruction_count(AccessKind::GlobalAtomic),
                  replay.global_request_count(AccessKind::GlobalLoad),
                  replay.global_request_count(AccessKind::GlobalStore));
    s += b;
  }
  if (replay.has_atomics()) {
    // The serialisation each warp-level atomic forces: its worst address takes that many updates in
    // turn. A float add on shared memory is a compare-and-swap loop on sm_90 (ATOMS.CAST.SPIN), so
    // Nsight Compute counts at least this many shared-atomic instructions for it.
    int shared_rounds = 0, global_rounds = 0;
    for (const WarpAtomic& a : replay.atomics()) {
      (a.kind == AccessKind::SharedAtomic ? shared_rounds : global_rounds) += a.max_contention;
    }
    std::snprintf(b, sizeof b, "atomic rounds (worst address per warp instruction, summed): shared %d, global %d\n",
                  shared_rounds, global_rounds);
    s += b;
  }
  if (replay.has_global()) {
    int sectors = 0, min_sectors = 0, bytes = 0;
    for (const GlobalRequest& g : replay.global_requests()) {
      if (g.kind != AccessKind::GlobalLoad) continue;
      sectors += g.sectors;
      min_sectors += g.min_sectors;
      bytes += g.requested_bytes;
    }
    std::snprintf(b, sizeof b,
                  "global load sectors: %d (32 bytes each; at least %d needed), %.0f%% efficiency (requested bytes / "
                  "bytes in the sectors touched)\n",
                  sectors, min_sectors, sectors ? 100.0 * bytes / (32.0 * sectors) : 0.0);
    s += b;
  }
  s += "active warps per step:";
  for (const Step& st : replay.steps()) {
    s += ' ';
    s += std::to_string(st.active_warps());
  }
  s += "\n";
  return s;
}

namespace {
// The element type trace and run use for kernel `k`: the first of --type it takes, else int32
// when it takes it, else float32. nullopt: --type names no type the kernel takes.
std::optional<DType> type_for(const Options& o, KernelId k) {
  if (!o.dtypes.empty()) {
    for (DType t : o.dtypes) {
      if (kernel_info(k).takes(t)) return t;
    }
    return std::nullopt;
  }
  return kernel_info(k).takes(DType::Int32) ? DType::Int32 : DType::Float32;
}
}  // namespace

// Calls body(kernel, type, reference) for each kernel of `o` at o.block_sizes[0]: a kernel that
// cannot take the block size is skipped with a line saying why (a single, explicit kernel was
// refused by the parser already); the input is uploaded again only when the element type changes.
// True if every body returned true.
template <class Body>
bool for_each_kernel(GpuReducer& gpu, const Options& o, std::ostream& out, Body body) {
  bool ok = true;
  std::optional<DType> uploaded;
  CpuReference ref;
  for (KernelId k : o.kernels) {
    if (auto why = block_size_problem(k, o.block_sizes[0])) {
      out << kernel_info(k).name << ": skipped: " << *why << "\n";
      continue;
    }
    const std::optional<DType> type = type_for(o, k);
    if (!type) continue;
    if (uploaded != type) {
      ref = prepare_typed_input(gpu, o, *type);
      uploaded = type;
    }
    ok = body(k, *type, ref) && ok;
  }
  return ok;
}

// FILE.rstrace -> FILE.<kernel>.rstrace, for one file per kernel.
std::string per_kernel_path(const std::string& path, const char* kernel) {
  const size_t slash = path.rfind('/');
  size_t dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) dot = path.size();
  return path.substr(0, dot) + "." + kernel + path.substr(dot);
}

int run_trace(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("trace", err, [&] {
    GpuReducer gpu;
    const bool many = o.kernels.size() > 1;
    const bool ok = for_each_kernel(gpu, o, out, [&](KernelId k, DType type, const CpuReference& ref) {
      Trace t = gpu.trace(k, o.block_sizes[0], o.traced_block);
      Replay replay(t);
      out << summarize_trace(t, replay);
      const ReduceOp op = kernel_info(k).op;
      const bool correct = ref.accepts(op, t.meta.result);
      out << "CPU reference " << ref.str(op) << ": tracing build " << (correct ? "correct" : "WRONG") << "\n";
      if (!o.quiet) {
        for (size_t i = 0; i < replay.num_steps(); ++i) out << "\n" << describe_step(replay, i, t.source);
      }
      if (!o.out.empty()) {
        const std::string path = many ? per_kernel_path(o.out, kernel_info(k).name) : o.out;
        save_trace(t, path);
        out << "trace saved to " << path << "\n";
      }
      if (!correct) {
        err << "reducescope trace: " << kernel_info(k).name << ": the tracing build's result "
            << value_str(t.meta.result, type) << " differs from the CPU reference " << ref.str(op) << "\n";
      }
      if (many) out << "\n";
      return correct;
    });
    return ok ? kExitOk : kExitRuntime;
  });
}

int run_once(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("run", err, [&] {
    GpuReducer gpu;
    const unsigned bs = o.block_sizes[0];
    const bool ok = for_each_kernel(gpu, o, out, [&](KernelId k, DType type, const CpuReference& ref) {
      const int32_t got = gpu.run(k, bs);
      const ReduceOp op = kernel_info(k).op;
      const bool correct = ref.accepts(op, got);
      out << kernel_info(k).name << " " << to_string(type) << " block size " << bs << " N " << o.n << " ("
          << gpu.first_grid(k, bs) << " blocks in the first launch, " << gpu.launches(k, bs)
          << " launches): result " << value_str(got, type) << ", "
          << (correct ? "correct" : "WRONG, CPU reference " + ref.str(op)) << "\n";
      return correct;
    });
    return ok ? kExitOk : kExitRuntime;
  });
}

std::string timing_method(int samples, int warmups, size_t l2_bytes) {
  char b[256];
  std::snprintf(b, sizeof b,
                "CUDA events around the whole multi-launch reduction; %d warm-ups, %d samples, L2 flushed (%.0f MiB "
                "write) before each; median, min-max",
                warmups, samples, 2.0 * l2_bytes / 1048576.0);
  return b;
}

SessionMeta session_meta(const DeviceInfo& d, uint64_t n, Pattern pattern, int samples, int warmups) {
  SessionMeta m;
  m.gpu = d.name;
  m.compute_capability = std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor);
  m.cuda_version = d.cuda_runtime;
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  m.date = date;
  m.tool_version = kToolVersion;
  m.pattern = to_string(pattern);
  m.method = timing_method(samples, warmups, d.l2_bytes);
  m.n = n;
  m.sm_count = static_cast<uint32_t>(d.sm_count);
  m.l2_bytes = d.l2_bytes;
  m.samples = static_cast<uint32_t>(samples);
  m.warmups = static_cast<uint32_t>(warmups);
  m.peak_gbps = d.peak_gbps();
  return m;
}

SessionTiming to_session_timing(KernelId k, unsigned block_size, const Timing& t, bool correct) {
  return {kernel_info(k).name, block_size, t.median_ms, t.min_ms, t.max_ms, static_cast<uint32_t>(t.samples), t.gbps,
          t.pct_peak, correct, t.launches};
}

Timing to_timing(const SessionTiming& t) {
  Timing out;
  out.median_ms = t.median_ms;
  out.min_ms = t.min_ms;
  out.max_ms = t.max_ms;
  out.samples = static_cast<int>(t.samples);
  out.gbps = t.gbps;
  out.pct_peak = t.pct_peak;
  out.launches = t.launches;
  return out;
}

std::string summarize_session(const Session& s) {
  const SessionMeta& m = s.meta;
  char b[1024];
  std::snprintf(b, sizeof b,
                "recorded on %s (compute capability %s, %u SMs, CUDA %s) at %s by ReduceScope %s\n"
                "N = %llu int32, pattern %s; timing: %s\n"
                "theoretical peak %.1f GB/s; device-to-device copy %.1f GB/s; cub::DeviceReduce::Sum %.4f ms (%.1f GB/s)\n",
                m.gpu.c_str(), m.compute_capability.c_str(), m.sm_count, m.cuda_version.c_str(), m.date.c_str(),
                m.tool_version.c_str(), static_cast<unsigned long long>(m.n), m.pattern.c_str(), m.method.c_str(),
                m.peak_gbps, m.copy_gbps, m.cub_ms, m.cub_gbps);
  std::string out = b;
  for (const TrackInfo& track : track_table()) {
   for (uint32_t bs : s.block_sizes()) {
    bool any = false;
    for (KernelId id : track_kernels(track.id)) any = any || s.find_timing(kernel_info(id).name, bs);
    if (!any) continue;
    std::snprintf(b, sizeof b, "\ntrack %s, %u threads per block\n%-26s %10s %21s %9s %7s %6s %11s %3s  %s\n", track.id,
                  bs, "kernel", "time ms", "[min .. max] ms", "GB/s", "% peak", "step", "cumulative", "L", "result");
    out += b;
    double first = 0, prev = 0;
    for (KernelId id : track_kernels(track.id)) {
      const KernelInfo& k = kernel_info(id);
      const SessionTiming* t = s.find_timing(k.name, bs);
      if (!t) continue;
      if (first == 0) first = t->median_ms;
      const std::string launches = t->launches ? std::to_string(t->launches) : "-";
      std::snprintf(b, sizeof b, "%-26s %10.4f   [%7.4f .. %7.4f] %9.1f %6.1f%% %5.2fx %10.2fx %3s  %s%s\n", k.name,
                    t->median_ms, t->min_ms, t->max_ms, t->gbps, t->pct_peak, prev > 0 ? prev / t->median_ms : 1.0,
                    first / t->median_ms, launches.c_str(), t->correct ? "correct" : "WRONG",
                    s.find_trace(k.name, bs) ? ", traced" : "");
      out += b;
      prev = t->median_ms;
    }
   }
  }
  if (!s.sweep.empty()) {  // GB/s of each series' fastest kernel at each N (`reducescope sweep`)
    const std::vector<uint64_t> ns = s.sweep.ns();
    out += "\nN sweep (GB/s; each track's fastest correct kernel over every block size; " + s.sweep.gpu + ")\n";
    std::snprintf(b, sizeof b, "%-24s", "series \\ N");
    out += b;
    for (uint64_t n : ns) {
      const int e = std::bit_width(n) - 1;
      std::snprintf(b, sizeof b, " %7s", ((uint64_t{1} << e) == n ? "2^" + std::to_string(e) : std::to_string(n)).c_str());
      out += b;
    }
    out += "\n";
    for (const std::string& series : s.sweep.series()) {
      std::snprintf(b, sizeof b, "%-24s", series.c_str());
      out += b;
      for (uint64_t n : ns) {
        const SweepPoint* p = s.sweep.find(series, n);
        if (p) std::snprintf(b, sizeof b, " %7.0f", p->gbps);
        else std::snprintf(b, sizeof b, " %7s", "-");
        out += b;
      }
      out += "\n";
    }
  }
  out += "\n" + std::to_string(s.traces.size()) + " traces, " + std::to_string(s.timings.size()) + " timings";
  if (!s.metrics.empty()) out += ", " + std::to_string(s.metrics.size()) + " profiler metrics (reducescope profile)";
  out += "\n";
  return out;
}

int run_record(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("record", err, [&] {
    GpuReducer gpu;
    const DeviceInfo& d = gpu.device();
    const CpuReference ref = prepare_typed_input(gpu, o, DType::Int32);  // sessions hold int32 runs
    constexpr int kWarmups = 3;
    Session s;
    s.meta = session_meta(d, o.n, o.pattern, o.samples, kWarmups);
    SessionMeta& m = s.meta;
    out << "Recording a session on " << device_line(d) << "\nN = " << o.n << ", pattern " << m.pattern << "; "
        << m.method << "\n";
    out.flush();
    m.copy_gbps = gpu.time_copy(o.samples, kWarmups).gbps;
    const Timing cub = gpu.time_cub(o.samples, kWarmups);
    m.cub_ms = cub.median_ms;
    m.cub_gbps = cub.gbps;
    bool all_correct = true;
    TextHistogram histograms(gpu);  // timed over N bytes of text, traced over kHistogramTraceBytes
    for (KernelId id : o.kernels) {
      const KernelInfo& k = kernel_info(id);
      if (!k.takes(DType::Int32)) continue;
      for (unsigned bs : kBlockSizes) {
        if (block_size_problem(k.id, bs)) continue;
        Timing t;
        Trace tr;
        bool ok = false;
        if (k.op == ReduceOp::Histogram) {
          bool timed_ok = false, traced_ok = false;
          t = histograms.time(k.id, bs, o.n, o.samples, kWarmups, &timed_ok);
          tr = histograms.trace(k.id, bs, o.n, &traced_ok);
          ok = timed_ok && traced_ok;
        } else {
          const int32_t got = gpu.run(k.id, bs);
          t = gpu.time(k.id, bs, o.samples, kWarmups);
          tr = gpu.trace(k.id, bs);
          ok = ref.accepts(k.op, got) && ref.accepts(k.op, tr.meta.result);
        }
        all_correct = all_correct && ok;
        s.timings.push_back(to_session_timing(k.id, bs, t, ok));
        s.traces.push_back(std::move(tr));
        char b[160];
        std::snprintf(b, sizeof b, "  %-26s %5u threads  %9.4f ms  %7.1f GB/s  %zu trace records  %s\n", k.name, bs,
                      t.median_ms, t.gbps, s.traces.back().records.size(), ok ? "correct" : "WRONG");
        out << b;
        out.flush();
      }
    }
    save_session(s, o.out);
    out << "session saved to " << o.out << "\n";
    if (!all_correct) {
      err << "reducescope record: some results do not match the CPU reference (marked WRONG in the session)\n";
      return kExitRuntime;
    }
    return kExitOk;
  });
}

// export SESSION --html FILE: the web page (app/export/web_export.hpp). Its errors reach `guarded`.
static int run_export_html(const Options& o, std::ostream& out, std::ostream& err) {
  const Session s = load_session(o.file);
  WebExportOptions w;
  w.block_sizes.assign(o.block_sizes.begin(), o.block_sizes.end());
  w.session_name = o.file.substr(o.file.find_last_of('/') + 1);  // npos + 1 == 0: no folder
  const WebExportResult r = export_web_page(s, o.html, w);
  out << "web page of " << s.meta.gpu << " (" << s.meta.date << ") written to " << r.path << ": " << r.bytes
      << " bytes, " << r.traces << " of " << r.traces_in_session << " traces\ntraces held (threads per block):";
  for (const auto& [track, sizes] : r.held) {
    out << " " << track;
    for (size_t i = 0; i < sizes.size(); ++i) out << (i ? "," : " ") << sizes[i];
    out << ";";
  }
  out << "\n";
  if (r.traces < r.traces_in_session) out << "the page says the other traces are in " << o.file << "\n";
  if (r.over_budget) {
    err << "reducescope export: warning: the page is " << r.bytes << " bytes, more than " << kWebPageBudget
        << " with only each track's default block size\n";
  }
  return kExitOk;
}

int run_export(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("export", err, [&] {
    if (!o.html.empty()) return run_export_html(o, out, err);  // one web page (needs no chart export)
#ifdef REDUCESCOPE_HAS_CHARTS
    if (o.sweep) {
      const Sweep sweep = sweep_from_bench_csv(read_text_file(o.file));
      const ChartFiles files = export_sweep(sweep, o.out,
                                                             "`reducescope bench` method: 3 warm-ups, L2 flushed before "
                                                             "each sample, CUDA events around the whole reduction, median");
      out << "sweep of " << sweep.gpu << " written to " << o.out << ":\n";
      for (const auto& p : files.paths) out << "  " << p << "\n";
      return kExitOk;
    }
    const Session s = load_session(o.file);
    ChartFiles files = export_charts(s, o.out, o.block_sizes.empty() ? 0 : o.block_sizes[0]);
    if (!s.sweep.empty()) {  // the session's N sweep (`reducescope sweep`)
      for (std::string& p : export_sweep(s.sweep, o.out, s.sweep.method).paths) files.paths.push_back(std::move(p));
    }
    out << "charts of " << s.meta.gpu << " (" << s.meta.date << ") written to " << o.out << ":\n";
    for (const auto& p : files.paths) out << "  " << p << "\n";
    return kExitOk;
#else
    (void)o;
    (void)out;
    err << "reducescope export: this build has no chart export (built with REDUCESCOPE_CHARTS=OFF)\n";
    return kExitRuntime;
#endif
  });
}

namespace {
// `name` on the PATH, or "" if it is not there.
std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t colon = dirs.find(':', start);
    const std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (!dir.empty()) {
      const std::string candidate = dir + "/" + name;
      if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return "";
}

// Runs a command line and returns what it printed (stdout and stderr) and its exit status.
std::pair<std::string, int> capture(const std::string& command) {
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p) throw std::runtime_error("cannot run " + command);
  std::string text;
  char buf[4096];
  size_t got = 0;
  while ((got = std::fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, got);
  const int status = pclose(p);
  return {text, status};
}
}  // namespace

int run_profile(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("profile", err, [&] {
    const std::string ncu = find_on_path("ncu");
    if (ncu.empty()) {
      err << "reducescope profile: Nsight Compute's `ncu` is not on the PATH; the metrics need it (the bundled "
             "session holds ones measured on an H100)\n";
      return kExitRuntime;
    }
    Session s = load_session(o.file);  // before the long measurement: a bad file fails now
    const unsigned bs = o.block_sizes.empty() ? find_track("book")->default_block_size : o.block_sizes[0];
    std::string metric_list;
    for (const ProfilerMetric& m : book_metrics()) metric_list += (metric_list.empty() ? "" : ",") + std::string(m.ncu);
    char self[4096];
    const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) throw std::runtime_error("cannot find this program's own path (/proc/self/exe)");
    self[len] = 0;
    out << "Nsight Compute (" << ncu << ") on every book kernel at " << bs << " threads, N = " << o.n
        << ", first launch; the nvprof names the book uses:\n";
    char b[256];
    std::snprintf(b, sizeof b, "%-28s", "kernel");
    out << b;
    for (const ProfilerMetric& m : book_metrics()) {
      std::snprintf(b, sizeof b, " %20s", m.name);
      out << b;
    }
    out << "\n";
    out.flush();
    for (KernelId id : o.kernels) {
      const KernelInfo& k = kernel_info(id);
      if (block_size_problem(id, bs)) continue;
      const std::string cmd = ncu + " --csv --print-units base --metrics " + metric_list + " " + self +
                              " run --kernel " + k.name + " --block-size " + std::to_string(bs) + " --n " +
                              std::to_string(o.n);
      const auto [text, status] = capture(cmd);
      if (status != 0) {
        throw std::runtime_error(std::string("ncu failed on ") + k.name + " (exit status " + std::to_string(status) +
                                 "): " + text.substr(text.size() > 400 ? text.size() - 400 : 0));
      }
      const auto values = parse_ncu_csv(text);
      std::snprintf(b, sizeof b, "%-28s", k.name);
      out << b;
      for (const ProfilerMetric& m : book_metrics()) {
        const auto it = values.find(m.ncu);
        if (it == values.end()) throw std::runtime_error(std::string("ncu did not report ") + m.ncu);
        s.set_metric({k.name, bs, m.name, m.ncu, it->second.first, it->second.second});
        std::snprintf(b, sizeof b, " %20.4g", it->second.second);
        out << b;
      }
      out << "\n";
      out.flush();
    }
    save_session(s, o.file);
    out << "metrics written into " << o.file << "\n";
    return kExitOk;
  });
}

int run_histogram(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("histogram", err, [&] {
    GpuReducer gpu;
    const DeviceInfo& d = gpu.device();
    const unsigned bs = o.block_sizes[0];
    if (auto why = block_size_problem(bs)) throw std::invalid_argument(*why);
    out << "Histograms (course track, seeds/004) on " << device_line(d) << "\n"
        << o.n << " bytes per input, " << bs << " threads per block; " << timing_method(o.samples, 3, d.l2_bytes)
        << "; zeroing the bins is timed too. GB/s counts the bytes read.\n";
    std::ofstream csv;
    if (!o.csv.empty()) {
      csv.open(o.csv);
      if (!csv) throw std::runtime_error("cannot write " + o.csv);
      csv << "gpu,bytes,input,bins,kernel,block_size,grid,median_ms,min_ms,max_ms,samples,gbps,pct_peak,vs_cub,correct\n";
    }
    bool all_correct = true;
    char b[256];
    for (HistoInput in : o.histo_inputs) {
      const HistoBins bins = bins_of(in);
      const std::vector<uint8_t> data = make_histo_input(in, o.n);
      const std::vector<uint32_t> want = cpu_histogram(data, bins);
      gpu.set_histogram_input(data, bins, to_string(in));
      if (!o.out.empty()) {
        Trace t = gpu.trace_histogram(o.histo_kernels[0], bs, o.traced_block);
        Replay replay(t);
        out << summarize_trace(t, replay);
        save_trace(t, o.out);
        out << "trace saved to " << o.out << "\n";
        return kExitOk;
      }
      uint64_t counted = 0;
      for (uint32_t c : want) counted += c;
      out << "\n== " << to_string(in) << ": " << to_string(bins) << ", " << counted << " of " << o.n
          << " bytes counted ==\n";
      const Timing cub = gpu.time_cub_histogram(o.samples);
      const bool cub_ok = gpu.cub_histogram() == want;
      all_correct = all_correct && cub_ok;
      std::snprintf(b, sizeof b, "%-22s %5s %6s %10s %21s %8s %7s %7s  %s\n", "kernel", "block", "grid", "time ms",
                    "[min .. max] ms", "GB/s", "% peak", "vs CUB", "bins");
      out << b;
      auto row = [&](const std::string& name, unsigned block, unsigned grid, const Timing& t, bool ok) {
        std::snprintf(b, sizeof b, "%-22s %5s %6s %10.4f   [%7.4f .. %7.4f] %8.1f %6.1f%% %6.2fx  %s\n", name.c_str(),
                      block ? std::to_string(block).c_str() : "-", grid ? std::to_string(grid).c_str() : "-",
                      t.median_ms, t.min_ms, t.max_ms, t.gbps, t.pct_peak, cub.median_ms / t.median_ms,
                      ok ? "correct" : "WRONG");
        out << b;
        out.flush();
        if (csv.is_open()) {
          csv << '"' << d.name << "\"," << o.n << ',' << to_string(in) << ',' << bin_count(bins) << ',' << name << ','
              << block << ',' << grid << ',' << fmt("%.6f", t.median_ms) << ',' << fmt("%.6f", t.min_ms) << ','
              << fmt("%.6f", t.max_ms) << ',' << t.samples << ',' << fmt("%.2f", t.gbps) << ','
              << fmt("%.2f", t.pct_peak) << ',' << fmt("%.3f", cub.median_ms / t.median_ms) << ',' << (ok ? 1 : 0)
              << '\n';
        }
      };
      for (KernelId k : o.histo_kernels) {
        const bool ok = gpu.histogram(k, bs) == want;
        all_correct = all_correct && ok;
        row(kernel_info(k).name, bs, gpu.histogram_grid(k, bs), gpu.time_histogram(k, bs, o.samples), ok);
      }
      row("cub::DeviceHistogram", 0, 0, cub, cub_ok);
      // The bins themselves, most filled first (at most 8).
      std::vector<unsigned> order(want.size());
      for (unsigned i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](unsigned x, unsigned y) { return want[x] > want[y]; });
      out << "bins (CPU):";
      for (size_t i = 0; i < std::min<size_t>(order.size(), 8); ++i) {
        out << "  " << bin_label(bins, order[i]) << " " << want[order[i]];
      }
      out << (order.size() > 8 ? "  ...\n" : "\n");
    }
    if (csv.is_open()) {
      if (!csv.flush()) throw std::runtime_error(o.csv + ": write failed");
      out << "CSV written to " << o.csv << "\n";
    }
    if (!all_correct) {
      err << "reducescope histogram: some histograms do not match the CPU's counts\n";
      return kExitRuntime;
    }
    return kExitOk;
  });
}

int run_pitfalls(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("pitfalls", err, [&] {
    // --out SESSION: the results go into the session's metrics (as `profile` writes Nsight Compute's), with
    // compute-sanitizer's racecheck where it is on the PATH, so the window shows them without a GPU.
    std::optional<Session> session;
    if (!o.out.empty()) session = load_session(o.out);  // before the long runs: a bad file fails now
    const std::string sanitizer = session ? find_on_path("compute-sanitizer") : "";
    char self[4096] = {};
    if (!sanitizer.empty()) {
      const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
      if (len <= 0) throw std::runtime_error("cannot find this program's own path (/proc/self/exe)");
    }
    GpuReducer gpu;
    const unsigned bs = o.block_sizes[0];
    auto put = [&](const char* kernel, const std::string& name, const std::string& how, const std::string& unit,
                   double value) { session->set_metric({kernel, bs, name, how, unit, value}); };
    // Each kernel runs on its own element type (int32, or float32 for the float atomics); the input is
    // uploaded again only when the type changes.
    std::optional<DType> type;
    CpuReference ref;
    out << "Pitfalls: WRONG CODE (or a surprise) on purpose, on " << device_line(gpu.device()) << "\nN = " << o.n
        << " (" << to_string(o.pattern) << "), " << bs << " threads per block, " << o.runs << " runs each\n";
    for (KernelId id : o.kernels) {
      const KernelInfo& k = kernel_info(id);
      const DType t = k.takes(DType::Int32) ? DType::Int32 : DType::Float32;
      if (type != t) {
        ref = prepare_typed_input(gpu, o, t);
        type = t;
      }
      out << "\n" << k.name << (k.surprise ? " (not wrong, a surprise): " : ": ") << k.pitfall << "\n  " << to_string(t)
          << ", CPU reference " << ref.str(ReduceOp::Sum) << "\n";
      if (auto why = block_size_problem(id, bs)) {
        out << "  skipped: " << *why << "\n";
        continue;
      }
      std::map<int32_t, int> seen;
      int wrong = 0;
      for (int r = 0; r < o.runs; ++r) {
        const int32_t got = gpu.run(id, bs);
        ++seen[got];
        wrong += ref.accepts(k.op, got) ? 0 : 1;
      }
      const auto most = std::max_element(seen.begin(), seen.end(),
                                         [](const auto& a, const auto& b) { return a.second < b.second; });
      out << "  wrong in " << wrong << " of " << o.runs << " runs" << (t == DType::Float32 ? " (outside the float tolerance)" : "")
          << "; " << seen.size() << " different result" << (seen.size() == 1 ? "" : "s")
          << (t == DType::Float32 ? " (bit patterns)" : "") << " (most often " << value_str(most->first, t) << ", "
          << most->second << " times)\n";
      out.flush();
      if (!session) continue;
      const std::string how = "reducescope pitfalls, N = " + std::to_string(o.n) + " " + to_string(t) + " (" +
                              to_string(o.pattern) + ")";
      put(k.name, "wrong_runs", how, "of " + std::to_string(o.runs) + " runs", wrong);
      put(k.name, "distinct_sums", how, "sums", static_cast<double>(seen.size()));
      if (!sanitizer.empty()) {
        // racecheck on a smaller input (it is slow): its summary and its first report, for the window.
        const auto [text, status] =
            capture(sanitizer + " --tool racecheck " + self + " run --track pitfalls --kernel " + k.name +
                    " --block-size " + std::to_string(bs) + " --n 65536");
        const size_t at = text.find("RACECHECK SUMMARY: ");
        if (at == std::string::npos) throw std::runtime_error("compute-sanitizer printed no racecheck summary for " + std::string(k.name));
        const int hazards = std::atoi(text.c_str() + at + 19);
        std::string first;
        const size_t r = text.find("Race reported");
        if (r != std::string::npos) first = text.substr(r, text.find('\n', r) - r);
        out << "  racecheck (N = 65536): " << hazards << " hazard" << (hazards == 1 ? "" : "s")
            << (first.empty() ? "" : ": " + first) << "\n";
        put(k.name, "racecheck_hazards", "compute-sanitizer --tool racecheck, N = 65536" + (first.empty() ? "" : ": " + first),
            "hazards", hazards);
      }
    }
    if (session) {
      save_session(*session, o.out);
      out << "results written into " << o.out << "\n";
    }
    if (std::all_of(o.kernels.begin(), o.kernels.end(), [](KernelId k) { return kernel_info(k).surprise; })) {
      return kExitOk;  // only the float atomics: no race to show
    }
    out << "\ncompute-sanitizer shows the races the right sums hide, e.g.\n"
           "  compute-sanitizer --tool racecheck reducescope run --track pitfalls --kernel pitfall_no_syncwarp "
           "--block-size 256 --n 65536\n";
    return kExitOk;
  });
}

int run_sweep(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("sweep", err, [&] {
    Session s = load_session(o.out);  // first: a bad session fails before anything is read
    std::vector<BenchRow> rows;
    for (const std::string& path : o.csv_files) {
      try {
        for (BenchRow& r : parse_bench_csv(read_text_file(path))) rows.push_back(std::move(r));
      } catch (const BenchCsvError& e) {
        throw std::runtime_error(path + ": " + e.what());
      }
    }
    for (const BenchRow& r : rows) {
      if (r.gpu != s.meta.gpu) {
        throw std::runtime_error("the bench rows are from " + r.gpu + ", the session from " + s.meta.gpu +
                                 ": a sweep is stored only beside timings of the same GPU");
      }
    }
    Sweep sweep = sweep_from_bench_rows(rows);
    sweep.method = "`reducescope bench --csv` at each N: 3 warm-ups, L2 flushed before each sample, CUDA events "
                   "around the whole reduction, median; each track's fastest correct kernel over every block size";
    // The launch counts of timings recorded before sessions stored them, from the rows of the same kernel,
    // block size, N and pattern (int32: sessions hold int32 runs).
    int filled = 0;
    for (SessionTiming& t : s.timings) {
      if (t.launches != 0) continue;
      const KernelInfo* k = find_kernel(t.kernel);
      if (auto fixed = k ? fixed_launches(k->id) : std::nullopt) {  // the same on every GPU and N (histograms)
        t.launches = *fixed;
        ++filled;
        continue;
      }
      for (const BenchRow& r : rows) {
        if (r.kernel == t.kernel && r.block_size == t.block_size && r.n == s.meta.n && r.pattern == s.meta.pattern &&
            r.dtype == "int32" && r.correct && r.launches > 0) {
          t.launches = r.launches;
          ++filled;
          break;
        }
      }
    }
    s.sweep = std::move(sweep);
    save_session(s, o.out);
    const auto ns = s.sweep.ns();
    out << "sweep of " << s.sweep.gpu << " stored in " << o.out << ": " << s.sweep.series().size() << " series at "
        << ns.size() << " N (" << ns.front() << " .. " << ns.back() << "), " << s.sweep.points.size() << " points\n";
    out << "launch counts filled in for " << filled << " of " << s.timings.size() << " timings (rows at N = " << s.meta.n
        << ", " << s.meta.pattern << ")\n";
    return kExitOk;
  });
}

int run_show(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("show", err, [&] {
    if (is_session_file(o.file)) {
      const Session s = load_session(o.file);
      out << o.file << ": ReduceScope session\n" << summarize_session(s);
      for (const Trace& t : s.traces) {
        Replay replay(t);
        out << "\n" << summarize_trace(t, replay);
        if (o.steps) {
          for (size_t i = 0; i < replay.num_steps(); ++i) out << "\n" << describe_step(replay, i, t.source);
        }
      }
      return kExitOk;
    }
    Trace t = load_trace(o.file);
    Replay replay(t);
    out << o.file << ": ReduceScope trace\n" << summarize_trace(t, replay);
    if (o.steps) {
      for (size_t i = 0; i < replay.num_steps(); ++i) out << "\n" << describe_step(replay, i, t.source);
    }
    return kExitOk;
  });
}

}  // namespace rs
