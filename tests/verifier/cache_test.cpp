// The result cache (--cache-dir, --no-cache) and --shard, through the kverify binary.
#include <gtest/gtest.h>

#include "run_kverify.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "llvm/Support/JSON.h"

namespace fs = std::filesystem;

namespace {

using kverify_cli::CliRun;
using kverify_cli::has;
using kverify_cli::runKverify;
using kverify_cli::slurp;

// The text output's last line: "kverify: 3 kernels in 3 files: ...". Two analyses agree on
// it; their witnesses can differ (each is the simplest found within 0.1 s).
std::string summary(const std::string &text) {
  size_t end = text.find_last_not_of('\n');
  size_t begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end - begin);
}

// A small tree per test (CTest runs tests in parallel): src/ with three kernels, one of
// which includes include/common.cuh, and an empty cache directory.
class CacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    root_ = fs::path(testing::TempDir()) /
            ("kverify_cache_" + std::string(testing::UnitTest::GetInstance()->current_test_info()->name()) +
             "_" + std::to_string(getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "src");
    fs::create_directories(root_ / "include");
    write("include/common.cuh", "#define STRIDE 1\n");
    write("src/a.cu",
          "#include \"common.cuh\"\n"
          "// kverify: --block-dim=256\n"
          "__global__ void scale() {\n"
          "  __shared__ float s[256];\n"
          "  s[threadIdx.x * STRIDE] = 1.0f;\n"
          "}\n");
    write("src/b.cu", "__global__ void racy(int *p) { p[0] = threadIdx.x; }\n");
    write("src/c.cu",
          "// kverify: --block-dim=32\n"
          "__global__ void copy() {\n"
          "  __shared__ int s[32];\n"
          "  s[threadIdx.x] = threadIdx.x;\n"
          "}\n");
  }
  void TearDown() override { fs::remove_all(root_); }

  void write(const std::string &relative, const std::string &text) {
    std::ofstream(root_ / relative) << text;
  }

  // kverify over src/ with the test's cache directory (unless `args` names another).
  CliRun kverify(const std::string &args, const std::string &env = "") {
    std::string cache = has(args, "--cache-dir") ? "" : "--cache-dir=" + cacheDir().string() + " ";
    return runKverify(KVERIFY_BIN, root_.string(), cache + args, (root_ / "run").string(), env);
  }

  fs::path cacheDir() const { return root_ / "cache"; }

  // The result entries in `dir` (the precompiled prelude, in pch/, is none).
  size_t entries(const fs::path &dir, const std::string &extension = ".json") const {
    if (!fs::exists(dir)) return 0;
    size_t n = 0;
    for (const fs::directory_entry &e : fs::directory_iterator(dir)) n += e.path().extension() == extension;
    return n;
  }

  fs::path root_;
};

const char *kSources = "src -- -Iinclude";

}  // namespace

TEST_F(CacheTest, SecondRunIsServedFromTheCacheWithIdenticalOutput) {
  CliRun first = kverify(std::string("--format=json ") + kSources);
  ASSERT_EQ(first.status, 1) << first.err;  // b.cu races
  EXPECT_FALSE(has(first.err, "from cache")) << first.err;
  EXPECT_EQ(entries(cacheDir()), 3u);
  CliRun second = kverify(std::string("--format=json ") + kSources);
  EXPECT_EQ(second.status, first.status);
  EXPECT_TRUE(has(second.err, "kverify: 3 of 3 files from cache")) << second.err;
  EXPECT_EQ(second.out, first.out);
  // text and SARIF read from the cache as from the analysis that filled it
  for (const char *format : {"text", "sarif"}) {
    std::string args =
        std::string("--format=") + format + " --cache-dir=" + (root_ / format).string() + " " + kSources;
    CliRun fresh = kverify(args), cached = kverify(args);
    EXPECT_FALSE(has(fresh.err, "from cache")) << fresh.err;
    EXPECT_TRUE(has(cached.err, "3 of 3 files from cache")) << cached.err;
    EXPECT_EQ(cached.out, fresh.out) << format;
    EXPECT_EQ(cached.status, fresh.status) << format;
  }
}

TEST_F(CacheTest, EditingAnIncludedHeaderReanalysesTheFilesIncludingIt) {
  CliRun first = kverify(std::string("--format=json ") + kSources);
  EXPECT_TRUE(has(first.out, "\"verified\"")) << first.out;
  write("include/common.cuh", "#define STRIDE 0\n");  // every thread writes s[0]
  CliRun second = kverify(std::string("--format=json ") + kSources);
  EXPECT_TRUE(has(second.err, "kverify: 2 of 3 files from cache")) << second.err;
  llvm::Expected<llvm::json::Value> report = llvm::json::parse(second.out);
  ASSERT_TRUE(bool(report)) << second.out;
  std::map<std::string, std::string> verdicts;
  for (const llvm::json::Value &k : *report->getAsObject()->getArray("kernels"))
    verdicts[k.getAsObject()->getString("name")->str()] = k.getAsObject()->getString("verdict")->str();
  EXPECT_EQ(verdicts["scale"], "race") << second.out;
  EXPECT_EQ(verdicts["racy"], "race");
  EXPECT_EQ(verdicts["copy"], "verified");
}

