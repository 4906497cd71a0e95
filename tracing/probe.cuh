// Device-side capture: the probe policies and the memory wrappers the kernels use.
//
// Index
//   NullProbe      timing build: every hook is empty or exactly the CUDA intrinsic
//   TraceProbe     tracing build: records every event of one block (see AccessKind)
//   Acc<T>         the type a running sum is kept in (unsigned for int: wraps like the CPU)
//   SharedArray    `sdata[i]` with unchanged syntax; reports each access to the probe
//   GlobalArray    `pData[i]` on a global buffer: records loads and stores (element index)
//   GlobalVar      a one-element global buffer used as a scalar (`dev_sum`)
//   AtomicPtr, atomicAdd(), atomicAdd_block(), atomicInc()   `atomicAdd(&dev_sum, x)` with unchanged syntax
//   GlobalArray::load4   a 16-byte vector load (int4, float4)
//   GlobalArray::load16  16 bytes of a byte buffer in one load (uint4)
//   Shuffles       probe.shfl<ShuffleKind>: what the kernel files' __shfl*_sync macros call
//   Warp reduce    probe.reduce<WarpReduceOp>: __reduce_*_sync (sm_80+)
//
// One kernel source, two builds (docs/architecture.md): kernels take a `Probe` template
// parameter. With NullProbe, SharedArray::Ref compiles to a plain shared-memory access, so
// the timing build is the kernel as the slides wrote it. With TraceProbe, each access also
// writes a TraceRecord (tracing/trace_format.hpp) when blockIdx.x is the traced block.
//
// NVRTC (a user's kernel file, kernels/user_kernel.hpp) compiles this header too, from a copy embedded
// in the binary: there (__CUDACC_RTC__) the standard library is CCCL's libcu++ (<cuda/std/...>, the
// toolkit's include/cccl), and the few std names below are taken from cuda::std. nvcc and the host
// compiler see exactly the standard headers.
#pragma once

#ifdef __CUDACC_RTC__
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>
namespace std {
using cuda::std::conditional_t;
using cuda::std::is_const_v;
using cuda::std::is_integral_v;
using cuda::std::is_same_v;
using cuda::std::remove_const_t;
}  // namespace std
#else
#include <cstdint>
#include <type_traits>
#endif

#include "trace_format.hpp"

// A kernel file ends with its track's kernel list for the host dispatch; only translation units
// that include kernels/dispatch.cuh first (kernels/track_*.cu) expand it.
#ifndef RS_TRACK_KERNELS
#define RS_TRACK_KERNELS(...)
#endif

namespace rs {

// The bits of a 32-bit value, as records store them.
template <class T>
__device__ __forceinline__ uint32_t to_bits(T v) {
  static_assert(sizeof(T) == 4 || (std::is_integral_v<T> && sizeof(T) < 4),
                "records hold 32-bit values (narrower integers, the histograms' bytes, are widened)");
  if constexpr (std::is_same_v<T, float>) {
    return __float_as_uint(v);
  } else {
    return static_cast<uint32_t>(v);
  }
}
// TraceRecord::op's float bit for values of type T.
template <class T>
__device__ __forceinline__ constexpr uint8_t float_bit() {
  return std::is_same_v<T, float> ? kOpFloatBit : 0;
}

// A running sum of T: unsigned int for int (signed overflow is undefined in C++, unsigned wraps
// with the same bits as the CPU reference), T itself for float.
template <class T>
using Acc = std::conditional_t<std::is_integral_v<T>, unsigned int, T>;

// a + b as the CPU reference computes it: two's-complement wrap-around for integers (signed
// overflow is undefined in C++; unsigned overflow wraps with the same bits), plain + for floats.
template <class T>
__device__ __forceinline__ T add_wrapping(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
  } else {
    return a + b;
  }
}

template <class T>
struct NoDeduce {
  using type = T;
};

// The source lane a shuffle reads, per the CUDA C++ Programming Guide, "Warp Shuffle Functions":
// lanes are split into groups of `width`; __shfl_sync reads lane srcLane % width of the group;
// _up and _down return the caller's own value when the source falls outside its group; _xor may
// read earlier groups but gets its own value for a later one.
__device__ __forceinline__ uint32_t shuffle_source(ShuffleKind k, uint32_t lane, uint32_t arg, uint32_t width) {
  const uint32_t start = lane & ~(width - 1);
  switch (k) {
    case ShuffleKind::Idx: return start + (arg & (width - 1));
    case ShuffleKind::Up: return (lane >= start + arg) ? lane - arg : lane;
    case ShuffleKind::Down: return (lane + arg < start + width) ? lane + arg : lane;
    case ShuffleKind::Xor: return ((lane ^ arg) < start + width) ? (lane ^ arg) : lane;
  }
  return lane;
}

