#pragma once
// Solver calls already answered in this process, found by the exact terms they asked.
// The instantiations of one kernel template (over int and float, Sum and Max) and kernels
// repeated across files ask the same questions of the solver: each is solved once.
//
// Exact, not a precision rule: a query is found only when every formula is the same term
// (the same names, sorts and structure: Z3 shares identical terms in the cache's own
// context, so equal terms have one id there), asked the same way (tactic or logic). A
// satisfiable query's model is a model of that same query.
#include <z3++.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kverify::analysis {

struct CachedAnswer {
  z3::check_result result = z3::unknown;
  std::optional<z3::model> model;  // for sat: in the asking query's context
};

// The process's cache, shared by every thread (-j): a lookup copies the query into the
// cache's context under a lock; the asking thread's own context is only read.
class AnswerCache {
public:
  // The answer to `formulas` asked by `how` within `seconds` of CPU time. Where the same
  // question was answered before, that answer (sat or unsat whatever the time it took,
  // unknown only if it already ran out of a time nearly as long), with `before` set. Else
  // solve()'s, kept: whatever happens (an exception keeps unknown), since another thread
  // asking the same meanwhile waits for it rather than solving it too.
  static CachedAnswer ask(const z3::expr_vector &formulas, const std::string &how, double seconds,
                          const std::function<CachedAnswer()> &solve, bool &before);
};

}  // namespace kverify::analysis
