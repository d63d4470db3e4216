// The kverify binary: exit statuses, messages, --dump-model, `--`, -p, directories.
#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include "run_kverify.hpp"

#include <cstdlib>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/wait.h>

namespace {

using kverify_cli::CliRun;
using kverify_cli::has;
using kverify_cli::runKverify;
using kverify_cli::slurp;

CliRun kverify(const std::string &args, const std::string &env = "") {
  return runKverify(
      KVERIFY_BIN, KVERIFY_FIXTURES, args,
      testing::TempDir() + "kverify_cli_" + testing::UnitTest::GetInstance()->current_test_info()->name(),
      env);
}

// The kernels of a --dump-model output, or an empty array when it is not valid JSON.
llvm::json::Array kernels(const std::string &json) {
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(json);
  if (!v) {
    llvm::consumeError(v.takeError());
    ADD_FAILURE() << "not JSON: " << json;
    return {};
  }
  llvm::json::Array out;
  for (const llvm::json::Value &f : *v->getAsObject()->getArray("files"))
    for (const llvm::json::Value &k : *f.getAsObject()->getArray("kernels")) out.push_back(k);
  return out;
}

}  // namespace

TEST(KverifyCli, DumpModelPrintsVersionedJson) {
  CliRun r = kverify("--dump-model seed003/map.cu");
  ASSERT_EQ(r.status, 0) << r.err;
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(r.out);
  ASSERT_TRUE(bool(v));
  EXPECT_EQ(v->getAsObject()->getString("schema"), "kverify-model/2");
  llvm::json::Array ks = kernels(r.out);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].getAsObject()->getString("name"), "square_elements");
}

TEST(KverifyCli, SyntaxErrorPrintsClangDiagnosticsAndExits2) {
  CliRun r = kverify("frontend/bad_syntax.cu");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "bad_syntax.cu:2:33: error: expected ')'")) << r.err;
  EXPECT_TRUE(has(r.err, "does not parse")) << r.err;
}

TEST(KverifyCli, MissingIncludeIsNotedAndTheKernelAnalysed) {
  CliRun r = kverify("frontend/missing_include.cu");
  EXPECT_EQ(r.status, 1) << r.err;  // out[threadIdx.x] races across blocks
  EXPECT_TRUE(has(r.err,
                  "kverify: note: frontend/missing_include.cu: header 'no_such_header.cuh' "
                  "not found: skipped"))
      << r.err;
  EXPECT_TRUE(has(r.out, "1 kernel in 1 file: 1 race")) << r.out;
}

// Host code errors are not printed one by one: the kernels' verdicts are what matters.
TEST(KverifyCli, HostCodeErrorsAreOneNote) {
  CliRun r = kverify("frontend/missing_header_host_errors.cu");
  EXPECT_EQ(r.status, 2) << r.err;  // kernel apply: error
  EXPECT_FALSE(has(r.err, "error: unknown type name")) << r.err;
  EXPECT_TRUE(has(r.err, "1 error in code no kernel depends on (host code) ignored")) << r.err;
  EXPECT_FALSE(has(r.err, "errors generated")) << r.err;
  EXPECT_TRUE(has(r.out, "kernel 'scale' verified")) << r.out;
  EXPECT_TRUE(has(r.out, "unknown type name 'solver_params'")) << r.out;
  EXPECT_TRUE(has(r.out, "2 kernels in 1 file: 1 verified, 1 error")) << r.out;
}

// A file that does not parse is counted as a file, not as a kernel.
TEST(KverifyCli, UnparsedFilesAreCountedApart) {
  CliRun r = kverify("frontend/host_only_errors.cu frontend/missing_include.cu");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.out, "1 kernel in 2 files: 1 race; 1 file does not parse")) << r.out;
}

// One verdict per launch shape of the file's host code: verified under 1-D blocks, a race
// under 16x16 blocks; the launch is listed among the assumptions.
TEST(KverifyCli, EachHostLaunchShapeIsVerified) {
  CliRun r = kverify("--format=json frontend/two_launch_shapes.cu");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.out, "\"name\": \"reverse_tiles (launch at two_launch_shapes.cu:14:5)\"")) << r.out;
  EXPECT_TRUE(has(r.out, "launch read from host code at 15:5: gridDim=(16,1,1) blockDim=(16,16,1)")) << r.out;
  EXPECT_TRUE(has(r.out, "\"verified\": 1")) << r.out;
  EXPECT_TRUE(has(r.out, "\"race\": 1")) << r.out;
  // --kernel names the function (every launch) or one launch
  CliRun both = kverify("--kernel=reverse_tiles frontend/two_launch_shapes.cu");
  EXPECT_TRUE(has(both.out, "2 kernels in 1 file")) << both.out;
  CliRun one =
      kverify("'--kernel=reverse_tiles (launch at two_launch_shapes.cu:14:5)' frontend/two_launch_shapes.cu");
  EXPECT_TRUE(has(one.out, "1 kernel in 1 file")) << one.out;
}

// An option that states the launch wins over the file's launches.
TEST(KverifyCli, LaunchOptionsOverrideHostLaunches) {
  CliRun r = kverify("--block-dim=128 --format=json frontend/two_launch_shapes.cu");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(has(r.out, "gridDim=(16,1,1) (every launch")) << r.out;
  EXPECT_FALSE(has(r.out, "blockDim=(16,16,1)")) << r.out;
}

TEST(KverifyCli, BinaryGarbageExits2WithoutCrashing) {
  std::string path = testing::TempDir() + "kverify_cli_garbage.cu";
  {
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < 8192; ++i) out.put(static_cast<char>((i * 7919 + 13) & 0xff));
  }
  CliRun r = kverify(path);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "does not parse"));
}

// Sources nested far deeper than any hand-written code (a generator's output) neither
// overflow a stack nor run for minutes: the kernel is `unsupported`, saying why.
TEST(KverifyCli, DeeplyNestedExpressionsAreUnsupportedNotACrash) {
  auto write = [](const std::string &name, const std::string &expr) {
    std::string path = testing::TempDir() + name;
    std::ofstream(path) << "__global__ void k(int *a, int x) { a[threadIdx.x] = " << expr << "; }\n";
    return path;
  };
  std::string unary, chain = "x";
  for (int i = 0; i < 10000; ++i) unary += "- ";
  for (int i = 0; i < 100000; ++i) chain += " + x";
  for (const std::string &path :
       {write("kverify_deep_unary.cu", unary + "x"), write("kverify_long_chain.cu", chain)}) {
    CliRun r = kverify("--no-cache " + path);
    EXPECT_EQ(r.status, 0) << path << r.err;
    EXPECT_TRUE(has(r.out, "nesting deeper than 1000 levels")) << path << r.out;
  }
}

