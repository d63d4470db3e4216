// merge-report's inputs: JUnit XML as CTest and GoogleTest write it, kverify JSON
// reports and their shards, and clear errors for anything else.
#include <gtest/gtest.h>

#include <string>

#include "kverify/reports/merge.hpp"
#include "kverify/reports/property_outcome.hpp"

namespace kr = kverify::reports;

namespace {

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// A skipped and a passing test as `ctest --output-junit` (CMake 3.25) writes them.
const char *const kCTestJUnit = R"XML(<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="(empty)" tests="2" failures="0" disabled="0" skipped="1" hostname="" time="0">
	<testcase name="ReduceProps.SumInt" classname="ReduceProps.SumInt" time="0.07" status="notrun">
		<skipped message="SKIP_REGULAR_EXPRESSION_MATCHED"/>
		<system-out>[ RUN      ] ReduceProps.SumInt
/work/tests/properties/reduce_properties_test.cpp:12: Skipped
no GPU: cudaGetDeviceCount: no CUDA-capable device is detected &lt;100&gt;
[  SKIPPED ] ReduceProps.SumInt (0 ms)
</system-out>
	</testcase>
	<testcase name="Tolerance.Ulps" classname="Tolerance.Ulps" time="0.01" status="run">
		<system-out>[       OK ] Tolerance.Ulps (0 ms)</system-out>
	</testcase>
</testsuite>
)XML";

std::string kernel_json(const std::string &file, const std::string &name, const std::string &verdict) {
  return "{\"kernels\":[{\"file\":\"" + file + "\",\"name\":\"" + name + "\",\"verdict\":\"" + verdict +
         "\",\"findings\":[]}],\"summary\":{}}";
}

}  // namespace

TEST(ReadJUnit, CTestOutcomesWithSkipReasons) {
  std::string error;
  const auto tests = kr::read_junit(kCTestJUnit, error);
  ASSERT_TRUE(tests) << error;
  ASSERT_EQ(tests->size(), 2u);
  EXPECT_EQ((*tests)[0].suite, "ReduceProps");
  EXPECT_EQ((*tests)[0].name, "SumInt");
  EXPECT_EQ((*tests)[0].status, "skipped");
  EXPECT_EQ((*tests)[0].message, "no GPU: cudaGetDeviceCount: no CUDA-capable device is detected <100>");
  EXPECT_DOUBLE_EQ((*tests)[0].time_s, 0.07);
  EXPECT_EQ((*tests)[1].status, "passed");
}

TEST(ReadJUnit, GoogleTestsOwnXmlAndFailuresWithoutARecord) {
  const std::string xml = R"XML(<?xml version="1.0"?>
<testsuites tests="1"><testsuite name="Scan">
<testcase name="Exclusive" classname="Scan" status="run" time="0.5">
<failure message="scan.cpp:12&#x0A;Expected equality">scan.cpp:12
Expected equality of these values:
RC_PARAMS="reproduce=ABC"</failure></testcase></testsuite></testsuites>)XML";
  std::string error;
  const auto tests = kr::read_junit(xml, error);
  ASSERT_TRUE(tests) << error;
  ASSERT_EQ(tests->size(), 1u);
  EXPECT_EQ((*tests)[0].suite, "Scan");
  EXPECT_EQ((*tests)[0].name, "Exclusive");
  EXPECT_EQ((*tests)[0].status, "failed");
  EXPECT_TRUE(contains((*tests)[0].message, "Expected equality of these values:"));
  EXPECT_EQ((*tests)[0].reproduce, "RC_PARAMS=\"reproduce=ABC\"");
}

TEST(ReadJUnit, MalformedInputIsAClearError) {
  std::string error;
  EXPECT_FALSE(kr::read_junit("<testsuite><testcase name=\"a\"></testsuite>", error));
  EXPECT_TRUE(contains(error, "line 1: mismatched tag")) << error;
  EXPECT_FALSE(kr::read_junit("<html><body/></html>", error));
  EXPECT_TRUE(contains(error, "root element is <html>")) << error;
  EXPECT_FALSE(kr::read_junit("<testsuite><testcase/></testsuite>", error));
  EXPECT_TRUE(contains(error, "without a name")) << error;
  EXPECT_FALSE(
      kr::read_junit("<testsuite>\n<testcase name=\"a\" status=\"fail\"><system-out>"
                     "kverify-property-failure: {\"property\":1}</system-out></testcase>"
                     "</testsuite>",
                     error));
  EXPECT_TRUE(contains(error, "malformed property failure record")) << error;
}

TEST(MergeInput, JoinsShardsAndTestRuns) {
  kr::MergedReport merged;
  std::string error;
  ASSERT_TRUE(kr::merge_input("shard1.json", kernel_json("a.cu", "k1", "race"), merged, error)) << error;
  ASSERT_TRUE(kr::merge_input("shard2.json", "\xEF\xBB\xBF\n  " + kernel_json("b.cu", "k2", "verified"),
                              merged, error))
      << error;
  ASSERT_TRUE(kr::merge_input("tests.xml", kCTestJUnit, merged, error)) << error;
  ASSERT_EQ(merged.run.kernels.size(), 2u);
  EXPECT_EQ(merged.run.kernels[1].name, "k2");
  EXPECT_EQ(merged.properties.size(), 2u);
  EXPECT_TRUE(merged.warnings.empty());
  ASSERT_TRUE(kr::merge_input("again.json", kernel_json("a.cu", "k1", "race"), merged, error));
  ASSERT_EQ(merged.warnings.size(), 1u);
  EXPECT_TRUE(contains(merged.warnings[0], "'k1' of 'a.cu' is in 'again.json'")) << merged.warnings[0];
}

TEST(MergeInput, RejectsWhatItCannotRead) {
  kr::MergedReport merged;
  std::string error;
  EXPECT_FALSE(kr::merge_input("x.txt", "hello", merged, error));
  EXPECT_EQ(error, "'x.txt' is neither a kverify JSON report nor JUnit XML");
  EXPECT_FALSE(kr::merge_input("e.json", " \n", merged, error));
  EXPECT_EQ(error, "'e.json' is empty");
  EXPECT_FALSE(kr::merge_input("bad.json", "{\"kernels\": [", merged, error));
  EXPECT_TRUE(contains(error, "'bad.json' is not a kverify JSON report")) << error;
  EXPECT_FALSE(kr::merge_input("other.json", "{\"runs\": []}", merged, error));
  EXPECT_TRUE(contains(error, "no \"kernels\" list")) << error;
  EXPECT_FALSE(kr::merge_input("bad.xml", "<testsuite>", merged, error));
  EXPECT_TRUE(contains(error, "'bad.xml' is not JUnit XML: line 1")) << error;
}
