// Shared by the GPU property suites: device round trips with poisoned outputs, and
// comparisons of scan/reduction results under the right model for their type and operator.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "kverify/kernels/ops.hpp"
#include "kverify/properties/generators.hpp"
#include "kverify/properties/gpu_test.hpp"  // KV_GPU_PROPERTY: skips without a GPU
#include "kverify/properties/rc_support.hpp"
#include "kverify/properties/references.hpp"
#include "kverify/properties/tolerance.hpp"
#include "kverify/runtime/buffer.hpp"

namespace kvtest {

namespace rt = kverify::rt;
namespace kk = kverify::kernels;
namespace prop = kverify::prop;
namespace ref = kverify::prop::ref;
namespace gen = kverify::prop::gen;

// Output buffers start poisoned with this byte (0xFF: NaN for floats); the
// second run of a determinism check uses another, so an element a kernel never
// writes differs between the runs even where 0xFF...F is a legal integer.
inline constexpr unsigned char kSecondPoison = 0xA5;

template <class T>
rt::DeviceBuffer<T> poisoned(std::size_t n, unsigned char byte = rt::kPoisonByte) {
  rt::DeviceBuffer<T> b(n);
  b.fill_bytes(byte);
  return b;
}

template <class T>
bool same_bits(const std::vector<T> &a, const std::vector<T> &b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <class T>
std::string first_bit_difference(const std::vector<T> &a, const std::vector<T> &b) {
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0)
      return "element " + std::to_string(i) + ": run 1 " + prop::show(a[i]) + ", run 2 " + prop::show(b[i]);
  return "sizes " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
}

template <class T, class Op>
constexpr bool is_exact_op() {
  return std::is_integral_v<T> || std::is_same_v<Op, kk::Max>;
}

// Scan output against the sequential reference: exact for integers and max,
// summation(depth(i)) for float and double sums.
template <class T, class Op, class Depth>
prop::Verdict check_scan(const std::vector<T> &x, const std::vector<T> &got, bool exclusive, Depth depth,
                         const std::string &depth_note) {
  if constexpr (is_exact_op<T, Op>())
    return prop::exact(got, ref::scan<T, Op>(x, exclusive));
  else
    return prop::summation(got, ref::prefix_sums(x, exclusive), depth, depth_note);
}

template <class T, class Op>
prop::Verdict check_reduce(const std::vector<T> &x, T got, std::size_t depth, const std::string &depth_note) {
  if constexpr (is_exact_op<T, Op>())
    return prop::exact(std::vector<T>{got}, std::vector<T>{ref::reduce<T, Op>(x)});
  else
    return prop::summation(
        std::vector<T>{got}, ref::total_sum(x), [depth](std::size_t) { return depth; }, depth_note);
}

}  // namespace kvtest
