// The Python front end end to end, through the kverify binary and every output format:
// a PyCUDA race found at the .py lines with the launch read from the call, and a CuPy block
// reduction verified with its launch (and not without it).
#include "run_kverify.hpp"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <fstream>

namespace {

using kverify_cli::has;
using kverify_cli::runKverify;
using kverify_cli::slurp;

std::string out(const std::string &name) { return std::string(KVERIFY_PY_OUT) + "/cli_" + name; }

// line `n` (1-based) of a fixture
std::string fixtureLine(const std::string &file, unsigned n) {
  std::ifstream in(std::string(KVERIFY_PY_FIXTURES) + "/" + file);
  std::string l;
  for (unsigned k = 0; k < n && std::getline(in, l); ++k) {}
  return l;
}

}  // namespace

TEST(PythonCli, PyCudaRaceAtThePythonLinesWithTheLaunchOfTheCall) {
  const std::string py = "pycuda_tile_missing_barrier_race.py";
  const std::string write = "    tile[t] = in[blockIdx.x * 256 + t];";
  const std::string read = "    out[blockIdx.x * 256 + t] = tile[t + 1];";
  ASSERT_EQ(fixtureLine(py, 15), write);
  ASSERT_EQ(fixtureLine(py, 16), read);

  kverify_cli::CliRun json =
      runKverify(KVERIFY_BIN, KVERIFY_PY_FIXTURES, "--no-cache --format=json " + py, out("race_json"));
  EXPECT_EQ(json.status, 1) << json.err;
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(json.out);
  ASSERT_TRUE(bool(v));
  const llvm::json::Object &k = *(*v->getAsObject()->getArray("kernels"))[0].getAsObject();
  EXPECT_EQ(k.getString("name")->str(), "shift_left");
  EXPECT_EQ(k.getString("verdict")->str(), "race");
  const llvm::json::Object &f = *(*k.getArray("findings"))[0].getAsObject();
  EXPECT_EQ(f.getString("array")->str(), "tile");
  std::set<std::string> at;
  for (const llvm::json::Value &a : *f.getArray("accesses")) {
    const llvm::json::Object &o = *a.getAsObject();
    EXPECT_EQ(o.getString("file")->str(), py);
    at.insert(std::to_string(*o.getInteger("line")) + ":" + std::to_string(*o.getInteger("col")));
  }
  EXPECT_EQ(at, (std::set<std::string>{"15:5", "16:33"}));  // tile[t] and tile[t + 1], columns exact
  const llvm::json::Array &block = *f.getObject("witness")->getArray("blockDim");
  EXPECT_EQ(block[0].getAsInteger(), 256);
  EXPECT_EQ(block[1].getAsInteger(), 1);
  EXPECT_EQ(block[2].getAsInteger(), 1);

  kverify_cli::CliRun text =
      runKverify(KVERIFY_BIN, KVERIFY_PY_FIXTURES, "--no-cache " + py, out("race_text"));
  EXPECT_TRUE(has(text.out, py + ":16:33: error: data race on 'tile'") ||
              has(text.out, py + ":15:5: error: data race on 'tile'"))
      << text.out;
  EXPECT_TRUE(has(text.out, write) && has(text.out, read)) << text.out;  // the excerpts are the Python lines
  EXPECT_TRUE(has(text.out, "blockDim=(256,1,1)")) << text.out;

  kverify_cli::CliRun sarif =
      runKverify(KVERIFY_BIN, KVERIFY_PY_FIXTURES,
                 "--no-cache --format=sarif --html=" + out("race.html") + " " + py, out("race_sarif"));
  EXPECT_TRUE(has(sarif.out, "\"uri\": \"" + py + "\"") || has(sarif.out, "\"uri\":\"" + py + "\""))
      << sarif.out;
  EXPECT_TRUE(has(sarif.out, "\"startLine\": 15") || has(sarif.out, "\"startLine\":15")) << sarif.out;
  EXPECT_FALSE(has(sarif.out, ".cu\"")) << "a location in the generated .cu text leaked";
  std::string html = slurp(out("race.html"));
  EXPECT_TRUE(has(html, py));
  EXPECT_TRUE(has(html, "tile[t + 1]")) << "the HTML excerpt shows the Python line";
  EXPECT_FALSE(has(html, ".py.10."));  // nor the generated file's name
}

