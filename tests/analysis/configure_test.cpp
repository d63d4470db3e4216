// The configuration pass (analysis/configure.hpp): command line, then the file's comment,
// then the kernel's; --assume parsed against the kernel; launch limits.
#include "analysis/configure.hpp"

#include <gtest/gtest.h>

#include "model_builder.hpp"

using namespace kverify;
using namespace kverify::analysis;
using namespace kverify::testing_support;

namespace {

TEST(Configure, TheKernelCommentOverridesTheFileCommentOverridesTheCommandLine) {
  KB b;
  b.param("n");
  b.k.options = "--block-dim=128";
  Options cli;
  cli.block_dim[0] = 32;
  cli.grid_dim[0] = 4;
  KernelConfig c = configure(cli, "--block-dim=64 --grid-dim=8 --assume='n <= 4 * blockDim.x'", b.k);
  ASSERT_EQ(c.error, "");
  EXPECT_EQ(c.options.block_dim[0], 128u);
  EXPECT_EQ(c.options.grid_dim[0], 8u);
  ASSERT_EQ(c.assumes.size(), 1u);
  EXPECT_EQ(model::toString(c.assumes[0]), "(u32)n <= (u32)4 * blockDim.x");
}

TEST(Configure, BadCommentsAssumptionsAndLaunchesAreErrorsNotProofs) {
  KB b;
  b.param("n");
  Options cli;
  EXPECT_EQ(configure(cli, "--no-such-flag", b.k).error.rfind("kverify: comment: ", 0), 0u);
  EXPECT_NE(configure(cli, "--block-dim=2048", b.k).error.find("kverify: comment: "), std::string::npos);
  cli.assumes = {"m > 0"};
  KernelConfig c = configure(cli, "", b.k);
  EXPECT_EQ(c.error.rfind("--assume='m > 0': ", 0), 0u) << c.error;
  EXPECT_NE(c.error.find("unknown name 'm'"), std::string::npos) << c.error;
  // analysed anyway: the verdict is error, with the reason
  KernelResult r = analyzeKernel(b.k, c);
  EXPECT_EQ(r.verdict, Verdict::Error);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics[0].message, c.error);
}

}  // namespace
