// Property suites of the scans: tiled scans on each block algorithm and the
// single-pass device scan, for int32, uint32, float, double with sum and max.
#include <algorithm>
#include <cstdint>

#include "kverify/kernels/reduce.hpp"
#include "kverify/kernels/scan.hpp"
#include "suite_support.hpp"

using namespace kvtest;
using kk::BlockScanAlgorithm;
using kk::ScanKind;
using i32 = std::int32_t;
using u32 = std::uint32_t;
using f32 = float;
using f64 = double;

namespace {

constexpr std::size_t kLargeTiled = std::size_t{1} << 18;
constexpr std::size_t kLargeDevice = std::size_t{1} << 21;
constexpr std::size_t kDeviceTile = 4096;  // DefaultLookbackPolicy<4-byte>::kTile

template <class T, class Op>
std::vector<T> run_tiled(BlockScanAlgorithm algo, ScanKind kind, const std::vector<T> &x, unsigned block,
                         unsigned char poison = rt::kPoisonByte) {
  const auto in = rt::DeviceBuffer<T>::from_host(x);
  auto out = poisoned<T>(x.size(), poison);
  kk::tiled_scan<T, Op>(algo, kind, in, out, block);
  return out.download();
}

template <class T, class Op>
std::vector<T> run_device(ScanKind kind, const std::vector<T> &x, unsigned char poison = rt::kPoisonByte) {
  const auto in = rt::DeviceBuffer<T>::from_host(x);
  auto out = poisoned<T>(x.size(), poison);
  kk::device_scan<T, Op>(kind, in, out);
  return out.download();
}

ScanKind pick_kind() { return *rc::gen::element(ScanKind::Inclusive, ScanKind::Exclusive); }

// Equal to the reference under the right model, on a poisoned output, for
// generated sizes and block sizes; and bit-for-bit the same on a second run
// (no atomics: a difference is a race or an unwritten element).
template <class T, class Op>
void tiled_scan_property(BlockScanAlgorithm algo) {
  const unsigned block = *gen::block_sizes(algo);
  const auto x = *gen::arrays<T>(gen::sizes(block, kLargeTiled));
  const ScanKind kind = pick_kind();
  RC_TAG(kk::name(algo));
  const auto got = run_tiled<T, Op>(algo, kind, x, block);
  const std::size_t n = x.size();
  KV_RC_REQUIRE((check_scan<T, Op>(
      x, got, kind == ScanKind::Exclusive,
      [&](std::size_t i) { return kk::tiled_scan_depth(algo, i, n, block); }, "tiled_scan_depth")));
  const auto again = run_tiled<T, Op>(algo, kind, x, block, kSecondPoison);
  if (!same_bits(got, again)) prop::fail("two runs differ: " + first_bit_difference(got, again));
}

template <class T, class Op>
void device_scan_property() {
  const auto x = *gen::arrays<T>(gen::sizes(kDeviceTile, kLargeDevice));
  const ScanKind kind = pick_kind();
  const auto got = run_device<T, Op>(kind, x);
  KV_RC_REQUIRE(
      (check_scan<T, Op>(x, got, kind == ScanKind::Exclusive, kk::device_scan_depth, "device_scan_depth")));
  // Look-back combines whichever predecessors have published: for float sums
  // the association (so the rounding) depends on timing, as with CUB. Bitwise
  // determinism is a property only where the operator is exact.
  if constexpr (is_exact_op<T, Op>()) {
    const auto again = run_device<T, Op>(kind, x, kSecondPoison);
    if (!same_bits(got, again)) prop::fail("two runs differ: " + first_bit_difference(got, again));
  }
}

}  // namespace

