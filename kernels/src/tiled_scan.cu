// Host side of the tiled scans: validation, recursion over tile totals, and the
// explicit instantiations.
#include <cstdint>
#include <string>

#include "kverify/kernels/device/tiled_scan.cuh"
#include "kverify/kernels/scan.hpp"
#include "kverify/runtime/launch.hpp"

namespace kverify::kernels {
namespace {

bool is_power_of_two(unsigned x) { return x != 0 && (x & (x - 1)) == 0; }

void validate_block(BlockScanAlgorithm algo, unsigned threads) {
  std::string why;
  if (threads < 2 || threads > 1024)
    why = "must be in [2, 1024]";
  else if (algo == BlockScanAlgorithm::Blelloch && !is_power_of_two(threads))
    why = "must be a power of two for Blelloch";
  else if (algo == BlockScanAlgorithm::WarpShuffle && threads % 32 != 0)
    why = "must be a multiple of 32 for the warp-shuffle scan";
  if (!why.empty())
    throw rt::LaunchConfigError(std::string("tiled_scan(") + name(algo) + "): block of " +
                                std::to_string(threads) + " threads " + why);
}

template <BlockScanAlgorithm A, class T, class Op>
void scan_tiles(const T *in, T *out, T *totals, std::size_t n, bool exclusive, unsigned threads,
                cudaStream_t stream) {
  const auto cfg = rt::config_for(n, threads, block::scan_smem_elems(A, threads) * sizeof(T), stream);
  rt::launch("scan_tiles_kernel", device::scan_tiles_kernel<A, T, Op>, cfg, in, out, totals, n, exclusive);
}

template <class T, class Op>
void scan_recursive(BlockScanAlgorithm algo, bool exclusive, const T *in, T *out, std::size_t n,
                    unsigned threads, cudaStream_t stream) {
  if (n == 0) return;
  const std::size_t tiles = rt::blocks_for(n, threads);
  rt::DeviceBuffer<T> totals(tiles > 1 ? tiles : 0);
  T *totals_ptr = tiles > 1 ? totals.data() : nullptr;
  switch (algo) {
    case BlockScanAlgorithm::HillisSteele:
      scan_tiles<BlockScanAlgorithm::HillisSteele, T, Op>(in, out, totals_ptr, n, exclusive, threads, stream);
      break;
    case BlockScanAlgorithm::Blelloch:
      scan_tiles<BlockScanAlgorithm::Blelloch, T, Op>(in, out, totals_ptr, n, exclusive, threads, stream);
      break;
    case BlockScanAlgorithm::WarpShuffle:
      scan_tiles<BlockScanAlgorithm::WarpShuffle, T, Op>(in, out, totals_ptr, n, exclusive, threads, stream);
      break;
  }
  if (tiles == 1) return;
  // Offsets of the tiles: the exclusive scan of their totals, same algorithm.
  rt::DeviceBuffer<T> offsets(tiles);
  scan_recursive<T, Op>(algo, true, totals.data(), offsets.data(), tiles, threads, stream);
  rt::launch("add_tile_offsets_kernel", device::add_tile_offsets_kernel<T, Op>,
             rt::config_for(n, 256, 0, stream), out, offsets.data(), n, threads);
}

unsigned ceil_log2(std::size_t x) {
  unsigned l = 0;
  while ((std::size_t{1} << l) < x) ++l;
  return l;
}

}  // namespace

const char *name(BlockScanAlgorithm a) {
  switch (a) {
    case BlockScanAlgorithm::HillisSteele: return "hillis_steele";
    case BlockScanAlgorithm::Blelloch: return "blelloch";
    case BlockScanAlgorithm::WarpShuffle: return "warp_shuffle";
  }
  return "?";
}

template <class T, class Op>
void tiled_scan(BlockScanAlgorithm algo, ScanKind kind, const rt::DeviceBuffer<T> &in,
                rt::DeviceBuffer<T> &out, unsigned block_threads, cudaStream_t stream) {
  validate_block(algo, block_threads);
  if (out.size() != in.size()) rt::throw_size_mismatch("tiled_scan output", in.size(), out.size());
  scan_recursive<T, Op>(algo, kind == ScanKind::Exclusive, in.data(), out.data(), in.size(), block_threads,
                        stream);
}

std::size_t tiled_scan_depth(BlockScanAlgorithm algo, std::size_t i, std::size_t n, unsigned block_threads) {
  const unsigned lg = ceil_log2(block_threads);
  // Roundings one input meets inside one tile's scan.
  const std::size_t tile_depth = algo == BlockScanAlgorithm::HillisSteele ? lg
                                 : algo == BlockScanAlgorithm::Blelloch   ? 2 * lg + 1
                                                                          : 5 + 5 + 1;
  // Each level of the recursion scans totals that already carry a tile's
  // roundings, then adds one more when the offset is applied.
  std::size_t levels = 1;
  for (std::size_t m = n; m > block_threads; m = (m + block_threads - 1) / block_threads) ++levels;
  const std::size_t bound = levels * (tile_depth + 1);
  return bound < i ? bound : i;
}

#define KV_TILED_SCAN(T, OP)                                                                 \
  template void tiled_scan<T, OP>(BlockScanAlgorithm, ScanKind, const rt::DeviceBuffer<T> &, \
                                  rt::DeviceBuffer<T> &, unsigned, cudaStream_t);
#define KV_TILED_SCAN_OPS(T) KV_TILED_SCAN(T, Sum) KV_TILED_SCAN(T, Max)
KV_TILED_SCAN_OPS(std::int32_t)
KV_TILED_SCAN_OPS(std::uint32_t)
KV_TILED_SCAN_OPS(float)
KV_TILED_SCAN_OPS(double)

}  // namespace kverify::kernels
