// Expressions: rvalues (casts, operators, assignments, conditionals). L-values are in
// extract_lvalues.cpp, pointers in extract_pointers.cpp, structs in extract_structs.cpp,
// calls (builtins and inlining) in extract_calls.cpp.
// C semantics stay visible: every conversion is an explicit Cast, every memory read or
// write an Access statement, every value kverify cannot compute an Opaque.
#include "frontend/extractor.hpp"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecordLayout.h"

#include <functional>

namespace kverify::frontend::detail {

using model::Expr;
using model::ExprPtr;
using model::Stmt;
using model::Type;

const ExprPtr &zero64() {
  static const ExprPtr z = Expr::intConst(Type::i64(), 0);
  return z;
}

// base + idx * scale (base - idx * scale), i64; an i64 constant idx (a field's offset) is
// folded into a constant base or base's constant term (`p[t].in.lo`: `t * 16 + 8`).
ExprPtr addIndex(ExprPtr base, ExprPtr idx, uint64_t scale, bool subtract) {
  idx = Expr::cast(Type::i64(), std::move(idx));
  const auto *k = idx->as<model::expr::Const>();
  if (k)
    idx = Expr::intConst(Type::i64(), k->int_value * static_cast<int64_t>(scale));
  else if (scale != 1)
    idx = Expr::binary(Type::i64(), model::BinaryOp::Mul, idx,
                       Expr::intConst(Type::i64(), static_cast<int64_t>(scale)));
  const auto *c = base->as<model::expr::Const>();
  if (c && c->int_value == 0 && !subtract) return idx;
  if (k) {  // fold into a constant base, or the constant term of base + c
    int64_t d =
        subtract ? -idx->as<model::expr::Const>()->int_value : idx->as<model::expr::Const>()->int_value;
    if (c) return Expr::intConst(Type::i64(), c->int_value + d);
    const auto *b = base->as<model::expr::Binary>();
    const auto *bc = b && b->op == model::BinaryOp::Add ? b->rhs->as<model::expr::Const>() : nullptr;
    if (bc && base->type == Type::i64()) {
      int64_t sum = bc->int_value + d;
      return sum == 0
                 ? b->lhs
                 : Expr::binary(Type::i64(), model::BinaryOp::Add, b->lhs, Expr::intConst(Type::i64(), sum));
    }
    if (d == 0) return base;
  }
  return Expr::binary(Type::i64(), subtract ? model::BinaryOp::Sub : model::BinaryOp::Add, std::move(base),
                      idx);
}

// Strips the wrappers that do not change what an expression computes.
const clang::Expr *strip(const clang::Expr *e) {
  while (true) {
    e = e->IgnoreParens();
    if (const auto *w = llvm::dyn_cast<clang::ExprWithCleanups>(e))
      e = w->getSubExpr();
    else if (const auto *c = llvm::dyn_cast<clang::ConstantExpr>(e))
      e = c->getSubExpr();
    else if (const auto *b = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e))
      e = b->getSubExpr();
    else if (const auto *s = llvm::dyn_cast<clang::SubstNonTypeTemplateParmExpr>(e))
      e = s->getReplacement();
    else if (const auto *d = llvm::dyn_cast<clang::CXXDefaultArgExpr>(e))
      e = d->getExpr();
    else if (const auto *di = llvm::dyn_cast<clang::CXXDefaultInitExpr>(e))
      e = di->getExpr();
    else
      return e;
  }
}

ExprPtr KernelExtractor::opaque(clang::QualType t, const std::string &what) {
  return Expr::opaque(typeOf(t), newId(), what);
}

ExprPtr KernelExtractor::unsupportedValue(clang::QualType t, std::string construct, std::string detail,
                                          clang::SourceRange where) {
  unsupported(construct, std::move(detail), where);
  return opaque(t, "unsupported " + construct);
}

BindingPtr KernelExtractor::valueBinding(ExprPtr v) {
  return std::make_shared<Binding>(bind::Value{std::move(v)});
}

ExprPtr KernelExtractor::snapshot(ExprPtr v, const std::string &name, clang::SourceRange where) {
  namespace ex = model::expr;
  if (v->is<ex::Const>() || v->is<ex::Param>() || v->is<ex::Builtin>() || v->is<ex::NotNull>() ||
      v->is<ex::Address>())
    return v;
  model::Local tmp = newLocal(frames_.back().prefix + name, v->type);
  emitAssign(tmp, v, where);
  return Expr::local(tmp);
}