#define KV_SCAN_PROPERTIES(T, OP)                                     \
  KV_GPU_PROPERTY(TiledScan, HillisSteele_##T##_##OP) {               \
    tiled_scan_property<T, kk::OP>(BlockScanAlgorithm::HillisSteele); \
  }                                                                   \
  KV_GPU_PROPERTY(TiledScan, Blelloch_##T##_##OP) {                   \
    tiled_scan_property<T, kk::OP>(BlockScanAlgorithm::Blelloch);     \
  }                                                                   \
  KV_GPU_PROPERTY(TiledScan, WarpShuffle_##T##_##OP) {                \
    tiled_scan_property<T, kk::OP>(BlockScanAlgorithm::WarpShuffle);  \
  }                                                                   \
  KV_GPU_PROPERTY(DeviceScan, T##_##OP) { device_scan_property<T, kk::OP>(); }
KV_SCAN_PROPERTIES(i32, Sum)
KV_SCAN_PROPERTIES(i32, Max)
KV_SCAN_PROPERTIES(u32, Sum)
KV_SCAN_PROPERTIES(u32, Max)
KV_SCAN_PROPERTIES(f32, Sum)
KV_SCAN_PROPERTIES(f32, Max)
KV_SCAN_PROPERTIES(f64, Sum)
KV_SCAN_PROPERTIES(f64, Max)

namespace {
BlockScanAlgorithm pick_algorithm() {
  return *rc::gen::element(BlockScanAlgorithm::HillisSteele, BlockScanAlgorithm::Blelloch,
                           BlockScanAlgorithm::WarpShuffle);
}
}  // namespace

// The last element of an inclusive scan is the reduction (exact for int32
// sums with wrap-around, and for float max), for every scan and reduction.
KV_GPU_PROPERTY(ScanLaws, LastOfInclusiveScanIsTheReduction) {
  const auto x = *gen::arrays<i32>(gen::sizes(kDeviceTile, kLargeTiled));
  RC_PRE(!x.empty());
  const auto in = rt::DeviceBuffer<i32>::from_host(x);
  const i32 device_total = kk::device_reduce<i32, kk::Sum>(in);
  const auto algo = pick_algorithm();
  const unsigned block = *gen::block_sizes(algo);
  const i32 scanned = run_tiled<i32, kk::Sum>(algo, ScanKind::Inclusive, x, block).back();
  RC_ASSERT(scanned == device_total);
  RC_ASSERT((run_device<i32, kk::Sum>(ScanKind::Inclusive, x).back() == device_total));
  const auto y = *gen::arrays<f32>(x.size());
  const auto fin = rt::DeviceBuffer<f32>::from_host(y);
  const f32 max_total = kk::device_reduce<f32, kk::Max>(fin);
  RC_ASSERT((run_device<f32, kk::Max>(ScanKind::Inclusive, y).back() == max_total));
  RC_ASSERT((run_tiled<f32, kk::Max>(algo, ScanKind::Inclusive, y, block).back() == max_total));
}

// exclusive[0] is the identity and exclusive[i] = inclusive[i - 1], exactly.
KV_GPU_PROPERTY(ScanLaws, ExclusiveIsInclusiveShifted) {
  const auto x = *gen::arrays<u32>(gen::sizes(kDeviceTile, kLargeTiled));
  const bool device = *rc::gen::arbitrary<bool>();
  const auto algo = pick_algorithm();
  const unsigned block = *gen::block_sizes(algo);
  const auto inc = device ? run_device<u32, kk::Sum>(ScanKind::Inclusive, x)
                          : run_tiled<u32, kk::Sum>(algo, ScanKind::Inclusive, x, block);
  const auto exc = device ? run_device<u32, kk::Sum>(ScanKind::Exclusive, x)
                          : run_tiled<u32, kk::Sum>(algo, ScanKind::Exclusive, x, block);
  RC_ASSERT(inc.size() == exc.size());
  if (x.empty()) return;
  RC_ASSERT(exc[0] == 0u);
  for (std::size_t i = 1; i < x.size(); ++i)
    if (exc[i] != inc[i - 1])
      prop::fail("exclusive[" + std::to_string(i) + "] = " + std::to_string(exc[i]) + " but inclusive[" +
                 std::to_string(i - 1) + "] = " + std::to_string(inc[i - 1]));
}

// Pointers off 16-byte alignment (in and out apart) take the device scan's
// element-wise path in every tile; the result must not change.
KV_GPU_PROPERTY(ScanLaws, DeviceScanOfMisalignedPointers) {
  const auto x = *gen::arrays<i32>(gen::sizes(kDeviceTile, kLargeTiled));
  const std::size_t in_off = *rc::gen::inRange<std::size_t>(0, 4);
  const std::size_t out_off = *rc::gen::inRange<std::size_t>(0, 4);
  const ScanKind kind = pick_kind();
  std::vector<i32> shifted(in_off, 0);
  shifted.insert(shifted.end(), x.begin(), x.end());
  const auto in = rt::DeviceBuffer<i32>::from_host(shifted);
  auto out = poisoned<i32>(x.size() + out_off);
  const std::size_t bytes = kk::device_scan_temp_bytes<i32>(x.size());
  rt::DeviceBuffer<unsigned char> temp(bytes);
  kk::device_scan<i32, kk::Sum>(kind, in.data() + in_off, out.data() + out_off, x.size(), temp.data(), bytes,
                                nullptr);
  auto got = out.download();
  got.erase(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(out_off));
  const auto v = prop::exact(got, ref::scan<i32, kk::Sum>(x, kind == ScanKind::Exclusive));
  if (!v.ok) prop::fail(v.message);
}

// A max-scan is exact (checked above) and never decreases.
KV_GPU_PROPERTY(ScanLaws, MaxScanIsMonotone) {
  const auto x = *gen::arrays<f32>(gen::sizes(kDeviceTile, kLargeTiled));
  const bool device = *rc::gen::arbitrary<bool>();
  const auto algo = pick_algorithm();
  const unsigned block = *gen::block_sizes(algo);
  const auto got = device ? run_device<f32, kk::Max>(ScanKind::Inclusive, x)
                          : run_tiled<f32, kk::Max>(algo, ScanKind::Inclusive, x, block);
  for (std::size_t i = 1; i < got.size(); ++i)
    if (!(got[i - 1] <= got[i]))
      prop::fail("max-scan decreases at " + std::to_string(i) + ": " + prop::show(got[i - 1]) + " then " +
                 prop::show(got[i]));
}

// The device scan at the top of its documented range, and one short of a
// full last tile, against the exact (wrapping) reference.
TEST(DeviceScanLarge, Int32SumAt2Pow28) {
  KV_REQUIRE_GPU();
  for (const auto &[n, kind] : {std::pair{std::size_t{1} << 28, ScanKind::Inclusive},
                                std::pair{(std::size_t{1} << 28) - 1, ScanKind::Exclusive}}) {
    std::vector<i32> x(n);
    gen::fill(x, 2024 + n);
    const auto got = run_device<i32, kk::Sum>(kind, x);
    const auto want = ref::scan<i32, kk::Sum>(x, kind == ScanKind::Exclusive);
    const auto v = prop::exact(got, want);
    ASSERT_TRUE(v.ok) << "n = " << n << ": " << v.message;
  }
}

// Block sizes an algorithm cannot use are refused before anything launches.
TEST(TiledScanConfig, RejectsBlockSizesTheAlgorithmCannotUse) {
  rt::DeviceBuffer<f32> in, out;
  EXPECT_THROW((kk::tiled_scan<f32, kk::Sum>(BlockScanAlgorithm::Blelloch, ScanKind::Inclusive, in, out, 96)),
               rt::LaunchConfigError);
  EXPECT_THROW(
      (kk::tiled_scan<f32, kk::Sum>(BlockScanAlgorithm::WarpShuffle, ScanKind::Inclusive, in, out, 100)),
      rt::LaunchConfigError);
  EXPECT_THROW(
      (kk::tiled_scan<f32, kk::Sum>(BlockScanAlgorithm::HillisSteele, ScanKind::Inclusive, in, out, 1)),
      rt::LaunchConfigError);
  EXPECT_NO_THROW(
      (kk::tiled_scan<f32, kk::Sum>(BlockScanAlgorithm::HillisSteele, ScanKind::Inclusive, in, out, 3)));
}
