// Stage times and query counts (see stats.hpp).
#include "result/stats.hpp"
#include "analysis/solve.hpp"

namespace kverify::analysis {
namespace {

struct Recording {
  KernelStats *out = nullptr;
  const char *stage = nullptr;
  double since = 0;  // threadSeconds() when the current stage was last charged
};
thread_local Recording rec;

StageStats &entry(const char *name) {
  for (StageStats &s : *rec.out)
    if (s.stage == name) return s;
  rec.out->push_back({name});
  return rec.out->back();
}

// The time since the last switch goes to the current stage; `next` is current from now.
const char *switchTo(const char *next) {
  const char *was = rec.stage;
  double now = threadSeconds();
  if (rec.out && was) entry(was).cpu_ms += (now - rec.since) * 1000;
  rec.stage = next;
  rec.since = now;
  return was;
}

}  // namespace

StatsRecorder::StatsRecorder(KernelStats &out) { rec = {&out, nullptr, threadSeconds()}; }
StatsRecorder::~StatsRecorder() {
  switchTo(nullptr);
  rec = {};
}

Stage::Stage(const char *name) : outer_(switchTo(name)) {}
Stage::~Stage() { switchTo(outer_); }

void recordQuery(int result, double solver_ms) {
  if (!rec.out || !rec.stage) return;
  StageStats &s = entry(rec.stage);
  ++s.queries;
  (result == 0 ? s.unsat : result == 1 ? s.sat : s.unknown)++;
  s.solver_ms += solver_ms;
}

}  // namespace kverify::analysis
