#include "histogram.hpp"

#include <algorithm>
#include <cstdio>
#include <random>
#include <stdexcept>

#include "histogram_bins.hpp"

namespace rs {

unsigned bin_count(HistoBins b) { return b == HistoBins::Letters7 ? LetterBins::kCount : ByteBins::kCount; }

const char* to_string(HistoBins b) { return b == HistoBins::Letters7 ? "7 letter bins" : "256 byte bins"; }

const char* to_string(HistoInput in) {
  switch (in) {
    case HistoInput::Text: return "text";
    case HistoInput::Uniform: return "uniform";
    case HistoInput::Skewed: return "skewed";
  }
  return "?";
}

std::optional<HistoInput> parse_histo_input(std::string_view s) {
  for (HistoInput in : {HistoInput::Text, HistoInput::Uniform, HistoInput::Skewed}) {
    if (s == to_string(in)) return in;
  }
  return std::nullopt;
}

HistoBins bins_of(HistoInput in) { return in == HistoInput::Text ? HistoBins::Letters7 : HistoBins::Bytes256; }

std::vector<uint8_t> make_histo_input(HistoInput in, size_t bytes, uint64_t seed) {
  std::vector<uint8_t> v(bytes);
  if (in == HistoInput::Text) {
    const std::string_view text = histogram_text();
    if (text.empty()) throw std::logic_error("the histogram text is empty");
    for (size_t i = 0; i < bytes; i += text.size()) {
      const size_t n = std::min(text.size(), bytes - i);
      std::copy(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(n), v.begin() + static_cast<std::ptrdiff_t>(i));
    }
    return v;
  }
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < bytes;) {
    const uint64_t r = rng();
    for (int b = 0; b < 8 && i < bytes; ++b, ++i) v[i] = static_cast<uint8_t>(r >> (8 * b));
  }
  if (in == HistoInput::Skewed) {
    // 90% of the positions, chosen by a second stream, hold 'e'.
    std::mt19937_64 pick(seed ^ 0x9e3779b97f4a7c15ull);
    std::uniform_int_distribution<int> tenth(0, 9);
    for (auto& c : v) {
      if (tenth(pick) != 0) c = 'e';
    }
  }
  return v;
}

std::vector<uint32_t> cpu_histogram(const std::vector<uint8_t>& data, HistoBins b) {
  std::vector<uint32_t> h(bin_count(b), 0);
  for (uint8_t c : data) {
    const int bin = b == HistoBins::Letters7 ? LetterBins::bin(c) : ByteBins::bin(c);
    if (bin >= 0) ++h[static_cast<size_t>(bin)];
  }
  return h;
}

std::string bin_label(HistoBins b, unsigned bin) {
  char buf[32];
  if (b == HistoBins::Letters7 && bin >= 7) {
    std::snprintf(buf, sizeof buf, "#%u (no such bin)", bin);
  } else if (b == HistoBins::Letters7) {
    const char first = static_cast<char>('a' + 4 * bin);
    const char last = static_cast<char>(std::min<int>('z', first + 3));
    std::snprintf(buf, sizeof buf, "%c-%c", first, last);
  } else if (bin >= 0x20 && bin < 0x7f) {
    std::snprintf(buf, sizeof buf, "0x%02x '%c'", bin, static_cast<char>(bin));
  } else {
    std::snprintf(buf, sizeof buf, "0x%02x", bin);
  }
  return buf;
}

}  // namespace rs
