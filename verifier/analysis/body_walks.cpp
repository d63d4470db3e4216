// Questions about a kernel body, answered by walking the model.
#include "analysis/body_walks.hpp"
#include "model/walk.hpp"

namespace kverify::analysis::detail {

bool isFullMask(const st::Barrier &b) {
  if (b.kind != model::BarrierKind::Warp || !b.mask) return true;
  const Expr *m = b.mask.get();
  while (const auto *c = m->as<ex::Cast>()) m = c->arg.get();
  const auto *k = m->as<ex::Const>();
  return k && (static_cast<uint64_t>(k->int_value) & 0xffffffffu) == 0xffffffffu;
}

void scanBarriers(const model::Body &body, BarrierInfo &bi) {
  model::forEachStmt(body, [&](const Stmt &s) {
    const auto *b = s.as<st::Barrier>();
    if (!b) return;
    bi.part = true;
    if (b->kind == model::BarrierKind::Block || b->kind == model::BarrierKind::Grid) bi.block = bi.any = true;
    if (b->kind == model::BarrierKind::Grid)
      bi.grid = true;
    else if (isFullMask(*b))
      bi.any = true;
  });
}

// Locals assigned anywhere in `body`: id -> number of assignments.
void assignedLocals(const model::Body &body, std::map<unsigned, int> &out) {
  for (const Stmt &s : body) {
    if (const auto *a = s.as<st::Assign>()) {
      out[a->local.id]++;
    } else if (s.is<st::Loop>()) {
      // an inner loop's assignments happen an unknown number of times
      std::map<unsigned, int> inner;
      for (const model::Body *c : model::children(s)) assignedLocals(*c, inner);
      for (auto &[id, n] : inner) out[id] += 2 + n;
    } else {
      for (const model::Body *c : model::children(s)) assignedLocals(*c, out);
    }
  }
}

bool mentions(const Expr &e, const std::map<unsigned, int> &mods, bool &opaque) {
  if (const auto *l = e.as<ex::Local>(); l && mods.count(l->id)) return true;
  if (e.is<ex::Opaque>()) opaque = true;
  for (const Expr *a : model::operands(e))
    if (mentions(*a, mods, opaque)) return true;
  return false;
}

const Expr *stripSameWidthCasts(const Expr *e) {
  while (const auto *c = e->as<ex::Cast>()) {
    if (e->type.kind != Type::Kind::Int || c->arg->type.kind != Type::Kind::Int ||
        c->arg->type.bits != e->type.bits)
      break;
    e = c->arg.get();
  }
  return e;
}

// The integer constants each local is compared with (x == c, x < c, ...) anywhere in `body`:
// the bounds a loop's wrap-around index keeps to (`if (++i == n) i = 0;`).
static void comparedConstant(const Expr &e, std::map<unsigned, std::set<int64_t>> &out) {
  const auto *b = e.as<ex::Binary>();
  if (!b || b->op < BinaryOp::Lt || b->op > BinaryOp::Ne) return;
  for (int side = 0; side < 2; ++side) {
    const Expr *x = stripSameWidthCasts((side ? b->rhs : b->lhs).get());
    const Expr *c = (side ? b->lhs : b->rhs).get();
    while (const auto *cast = c->as<ex::Cast>()) c = cast->arg.get();
    const auto *l = x->as<ex::Local>();
    const auto *k = c->as<ex::Const>();
    if (l && k && c->type.kind == Type::Kind::Int) out[l->id].insert(k->int_value);
  }
}
void comparedConstants(const Expr &e, std::map<unsigned, std::set<int64_t>> &out) {
  model::forEachNode(e, [&](const Expr &x) { comparedConstant(x, out); });
}
void comparedConstants(const model::Body &body, std::map<unsigned, std::set<int64_t>> &out) {
  model::forEachExpr(body, [&](const Expr &x) { comparedConstant(x, out); });
}

void readLocals(const Expr &e, std::set<unsigned> &out) {
  model::forEachNode(e, [&](const Expr &x) {
    if (const auto *l = x.as<ex::Local>()) out.insert(l->id);
  });
}

}  // namespace kverify::analysis::detail
