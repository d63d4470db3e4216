// read_json: a report read back renders byte for byte as the results it was written from,
// in every format (the result cache replays runs this way).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include "kverify/reports/read_json.hpp"
#include "kverify/reports/render.hpp"

namespace kv = kverify;
using kv::analysis::Assumption;
using kv::analysis::Verdict;

namespace {

class ReadJsonTest : public ::testing::Test {
protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "kv_read_json_test_" + std::to_string(getpid()) + ".cu";
    std::ofstream(path_) << "__global__ void k(int* out, int n, int m) {\n"  // 1
                            "  __shared__ int s[64];\n"                      // 2
                            "  for (int i = 0; i < n; ++i)\n"                // 3
                            "    s[threadIdx.x + i] = s[threadIdx.x];\n"     // 4
                            "  __syncthreads();\n"                           // 5
                            "}\n";
  }
  void TearDown() override { std::remove(path_.c_str()); }

  kv::model::SourceRange at(unsigned line, unsigned col, unsigned end_col) const {
    return {path_, line, col, line, end_col};
  }

  // Every field render_json writes, set to something other than its default; pairs in an
  // order other than their names' (the text output keeps the analysis' order).
  kv::analysis::RunResult everything() const {
    kv::analysis::KernelResult racy;
    racy.file = path_;
    racy.name = "k";
    racy.range = at(1, 17, 17);
    racy.verdict = Verdict::Race;
    racy.time_ms = 1234.5678901234567;
    kv::analysis::Finding race;
    race.kind = Verdict::Race;
    race.array = "s";
    race.space = "shared";
    race.message = "data race on 's' (write/read)";
    race.explanation = "warp-synchronous code races on sm_70+";
    racy.undecided = {"bounds of 's' at 4:5", "race on 't' between 5:3 and 6:3"};
    race.accesses = {
        {"write", at(4, 5, 22), "s[threadIdx.x + i]", {{"put", at(2, 3, 9)}, {"outer", at(3, 3, 9)}}},
        {"read", at(4, 26, 39), "s[threadIdx.x]", {}}};
    race.witness.thread1 = {{1, 0, 0}, {0, 2, 0}};
    race.witness.thread2 = {{0, 3, 0}, {0, 2, 0}};
    race.witness.block_dim = {2, 4, 1};
    race.witness.grid_dim = {1, 3, 1};
    race.witness.params = {{"n", "4"}, {"m", "-1"}};
    race.witness.loops = {{2, "k (loop at 3:3)", 1}, {1, "k (loop at 3:3)", 0}};
    race.witness.index = "1";
    race.witness.validated = true;
    kv::analysis::Finding oob = race;
    oob.kind = Verdict::Oob;
    oob.message = "'s' indexed out of bounds";
    oob.explanation.clear();
    oob.accesses.resize(1);
    oob.witness.thread2 = {};
    oob.witness.params = {{"n", "70"}};
    oob.witness.loops = {};
    oob.witness.index = "64";
    oob.witness.validated = false;
    kv::analysis::Finding divergence;
    divergence.kind = Verdict::Divergence;
    divergence.message = "barrier divergence";
    divergence.accesses = {{"barrier", at(5, 3, 17), "__syncthreads()", {}}};
    racy.findings = {race, oob, divergence};
    racy.phases = {{at(1, 17, 17), at(5, 3, 17), 2}, {at(5, 3, 17), at(6, 1, 1), 0}};
    racy.assumptions = {{Assumption::Kind::Premise, "distinct pointer parameters do not alias"},
                        {Assumption::Kind::NotChecked, "__assert at 2:3"},
                        {Assumption::Kind::Assumed, "n < 4"},
                        {Assumption::Kind::Launch, "blockDim = (2, 4, 1)"}};
    kv::analysis::UnreachableRef unreached;
    unreached.kind = "write", unreached.range = at(4, 5, 22), unreached.text = "s[threadIdx.x + i]";
    racy.unreachable = {unreached};
    racy.rules.note(kv::analysis::Rule::ClosedFormAdd, 3);
    racy.rules.note(kv::analysis::Rule::MessagePassing);

    kv::analysis::KernelResult unknown;
    unknown.file = path_;
    unknown.name = "scale<64, int>";
    unknown.range = {path_, 3, 3, 4, 40};
    unknown.verdict = Verdict::Unknown;
    unknown.unknown_query = "race query on 's' (4:5 / 4:26)";

    kv::analysis::KernelResult odd;
    odd.file = "other.cu";
    odd.name = "fib";
    odd.range = {"other.cu", 2, 1, 9, 2};
    odd.verdict = Verdict::Unsupported;
    odd.unsupported = {{"recursion", "fib calls itself", {"other.cu", 7, 10, 7, 16}}};

    kv::analysis::KernelResult error;
    error.file = "bad.cu";
    error.name = "<file>";
    error.range.file = "bad.cu";
    error.verdict = Verdict::Error;
    error.diagnostics = {{"error", "expected ')'", {"bad.cu", 2, 33, 2, 33}},
                         {"note", "to match this '('", {"bad.cu", 2, 20, 0, 0}}};

    kv::analysis::KernelResult vacuous;
    vacuous.file = path_;
    vacuous.name = "guarded";
    vacuous.range = {path_, 1, 17, 6, 1};
    vacuous.verdict = Verdict::Vacuous;
    kv::analysis::UnreachableRef dead, folded;
    dead.kind = "write", dead.range = at(4, 5, 9), dead.text = "s[0]";
    dead.because = {"threadIdx.x < blockDim.x (the launch)", "--assume='n < 4'"};
    folded.kind = "barrier", folded.range = at(5, 3, 17), folded.text = "__syncthreads()";
    folded.because = {"the condition at 5:1 is always false"};
    folded.by_construction = true;
    vacuous.unreachable = {dead, folded};

    kv::analysis::RunResult run;
    run.kernels = {racy, unknown, odd, error, vacuous};
    run.skipped = {{"scan<T>", "never instantiated", {path_, 8, 1, 12, 2}}};
    return run;
  }

