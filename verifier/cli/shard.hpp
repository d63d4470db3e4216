#pragma once
// --shard=K/N: one of N runs over the same inputs, each analysing its own share of the
// files. A file's shard is a hash of its path, so adding or removing a file moves no
// other file to another shard; together the N shards cover every file exactly once.

#include <optional>
#include <string>
#include <vector>

namespace kverify::cli {

struct Shard {
  unsigned index = 1, count = 1;  // K and N, 1 <= K <= N
};

// "K/N" with 1 <= K <= N; nothing when `text` is anything else.
std::optional<Shard> parseShard(const std::string &text);

// The files of `files` in `shard`, in their order.
std::vector<std::string> filesInShard(const std::vector<std::string> &files, Shard shard);

}  // namespace kverify::cli
