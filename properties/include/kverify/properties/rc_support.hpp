// Glue between RapidCheck, GoogleTest and the tolerance models.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <sstream>
#include <string>
#include <utility>

#include "kverify/properties/failure_record.hpp"  // check(): runs a property in a test
#include "kverify/properties/tolerance.hpp"

// Inside a property: fail the case with the model's explanation.
#define KV_RC_REQUIRE(verdict)                           \
  do {                                                   \
    const ::kverify::prop::Verdict kv_v_ = (verdict);    \
    if (!kv_v_.ok) ::kverify::prop::fail(kv_v_.message); \
  } while (0)

namespace kverify::prop {

// Fails the current RapidCheck case with a message (RC_FAIL for runtime text).
[[noreturn]] inline void fail(const std::string &message) {
  throw rc::detail::CaseResult(rc::detail::CaseResult::Type::Failure, message);
}

// The outcome of running a property to the end, for meta-tests that expect
// a failure and inspect it.
struct Outcome {
  bool failed = false;
  int passed_cases = 0;
  std::string report;  // RapidCheck's text: counterexample, reproduce string
};

// Runs with the configured parameters (RC_PARAMS: seed, ...), but at least
// min_cases cases so a bug has its chance to show.
template <class Testable>
Outcome run(Testable &&property, int min_cases) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  if (params.maxSuccess < min_cases) params.maxSuccess = min_cases;
  const rc::detail::TestResult result = rc::detail::checkProperty(
      rc::detail::toProperty(std::forward<Testable>(property)), rc::detail::TestMetadata{}, params);
  Outcome o;
  std::ostringstream os;
  rc::detail::printResultMessage(result, os);
  o.report = os.str();
  rc::detail::FailureResult failure;
  rc::detail::SuccessResult success;
  if (result.match(failure)) {
    o.failed = true;
    o.passed_cases = failure.numSuccess;
  } else if (result.match(success)) {
    o.passed_cases = success.numSuccess;
  }
  return o;
}

// Sets RapidCheck's default case count (RC_PARAMS="max_success=N") unless the
// environment already has RC_PARAMS. Call before the first property runs.
void default_case_count(int n);

}  // namespace kverify::prop
