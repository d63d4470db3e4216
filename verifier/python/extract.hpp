#pragma once
// Finds the CUDA sources a Python file embeds — PyCUDA's SourceModule, CuPy's RawKernel,
// RawModule, ElementwiseKernel and ReductionKernel — and the launches of their kernels:
// PyCUDA `f(..., block=(256,1,1), grid=(g,1))` and `f.prepared_call(grid, block, ...)`,
// CuPy `k((grid,), (block,), (args))`. A source kverify cannot read is kept with the
// reason (it becomes an `unsupported` verdict), never dropped; a use of a kernel that is
// no launch it reads is a launch of unknown shape (kernel_uses.hpp), never dropped either.

#include "python/module.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace kverify::python {

using Dims = std::array<std::optional<int64_t>, 3>;  // unknown components stay symbolic

// A launch read from a call site.
struct Launch {
  Pos at;  // the call
  Dims block, grid;
  std::vector<std::string> unread;  // dimensions given but not read ("block.x"): symbolic
  std::string options;              // `# kverify:` comments above the call

  // The launch as kverify options: --block-dim/--grid-dim when every component is known,
  // else an --assume per known component.
  std::string optionText() const;
};

struct EmbeddedSource {
  std::string api;          // "SourceModule", "RawKernel", "RawModule", ...
  Pos at;                   // the constructor's name in the call
  Pos end;                  // the call's closing parenthesis
  SourcedText cuda;         // what kverify parses: the source as the API compiles it
  std::string unsupported;  // non-empty: why the source cannot be read (cuda is empty)
  std::string options;      // `# kverify:` comments above the call and above the string
  std::string kernel;       // RawKernel's name, the generated kernel's name; empty: all
  // (kernel name, launch); an empty name: a launch of any kernel of the source (a use of
  // the module kverify cannot follow)
  std::vector<std::pair<std::string, Launch>> launches;
};

std::vector<EmbeddedSource> extractSources(const Module &m);

// The constructor names kverify reads (last component of the callee).
bool isKernelConstructor(const std::string &callee);

}  // namespace kverify::python
