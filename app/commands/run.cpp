// `reducescope run`: the timing build of one kernel (or each kernel of a track) run once, its result
// checked against the CPU reference; meant for ncu and compute-sanitizer.
#include "commands.hpp"

#include <ostream>

#include "common.hpp"

namespace rs {

using namespace cmd;

int run_once(const Options& o, std::ostream& out, std::ostream& err) {
  return guarded("run", err, [&] {
    GpuReducer gpu;
    const unsigned bs = o.block_sizes[0];
    const bool ok = for_each_kernel(gpu, o, out, [&](KernelId k, DType type, const CpuReference& ref) {
      const int32_t got = gpu.run(k, bs);
      const ReduceOp op = kernel_info(k).op;
      const bool correct = ref.accepts(op, got);
      out << kernel_info(k).name << " " << to_string(type) << " block size " << bs << " N " << o.n << " ("
          << gpu.first_grid(k, bs) << " blocks in the first launch, " << gpu.launches(k, bs)
          << " launches): result " << value_str(got, type) << ", "
          << (correct ? "correct" : "WRONG, CPU reference " + ref.str(op)) << "\n";
      return correct;
    });
    return ok ? kExitOk : kExitRuntime;
  });
}

}  // namespace rs
