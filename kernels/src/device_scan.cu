// Host entry points of the single-pass look-back scan (default policies) and
// their explicit instantiations.
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "kverify/kernels/device/lookback_scan.cuh"
#include "kverify/kernels/scan.hpp"
#include "kverify/runtime/launch.hpp"

namespace kverify::kernels {

template <class T>
std::size_t device_scan_temp_bytes(std::size_t n) {
  return device::LookbackTemp<T, device::DefaultLookbackPolicy<T>>(n).bytes;
}

template <class T, class Op>
void device_scan(ScanKind kind, const T *in, T *out, std::size_t n, void *temp, std::size_t temp_bytes,
                 cudaStream_t stream) {
  device::lookback_scan<T, Op, device::DefaultLookbackPolicy<T>>(kind == ScanKind::Exclusive, in, out, n,
                                                                 temp, temp_bytes, stream);
}

template <class T, class Op>
void device_scan(ScanKind kind, const rt::DeviceBuffer<T> &in, rt::DeviceBuffer<T> &out,
                 cudaStream_t stream) {
  if (out.size() != in.size()) rt::throw_size_mismatch("device_scan output", in.size(), out.size());
  if (in.empty()) return;
  const std::size_t bytes = device_scan_temp_bytes<T>(in.size());
  rt::DeviceBuffer<unsigned char> temp(bytes);
  device_scan<T, Op>(kind, in.data(), out.data(), in.size(), temp.data(), bytes, stream);
}

std::size_t device_scan_depth(std::size_t i) {
  // Within a tile: <= 31 roundings in a thread's items (at most 32 items),
  // 5 + 5 in the warp scans, 3 combinations (<= 44). A tile's aggregate
  // carries <= 41; its inclusive prefix P(t) <= P(t') + 5 (window reduce) + 1
  // per window + 1, so by induction P(t) <= 7 (t + 1) + 42. Tiles hold at
  // least 2048 elements.
  const std::size_t tile = i / 2048;
  const std::size_t bound = 7 * (tile + 1) + 42 + 1 + 44 + 8;  // 8: slack
  return bound < i ? bound : i;
}

#define KV_DEVICE_SCAN(T, OP)                                                                    \
  template void device_scan<T, OP>(ScanKind, const T *, T *, std::size_t, void *, std::size_t,   \
                                   cudaStream_t);                                                \
  template void device_scan<T, OP>(ScanKind, const rt::DeviceBuffer<T> &, rt::DeviceBuffer<T> &, \
                                   cudaStream_t);
#define KV_DEVICE_SCAN_TYPE(T)                                 \
  template std::size_t device_scan_temp_bytes<T>(std::size_t); \
  KV_DEVICE_SCAN(T, Sum) KV_DEVICE_SCAN(T, Max)
KV_DEVICE_SCAN_TYPE(std::int32_t)
KV_DEVICE_SCAN_TYPE(std::uint32_t)
KV_DEVICE_SCAN_TYPE(float)
KV_DEVICE_SCAN_TYPE(double)

}  // namespace kverify::kernels