// A call tree that doubles at every level (2^30 inlined bodies) stops at the inlining
// budget: `unsupported`, in a fraction of a second, instead of tens of gigabytes.
TEST(KverifyCli, ExponentialCallTreeIsUnsupportedNotUnbounded) {
  std::string path = testing::TempDir() + "kverify_call_tree.cu";
  std::ofstream out(path);
  out << "__device__ int f0(int x) { return x; }\n";
  for (int i = 1; i <= 30; ++i)
    out << "__device__ int f" << i << "(int x) { return f" << i - 1 << "(x) + f" << i - 1 << "(x + 1); }\n";
  out << "__global__ void k(int *a, int x) { a[threadIdx.x] = f30(x); }\n";
  out.close();
  CliRun r = kverify("--no-cache " + path);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "more than 10000 calls inlined")) << r.out;
}

// A crash (here a SIGSEGV delivered while kverify reads a large macro expansion, as a stack
// overflow inside Clang would deliver one) ends in one line and exit status 2, not in
// death by the signal with nothing said.
TEST(KverifyCli, ACrashEndsInOneLineAndExitStatus2) {
  std::string path = testing::TempDir() + "kverify_macro_tree.cu";
  std::ofstream out(path);
  out << "#define M0(x) (x)\n";
  for (int i = 1; i <= 20; ++i) out << "#define M" << i << "(x) M" << i - 1 << "(x) + M" << i - 1 << "(x)\n";
  out << "__global__ void k(int *a, int x) { a[threadIdx.x] = M20(x); }\n";
  out.close();
  CliRun r = runKverify("timeout --preserve-status -s SEGV 0.5 " + std::string(KVERIFY_BIN), KVERIFY_FIXTURES,
                        "--no-cache " + path, testing::TempDir() + "kverify_cli_crash");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "kverify: error: ")) << r.err;
  EXPECT_TRUE(has(r.err, "kverify crashed")) << r.err;
}

// kverify on `path` with 2 s of CPU per kernel (`timeout` only guards the test).
CliRun withKernelTimeoutOf2s(const std::string &path) {
  return kverify_cli::runGuarded(KVERIFY_BIN, KVERIFY_FIXTURES, "--no-cache --kernel-timeout=2", path);
}

// --kernel-timeout bounds the work before the queries too: 5,000 barrier intervals (12.5
// million access pairs to consider) end within the budget, not after minutes.
TEST(KverifyCli, KernelTimeoutBoundsThousandsOfBarriers) {
  std::string path = testing::TempDir() + "kverify_many_barriers.cu";
  std::ofstream out(path);
  out << "__global__ void k(int *a) {\n  __shared__ int s[256];\n";
  for (int i = 0; i < 5000; ++i) out << "  s[threadIdx.x] = " << i << "; __syncthreads();\n";
  out << "  a[threadIdx.x] = s[0];\n}\n";
  out.close();
  CliRun r = withKernelTimeoutOf2s(path);
  EXPECT_TRUE(has(r.out + r.err, "kverify: 1 kernel in 1 file")) << r.out << r.err;
}

// A run of 50,000 prefix operators (clang takes quadratic time over it inside
// KV_ASSUME_FORALL's lambda: half a minute) is refused before clang runs, where it is.
TEST(KverifyCli, LongRunsOfPrefixOperatorsAreRefusedWithTheirLocation) {
  std::string path = testing::TempDir() + "kverify_prefix_operators.cu";
  std::ofstream out(path);
  out << "#include <kverify.h>\n// a comment - - - - and a \"-~-~\" string are no run\n"
      << "__global__ void k(const int *a, int n, int *out) {\n  KV_ASSUME_FORALL(i, 0, n, ";
  for (int i = 0; i < 25000; ++i) out << "-~";
  out << "a[i] >= 0);\n  out[threadIdx.x] = a[threadIdx.x];\n}\n";
  out.close();
  auto start = std::chrono::steady_clock::now();
  CliRun r = kverify("--no-cache " + path);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 20);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.out + r.err, path + ":4:29: fatal: more than 20000 prefix operators in a row"))
      << r.out << r.err;
}

// Host code clang could not make sense of (a stray byte in an identifier: a RecoveryExpr
// in a dim3's arguments) gives the launch no facts; it crashed the launch reader.
TEST(KverifyCli, ALaunchDimensionWithAnErrorIsNoFact) {
  std::string path = testing::TempDir() + "kverify_launch_with_error.cu";
  std::ofstream(path) << "__global__ void k(float *out, int nx, int ny) { out[threadIdx.x] = 0; }\n"
                         "void run(float *out, int nx, int ny) {\n"
                         "  dim3 grid(nx / 64, nq\xd1\xcay / 4, 1);\n"
                         "  k<<<grid, 64>>>(out, nx, ny);\n"
                         "}\n";
  CliRun r = kverify("--no-cache " + path);
  EXPECT_FALSE(has(r.err, "crashed")) << r.err;
  EXPECT_TRUE(has(r.out + r.err, "kverify: 1 kernel in 1 file: 1 race")) << r.out << r.err;
}

// Ten loops with barriers nested in each other multiply the candidates for the last barrier
// (about 4x per level: minutes and gigabytes): the kernel is `unsupported` in a second or
// two, naming the loop where the bound was passed; five levels are still analysed.
TEST(KverifyCli, DeeplyNestedBarrierLoopsAreUnsupportedNotUnbounded) {
  auto nested = [](int depth) {
    std::string path = testing::TempDir() + "kverify_barrier_loops_" + std::to_string(depth) + ".cu";
    std::ofstream out(path);
    out << "// kverify: --block-dim=64\n__global__ void k(int *a, int n) {\n  __shared__ int s[64];\n";
    for (int i = 0; i < depth; ++i) out << "  for (int i" << i << " = 0; i" << i << " < n; ++i" << i << ")\n";
    out << "  { s[threadIdx.x] = 1; __syncthreads(); a[threadIdx.x] += s[0]; __syncthreads(); }\n}\n";
    return path;
  };
  CliRun deep = withKernelTimeoutOf2s(nested(10));
  EXPECT_EQ(deep.status, 0) << deep.out << deep.err;  // (unsupported fails a gate only with --fail-on)
  EXPECT_TRUE(
      has(deep.out, "unsupported construct: barrier structure (barrier loops nested too deep in this loop"))
      << deep.out;
  CliRun five = withKernelTimeoutOf2s(nested(5));
  EXPECT_FALSE(has(five.out, "barrier structure")) << five.out;
  EXPECT_TRUE(has(five.out + five.err, "kverify: 1 kernel in 1 file")) << five.out << five.err;
}