// --- rvalues ---------------------------------------------------------------------------

ExprPtr KernelExtractor::condition(const clang::Expr *e) { return Expr::cast(Type::boolean(), rvalue(e)); }

void KernelExtractor::discard(const clang::Expr *e) {
  e = strip(e);
  if (const auto *ce = llvm::dyn_cast<clang::CXXConstructExpr>(e);
      ce && ce->getNumArgs() == 0 && ce->getConstructor()->isTrivial())
    return;  // trivial default construction (`V a[4];`): does nothing
  if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(e); u && u->isIncrementDecrementOp()) {
    incDecValue(u, /*value_used=*/false);
    return;
  }
  if (const auto *il = llvm::dyn_cast<clang::InitListExpr>(e)) {
    for (const clang::Expr *i : il->inits()) discard(i);
    return;
  }
  if (const auto *c = llvm::dyn_cast<clang::CallExpr>(e)) {
    call(c);
    return;
  }
  if (const auto *c = llvm::dyn_cast<clang::ConditionalOperator>(e); c && !c->getType()->isRecordType()) {
    // `c ? (s[i] = x) : (s[j] = y);` as a statement: the chosen arm's effects happen
    ExprPtr cond = condition(c->getCond());
    std::vector<Stmt> then_effects = nested([&] { discard(c->getTrueExpr()); });
    std::vector<Stmt> else_effects = nested([&] { discard(c->getFalseExpr()); });
    armEffects(c, cond, std::move(then_effects), std::move(else_effects));
    return;
  }
  if (e->isGLValue() && !llvm::isa<clang::BinaryOperator>(e) && !llvm::isa<clang::UnaryOperator>(e) &&
      !llvm::isa<clang::CallExpr>(e))
    return;  // a bare name or subscript: no load in C++ (e.g. `(void)x;`)
  if (e->getType()->isRecordType()) {
    BindingPtr scratch = freshStruct(e->getType(), "discarded");
    assignStruct(scratch, e);
    return;
  }
  if (isFunctionValue(e)) {
    functionTag(e);
    return;
  }
  if (const auto *b = llvm::dyn_cast<clang::BinaryOperator>(e); b && b->isAssignmentOp()) {
    assignment(b);
    return;
  }
  if (e->getType()->isPointerType()) {
    pointerValue(e);  // its side effects; a value it cannot follow is no error unused
    return;
  }
  if (const auto *c = llvm::dyn_cast<clang::CastExpr>(e); c && c->getCastKind() == clang::CK_ToVoid) {
    discard(c->getSubExpr());
    return;
  }
  rvalue(e);
}

// Whether `body` nests deeper than `limit` (an explicit stack: no recursion over it).
static bool nestsDeeper(const clang::Stmt *body, unsigned limit) {
  std::vector<std::pair<const clang::Stmt *, unsigned>> todo{{body, 1}};
  while (!todo.empty()) {
    auto [s, depth] = todo.back();
    todo.pop_back();
    if (!s) continue;
    if (depth > limit) return true;
    for (const clang::Stmt *child : s->children()) todo.push_back({child, depth + 1});
  }
  return false;
}

// A function body to translate: false (and `unsupported`) when it nests too deep, checked
// before translating anything (a translation that folds constants at every level would be
// quadratic in the depth).
bool KernelExtractor::shallowEnough(const clang::Stmt *body) {
  if (!body || !nestsDeeper(body, kMaxNesting)) return true;
  nesting_ += kMaxNesting + 1;
  tooDeep(body->getSourceRange());
  nesting_ -= kMaxNesting + 1;
  return false;
}

bool KernelExtractor::tooDeep(clang::SourceRange where) {
  if (nesting_ <= kMaxNesting) return false;
  if (!said_too_deep_)
    unsupported("nesting deeper than " + std::to_string(kMaxNesting) + " levels",
                "expressions and statements nested this deep are not modelled", where);
  said_too_deep_ = true;
  return true;
}

