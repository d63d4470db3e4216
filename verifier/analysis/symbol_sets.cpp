#include "analysis/symbol_sets.hpp"

#include <algorithm>
#include <utility>

namespace kverify::analysis::detail {

SymbolSets::Set SymbolSets::unite(const Set &a, const Set &b) const {
  if (std::includes(a->begin(), a->end(), b->begin(), b->end())) return a;
  if (std::includes(b->begin(), b->end(), a->begin(), a->end())) return b;
  auto both = std::make_shared<std::vector<unsigned>>();
  std::set_union(a->begin(), a->end(), b->begin(), b->end(), std::back_inserter(*both));
  return both;
}

// Post-order without recursion: terms are as deep as the source's expressions.
SymbolSets::Set SymbolSets::of(const z3::expr &root) {
  std::vector<std::pair<z3::expr, bool>> stack{{root, false}};  // (term, its arguments pushed)
  while (!stack.empty()) {
    auto [e, expanded] = stack.back();
    if (memo.count(e.id())) {
      stack.pop_back();
      continue;
    }
    if (!expanded && e.is_app()) {
      stack.back().second = true;
      for (unsigned i = 0; i < e.num_args(); ++i)
        if (!memo.count(e.arg(i).id())) stack.emplace_back(e.arg(i), false);
      continue;
    }
    stack.pop_back();
    Set s = empty;  // (quantifiers are not looked into)
    if (e.is_app()) {
      for (unsigned i = 0; i < e.num_args(); ++i) s = unite(s, memo.at(e.arg(i).id()).symbols);
      if (e.decl().decl_kind() == Z3_OP_UNINTERPRETED)
        s = unite(s, std::make_shared<const std::vector<unsigned>>(1, e.decl().id()));
    }
    memo.emplace(e.id(), Entry{e, s});
  }
  return memo.at(root.id()).symbols;
}

bool SymbolSets::covered(const Set &sub, const Set &a, const Set &b) {
  return std::all_of(sub->begin(), sub->end(), [&](unsigned s) {
    return std::binary_search(a->begin(), a->end(), s) || std::binary_search(b->begin(), b->end(), s);
  });
}

}  // namespace kverify::analysis::detail
