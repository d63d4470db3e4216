// Sequential CPU references. Integer results in the kernels' own wrapping
// arithmetic (the same Op types); float sums exactly (then rounded once);
// dot products in long double with their error stated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kverify/kernels/ops.hpp"
#include "kverify/properties/tolerance.hpp"

namespace kverify::prop::ref {

// Sequential scan: out[i] = x[0] op ... op x[i] (inclusive) or op of x[0..i)
// (exclusive, identity first). In T's own arithmetic: exact for integers and
// max; for float sums this is the left-to-right order (depth i).
template <class T, class Op>
std::vector<T> scan(const std::vector<T> &x, bool exclusive) {
  std::vector<T> out(x.size());
  T acc = Op::template identity<T>();
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (exclusive) out[i] = acc;
    acc = i == 0 ? x[0] : Op{}(acc, x[i]);
    if (!exclusive) out[i] = acc;
  }
  return out;
}

template <class T, class Op>
T reduce(const std::vector<T> &x) {
  T acc = Op::template identity<T>();
  for (std::size_t i = 0; i < x.size(); ++i) acc = i == 0 ? x[0] : Op{}(acc, x[i]);
  return acc;
}

// Exact summation of doubles (Shewchuk's non-overlapping partials, as in
// Python's math.fsum); value() is the exact sum correctly rounded to double.
class ExactSum {
public:
  void add(double x);
  double value() const;

private:
  std::vector<double> partials_;
};

// Exact prefix sums of float or double inputs (inclusive or exclusive), with
// the magnitude sums the summation model needs.
template <class T>
SumReference prefix_sums(const std::vector<T> &x, bool exclusive);
// The exact sum of all of x, as a one-element SumReference.
template <class T>
SumReference total_sum(const std::vector<T> &x);

std::vector<std::uint32_t> histogram(const std::vector<std::uint32_t> &values, std::size_t bins);

template <class T>
std::vector<T> transpose(const std::vector<T> &in, std::size_t rows, std::size_t cols) {
  std::vector<T> out(in.size());
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
  return out;
}

// c = a (m x k) * b (k x n), per element in long double.
template <class T>
DotReference matmul(const std::vector<T> &a, const std::vector<T> &b, std::size_t m, std::size_t k,
                    std::size_t n);
// a x + y: dot products of length 2, (a, 1) . (x_i, y_i).
template <class T>
DotReference saxpy(T a, const std::vector<T> &x, const std::vector<T> &y);

std::vector<std::uint8_t> blur3x3(const std::vector<std::uint8_t> &in, std::size_t width, std::size_t height);
std::vector<std::uint8_t> rgb_to_gray(const std::vector<std::uint8_t> &rgb, std::size_t width,
                                      std::size_t height);

}  // namespace kverify::prop::ref
