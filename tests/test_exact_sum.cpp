// The reproducible float sum's arithmetic (kernels/exact_sum.hpp) on the CPU: correctly rounded against
// an independent oracle (a double sum that is exact for the inputs chosen), the same bits under any order
// and any split into per-thread windows (the kernel's fast path) merged in any order, and IEEE's special
// cases: subnormals, +-0, mixed signs, huge cancellations, overflow, infinities, NaN.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "exact_sum.hpp"
#include "input.hpp"

namespace rs {
namespace {

using namespace exact;

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float sum(const std::vector<float>& v, uint32_t* flags = nullptr, bool* overflow = nullptr) {
  return sum_host(v.data(), v.size(), flags, overflow);
}

// As the kernel does it (exact::ThreadSum, the same code): the elements cut into `chunks` runs (threads),
// each anchored 13 binary orders below its first element's exponent, the elements outside the fast path
// straight into the limbs, each run's sum then deposited into the limbs, the runs in a shuffled order.
float sum_windowed(std::vector<float> v, int chunks, std::mt19937& rng) {
  std::shuffle(v.begin(), v.end(), rng);
  int64_t limbs[kLimbs] = {};
  uint32_t flags = 0;
  auto add = [&](int j, int64_t x) { limbs[j] += x; };
  std::vector<ThreadSum> runs;
  const size_t per = (v.size() + chunks - 1) / std::max(chunks, 1);
  for (size_t start = 0; start < v.size(); start += per) {
    ThreadSum t;
    t.base = ThreadSum::clamp_base(parts_of(bits(v[start])).e - 12);
    for (size_t i = start; i < std::min(v.size(), start + per); ++i) {
      const uint32_t u = bits(v[i]);
      flags |= special_flags(u);
      if (t.take(u)) continue;
      const Parts p = parts_of(u);
      if (!p.special && p.m) add_piece(p.m, p.e, p.neg, add);
    }
    t.flush();
    runs.push_back(t);
  }
  std::shuffle(runs.begin(), runs.end(), rng);
  for (const ThreadSum& t : runs) t.window.deposit(t.base, add);
  return round_limbs(limbs, flags);
}

// Floats whose double sum is exact (mantissas of 24 bits at exponents -10 .. 0, 10^4 of them: the sum
// spans under 48 bits), so the double sum rounded to float is the correctly rounded sum.
TEST(ExactSum, CorrectlyRoundedAgainstAnExactDoubleSum) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<float> v(10000);
    double exact_sum = 0;
    for (float& x : v) {
      const int32_t m = static_cast<int32_t>(rng() % (1u << 24)) * (rng() % 2 ? 1 : -1);
      x = std::ldexp(static_cast<float>(m), -static_cast<int>(rng() % 11) - 23);
      exact_sum += x;
    }
    EXPECT_EQ(bits(sum(v)), bits(static_cast<float>(exact_sum))) << trial;
  }
  // 2^20 uniform floats in [0, 1), multiples of 2^-24: the double sum is exact.
  std::vector<float> u(1u << 20);
  double s = 0;
  for (float& x : u) {
    x = static_cast<float>(rng() >> 8) / 16777216.0f;
    s += x;
  }
  EXPECT_EQ(bits(sum(u)), bits(static_cast<float>(s)));
  EXPECT_NE(bits(sum(u)), 0u);
}

TEST(ExactSum, SameBitsInAnyOrderAndAnySplit) {
  std::mt19937 rng(11);
  std::vector<float> v;
  // Mixed magnitudes (1e-30 .. 1e30), signs, subnormals, zeros of both signs.
  for (int i = 0; i < 20000; ++i) {
    const float mag = std::pow(10.0f, static_cast<float>(static_cast<int>(rng() % 61) - 30));
    v.push_back((rng() % 2 ? -1.0f : 1.0f) * mag * (1.0f + static_cast<float>(rng() % 1000) / 1000.0f));
  }
  for (int i = 0; i < 200; ++i) v.push_back(std::ldexp(static_cast<float>(rng() % 1000 + 1), -149));  // subnormals
  v.push_back(0.0f);
  v.push_back(-0.0f);
  const uint32_t want = bits(sum(v));
  for (int chunks : {1, 2, 3, 32, 1000, 20201}) {
    for (int t = 0; t < 3; ++t) EXPECT_EQ(bits(sum_windowed(v, chunks, rng)), want) << chunks << " runs, try " << t;
  }
  std::shuffle(v.begin(), v.end(), rng);
  EXPECT_EQ(bits(sum(v)), want) << "another order";
}

