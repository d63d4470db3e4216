#pragma once
// Premises about what arrays hold (KV_ASSUME_FORALL): a fact for every index of a range,
// used through its instances at the elements a query reads.
#include <z3++.h>

#include <set>
#include <string>
#include <vector>

namespace kverify::analysis::detail {

// For every value of `vars` (bit-vector constants of 64 bits, bound here): `fact`, which
// reads arrays through their contents functions (Encoder::readOnlyContents).
struct ForallPremise {
  std::vector<z3::expr> vars;
  z3::expr fact;
  z3::expr lo;        // the range's first value (premisesHold instantiates it there)
  std::string label;  // "the assumption at 12:3"
};

// Instances of `premises` at the elements `query` reads: where a premise mentions
// f(x + d) (f one of the contents `functions`, x a bound variable, d free of every bound
// variable), x := t - d for every f(t) in the query, all combinations for two variables,
// at most `limit` per premise. Any instance is implied by its premise, so adding some is
// sound whichever they are; an element no query reads needs none.
struct PremiseInstance {
  z3::expr fact;
  const ForallPremise *of;
};
std::vector<PremiseInstance> premiseInstances(const std::vector<const ForallPremise *> &premises,
                                              const std::vector<z3::expr> &query,
                                              const std::set<unsigned> &functions, size_t limit = 256);

}  // namespace kverify::analysis::detail
