// Barrier divergence: two threads that disagree on reaching a barrier.
#include "analysis/checker.hpp"
#include "analysis/debug.hpp"
#include "analysis/body_walks.hpp"
#include "model/walk.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace kverify::analysis::detail {

// __syncwarp(mask) executed by a lane that is not in its mask: undefined in CUDA, and the
// lanes of the mask wait for one that never joins them.
bool DivergenceCheck::laneOutsideMask(const SyncEv &a) {
  z3::expr one = checker.enc.u32(1);
  z3::expr q = a.pc && (z3::lshr(*a.mask, checker.lane(*checker.thread1)) & one) != one;
  std::optional<z3::model> m;
  if (checker.check(q, "lane outside the mask of the barrier at " + loc(a.s->range), m) != z3::sat)
    return false;
  Finding f;
  f.kind = Verdict::Divergence;
  f.message = "barrier divergence: '" + refOf(*a.s, checker.enc.kernel).text +
              "' is executed by a lane outside its mask";
  f.explanation =
      "thread 1 executes it, but its lane is not in the mask: the lanes of the mask wait for a "
      "lane that never arrives (undefined behaviour)";
  f.accesses.push_back(refOf(*a.s, checker.enc.kernel));
  f.witness = checker.witness(*m, {}, {}, checker.enc.ctx.bv_val(0, 64), false);
  f.witness.index.clear();
  f.witness.validated = m->eval(q, true).is_true() && satisfiesAll(*m, checker.side);
  if (!f.witness.validated) return false;
  found_.push_back(f);
  return true;
}

// A grid barrier (or a loop or jump around one) must be reached alike by every thread of
// the grid, not only of a block.
static bool hasGridBarrier(const Stmt &s) {
  bool found = false;
  model::forEachStmt(s, [&](const Stmt &x) {
    const auto *b = x.as<st::Barrier>();
    found = found || (b && b->kind == model::BarrierKind::Grid);
  });
  return found;
}

static bool gridWide(const SyncEv &a) {
  if (a.s->is<st::Barrier>() || a.s->is<st::Loop>()) return hasGridBarrier(*a.s);
  return std::any_of(a.frames.begin(), a.frames.end(),
                     [](const Frame &f) { return hasGridBarrier(*f.loop); });
}

std::vector<Finding> DivergenceCheck::run() {
  std::set<const Stmt *> divergent;  // loops
  for (size_t i = 0; i < checker.thread1->syncs.size(); ++i) {
    if (const SyncEv &a = checker.thread1->syncs[i]; a.warp && a.mask && a.s->is<st::Barrier>() &&
                                                     !isFullMask(*a.s->as<st::Barrier>()) &&
                                                     laneOutsideMask(a))
      continue;
    const SyncEv &a = checker.thread1->syncs[i], &b = checker.thread2->syncs[i];
    bool grid = gridWide(a);
    if (!grid &&
        (a.s->is<st::Loop>() ? checker.enc.uniformity.loop(*a.s) : checker.enc.uniformity.control(*a.s)))
      continue;
    // inside a loop already reported: its divergence comes first (and explains the rest)
    if (std::any_of(a.frames.begin(), a.frames.end(),
                    [&](const Frame &f) { return divergent.count(f.loop); }))
      continue;
    z3::expr q = (grid ? checker.distinctThreads() || !checker.sameBlock()
                       : checker.sameBlock() && checker.distinctThreads()) &&
                 a.guard && b.guard && (a.pc != b.pc);
    for (size_t j = 0; j < a.ks.size(); ++j) q = q && a.ks[j] == b.ks[j];
    // The first disagreement: had the threads left an enclosing loop at different
    // iterations, that loop's own event disagreed earlier.
    for (size_t j = 0; j < a.frames.size() && j < b.frames.size(); ++j)
      q = q && z3::implies(a.frames[j].reach && b.frames[j].reach, a.frames[j].in && b.frames[j].in);
    if (a.warp) {
      q = q && checker.sameWarp();
      if (a.mask) {
        z3::expr one = checker.enc.u32(1);
        q = q && (z3::lshr(*a.mask, checker.lane(*checker.thread1)) & one) == one &&
            (z3::lshr(*b.mask, checker.lane(*checker.thread2)) & one) == one;
      }
    }
    std::optional<z3::model> m;
    std::string what = a.s->is<st::Barrier>() ? "barrier" : a.s->is<st::Loop>() ? "loop condition" : "exit";
    if (checker.check(q, "divergence of the " + what + " at " + loc(a.s->range), m) != z3::sat) continue;
    std::vector<z3::expr> counters = a.ks;
    counters.insert(counters.end(), b.ks.begin(), b.ks.end());
    checker.simplest(q, m, counters);
    Finding f = divergenceFinding(a, b, *m, grid);
    if (!f.witness.validated) {
      checker.notValidated("divergence at " + loc(a.s->range));
      continue;
    }
    found_.push_back(f);
    if (a.s->is<st::Loop>()) divergent.insert(a.s);
  }
  return std::move(found_);
}

// The finding for barrier divergence at event a (thread 1) / b (thread 2), at model m,
// validated there: the two path conditions really differ.
Finding DivergenceCheck::divergenceFinding(const SyncEv &a, const SyncEv &b, const z3::model &m, bool grid) {
  Finding f;
  f.kind = Verdict::Divergence;
  bool on1 = num(m, a.pc) != 0;
  AccessRef r = refOf(*a.s, checker.enc.kernel);
  f.message = a.s->is<st::Barrier>()
                  ? "barrier divergence: '" + r.text + "' is reached by only part of the " +
                        (grid     ? "grid"
                         : a.warp ? "warp"
                                  : "block")
              : a.s->is<st::Loop>() ? "barrier divergence: the " + r.text +
                                          " contains barriers but its trip count differs between threads"
                                    : "barrier divergence: '" + r.text +
                                          "' inside a loop with barriers is taken by only part of the block";
  f.accesses.push_back(r);
  f.witness = checker.witness(m, {}, {}, checker.enc.ctx.bv_val(0, 64), true);
  auto name = [](const ThreadCoords &t) {
    auto xyz = [](const std::array<uint64_t, 3> &v) {
      return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
    };
    return "thread " + xyz(t.thread_idx) + " of block " + xyz(t.block_idx);
  };
  const ThreadCoords &in = on1 ? f.witness.thread1 : f.witness.thread2;
  const ThreadCoords &out = on1 ? f.witness.thread2 : f.witness.thread1;
  f.explanation = name(in) + " reaches it, " + name(out) + " does not (at the same loop iterations)";
  f.witness.index.clear();
  // validate: the two path conditions really differ at the model
  f.witness.validated = m.eval(a.pc, true).is_true() != m.eval(b.pc, true).is_true() &&
                        m.eval(a.guard && b.guard, true).is_true() && satisfiesAll(m, checker.side);
  if (!f.witness.validated && debugOptions().queries) {
    std::fprintf(stderr, "[kverify] validation failed: pcs %s %s guards %s\n",
                 m.eval(a.pc, true).to_string().c_str(), m.eval(b.pc, true).to_string().c_str(),
                 m.eval(a.guard && b.guard, true).to_string().c_str());
    for (auto &sd : checker.side)
      if (!m.eval(sd, true).is_true()) std::fprintf(stderr, "  side: %s\n", sd.to_string().c_str());
  }
  return f;
}

}  // namespace kverify::analysis::detail
