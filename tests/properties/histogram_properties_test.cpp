// Property suite of the histograms (global atomics and shared-memory
// privatized): exact counts, counts summing to n.
#include <cstdint>
#include <numeric>

#include "kverify/kernels/histogram.hpp"
#include "suite_support.hpp"

using namespace kvtest;
using kk::HistogramAlgorithm;

namespace {

rc::Gen<std::size_t> bin_counts() {
  return rc::gen::weightedOneOf<std::size_t>({
      {2, rc::gen::inRange<std::size_t>(1, 17)},  // heavy contention on few bins
      {2, rc::gen::inRange<std::size_t>(1, 4097)},
      {1, gen::pick<std::size_t>({256, 1024, kk::kMaxPrivatizedBins})},
  });
}

void histogram_property(HistogramAlgorithm algo) {
  const std::size_t nbins = *bin_counts();
  const unsigned block = *gen::block_sizes(32, 1024);
  const auto values = *gen::arrays<std::uint32_t>(gen::sizes(block, std::size_t{1} << 20));
  const auto in = rt::DeviceBuffer<std::uint32_t>::from_host(values);
  auto bins = poisoned<std::uint32_t>(nbins);
  kk::histogram(algo, in, bins, block);
  const auto got = bins.download();
  KV_RC_REQUIRE(prop::exact(got, ref::histogram(values, nbins)));
  // Law: every element is counted exactly once.
  const std::uint64_t total = std::accumulate(got.begin(), got.end(), std::uint64_t{0});
  RC_ASSERT(total == values.size());
}

}  // namespace

KV_GPU_PROPERTY(Histogram, GlobalAtomics) { histogram_property(HistogramAlgorithm::GlobalAtomics); }
KV_GPU_PROPERTY(Histogram, SharedPrivatized) { histogram_property(HistogramAlgorithm::SharedPrivatized); }

TEST(HistogramConfig, RejectsNoBinsAndTooManyPrivatizedBins) {
  KV_REQUIRE_GPU();
  const auto values = rt::DeviceBuffer<std::uint32_t>::from_host({1, 2, 3});
  rt::DeviceBuffer<std::uint32_t> none;
  EXPECT_THROW(kk::histogram(HistogramAlgorithm::GlobalAtomics, values, none), std::invalid_argument);
  rt::DeviceBuffer<std::uint32_t> many(kk::kMaxPrivatizedBins + 1);
  EXPECT_THROW(kk::histogram(HistogramAlgorithm::SharedPrivatized, values, many), std::invalid_argument);
}
