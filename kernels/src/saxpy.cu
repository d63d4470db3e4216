// y = a x + y. nvcc contracts a * x + y into one fused multiply-add (one
// rounding); the dot(2) model covers both the fused and the unfused forms.
#include "kverify/kernels/saxpy.hpp"
#include "kverify/runtime/launch.hpp"

namespace kverify::kernels {
namespace {

// kverify: --block-dim=256 --assume='gridDim.x == (n + 255) / 256 && gridDim.y == 1 && gridDim.z == 1'
template <class T>
__global__ void saxpy_kernel(T a, const T *x, T *y, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

}  // namespace

template <class T>
void saxpy(T a, const rt::DeviceBuffer<T> &x, rt::DeviceBuffer<T> &y, cudaStream_t stream) {
  if (x.size() != y.size()) rt::throw_size_mismatch("saxpy y", x.size(), y.size());
  rt::launch("saxpy_kernel", saxpy_kernel<T>, rt::config_for(x.size(), 256, 0, stream), a, x.data(), y.data(),
             x.size());
}

template void saxpy<float>(float, const rt::DeviceBuffer<float> &, rt::DeviceBuffer<float> &, cudaStream_t);
template void saxpy<double>(double, const rt::DeviceBuffer<double> &, rt::DeviceBuffer<double> &,
                            cudaStream_t);

}  // namespace kverify::kernels
