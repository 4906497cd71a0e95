// The registry of tracks and kernels: every source note's kernels as data. Plain C++, so the
// CLI, the GUI and the tests can use it without a GPU.
//
// Index
//   DType, ReduceOp, Finish     element type, operator, how the host finishes the reduction
//   KernelId, KernelInfo        one kernel: name, teaching note, type, operator, launch shape
//   TrackInfo                   one track: id, title, source, the source's own timings
//   kernel_table(), track_table(), find_kernel(), find_track(), track_kernels()
//   block_size_problem()        why a block size cannot be used (for users)
//   table_speedups()            step and cumulative speedups between kernels that do the same job
//   LibraryKernelInfo           a library's kernel (CUB's) the app traces as compiled but does not run itself
//
// Words for people (issue 31): the tables' texts (titles, fixes, costs, min_block_why, pitfall, a track's
// title, source and source_gpu, and the names to_string(ReduceOp) and to_string(Finish) give) are English
// msgids marked with N_(): show them through i18n::tr(). The reasons the functions below give are Said (msgid and
// arguments; kernels/ links no gettext, issue 53): say() is English, the window says them in its language.
//
// A track is one family of kernels from one source, in the source's order (../DESIGN.md,
// "Tracks"). Adding a kernel touches its source (kernels/<track>_kernels.cuh: the kernel and
// its one-line binding), one entry in kernels/kernel_info.cpp, and its tests
// (docs/architecture.md, "Adding a kernel").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "said.hpp"
#include "trace_format.hpp"  // DType

