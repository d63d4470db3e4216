#include <gtest/gtest.h>
#include <llvm/Support/JSON.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "kverify/reports/render.hpp"

namespace kv = kverify;
using kv::analysis::Verdict;

namespace {

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// A small racy kernel written to a temporary file, so excerpts have real lines.
class RenderTest : public ::testing::Test {
protected:
  void SetUp() override {
    // Per process: CTest runs these tests in parallel processes.
    path_ = ::testing::TempDir() + "kv_render_test_" + std::to_string(getpid()) + ".cu";
    std::ofstream(path_) << "__global__ void reduce(int* out) {\n"               // 1
                            "  __shared__ int sdata[64];\n"                      // 2
                            "  sdata[threadIdx.x] += sdata[threadIdx.x + 1];\n"  // 3
                            "  // <script>alert('x')</script> & co\n"            // 4
                            "}\n";
  }
  void TearDown() override { std::remove(path_.c_str()); }

  kv::model::SourceRange at(unsigned line, unsigned col, unsigned end_col) const {
    kv::model::SourceRange r;
    r.file = path_;
    r.line = r.end_line = line;
    r.col = col;
    r.end_col = end_col;
    return r;
  }

  kv::analysis::RunResult run() const {
    kv::analysis::KernelResult racy;
    racy.file = path_;
    racy.name = "reduce";
    racy.range = at(1, 17, 22);
    racy.verdict = Verdict::Race;
    racy.time_ms = 12.5;
    kv::analysis::Finding f;
    f.kind = Verdict::Race;
    f.array = "sdata";
    f.space = "shared";
    f.message = "data race on 'sdata' (write/read)";
    f.accesses = {{"write", at(3, 3, 20), "sdata[threadIdx.x]", {}},
                  {"read", at(3, 25, 46), "sdata[threadIdx.x + 1]", {}}};
    f.witness.thread1.thread_idx = {1, 0, 0};
    f.witness.thread2.thread_idx = {0, 0, 0};
    f.witness.block_dim = {2, 1, 1};
    f.witness.grid_dim = {1, 1, 1};
    f.witness.params = {{"n", "4"}};
    f.witness.index = "1";
    f.witness.validated = true;
    racy.findings.push_back(f);
    racy.assumptions = {
        {kverify::analysis::Assumption::Kind::Premise, "distinct pointer parameters do not alias"}};
    racy.phases = {{at(1, 17, 22), at(3, 3, 20), 2}, {at(3, 3, 20), at(5, 1, 1), 0}};

    kv::analysis::KernelResult ok;
    ok.file = path_;
    ok.name = "copy<int>";
    ok.range = at(1, 1, 5);
    ok.verdict = Verdict::Verified;

    kv::analysis::KernelResult odd;
    odd.file = "other.cu";
    odd.name = "fib";
    odd.verdict = Verdict::Unsupported;
    kv::model::Unsupported u;
    u.construct = "recursion";
    u.detail = "fib calls itself";
    u.range.file = "other.cu";
    u.range.line = 7;
    u.range.col = 10;
    odd.unsupported.push_back(u);

    kv::analysis::RunResult r;
    r.kernels = {racy, ok, odd};
    kv::model::SkippedKernel s;
    s.name = "scan<T>";
    s.reason = "never instantiated";
    r.skipped.push_back(s);
    return r;
  }

  std::string path_;
};

}  // namespace

TEST_F(RenderTest, TextReadsLikeACompiler) {
  const std::string text = kv::reports::render_text(run(), false);
  EXPECT_TRUE(contains(text, path_ +
                                 ":3:3: error: data race on 'sdata' (write/read) in kernel 'reduce'\n"
                                 " 3 |   sdata[threadIdx.x] += sdata[threadIdx.x + 1];\n"
                                 "   |   ^" +
                                 std::string(17, '~') + "\n"))
      << text;
  EXPECT_TRUE(contains(text, path_ + ":3:25: note: conflicting read: sdata[threadIdx.x + 1]\n")) << text;
  EXPECT_TRUE(contains(text,
                       "note: witness: thread (1,0,0) of block (0,0,0) and thread (0,0,0) of "
                       "block (0,0,0); blockDim=(2,1,1) gridDim=(1,1,1); n=4; index 1\n"))
      << text;
  EXPECT_TRUE(contains(text, "remark: kernel 'copy<int>' verified")) << text;
  EXPECT_TRUE(contains(text,
                       "other.cu:7:10: error: kernel 'fib' uses an unsupported construct: "
                       "recursion (fib calls itself)"))
      << text;
  EXPECT_FALSE(contains(text, "\033[")) << "no colour unless asked";
  EXPECT_TRUE(contains(kv::reports::render_text(run(), true), "\033[1;31merror:"));
}