  std::string path_;
};

kv::analysis::RunResult read_back(const kv::analysis::RunResult &run) {
  std::string error;
  std::optional<kv::analysis::RunResult> read = kv::reports::read_json(kv::reports::render_json(run), error);
  EXPECT_TRUE(read.has_value()) << error;
  return read.value_or(kv::analysis::RunResult{});
}

}  // namespace

TEST_F(ReadJsonTest, JsonRoundTripsByteForByte) {
  std::string json = kv::reports::render_json(everything());
  EXPECT_EQ(kv::reports::render_json(read_back(everything())), json);
}

TEST_F(ReadJsonTest, EveryFormatRendersTheSameFromTheJson) {
  kv::analysis::RunResult original = everything(), read = read_back(original);
  EXPECT_EQ(kv::reports::render_text(read, false), kv::reports::render_text(original, false));
  EXPECT_EQ(kv::reports::render_summary(read), kv::reports::render_summary(original));
  EXPECT_EQ(kv::reports::render_sarif(read), kv::reports::render_sarif(original));
  EXPECT_EQ(kv::reports::render_junit(read), kv::reports::render_junit(original));
  EXPECT_EQ(kv::reports::render_html(read), kv::reports::render_html(original));
}

TEST_F(ReadJsonTest, PairsKeepTheirOrder) {
  kv::analysis::RunResult read = read_back(everything());
  ASSERT_EQ(read.kernels.size(), 5u);
  ASSERT_EQ(read.kernels[0].findings.size(), 3u);
  // the reasons code is unreachable, in order, and which is dead by construction
  const auto &dead = read.kernels[4].unreachable;
  ASSERT_EQ(dead.size(), 2u);
  EXPECT_EQ(dead[0].because,
            (std::vector<std::string>{"threadIdx.x < blockDim.x (the launch)", "--assume='n < 4'"}));
  EXPECT_FALSE(dead[0].by_construction);
  EXPECT_TRUE(dead[1].by_construction);
  const kv::analysis::Witness &w = read.kernels[0].findings[0].witness;
  ASSERT_EQ(w.params.size(), 2u);
  EXPECT_EQ(w.params[0].first, "n");
  EXPECT_EQ(w.params[1], (std::pair<std::string, std::string>{"m", "-1"}));
  ASSERT_EQ(w.loops.size(), 2u);
  EXPECT_EQ(w.loops[0].thread, 2u);
  EXPECT_EQ(w.loops[0].loop, "k (loop at 3:3)");
  EXPECT_EQ(w.loops[0].iteration, 1u);
  EXPECT_EQ(w.loops[1].name(), "thread 1: k (loop at 3:3)");
}

TEST(ReadJson, WhatIsNotAReportIsAnErrorNotACrash) {
  std::string json;
  {
    kv::analysis::RunResult run;
    run.kernels.emplace_back().name = "k";
    json = kv::reports::render_json(run);
  }
  std::string error;
  ASSERT_TRUE(kv::reports::read_json(json, error).has_value()) << error;
  for (const std::string &bad :
       {std::string(""), json.substr(0, json.size() / 2), std::string("[1, 2]"),
        std::string("{\"kernels\": 3}"), std::string("{\"kernels\": [{\"name\": \"k\"}]}"),
        std::string("{\"kernels\": [{\"name\": \"k\", \"verdict\": \"maybe\"}]}"),
        std::string("{\"kernels\": [{\"name\": \"k\", \"verdict\": \"race\", \"findings\": [1]}]}")}) {
    error.clear();
    EXPECT_FALSE(kv::reports::read_json(bad, error).has_value()) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}
