// KV_ASSUME_FORALL(i, lo, hi, cond), as <kverify.h> spells it:
//   __kverify_assume_forall(lo, hi, [&](long long i) -> bool { return cond; })
// a quantified Assume whose condition reads memory as Elements (statements about what an
// array holds, not accesses of it).
#include "frontend/extractor.hpp"

#include "clang/AST/ExprCXX.h"

namespace kverify::frontend::detail {

using model::Expr;
using model::ExprPtr;

// The lambda an argument is, through the temporaries and copies clang wraps it in.
static const clang::LambdaExpr *lambdaOf(const clang::Expr *e) {
  while (true) {
    e = e->IgnoreImplicit();
    if (const auto *ce = llvm::dyn_cast<clang::CXXConstructExpr>(e); ce && ce->getNumArgs() == 1)
      e = ce->getArg(0);
    else
      return llvm::dyn_cast<clang::LambdaExpr>(e);
  }
}

// `{ return cond; }`: cond.
static const clang::Expr *returnedCondition(const clang::LambdaExpr *l) {
  const auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(l->getBody());
  if (!body || body->size() != 1) return nullptr;
  const auto *ret = llvm::dyn_cast<clang::ReturnStmt>(body->body_front());
  return ret ? ret->getRetValue() : nullptr;
}

void KernelExtractor::assumeForall(const clang::CallExpr *c, clang::SourceRange where) {
  const clang::LambdaExpr *lambda = c->getNumArgs() == 3 ? lambdaOf(c->getArg(2)) : nullptr;
  const clang::Expr *cond = lambda ? returnedCondition(lambda) : nullptr;
  const clang::CXXMethodDecl *op = lambda ? lambda->getCallOperator() : nullptr;
  if (!cond || op->getNumParams() < 1 || op->getNumParams() > 2) {
    unsupported("KV_ASSUME_FORALL",
                "expected a lambda of one or two indices returning the condition: " + textOf(where), where);
    return;
  }
  model::Stmt s{rangeOf(where), model::stmt::Assume{}};
  auto &a = *s.as<model::stmt::Assume>();
  a.lo = Expr::cast(model::Type::i64(), rvalue(c->getArg(0)));
  a.hi = Expr::cast(model::Type::i64(), rvalue(c->getArg(1)));
  for (const clang::ParmVarDecl *p : op->parameters()) {
    if (!p->getType()->isIntegerType()) {
      unsupported("KV_ASSUME_FORALL", "an index that is not an integer: " + textOf(where), where);
      return;
    }
    model::Local l = newLocal(frames_.back().prefix + p->getNameAsString(), typeOf(p->getType()));
    frames_.back().vars[p] = std::make_shared<Binding>(bind::Local{l});
    a.forall.push_back(l);
  }
  in_premise_ = true;
  std::vector<model::Stmt> effects = nested([&] { a.cond = condition(cond); });
  in_premise_ = false;
  if (!effects.empty()) {  // a call, an atomic, an assignment: no longer a statement about memory
    unsupported("KV_ASSUME_FORALL",
                "its condition may only read arrays and compute (no calls, atomics or assignments): " +
                    textOf(cond->getSourceRange()),
                cond->getSourceRange());
    return;
  }
  emit(std::move(s));
}

}  // namespace kverify::frontend::detail
