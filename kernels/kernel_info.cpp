#include "kernel_info.hpp"

#include <cstdarg>
#include <cstdio>


namespace rs {

const char* to_string(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum: return N_("sum");
    case ReduceOp::Min: return N_("min");
    case ReduceOp::Max: return N_("max");
    case ReduceOp::Farthest: return N_("farthest point");
    case ReduceOp::Histogram: return N_("histogram");
  }
  return "?";
}

const char* to_string(Finish f) {
  switch (f) {
    case Finish::Relaunch: return N_("repeated launches");
    case Finish::GlobalAtomic: return N_("global atomic");
    case Finish::SecondKernel: return N_("second kernel");
    case Finish::SinglePass: return N_("single pass");
    case Finish::HostSum: return N_("host sum");
    case Finish::HostReduce: return N_("host reduce");
  }
  return "?";
}

namespace {


constexpr uint8_t kInt = dtype_bit(DType::Int32);
constexpr uint8_t kIntFloat = dtype_bit(DType::Int32) | dtype_bit(DType::Float32);
constexpr uint8_t kFloat = dtype_bit(DType::Float32);

constexpr const char* kUnrollWhy = N_(
    "it unrolls the last warp, whose first step reads sdata[tid + 32], so the block must hold at least 64 elements");
constexpr const char* kBookWarpWhy =
    N_("its unrolled last warp starts from idata[tid + 32], so the block must hold at least 64 elements");
constexpr const char* kLastWarpWhy =
    N_("its last warp starts from s_data[tx] + s_data[tx + 32], so the block must hold at least 64 elements");

// The tracks, in teaching order.
const std::vector<TrackInfo> kTracks = {
    {"harris", N_("Harris: Optimizing Parallel Reduction in CUDA"),
     N_("Mark Harris, \"Optimizing Parallel Reduction in CUDA\", NVIDIA, 2007 (seeds/000)"), "", 0, 256, "", 0,
     "kernels/reduce_kernels.cuh"},
    {"lecture", N_("Lecture: atomics, shared atomics, trees, warp shuffle, two steps"),
     N_("Lecture notes \"Reduction Problem\" (seeds/001), 16M elements, sum_host.cu ... two step"),
     N_("the note's GPU (unnamed)"), 1u << 24, 1024, "sum_host", 7752, "kernels/lecture_kernels.cuh"},
    {"book", N_("Book: Professional CUDA C, divergence and unrolling, in place in global memory"),
     N_("Cheng, Grossman, McKercher, \"Professional CUDA C Programming\" (2014), ch. 3 (seeds/002), 2^24 ints"),
     "Tesla M2070", 1u << 24, 512, "cpu reduce", 29000, "kernels/book_kernels.cuh"},
    {"course", N_("Course: operators, coalesced loads, a user-defined operator"),
     N_("Lecture notes \"Reduction operation, histogram, atomics, privatisation\" (seeds/004)"), "", 0, 1024, "", 0,
     "kernels/course_kernels.cuh"},
    {"modern", N_("Modern: warp shuffles, __reduce_add_sync, 16-byte loads, single pass"),
     N_("Beyond the notes: CUDA C++ Programming Guide (warp shuffle, warp reduce, __threadfence), cuda-samples "
        "threadFenceReduction, CUB"),
     "", 0, 512, "", 0, "kernels/modern_kernels.cuh"},
    {"pitfalls", N_("Pitfalls: the notes' bugs, WRONG CODE on purpose"),
     N_("The bugs of the source notes put back into correct kernels (DESIGN.md, \"The seeds contain bugs\")"), "", 0,
     256, "", 0, "kernels/pitfall_kernels.cuh"},
};

// Every kernel: one entry each. Fields: id, track, name, title, fixes, costs, element types,
// operator, minimum block size and why, inputs per thread, grid-stride, finish, source time (us).
std::vector<KernelInfo> make_table() {
  std::vector<KernelInfo> t = {
      // --- harris: Mark Harris, "Optimizing Parallel Reduction in CUDA" (2007)
      {{}, "harris", "reduce0", N_("Interleaved addressing"),
       N_("The baseline: a tree reduction in shared memory, one element per thread."),
       N_("Highly divergent warps (only threads with tid % (2*s) == 0 work) and a slow % operator."), kInt,
       ReduceOp::Sum, 32, "", 1, false, Finish::Relaunch, 0},
      {{}, "harris", "reduce1", N_("Interleaved addressing, strided index"),
       N_("Divergence: a strided index keeps the working threads contiguous, so whole warps go idle together."),
       N_("Shared-memory bank conflicts: the stride 2*s maps many lanes of a warp to the same bank."), kInt,
       ReduceOp::Sum, 32, "", 1, false, Finish::Relaunch, 0},
      {{}, "harris", "reduce2", N_("Sequential addressing"),
       N_("Bank conflicts: thread tid adds sdata[tid + s], so a warp touches 32 consecutive words."),
       N_("Half of the threads are idle from the first iteration on."), kInt, ReduceOp::Sum, 32, "", 1, false,
       Finish::Relaunch, 0},
      {{}, "harris", "reduce3", N_("First add during load"),
       N_("Idle threads: each thread loads two elements and adds them, so half as many blocks are needed."),
       N_("Instruction overhead: address arithmetic and loop overhead now limit it, not bandwidth."), kInt,
       ReduceOp::Sum, 32, "", 2, false, Finish::Relaunch, 0},
      {{}, "harris", "reduce4", N_("Unroll the last warp"),
       N_("Loop and barrier overhead of the last six steps: one warp finishes them without __syncthreads()."),
       N_("Still a loop with a runtime trip count over the upper levels."), kInt, ReduceOp::Sum, 64, kUnrollWhy, 2,
       false, Finish::Relaunch, 0},
      {{}, "harris", "reduce5", N_("Completely unrolled"),
       N_("The remaining loop: the block size is a template parameter, so the whole tree is unrolled at compile time."),
       N_("One kernel instantiation per block size; each thread still loads only two elements."), kInt, ReduceOp::Sum,
       64, kUnrollWhy, 2, false, Finish::Relaunch, 0},
      {{}, "harris", "reduce6", N_("Multiple elements per thread"),
       N_("Too little work per thread (Brent's theorem): a capped grid, each thread summing many elements with a "
          "grid-stride loop."),
       N_("Close to the memory-bandwidth limit; what is left is launch overhead on small inputs."), kInt, ReduceOp::Sum,
       64, kUnrollWhy, 2, true, Finish::Relaunch, 0},

      // --- lecture: "Reduction Problem" lecture notes (seeds/001), times for 16M elements
      {{}, "lecture", "sum_atomic", N_("Atomic op: one atomicAdd per element"),
       N_("The CPU loop: every element is added by its own thread, all at once."),
       N_("Every update goes to one global address, so the hardware serialises all N atomicAdd on dev_sum. For "
          "int, nvcc (sm_80+) first sums the warp with REDUX.SUM and sends one atomic per warp (0.40 ms on the H100); "
          "float addition is not associative, so float atomics stay one per lane (29 ms)."),
       kIntFloat, ReduceOp::Sum, 32, "", 1, false, Finish::GlobalAtomic, 25922},
      {{}, "lecture", "sum_shared", N_("Shared atomic op, then one global atomic per block"),
       N_("Contention on the one global address: each block first adds into its own __shared__ s_sum."),
       N_("The block's updates are still serialised, now on s_sum: blockDim.x atomics per block, one at a time."),
       kIntFloat, ReduceOp::Sum, 32, "", 1, false, Finish::GlobalAtomic, 2810},
      {{}, "lecture", "sum_reduce", N_("Reduction: interleaved tree in shared memory"),
       N_("Serialised atomics inside the block: a tournament in shared memory adds pairs in parallel, log2(blockDim.x) "
          "steps, then one global atomicAdd per block."),
       N_("Divergent warps: only threads with tx % (2 * stride) == 0 work, scattered across every warp."), kIntFloat,
       ReduceOp::Sum, 32, "", 1, false, Finish::GlobalAtomic, 512},
      {{}, "lecture", "sum_reversed", N_("Reversed reduction: sequential addressing"),
       N_("Divergence: the stride runs backwards (blockDim.x / 2 down to 1) so the working threads tx < stride stay "
          "consecutive and whole warps finish early."),
       N_("Half of the threads only load: they are idle from the first step on."), kIntFloat, ReduceOp::Sum, 32, "", 1,
       false, Finish::GlobalAtomic, 408},
      {{}, "lecture", "sum_add_first", N_("Add first: two loads and an add per thread"),
       N_("Idle threads in the first step: each thread loads two elements and adds them, so half as many blocks."),
       N_("The last steps still pay a __syncthreads() each while only one warp works."), kIntFloat, ReduceOp::Sum, 32,
       "", 2, false, Finish::GlobalAtomic, 283},
      {{}, "lecture", "sum_last_warp", N_("Last warp unrolled"),
       N_("Barriers while one warp works: when 32 threads are left, warpSum() finishes without __syncthreads() and "
          "without if (tx < stride) (with __syncwarp(), which Volta and later need)."),
       N_("Still one global atomicAdd per block."), kIntFloat, ReduceOp::Sum, 64, kLastWarpWhy, 2, false,
       Finish::GlobalAtomic, 208},
      {{}, "lecture", "sum_shuffle", N_("Warp shuffle (__shfl_xor_sync)"),
       N_("Shared-memory traffic in the last warp: the 32 lanes exchange registers with __shfl_xor_sync."),
       N_("The note measured it slower (427 us) than the last-warp version; each butterfly step leaves every lane with "
          "the sum, so half the adds are redundant."),
       kIntFloat, ReduceOp::Sum, 64, kLastWarpWhy, 2, false, Finish::GlobalAtomic, 427},
      {{}, "lecture", "sum_two_step", N_("Two step: kernel decomposition, no atomics"),
       N_("The global atomics: the grid writes one partial sum per block, and a second launch of one block reduces "
          "them (a grid-stride load lets one block take any number of partials)."),
       N_("Two launches, and the partials make a round trip through global memory."), kIntFloat, ReduceOp::Sum, 64,
       kLastWarpWhy, 2, false, Finish::SecondKernel, 200},

      // --- book: Professional CUDA C Programming, ch. 3 (seeds/002), 2^24 ints, 512 threads, Tesla M2070
      {{}, "book", "reduceNeighbored", N_("Neighbored pairs, in place in global memory"),
       N_("The CPU loop: each block adds its slice in place in global memory, pairs at stride 1, 2, 4, ...; the host "
          "adds the blocks' partial sums."),
       N_("Divergence: only threads with tid % (2 * stride) == 0 work, spread over every warp; every step reads and "
          "writes global memory."),
       kInt, ReduceOp::Sum, 32, "", 1, false, Finish::HostSum, 11722},
      {{}, "book", "reduceNeighboredLess", N_("Neighbored pairs with less divergence"),
       N_("Divergence: thread tid works on index 2 * stride * tid, so the working threads are the first ones and "
          "whole warps go idle."),
       N_("The strided index scatters each warp's global accesses: the loads use few of the bytes each 32-byte sector "
          "brings (the book's gld_efficiency 16.8%)."),
       kInt, ReduceOp::Sum, 32, "", 1, false, Finish::HostSum, 9321},
      {{}, "book", "reduceInterleaved", N_("Interleaved pairs"),
       N_("Scattered accesses: stride blockDim.x / 2 down to 1, threads tid < stride, so each warp reads and writes "
          "contiguous elements (the book's gld_efficiency 77.9%)."),
       N_("Half the threads are idle from the first step on."),
       kInt, ReduceOp::Sum, 32, "", 1, false, Finish::HostSum, 6967},
      {{}, "book", "reduceUnrolling2", N_("Unrolling two data blocks"),
       N_("Idle threads and few loads in flight: each block first adds the neighbouring data block into its own."),
       N_("Still one pass over global memory per step of the tree."),
       kInt, ReduceOp::Sum, 32, "", 2, false, Finish::HostSum, 3430},
      {{}, "book", "reduceUnrolling4", N_("Unrolling four data blocks"),
       N_("Memory latency: four independent loads per thread in flight, a quarter of the blocks."),
       N_("The tree's steps still each cost a __syncthreads() and a global read and write."),
       kInt, ReduceOp::Sum, 32, "", 4, false, Finish::HostSum, 1829},
      {{}, "book", "reduceUnrolling8", N_("Unrolling eight data blocks"),
       N_("More of the same: eight independent loads per thread (the book's dram_read_throughput rises)."),
       N_("The last steps, with fewer than 32 working threads, still pay a block-wide barrier each."),
       kInt, ReduceOp::Sum, 32, "", 8, false, Finish::HostSum, 1422},
      {{}, "book", "reduceUnrollWarps8", N_("Unrolling 8 blocks and the last warp"),
       N_("Barriers for the last warp: when 32 threads are left, they finish with __syncwarp() only (the book's "
          "stall_sync falls)."),
       N_("The loop over the upper steps still has a runtime trip count."),
       kInt, ReduceOp::Sum, 64, kBookWarpWhy, 8, false, Finish::HostSum, 1355},
      {{}, "book", "reduceCompleteUnrollWarps8", N_("Unrolling 8 blocks, the loop and the last warp"),
       N_("The loop: blockDim.x is at most 1024, so the upper steps are written out as `if (blockDim.x >= ...)`."),
       N_("blockDim.x is only known at run time, so each `if` is still tested."),
       kInt, ReduceOp::Sum, 64, kBookWarpWhy, 8, false, Finish::HostSum, 1280},
      {{}, "book", "reduceCompleteUnroll", N_("Templatized: the block size at compile time"),
       N_("The run-time tests: iBlockSize is a template parameter, so the compiler drops the steps a block size does "
          "not need."),
       N_("One instantiation per block size."),
       kInt, ReduceOp::Sum, 64, kBookWarpWhy, 8, false, Finish::HostSum, 1253},

      // --- course: lecture notes on reduction operators and histograms (seeds/004). Each block reduces
      // 2 * blockDim.x inputs in partialSum[2*blockDim.x]; the host combines the blocks' results.
      {{}, "course", "naive_sum", N_("Simple thread block design: partialSum[2*t]"),
       N_("The CPU loop: each block reduces 2 * blockDim.x inputs in shared memory in log2(2 * blockDim.x) steps, "
          "thread t responsible for the even position 2*t."),
       // xgettext:no-c-format
       N_("Loads not coalesced: thread t reads inputs 2*t and 2*t+1, so each warp-wide load uses half of every "
          "sector it brings. Divergent warps: only threads with t % stride == 0 add."),
       kIntFloat, ReduceOp::Sum, 32, "", 2, false, Finish::HostReduce, 0, 2},
      {{}, "course", "coalesced_sum", N_("Better memory coalescing: partialSum[t], partialSum[blockDim.x+t]"),
       N_("Uncoalesced loads: thread t reads inputs t and blockDim.x + t, so a warp reads 32 consecutive words per "
          "load and uses every byte of each sector."),
       N_("The tree is still the naive one: in every step each warp runs both the threads that add and those that "
          "do not."),
       kIntFloat, ReduceOp::Sum, 32, "", 2, false, Finish::HostReduce, 0, 2},
      {{}, "course", "better_sum", N_("A better reduction kernel: t < stride"),
       N_("Divergence: the stride runs from blockDim.x down, so the working threads t < stride are contiguous; with "
          "1024 threads the first 5 steps keep whole warps active or idle."),
       N_("The last 5 steps still diverge inside the first warp, and every step costs a __syncthreads()."),
       kIntFloat, ReduceOp::Sum, 32, "", 2, false, Finish::HostReduce, 0, 2},
      {{}, "course", "better_min", N_("The same tree, operator min (identity: the largest value)"),
       N_("Only the operator: the kernel source is better_sum's, with the policy OpMin (as cub::Min); slots past the "
          "end hold INT_MAX or +infinity."),
       N_("The same cost as better_sum: min is one instruction, like +. Float min is exact, so every order gives "
          "the same bits."),
       kIntFloat, ReduceOp::Min, 32, "", 2, false, Finish::HostReduce, 0, 2},
      {{}, "course", "better_max", N_("The same tree, operator max (identity: the smallest value)"),
       N_("Only the operator: the policy OpMax (as cub::Max); slots past the end hold INT_MIN or -infinity."),
       N_("The same cost as better_sum."),
       kIntFloat, ReduceOp::Max, 32, "", 2, false, Finish::HostReduce, 0, 2},
      {{}, "course", "farthest_point", N_("A user-defined operator: the 3-D point farthest from the origin"),
       N_("Any associative and commutative operator with an identity reduces in parallel: here the inputs are n / 3 "
          "points (x, y, z), the shared array holds point indices (-1: none), and the operator keeps the point with "
          "the larger x*x + y*y + z*z (the lower index on a tie, so every order gives the same answer)."),
       N_("Each step of the tree reads both points' coordinates again from global memory (six loads per compare); "
          "only the index moves through shared memory."),
       kInt, ReduceOp::Farthest, 32, "", 6, false, Finish::HostReduce, 0, 2},
      // The note's histograms: bytes into bins with atomicAdd (kernels/histogram.hpp); the grid is capped at
      // what the GPU holds at once, every thread loops (i += blockDim.x * gridDim.x).
      {{}, "course", "histo_sectioned", N_("Sectioned partitioning: one contiguous section per thread"),
       N_("The CPU loop: every thread counts its own section of the input at once, with atomicAdd on the global "
          "bins (the read-modify-write of a plain ++ would lose updates)."),
       N_("Adjacent threads read bytes a section apart, so each warp-wide load touches 32 sectors for 32 bytes: "
          "not coalesced. On the H100 the global atomics cost far more than that: it is hardly slower than "
          "histo_basic (11.0 against 10.7 ms for 2^26 bytes of text, docs/tracks.md)."),
       kInt, ReduceOp::Histogram, 32, "", 1, true, Finish::SinglePass, 0, 0, false},
      {{}, "course", "histo_basic", N_("Interleaved partitioning: a basic text histogram kernel"),
       N_("Uncoalesced loads: all threads read consecutive bytes, then all move on by the total number of threads "
          "(i += blockDim.x * gridDim.x), so each warp-wide load is one sector."),
       N_("Every byte is one atomicAdd on a global bin: the updates to one bin are serialised in L2, and a skewed "
          "input sends nearly all of them to one address."),
       kInt, ReduceOp::Histogram, 32, "", 1, true, Finish::SinglePass, 0, 0, false},
      {{}, "course", "histo_private", N_("Privatisation: a shared histogram per block"),
       N_("Contention on the global bins: each block counts into its own __shared__ histo_private[] (short-latency "
          "shared atomics, contended only by its own threads), then adds it to the global bins once."),
       N_("The block's updates to one shared bin are still serialised; the merge costs one global atomicAdd per bin "
          "per block."),
       kInt, ReduceOp::Histogram, 32, "", 1, true, Finish::SinglePass, 0, 0, true},

      // --- modern: beyond the notes. A grid that fills the GPU once (the occupancy API x SMs), a grid-stride loop.
      {{}, "modern", "shuffle_block", N_("Warp-shuffle block reduction"),
       N_("Shared-memory traffic and barriers of the tree: each warp adds its 32 values in registers with five "
          "__shfl_down_sync steps; shared memory holds one value per warp, one barrier."),
       N_("One 4-byte load per thread per iteration; a second launch adds the blocks' partials."),
       kIntFloat, ReduceOp::Sum, 32, "", 1, true, Finish::SecondKernel, 0},
      {{}, "modern", "reduce_add_sync", N_("__reduce_add_sync: the warp in one instruction"),
       N_("The five shuffle steps: __reduce_add_sync sums a warp's 32 integers in one instruction (REDUX, "
          "compute capability 8.0 and later)."),
       N_("Integers only; still 4-byte loads."),
       kInt, ReduceOp::Sum, 32, "", 1, true, Finish::SecondKernel, 0, 1, false, 80},
      {{}, "modern", "vec4_loads", N_("16-byte loads, four in flight"),
       N_("Load instructions and memory latency: each thread reads int4 (float4) vectors, four independent loads "
          "in flight, so a warp moves 2 KiB per loop trip; a scalar tail takes the last n % 4 elements."),
       N_("Two launches: the blocks' partials make a round trip through global memory and a second launch."),
       kIntFloat, ReduceOp::Sum, 32, "", 8, true, Finish::SecondKernel, 0},
      {{}, "modern", "single_pass_atomic", N_("Single pass: one atomicAdd per block"),
       N_("The second launch: each block adds its sum into the result with one atomicAdd."),
       N_("A memset of the result before the launch; float sums change with the order the blocks finish in."),
       kIntFloat, ReduceOp::Sum, 32, "", 8, true, Finish::GlobalAtomic, 0},
      {{}, "modern", "single_pass_last_block", N_("Single pass: the last block adds the partials"),
       N_("The memset and the atomics on the data: each block writes its partial, __threadfence() publishes it, "
          "atomicInc hands out tickets, and the block with the last ticket adds the partials (cuda-samples' "
          "threadFenceReduction). One launch; float sums in a fixed order."),
       N_("The last block's extra pass over the partials; a counter that must start at 0 (atomicInc wraps it back)."),
       kIntFloat, ReduceOp::Sum, 32, "", 8, true, Finish::SinglePass, 0},
      {{}, "modern", "cg_reduce", N_("Cooperative groups: cg::reduce over a thread_block_tile<32>"),
       N_("Hand-written warp code: cg::tiled_partition<32> names the warp, cg::reduce adds it (with "
          "__reduce_add_sync or shuffles, as the library chooses), the same for any tile size."),
       N_("As vec4_loads: two launches. The library's shuffles are not in the trace (it sees the loads, the tile "
          "sums in shared memory and the result)."),
       kIntFloat, ReduceOp::Sum, 32, "", 8, true, Finish::SecondKernel, 0},
      {{}, "modern", "cub_block_reduce", N_("cub::BlockReduce inside our kernel"),
       N_("Writing the block's reduction at all: cub::BlockReduce<T, blockSize>::Sum is what CUB itself runs per "
          "block; our grid-stride loop feeds it."),
       N_("One instantiation per block size; two launches; the library's warp reductions and shared memory are "
          "not in the trace (it sees the loads and the result)."),
       kIntFloat, ReduceOp::Sum, 32, "", 8, true, Finish::SecondKernel, 0},

      {{}, "modern", "histo_warp", N_("A histogram faster than the library: 16-byte loads, counts per warp"),
       N_("histo_private's limits on the H100 (0.34-0.38x cub::DeviceHistogram): 16-byte loads (a warp moves 512 "
          "bytes per load), a count per byte value per warp (a hot value is one address per warp, not per block; "
          "same-address lanes of one atomic are combined by the hardware), and no work per byte but the atomic: "
          "the bins are made from the bytes' counts once per block."),
       N_("Every byte is still one shared atomic (as in CUB); 1 KiB of shared memory per warp (32 KiB at 1024 "
          "threads)."),
       kInt, ReduceOp::Histogram, 32, "", 16, true, Finish::SinglePass, 0, 0, false, 0, nullptr, false, nullptr, false,
       true},
      {{}, "modern", "reproducible_sum", N_("Reproducible float sum: exact in wide integers, rounded once"),
       N_("Float sums whose bits change with the block size, the grid and the run (float atomics, and trees at "
          "different block sizes): every float is an integer times a power of two, so the sum is one exact integer "
          "whatever the order of the additions (a long accumulator: Kulisch; on GPUs Collange, Defour, Graillat and "
          "Iakymchuk, 2015), rounded to float once: correctly rounded, the same bits everywhere."),
       N_("Integer work per element (a shift and a 128-bit add; elements far below or above the warp's first "
          "exponent take shared-memory atomics); float32 only; the last block rounds the limbs."),
       kFloat, ReduceOp::Sum, 32, "", 8, true, Finish::SinglePass, 0, 0, false, 80, nullptr, false, nullptr, true},

      // --- pitfalls: WRONG CODE, labelled as such; never in a default kernel list.
      {{}, "pitfalls", "pitfall_no_volatile", N_("WRONG: the last warp without volatile"),
       N_("Nothing: this is Harris's reduce4 with the slides' warpReduce on a plain int* (no volatile, no "
          "__syncwarp())."),
       N_("The compiler may keep sdata[tid] in a register and store it once, so the lanes add words their "
          "neighbours have not written yet: wrong sums."),
       kInt, ReduceOp::Sum, 64, kUnrollWhy, 2, false, Finish::Relaunch, 0, 1, false, 0,
       N_("warpReduce takes a plain int*: without volatile the compiler may cache shared memory in registers"), false,
       "reduce4"},
      {{}, "pitfalls", "pitfall_no_syncwarp", N_("WRONG: the last warp without __syncwarp()"),
       N_("Nothing: reduce4 with the slides' volatile warpReduce as printed, no __syncwarp() between its steps."),
       N_("A data race since Volta's independent thread scheduling: a lane may read a word before its neighbour "
          "wrote it. The sums may still come out right; compute-sanitizer's racecheck reports the hazards."),
       kInt, ReduceOp::Sum, 64, kUnrollWhy, 2, false, Finish::Relaunch, 0, 1, false, 0,
       N_("warp-synchronous code without __syncwarp(): undefined since Volta (independent thread scheduling)"), false,
       "reduce4"},
      {{}, "pitfalls", "pitfall_no_syncthreads", N_("WRONG: a missing __syncthreads() between tree steps"),
       N_("Nothing: reduce2 without the barrier between the steps of the tree."),
       N_("A thread may read sdata[tid + s] before the warp that owns it has added into it: wrong sums when the "
          "block has more than one warp."),
       kInt, ReduceOp::Sum, 32, "", 1, false, Finish::Relaunch, 0, 1, false, 0,
       N_("no __syncthreads() between the steps: warps read partial sums other warps have not written yet"), false,
       "reduce2"},
      {{}, "pitfalls", "pitfall_float_atomic", N_("SURPRISE: float atomicAdd, a different sum each run"),
       N_("Nothing is wrong: each warp adds its 32 elements with __shfl_down_sync, then lane 0 adds the warp's sum "
          "into one float with atomicAdd. One launch, no second pass."),
       N_("The atomics land in whatever order the warps arrive, and float addition is not associative, so the last "
          "bits of the sum change from run to run: right within rounding, never the same bits twice. Where results "
          "must match bit for bit, add in a fixed order (shuffle_block, sum_two_step, vec4_loads)."),
       kFloat, ReduceOp::Sum, 32, "", 1, false, Finish::GlobalAtomic, 0, 0, false, 0,
       N_("float atomicAdd in arrival order: right within rounding, but not the same sum twice"), true,
       "shuffle_block"},
      {{}, "pitfalls", "pitfall_float_saturation", N_("SURPRISE: a float running sum stops growing at 2^24"),
       N_("Nothing is wrong with the code: each thread adds its element into one float with atomicAdd (the lecture's "
          "sum_atomic, on float32)."),
       N_("float32 keeps 24 significant bits: once the running sum reaches 2^24 its values are 2 apart, and adding a "
          "value below 1 rounds back to it. On values in [0, 1) the sum stops at 16777216, whatever N: right below "
          "the N where the exact sum reaches 2^24, the same wrong sum above it. Add in wide integers "
          "(reproducible_sum), or in a tree, whose partial sums stay small."),
       kFloat, ReduceOp::Sum, 32, "", 1, false, Finish::GlobalAtomic, 0, 0, false, 0,
       N_("one float running sum: it stops growing at 2^24, where adding a value below 1 rounds to nothing"), true,
       "reproducible_sum"},
  };
  for (size_t i = 0; i < t.size(); ++i) t[i].id = static_cast<KernelId>(i);
  return t;
}

const std::vector<KernelInfo>& table() {
  static const std::vector<KernelInfo> t = make_table();
  return t;
}

}  // namespace

