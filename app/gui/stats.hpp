// A small statistic the window's own measurements print (--stats, --reload-bench).
#pragma once

#include <algorithm>
#include <vector>

namespace rs::gui {

// The nearest-rank percentile of `v` (copied and sorted): p = 0.5 the median, 1.0 the maximum; 0 when empty.
inline double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5))];
}

}  // namespace rs::gui
