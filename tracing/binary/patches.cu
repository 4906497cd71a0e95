// The binary tracer's device callbacks (Compute Sanitizer patching API, sanitizer_patching.h).
// Compiled to a patch module (nvcc --fatbin -Xptxas --compile-as-tools-patch) that the injector
// loads with sanitizerAddPatchesFromFile; the API calls these functions from every patched
// instruction of an unmodified kernel. Each one checks its filter (tracing on for this launch,
// this is the traced block), takes a slot with one atomicAdd and writes an Event. Nothing else
// runs on the device.
#include <sanitizer_patching.h>

#include "capture_format.hpp"

using rs::bt::Control;
using rs::bt::Event;

namespace {

__device__ __forceinline__ bool traced_block(const Control* c) {
  return c && c->enabled && blockIdx.x == c->block_x && blockIdx.y == c->block_y && blockIdx.z == c->block_z;
}

__device__ __forceinline__ uint32_t flat_thread() {
  return threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
}

// Takes the next slot and fills the fields every kind has; nullptr when the buffer is full.
__device__ __forceinline__ Event* take(Control* c, uint64_t pc, uint8_t kind) {
  const uint32_t mask = __activemask();
  const uint32_t slot = atomicAdd(&c->count, 1u);
  const uint32_t t = flat_thread();
  const uint32_t seq = c->tseq[t]++;  // only this thread touches its counter
  if (slot >= c->capacity) return nullptr;
  Event* e = &c->events[slot];
  e->pc = pc;
  e->addr = 0;
  e->value[0] = e->value[1] = e->value[2] = e->value[3] = 0;
  e->active_mask = mask;
  e->tseq = seq;
  e->thread = static_cast<uint16_t>(t);
  e->kind = kind;
  e->size = 0;
  e->flags = 0;
  return e;
}

// Copies up to 16 bytes from `p` into the event's value words. A sub-word access takes the whole
// aligned word that holds it, so the host always sees 4-byte words.
__device__ __forceinline__ void read_words(Event* e, const void* p, uint32_t size) {
  if (size >= 4) {
    const uint32_t* w = static_cast<const uint32_t*>(p);
    for (uint32_t i = 0; i < size / 4 && i < 4; ++i) e->value[i] = w[i];
  } else {
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    e->value[0] = *reinterpret_cast<const uint32_t*>(a & ~uintptr_t{3});
  }
}

// A sub-word store: the aligned word as it will be after the store (its other bytes as they are).
__device__ __forceinline__ void merge_store(Event* e, const void* p, const void* data, uint32_t size) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  uint32_t word = *reinterpret_cast<const uint32_t*>(a & ~uintptr_t{3});
  const unsigned char* src = static_cast<const unsigned char*>(data);
  const uint32_t shift = static_cast<uint32_t>(a & 3u) * 8u;
  for (uint32_t i = 0; i < size; ++i) {
    word &= ~(0xffu << (shift + 8u * i));
    word |= uint32_t{src[i]} << (shift + 8u * i);
  }
  e->value[0] = word;
}

__device__ __forceinline__ void record_access(Control* c, uint64_t pc, uint8_t kind, uint64_t addr,
                                              const void* readable, uint32_t size, uint32_t flags,
                                              const void* pData) {
  Event* e = take(c, pc, kind);
  if (!e) return;
  e->addr = addr;
  e->size = static_cast<uint8_t>(size);
  e->flags = flags;
  const bool write = (flags & rs::bt::kFlagWrite) != 0;
  if (write && pData) {
    if (size >= 4) {
      read_words(e, pData, size);
    } else {
      merge_store(e, readable, pData, size);
    }
  } else {
    read_words(e, readable, size);  // a load or an atomic: memory just before the instruction
  }
}

}  // namespace

extern "C" __device__ __noinline__ SanitizerPatchResult rs_bt_global(void* userdata, uint64_t pc, void* ptr,
                                                                     uint32_t accessSize, uint32_t flags,
                                                                     const void* pData) {
  Control* c = static_cast<Control*>(userdata);
  if (!traced_block(c)) return SANITIZER_PATCH_SUCCESS;
  // A generic load or store (LD/ST, not LDS/STS) whose address is in the block's shared window: shared memory
  // reached through a plain pointer (`extern __shared__ int s[]` passed to a function as int*, the pitfalls'
  // warpReduce). Recorded as a shared access at its offset in the window, as rs_bt_shared records LDS/STS.
  if (__isShared(ptr)) {
    const uint64_t offset = static_cast<uint64_t>(__cvta_generic_to_shared(ptr));
    record_access(c, pc, rs::bt::kEvShared, offset, ptr, accessSize, flags, pData);
    return SANITIZER_PATCH_SUCCESS;
  }
  record_access(c, pc, rs::bt::kEvGlobal, reinterpret_cast<uint64_t>(ptr), ptr, accessSize, flags, pData);
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult rs_bt_shared(void* userdata, uint64_t pc, void* ptr,
                                                                     uint32_t accessSize, uint32_t flags,
                                                                     const void* pData) {
  Control* c = static_cast<Control*>(userdata);
  if (!traced_block(c)) return SANITIZER_PATCH_SUCCESS;
  // ptr is an offset in the shared window: make it a generic address to read the value.
  const uint64_t offset = reinterpret_cast<uint64_t>(ptr);
  const void* generic = __cvta_shared_to_generic(static_cast<size_t>(offset));
  record_access(c, pc, rs::bt::kEvShared, offset, generic, accessSize, flags, pData);
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult rs_bt_barrier(void* userdata, uint64_t pc, uint32_t barIndex,
                                                                      uint32_t threadCount, uint32_t flags) {
  Control* c = static_cast<Control*>(userdata);
  if (!traced_block(c)) return SANITIZER_PATCH_SUCCESS;
  if (Event* e = take(c, pc, rs::bt::kEvBarrier)) {
    e->addr = barIndex;
    e->flags = threadCount;
    e->value[0] = flags;
  }
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult rs_bt_syncwarp(void* userdata, uint64_t pc, uint32_t mask) {
  Control* c = static_cast<Control*>(userdata);
  if (!traced_block(c)) return SANITIZER_PATCH_SUCCESS;
  if (Event* e = take(c, pc, rs::bt::kEvSyncwarp)) e->flags = mask;
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult rs_bt_shfl(void* userdata, uint64_t pc) {
  Control* c = static_cast<Control*>(userdata);
  if (!traced_block(c)) return SANITIZER_PATCH_SUCCESS;
  take(c, pc, rs::bt::kEvShfl);
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult rs_bt_exit(void* userdata, uint64_t pc) {
  Control* c = static_cast<Control*>(userdata);
  if (!traced_block(c)) return SANITIZER_PATCH_SUCCESS;
  take(c, pc, rs::bt::kEvExit);
  return SANITIZER_PATCH_SUCCESS;
}
