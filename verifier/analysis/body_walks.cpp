// Questions about a kernel body, answered by walking the model.
#include "analysis/body_walks.hpp"
#include "model/walk.hpp"


namespace kverify::analysis::detail {

bool isFullMask(const Stmt &s) {
  if (s.barrier != model::BarrierKind::Warp) return true;
  if (!s.mask) return true;
  const Expr *m = s.mask.get();
  while (m->kind == Expr::Kind::Cast) m = m->args[0].get();
  return m->kind == Expr::Kind::Const && (static_cast<uint64_t>(m->int_value) & 0xffffffffu) == 0xffffffffu;
}

void scanBarriers(const std::vector<Stmt> &body, BarrierInfo &bi) {
  for (const Stmt &s : body) {
    switch (s.kind) {
    case Stmt::Kind::Barrier:
      bi.part = true;
      if (s.barrier == model::BarrierKind::Block || s.barrier == model::BarrierKind::Grid)
        bi.block = bi.any = true;
      if (s.barrier == model::BarrierKind::Grid) bi.grid = true;
      else if (isFullMask(s))
        bi.any = true;
      break;
    case Stmt::Kind::If:
      scanBarriers(s.then_body, bi);
      scanBarriers(s.else_body, bi);
      break;
    case Stmt::Kind::Loop:
      scanBarriers(s.body, bi);
      scanBarriers(s.step, bi);
      break;
    case Stmt::Kind::Inlined: scanBarriers(s.body, bi); break;
    default: break;
    }
  }
}

bool hasKind(const std::vector<Stmt> &body, Stmt::Kind k, bool into_loops) {
  for (const Stmt &s : body) {
    if (s.kind == k) return true;
    if (s.kind == Stmt::Kind::If &&
        (hasKind(s.then_body, k, into_loops) || hasKind(s.else_body, k, into_loops)))
      return true;
    // Jumps inside an inlined call stay inside it; barriers and accesses do not.
    bool jump = k == Stmt::Kind::Return || k == Stmt::Kind::Break || k == Stmt::Kind::Continue;
    if (s.kind == Stmt::Kind::Inlined && !jump && hasKind(s.body, k, into_loops)) return true;
    if (s.kind == Stmt::Kind::Loop && into_loops &&
        (hasKind(s.body, k, into_loops) || hasKind(s.step, k, into_loops)))
      return true;
  }
  return false;
}

// Locals assigned anywhere in `body`: id -> number of assignments.
void assignedLocals(const std::vector<Stmt> &body, std::map<unsigned, int> &out) {
  for (const Stmt &s : body) {
    switch (s.kind) {
    case Stmt::Kind::Assign: out[s.local.id]++; break;
    case Stmt::Kind::If:
      assignedLocals(s.then_body, out);
      assignedLocals(s.else_body, out);
      break;
    case Stmt::Kind::Loop:
      // an inner loop's assignments happen an unknown number of times
      {
        std::map<unsigned, int> inner;
        assignedLocals(s.body, inner);
        assignedLocals(s.step, inner);
        for (auto &[id, n] : inner) out[id] += 2 + n;
      }
      break;
    case Stmt::Kind::Inlined: assignedLocals(s.body, out); break;
    default: break;
    }
  }
}

bool mentions(const Expr &e, const std::map<unsigned, int> &mods, bool &opaque) {
  if (e.kind == Expr::Kind::Local && mods.count(e.id)) return true;
  if (e.kind == Expr::Kind::Opaque) opaque = true;
  for (auto &a : e.args)
    if (mentions(*a, mods, opaque)) return true;
  return false;
}

const Expr *stripSameWidthCasts(const Expr *e) {
  while (e->kind == Expr::Kind::Cast && e->type.kind == Type::Kind::Int &&
         e->args[0]->type.kind == Type::Kind::Int && e->args[0]->type.bits == e->type.bits)
    e = e->args[0].get();
  return e;
}

// The integer constants each local is compared with (x == c, x < c, ...) anywhere in `body`:
// the bounds a loop's wrap-around index keeps to (`if (++i == n) i = 0;`).
static void comparedConstant(const Expr &e, std::map<unsigned, std::set<int64_t>> &out) {
  if (e.kind != Expr::Kind::Binary || e.binary_op < BinaryOp::Lt || e.binary_op > BinaryOp::Ne) return;
  for (int side = 0; side < 2; ++side) {
    const Expr *x = stripSameWidthCasts(e.args[side].get()), *c = e.args[1 - side].get();
    while (c->kind == Expr::Kind::Cast) c = c->args[0].get();
    if (x->kind == Expr::Kind::Local && c->kind == Expr::Kind::Const && c->type.kind == Type::Kind::Int)
      out[x->id].insert(c->int_value);
  }
}
void comparedConstants(const Expr &e, std::map<unsigned, std::set<int64_t>> &out) {
  model::forEachNode(e, [&](const Expr &x) { comparedConstant(x, out); });
}
void comparedConstants(const std::vector<Stmt> &body, std::map<unsigned, std::set<int64_t>> &out) {
  model::forEachExpr(body, [&](const Expr &x) { comparedConstant(x, out); });
}

void readLocals(const Expr &e, std::set<unsigned> &out) {
  model::forEachNode(e, [&](const Expr &x) {
    if (x.kind == Expr::Kind::Local) out.insert(x.id);
  });
}

}  // namespace kverify::analysis::detail