ExprPtr KernelExtractor::rvalue(const clang::Expr *e) {
  Nested level(*this);
  if (tooDeep(e->getSourceRange())) return opaque(e->getType(), "too deep");
  e = strip(e);
  clang::QualType t = e->getType();
  // Integer constant expressions (literals, enumerators, sizeof, constexpr and
  // template constants) fold to their value.
  if (!e->isValueDependent() && t->isIntegralOrEnumerationType() && !e->HasSideEffects(ctx_)) {
    clang::Expr::EvalResult r;
    if (e->EvaluateAsInt(r, ctx_) && r.Val.getInt().getBitWidth() <= 64) {
      const llvm::APSInt &v = r.Val.getInt();
      return Expr::intConst(typeOf(t),
                            v.isSigned() ? v.getSExtValue() : static_cast<int64_t>(v.getZExtValue()));
    }
  }
  if (isFunctionValue(e)) return functionTag(e);
  if (t->isPointerType()) {
    pointer(e);  // side effects only: pointers are values of the model only as offsets
    return opaque(t, "pointer value " + textOf(e->getSourceRange()));
  }
  if (const auto *f = llvm::dyn_cast<clang::FloatingLiteral>(e))
    return Expr::floatConst(typeOf(t), f->getValueAsApproximateDouble());
  if (const auto *c = llvm::dyn_cast<clang::CastExpr>(e)) return cast(c);
  if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
    Type ty = typeOf(t);
    switch (u->getOpcode()) {
      case clang::UO_Minus: return Expr::unary(ty, model::UnaryOp::Neg, rvalue(u->getSubExpr()));
      case clang::UO_Not: return Expr::unary(ty, model::UnaryOp::BitNot, rvalue(u->getSubExpr()));
      case clang::UO_LNot: return Expr::unary(ty, model::UnaryOp::LNot, condition(u->getSubExpr()));
      case clang::UO_Plus:
      case clang::UO_Extension: return rvalue(u->getSubExpr());
      case clang::UO_PreInc:
      case clang::UO_PreDec:
      case clang::UO_PostInc:
      case clang::UO_PostDec: return incDecValue(u, true);
      default: break;
    }
  }
  if (const auto *b = llvm::dyn_cast<clang::BinaryOperator>(e)) return binaryOp(b);
  if (const auto *c = llvm::dyn_cast<clang::ConditionalOperator>(e)) return conditional(c);
  if (llvm::isa<clang::CUDAKernelCallExpr>(e))
    return unsupportedValue(t, "dynamic parallelism", "kernel launch from device code", e->getSourceRange());
  if (const auto *c = llvm::dyn_cast<clang::CallExpr>(e)) return bindingValue(call(c), e);
  if (const auto *m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e)) return rvalue(m->getSubExpr());
  if (const auto *il = llvm::dyn_cast<clang::InitListExpr>(e); il && il->getNumInits() <= 1)
    return il->getNumInits() ? Expr::cast(typeOf(t), rvalue(il->getInit(0))) : Expr::intConst(typeOf(t), 0);
  if (llvm::isa<clang::CXXScalarValueInitExpr>(e) || llvm::isa<clang::ImplicitValueInitExpr>(e))
    return t->isRealFloatingType() ? Expr::floatConst(typeOf(t), 0) : Expr::intConst(typeOf(t), 0);
  if (e->isGLValue()) return loadValue(e);
  if (llvm::isa<clang::LambdaExpr>(e))
    return unsupportedValue(t, "lambda", textOf(e->getSourceRange()), e->getSourceRange());
  return unsupportedValue(t, "expression", e->getStmtClassName(), e->getSourceRange());
}