TEST(PythonCli, CuPyBlockReduceVerifiedWithItsLaunchNotWithout) {
  const std::string py = "cupy_rawkernel_block_reduce_ok.py";
  kverify_cli::CliRun with =
      runKverify(KVERIFY_BIN, KVERIFY_PY_FIXTURES, "--no-cache " + py, out("reduce_with"));
  EXPECT_EQ(with.status, 0) << with.out << with.err;
  EXPECT_TRUE(has(with.out, "verified")) << with.out;

  // the same file without its launch line: the block is symbolic and s[128] can overflow
  std::string source = slurp(std::string(KVERIFY_PY_FIXTURES) + "/" + py);
  size_t launch = source.find("block_sum((n // 128,)");
  ASSERT_NE(launch, std::string::npos);
  std::string copy = out("reduce_symbolic.py");
  std::ofstream(copy) << source.substr(0, launch);
  kverify_cli::CliRun without =
      runKverify(KVERIFY_BIN, KVERIFY_PY_OUT, "--no-cache --format=json " + copy, out("reduce_without"));
  EXPECT_EQ(without.status, 1) << without.err;
  EXPECT_FALSE(has(without.out, "\"verdict\": \"verified\"") || has(without.out, "\"verdict\":\"verified\""))
      << without.out;
}

TEST(PythonCli, UnreadableSourceIsUnsupportedNotSkipped) {
  kverify_cli::CliRun r =
      runKverify(KVERIFY_BIN, KVERIFY_PY_FIXTURES,
                 "--no-cache --fail-on=unsupported unsupported_source_from_parameter.py", out("unsupported"));
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.out, "'block' is a parameter of 'make()'")) << r.out;
}

TEST(PythonCli, DirectoriesIncludePythonFilesThatEmbedKernels) {
  kverify_cli::CliRun r =
      runKverify(KVERIFY_BIN, KVERIFY_PY_FIXTURES, "--no-cache --dump-model-text .", out("dir"));
  EXPECT_TRUE(has(r.out, "shift_left")) << r.out;
  EXPECT_TRUE(has(r.out, "block_sum")) << r.out;
}

TEST(PythonCli, ErrorsPointAtThePythonFile) {
  // embedded CUDA that does not compile: clang's error at the .py line and column
  std::string broken = out("broken.py");
  std::ofstream(broken) << "from pycuda.compiler import SourceModule\n"
                           "mod = SourceModule(\"\"\"\n"
                           "__global__ void k(float *a) {\n"
                           "    a[threadIdx.x] = undefined_name;\n"
                           "}\n"
                           "\"\"\")\n";
  kverify_cli::CliRun r =
      runKverify(KVERIFY_BIN, KVERIFY_PY_OUT, "--no-cache cli_broken.py", out("broken_run"));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.out + r.err, "cli_broken.py:4:22: error: use of undeclared identifier 'undefined_name'"))
      << r.out << r.err;
  // a file that is not Python: an error with the place, not a silent pass
  std::ofstream(out("notpy.py")) << "x = \"\"\"never closed\n";
  kverify_cli::CliRun n =
      runKverify(KVERIFY_BIN, KVERIFY_PY_OUT, "--no-cache cli_notpy.py", out("notpy_run"));
  EXPECT_EQ(n.status, 2);
  EXPECT_TRUE(
      has(n.out + n.err, "cli_notpy.py:1:5: error: not read as Python: unterminated triple-quoted string"))
      << n.out << n.err;
}

TEST(PythonCli, ALaunchDimensionNotReadIsNoted) {
  // a block of 10**23 threads: past 64 bits, analysed for every block size CUDA allows
  std::ofstream(out("huge_block.py")) << "from pycuda.compiler import SourceModule\n"
                                         "mod = SourceModule(\"\"\"\n"
                                         "__global__ void k(float *a) { a[threadIdx.x] = 0; }\n"
                                         "\"\"\")\n"
                                         "f = mod.get_function('k')\n"
                                         "f(a, block=(10**23, 1, 1))\n";
  kverify_cli::CliRun r =
      runKverify(KVERIFY_BIN, KVERIFY_PY_OUT, "--no-cache cli_huge_block.py", out("huge_block_run"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.err, "launch of 'k' at 6:1: block.x not read")) << r.err;
  EXPECT_TRUE(has(r.err, "huge_block.py:6")) << r.err;
}