// Found by scripts/fuzz.py: 10,000 conditional statements in a loop that swaps two
// pointers kept the pass splitting locals into webs busy for minutes, before any budget
// was looked at; it now stops at the kernel's time with the others.
TEST(KverifyCli, KernelTimeoutBoundsThePassesBeforeTheQueries) {
  std::string path = testing::TempDir() + "kverify_many_conditionals.cu";
  std::ofstream out(path);
  out << "__global__ void k(const float *in, float *out) {\n  __shared__ float ping[256], pong[256];\n"
      << "  unsigned t = threadIdx.x;\n  float *src = ping, *dst = pong;\n  src[t] = in[t];\n  "
         "__syncthreads();\n"
      << "  for (unsigned d = 1; d < 256; d *= 2) {\n";
  for (int i = 0; i < 10000; ++i) out << "    dst[t] = t >= d ? src[t - d] + src[t] : src[t];\n";
  out << "    __syncthreads();\n    float *tmp = src; src = dst; dst = tmp;\n  }\n  out[t] = src[t];\n}\n";
  out.close();
  CliRun r = withKernelTimeoutOf2s(path);
  EXPECT_TRUE(has(r.out + r.err, "kverify: 1 kernel in 1 file")) << r.out << r.err;
}

// A benign race claims the kernel is race-free otherwise: with a race query undecided (here
// factoring a 64-bit semiprime, beyond any solver in 0.3 s) the verdict is unknown, and the
// benign race is still shown.
TEST(KverifyCli, BenignRaceBesideAnUndecidedQueryIsUnknown) {
  std::string path = kverify_cli::writeSource(
      "benign_beside_undecided",
      "// kverify: --block-dim=32 --grid-dim=1\n__global__ void k(unsigned x, unsigned y) {\n"
      "  __shared__ int s[32];\n  s[1] = 1;\n"
      "  if (x > 1 && y > 1 && (unsigned long long)x * y == 7339223103602040923ull) s[0] = "
      "threadIdx.x;\n}\n");
  CliRun r = kverify("--no-cache --timeout=0.3 " + path);
  EXPECT_TRUE(has(r.out, "kverify: 1 kernel in 1 file: 1 unknown")) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "could not decide race on 's'")) << r.out;
  EXPECT_TRUE(has(r.out, "4:3")) << r.out;  // the benign race on s[1], shown beside
}

// The file's first comment block, right above its first kernel, is read once: its --assume
// is listed once for that kernel, and still holds for the file's other kernels.
TEST(KverifyCli, AFileCommentAboveTheFirstKernelIsReadOnce) {
  std::string path = kverify_cli::writeSource(
      "file_comment_above_kernel",
      "// kverify: --assume=n>4\n__global__ void k(int *a, int n) { a[threadIdx.x] = n; }\n"
      "__global__ void h(int *a, int n) { a[threadIdx.x] = n; }\n");
  CliRun r = kverify("--no-cache --format=json " + path);
  size_t at = r.out.find("\"n>4\""), count = 0;
  for (; at != std::string::npos; at = r.out.find("\"n>4\"", at + 1)) ++count;
  EXPECT_EQ(count, 2u) << r.out;  // once for k, once for h
}

// -j runs the kernels of one file in parallel: the report lists them in source order with
// the verdicts of a run one kernel at a time.
TEST(KverifyCli, KernelsOfOneFileInParallelKeepTheirOrderAndVerdicts) {
  std::string path = testing::TempDir() + "kverify_many_kernels.cu";
  std::ofstream out(path);
  for (int i = 0; i < 12; ++i)
    out << "// kverify: --block-dim=64 --grid-dim=2\n__global__ void k" << i << "(int *a) { a["
        << (i % 3 == 0 ? "threadIdx.x" : "blockIdx.x * blockDim.x + threadIdx.x") << "] = blockIdx.x + " << i
        << "; }\n";
  out.close();
  CliRun one = kverify("--no-cache -j 1 --format=json " + path);
  CliRun par = kverify("--no-cache -j 2 --format=json " + path);
  auto verdicts = [](const std::string &json) {
    std::vector<std::string> names;
    for (size_t at = json.find("\"name\": \"k"); at != std::string::npos;
         at = json.find("\"name\": \"k", at + 1))
      names.push_back(json.substr(at, json.find('"', at + 10) - at));
    return names;
  };
  std::vector<std::string> expected;
  for (int i = 0; i < 12; ++i) expected.push_back("\"name\": \"k" + std::to_string(i));
  EXPECT_EQ(verdicts(one.out), expected) << one.out;
  EXPECT_EQ(verdicts(par.out), expected) << par.out;
  EXPECT_EQ(one.status, 1);
  EXPECT_EQ(par.status, one.status);
  auto summary = [](const std::string &json) { return json.substr(json.find("\"summary\"")); };
  EXPECT_EQ(summary(par.out), summary(one.out));
}

// The instantiations of a template ask the solver the same questions where their code is
// the same (answer_cache.hpp keeps one answer for both): the constants of their queries
// are named after the source, not after the front end's ids, which one more local in Max
// (`bigger`) shifts for every local after it (the loop's `step`: firstwrap9 vs 10).
TEST(KverifyCli, InstantiationsOfATemplateNameTheirConstantsAlike) {
  std::string path = kverify_cli::writeSource(
      "instantiations",
      "// kverify: --block-dim=64 --grid-dim=4\n"
      "struct Sum { __device__ int operator()(int a, int b) const { return a + b; } };\n"
      "struct Max { __device__ int operator()(int a, int b) const { int bigger = a > b ? a : b; return "
      "bigger; } };\n"
      "template <class Op> __global__ void scan(const int *in, int *out, int n) {\n"
      "  __shared__ int s[64];\n  int t = threadIdx.x;\n  int first = Op()(in[blockIdx.x * 64], 0);\n"
      "  s[t] = in[blockIdx.x * 64 + t];\n  __syncthreads();\n"
      "  for (unsigned step = 1; step < 64; step *= 2) {\n"
      "    int v = t >= step ? s[t - step] : 0;\n    __syncthreads();\n    s[t] += v;\n    "
      "__syncthreads();\n  }\n"
      "  if (t < n) out[blockIdx.x * 64 + t] = s[t] + first;\n}\n"
      "template __global__ void scan<Sum>(const int *, int *, int);\n"
      "template __global__ void scan<Max>(const int *, int *, int);\n");
  auto constants = [&](const std::string &op) {
    std::string dir = testing::TempDir() + "kverify_instantiations_" + op;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    CliRun r = kverify("--no-cache -j 1 --dump-queries=" + dir + " '--kernel=scan<" + op + ">' " + path);
    EXPECT_TRUE(has(r.out, "1 kernel in 1 file: 1 verified")) << r.out << r.err;
    std::set<std::string> names;  // (but the memory Sum reads where Max compares: its own)
    for (const auto &f : std::filesystem::directory_iterator(dir)) {
      std::istringstream in(kverify_cli::slurp(f.path().string()));
      for (std::string line; std::getline(in, line);)
        if (line.rfind("(declare-fun ", 0) == 0 && !has(line, "contents."))
          names.insert(line.substr(0, line.find(' ', 13)));
    }
    return names;
  };
  std::set<std::string> sum = constants("Sum"), max = constants("Max");
  EXPECT_GT(sum.size(), 10u);
  EXPECT_EQ(sum, max);
}