ExprPtr KernelExtractor::cast(const clang::CastExpr *c) {
  const clang::Expr *sub = c->getSubExpr();
  Type to = typeOf(c->getType());
  switch (c->getCastKind()) {
    case clang::CK_LValueToRValue:
      // `c ? x : y` on lvalues of one type is an lvalue; its value is the rvalue select.
      if (const auto *co = llvm::dyn_cast<clang::ConditionalOperator>(strip(sub))) return conditional(co);
      // `a = b = 0`: the inner assignment's value is what it stored (a read of the element
      // again races only where its store does too)
      if (const auto *as = llvm::dyn_cast<clang::BinaryOperator>(strip(sub));
          as && as->isAssignmentOp() && as->getType()->isArithmeticType())
        return Expr::cast(to, assignment(as));
      return loadValue(sub);
    case clang::CK_NoOp:
    case clang::CK_UserDefinedConversion: return Expr::cast(to, rvalue(sub));
    case clang::CK_IntegralCast:
    case clang::CK_IntegralToBoolean:
    case clang::CK_FloatingToIntegral:
    case clang::CK_IntegralToFloating:
    case clang::CK_FloatingCast:
    case clang::CK_FloatingToBoolean: return Expr::cast(to, rvalue(sub));
    case clang::CK_BooleanToSignedIntegral:
      return Expr::select(condition(sub), Expr::intConst(to, -1), Expr::intConst(to, 0));
    case clang::CK_PointerToBoolean: return Expr::cast(to, notNull(sub));
    case clang::CK_PointerToIntegral: {
      // An address as an integer (alignment checks). Into a pointer parameter's buffer: its
      // unknown base address, the same for every thread, plus the offset in bytes;
      // elsewhere an unknown value.
      ExprPtr address = addressOf(pointer(sub), false);
      return address ? Expr::cast(to, address)
                     : opaque(c->getType(), "address " + textOf(sub->getSourceRange()));
    }
    case clang::CK_ToVoid: discard(sub); return Expr::intConst(Type::other(), 0);
    default: return unsupportedValue(c->getType(), "cast", c->getCastKindName(), c->getSourceRange());
  }
}

static model::BinaryOp binaryOpOf(clang::BinaryOperatorKind op, bool &ok) {
  using B = model::BinaryOp;
  ok = true;
  switch (op) {
    case clang::BO_Mul:
    case clang::BO_MulAssign: return B::Mul;
    case clang::BO_Div:
    case clang::BO_DivAssign: return B::Div;
    case clang::BO_Rem:
    case clang::BO_RemAssign: return B::Rem;
    case clang::BO_Add:
    case clang::BO_AddAssign: return B::Add;
    case clang::BO_Sub:
    case clang::BO_SubAssign: return B::Sub;
    case clang::BO_Shl:
    case clang::BO_ShlAssign: return B::Shl;
    case clang::BO_Shr:
    case clang::BO_ShrAssign: return B::Shr;
    case clang::BO_And:
    case clang::BO_AndAssign: return B::BitAnd;
    case clang::BO_Xor:
    case clang::BO_XorAssign: return B::BitXor;
    case clang::BO_Or:
    case clang::BO_OrAssign: return B::BitOr;
    case clang::BO_LT: return B::Lt;
    case clang::BO_GT: return B::Gt;
    case clang::BO_LE: return B::Le;
    case clang::BO_GE: return B::Ge;
    case clang::BO_EQ: return B::Eq;
    case clang::BO_NE: return B::Ne;
    case clang::BO_LAnd: return B::LAnd;
    case clang::BO_LOr: return B::LOr;
    default: ok = false; return B::Add;
  }
}

ExprPtr KernelExtractor::binaryOp(const clang::BinaryOperator *b) {
  if (b->isAssignmentOp()) return assignment(b);
  if (b->getOpcode() == clang::BO_Comma) {
    discard(b->getLHS());
    return rvalue(b->getRHS());
  }
  if (b->isLogicalOp()) return shortCircuit(b);
  bool ok = false;
  model::BinaryOp op = binaryOpOf(b->getOpcode(), ok);
  if (!ok) return unsupportedValue(b->getType(), "operator", b->getOpcodeStr().str(), b->getSourceRange());
  Type t = typeOf(b->getType());
  const clang::Expr *l = b->getLHS(), *r = b->getRHS();
  if (l->getType()->isPointerType() && r->getType()->isPointerType() &&
      (isFunctionValue(l) || isFunctionValue(r)))
    return compareFunctions(b);
  if (l->getType()->isPointerType() && r->getType()->isPointerType()) {
    const auto npc = clang::Expr::NPC_ValueDependentIsNotNull;
    const bool l_null = l->isNullPointerConstant(ctx_, npc) != clang::Expr::NPCK_NotNull;
    const bool r_null = r->isNullPointerConstant(ctx_, npc) != clang::Expr::NPCK_NotNull;
    if ((op == model::BinaryOp::Ne || op == model::BinaryOp::Eq) && l_null != r_null) {
      ExprPtr not_null = notNull(l_null ? r : l);
      return op == model::BinaryOp::Ne ? not_null
                                       : Expr::unary(Type::boolean(), model::UnaryOp::LNot, not_null);
    }
    // Pointer difference and comparison: meaningful within one array.
    std::optional<Pointer> pl = pointer(l), pr = pointer(r);
    const ptr::Memory *ml = pl ? pl->as<ptr::Memory>() : nullptr, *mr = pr ? pr->as<ptr::Memory>() : nullptr;
    if (ml && mr && ml->array == mr->array && ml->scale == mr->scale) {
      if (op == model::BinaryOp::Sub)
        return Expr::cast(t, Expr::binary(Type::i64(), model::BinaryOp::Div,
                                          Expr::binary(Type::i64(), op, ml->offset, mr->offset),
                                          Expr::intConst(Type::i64(), static_cast<int64_t>(ml->scale))));
      return Expr::binary(t, op, ml->offset, mr->offset);
    }
    return opaque(b->getType(), "comparison of pointers " + textOf(b->getSourceRange()));
  }
  ExprPtr lv = rvalue(l), rv = rvalue(r);
  if (op == model::BinaryOp::Shl || op == model::BinaryOp::Shr)
    rv = Expr::cast(t, rv);  // the model's shifts take operands of one type
  return Expr::binary(t, op, lv, rv);
}

