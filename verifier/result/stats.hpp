#pragma once
// Where a kernel's analysis spends its time (`kverify --stats`): the CPU time of each stage
// (exclusive: time in a stage entered inside another counts for the inner one only) and
// the solver queries each stage asked, with their results.
#include <string>
#include <vector>

namespace kverify::analysis {

struct StageStats {
  std::string stage;  // "model", "execution", "premises", "divergence", "race", "bounds",
                      // "witness", "reachability"
  double cpu_ms = 0;
  unsigned queries = 0, sat = 0, unsat = 0, unknown = 0;
  double solver_ms = 0;  // of cpu_ms, in the solver
};
using KernelStats = std::vector<StageStats>;  // in the order first entered

// Collects the stages of one kernel's analysis on this thread into `out` while it lives.
class StatsRecorder {
public:
  explicit StatsRecorder(KernelStats &out);
  ~StatsRecorder();
  StatsRecorder(const StatsRecorder &) = delete;
  StatsRecorder &operator=(const StatsRecorder &) = delete;
};

// The current stage from construction to destruction (nothing without a recorder).
class Stage {
public:
  explicit Stage(const char *name);
  ~Stage();
  Stage(const Stage &) = delete;
  Stage &operator=(const Stage &) = delete;

private:
  const char *outer_;
};

// One query of the current stage: its result (0 unsat, 1 sat, else unknown) and the CPU
// time its solver calls took.
void recordQuery(int result, double solver_ms);

}  // namespace kverify::analysis
