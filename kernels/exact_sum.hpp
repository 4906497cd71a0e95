// The exact sum of float32 values, rounded once: the arithmetic of the modern track's reproducible_sum
// (kernels/modern_kernels.cuh), shared by the kernel (device) and the CPU (host, tests/test_exact_sum.cpp).
//
// Method: exact accumulation in wide integers (a "long accumulator": U. Kulisch, Computer Arithmetic and
// Validity, de Gruyter 2013; on GPUs: S. Collange, D. Defour, S. Graillat, R. Iakymchuk, "Numerical
// reproducibility for the parallel reduction on multi- and many-core architectures", Parallel Computing
// 49, 2015). Every finite float is an integer times a power of two,
//     x = (-1)^s * m * 2^(e - 149),   m < 2^24,   e = max(biased exponent, 1) - 1 in [0, 253],
// so the sum of any set of floats is an integer times 2^-149 of at most 277 + 31 bits (N <= 2^31). Integer
// addition is associative, so that integer, and the one float it rounds to (round to nearest, ties to
// even: correctly rounded), do not depend on the order of the additions, the block size, the grid or the
// GPU: the same bits everywhere, by construction.
//
// Pieces:
//   Limbs       the whole sum: kLimbs signed 64-bit limbs, limb j weighing 2^(32 j - 149); each takes
//               32-bit pieces, so 2^31 of them cannot overflow it
//   Window      a 128-bit integer accumulator of values in units of 2^(base - 149)
//   ThreadSum   a thread's fast path: the normal floats whose e lies in [base, base + 14) are added in a
//               double, which is exact (each is a multiple of 2^(base - 149) below 2^(base + 38 - 149), and
//               2^15 of them stay below 2^53 such units); every 2^15 elements the double moves into the
//               Window. Per element: an exponent test, a float -> double conversion and a double add. The
//               rest (zeros, subnormals, inf, NaN, values outside the window) go to the caller's slow path
//   add_piece() an element (or a window) into the limbs as 32-bit pieces
//   round_limbs()  the limbs' sum, normalised, rounded once to float, with IEEE's special cases
//
// Special values follow IEEE 754: any NaN gives NaN; +inf and -inf together give NaN; otherwise an
// infinity wins. A finite sum beyond FLT_MAX rounds to +-inf, and round_limbs' `overflow` says so (it
// is not a silent inf). An exact sum of zero is +0, except that a sum of -0s only is -0.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "reduce_ops.hpp"  // RS_HOST_DEVICE

namespace rs::exact {

inline constexpr int kLimbs = 12;         // 384 bits: 277 + 31 needed, and a window's 160-bit deposit at e = 253
inline constexpr int kFastBits = 14;      // ThreadSum: exponents base .. base + 13 go through the double
inline constexpr int kFastRun = 1 << 15;  // ThreadSum: elements between two moves of the double into the Window
inline constexpr int kEmin = -149;        // the weight of limb 0's lowest bit: 2^-149, float's smallest subnormal

// Flags an accumulation collects (OR-ed across threads and blocks).
enum ExactFlags : uint32_t {
  kNaN = 1u,          // a NaN was added
  kPosInf = 2u,       // +inf was added
  kNegInf = 4u,       // -inf was added
  kNotNegZero = 8u,   // something other than -0 was added
  kNegZero = 16u,     // a -0 was added (a sum of -0s only is -0; an empty sum is +0)
};

RS_HOST_DEVICE float float_of(uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, 4);
  return f;
#endif
}

// A float's parts: sign, m (24 bits with the hidden bit), e = the exponent of m's unit + 149.
struct Parts {
  uint32_t m;
  int e;
  bool neg;
  bool special;   // inf or NaN
};
RS_HOST_DEVICE Parts parts_of(uint32_t u) {
  const uint32_t E = (u >> 23) & 0xffu;
  Parts p;
  p.neg = (u >> 31) != 0;
  p.special = E == 0xffu;
  p.m = (u & 0x7fffffu) | (E ? 0x800000u : 0u);
  p.e = E ? static_cast<int>(E) - 1 : 0;
  return p;
}
RS_HOST_DEVICE uint32_t special_flags(uint32_t u) {
  if (((u >> 23) & 0xffu) != 0xffu) return u == 0x80000000u ? kNegZero : kNotNegZero;
  return (u & 0x7fffffu) ? kNaN : (u >> 31) ? kNegInf : kPosInf;
}