TEST(ExactSum, CancellationsZerosSubnormalsAndTies) {
  EXPECT_EQ(sum({1e30f, 1.0f, -1e30f}), 1.0f) << "a naive float or double sum gives 0";
  EXPECT_EQ(sum({FLT_MAX, FLT_MAX, -FLT_MAX}), FLT_MAX) << "exact in between: no overflow";
  EXPECT_EQ(bits(sum({-0.0f, -0.0f})), bits(-0.0f)) << "-0 only: -0";
  EXPECT_EQ(bits(sum({-0.0f, 0.0f})), bits(0.0f));
  EXPECT_EQ(bits(sum({1.5f, -1.5f})), bits(0.0f)) << "an exact zero is +0";
  const float tiny = std::ldexp(1.0f, -149);
  EXPECT_EQ(sum({tiny, tiny, tiny}), std::ldexp(3.0f, -149)) << "subnormals add exactly";
  std::vector<float> many(1u << 23, tiny);
  EXPECT_EQ(sum(many), std::ldexp(1.0f, -126)) << "2^23 subnormals make the smallest normal";
  // Ties go to the even mantissa; a bit below the tie (sticky) rounds up.
  EXPECT_EQ(sum({16777216.0f, 1.0f}), 16777216.0f);
  EXPECT_EQ(sum({16777218.0f, 1.0f}), 16777220.0f);
  EXPECT_EQ(sum({16777216.0f, 1.0f, std::ldexp(1.0f, -100)}), 16777218.0f);
  EXPECT_EQ(sum({-16777216.0f, -1.0f, -std::ldexp(1.0f, -100)}), -16777218.0f);
  // What the float atomics lose: 2^25 ones, one by one in float, stop at 2^24; the exact sum does not.
  std::vector<float> ones(1u << 25, 1.0f);
  EXPECT_EQ(sum(ones), 33554432.0f);
}

TEST(ExactSum, SpecialValuesFollowIeee) {
  uint32_t flags = 0;
  bool overflow = false;
  EXPECT_TRUE(std::isinf(sum({FLT_MAX, FLT_MAX}, &flags, &overflow)));
  EXPECT_TRUE(overflow) << "a finite sum beyond FLT_MAX is said, not a silent inf";
  EXPECT_LT(sum({-FLT_MAX, -FLT_MAX}), 0.0f);
  EXPECT_EQ(sum({1.0f, INFINITY, 2.0f}), INFINITY);
  EXPECT_EQ(sum({-INFINITY, 2.0f}), -INFINITY);
  EXPECT_TRUE(std::isnan(sum({INFINITY, -INFINITY})));
  EXPECT_TRUE(std::isnan(sum({1.0f, NAN})));
  sum({1.0f, NAN}, &flags, &overflow);
  EXPECT_TRUE(flags & kNaN);
  EXPECT_FALSE(overflow);
  EXPECT_EQ(bits(sum({})), bits(0.0f)) << "no element: +0 (N = 0 is refused before this)";
}