// Whether pointer `e` is not null. A pointer into a kernel parameter's memory is null
// for every thread or for none: a uniform, otherwise unknown boolean, so
// `if (p != nullptr) __syncthreads();` is not a divergence. Shared and local memory is
// never null. Anything else is an opaque per-thread value.
ExprPtr KernelExtractor::notNull(const clang::Expr *e) {
  if (isFunctionValue(e)) return functionNotNull(e);
  std::optional<Pointer> p = pointer(e);
  if (const ptr::Memory *m = p ? p->as<ptr::Memory>() : nullptr) {
    const model::Array &a = k_.arrays[m->array];
    if (a.origin == model::ArrayOrigin::Param) return Expr::notNull(m->array, a.name);
    if (a.space == model::AddressSpace::Shared || a.space == model::AddressSpace::Local)
      return Expr::intConst(Type::boolean(), 1);
  }
  return opaque(ctx_.BoolTy, "pointer " + textOf(e->getSourceRange()) + " is not null");
}

ExprPtr KernelExtractor::shortCircuit(const clang::BinaryOperator *b) {
  bool ok = false;
  model::BinaryOp op = binaryOpOf(b->getOpcode(), ok);
  ExprPtr l = condition(b->getLHS());
  ExprPtr r;
  std::vector<Stmt> rhs_effects = nested([&] { r = condition(b->getRHS()); });
  if (!rhs_effects.empty()) {
    // The right operand's accesses and calls happen only when the left one does not
    // decide the result.
    l = snapshot(l, "lhs", b->getLHS()->getSourceRange());
    model::stmt::If s;
    s.cond = op == model::BinaryOp::LAnd ? l : Expr::unary(Type::boolean(), model::UnaryOp::LNot, l);
    s.then_body = std::move(rhs_effects);
    emit(Stmt{rangeOf(b->getSourceRange()), std::move(s)});
  }
  return Expr::binary(Type::boolean(), op, l, r);
}

ExprPtr KernelExtractor::conditional(const clang::ConditionalOperator *c) {
  if (c->getType()->isRecordType())
    return unsupportedValue(c->getType(), "conditional of structs", textOf(c->getSourceRange()),
                            c->getSourceRange());
  Type t = typeOf(c->getType());
  ExprPtr cond = condition(c->getCond());
  if (const auto *k = cond->as<model::expr::Const>())  // `N == 32 ? ... : ...` in a template
    return Expr::cast(t, rvalue(k->int_value ? c->getTrueExpr() : c->getFalseExpr()));
  ExprPtr a, b;
  std::vector<Stmt> then_effects = nested([&] { a = rvalue(c->getTrueExpr()); });
  std::vector<Stmt> else_effects = nested([&] { b = rvalue(c->getFalseExpr()); });
  cond = armEffects(c, cond, std::move(then_effects), std::move(else_effects));
  return Expr::select(cond, Expr::cast(t, a), Expr::cast(t, b));
}

