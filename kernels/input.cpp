#include "input.hpp"

#include <algorithm>
#include <cmath>
#include <random>

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

}  // namespace rs