template <ShuffleKind K, class V>
__device__ __forceinline__ V shuffle_intrinsic(uint32_t mask, V var, uint32_t arg, int width) {
  if constexpr (K == ShuffleKind::Idx) return __shfl_sync(mask, var, static_cast<int>(arg), width);
  if constexpr (K == ShuffleKind::Up) return __shfl_up_sync(mask, var, arg, width);
  if constexpr (K == ShuffleKind::Down) return __shfl_down_sync(mask, var, arg, width);
  if constexpr (K == ShuffleKind::Xor) return __shfl_xor_sync(mask, var, static_cast<int>(arg), width);
}

// __reduce_add_sync / _min_sync / _max_sync (compute capability 8.0 and later; CUDA C++ Programming
// Guide, "Warp Reduce Functions"). V is int or unsigned int. Kernels that use them need sm_80: the
// registry must not offer them on older GPUs, where this traps.
template <WarpReduceOp Op, class V>
__device__ __forceinline__ V warp_reduce_intrinsic(uint32_t mask, V v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (Op == WarpReduceOp::Add) return __reduce_add_sync(mask, v);
  if constexpr (Op == WarpReduceOp::Min) return __reduce_min_sync(mask, v);
  if constexpr (Op == WarpReduceOp::Max) return __reduce_max_sync(mask, v);
#else
  (void)mask;
  __trap();
  return v;
#endif
}

template <class T>
__device__ __forceinline__ T atomic_intrinsic(AtomicOp op, bool block_scope, T* p, T v) {
  // Only the ops the kernels use so far; each is exactly the CUDA intrinsic.
  if (op == AtomicOp::Add) return block_scope ? ::atomicAdd_block(p, v) : ::atomicAdd(p, v);
  if constexpr (std::is_same_v<T, unsigned int>) {
    if (op == AtomicOp::Inc) return block_scope ? ::atomicInc_block(p, v) : ::atomicInc(p, v);
  }
  return T{};
}

// The 16-byte vector type of 4 elements of T (int4, uint4, float4), for vectorised loads.
template <class T>
struct Vec4Of;
template <>
struct Vec4Of<int> {
  using type = int4;
};
template <>
struct Vec4Of<unsigned int> {
  using type = uint4;
};
template <>
struct Vec4Of<float> {
  using type = float4;
};

// Timing build. Every hook is empty, or exactly the intrinsic it stands for.
struct NullProbe {
  __device__ __forceinline__ void access(AccessKind, uint32_t, uint32_t, uint32_t) {}
  __device__ __forceinline__ void global_access(AccessKind, uint8_t, uint32_t, uint32_t, uint32_t, uint8_t = 0) {}
  __device__ __forceinline__ void block_barrier(uint32_t) { __syncthreads(); }
  __device__ __forceinline__ int block_barrier_or(uint32_t, int predicate) { return __syncthreads_or(predicate); }
  __device__ __forceinline__ int block_barrier_and(uint32_t, int predicate) { return __syncthreads_and(predicate); }
  __device__ __forceinline__ int block_barrier_count(uint32_t, int predicate) { return __syncthreads_count(predicate); }
  __device__ __forceinline__ void warp_barrier(uint32_t) { __syncwarp(); }
  template <ShuffleKind K, class V>
  __device__ __forceinline__ V shfl(uint32_t, uint32_t mask, V var, uint32_t arg, int width = 32) {
    return shuffle_intrinsic<K>(mask, var, arg, width);
  }
  template <class T>
  __device__ __forceinline__ T atomic(AccessKind, AtomicOp op, bool block_scope, uint8_t, uint32_t, T* p, T v,
                                      uint32_t) {
    return atomic_intrinsic(op, block_scope, p, v);
  }
  template <WarpReduceOp Op, class V>
  __device__ __forceinline__ V reduce(uint32_t, uint32_t mask, V v) {
    return warp_reduce_intrinsic<Op>(mask, v);
  }
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

