// `reducescope profile`: measures the book's nvprof metrics with Nsight Compute (ncu on the PATH) by
// running this program's own `run` under it for every book kernel, and writes them into a session.
#include "commands.hpp"

#include <cstdio>
#include <ostream>
#include <string>
#include <unistd.h>

#include "common.hpp"
#include "ncu_metrics.hpp"

namespace rs {

using namespace cmd;

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
    for (const ProfilerMetric& m : book_metrics()) {
      metric_list += metric_list.empty() ? "" : ",";  // not `"," + std::string`: GCC 12's -Wrestrict false positive
      metric_list += m.ncu;
    }
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

}  // namespace rs
