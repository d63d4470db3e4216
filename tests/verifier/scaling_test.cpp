// Inputs whose size once made kverify's work grow faster than the input (found by
// scripts/fuzz.py): each must end, with a verdict, inside the budget it is given.
#include <gtest/gtest.h>

#include "run_kverify.hpp"

#include <fstream>
#include <string>

namespace {

using kverify_cli::CliRun;
using kverify_cli::has;
using kverify_cli::writeSource;

CliRun run(const std::string &args, const std::string &path) {
  return kverify_cli::runGuarded(KVERIFY_BIN, KVERIFY_FIXTURES, "--no-cache " + args, path);
}

// A kernel whose launch is assumed to satisfy `n <= (term + term + ...)`.
std::string underDeepAssumption(const std::string &term, int terms) {
  std::string sum = term;
  for (int i = 1; i < terms; ++i) sum += " + " + term;
  return "// kverify: --block-dim=64 --grid-dim=4 --assume='n >= 1 && n <= (" + sum +
         ")'\n"
         "__global__ void k(float *out, int n, int m) {\n  __shared__ float s[64];\n  int t = threadIdx.x;\n"
         "  s[t] = n;\n  __syncthreads();\n  if (t < n && t > 0) out[blockIdx.x * 64 + t] = s[t - 1];\n}\n";
}

// Each `+` of a deep sum is a no-overflow fact whose term holds the whole sum before it:
// 6,000 facts over one deep term. Deciding which facts a model breaks took an evaluation
// per fact (each walking the deep term again: unknown at 5 s of CPU); it takes one.
TEST(KverifyScaling, ThousandsOfFactsAboutOneDeepTermAreEvaluatedOnce) {
  CliRun r = run("--kernel-timeout=5", writeSource("deep_sum", underDeepAssumption("m", 3000)));
  EXPECT_TRUE(has(r.out, "kverify: 1 kernel in 1 file: 1 verified")) << r.out << r.err;
}

// A sum of 50,000 constants is one number, not 50,000 terms with a fact each.
TEST(KverifyScaling, AnAssumptionOverConstantsFoldsToOneNumber) {
  CliRun r = run("--kernel-timeout=5", writeSource("constant_sum", underDeepAssumption("8192", 50000)));
  EXPECT_TRUE(has(r.out, "kverify: 1 kernel in 1 file: 1 verified")) << r.out << r.err;
}

// 10,000 read-modify-writes in one barrier interval: a read's earlier equal reads are looked
// for back to the nearest write between (not among all pairs of reads, each asking about
// every access between them: cubic, minutes).
TEST(KverifyScaling, ThousandsOfReadModifyWritesEndWithinTheBudget) {
  std::string body;
  for (int i = 0; i < 10000; ++i) body += "      s[t] += s[t + i];\n";
  CliRun r = run(
      "--kernel-timeout=2",
      writeSource("read_modify_writes",
                  "// kverify: --block-dim=32 --grid-dim=4\n__global__ void k(const int *in, int *out) {\n"
                  "  __shared__ int s[64];\n  int t = threadIdx.x;\n  s[t] = in[blockIdx.x * 32 + t];\n"
                  "  s[t + 32] = 0;\n  __syncthreads();\n  for (int i = 16; i > 0; i /= 2) {\n"
                  "    if (t < i) {\n" +
                      body +
                      "    }\n    __syncthreads();\n  }\n"
                      "  if (t == 0) out[blockIdx.x] = s[0];\n}\n"));
  EXPECT_TRUE(has(r.out, "kverify: 1 kernel in 1 file")) << r.out << r.err;
}

// 2,000 barrier intervals, each with a benign race on s (every thread writes one value to
// s[threadIdx.x], which a 2-D block writes from two threads): the array's benign race is
// shown once, and the witness search runs for that one only (not once per interval: 12 ms
// each, past the budget).
TEST(KverifyScaling, ThousandsOfBenignRacesSearchOneWitness) {
  std::string src = "__global__ void k(int *a) {\n  __shared__ int s[256];\n";
  for (int i = 0; i < 2000; ++i) src += "  s[threadIdx.x] = " + std::to_string(i) + "; __syncthreads();\n";
  CliRun r = run("--kernel-timeout=10", writeSource("benign_races", src + "  a[threadIdx.x] = s[0];\n}\n"));
  EXPECT_TRUE(has(r.out, "kverify: 1 kernel in 1 file: 1 oob")) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "benign data race on 's'")) << r.out;
}

// 10,000 barrier intervals, a race in the last: an access is paired with those after one of
// the barriers its phase may start at (not with every access of the kernel, each pair asking
// for both phase terms: 50 million pairs), and a barrier's lanes are read in one walk of the
// threads' barriers (not one per barrier). The previous binary: unknown at 2 s.
TEST(KverifyScaling, ThousandsOfBarriersArePairedPerPhase) {
  std::string src =
      "// kverify: --block-dim=64 --grid-dim=1\n__global__ void k(int *a) {\n  __shared__ int s[64];\n";
  for (int i = 0; i < 10000; ++i)
    src += "  s[threadIdx.x] = " + std::to_string(i) + ";\n  __syncthreads();\n";
  src += "  s[(threadIdx.x + 1) % 64] = threadIdx.x;\n  a[threadIdx.x] = s[(threadIdx.x + 2) % 64];\n}\n";
  CliRun r = run("--kernel-timeout=2", writeSource("barriers", src));
  EXPECT_TRUE(has(r.out, "kverify: 1 kernel in 1 file: 1 race")) << r.out << r.err;
  EXPECT_TRUE(has(r.err + r.out, "data race on 's' (write/read)")) << r.out << r.err;
}

