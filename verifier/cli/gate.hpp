#pragma once
// Which results fail the run: --fail-on (verdicts, or `confirmed`) less what --baseline
// already knows (same file, kernel and verdict).
#include "result/result.hpp"

#include <optional>
#include <set>
#include <string>

namespace kverify::cli {

struct Gate {
  std::set<analysis::Verdict> verdicts;  // a kernel with one of these fails the run
  bool confirmed = false;                // a finding the GPU confirmed fails the run
  std::set<std::string> known;           // the baseline's "file\nkernel\nverdict"
};

// "race,divergence" or "confirmed"; nullopt (and `error`) on an unknown name.
std::optional<Gate> parseFailOn(const std::string &list, std::string &error);

// Adds the kernels of an earlier --format=json report to gate.known; false (and `error`)
// where it cannot be read.
bool readBaseline(const std::string &path, Gate &gate, std::string &error);

bool fails(const Gate &gate, const analysis::RunResult &run);

}  // namespace kverify::cli
