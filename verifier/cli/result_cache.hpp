#pragma once
// The result cache: each file's results, as kverify's JSON report, under a key that
// changes whenever they could. A key is a hash of
//   - the file's preprocessed source and the contents of every file the preprocessor read
//     (so editing an included header, or a `// kverify:` comment, invalidates it),
//   - the file's path as given and its clang command line (prelude, -I/-D, `--` arguments,
//     compile_commands.json flags),
//   - every option that changes results (the analysis options, --kernel, --gpuverify),
//   - kverify's version and build: the binary's contents and the shared libraries it
//     loaded (Clang, Z3), so a rebuilt or upgraded kverify never reuses stale results.
// An entry holds only results parsed from the bytes its key hashed (sameSources).
// Not cached (analysed again on every run): files that do not preprocess or parse, files
// clang warns about (their warnings are printed only by a real parse), and files with a
// kernel in `unknown` (a time-out may be decided next time).
// Entries are written to a temporary file and renamed, so parallel runs never see half an
// entry; an entry that cannot be read is analysed again, never an error.

#include "analysis/analysis.hpp"
#include "frontend/frontend.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kverify::cli {

class ResultCache {
public:
  // `dir`: where entries live (created when first written). `run_key`: what every
  // file's key shares, buildId() and optionsKey().
  ResultCache(std::string dir, std::string run_key);

  // The key of `file`'s results, and the files it was computed from.
  struct Key {
    std::string hash;
    std::vector<uint64_t> sources;  // xxh3 of each file's contents
  };
  // The key of `file`'s results, or nothing when the file does not preprocess.
  std::optional<Key> key(const std::string &file, const frontend::Options &options) const;

  // Whether `tu` was parsed from the very bytes `key` hashed. A file edited between the
  // two reads (an editor saving, a build writing a header) gave results that belong to
  // another key: storing them under this one would serve them for the old contents.
  static bool sameSources(const Key &key, const model::TranslationUnitModel &tu);

  // The results stored under `key` (its kernels and skipped templates), if readable.
  std::optional<analysis::RunResult> load(const std::string &key) const;

  // Stores `results` under `key`; a failure is reported once and otherwise ignored.
  void store(const std::string &key, const analysis::RunResult &results) const;

private:
  std::string path(const std::string &key) const;

  std::string dir_;
  std::string run_key_;
};

// Whether one file's results may be cached (see above).
bool cacheable(const model::TranslationUnitModel &tu, const std::vector<analysis::KernelResult> &results);

// $XDG_CACHE_HOME/kverify, else ~/.cache/kverify; empty when neither is known.
std::string defaultCacheDir();

// This kverify: version, the binary's contents, the shared libraries it loaded (path,
// size, time). Nothing when the binary cannot be read.
std::optional<std::string> buildId();

// The options that apply to every file, as one string for the key.
std::string optionsKey(const analysis::Options &analysis, const frontend::Options &frontend,
                       const std::string &kernel_filter);

}  // namespace kverify::cli
