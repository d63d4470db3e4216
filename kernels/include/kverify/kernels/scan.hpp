// Prefix scans (host entry points). Any n, including 0; buffers are checked
// against each other. Device-side building blocks live in warp/ block/ device/.
#pragma once

#include <cstddef>

#include "kverify/kernels/ops.hpp"
#include "kverify/runtime/buffer.hpp"

namespace kverify::kernels {

enum class ScanKind { Inclusive, Exclusive };

// The block-level algorithm a tiled scan uses on each tile of blockDim elements.
enum class BlockScanAlgorithm {
  HillisSteele,  // double-buffered, O(B log B) work; any block size
  Blelloch,      // work-efficient up-sweep/down-sweep; block size a power of two
  WarpShuffle,   // warp __shfl_up_sync scans, then a scan of warp totals; multiple of 32
};
const char *name(BlockScanAlgorithm a);

// Scan-then-propagate over tiles of `block_threads` elements: scan each tile with
// the block algorithm, scan the tile totals (recursively), add them back.
// Throws LaunchConfigError when block_threads does not suit the algorithm.
template <class T, class Op>
void tiled_scan(BlockScanAlgorithm algo, ScanKind kind, const rt::DeviceBuffer<T> &in,
                rt::DeviceBuffer<T> &out, unsigned block_threads = 256, cudaStream_t stream = nullptr);

// Single-pass device-wide scan with decoupled look-back (Merrill & Garland,
// 2016): each tile publishes its aggregate, then its inclusive prefix; a tile's
// prefix is found by looking back over its predecessors' published values.
// n up to 2^31 - 1 elements. Temporary storage is explicit, as in CUB.
template <class T>
std::size_t device_scan_temp_bytes(std::size_t n);
template <class T, class Op>
void device_scan(ScanKind kind, const T *in, T *out, std::size_t n, void *temp, std::size_t temp_bytes,
                 cudaStream_t stream = nullptr);
// Convenience: allocates the temporary storage.
template <class T, class Op>
void device_scan(ScanKind kind, const rt::DeviceBuffer<T> &in, rt::DeviceBuffer<T> &out,
                 cudaStream_t stream = nullptr);

// Upper bounds on the depth of the addition tree that produces output i (the
// number of roundings any one input passes through), for summation error
// models. Never more than i (i + 1 terms), the sequential worst case.
std::size_t tiled_scan_depth(BlockScanAlgorithm algo, std::size_t i, std::size_t n, unsigned block_threads);
std::size_t device_scan_depth(std::size_t i);

}  // namespace kverify::kernels
