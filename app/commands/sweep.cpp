// `reducescope sweep`: stores the bandwidth-against-N sweep from `bench --csv` files in a session, and
// fills in the launch counts of its timings that have none from the rows at the session's N.
#include "commands.hpp"

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "sweep.hpp"

namespace rs {

using namespace cmd;

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

}  // namespace rs