TEST_F(CacheTest, EditingAKverifyCommentReanalyses) {
  kverify(kSources);
  // the preprocessed source is the same: comments are not in it
  std::string c = slurp(root_ / "src/c.cu");
  write("src/c.cu", c.replace(c.find("32"), 2, "64"));
  EXPECT_TRUE(has(kverify(kSources).err, "kverify: 2 of 3 files from cache"));
}

TEST_F(CacheTest, AnotherLaunchOrAssumptionReanalyses) {
  kverify(std::string("--block-dim=64 ") + kSources);
  CliRun other = kverify(std::string("--block-dim=128 ") + kSources);
  EXPECT_FALSE(has(other.err, "from cache")) << other.err;
  CliRun assumed = kverify(std::string("--block-dim=64 --assume='blockDim.x > 1' ") + kSources);
  EXPECT_FALSE(has(assumed.err, "from cache")) << assumed.err;
  CliRun defined = kverify(std::string("--block-dim=64 ") + kSources + " -DUNUSED=1");
  EXPECT_FALSE(has(defined.err, "from cache")) << defined.err;
  CliRun same = kverify(std::string("--block-dim=64 ") + kSources);
  EXPECT_TRUE(has(same.err, "kverify: 3 of 3 files from cache")) << same.err;
}

TEST_F(CacheTest, NoCacheNeitherReadsNorWrites) {
  CliRun first = kverify(std::string("--no-cache ") + kSources);
  EXPECT_EQ(entries(cacheDir()), 0u);
  kverify(kSources);
  ASSERT_EQ(entries(cacheDir()), 3u);
  CliRun again = kverify(std::string("--no-cache ") + kSources);
  EXPECT_FALSE(has(again.err, "from cache")) << again.err;
  EXPECT_EQ(summary(again.out), summary(first.out));
  EXPECT_EQ(summary(first.out), "kverify: 3 kernels in 3 files: 2 verified, 1 race");
}

TEST_F(CacheTest, ThePreludeIsPrecompiledOnceAndParsesAsItsText) {
  CliRun first = kverify(std::string("--no-cache ") + kSources);
  const fs::path pch = cacheDir() / "pch";
  ASSERT_EQ(entries(pch, ".pch"), 1u);  // (also with --no-cache)
  EXPECT_EQ(entries(pch, ".inputs"), 1u);
  EXPECT_EQ(entries(pch, ".tmp"), 0u);
  kverify(kSources);
  EXPECT_EQ(entries(pch, ".pch"), 1u);  // reused
  EXPECT_EQ(entries(cacheDir()), 3u);   // and the files' results cached through it
  // where no PCH can be written (the cache directory is a file), the prelude is parsed as
  // text: the same report
  write("not-a-directory", "");
  CliRun text = kverify("--no-cache --cache-dir=" + (root_ / "not-a-directory").string() + " " + kSources);
  EXPECT_EQ(text.status, first.status);
  EXPECT_EQ(summary(text.out), summary(first.out));
  EXPECT_EQ(summary(first.out), "kverify: 3 kernels in 3 files: 2 verified, 1 race");
  // a file the PCH was built from that reads differently now (here: its recorded bytes
  // edited) has it built again
  fs::path inputs;
  for (const fs::directory_entry &e : fs::directory_iterator(pch))
    if (e.path().extension() == ".inputs") inputs = e.path();
  std::string list = slurp(inputs.string());
  ASSERT_NE(list.find(' '), std::string::npos) << list;
  std::ofstream(inputs) << "0" << list.substr(list.find(' '));
  kverify(std::string("--no-cache ") + kSources);
  EXPECT_EQ(slurp(inputs.string()), list);
  // other arguments, another PCH
  kverify(std::string("--no-cache ") + kSources + " -DKVERIFY_TEST_MACRO=1");
  EXPECT_EQ(entries(pch, ".pch"), 2u);
}

TEST_F(CacheTest, PastSixtyFourPrecompiledPreludesTheTextIsParsed) {
  fs::create_directories(cacheDir() / "pch");
  for (int i = 0; i < 64; ++i) write("cache/pch/other-" + std::to_string(i) + ".pch", "");
  CliRun run = kverify(std::string("--no-cache ") + kSources);
  EXPECT_EQ(entries(cacheDir() / "pch", ".pch"), 64u);
  EXPECT_EQ(summary(run.out), "kverify: 3 kernels in 3 files: 2 verified, 1 race");
}

