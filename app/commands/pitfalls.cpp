// `reducescope pitfalls`: the pitfalls track's wrong kernels (and the float-atomic surprise), each run
// R times at each block size asked: how often the sum is wrong and how many different sums it gives.
// --out SESSION also writes into the session, per kernel and block size: those counts, a timing and a
// trace like any kernel's (the trace records what the probe can record without changing the bug: the
// global loads and stores, with the values stored, and the barriers the kernel really has; not its shared
// memory, see kernels/pitfall_kernels.cuh), and, where compute-sanitizer is on the PATH, racecheck's data
// races on a one-block launch: the two source lines of each and the shared-memory words they met on.
#include "commands.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <unistd.h>

#include "common.hpp"
#include "racecheck.hpp"

namespace rs {

using namespace cmd;

namespace {

// racecheck's races in one block of kernel `k` at `bs` threads (N = the elements one block takes).
RacecheckReport run_racecheck(const std::string& sanitizer, const std::string& self, const KernelInfo& k, unsigned bs,
                              size_t reserved_bytes) {
  const unsigned n = bs * k.inputs_per_thread;
  const auto [text, status] = capture(sanitizer + " --tool racecheck --racecheck-report hazard --print-limit 100000 " +
                                      self + " run --track pitfalls --kernel " + k.name + " --block-size " +
                                      std::to_string(bs) + " --n " + std::to_string(n));
  (void)status;  // the run's own exit status is 1 when the sum is wrong: the point of the kernel
  return parse_racecheck(text, k.name, bs, static_cast<uint32_t>(reserved_bytes));
}

// Where a float32 running sum of this input stops growing (pitfall_float_saturation): the first N whose exact
// prefix sum reaches 2^24; 0 when not within 2^26 elements. (The inputs are generated in order from one
// seed, so a longer input starts with the shorter one.)
uint64_t saturation_n(Pattern p) {
  const std::vector<float> v = make_input_f32(p, size_t{1} << 26);
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    s += v[i];
    if (s >= 16777216.0) return i + 1;
  }
  return 0;
}

}  // namespace

