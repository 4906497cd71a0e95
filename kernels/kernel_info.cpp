#include "kernel_info.hpp"

namespace rs {

namespace {
constexpr const char* kUnrollWhy =
    "it unrolls the last warp, whose first step reads sdata[tid + 32], so the block must hold at least 64 elements";

const std::array<KernelInfo, kNumKernels> kTable = {{
    {KernelId::reduce0, "reduce0", "Interleaved addressing",
     "The baseline: a tree reduction in shared memory, one element per thread.",
     "Highly divergent warps (only threads with tid % (2*s) == 0 work) and a slow % operator.", 32, "", 1, false},
    {KernelId::reduce1, "reduce1", "Interleaved addressing, strided index",
     "Divergence: a strided index keeps the working threads contiguous, so whole warps go idle together.",
     "Shared-memory bank conflicts: the stride 2*s maps many lanes of a warp to the same bank.", 32, "", 1, false},
    {KernelId::reduce2, "reduce2", "Sequential addressing",
     "Bank conflicts: thread tid adds sdata[tid + s], so a warp touches 32 consecutive words.",
     "Half of the threads are idle from the first iteration on.", 32, "", 1, false},
    {KernelId::reduce3, "reduce3", "First add during load",
     "Idle threads: each thread loads two elements and adds them, so half as many blocks are needed.",
     "Instruction overhead: address arithmetic and loop overhead now limit it, not bandwidth.", 32, "", 2, false},
    {KernelId::reduce4, "reduce4", "Unroll the last warp",
     "Loop and barrier overhead of the last six steps: one warp finishes them without __syncthreads().",
     "Still a loop with a runtime trip count over the upper levels.", 64, kUnrollWhy, 2, false},
    {KernelId::reduce5, "reduce5", "Completely unrolled",
     "The remaining loop: the block size is a template parameter, so the whole tree is unrolled at compile time.",
     "One kernel instantiation per block size; each thread still loads only two elements.", 64, kUnrollWhy, 2,
     false},
    {KernelId::reduce6, "reduce6", "Multiple elements per thread",
     "Too little work per thread (Brent's theorem): a capped grid, each thread summing many elements with a "
     "grid-stride loop.",
     "Close to the memory-bandwidth limit; what is left is launch overhead on small inputs.", 64, kUnrollWhy, 2,
     true},
}};
}  // namespace

const std::array<KernelInfo, kNumKernels>& kernel_table() { return kTable; }

const KernelInfo& kernel_info(KernelId id) { return kTable[static_cast<size_t>(id)]; }

const KernelInfo* find_kernel(std::string_view name) {
  for (const auto& k : kTable) {
    if (name == k.name) return &k;
  }
  return nullptr;
}

std::optional<std::string> block_size_problem(unsigned b) {
  if (b < 32 || b > 1024 || (b & (b - 1)) != 0) {
    return "block size " + std::to_string(b) +
           " is not one of 32, 64, 128, 256, 512, 1024 (the tree reductions halve the block each step, "
           "so it must be a power of two, at least one warp and at most 1024 threads)";
  }
  return std::nullopt;
}

std::optional<std::string> block_size_problem(KernelId id, unsigned b) {
  if (auto p = block_size_problem(b)) return p;
  const KernelInfo& k = kernel_info(id);
  if (b < k.min_block_size) {
    return std::string(k.name) + " needs at least " + std::to_string(k.min_block_size) + " threads per block: " +
           k.min_block_why;
  }
  return std::nullopt;
}

}  // namespace rs
