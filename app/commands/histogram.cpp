// `reducescope histogram`: the course track's histograms timed against cub::DeviceHistogram on the
// text, uniform and skewed inputs, each checked bin by bin against the CPU; --csv writes the rows and
// --out saves a trace of one kernel on one input.
#include "commands.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "common.hpp"
#include "trace_io.hpp"

namespace rs {

using namespace cmd;

int run_histogram(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("histogram", err, [&] {
    GpuReducer gpu;
    const DeviceInfo& d = gpu.device();
    const unsigned bs = o.block_sizes[0];
    if (auto why = block_size_problem(bs)) throw std::invalid_argument(why->say());
    // Each kernel's block size: --block-size as given, else its fastest on this GPU (issue 38: the default of 256
    // made histo_warp 0.97-0.99x CUB on uniform and skewed bytes, where the README's 1.15x holds at 1024), found by a
    // short sweep over every block size it takes, on the first input, before the timed runs.
    std::map<KernelId, unsigned> block;
    std::string chosen;
    if (o.have_block_size || !o.out.empty()) {
      for (KernelId k : o.histo_kernels) block[k] = bs;
    } else {
      const HistoInput first = o.histo_inputs.front();
      const HistoBins bins = bins_of(first);
      gpu.set_histogram_input(make_histo_input(first, o.n), bins, to_string(first));
      const int sweep = std::clamp(o.samples / 4, 3, 7);
      for (KernelId k : o.histo_kernels) {
        double best_ms = 0;
        for (unsigned b : kBlockSizes) {
          if (block_size_problem(k, b)) continue;
          const double ms = gpu.time_histogram(k, b, sweep).median_ms;
          if (!block.count(k) || ms < best_ms) block[k] = b, best_ms = ms;
        }
        chosen += (chosen.empty() ? "" : ", ") + std::string(kernel_info(k).name) + " " + std::to_string(block[k]);
      }
    }
    out << "Histograms (course track, seeds/004) on " << device_line(d) << "\n" << o.n << " bytes per input, ";
    if (chosen.empty()) {
      out << bs << " threads per block";
    } else {
      out << "each kernel at its fastest block size on this GPU (" << chosen << "; a sweep of "
          << std::clamp(o.samples / 4, 3, 7) << " samples per size on the " << to_string(o.histo_inputs.front())
          << " input; --block-size sets one)";
    }
    out << "; " << timing_method(o.samples, 3, d.l2_bytes) << "; zeroing the bins is timed too. GB/s counts the bytes read.\n";
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
        const unsigned kb = block.at(k);
        const bool ok = gpu.histogram(k, kb) == want;
        all_correct = all_correct && ok;
        row(kernel_info(k).name, kb, gpu.histogram_grid(k, kb), gpu.time_histogram(k, kb, o.samples), ok);
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

}  // namespace rs
