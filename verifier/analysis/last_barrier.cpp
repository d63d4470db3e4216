// The candidates for the last barrier instance a thread passed.
#include "analysis/trace.hpp"

#include <algorithm>

namespace kverify::analysis::detail {

// Merge two LBs after an If.
LB mergeLB(const LB &a, const LB &b, const z3::expr &c) {
  LB r;
  for (const Cand &x : a) r.push_back(x.when(c));
  for (const Cand &x : b) r.push_back(x.when(!c));
  return r;
}

// Replace the placeholder `marker` in lb with `start`.
LB expandLB(const LB &lb, int marker, const LB &start) {
  bool has = false;
  for (const Cand &x : lb) has |= x.barrier == marker;
  if (!has) return lb;
  LB r;
  for (const Cand &x : lb) {
    if (x.barrier != marker) {
      r.push_back(x);
      continue;
    }
    for (const Cand &s : start) r.push_back(Cand{x.cond && s.cond, s.barrier, s.ks, x.approx || s.approx});
  }
  return r;
}

LB substLB(const LB &lb, const z3::expr &from, const z3::expr &to) {
  z3::expr_vector src(from.ctx()), dst(from.ctx());
  src.push_back(from);
  dst.push_back(to);
  return substLB(lb, src, dst);
}

LB substLB(const LB &lb, const z3::expr_vector &src, const z3::expr_vector &dst) {
  LB r;
  for (const Cand &x : lb) {
    Cand y{z3::expr(x.cond).substitute(src, dst), x.barrier, {}, x.approx};
    for (const z3::expr &k : x.ks) y.ks.push_back(z3::expr(k).substitute(src, dst));
    r.push_back(y);
  }
  return r;
}

// The same barrier instance, by construction: barrier, exactness and the same iteration terms.
static bool sameInstance(const Cand &x, const Cand &y) {
  if (y.barrier != x.barrier || y.approx != x.approx || y.ks.size() != x.ks.size()) return false;
  for (size_t i = 0; i < x.ks.size(); ++i)
    if (!z3::eq(x.ks[i], y.ks[i])) return false;
  return true;
}

// Candidates of one barrier instance joined into one, their conditions or-ed: jumps and
// skipped iterations would otherwise multiply them with every loop level.
LB compactLB(const LB &lb) {
  LB r;
  for (const Cand &x : lb) {
    auto it = std::find_if(r.begin(), r.end(), [&](const Cand &y) { return sameInstance(x, y); });
    if (it == r.end())
      r.push_back(x);
    else
      it->cond = it->cond || x.cond;
  }
  return r;
}

bool sameLB(const LB &a, const LB &b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Cand &x, const Cand &y) {
    return sameInstance(x, y) && z3::eq(x.cond, y.cond);
  });
}

z3::expr samePhase(z3::context &c, const LB &a, const LB &b, bool approx_match_all) {
  z3::expr_vector ors(c);
  for (const Cand &x : a)
    for (const Cand &y : b) {
      if (approx_match_all && (x.approx || y.approx)) {
        ors.push_back(x.cond && y.cond);
        continue;
      }
      if (x.barrier != y.barrier || x.ks.size() != y.ks.size()) continue;
      z3::expr e = x.cond && y.cond;
      for (size_t i = 0; i < x.ks.size(); ++i) e = e && x.ks[i] == y.ks[i];
      ors.push_back(e);
    }
  return ors.empty() ? c.bool_val(false) : z3::mk_or(ors);
}

}  // namespace kverify::analysis::detail
