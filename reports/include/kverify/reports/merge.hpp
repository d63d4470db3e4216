#pragma once
// `kverify merge-report`'s inputs joined into one report: kverify JSON reports (one
// run, or the shards of one) and JUnit XML files of test runs.

#include <string>
#include <vector>

#include "result/result.hpp"
#include "kverify/reports/property_outcome.hpp"

namespace kverify::reports {

struct MergedReport {
  analysis::RunResult run;                  // every input's kernels, in input order
  std::vector<PropertyOutcome> properties;  // every JUnit input's tests
  std::vector<std::string> warnings;        // e.g. a kernel that two inputs both report
};

// Adds one input's text; `name` is only for messages. A kverify JSON report starts
// with '{', JUnit XML with '<' (leading white space and a UTF-8 byte order mark
// skipped). False, and `error` set, when the text is neither or does not read.
bool merge_input(const std::string &name, const std::string &text, MergedReport &into, std::string &error);

}  // namespace kverify::reports
