// Statements: control flow, declarations, returns. Unknown statement kinds are
// reported as unsupported, never skipped.
#include "frontend/extractor.hpp"
#include "model/walk.hpp"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>

namespace kverify::frontend::detail {

using model::Expr;
using model::ExprPtr;
using model::Stmt;
using model::Type;

void KernelExtractor::emitAssign(const model::Local &l, model::ExprPtr value, clang::SourceRange where) {
  emit(Stmt{rangeOf(where), model::stmt::Assign{l, Expr::cast(l.type, std::move(value))}});
}

// `if (!c) break;`
static Stmt exitUnless(ExprPtr c, const model::SourceRange &range) {
  model::stmt::If exit{Expr::unary(model::Type::boolean(), model::UnaryOp::LNot, std::move(c)), {}, {}};
  exit.then_body.push_back(Stmt{range, model::stmt::Break{}});
  return Stmt{range, std::move(exit)};
}

// The pointer variables a loop copies into one another or points at a parameter's
// buffer or a __shared__ array (`p = q`, `T *t = p + i`, `p = tile`).
struct PointerCopies : clang::RecursiveASTVisitor<PointerCopies> {
  std::map<const clang::ValueDecl *, const clang::ValueDecl *> group;  // union-find
  const clang::ValueDecl *find(const clang::ValueDecl *d) {
    while (group.count(d) && group[d] != d) d = group[d];
    return d;
  }
  void copy(const clang::ValueDecl *dst, const clang::Expr *src) {
    src = src->IgnoreParenImpCasts();
    while (const auto *b = llvm::dyn_cast<clang::BinaryOperator>(src)) {  // `q + i`
      if (!b->isAdditiveOp() || !b->getLHS()->getType()->isPointerType()) break;
      src = b->getLHS()->IgnoreParenImpCasts();
    }
    const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(src);
    if (!dst->getType()->isPointerType() || !ref ||
        !(ref->getType()->isPointerType() || ref->getType()->isArrayType()))
      return;
    const clang::ValueDecl *a = find(dst), *b = find(ref->getDecl());
    group[a] = group[b] = b;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *b) {
    if (b->getOpcode() == clang::BO_Assign)
      if (const auto *l = llvm::dyn_cast<clang::DeclRefExpr>(b->getLHS()->IgnoreParens()))
        copy(l->getDecl(), b->getRHS());
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *v) {
    if (v->getInit()) copy(v, v->getInit());
    return true;
  }
};

// Double buffers in two arrays (`t = a; a = b; b = t;` in a loop): the reads at the top
// of the body are translated before the copies that re-point the variables. So before
// the loop, every pointer variable the loop copies into another gets the arrays of all
// of them, listed in one order (its selector re-numbered), and a copy is a plain copy.
void KernelExtractor::widenCopies(const clang::Stmt *loop_stmt, clang::SourceRange where) {
  PointerCopies copies;
  copies.TraverseStmt(const_cast<clang::Stmt *>(loop_stmt));
  // per group: the variables to widen, and the arrays of all its members
  std::map<const clang::ValueDecl *, std::vector<BindingPtr>> groups;
  std::map<const clang::ValueDecl *, std::vector<std::pair<unsigned, uint64_t>>> arrays;
  for (auto &[d, up] : copies.group) {
    const clang::ValueDecl *root = copies.find(d);
    BindingPtr b = lookup(d);
    const bind::Pointer *var = b ? b->as<bind::Pointer>() : nullptr;
    const ptr::Memory *base = var ? var->pointer.as<ptr::Memory>() : nullptr;
    if (base && base->array != ~0u && var->unknown.empty()) {  // a pointer variable or parameter
      arrays[root].push_back({base->array, base->scale});
      for (unsigned a : var->more) arrays[root].push_back({a, base->scale});
      if (var->offset && widenable(b)) groups[root].push_back(b);
    } else if (const auto *v = llvm::dyn_cast<clang::VarDecl>(d); v && !b && v->getType()->isArrayType()) {
      if (std::optional<unsigned> id = globalArray(v)) {  // a __shared__ or __device__ array
        // at the scale of the pointer it decays to (a struct's bytes, a row's elements)
        uint64_t row = sizeOf(ctx_.getAsArrayType(v->getType())->getElementType());
        arrays[root].push_back({*id, std::max<uint64_t>(1, row / std::max(1u, k_.arrays[*id].elem_size))});
      } else
        arrays[root].push_back({~0u, 0});  // leave the group alone
    } else if (b) {
      arrays[root].push_back({~0u, 0});  // a value kverify cannot follow: leave it alone
    }  // else declared in the loop (`T *t = p;`): it only links the others
  }
  // the widened variables point into memory (known above): their arrays, the first one's first
  auto arraysOf = [](const bind::Pointer &v) {
    std::vector<unsigned> mine{v.base().array};
    mine.insert(mine.end(), v.more.begin(), v.more.end());
    return mine;
  };
  for (auto &[root, bs] : groups) {
    const auto &as = arrays[root];
    const auto &first = bs[0]->pointerVar().base();
    uint64_t elem = k_.arrays[first.array].elem_size;
    const uint64_t scale = first.scale;
    if (std::any_of(as.begin(), as.end(), [&](const std::pair<unsigned, uint64_t> &a) {
          return a.first == ~0u || a.second != scale || k_.arrays[a.first].elem_size != elem;
        }))
      continue;  // an assignment in the loop reports it
    std::vector<unsigned> all;
    for (const BindingPtr &b : bs) {  // the widened variables' own arrays first, in order
      for (unsigned a : arraysOf(b->pointerVar()))
        if (std::find(all.begin(), all.end(), a) == all.end()) all.push_back(a);
    }
    for (const auto &a : as)
      if (std::find(all.begin(), all.end(), a.first) == all.end()) all.push_back(a.first);
    if (all.size() < 2) continue;
    for (const BindingPtr &b : bs) {
      bind::Pointer &v = b->pointerVar();
      std::vector<unsigned> mine = arraysOf(v);
      if (mine == all) continue;
      auto index = [&](unsigned a) {
        return Expr::intConst(Type::integer(32, false), std::find(all.begin(), all.end(), a) - all.begin());
      };
      ExprPtr renumbered = index(mine[0]);
      if (v.selector)
        for (size_t i = 1; i < mine.size(); ++i)
          renumbered =
              Expr::select(Expr::binary(Type::boolean(), model::BinaryOp::Eq, Expr::local(*v.selector),
                                        Expr::intConst(v.selector->type, static_cast<int64_t>(i))),
                           index(mine[i]), renumbered);
      startSelector(b, false, where);
      emitAssign(*v.selector, renumbered, where);
      v.base().array = all[0];
      v.more.assign(all.begin() + 1, all.end());
    }
  }
}

void KernelExtractor::loop(model::LoopKind kind, const clang::Stmt *init, const clang::Expr *cond,
                           const clang::VarDecl *cond_var, const clang::Stmt *body, const clang::Expr *inc,
                           clang::SourceRange where) {
  if (init) stmt(init);
  widenCopies(body, where);
  loop_starts_.push_back(++event_);
  model::stmt::Loop l;
  l.kind = kind;
  model::ExprPtr c;
  std::vector<Stmt> pre;
  if (kind != model::LoopKind::Do) {
    pre = nested([&] {
      if (cond_var) declareLocal(cond_var);
      if (cond) c = condition(cond);
    });
  }
  breakables_.push_back({body, {}, {}});
  l.body = nested([&] {
    if (!pre.empty()) {
      // A condition with side effects is evaluated at the top of each iteration.
      for (Stmt &s : pre) emit(std::move(s));
      emit(exitUnless(c, rangeOf(cond ? cond->getSourceRange() : where)));
      c = nullptr;
    }
    stmt(body);
  });
  l.step = nested([&] {
    if (inc) discard(inc);
    if (kind == model::LoopKind::Do) c = condition(cond);
  });
  l.cond = c;
  if (kind == model::LoopKind::Do && !l.step.empty()) {
    // `do { ... } while (flag)` with a load or a `__syncthreads_or` in the condition: the
    // exit at the end of the iteration, after what evaluates the condition, so that its
    // value is the one this iteration computed. Without a `continue`, the body takes it
    // all, as for `while`; a `continue` goes to the step, which then ends with the exit.
    l.step.push_back(exitUnless(c, rangeOf(cond->getSourceRange())));
    l.cond = nullptr;
    if (!continues(l.body)) {
      for (Stmt &s : l.step) l.body.push_back(std::move(s));
      l.step.clear();
    }
  }
  loop_starts_.pop_back();
  emitBreakable(Stmt{rangeOf(where), std::move(l)});
}

void KernelExtractor::emitBreakable(Stmt loop) {
  Breakable done = std::move(breakables_.back());
  breakables_.pop_back();
  for (Stmt &s : done.before) emit(std::move(s));
  emit(std::move(loop));
  for (Stmt &s : done.after) emit(std::move(s));
}

// A `continue` of this loop (not of a loop nested in it).
bool KernelExtractor::continues(const std::vector<Stmt> &body) {
  for (const Stmt &s : body) {
    if (s.is<model::stmt::Continue>()) return true;
    if (!s.is<model::stmt::Loop>())
      for (const model::Body *c : model::children(s))
        if (continues(*c)) return true;
  }
  return false;
}

void KernelExtractor::returnStmt(const clang::ReturnStmt *r) {
  // Copies, not references: evaluating the value may inline calls (frames_ grows).
  BindingPtr result = frames_.back().result;
  bool last = r == frames_.back().last;
  const clang::Expr *value = r->getRetValue();
  if (value && result) {
    if (result->is<bind::Ref>()) {  // the only return (inlineCall checks)
      LValue lv = pinned(lvalue(value), frames_.back().prefix + "result", r->getSourceRange());
      result->as<bind::Ref>()->ref = std::move(lv);
    } else if (result->is<bind::Struct>()) {
      assignStruct(result, value);
    } else if (result->is<bind::Pointer>()) {
      assignPointer(result, value, r->getSourceRange());
    } else {
      ExprPtr v = rvalue(value);
      emitAssign(std::get<bind::Local>(result->node).local, v, r->getSourceRange());
    }
  } else if (value) {
    discard(value);
  }
  if (frames_.size() == 1 || !last) emit(Stmt{rangeOf(r->getSourceRange()), model::stmt::Return{}});
}

void KernelExtractor::stmt(const clang::Stmt *s) {
  if (!s) return;
  Nested level(*this);
  if (tooDeep(s->getSourceRange())) return;
  clang::SourceRange where = s->getSourceRange();
  if (const auto *cs = llvm::dyn_cast<clang::CompoundStmt>(s)) {
    for (const clang::Stmt *c : cs->body()) stmt(c);
  } else if (const auto *ds = llvm::dyn_cast<clang::DeclStmt>(s)) {
    for (const clang::Decl *d : ds->decls())
      if (const auto *v = llvm::dyn_cast<clang::VarDecl>(d)) declareLocal(v);
  } else if (llvm::isa<clang::NullStmt>(s)) {
  } else if (const auto *as = llvm::dyn_cast<clang::AttributedStmt>(s)) {
    stmt(as->getSubStmt());  // #pragma unroll and the like
  } else if (const auto *ls = llvm::dyn_cast<clang::LabelStmt>(s)) {
    stmt(ls->getSubStmt());
  } else if (const auto *is = llvm::dyn_cast<clang::IfStmt>(s)) {
    if (is->getInit()) stmt(is->getInit());
    if (is->isConstexpr()) {
      bool taken = is->getCond()->EvaluateKnownConstInt(ctx_).getBoolValue();
      stmt(taken ? is->getThen() : is->getElse());
      return;
    }
    if (is->getConditionVariable()) declareLocal(is->getConditionVariable());
    model::stmt::If i;
    i.cond = condition(is->getCond());
    i.then_body = nested([&] { stmt(is->getThen()); });
    i.else_body = nested([&] { stmt(is->getElse()); });
    emit(Stmt{rangeOf(where), std::move(i)});
  } else if (const auto *fs = llvm::dyn_cast<clang::ForStmt>(s)) {
    loop(model::LoopKind::For, fs->getInit(), fs->getCond(), fs->getConditionVariable(), fs->getBody(),
         fs->getInc(), where);
  } else if (const auto *ws = llvm::dyn_cast<clang::WhileStmt>(s)) {
    loop(model::LoopKind::While, nullptr, ws->getCond(), ws->getConditionVariable(), ws->getBody(), nullptr,
         where);
  } else if (const auto *dos = llvm::dyn_cast<clang::DoStmt>(s)) {
    loop(model::LoopKind::Do, nullptr, dos->getCond(), nullptr, dos->getBody(), nullptr, where);
  } else if (const auto *rs = llvm::dyn_cast<clang::ReturnStmt>(s)) {
    returnStmt(rs);
  } else if (llvm::isa<clang::BreakStmt>(s)) {
    emit(Stmt{rangeOf(where), model::stmt::Break{}});
  } else if (llvm::isa<clang::ContinueStmt>(s)) {
    emit(Stmt{rangeOf(where), model::stmt::Continue{}});
  } else if (const auto *gs = llvm::dyn_cast<clang::GotoStmt>(s)) {
    gotoStmt(gs);
  } else if (llvm::isa<clang::IndirectGotoStmt>(s)) {
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
  if (!s || llvm::isa<clang::ForStmt>(s) || llvm::isa<clang::WhileStmt>(s) || llvm::isa<clang::DoStmt>(s) ||
      llvm::isa<clang::CXXForRangeStmt>(s))
    return nullptr;
  if (llvm::isa<clang::ContinueStmt>(s)) return s;
  for (const clang::Stmt *c : s->children())
    if (const clang::Stmt *found = continueOutOf(c)) return found;
  return nullptr;
}

// switch (x) { case a: ... } as
//   do { m = false; m = m || x == a; if (m) { ... } ...; } while (false)
// where m says a label has matched: fall-through runs the later cases' statements, a
// `break` leaves the do-while, and `default` matches when no case label does.
void KernelExtractor::switchStmt(const clang::SwitchStmt *sw) {
  clang::SourceRange where = sw->getSourceRange();
  if (sw->getInit()) stmt(sw->getInit());
  if (sw->getConditionVariable()) declareLocal(sw->getConditionVariable());
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
  for (const clang::SwitchCase *sc = sw->getSwitchCaseList(); sc; sc = sc->getNextSwitchCase()) ++labels;
  for (const clang::Stmt *c : body->body())
    for (; const auto *sc = llvm::dyn_cast<clang::SwitchCase>(c); c = sc->getSubStmt()) ++top;
  if (top != labels) {
    unsupported("switch", "a case label inside a nested statement", where);
    return;
  }
  model::Local m = newLocal("switch.matched", Type::boolean());
  auto eq = [&](const ExprPtr &v) { return Expr::binary(Type::boolean(), model::BinaryOp::Eq, x, v); };
  model::stmt::Loop wrap;
  wrap.kind = model::LoopKind::Do;
  wrap.cond = Expr::intConst(Type::boolean(), 0);
  breakables_.push_back({body, {}, {}});
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
      model::stmt::If guarded;
      guarded.cond = Expr::local(m);
      guarded.then_body = nested([&] { stmt(c); });
      emit(Stmt{rangeOf(c->getSourceRange()), std::move(guarded)});
    }
  });
  emitBreakable(Stmt{rangeOf(where), std::move(wrap)});
}