TEST_F(CacheTest, DefaultDirectoryIsUnderXdgCacheHomeElseHome) {
  // (no --cache-dir: the default directory)
  auto run = [&](const std::string &env) {
    return runKverify(KVERIFY_BIN, root_.string(), kSources, (root_ / "run").string(), env).err;
  };
  std::string xdg = "XDG_CACHE_HOME=" + (root_ / "xdg").string();
  run(xdg);
  EXPECT_EQ(entries(root_ / "xdg" / "kverify"), 3u);
  EXPECT_TRUE(has(run(xdg), "kverify: 3 of 3 files from cache"));
  // a relative XDG_CACHE_HOME is ignored, as the XDG spec says
  run("XDG_CACHE_HOME=relative HOME=" + (root_ / "home").string());
  EXPECT_EQ(entries(root_ / "home" / ".cache" / "kverify"), 3u);
  EXPECT_FALSE(fs::exists(root_ / "relative"));
}

TEST_F(CacheTest, CorruptEntriesAreAnalysedAgain) {
  CliRun first = kverify(kSources);
  ASSERT_EQ(entries(cacheDir()), 3u);
  // empty, truncated, and JSON that is not a report
  const char *garbage[] = {"", "{\"kernels\": [{\"name\": 1", "[]"};
  int n = 0;
  for (const fs::directory_entry &e : fs::directory_iterator(cacheDir()))
    std::ofstream(e.path()) << garbage[n++ % 3];
  CliRun second = kverify(kSources);
  EXPECT_EQ(second.status, first.status) << second.err;
  EXPECT_EQ(summary(second.out), summary(first.out));
  EXPECT_FALSE(has(second.err, "from cache")) << second.err;
  EXPECT_TRUE(has(kverify(kSources).err, "kverify: 3 of 3 files from cache"));  // rewritten
}

TEST_F(CacheTest, FilesThatDoNotParseAreNotCached) {
  write("src/d.cu", "__global__ void broken(int *p { }\n");
  CliRun first = kverify(kSources);
  EXPECT_EQ(first.status, 2);
  CliRun second = kverify(kSources);
  EXPECT_TRUE(has(second.err, "kverify: 3 of 4 files from cache")) << second.err;
  EXPECT_TRUE(has(second.err, "d.cu:1:")) << "clang's diagnostics again: " << second.err;
}

// A solver time-out may be decided next time: `unknown` is never served from the cache.
TEST_F(CacheTest, UnknownResultsAreNotCached) {
  std::string file = std::string(KVERIFY_FIXTURES) + "/verifier/seed003_matrix_operation_2d_ok.cu";
  CliRun first = kverify("--format=json --timeout=0.001 " + file);
  ASSERT_TRUE(has(first.out, "\"unknown\"")) << first.out;
  EXPECT_EQ(entries(cacheDir()), 0u);
  EXPECT_FALSE(has(kverify("--timeout=0.001 " + file).err, "from cache"));
}

// The JSON reports of the N shards together name every file exactly once.
TEST_F(CacheTest, ShardsPartitionTheFiles) {
  std::set<std::string> all;
  for (int i = 0; i < 9; ++i) {
    std::string name = "src/k" + std::to_string(i) + ".cu";
    write(name, "__global__ void k" + std::to_string(i) + "(int *p) { p[threadIdx.x] = 0; }\n");
    all.insert(name);
  }
  for (const char *other : {"src/a.cu", "src/b.cu", "src/c.cu"}) all.insert(other);
  for (int n : {1, 2, 3, 5}) {
    std::multiset<std::string> seen;
    for (int k = 1; k <= n; ++k) {
      CliRun r = kverify("--no-cache --format=json --shard=" + std::to_string(k) + "/" + std::to_string(n) +
                         " " + kSources);
      ASSERT_TRUE(r.status == 0 || r.status == 1) << r.err;
      llvm::Expected<llvm::json::Value> report = llvm::json::parse(r.out);
      ASSERT_TRUE(bool(report)) << r.out;
      for (const llvm::json::Value &kernel : *report->getAsObject()->getArray("kernels"))
        seen.insert(kernel.getAsObject()->getString("file")->str());
    }
    EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()), all) << n << " shards";
    EXPECT_EQ(seen.size(), all.size()) << n << " shards: a file in two of them";
  }
}

TEST_F(CacheTest, BadShardIsAUsageError) {
  for (const char *bad : {"0/2", "3/2", "1/0", "a/b", "1", "1/2/3", "-1/2", "", "1/"}) {
    CliRun r = kverify(std::string("--shard=") + bad + " " + kSources);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_TRUE(has(r.err, "--shard must be K/N with 1 <= K <= N")) << bad << ": " << r.err;
  }
}

TEST_F(CacheTest, HelpAndVersionNameTheFlags) {
  CliRun help = kverify("--help");
  for (const char *flag : {"--cache-dir=<DIR>", "--no-cache", "--shard=<K/N>"})
    EXPECT_TRUE(has(help.out, flag)) << flag << ": " << help.out;
  EXPECT_TRUE(has(kverify("--version").out, "kverify 0.")) << kverify("--version").out;
}
