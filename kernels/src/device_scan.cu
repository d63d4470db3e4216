// Host side of the single-pass look-back scan: temporary storage layout,
// per-call reset of the tile flags, launch, explicit instantiations.
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "kverify/kernels/device/lookback_scan.cuh"
#include "kverify/kernels/scan.hpp"
#include "kverify/runtime/launch.hpp"

namespace kverify::kernels {
namespace {

constexpr std::size_t kAlign = 256;
std::size_t align_up(std::size_t x) { return (x + kAlign - 1) / kAlign * kAlign; }

// [counter][flags: tiles][aggregates: tiles][prefixes: tiles], each aligned.
template <class T>
struct TempLayout {
  std::size_t tiles, flags_offset, aggregates_offset, prefixes_offset, bytes;
  explicit TempLayout(std::size_t n) {
    tiles = rt::blocks_for(n, device::LookbackPolicy<T>::kTile);
    flags_offset = kAlign;
    aggregates_offset = flags_offset + align_up(tiles * sizeof(unsigned));
    prefixes_offset = aggregates_offset + align_up(tiles * sizeof(T));
    bytes = prefixes_offset + align_up(tiles * sizeof(T));
  }
};

}  // namespace

template <class T>
std::size_t device_scan_temp_bytes(std::size_t n) {
  return TempLayout<T>(n).bytes;
}

template <class T, class Op>
void device_scan(ScanKind kind, const T* in, T* out, std::size_t n, void* temp,
                 std::size_t temp_bytes, cudaStream_t stream) {
  if (n == 0) return;
  if (n > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    throw std::invalid_argument("device_scan: n = " + std::to_string(n) +
                                " exceeds the limit of 2^31 - 1 elements");
  const TempLayout<T> layout(n);
  if (temp == nullptr || temp_bytes < layout.bytes)
    throw std::invalid_argument("device_scan: temporary storage of " + std::to_string(temp_bytes) +
                                " bytes, need " + std::to_string(layout.bytes));
  auto* base = static_cast<unsigned char*>(temp);
  device::TileState<T> st{reinterpret_cast<unsigned*>(base),
                          reinterpret_cast<unsigned*>(base + layout.flags_offset),
                          reinterpret_cast<T*>(base + layout.aggregates_offset),
                          reinterpret_cast<T*>(base + layout.prefixes_offset)};
  // Counter and flags start at zero (kInvalid) on every call.
  KV_CUDA_CHECK(cudaMemsetAsync(base, 0, layout.aggregates_offset, stream));
  rt::LaunchConfig cfg;
  cfg.grid = dim3(static_cast<unsigned>(layout.tiles));
  cfg.block = dim3(device::LookbackPolicy<T>::kThreads);
  cfg.stream = stream;
  rt::launch("lookback_scan_kernel", device::lookback_scan_kernel<T, Op>, cfg, in, out, n, st,
             kind == ScanKind::Exclusive);
}

template <class T, class Op>
void device_scan(ScanKind kind, const rt::DeviceBuffer<T>& in, rt::DeviceBuffer<T>& out,
                 cudaStream_t stream) {
  if (out.size() != in.size()) rt::throw_size_mismatch("device_scan output", in.size(), out.size());
  if (in.empty()) return;
  const std::size_t bytes = device_scan_temp_bytes<T>(in.size());
  rt::DeviceBuffer<unsigned char> temp(bytes);
  device_scan<T, Op>(kind, in.data(), out.data(), in.size(), temp.data(), bytes, stream);
}

std::size_t device_scan_depth(std::size_t i) {
  // Within a tile: <= 15 roundings in a thread's items, 5 + 5 in the warp
  // scans, 3 combinations (<= 28). A tile's aggregate carries <= 25; its
  // inclusive prefix P(t) <= P(t') + 5 (window reduce) + 1 per window + 1, so
  // by induction P(t) <= 7 (t + 1) + 26. Tiles hold at least 2048 elements.
  const std::size_t tile = i / 2048;
  const std::size_t bound = 7 * (tile + 1) + 26 + 1 + 28 + 8;  // 8: slack
  return bound < i ? bound : i;
}

#define KV_DEVICE_SCAN(T, OP)                                                                  \
  template void device_scan<T, OP>(ScanKind, const T*, T*, std::size_t, void*, std::size_t,    \
                                   cudaStream_t);                                              \
  template void device_scan<T, OP>(ScanKind, const rt::DeviceBuffer<T>&, rt::DeviceBuffer<T>&, \
                                   cudaStream_t);
#define KV_DEVICE_SCAN_TYPE(T)                                        \
  template std::size_t device_scan_temp_bytes<T>(std::size_t);       \
  KV_DEVICE_SCAN(T, Sum) KV_DEVICE_SCAN(T, Max)
KV_DEVICE_SCAN_TYPE(std::int32_t)
KV_DEVICE_SCAN_TYPE(std::uint32_t)
KV_DEVICE_SCAN_TYPE(float)
KV_DEVICE_SCAN_TYPE(double)

}  // namespace kverify::kernels