// --- goto ----------------------------------------------------------------------------

namespace {
// Where a goto lands, as the body of the loop (or switch) it leaves: `is_continue` when
// it goes on with that loop's next iteration.
struct GotoTarget {
  const clang::Stmt *body = nullptr;
  bool is_continue = false;
};
}  // namespace

static const clang::Stmt *loopBody(const clang::Stmt *s) {
  if (const auto *f = llvm::dyn_cast<clang::ForStmt>(s)) return f->getBody();
  if (const auto *w = llvm::dyn_cast<clang::WhileStmt>(s)) return w->getBody();
  if (const auto *d = llvm::dyn_cast<clang::DoStmt>(s)) return d->getBody();
  return nullptr;
}

// The body of the loop or switch `s` is (under `#pragma unroll` or labels).
static const clang::Stmt *breakableBody(const clang::Stmt *s) {
  while (true) {
    if (const auto *a = llvm::dyn_cast<clang::AttributedStmt>(s))
      s = a->getSubStmt();
    else if (const auto *l = llvm::dyn_cast<clang::LabelStmt>(s))
      s = l->getSubStmt();
    else
      break;
  }
  if (const auto *sw = llvm::dyn_cast<clang::SwitchStmt>(s)) return sw->getBody();
  return loopBody(s);
}

