// block_sums on the GPU against a sequential reference: each block's sum must lie within
// the summation model's bound for a tree of depth 8 (|error| <= gamma_8 sum|x|, Higham
// sec. 4.2) of the exact sum. Without a GPU, each test is skipped with the reason.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "example/block_sums.hpp"
#include "kverify/properties/generators.hpp"
#include "kverify/properties/gpu_test.hpp"
#include "kverify/properties/references.hpp"
#include "kverify/properties/tolerance.hpp"
#include "kverify/runtime/launch.hpp"

namespace gen = kverify::prop::gen;
namespace prop = kverify::prop;
namespace ref = kverify::prop::ref;
namespace rt = kverify::rt;

namespace {

// The exact sum of each block's elements, computed one block at a time on the CPU.
prop::SumReference per_block_sums(const std::vector<float> &x) {
  prop::SumReference all;
  for (std::size_t begin = 0; begin < x.size(); begin += example::kBlock) {
    const std::size_t end = std::min(x.size(), begin + example::kBlock);
    const prop::SumReference one = ref::total_sum(std::vector<float>(x.begin() + begin, x.begin() + end));
    all.value.push_back(one.value[0]);
    all.abs_sum.push_back(one.abs_sum[0]);
    all.rel_error = std::max(all.rel_error, one.rel_error);
  }
  return all;
}

}  // namespace

KV_GPU_PROPERTY(BlockSums, WithinTheSummationBound) {
  const std::vector<float> x = *gen::arrays<float>(gen::sizes(example::kBlock, 1 << 16));
  const auto in = rt::DeviceBuffer<float>::from_host(x);
  rt::DeviceBuffer<float> out(rt::blocks_for(x.size(), example::kBlock));
  out.poison();  // an output the kernel never writes stays NaN and fails the model
  example::block_sums(in, out);
  KV_RC_REQUIRE(prop::summation(
      out.download(), per_block_sums(x), [](std::size_t) { return example::kTreeDepth; }, "log2(256)"));
}

TEST(BlockSums, RejectsAnOutputOfTheWrongSize) {
  KV_REQUIRE_GPU();
  const auto in = rt::DeviceBuffer<float>::from_host(std::vector<float>(300, 1.0f));
  rt::DeviceBuffer<float> out(1);  // 300 elements need 2 blocks
  EXPECT_THROW(example::block_sums(in, out), std::invalid_argument);
}
