// Block-level reductions: every thread contributes one value; thread 0 gets the
// block total (other threads' results are unspecified).
#pragma once

#include "kverify/kernels/ops.hpp"
#include "kverify/kernels/warp/warp_scan.cuh"

namespace kverify::kernels::block {

// Shared-memory tree as in the PyCUDA guide, extended to any block size: the first
// stride is the largest power of two below blockDim.x, and a thread only adds
// a partner that exists. `smem` holds blockDim.x elements.
template <class T, class Op>
__device__ T shared_tree_reduce(T x, T *smem, Op op) {
  const unsigned t = threadIdx.x, n = blockDim.x;
  smem[t] = x;
  __syncthreads();
  unsigned s = 1;
  while (2 * s < n) s <<= 1;
  for (; s > 0; s >>= 1) {
    if (t < s && t + s < n) smem[t] = op(smem[t], smem[t + s]);
    __syncthreads();  // the next stride reads what this one wrote
  }
  const T total = smem[0];
  __syncthreads();
  return total;
}

// Warp shuffles, then warp 0 reduces the warp totals. blockDim.x must be a
// multiple of 32. `smem` holds 32 elements.
template <class T, class Op>
__device__ T warp_shuffle_reduce(T x, T *smem, Op op) {
  const unsigned t = threadIdx.x, lane = t & 31, w = t >> 5, warps = blockDim.x >> 5;
  x = warp::reduce(x, op);
  if (lane == 0) smem[w] = x;
  __syncthreads();
  T total = Op::template identity<T>();
  if (w == 0) total = warp::reduce(lane < warps ? smem[lane] : Op::template identity<T>(), op);
  __syncthreads();
  return total;
}

}  // namespace kverify::kernels::block