// Found by scripts/fuzz.py: a kernel using a global of incomplete type crashed the search
// for its compile errors; 16,000 errors on one line made gigabytes of report.
TEST(KverifyCli, IncompleteTypeInAKernelIsAnError) {
  CliRun r = kverify("frontend/incomplete_type_global.cu");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.out + r.err, "incomplete type")) << r.out << r.err;
  EXPECT_FALSE(has(r.err, "crashed")) << r.err;
}

TEST(KverifyCli, ThousandsOfErrorsInAKernelAreCapped) {
  std::string path = testing::TempDir() + "kverify_many_errors.cu";
  std::ofstream out(path);
  out << "__global__ void k(int *out) {\n  int (t";
  for (int i = 0; i < 4000; ++i) out << " + t";
  out << ") = 0;\n}\n";
  out.close();
  CliRun r = runKverify(KVERIFY_BIN, KVERIFY_FIXTURES, "--no-cache " + path,
                        testing::TempDir() + "kverify_cli_errors");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.out + r.err, "more errors")) << r.err.substr(0, 2000);
  EXPECT_LT(r.out.size() + r.err.size(), 2u << 20);
}

// Found by scripts/fuzz.py: one read repeated 1,000 times made half a million reread facts
// (over 100 s); a repeat is linked to the read it repeats alone.
TEST(KverifyCli, ThousandRepeatedReadsEndInTime) {
  std::string path = testing::TempDir() + "kverify_repeated.cu";
  std::ofstream out(path);
  out << "// kverify: --block-dim=64\n__global__ void k(int *out) {\n  __shared__ int s[64];\n"
      << "  s[threadIdx.x] = threadIdx.x;\n  __syncthreads();\n";
  for (int i = 0; i < 1000; ++i) out << "  out[threadIdx.x] = s[63 - threadIdx.x];\n";
  out << "}\n";
  out.close();
  CliRun r = withKernelTimeoutOf2s(path);
  EXPECT_TRUE(has(r.out + r.err, "kverify: 1 kernel in 1 file")) << r.out << r.err;
}

// The symbolic execution is bounded by the kernel's time: 200 nested loops around a barrier (last-barrier
// sets that grow at every level) end `unknown`, naming the budget.
TEST(KverifyCli, KernelTimeoutBoundsTheSymbolicExecution) {
  std::string path = testing::TempDir() + "kverify_nested_loops.cu";
  std::ofstream out(path);
  out << "__global__ void k(int *a, int n) {\n  __shared__ int s[64];\n";
  for (int i = 0; i < 200; ++i) out << "for (int i" << i << " = 0; i" << i << " < n; ++i" << i << ") ";
  out << "{ s[threadIdx.x] = 1; __syncthreads(); }\n}\n";
  out.close();
  CliRun r = withKernelTimeoutOf2s(path);
  EXPECT_TRUE(has(r.out + r.err, "1 unknown")) << r.out << r.err;
  EXPECT_TRUE(has(r.out + r.err, "--kernel-timeout")) << r.out << r.err;
}

TEST(KverifyCli, EmptyFileIsNotAnError) {
  CliRun r = kverify("frontend/bad_empty.cu");
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(has(r.err, "no kernels")) << r.err;
}

TEST(KverifyCli, UsageErrorsExit2) {
  EXPECT_EQ(kverify("").status, 2);
  EXPECT_EQ(kverify("--no-such-flag seed003/map.cu").status, 2);
  CliRun missing = kverify("no_such_file.cu");
  EXPECT_EQ(missing.status, 2);
  EXPECT_TRUE(has(missing.err, "no such file or directory: 'no_such_file.cu'")) << missing.err;
}

// --dump-phases: the tree reduction's phases, its loop's back edge, and their accesses.
TEST(KverifyCli, DumpPhasesListsPhasesAndTheirAccesses) {
  CliRun r = kverify("--dump-phases seed003/reduce.cu");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "kernel reduce_sum: 4 phases\nphase 1: entry -> 9:1 __syncthreads\n")) << r.out;
  EXPECT_TRUE(has(r.out,
                  "phase 4: 15:1 __syncthreads -> 15:1 __syncthreads (back edge of the loop at 11:1)\n"
                  "  13:15 read sdata[(i64)(tid + s)]\n"))
      << r.out;
}