// The value m * 2^(e - 149), signed, as 32-bit pieces: add(limb j, piece) for each nonzero piece. `add`
// is the caller's (a plain +=, or an atomicAdd on shared or global memory). e in [0, 253].
template <class Add>
RS_HOST_DEVICE void add_piece(uint32_t m, int e, bool neg, Add add) {
  const int q = e >> 5, r = e & 31;
  const uint64_t v = static_cast<uint64_t>(m) << r;  // < 2^55
  const int64_t lo = static_cast<int64_t>(v & 0xffffffffu), hi = static_cast<int64_t>(v >> 32);
  if (lo) add(q, neg ? -lo : lo);
  if (hi) add(q + 1, neg ? -hi : hi);
}

// A 128-bit two's-complement integer: a count of units 2^(base - 149) (ThreadSum's earlier runs).
struct Window {
  uint64_t lo = 0;
  int64_t hi = 0;
  RS_HOST_DEVICE void add(int64_t s) {
    const uint64_t before = lo;
    lo += static_cast<uint64_t>(s);
    hi += (s >> 63) + (lo < before ? 1 : 0);
  }
  RS_HOST_DEVICE bool empty() const { return lo == 0 && hi == 0; }
  // The window's value times 2^base (base in [0, 253]) as five 32-bit pieces from limb base / 32 on: the
  // 160-bit two's-complement value (lo, hi) << (base % 32), its top piece signed.
  template <class Add>
  RS_HOST_DEVICE void deposit(int base, Add add) const {
    const int q = base >> 5, r = base & 31;
    const uint64_t t0 = lo << r;
    const uint64_t t1 = r ? (lo >> (64 - r)) | (static_cast<uint64_t>(hi) << r) : static_cast<uint64_t>(hi);
    const int64_t t2 = r ? (hi >> (64 - r)) : (hi >> 63);
    const int64_t c[5] = {static_cast<int64_t>(t0 & 0xffffffffu), static_cast<int64_t>(t0 >> 32),
                          static_cast<int64_t>(t1 & 0xffffffffu), static_cast<int64_t>(t1 >> 32),
                          static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(t2)))};
    for (int i = 0; i < 5; ++i) {
      if (c[i]) add(q + i, c[i]);
    }
  }
};

// One thread's exact sum of the elements it is given (see the index): `base` is the exponent e of the
// window's unit (0 .. 253 - kFastBits). take() returns false for an element it did not add, which the
// caller must add another way (add_piece, or nothing for a zero); flush() before reading `window`.
struct ThreadSum {
  int base = 0;
  double acc = 0;  // the current run: an exact multiple of 2^(base - 149), below 2^(53 + base - 149)
  int count = 0;   // elements in `acc`
  Window window;   // the earlier runs, in units of 2^(base - 149)
  RS_HOST_DEVICE static int clamp_base(int e) { return e < 0 ? 0 : e > 253 - kFastBits ? 253 - kFastBits : e; }
  RS_HOST_DEVICE bool take(uint32_t u) {
    const int E = static_cast<int>((u >> 23) & 0xffu);  // normal floats: e = E - 1
    if (static_cast<unsigned>(E - 1 - base) >= static_cast<unsigned>(kFastBits)) return false;
    acc += static_cast<double>(float_of(u));
    if (++count == kFastRun) flush();
    return true;
  }
  RS_HOST_DEVICE void flush() {
    // acc / 2^(base - 149) is an integer below 2^53: exact in int64.
    window.add(static_cast<int64_t>(ldexp(acc, 149 - base)));
    acc = 0;
    count = 0;
  }
};

