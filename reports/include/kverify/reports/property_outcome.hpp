#pragma once
// Property tests as the merged report shows them, read from JUnit XML (what
// `ctest --output-junit` writes) and from the failure record the property suites print
// (properties/include/kverify/properties/failure_record.hpp).

#include <optional>
#include <string>
#include <vector>

namespace kverify::reports {

// One argument of a counterexample, as RapidCheck shows it: its type and its value.
struct CounterexampleValue {
  std::string type;
  std::string value;
};

struct PropertyOutcome {
  std::string suite;
  std::string name;
  std::string status;                               // "passed", "failed", "skipped"
  std::string message;                              // failed: the property's message; skipped: the reason
  std::vector<CounterexampleValue> counterexample;  // the shrunk, minimal one
  std::string reproduce;                            // RC_PARAMS="reproduce=...": replays this failure
  double time_s = 0;
};

// A property's failure record, read back.
struct PropertyFailure {
  std::string property;  // RapidCheck's id, "Suite/Name"
  int passed_cases = 0;
  std::string message;
  std::vector<CounterexampleValue> counterexample;
  std::string reproduce;
};

// The failure record in a test's output. Nothing, with `error` empty, when the output
// holds none; nothing with `error` set when one is there but malformed. With several,
// the last.
std::optional<PropertyFailure> parse_failure_record(const std::string &output, std::string &error);

// The last RC_PARAMS="reproduce=..." RapidCheck printed in `output`, or "".
std::string rapidcheck_reproduce(const std::string &output);

// The test outcomes of a JUnit XML file (ctest --output-junit, or GoogleTest's own
// --gtest_output=xml); failures filled in from the output's failure record where it has
// one. Nothing, and `error` set, when `xml` is not well-formed JUnit.
std::optional<std::vector<PropertyOutcome>> read_junit(const std::string &xml, std::string &error);

}  // namespace kverify::reports
