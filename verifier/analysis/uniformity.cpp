// Uniformity (see uniformity.hpp): a greatest fixed point over the locals. Start with
// every assigned local uniform; an assignment of a varying value, or one under varying
// control, makes its local varying; repeat until nothing changes.
#include "analysis/uniformity.hpp"
#include "model/walk.hpp"

namespace kverify::analysis {

using model::Expr;
using model::Stmt;

namespace {

void assigned(const std::vector<Stmt> &body, std::set<unsigned> &out) {
  model::forEachStmt(body, [&](const Stmt &s) {
    if (s.kind == Stmt::Kind::Assign) out.insert(s.local.id);
  });
}

bool hasBarrier(const std::vector<Stmt> &body) {
  bool found = false;
  model::forEachStmt(body, [&](const Stmt &s) { found = found || s.kind == Stmt::Kind::Barrier; });
  return found;
}

}  // namespace

Uniformity::Uniformity(const model::Kernel &k) {
  std::set<unsigned> written;
  assigned(k.body, written);
  for (const model::Local &l : k.locals)
    if (!written.count(l.id)) varying_.insert(l.id);  // never assigned: no defined value
  do {
    changed_ = false;
    varying_control_.clear();
    varying_loops_.clear();
    block(k.body, true);
  } while (changed_);
  barriers_uniform_ = barriers(k.body);
}

bool Uniformity::value(const Expr &e) const {
  switch (e.kind) {
  case Expr::Kind::Const:
  case Expr::Kind::Param:
  case Expr::Kind::NotNull:
  case Expr::Kind::Address: return true;
  case Expr::Kind::Builtin:
    return e.builtin != model::Builtin::ThreadIdxX && e.builtin != model::Builtin::ThreadIdxY &&
           e.builtin != model::Builtin::ThreadIdxZ;
  case Expr::Kind::Local: return !varying_.count(e.id);
  case Expr::Kind::Opaque:
    // one value per block and barrier instance (model.hpp); loads, atomics, calls vary
    return e.per_block;
  default:
    for (const model::ExprPtr &a : e.args)
      if (!a || !value(*a)) return false;
    return true;
  }
}

Uniformity::Jumps Uniformity::block(const std::vector<Stmt> &body, bool uniform) {
  Jumps out;
  for (const Stmt &s : body) {
    Jumps j = stmt(s, uniform);
    out.ret |= j.ret, out.brk |= j.brk, out.cont |= j.cont;
    if (j.any()) uniform = false;  // the threads that jumped skip the rest
  }
  return out;
}

Uniformity::Jumps Uniformity::stmt(const Stmt &s, bool uniform) {
  if (!uniform) varying_control_.insert(&s);
  switch (s.kind) {
  case Stmt::Kind::Assign:
    if (!uniform || !s.value || !value(*s.value)) changed_ |= varying_.insert(s.local.id).second;
    return {};
  case Stmt::Kind::If: {
    bool u = uniform && value(*s.cond);
    Jumps a = block(s.then_body, u), b = block(s.else_body, u);
    return {a.ret || b.ret, a.brk || b.brk, a.cont || b.cont};
  }
  case Stmt::Kind::Loop: {
    bool u = uniform && (!s.cond || value(*s.cond));
    auto walk = [&](bool body_uniform) {
      Jumps j = block(s.body, body_uniform);
      block(s.step, body_uniform);  // `continue` goes to the step: every thread runs it
      return j;
    };
    Jumps j = walk(u);
    // a break or return taken by part of the threads: their iteration counts differ
    if (u && (j.brk || j.ret)) u = false, j = walk(false);
    if (!u) varying_loops_.insert(&s);
    return {j.ret, false, false};
  }
  case Stmt::Kind::Inlined:
    block(s.body, uniform);  // its returns end at the call
    return {};
  case Stmt::Kind::Return: return {!uniform, false, false};
  case Stmt::Kind::Break: return {false, !uniform, false};
  case Stmt::Kind::Continue: return {false, false, !uniform};
  default: return {};
  }
}

bool Uniformity::barriers(const std::vector<Stmt> &body) const {
  for (const Stmt &s : body) {
    // a grid barrier needs agreement across blocks: blockIdx is not uniform there
    if (s.kind == Stmt::Kind::Barrier && (!control(s) || s.barrier == model::BarrierKind::Grid))
      return false;
    if (s.kind == Stmt::Kind::Loop && !loop(s) && (hasBarrier(s.body) || hasBarrier(s.step)))
      return false;
    for (const std::vector<Stmt> *b : model::children(s))
      if (!barriers(*b)) return false;
  }
  return true;
}

}  // namespace kverify::analysis
