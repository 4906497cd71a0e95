// The record the binary tracer's device callbacks write and its host side reads: one struct, fixed
// size, shared by tracing/binary/patches.cu (device), tracing/binary/injector.cpp (the library
// CUDA_INJECTION64_PATH loads into the traced program) and tracing/binary/capture.cpp (the reader).
//
// Index
//   EventKind   what a callback saw (a memory access, a barrier, a __syncwarp, a shuffle, an exit)
//   Event       one callback of one thread of the traced block (48 bytes)
//   Control     the device-side state a launch's callbacks get as `userdata`
//
// Plain C++ with fixed-width fields, no CUDA headers: nvcc compiles it into the patch module,
// g++ into the injector and the reader.
#pragma once

#include <stdint.h>

namespace rs::bt {

// Append-only: stored in capture files (tests/fixtures/binary/*.rscapture).
enum EventKind : uint8_t {
  kEvGlobal = 0,    // a global-memory access (SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS)
  kEvShared = 1,    // a shared-memory access (SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS)
  kEvBarrier = 2,   // a block barrier: __syncthreads and its _or/_and/_count forms (BAR.*)
  kEvSyncwarp = 3,  // __syncwarp (WARPSYNC)
  kEvShfl = 4,      // a warp shuffle (SHFL.*); the API gives neither its values nor its lanes
  kEvExit = 5,      // the thread left the kernel (EXIT)
};

// Memory access flags, as the Compute Sanitizer API's Sanitizer_DeviceMemoryFlags
// (sanitizer_patching.h): copied so that the reader needs no NVIDIA header.
inline constexpr uint32_t kFlagRead = 0x1;
inline constexpr uint32_t kFlagWrite = 0x2;
inline constexpr uint32_t kFlagAtomSys = 0x4;

// One callback of one thread of the traced block.
//   pc:    the patched instruction's program counter (absolute; the host subtracts the
//          function's start, sanitizerGetFunctionPcAndSize, to find the SASS offset)
//   addr:  global: the generic address; shared: the offset in the block's shared window (the
//          first 1 KiB on sm_80+ is reserved by the system); 0 otherwise
//   value: a store: the bytes written, from the callback's pData (a sub-word store: the whole
//          aligned word after the store, merged in the callback); a load or an atomic: memory at
//          the address when the callback ran, which is just before the instruction executes
//   active_mask: __activemask() in the callback
//   tseq:  the thread's own event index (program order of the thread)
//   thread: the flattened threadIdx (x + y * blockDim.x + z * blockDim.x * blockDim.y)
//   size:  access size in bytes (1, 2, 4, 8, 16); 0 otherwise
//   flags: memory: Sanitizer_DeviceMemoryFlags (kFlagRead, kFlagWrite; an atomic has pData NULL
//          and is told apart on the host by its SASS opcode); barrier: the expected thread count
//          (0: all); __syncwarp: its member mask
struct Event {
  uint64_t pc;
  uint64_t addr;
  uint32_t value[4];
  uint32_t active_mask;
  uint32_t tseq;
  uint16_t thread;
  uint8_t kind;  // EventKind
  uint8_t size;
  uint32_t flags;
};
static_assert(sizeof(Event) == 48, "Event is a 48-byte device and file record");

// The state every callback of a launch reads through `userdata` (device memory). A launch that is
// not traced gets a Control with enabled = 0, so its callbacks return at once.
struct Control {
  uint32_t enabled;
  uint32_t block_x, block_y, block_z;  // the traced block
  uint32_t capacity;                   // events that fit in `events`
  uint32_t count;                      // slots taken; above capacity: events were dropped
  Event* events;
  uint32_t* tseq;                      // one counter per thread of the block
};

}  // namespace rs::bt
