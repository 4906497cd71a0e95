// ReduceScope trace records: what the tracing build of a kernel writes for one thread block.
//
// Index
//   AccessKind     what a record describes (shared/global access, barrier, shuffle, atomic, ...)
//   AtomicOp, ShuffleKind, WarpReduceOp, GlobalBuffer   the sub-kinds a record's `op` names
//   TraceRecord    one event of one thread, as written by the device-side probe (32 bytes)
//   DType          the element type of a trace's values (int32 or float32, stored as bits)
//   TraceMeta      what the trace is of: track, kernel, element type, block size, N, GPU, date
//   Trace          meta + records + the kernel source the line numbers refer to
//
// This header is plain C++ with fixed-width fields so that device code (tracing/probe.cuh)
// and host code share one definition of a record. It has no CUDA and no GL.
//
// NVRTC compiles the device-side part (the enums and TraceRecord) for a user's kernel file
// (kernels/user_kernel.hpp); the host-only parts are left out under __CUDACC_RTC__.
#pragma once

#ifdef __CUDACC_RTC__
#include <cuda/std/cstdint>
#else
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "said.hpp"
#endif

namespace rs {

// What a TraceRecord describes. Append-only: never reorder, values are stored in files.
// Kinds 0-3 exist since format version 1; kinds 4-9 since version 3.
enum class AccessKind : uint8_t {
  Load = 0,          // a shared-memory load by one lane
  Store = 1,         // a shared-memory store by one lane
  BlockBarrier = 2,  // the lane arrived at __syncthreads(); its barrier epoch ends here
  WarpBarrier = 3,   // the lane arrived at __syncwarp(); its barrier epoch ends here
  GlobalLoad = 4,    // a global-memory load by one lane: addr = element index into buffer `space`
  GlobalStore = 5,   // a global-memory store by one lane: addr = element index into buffer `space`
  Shuffle = 6,       // __shfl*_sync, recorded by the receiving lane; its epoch ends here (a warp sync)
  WarpReduce = 7,    // __reduce_*_sync (sm_80+), recorded by each participating lane; ends its epoch
  SharedAtomic = 8,  // atomicXxx / atomicXxx_block on shared memory: addr = byte offset
  GlobalAtomic = 9,  // atomicXxx on global memory: addr = element index into buffer `space`
};
inline constexpr uint8_t kMaxAccessKind = 9;
#ifndef __CUDACC_RTC__  // host functions (NVRTC compiles device code only)
const char* to_string(AccessKind k);  // "load", "global atomic", "__syncthreads", ...
#endif

// TraceRecord::op for atomics (low 6 bits). Append-only.
enum class AtomicOp : uint8_t { Add = 0, Min = 1, Max = 2, Inc = 3, Exch = 4, Cas = 5 };
// TraceRecord::op for shuffles (low 6 bits). Append-only.
enum class ShuffleKind : uint8_t { Idx = 0, Up = 1, Down = 2, Xor = 3 };  // __shfl_sync, _up, _down, _xor
// TraceRecord::op for warp-reduce intrinsics (low 6 bits). Append-only.
enum class WarpReduceOp : uint8_t { Add = 0, Min = 1, Max = 2 };  // __reduce_add_sync, _min, _max
// TraceRecord::space for global accesses and atomics: which kernel argument the index is into.
// Append-only.
enum class GlobalBuffer : uint8_t {
  Input = 0,   // the kernel's input array (g_idata, pData): element i = input[i]
  Output = 1,  // its output: the per-block partial sums, or the single global accumulator
  Scratch = 2, // a copy of the input, padded with zeros to whole blocks, that an in-place kernel
               // (the book track) loads and stores; at most kMaxElementsPerThread x block size x grid
  Bytes = 3,   // the input read as bytes (the course track's histograms): element i = byte i, 1 byte wide
};
inline constexpr uint8_t kMaxGlobalBuffer = 3;
#ifndef __CUDACC_RTC__  // host functions (NVRTC compiles device code only)
// Bytes per element of a global buffer: 1 for Bytes, 4 for the others.
inline constexpr uint32_t element_bytes(uint8_t space) { return space == 3 ? 1u : 4u; }
#endif
// Output buffer elements a trace may name: 4 words per block (farthest_point's index and point) or a
// histogram's bins (at most 256).
inline constexpr uint64_t kMinOutputElements = 256;
// Most elements one thread of any kernel loads per grid pass (the book's unrolling by 8).
inline constexpr uint32_t kMaxElementsPerThread = 8;
#ifndef __CUDACC_RTC__  // host functions (NVRTC compiles device code only)
const char* to_string(GlobalBuffer b);  // "input", "output", "scratch", "input bytes"
#endif

// Bit 7 of TraceRecord::op: the record's values are float32 bit patterns, not int32.
inline constexpr uint8_t kOpFloatBit = 0x80;
// Bit 6 of TraceRecord::op (version 4, binary traces): the tracer did not see the record's values.
// A shuffle's value, received value and member mask, an atomic's operand and old value are then 0
// (the Compute Sanitizer API reports neither), and a view says so instead of drawing them.
inline constexpr uint8_t kOpNoValues = 0x40;
inline constexpr uint8_t kOpMask = 0x3f;
// TraceRecord::lane_arg of a shuffle whose source lane the binary tracer could not work out (the
// lane offset was in a register, not an immediate of the SHFL instruction). Only with kOpNoValues.
inline constexpr uint8_t kUnknownLane = 0xff;

// One event of one thread of the traced block. 32 bytes, no padding surprises.
//
// epoch: the thread's epoch, i.e. how many synchronising operations (__syncthreads, __syncwarp,
//        a shuffle or a warp-reduce intrinsic) it had passed when the event happened. Epoch k of
//        every thread lies between the same two synchronisations, so an epoch is one step.
// seq:   index of the event among the same thread's events in that epoch (program order).
// addr:  shared load/store/atomic: byte offset into the block's dynamic shared memory;
//        global load/store/atomic: element index into buffer `space` (byte address = index x 4
//        from a 256-byte aligned cudaMalloc base); shuffle: the value this lane offered (bits);
//        warp reduce: this lane's operand (bits); 0 for barriers.
// value: the 32-bit value loaded, stored, received (shuffle), the result (warp reduce), or the
//        operand (atomics); 0 for barriers. Floats are stored as their bits.
// active_mask: __activemask() read by the lane at the event, i.e. the lanes of its warp that
//        the hardware was executing together at that point (CUDA C++ Programming Guide,
//        "Warp Vote Functions").
// thread: threadIdx.x; warp = thread / 32, lane = thread % 32.
// line:  source line, in the kernel source stored with the trace, of the statement.
// kind:  AccessKind.
// op:    (version 3) low 6 bits: AtomicOp, ShuffleKind or WarpReduceOp; bit 7 (kOpFloatBit):
//        values are float32 bits. 0 for other kinds.
// lane_arg: (version 3) shuffle: the source lane the value came from (0..31), as the CUDA
//        Programming Guide's "Warp Shuffle Functions" define it for the variant, mask and width.
// space: (version 3) shuffle and warp reduce: the width (1..32); global kinds: GlobalBuffer.
// aux:   (version 3) shuffle and warp reduce: the member mask passed to the intrinsic; atomics:
//        the old value the atomic returned (bits). 0 otherwise.
// Version 1 and 2 files have 7 reserved bytes where op, lane_arg, space and aux are; readers set
// these fields to 0 for them.
struct TraceRecord {
  uint32_t epoch;
  uint32_t seq;
  uint32_t addr;
  int32_t value;
  uint32_t active_mask;
  uint16_t thread;
  uint16_t line;
  uint8_t kind;  // AccessKind
  uint8_t op;
  uint8_t lane_arg;
  uint8_t space;
  uint32_t aux;
};
static_assert(sizeof(TraceRecord) == 32, "TraceRecord is a 32-byte on-disk and on-device record");

// The element type of a kernel's values. Append-only (stored in files).
enum class DType : uint8_t { Int32 = 0, Float32 = 1 };
#ifndef __CUDACC_RTC__  // host functions (NVRTC compiles device code only)
const char* to_string(DType t);  // "int32", "float32"
#endif

// Which tracer recorded a trace (version 4; older files: SourceProbe). Append-only.
//   SourceProbe: the tracing build of the kernel's source (tracing/probe.cuh's wrappers), which sees
//                shuffle values and each atomic's operand and old value.
//   Binary:      the Compute Sanitizer patching API on the kernel as compiled (tracing/binary/), which
//                sees any kernel but not those values (docs/binary-trace.md).
enum class Tracer : uint8_t { SourceProbe = 0, Binary = 1 };
#ifndef __CUDACC_RTC__
const char* to_string(Tracer t);  // "the source probe", "the binary backend"
#endif

#ifndef __CUDACC_RTC__  // host only from here on: strings, vectors, memcpy
inline float bits_to_float(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}
inline uint32_t float_to_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}
// A 32-bit value for people: "-12" for int32; a float32 in 9 significant digits (%.9g, enough to read the same
// bits back: "0.100000001" for 0.1f). The page and Predict mode print the shortest such form instead.
std::string format_value(uint32_t bits, DType t);

