// `reducescope record`: times and traces every kernel of the selected tracks at every block size it
// takes and saves them in one session file (its rows from GpuReducer's measurements: app/session_rows.hpp).
#include "commands.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <ostream>
#include <string>

#include "attach.hpp"
#include "common.hpp"
#include "histogram.hpp"
#include "text_histogram.hpp"
#include "two_runs.hpp"
#include "worker.hpp"

namespace rs {

using namespace cmd;

namespace {

// The library kernels `--kernel NAME` names ("cub": all of them; "": none).
std::vector<const LibraryKernelInfo*> library_kernels(const std::string& name) {
  std::vector<const LibraryKernelInfo*> out;
  for (const LibraryKernelInfo& k : library_table()) {
    if (name == "cub" || name == k.name) out.push_back(&k);
  }
  return out;
}

// `record --add --binary --kernel cub...`: block 0 of a library kernel's launch, as compiled, attached to
// `reducescope run --cub` on the session's N and pattern (int32), or on the text the histograms' traces count
// (min(N, kHistogramTraceBytes) bytes), at the block size CUB's tuning picks; named and filed as the registry
// says (LibraryKernelInfo), in place of the demangled template name.
void record_library(const LibraryKernelInfo& lib, Session& s, std::ostream& out) {
  const bool histogram = lib.op == ReduceOp::Histogram;
  const uint64_t n = histogram ? std::min<uint64_t>(s.meta.n, kHistogramTraceBytes) : s.meta.n;
  AttachRequest q;
  q.program = {self_executable(), "run", "--cub", lib.run, "--n", std::to_string(n)};
  if (!histogram) q.program.insert(q.program.end(), {"--type", "int32", "--pattern", s.meta.pattern});
  q.kernel = lib.attach;
  q.launch = lib.launch;
  q.quiet_program = true;
  Attached a = attach_and_trace(q);
  if (a.program_rc != 0) {
    throw std::runtime_error(std::string("reducescope run --cub ") + lib.run + " exited " +
                             std::to_string(a.program_rc) + " under the binary tracer: its trace is not recorded");
  }
  Trace t = std::move(a.trace);
  t.meta.kernel = lib.name;
  t.meta.track = lib.track;
  if (!lib.partials_of) t.meta.n = n;
  for (const Trace& x : s.traces) {  // a second pass reduces the first pass's partials, one per block of it (else:
    if (lib.partials_of && x.meta.kernel == lib.partials_of) t.meta.n = x.meta.grid_size;  // the allocation it read)
  }
  t.meta.pattern = histogram ? "text" : s.meta.pattern;
  if (!t.meta.notes.empty() && t.meta.notes.back() != '\n') t.meta.notes += '\n';
  t.meta.notes += std::string("Launched by ") +
                  (histogram ? "cub::DeviceHistogram::HistogramRange" : "cub::DeviceReduce::Sum") + " as " +
                  a.kernel.substr(0, a.kernel.find('<')) + "; the block size is CUB's tuning policy's.";
  char b[240];
  std::snprintf(b, sizeof b, "  %-34s %5u threads  as compiled  %zu records (%zu events)\n", lib.name,
                t.meta.block_size, t.records.size(), a.report.events);
  out << b;
  out.flush();
  s.set_trace(std::move(t));
}

// `record --add --binary`: block 0 of each kernel's first launch traced by the binary tracer (the kernel as
// compiled, issue 29: the pitfalls whose bug the compiler shapes), attached to `reducescope run` of the timing build
// on the session's N and pattern, as `verify --binary` does; stored beside the source probe's traces.
int record_binary(const Options& o, Session& s, std::ostream& out) {
  const std::vector<unsigned> sizes =
      o.block_sizes.empty() ? std::vector<unsigned>(kBlockSizes.begin(), kBlockSizes.end()) : o.block_sizes;
  for (KernelId id : o.kernels) {
    const KernelInfo& k = kernel_info(id);
    if (k.op == ReduceOp::Histogram) continue;
    const DType type = o.dtypes.empty() ? (k.takes(DType::Int32) ? DType::Int32 : DType::Float32) : o.dtypes[0];
    if (!k.takes(type)) continue;
    for (unsigned bs : sizes) {
      if (block_size_problem(k.id, bs)) continue;
      // A pitfall's `run` exits 1 on its wrong sum: the trace still stands.
      Attached a = attach_and_trace(attach_to_run(k.name, bs, s.meta.n, type, s.meta.pattern));
      Trace t = std::move(a.trace);
      t.meta.kernel = k.name;
      t.meta.track = k.track;
      t.meta.n = s.meta.n;
      t.meta.pattern = s.meta.pattern;
      t.meta.dtype = type;
      const Trace* probe = s.find_trace(k.name, bs, type, Tracer::SourceProbe);
      if (probe) t.meta.result = probe->meta.result;  // the same run's result, as the source probe's trace has it
      char b[200];
      std::snprintf(b, sizeof b, "  %-26s %5u threads  %s, as compiled  %zu records (%zu events)\n", k.name, bs,
                    to_string(type), t.records.size(), a.report.events);
      out << b;
      out.flush();
      s.set_trace(std::move(t));
    }
  }
  for (const LibraryKernelInfo* lib : library_kernels(o.library)) record_library(*lib, s, out);
  return kExitOk;
}

// record --two-runs: block 0 of `k` traced again on the same input until its float atomics round differently from
// `first`'s (at most kTries runs): the second run for the two-runs view (tracing/two_runs.hpp). Says what it found.
Trace second_run(GpuReducer& gpu, const KernelInfo& k, unsigned bs, const Trace& first, std::ostream& out) {
  constexpr int kTries = 20;
  for (int attempt = 1;; ++attempt) {
    Trace t = gpu.trace(k.id, bs);
    const TwoRuns c = compare_runs(first, t);
    if (c.first_rounding || c.results_differ() || attempt == kTries) {
      out << "    second run (" << attempt << (attempt == 1 ? " try" : " tries") << "): result "
          << value_str(t.meta.result, DType::Float32) << (c.results_differ() ? " (the first: " : " (the same as the first: ")
          << value_str(first.meta.result, DType::Float32) << "); " << c.a.updates.size() << " float atomic updates";
      if (c.first_rounding) out << ", the first rounding that differs at update " << *c.first_rounding + 1;
      else if (!c.a.updates.empty()) out << ", every rounding the same";
      out << "\n";
      return t;
    }
  }
}

}  // namespace

int run_record(const Options& o_in, std::ostream& out, std::ostream& err) {
  if (o_in.tracks == std::vector<std::string>{kMultiGpuTrack}) return run_multigpu(o_in, true, out, err);
  if (o_in.binary) {
    return guarded("record", err, [&] {
      if (!o_in.add) throw std::invalid_argument("record --binary adds to a session: give --add (and --out SESSION)");
      Session s = load_session(o_in.out);
      out << "Adding binary traces (the kernels as compiled) to " << o_in.out << ", N = " << s.meta.n << ", pattern "
          << s.meta.pattern << "\n";
      const int rc = record_binary(o_in, s, out);
      save_session(s, o_in.out);
      out << "session saved to " << o_in.out << "\n";
      return rc;
    });
  }
  return guarded("record", err, [&] {
    Options o = o_in;
    GpuReducer gpu;
    const DeviceInfo& d = gpu.device();
    constexpr int kWarmups = 3;
    Session s;
    if (o.add) {
      // Into the existing session, at its N, pattern and samples (its table must compare).
      s = load_session(o.out);
      const SessionMeta& m = s.meta;
      if (m.gpu != d.name) throw std::runtime_error(o.out + " was recorded on " + m.gpu + ", not on " + d.name);
      if ((o.have_n && o.n != m.n) || (o.have_pattern && to_string(o.pattern) != m.pattern)) {
        throw std::invalid_argument("record --add records at the session's N and pattern (" + std::to_string(m.n) +
                                    ", " + m.pattern + "): leave --n and --pattern out");
      }
      o.n = m.n;
      if (auto p = parse_pattern(m.pattern)) o.pattern = *p;
      o.samples = static_cast<int>(m.samples);
    }
    // int32: the timings and traces; float32: traces of every kernel that takes it (issue 30), on the same pattern.
    const bool ints = o.dtypes.empty() || std::find(o.dtypes.begin(), o.dtypes.end(), DType::Int32) != o.dtypes.end();
    const bool floats =
        o.dtypes.empty() || std::find(o.dtypes.begin(), o.dtypes.end(), DType::Float32) != o.dtypes.end();
    const CpuReference ref = prepare_typed_input(gpu, o, DType::Int32);
    if (!o.add) s.meta = session_meta(d, o.n, o.pattern, o.samples, kWarmups);
    SessionMeta& m = s.meta;
    out << (o.add ? "Adding to " + o.out + " on " : std::string("Recording a session on ")) << device_line(d) << "\nN = "
        << o.n << ", pattern " << m.pattern << "; " << m.method << "\n";
    out.flush();
    if (!o.add) {
      m.copy_gbps = gpu.time_copy(o.samples, kWarmups).gbps;
      const Timing cub = gpu.time_cub(o.samples, kWarmups);
      m.cub_ms = cub.median_ms;
      m.cub_gbps = cub.gbps;
    }
    bool all_correct = true;
    // --block-size B[,B...]: those block sizes only (default every one).
    const std::vector<unsigned> sizes =
        o.block_sizes.empty() ? std::vector<unsigned>(kBlockSizes.begin(), kBlockSizes.end()) : o.block_sizes;
    TextHistogram histograms(gpu);  // timed over N bytes of text, traced over kHistogramTraceBytes
    for (KernelId id : o.kernels) {
      const KernelInfo& k = kernel_info(id);
      if (!ints || !k.takes(DType::Int32)) continue;
      for (unsigned bs : sizes) {
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
        s.set_timing(to_session_timing(k.id, bs, t, ok));
        s.set_trace(std::move(tr));
        char b[160];
        std::snprintf(b, sizeof b, "  %-26s %5u threads  %9.4f ms  %7.1f GB/s  %zu trace records  %s\n", k.name, bs,
                      t.median_ms, t.gbps, s.find_trace(k.name, bs)->records.size(), ok ? "correct" : "WRONG");
        out << b;
        out.flush();
      }
    }
    // float32 traces (the window's and the page's int32 / float32 switch): block 0 of each kernel that takes float32,
    // at every block size it takes; the timings stay int32's. A pitfall's float result may be off on purpose.
    bool float_input = false;
    CpuReference fref;
    for (KernelId id : o.kernels) {
      const KernelInfo& k = kernel_info(id);
      if (!floats || !k.takes(DType::Float32) || k.op == ReduceOp::Histogram) continue;
      if (!float_input) {
        fref = prepare_typed_input(gpu, o, DType::Float32);
        float_input = true;
      }
      for (unsigned bs : sizes) {
        if (block_size_problem(k.id, bs)) continue;
        Trace tr = gpu.trace(k.id, bs);
        const bool ok = fref.accepts(k.op, tr.meta.result);
        if (!k.pitfall) all_correct = all_correct && ok;
        char b[200];
        std::snprintf(b, sizeof b, "  %-26s %5u threads  float32 trace  %zu records  result %s  %s\n", k.name, bs,
                      tr.records.size(), value_str(tr.meta.result, DType::Float32).c_str(),
                      ok ? "correct" : k.pitfall ? "off (a pitfall)" : "WRONG");
        out << b;
        if (o.two_runs) s.set_other_run(second_run(gpu, k, bs, tr, out));
        out.flush();
        s.set_trace(std::move(tr));
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

}  // namespace rs