const std::vector<KernelInfo>& kernel_table() { return table(); }
const std::vector<TrackInfo>& track_table() { return kTracks; }

const KernelInfo& kernel_info(KernelId id) { return table().at(static_cast<size_t>(id)); }

const std::vector<LibraryKernelInfo>& library_table() {
  static const std::vector<LibraryKernelInfo> t = {
      {"cub::DeviceReduceKernel", "modern", N_("CUB's first pass: cub::DeviceReduce::Sum, one partial per block"),
       N_("The first of cub::DeviceReduce::Sum's two launches; on the H100, 256 threads and 16 elements per thread (CCCL's "
          "tuning). Each block takes an even share of the 4096-element tiles: each thread loads its 16 elements as four "
          "16-byte vectors, every load coalesced, and adds them in registers. Each warp adds its 32 lanes in one REDUX "
          "instruction (as reduce_add_sync) and its lane 0 stores the warp's sum in shared memory; after one barrier, "
          "thread 0 alone adds the 8 warps' sums and writes the block's partial."),
       N_("A second launch (cub::DeviceReduceSingleTileKernel) adds the partials. Traced as compiled: the warp sums are "
          "REDUX instructions, which the binary tracer cannot see."),
       "DeviceReduceKernel", "reduce", 1, {"single_pass_last_block", "reduce6"}, ReduceOp::Sum,
       "cub/device/dispatch/kernels/reduce.cuh"},
      {"cub::DeviceReduceSingleTileKernel", "modern", N_("CUB's second pass: one block adds the partials"),
       N_("The second of cub::DeviceReduce::Sum's two launches: one block of 256 threads loads the first pass's partials, 16 per "
          "thread as four 16-byte vectors, and reduces them as the first pass reduces a tile; thread 0 writes the sum."),
       N_("A whole launch for a few thousand partials: single_pass_last_block adds them in the last block of the same "
          "launch."),
       "DeviceReduceSingleTileKernel", "reduce", 1, {"single_pass_last_block", "reduce6"}, ReduceOp::Sum,
       "cub/device/dispatch/kernels/reduce.cuh", "cub::DeviceReduceKernel"},
      {"cub::DeviceHistogramSweepKernel", "modern", N_("CUB's histogram: cub::DeviceHistogram's sweep kernel"),
       N_("cub::DeviceHistogram's launch after it zeroes the bins; on the H100, 768 threads per block. Each block "
          "zeroes a private copy of the bins in shared memory, each thread counts its bytes there with one shared "
          "atomicAdd per byte, and after a barrier the block adds its copy into the output with global atomics."),
       N_("Every byte is one shared atomic, as in histo_private, and each lane loads one byte (a third of each sector "
          "used), where histo_warp loads 16. The traced atomics have no operands (the binary tracer sees the "
          "instruction, not its values)."),
       "DeviceHistogramSweepKernel", "histogram", 1, {"histo_warp", "histo_private"}, ReduceOp::Histogram,
       "cub/device/dispatch/dispatch_histogram.cuh"},
  };
  return t;
}