// What the trace is of. Strings are free text; numbers carry their unit in the name.
struct TraceMeta {
  std::string kernel;            // the source's kernel name, e.g. "reduce1"
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
  int32_t result = 0;            // the reduction's final value (int32 wrapped, or float32 bits)
  // Version 3 (older files read as track "harris", int32):
  std::string track = "harris";  // track id, e.g. "lecture"
  DType dtype = DType::Int32;    // element type of the input, result and recorded values
  // Version 4 (older files read as the source probe's, with these empty):
  Tracer tracer = Tracer::SourceProbe;
  uint64_t output_elements = 0;  // elements of the output buffer (GlobalBuffer::Output); 0: the rule of
                                 // record_problem() (max(4 x grid_size, 256)). A binary trace names the
                                 // program's own allocation, whatever its size.
  std::string notes;             // what the tracer could not see or left out, one sentence a line
                                 // (binary traces: "global accesses to 3 other allocations are not shown")
  // Version 5 (older files read as 0):
  uint32_t launch = 0;           // which launch of the kernel was traced, 1-based among the launches whose name
                                 // matched (`trace --launch K -- PROGRAM`); 0: the first launch of the reduction
                                 // (traced_block and grid_size are then of the first launch)
};

// Largest epoch a trace may hold; a reduction of a 1024-thread block has about 20.
inline constexpr uint32_t kMaxEpoch = 4096;

// Why `r` cannot belong to a block described by `m` (unknown kind, thread outside the block,
// shared address outside shared memory or not 4-byte aligned, global index outside its buffer,
// shuffle source lane or width impossible, implausible epoch), or an empty Said if it can. The file reader
// and the replay model both check records with it.
Said record_problem(const TraceMeta& m, const TraceRecord& r);

struct Trace {
  TraceMeta meta;
  std::string source;                // text of the kernel source file that `line` refers to
  std::vector<TraceRecord> records;  // in arbitrary order across threads
};
#endif  // __CUDACC_RTC__

}  // namespace rs
