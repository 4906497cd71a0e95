// A user's kernel file where the CLI takes a kernel (issue 19): `run`, `trace`, `bench` and `record --kernel-file
// FILE.cu`. The file is compiled with NVRTC for the GPU in the machine and handed to GpuReducer as an
// ExternalKernel (kernels/user_kernel_gpu.hpp), so it runs, times and traces exactly as a shipped kernel of its
// launch shape. main.cpp runs these in a worker process (app/worker.hpp) with a time limit.
#include <cctype>
#include <cstdio>
#include <optional>
#include <ostream>

#include "commands.hpp"
#include "histogram.hpp"
#include "common.hpp"
#include "plain_trace.hpp"
#include "trace_io.hpp"
#include "user_kernel.hpp"
#include "user_kernel_gpu.hpp"

namespace rs {

namespace cmd {

std::optional<UserKernel> compile_kernel_file(const std::string& path, int cc, const char* command, std::ostream& err,
                                              int& exit_code) {
  std::string text;
  if (std::optional<UserDiagnostic> problem = read_kernel_file(path, text)) {
    err << format_diagnostic(*problem) << "\n";
    exit_code = kExitUsage;
    return std::nullopt;
  }
  if (!user_kernels_supported()) {
    err << "reducescope " << command << ": this build cannot compile kernels (built without the CUDA toolkit's NVRTC)\n";
    exit_code = kExitRuntime;
    return std::nullopt;
  }
  UserCompileOptions opt;
  if (cc > 0) opt.cc = cc;
  opt.pch = false;  // this process compiles once (UserCompileOptions::pch)
  UserCompileResult r = compile_user_kernel(text, path, opt);
  if (!r.ok()) {
    for (const UserDiagnostic& d : r.diagnostics) err << format_diagnostic(d) << "\n";
    exit_code = kExitUsage;
    return std::nullopt;
  }
  for (const UserDiagnostic& d : r.kernel->warnings) err << format_diagnostic(d) << "\n";
  exit_code = kExitOk;
  return std::move(r.kernel);
}

std::optional<UserKernel> load_compiled(const std::string& path, int cc) {
  UserKernel k = load_user_kernel(path);
  if (cc > 0 && k.arch != "compute_" + std::to_string(cc)) {
    throw std::invalid_argument(path + " was compiled for " + k.arch + ", not for this GPU (compute_" +
                                std::to_string(cc) + ")");
  }
  return k;
}

}  // namespace cmd

using namespace cmd;

namespace {

// The element type: the first of --type the kernel takes, else int32.
std::optional<DType> user_type(const Options& o, const UserKernel& k) {
  if (o.dtypes.empty()) return DType::Int32;
  for (DType t : o.dtypes) {
    if (k.dtypes & dtype_bit(t)) return t;
  }
  return std::nullopt;
}

// `run --kernel-file` of a histogram file (UserEntry::Histogram): its bins over o.n bytes of the course's text at each
// block size given, against the CPU's, a line each, flushed as its run ends (as the reduction's run prints them).
int run_histogram_file(GpuReducer& gpu, const ExternalHistogram& h, const Options& o, std::ostream& out) {
  const std::vector<uint8_t> text = make_histo_input(HistoInput::Text, o.n);
  const std::vector<uint32_t> want = cpu_histogram(text, HistoBins::Letters7);
  gpu.set_histogram_input(text, HistoBins::Letters7, "text");
  bool all = true;
  for (const unsigned bs : o.block_sizes) {
    std::vector<uint32_t> got;
    {
      const UserGpuBusy busy;
      got = gpu.histogram(h, bs);
    }
    const bool right = got == want;
    out << user_kernel_name(o.kernel_file) << " (" << o.kernel_file << ") histogram block size " << bs << " N " << o.n
        << " bytes (" << gpu.histogram_grid(h, bs) << " blocks): " << (right ? "every bin right" : "WRONG bins")
        << std::endl;
    all = all && right;
  }
  return all ? kExitOk : kExitRuntime;
}

// Compiles the file for the GPU in the machine (for compute_75 when there is none, so that compile errors come
// first, exit 2, before "no GPU", exit 1), opens the GPU and loads the kernel; calls body(gpu, kernel, compiled).
// `histogram_out`: where `run` prints a histogram file's bins (run_histogram_file); nullptr: a histogram is refused.
template <class Body>
int with_user_kernel(const Options& o, const char* command, std::ostream& err, Body body,
                     std::ostream* histogram_out = nullptr) {
  return guarded(command, err, [&] {
    int cc = 0;
    std::optional<NoDeviceError> no_device;
    try {
      cc = user_kernel_device_cc();
    } catch (const NoDeviceError& e) {
      no_device = e;
    }
    int rc = kExitOk;
    std::optional<CudaContextWarmup> warm;  // the GPU's context opens while NVRTC compiles
    if (cc > 0 && o.compiled.empty()) warm.emplace();
    const std::optional<UserKernel> k =
        o.compiled.empty() ? compile_kernel_file(o.kernel_file, cc, command, err, rc) : load_compiled(o.compiled, cc);
    warm.reset();
    if (!k) return rc;
    if (k->entry == UserEntry::Histogram && histogram_out) {  // run: its bins (the check's sanitizer runs, issue 57)
      if (no_device) throw *no_device;
      GpuReducer gpu;
      const LoadedUserKernel loaded(*k, user_kernel_name(o.kernel_file));
      return run_histogram_file(gpu, loaded.histogram(), o, *histogram_out);
    }
    if (k->entry == UserEntry::Histogram) {
      err << "reducescope " << command << ": " << o.kernel_file << " defines user_histogram, a histogram: check it "
          << "with `reducescope check " << o.kernel_file << " --exercise histogram` (" << command << " --kernel-file "
          << "takes a reduction, user_kernel)\n";
      return kExitUsage;
    }
    if (no_device) throw *no_device;
    GpuReducer gpu;
    const LoadedUserKernel loaded(*k, user_kernel_name(o.kernel_file));
    return body(gpu, loaded.kernel(), *k);
  });
}

}  // namespace

int run_kernel_file(const Options& o, std::ostream& out, std::ostream& err) {
  const char* command = o.command == Command::Trace ? "trace"
                        : o.command == Command::Bench ? "bench"
                        : o.command == Command::Record ? "record"
                                                       : "run";
  return with_user_kernel(o, command, err, [&](GpuReducer& gpu, const ExternalKernel& ext, const UserKernel& k) {
    const std::optional<DType> type = user_type(o, k);
    if (!type) {
      err << "reducescope " << command << ": " << o.kernel_file << " does not compile for " << to_string(o.dtypes[0])
          << "\n";
      return kExitUsage;
    }
    const CpuReference ref = prepare_typed_input(gpu, o, *type);
    const DeviceInfo& d = gpu.device();
    if (o.command == Command::Run) {
      // Each block size given, one after the other; each line is flushed as soon as its run ends, so that a tool
      // around this process (compute-sanitizer: grading/hazards.hpp) can tell whose reports came before it.
      bool all = true;
      for (const unsigned bs : o.block_sizes) {
        if (bs < ext.min_block_size) {
          out << ext.name << " (" << o.kernel_file << ") block size " << bs << ": not run (RS_LAUNCH_SHAPE asks for "
              << ext.min_block_size << " threads or more)" << std::endl;
          continue;
        }
        int32_t got = 0;
        {
          const UserGpuBusy busy;
          got = gpu.run(ext, bs);
        }
        const bool correct = ref.accepts(ReduceOp::Sum, got);
        out << ext.name << " (" << o.kernel_file << ") " << to_string(*type) << " block size " << bs << " N " << o.n
            << " (" << gpu.first_grid(ext, bs) << " blocks in the first launch, " << gpu.launches(ext, bs)
            << " launches): result " << value_str(got, *type) << ", "
            << (correct ? "correct" : "WRONG, CPU reference " + ref.str(ReduceOp::Sum)) << std::endl;
        all = all && correct;
      }
      return all ? kExitOk : kExitRuntime;
    }
    if (o.command == Command::Trace) {
      const Trace t =
          trace_kernel_file(gpu, ext, k, {*type, o.pattern, o.n, o.block_sizes[0], o.traced_block, o.kernel_timeout_s});
      Replay replay(t);
      out << summarize_trace(t, replay);
      const bool correct = ref.accepts(ReduceOp::Sum, t.meta.result);
      out << "CPU reference " << ref.str(ReduceOp::Sum) << ": tracing build " << (correct ? "correct" : "WRONG") << "\n";
      if (!o.quiet) {
        for (size_t i = 0; i < replay.num_steps(); ++i) out << "\n" << describe_step(replay, i, t.source);
      }
      if (!o.out.empty()) {
        save_trace(t, o.out);
        out << "trace saved to " << o.out << "\n";
      }
      return correct ? kExitOk : kExitRuntime;
    }
    // bench, record: the kernel at each block size, beside CUB and the copy ceiling timed in the same run.
    constexpr int kWarmups = 3;
    Session s;
    if (o.command == Command::Record && o.add) {
      s = load_session(o.out);
      if (s.meta.gpu != d.name) throw std::runtime_error(o.out + " was recorded on " + s.meta.gpu + ", not on " + d.name);
      if (s.meta.n != o.n) {
        throw std::invalid_argument("record --add records at the session's N (" + std::to_string(s.meta.n) +
                                    "): give --n " + std::to_string(s.meta.n));
      }
    } else {
      s.meta = session_meta(d, o.n, o.pattern, o.samples, kWarmups);
    }
    out << device_line(d) << "\n" << ext.name << " (" << o.kernel_file << "), N = " << o.n << " " << to_string(*type)
        << ", pattern " << to_string(o.pattern) << "; " << timing_method(o.samples, kWarmups, d.l2_bytes) << "\n";
    const Timing copy = gpu.time_copy(o.samples, kWarmups);
    const Timing cub = gpu.time_cub(o.samples, kWarmups);
    if (!o.add) {
      s.meta.copy_gbps = copy.gbps;
      s.meta.cub_ms = cub.median_ms;
      s.meta.cub_gbps = cub.gbps;
    }
    char line[200];
    std::snprintf(line, sizeof line, "  %-24s %5s  %9.4f ms  %7.1f GB/s  %5.1f%% of peak\n", "cub::DeviceReduce::Sum", "",
                  cub.median_ms, cub.gbps, cub.pct_peak);
    out << "copy ceiling " << fmt("%.1f", copy.gbps) << " GB/s (read + write)\n" << line;
    bool all = true;
    for (unsigned bs : o.block_sizes) {
      if (bs < ext.min_block_size) {
        out << "  " << ext.name << " " << bs << ": skipped: its RS_LAUNCH_SHAPE needs " << ext.min_block_size
            << " threads per block or more\n";
        continue;
      }
      int32_t got = 0;
      Timing t;
      Trace tr;
      {
        const UserGpuBusy busy;
        got = gpu.run(ext, bs);
        t = gpu.time(ext, bs, o.samples, kWarmups);
      }
      if (o.command == Command::Record) {
        tr = trace_kernel_file(gpu, ext, k, {*type, o.pattern, o.n, bs, 0, o.kernel_timeout_s});
      }
      const bool ok = ref.accepts(ReduceOp::Sum, got) && (o.command != Command::Record || ref.accepts(ReduceOp::Sum, tr.meta.result));
      all = all && ok;
      std::snprintf(line, sizeof line,
                    "  %-24s %5u  %9.4f ms  [%.4f .. %.4f]  %7.1f GB/s  %5.1f%% of peak  %.2fx CUB  %u launches  %s\n",
                    ext.name.c_str(), bs, t.median_ms, t.min_ms, t.max_ms, t.gbps, t.pct_peak,
                    cub.median_ms / t.median_ms, t.launches, ok ? "correct" : "WRONG");
      out << line;
      if (o.command == Command::Record) {
        s.set_timing(to_session_timing(ext.name, bs, t, ok));
        s.set_trace(std::move(tr));
      }
    }
    if (o.command == Command::Record) {
      save_session(s, o.out);
      out << "session saved to " << o.out << " (the kernel's source and its traces, track \"yours\")\n";
    }
    if (!all) err << "reducescope " << command << ": " << ext.name << ": a result does not match the CPU reference\n";
    return all ? kExitOk : kExitRuntime;
  }, o.command == Command::Run ? &out : nullptr);
}

}  // namespace rs
