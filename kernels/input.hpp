// Input data for the reductions and the CPU reference they are checked against. Plain C++.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

}  // namespace rs
