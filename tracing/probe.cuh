// Device-side capture: the probe policies and the shared-memory wrapper the kernels use.
//
// Index
//   NullProbe      timing build: every hook is empty, barriers are the plain intrinsics
//   TraceProbe     tracing build: records every shared load/store and barrier of one block
//   SharedArray    `sdata[i]` with unchanged syntax; reports each access to the probe
//
// One kernel source, two builds (docs/architecture.md): kernels take a `Probe` template
// parameter. With NullProbe, SharedArray::Ref compiles to a plain shared-memory access, so
// the timing build is the kernel as the slides wrote it. With TraceProbe, each access also
// writes a TraceRecord (tracing/trace_format.hpp) when blockIdx.x is the traced block.
#pragma once

#include <cstdint>

#include "trace_format.hpp"

namespace rs {

// Timing build. Compiles to nothing but the barriers themselves.
struct NullProbe {
  __device__ __forceinline__ void access(AccessKind, uint32_t, int, uint32_t) {}
  __device__ __forceinline__ void block_barrier(uint32_t) { __syncthreads(); }
  __device__ __forceinline__ void warp_barrier(uint32_t) { __syncwarp(); }
};

// Tracing build. The host fills the first four fields; the kernel takes the probe by value,
// so `epoch` and `seq` are per-thread state (a kernel parameter modified in the kernel is a
// private copy in each thread).
struct TraceProbe {
  TraceRecord* records;   // device buffer of `capacity` records
  uint32_t capacity;
  uint32_t* count;        // device counter; may exceed capacity (the host reports the overflow)
  uint32_t traced_block;  // blockIdx.x to record; any other block records nothing
  uint32_t epoch;         // barriers this thread has passed
  uint32_t seq;           // events of this thread in the current epoch

  __device__ __forceinline__ bool on() const { return blockIdx.x == traced_block; }

  __device__ void record(AccessKind kind, uint32_t addr, int value, uint32_t line) {
    const uint32_t mask = __activemask();  // read first: lanes executing this access together
    const uint32_t slot = atomicAdd(count, 1u);
    if (slot < capacity) {
      TraceRecord r{};
      r.epoch = epoch;
      r.seq = seq;
      r.addr = addr;
      r.value = value;
      r.active_mask = mask;
      r.thread = static_cast<uint16_t>(threadIdx.x);
      r.line = static_cast<uint16_t>(line);
      r.kind = static_cast<uint8_t>(kind);
      records[slot] = r;
    }
  }
  __device__ __forceinline__ void access(AccessKind kind, uint32_t addr, int value, uint32_t line) {
    if (on()) record(kind, addr, value, line);
    ++seq;
  }
  __device__ __forceinline__ void block_barrier(uint32_t line) {
    if (on()) record(AccessKind::BlockBarrier, 0, 0, line);
    __syncthreads();
    ++epoch;
    seq = 0;
  }
  __device__ __forceinline__ void warp_barrier(uint32_t line) {
    if (on()) record(AccessKind::WarpBarrier, 0, 0, line);
    __syncwarp();
    ++epoch;
    seq = 0;
  }
};

// The block's dynamic shared memory (the kernel's `extern __shared__ int sdata[]`).
__device__ __forceinline__ unsigned char* dynamic_smem() {
  extern __shared__ __align__(16) unsigned char rs_dynamic_smem[];
  return rs_dynamic_smem;
}

// `sdata[i]` that reports each access to the probe. The index converts implicitly from an
// unsigned int and captures the source line of the expression (__builtin_LINE() in a default
// argument is evaluated at the call site), so kernels read exactly like the slides:
//   sdata[tid] += sdata[tid + s];   // load, load, store: three records in the tracing build
template <class T, class Probe>
class SharedArray {
 public:
  struct Index {
    uint32_t i;
    uint32_t line;
    __device__ __forceinline__ Index(uint32_t i_, uint32_t line_ = __builtin_LINE()) : i(i_), line(line_) {}
  };

  class Ref {
   public:
    __device__ __forceinline__ Ref(T* p, uint32_t addr, uint32_t line, Probe& probe)
        : p_(p), addr_(addr), line_(line), probe_(probe) {}
    __device__ __forceinline__ operator T() const {
      T v = *p_;
      probe_.access(AccessKind::Load, addr_, v, line_);
      return v;
    }
    __device__ __forceinline__ Ref& operator=(T v) {
      *p_ = v;
      probe_.access(AccessKind::Store, addr_, v, line_);
      return *this;
    }
    __device__ __forceinline__ Ref& operator=(const Ref& other) { return *this = static_cast<T>(other); }
    // Two's-complement wrap-around, as the CPU reference computes it.
    __device__ __forceinline__ Ref& operator+=(T v) {
      T old = *this;
      return *this = static_cast<T>(static_cast<uint32_t>(old) + static_cast<uint32_t>(v));
    }

   private:
    T* p_;
    uint32_t addr_;
    uint32_t line_;
    Probe& probe_;
  };

  __device__ __forceinline__ explicit SharedArray(Probe& probe)
      : data_(reinterpret_cast<T*>(dynamic_smem())), probe_(probe) {}

  __device__ __forceinline__ Ref operator[](Index idx) {
    return Ref(data_ + idx.i, idx.i * static_cast<uint32_t>(sizeof(T)), idx.line, probe_);
  }
  __device__ __forceinline__ void barrier(uint32_t line = __builtin_LINE()) { probe_.block_barrier(line); }
  __device__ __forceinline__ void warp_barrier(uint32_t line = __builtin_LINE()) { probe_.warp_barrier(line); }

 private:
  T* data_;
  Probe& probe_;
};

}  // namespace rs
