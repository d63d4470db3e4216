// Meta-tests: each known-bad kernel must fail the property its correct
// counterpart passes, and RapidCheck must shrink the failure to a small
// counterexample. The property records the size of every failing case; the
// last one recorded is the shrunk counterexample (shrinking ends on it).
// Sizes are their own pick, before the values: RapidCheck then keeps trying
// smaller sizes after it has shrunk values (inside one mapcat it would not).
//
// The racy kernel (missing barrier) fails only when warps interleave badly, so
// its property runs the kernel several times per case.
#include <cstdint>
#include <iostream>

#include "known_bad.hpp"
#include "suite_support.hpp"

using namespace kvtest;
namespace bad = kverify::kernels::known_bad;
using i32 = std::int32_t;

namespace {

constexpr int kMinCases = 200;
constexpr int kRacyRepeats = 20;

// Runs the property to the end; returns the size of the shrunk counterexample.
template <class Property>
std::size_t shrunk_failure_size(const char *what, Property property, std::size_t &last_failing) {
  last_failing = 0;
  const prop::Outcome o = prop::run(property, kMinCases);
  std::cout << what << ": " << o.report << "\n  shrunk to n = " << last_failing << std::endl;
  EXPECT_TRUE(o.failed) << what << " passed " << o.passed_cases << " cases: the property cannot see its bug";
  return last_failing;
}

}  // namespace

TEST(KnownBadMeta, UpsweepOnlyScanShrinksToThreeElements) {
  KV_REQUIRE_GPU();
  std::size_t last = 0;
  const std::size_t n = shrunk_failure_size(
      "the PyCUDA guide up-sweep-only scan",
      [&] {
        const auto x = *gen::arrays<i32>(*rc::gen::inRange<std::size_t>(0, 257));
        const auto in = rt::DeviceBuffer<i32>::from_host(x);
        auto out = poisoned<i32>(x.size());
        bad::upsweep_only_scan(in, out);
        const auto v = prop::exact(out.download(), ref::scan<i32, kk::Sum>(x, false));
        if (!v.ok) {
          last = x.size();
          prop::fail(v.message);
        }
      },
      last);
  // n <= 2 is scanned correctly by the up-sweep alone; n = 3 is the first
  // miss (when x0 + x1 != 0). Shrinking reaches 3 unless the values drawn
  // for the smaller sizes happen to cancel (about 1 seed in 40 on the CPU
  // model of this kernel), so allow a little above.
  EXPECT_GE(n, 3u);
  EXPECT_LE(n, 8u);
}

TEST(KnownBadMeta, ReductionWithoutLoopBarrierFailsWithinOneBlock) {
  KV_REQUIRE_GPU();
  std::size_t last = 0;
  // Shrinking a flaky failure: every candidate that happens not to fail costs
  // kRacyRepeats launches, and RapidCheck may try thousands (runs took from 5 s
  // to over 300 s). Past this many cases after the first failure the property
  // stops launching and passes, so shrinking ends on the smallest failure so far.
  constexpr int kShrinkBudget = 400;
  int cases_after_failure = -1;
  const std::size_t n = shrunk_failure_size(
      "reduction without its in-loop barrier",
      [&] {
        // One block's worth: the race is within a block, and shrinking a flaky failure
        // through 4096 elements could take minutes.
        const auto x = *gen::arrays<i32>(*rc::gen::inRange<std::size_t>(0, 1024 + 1));
        if (cases_after_failure >= 0 && ++cases_after_failure > kShrinkBudget) return;
        const auto in = rt::DeviceBuffer<i32>::from_host(x);
        const i32 want = ref::reduce<i32, kk::Sum>(x);
        for (int r = 0; r < kRacyRepeats; ++r) {
          const i32 got = bad::reduce_without_loop_barrier(in, 1024);
          if (got != want) {
            last = x.size();
            if (cases_after_failure < 0) cases_after_failure = 0;
            prop::fail("run " + std::to_string(r) + ": got " + std::to_string(got) + ", expected " +
                       std::to_string(want));
          }
        }
      },
      last);
  // Races are per block: one block of 1024 threads suffices. Warp 0 reading
  // warp 1's slot (stride 32) needs non-zero data beyond index 96.
  EXPECT_GT(n, 32u);
  EXPECT_LE(n, 1024u);
}

TEST(KnownBadMeta, InPlaceHillisSteeleShrinksToFourElements) {
  KV_REQUIRE_GPU();
  std::size_t last = 0;
  const std::size_t n = shrunk_failure_size(
      "in-place Hillis-Steele scan",
      [&] {
        const auto x = *gen::arrays<i32>(*rc::gen::inRange<std::size_t>(0, 1025));
        const auto in = rt::DeviceBuffer<i32>::from_host(x);
        auto out = poisoned<i32>(x.size());
        bad::in_place_hillis_steele_scan(in, out);
        const auto v = prop::exact(out.download(), ref::scan<i32, kk::Sum>(x, false));
        if (!v.ok) {
          last = x.size();
          prop::fail(v.message);
        }
      },
      last);
  // n <= 3 comes out right; at n = 4, element 3 picks up x1 twice (when
  // x1 != 0; as above, allow a little above the minimum).
  EXPECT_GE(n, 4u);
  EXPECT_LE(n, 8u);
}

TEST(KnownBadMeta, LastPartialTileScanShrinksJustPastOneTile) {
  KV_REQUIRE_GPU();
  constexpr unsigned kBlock = 256;
  std::size_t last = 0;
  const std::size_t n = shrunk_failure_size(
      "scan that drops the last partial tile's prefix",
      [&] {
        const auto x = *gen::arrays<i32>(*gen::sizes(kBlock, 64 * kBlock));
        const auto in = rt::DeviceBuffer<i32>::from_host(x);
        auto out = poisoned<i32>(x.size());
        bad::last_partial_tile_scan(in, out, kBlock);
        const auto v = prop::exact(out.download(), ref::scan<i32, kk::Sum>(x, false));
        if (!v.ok) {
          last = x.size();
          prop::fail(v.message);
        }
      },
      last);
  // Needs a full tile before a partial one: the smallest is kBlock + 1.
  EXPECT_GT(n, kBlock);
  EXPECT_LT(n, 2 * kBlock);
  EXPECT_NE(n % kBlock, 0u);
}

TEST(KnownBadMeta, HistogramWithoutAtomicsShrinksToTwoValues) {
  KV_REQUIRE_GPU();
  std::size_t last = 0;
  const std::size_t n = shrunk_failure_size(
      "histogram without atomics",
      [&] {
        const std::size_t nbins = *rc::gen::inRange<std::size_t>(1, 65);
        const auto values = *gen::arrays<std::uint32_t>(*rc::gen::inRange<std::size_t>(0, 4097));
        const auto in = rt::DeviceBuffer<std::uint32_t>::from_host(values);
        rt::DeviceBuffer<std::uint32_t> bins(nbins);
        bad::histogram_without_atomics(in, bins);
        const auto v = prop::exact(bins.download(), ref::histogram(values, nbins));
        if (!v.ok) {
          last = values.size();
          prop::fail(v.message);
        }
      },
      last);
  // Two values in one bin, read by two lanes of one warp: one increment lost.
  EXPECT_EQ(n, 2u);
}