// A finding on a very long line (generated code) shows the part of it around the caret.
TEST_F(RenderTest, ALongSourceLineIsCutAroundTheCaret) {
  std::string line = std::string(5000, ' ') + "s[i] = 1;" + std::string(5000, ' ') + "// end";
  std::ofstream(path_) << "__global__ void k() {\n" << line << "\n}\n";
  kv::analysis::RunResult r = run();
  r.kernels[0].findings[0].accesses[0].range = at(2, 5001, 5004);
  const std::string text = kv::reports::render_text(r, false);
  const std::string shown = "..." + std::string(80, ' ') + "s[i] = 1;" + std::string(71, ' ') + "...";
  EXPECT_TRUE(contains(text, " 2 | " + shown + "\n   | " + std::string(83, ' ') + "^~~~\n")) << text;
  EXPECT_LT(text.size(), 4000u);
}

// An access inside an inlined device function names the call it is in, in every format.
TEST_F(RenderTest, AccessesInInlinedCallsNameTheCall) {
  kv::analysis::RunResult r = run();
  r.kernels[0].findings[0].accesses[1].called_from = {{"put", at(2, 3, 8)}};
  const std::string text = kv::reports::render_text(r, false);
  EXPECT_TRUE(contains(text, path_ + ":3:25: note: conflicting read: sdata[threadIdx.x + 1]\n"
                                     " 3 |   sdata[threadIdx.x] += sdata[threadIdx.x + 1];\n"))
      << text;
  EXPECT_TRUE(contains(text, path_ + ":2:3: note: in the call to 'put' here\n")) << text;
  const std::string json = kv::reports::render_json(r);
  EXPECT_TRUE(contains(json, "\"called_from\"")) << json;
  const std::string sarif = kv::reports::render_sarif(r);
  EXPECT_TRUE(contains(sarif, "in the call to 'put'")) << sarif;
  const std::string html = kv::reports::render_html(r);
  EXPECT_TRUE(contains(html, "in the call to <code>put</code> at <code>" + path_ + ":2:3</code>")) << html;
}

TEST_F(RenderTest, SummaryCountsVerdicts) {
  EXPECT_EQ(kv::reports::render_summary(run()),
            "kverify: 3 kernels in 2 files: 1 verified, 1 race, 1 unsupported "
            "(1 uninstantiated template skipped)");
}

// A file that does not parse is a file, not a kernel with the verdict `error`.
TEST_F(RenderTest, SummaryCountsUnparsedFilesApart) {
  kv::analysis::RunResult r = run();
  kv::analysis::KernelResult bad;
  bad.file = "broken.cu";
  bad.name = "<file>";
  bad.verdict = Verdict::Error;
  r.kernels.push_back(bad);
  EXPECT_EQ(kv::reports::render_summary(r),
            "kverify: 3 kernels in 3 files: 1 verified, 1 race, 1 unsupported "
            "(1 uninstantiated template skipped); 1 file does not parse");
  auto parsed = llvm::json::parse(kv::reports::render_json(r));
  ASSERT_TRUE(bool(parsed));
  const auto *summary = parsed->getAsObject()->getObject("summary");
  EXPECT_EQ(summary->getInteger("kernels"), 3);
  EXPECT_EQ(summary->getInteger("files_not_parsed"), 1);
  EXPECT_FALSE(summary->getInteger("error").has_value());
}

// An undecided query is named beside the findings that outrank it: never hidden.
TEST_F(RenderTest, UndecidedQueriesShowBesideFindings) {
  kv::analysis::RunResult r = run();
  for (auto &k : r.kernels)
    if (k.verdict == Verdict::Race) k.unknown_query = "race on 'out' between 9:3 and 9:3";
  EXPECT_TRUE(contains(kv::reports::render_text(r, false),
                       "warning: kernel 'reduce': besides these findings, the solver could not "
                       "decide race on 'out' between 9:3 and 9:3"))
      << kv::reports::render_text(r, false);
}