  __device__ void record(AccessKind kind, uint32_t addr, uint32_t value, uint32_t line, uint8_t op = 0,
                         uint8_t lane_arg = 0, uint8_t space = 0, uint32_t aux = 0) {
    const uint32_t mask = __activemask();  // read first: lanes executing this access together
    const uint32_t slot = ::atomicAdd(count, 1u);
    if (slot < capacity) {
      TraceRecord r{};
      r.epoch = epoch;
      r.seq = seq;
      r.addr = addr;
      r.value = static_cast<int32_t>(value);
      r.active_mask = mask;
      r.thread = static_cast<uint16_t>(threadIdx.x);
      r.line = static_cast<uint16_t>(line);
      r.kind = static_cast<uint8_t>(kind);
      r.op = op;
      r.lane_arg = lane_arg;
      r.space = space;
      r.aux = aux;
      records[slot] = r;
    }
  }
  __device__ __forceinline__ void access(AccessKind kind, uint32_t addr, uint32_t value, uint32_t line) {
    if (on()) record(kind, addr, value, line);
    ++seq;
  }
  // `width`: bytes per lane of a vector access (16 for int4), 0 for one element of the buffer.
  __device__ __forceinline__ void global_access(AccessKind kind, uint8_t space, uint32_t index, uint32_t value,
                                                uint32_t line, uint8_t width = 0) {
    if (on()) record(kind, index, value, line, 0, width, space);
    ++seq;
  }
  // A shuffle synchronises the lanes in `mask`, so it ends the recording lane's epoch.
  template <ShuffleKind K, class V>
  __device__ __forceinline__ V shfl(uint32_t line, uint32_t mask, V var, uint32_t arg, int width = 32) {
    V got = shuffle_intrinsic<K>(mask, var, arg, width);
    if (on()) {
      const uint32_t src = shuffle_source(K, threadIdx.x % 32u, arg, static_cast<uint32_t>(width));
      record(AccessKind::Shuffle, to_bits(var), to_bits(got), line,
             static_cast<uint8_t>(static_cast<uint8_t>(K) | float_bit<V>()), static_cast<uint8_t>(src),
             static_cast<uint8_t>(width), mask);
    }
    ++epoch;
    seq = 0;
    return got;
  }
  // A warp-reduce intrinsic synchronises the lanes in `mask`: it ends the recording lane's epoch.
  template <WarpReduceOp Op, class V>
  __device__ __forceinline__ V reduce(uint32_t line, uint32_t mask, V v) {
    V got = warp_reduce_intrinsic<Op>(mask, v);
    if (on()) record(AccessKind::WarpReduce, to_bits(v), to_bits(got), line, static_cast<uint8_t>(Op), 0, 32, mask);
    ++epoch;
    seq = 0;
    return got;
  }
  template <class T>
  __device__ __forceinline__ T atomic(AccessKind kind, AtomicOp op, bool block_scope, uint8_t space, uint32_t addr,
                                      T* p, T v, uint32_t line) {
    T old = atomic_intrinsic(op, block_scope, p, v);
    if (on()) {
      record(kind, addr, to_bits(v), line, static_cast<uint8_t>(static_cast<uint8_t>(op) | float_bit<T>()), 0, space,
             to_bits(old));
    }
    ++seq;
    return old;
  }
  __device__ __forceinline__ void block_barrier(uint32_t line) {
    if (on()) record(AccessKind::BlockBarrier, 0, 0, line);
    __syncthreads();
    ++epoch;
    seq = 0;
  }
  // __syncthreads_or / _and / _count(predicate): block barriers that also return whether any thread's
  // predicate held, whether all did, or how many did. Recorded as block barriers.
  template <class Sync>
  __device__ __forceinline__ int block_barrier_with(uint32_t line, Sync sync) {
    if (on()) record(AccessKind::BlockBarrier, 0, 0, line);
    const int got = sync();
    ++epoch;
    seq = 0;
    return got;
  }
  __device__ __forceinline__ int block_barrier_or(uint32_t line, int predicate) {
    return block_barrier_with(line, [predicate] { return __syncthreads_or(predicate); });
  }
  __device__ __forceinline__ int block_barrier_and(uint32_t line, int predicate) {
    return block_barrier_with(line, [predicate] { return __syncthreads_and(predicate); });
  }
  __device__ __forceinline__ int block_barrier_count(uint32_t line, int predicate) {
    return block_barrier_with(line, [predicate] { return __syncthreads_count(predicate); });
  }
  __device__ __forceinline__ void warp_barrier(uint32_t line) {
    if (on()) record(AccessKind::WarpBarrier, 0, 0, line);
    __syncwarp();
    ++epoch;
    seq = 0;
  }
};

