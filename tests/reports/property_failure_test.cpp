// The property suites' failure record, read back from real RapidCheck output: a failing
// property runs in-process through the same glue the suites use (kverify::prop::check),
// its GoogleTest failure is intercepted, and the report side parses it, also from the
// JUnit XML that CTest writes around such output.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <rapidcheck/detail/TestListenerAdapter.h>

#include "kverify/properties/failure_record.hpp"
#include "kverify/reports/property_outcome.hpp"

namespace {

// Fails for every vector of 3 or more elements: RapidCheck shrinks to [0, 0, 0].
void short_vectors_only(const std::vector<int> &v) { RC_ASSERT(v.size() < 3u); }

// The GoogleTest failure message of one run of `property` through kverify::prop::check.
template <class Property>
std::string failure_message_of(Property property) {
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    kverify::prop::check(property);
  }
  if (failures.size() != 1) return "";
  return failures.GetTestPartResult(0).message();
}

std::string xml_text(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

}  // namespace

TEST(PropertyFailureRecord, ReadsBackWhatAFailingPropertyPrints) {
  const std::string message = failure_message_of(&short_vectors_only);
  ASSERT_FALSE(message.empty()) << "the property must fail the test once";
  EXPECT_NE(message.find("Falsifiable after"), std::string::npos)
      << "RapidCheck's own report stays, for people:\n"
      << message;

  std::string error;
  const auto record = kverify::reports::parse_failure_record(message, error);
  ASSERT_TRUE(record) << error << "\n" << message;
  EXPECT_EQ(record->property, "PropertyFailureRecord/ReadsBackWhatAFailingPropertyPrints");
  ASSERT_EQ(record->counterexample.size(), 1u);
  EXPECT_EQ(record->counterexample[0].type, "std::tuple<std::vector<int>>");
  EXPECT_EQ(record->counterexample[0].value, "([0, 0, 0])") << "shrunk to the minimal case";
  EXPECT_NE(record->message.find("RC_ASSERT(v.size() < 3u)"), std::string::npos) << record->message;
  EXPECT_EQ(record->reproduce.rfind("RC_PARAMS=\"reproduce=", 0), 0u) << record->reproduce;
  EXPECT_EQ(record->reproduce.back(), '"');
  EXPECT_EQ(record->reproduce.find(' '), std::string::npos) << "only the reproduce key, as "
                                                               "RapidCheck prints it at exit";
}

TEST(PropertyFailureRecord, TheReproduceStringReplaysTheCounterexample) {
  const std::string message = failure_message_of(&short_vectors_only);
  std::string error;
  const auto record = kverify::reports::parse_failure_record(message, error);
  ASSERT_TRUE(record) << error;
  // What RC_PARAMS would hold: the text between the quotes.
  const std::string setting = record->reproduce.substr(
      std::string("RC_PARAMS=\"").size(), record->reproduce.size() - std::string("RC_PARAMS=\"").size() - 1);
  const rc::detail::Configuration config = rc::detail::configFromString(setting);
  ASSERT_EQ(config.reproduce.count(record->property), 1u) << setting;

  rc::detail::TestMetadata metadata;
  metadata.id = record->property;
  rc::detail::TestListenerAdapter quiet;
  const rc::detail::TestResult replay =
      rc::detail::checkProperty(rc::detail::toProperty(&short_vectors_only), metadata,
                                rc::detail::configuration().testParams, quiet, config.reproduce);
  rc::detail::FailureResult failure;
  ASSERT_TRUE(replay.match(failure)) << "the replay fails again";
  ASSERT_EQ(failure.counterExample.size(), 1u);
  EXPECT_EQ(failure.counterExample[0].second, record->counterexample[0].value);
}

TEST(PropertyFailureRecord, FoundInCTestJUnitOutput) {
  const std::string message = failure_message_of(&short_vectors_only);
  // How `ctest --output-junit` wraps a failing GoogleTest test's output (CMake 3.25).
  const std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"(empty)\" tests=\"2\" "
      "failures=\"1\" disabled=\"0\" skipped=\"0\">\n"
      "\t<testcase name=\"ScanProps.Inclusive\" classname=\"ScanProps.Inclusive\" time=\"0.08\" "
      "status=\"fail\">\n\t\t<failure message=\"\"/>\n\t\t<system-out>[ RUN      ] "
      "ScanProps.Inclusive\nUsing configuration: seed=1\n" +
      xml_text(message) +
      "\n[  FAILED  ] ScanProps.Inclusive (16 ms)\n</system-out>\n\t</testcase>\n"
      "\t<testcase name=\"ScanProps.Exclusive\" classname=\"ScanProps.Exclusive\" time=\"0.1\" "
      "status=\"run\">\n\t\t<system-out>[       OK ] ScanProps.Exclusive</system-out>\n"
      "\t</testcase>\n</testsuite>\n";
  std::string error;
  const auto tests = kverify::reports::read_junit(xml, error);
  ASSERT_TRUE(tests) << error;
  ASSERT_EQ(tests->size(), 2u);
  const kverify::reports::PropertyOutcome &failed = (*tests)[0];
  EXPECT_EQ(failed.suite, "ScanProps");
  EXPECT_EQ(failed.name, "Inclusive");
  EXPECT_EQ(failed.status, "failed");
  ASSERT_EQ(failed.counterexample.size(), 1u);
  EXPECT_EQ(failed.counterexample[0].value, "([0, 0, 0])");
  EXPECT_EQ(failed.reproduce.rfind("RC_PARAMS=\"reproduce=", 0), 0u);
  EXPECT_EQ((*tests)[1].status, "passed");
}

TEST(PropertyFailureRecord, PrefixIsTheOneTheReportLooksFor) {
  rc::detail::FailureResult failure;
  failure.numSuccess = 3;
  failure.description = "line 1\n\"quoted\"\ttab \\ back";
  failure.counterExample = {{"int", "7"}, {"std::string", "\"a\\nb\""}};
  const std::string record = kverify::prop::failure_record("S/N", failure);
  EXPECT_EQ(record.find('\n'), std::string::npos) << "one line";
  std::string error;
  const auto read = kverify::reports::parse_failure_record("noise\n" + record + "\nmore", error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(read->message, failure.description);
  EXPECT_EQ(read->passed_cases, 3);
  ASSERT_EQ(read->counterexample.size(), 2u);
  EXPECT_EQ(read->counterexample[1].value, "\"a\\nb\"");
}