TEST_F(RenderTest, JsonFollowsTheSchema) {
  auto parsed = llvm::json::parse(kv::reports::render_json(run()));
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  const auto *root = parsed->getAsObject();
  const auto *kernels = root->getArray("kernels");
  ASSERT_EQ(kernels->size(), 3u);
  const auto *k = (*kernels)[0].getAsObject();
  EXPECT_EQ(k->getString("name"), "reduce");
  EXPECT_EQ(k->getString("verdict"), "race");
  EXPECT_EQ(k->getNumber("time_ms"), 12.5);
  const auto *f = k->getArray("findings")->front().getAsObject();
  EXPECT_EQ(f->getString("kind"), "race");
  EXPECT_EQ(f->getString("array"), "sdata");
  const auto *acc = f->getArray("accesses");
  ASSERT_EQ(acc->size(), 2u);
  EXPECT_EQ((*acc)[1].getAsObject()->getInteger("col"), 25);
  EXPECT_EQ((*acc)[1].getAsObject()->getString("kind"), "read");
  const auto *w = f->getObject("witness");
  EXPECT_EQ(w->getString("index"), "1");
  EXPECT_EQ((*w->getObject("thread1")->getArray("threadIdx"))[0].getAsInteger(), 1);
  EXPECT_EQ(w->getObject("params")->getString("n"), "4");
  const auto *phases = k->getArray("phases");
  ASSERT_TRUE(phases);
  ASSERT_EQ(phases->size(), 2u);
  EXPECT_EQ((*phases)[0].getAsObject()->getObject("end")->getInteger("line"), 3);
  EXPECT_EQ((*phases)[0].getAsObject()->getInteger("accesses"), 2);
  const auto *summary = root->getObject("summary");
  EXPECT_EQ(summary->getInteger("kernels"), 3);
  EXPECT_EQ(summary->getInteger("race"), 1);
  EXPECT_EQ(summary->getInteger("skipped_templates"), 1);
}

TEST_F(RenderTest, SarifHasRulesResultsAndRelatedLocations) {
  auto parsed = llvm::json::parse(kv::reports::render_sarif(run()));
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  const auto *root = parsed->getAsObject();
  EXPECT_EQ(root->getString("version"), "2.1.0");
  const auto *sarif_run = root->getArray("runs")->front().getAsObject();
  EXPECT_EQ(sarif_run->getObject("tool")->getObject("driver")->getString("name"), "kverify");
  const auto *results = sarif_run->getArray("results");
  ASSERT_EQ(results->size(), 2u);  // the race and the unsupported construct
  const auto *race = (*results)[0].getAsObject();
  EXPECT_EQ(race->getString("ruleId"), "KV001-data-race");
  EXPECT_EQ(race->getString("level"), "error");
  const auto *region =
      race->getArray("locations")->front().getAsObject()->getObject("physicalLocation")->getObject("region");
  EXPECT_EQ(region->getInteger("startLine"), 3);
  EXPECT_EQ(region->getInteger("startColumn"), 3);
  EXPECT_EQ(race->getArray("relatedLocations")->size(), 1u);
  EXPECT_EQ((*results)[1].getAsObject()->getString("ruleId"), "KV005-unsupported");
}

// Every SARIF result's "kverifyFindingHash/v1" fingerprint, in order.
static std::vector<std::string> fingerprints(const kv::analysis::RunResult &r) {
  auto parsed = llvm::json::parse(kv::reports::render_sarif(r));
  EXPECT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  std::vector<std::string> out;
  if (!parsed) return out;
  for (const auto &res :
       *parsed->getAsObject()->getArray("runs")->front().getAsObject()->getArray("results")) {
    const auto *fp = res.getAsObject()->getObject("partialFingerprints");
    out.push_back(fp ? fp->getString("kverifyFindingHash/v1").value_or("").str() : "");
  }
  return out;
}