const LibraryKernelInfo* find_library_kernel(std::string_view name) {
  for (const auto& k : library_table()) {
    if (name == k.name) return &k;
  }
  return nullptr;
}

std::vector<const LibraryKernelInfo*> track_library_kernels(std::string_view id) {
  std::vector<const LibraryKernelInfo*> out;
  for (const auto& k : library_table()) {
    if (id == k.track) out.push_back(&k);
  }
  return out;
}

std::string library_kernel_names() {
  std::string s;
  for (const auto& k : library_table()) s += (s.empty() ? "" : ", ") + std::string(k.name);
  return s;
}

const KernelInfo* find_kernel(std::string_view name) {
  for (const auto& k : table()) {
    if (name == k.name) return &k;
  }
  return nullptr;
}

const TrackInfo* find_track(std::string_view id) {
  for (const auto& t : kTracks) {
    if (id == t.id) return &t;
  }
  return nullptr;
}

const TrackInfo& track_of(KernelId id) { return *find_track(kernel_info(id).track); }

std::vector<KernelId> track_kernels(std::string_view id) {
  std::vector<KernelId> v;
  for (const auto& k : table()) {
    if (id == k.track) v.push_back(k.id);
  }
  return v;
}

std::string track_names() {
  std::string s;
  for (const auto& t : kTracks) s += (s.empty() ? "" : ", ") + std::string(t.id);
  return s;
}

