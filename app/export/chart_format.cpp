// Numbers for chart labels and CSV files, the same in every locale (std::to_chars): thousands
// separators, fixed decimals, three significant digits, printf("%.6g")-like CSV numbers, RFC 4180
// quoting.
#include "chart_spec.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace rs::chart {

namespace {

// std::to_chars ignores the C locale, so a GUI that calls setlocale() still gets '.' decimals.
std::string to_chars_str(double v, std::chars_format f, int precision) {
  char b[64];
  const auto r = std::to_chars(b, b + sizeof b, v, f, precision);
  return std::string(b, r.ptr);
}

}  // namespace

// "16777216" -> "16,777,216"; "2950.5" -> "2,950.5".
std::string group_thousands(std::string s) {
  const size_t sign = (!s.empty() && s[0] == '-') ? 1 : 0;
  const size_t end = std::min(s.find('.'), s.size());
  for (size_t i = end; i > sign + 3; i -= 3) s.insert(i - 3, 1, ',');
  return s;
}

// Fixed point with `decimals` digits and thousands separators.
std::string fixed(double v, int decimals) {
  return group_thousands(to_chars_str(v, std::chars_format::fixed, decimals));
}

// Three significant digits, never in exponent form: 0.172, 1.23, 12.3, 123, 2,950.
// Decimals = 2 - floor(log10 v) puts the third significant digit last.
std::string sig3(double v) {
  const int decimals = v > 0 ? std::clamp(2 - static_cast<int>(std::floor(std::log10(v))), 0, 9) : 0;
  return fixed(v, decimals);
}

// CSV numbers: like printf("%.6g") in the C locale.
std::string csv_num(double v) { return to_chars_str(v, std::chars_format::general, 6); }

// Quoted only when needed (RFC 4180: a field with a comma, quote or newline is quoted, its
// quotes doubled).
std::string join(const std::vector<uint32_t>& v, const char* sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + std::to_string(v[i]);
  return out;
}

}  // namespace rs::chart
