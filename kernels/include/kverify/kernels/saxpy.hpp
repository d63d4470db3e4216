// y = a x + y (BLAS axpy). Instantiated for float and double.
#pragma once

#include "kverify/runtime/buffer.hpp"

namespace kverify::kernels {

template <class T>
void saxpy(T a, const rt::DeviceBuffer<T> &x, rt::DeviceBuffer<T> &y, cudaStream_t stream = nullptr);

}  // namespace kverify::kernels
