// Block-level scans: every thread of the block contributes one element and gets
// its inclusive and exclusive prefix and the block total. `smem` is scratch
// shared memory of block_scan_smem_elems(algo, blockDim.x) elements.
#pragma once

#include "kverify/kernels/ops.hpp"
#include "kverify/kernels/scan.hpp"
#include "kverify/kernels/warp/warp_scan.cuh"

namespace kverify::kernels::block {

template <class T>
struct ScanResult {
  T inclusive;
  T exclusive;
  T total;
};

__host__ __device__ constexpr unsigned scan_smem_elems(BlockScanAlgorithm a, unsigned threads) {
  return a == BlockScanAlgorithm::HillisSteele ? 2 * threads
         : a == BlockScanAlgorithm::Blelloch   ? threads
                                               : 32;
}

// Double-buffered Hillis-Steele: each step reads one buffer and writes the
// other, so no thread overwrites a value another thread still has to read.
template <class T, class Op>
__device__ ScanResult<T> hillis_steele_scan(T x, T *smem, Op op) {
  const unsigned t = threadIdx.x, n = blockDim.x;
  T *src = smem;
  T *dst = smem + n;
  src[t] = x;
  __syncthreads();
  for (unsigned d = 1; d < n; d <<= 1) {
    dst[t] = t >= d ? op(src[t - d], src[t]) : src[t];
    __syncthreads();
    T *tmp = src;
    src = dst;
    dst = tmp;
  }
  ScanResult<T> r{src[t], t > 0 ? src[t - 1] : Op::template identity<T>(), src[n - 1]};
  __syncthreads();  // smem may be reused by the caller
  return r;
}

// Blelloch: up-sweep builds partial sums in a balanced tree, down-sweep pushes
// prefixes back down. blockDim.x must be a power of two.
template <class T, class Op>
__device__ ScanResult<T> blelloch_scan(T x, T *smem, Op op) {
  const unsigned t = threadIdx.x, n = blockDim.x;
  smem[t] = x;
  __syncthreads();
  for (unsigned d = 1; d < n; d <<= 1) {
    const unsigned i = (t + 1) * 2 * d - 1;
    if (i < n) smem[i] = op(smem[i - d], smem[i]);
    __syncthreads();
  }
  const T total = smem[n - 1];
  __syncthreads();
  if (t == 0) smem[n - 1] = Op::template identity<T>();
  __syncthreads();
  for (unsigned d = n / 2; d >= 1; d >>= 1) {
    const unsigned i = (t + 1) * 2 * d - 1;
    if (i < n) {
      const T left = smem[i - d];
      smem[i - d] = smem[i];
      smem[i] = op(smem[i], left);
    }
    __syncthreads();
  }
  const T exclusive = smem[t];
  __syncthreads();
  return {op(exclusive, x), exclusive, total};
}

// Warp-shuffle scan: scan within warps, scan the warp totals in warp 0, add.
// blockDim.x must be a multiple of 32 (at most 1024: at most 32 warps).
template <class T, class Op>
__device__ ScanResult<T> warp_shuffle_scan(T x, T *smem, Op op) {
  const unsigned t = threadIdx.x, lane = t & 31, w = t >> 5, warps = blockDim.x >> 5;
  const T identity = Op::template identity<T>();
  const T inc = warp::inclusive_scan(x, op, lane);
  const T up = __shfl_up_sync(warp::kFullMask, inc, 1);
  if (lane == 31) smem[w] = inc;
  __syncthreads();
  if (w == 0) {
    T v = lane < warps ? smem[lane] : identity;
    v = warp::inclusive_scan(v, op, lane);
    if (lane < warps) smem[lane] = v;
  }
  __syncthreads();
  ScanResult<T> r;
  if (w == 0) {
    r.inclusive = inc;
    r.exclusive = lane > 0 ? up : identity;
  } else {
    const T prefix = smem[w - 1];
    r.inclusive = op(prefix, inc);
    r.exclusive = lane > 0 ? op(prefix, up) : prefix;
  }
  r.total = smem[warps - 1];
  __syncthreads();
  return r;
}

template <BlockScanAlgorithm A, class T, class Op>
__device__ __forceinline__ ScanResult<T> scan(T x, T *smem, Op op) {
  if constexpr (A == BlockScanAlgorithm::HillisSteele)
    return hillis_steele_scan(x, smem, op);
  else if constexpr (A == BlockScanAlgorithm::Blelloch)
    return blelloch_scan(x, smem, op);
  else
    return warp_shuffle_scan(x, smem, op);
}

}  // namespace kverify::kernels::block
