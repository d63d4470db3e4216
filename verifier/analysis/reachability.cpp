// Code no thread reaches under the assumptions (proofs about it are vacuous).
#include "analysis/checker.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <tuple>

namespace kverify::analysis::detail {

// Accesses and barriers no thread reaches under the assumptions: proofs about them are
// vacuous, so the user sees them (a note; in JSON, "unreachable").
void UnreachableCode::run() {
  // statement -> where thread 1 or thread 2 executes it (two threads: each model can show
  // two paths through the kernel)
  std::map<const Stmt *, z3::expr> pending;
  auto add = [&](const Stmt *st, const z3::expr &pc) {
    auto it = pending.find(st);
    if (it == pending.end()) pending.emplace(st, pc);
    else it->second = it->second || pc;
  };
  for (const Thread *T : {&*C.T1, &*C.T2}) {
    for (const AccessEv &a : T->accesses) add(a.s, a.pc);
    for (const SyncEv &b : T->syncs)
      if (b.s->is<st::Barrier>()) add(b.s, b.pc);
  }
  // Ask for a model executing any pending statement, with the side facts it breaks added
  // (as Checker::check does): each model retires the statements it executes; unsat, even
  // with only some of the facts, leaves the rest unreachable. A note, not a verdict: kept
  // to a quarter of a second under the user's assumptions (where vacuity is likeliest),
  // a tenth without.
  // (the thread's CPU time: the same notes on a loaded machine as on an idle one)
  const double t0 = threadSeconds();
  const double budget = C.T1->premises.empty() ? 0.1 : 0.25;
  // The facts a model of few threads and small values rarely breaks start left out.
  std::vector<z3::expr> facts = C.launch;
  std::vector<bool> used;
  for (const z3::expr &b : C.launch) used.push_back(!z3::eq(b, *C.E.block_limit));
  for (const Thread *T : {&*C.T1, &*C.T2})
    for (size_t i = 0; i < T->side.size(); ++i) {
      facts.push_back(T->side[i]);
      used.push_back(!T->no_ub.count(i));
    }
  // first among one-dimensional blocks, where the 1024-thread limit needs no product
  std::optional<z3::expr> hint;
  if (!C.E.O.block_dim[1] || !C.E.O.block_dim[2]) hint = C.E.bdim[1] == C.E.u32(1) && C.E.bdim[2] == C.E.u32(1);
  while (!pending.empty()) {
    double left = budget - (threadSeconds() - t0);
    if (left <= 0) return;
    z3::expr_vector q(C.E.c);
    for (size_t i = 0; i < used.size(); ++i)
      if (used[i]) q.push_back(facts[i]);
    if (hint) q.push_back(*hint);
    z3::expr_vector any(C.E.c);
    for (const auto &[st, pc] : pending) any.push_back(pc);
    q.push_back(z3::mk_or(any));
    Decision d = findModel(q, C.E.no_overflow, left);
    z3::check_result r = d.result;
    if (std::getenv("KVERIFY_DEBUG_QUERIES"))
      std::fprintf(stderr, "[kverify] reachability of %zu statements: %s (%s) at %.1f ms\n", pending.size(),
                   r == z3::sat ? "sat" : r == z3::unsat ? "unsat" : "unknown", d.how,
                   1000 * (threadSeconds() - t0));
    if (r == z3::unknown) return;
    if (r == z3::unsat && hint) {
      hint.reset();
      continue;
    }
    if (r == z3::unsat) break;
    z3::model m = *d.model;
    bool broken = false;
    for (size_t i = 0; i < used.size(); ++i)
      if (!used[i] && !m.eval(facts[i], true).is_true()) used[i] = broken = true;
    if (broken) continue;
    for (auto it = pending.begin(); it != pending.end();)
      it = m.eval(it->second, true).is_true() ? pending.erase(it) : std::next(it);
  }
  for (const auto &[st, pc] : pending) C.R.unreachable.push_back(refOf(*st, C.E.K));
  std::sort(C.R.unreachable.begin(), C.R.unreachable.end(), [](const AccessRef &a, const AccessRef &b) {
    return std::tie(a.range.line, a.range.col) < std::tie(b.range.line, b.range.col);
  });
}

}  // namespace kverify::analysis::detail
