// The replay model: turns a Trace of one thread block into steps a viewer can show.
//
// Index
//   Bank model      kNumBanks, kBankWidthBytes, BankAnalysis, analyze_banks()
//   WarpAccess      one warp-level shared-memory access (one instruction of one warp)
//   WarpStep        one warp during one step: active mask, useful lanes, divergence, exited
//   Step            one barrier epoch: accesses, warps, the shared-memory snapshot after it
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
  uint32_t useful = 0;       // lanes that made at least one shared-memory access this step
  uint32_t active_mask = 0;  // union of __activemask() at the warp's shared-memory accesses this step
  uint32_t exited = 0;       // lanes that have finished the kernel (no event at this or a later epoch)
  bool diverged = false;     // an access ran with fewer lanes active than the warp has live lanes
  float efficiency = 0.f;    // mean over the warp's accesses of useful lanes / 32 (warp execution efficiency); 0 if none
  bool active() const { return useful != 0; }
};

enum class StepEnd : uint8_t { BlockBarrier, WarpBarrier, KernelEnd };
const char* to_string(StepEnd e);

// One barrier epoch of the traced block.
struct Step {
  uint32_t epoch = 0;
  StepEnd ended_by = StepEnd::KernelEnd;
  uint16_t barrier_line = 0;            // line of the barrier that ends the step (0 at kernel end)
  std::vector<size_t> accesses;         // indices into Replay::accesses(), ordered by warp, then program order
  std::vector<WarpStep> warps;          // one per warp of the block
  std::vector<int32_t> smem;            // shared memory after the step, one int32 per 4-byte word
  std::vector<uint8_t> defined;         // 1 where smem holds a value stored by now
  std::vector<uint8_t> written;         // 1 where a lane stored this step
  std::vector<uint8_t> read;            // 1 where a lane loaded this step
  std::vector<std::pair<uint32_t, uint32_t>> flows;  // (word written, word it was computed from), this step
  std::vector<uint16_t> lines;          // source lines that made accesses this step, ascending
  int loads = 0, stores = 0;            // warp-level accesses
  int load_conflicts = 0, store_conflicts = 0;  // sum of BankAnalysis::conflicts()
  int max_degree = 0;                   // worst n-way conflict of the step
  int active_warps() const;
};

// Raised when a trace is well-formed on disk but not a consistent run of one block.
class ReplayError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Replay {
 public:
  // Builds the replay. Throws ReplayError if the trace has no records, a record lies outside
  // the block (thread, address, epoch), or the snapshots would exceed kMaxSnapshotCells.
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

 private:
  TraceMeta meta_;
  std::vector<Step> steps_;
  std::vector<WarpAccess> accesses_;
  int num_warps_ = 0;
  size_t words_ = 0;
  int load_conflicts_ = 0, store_conflicts_ = 0;
};

// Multi-line text of one step: barrier, active warps, per-warp masks, each warp-level access
// with its source line and n-way conflict. `source` is the kernel source (may be empty).
std::string describe_step(const Replay& replay, size_t step, const std::string& source);

// Line `line` (1-based) of `source`, trimmed; empty if out of range.
std::string source_line(const std::string& source, int line);

}  // namespace rs