// --dump-trace: thread 1's symbolic trace in trace order (the shared write, the barrier,
// the shared read after it, whose last barrier is that one), under the kernel's own
// `// kverify:` comment (its --assume is a side fact); a comment in error is one line.
TEST(KverifyCli, DumpTraceListsOneThreadsEventsInTraceOrder) {
  std::string path = kverify_cli::writeSource("dump_trace",
                                              "// kverify: --block-dim=64 --assume=gridDim.x==2\n"
                                              "__global__ void stage(const int *in, int *out) {\n"
                                              "  __shared__ int tile[64];\n"
                                              "  tile[threadIdx.x] = in[threadIdx.x];\n"
                                              "  __syncthreads();\n"
                                              "  out[threadIdx.x] = tile[63 - threadIdx.x];\n"
                                              "}\n");
  CliRun r = kverify("--dump-trace " + path);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "kernel stage: thread 1 as the race check builds it: 5 events\n")) << r.out;
  const size_t write = r.out.find("[1] 4:3 write tile[(concat #x00000000 t1.threadIdx.x)]\n"),
               barrier = r.out.find("[2] 5:3 barrier __syncthreads() (block)\n"),
               read = r.out.find("[3] 6:22 read tile["), after = r.out.find("[4] 6:3 write out[");
  ASSERT_NE(write, std::string::npos) << r.out;
  EXPECT_LT(write, barrier) << r.out;
  EXPECT_LT(barrier, read) << r.out;
  ASSERT_LT(read, after) << r.out;
  EXPECT_TRUE(
      has(r.out.substr(read, after - read), "last barrier (block, warp, any): 5:3 __syncthreads() if true"))
      << r.out;
  EXPECT_TRUE(has(r.out, "--assume='gridDim.x==2': (= gridDim.x #x00000002)\n")) << r.out;

  std::string bad = kverify_cli::writeSource("dump_trace_bad_comment",
                                             "// kverify: --no-such-flag\n"
                                             "__global__ void k(int *a) { a[threadIdx.x] = 1; }\n");
  CliRun e = kverify("--dump-trace " + bad);
  EXPECT_EQ(e.out,
            "kernel k: error: kverify: comment: unknown option '--no-such-flag' in a kverify: comment\n");
}

TEST(KverifyCli, UnsupportedConstructsAreNamedWithTheirLocation) {
  CliRun r = kverify("--dump-model-text frontend/unsupported_goto.cu");
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(
      has(r.out, "unsupported goto @8:5: goto to a label kverify cannot lower to break/continue: goto again"))
      << r.out;
  CliRun j = kverify("--dump-model frontend/unsupported_inline_asm.cu");
  llvm::json::Array ks = kernels(j.out);
  ASSERT_EQ(ks.size(), 1u);
  const llvm::json::Array *u = ks[0].getAsObject()->getArray("unsupported");
  ASSERT_TRUE(u && u->size() == 1u);
  EXPECT_EQ((*u)[0].getAsObject()->getString("construct"), "inline asm");
}

TEST(KverifyCli, DirectoriesAreSearchedForCudaSources) {
  CliRun r = kverify("--dump-model seed003");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(kernels(r.out).size(), 11u);
}

TEST(KverifyCli, KernelFilterMatchesTemplateNames) {
  EXPECT_EQ(kernels(kverify("--dump-model --kernel=scale frontend/templates.cu").out).size(), 2u);
  EXPECT_EQ(kernels(kverify("--dump-model --kernel='scale<64, int>' frontend/templates.cu").out).size(), 1u);
  EXPECT_EQ(kernels(kverify("--dump-model --kernel=nothing frontend/templates.cu").out).size(), 0u);
}

TEST(KverifyCli, ExtraClangArgumentsAfterDoubleDash) {
  EXPECT_EQ(kverify("frontend/needs_define.cu").status, 2);
  CliRun r = kverify("--dump-model frontend/needs_define.cu -- -DTILE=32");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "\"size\": 32")) << r.out;
}

TEST(KverifyCli, CompileCommandsGiveDefinesAndDropNvccFlags) {
  std::string dir = testing::TempDir() + "kverify_ccdb";
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  std::string file = std::string(KVERIFY_FIXTURES) + "/frontend/needs_define.cu";
  {
    std::ofstream db(dir + "/compile_commands.json");
    db << "[{\"directory\": \"" << dir << "\", \"file\": \"" << file
       << "\", \"command\": \"/usr/local/cuda/bin/nvcc -DTILE=64 -I/tmp "
          "--generate-code=arch=compute_90,code=[sm_90] -Xcompiler=-Wall -x cu -c "
       << file << " -o x.o\"}]";
  }
  CliRun r = kverify("--dump-model -p " + dir + " frontend/needs_define.cu");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "\"size\": 64")) << r.out;
  EXPECT_EQ(kverify("-p /no/such/dir frontend/needs_define.cu").status, 2);
}

// As CMake writes nvcc's commands: includes in an --options-file as `-isystem=DIR`, and
// nvcc's long names (--define-macro=).
TEST(KverifyCli, CompileCommandsReadNvccSpellings) {
  std::string dir = testing::TempDir() + "kverify_ccdb_nvcc";
  ASSERT_EQ(std::system(("mkdir -p " + dir + "/inc '" + dir + "/quoted inc'").c_str()), 0);
  std::ofstream(dir + "/inc/tile.h") << "#define TILE TILE_FROM_COMMAND\n";
  std::ofstream(dir + "/quoted inc/first.h") << "#pragma once\n";
  std::ofstream(dir + "/k.cu") << "#include <first.h>\n#include <tile.h>\n"
                               << slurp(std::string(KVERIFY_FIXTURES) + "/frontend/needs_define.cu");
  // as CMake writes them: paths in a response file quoted
  std::ofstream(dir + "/includes.rsp") << "-I\"" << dir << "/quoted inc\" -isystem=" << dir << "/inc";
  std::ofstream(dir + "/compile_commands.json")
      << "[{\"directory\": \"" << dir << "\", \"file\": \"" << dir << "/k.cu\", "
      << "\"command\": \"/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler "
      << "--options-file includes.rsp --define-macro=TILE_FROM_COMMAND=48 -x cu -c " << dir
      << "/k.cu -o k.o\"}]";
  CliRun r = kverify("--dump-model -p " + dir + " " + dir + "/k.cu");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "\"size\": 48")) << r.out;
}

// nvcc's -arch is the __CUDA_ARCH__ the code is read under; flags kverify leaves out that
// are not code generation are named in a note.
TEST(KverifyCli, CompileCommandsGiveTheArchitectureAndNameWhatTheyLeaveOut) {
  std::string dir = testing::TempDir() + "kverify_ccdb_arch";
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  std::ofstream(dir + "/k.cu")
      << "#if __CUDA_ARCH__ == 800\n#define TILE 80\n#else\n#define TILE 90\n#endif\n"
      << slurp(std::string(KVERIFY_FIXTURES) + "/frontend/needs_define.cu");
  std::ofstream(dir + "/compile_commands.json")
      << "[{\"directory\": \"" << dir << "\", \"file\": \"" << dir << "/k.cu\", "
      << "\"command\": \"/usr/local/cuda/bin/nvcc -arch=sm_80 -O3 -lineinfo --use_fast_math "
      << "--some-new-flag -Xcompiler -fopenmp -x cu -c " << dir << "/k.cu -o k.o\"}]";
  CliRun r = kverify("--dump-model -p " + dir + " " + dir + "/k.cu");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "\"size\": 80")) << r.out;
  EXPECT_TRUE(has(r.err, "flags kverify does not translate, left out: --some-new-flag (")) << r.err;
  EXPECT_FALSE(has(r.err, "lineinfo")) << r.err;
}

