// Throughput of the device-wide scan and reduction against CUB and against a
// device-to-device copy of the same bytes, for float and int32 at n = 2^20,
// 2^24, 2^28. Each result is also checked against CUB's (exact for int32).
#include <cub/cub.cuh>

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>

#include "kverify/kernels/device/lookback_scan.cuh"
#include "kverify/kernels/reduce.hpp"
#include "kverify/kernels/scan.hpp"
#include "kverify/runtime/buffer.hpp"
#include "kverify/runtime/device.hpp"
#include "kverify/runtime/launch.hpp"
#include "kverify/runtime/stream.hpp"

namespace rt = kverify::rt;
namespace kk = kverify::kernels;

namespace {

template <class T>
__global__ void fill_kernel(T* out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<T>(static_cast<int>((i * 2654435761u) % 7u) - 3);
}

double gbps(std::size_t bytes, float ms) { return bytes / (ms * 1e-3) / 1e9; }

struct Row {
  std::string type, op;
  std::size_t n;
  float copy_ms, cub_ms, ours_ms;
  std::size_t bytes;
  bool match;
};

template <class T>
bool same(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if constexpr (std::is_integral_v<T>) {
      if (a[i] != b[i]) return false;
    } else {
      // Small integers in float: exact while |partial sums| < 2^24; allow the
      // relative rounding of a different association beyond that.
      const double d = std::fabs(double(a[i]) - double(b[i]));
      if (!(d <= 1e-5 * (1.0 + std::fabs(double(b[i])) + 3.0 * std::sqrt(double(i) + 1)))) return false;
    }
  }
  return true;
}

template <class T>
void bench_type(const char* type, std::size_t n, cudaStream_t s, std::vector<Row>& rows) {
  rt::DeviceBuffer<T> in(n), out_ours(n), out_cub(n), copy_dst(n);
  rt::launch("fill_kernel", fill_kernel<T>, rt::config_for(n, 256, 0, s), in.data(), n);
  KV_CUDA_CHECK(cudaStreamSynchronize(s));

  const auto copy = rt::time_on_stream(
      [&](cudaStream_t st) {
        KV_CUDA_CHECK(cudaMemcpyAsync(copy_dst.data(), in.data(), in.bytes(),
                                      cudaMemcpyDeviceToDevice, st));
      },
      s);

  // Scan.
  std::size_t cub_scan_bytes = 0;
  KV_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, cub_scan_bytes, in.data(), out_cub.data(),
                                              static_cast<int>(n), s));
  rt::DeviceBuffer<unsigned char> cub_scan_temp(cub_scan_bytes);
  const auto cub_scan = rt::time_on_stream(
      [&](cudaStream_t st) {
        KV_CUDA_CHECK(cub::DeviceScan::InclusiveSum(cub_scan_temp.data(), cub_scan_bytes, in.data(),
                                                    out_cub.data(), static_cast<int>(n), st));
      },
      s);
  const std::size_t our_scan_bytes = kk::device_scan_temp_bytes<T>(n);
  rt::DeviceBuffer<unsigned char> our_scan_temp(our_scan_bytes);
  const auto our_scan = rt::time_on_stream(
      [&](cudaStream_t st) {
        kk::device_scan<T, kk::Sum>(kk::ScanKind::Inclusive, in.data(), out_ours.data(), n,
                                    our_scan_temp.data(), our_scan_bytes, st);
      },
      s);
  KV_CUDA_CHECK(cudaStreamSynchronize(s));
  rows.push_back({type, "scan", n, copy.median_ms, cub_scan.median_ms, our_scan.median_ms,
                  2 * n * sizeof(T), same(out_ours.download(), out_cub.download())});

  // Reduction.
  rt::DeviceBuffer<T> red_cub(1), red_ours(1);
  std::size_t cub_red_bytes = 0;
  KV_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, cub_red_bytes, in.data(), red_cub.data(),
                                       static_cast<int>(n), s));
  rt::DeviceBuffer<unsigned char> cub_red_temp(cub_red_bytes);
  const auto cub_red = rt::time_on_stream(
      [&](cudaStream_t st) {
        KV_CUDA_CHECK(cub::DeviceReduce::Sum(cub_red_temp.data(), cub_red_bytes, in.data(),
                                             red_cub.data(), static_cast<int>(n), st));
      },
      s);
  const std::size_t our_red_bytes = kk::device_reduce_temp_bytes<T>(n);
  rt::DeviceBuffer<unsigned char> our_red_temp(our_red_bytes);
  const auto our_red = rt::time_on_stream(
      [&](cudaStream_t st) {
        kk::device_reduce<T, kk::Sum>(in.data(), n, red_ours.data(), our_red_temp.data(),
                                      our_red_bytes, st);
      },
      s);
  KV_CUDA_CHECK(cudaStreamSynchronize(s));
  // A copy moves 2x the bytes a reduction reads: compare at equal bytes by
  // timing a copy of n/2 elements.
  const auto half_copy = rt::time_on_stream(
      [&](cudaStream_t st) {
        KV_CUDA_CHECK(cudaMemcpyAsync(copy_dst.data(), in.data(), in.bytes() / 2,
                                      cudaMemcpyDeviceToDevice, st));
      },
      s);
  rows.push_back({type, "reduce", n, half_copy.median_ms, cub_red.median_ms, our_red.median_ms,
                  n * sizeof(T), same(red_ours.download(), red_cub.download())});
}