// A statement that does nothing: `;`, `{}`, `(void)1;`.
static bool doesNothing(const clang::Stmt *s, const clang::ASTContext &ctx) {
  if (llvm::isa<clang::NullStmt>(s)) return true;
  if (const auto *c = llvm::dyn_cast<clang::CompoundStmt>(s)) return c->body_empty();
  const auto *e = llvm::dyn_cast<clang::Expr>(s);
  return e && e->IgnoreParenCasts()->isEvaluatable(ctx);
}

// The loop that `goto label` leaves, searched for in `s`: `label` stands right after a
// loop or switch (a break of it), or is the last statement of a loop's body and does
// nothing (a continue of it).
static std::optional<GotoTarget> gotoTarget(const clang::Stmt *s, const clang::LabelStmt *label,
                                            const clang::ASTContext &ctx) {
  if (!s) return std::nullopt;
  if (const auto *cs = llvm::dyn_cast<clang::CompoundStmt>(s)) {
    const clang::Stmt *prev = nullptr;
    for (const clang::Stmt *c : cs->body()) {
      if (c == label && prev)
        if (const clang::Stmt *body = breakableBody(prev)) return GotoTarget{body, false};
      prev = c;
    }
  }
  if (const auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(loopBody(s)))
    if (!body->body_empty() && body->body_back() == label && doesNothing(label->getSubStmt(), ctx))
      return GotoTarget{body, true};
  for (const clang::Stmt *c : s->children())
    if (std::optional<GotoTarget> t = gotoTarget(c, label, ctx)) return t;
  return std::nullopt;
}

