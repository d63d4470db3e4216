// Reductions (host entry points). Any n; n == 0 gives the operator's identity.
#pragma once

#include <cstddef>

#include "kverify/kernels/ops.hpp"
#include "kverify/runtime/buffer.hpp"

namespace kverify::kernels {

enum class BlockReduceAlgorithm {
  SharedTree,   // the PyCUDA guide's shared-memory tree, any block size in [2, 1024]
  WarpShuffle,  // warp shuffles then warp 0; block size a multiple of 32
};
const char *name(BlockReduceAlgorithm a);

// Each block reduces blockDim elements to one; repeated until one is left.
template <class T, class Op>
T tiled_reduce(BlockReduceAlgorithm algo, const rt::DeviceBuffer<T> &in, unsigned block_threads = 256,
               cudaStream_t stream = nullptr);

// Device-wide reduction tuned for bandwidth: a fixed grid of at most 1024
// blocks streams the input with 16-byte loads, each thread accumulating
// sequentially; a second single-block pass reduces the block partials.
// Deterministic: the association depends only on n. Result lands in *out
// (device memory). Temporary storage is explicit, as in CUB.
template <class T>
std::size_t device_reduce_temp_bytes(std::size_t n);
template <class T, class Op>
void device_reduce(const T *in, std::size_t n, T *out, void *temp, std::size_t temp_bytes,
                   cudaStream_t stream = nullptr);
// Convenience: allocates, synchronizes and returns the value.
template <class T, class Op>
T device_reduce(const rt::DeviceBuffer<T> &in, cudaStream_t stream = nullptr);

// Upper bounds on the depth of the addition tree (see scan.hpp).
std::size_t tiled_reduce_depth(BlockReduceAlgorithm algo, std::size_t n, unsigned block_threads);
std::size_t device_reduce_depth(std::size_t n);

}  // namespace kverify::kernels
