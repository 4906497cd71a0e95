#include "sweep.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <sstream>

namespace rs {

namespace {

// The fields of one CSV line; quoted fields may hold commas.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> f(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) f.emplace_back();
    else f.back() += c;
  }
  return f;
}

template <class T>
T number(const std::string& field, const std::string& line) {
  T v{};
  const char* end = field.data() + field.size();
  if (field.empty() || std::from_chars(field.data(), end, v).ptr != end) {
    throw BenchCsvError("not a `reducescope bench --csv` row (\"" + field + "\" is not a number): " + line.substr(0, 80));
  }
  return v;
}

}  // namespace

std::vector<BenchRow> parse_bench_csv(const std::string& text) {
  std::vector<BenchRow> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.rfind("gpu,", 0) == 0) continue;
    const auto f = csv_fields(line);
    if (f.size() < 16) throw BenchCsvError("not a `reducescope bench --csv` row: " + line.substr(0, 80));
    BenchRow r;
    r.gpu = f[0];
    r.n = number<uint64_t>(f[1], line);
    r.pattern = f[2];
    r.kernel = f[3];
    r.block_size = number<uint32_t>(f[4], line);
    r.median_ms = number<double>(f[5], line);
    r.gbps = number<double>(f[9], line);
    r.pct_peak = number<double>(f[10], line);
    r.correct = f[11] == "1";
    r.track = f[13];
    r.dtype = f[14];
    r.launches = number<uint32_t>(f[15], line);
    rows.push_back(std::move(r));
  }
  if (rows.empty()) throw BenchCsvError("no `reducescope bench --csv` rows in the text");
  return rows;
}

std::vector<uint64_t> Sweep::ns() const {
  std::set<uint64_t> s;
  for (const SweepPoint& p : points) s.insert(p.n);
  return {s.begin(), s.end()};
}

std::vector<std::string> Sweep::series() const {
  std::vector<std::string> out;
  for (const SweepPoint& p : points) {
    if (std::find(out.begin(), out.end(), p.series) == out.end()) out.push_back(p.series);
  }
  return out;
}

const SweepPoint* Sweep::find(const std::string& s, uint64_t n) const {
  for (const SweepPoint& p : points) {
    if (p.series == s && p.n == n) return &p;
  }
  return nullptr;
}

Sweep sweep_from_bench_rows(const std::vector<BenchRow>& rows) {
  Sweep sw;
  std::map<std::pair<std::string, uint64_t>, SweepPoint> best;  // (series, n) -> fastest
  std::vector<std::string> order;
  for (const BenchRow& r : rows) {
    if (sw.gpu.empty()) sw.gpu = r.gpu;
    if (sw.peak_gbps == 0 && r.pct_peak > 0) sw.peak_gbps = r.gbps * 100.0 / r.pct_peak;
    if (!r.correct || r.median_ms <= 0 || r.dtype != "int32") continue;  // skipped, wrong, or not int32
    std::string series = r.track;
    SweepPoint p{series, r.n, r.gbps, r.kernel, r.block_size, r.median_ms, r.launches};
    if (r.kernel.rfind("cub::", 0) == 0) p.series = kCubSeries, p.kernel = "", p.block_size = 0, p.launches = 0;
    if (r.kernel == "copy_d2d") p.series = kCopySeries, p.kernel = "", p.block_size = 0;
    if (std::find(order.begin(), order.end(), p.series) == order.end()) order.push_back(p.series);
    const auto key = std::make_pair(p.series, r.n);
    auto it = best.find(key);
    if (it == best.end() || p.gbps > it->second.gbps) best[key] = p;
  }
  if (best.empty()) throw BenchCsvError("the bench rows hold no correct int32 result");
  for (const std::string& ser : order) {
    for (const auto& [key, p] : best) {
      if (key.first == ser) sw.points.push_back(p);
    }
  }
  return sw;
}

Sweep sweep_from_bench_csv(const std::string& text) { return sweep_from_bench_rows(parse_bench_csv(text)); }

}  // namespace rs
