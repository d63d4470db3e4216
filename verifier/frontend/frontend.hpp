#pragma once
// The front end: .cu sources in, kernel models out (see model/model.hpp).
// Clang-free interface; the libTooling work happens in driver.cpp and extract_*.cpp.

#include "model/model.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace kverify::frontend {

struct Options {
  std::vector<std::string> extra_args;  // compiler arguments given after `--`
  std::string compile_commands_dir;     // -p: a directory holding compile_commands.json
  std::string prelude_dir;              // empty: locatePrelude()
  bool print_diagnostics = true;        // clang's diagnostics to stderr, like a compiler
  bool gpuverify = false;               // GPUVerify's annotations (__requires, ...) parse
  std::string pch_dir;                  // where the precompiled prelude is kept (empty: none)
};

// GPUVerify's test-file header: a `//--blockDim=... --gridDim=... -DN=4` comment among a
// file's first comment lines. Its flags, or nothing when the file has none. Such a file
// is read with GPUVerify's annotations, its -D macros and its launch.
std::vector<std::string> gpuverifyHeaderFlags(std::string_view text);

// Parses one file and models each kernel defined in it, and each instantiation of a
// header's kernel template that it causes. Never throws: a file that does
// not parse gives parsed == false and clang's diagnostics.
model::TranslationUnitModel parseFile(const std::string &path, const Options &options);

// Parses `text` as the contents of `path` (an absolute path that need not exist; its
// directory is searched for quoted #includes). Embedded sources (Python strings) use it.
model::TranslationUnitModel parseSource(const std::string &path, const std::string &text,
                                        const Options &options);

// The clang command line used for `path` (for tests and --verbose use).
std::vector<std::string> clangArguments(const std::string &path, const Options &options);

// Expands the command line's inputs: files as given, directories searched recursively
// for *.cu, *.cuh and the *.py files that name SourceModule, RawKernel, RawModule,
// ElementwiseKernel or ReductionKernel (sorted). Appends a message to `errors` for each missing input.
std::vector<std::string> collectSources(const std::vector<std::string> &inputs,
                                        std::vector<std::string> &errors);

// The prelude directory: $KVERIFY_PRELUDE_DIR, else <exe>/../share/kverify/prelude when
// installed, else the source tree's verifier/frontend/prelude.
std::string locatePrelude();

// Clang's resource directory (its builtin headers: stddef.h, the CUDA wrappers): the copy
// installed at <exe>/../share/kverify/clang, else the one of the Clang kverify was built with.
std::string locateClangResourceDir();

}  // namespace kverify::frontend
