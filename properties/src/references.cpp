#include "kverify/properties/references.hpp"

#include <cfloat>
#include <cmath>

namespace kverify::prop::ref {

static_assert(LDBL_MANT_DIG == 64, "the long double references assume x87 extended precision");

void ExactSum::add(double x) {
  std::size_t kept = 0;
  for (double y : partials_) {
    if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
    const double hi = x + y;
    const double lo = y - (hi - x);  // exact error of hi (Dekker's fast two-sum)
    if (lo != 0) partials_[kept++] = lo;
    x = hi;
  }
  partials_.resize(kept);
  partials_.push_back(x);
}

double ExactSum::value() const {
  // From the largest partial down; stop once the rest cannot change hi, then
  // round half-way cases correctly (math.fsum's final step).
  std::size_t n = partials_.size();
  if (n == 0) return 0.0;
  double hi = partials_[--n], lo = 0;
  while (n > 0) {
    const double x = hi, y = partials_[--n];
    hi = x + y;
    lo = y - (hi - x);
    if (lo != 0) break;
  }
  if (n > 0 && ((lo < 0 && partials_[n - 1] < 0) || (lo > 0 && partials_[n - 1] > 0))) {
    const double y = lo * 2, x = hi + y;
    if (y == x - hi) hi = x;
  }
  return hi;
}

namespace {
// Sums of magnitudes in long double: each of the i additions rounds up by at
// most a relative 2^-64; scaling by (1 + 2^-62 (i + 1)) keeps an upper bound.
long double upward(long double s, std::size_t terms) {
  return s * (1 + 0x1p-62L * static_cast<long double>(terms + 1));
}
}  // namespace

template <class T>
SumReference prefix_sums(const std::vector<T> &x, bool exclusive) {
  SumReference r;
  r.value.resize(x.size());
  r.abs_sum.resize(x.size());
  r.rel_error = 0x1p-53;  // correctly rounded to double
  ExactSum s;
  long double a = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (exclusive) {
      r.value[i] = s.value();
      r.abs_sum[i] = static_cast<double>(upward(a, i));
    }
    s.add(x[i]);
    a += std::fabs(static_cast<long double>(x[i]));
    if (!exclusive) {
      r.value[i] = s.value();
      r.abs_sum[i] = static_cast<double>(upward(a, i + 1));
    }
  }
  // abs_sum was rounded to double: nudge it up one ulp to stay an upper bound.
  for (double &v : r.abs_sum) v = std::nextafter(v, INFINITY);
  return r;
}

template <class T>
SumReference total_sum(const std::vector<T> &x) {
  SumReference r;
  r.rel_error = 0x1p-53;
  ExactSum s;
  long double a = 0;
  for (T v : x) {
    s.add(v);
    a += std::fabs(static_cast<long double>(v));
  }
  r.value = {s.value()};
  r.abs_sum = {std::nextafter(static_cast<double>(upward(a, x.size())), INFINITY)};
  return r;
}

std::vector<std::uint32_t> histogram(const std::vector<std::uint32_t> &values, std::size_t bins) {
  std::vector<std::uint32_t> out(bins, 0);
  for (std::uint32_t v : values) ++out[v % bins];
  return out;
}

namespace {
// Reference error of a long double dot product of `terms` products, relative
// to sum |a||b|: one rounding per product and per addition, unit 2^-64.
long double ld_dot_error(std::size_t terms) {
  const long double du = static_cast<long double>(terms + 1) * 0x1p-64L;
  return du / (1 - du) * (1 + 0x1p-60L);
}
}  // namespace

template <class T>
DotReference matmul(const std::vector<T> &a, const std::vector<T> &b, std::size_t m, std::size_t k,
                    std::size_t n) {
  DotReference r;
  r.value.assign(m * n, 0);
  r.abs_value.assign(m * n, 0);
  r.length = k;
  r.rel_error = ld_dot_error(k);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      long double s = 0, sa = 0;
      for (std::size_t p = 0; p < k; ++p) {
        const long double prod = static_cast<long double>(a[i * k + p]) * b[p * n + j];
        s += prod;
        sa += std::fabs(prod);
      }
      r.value[i * n + j] = s;
      r.abs_value[i * n + j] = sa;
    }
  return r;
}

template <class T>
DotReference saxpy(T a, const std::vector<T> &x, const std::vector<T> &y) {
  DotReference r;
  r.length = 2;
  r.rel_error = ld_dot_error(2);
  r.value.resize(x.size());
  r.abs_value.resize(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const long double prod = static_cast<long double>(a) * x[i];
    r.value[i] = prod + y[i];
    r.abs_value[i] = std::fabs(prod) + std::fabs(static_cast<long double>(y[i]));
  }
  return r;
}

std::vector<std::uint8_t> blur3x3(const std::vector<std::uint8_t> &in, std::size_t width,
                                  std::size_t height) {
  std::vector<std::uint8_t> out(in.size());
  for (std::size_t y = 0; y < height; ++y)
    for (std::size_t x = 0; x < width; ++x) {
      unsigned sum = 0, count = 0;
      for (std::size_t ny = y ? y - 1 : 0; ny <= y + 1 && ny < height; ++ny)
        for (std::size_t nx = x ? x - 1 : 0; nx <= x + 1 && nx < width; ++nx) {
          sum += in[ny * width + nx];
          ++count;
        }
      out[y * width + x] = static_cast<std::uint8_t>(sum / count);
    }
  return out;
}

std::vector<std::uint8_t> rgb_to_gray(const std::vector<std::uint8_t> &rgb, std::size_t width,
                                      std::size_t height) {
  std::vector<std::uint8_t> out(width * height);
  for (std::size_t i = 0; i < out.size(); ++i) {
    // Same float operations in the same order as the kernel; one statement
    // each so no FMA contraction or excess precision can creep in.
    const float r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];
    volatile float pr = 0.299f * r;
    volatile float pg = 0.587f * g;
    volatile float pb = 0.114f * b;
    volatile float s = pr + pg;
    volatile float v = s + pb;
    out[i] = static_cast<std::uint8_t>(v);
  }
  return out;
}

template SumReference prefix_sums<float>(const std::vector<float> &, bool);
template SumReference prefix_sums<double>(const std::vector<double> &, bool);
template SumReference total_sum<float>(const std::vector<float> &);
template SumReference total_sum<double>(const std::vector<double> &);
template DotReference matmul<float>(const std::vector<float> &, const std::vector<float> &, std::size_t,
                                    std::size_t, std::size_t);
template DotReference matmul<double>(const std::vector<double> &, const std::vector<double> &, std::size_t,
                                     std::size_t, std::size_t);
template DotReference saxpy<float>(float, const std::vector<float> &, const std::vector<float> &);
template DotReference saxpy<double>(double, const std::vector<double> &, const std::vector<double> &);

}  // namespace kverify::prop::ref
