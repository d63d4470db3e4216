// Dense row-major matrices: transpose and product. Any shape, including empty.
#pragma once

#include <cstddef>

#include "kverify/runtime/buffer.hpp"

namespace kverify::kernels {

enum class TransposeAlgorithm {
  Naive,        // the PyCUDA guide: one thread per element, uncoalesced writes
  PaddedTiles,  // 32x32 tiles through shared memory, padded against bank conflicts
};
const char *name(TransposeAlgorithm a);

// in: rows x cols; out: cols x rows. Instantiated for int32, uint32, float, double.
template <class T>
void transpose(TransposeAlgorithm algo, const rt::DeviceBuffer<T> &in, rt::DeviceBuffer<T> &out,
               std::size_t rows, std::size_t cols, cudaStream_t stream = nullptr);

enum class MatmulAlgorithm {
  Naive,        // the PyCUDA guide: one thread per output, k-loop from global memory
  SharedTiles,  // 16x16 tiles of A and B staged in shared memory, any shape
};
const char *name(MatmulAlgorithm a);

// c (m x n) = a (m x k) * b (k x n). Each output is a dot product of length k
// accumulated in index order. Instantiated for float and double.
template <class T>
void matmul(MatmulAlgorithm algo, const rt::DeviceBuffer<T> &a, const rt::DeviceBuffer<T> &b,
            rt::DeviceBuffer<T> &c, std::size_t m, std::size_t k, std::size_t n,
            cudaStream_t stream = nullptr);

}  // namespace kverify::kernels
