// Uniformity (see uniformity.hpp): a greatest fixed point over the locals. Start with
// every assigned local uniform; an assignment of a varying value, or one under varying
// control, makes its local varying; repeat until nothing changes.
#include "analysis/uniformity.hpp"
#include "model/walk.hpp"

namespace kverify::analysis {

using model::Expr;
using model::Stmt;
namespace st = model::stmt;
namespace ex = model::expr;

namespace {

void assigned(const model::Body &body, std::set<unsigned> &out) {
  model::forEachStmt(body, [&](const Stmt &s) {
    if (const auto *a = s.as<st::Assign>()) out.insert(a->local.id);
  });
}

bool hasBarrier(const model::Body &body) {
  bool found = false;
  model::forEachStmt(body, [&](const Stmt &s) { found = found || s.is<st::Barrier>(); });
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
  return std::visit(model::Overloaded{
                        [](const ex::Builtin &b) {
                          return b.which != model::Builtin::ThreadIdxX &&
                                 b.which != model::Builtin::ThreadIdxY &&
                                 b.which != model::Builtin::ThreadIdxZ;
                        },
                        [&](const ex::Local &l) { return !varying_.count(l.id); },
                        // one value per block and barrier instance (model.hpp); loads, atomics, calls vary
                        [](const ex::Opaque &o) { return o.per_block; },
                        [&](const auto &) {  // constants, parameters and array facts; operators by operands
                          for (const Expr *a : model::operands(e))
                            if (!value(*a)) return false;
                          return true;
                        },
                    },
                    e.node);
}

Uniformity::Jumps Uniformity::block(const model::Body &body, bool uniform) {
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
  return std::visit(model::Overloaded{
                        [&](const st::Assign &a) -> Jumps {
                          if (!uniform || !a.value || !value(*a.value))
                            changed_ |= varying_.insert(a.local.id).second;
                          return {};
                        },
                        [&](const st::If &i) -> Jumps {
                          bool u = uniform && value(*i.cond);
                          Jumps a = block(i.then_body, u), b = block(i.else_body, u);
                          return {a.ret || b.ret, a.brk || b.brk, a.cont || b.cont};
                        },
                        [&](const st::Loop &l) { return loopStmt(s, l, uniform); },
                        [&](const st::Inlined &c) -> Jumps {
                          block(c.body, uniform);  // its returns end at the call
                          return {};
                        },
                        [&](const st::Return &) -> Jumps { return {!uniform, false, false}; },
                        [&](const st::Break &) -> Jumps { return {false, !uniform, false}; },
                        [&](const st::Continue &) -> Jumps { return {false, false, !uniform}; },
                        [](const auto &) -> Jumps { return {}; },
                    },
                    s.node);
}

Uniformity::Jumps Uniformity::loopStmt(const Stmt &s, const st::Loop &l, bool uniform) {
  bool u = uniform && (!l.cond || value(*l.cond));
  auto walk = [&](bool body_uniform) {
    Jumps j = block(l.body, body_uniform);
    Jumps s = block(l.step, body_uniform);  // `continue` goes to the step: every thread runs it
    j.brk |= s.brk, j.ret |= s.ret;         // (a do-while's exit may end the step)
    return j;
  };
  Jumps j = walk(u);
  // a break or return taken by part of the threads: their iteration counts differ
  if (u && (j.brk || j.ret)) u = false, j = walk(false);
  if (!u) varying_loops_.insert(&s);
  return {j.ret, false, false};
}

bool Uniformity::barriers(const model::Body &body) const {
  for (const Stmt &s : body) {
    // a grid barrier needs agreement across blocks: blockIdx is not uniform there
    if (const auto *b = s.as<st::Barrier>(); b && (!control(s) || b->kind == model::BarrierKind::Grid))
      return false;
    if (const auto *l = s.as<st::Loop>(); l && !loop(s) && (hasBarrier(l->body) || hasBarrier(l->step)))
      return false;
    for (const model::Body *b : model::children(s))
      if (!barriers(*b)) return false;
  }
  return true;
}

}  // namespace kverify::analysis