TEST_F(RenderTest, SarifFingerprintsIgnoreLinesAndTellFindingsApart) {
  const auto base = fingerprints(run());
  ASSERT_EQ(base.size(), 2u);
  EXPECT_EQ(base[0].size(), 64u) << "SHA-256 in hex";
  EXPECT_NE(base[0], base[1]);

  // Lines inserted above the kernel move every location, not the fingerprints.
  auto moved = run();
  for (auto &f : moved.kernels[0].findings)
    for (auto &a : f.accesses) a.range.line += 5, a.range.end_line += 5;
  moved.kernels[2].unsupported[0].range.line += 5;
  EXPECT_EQ(fingerprints(moved), base);

  // Another array, another access text, another kernel: another fingerprint.
  auto other = run();
  other.kernels[0].findings[0].array = "tmp";
  EXPECT_NE(fingerprints(other)[0], base[0]);
  other = run();
  other.kernels[0].findings[0].accesses[1].text = "sdata[threadIdx.x + 2]";
  EXPECT_NE(fingerprints(other)[0], base[0]);
  other = run();
  other.kernels[0].name = "reduce2";
  EXPECT_NE(fingerprints(other)[0], base[0]);

  // The same finding twice in one run: distinct, the first one unchanged.
  auto twice = run();
  twice.kernels[0].findings.push_back(twice.kernels[0].findings[0]);
  const auto both = fingerprints(twice);
  ASSERT_EQ(both.size(), 3u);
  EXPECT_EQ(both[0], base[0]);
  EXPECT_NE(both[1], both[0]);
}

// clang's command-line errors have no source position: SARIF lines start at 1, so the
// result names the file only (percent-encoded as a URI). A premise error's message names
// positions; its fingerprint must not.
TEST_F(RenderTest, SarifErrorsWithoutPositions) {
  kv::analysis::KernelResult bad;
  bad.file = "my kernels/k.cu";
  bad.name = "<file>";
  bad.verdict = Verdict::Error;
  bad.diagnostics.push_back({"error", "unknown argument: '-fno-such-flag'", {}});
  bad.diagnostics.push_back({"error", "no launch satisfies the assumption at 5:5", at(3, 1, 2)});
  kv::analysis::RunResult r;
  r.kernels = {bad};
  auto parsed = llvm::json::parse(kv::reports::render_sarif(r));
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  const auto *results = parsed->getAsObject()->getArray("runs")->front().getAsObject()->getArray("results");
  ASSERT_EQ(results->size(), 2u);
  const auto *physical = (*results)[0]
                             .getAsObject()
                             ->getArray("locations")
                             ->front()
                             .getAsObject()
                             ->getObject("physicalLocation");
  EXPECT_EQ(physical->getObject("artifactLocation")->getString("uri"), "my%20kernels/k.cu");
  EXPECT_EQ(physical->getObject("region"), nullptr);

  const auto before = fingerprints(r);
  r.kernels[0].diagnostics[1].message = "no launch satisfies the assumption at 12:5";
  EXPECT_EQ(fingerprints(r), before);
  r.kernels[0].diagnostics[1].message = "no launch satisfies the assumption n > 5";
  EXPECT_NE(fingerprints(r)[1], before[1]);
}

TEST_F(RenderTest, JUnitCountsFailuresAndSkips) {
  const std::string xml = kv::reports::render_junit(run());
  EXPECT_TRUE(contains(xml, "tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\"")) << xml;
  EXPECT_TRUE(contains(xml, "name=\"other.cu\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\""))
      << xml;
  EXPECT_TRUE(contains(xml, "name=\"copy&lt;int&gt;\"")) << "names are escaped:\n" << xml;
  EXPECT_TRUE(contains(xml, "<failure type=\"race\" message=\"data race on &#39;sdata&#39; (write/read)\">"))
      << xml;
  EXPECT_TRUE(contains(xml, "<skipped message=\"unsupported: recursion at other.cu:7:10\"/>")) << xml;
}

