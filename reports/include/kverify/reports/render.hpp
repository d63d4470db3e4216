#pragma once
// Renderers for kverify's results: compiler-style text, JSON (docs/REPORT.md, schema
// docs/report.schema.json), SARIF 2.1.0 for code-scanning UIs, JUnit XML for CI test
// tabs, and one self-contained HTML report. Each takes the analysis' plain result data.

#include <string>
#include <vector>

#include "result/result.hpp"
#include "kverify/reports/property_outcome.hpp"

namespace kverify::reports {

using analysis::RunResult;

// Findings as a compiler prints them (error at the first access with its source
// line, note at the second, the witness below), one line per kernel's verdict.
std::string render_text(const RunResult &run, bool color);

// "kverify: 12 kernels in 3 files: 9 verified, 2 race, 1 unsupported (1 template skipped)"
std::string render_summary(const RunResult &run);

// --stats: the front end's time per file, then per kernel (slowest first) the time of each
// stage of its analysis and the solver queries each asked, with their results.
std::string render_stats(const RunResult &run);

std::string render_json(const RunResult &run);
std::string render_sarif(const RunResult &run);
std::string render_junit(const RunResult &run);

// One self-contained page (no scripts, no network): findings first, kernels grouped by
// file, property tests with their counterexamples, a verdict filter that is plain HTML.
std::string render_html(const RunResult &run, const std::vector<PropertyOutcome> &properties = {});

}  // namespace kverify::reports
