// libFuzzer target: kverify JSON reports as merge-report and the result cache read them
// (reports::read_json). A report read back renders as JSON that reads back to the same
// rendering: reading and rendering lose nothing a second time round.
#include "kverify/reports/read_json.hpp"
#include "kverify/reports/render.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  std::string error;
  std::optional<kverify::analysis::RunResult> run = kverify::reports::read_json(text, error);
  if (!run) return 0;
  const std::string rendered = kverify::reports::render_json(*run);
  std::optional<kverify::analysis::RunResult> again = kverify::reports::read_json(rendered, error);
  if (!again) {
    std::fprintf(stderr, "render_json's output does not read back: %s\n%s\n", error.c_str(),
                 rendered.c_str());
    std::abort();
  }
  if (kverify::reports::render_json(*again) != rendered) {
    std::fprintf(stderr, "read_json(render_json(r)) renders differently from r:\n%s\n", rendered.c_str());
    std::abort();
  }
  return 0;
}
