// `reducescope run`: the timing build of one kernel (or each kernel of a track) run once, its result
// checked against the CPU reference; meant for ncu and compute-sanitizer.
#include "commands.hpp"

#include <ostream>

#include "common.hpp"
#include "histogram.hpp"

namespace rs {

using namespace cmd;

namespace {

// run --cub: the library's own kernels once, as `bench` and `histogram` time them (cub_reference.hpp), checked
// against the CPU; what the binary tracer attaches to for CUB's traces (record --add --binary --kernel cub).
int run_cub_once(const Options& o, std::ostream& out) {
  GpuReducer gpu;
  if (o.cub == "histogram") {
    const std::vector<uint8_t> text = make_histo_input(HistoInput::Text, o.n);
    const std::vector<uint32_t> want = cpu_histogram(text, HistoBins::Letters7);
    gpu.set_histogram_input(text, HistoBins::Letters7, to_string(HistoInput::Text));
    const bool correct = gpu.cub_histogram() == want;
    out << "cub::DeviceHistogram text N " << o.n << " bytes, " << bin_count(HistoBins::Letters7)
        << " letter bins: " << (correct ? "correct" : "WRONG (a bin differs from the CPU's)") << "\n";
    return correct ? kExitOk : kExitRuntime;
  }
  const DType type = o.dtypes.empty() ? DType::Int32 : o.dtypes[0];
  const CpuReference ref = prepare_typed_input(gpu, o, type);
  const int32_t got = gpu.run_cub();
  const bool correct = ref.accepts(ReduceOp::Sum, got);
  out << "cub::DeviceReduce::Sum " << to_string(type) << " N " << o.n << ": result " << value_str(got, type) << ", "
      << (correct ? "correct" : "WRONG, CPU reference " + ref.str(ReduceOp::Sum)) << "\n";
  return correct ? kExitOk : kExitRuntime;
}

}  // namespace

int run_once(const Options& o, std::ostream& out, std::ostream& err) {
  if (!o.cub.empty()) return guarded("run", err, [&] { return run_cub_once(o, out); });
  return guarded("run", err, [&] {
    GpuReducer gpu;
    const bool ok = for_each_kernel(gpu, o, out, [&](KernelId k, DType type, const CpuReference& ref) {
      bool right = true;
      for (const unsigned bs : o.block_sizes) {  // each block size given (--block-size 64,128)
        const int32_t got = gpu.run(k, bs);
        const ReduceOp op = kernel_info(k).op;
        const bool correct = ref.accepts(op, got);
        out << kernel_info(k).name << " " << to_string(type) << " block size " << bs << " N " << o.n << " ("
            << gpu.first_grid(k, bs) << " blocks in the first launch, " << gpu.launches(k, bs)
            << " launches): result " << value_str(got, type) << ", "
            << (correct ? "correct" : "WRONG, CPU reference " + ref.str(op)) << std::endl;
        right = right && correct;
      }
      return right;
    });
    return ok ? kExitOk : kExitRuntime;
  });
}

}  // namespace rs