// Makefiles add the toolkit's include directory (-I$(CUDA_DIR)/include): kverify's prelude
// stands in for those headers, so the directory is left out (clang 19 cannot read them).
TEST(KverifyCli, TheToolkitIncludeDirectoryIsLeftOut) {
  std::string dir = testing::TempDir() + "kverify_toolkit_inc";
  ASSERT_EQ(std::system(("mkdir -p " + dir + "/include").c_str()), 0);
  for (const char *h : {"cuda_runtime.h", "cuda_runtime_api.h"})
    std::ofstream(dir + "/include/" + h) << "#error the toolkit's own header was read\n";
  std::ofstream(dir + "/compile_commands.json")
      << "[{\"directory\": \"" << dir << "\", \"file\": \"" << dir << "/k.cu\", "
      << "\"arguments\": [\"nvcc\", \"-c\", \"-I" << dir << "/include\", \"-DTILE=32\", \"k.cu\"]}]";
  std::ofstream(dir + "/k.cu") << "#include <cuda_runtime.h>\n"
                               << slurp(std::string(KVERIFY_FIXTURES) + "/frontend/needs_define.cu");
  for (const std::string &args :
       {"-p " + dir + " " + dir + "/k.cu", dir + "/k.cu -- -DTILE=32 -I " + dir + "/include",
        dir + "/k.cu -- -DTILE=32 -I" + dir + "/include"}) {
    CliRun r = kverify("--block-dim=32 --grid-dim=1 " + args);
    EXPECT_EQ(r.status, 0) << args << ": " << r.err;
    EXPECT_FALSE(has(r.err, "toolkit's own header")) << args << ": " << r.err;
  }
}

TEST(KverifyCli, PreludeDirectoryCanBeOverridden) {
  CliRun r = kverify("seed003/map.cu", "KVERIFY_PRELUDE_DIR=/no/such/prelude");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "/no/such/prelude")) << r.err;
}

// --- premises: what must be refused before anything is proved ---------------------------

TEST(KverifyCliPremises, LaunchOutsideCudaLimitsIsAUsageError) {
  for (const char *dims : {"--block-dim=2048", "--block-dim=64,64", "--block-dim=1,1,65",
                           "--grid-dim=1,65536", "--blockDim=[64,64]"}) {
    CliRun r = kverify(std::string(dims) + " premises/any_kernel.cu");
    EXPECT_EQ(r.status, 2) << dims;
    EXPECT_TRUE(has(r.err, "launch outside CUDA's limits")) << dims << ": " << r.err;
    EXPECT_FALSE(has(r.out, "verified")) << dims;
  }
  CliRun ok = kverify("--block-dim=1024 --grid-dim=2147483647,65535,65535 premises/any_kernel.cu");
  EXPECT_NE(ok.status, 2) << ok.err;
}

TEST(KverifyCliPremises, LaunchOutsideLimitsInACommentIsAnError) {
  CliRun r = kverify("premises/amp_tile_64x64.cu");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.out, "a block of 4096 threads")) << r.out;
  EXPECT_FALSE(has(r.out, "verified"));
}

TEST(KverifyCliPremises, ContradictoryAssumptionsAreAnErrorNamingThem) {
  CliRun r = kverify("--block-dim=64 --assume='n > 5 && n < 3' premises/any_kernel.cu");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.out, "no launch satisfies the assumptions")) << r.out;
  EXPECT_TRUE(has(r.out, "n > 5 && n < 3")) << r.out;
  EXPECT_FALSE(has(r.out, "verified"));
  // two assumptions that only contradict together: the core names both
  CliRun two = kverify(
      "--block-dim=64 --assume='n > 5' --assume='n < 3' --assume='n != 7' "
      "premises/any_kernel.cu");
  EXPECT_EQ(two.status, 2);
  EXPECT_TRUE(has(two.out, "'n > 5'") && has(two.out, "'n < 3'")) << two.out;
  EXPECT_FALSE(has(two.out, "n != 7")) << "not part of the contradiction: " << two.out;
  // an assumption against the launch itself
  CliRun dim = kverify("--block-dim=64 --assume='blockDim.x == 128' premises/any_kernel.cu");
  EXPECT_EQ(dim.status, 2) << dim.out;
}

TEST(KverifyCliPremises, ContradictoryKvAssumeInTheKernelIsAnError) {
  CliRun r = kverify("premises/contradictory_kv_assume.cu");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.out, "the assumption at 5:")) << r.out;
  EXPECT_TRUE(has(r.out, "the assumption at 6:")) << r.out;
}

// Overloaded kernels are named by their parameters, each verified under its own launch,
// and --kernel picks one by either name.
TEST(KverifyCli, OverloadedKernelsEachUnderTheirLaunch) {
  CliRun r = kverify("--format=json frontend/overloaded_kernels.cu");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.out, "\"name\": \"fill(int *)\"")) << r.out;
  EXPECT_TRUE(has(r.out, "\"name\": \"fill(float *)\"")) << r.out;
  CliRun one = kverify("'--kernel=fill(int *)' frontend/overloaded_kernels.cu");
  EXPECT_EQ(one.status, 0) << one.out;
  EXPECT_TRUE(has(one.out, "1 kernel in 1 file: 1 verified")) << one.out;
  CliRun both = kverify("--kernel=fill frontend/overloaded_kernels.cu");
  EXPECT_TRUE(has(both.out, "2 kernels in 1 file: 1 verified, 1 race")) << both.out;
}

// A KV_ASSUME_FORALL no contents satisfy over a non-empty range: an error, not a proof.
TEST(KverifyCliPremises, ContradictoryForallIsAnError) {
  CliRun r = kverify("premises/contradictory_forall.cu");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.out, "the assumption at 5:")) << r.out;
  EXPECT_TRUE(has(r.out, "the assumption at 6:")) << r.out;
}

TEST(KverifyCliPremises, UnknownNameInAssumeExitsTwo) {
  CliRun r = kverify("--block-dim=64 --assume='m > 1' premises/any_kernel.cu");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.out, "unknown name 'm'")) << r.out;
}

TEST(KverifyCliPremises, WriteToConstantMemoryIsAnError) {
  CliRun r = kverify("premises/constant_write.cu");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.out, "write to __constant__ memory 'table'")) << r.out;
  EXPECT_FALSE(has(r.out, "verified"));
}