// The side effects of the arms of `c`, each under its side of `cond`, as an If; the
// condition, taken before the arms run (the one to select the value by).
ExprPtr KernelExtractor::armEffects(const clang::ConditionalOperator *c, ExprPtr cond,
                                    std::vector<Stmt> then_effects, std::vector<Stmt> else_effects) {
  if (then_effects.empty() && else_effects.empty()) return cond;
  cond = snapshot(cond, "cond", c->getCond()->getSourceRange());
  emit(Stmt{rangeOf(c->getSourceRange()),
            model::stmt::If{cond, std::move(then_effects), std::move(else_effects)}});
  return cond;
}

ExprPtr KernelExtractor::assignment(const clang::BinaryOperator *b) {
  const clang::Expr *lhs = b->getLHS();
  clang::QualType lt = lhs->getType();
  Type ty = typeOf(lt);
  if (lt->isPointerType() && isFunctionValue(lhs)) return assignFunction(b);
  if (lt->isPointerType()) {
    LValue lv = lvalue(lhs);
    const auto *var = lv.as<lval::PointerVar>();
    if (!var) {
      // a pointer stored in memory: its address, where it is one value for all the
      // threads that may race on the store (benign races); a load of it is not followed
      std::optional<Pointer> p = pointerValue(b->getRHS());
      if (const auto *m = lv.as<lval::Memory>()) {
        ExprPtr address = addressOf(p, k_.arrays[m->array].space == model::AddressSpace::Shared);
        store(lv, address ? address : opaque(lt, "pointer"), lhs);
        return opaque(lt, "pointer");
      }
      return unsupportedValue(lt, "pointer assignment", textOf(b->getSourceRange()), b->getSourceRange());
    }
    if (b->getOpcode() == clang::BO_Assign) {
      assignPointer(var->binding, b->getRHS(), b->getSourceRange());
    } else if (b->getOpcode() == clang::BO_AddAssign || b->getOpcode() == clang::BO_SubAssign) {
      ExprPtr k = rvalue(b->getRHS());
      std::optional<Pointer> p = pointerOfBinding(var->binding);
      const bind::Pointer &v = var->binding->pointerVar();
      if (p && (p->is<ptr::Memory>() || p->is<ptr::Choice>()) && v.offset)
        emitAssign(*v.offset,
                   addIndex(Expr::local(*v.offset), k, v.base().scale, b->getOpcode() == clang::BO_SubAssign),
                   b->getSourceRange());
      else
        unsupported("pointer arithmetic", textOf(b->getSourceRange()), b->getSourceRange());
    } else {
      unsupported("pointer arithmetic", textOf(b->getSourceRange()), b->getSourceRange());
    }
    return opaque(lt, "pointer");
  }
  // C++17: the right operand is sequenced before the left one.
  ExprPtr value = rvalue(b->getRHS());
  auto update = [&](const LValue &lv, ExprPtr v) {  // the value a compound assignment stores
    if (b->getOpcode() != clang::BO_Assign) {
      const auto *ca = llvm::cast<clang::CompoundAssignOperator>(b);
      bool ok = false;
      model::BinaryOp op = binaryOpOf(b->getOpcode(), ok);
      Type comp = typeOf(ca->getComputationLHSType());
      Type res = typeOf(ca->getComputationResultType());
      ExprPtr old = load(lv, lhs);
      v = Expr::binary(res, op, Expr::cast(comp, old), Expr::cast(comp, v));
    }
    return Expr::cast(ty, v);
  };
  const clang::Expr *cptr = nullptr, *cidx = nullptr;
  if (conditionalAccess(lhs, cptr, cidx)) {
    // `(c ? p : q)[i] = v`: `if (c) p[i] = v; else q[i] = v;`
    value = snapshot(value, "stored", b->getRHS()->getSourceRange());
    ExprPtr r = throughConditional(cptr, cidx, lhs, [&](const LValue &lv) {
      ExprPtr v = update(lv, value);
      store(lv, v, lhs);
      return v;
    });
    return r ? r : opaque(lt, "unsupported assignment");
  }
  LValue lv = lvalue(lhs);
  value = update(lv, value);
  if (const auto *l = lv.as<lval::Local>()) {
    store(lv, value, lhs);
    return Expr::local(l->local);
  }
  store(lv, value, lhs);
  return value;
}

