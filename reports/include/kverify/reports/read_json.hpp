#pragma once
// The inverse of render_json: a kverify JSON report back into result structures, so
// results kept as JSON (the result cache) render exactly as freshly computed ones in
// every format. render_json(*read_json(render_json(run))) == render_json(run).

#include <optional>
#include <string>

#include "result/result.hpp"

namespace kverify::reports {

// The report's kernels and skipped templates (its "summary" is recomputed when rendered).
// Nothing, and `error` set, when `text` is not JSON or not a kverify report.
std::optional<analysis::RunResult> read_json(const std::string &text, std::string &error);

}  // namespace kverify::reports