// Real CUDA that predates kverify's prelude, and code written for GPUVerify.
TEST(KverifyCliFrontEnd, RemovedWarpIntrinsicNamesItsReplacement) {
  CliRun r = kverify("frontend/removed_warp_intrinsic.cu");
  EXPECT_EQ(r.status, 2);
  // the kernel's own error: in its verdict, on the report
  EXPECT_TRUE(has(r.out, "removed in CUDA 9; use __shfl_up_sync(0xffffffff, var, delta)")) << r.out;
}

TEST(KverifyCliFrontEnd, GpuVerifyAnnotationsParseWithTheFlag) {
  CliRun plain = kverify("frontend/gpuverify_annotations_no_header.cu");
  EXPECT_EQ(plain.status, 2);
  EXPECT_TRUE(has(plain.out, "__requires")) << plain.out;
  CliRun gv = kverify("--gpuverify --format=json frontend/gpuverify_annotations_no_header.cu");
  EXPECT_EQ(gv.status, 0) << gv.err;
  EXPECT_TRUE(has(gv.out, "\"verified\"")) << gv.out;
  EXPECT_TRUE(has(gv.out, "\"kind\": \"not-checked\",\n          \"text\": \"__invariant at 6:5")) << gv.out;
  CliRun text = kverify("--gpuverify frontend/gpuverify_annotations_no_header.cu");
  EXPECT_TRUE(has(text.out, "note: not checked: __invariant at 6:5")) << text.out;
}

// A report that cannot be written is an error that names the file (exit 2).
TEST(KverifyCli, AnUnwritableReportIsAnError) {
  for (const char *flag : {"--output", "--html", "--json"}) {
    CliRun r = kverify(std::string(flag) + "=/nonexistent-dir/report verifier/shared_oob_neighbor_read.cu");
    EXPECT_EQ(r.status, 2) << flag;
    EXPECT_TRUE(has(r.err, "kverify: error: cannot write '/nonexistent-dir/report'"))
        << flag << ": " << r.err;
  }
}

// GPUVerify's header line gives the launch: its blockDim is the witness's.
TEST(KverifyCliFrontEnd, GpuVerifyHeaderGivesTheLaunch) {
  CliRun r = kverify("verifier/gpuverify_requires_missing_race.cu");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.out, "blockDim=(128,1,1) gridDim=(4,1,1)")) << r.out;
}

TEST(KverifyCliPremises, AKnownNegativeProductKeepsItsThreads) {
  CliRun r = kverify("premises/known_negative_product.cu");
  EXPECT_EQ(r.status, 0) << r.out;  // a benign race is a warning
  EXPECT_TRUE(has(r.out, "benign data race on 's'")) << r.out;
  EXPECT_TRUE(has(r.out, "1 benign-race")) << r.out;
}

// --no-alias-assumption: distinct pointer parameters may overlap, at any distance.
TEST(KverifyCliPremises, WithoutTheNoAliasAssumptionOverlappingBuffersRace) {
  CliRun assumed = kverify("--format=json premises/aliasing_copy.cu");
  EXPECT_EQ(assumed.status, 0) << assumed.out;
  EXPECT_TRUE(has(assumed.out, "\"verified\"")) << assumed.out;
  EXPECT_TRUE(has(assumed.out, "distinct pointer parameters do not alias")) << assumed.out;
  CliRun dropped = kverify("--no-alias-assumption premises/aliasing_copy.cu");
  EXPECT_EQ(dropped.status, 1) << dropped.out;
  EXPECT_TRUE(has(dropped.out, "data race on 'in' and 'out'")) << dropped.out;
  EXPECT_TRUE(has(dropped.out, "without the no-alias assumption")) << dropped.out;
  CliRun json = kverify("--format=json --no-alias-assumption premises/aliasing_copy.cu");
  EXPECT_FALSE(has(json.out, "distinct pointer parameters do not alias")) << json.out;
}

// Without the no-alias assumption a pointer parameter may point into a __device__ array
// (cudaGetSymbolAddress); the default assumption says so.
TEST(KverifyCliPremises, WithoutTheNoAliasAssumptionDeviceArraysAliasParameters) {
  CliRun assumed = kverify("--format=json premises/aliasing_device_var.cu");
  EXPECT_EQ(assumed.status, 0) << assumed.out;
  EXPECT_TRUE(has(assumed.out, "pointer parameters do not point into the __device__ variables 'scratch'"))
      << assumed.out;
  CliRun dropped = kverify("--no-alias-assumption premises/aliasing_device_var.cu");
  EXPECT_EQ(dropped.status, 1) << dropped.out;
  EXPECT_TRUE(has(dropped.out, "data race on 'in' and 'scratch'")) << dropped.out;
  // two __device__ variables are distinct objects
  CliRun distinct = kverify("--no-alias-assumption premises/aliasing_device_vars_ok.cu");
  EXPECT_EQ(distinct.status, 0) << distinct.out;
  EXPECT_TRUE(has(distinct.out, "1 verified")) << distinct.out;
}

// A __device__ ticket counter that a parameter may point at is no ticket counter, and a
// __device__ table a written parameter may point into is not read-only.
TEST(KverifyCliPremises, WithoutTheNoAliasAssumptionDeviceArraysLoseTheirRules) {
  CliRun counter = kverify("--format=json premises/aliasing_device_counter.cu");
  EXPECT_EQ(counter.status, 0) << counter.out;
  EXPECT_TRUE(has(counter.out, "atomicAdd counters do not wrap around")) << counter.out;
  CliRun reset = kverify("--no-alias-assumption premises/aliasing_device_counter.cu");
  EXPECT_EQ(reset.status, 1) << reset.out;
  EXPECT_TRUE(has(reset.out, "data race on 'reset' and 'count'")) << reset.out;
  EXPECT_TRUE(has(reset.out, "data race on 'slots'")) << reset.out;
  CliRun table = kverify("premises/aliasing_device_readonly.cu");
  EXPECT_EQ(table.status, 0) << table.out;
  CliRun written = kverify("--no-alias-assumption premises/aliasing_device_readonly.cu");
  EXPECT_EQ(written.status, 1) << written.out;
  EXPECT_TRUE(has(written.out, "divergence")) << written.out;
}

