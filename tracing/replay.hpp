// The replay model: turns a Trace of one thread block into steps a viewer can show.
//
// Index
//   Bank model      kNumBanks, kBankWidthBytes, BankAnalysis, analyze_banks()
//   WarpAccess      one warp-level shared-memory access (one instruction of one warp)
//   WarpStep        one warp during one step: active mask, useful lanes, divergence, exited
//   WarpShuffle     one warp-level shuffle or warp-reduce instruction: lane -> lane moves (v3)
//   WarpAtomic      one warp-level atomic instruction: updates per address (contention) (v3)
//   AtomicTarget    one address updated atomically by the block: the order updates landed (v3)
//   GlobalRequest   one warp-level global load or store: 32-byte sectors touched vs needed (v3)
//   GlobalSlice     the part of a global buffer the block reduces in place (the book track)
//   Step            one epoch: accesses, warps, the shared-memory and global-slice snapshots after it
//   Replay          builds all of the above from a Trace
//   describe_step() the text form used by `reducescope trace`
//
// Plain C++: no CUDA, no GL. CI tests it on traces recorded on a real GPU.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "trace_format.hpp"

namespace rs {

inline constexpr int kWarpSize = 32;
// Largest steps x shared-memory words a Replay keeps snapshots of (about 100 MiB).
inline constexpr uint64_t kMaxSnapshotCells = 1u << 24;
// Most elements of a global buffer a Replay keeps snapshots of (GlobalSlice): 8 per thread of a
// 1024-thread block, what the book's reduceUnrolling8 touches.
inline constexpr uint32_t kMaxGlobalSliceCells = 8192;

// Shared memory on compute capability 5.x-9.x has 32 banks, each 4 bytes wide; successive
// 4-byte words go to successive banks (CUDA C++ Best Practices Guide, "Shared Memory and
// Memory Banks"; CUDA C++ Programming Guide, "Shared Memory" for cc 5.x and later).
inline constexpr int kNumBanks = 32;
inline constexpr int kBankWidthBytes = 4;

// Bank usage of one warp-level access.
// Lanes that touch the same 4-byte word are served together (broadcast for loads), so a bank
// costs one wavefront per *distinct word* it must serve. The access needs `degree` wavefronts
// (an n-way conflict with n = degree); it has degree - 1 bank conflicts, which is what Nsight
// Compute's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum count for 32-bit
// accesses on a 1-block launch.
struct BankAnalysis {
  std::array<uint8_t, kNumBanks> words_per_bank{};  // distinct words each bank serves
  std::array<uint8_t, kNumBanks> lanes_per_bank{};  // lanes whose address falls in each bank
  int degree = 0;                                   // n of the n-way conflict; 0 if no lane
  int conflicts() const { return degree > 1 ? degree - 1 : 0; }
};

// addr[l] is the byte address used by lane l; only lanes set in `lanes` take part.
BankAnalysis analyze_banks(const std::array<uint32_t, kWarpSize>& addr, uint32_t lanes);

inline int bank_of(uint32_t byte_addr) { return static_cast<int>((byte_addr / kBankWidthBytes) % kNumBanks); }

// One warp-level shared-memory access: the lanes of one warp executing one load or store.
struct WarpAccess {
  uint32_t epoch = 0;
  uint32_t warp = 0;
  uint32_t seq = 0;             // program-order index within the epoch (see TraceRecord::seq)
  AccessKind kind = AccessKind::Load;
  uint16_t line = 0;            // source line in kernels/reduce_kernels.cuh
  uint32_t lanes = 0;           // lanes that made the access (the useful lanes)
  uint32_t active_mask = 0;     // __activemask() as read by those lanes (their union)
  std::array<uint32_t, kWarpSize> addr{};  // byte address per lane (valid where `lanes` has the bit)
  std::array<int32_t, kWarpSize> value{};  // value loaded or stored per lane
  BankAnalysis banks;
};

// One warp during one step.
struct WarpStep {
  // Warp instructions: shared and global loads and stores, shuffles, warp reduces, atomics
  // (not barriers).
  uint32_t useful = 0;       // lanes that made at least one warp instruction this step
  uint32_t every = 0;        // lanes that made every one of the warp's instructions this step (a subset of
                             // `useful`; the rest of `useful` sat out some, e.g. a loop's last iterations)
  int instructions = 0;      // the warp's warp-level instructions this step
  int partial = 0;           // of those, how many ran with fewer lanes active than the warp has live lanes
  uint32_t active_mask = 0;  // union of __activemask() at the warp's instructions this step
  uint32_t exited = 0;       // lanes that have finished the kernel (no event at this or a later epoch)
  bool diverged = false;     // an instruction ran with fewer lanes active than the warp has live lanes
  float efficiency = 0.f;    // mean over the warp's instructions of useful lanes / 32 (warp execution efficiency); 0 if none
  bool active() const { return useful != 0; }
};

// One move of a shuffle: lane `dst` received `value` (bits) from lane `src` (src == dst: the
// lane kept its own value, e.g. __shfl_down_sync past the end of its width segment).
struct LaneMove {
  uint8_t src = 0, dst = 0;
  uint32_t value = 0;
};

// One warp-level shuffle (__shfl*_sync) or warp-reduce (__reduce_*_sync) instruction: the lanes
// of one warp with the same (epoch, seq, kind, line). A shuffle and a warp reduce each end the
// recording lane's epoch, so every such instruction is a step of its own for its warp.
struct WarpShuffle {
  uint32_t epoch = 0;
  uint32_t warp = 0;
  uint32_t seq = 0;
  AccessKind kind = AccessKind::Shuffle;  // Shuffle or WarpReduce
  uint8_t op = 0;                 // ShuffleKind or WarpReduceOp (low 6 bits of TraceRecord::op)
  uint8_t width = 32;             // the intrinsic's width argument (TraceRecord::space)
  bool float_values = false;      // the values are float32 bits (kOpFloatBit)
  bool values = true;             // false: the tracer gives no values (kOpNoValues: a binary trace); offered and
                                  // received then hold nothing to show
  uint16_t line = 0;
  uint32_t lanes = 0;             // lanes that executed it
  uint32_t member_mask = 0;       // the mask argument (union over the lanes)
  uint32_t active_mask = 0;       // union of __activemask()
  std::array<uint32_t, kWarpSize> offered{};   // bits each lane passed in (var / operand)
  std::array<uint32_t, kWarpSize> received{};  // bits each lane got back
  std::vector<LaneMove> moves;    // shuffles: one per lane in `lanes`, ascending dst
  bool consistent = true;         // shuffles: every lane's source lane executed the shuffle and
                                  // what the lane received equals what its source offered;
                                  // reduce: every result equals the op (int32: wrapping add, min,
                                  // max) over the operands of the lanes that executed it
};

// One warp-level atomic instruction: the lanes of one warp with the same (epoch, seq, kind,
// line). Lanes that target the same address are serialised by the hardware: `contention` per
// address is how many updates that address had to take in turn from this one instruction.
struct WarpAtomic {
  uint32_t epoch = 0;
  uint32_t warp = 0;
  uint32_t seq = 0;
  AccessKind kind = AccessKind::SharedAtomic;  // SharedAtomic or GlobalAtomic
  uint8_t op = 0;                 // AtomicOp (low 6 bits)
  bool float_values = false;      // the operands are float32 bits (kOpFloatBit)
  uint8_t space = 0;              // GlobalBuffer for global atomics
  uint16_t line = 0;
  uint32_t lanes = 0;
  std::vector<std::pair<uint32_t, int>> contention;  // (addr, updates from this instruction), ascending addr
  int max_contention = 0;         // largest entry of `contention`
};

// One atomic update by one lane.
struct AtomicUpdate {
  uint32_t thread = 0;
  uint32_t epoch = 0;
  uint32_t operand = 0;           // bits
  uint32_t old = 0;               // bits of the value the atomic returned
  uint8_t op = 0;                 // TraceRecord::op: AtomicOp | kOpFloatBit
  size_t instruction = 0;         // index into Replay::atomics()
};

// One address the block updated atomically, with the order in which the updates landed.
// Order: sorted by the old value each update returned (ascending for add, inc and max,
// descending for min; the returned old values reveal the order for these monotone ops when the
// operands are non-negative, which every input pattern gives); ties by epoch, then thread. Old
// values are compared as int32, or as float32 where the op has kOpFloatBit. Exch and CAS: by
// epoch, then thread (their order cannot be recovered from the old values).
// `chained` counts consecutive pairs where the later update's old value is exactly the earlier
// one's result: a pair that is not chained had updates of other blocks land between them.
struct AtomicTarget {
  AccessKind kind = AccessKind::SharedAtomic;
  uint8_t space = 0;              // GlobalBuffer for global targets
  uint32_t addr = 0;              // shared byte offset, or element index into `space`
  uint8_t op = 0;                 // TraceRecord::op of its first update: AtomicOp | kOpFloatBit
  std::vector<AtomicUpdate> order;
  int chained = 0;
};

// One warp-level global load or store (a request): 32-byte sectors touched against the fewest
// that could serve the same bytes. efficiency = requested bytes / (sectors x 32), what nvprof
// called gld_efficiency / gst_efficiency (Nsight Compute: the ratio of
// l1tex__t_requests... to l1tex__t_sectors...; CUDA C++ Best Practices Guide, "Coalesced Access
// to Global Memory"). Addresses are buffer-relative; cudaMalloc bases are 256-byte aligned.
struct GlobalRequest {
  uint32_t epoch = 0;
  uint32_t warp = 0;
  uint32_t seq = 0;
  AccessKind kind = AccessKind::GlobalLoad;  // GlobalLoad or GlobalStore
  uint8_t space = 0;              // GlobalBuffer
  uint16_t line = 0;
  uint32_t lanes = 0;
  uint32_t active_mask = 0;
  std::array<uint32_t, kWarpSize> index{};  // element index per lane
  std::array<uint32_t, kWarpSize> value{};  // bits per lane
  int sectors = 0;                // distinct 32-byte sectors touched
  int min_sectors = 0;            // ceil(distinct bytes / 32)
  int requested_bytes = 0;        // sum over the lanes of their access width (the element size, 4 or 1 for
                                  // GlobalBuffer::Bytes; 16 for an int4 load)
  double efficiency() const { return sectors ? requested_bytes / (32.0 * sectors) : 0.0; }
};

// The traced block's slice of the global buffer it reduces in place (the book track's kernels, on
// the scratch copy of the input): the buffer of its GlobalStore records with space Scratch or
// Input (Scratch if both), from the lowest to the highest element index the block loads or stores
// in that buffer. count 0: the block stores to no input or scratch buffer (it reduces in shared
// memory, registers or atomics, and stores only its result to the output).
struct GlobalSlice {
  uint8_t space = 0;       // GlobalBuffer: Scratch (2) or Input (0)
  uint32_t first = 0;      // element index of the slice's first cell
  uint32_t count = 0;      // cells kept: min(span, kMaxGlobalSliceCells)
  uint32_t span = 0;       // highest - lowest index + 1
  bool truncated = false;  // span > kMaxGlobalSliceCells: only the first kMaxGlobalSliceCells are kept
};

// What ends a step. Shuffle / WarpReduce: a step without a barrier record in which some warp
// made a shuffle or a warp reduce (each ends the recording lane's epoch); barrier_line is then
// the line of the first such instruction.
enum class StepEnd : uint8_t { BlockBarrier, WarpBarrier, KernelEnd, Shuffle, WarpReduce };
const char* to_string(StepEnd e);  // "__syncthreads()", "__syncwarp()", "end of kernel", "a warp shuffle", "a warp reduce"

// The CUDA intrinsic a shuffle, warp-reduce or atomic record stands for ("__shfl_xor_sync",
// "__reduce_add_sync", "atomicAdd"); to_string(kind) for the other kinds.
const char* intrinsic_name(AccessKind kind, uint8_t op);
// The value an atomic with TraceRecord::op `op` leaves at its address, given the old value and the
// operand (bits): int32 wrapping add, float32 add, signed min / max, atomicInc's wrap to 0. The
// record of an atomicCAS holds no compare value: its swap is assumed to have happened.
uint32_t atomic_result(uint8_t op, uint32_t old, uint32_t operand);

// One epoch of the traced block: what happened between two synchronisations.
struct Step {
  uint32_t epoch = 0;
  StepEnd ended_by = StepEnd::KernelEnd;
  uint16_t barrier_line = 0;            // line of the barrier or lane op that ends the step (0 at kernel end)
  std::vector<size_t> accesses;         // indices into Replay::accesses(), ordered by warp, then program order
  std::vector<WarpStep> warps;          // one per warp of the block
  std::vector<int32_t> smem;            // shared memory after the step, one int32 per 4-byte word; a
                                        // word a shared atomic updated holds the result of the step's
                                        // last update of it in landing order (AtomicTarget)
  std::vector<uint8_t> defined;         // 1 where smem holds a value stored by now
  std::vector<uint8_t> written;         // 1 where a lane stored this step (shared atomics included)
  std::vector<uint8_t> read;            // 1 where a lane loaded this step
  std::vector<std::pair<uint32_t, uint32_t>> flows;  // (word written, word it was computed from), this step
  std::vector<uint16_t> lines;          // source lines of this step's warp instructions, ascending
  int loads = 0, stores = 0;            // warp-level accesses
  int load_conflicts = 0, store_conflicts = 0;  // sum of BankAnalysis::conflicts()
  int max_degree = 0;                   // worst n-way conflict of the step
  // Version 3 events of this step (indices into the Replay's lists, by warp, then program order):
  std::vector<size_t> shuffles;         // Replay::shuffles()
  std::vector<size_t> atomics;          // Replay::atomics()
  std::vector<size_t> global_requests;  // Replay::global_requests()
  // The block's global slice after the step (Replay::global_slice(); cell i is element first + i;
  // empty when the slice is). A load defines a cell that was still undefined with the value it
  // loaded (what memory held, from the hardware); a store writes it.
  std::vector<int32_t> global_values;   // bits of the element
  std::vector<uint8_t> global_defined;  // 1 where the block has loaded or stored the element by now
  std::vector<uint8_t> global_written;  // 1 where a lane stored this step
  std::vector<uint8_t> global_read;     // 1 where a lane loaded this step
  std::vector<std::pair<uint32_t, uint32_t>> global_flows;  // (cell written, cell its thread loaded before), this step
  int active_warps() const;
};

// Raised when a trace is well-formed on disk but not a consistent run of one block. what() is English; said()
// says it in the window's language (tracing/said.hpp).
class ReplayError : public SaidError {
 public:
  using SaidError::SaidError;
};

class Replay {
 public:
  // Builds the replay. Throws ReplayError if the trace has no records, a record lies outside
  // the block (thread, address, epoch), or the snapshots (shared memory and the global slice)
  // would exceed kMaxSnapshotCells.
  explicit Replay(const Trace& trace);

