// `reducescope pitfalls`: the pitfalls track's wrong kernels (and the float-atomic surprise), each run
// R times: how often the sum is wrong and how many different sums it gives; --out writes the counts,
// and compute-sanitizer's racecheck hazards where it is on the PATH, into a session.
#include "commands.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <unistd.h>

#include "common.hpp"

namespace rs {

using namespace cmd;

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

}  // namespace rs