// `goto L` as a break or continue of the enclosing loop it leaves. Out of loops nested in
// that one, a flag is set before breaking the innermost; after each inner loop a test of
// the flag breaks the next one out, and the target loop's test clears it and breaks or
// continues. Any other goto is unsupported.
void KernelExtractor::gotoStmt(const clang::GotoStmt *g) {
  clang::SourceRange where = g->getSourceRange();
  const clang::LabelStmt *label = g->getLabel()->getStmt();
  std::optional<GotoTarget> target =
      label ? gotoTarget(frames_.back().fn->getBody(), label, ctx_) : std::nullopt;
  size_t at = breakables_.size();
  for (size_t i = breakables_.size(); target && i-- > 0;)
    if (breakables_[i].body == target->body) {
      at = i;
      break;
    }
  if (at == breakables_.size()) {
    unsupported("goto", "goto to a label kverify cannot lower to break/continue: " + textOf(where), where);
    return;
  }
  model::SourceRange range = rangeOf(where);
  auto exit = [&](bool of_target) {
    return of_target && target->is_continue ? Stmt{range, model::stmt::Continue{}}
                                            : Stmt{range, model::stmt::Break{}};
  };
  if (at + 1 == breakables_.size()) {
    emit(exit(true));
    return;
  }
  model::Local flag = newLocal(frames_.back().prefix + "goto." + label->getName(), Type::boolean());
  auto setFlag = [&](bool value) {
    return nested([&] { emitAssign(flag, Expr::intConst(Type::boolean(), value), where); });
  };
  for (Stmt &s : setFlag(false)) breakables_[at].before.push_back(std::move(s));
  for (size_t i = at + 1; i < breakables_.size(); ++i) {
    model::stmt::If test;
    test.cond = Expr::local(flag);
    if (i == at + 1)  // back in the target loop's body
      test.then_body = setFlag(false);
    test.then_body.push_back(exit(i == at + 1));
    breakables_[i].after.push_back(Stmt{range, std::move(test)});
  }
  for (Stmt &s : setFlag(true)) emit(std::move(s));
  emit(exit(false));
}

}  // namespace kverify::frontend::detail
