#pragma once
// The uninterpreted symbols (constants, functions) under each term, remembered per term: a
// kernel's facts and queries share big subterms (an --assume, a loop bound), which one walk
// per fact or query would visit again each time.
#include <z3++.h>

#include <memory>
#include <unordered_map>
#include <vector>

namespace kverify::analysis::detail {

class SymbolSets {
public:
  using Set = std::shared_ptr<const std::vector<unsigned>>;  // the declarations' ids, sorted

  Set of(const z3::expr &root);
  // Every symbol of `sub` is in `a` or in `b`.
  static bool covered(const Set &sub, const Set &a, const Set &b);

private:
  struct Entry {
    z3::expr term;  // kept alive, so that no other term takes its id
    Set symbols;
  };
  std::unordered_map<unsigned, Entry> memo;
  Set unite(const Set &a, const Set &b) const;
  const Set empty = std::make_shared<const std::vector<unsigned>>();
};

}  // namespace kverify::analysis::detail
