#pragma once
// The configuration pass: the options one kernel is analysed under. The command line's
// options, then the file's `// kverify:` comment, then the kernel's, merged into one
// Options; its --assume expressions parsed against the kernel once; CUDA's launch limits
// checked. (Whether the premises together hold for some launch and input needs the
// kernel's own assumptions too: the checker asks that, see Checker::premises.)
#include "analysis/analysis.hpp"

#include <string>
#include <vector>

namespace kverify::analysis {

struct KernelConfig {
  Options options;
  std::vector<model::ExprPtr> assumes;  // options.assumes, parsed, in the same order
  std::string error;                    // not empty: the kernel cannot be analysed under these options
  std::string launch;                   // not empty: the launch read from host code it assumes, in words
};

KernelConfig configure(const Options &command_line, const std::string &file_options,
                       const model::Kernel &kernel);

// Analyzes one kernel under its configuration (an error in it is the verdict `error`).
KernelResult analyzeKernel(const model::Kernel &kernel, const KernelConfig &config);

// The trace --dump-trace prints (analysis.hpp) of one kernel under its configuration.
std::string traceText(const model::Kernel &kernel, const KernelConfig &config);

}  // namespace kverify::analysis
