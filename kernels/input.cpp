#include "input.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "reduce_ops.hpp"

namespace rs {

const char* to_string(Pattern p) {
  switch (p) {
    case Pattern::Ones: return "ones";
    case Pattern::RandomBytes: return "random";
    case Pattern::Iota: return "iota";
  }
  return "?";
}

std::optional<Pattern> parse_pattern(std::string_view s) {
  if (s == "ones") return Pattern::Ones;
  if (s == "random") return Pattern::RandomBytes;
  if (s == "iota") return Pattern::Iota;
  return std::nullopt;
}

std::vector<int32_t> make_input(Pattern p, size_t n, uint64_t seed) {
  std::vector<int32_t> v(n);
  switch (p) {
    case Pattern::Ones:
      for (auto& x : v) x = 1;
      break;
    case Pattern::Iota:
      for (size_t i = 0; i < n; ++i) v[i] = static_cast<int32_t>(static_cast<uint32_t>(i));
      break;
    case Pattern::RandomBytes: {
      std::mt19937_64 rng(seed);
      size_t i = 0;
      while (i < n) {
        uint64_t r = rng();
        for (int b = 0; b < 8 && i < n; ++b, ++i) v[i] = static_cast<int32_t>((r >> (8 * b)) & 0xff);
      }
      break;
    }
  }
  return v;
}

int32_t cpu_reduce(const std::vector<int32_t>& data) {
  uint32_t sum = 0;
  for (int32_t x : data) sum += static_cast<uint32_t>(x);
  return static_cast<int32_t>(sum);
}

std::vector<float> make_input_f32(Pattern p, size_t n, uint64_t seed) {
  std::vector<float> v(n);
  switch (p) {
    case Pattern::Ones:
      for (auto& x : v) x = 1.0f;
      break;
    case Pattern::Iota:
      for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
      break;
    case Pattern::RandomBytes: {
      std::mt19937_64 rng(seed);
      for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(rng() >> 40) * 0x1p-24f;  // k x 2^-24, k < 2^24
      break;
    }
  }
  return v;
}

double FloatReference::tolerance() const {
  constexpr double kLambda = 6.0;
  constexpr double kUnitRoundoff = 0x1p-24;
  return kLambda * std::sqrt(static_cast<double>(std::max<size_t>(n, 1))) * kUnitRoundoff * sum_abs;
}

bool FloatReference::accepts(float got) const {
  return std::isfinite(got) && std::fabs(static_cast<double>(got) - sum) <= tolerance();
}

FloatReference cpu_reduce_f64(const std::vector<float>& data) {
  FloatReference r;
  r.n = data.size();
  for (float x : data) {
    r.sum += x;
    r.sum_abs += std::fabs(x);
  }
  return r;
}

int32_t cpu_farthest_point(const std::vector<int32_t>& data) {
  int32_t best = -1;
  uint64_t best_d = 0;
  const size_t points = data.size() / 3;
  for (size_t p = 0; p < points; ++p) {
    const uint64_t d = sq_norm(data[3 * p], data[3 * p + 1], data[3 * p + 2]);
    if (farther(d, static_cast<int32_t>(p), best_d, best)) {
      best = static_cast<int32_t>(p);
      best_d = d;
    }
  }
  return best;
}

namespace {
template <class T>
int32_t bits_of(T v) {
  int32_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}
template <class T, template <class> class Op>
int32_t fold_bits(const std::vector<T>& data) {
  const Op<T> op;
  T acc = op.identity();
  for (T x : data) acc = op(acc, x);
  return bits_of(acc);
}
}  // namespace

CpuReference cpu_reference(const std::vector<int32_t>& data) {
  CpuReference r;
  r.type = DType::Int32;
  r.sum = cpu_reduce(data);
  r.min = fold_bits<int32_t, OpMin>(data);
  r.max = fold_bits<int32_t, OpMax>(data);
  r.farthest = cpu_farthest_point(data);
  return r;
}

CpuReference cpu_reference(const std::vector<float>& data) {
  CpuReference r;
  r.type = DType::Float32;
  r.f = cpu_reduce_f64(data);
  r.min = fold_bits<float, OpMin>(data);
  r.max = fold_bits<float, OpMax>(data);
  return r;
}

bool CpuReference::accepts(ReduceOp op, int32_t bits) const {
  switch (op) {
    case ReduceOp::Sum: {
      if (type == DType::Int32) return bits == sum;
      float got = 0;
      std::memcpy(&got, &bits, sizeof got);
      return f.accepts(got);
    }
    case ReduceOp::Min: return bits == min;
    case ReduceOp::Max: return bits == max;
    case ReduceOp::Farthest: return type == DType::Int32 && bits == farthest;
    case ReduceOp::Histogram: return false;  // bins, not one value: checked bin by bin (cpu_histogram)
  }
  return false;
}

std::string CpuReference::str(ReduceOp op) const {
  auto value = [&](int32_t b) {
    if (type == DType::Int32) return std::to_string(b);
    float v = 0;
    std::memcpy(&v, &b, sizeof v);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return std::string(buf);
  };
  switch (op) {
    case ReduceOp::Sum: {
      if (type == DType::Int32) return std::to_string(sum);
      char b[96];
      std::snprintf(b, sizeof b, "%.9g (double), tolerance %.3g", f.sum, f.tolerance());
      return b;
    }
    case ReduceOp::Min: return value(min) + " (min)";
    case ReduceOp::Max: return value(max) + " (max)";
    case ReduceOp::Farthest: return "point " + std::to_string(farthest) + " (farthest)";
    case ReduceOp::Histogram: return "bins (see cpu_histogram)";
  }
  return "?";
}

namespace {

// The k of a sum stuck at +-2^k below its exact value (float_sum_note's reason), or -1.
int stuck_power(float got, double exact) {
  if (!std::isfinite(got) || got == 0.0f || !std::isfinite(exact)) return -1;
  int k = 0;
  const float mant = std::frexp(std::fabs(got), &k);  // |got| = mant x 2^k, mant in [0.5, 1)
  const int power = k - 1;                             // got = +-2^power when mant == 0.5
  if (mant != 0.5f || power < 24) return -1;
  if (!(std::fabs(exact) > std::fabs(got) * 1.001) || (exact < 0) != (got < 0)) return -1;
  return power;
}

}  // namespace

std::optional<FloatStuck> float_sum_stuck(float got, double exact) {
  if (std::isnan(exact) || std::isinf(exact) || got < 0) return std::nullopt;  // another reason, or a negative sum
  const int power = stuck_power(got, exact);
  if (power < 0) return std::nullopt;
  return FloatStuck{power, static_cast<double>(got)};
}

std::string float_sum_note(float got, double exact) {
  // IEEE 754's special cases, said where they decide the result.
  if (std::isnan(exact)) return "an input is NaN, or +inf and -inf are both in it: the sum is NaN (IEEE 754)";
  if (std::isinf(exact)) return "an input is infinite: the sum is that infinity (IEEE 754)";
  if (std::isinf(got) && std::fabs(exact) > 3.4028234663852886e38) {
    char b[160];
    std::snprintf(b, sizeof b, "the exact sum, %.6g, is beyond float32's largest value (3.4e38): it rounds to %sinf", exact,
                  exact < 0 ? "-" : "+");
    return b;
  }
  const int power = stuck_power(got, exact);
  if (power < 0) return "";
  char b[320];
  std::snprintf(b, sizeof b,
                "stuck at 2^%d = %.0f: float32 keeps 24 significant bits, so there its values are 2^%d apart and adding "
                "anything below 2^%d rounds to nothing; a running float sum stops growing",
                power, static_cast<double>(std::fabs(got)), power - 23, power - 24);
  return (got < 0 ? std::string("-") : std::string()) + b;
}

}  // namespace rs