std::optional<Said> block_size_problem(unsigned b) {
  if (b < 32 || b > 1024 || (b & (b - 1)) != 0) {
    return Said(N_("block size %u is not one of 32, 64, 128, 256, 512, 1024 (the tree reductions halve the block "
                   "each step, so it must be a power of two, at least one warp and at most 1024 threads)"),
                b);
  }
  return std::nullopt;
}

std::optional<Said> block_size_problem(KernelId id, unsigned b) {
  if (auto p = block_size_problem(b)) return p;
  const KernelInfo& k = kernel_info(id);
  if (b < k.min_block_size) {
    return Said(N_("%s needs at least %u threads per block: %s"), k.name, k.min_block_size, Term{k.min_block_why});
  }
  return std::nullopt;
}

std::optional<Said> cc_problem(KernelId id, int major, int minor) {
  const KernelInfo& k = kernel_info(id);
  if (k.min_cc == 0 || major * 10 + minor >= k.min_cc) return std::nullopt;
  return Said(N_("%s needs compute capability %d.%d or later (its warp-reduce instruction); this GPU has %d.%d"),
              k.name, k.min_cc / 10, k.min_cc % 10, major, minor);
}

std::optional<unsigned> fixed_launches(KernelId id) {
  const KernelInfo& k = kernel_info(id);
  if (k.op == ReduceOp::Histogram) return 1u;
  switch (k.finish) {
    case Finish::GlobalAtomic:
    case Finish::SinglePass:
    case Finish::HostSum:
    case Finish::HostReduce:
      return 1u;
    case Finish::Relaunch:
    case Finish::SecondKernel:
      break;
  }
  return std::nullopt;
}

