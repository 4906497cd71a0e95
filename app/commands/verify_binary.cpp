// reducescope verify --binary --kernel NAME [--block-size B] [--type T] [--n N]: proof by agreement (issue 28).
// The same block (block 0 of the first launch) traced twice: by the source probe (the kernel's tracing build,
// in this process) and by the binary tracer attached to `reducescope run` of the timing build (the kernel as
// compiled, through the Compute Sanitizer API). Prints each compared figure side by side (tracing/binary/proof.hpp);
// docs/binary-trace.md keeps the table for every shipped kernel of the five tracks.
#include <ostream>
#include <string>

#include "attach.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "proof.hpp"
#include "trace_io.hpp"
#include "worker.hpp"

namespace rs {

using namespace cmd;

int run_verify_binary(const Options& o_in, std::ostream& out, std::ostream& err) {
  return guarded("verify", err, [&] {
    Options o = o_in;
    GpuReducer gpu;
    const DeviceInfo& d = gpu.device();
    const KernelInfo& k = kernel_info(o.kernels.at(0));
    const unsigned bs = o.block_sizes.empty() ? 256 : o.block_sizes[0];
    DType type = o.dtypes.empty() ? DType::Int32 : o.dtypes[0];
    if (!k.takes(type)) type = DType::Float32;
    if (auto why = block_size_problem(k.id, bs)) throw std::invalid_argument(why->say());
    if (!o.have_n) o.n = uint64_t{bs} * (k.grid_stride ? 1 : k.inputs_per_thread) * 4;  // four blocks
    o.dtypes = {type};
    prepare_typed_input(gpu, o, type);
    const Trace probe = gpu.trace(k.id, bs);

    const Attached a = attach_and_trace(attach_to_run(k.name, bs, o.n, type, to_string(o.pattern)));
    // A pitfall's sum is wrong on purpose, and `reducescope run` says so with exit status 1: the traced launch ran,
    // and its block is what is compared. Any other failure of the run is the verification's.
    const bool wrong_on_purpose = k.pitfall && a.program_rc == kExitRuntime;
    if (a.program_rc != 0 && !wrong_on_purpose) {
      throw std::runtime_error("reducescope run exited with " + std::to_string(a.program_rc));
    }
    if (!o.out.empty()) save_trace(a.trace, o.out);

    const Replay rp(probe), rb(a.trace);
    const auto rows = bt::compare_tracers(rp, rb);
    out << "verify --binary " << k.name << " (" << to_string(type) << ", " << bs << " threads, N = " << o.n
        << ", block 0) on " << d.name << "\n"
        << "  source probe: the tracing build; binary: " << a.kernel << " as compiled\n"
        << (wrong_on_purpose ? "  reducescope run exited with 1: " + std::string(k.name) +
                                   "'s sum differs from the CPU's (a pitfall, on purpose)\n"
                             : "")
        << "\n";
    char line[512];
    int bad = 0;
    for (const auto& r : rows) {
      std::snprintf(line, sizeof line, "  %-32s %-28s %-28s %s\n", r.what.c_str(), r.probe.c_str(), r.binary.c_str(),
                    r.binary_only ? "binary only (the source probe does not trace it)" : r.equal ? "equal" : "DIFFERENT");
      out << line;
      bad += r.equal ? 0 : 1;
    }
    out << (bad ? std::to_string(bad) + " figures differ\n" : "the two tracers agree\n");
    return bad ? kExitRuntime : kExitOk;
  });
}

}  // namespace rs
