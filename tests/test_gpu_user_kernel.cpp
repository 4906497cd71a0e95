// A user's kernel file on the GPU (kernels/user_kernel_gpu.hpp): the starting files compiled with NVRTC run,
// time and trace through GpuReducer exactly as the shipped kernels they follow. The starting file of reduce1 is
// reduce1's algorithm, so its trace must have reduce1's steps, bank conflicts and sum; and every starting file's
// sums are right at awkward N. Needs a GPU (label gpu).
#include <gtest/gtest.h>

#include <algorithm>

#include "gpu_reduce.hpp"
#include "input.hpp"
#include "replay.hpp"
#include "user_kernel.hpp"
#include "user_kernel_gpu.hpp"

namespace rs {
namespace {

// The starting file of `kernel`: plain CUDA, or the wrapped dialect (whose tracing build GpuReducer::trace runs; a
// plain file's trace comes from the binary tracer, in the device scripts: scripts/device/user_kernel.sh).
UserKernel compiled(const char* kernel, bool wrapped = false) {
  const char* text = starting_file(kernel, wrapped);
  EXPECT_NE(text, nullptr) << kernel;
  UserCompileResult r = compile_user_kernel(text, std::string(kernel) + ".cu", {.cc = user_kernel_device_cc()});
  EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : format_diagnostic(r.diagnostics[0]));
  return *r.kernel;
}

TEST(GpuUserKernel, StartingFileTracesLikeTheShippedKernel) {
  for (const char* name : {"reduce0", "reduce1", "reduce2", "reduce3"}) {
    SCOPED_TRACE(name);
    GpuReducer gpu;
    const UserKernel k = compiled(name, /*wrapped=*/true);
    const LoadedUserKernel loaded(k, std::string(name) + "_yours");
    const std::vector<int32_t> data = make_input(Pattern::RandomBytes, 4097);
    gpu.set_input(data, Pattern::RandomBytes);
    const KernelId id = find_kernel(name)->id;
    for (unsigned bs : {64u, 256u}) {
      const Trace mine = gpu.trace(loaded.kernel(), bs);
      const Trace shipped = gpu.trace(id, bs);
      EXPECT_EQ(mine.meta.result, shipped.meta.result);
      EXPECT_EQ(mine.meta.result, cpu_reference(data).sum);
      EXPECT_EQ(mine.meta.track, "yours");
      EXPECT_EQ(mine.meta.kernel, std::string(name) + "_yours");
      EXPECT_EQ(mine.meta.grid_size, shipped.meta.grid_size);
      EXPECT_EQ(mine.source, k.source);
      // The same shared-memory events; the starting file also traces its global loads and stores (GlobalArray),
      // which Harris's kernels read through plain pointers.
      auto shared_events = [](const Trace& t) {
        return std::count_if(t.records.begin(), t.records.end(), [](const TraceRecord& r) {
          return r.kind != static_cast<uint8_t>(AccessKind::GlobalLoad) &&
                 r.kind != static_cast<uint8_t>(AccessKind::GlobalStore);
        });
      };
      EXPECT_EQ(shared_events(mine), shared_events(shipped));
      const Replay a(mine), b(shipped);
      EXPECT_EQ(a.num_steps(), b.num_steps());
      EXPECT_EQ(a.load_conflicts(), b.load_conflicts());
      EXPECT_EQ(a.store_conflicts(), b.store_conflicts());
      EXPECT_EQ(gpu.launches(loaded.kernel(), bs), gpu.launches(id, bs));
      EXPECT_EQ(gpu.run(loaded.kernel(), bs), shipped.meta.result);
    }
  }
}

TEST(GpuUserKernel, SumsRightAndTimed) {
  for (bool wrapped : {false, true}) {
    for (const StartingFile& f : starting_files()) {
      SCOPED_TRACE(std::string(f.kernel) + (wrapped ? " (wrapped)" : " (plain)"));
      const std::vector<UserSumCheck> checks =
          check_user_kernel_sums(compiled(f.kernel, wrapped), {1, 33, 1000003}, {32, 256, 1024});
      EXPECT_FALSE(checks.empty());
      for (const UserSumCheck& c : checks) EXPECT_TRUE(c.right) << "N " << c.n << " B " << c.block_size << " got " << c.got;
    }
  }
  GpuReducer gpu;
  const UserKernel k = compiled("reduce3");
  const LoadedUserKernel loaded(k, "reduce3_yours");
  gpu.set_input(make_input(Pattern::RandomBytes, 1u << 22), Pattern::RandomBytes);
  const Timing t = gpu.time(loaded.kernel(), 256, 20);
  EXPECT_GT(t.median_ms, 0);
  EXPECT_LE(t.min_ms, t.median_ms);
  EXPECT_EQ(t.samples, 20);
  EXPECT_EQ(t.launches, gpu.launches(find_kernel("reduce3")->id, 256));
}

TEST(GpuUserKernel, RefusesWhatItsShapeForbids) {
  GpuReducer gpu;
  const UserKernel k = compiled("sum_shuffle", /*wrapped=*/true);
  const LoadedUserKernel loaded(k, "s");
  gpu.set_input(make_input(Pattern::Ones, 100), Pattern::Ones);
  if (k.shape.min_block_size > 32) {
    EXPECT_THROW(gpu.run(loaded.kernel(), 32), std::invalid_argument);
  }
  EXPECT_THROW(gpu.run(loaded.kernel(), 100), std::invalid_argument);
  EXPECT_THROW(gpu.trace(loaded.kernel(), 256, 5), std::invalid_argument);  // one block only
  // A plain file has no tracing build: GpuReducer::trace refuses it (the binary tracer traces it).
  const LoadedUserKernel plain(compiled("sum_shuffle"), "p");
  EXPECT_TRUE(plain.kernel().plain);
  EXPECT_THROW(gpu.trace(plain.kernel(), 256), std::logic_error);
}

}  // namespace
}  // namespace rs
