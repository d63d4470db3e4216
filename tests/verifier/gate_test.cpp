// --fail-on and --baseline: the verdict names come from the verdict enum, the baseline is
// read as a report, and a kernel fails the run only with a failing verdict the baseline does
// not already know (or, with `confirmed`, a finding the GPU reproduced).
#include "cli/gate.hpp"

#include "kverify/reports/render.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <unistd.h>

using namespace kverify;
using analysis::Verdict;

namespace {

analysis::KernelResult kernel(const std::string &name, Verdict v) {
  analysis::KernelResult k;
  k.file = "a.cu";
  k.name = name;
  k.verdict = v;
  return k;
}

}  // namespace

TEST(Gate, ReadsVerdictNames) {
  std::string error;
  std::optional<cli::Gate> g = cli::parseFailOn("race,benign-race,,unknown", error);
  ASSERT_TRUE(g) << error;
  EXPECT_EQ(g->verdicts, (std::set<Verdict>{Verdict::Race, Verdict::BenignRace, Verdict::Unknown}));
  EXPECT_FALSE(g->confirmed);
  EXPECT_TRUE(cli::parseFailOn("confirmed", error)->confirmed);
  EXPECT_FALSE(cli::parseFailOn("race,races", error));
  EXPECT_EQ(error, "--fail-on: unknown verdict 'races'");
  EXPECT_FALSE(cli::parseFailOn("verified", error));  // (a gate that fails on success)
}

TEST(Gate, TheBaselineExcusesWhatItKnows) {
  analysis::RunResult earlier;
  earlier.kernels = {kernel("scan", Verdict::Race)};
  std::string path = testing::TempDir() + "gate_baseline_" + std::to_string(getpid()) + ".json";
  std::ofstream(path) << reports::render_json(earlier);
  std::string error;
  cli::Gate g = *cli::parseFailOn("race,divergence", error);
  ASSERT_TRUE(cli::readBaseline(path, g, error)) << error;

  analysis::RunResult now;
  now.kernels = {kernel("scan", Verdict::Race), kernel("reduce", Verdict::Verified)};
  EXPECT_FALSE(cli::fails(g, now));
  now.kernels.push_back(kernel("scan2", Verdict::Race));  // a new kernel with a race
  EXPECT_TRUE(cli::fails(g, now));
  now.kernels = {kernel("scan", Verdict::Divergence)};  // the known kernel, another verdict
  EXPECT_TRUE(cli::fails(g, now));

  std::ofstream(path) << "{ not json";
  EXPECT_FALSE(cli::readBaseline(path, g, error));
  EXPECT_NE(error.find("cannot read baseline '" + path + "'"), std::string::npos) << error;
  std::remove(path.c_str());
}

TEST(Gate, ConfirmedFailsOnlyOnReproducedFindings) {
  std::string error;
  cli::Gate g = *cli::parseFailOn("confirmed", error);
  analysis::RunResult run;
  run.kernels = {kernel("scan", Verdict::Race)};
  analysis::Finding f;
  f.kind = Verdict::Race;
  f.confirmation.status = analysis::Confirmation::Status::NotReproduced;
  run.kernels[0].findings.push_back(f);
  EXPECT_FALSE(cli::fails(g, run));
  run.kernels[0].findings[0].confirmation.status = analysis::Confirmation::Status::Confirmed;
  EXPECT_TRUE(cli::fails(g, run));
}
