#include "model/walk.hpp"

namespace kverify::model {

std::vector<const std::vector<Stmt> *> children(const Stmt &s) {
  switch (s.kind) {
  case Stmt::Kind::If: return {&s.then_body, &s.else_body};
  case Stmt::Kind::Loop: return {&s.body, &s.step};
  case Stmt::Kind::Inlined: return {&s.body};
  default: return {};
  }
}

std::vector<const Expr *> expressions(const Stmt &s) {
  std::vector<const Expr *> out;
  for (const ExprPtr *e : {&s.index, &s.value, &s.cond, &s.mask})
    if (*e) out.push_back(e->get());
  return out;
}

void forEachStmt(const std::vector<Stmt> &body, const std::function<void(const Stmt &)> &f) {
  for (const Stmt &s : body) {
    f(s);
    for (const std::vector<Stmt> *c : children(s)) forEachStmt(*c, f);
  }
}

void forEachNode(const Expr &e, const std::function<void(const Expr &)> &f) {
  std::vector<const Expr *> todo{&e};
  while (!todo.empty()) {
    const Expr *x = todo.back();
    todo.pop_back();
    f(*x);
    for (auto a = x->args.rbegin(); a != x->args.rend(); ++a) todo.push_back(a->get());
  }
}

void forEachExpr(const std::vector<Stmt> &body, const std::function<void(const Expr &)> &f) {
  forEachStmt(body, [&](const Stmt &s) {
    for (const Expr *e : expressions(s)) forEachNode(*e, f);
  });
}

}  // namespace kverify::model
