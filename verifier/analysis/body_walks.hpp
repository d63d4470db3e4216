#pragma once
// Questions about a kernel body, answered by walking the model.
#include "analysis/trace.hpp"

#include <map>
#include <set>
#include <type_traits>
#include <vector>

namespace kverify::analysis::detail {

bool isFullMask(const st::Barrier &b);  // a block barrier, or a warp barrier of all 32 lanes
void scanBarriers(const model::Body &body, BarrierInfo &bi);
// Whether `body` holds a statement of kind K (a model::stmt type), inside loops too if
// `into_loops`. Jumps inside an inlined call stay inside it; barriers and accesses do not.
template <class K>
bool hasKind(const model::Body &body, bool into_loops) {
  constexpr bool jump =
      std::is_same_v<K, st::Return> || std::is_same_v<K, st::Break> || std::is_same_v<K, st::Continue>;
  for (const Stmt &s : body) {
    if (s.is<K>()) return true;
    if (const auto *i = s.as<st::If>())
      if (hasKind<K>(i->then_body, into_loops) || hasKind<K>(i->else_body, into_loops)) return true;
    if (const auto *c = s.as<st::Inlined>(); c && !jump && hasKind<K>(c->body, into_loops)) return true;
    if (const auto *l = s.as<st::Loop>();
        l && into_loops && (hasKind<K>(l->body, into_loops) || hasKind<K>(l->step, into_loops)))
      return true;
  }
  return false;
}
inline bool hasJump(const model::Body &body) {
  return hasKind<st::Return>(body, true) || hasKind<st::Break>(body, false) ||
         hasKind<st::Continue>(body, false);
}
// Locals assigned anywhere in `body`: id -> number of assignments.
void assignedLocals(const model::Body &body, std::map<unsigned, int> &out);
// Whether `e` reads a local of `mods` (and sets `opaque` where it reads an opaque value).
bool mentions(const Expr &e, const std::map<unsigned, int> &mods, bool &opaque);
const Expr *stripSameWidthCasts(const Expr *e);
void comparedConstants(const Expr &e, std::map<unsigned, std::set<int64_t>> &out);
void comparedConstants(const model::Body &body, std::map<unsigned, std::set<int64_t>> &out);
void readLocals(const Expr &e, std::set<unsigned> &out);  // the locals an expression reads
}  // namespace kverify::analysis::detail
