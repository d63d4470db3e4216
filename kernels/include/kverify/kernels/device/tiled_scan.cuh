// Kernels of the tiled (scan-then-propagate) scan: scan each tile of blockDim
// elements with a block algorithm, then add each tile's exclusive offset.
#pragma once

#include <cstddef>

#include "kverify/kernels/block/block_scan.cuh"

namespace kverify::kernels::device {

// One shared-memory declaration for all instantiations (types differ per T).
extern __shared__ __align__(16) unsigned char dynamic_smem[];

// Launched by scan_tiles (tiled_scan.cu): rt::config_for(n, threads), threads in [2, 1024].
// kverify: --assume='blockDim.x >= 2 && blockDim.x <= 1024 && blockDim.y == 1 && blockDim.z == 1 && n >= 1 && gridDim.x == (n + blockDim.x - 1) / blockDim.x && gridDim.y == 1 && gridDim.z == 1'
template <BlockScanAlgorithm A, class T, class Op>
__global__ void scan_tiles_kernel(const T *in, T *out, T *tile_totals, std::size_t n, bool exclusive) {
  T *smem = reinterpret_cast<T *>(dynamic_smem);
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const T x = i < n ? in[i] : Op::template identity<T>();
  const block::ScanResult<T> r = block::scan<A>(x, smem, Op{});
  if (i < n) out[i] = exclusive ? r.exclusive : r.inclusive;
  if (tile_totals != nullptr && threadIdx.x == 0) tile_totals[blockIdx.x] = r.total;
}

// out[i] = offsets[tile] (+) out[i] for every tile after the first.
// Launched by scan_recursive (tiled_scan.cu): rt::config_for(n, 256), tile_size = the scan's
// block in [2, 1024], only when there is more than one tile.
// kverify: --block-dim=256 --assume='n > tile_size && gridDim.x == (n + 255) / 256 && gridDim.y == 1 && gridDim.z == 1 && tile_size >= 2 && tile_size <= 1024'
template <class T, class Op>
__global__ void add_tile_offsets_kernel(T *out, const T *tile_offsets, std::size_t n, unsigned tile_size) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t tile = i / tile_size;
  if (i < n && tile > 0) out[i] = Op{}(tile_offsets[tile], out[i]);
}

}  // namespace kverify::kernels::device
