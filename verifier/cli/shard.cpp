// --shard=K/N (see shard.hpp).
#include "cli/shard.hpp"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <cctype>
#include <cstdlib>

namespace kverify::cli {

static std::optional<unsigned> positive(const std::string &digits) {
  if (digits.empty() || digits.size() > 9) return std::nullopt;
  for (char c : digits)
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  unsigned v = static_cast<unsigned>(std::strtoul(digits.c_str(), nullptr, 10));
  return v > 0 ? std::optional<unsigned>(v) : std::nullopt;
}

std::optional<Shard> parseShard(const std::string &text) {
  size_t slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  std::optional<unsigned> k = positive(text.substr(0, slash)), n = positive(text.substr(slash + 1));
  if (!k || !n || *k > *n) return std::nullopt;
  return Shard{*k, *n};
}

std::vector<std::string> filesInShard(const std::vector<std::string> &files, Shard shard) {
  std::vector<std::string> mine;
  for (const std::string &file : files) {
    llvm::SmallString<256> path(file);
    llvm::sys::path::remove_dots(path);  // ./a.cu and a.cu are one file
    if (llvm::xxh3_64bits(path.str()) % shard.count == shard.index - 1) mine.push_back(file);
  }
  return mine;
}

}  // namespace kverify::cli
