#include "model/walk.hpp"

namespace kverify::model {

std::vector<const Body *> children(const Stmt &s) {
  if (auto *i = s.as<stmt::If>()) return {&i->then_body, &i->else_body};
  if (auto *l = s.as<stmt::Loop>()) return {&l->body, &l->step};
  if (auto *c = s.as<stmt::Inlined>()) return {&c->body};
  return {};
}

std::vector<const Expr *> expressions(const Stmt &s) {
  std::vector<const Expr *> out;
  auto add = [&](const ExprPtr &e) {
    if (e) out.push_back(e.get());
  };
  std::visit(Overloaded{
                 [&](const stmt::Access &a) { add(a.index), add(a.value), add(a.order); },
                 [&](const stmt::Barrier &b) { add(b.mask), add(b.predicate); },
                 [&](const stmt::If &i) { add(i.cond); },
                 [&](const stmt::Loop &l) { add(l.cond); },
                 [&](const stmt::Assign &a) { add(a.value); },
                 [&](const stmt::Assume &a) { add(a.cond), add(a.lo), add(a.hi); },
                 [](const auto &) {},
             },
             s.node);
  return out;
}

void forEachStmt(const Body &body, const std::function<void(const Stmt &)> &f) {
  for (const Stmt &s : body) forEachStmt(s, f);
}

void forEachStmt(const Stmt &s, const std::function<void(const Stmt &)> &f) {
  f(s);
  for (const Body *c : children(s)) forEachStmt(*c, f);
}

void forEachNode(const Expr &e, const std::function<void(const Expr &)> &f) {
  std::vector<const Expr *> todo{&e};
  while (!todo.empty()) {
    const Expr *x = todo.back();
    todo.pop_back();
    f(*x);
    std::vector<const Expr *> ops = operands(*x);
    todo.insert(todo.end(), ops.rbegin(), ops.rend());
  }
}

void forEachExpr(const Body &body, const std::function<void(const Expr &)> &f) {
  forEachStmt(body, [&](const Stmt &s) {
    for (const Expr *e : expressions(s)) forEachNode(*e, f);
  });
}

}  // namespace kverify::model
