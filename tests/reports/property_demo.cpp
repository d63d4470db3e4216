// Property tests with every outcome, for the merged report's browser test
// (html_report_check.py runs them under CTest with --output-junit): one fails on
// purpose, through the same glue as the GPU suites, so the report has a real
// RapidCheck counterexample and reproduce string to show. Not a test of its own.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kverify/properties/failure_record.hpp"

// Wrong on purpose: a "sum" that drops the last element, checked against the sum.
TEST(DemoProps, SumMatchesReference) {
  kverify::prop::check([](const std::vector<int> &v) {
    long long expected = 0, got = 0;
    for (int x : v) expected += x;
    for (std::size_t i = 0; i + 1 < v.size(); ++i) got += v[i];
    RC_ASSERT(got == expected);
  });
}

TEST(DemoProps, ReverseTwiceIsIdentity) {
  kverify::prop::check([](const std::vector<int> &v) {
    std::vector<int> r(v.rbegin(), v.rend());
    RC_ASSERT(std::vector<int>(r.rbegin(), r.rend()) == v);
  });
}

TEST(DemoProps, NeedsAGpu) { GTEST_SKIP() << "no GPU <in this demo> & nothing to run on"; }
