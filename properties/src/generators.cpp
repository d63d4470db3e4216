#include "kverify/properties/generators.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace kverify::prop::gen {
namespace {

std::uint64_t splitmix64(std::uint64_t &state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// 0, 1, -1, 2, -2, ...: small bit patterns give values near 0.
std::int64_t zigzag(std::uint64_t v) {
  return (v & 1) ? -static_cast<std::int64_t>((v + 1) / 2) : static_cast<std::int64_t>(v / 2);
}

template <class T>
T draw_int(std::uint64_t bits) {
  using L = std::numeric_limits<T>;
  const std::uint64_t rest = bits >> 2;
  switch (bits & 3) {
    case 0: {
      std::int64_t v = zigzag(rest % 201);
      if (!L::is_signed && v < 0) v = -v;
      return static_cast<T>(v);
    }
    case 1: {
      const T edges[] = {T(0),
                         T(1),
                         static_cast<T>(-1),
                         L::min(),
                         L::max(),
                         static_cast<T>(L::min() + 1),
                         static_cast<T>(L::max() - 1)};
      return edges[rest % 7];
    }
    default: return static_cast<T>(rest >> 8);  // uniform over the 32 bits
  }
}

template <class T>
T draw_float(std::uint64_t bits, FloatRange range) {
  using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  constexpr int kMant = std::numeric_limits<T>::digits - 1;  // 23 or 52
  constexpr int kBias = std::numeric_limits<T>::max_exponent - 1;
  const std::uint64_t rest = bits >> 3;
  const bool negative = rest & 1;
  const std::uint64_t r = rest >> 1;
  const U mant = static_cast<U>(r & ((U(1) << kMant) - 1));
  T v;
  switch (bits & 7) {
    case 0: v = T(0); break;
    case 1: {  // subnormal: exponent field 0, mantissa non-zero
      U b = mant ? mant : U(1);
      std::memcpy(&v, &b, sizeof v);
      break;
    }
    case 2: v = static_cast<T>(zigzag(r % 201)); break;
    default: {
      const std::uint64_t span = static_cast<std::uint64_t>(range.max_exp - range.min_exp + 1);
      std::uint64_t mix = bits;  // the exponent needs more bits than r has left
      const int e = range.min_exp + static_cast<int>(splitmix64(mix) % span);
      U b = (static_cast<U>(e + kBias) << kMant) | mant;
      std::memcpy(&v, &b, sizeof v);
    }
  }
  return negative ? -v : v;
}

}  // namespace

template <>
FloatRange default_range<float>() {
  return {-126, 40};
}
template <>
FloatRange default_range<double>() {
  return {-1022, 300};
}
template <>
FloatRange default_range<std::int32_t>() {
  return {0, 0};
}
template <>
FloatRange default_range<std::uint32_t>() {
  return {0, 0};
}

template <>
std::int32_t draw(std::uint64_t bits, FloatRange) {
  return draw_int<std::int32_t>(bits);
}
template <>
std::uint32_t draw(std::uint64_t bits, FloatRange) {
  return draw_int<std::uint32_t>(bits);
}
template <>
float draw(std::uint64_t bits, FloatRange range) {
  return draw_float<float>(bits, range);
}
template <>
double draw(std::uint64_t bits, FloatRange range) {
  return draw_float<double>(bits, range);
}

template <class T>
void fill(std::vector<T> &out, std::uint64_t seed, FloatRange range) {
  for (T &v : out) v = draw<T>(splitmix64(seed), range);
}

rc::Gen<std::size_t> sizes(std::size_t block, std::size_t large) {
  using rc::gen::inRange;
  const std::size_t b = block;
  return rc::gen::weightedOneOf<std::size_t>({
      {3, pick<std::size_t>({0, 1, 2, 3, b - 1, b, b + 1, 2 * b - 1, 2 * b + 1, 7 * b + 3})},
      {4, inRange<std::size_t>(0, 4 * b + 1)},
      {2, inRange<std::size_t>(0, large + 1)},
  });
}

template <class T>
rc::Gen<std::vector<T>> arrays(std::size_t n, FloatRange range) {
  if (n <= kElementwiseLimit)
    return rc::gen::container<std::vector<T>>(
        n, rc::gen::map(rc::gen::inRange<std::uint64_t>(0, std::numeric_limits<std::uint64_t>::max()),
                        [range](std::uint64_t bits) { return draw<T>(bits, range); }));
  return rc::gen::map(rc::gen::arbitrary<std::uint64_t>(), [n, range](std::uint64_t seed) {
    std::vector<T> v(n);
    fill(v, seed, range);
    return v;
  });
}

template <class T>
rc::Gen<std::vector<T>> arrays(rc::Gen<std::size_t> size, FloatRange range) {
  return rc::gen::mapcat(std::move(size), [range](std::size_t n) { return arrays<T>(n, range); });
}

rc::Gen<unsigned> block_sizes(kernels::BlockScanAlgorithm algo) {
  using kernels::BlockScanAlgorithm;
  switch (algo) {
    case BlockScanAlgorithm::Blelloch: return pick<unsigned>({2, 4, 8, 16, 32, 64, 128, 256, 512, 1024});
    case BlockScanAlgorithm::WarpShuffle:
      return rc::gen::map(rc::gen::inRange(1u, 33u), [](unsigned w) { return 32 * w; });
    default: return block_sizes(2, 1024);
  }
}

rc::Gen<unsigned> block_sizes(kernels::BlockReduceAlgorithm algo) {
  if (algo == kernels::BlockReduceAlgorithm::WarpShuffle)
    return rc::gen::map(rc::gen::inRange(1u, 33u), [](unsigned w) { return 32 * w; });
  return block_sizes(2, 1024);
}

rc::Gen<unsigned> block_sizes(unsigned lo, unsigned hi) {
  return rc::gen::weightedOneOf<unsigned>({
      {1, pick<unsigned>({32, 64, 128, 256, 512, 1024})},
      {1, rc::gen::inRange(lo, hi + 1)},
  });
}

#define KV_GEN(T)                                                      \
  template void fill<T>(std::vector<T> &, std::uint64_t, FloatRange);  \
  template rc::Gen<std::vector<T>> arrays<T>(std::size_t, FloatRange); \
  template rc::Gen<std::vector<T>> arrays<T>(rc::Gen<std::size_t>, FloatRange);
KV_GEN(std::int32_t)
KV_GEN(std::uint32_t)
KV_GEN(float)
KV_GEN(double)

}  // namespace kverify::prop::gen