// A proof about code no thread reaches proves nothing: the kernel is vacuous (exit 1 by
// default), each such statement an error with the facts that exclude it.
TEST(KverifyCliPremises, CodeNoThreadReachesIsVacuous) {
  CliRun r = kverify("premises/unreachable_access.cu");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(
      has(r.out, ":8:9: error: write out[threadIdx.x] in kernel 'guarded' is never reached by any thread"))
      << r.out;
  EXPECT_TRUE(has(r.out, "note: because: --assume='n < 4'")) << r.out;
  EXPECT_TRUE(has(r.out, "1 vacuous")) << r.out;
  CliRun j = kverify("--format=json premises/unreachable_access.cu");
  EXPECT_TRUE(has(j.out, "\"verdict\": \"vacuous\"")) << j.out;
  EXPECT_TRUE(has(j.out, "\"because\"")) << j.out;
  CliRun lenient = kverify("--fail-on=race premises/unreachable_access.cu");
  EXPECT_EQ(lenient.status, 0) << lenient.out;
  // dead on purpose: verified, and still listed
  CliRun allowed = kverify("--allow-unreachable premises/unreachable_access.cu");
  EXPECT_EQ(allowed.status, 0) << allowed.out;
  EXPECT_TRUE(has(allowed.out, "verified")) << allowed.out;
  EXPECT_TRUE(has(allowed.out, "(allowed: --allow-unreachable)")) << allowed.out;
  CliRun sarif = kverify("--format=sarif premises/unreachable_access.cu");
  EXPECT_TRUE(has(sarif.out, "KV008-vacuous")) << sarif.out;
  CliRun junit = kverify("--format=junit premises/unreachable_access.cu");
  EXPECT_TRUE(has(junit.out, "<failure type=\"vacuous\"")) << junit.out;
}

// Reachability is decided, not budgeted away: a statement whose reachability the solver
// cannot settle (here: whether p * q factors a 62-bit number) leaves the kernel unknown,
// naming the query, never verified.
TEST(KverifyCliPremises, UndecidedReachabilityIsUnknown) {
  std::string path = testing::TempDir() + "kverify_cli_hard_reach.cu";
  std::ofstream(path) << "__global__ void k(const int *in, long long p, long long q) {\n"
                         "  int v = 0;\n"
                         "  if (p > 1 && q > 1 && p * q == 4611685975477714963LL) v = in[0];\n"
                         "  (void)v;\n"
                         "}\n";
  CliRun r = kverify("--format=json --timeout=0.05 " + path);
  EXPECT_TRUE(has(r.out, "\"verdict\": \"unknown\"")) << r.out;
  EXPECT_TRUE(has(r.out, "reachability of read in[0] at 3:")) << r.out;
}

// --allow-unreachable in a // kverify: comment above one kernel covers that kernel only.
TEST(KverifyCliPremises, AllowUnreachableAboveOneKernel) {
  std::string path = testing::TempDir() + "kverify_cli_allow_one.cu";
  std::ofstream(path) << "// kverify: --block-dim=32 --grid-dim=1\n\n"
                         "__global__ void a(int *out) { if (threadIdx.x >= blockDim.x) out[0] = 1; }\n\n"
                         "// kverify: --allow-unreachable\n"
                         "__global__ void b(int *out) { if (threadIdx.x >= blockDim.x) out[0] = 1; }\n";
  CliRun r = kverify(path);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(has(r.out, "kernel 'a' is never reached by any thread")) << r.out;
  EXPECT_TRUE(has(r.out, "note: because: threadIdx.x < blockDim.x (the launch)")) << r.out;
  EXPECT_TRUE(has(r.out, "remark: kernel 'b' verified")) << r.out;
  EXPECT_TRUE(has(r.out, "1 verified, 1 vacuous")) << r.out;
}

TEST(KverifyCli, FailOnAcceptsVacuous) {
  CliRun r = kverify("--fail-on=vacuous premises/unreachable_access.cu");
  EXPECT_EQ(r.status, 1) << r.err;
}

// A race on p[0] under the symbolic launch is shown with the simplest witness: a block of
// two threads, one block, threads 0 and 1 (not whatever launch the solver first found).
TEST(KverifyCli, RaceWitnessIsTheSimplestLaunch) {
  std::string path = testing::TempDir() + "kverify_cli_simplest.cu";
  std::ofstream(path) << "__global__ void k(int *p) { p[0] = threadIdx.x; }\n";
  CliRun r = kverify("--format=json " + path);
  ASSERT_EQ(r.status, 1) << r.err;
  llvm::Expected<llvm::json::Value> report = llvm::json::parse(r.out);
  ASSERT_TRUE(bool(report)) << r.out;
  const llvm::json::Array *ks = report->getAsObject()->getArray("kernels");
  ASSERT_TRUE(ks && ks->size() == 1) << r.out;
  const llvm::json::Array *fs = (*ks)[0].getAsObject()->getArray("findings");
  ASSERT_TRUE(fs && fs->size() == 1) << r.out;
  const llvm::json::Object *w = (*fs)[0].getAsObject()->getObject("witness");
  ASSERT_TRUE(w) << r.out;
  auto triple = [&](const llvm::json::Object *o, const char *key) {
    std::string s;
    if (const llvm::json::Array *a = o ? o->getArray(key) : nullptr)
      for (const llvm::json::Value &v : *a) s += std::to_string(v.getAsInteger().value_or(-1)) + ",";
    return s;
  };
  EXPECT_EQ(triple(w, "blockDim"), "2,1,1,") << r.out;
  EXPECT_EQ(triple(w, "gridDim"), "1,1,1,") << r.out;
  EXPECT_EQ(triple(w->getObject("thread1"), "blockIdx"), "0,0,0,") << r.out;
  EXPECT_EQ(triple(w->getObject("thread2"), "blockIdx"), "0,0,0,") << r.out;
  std::string t1 = triple(w->getObject("thread1"), "threadIdx"),
              t2 = triple(w->getObject("thread2"), "threadIdx");
  EXPECT_TRUE((t1 == "0,0,0," && t2 == "1,0,0,") || (t1 == "1,0,0," && t2 == "0,0,0,")) << r.out;
}

// A race whose read follows an acquire of a flag not said to start zeroed names the
// option that would let the flag order it; with the option, the kernel verifies and the
// premise is listed with the verdict.
TEST(KverifyCli, UnzeroedFlagRaceSuggestsZeroInit) {
  CliRun r = kverify("--no-cache verifier/message_passing_flags_not_zeroed_race.cu");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.out + r.err, "say so with --zero-init=ready")) << r.out << r.err;
  CliRun ok =
      kverify("--no-cache --format=json --zero-init=ready verifier/message_passing_flags_not_zeroed_race.cu");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_TRUE(has(ok.out, "'ready' is zero when the kernel starts (--zero-init)")) << ok.out;
}
