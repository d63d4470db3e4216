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

#include <cstdint>
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
  // The query in the cache's terms, from find() for the store() that follows a miss.
  struct Ticket {
    std::string how;
    std::vector<unsigned> ids;  // the formulas' ids in the cache's context
    uint64_t generation = 0;    // of that context (a full cache starts a new one)
  };

  // The answer to `formulas` asked by `how` within `seconds` of CPU time: sat or unsat
  // whatever the time it took, unknown only if the same question already ran out of a
  // time nearly as long. `ticket` is set for store() on a miss, which the caller must
  // make whatever happens: another thread asking the same meanwhile waits for it.
  static std::optional<CachedAnswer> find(const z3::expr_vector &formulas, const std::string &how,
                                          double seconds, std::optional<Ticket> &ticket);
  // What the solver said to `formulas` (asked by `how`; `model`: for sat), having run for
  // `seconds` of CPU time; `ticket`: find()'s, if it gave one.
  static void store(const z3::expr_vector &formulas, const std::string &how,
                    const std::optional<Ticket> &ticket, z3::check_result result, const z3::model *model,
                    double seconds);
};

}  // namespace kverify::analysis