std::optional<Said> dtype_problem(KernelId id, DType t) {
  const KernelInfo& k = kernel_info(id);
  if (k.takes(t)) return std::nullopt;
  return Said(N_("%s reduces %s only, not %s"), k.name, k.takes(DType::Int32) ? "int32" : "float32", to_string(t));
}

std::vector<Speedup> table_speedups(const std::vector<KernelId>& rows, const std::vector<double>& ms) {
  std::vector<Speedup> out(rows.size());
  for (size_t i = 0; i < rows.size() && i < ms.size(); ++i) {
    if (ms[i] <= 0) continue;
    const ReduceOp op = kernel_info(rows[i]).op;
    if (kernel_info(rows[i]).pitfall) {  // each bug is its own job
      out[i].cumulative = 1.0;
      continue;
    }
    double first = 0, prev = 0;
    for (size_t j = 0; j < i; ++j) {
      if (ms[j] <= 0 || kernel_info(rows[j]).op != op || kernel_info(rows[j]).pitfall) continue;
      if (first == 0) first = ms[j];
      prev = ms[j];
    }
    // The first row of its job is its own reference: cumulative 1x, no step.
    out[i].cumulative = first > 0 ? first / ms[i] : 1.0;
    out[i].step = prev > 0 ? prev / ms[i] : 0;
  }
  return out;
}

}  // namespace rs
