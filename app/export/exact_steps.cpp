#include "exact_steps.hpp"

#include <bit>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>

#include "exact_sum.hpp"
#include "input.hpp"
#include "i18n.hpp"

namespace rs {

namespace {

using Limbs = std::vector<int64_t>;  // exact::kLimbs limbs, limb j weighing 2^(32 j - 149)

void add_float(Limbs& l, float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  const exact::Parts p = exact::parts_of(u);
  if (p.special) return;
  exact::add_piece(p.m, p.e, p.neg, [&](int j, int64_t v) { l[j] += v; });
}

// The limbs' value as M x 2^E where M fits 64 bits, and approximately.
ExactValue value_of(Limbs l) {
  ExactValue v;
  // Normalise (limbs 0 .. K-2 in [0, 2^32), the sign in the top one); these sums are never negative.
  for (int j = 0; j + 1 < exact::kLimbs; ++j) {
    const int64_t c = l[j] >> 32;
    l[j] -= c * 4294967296LL;
    l[j + 1] += c;
  }
  for (int j = exact::kLimbs - 1; j >= 0; --j) v.approx = v.approx * 4294967296.0L + static_cast<long double>(l[j]);
  v.approx = std::ldexp(v.approx, exact::kEmin);
  int lo = -1, hi = -1;
  for (int j = 0; j < exact::kLimbs; ++j) {
    const uint32_t w = static_cast<uint32_t>(l[j]);
    if (!w) continue;
    if (lo < 0) lo = 32 * j + std::countr_zero(w);
    hi = 32 * j + 31 - std::countl_zero(w);
  }
  if (lo < 0) {
    v.fits = true;  // zero
    return v;
  }
  if (hi - lo >= 63 || l[exact::kLimbs - 1] < 0) return v;
  uint64_t m = 0;
  for (int b = hi; b >= lo; --b) m = (m << 1) | ((static_cast<uint64_t>(l[b >> 5]) >> (b & 31)) & 1u);
  v.fits = true;
  v.m = static_cast<int64_t>(m);
  v.e = lo + exact::kEmin;
  return v;
}

}  // namespace

std::string ExactValue::str() const {
  char b[96];
  if (!fits) {
    std::snprintf(b, sizeof b, "%.17Lg", approx);
  } else if (e >= 0 || m == 0) {
    std::snprintf(b, sizeof b, "%.17Lg", approx);
  } else if (-e <= 40) {  // M x 2^-k has k decimals: printed whole, it is the exact value
    std::snprintf(b, sizeof b, "%.*Lf (%lld x 2^%d)", -e, approx, static_cast<long long>(m), e);
  } else {
    std::snprintf(b, sizeof b, "%.17Lg (%lld x 2^%d)", approx, static_cast<long long>(m), e);
  }
  return b;
}

ExactAccumulator exact_accumulator(const Replay& r, const TraceMeta& meta, const std::vector<float>& input) {
  ExactAccumulator a;
  a.result_bits = static_cast<uint32_t>(meta.result);
  if (meta.dtype != DType::Float32 || input.empty()) return a;
  Limbs held(exact::kLimbs, 0);
  for (size_t s = 0; s < r.num_steps(); ++s) {
    const Step& st = r.step(s);
    Limbs step(exact::kLimbs, 0);
    ExactStep e;
    for (size_t gi : st.global_requests) {
      const GlobalRequest& q = r.global_requests()[gi];
      if (q.kind != AccessKind::GlobalLoad || q.space != static_cast<uint8_t>(GlobalBuffer::Input)) continue;
      const int lanes = std::popcount(q.lanes);
      const int width = lanes ? q.requested_bytes / lanes / 4 : 0;  // elements per lane: 1, or 4 for a float4
      for (int lane = 0; lane < 32; ++lane) {
        if (!((q.lanes >> lane) & 1u)) continue;
        const uint64_t first = q.index[lane];
        if (first < input.size()) {
          uint32_t want;
          std::memcpy(&want, &input[first], 4);
          if (want != q.value[lane]) a.matches_input = false;
        }
        for (int k = 0; k < width; ++k) {
          if (first + k >= input.size()) continue;
          add_float(step, input[first + k]);
          add_float(held, input[first + k]);
          ++e.elements;
        }
      }
    }
    e.adds = value_of(step);
    e.holds = value_of(held);
    a.loaded += e.elements;
    e.so_far = a.loaded;
    a.steps.push_back(e);
  }
  if (a.loaded == 0) {
    a.steps.clear();
    return a;
  }
  Limbs grid(exact::kLimbs, 0);
  for (float x : input) add_float(grid, x);
  a.grid = value_of(grid);
  Limbs scratch = grid;
  const float rounded = exact::round_limbs(scratch.data(), exact::kNotNegZero);
  std::memcpy(&a.rounded_bits, &rounded, 4);
  return a;
}

const ExactAccumulator* exact_accumulator_of(const Trace& t, const Replay& r) {
  if (t.meta.kernel != kExactSumKernel || t.meta.dtype != DType::Float32) return nullptr;
  const std::optional<Pattern> pattern = parse_pattern(t.meta.pattern);
  if (!pattern || t.meta.n == 0 || t.meta.n > (1ull << 31)) return nullptr;
  // The window's panels and its web export (a thread of its own) both ask: one at a time.
  static std::mutex mu;
  const std::lock_guard<std::mutex> lock(mu);
  static std::map<std::pair<Pattern, uint64_t>, std::vector<float>> inputs;
  // Keyed by the trace, checked against what it is (its date, block size and records): a trace freed and another
  // made at its address is not taken for it.
  static std::map<const Trace*, std::pair<std::string, ExactAccumulator>> done;
  const std::string what = t.meta.date + "/" + std::to_string(t.meta.block_size) + "/" + std::to_string(t.records.size());
  auto it = done.find(&t);
  if (it != done.end() && it->second.first == what) return it->second.second.steps.empty() ? nullptr : &it->second.second;
  auto& in = inputs[{*pattern, t.meta.n}];
  if (in.empty()) in = make_input_f32(*pattern, t.meta.n);
  auto& slot = done[&t];
  slot = {what, exact_accumulator(r, t.meta, in)};
  return slot.second.steps.empty() ? nullptr : &slot.second;
}

namespace {
constexpr const char* kExactAdds = N_("Exact accumulator: this step adds {0} elements, {1} exactly; the block holds {2} "
                                      "exactly ({3} elements so far), no rounding.");
constexpr const char* kExactNothing = N_("Exact accumulator: this step adds nothing; the block holds {0} exactly.");
constexpr const char* kExactEnd =
    N_("At the end the last block rounds the grid's exact sum, {0}, once to float32: {1} (the result is {2}).");
}  // namespace

std::vector<explain::Sentence> exact_step_sentences(const ExactAccumulator& a, size_t i) {
  std::vector<explain::Sentence> out;
  if (i >= a.steps.size()) return out;
  const ExactStep& e = a.steps[i];
  if (e.elements) {
    out.push_back({kExactAdds, {std::to_string(e.elements), e.adds.str(), e.holds.str(), std::to_string(e.so_far)}, {}});
  } else {
    out.push_back({kExactNothing, {e.holds.str()}, {}});
  }
  if (i + 1 == a.steps.size()) {
    out.push_back({kExactEnd,
                   {a.grid.str(), format_value(a.rounded_bits, DType::Float32), format_value(a.result_bits, DType::Float32)},
                   {}});
  }
  return out;
}

std::vector<const char*> exact_message_ids() { return {kExactAdds, kExactNothing, kExactEnd}; }

}  // namespace rs