ExprPtr KernelExtractor::incDecValue(const clang::UnaryOperator *u, bool value_used) {
  const clang::Expr *sub = u->getSubExpr();
  clang::QualType t = sub->getType();
  bool inc = u->isIncrementOp();
  if (t->isPointerType()) {
    pointer(u);  // the pointer case lives with the pointers
    return opaque(t, "pointer");
  }
  Type ty = typeOf(t);
  LValue lv = lvalue(sub);
  ExprPtr old = load(lv, sub);
  if (value_used && u->isPostfix()) old = snapshot(old, "old", sub->getSourceRange());
  ExprPtr one = ty.kind == Type::Kind::Float ? Expr::floatConst(ty, 1) : Expr::intConst(ty, 1);
  ExprPtr updated = Expr::binary(ty, inc ? model::BinaryOp::Add : model::BinaryOp::Sub, old, one);
  store(lv, updated, sub);
  if (u->isPostfix()) return old;
  const auto *l = lv.as<lval::Local>();
  return l ? Expr::local(l->local) : updated;
}

// --- accesses through a conditional pointer ---------------------------------------------

// `c ? p : q` of pointer type, through parentheses and lvalue-to-rvalue or qualification
// conversions; null otherwise.
static const clang::ConditionalOperator *conditionalPointer(const clang::Expr *e) {
  e = strip(e);
  while (const auto *ic = llvm::dyn_cast<clang::ImplicitCastExpr>(e)) {
    if (ic->getCastKind() != clang::CK_LValueToRValue && ic->getCastKind() != clang::CK_NoOp) break;
    e = strip(ic->getSubExpr());
  }
  const auto *c = llvm::dyn_cast<clang::ConditionalOperator>(e);
  if (!c || !c->getType()->isPointerType() || c->getType()->isFunctionPointerType()) return nullptr;
  return c;
}

// Whether lvalue `e` is `(c ? p : q)[i]` (ptr, idx) or `*(c ? p : q)` (ptr, no idx).
bool KernelExtractor::conditionalAccess(const clang::Expr *e, const clang::Expr *&ptr,
                                        const clang::Expr *&idx) {
  e = strip(e);
  if (const auto *a = llvm::dyn_cast<clang::ArraySubscriptExpr>(e);
      a && a->getBase() == a->getLHS() && conditionalPointer(a->getBase())) {
    ptr = a->getBase();
    idx = a->getIdx();
    return true;
  }
  if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(e);
      u && u->getOpcode() == clang::UO_Deref && conditionalPointer(u->getSubExpr())) {
    ptr = u->getSubExpr();
    idx = nullptr;
    return true;
  }
  return false;
}

// Runs `access` on `ptr[idx]` (`*ptr` without idx), `where` being that lvalue. Where
// `ptr` is `c ? p : q`, the model has one array per access, so each arm gets its own:
// an If on `c` (evaluated once) with `access(p[idx])` in one branch and `access(q[idx])`
// in the other, the index evaluated in each after its pointer; the result is the select
// of the two results (null where either is unknown).
ExprPtr KernelExtractor::throughConditional(const clang::Expr *ptr, const clang::Expr *idx,
                                            const clang::Expr *where,
                                            const std::function<ExprPtr(const LValue &)> &access) {
  if (const clang::ConditionalOperator *c = conditionalPointer(ptr)) {
    ExprPtr cond = condition(c->getCond());
    ExprPtr a, b;
    std::vector<Stmt> then_effects =
        nested([&] { a = throughConditional(c->getTrueExpr(), idx, where, access); });
    std::vector<Stmt> else_effects =
        nested([&] { b = throughConditional(c->getFalseExpr(), idx, where, access); });
    cond = armEffects(c, cond, std::move(then_effects), std::move(else_effects));
    if (!a || !b) return nullptr;
    return Expr::select(cond, a, Expr::cast(a->type, b));
  }
  std::optional<Pointer> p = pointerValue(ptr);
  LValue lv = pointee(p, idx ? rvalue(idx) : nullptr, where);
  if (!lv.valid()) return nullptr;
  return access(lv);
}

// The value of glvalue `e`.
ExprPtr KernelExtractor::loadValue(const clang::Expr *e) {
  const clang::Expr *ptr = nullptr, *idx = nullptr;
  if (conditionalAccess(e, ptr, idx)) {
    ExprPtr v = throughConditional(ptr, idx, e, [&](const LValue &lv) { return load(lv, e); });
    return v ? v : opaque(e->getType(), "unsupported load");
  }
  return load(lvalue(e), e);
}

// --- lvalues and memory ----------------------------------------------------------------

}  // namespace kverify::frontend::detail
