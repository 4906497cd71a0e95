#include "commands.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>

#include "gpu_reduce.hpp"
#include "trace_io.hpp"
#ifdef REDUCESCOPE_HAS_CHARTS
#include "charts.hpp"
#endif

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

// Opens the GPU and uploads the input `o` asks for; returns the CPU reference sum.
int32_t prepare_input(GpuReducer& gpu, const Options& o) {
  std::vector<int32_t> input = make_input(o.pattern, o.n);
  const int32_t expected = cpu_reduce(input);
  gpu.set_input(input, o.pattern);
  return expected;
}

struct Row {
  KernelId kernel;
  unsigned block;
  std::optional<std::string> skipped;  // why the pair cannot run
  Timing t;
  int32_t got = 0;
  bool correct = false;
};

}  // namespace

int run_bench(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("bench", err, [&] {
    GpuReducer gpu;
    const DeviceInfo& d = gpu.device();
    const int32_t expected = prepare_input(gpu, o);

    out << "ReduceScope bench on " << device_line(d) << "\n";
    char b[512];
    std::snprintf(b, sizeof b,
                  "N = %llu int32 (%.1f MiB), pattern %s, CPU reference sum %d\n"
                  "Method: %d timed samples per row after 3 warm-ups; before each sample the L2 is flushed by "
                  "writing %.0f MiB;\n        CUDA events around the whole multi-launch reduction; median [min .. max].\n"
                  "Bandwidth: N x 4 bytes / median time. Theoretical peak %.1f GB/s (2 x %.0f MHz x %d-bit / 8).\n",
                  static_cast<unsigned long long>(o.n), o.n * 4.0 / 1048576.0, to_string(o.pattern), expected, o.samples,
                  2.0 * d.l2_bytes / 1048576.0, d.peak_gbps(), d.mem_clock_khz / 1000.0, d.bus_width_bits);
    out << b;

    Timing copy = gpu.time_copy(o.samples);
    Timing cub = gpu.time_cub(o.samples);
    int32_t cub_sum = gpu.run_cub();
    std::snprintf(b, sizeof b,
                  "References (same method): device-to-device copy %.1f GB/s counting read+write (%.1f%% of peak);\n"
                  "                          cub::DeviceReduce::Sum %.4f ms, %.1f GB/s (%.1f%% of peak), sum %s\n\n",
                  copy.gbps, copy.pct_peak, cub.median_ms, cub.gbps, cub.pct_peak,
                  cub_sum == expected ? "correct" : "WRONG");
    out << b;
    out.flush();

    std::vector<Row> rows;
    for (unsigned bs : o.block_sizes) {
      for (KernelId k : o.kernels) {
        Row r{k, bs, block_size_problem(k, bs), {}, 0, false};
        if (!r.skipped) {
          r.got = gpu.run(k, bs);
          r.correct = r.got == expected;
          r.t = gpu.time(k, bs, o.samples);
        }
        rows.push_back(r);
      }
    }

    std::snprintf(b, sizeof b, "%-8s %6s %10s %21s %9s %7s %6s %11s %7s  %s\n", "kernel", "block", "time ms",
                  "[min .. max] ms", "GB/s", "% peak", "step", "cumulative", "vs CUB", "result");
    out << b;
    bool all_correct = cub_sum == expected;
    std::map<unsigned, double> first_time;  // reduce0 (or the first kernel run) per block size
    std::map<unsigned, double> prev_time;
    unsigned last_bs = 0;
    for (const Row& r : rows) {
      if (r.block != last_bs && last_bs != 0) out << "\n";
      last_bs = r.block;
      const char* name = kernel_info(r.kernel).name;
      if (r.skipped) {
        std::snprintf(b, sizeof b, "%-8s %6u  n/a: ", name, r.block);
        out << b << *r.skipped << "\n";
        continue;
      }
      all_correct = all_correct && r.correct;
      double step = prev_time.count(r.block) ? prev_time[r.block] / r.t.median_ms : 1.0;
      if (!first_time.count(r.block)) first_time[r.block] = r.t.median_ms;
      double cumulative = first_time[r.block] / r.t.median_ms;
      prev_time[r.block] = r.t.median_ms;
      std::string result = r.correct ? "correct" : "WRONG: got " + std::to_string(r.got) + ", expected " +
                                                       std::to_string(expected);
      std::snprintf(b, sizeof b, "%-8s %6u %10.4f   [%7.4f .. %7.4f] %9.1f %6.1f%% %5.2fx %10.2fx %6.2fx  %s\n", name,
                    r.block, r.t.median_ms, r.t.min_ms, r.t.max_ms, r.t.gbps, r.t.pct_peak, step, cumulative,
                    cub.median_ms / r.t.median_ms, result.c_str());
      out << b;
    }
    out << "\nstep = speedup over the kernel above it at the same block size; cumulative = over the first kernel "
           "listed; vs CUB = CUB time / kernel time (1.00x = as fast as CUB).\n";

    if (!o.csv.empty()) {
      std::ofstream csv(o.csv);
      if (!csv) throw std::runtime_error(o.csv + ": cannot open for writing");
      csv << "gpu,n,pattern,kernel,block_size,median_ms,min_ms,max_ms,samples,gbps,pct_peak,correct,skipped_reason\n";
      auto q = [](std::string s) {
        for (auto& c : s) if (c == '"') c = '\'';
        return "\"" + s + "\"";
      };
      auto line = [&](const std::string& k, unsigned bs, const Timing& t, bool ok, const std::string& why) {
        csv << q(d.name) << ',' << o.n << ',' << to_string(o.pattern) << ',' << k << ',' << bs << ','
            << fmt("%.6f", t.median_ms) << ',' << fmt("%.6f", t.min_ms) << ',' << fmt("%.6f", t.max_ms) << ','
            << t.samples << ',' << fmt("%.2f", t.gbps) << ',' << fmt("%.2f", t.pct_peak) << ',' << (ok ? 1 : 0)
            << ',' << q(why) << '\n';
      };
      line("copy_d2d", 0, copy, true, "");
      line("cub::DeviceReduce::Sum", 0, cub, cub_sum == expected, "");
      for (const Row& r : rows) line(kernel_info(r.kernel).name, r.block, r.t, r.correct, r.skipped.value_or(""));
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
                "%s, block size %u, block %u of %u in the first launch, N = %llu (%s)\n"
                "recorded on %s (compute capability %s, CUDA %s) at %s by ReduceScope %s\n"
                "%zu records, %zu steps, %d warps; sum %d\n"
                "bank conflicts (extra wavefronts, 32 banks x 4 bytes): loads %d, stores %d\n",
                m.kernel.c_str(), m.block_size, m.traced_block, m.grid_size, static_cast<unsigned long long>(m.n),
                m.pattern.c_str(), m.gpu.c_str(), m.compute_capability.c_str(), m.cuda_version.c_str(), m.date.c_str(),
                m.tool_version.c_str(), t.records.size(), replay.num_steps(), replay.num_warps(), m.result,
                replay.load_conflicts(), replay.store_conflicts());
  s += b;
  s += "active warps per step:";
  for (const Step& st : replay.steps()) s += " " + std::to_string(st.active_warps());
  s += "\n";
  return s;
}

int run_trace(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("trace", err, [&] {
    GpuReducer gpu;
    const int32_t expected = prepare_input(gpu, o);
    Trace t = gpu.trace(o.kernels[0], o.block_sizes[0], o.traced_block);
    Replay replay(t);
    out << summarize_trace(t, replay);
    out << "CPU reference sum " << expected << ": tracing build " << (t.meta.result == expected ? "correct" : "WRONG")
        << "\n";
    if (!o.quiet) {
      for (size_t i = 0; i < replay.num_steps(); ++i) out << "\n" << describe_step(replay, i, t.source);
    }
    if (!o.out.empty()) {
      save_trace(t, o.out);
      out << "trace saved to " << o.out << "\n";
    }
    if (t.meta.result != expected) {
      err << "reducescope trace: the tracing build's sum " << t.meta.result << " differs from the CPU reference "
          << expected << "\n";
      return kExitRuntime;
    }
    return kExitOk;
  });
}

int run_once(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("run", err, [&] {
    GpuReducer gpu;
    const int32_t expected = prepare_input(gpu, o);
    const int32_t got = gpu.run(o.kernels[0], o.block_sizes[0]);
    out << kernel_info(o.kernels[0]).name << " block size " << o.block_sizes[0] << " N " << o.n << " ("
        << gpu.first_grid(o.kernels[0], o.block_sizes[0]) << " blocks in the first launch): sum " << got << ", "
        << (got == expected ? "correct" : "WRONG, CPU reference " + std::to_string(expected)) << "\n";
    return got == expected ? kExitOk : kExitRuntime;
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
          t.pct_peak, correct};
}

Timing to_timing(const SessionTiming& t) {
  Timing out;
  out.median_ms = t.median_ms;
  out.min_ms = t.min_ms;
  out.max_ms = t.max_ms;
  out.samples = static_cast<int>(t.samples);
  out.gbps = t.gbps;
  out.pct_peak = t.pct_peak;
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
  for (uint32_t bs : s.block_sizes()) {
    std::snprintf(b, sizeof b, "\n%u threads per block\n%-8s %10s %21s %9s %7s %6s %11s  %s\n", bs, "kernel",
                  "time ms", "[min .. max] ms", "GB/s", "% peak", "step", "cumulative", "result");
    out += b;
    double first = 0, prev = 0;
    for (const auto& k : kernel_table()) {
      const SessionTiming* t = s.find_timing(k.name, bs);
      if (!t) continue;
      if (first == 0) first = t->median_ms;
      std::snprintf(b, sizeof b, "%-8s %10.4f   [%7.4f .. %7.4f] %9.1f %6.1f%% %5.2fx %10.2fx  %s%s\n", k.name,
                    t->median_ms, t->min_ms, t->max_ms, t->gbps, t->pct_peak, prev > 0 ? prev / t->median_ms : 1.0,
                    first / t->median_ms, t->correct ? "correct" : "WRONG",
                    s.find_trace(k.name, bs) ? ", traced" : "");
      out += b;
      prev = t->median_ms;
    }
  }
  out += "\n" + std::to_string(s.traces.size()) + " traces, " + std::to_string(s.timings.size()) + " timings\n";
  return out;
}

int run_record(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("record", err, [&] {
    GpuReducer gpu;
    const DeviceInfo& d = gpu.device();
    const int32_t expected = prepare_input(gpu, o);
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
    for (const auto& k : kernel_table()) {
      for (unsigned bs : kBlockSizes) {
        if (block_size_problem(k.id, bs)) continue;
        const int32_t got = gpu.run(k.id, bs);
        const Timing t = gpu.time(k.id, bs, o.samples, kWarmups);
        Trace tr = gpu.trace(k.id, bs);
        const bool ok = got == expected && tr.meta.result == expected;
        all_correct = all_correct && ok;
        s.timings.push_back(to_session_timing(k.id, bs, t, ok));
        s.traces.push_back(std::move(tr));
        char b[160];
        std::snprintf(b, sizeof b, "  %-8s %5u threads  %9.4f ms  %7.1f GB/s  %zu trace records  %s\n", k.name, bs,
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

int run_export(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("export", err, [&] {
#ifdef REDUCESCOPE_HAS_CHARTS
    const Session s = load_session(o.file);
    const ChartFiles files = export_charts(s, o.out, o.block_sizes.empty() ? 0 : o.block_sizes[0]);
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
