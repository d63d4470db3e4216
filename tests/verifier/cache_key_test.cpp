// The result cache's key against the bytes the parse read: a header edited between the
// key's read and the parse's (an editor saving while kverify runs) must not store the new
// contents' results under the old contents' key.
#include "cli/result_cache.hpp"
#include "frontend/frontend.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using kverify::cli::ResultCache;

namespace {

struct Tree {
  fs::path root = fs::path(testing::TempDir()) / ("kverify_cache_key_" + std::to_string(getpid()));
  Tree() {
    fs::create_directories(root);
    header("#define STRIDE 1\n");
    std::ofstream(root / "a.cu") << "#include \"common.cuh\"\n"
                                    "__global__ void scale() {\n"
                                    "  __shared__ float s[256];\n"
                                    "  s[threadIdx.x * STRIDE] = 1.0f;\n"
                                    "}\n";
  }
  ~Tree() { fs::remove_all(root); }
  void header(const std::string &text) const { std::ofstream(root / "common.cuh") << text; }
  std::string file() const { return (root / "a.cu").string(); }
};

}  // namespace

TEST(CacheKey, ResultsOfAHeaderEditedBeforeTheParseAreNotTheKeysResults) {
  Tree tree;
  ResultCache cache((tree.root / "cache").string(), "run");
  kverify::frontend::Options options;
  options.print_diagnostics = false;
  std::optional<ResultCache::Key> key = cache.key(tree.file(), options);
  ASSERT_TRUE(key);

  kverify::model::TranslationUnitModel same = kverify::frontend::parseFile(tree.file(), options);
  ASSERT_TRUE(same.parsed);
  EXPECT_TRUE(ResultCache::sameSources(*key, same));

  tree.header("#define STRIDE 0\n");  // saved after the key was computed
  kverify::model::TranslationUnitModel edited = kverify::frontend::parseFile(tree.file(), options);
  ASSERT_TRUE(edited.parsed);
  EXPECT_FALSE(ResultCache::sameSources(*key, edited));

  // the edited contents have a key of their own, and their results belong there
  std::optional<ResultCache::Key> now = cache.key(tree.file(), options);
  ASSERT_TRUE(now);
  EXPECT_NE(now->hash, key->hash);
  EXPECT_TRUE(ResultCache::sameSources(*now, edited));
}
