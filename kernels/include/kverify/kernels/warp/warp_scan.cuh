// Warp-level scan and reduction with register shuffles. All 32 lanes of the
// warp must call these (full mask): callers keep whole warps active.
#pragma once

#include "kverify/kernels/ops.hpp"

namespace kverify::kernels::warp {

inline constexpr unsigned kFullMask = 0xffffffffu;

// Kogge-Stone over the warp: after step d, lane l holds x[l-2d+1 .. l].
// The earlier prefix is always the left operand.
template <class T, class Op>
__device__ __forceinline__ T inclusive_scan(T x, Op op, unsigned lane) {
#pragma unroll
  for (unsigned d = 1; d < 32; d <<= 1) {
    const T y = __shfl_up_sync(kFullMask, x, d);
    if (lane >= d) x = op(y, x);
  }
  return x;
}

// Butterfly reduction: every lane ends with the same value, since IEEE
// addition and max are commutative (a + b and b + a round identically).
template <class T, class Op>
__device__ __forceinline__ T reduce(T x, Op op) {
#pragma unroll
  for (unsigned d = 16; d > 0; d >>= 1) x = op(x, __shfl_xor_sync(kFullMask, x, d));
  return x;
}

}  // namespace kverify::kernels::warp