  const TraceMeta& meta() const { return meta_; }
  size_t num_steps() const { return steps_.size(); }
  const Step& step(size_t i) const { return steps_.at(i); }
  const std::vector<Step>& steps() const { return steps_; }
  const std::vector<WarpAccess>& accesses() const { return accesses_; }
  int num_warps() const { return num_warps_; }
  size_t num_words() const { return words_; }
  int load_conflicts() const { return load_conflicts_; }    // whole block, all steps
  int store_conflicts() const { return store_conflicts_; }
  const std::vector<WarpShuffle>& shuffles() const { return shuffles_; }
  const std::vector<WarpAtomic>& atomics() const { return atomics_; }
  const std::vector<AtomicTarget>& atomic_targets() const { return targets_; }  // shared first, then global; ascending addr
  const std::vector<GlobalRequest>& global_requests() const { return global_; }
  const GlobalSlice& global_slice() const { return slice_; }
  // What the kernel did at all, so a view with nothing to show can say so in one line.
  bool has_shared() const { return !accesses_.empty(); }
  bool has_lane_work() const { return !shuffles_.empty(); }
  bool has_atomics() const { return !atomics_.empty(); }
  bool has_global() const { return !global_.empty(); }
  bool has_global_slice() const { return slice_.count != 0; }  // reduces in place in global memory
  // Per warp: the lane that holds the warp's result after its last shuffle or warp reduce (the
  // lane that makes the warp's next store or atomic, else lane 0); -1 for a warp without any.
  const std::vector<int>& result_lanes() const { return result_lanes_; }
  // Warp-level instruction counts of the whole block, for the check against Nsight Compute.
  int shuffle_instruction_count() const;  // WarpShuffle entries of kind Shuffle
  int atomic_instruction_count(AccessKind k) const;  // WarpAtomic entries of kind k
  int global_request_count(AccessKind k) const;  // GlobalRequest entries of kind k

 private:
  TraceMeta meta_;
  std::vector<Step> steps_;
  std::vector<WarpAccess> accesses_;
  int num_warps_ = 0;
  size_t words_ = 0;
  int load_conflicts_ = 0, store_conflicts_ = 0;
  std::vector<WarpShuffle> shuffles_;
  std::vector<WarpAtomic> atomics_;
  std::vector<AtomicTarget> targets_;
  std::vector<GlobalRequest> global_;
  GlobalSlice slice_;
  std::vector<int> result_lanes_;
};

// Multi-line text of one step: barrier, active warps, per-warp masks, each warp-level access
// with its source line and n-way conflict, then (version 3 events) each shuffle with its moves,
// each warp atomic with its contention and each global request with its sectors. Values are
// printed as meta().dtype, or as floats where a record's op has kOpFloatBit. `source` is the
// kernel source (may be empty).
std::string describe_step(const Replay& replay, size_t step, const std::string& source);

// Line `line` (1-based) of `source`, trimmed; empty if out of range.
std::string source_line(const std::string& source, int line);

}  // namespace rs