// A pointer for the atomic wrappers: where, in which memory, and the address a record names.
template <class T, class Probe>
struct AtomicPtr {
  T* p;
  AccessKind kind;  // SharedAtomic or GlobalAtomic
  uint8_t space;    // GlobalBuffer (global atomics)
  uint32_t addr;    // shared byte offset, or element index into `space`
  Probe* probe;
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
      probe_.access(AccessKind::Load, addr_, to_bits(v), line_);
      return v;
    }
    __device__ __forceinline__ Ref& operator=(T v) {
      *p_ = v;
      probe_.access(AccessKind::Store, addr_, to_bits(v), line_);
      return *this;
    }
    __device__ __forceinline__ Ref& operator=(const Ref& other) { return *this = static_cast<T>(other); }
    // `&s_sum[0]`: the address for atomicAdd_block / atomicAdd on shared memory.
    __device__ __forceinline__ AtomicPtr<T, Probe> operator&() {
      return {p_, AccessKind::SharedAtomic, 0, addr_, &probe_};
    }
    // `sdata[tid] += x`: a load, then a store (integers wrap, as the CPU reference computes them).
    __device__ __forceinline__ Ref& operator+=(T v) { return *this = add_wrapping(static_cast<T>(*this), v); }

   private:
    T* p_;
    uint32_t addr_;
    uint32_t line_;
    Probe& probe_;
  };

  __device__ __forceinline__ explicit SharedArray(Probe& probe)
      : data_(reinterpret_cast<T*>(dynamic_smem())), probe_(probe) {}
  __device__ __forceinline__ T* data() const { return data_; }
  __device__ __forceinline__ Probe& probe() const { return probe_; }

  __device__ __forceinline__ Ref operator[](Index idx) {
    return Ref(data_ + idx.i, idx.i * static_cast<uint32_t>(sizeof(T)), idx.line, probe_);
  }
  __device__ __forceinline__ void barrier(uint32_t line = __builtin_LINE()) { probe_.block_barrier(line); }
  __device__ __forceinline__ void warp_barrier(uint32_t line = __builtin_LINE()) { probe_.warp_barrier(line); }

 private:
  T* data_;
  Probe& probe_;
};

// A global buffer with `pData[i]` syntax. const T: the kernel's input (GlobalBuffer::Input), loads
// only; T: its output (GlobalBuffer::Output); or the buffer named by Space (the book's in-place
// kernels work on GlobalBuffer::Scratch). Records carry the element index into the buffer.
template <class T, class Probe,
          GlobalBuffer Space = std::is_const_v<T> ? GlobalBuffer::Input : GlobalBuffer::Output>
class GlobalArray {
  using V = std::remove_const_t<T>;
  static constexpr uint8_t kSpace = static_cast<uint8_t>(Space);

 public:
  using Index = typename SharedArray<V, Probe>::Index;
  class Ref {
   public:
    __device__ __forceinline__ Ref(T* p, uint32_t i, uint32_t line, Probe& probe)
        : p_(p), i_(i), line_(line), probe_(probe) {}
    __device__ __forceinline__ operator V() const {
      V v = *p_;
      probe_.global_access(AccessKind::GlobalLoad, kSpace, i_, to_bits(v), line_);
      return v;
    }
    __device__ __forceinline__ Ref& operator=(V v) {
      static_assert(!std::is_const_v<T>, "the input buffer is read-only");
      *p_ = v;
      probe_.global_access(AccessKind::GlobalStore, kSpace, i_, to_bits(v), line_);
      return *this;
    }
    __device__ __forceinline__ Ref& operator=(const Ref& other) { return *this = static_cast<V>(other); }
    // In place, `idata[tid] += idata[tid + stride]`: a load, then a store (integers wrap).
    __device__ __forceinline__ Ref& operator+=(V v) { return *this = add_wrapping(static_cast<V>(*this), v); }
    __device__ __forceinline__ AtomicPtr<V, Probe> operator&() {
      return {const_cast<V*>(p_), AccessKind::GlobalAtomic, kSpace, i_, &probe_};
    }

