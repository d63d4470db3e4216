// libFuzzer target: a `// kverify:` comment's text as the configuration pass reads it
// (analysis::configure: applyOptionString, the launch limits, each --assume parsed).
// The input is the file's comment; the kernel's own comment is empty.
#include "analysis/configure.hpp"
#include "fuzz_kernel.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const kverify::model::Kernel kernel = kverify::fuzz::fuzzKernel();
  const std::string comment(reinterpret_cast<const char *>(data), size);
  kverify::analysis::KernelConfig c = configure(kverify::analysis::Options{}, comment, kernel);
  // Without an error, every --assume was parsed, one expression each.
  if (c.error.empty() && c.assumes.size() != c.options.assumes.size()) std::abort();
  return 0;
}
