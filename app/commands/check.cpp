// reducescope check FILE.cu: a kernel file of the user's compiled with NVRTC in both builds (no GPU needed;
// kernels/user_kernel.hpp), then, on a GPU, its sums checked against the CPU (kernels/user_kernel_gpu.hpp).
// Compile errors print as FILE:LINE:COL: error: message and exit 2; no GPU exits 1 after saying the file
// compiles.
#include <ostream>

#include "commands.hpp"
#include "common.hpp"
#include "user_kernel.hpp"
#include "user_kernel_gpu.hpp"

namespace rs {

namespace {

// "2 elements per thread, repeated launches, 64 threads per block or more"
std::string shape_words(const UserLaunchShape& s) {
  return std::to_string(s.inputs_per_thread) + (s.inputs_per_thread == 1 ? " element" : " elements") +
         " per thread, " + to_string(s.finish) + ", " + std::to_string(s.min_block_size) +
         " threads per block or more";
}

// The sizes and block sizes a kernel is checked at: N = 1 and N below, at and past a block and a grid pass,
// not powers of two (the N = 1, 33, 1000003) and 2^24; every block size the shape allows.
const std::vector<uint64_t> kCheckNs = {1, 33, 1000, 4097, 1000003, 1u << 24};

int run_on_gpu(const UserKernel& compiled, const Options& o, std::ostream& out, std::ostream& err) {
  int cc = 0;
  try {
    cc = user_kernel_device_cc();
  } catch (const NoDeviceError& e) {
    err << "reducescope check: " << o.file << " compiles, but running it needs a CUDA GPU: " << e.what() << "\n";
    return kExitRuntime;
  }
  // Again for the GPU's own architecture (sm_80 intrinsics such as __reduce_add_sync trap below it).
  UserCompileResult r = compile_user_kernel(compiled.source, compiled.file_name, {.cc = cc});
  if (!r.ok()) {
    for (const UserDiagnostic& d : r.diagnostics) err << format_diagnostic(d) << "\n";
    err << o.file << ": does not compile for compute_" << cc << " (this GPU)\n";
    return kExitUsage;
  }
  std::vector<unsigned> sizes(kBlockSizes.begin(), kBlockSizes.end());
  const std::vector<UserSumCheck> checks = check_user_kernel_sums(*r.kernel, kCheckNs, sizes);
  int wrong = 0;
  for (const UserSumCheck& c : checks) {
    out << "  " << to_string(c.type) << "  N = " << c.n << "  B = " << c.block_size << "  " << c.launches
        << (c.launches == 1 ? " launch  " : " launches  ") << (c.right ? "right: " : "WRONG: got ") << c.got;
    if (!c.right) out << ", expected " << c.expected;
    out << "\n";
    wrong += c.right ? 0 : 1;
  }
  if (wrong) {
    out << o.file << ": " << wrong << " of " << checks.size() << " sums WRONG\n";
    return kExitRuntime;
  }
  out << o.file << ": all " << checks.size() << " sums right on the GPU (compute_" << cc << ")\n";
  return kExitOk;
}

}  // namespace

int run_check(const Options& o, std::ostream& out, std::ostream& err) {
  std::string text;
  if (std::optional<UserDiagnostic> problem = read_kernel_file(o.file, text)) {
    err << format_diagnostic(*problem) << "\n";
    return kExitUsage;
  }
  if (!user_kernels_supported()) {
    err << "reducescope check: this build cannot compile kernels (built without the CUDA toolkit's NVRTC)\n";
    return kExitRuntime;
  }
  const UserCompileResult r = compile_user_kernel(text, o.file);
  if (!r.ok()) {
    for (const UserDiagnostic& d : r.diagnostics) err << format_diagnostic(d) << "\n";
    return kExitUsage;
  }
  const UserKernel& k = *r.kernel;
  for (const UserDiagnostic& d : k.warnings) err << format_diagnostic(d) << "\n";
  out << o.file << ": OK: NVRTC " << nvrtc_version() << " compiled the timing build (rs::NullProbe) and the tracing "
      << "build (rs::TraceProbe) for " << k.arch << ", "
      << (k.dtypes & dtype_bit(DType::Float32) ? "int32 and float32" : "int32 only") << "\n"
      << "launch shape: " << shape_words(k.shape) << "\n";
  return cmd::guarded("check", err, [&] { return run_on_gpu(k, o, out, err); });
}

}  // namespace rs
