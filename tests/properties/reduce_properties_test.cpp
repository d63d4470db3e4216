// Property suites of the reductions: tiled (shared tree, warp shuffle) and the
// bandwidth-tuned device reduction, for int32, uint32, float, double with sum
// and max. All are deterministic (fixed association), so two runs must agree
// bit for bit.
#include <cstdint>

#include "kverify/kernels/reduce.hpp"
#include "suite_support.hpp"

using namespace kvtest;
using kk::BlockReduceAlgorithm;
using i32 = std::int32_t;
using u32 = std::uint32_t;
using f32 = float;
using f64 = double;

namespace {

constexpr std::size_t kLarge = std::size_t{1} << 21;

template <class T>
bool same_value_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T, class Op>
void tiled_reduce_property(BlockReduceAlgorithm algo) {
  const unsigned block = *gen::block_sizes(algo);
  const auto x = *gen::arrays<T>(gen::sizes(block, kLarge));
  const auto in = rt::DeviceBuffer<T>::from_host(x);
  const T got = kk::tiled_reduce<T, Op>(algo, in, block);
  KV_RC_REQUIRE(
      (check_reduce<T, Op>(x, got, kk::tiled_reduce_depth(algo, x.size(), block), "tiled_reduce_depth")));
  const T again = kk::tiled_reduce<T, Op>(algo, in, block);
  if (!same_value_bits(got, again))
    prop::fail("two runs differ: " + prop::show(got) + " vs " + prop::show(again));
}

template <class T, class Op>
void device_reduce_property() {
  const auto x = *gen::arrays<T>(gen::sizes(256 * 16, kLarge));
  // An offset view exercises the unaligned (scalar) path as well.
  const std::size_t offset = x.empty() ? 0 : *rc::gen::element<std::size_t>(0, 0, 1);
  const std::vector<T> used(x.begin() + static_cast<std::ptrdiff_t>(offset), x.end());
  const auto in = rt::DeviceBuffer<T>::from_host(x);
  auto out = poisoned<T>(1);
  const std::size_t bytes = kk::device_reduce_temp_bytes<T>(used.size());
  rt::DeviceBuffer<unsigned char> temp(bytes);
  kk::device_reduce<T, Op>(in.data() + offset, used.size(), out.data(), temp.data(), bytes);
  const T got = out.download()[0];
  KV_RC_REQUIRE(
      (check_reduce<T, Op>(used, got, kk::device_reduce_depth(used.size()), "device_reduce_depth")));
  out.fill_bytes(kSecondPoison);
  kk::device_reduce<T, Op>(in.data() + offset, used.size(), out.data(), temp.data(), bytes);
  const T again = out.download()[0];
  if (!same_value_bits(got, again))
    prop::fail("two runs differ: " + prop::show(got) + " vs " + prop::show(again));
}

}  // namespace

#define KV_REDUCE_PROPERTIES(T, OP)                                      \
  KV_GPU_PROPERTY(TiledReduce, SharedTree_##T##_##OP) {                  \
    tiled_reduce_property<T, kk::OP>(BlockReduceAlgorithm::SharedTree);  \
  }                                                                      \
  KV_GPU_PROPERTY(TiledReduce, WarpShuffle_##T##_##OP) {                 \
    tiled_reduce_property<T, kk::OP>(BlockReduceAlgorithm::WarpShuffle); \
  }                                                                      \
  KV_GPU_PROPERTY(DeviceReduce, T##_##OP) { device_reduce_property<T, kk::OP>(); }
KV_REDUCE_PROPERTIES(i32, Sum)
KV_REDUCE_PROPERTIES(i32, Max)
KV_REDUCE_PROPERTIES(u32, Sum)
KV_REDUCE_PROPERTIES(u32, Max)
KV_REDUCE_PROPERTIES(f32, Sum)
KV_REDUCE_PROPERTIES(f32, Max)
KV_REDUCE_PROPERTIES(f64, Sum)
KV_REDUCE_PROPERTIES(f64, Max)

// The empty reduction is the identity, for every algorithm.
TEST(ReduceEdges, EmptyInputGivesTheIdentity) {
  KV_REQUIRE_GPU();
  const rt::DeviceBuffer<f32> empty;
  EXPECT_EQ((kk::device_reduce<f32, kk::Sum>(empty)), 0.0f);
  EXPECT_EQ((kk::device_reduce<f32, kk::Max>(empty)), -std::numeric_limits<f32>::infinity());
  EXPECT_EQ((kk::tiled_reduce<i32, kk::Max>(BlockReduceAlgorithm::SharedTree, rt::DeviceBuffer<i32>{})),
            std::numeric_limits<i32>::lowest());
}
