#pragma once
// The preprocessor's view of a file: what the result cache keys a file's results by.
// Clang-free interface; preprocess.cpp runs clang's preprocessor.

#include "frontend/frontend.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kverify::frontend {

struct Preprocessed {
  std::string text;  // the preprocessed source, with line markers (as `clang -E`)
  // Every file the preprocessor read (the file itself, its headers, the prelude), sorted
  // by path, with its contents: they carry what `-E` drops, such as `// kverify:`
  // comments and the columns findings point at.
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<uint64_t> precompiled;  // the files read through the precompiled prelude, by digest
};

// Preprocesses `path` with the command line and CUDA prelude parseFile uses. Nothing
// when it fails (a missing header, an unreadable file); clang's messages are not shown.
std::optional<Preprocessed> preprocess(const std::string &path, const Options &options);

}  // namespace kverify::frontend
