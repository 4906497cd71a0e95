// The kernel table: names, what each kernel fixes and costs (as the slides say), and which
// block sizes each accepts. Plain C++, so the CLI, the GUI and the tests can use it without
// a GPU. Source: Mark Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rs {

enum class KernelId : uint8_t { reduce0, reduce1, reduce2, reduce3, reduce4, reduce5, reduce6 };
inline constexpr int kNumKernels = 7;

struct KernelInfo {
  KernelId id;
  const char* name;           // slide name: "reduce0" ... "reduce6"
  const char* title;          // the slide's heading
  const char* fixes;          // what it fixes in the kernel before it
  const char* costs;          // what it still costs, per the slides
  unsigned min_block_size;    // smallest block size its algorithm can take
  const char* min_block_why;  // why, when min_block_size > 32
  unsigned inputs_per_thread; // elements each thread loads per grid pass (1 or 2)
  bool grid_stride;           // true: capped grid, grid-stride loop (reduce6)
};

const std::array<KernelInfo, kNumKernels>& kernel_table();
const KernelInfo& kernel_info(KernelId id);
// nullptr if `name` is not a kernel name.
const KernelInfo* find_kernel(std::string_view name);

// Block sizes the app offers: powers of two from 32 to 1024 threads.
inline constexpr std::array<unsigned, 6> kBlockSizes = {32, 64, 128, 256, 512, 1024};

// Why `block_size` cannot be used with `id`, or nothing if it can. The reasons are meant
// for users ("reduce4 needs at least 64 threads per block: ...").
std::optional<std::string> block_size_problem(KernelId id, unsigned block_size);
// Same, for any kernel: power of two in [32, 1024].
std::optional<std::string> block_size_problem(unsigned block_size);

}  // namespace rs
