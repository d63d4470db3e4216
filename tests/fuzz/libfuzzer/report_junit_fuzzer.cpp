// libFuzzer target: JUnit XML of test runs as merge-report reads it (reports::read_junit,
// with the property failure records in the tests' output), and the record reader alone.
#include "kverify/reports/property_outcome.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  std::string error;
  if (!kverify::reports::read_junit(text, error) && error.empty()) std::abort();
  (void)kverify::reports::parse_failure_record(text, error);
  (void)kverify::reports::rapidcheck_reproduce(text);
  return 0;
}