// 3,000 writes in one barrier interval, racing from the first pair on: their 4.5 million
// pairs are asked about 4,096 at a time, and the array's first race ends the search (all
// pairs in one query: out of memory at 3.5 GB after 20 s).
TEST(KverifyScaling, ThousandsOfAccessesInOnePhaseAreAskedInBatches) {
  std::string src = "__global__ void k(int *a) {\n  __shared__ int s[256];\n";
  for (int i = 0; i < 3000; ++i) {
    std::string n = std::to_string(i);
    src += "  s[(threadIdx.x + " + n + ") % 256] = a[threadIdx.x + " + n + "];\n";
  }
  CliRun r = run("--kernel-timeout=20 --max-memory=1024", writeSource("one_phase", src + "}\n"));
  EXPECT_TRUE(has(r.out, "kverify: 1 kernel in 1 file: 1 race")) << r.out << r.err;
}

// 20,000 launches, each with its own dim3 variables, in one host function: each variable's
// uses are read from one walk of the function (a walk per launch was quadratic: minutes).
TEST(KverifyScaling, ThousandsOfHostLaunchesAreReadInOneWalk) {
  std::string src =
      "__global__ void k(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\nvoid host(int *a) {\n";
  for (int i = 0; i < 20000; ++i) {
    std::string n = std::to_string(i);
    src += "  dim3 g" + n + "(" + std::to_string(i % 7 + 1) + "), b" + n + "(64);\n  k<<<g" + n + ", b" + n +
           ">>>(a);\n";
  }
  CliRun r = run("", writeSource("launches", src + "}\n"));
  EXPECT_TRUE(has(r.out, "kverify: 7 kernels in 1 file: 7 verified")) << r.out << r.err;  // one per grid size
}

// --max-memory: past it a kernel is `unknown` (out of memory), or the front end stops with
// one line naming the file; nothing crashes, whatever the limit and however many threads
// share it.

// 300 accesses in one phase at indices scaled by a parameter (their race queries take
// about 180 MB) are `unknown` under 40 MiB, named so. (Under 60 MiB, on a loaded machine,
// Z3's memory accounting sometimes let a pair's query through and a race was found first.)
TEST(KverifyMemoryLimit, AKernelPastTheLimitIsUnknown) {
  std::string src = "__global__ void k(int *a, int n) {\n  __shared__ int s[4096];\n";
  for (int i = 0; i < 300; ++i)
    src += "  s[(threadIdx.x * n + " + std::to_string(i) + ") % 4096] = " + std::to_string(i) + ";\n";
  CliRun r = run("--max-memory=40 --format=json", writeSource("many_accesses", src + "}\n"));
  EXPECT_TRUE(has(r.out, "\"out_of_memory\": true")) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "\"verdict\": \"unknown\"")) << r.out;
  EXPECT_FALSE(has(r.err, "crashed")) << r.err;
}

// Kernels analysed side by side (-j2) under limits from "Clang cannot even read the file"
// up: each run ends in verdicts (unknown where memory ran out) or in one line saying the
// memory ran out. Before, Z3 could not make a kernel's context once the others had taken
// the memory, and kverify crashed using the context it did not get (SIGSEGV); a thread that
// could not be started, or Clang out of memory, aborted with no reason given.
TEST(KverifyMemoryLimit, AnyLimitEndsInVerdictsOrOneLine) {
  std::string src;
  for (int i = 0; i < 8; ++i) {
    const std::string n = std::to_string(i);
    src += "__global__ void reduce" + n +
           "(const float *in, float *out) {\n"
           "  __shared__ float s[256];\n  unsigned t = threadIdx.x;\n"
           "  s[t] = in[blockIdx.x * blockDim.x + t] * " +
           n +
           ";\n  __syncthreads();\n"
           "  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {\n"
           "    if (t < k) s[t] += s[t + k];\n    __syncthreads();\n  }\n"
           "  if (t == 0) out[blockIdx.x] = s[0];\n}\n";
  }
  const std::string path = writeSource("eight_reductions", src);
  for (int mib : {8, 16, 24, 32, 40, 48, 64, 96}) {
    CliRun r = run("-j2 --block-dim=256 --grid-dim=64 --max-memory=" + std::to_string(mib), path);
    SCOPED_TRACE("--max-memory=" + std::to_string(mib));
    EXPECT_FALSE(has(r.err, "crashed") || has(r.err, "aborted") || has(r.err, "unexpected")) << r.err;
    if (r.status == 2)
      EXPECT_TRUE(has(r.err, "out of memory")) << r.err;
    else
      EXPECT_TRUE(has(r.out + r.err, "8 kernels in 1 file")) << r.status << r.out << r.err;
  }
}

}  // namespace
