// The tolerance models, tested on the CPU against exact references: they must
// accept correct summation orders (sequential, balanced tree, random trees)
// and dot products (fused or not) over >= 10^5 random cases, and reject a sum
// that drops or duplicates one element. No GPU needed; runs in CI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "kverify/properties/generators.hpp"
#include "kverify/properties/references.hpp"
#include "kverify/properties/tolerance.hpp"

namespace prop = kverify::prop;
namespace ref = kverify::prop::ref;

namespace {

constexpr int kCases = 100000;

std::size_t ceil_log2(std::size_t x) {
  std::size_t l = 0;
  while ((std::size_t{1} << l) < x) ++l;
  return l;
}

// Left to right in T: depth n - 1.
template <class T>
T sequential_sum(const std::vector<T> &x) {
  T s = 0;
  for (T v : x) s += v;
  return s;
}

// Balanced pairwise tree in T: depth ceil(log2 n).
template <class T>
T pairwise_sum(const T *x, std::size_t n) {
  if (n == 0) return 0;
  if (n == 1) return x[0];
  const std::size_t h = (n + 1) / 2;
  return pairwise_sum(x, h) + pairwise_sum(x + h, n - h);
}

// A random tree: repeatedly add two random neighbours. Returns the sum and
// the depth of the tree actually built.
template <class T>
std::pair<T, std::size_t> random_tree_sum(std::vector<T> x, std::mt19937_64 &rng) {
  std::vector<std::size_t> depth(x.size(), 0);
  while (x.size() > 1) {
    const std::size_t i = std::uniform_int_distribution<std::size_t>(0, x.size() - 2)(rng);
    x[i] = x[i] + x[i + 1];
    depth[i] = std::max(depth[i], depth[i + 1]) + 1;
    x.erase(x.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    depth.erase(depth.begin() + static_cast<std::ptrdiff_t>(i) + 1);
  }
  return {x.empty() ? T(0) : x[0], depth.empty() ? 0 : depth[0]};
}

template <class T>
std::vector<T> random_array(std::mt19937_64 &rng, std::size_t max_n) {
  const std::size_t n = std::uniform_int_distribution<std::size_t>(1, max_n)(rng);
  std::vector<T> x(n);
  prop::gen::fill(x, rng());
  return x;
}

template <class T>
prop::Verdict check_sum(T got, const std::vector<T> &x, std::size_t depth) {
  return prop::summation(std::vector<T>{got}, ref::total_sum(x), [depth](std::size_t) { return depth; });
}

template <class T>
void accepts_correct_orders() {
  std::mt19937_64 rng(12345);
  for (int c = 0; c < kCases; ++c) {
    const auto x = random_array<T>(rng, c % 20 == 0 ? 2000 : 200);
    const std::size_t n = x.size();
    auto v = check_sum(sequential_sum(x), x, n - 1);
    ASSERT_TRUE(v.ok) << "sequential, case " << c << ": " << v.message;
    v = check_sum(pairwise_sum(x.data(), n), x, ceil_log2(n));
    ASSERT_TRUE(v.ok) << "pairwise, case " << c << ": " << v.message;
    if (c % 10 == 0) {
      const auto [s, d] = random_tree_sum(x, rng);
      v = check_sum(s, x, d);
      ASSERT_TRUE(v.ok) << "random tree of depth " << d << ", case " << c << ": " << v.message;
    }
  }
}

// Drop or duplicate one element of at least average magnitude. Smaller ones
// can hide below the rounding of the rest: no model can see those, and for
// one at least the average the bound (at most n^2 u |x_j| for the sequential
// order) stays below |x_j| for n <= 2000 in float.
template <class T>
void rejects_dropped_or_duplicated_element() {
  std::mt19937_64 rng(777);
  int tested = 0;
  for (int c = 0; c < kCases; ++c) {
    auto x = random_array<T>(rng, c % 20 == 0 ? 2000 : 400);
    long double mean = 0;
    for (T v : x) mean += std::fabs(static_cast<long double>(v));
    mean /= x.size();
    std::vector<std::size_t> big;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (x[i] != 0 && std::fabs(static_cast<long double>(x[i])) >= mean) big.push_back(i);
    if (big.empty()) continue;  // all zeros: dropping one changes nothing
    ++tested;
    const std::size_t j = big[rng() % big.size()];
    std::vector<T> mutated = x;
    const bool drop = c % 2 == 0;
    if (drop)
      mutated.erase(mutated.begin() + static_cast<std::ptrdiff_t>(j));
    else
      mutated.insert(mutated.begin() + static_cast<std::ptrdiff_t>(j), x[j]);
    const std::size_t n = x.size();
    auto v = check_sum(sequential_sum(mutated), x, n - 1);
    ASSERT_FALSE(v.ok) << (drop ? "dropped" : "duplicated") << " x[" << j << "] = " << x[j]
                       << " accepted (sequential), n = " << n << ", case " << c;
    v = check_sum(pairwise_sum(mutated.data(), mutated.size()), x, ceil_log2(n));
    ASSERT_FALSE(v.ok) << (drop ? "dropped" : "duplicated") << " x[" << j << "] = " << x[j]
                       << " accepted (pairwise), n = " << n << ", case " << c;
  }
  EXPECT_GT(tested, kCases * 9 / 10);
}

}  // namespace

TEST(Gamma, MatchesItsDefinition) {
  EXPECT_EQ(prop::gamma(0, 0x1p-24), 0.0);
  EXPECT_NEAR(prop::gamma(10, 0x1p-24), 10 * 0x1p-24 / (1 - 10 * 0x1p-24), 1e-20);
  EXPECT_GE(prop::gamma(10, 0x1p-24), 10 * 0x1p-24 / (1 - 10 * 0x1p-24));
  EXPECT_TRUE(std::isinf(prop::gamma(std::size_t{1} << 24, 0x1p-24)));
}

TEST(ExactSum, IsExactWhereDoubleArithmeticIsNot) {
  ref::ExactSum s;
  for (double v : {1e100, 1.0, -1e100, 0x1p-1074, 3.0}) s.add(v);
  EXPECT_EQ(s.value(), 4.0);
  // Many integers: compare with 64-bit integer arithmetic.
  std::mt19937_64 rng(1);
  ref::ExactSum t;
  std::int64_t exact = 0;
  for (int i = 0; i < 100000; ++i) {
    const std::int64_t v = static_cast<std::int64_t>(rng() >> 12) - (std::int64_t{1} << 51);
    t.add(static_cast<double>(v));
    exact += v;
  }
  EXPECT_EQ(t.value(), static_cast<double>(exact));
  // Correct rounding of a half-way case: 1 + 2^-53 + 2^-110 rounds up.
  ref::ExactSum h;
  for (double v : {1.0, 0x1p-53, 0x1p-110}) h.add(v);
  EXPECT_EQ(h.value(), 1.0 + 0x1p-52);
}

TEST(ExactModel, ComparesValuesAndExplainsTheFirstMismatch) {
  EXPECT_TRUE(prop::exact(std::vector<float>{0.0f, 1.5f}, std::vector<float>{-0.0f, 1.5f}).ok);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(prop::exact(std::vector<float>{nan}, std::vector<float>{nan}).ok);
  const auto v = prop::exact(std::vector<int>{1, 2, 3, 4}, std::vector<int>{1, 2, 5, 6});
  ASSERT_FALSE(v.ok);
  EXPECT_EQ(v.failures, 2u);
  EXPECT_EQ(v.first, 2u);
  EXPECT_NE(v.message.find("model exact"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("element 2: got 3, expected 5"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("2 of 4"), std::string::npos) << v.message;
  EXPECT_FALSE(prop::exact(std::vector<int>{1}, std::vector<int>{1, 2}).ok);
}

TEST(ExactModel, NamesPoisonedElements) {
  float poison;
  std::memset(&poison, 0xFF, sizeof poison);
  const auto v = prop::exact(std::vector<float>{1.0f, poison}, std::vector<float>{1.0f, 2.0f});
  ASSERT_FALSE(v.ok);
  EXPECT_NE(v.message.find("poison"), std::string::npos) << v.message;
}

TEST(UlpsModel, CountsRepresentableValues) {
  EXPECT_EQ(prop::ulp_distance(1.0f, std::nextafter(1.0f, 2.0f)), 1u);
  EXPECT_EQ(prop::ulp_distance(0.0f, -0.0f), 0u);
  EXPECT_EQ(prop::ulp_distance(-0x1p-149f, 0x1p-149f), 2u);
  EXPECT_EQ(prop::ulp_distance(1.0, 1.0 + 4 * 0x1p-52), 4u);
  EXPECT_TRUE(prop::ulps(std::vector<float>{1.0f + 0x1p-22f}, std::vector<float>{1.0f}, 2).ok);
  const auto v = prop::ulps(std::vector<float>{1.0f + 0x1p-21f}, std::vector<float>{1.0f}, 2);
  ASSERT_FALSE(v.ok);
  EXPECT_NE(v.message.find("4 ulps apart > bound 2"), std::string::npos) << v.message;
}

TEST(AbsRelModel, CombinesAbsoluteAndRelativeParts) {
  EXPECT_TRUE(prop::abs_rel(std::vector<float>{1.001f}, std::vector<double>{1.0}, 0, 2e-3).ok);
  EXPECT_TRUE(prop::abs_rel(std::vector<float>{1e-7f}, std::vector<double>{0.0}, 1e-6, 0).ok);
  const auto v = prop::abs_rel(std::vector<float>{1.01f}, std::vector<double>{1.0}, 1e-3, 1e-3);
  ASSERT_FALSE(v.ok);
  EXPECT_NE(v.message.find("bound"), std::string::npos) << v.message;
}

TEST(SummationModel, ExplainsIndexGotExpectedBoundAndModel) {
  const std::vector<float> x{1.0f, 2.0f, 3.0f};
  const auto r = ref::prefix_sums(x, false);
  const auto v = prop::summation(std::vector<float>{1.0f, 3.0f, 7.0f}, r, [](std::size_t i) { return i; });
  ASSERT_FALSE(v.ok);
  EXPECT_EQ(v.first, 2u);
  for (const char *part : {"model summation", "element 2", "got 7", "expected 6", "bound", "gamma_2"})
    EXPECT_NE(v.message.find(part), std::string::npos) << part << " in: " << v.message;
}

TEST(SummationModel, AcceptsSequentialAndTreeOrdersFloat) { accepts_correct_orders<float>(); }
TEST(SummationModel, AcceptsSequentialAndTreeOrdersDouble) { accepts_correct_orders<double>(); }
TEST(SummationModel, RejectsDroppedOrDuplicatedElementFloat) {
  rejects_dropped_or_duplicated_element<float>();
}
TEST(SummationModel, RejectsDroppedOrDuplicatedElementDouble) {
  rejects_dropped_or_duplicated_element<double>();
}

// Prefix sums: the sequential scan passes with depth i; dropping an element
// of at least average magnitude makes the outputs from there on fail.
TEST(SummationModel, ScanAcceptsSequentialRejectsDrop) {
  std::mt19937_64 rng(99);
  for (int c = 0; c < 10000; ++c) {
    const auto x = random_array<float>(rng, 500);
    const auto want = ref::prefix_sums(x, false);
    const auto seq = ref::scan<float, kverify::kernels::Sum>(x, false);
    const auto v = prop::summation(seq, want, [](std::size_t i) { return i; });
    ASSERT_TRUE(v.ok) << "case " << c << ": " << v.message;
    // Drop the largest element (the last output then misses it).
    const std::size_t j = static_cast<std::size_t>(
        std::max_element(x.begin(), x.end(), [](float a, float b) { return std::fabs(a) < std::fabs(b); }) -
        x.begin());
    if (x[j] == 0) continue;
    std::vector<float> dropped = x;
    dropped[j] = 0;
    const auto bad = prop::summation(ref::scan<float, kverify::kernels::Sum>(dropped, false), want,
                                     [](std::size_t i) { return i; });
    ASSERT_FALSE(bad.ok) << "case " << c;
    EXPECT_EQ(bad.first, j);
  }
}

// Dot products of length k in float, sequential with and without fused
// multiply-adds, against the long double reference under dot(k); and a
// product term left out must be rejected.
TEST(DotModel, AcceptsFusedAndUnfusedRejectsMissingTerm) {
  std::mt19937_64 rng(4242);
  const prop::gen::FloatRange range{-30, 30};
  for (int c = 0; c < kCases; ++c) {
    const std::size_t k = std::uniform_int_distribution<std::size_t>(1, 64)(rng);
    std::vector<float> a(k), b(k);
    prop::gen::fill(a, rng(), range);
    prop::gen::fill(b, rng(), range);
    const auto want = ref::matmul(a, b, 1, k, 1);
    float plain = 0, fused = 0;
    for (std::size_t p = 0; p < k; ++p) {
      const float prod = a[p] * b[p];
      plain = plain + prod;
      fused = std::fma(a[p], b[p], fused);
    }
    auto v = prop::dot(std::vector<float>{plain}, want);
    ASSERT_TRUE(v.ok) << "unfused, case " << c << ": " << v.message;
    v = prop::dot(std::vector<float>{fused}, want);
    ASSERT_TRUE(v.ok) << "fused, case " << c << ": " << v.message;
    // Leave out the largest product term.
    std::size_t j = 0;
    for (std::size_t p = 1; p < k; ++p)
      if (std::fabs(static_cast<double>(a[p]) * b[p]) > std::fabs(static_cast<double>(a[j]) * b[j])) j = p;
    if (std::fabs(static_cast<double>(a[j]) * b[j]) < 1e-30) continue;  // tiny: below underflow slack
    float missing = 0;
    for (std::size_t p = 0; p < k; ++p)
      if (p != j) missing = std::fma(a[p], b[p], missing);
    ASSERT_FALSE(prop::dot(std::vector<float>{missing}, want).ok) << "case " << c;
  }
}