int run_pitfalls(const Options& o_in, std::ostream& out, std::ostream& err) {
  return guarded("pitfalls", err, [&] {
    // --out SESSION: the results go into the session (as `profile` writes Nsight Compute's), so the window
    // shows them without a GPU. Timings at another N or pattern than the session's would not compare with
    // its table, so the session's are used, and others refused.
    Options o = o_in;
    std::optional<Session> session;
    if (!o.out.empty()) {
      session = load_session(o.out);  // before the long runs: a bad file fails now
      const SessionMeta& m = session->meta;
      if (o.have_n && o.n != m.n) {
        throw std::invalid_argument("--n " + std::to_string(o.n) + " is not the session's N (" + std::to_string(m.n) +
                                    "): its timings would not compare with the session's table; leave --n out");
      }
      if (o.have_pattern && to_string(o.pattern) != m.pattern) {
        throw std::invalid_argument("--pattern " + std::string(to_string(o.pattern)) + " is not the session's (" +
                                    m.pattern + "); leave --pattern out");
      }
      o.n = m.n;
      if (auto p = parse_pattern(m.pattern)) o.pattern = *p;
      o.samples = static_cast<int>(std::max<uint32_t>(m.samples, 20));
    }
    const std::string sanitizer = session ? sanitizer_program() : "";
    std::string self;
    if (!sanitizer.empty()) {
      char buf[4096] = {};
      const ssize_t len = readlink("/proc/self/exe", buf, sizeof buf - 1);
      if (len <= 0) throw std::runtime_error("cannot find this program's own path (/proc/self/exe)");
      self = buf;
    }
    GpuReducer gpu;
    // Each kernel runs on its own element type (int32, or float32 for the float atomics); the input is
    // uploaded again only when the type changes.
    std::optional<DType> type;
    CpuReference ref;
    out << "Pitfalls: WRONG CODE (or a surprise) on purpose, on " << device_line(gpu.device()) << "\nN = " << o.n
        << " (" << to_string(o.pattern) << "), " << o.runs << " runs each\n";
    if (session && sanitizer.empty()) out << "compute-sanitizer is not on the PATH: no racecheck races\n";
    for (KernelId id : o.kernels) {
      const KernelInfo& k = kernel_info(id);
      const DType t = k.takes(DType::Int32) ? DType::Int32 : DType::Float32;
      if (type != t) {
        ref = prepare_typed_input(gpu, o, t);
        type = t;
      }
      out << "\n" << k.name << (k.surprise ? " (not wrong, a surprise): " : ": ") << k.pitfall << "\n  " << to_string(t)
          << ", CPU reference " << ref.str(ReduceOp::Sum) << "; the fix: " << (k.fixed_by ? k.fixed_by : "-") << "\n";
      for (unsigned bs : o.block_sizes) {
        if (auto why = block_size_problem(id, bs)) {
          out << "  " << bs << " threads: skipped: " << why->say() << "\n";
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
        out << "  " << bs << " threads: wrong in " << wrong << " of " << o.runs << " runs"
            << (t == DType::Float32 ? " (outside the float tolerance)" : "") << "; " << seen.size() << " different result"
            << (seen.size() == 1 ? "" : "s") << (t == DType::Float32 ? " (bit patterns)" : "") << " (most often "
            << value_str(most->first, t) << ", " << most->second << " times)\n";
        out.flush();
        if (!session) continue;
        const std::string how = "reducescope pitfalls, N = " + std::to_string(o.n) + " " + to_string(t) + " (" +
                                to_string(o.pattern) + "), " + std::to_string(bs) + " threads";
        auto put = [&](const std::string& name, const std::string& unit, double value, const std::string& how_) {
          session->set_metric({k.name, bs, name, how_, unit, value});
        };
        put("wrong_runs", "of " + std::to_string(o.runs) + " runs", wrong, how);
        put("distinct_sums", "sums", static_cast<double>(seen.size()), how);
        // A timing and a trace, as `record` makes them; the timing's sum is checked like any other.
        const Timing timing = gpu.time(id, bs, o.samples, 3);
        Trace trace = gpu.trace(id, bs);
        const bool right = ref.accepts(k.op, gpu.run(id, bs)) && ref.accepts(k.op, trace.meta.result);
        session->set_timing(to_session_timing(id, bs, timing, right));
        char line[160];
        std::snprintf(line, sizeof line, "    timed %.4f ms (%.1f GB/s), traced: %zu records, result %s (%s)\n",
                      timing.median_ms, timing.gbps, trace.records.size(), value_str(trace.meta.result, t).c_str(),
                      right ? "right" : "WRONG");
        out << line;
        session->set_trace(std::move(trace));
        if (std::string(k.name) == "pitfall_float_saturation") {
          const uint64_t at = saturation_n(o.pattern);
          out << "    a float32 running sum of this input reaches 2^24, where it stops growing, at N = " << at
              << (o.n < at ? ": this N is below it (right within rounding here)" : ": this N is past it") << "\n";
          put("saturates_at_n", "elements", static_cast<double>(at),
              "the first N whose exact prefix sum of the " + std::string(to_string(o.pattern)) + " input reaches 2^24");
        }
        if (sanitizer.empty() || k.surprise) continue;  // the float atomics: atomics, no race to find
        const RacecheckReport report = run_racecheck(sanitizer, self, k, bs, gpu.device().reserved_smem_bytes);
        out << "    racecheck (one block): " << report.hazards_total << " hazards, " << report.races.size() << " races\n";
        for (const SessionRace& r : report.races) out << "      " << describe_race(r) << "\n";
        put("racecheck_hazards", "hazards", report.hazards_total,
            "compute-sanitizer --tool racecheck --racecheck-report hazard, one block of " + std::to_string(bs) +
                " threads (N = " + std::to_string(bs * k.inputs_per_thread) + ")");
        session->set_races(k.name, bs, report.races);
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

}  // namespace rs
