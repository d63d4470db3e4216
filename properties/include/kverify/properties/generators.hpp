// RapidCheck generators for the property suites (README.md, "Adopting kverify in a CMake
// project"; docs/ARCHITECTURE.md, "A property suite").
//
// Values come from one function per type, draw<T>(bits): small bit patterns
// give simple values (0 for bits == 0), so shrinking the bits shrinks values.
// Arrays of up to kElementwiseLimit elements are generated element by element
// (each element shrinks); longer ones from a seed and a fast PRNG with the
// same distribution (they shrink by length, which is what finds small
// counterexamples; element-wise generation of 2^20 values would be too slow).
#pragma once

#include <rapidcheck.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kverify/kernels/reduce.hpp"
#include "kverify/kernels/scan.hpp"

namespace kverify::prop::gen {

inline constexpr std::size_t kElementwiseLimit = 2048;

// Range of binary exponents for normal floats, e.g. {-126, 40} for float sums
// (no overflow for n up to 2^28), subnormals and signed zeros included anyway.
struct FloatRange {
  int min_exp;
  int max_exp;
};
template <class T>
FloatRange default_range();  // float: [-126, 40]; double: [-1022, 300]; unused for integers
template <>
FloatRange default_range<float>();
template <>
FloatRange default_range<double>();
template <>
FloatRange default_range<std::int32_t>();
template <>
FloatRange default_range<std::uint32_t>();

// Value distributions.
//  integers: 1/4 small (|v| <= 100), 1/4 edges (min, max, 0, +-1, min+1, max-1),
//            1/2 uniform over the full range (sums wrap);
//  floats:   1/8 signed zeros, 1/8 subnormals, 1/8 small integers,
//            5/8 normals with a uniform exponent in range and a random sign.
template <class T>
T draw(std::uint64_t bits, FloatRange range = default_range<T>());
template <>
std::int32_t draw(std::uint64_t bits, FloatRange range);
template <>
std::uint32_t draw(std::uint64_t bits, FloatRange range);
template <>
float draw(std::uint64_t bits, FloatRange range);
template <>
double draw(std::uint64_t bits, FloatRange range);

// One of the given values, shrinking towards the first (rc::gen::element does
// not shrink at all, so a counterexample would keep whatever edge it drew).
template <class T>
rc::Gen<T> pick(std::vector<T> values) {
  const std::size_t count = values.size();
  return rc::gen::map(rc::gen::inRange<std::size_t>(0, count),
                      [values = std::move(values)](std::size_t i) { return values[i]; });
}

// Sizes hitting the edges around a block: 0, 1, 2, block - 1, block,
// block + 1, multiples +- 1, small non powers of two, and large up to `large`.
rc::Gen<std::size_t> sizes(std::size_t block, std::size_t large);

// Arrays of n elements from draw<T>.
template <class T>
rc::Gen<std::vector<T>> arrays(std::size_t n, FloatRange range = default_range<T>());
template <class T>
rc::Gen<std::vector<T>> arrays(rc::Gen<std::size_t> size, FloatRange range = default_range<T>());

// Launch configurations the algorithm accepts.
rc::Gen<unsigned> block_sizes(kernels::BlockScanAlgorithm algo);
rc::Gen<unsigned> block_sizes(kernels::BlockReduceAlgorithm algo);
// Any block size in [lo, hi] (1-D launches of the simple kernels).
rc::Gen<unsigned> block_sizes(unsigned lo, unsigned hi);

// Fills out with draw<T> over a SplitMix64 sequence from seed (the bulk path).
template <class T>
void fill(std::vector<T> &out, std::uint64_t seed, FloatRange range = default_range<T>());

}  // namespace kverify::prop::gen
