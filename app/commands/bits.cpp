// `reducescope bits`: the bits view of float32 sums (issue 20). Every kernel that adds float32, and
// cub::DeviceReduce::Sum, run R times at every block size it takes on one input; the distinct result bit
// patterns each gave, with their values, their distance in ulps from the exact sum rounded once
// (kernels/exact_sum.hpp) and the block sizes that gave them. --out stores the view in a session
// (SessionBits), for the window and the web page.
#include "commands.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "common.hpp"
#include "exact_sum.hpp"
#include "pitfall_words.hpp"

namespace rs {

using namespace cmd;

namespace {

// The distinct patterns of `runs` (bits -> block sizes, one entry per run), most frequent first.
std::vector<BitsRow> patterns_of(const std::string& kernel, const std::vector<std::pair<uint32_t, uint32_t>>& runs) {
  std::map<uint32_t, BitsRow> by;
  for (const auto& [bits, bs] : runs) {
    BitsRow& r = by[bits];
    r.kernel = kernel;
    r.bits = bits;
    ++r.count;
    if (std::find(r.block_sizes.begin(), r.block_sizes.end(), bs) == r.block_sizes.end()) r.block_sizes.push_back(bs);
  }
  std::vector<BitsRow> out;
  for (auto& [bits, r] : by) {
    std::sort(r.block_sizes.begin(), r.block_sizes.end());
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(), [](const BitsRow& a, const BitsRow& b) { return a.count > b.count; });
  return out;
}

}  // namespace

int run_bits(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("bits", err, [&] {
    std::optional<Session> session;
    if (!o.out.empty()) session = load_session(o.out);  // before the runs: a bad file fails now
    GpuReducer gpu;
    const std::vector<float> data = make_input_f32(o.pattern, o.n);
    const CpuReference ref = cpu_reference(data);
    gpu.set_input(data, o.pattern);
    uint32_t flags = 0;
    const float exact = exact::sum_host(data.data(), data.size(), &flags);
    SessionBits view;
    view.n = o.n;
    view.pattern = to_string(o.pattern);
    view.runs = static_cast<uint32_t>(o.runs);
    std::memcpy(&view.exact_bits, &exact, 4);
    view.exact = ref.f.sum;
    view.tolerance = ref.f.tolerance();
    char b[512];
    std::snprintf(b, sizeof b,
                  "Bits of float32 sums on %s\nN = %llu (%s), %d runs at each block size; the exact sum rounded once: "
                  "%s (0x%08x); the double sum %.17g\n\n%-24s %8s  %s\n",
                  device_line(gpu.device()).c_str(), static_cast<unsigned long long>(o.n), view.pattern.c_str(), o.runs,
                  value_str(static_cast<int32_t>(view.exact_bits), DType::Float32).c_str(), view.exact_bits, ref.f.sum,
                  "kernel", "patterns", "value (ulps from the exact sum) x runs [block sizes]");
    out << b;
    bool all_ok = true;
    auto print = [&](const std::string& name, const std::vector<BitsRow>& rows) {
      std::snprintf(b, sizeof b, "%-24s %8zu  ", name.c_str(), rows.size());
      out << b;
      for (size_t i = 0; i < rows.size(); ++i) {
        const BitsRow& r = rows[i];
        std::string sizes;
        for (uint32_t bs : r.block_sizes) {
          if (!sizes.empty()) sizes += ',';  // two appends: GCC 12's -Wrestrict false positive on "," + string
          sizes += std::to_string(bs);
        }
        out << (i ? "; " : "") << value_str(static_cast<int32_t>(r.bits), DType::Float32) << " ("
            << ulps_text(r.bits, view.exact_bits) << ") x" << r.count << (r.block_sizes == std::vector<uint32_t>{0} ? "" : " [" + sizes + "]");
        const bool ok = ref.accepts(ReduceOp::Sum, static_cast<int32_t>(r.bits));
        all_ok = all_ok && ok;
        if (!ok) {
          float got;
          std::memcpy(&got, &r.bits, 4);
          const std::string why = float_sum_note(got, ref.f.sum);
          out << " WRONG" << (why.empty() ? "" : " (" + why + ")");
        }
        if (i == 5 && rows.size() > 7) {
          out << "; ... " << rows.size() - 6 << " more";
          break;
        }
      }
      out << "\n";
      out.flush();
      view.rows.insert(view.rows.end(), rows.begin(), rows.end());
    };
    for (KernelId id : o.kernels) {
      const KernelInfo& k = kernel_info(id);
      if (cc_problem(id, gpu.device().cc_major, gpu.device().cc_minor)) continue;
      std::vector<std::pair<uint32_t, uint32_t>> runs;
      for (unsigned bs : kBlockSizes) {
        if (block_size_problem(id, bs)) continue;
        for (int r = 0; r < o.runs; ++r) runs.push_back({static_cast<uint32_t>(gpu.run(id, bs)), bs});
      }
      print(k.name, patterns_of(k.name, runs));
    }
    std::vector<std::pair<uint32_t, uint32_t>> cub;
    for (int r = 0; r < o.runs; ++r) cub.push_back({static_cast<uint32_t>(gpu.run_cub()), 0});
    print(kCubSeries, patterns_of(kCubSeries, cub));
    if (session) {
      session->bits = view;
      save_session(*session, o.out);
      out << "\nthe bits view written into " << o.out << "\n";
    }
    if (!all_ok) {
      err << "reducescope bits: some sums are outside the float tolerance (" << ref.str(ReduceOp::Sum) << ")\n";
      return kExitRuntime;
    }
    return kExitOk;
  });
}

}  // namespace rs
