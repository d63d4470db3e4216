// Tolerance models for the property suites (README.md, "Adopting kverify in a CMake
// project"; docs/ARCHITECTURE.md, "A property suite"). Each compares a kernel's
// output with a reference and, on failure, explains the first element outside
// the model: index, got, expected, bound, model, and how many are outside.
//
//   exact          integers bit for bit; floats equal as values (+0 == -0, NaN never)
//   ulps(k)        at most k representable values apart
//   abs_rel(a, r)  |got - e| <= a + r |e|
//   summation(d)   a sum evaluated by any tree of depth d (Higham, Accuracy and
//                  Stability of Numerical Algorithms, 2nd ed., sec. 4.2):
//                  |s^ - s| <= gamma_d sum|x_i|, gamma_d = d u / (1 - d u)
//   dot(n)         matrix products (Higham sec. 3.1): |C^ - C| <= gamma_n |A||B|
//                  elementwise, plus n underflow terms (products may be subnormal)
//
// The references carry their own error (they are double or long double
// computations); the bounds add it explicitly rather than hiding it.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace kverify::prop {

template <class T>
constexpr double unit_roundoff() {
  static_assert(std::is_floating_point_v<T>);
  return std::numeric_limits<T>::epsilon() / 2;  // 2^-24 for float, 2^-53 for double
}

// gamma_d = d u / (1 - d u); +inf once d u >= 1 (the bound says nothing).
double gamma(std::size_t d, double u);

struct Verdict {
  bool ok = true;
  std::size_t failures = 0;  // elements outside the model
  std::size_t first = 0;     // index of the first one
  std::string message;       // explanation of the first one
  explicit operator bool() const { return ok; }
};

// A text for one value: decimal, then the raw bits (and "poison" when the
// element still holds the 0xFF fill, i.e. was never written).
std::string show(float v);
std::string show(double v);
std::string show(long double v);
std::string show(std::int32_t v);
std::string show(std::uint32_t v);
std::string show(std::uint8_t v);

// Shared bookkeeping: records the first failure, counts all of them.
class Explainer {
public:
  Explainer(std::string model, std::size_t count) : model_(std::move(model)), count_(count) {}
  template <class T, class E>
  void fail(std::size_t i, T got, E expected, const std::string &detail) {
    if (verdict_.failures++ == 0) {
      verdict_.ok = false;
      verdict_.first = i;
      first_ = "element " + std::to_string(i) + ": got " + show(got) + ", expected " + show(expected) +
               (detail.empty() ? "" : ", " + detail);
    }
  }
  void size_mismatch(std::size_t got, std::size_t expected);
  Verdict finish();

private:
  std::string model_;
  std::size_t count_;
  std::string first_;
  Verdict verdict_;
};

template <class T>
Verdict exact(const std::vector<T> &got, const std::vector<T> &expected) {
  Explainer ex("exact", expected.size());
  if (got.size() != expected.size()) {
    ex.size_mismatch(got.size(), expected.size());
    return ex.finish();
  }
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(got[i] == expected[i])) ex.fail(i, got[i], expected[i], "");
  return ex.finish();
}

// Distance in representable values (0 between +0 and -0); max for NaN.
template <class T>
std::uint64_t ulp_distance(T a, T b);

template <class T>
Verdict ulps(const std::vector<T> &got, const std::vector<T> &expected, std::uint64_t k) {
  Explainer ex("ulps(" + std::to_string(k) + ")", expected.size());
  if (got.size() != expected.size()) {
    ex.size_mismatch(got.size(), expected.size());
    return ex.finish();
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    const std::uint64_t d = ulp_distance(got[i], expected[i]);
    if (d > k)
      ex.fail(i, got[i], expected[i], std::to_string(d) + " ulps apart > bound " + std::to_string(k));
  }
  return ex.finish();
}

std::string describe_bound(long double err, long double bound, const std::string &how);

template <class T>
Verdict abs_rel(const std::vector<T> &got, const std::vector<double> &expected, double a, double r) {
  Explainer ex("abs_rel(" + show(a) + ", " + show(r) + ")", expected.size());
  if (got.size() != expected.size()) {
    ex.size_mismatch(got.size(), expected.size());
    return ex.finish();
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    const long double err = std::fabs(static_cast<long double>(got[i]) - expected[i]);
    const long double bound = a + r * std::fabs(static_cast<long double>(expected[i]));
    if (!(err <= bound)) ex.fail(i, got[i], expected[i], describe_bound(err, bound, "a + r|e|"));
  }
  return ex.finish();
}

// Exact sums (correctly rounded to double) of each output's terms, and the
// sums of their magnitudes. value[i] is within rel_error |value[i]| of the
// true sum; abs_sum[i] is an upper bound of sum |x_j| (rounded upwards).
struct SumReference {
  std::vector<double> value;
  std::vector<double> abs_sum;
  double rel_error = 0;
};

// depth(i): the depth of the addition tree of output i.
template <class T>
Verdict summation(const std::vector<T> &got, const SumReference &ref,
                  const std::function<std::size_t(std::size_t)> &depth, const std::string &depth_note = "") {
  const double u = unit_roundoff<T>();
  Explainer ex("summation(depth" + (depth_note.empty() ? std::string() : " " + depth_note) + ")",
               ref.value.size());
  if (got.size() != ref.value.size()) {
    ex.size_mismatch(got.size(), ref.value.size());
    return ex.finish();
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    const std::size_t d = depth(i);
    const long double err = std::fabs(static_cast<long double>(got[i]) - ref.value[i]);
    const long double bound = static_cast<long double>(gamma(d, u)) * ref.abs_sum[i] +
                              static_cast<long double>(ref.rel_error) * std::fabs(ref.value[i]);
    if (!(err <= bound))
      ex.fail(i, got[i], ref.value[i],
              describe_bound(err, bound,
                             "gamma_" + std::to_string(d) + " * sum|x| (sum|x| = " + show(ref.abs_sum[i]) +
                                 ") + reference error"));
  }
  return ex.finish();
}

// Exact-ish dot products in long double: value and sum of |a||b| per output,
// `length` terms each; rel_error bounds the reference's own error relative to
// abs_value (products and sums rounded to 64-bit significands).
struct DotReference {
  std::vector<long double> value;
  std::vector<long double> abs_value;
  std::size_t length = 0;
  long double rel_error = 0;
};

template <class T>
Verdict dot(const std::vector<T> &got, const DotReference &ref) {
  const double u = unit_roundoff<T>();
  // Underflow: a product that lands among the subnormals is off by up to half
  // the smallest subnormal, which no relative bound covers.
  const long double eta = std::numeric_limits<T>::denorm_min() / 2.0L;
  Explainer ex("dot(" + std::to_string(ref.length) + ")", ref.value.size());
  if (got.size() != ref.value.size()) {
    ex.size_mismatch(got.size(), ref.value.size());
    return ex.finish();
  }
  const long double g = gamma(ref.length, u);
  for (std::size_t i = 0; i < got.size(); ++i) {
    const long double err = std::fabs(static_cast<long double>(got[i]) - ref.value[i]);
    const long double bound = (g + ref.rel_error) * ref.abs_value[i] * (1 + ref.rel_error) +
                              static_cast<long double>(ref.length) * eta;
    if (!(err <= bound))
      ex.fail(i, got[i], ref.value[i],
              describe_bound(err, bound,
                             "gamma_" + std::to_string(ref.length) +
                                 " * (|A||B|)_ij (= " + show(static_cast<double>(ref.abs_value[i])) +
                                 ") + n * eta + reference error"));
  }
  return ex.finish();
}

}  // namespace kverify::prop
