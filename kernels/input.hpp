// Input data for the reductions and the CPU reference they are checked against. Plain C++.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel_info.hpp"  // ReduceOp, DType

namespace rs {

// Data patterns. "random" is uniform random bytes 0..255 from a fixed seed, so 2^26 of them
// overflow int32 and exercise wrap-around.
enum class Pattern : uint8_t { Ones, RandomBytes, Iota };

const char* to_string(Pattern p);               // "ones", "random", "iota"
std::optional<Pattern> parse_pattern(std::string_view s);

// n elements of pattern `p` (Iota: 0, 1, ..., n-1 as int32, wrapping past 2^31-1).
std::vector<int32_t> make_input(Pattern p, size_t n, uint64_t seed = 20070101);

// Sum of `data` with int32 two's-complement wrap-around, as the kernels compute it.
int32_t cpu_reduce(const std::vector<int32_t>& data);

// n float32 elements of pattern `p`: ones 1.0f; random: uniform in [0, 1) with 24 random bits
// (k x 2^-24), from a fixed seed; iota: 0, 1, ..., n-1 (exact up to 2^24, rounded beyond).
std::vector<float> make_input_f32(Pattern p, size_t n, uint64_t seed = 20070101);

// The float reference: the sum in double precision, and the sum of |x| (for the tolerance).
struct FloatReference {
  double sum = 0;      // sum of the elements, in double
  double sum_abs = 0;  // sum of |x|
  size_t n = 0;
  // How far a float32 reduction in any order may land from `sum`:
  //   tol = lambda * sqrt(n) * u * sum_abs,  u = 2^-24 (float32 unit roundoff), lambda = 6,
  // the probabilistic bound of Higham & Mary, "A New Approach to Probabilistic Rounding Error
  // Analysis", SIAM J. Sci. Comput. 41(5), 2019, for summation in any order (the worst-case
  // bound (n - 1) u sum_abs is 1 x sum_abs at n = 2^24: useless). It assumes rounding errors
  // that behave randomly: an atomic sum of more than 2^24 ones, which stops growing at 2^24,
  // breaks it, rightly.
  double tolerance() const;
  bool accepts(float got) const;
};
FloatReference cpu_reduce_f64(const std::vector<float>& data);

// Why a float32 sum `got` is so far from `exact`, where the reason is the known one, else "". A running
// float sum that stopped growing: `got` is a power of two 2^k, k >= 24, below the exact sum (or above a
// negative one). float32 keeps 24 significant bits, so at 2^k its values are 2^(k-23) apart and adding
// anything below 2^(k-24), half of that, rounds back to 2^k (IEEE 754 round to nearest): float
// sum_atomic on N = 2^26 + 3 random values in [0, 1) returns exactly 16777216 against 33556881. The
// verdict stays WRONG; this says why, beside it. Also IEEE 754's special cases: a NaN or infinite exact
// sum (an input was), and an exact sum beyond FLT_MAX that rounds to +-inf (said, not a silent inf).
std::string float_sum_note(float got, double exact);

// The numbers of float_sum_note's commonest reason, for the explain layer to say in the reader's language (issue 53:
// no English read back): a non-negative float32 sum stuck at 2^power below its exact value. nullopt where the note
// gives another reason, a negative sum's, or none.
struct FloatStuck {
  int power = 0;       // the sum is exactly 2^power (24 or more)
  double value = 0;    // 2^power
};
std::optional<FloatStuck> float_sum_stuck(float got, double exact);

// Index of the 3-D point farthest from the origin, `data` read as data.size() / 3 points (x, y, z);
// the lower index on a tie; -1 if there is no point. The course track's farthest_point.
int32_t cpu_farthest_point(const std::vector<int32_t>& data);

// The CPU reference of one input for every operator a kernel may reduce with (ReduceOp), computed
// with the operator policies of kernels/reduce_ops.hpp: exact for int32 (sums wrap) and for float32
// min and max; a double sum with a tolerance for float32 sums.
struct CpuReference {
  DType type = DType::Int32;
  int32_t sum = 0;        // int32: the wrapped sum
  int32_t min = 0, max = 0;  // the bits of the smallest and largest element (float32: its bit pattern)
  int32_t farthest = -1;  // int32: cpu_farthest_point
  FloatReference f;       // float32: the double sum and its tolerance
  // Whether a kernel's result `bits` for operator `op` matches.
  bool accepts(ReduceOp op, int32_t bits) const;
  // The expected value, for messages: "1234", "0.999 (float32)", "8.3e6 (double), tolerance 2.1".
  std::string str(ReduceOp op) const;
};
CpuReference cpu_reference(const std::vector<int32_t>& data);
CpuReference cpu_reference(const std::vector<float>& data);

}  // namespace rs