TEST_F(RenderTest, HtmlIsSelfContainedAndEscaped) {
  kv::reports::PropertyOutcome p;
  p.suite = "ScanProps";
  p.name = "inclusive<float>";
  p.status = "failed";
  p.message = "counterexample: n=<257>";
  p.counterexample = {{"std::tuple<int>", "(<257>)"}};
  p.reproduce = "RC_PARAMS=\"reproduce=BEBR<x>\"";
  const std::string html = kv::reports::render_html(run(), {p});
  EXPECT_TRUE(contains(html, "<!DOCTYPE html>"));
  EXPECT_FALSE(contains(html, "<script")) << "source text must be escaped";
  EXPECT_FALSE(contains(html, "src=")) << "no external resources";
  EXPECT_FALSE(contains(html, "<link")) << "no external resources";
  EXPECT_TRUE(contains(html, "name=\"viewport\"")) << "phones get the page at their width";
  // Both accesses of the race highlighted in the excerpt.
  EXPECT_TRUE(contains(html,
                       "<mark class=\"a0\">sdata[threadIdx.x]</mark> += "
                       "<mark class=\"a1\">sdata[threadIdx.x + 1]</mark>"))
      << html;
  EXPECT_TRUE(contains(html, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co"));
  EXPECT_TRUE(contains(html, "counterexample: n=&lt;257&gt;"));
  EXPECT_TRUE(contains(html, "<code>std::tuple&lt;int&gt;</code></td><td><pre>(&lt;257&gt;)</pre>"));
  EXPECT_TRUE(contains(html, "RC_PARAMS=&quot;reproduce=BEBR&lt;x&gt;&quot;"));
  EXPECT_TRUE(contains(html, "<span class=\"v race\">race</span>"));
  EXPECT_TRUE(contains(html, "copy&lt;int&gt;"));
  EXPECT_TRUE(contains(html, "2 barrier phases"));
  // Each phase names the lines of the barriers (or kernel ends) that bound it.
  EXPECT_TRUE(contains(html, "<code>3:3</code> <code class=\"line\">sdata[threadIdx.x] += ")) << html;
}

TEST_F(RenderTest, HtmlPutsFindingsFirstAndFiltersWithoutScripts) {
  const std::string html = kv::reports::render_html(run());
  const size_t findings = html.find("<section id=\"findings\">");
  const size_t files = html.find("<section id=\"files\">");
  ASSERT_NE(findings, std::string::npos);
  ASSERT_NE(files, std::string::npos);
  EXPECT_LT(findings, files) << "findings come before the list of kernels";
  EXPECT_TRUE(contains(html, "Findings: 2 of 3 kernels not verified"));
  // The race comes before the unsupported kernel, and the verified one is not among them.
  const size_t race = html.find("<article class=\"kernel\" data-v=\"race\"");
  const size_t unsupported = html.find("<article class=\"kernel\" data-v=\"unsupported\"");
  EXPECT_LT(race, unsupported);
  EXPECT_LT(unsupported, files);
  EXPECT_FALSE(contains(html.substr(0, files), "data-v=\"verified\""));
  // The witness as a table: one column per thread, shared values spanning both.
  EXPECT_TRUE(contains(html, "<th scope=\"col\">thread 1</th><th scope=\"col\">thread 2</th>"));
  EXPECT_TRUE(contains(html,
                       "<th scope=\"row\">threadIdx</th><td><code>(1,0,0)</code></td>"
                       "<td><code>(0,0,0)</code></td>"))
      << html;
  EXPECT_TRUE(contains(html, "<th scope=\"row\">n</th><td colspan=\"2\"><code>4</code>"));
  EXPECT_TRUE(contains(html, "<li>distinct pointer parameters do not alias</li>"));
  // Grouped by file with counts; a file with findings is open, the verified kernel folded.
  EXPECT_TRUE(contains(html, "<details class=\"file has-verified has-race\" open>")) << html;
  EXPECT_TRUE(contains(html, "2 kernels &middot; 1 verified &middot; 1 race"));
  EXPECT_TRUE(contains(html, "<li data-v=\"verified\"><details><summary>1 verified</summary>"));
  // The filter: radio buttons and CSS rules, no script.
  EXPECT_TRUE(contains(html, "<input type=\"radio\" class=\"filter\" name=\"verdict\" id=\"show-race\""));
  EXPECT_TRUE(contains(html, "#show-race:checked~main [data-v]:not([data-v=race])"));
  EXPECT_TRUE(contains(html, "<label for=\"show-race\"><span class=\"v race\">race</span><b>1</b>"));
  EXPECT_FALSE(contains(html, "<script"));
}
