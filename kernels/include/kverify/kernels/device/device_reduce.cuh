// Kernels of the reductions: one block-level pass (tiled) and the two passes of
// the bandwidth-tuned device reduction.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kverify/kernels/block/block_reduce.cuh"
#include "kverify/kernels/reduce.hpp"

namespace kverify::kernels::device {

extern __shared__ __align__(16) unsigned char dynamic_smem[];

// out[block] = reduction of in[block * blockDim .. + blockDim).
// Launched by reduce_tiles (reduce.cu): rt::config_for(n, threads), threads in [2, 1024].
// kverify: --assume='blockDim.x >= 2 && blockDim.x <= 1024 && blockDim.y == 1 && blockDim.z == 1 && n >= 1 && gridDim.x == (n + blockDim.x - 1) / blockDim.x && gridDim.y == 1 && gridDim.z == 1'
template <BlockReduceAlgorithm A, class T, class Op>
__global__ void reduce_tiles_kernel(const T *in, T *out, std::size_t n) {
  T *smem = reinterpret_cast<T *>(dynamic_smem);
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const T x = i < n ? in[i] : Op::template identity<T>();
  const T total = A == BlockReduceAlgorithm::SharedTree ? block::shared_tree_reduce(x, smem, Op{})
                                                        : block::warp_shuffle_reduce(x, smem, Op{});
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

// 16 bytes of T.
template <class T>
struct alignas(16) Vec16 {
  static constexpr unsigned kCount = 16 / sizeof(T);
  T v[kCount];
};

inline constexpr unsigned kReduceThreads = 256;
inline constexpr unsigned kReduceMaxBlocks = 1024;

// Pass 1: grid-stride over 16-byte vectors, four loads in flight per thread,
// accumulated in index order; the scalar tail goes to the first threads.
// Launched by device_reduce (reduce.cu): kReduceThreads, stream_blocks(n) in [1, kReduceMaxBlocks].
// kverify: --block-dim=256 --assume='gridDim.x >= 1 && gridDim.x <= 1024 && gridDim.y == 1 && gridDim.z == 1'
template <class T, class Op>
__global__ void __launch_bounds__(kReduceThreads)
    reduce_stream_kernel(const T *__restrict__ in, std::size_t n, T *__restrict__ partials) {
  __shared__ T smem[32];
  const Op op{};
  using V = Vec16<T>;
  constexpr unsigned kC = V::kCount;
  const std::size_t tid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const bool aligned = reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  const std::size_t nvec = aligned ? n / kC : 0;
  const V *vin = reinterpret_cast<const V *>(in);
  T acc = Op::template identity<T>();
  std::size_t j = tid;
  for (; j + 3 * stride < nvec; j += 4 * stride) {
    V a[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) a[u] = vin[j + u * stride];
#pragma unroll
    for (int u = 0; u < 4; ++u)
#pragma unroll
      for (unsigned c = 0; c < kC; ++c) acc = op(acc, a[u].v[c]);
  }
  for (; j < nvec; j += stride) {
    const V a = vin[j];
#pragma unroll
    for (unsigned c = 0; c < kC; ++c) acc = op(acc, a.v[c]);
  }
  for (std::size_t i = nvec * kC + tid; i < n; i += stride) acc = op(acc, in[i]);
  const T total = block::warp_shuffle_reduce(acc, smem, op);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

// Pass 2: one block reduces the partials.
// Launched by device_reduce (reduce.cu): one block of kReduceThreads, count = stream_blocks(n).
// kverify: --block-dim=256 --grid-dim=1 --assume='count >= 1 && count <= 1024'
template <class T, class Op>
__global__ void __launch_bounds__(kReduceThreads)
    reduce_partials_kernel(const T *__restrict__ partials, unsigned count, T *__restrict__ out) {
  __shared__ T smem[32];
  const Op op{};
  T acc = Op::template identity<T>();
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x) acc = op(acc, partials[i]);
  const T total = block::warp_shuffle_reduce(acc, smem, op);
  if (threadIdx.x == 0) *out = total;
}

}  // namespace kverify::kernels::device
