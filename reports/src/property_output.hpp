#pragma once
// What GoogleTest prints for one test, read back for the merged report.

#include <string>

namespace kverify::reports {

// The lines between "[ RUN      ]" and "[  FAILED  ]": the failure messages.
std::string gtest_failure_text(const std::string &output);

// What GTEST_SKIP() said (its "file:line: Skipped" line dropped), or "".
std::string gtest_skip_reason(const std::string &output);

}  // namespace kverify::reports
