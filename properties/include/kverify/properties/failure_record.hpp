// A failing property's report in a form tools can read back. RapidCheck's own text
// (counterexample blocks of any number of lines, the reproduce string printed at exit
// for every failure of the process) is for people; next to it the property prints one
// line
//   kverify-property-failure: {"property":"Suite/Name","passed_cases":25,
//     "message":"...","counterexample":[{"type":"int","value":"100"}],
//     "reproduce":"RC_PARAMS=\"reproduce=...\""}
// (JSON on one line) which `kverify merge-report` finds in CTest's JUnit output.
// Header-only, RapidCheck and GoogleTest alone: CPU tests use it without the kernels.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>

namespace kverify::prop {

inline constexpr const char kFailureRecordPrefix[] = "kverify-property-failure: ";

namespace detail {

inline std::string json_string(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

}  // namespace detail

// The environment setting that replays exactly this failure (shrunk), as RapidCheck
// prints it at exit: RC_PARAMS="reproduce=...". `property_id` is the id the property
// ran under (RapidCheck's GoogleTest glue uses "Suite/Name").
inline std::string reproduce_setting(const std::string &property_id,
                                     const rc::detail::FailureResult &failure) {
  rc::detail::Configuration config;
  config.reproduce[property_id] = failure.reproduce;
  // The minimal string also names keys whose defaults vary (seed): keep the one key.
  const std::string all = rc::detail::configToMinimalString(config);
  const std::size_t at = all.find("reproduce=");
  const std::size_t end = all.find(' ', at);
  return "RC_PARAMS=\"" + all.substr(at, end == std::string::npos ? end : end - at) + "\"";
}

// The one-line record described at the top of this file (no trailing newline).
inline std::string failure_record(const std::string &property_id, const rc::detail::FailureResult &failure) {
  std::string out = kFailureRecordPrefix;
  out += "{\"property\":" + detail::json_string(property_id);
  out += ",\"passed_cases\":" + std::to_string(failure.numSuccess);
  out += ",\"message\":" + detail::json_string(failure.description);
  out += ",\"counterexample\":[";
  for (std::size_t i = 0; i < failure.counterExample.size(); ++i) {
    const auto &[type, value] = failure.counterExample[i];
    out += (i ? ",{\"type\":" : "{\"type\":") + detail::json_string(type) +
           ",\"value\":" + detail::json_string(value) + "}";
  }
  out += "],\"reproduce\":" + detail::json_string(reproduce_setting(property_id, failure)) + "}";
  return out;
}

// Runs a property inside the current GoogleTest test, as RapidCheck's RC_GTEST_PROP
// does (same id, so its RC_PARAMS="reproduce=..." replays here), but callable after
// a GTEST_SKIP check. A failure fails the test with RapidCheck's report followed by
// the failure record.
template <class Testable>
void check(Testable &&property) {
  const ::testing::TestInfo *info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  const rc::detail::TestResult result = rc::detail::checkTestable(std::forward<Testable>(property), metadata);
  rc::detail::FailureResult failure;
  rc::detail::SuccessResult success;
  std::ostringstream os;
  rc::detail::printResultMessage(result, os);
  if (result.match(failure)) {
    FAIL() << os.str() << "\n" << failure_record(metadata.id, failure) << "\n";
  } else if (!result.match(success)) {  // gave up, or RapidCheck's own error
    FAIL() << os.str();
  } else if (!success.distribution.empty()) {
    std::cout << os.str() << std::endl;
  }
}

}  // namespace kverify::prop
