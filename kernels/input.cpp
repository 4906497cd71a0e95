#include "input.hpp"

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

}  // namespace rs
