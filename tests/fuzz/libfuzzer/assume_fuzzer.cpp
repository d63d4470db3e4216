// libFuzzer target: the --assume expression grammar (analysis::parseAssumption).
// Any input either parses to a bool expression or is refused with a message.
#include "analysis/analysis.hpp"
#include "fuzz_kernel.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const kverify::model::Kernel kernel = kverify::fuzz::fuzzKernel();
  const std::string text(reinterpret_cast<const char *>(data), size);
  std::string error;
  kverify::model::ExprPtr e = kverify::analysis::parseAssumption(text, kernel, error);
  if (!e && error.empty()) std::abort();  // refused without saying why
  if (e) {
    if (e->type.kind != kverify::model::Type::Kind::Bool) std::abort();
    (void)kverify::model::toString(e);  // the analysis prints assumptions in reports
  }
  return 0;
}