TEST(ExactSum, LongRunsMoveTheDoubleIntoTheWindow) {
  // One run of 3 x kFastRun + 5 elements at the top of the window (the double's worst case), with signs.
  std::mt19937 rng(5);
  std::vector<float> v(3 * kFastRun + 5);
  for (float& x : v) x = (rng() % 4 ? 1.0f : -1.0f) * std::ldexp(static_cast<float>((1u << 24) - 1 - rng() % 7), -10);
  EXPECT_EQ(bits(sum_windowed(v, 1, rng)), bits(sum(v)));
  // A normal float 2^k has e = k + 126: the window e = 100 .. 113 holds 2^-26 .. 1.99 x 2^-13.
  ThreadSum t;
  t.base = 100;
  for (int i = 0; i < kFastRun - 1; ++i) ASSERT_TRUE(t.take(bits(std::ldexp(1.99f, 113 - 126))));
  EXPECT_EQ(t.count, kFastRun - 1);
  EXPECT_TRUE(t.take(bits(std::ldexp(1.0f, 100 - 126))));
  EXPECT_EQ(t.count, 0) << "moved into the window at kFastRun";
  EXPECT_FALSE(t.take(bits(std::ldexp(1.0f, 114 - 126)))) << "above the window";
  EXPECT_FALSE(t.take(bits(std::ldexp(1.0f, 99 - 126)))) << "below the window";
  EXPECT_FALSE(t.take(bits(0.0f)));
  EXPECT_FALSE(t.take(bits(INFINITY)));
}

// Issue 20, item 4: a float32 running sum of values in [0, 1) stops at 2^24, and the WRONG verdict says why.
TEST(ExactSum, ARunningFloatSumStopsAt2To24AndTheNoteSaysWhy) {
  const std::vector<float> v = make_input_f32(Pattern::RandomBytes, (1u << 26) + 3);
  float running = 0;
  for (float x : v) running += x;  // one by one, as sum_atomic's single atomicAdd target does
  EXPECT_EQ(running, 16777216.0f);
  const double exact = cpu_reduce_f64(v).sum;
  EXPECT_NEAR(exact, 33556881.0, 1.0);
  const std::string why = float_sum_note(running, exact);
  EXPECT_NE(why.find("stuck at 2^24 = 16777216"), std::string::npos) << why;
  EXPECT_NE(why.find("below 2^0"), std::string::npos) << why;
  EXPECT_EQ(float_sum_note(sum(v), exact), "") << "the exact sum needs no excuse";
  EXPECT_EQ(float_sum_note(16777216.0f, 16777216.2), "") << "right within rounding";
  EXPECT_EQ(float_sum_note(33554432.0f, 40000000.0), std::string("stuck at 2^25 = 33554432: float32 keeps 24 significant "
                                                                  "bits, so there its values are 2^2 apart and adding "
                                                                  "anything below 2^1 rounds to nothing; a running float "
                                                                  "sum stops growing"));
  EXPECT_NE(float_sum_note(-16777216.0f, -3e7).find("-stuck at 2^24"), std::string::npos);
  // IEEE's special cases, said.
  EXPECT_NE(float_sum_note(INFINITY, 6.8e38).find("beyond float32's largest value"), std::string::npos);
  EXPECT_NE(float_sum_note(NAN, NAN).find("NaN"), std::string::npos);
  EXPECT_NE(float_sum_note(INFINITY, INFINITY).find("infinite"), std::string::npos);
  EXPECT_EQ(float_sum_note(3.0e38f, 3.0e38), "") << "finite and right: nothing to say";
}

TEST(ExactSum, WindowDepositsAtEveryAlignment) {
  // A window's deposit at each base (0 .. 253) equals adding its elements one by one into the limbs: values
  // m * 2^shift (m < 2^24, shift <= 38, so each fits an int64), 100 of them, either sign.
  constexpr int kMaxShift = 38;
  std::mt19937 rng(3);
  for (int base = 0; base <= 253 - kMaxShift; base += 7) {
    Window w;
    int64_t direct[kLimbs] = {}, deposited[kLimbs] = {};
    for (int i = 0; i < 100; ++i) {
      const uint32_t m = rng() % (1u << 24);
      const int shift = static_cast<int>(rng() % (kMaxShift + 1));
      const bool neg = rng() % 3 == 0;
      const int64_t v = static_cast<int64_t>(static_cast<uint64_t>(m) << shift);
      w.add(neg ? -v : v);
      add_piece(m, base + shift, neg, [&](int j, int64_t x) { direct[j] += x; });
    }
    w.deposit(base, [&](int j, int64_t x) { deposited[j] += x; });
    EXPECT_EQ(bits(round_limbs(direct, kNotNegZero)), bits(round_limbs(deposited, kNotNegZero))) << base;
  }
}

}  // namespace
}  // namespace rs
