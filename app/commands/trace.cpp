// `reducescope trace`: runs the tracing build of one kernel (or each kernel of a track), prints the
// trace's summary and every step, checks the result against the CPU reference, and saves the trace
// with --out (one file per kernel when there are several).
#include "commands.hpp"

#include <ostream>
#include <string>

#include "common.hpp"
#include "trace_io.hpp"

namespace rs {

using namespace cmd;

namespace {

// FILE.rstrace -> FILE.<kernel>.rstrace, for one file per kernel.
std::string per_kernel_path(const std::string& path, const char* kernel) {
  const size_t slash = path.rfind('/');
  size_t dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) dot = path.size();
  return path.substr(0, dot) + "." + kernel + path.substr(dot);
}

}  // namespace

int run_trace(const Options& o, std::ostream& out, std::ostream& err) {
  if (!o.program.empty()) return run_attach(o, out, err);
  return guarded("trace", err, [&] {
    GpuReducer gpu;
    const bool many = o.kernels.size() > 1;
    const bool ok = for_each_kernel(gpu, o, out, [&](KernelId k, DType type, const CpuReference& ref) {
      Trace t = gpu.trace(k, o.block_sizes[0], o.traced_block);
      Replay replay(t);
      out << summarize_trace(t, replay);
      const ReduceOp op = kernel_info(k).op;
      const bool correct = ref.accepts(op, t.meta.result);
      out << "CPU reference " << ref.str(op) << ": tracing build " << (correct ? "correct" : "WRONG") << "\n";
      if (!o.quiet) {
        for (size_t i = 0; i < replay.num_steps(); ++i) out << "\n" << describe_step(replay, i, t.source);
      }
      if (!o.out.empty()) {
        const std::string path = many ? per_kernel_path(o.out, kernel_info(k).name) : o.out;
        save_trace(t, path);
        out << "trace saved to " << path << "\n";
      }
      if (!correct) {
        err << "reducescope trace: " << kernel_info(k).name << ": the tracing build's result "
            << value_str(t.meta.result, type) << " differs from the CPU reference " << ref.str(op) << "\n";
      }
      if (many) out << "\n";
      return correct;
    });
    return ok ? kExitOk : kExitRuntime;
  });
}

}  // namespace rs