namespace rs {

// The operator a kernel reduces with (kernels/reduce_ops.hpp). Append-only. Farthest: the index of
// the 3-D point farthest from the origin, the n int32 inputs read as n / 3 points (x, y, z); -1 if
// there is no point (n < 3). Histogram: not a reduction to one value but to bins (the course track's
// histograms, kernels/histogram.hpp): GpuReducer's histogram methods run them, over bytes.
enum class ReduceOp : uint8_t { Sum = 0, Min = 1, Max = 2, Farthest = 3, Histogram = 4 };
const char* to_string(ReduceOp op);  // "sum", "min", ... (a msgid: i18n::tr() to show it)

// How the host finishes the reduction after the kernel's first launch.
enum class Finish : uint8_t {
  Relaunch,      // launch the same kernel on the per-block partials until one block is left (Harris)
  GlobalAtomic,  // one launch: the kernel adds into one global accumulator with atomicAdd (per
                 // element or per block); the host zeroes it first
  SecondKernel,  // two launches: the grid writes per-block partials, then one block reduces them
  SinglePass,    // one launch that finishes by itself: the last block to finish writes out[0]
                 // (the modern track; GpuReducer gives it a buffer of its own, zeroed once)
  HostSum,       // one launch in place on a zero-padded scratch copy of the input; the host copies the
                 // per-block partials back and adds them (the book: there is no barrier across blocks)
  HostReduce,    // one launch; the host copies the per-block results back and combines them with the
                 // kernel's operator (the course note: "if the number of sums is small, the host can
                 // copy them back and add them together"). Farthest: 4 ints per block (index, x, y, z).
};
// "repeated launches", "global atomic", "second kernel", "single pass", "host sum", "host reduce" (msgids:
// i18n::tr() to show them)
const char* to_string(Finish f);

// Index of a kernel in kernel_table(). The named values are the Harris kernels, which the
// tests and the window's defaults use; every other kernel is found by name (find_kernel).
enum class KernelId : uint16_t { reduce0, reduce1, reduce2, reduce3, reduce4, reduce5, reduce6 };

// Bit of KernelInfo::dtypes for a type.
inline constexpr uint8_t dtype_bit(DType t) { return static_cast<uint8_t>(1u << static_cast<unsigned>(t)); }

struct KernelInfo {
  KernelId id;                // its index in kernel_table()
  const char* track;          // TrackInfo::id, e.g. "harris"
  const char* name;           // the source's name, unique across tracks: "reduce0", "sum_shuffle"
  const char* title;          // the source's heading for it
  const char* fixes;          // what it fixes in the kernel before it
  const char* costs;          // what it still costs, per the source
  uint8_t dtypes;             // element types it takes: dtype_bit(DType::Int32) | ...
  ReduceOp op;                // the operator
  unsigned min_block_size;    // smallest block size its algorithm can take
  const char* min_block_why;  // why, when min_block_size > 32
  unsigned inputs_per_thread; // elements each thread loads per grid pass (1, 2, 4 or 8; 6 for
                              // farthest_point: two points of three ints)
  bool grid_stride;           // true: capped grid (enough blocks to fill the GPU), grid-stride loop
  Finish finish;              // how the host finishes the reduction
  double source_us;           // the time the source reports for it, microseconds (0: none)
  unsigned smem_per_thread = 1; // 4-byte words of dynamic shared memory per thread (the course's
                                // partialSum[2*blockDim.x]: 2; histograms: 0)
  bool private_bins = false;    // histograms: a shared copy of the bins per block (4 bytes per bin)
  int min_cc = 0;               // lowest compute capability it runs on, x10 (80: __reduce_add_sync); 0: any
  const char* pitfall = nullptr;  // WRONG CODE on purpose (the pitfalls track): what is wrong with it; such
                                  // kernels are left out of every default kernel list
  bool surprise = false;          // a pitfall that is correct code with a surprising result (float atomics:
                                  // right within rounding, a different sum each run), not WRONG code
  const char* fixed_by = nullptr; // a pitfall: the kernel that fixes it (compare mode's other side), e.g. "reduce4"
  bool own_out = false;           // Finish::SinglePass: its output buffer holds state between launches that must
                                  // start zeroed and that it zeroes again (reproducible_sum's limbs), so it gets
                                  // a buffer of its own that no other kernel writes
  bool warp_bins = false;         // histograms: a count per byte value per warp in shared memory (warps x 256 x 4
                                  // bytes), made into the bins once per block (histo_warp)
  bool takes(DType t) const { return (dtypes & dtype_bit(t)) != 0; }
};

struct TrackInfo {
  const char* id;              // "harris", "lecture"
  const char* title;           // "Harris: Optimizing Parallel Reduction in CUDA"
  const char* source;          // the note, slide deck or book it follows
  const char* source_gpu;      // the GPU the source's timings are from ("" if none)
  uint64_t source_n;           // the N of the source's timings (elements; 0 if none)
  unsigned default_block_size; // the block size the source uses
  const char* cpu_name;        // the CPU loop the source starts from ("" if none)
  double cpu_source_us;        // the source's time for it, microseconds (0: none)
  const char* kernel_file;     // the kernel source file, e.g. "kernels/lecture_kernels.cuh"
};

// Every kernel of every track, tracks in track_table() order, kernels in each source's order.
const std::vector<KernelInfo>& kernel_table();
const std::vector<TrackInfo>& track_table();
const KernelInfo& kernel_info(KernelId id);  // id must come from kernel_table()
// nullptr if `name` is not a kernel / track name.
const KernelInfo* find_kernel(std::string_view name);
const TrackInfo* find_track(std::string_view id);
const TrackInfo& track_of(KernelId id);
// The kernels of track `id`, in order (empty for an unknown track).
std::vector<KernelId> track_kernels(std::string_view id);
// Comma-separated track ids, for messages: "harris, lecture".
std::string track_names();

// Block sizes the app offers: powers of two from 32 to 1024 threads.
inline constexpr std::array<unsigned, 6> kBlockSizes = {32, 64, 128, 256, 512, 1024};

// Why `block_size` cannot be used with `id`, or nothing if it can. The reasons are meant
// for users ("reduce4 needs at least 64 threads per block: ..."), as a Said (tracing/said.hpp: kernels/ links no
// gettext; say() is English, the window says it in its language).
std::optional<Said> block_size_problem(KernelId id, unsigned block_size);
// Same, for any kernel: power of two in [32, 1024].
std::optional<Said> block_size_problem(unsigned block_size);
// Why kernel `id` cannot run on a GPU of compute capability major.minor, or nothing if it can.
std::optional<Said> cc_problem(KernelId id, int major, int minor);
// The kernel launches one reduction (or histogram) with `id` takes when that does not depend on the GPU
// or N: 1 for a global-atomic, single-pass, host-finished kernel or a histogram (GpuReducer::launches);
// nothing for repeated launches and for a second kernel (which is skipped when one block suffices).
std::optional<unsigned> fixed_launches(KernelId id);
// Harris's table's speedups for rows shown in order (his slide "Performance for 4M element
// reduction"): step = the time of the nearest row above that does the same job (same ReduceOp) / this
// row's time; cumulative = the time of the first such row / this row's time. A row whose job no row
// above does (farthest_point after max, a histogram after a sum) has none: dividing unrelated
// kernels' times says nothing. `ms[i]` is row i's median time (ms); <= 0: no time (no speedups, and
// skipped as a reference). Both results are 0 where there is no speedup to show. A pitfall (wrong code,
// each with its own bug) is its own job: no step, cumulative 1, and no reference for another row.
struct Speedup {
  double step = 0, cumulative = 0;
};
std::vector<Speedup> table_speedups(const std::vector<KernelId>& rows, const std::vector<double>& ms);

// Why kernel `id` cannot reduce elements of type `t`, or nothing if it can.
std::optional<Said> dtype_problem(KernelId id, DType t);

// A library's kernel (issue 29, "CUB opened"): one of the kernels cub::DeviceReduce::Sum and cub::DeviceHistogram
// launch, which sessions hold as traces by the binary tracer (`reducescope record --add --binary --kernel NAME`,
// attached to `reducescope run --cub reduce|histogram`), under their track beside the shipped kernels that do the
// same job. They are not in kernel_table(): the app cannot build them with its probe, and their launch shape (block
// size, items per thread) is CUB's own tuning policy for the GPU, not a choice of ours. The policy words below are
// from CCCL 3.0's cub/device/dispatch/tuning/tuning_reduce.cuh (Policy600, which sm_90 uses) and
// dispatch/kernels/reduce.cuh and what the H100 traces showed (docs/binary-trace.md, "CUB opened").
struct LibraryKernelInfo {
  const char* name;     // the kernel's name as CUB spells it, without its namespaces: "cub::DeviceReduceKernel"
  const char* track;    // TrackInfo::id of the track it is listed in ("modern")
  const char* title;    // msgid: one line
  const char* what;     // msgid: how the library does the job (shown where a shipped kernel shows "fixes")
  const char* costs;    // msgid: what it costs, or what the trace cannot show
  const char* attach;   // the text the demangled name of the launched kernel contains ("DeviceReduceKernel")
  const char* run;      // `reducescope run --cub` WHAT that launches it: "reduce" or "histogram"
  unsigned launch;      // which of the run's launches of it is traced (1-based)
  std::array<const char*, 2> beside;  // shipped kernels doing the same job, for compare mode (nullptr: none)
  ReduceOp op;          // Sum or Histogram
  const char* file = "";               // the CUB file its trace's lines are in (CCCL 3.0, in the CUDA 13.0 toolkit)
  const char* partials_of = nullptr;  // a second pass: the library kernel whose per-block partials it reduces (its
                                      // trace's n is that kernel's grid size)
};
// Every library kernel, in their tracks' order.
const std::vector<LibraryKernelInfo>& library_table();
// nullptr if `name` is no library kernel's name.
const LibraryKernelInfo* find_library_kernel(std::string_view name);
// The library kernels listed in track `id`.
std::vector<const LibraryKernelInfo*> track_library_kernels(std::string_view id);
// Comma-separated library kernel names, for messages.
std::string library_kernel_names();

}  // namespace rs
