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
__global__ void fill_kernel(T *out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<T>(static_cast<int>((i * 2654435761u) % 7u) - 3);
}

// Counts the elements of a that differ from b (the same tolerance as same()).
template <class T>
__global__ void mismatch_kernel(const T *a, const T *b, std::size_t n, unsigned *count) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  bool ok;
  if constexpr (std::is_integral_v<T>) {
    ok = a[i] == b[i];
  } else {
    const double d = fabs(double(a[i]) - double(b[i]));
    ok = d <= 1e-5 * (1.0 + fabs(double(b[i])) + 3.0 * sqrt(double(i) + 1));
  }
  if (!ok) atomicAdd(count, 1u);
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
bool same(const std::vector<T> &a, const std::vector<T> &b) {
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
void bench_type(const char *type, std::size_t n, cudaStream_t s, std::vector<Row> &rows) {
  rt::DeviceBuffer<T> in(n), out_ours(n), out_cub(n), copy_dst(n);
  rt::launch("fill_kernel", fill_kernel<T>, rt::config_for(n, 256, 0, s), in.data(), n);
  KV_CUDA_CHECK(cudaStreamSynchronize(s));

  const auto copy = rt::time_on_stream(
      [&](cudaStream_t st) {
        KV_CUDA_CHECK(cudaMemcpyAsync(copy_dst.data(), in.data(), in.bytes(), cudaMemcpyDeviceToDevice, st));
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
  rows.push_back({type, "scan", n, copy.median_ms, cub_scan.median_ms, our_scan.median_ms, 2 * n * sizeof(T),
                  same(out_ours.download(), out_cub.download())});

  // Reduction.
  rt::DeviceBuffer<T> red_cub(1), red_ours(1);
  std::size_t cub_red_bytes = 0;
  KV_CUDA_CHECK(
      cub::DeviceReduce::Sum(nullptr, cub_red_bytes, in.data(), red_cub.data(), static_cast<int>(n), s));
  rt::DeviceBuffer<unsigned char> cub_red_temp(cub_red_bytes);
  const auto cub_red = rt::time_on_stream(
      [&](cudaStream_t st) {
        KV_CUDA_CHECK(cub::DeviceReduce::Sum(cub_red_temp.data(), cub_red_bytes, in.data(), red_cub.data(),
                                             static_cast<int>(n), st));
      },
      s);
  const std::size_t our_red_bytes = kk::device_reduce_temp_bytes<T>(n);
  rt::DeviceBuffer<unsigned char> our_red_temp(our_red_bytes);
  const auto our_red = rt::time_on_stream(
      [&](cudaStream_t st) {
        kk::device_reduce<T, kk::Sum>(in.data(), n, red_ours.data(), our_red_temp.data(), our_red_bytes, st);
      },
      s);
  KV_CUDA_CHECK(cudaStreamSynchronize(s));
  // A copy moves 2x the bytes a reduction reads: compare at equal bytes by
  // timing a copy of n/2 elements.
  const auto half_copy = rt::time_on_stream(
      [&](cudaStream_t st) {
        KV_CUDA_CHECK(
            cudaMemcpyAsync(copy_dst.data(), in.data(), in.bytes() / 2, cudaMemcpyDeviceToDevice, st));
      },
      s);
  rows.push_back({type, "reduce", n, half_copy.median_ms, cub_red.median_ms, our_red.median_ms, n * sizeof(T),
                  same(red_ours.download(), red_cub.download())});
}

// Tuning: the look-back scan under other policies at one n.
// Each result is checked against CUB's on the device.
template <class T, class P>
bool tune_policy(const char *type, std::size_t n, float cub_ms, cudaStream_t s) {
  rt::DeviceBuffer<T> in(n), out(n), ref(n);
  rt::DeviceBuffer<unsigned> bad(1);
  rt::launch("fill_kernel", fill_kernel<T>, rt::config_for(n, 256, 0, s), in.data(), n);
  std::size_t cub_bytes = 0;
  KV_CUDA_CHECK(
      cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, in.data(), ref.data(), static_cast<int>(n), s));
  rt::DeviceBuffer<unsigned char> cub_temp(cub_bytes);
  KV_CUDA_CHECK(cub::DeviceScan::InclusiveSum(cub_temp.data(), cub_bytes, in.data(), ref.data(),
                                              static_cast<int>(n), s));
  const std::size_t bytes = kk::device::LookbackTemp<T, P>(n).bytes;
  rt::DeviceBuffer<unsigned char> temp(bytes);
  const auto t = rt::time_on_stream(
      [&](cudaStream_t st) {
        kk::device::lookback_scan<T, kk::Sum, P>(false, in.data(), out.data(), n, temp.data(), bytes, st);
      },
      s);
  KV_CUDA_CHECK(cudaMemsetAsync(bad.data(), 0, sizeof(unsigned), s));
  rt::launch("mismatch_kernel", mismatch_kernel<T>, rt::config_for(n, 256, 0, s), out.data(), ref.data(), n,
             bad.data());
  KV_CUDA_CHECK(cudaStreamSynchronize(s));
  const unsigned mismatches = bad.download().front();
  std::printf("| %-5s | %4u x %-2u | %2u | %u | %-8s | %4u ns | %4u ns | %9.1f | %8.3f | %s |\n", type,
              P::kThreads, P::kItems, P::kMinBlocks, P::kVec, P::kDynamicIds ? "atomic" : "blockIdx",
              P::kFirstDelayNs, P::kMaxBackoffNs, gbps(2 * n * sizeof(T), t.median_ms), cub_ms / t.median_ms,
              mismatches == 0 ? "yes" : "NO");
  return mismatches == 0;
}

template <class T, unsigned Threads, unsigned Items, unsigned MinBlocks, unsigned Vec = 1,
          bool Dynamic = true, unsigned FirstDelay = 0, unsigned Backoff = 64>
bool tune_one(const char *type, std::size_t n, float cub_ms, cudaStream_t s) {
  using P = kk::device::LookbackPolicy<T, Threads, Items, MinBlocks, Vec, Dynamic, FirstDelay, Backoff>;
  return tune_policy<T, P>(type, n, cub_ms, s);
}

template <class T>
bool tune(const char *type, std::size_t n, float cub_ms, cudaStream_t s) {
  bool ok = true;
  // Around the default (128 x 32, 8/SM, 16-byte accesses, 2500 / 1024 ns;
  // first and last row, for drift): delays, then the shape.
  ok &= tune_one<T, 128, 32, 8, 4, true, 2500, 1024>(type, n, cub_ms, s);
  ok &= tune_one<T, 128, 32, 8, 4, true, 1500, 1024>(type, n, cub_ms, s);
  ok &= tune_one<T, 128, 32, 8, 4, true, 2000, 1024>(type, n, cub_ms, s);
  ok &= tune_one<T, 128, 32, 8, 4, true, 3000, 1024>(type, n, cub_ms, s);
  ok &= tune_one<T, 128, 32, 8, 4, true, 4000, 1024>(type, n, cub_ms, s);
  ok &= tune_one<T, 128, 32, 8, 4, true, 2500, 2048>(type, n, cub_ms, s);
  ok &= tune_one<T, 128, 32, 8, 4, true, 3000, 2048>(type, n, cub_ms, s);
  ok &= tune_one<T, 128, 32, 8, 4, true, 2500, 512>(type, n, cub_ms, s);
  ok &= tune_one<T, 256, 16, 8, 4, true, 2500, 1024>(type, n, cub_ms, s);
  ok &= tune_one<T, 128, 32, 8, 4, true, 2500, 1024>(type, n, cub_ms, s);
  return ok;
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
    std::printf(
        "| op     | type  | n     | copy GB/s | CUB GB/s | ours GB/s | ours/CUB | ours/copy | matches CUB "
        "|\n");
    std::printf(
        "|--------|-------|-------|-----------|----------|-----------|----------|-----------|-------------|"
        "\n");
    bool all_match = true;
    for (const Row &r : rows) {
      const int lg = static_cast<int>(std::log2(static_cast<double>(r.n)));
      std::printf("| %-6s | %-5s | 2^%-3d | %9.1f | %8.1f | %9.1f | %8.3f | %9.3f | %-11s |\n", r.op.c_str(),
                  r.type.c_str(), lg, gbps(r.bytes, r.copy_ms), gbps(r.bytes, r.cub_ms),
                  gbps(r.bytes, r.ours_ms), r.cub_ms / r.ours_ms, r.copy_ms / r.ours_ms,
                  r.match ? "yes" : "NO");
      all_match = all_match && r.match;
    }
    for (const unsigned lg : {24u, 28u}) {
      std::printf("\nlook-back scan policies at n = 2^%u\n\n", lg);
      std::printf(
          "| type  | threads x items | min blocks/SM | vector | tile ids | first delay "
          "| max back-off | GB/s | vs CUB | matches CUB |\n"
          "|-------|-----------|----|---|----------|------|------|-----------|--------|----|\n");
      for (const Row &r : rows)
        if (r.op == "scan" && r.n == (std::size_t{1} << lg)) {
          const bool ok = r.type == "float" ? tune<float>("float", r.n, r.cub_ms, stream.get())
                                            : tune<std::int32_t>("int32", r.n, r.cub_ms, stream.get());
          all_match = all_match && ok;
        }
    }
    return all_match ? 0 : 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "benchmark failed: %s\n", e.what());
    return 2;
  }
}
