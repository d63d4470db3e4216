// Statements: control flow, declarations, returns. Unknown statement kinds are
// reported as unsupported, never skipped.
#include "frontend/extractor.hpp"

#include "clang/AST/StmtCXX.h"

namespace kverify::frontend::detail {

using model::Expr;
using model::ExprPtr;
using model::Stmt;
using model::Type;

void KernelExtractor::emitAssign(const model::Local &l, model::ExprPtr value,
                                 clang::SourceRange where) {
  Stmt s;
  s.kind = Stmt::Kind::Assign;
  s.local = l;
  s.value = Expr::cast(l.type, std::move(value));
  s.range = rangeOf(where);
  emit(std::move(s));
}

static Stmt simple(Stmt::Kind kind, model::SourceRange range) {
  Stmt s;
  s.kind = kind;
  s.range = std::move(range);
  return s;
}

void KernelExtractor::loop(model::LoopKind kind, const clang::Stmt *init,
                           const clang::Expr *cond, const clang::VarDecl *cond_var,
                           const clang::Stmt *body, const clang::Expr *inc,
                           clang::SourceRange where) {
  if (init)
    stmt(init);
  Stmt l = simple(Stmt::Kind::Loop, rangeOf(where));
  l.loop = kind;
  model::ExprPtr c;
  std::vector<Stmt> pre;
  if (kind != model::LoopKind::Do) {
    pre = nested([&] {
      if (cond_var)
        declareLocal(cond_var);
      if (cond)
        c = condition(cond);
    });
  }
  l.body = nested([&] {
    if (!pre.empty()) {
      // A condition with side effects is evaluated at the top of each iteration.
      for (Stmt &s : pre)
        emit(std::move(s));
      Stmt exit = simple(Stmt::Kind::If, rangeOf(cond ? cond->getSourceRange() : where));
      exit.cond = Expr::unary(model::Type::boolean(), model::UnaryOp::LNot, c);
      exit.then_body.push_back(simple(Stmt::Kind::Break, exit.range));
      emit(std::move(exit));
      c = nullptr;
    }
    stmt(body);
  });
  l.step = nested([&] {
    if (inc)
      discard(inc);
    if (kind == model::LoopKind::Do)
      c = condition(cond);
  });
  l.cond = c;
  if (kind == model::LoopKind::Do && !l.step.empty() && !continues(l.body)) {
    // `do { ... } while (flag)` with a load in the condition: the load and the exit at the
    // end of the body, as for `while`, so that the condition's value is the one this
    // iteration loaded (no `continue` could skip them)
    for (Stmt &s : l.step)
      l.body.push_back(std::move(s));
    l.step.clear();
    Stmt exit = simple(Stmt::Kind::If, rangeOf(cond->getSourceRange()));
    exit.cond = Expr::unary(model::Type::boolean(), model::UnaryOp::LNot, c);
    exit.then_body.push_back(simple(Stmt::Kind::Break, exit.range));
    l.body.push_back(std::move(exit));
    l.cond = nullptr;
  }
  emit(std::move(l));
}

// A `continue` of this loop (not of a loop nested in it).
bool KernelExtractor::continues(const std::vector<Stmt> &body) {
  for (const Stmt &s : body)
    if (s.kind == Stmt::Kind::Continue ||
        (s.kind != Stmt::Kind::Loop && (continues(s.then_body) || continues(s.else_body) || continues(s.body))))
      return true;
  return false;
}

void KernelExtractor::returnStmt(const clang::ReturnStmt *r) {
  // Copies, not references: evaluating the value may inline calls (frames_ grows).
  BindingPtr result = frames_.back().result;
  bool last = r == frames_.back().last;
  const clang::Expr *value = r->getRetValue();
  if (value && result) {
    if (result->kind == Binding::Kind::Struct) {
      assignStruct(result, value);
    } else if (result->kind == Binding::Kind::Pointer) {
      assignPointer(result, value, r->getSourceRange());
    } else {
      ExprPtr v = rvalue(value);
      emitAssign(result->local, v, r->getSourceRange());
    }
  } else if (value) {
    discard(value);
  }
  if (frames_.size() == 1 || !last)
    emit(simple(Stmt::Kind::Return, rangeOf(r->getSourceRange())));
}

void KernelExtractor::stmt(const clang::Stmt *s) {
  if (!s)
    return;
  clang::SourceRange where = s->getSourceRange();
  if (const auto *cs = llvm::dyn_cast<clang::CompoundStmt>(s)) {
    for (const clang::Stmt *c : cs->body())
      stmt(c);
  } else if (const auto *ds = llvm::dyn_cast<clang::DeclStmt>(s)) {
    for (const clang::Decl *d : ds->decls())
      if (const auto *v = llvm::dyn_cast<clang::VarDecl>(d))
        declareLocal(v);
  } else if (llvm::isa<clang::NullStmt>(s)) {
  } else if (const auto *as = llvm::dyn_cast<clang::AttributedStmt>(s)) {
    stmt(as->getSubStmt());  // #pragma unroll and the like
  } else if (const auto *ls = llvm::dyn_cast<clang::LabelStmt>(s)) {
    stmt(ls->getSubStmt());
  } else if (const auto *is = llvm::dyn_cast<clang::IfStmt>(s)) {
    if (is->getInit())
      stmt(is->getInit());
    if (is->isConstexpr()) {
      bool taken = is->getCond()->EvaluateKnownConstInt(ctx_).getBoolValue();
      stmt(taken ? is->getThen() : is->getElse());
      return;
    }
    if (is->getConditionVariable())
      declareLocal(is->getConditionVariable());
    Stmt i = simple(Stmt::Kind::If, rangeOf(where));
    i.cond = condition(is->getCond());
    i.then_body = nested([&] { stmt(is->getThen()); });
    i.else_body = nested([&] { stmt(is->getElse()); });
    emit(std::move(i));
  } else if (const auto *fs = llvm::dyn_cast<clang::ForStmt>(s)) {
    loop(model::LoopKind::For, fs->getInit(), fs->getCond(), fs->getConditionVariable(),
         fs->getBody(), fs->getInc(), where);
  } else if (const auto *ws = llvm::dyn_cast<clang::WhileStmt>(s)) {
    loop(model::LoopKind::While, nullptr, ws->getCond(), ws->getConditionVariable(),
         ws->getBody(), nullptr, where);
  } else if (const auto *dos = llvm::dyn_cast<clang::DoStmt>(s)) {
    loop(model::LoopKind::Do, nullptr, dos->getCond(), nullptr, dos->getBody(), nullptr,
         where);
  } else if (const auto *rs = llvm::dyn_cast<clang::ReturnStmt>(s)) {
    returnStmt(rs);
  } else if (llvm::isa<clang::BreakStmt>(s)) {
    emit(simple(Stmt::Kind::Break, rangeOf(where)));
  } else if (llvm::isa<clang::ContinueStmt>(s)) {
    emit(simple(Stmt::Kind::Continue, rangeOf(where)));
  } else if (llvm::isa<clang::GotoStmt>(s) || llvm::isa<clang::IndirectGotoStmt>(s)) {
    unsupported("goto", textOf(where), where);
  } else if (llvm::isa<clang::AsmStmt>(s)) {
    unsupported("inline asm", textOf(where), where);
  } else if (const auto *sw = llvm::dyn_cast<clang::SwitchStmt>(s)) {
    switchStmt(sw);
  } else if (llvm::isa<clang::CXXForRangeStmt>(s)) {
    unsupported("range-based for", textOf(where), where);
  } else if (llvm::isa<clang::CXXTryStmt>(s)) {
    unsupported("try", "exceptions in device code", where);
  } else if (const auto *e = llvm::dyn_cast<clang::Expr>(s)) {
    discard(e);
  } else {
    unsupported("statement", s->getStmtClassName(), where);
  }
}

// A `continue` that would leave the switch for its enclosing loop (not inside a loop of
// its own).
static const clang::Stmt *continueOutOf(const clang::Stmt *s) {
  if (!s || llvm::isa<clang::ForStmt>(s) || llvm::isa<clang::WhileStmt>(s) ||
      llvm::isa<clang::DoStmt>(s) || llvm::isa<clang::CXXForRangeStmt>(s))
    return nullptr;
  if (llvm::isa<clang::ContinueStmt>(s))
    return s;
  for (const clang::Stmt *c : s->children())
    if (const clang::Stmt *found = continueOutOf(c))
      return found;
  return nullptr;
}

// switch (x) { case a: ... } as
//   do { m = false; m = m || x == a; if (m) { ... } ...; } while (false)
// where m says a label has matched: fall-through runs the later cases' statements, a
// `break` leaves the do-while, and `default` matches when no case label does.
void KernelExtractor::switchStmt(const clang::SwitchStmt *sw) {
  clang::SourceRange where = sw->getSourceRange();
  if (sw->getInit())
    stmt(sw->getInit());
  if (sw->getConditionVariable())
    declareLocal(sw->getConditionVariable());
  const auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(sw->getBody());
  if (!body) {
    unsupported("switch", "a switch whose body is not a block", where);
    return;
  }
  if (const clang::Stmt *c = continueOutOf(body)) {
    unsupported("switch", "continue inside a switch: " + textOf(c->getSourceRange()), where);
    return;
  }
  const clang::Expr *cond = sw->getCond();
  ExprPtr x = snapshot(rvalue(cond), "switch", where);
  // the case values, for `default`
  std::vector<ExprPtr> values;
  for (const clang::SwitchCase *sc = sw->getSwitchCaseList(); sc; sc = sc->getNextSwitchCase())
    if (const auto *cs = llvm::dyn_cast<clang::CaseStmt>(sc)) {
      if (cs->caseStmtIsGNURange()) {
        unsupported("switch", "a case range: " + textOf(cs->getSourceRange()), where);
        return;
      }
      values.push_back(Expr::intConst(x->type, cs->getLHS()->EvaluateKnownConstInt(ctx_).getExtValue()));
    }
  // every label must stand directly in the block (not inside an if or a loop: Duff's device)
  size_t labels = 0, top = 0;
  for (const clang::SwitchCase *sc = sw->getSwitchCaseList(); sc; sc = sc->getNextSwitchCase())
    ++labels;
  for (const clang::Stmt *c : body->body())
    for (; const auto *sc = llvm::dyn_cast<clang::SwitchCase>(c); c = sc->getSubStmt())
      ++top;
  if (top != labels) {
    unsupported("switch", "a case label inside a nested statement", where);
    return;
  }
  model::Local m = newLocal("switch.matched", Type::boolean());
  auto eq = [&](const ExprPtr &v) { return Expr::binary(Type::boolean(), model::BinaryOp::Eq, x, v); };
  Stmt wrap = simple(Stmt::Kind::Loop, rangeOf(where));
  wrap.loop = model::LoopKind::Do;
  wrap.cond = Expr::intConst(Type::boolean(), 0);
  wrap.body = nested([&] {
    emitAssign(m, Expr::intConst(Type::boolean(), 0), where);
    for (const clang::Stmt *c : body->body()) {
      // the labels in front of this statement widen the match
      while (const auto *sc = llvm::dyn_cast<clang::SwitchCase>(c)) {
        ExprPtr hit;
        if (const auto *cs = llvm::dyn_cast<clang::CaseStmt>(sc)) {
          hit = eq(Expr::intConst(x->type, cs->getLHS()->EvaluateKnownConstInt(ctx_).getExtValue()));
        } else {  // default: no case label matches
          hit = Expr::intConst(Type::boolean(), 1);
          for (const ExprPtr &v : values)
            hit = Expr::binary(Type::boolean(), model::BinaryOp::LAnd, hit,
                               Expr::unary(Type::boolean(), model::UnaryOp::LNot, eq(v)));
        }
        emitAssign(m, Expr::binary(Type::boolean(), model::BinaryOp::LOr, Expr::local(m), hit), where);
        c = sc->getSubStmt();
      }
      Stmt guarded = simple(Stmt::Kind::If, rangeOf(c->getSourceRange()));
      guarded.cond = Expr::local(m);
      guarded.then_body = nested([&] { stmt(c); });
      emit(std::move(guarded));
    }
  });
  emit(std::move(wrap));
}

}  // namespace kverify::frontend::detail
