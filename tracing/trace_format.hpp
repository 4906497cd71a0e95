// ReduceScope trace records: what the tracing build of a kernel writes for one thread block.
//
// Index
//   AccessKind     what a record describes (shared load, shared store, barrier)
//   TraceRecord    one event of one thread, as written by the device-side probe (32 bytes)
//   TraceMeta      what the trace is of: kernel, block size, N, GPU, date
//   Trace          meta + records + the kernel source the line numbers refer to
//
// This header is plain C++ with fixed-width fields so that device code (tracing/probe.cuh)
// and host code share one definition of a record. It has no CUDA and no GL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rs {

// What a TraceRecord describes. Append-only: never reorder, values are stored in files.
enum class AccessKind : uint8_t {
  Load = 0,         // a shared-memory load by one lane
  Store = 1,        // a shared-memory store by one lane
  BlockBarrier = 2, // the lane arrived at __syncthreads(); its barrier epoch ends here
  WarpBarrier = 3,  // the lane arrived at __syncwarp(); its barrier epoch ends here
};

const char* to_string(AccessKind k);

// One event of one thread of the traced block. 32 bytes, no padding surprises.
//
// epoch: the thread's barrier epoch, i.e. how many barriers (__syncthreads or __syncwarp)
//        it had passed when the event happened. Epoch k of every thread lies between the
//        same two barriers, so an epoch is one step of the reduction tree.
// seq:   index of the event among the same thread's events in that epoch (program order).
// addr:  byte offset into the block's dynamic shared memory (loads and stores; 0 for barriers).
// value: the 32-bit value loaded or stored (0 for barriers).
// active_mask: __activemask() read by the lane at the event, i.e. the lanes of its warp that
//        the hardware was executing together at that point (CUDA C++ Programming Guide,
//        "Warp Vote Functions").
// thread: threadIdx.x; warp = thread / 32, lane = thread % 32.
// line:  source line in kernels/reduce_kernels.cuh of the statement that made the access.
struct TraceRecord {
  uint32_t epoch;
  uint32_t seq;
  uint32_t addr;
  int32_t value;
  uint32_t active_mask;
  uint16_t thread;
  uint16_t line;
  uint8_t kind;  // AccessKind
  uint8_t reserved[7];
};
static_assert(sizeof(TraceRecord) == 32, "TraceRecord is a 32-byte on-disk and on-device record");

// What the trace is of. Strings are free text; numbers carry their unit in the name.
struct TraceMeta {
  std::string kernel;            // slide name, e.g. "reduce1"
  uint32_t block_size = 0;       // threads per block
  uint64_t n = 0;                // elements reduced by the whole (multi-launch) reduction
  uint32_t traced_block = 0;     // blockIdx.x of the traced block in the first launch
  uint32_t grid_size = 0;        // blocks in the first launch
  uint32_t smem_bytes = 0;       // dynamic shared memory of the traced block, bytes
  std::string pattern;           // input data pattern: "ones", "random", "iota"
  std::string gpu;               // device name, e.g. "NVIDIA H100 80GB HBM3"
  std::string compute_capability;// e.g. "9.0"
  std::string cuda_version;      // runtime version, e.g. "13.0"
  std::string date;              // UTC, ISO 8601
  std::string tool_version;      // ReduceScope version that recorded it
  int32_t result = 0;            // the reduction's final sum (int32, wrapped)
};

// Largest barrier epoch a trace may hold; a reduction of a 1024-thread block has about 20.
inline constexpr uint32_t kMaxEpoch = 4096;

// Why `r` cannot belong to a block described by `m` (unknown kind, thread outside the block,
// address outside shared memory or not 4-byte aligned, implausible epoch), or "" if it can.
// The file reader and the replay model both check records with it.
std::string record_problem(const TraceMeta& m, const TraceRecord& r);

struct Trace {
  TraceMeta meta;
  std::string source;                // text of the kernel source file that `line` refers to
  std::vector<TraceRecord> records;  // in arbitrary order across threads
};

}  // namespace rs
