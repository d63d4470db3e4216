// --max-memory: past it a kernel is `unknown` (out of memory), or the front end stops with
// one line naming the file; nothing crashes, whatever the limit and however many threads
// share it.
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