   private:
    T* p_;
    uint32_t i_;
    uint32_t line_;
    Probe& probe_;
  };
  // `base`: the element index of p within its buffer (see operator+).
  __device__ __forceinline__ GlobalArray(T* p, Probe& probe, uint32_t base = 0) : p_(p), probe_(probe), base_(base) {}
  // Element i loaded with __ldcg (cached in L2 only, not L1): values other blocks of the same launch
  // wrote and published with __threadfence() (the single-pass reductions' partials).
  __device__ __forceinline__ V load_cg(uint32_t i, uint32_t line = __builtin_LINE()) const {
    const V v = __ldcg(p_ + i);
    probe_.global_access(AccessKind::GlobalLoad, kSpace, base_ + i, to_bits(v), line);
    return v;
  }
  // Elements 4v .. 4v+3 in one 16-byte load (int4, float4): one record per lane, at the first element's
  // index, with the first element's value and width 16. p_ must be 16-byte aligned (cudaMalloc is).
  template <class W = V>  // a template, so that buffers of bytes (no 4-vector type) still compile
  __device__ __forceinline__ typename Vec4Of<W>::type load4(uint32_t v, uint32_t line = __builtin_LINE()) const {
    using Vec = typename Vec4Of<W>::type;
    const Vec x = reinterpret_cast<const Vec*>(p_)[v];
    probe_.global_access(AccessKind::GlobalLoad, kSpace, base_ + 4 * v, to_bits(x.x), line, 16);
    return x;
  }
  // Bytes 16v .. 16v+15 of a byte buffer in one 16-byte load (as uint4): one record per lane, at the first
  // byte's index, with its first 4 bytes as the value and width 16. p_ must be 16-byte aligned (cudaMalloc is).
  __device__ __forceinline__ uint4 load16(uint32_t v, uint32_t line = __builtin_LINE()) const {
    static_assert(sizeof(V) == 1, "load16 reads a byte buffer");
    const uint4 x = reinterpret_cast<const uint4*>(p_)[v];
    probe_.global_access(AccessKind::GlobalLoad, kSpace, base_ + 16 * v, x.x, line, 16);
    return x;
  }
  __device__ __forceinline__ Ref operator[](Index idx) const {
    return Ref(p_ + idx.i, base_ + idx.i, idx.line, probe_);
  }
  // `g_idata + blockIdx.x * blockDim.x`: the same buffer from element `offset` on, as the book's
  // `int *idata = g_idata + ...`; records still name the index into the whole buffer.
  // The slice's address is formed as an integer: written as `p_ + offset`, nvcc folds the offset
  // into every later access (a 64-bit add per access instead of one IMAD.WIDE for the slice), which
  // made reduceInterleaved 4% slower than the book's own code on the H100 (docs/tracks.md).
  __device__ __forceinline__ GlobalArray operator+(uint32_t offset) const {
    const uintptr_t slice = reinterpret_cast<uintptr_t>(p_) + static_cast<uintptr_t>(offset) * sizeof(T);
    return GlobalArray(reinterpret_cast<T*>(slice), probe_, base_ + offset);
  }

 private:
  T* p_;
  Probe& probe_;
  uint32_t base_;
};

// A one-element global buffer used as a scalar, e.g. the note's `__device__ float dev_sum`
// (here a buffer the host zeroes before the launch): `atomicAdd(&dev_sum, x)`.
template <class T, class Probe>
class GlobalVar {
 public:
  __device__ __forceinline__ GlobalVar(T* p, Probe& probe) : p_(p), probe_(probe) {}
  __device__ __forceinline__ AtomicPtr<T, Probe> operator&() {
    return {p_, AccessKind::GlobalAtomic, static_cast<uint8_t>(GlobalBuffer::Output), 0, &probe_};
  }

 private:
  T* p_;
  Probe& probe_;
};

// atomicAdd / atomicAdd_block on the wrappers' addresses: exactly the intrinsic in the timing
// build; the tracing build also records the operand and the old value returned.
template <class T, class Probe>
__device__ __forceinline__ T atomicAdd(AtomicPtr<T, Probe> a, typename NoDeduce<T>::type v,
                                       uint32_t line = __builtin_LINE()) {
  return a.probe->atomic(a.kind, AtomicOp::Add, false, a.space, a.addr, a.p, v, line);
}
template <class T, class Probe>
__device__ __forceinline__ T atomicAdd_block(AtomicPtr<T, Probe> a, typename NoDeduce<T>::type v,
                                             uint32_t line = __builtin_LINE()) {
  return a.probe->atomic(a.kind, AtomicOp::Add, true, a.space, a.addr, a.p, v, line);
}
// atomicInc(&counter, limit): old >= limit ? 0 : old + 1 (the last-block ticket of a single-pass reduction).
template <class Probe>
__device__ __forceinline__ unsigned int atomicInc(AtomicPtr<unsigned int, Probe> a, unsigned int limit,
                                                  uint32_t line = __builtin_LINE()) {
  return a.probe->atomic(a.kind, AtomicOp::Inc, false, a.space, a.addr, a.p, limit, line);
}

}  // namespace rs