// The exact sum that `limbs` (kLimbs, each weighing 2^(32 j - 149), any signed values) hold, rounded to
// float once (to nearest, ties to even), with `flags`' special cases; *overflow (if given) is set when a
// finite sum rounded to +-inf. `limbs` is used as scratch.
RS_HOST_DEVICE float round_limbs(int64_t* limbs, uint32_t flags, bool* overflow = nullptr) {
  if (overflow) *overflow = false;
  if ((flags & kNaN) || ((flags & kPosInf) && (flags & kNegInf))) return NAN;
  if (flags & kPosInf) return INFINITY;
  if (flags & kNegInf) return -INFINITY;
  // Normalise: limbs 0 .. K-2 in [0, 2^32), the sign in the top limb.
  auto carry = [&]() {
    for (int j = 0; j < kLimbs - 1; ++j) {
      const int64_t c = limbs[j] >> 32;  // arithmetic: floor(limb / 2^32)
      limbs[j] -= c * 4294967296LL;
      limbs[j + 1] += c;
    }
  };
  carry();
  const bool neg = limbs[kLimbs - 1] < 0;
  if (neg) {
    for (int j = 0; j < kLimbs; ++j) limbs[j] = -limbs[j];
    carry();
  }
  int top = kLimbs - 1;
  while (top >= 0 && limbs[top] == 0) --top;
  if (top < 0) return (flags & kNegZero) && !(flags & kNotNegZero) ? -0.0f : 0.0f;
  int lead = 31;
  while (!((static_cast<uint64_t>(limbs[top]) >> lead) & 1u)) --lead;
  const int P = 32 * top + lead;  // the highest set bit: the sum is in [2^(P-149), 2^(P-148))
  auto bit = [&](int i) -> uint32_t { return i < 0 ? 0u : static_cast<uint32_t>(limbs[i >> 5] >> (i & 31)) & 1u; };
  float out;
  if (P < 24) {  // at most 24 bits: exact (a subnormal, or a normal with the smallest exponent)
    uint32_t n = 0;
    for (int i = P; i >= 0; --i) n = (n << 1) | bit(i);
    out = ldexpf(static_cast<float>(n), kEmin);
  } else {
    uint32_t m = 0;
    for (int i = P; i > P - 24; --i) m = (m << 1) | bit(i);
    const uint32_t guard = bit(P - 24);
    // sticky: any bit below the guard bit, P - 25 down to 0
    bool sticky = false;
    const int g = P - 25;
    if (g >= 0) {
      const int L = g >> 5;
      const uint64_t mask = (g & 31) == 31 ? 0xffffffffull : (1ull << ((g & 31) + 1)) - 1;
      sticky = (static_cast<uint64_t>(limbs[L]) & mask) != 0;
      for (int j = 0; j < L && !sticky; ++j) sticky = limbs[j] != 0;
    }
    int p = P;
    if (guard && (sticky || (m & 1u))) {
      if (++m == (1u << 24)) {
        m >>= 1;
        ++p;
      }
    }
    const int exp = p - 23 + kEmin;  // the weight of m's last bit
    if (exp + 23 > 127) {
      if (overflow) *overflow = true;
      return neg ? -INFINITY : INFINITY;
    }
    out = ldexpf(static_cast<float>(m), exp);
  }
  return neg ? -out : out;
}

// The exact sum of `n` floats on the host, the simple way (every element into the limbs), for the tests
// and as the CPU's reproducible reference.
inline float sum_host(const float* x, uint64_t n, uint32_t* flags_out = nullptr, bool* overflow = nullptr) {
  int64_t limbs[kLimbs] = {};
  uint32_t flags = 0;
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t u;
    std::memcpy(&u, &x[i], 4);
    flags |= special_flags(u);
    const Parts p = parts_of(u);
    if (p.special) continue;
    add_piece(p.m, p.e, p.neg, [&](int j, int64_t v) { limbs[j] += v; });
  }
  if (flags_out) *flags_out = flags;
  return round_limbs(limbs, flags, overflow);
}

}  // namespace rs::exact
