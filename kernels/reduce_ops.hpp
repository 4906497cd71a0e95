// Reduction operators as policies, shared by the course track's kernels (device), the host's finish
// of their per-block partials and the CPU reference (host), so all three combine values the same way.
//
// Index
//   OpSum, OpMin, OpMax    op(a, b) and op.identity(), for T = int or float (as cub::Sum, cub::Min, cub::Max)
//   sq_norm, farther       the course note's user-defined operator: of two 3-D points, the one farther
//                          from the origin
//
// An operator can reduce in parallel when it is associative and commutative and has an identity
// value, which fills the slots past the end of the input (seeds/004, "Reduction operation"). Int
// sums wrap in two's complement, as the CPU reference computes them. Float min and max are exact,
// so the GPU's result equals the CPU's bit for bit in any order; float sums depend on the order
// (FloatReference in input.hpp). Plain C++ that nvcc also compiles for the device.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#if defined(__CUDACC__)
#define RS_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define RS_HOST_DEVICE inline
#endif

namespace rs {

// a + b; identity 0. Integers wrap.
template <class T>
struct OpSum {
  RS_HOST_DEVICE T identity() const { return T(0); }
  RS_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
    } else {
      return a + b;
    }
  }
};

// The smaller of a and b; identity: the largest int, or +infinity.
template <class T>
struct OpMin {
  RS_HOST_DEVICE T identity() const {
    if constexpr (std::is_integral_v<T>) {
      return std::numeric_limits<T>::max();
    } else {
      return std::numeric_limits<T>::infinity();
    }
  }
  RS_HOST_DEVICE T operator()(T a, T b) const { return b < a ? b : a; }
};

// The larger of a and b; identity: the smallest int, or -infinity.
template <class T>
struct OpMax {
  RS_HOST_DEVICE T identity() const {
    if constexpr (std::is_integral_v<T>) {
      return std::numeric_limits<T>::lowest();
    } else {
      return -std::numeric_limits<T>::infinity();
    }
  }
  RS_HOST_DEVICE T operator()(T a, T b) const { return a < b ? b : a; }
};

// x^2 + y^2 + z^2 of an int32 point, exact: each square is below 2^62, so the sum fits in 64 bits
// unsigned. (Integers keep the comparison exact on every machine; float distances would depend on
// whether the compiler fuses the multiply-adds.)
RS_HOST_DEVICE uint64_t sq_norm(int32_t x, int32_t y, int32_t z) {
  const int64_t X = x, Y = y, Z = z;
  return static_cast<uint64_t>(X * X) + static_cast<uint64_t>(Y * Y) + static_cast<uint64_t>(Z * Z);
}

// Whether point `a` (squared norm da) wins over point `b` (db) in the farthest-point reduction: the
// larger norm; on a tie, the lower index, so the result does not depend on the order of the tree.
// Index -1 is the identity ("no point"): every point wins over it.
RS_HOST_DEVICE bool farther(uint64_t da, int32_t a, uint64_t db, int32_t b) {
  if (b < 0) return true;
  if (a < 0) return false;
  return da > db || (da == db && a < b);
}

}  // namespace rs
