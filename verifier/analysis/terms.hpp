#pragma once
// Walking Z3 terms: every distinct application under some roots once, with an explicit
// stack (terms can be nested deeper than the call stack allows).
#include <z3++.h>

#include <set>
#include <vector>

namespace kverify::analysis {

// Calls visit(t) on each application term under `roots` not in `seen` (which records
// them), a term before its arguments; visit returning false stops the walk, and then so
// does forEachTerm (false).
template <class Visit>
bool forEachTerm(std::vector<z3::expr> roots, std::set<unsigned> &seen, Visit visit) {
  while (!roots.empty()) {
    z3::expr e = roots.back();
    roots.pop_back();
    if (!e.is_app() || !seen.insert(e.id()).second) continue;
    if (!visit(e)) return false;
    for (unsigned i = 0; i < e.num_args(); ++i) roots.push_back(e.arg(i));
  }
  return true;
}

template <class Visit>
bool forEachTerm(std::vector<z3::expr> roots, Visit visit) {
  std::set<unsigned> seen;
  return forEachTerm(std::move(roots), seen, visit);
}

// A bit-vector constant: an uninterpreted symbol without arguments (a launch dimension, a
// thread index, a parameter, a loop counter).
inline bool isBvConstant(const z3::expr &e) {
  return e.is_app() && e.num_args() == 0 && e.decl().decl_kind() == Z3_OP_UNINTERPRETED && e.is_bv();
}

// The bit-vector constants under `roots` not in `seen`, each once, appended to `out`.
inline void bvConstants(std::vector<z3::expr> roots, std::set<unsigned> &seen, std::vector<z3::expr> &out) {
  forEachTerm(std::move(roots), seen, [&](const z3::expr &e) {
    if (isBvConstant(e)) out.push_back(e);
    return true;
  });
}

}  // namespace kverify::analysis
