// The configuration pass (see configure.hpp).
#include "analysis/configure.hpp"

namespace kverify::analysis {

KernelConfig configure(const Options &command_line, const std::string &file_options,
                       const model::Kernel &kernel) {
  KernelConfig c{command_line, {}, ""};
  std::string err;
  for (const std::string *comment : {&file_options, &kernel.options})
    if (!comment->empty() && !applyOptionString(*comment, c.options, err)) {
      c.error = "kverify: comment: " + err;
      return c;
    }
  if (std::string limit = launchLimitError(c.options); !limit.empty()) {
    bool from_comment = !file_options.empty() || !kernel.options.empty();
    c.error = (from_comment ? "kverify: comment: " : "") + limit;
    return c;
  }
  for (const std::string &a : c.options.assumes) {
    model::ExprPtr e = parseAssumption(a, kernel, err);
    if (!e) {
      c.error = "--assume='" + a + "': " + err;
      return c;
    }
    c.assumes.push_back(e);
  }
  return c;
}

}  // namespace kverify::analysis
