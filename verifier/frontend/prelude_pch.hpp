#pragma once
// The CUDA prelude, precompiled: parsing it (and the system headers it includes) took
// ~20 ms of every file's ~45 ms of fixed cost. A file's clang arguments with
// `-include <prelude>` become `-include-pch <a PCH of the prelude under the same arguments>`.
#include <cstdint>
#include <string>
#include <vector>

namespace kverify::frontend {

struct PreludeArguments {
  std::vector<std::string> args;  // the arguments to parse with
  // The bytes (xxh3) of every file the PCH holds, each checked against the file as it is
  // now: the files the parse read through it (empty: the prelude is parsed as text).
  std::vector<uint64_t> read;
};

// `args` (clangArguments(), the input file last) with the prelude precompiled into
// `pch_dir`: built there on first use, named by a hash of clang's version, the prelude's
// bytes and every argument but the input, with a list of the files it was built from and
// their bytes beside it; rebuilt where one of them has changed since. (Clang's own PCH
// validation is off: it compares times, and skips system headers.) Unchanged, the prelude
// parsed as text, where `pch_dir` is empty or no PCH can be built there (or it holds 64).
PreludeArguments withPrecompiledPrelude(std::vector<std::string> args, const std::string &pch_dir);

}  // namespace kverify::frontend
