// Binary operators the kernels are templated on. Plain C++ so CPU references
// and tests use the very same definitions as the device code.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#ifdef __CUDACC__
#define KV_HD __host__ __device__ __forceinline__
#else
#define KV_HD inline
#endif

namespace kverify::kernels {

// Addition. Integer sums wrap for unsigned types; int32 sums are computed in
// uint32 so they wrap too (two's complement) instead of overflowing (UB).
struct Sum {
  static constexpr const char *name = "sum";
  template <class T>
  KV_HD static constexpr T identity() {
    return T(0);
  }
  template <class T>
  KV_HD T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, std::int32_t>)
      return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
    else
      return a + b;
  }
};

// Maximum. Identity is -inf for floating types (a true identity) and the lowest
// value for integers. On +0 vs -0 it keeps the left operand: IEEE 754 leaves the
// sign of max(+0, -0) unspecified, and the exact model compares values.
struct Max {
  static constexpr const char *name = "max";
  template <class T>
  KV_HD static constexpr T identity() {
    if constexpr (std::numeric_limits<T>::has_infinity)
      return -std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::lowest();
  }
  template <class T>
  KV_HD T operator()(T a, T b) const {
    return a < b ? b : a;
  }
};

}  // namespace kverify::kernels