// Tuning: the look-back scan under other policies at one n.
template <class T, unsigned Threads, unsigned Items, bool Dynamic, unsigned Backoff, unsigned MinBlocks>
void tune_policy(const char* type, std::size_t n, float cub_ms, cudaStream_t s) {
  using P = kk::device::LookbackPolicy<T, Threads, Items, Dynamic, Backoff, MinBlocks>;
  rt::DeviceBuffer<T> in(n), out(n);
  rt::launch("fill_kernel", fill_kernel<T>, rt::config_for(n, 256, 0, s), in.data(), n);
  const std::size_t bytes = kk::device::LookbackTemp<T, P>(n).bytes;
  rt::DeviceBuffer<unsigned char> temp(bytes);
  const auto t = rt::time_on_stream(
      [&](cudaStream_t st) {
        kk::device::lookback_scan<T, kk::Sum, P>(false, in.data(), out.data(), n, temp.data(),
                                                  bytes, st);
      },
      s);
  std::printf("| %-5s | %4u x %-2u | %-8s | %5u ns | %2u | %9.1f | %8.3f |\n", type, Threads,
              Items, Dynamic ? "atomic" : "blockIdx", Backoff, MinBlocks,
              gbps(2 * n * sizeof(T), t.median_ms), cub_ms / t.median_ms);
}

template <class T>
void tune(const char* type, std::size_t n, float cub_ms, cudaStream_t s) {
  tune_policy<T, 256, 16, true, 64, 1>(type, n, cub_ms, s);
  tune_policy<T, 256, 16, true, 64, 6>(type, n, cub_ms, s);
  tune_policy<T, 256, 16, true, 64, 8>(type, n, cub_ms, s);  // the default
  tune_policy<T, 256, 16, false, 64, 8>(type, n, cub_ms, s);
  tune_policy<T, 256, 12, true, 64, 8>(type, n, cub_ms, s);
  tune_policy<T, 256, 24, true, 64, 6>(type, n, cub_ms, s);
  tune_policy<T, 128, 16, true, 64, 16>(type, n, cub_ms, s);
}

}  // namespace

int main() {
  try {
    const auto q = rt::query_devices();
    if (!q.available()) {
      std::printf("no GPU: %s\n", q.unavailable_reason.c_str());
      return 0;
    }
    std::printf("%s\n", rt::describe(q.devices.front()).c_str());
    rt::Stream stream;
    std::vector<Row> rows;
    for (unsigned lg : {20u, 24u, 28u}) {
      bench_type<float>("float", std::size_t{1} << lg, stream.get(), rows);
      bench_type<std::int32_t>("int32", std::size_t{1} << lg, stream.get(), rows);
    }
    std::printf(
        "\nmedian of 20 runs; GB/s = bytes moved (scan: read + write, reduce: read) / time;\n"
        "copy = cudaMemcpy device-to-device of the same number of bytes moved\n\n");
    std::printf("| op     | type  | n     | copy GB/s | CUB GB/s | ours GB/s | ours/CUB | ours/copy | matches CUB |\n");
    std::printf("|--------|-------|-------|-----------|----------|-----------|----------|-----------|-------------|\n");
    bool all_match = true;
    for (const Row& r : rows) {
      const int lg = static_cast<int>(std::log2(static_cast<double>(r.n)));
      std::printf("| %-6s | %-5s | 2^%-3d | %9.1f | %8.1f | %9.1f | %8.3f | %9.3f | %-11s |\n",
                  r.op.c_str(), r.type.c_str(), lg, gbps(r.bytes, r.copy_ms),
                  gbps(r.bytes, r.cub_ms), gbps(r.bytes, r.ours_ms), r.cub_ms / r.ours_ms,
                  r.copy_ms / r.ours_ms, r.match ? "yes" : "NO");
      all_match = all_match && r.match;
    }
    std::printf("\nlook-back scan policies at n = 2^28\n\n");
    std::printf("| type  | threads x items | tile ids | max back-off | min blocks/SM | GB/s | vs CUB |\n"
                "|-------|-----------|----------|----------|----|-----------|----------|\n");
    for (const Row& r : rows)
      if (r.op == "scan" && r.n == (std::size_t{1} << 28)) {
        if (r.type == "float") tune<float>("float", r.n, r.cub_ms, stream.get());
        else tune<std::int32_t>("int32", r.n, r.cub_ms, stream.get());
      }
    return all_match ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "benchmark failed: %s\n", e.what());
    return 2;
  }
}
