// The configuration pass (see configure.hpp).
#include "analysis/configure.hpp"

namespace kverify::analysis {

KernelConfig configure(const Options &command_line, const std::string &file_options,
                       const model::Kernel &kernel) {
  KernelConfig c{command_line, {}, "", ""};
  std::string err;
  for (const std::string *comment : {&file_options, &kernel.options})
    if (!comment->empty() && !applyOptionString(*comment, c.options, err)) {
      c.error = "kverify: comment: " + err;
      return c;
    }
  if (kernel.launch) {  // the file's own launch, where no option states one
    const model::HostLaunch &l = *kernel.launch;
    auto unset = [](const auto &dims) { return !dims[0] && !dims[1] && !dims[2]; };
    auto show = [](const auto &dims) {
      std::string out;
      for (const auto &d : dims) out += (out.empty() ? "" : ",") + (d ? std::to_string(*d) : "?");
      return "(" + out + ")";
    };
    bool block = unset(c.options.block_dim), grid = unset(c.options.grid_dim);
    if (block) c.options.block_dim = l.block;
    if (grid) c.options.grid_dim = l.grid;
    for (const std::string &f : block ? l.block_facts : std::vector<std::string>{})
      c.options.assumes.push_back(f);
    for (const std::string &f : grid ? l.grid_facts : std::vector<std::string>{})
      c.options.assumes.push_back(f);
    for (const std::string &f : block || grid ? l.arg_facts : std::vector<std::string>{})
      c.options.assumes.push_back(f);
    if (block || grid)
      c.launch = std::string("launch read from host code at ") + std::to_string(l.at.line) + ":" +
                 std::to_string(l.at.col) + ":" + (grid ? " gridDim=" + show(l.grid) : "") +
                 (block ? " blockDim=" + show(l.block) : "") + " (every launch of the kernel in this file)";
    for (const std::string &p : block || grid ? l.premises : std::vector<std::string>{})
      c.launch += "; assumed: " + p;
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
