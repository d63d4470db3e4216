// Expressions: rvalues, lvalues, pointers, calls (builtins and inlining), structs.
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

static const ExprPtr &zero64() {
  static const ExprPtr z = Expr::intConst(Type::i64(), 0);
  return z;
}

// base + idx * scale (base - idx * scale), i64; an i64 constant idx (a field's offset) is
// folded into a constant base or base's constant term (`p[t].in.lo`: `t * 16 + 8`).
static ExprPtr addIndex(ExprPtr base, ExprPtr idx, uint64_t scale, bool subtract = false) {
  idx = Expr::cast(Type::i64(), std::move(idx));
  const auto *k = idx->as<model::expr::Const>();
  if (k)
    idx = Expr::intConst(Type::i64(), k->int_value * static_cast<int64_t>(scale));
  else if (scale != 1)
    idx = Expr::binary(Type::i64(), model::BinaryOp::Mul, idx,
                       Expr::intConst(Type::i64(), static_cast<int64_t>(scale)));
  const auto *c = base->as<model::expr::Const>();
  if (c && c->int_value == 0 && !subtract)
    return idx;
  if (k) {  // fold into a constant base, or the constant term of base + c
    int64_t d = subtract ? -idx->as<model::expr::Const>()->int_value : idx->as<model::expr::Const>()->int_value;
    if (c)
      return Expr::intConst(Type::i64(), c->int_value + d);
    const auto *b = base->as<model::expr::Binary>();
    const auto *bc = b && b->op == model::BinaryOp::Add ? b->rhs->as<model::expr::Const>() : nullptr;
    if (bc && base->type == Type::i64()) {
      int64_t sum = bc->int_value + d;
      return sum == 0 ? b->lhs
                      : Expr::binary(Type::i64(), model::BinaryOp::Add, b->lhs, Expr::intConst(Type::i64(), sum));
    }
    if (d == 0)
      return base;
  }
  return Expr::binary(Type::i64(), subtract ? model::BinaryOp::Sub : model::BinaryOp::Add,
                      std::move(base), idx);
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

ExprPtr KernelExtractor::unsupportedValue(clang::QualType t, std::string construct,
                                          std::string detail, clang::SourceRange where) {
  unsupported(construct, std::move(detail), where);
  return opaque(t, "unsupported " + construct);
}

BindingPtr KernelExtractor::valueBinding(ExprPtr v) {
  auto b = std::make_shared<Binding>();
  b->kind = Binding::Kind::Value;
  b->value = std::move(v);
  return b;
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

ExprPtr KernelExtractor::condition(const clang::Expr *e) {
  return Expr::cast(Type::boolean(), rvalue(e));
}

void KernelExtractor::discard(const clang::Expr *e) {
  e = strip(e);
  if (const auto *ce = llvm::dyn_cast<clang::CXXConstructExpr>(e);
      ce && ce->getNumArgs() == 0 && ce->getConstructor()->isTrivial())
    return;  // trivial default construction (`V a[4];`): does nothing
  if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(e);
      u && u->isIncrementDecrementOp()) {
    incDecValue(u, /*value_used=*/false);
    return;
  }
  if (const auto *il = llvm::dyn_cast<clang::InitListExpr>(e)) {
    for (const clang::Expr *i : il->inits())
      discard(i);
    return;
  }
  if (const auto *c = llvm::dyn_cast<clang::CallExpr>(e)) {
    call(c);
    return;
  }
  if (const auto *c = llvm::dyn_cast<clang::ConditionalOperator>(e);
      c && !c->getType()->isRecordType()) {
    // `c ? (s[i] = x) : (s[j] = y);` as a statement: the chosen arm's effects happen
    ExprPtr cond = condition(c->getCond());
    std::vector<Stmt> then_effects = nested([&] { discard(c->getTrueExpr()); });
    std::vector<Stmt> else_effects = nested([&] { discard(c->getFalseExpr()); });
    armEffects(c, cond, std::move(then_effects), std::move(else_effects));
    return;
  }
  if (e->isGLValue() && !llvm::isa<clang::BinaryOperator>(e) &&
      !llvm::isa<clang::UnaryOperator>(e) && !llvm::isa<clang::CallExpr>(e))
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
  if (const auto *c = llvm::dyn_cast<clang::CastExpr>(e);
      c && c->getCastKind() == clang::CK_ToVoid) {
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
  if (!e->isValueDependent() && t->isIntegralOrEnumerationType() &&
      !e->HasSideEffects(ctx_)) {
    clang::Expr::EvalResult r;
    if (e->EvaluateAsInt(r, ctx_) && r.Val.getInt().getBitWidth() <= 64) {
      const llvm::APSInt &v = r.Val.getInt();
      return Expr::intConst(typeOf(t), v.isSigned() ? v.getSExtValue()
                                                    : static_cast<int64_t>(v.getZExtValue()));
    }
  }
  if (isFunctionValue(e))
    return functionTag(e);
  if (t->isPointerType()) {
    pointer(e);  // side effects only: pointers are values of the model only as offsets
    return opaque(t, "pointer value " + textOf(e->getSourceRange()));
  }
  if (const auto *f = llvm::dyn_cast<clang::FloatingLiteral>(e))
    return Expr::floatConst(typeOf(t), f->getValueAsApproximateDouble());
  if (const auto *c = llvm::dyn_cast<clang::CastExpr>(e))
    return cast(c);
  if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
    Type ty = typeOf(t);
    switch (u->getOpcode()) {
    case clang::UO_Minus:
      return Expr::unary(ty, model::UnaryOp::Neg, rvalue(u->getSubExpr()));
    case clang::UO_Not:
      return Expr::unary(ty, model::UnaryOp::BitNot, rvalue(u->getSubExpr()));
    case clang::UO_LNot:
      return Expr::unary(ty, model::UnaryOp::LNot, condition(u->getSubExpr()));
    case clang::UO_Plus:
    case clang::UO_Extension:
      return rvalue(u->getSubExpr());
    case clang::UO_PreInc: case clang::UO_PreDec:
    case clang::UO_PostInc: case clang::UO_PostDec:
      return incDecValue(u, true);
    default:
      break;
    }
  }
  if (const auto *b = llvm::dyn_cast<clang::BinaryOperator>(e))
    return binaryOp(b);
  if (const auto *c = llvm::dyn_cast<clang::ConditionalOperator>(e))
    return conditional(c);
  if (llvm::isa<clang::CUDAKernelCallExpr>(e))
    return unsupportedValue(t, "dynamic parallelism", "kernel launch from device code",
                            e->getSourceRange());
  if (const auto *c = llvm::dyn_cast<clang::CallExpr>(e))
    return bindingValue(call(c), e);
  if (const auto *m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e))
    return rvalue(m->getSubExpr());
  if (const auto *il = llvm::dyn_cast<clang::InitListExpr>(e); il && il->getNumInits() <= 1)
    return il->getNumInits() ? Expr::cast(typeOf(t), rvalue(il->getInit(0)))
                             : Expr::intConst(typeOf(t), 0);
  if (llvm::isa<clang::CXXScalarValueInitExpr>(e) || llvm::isa<clang::ImplicitValueInitExpr>(e))
    return t->isRealFloatingType() ? Expr::floatConst(typeOf(t), 0) : Expr::intConst(typeOf(t), 0);
  if (e->isGLValue())
    return loadValue(e);
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
    if (const auto *co = llvm::dyn_cast<clang::ConditionalOperator>(strip(sub)))
      return conditional(co);
    // `a = b = 0`: the inner assignment's value is what it stored (a read of the element
    // again races only where its store does too)
    if (const auto *as = llvm::dyn_cast<clang::BinaryOperator>(strip(sub));
        as && as->isAssignmentOp() && as->getType()->isArithmeticType())
      return Expr::cast(to, assignment(as));
    return loadValue(sub);
  case clang::CK_NoOp:
  case clang::CK_UserDefinedConversion:
    return Expr::cast(to, rvalue(sub));
  case clang::CK_IntegralCast:
  case clang::CK_IntegralToBoolean:
  case clang::CK_FloatingToIntegral:
  case clang::CK_IntegralToFloating:
  case clang::CK_FloatingCast:
  case clang::CK_FloatingToBoolean:
    return Expr::cast(to, rvalue(sub));
  case clang::CK_BooleanToSignedIntegral:
    return Expr::select(condition(sub), Expr::intConst(to, -1), Expr::intConst(to, 0));
  case clang::CK_PointerToBoolean:
    return Expr::cast(to, notNull(sub));
  case clang::CK_PointerToIntegral: {
    // An address as an integer (alignment checks). Into a pointer parameter's buffer: its
    // unknown base address, the same for every thread, plus the offset in bytes;
    // elsewhere an unknown value.
    ExprPtr address = addressOf(pointer(sub), false);
    return address ? Expr::cast(to, address)
                   : opaque(c->getType(), "address " + textOf(sub->getSourceRange()));
  }
  case clang::CK_ToVoid:
    discard(sub);
    return Expr::intConst(Type::other(), 0);
  default:
    return unsupportedValue(c->getType(), "cast", c->getCastKindName(), c->getSourceRange());
  }
}

static model::BinaryOp binaryOpOf(clang::BinaryOperatorKind op, bool &ok) {
  using B = model::BinaryOp;
  ok = true;
  switch (op) {
  case clang::BO_Mul: case clang::BO_MulAssign: return B::Mul;
  case clang::BO_Div: case clang::BO_DivAssign: return B::Div;
  case clang::BO_Rem: case clang::BO_RemAssign: return B::Rem;
  case clang::BO_Add: case clang::BO_AddAssign: return B::Add;
  case clang::BO_Sub: case clang::BO_SubAssign: return B::Sub;
  case clang::BO_Shl: case clang::BO_ShlAssign: return B::Shl;
  case clang::BO_Shr: case clang::BO_ShrAssign: return B::Shr;
  case clang::BO_And: case clang::BO_AndAssign: return B::BitAnd;
  case clang::BO_Xor: case clang::BO_XorAssign: return B::BitXor;
  case clang::BO_Or: case clang::BO_OrAssign: return B::BitOr;
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
  if (b->isAssignmentOp())
    return assignment(b);
  if (b->getOpcode() == clang::BO_Comma) {
    discard(b->getLHS());
    return rvalue(b->getRHS());
  }
  if (b->isLogicalOp())
    return shortCircuit(b);
  bool ok = false;
  model::BinaryOp op = binaryOpOf(b->getOpcode(), ok);
  if (!ok)
    return unsupportedValue(b->getType(), "operator", b->getOpcodeStr().str(),
                            b->getSourceRange());
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
      return op == model::BinaryOp::Ne
                 ? not_null
                 : Expr::unary(Type::boolean(), model::UnaryOp::LNot, not_null);
    }
    // Pointer difference and comparison: meaningful within one array.
    std::optional<Pointer> pl = pointer(l), pr = pointer(r);
    if (pl && pr && pl->kind == Pointer::Kind::Memory && pr->kind == Pointer::Kind::Memory &&
        pl->array == pr->array && pl->scale == pr->scale) {
      if (op == model::BinaryOp::Sub)
        return Expr::cast(t, Expr::binary(Type::i64(), model::BinaryOp::Div,
                                          Expr::binary(Type::i64(), op, pl->offset, pr->offset),
                                          Expr::intConst(Type::i64(),
                                                         static_cast<int64_t>(pl->scale))));
      return Expr::binary(t, op, pl->offset, pr->offset);
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
  if (isFunctionValue(e))
    return functionNotNull(e);
  std::optional<Pointer> p = pointer(e);
  if (p && p->kind == Pointer::Kind::Memory) {
    const model::Array &a = k_.arrays[p->array];
    if (a.origin == model::ArrayOrigin::Param)
      return Expr::notNull(p->array, a.name);
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
    s.cond = op == model::BinaryOp::LAnd
                 ? l
                 : Expr::unary(Type::boolean(), model::UnaryOp::LNot, l);
    s.then_body = std::move(rhs_effects);
    emit(Stmt{rangeOf(b->getSourceRange()), std::move(s)});
  }
  return Expr::binary(Type::boolean(), op, l, r);
}

ExprPtr KernelExtractor::conditional(const clang::ConditionalOperator *c) {
  if (c->getType()->isRecordType())
    return unsupportedValue(c->getType(), "conditional of structs",
                            textOf(c->getSourceRange()), c->getSourceRange());
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
                                    std::vector<Stmt> then_effects,
                                    std::vector<Stmt> else_effects) {
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
  if (lt->isPointerType() && isFunctionValue(lhs))
    return assignFunction(b);
  if (lt->isPointerType()) {
    LValue lv = lvalue(lhs);
    if (lv.kind != LValue::Kind::PointerVar) {
      // a pointer stored in memory: its address, where it is one value for all the
      // threads that may race on the store (benign races); a load of it is not followed
      std::optional<Pointer> p = pointerValue(b->getRHS());
      if (lv.kind == LValue::Kind::Memory) {
        ExprPtr address = addressOf(p, k_.arrays[lv.array].space == model::AddressSpace::Shared);
        store(lv, address ? address : opaque(lt, "pointer"), lhs);
        return opaque(lt, "pointer");
      }
      return unsupportedValue(lt, "pointer assignment", textOf(b->getSourceRange()),
                              b->getSourceRange());
    }
    if (b->getOpcode() == clang::BO_Assign) {
      assignPointer(lv.binding, b->getRHS(), b->getSourceRange());
    } else if (b->getOpcode() == clang::BO_AddAssign || b->getOpcode() == clang::BO_SubAssign) {
      ExprPtr k = rvalue(b->getRHS());
      std::optional<Pointer> p = pointerOfBinding(lv.binding);
      const BindingPtr &v = lv.binding;
      if (p && (p->kind == Pointer::Kind::Memory || p->kind == Pointer::Kind::Choice) && v->offset)
        emitAssign(*v->offset,
                   addIndex(Expr::local(*v->offset), k, v->pointer.scale,
                            b->getOpcode() == clang::BO_SubAssign),
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
  if (lv.kind == LValue::Kind::Local) {
    store(lv, value, lhs);
    return Expr::local(lv.local);
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
  if (value_used && u->isPostfix())
    old = snapshot(old, "old", sub->getSourceRange());
  ExprPtr one = ty.kind == Type::Kind::Float ? Expr::floatConst(ty, 1) : Expr::intConst(ty, 1);
  ExprPtr updated =
      Expr::binary(ty, inc ? model::BinaryOp::Add : model::BinaryOp::Sub, old, one);
  store(lv, updated, sub);
  if (u->isPostfix())
    return old;
  return lv.kind == LValue::Kind::Local ? Expr::local(lv.local) : updated;
}

// --- accesses through a conditional pointer ---------------------------------------------

// `c ? p : q` of pointer type, through parentheses and lvalue-to-rvalue or qualification
// conversions; null otherwise.
static const clang::ConditionalOperator *conditionalPointer(const clang::Expr *e) {
  e = strip(e);
  while (const auto *ic = llvm::dyn_cast<clang::ImplicitCastExpr>(e)) {
    if (ic->getCastKind() != clang::CK_LValueToRValue && ic->getCastKind() != clang::CK_NoOp)
      break;
    e = strip(ic->getSubExpr());
  }
  const auto *c = llvm::dyn_cast<clang::ConditionalOperator>(e);
  if (!c || !c->getType()->isPointerType() || c->getType()->isFunctionPointerType())
    return nullptr;
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
    if (!a || !b)
      return nullptr;
    return Expr::select(cond, a, Expr::cast(a->type, b));
  }
  std::optional<Pointer> p = pointerValue(ptr);
  LValue lv = pointee(p, idx ? rvalue(idx) : nullptr, where);
  if (lv.kind == LValue::Kind::Invalid)
    return nullptr;
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

static bool isBuiltinVar(llvm::StringRef n) {
  return n == "threadIdx" || n == "blockIdx" || n == "blockDim" || n == "gridDim" ||
         n == "warpSize";
}

static model::Builtin builtinOf(llvm::StringRef var, llvm::StringRef field) {
  int base = var == "threadIdx" ? 0 : var == "blockIdx" ? 3 : var == "blockDim" ? 6 : 9;
  int off = field == "x" ? 0 : field == "y" ? 1 : 2;
  return static_cast<model::Builtin>(base + off);
}

LValue KernelExtractor::fromBinding(const BindingPtr &b, clang::QualType t,
                                    const clang::Expr *where) {
  LValue lv;
  switch (b->kind) {
  case Binding::Kind::Value:
    lv.kind = LValue::Kind::Value;
    lv.value = b->value;
    break;
  case Binding::Kind::Local:
    lv.kind = LValue::Kind::Local;
    lv.local = b->local;
    break;
  case Binding::Kind::Struct:
    lv.kind = LValue::Kind::Struct;
    lv.binding = b;
    break;
  case Binding::Kind::Ref:
    return b->ref;
  case Binding::Kind::Pointer:
    if (ctx_.getAsArrayType(t)) {  // an array variable designates its memory
      std::optional<Pointer> p = pointerOfBinding(b);
      if (!p || p->kind != Pointer::Kind::Memory)
        return lv;
      lv.kind = LValue::Kind::Memory;
      lv.array = p->array;
      lv.index = p->offset;
      uint64_t es = k_.arrays[p->array].elem_size;
      lv.count = std::max<uint64_t>(1, sizeOf(t) / (es ? es : 1));
    } else {
      lv.kind = LValue::Kind::PointerVar;
      lv.binding = b;
    }
    break;
  }
  (void)where;
  return lv;
}

LValue KernelExtractor::declLValue(const clang::ValueDecl *d, const clang::Expr *where) {
  const auto *var = llvm::dyn_cast<clang::VarDecl>(d);
  if (var && inPrelude(var) && isBuiltinVar(var->getName())) {
    if (var->getName() == "warpSize")
      return fromBinding(valueBinding(Expr::builtinVar(model::Builtin::WarpSize)),
                         var->getType(), where);
    auto b = std::make_shared<Binding>();
    b->kind = Binding::Kind::Struct;
    if (const clang::RecordDecl *rd = var->getType()->getAsRecordDecl())
      for (const clang::FieldDecl *f : rd->fields())
        b->fields[f] = valueBinding(Expr::builtinVar(builtinOf(var->getName(), f->getName())));
    return fromBinding(b, var->getType(), where);
  }
  if (BindingPtr b = lookup(d))
    return fromBinding(b, d->getType(), where);
  if (var) {
    if (std::optional<unsigned> id = globalArray(var)) {
      LValue lv;
      lv.kind = LValue::Kind::Memory;
      lv.array = *id;
      lv.index = zero64();
      uint64_t es = k_.arrays[*id].elem_size;
      lv.count = std::max<uint64_t>(1, sizeOf(var->getType()) / (es ? es : 1));
      return lv;
    }
    // A namespace-scope constant of floating type (integers fold earlier).
    if (var->getType().isConstQualified() && var->getType()->isRealFloatingType())
      if (const clang::APValue *v = var->evaluateValue(); v && v->isFloat())
        return fromBinding(valueBinding(Expr::floatConst(typeOf(var->getType()),
                                                         v->getFloat().convertToDouble())),
                           var->getType(), where);
  }
  unsupported("reference to a variable kverify does not model",
              "'" + d->getNameAsString() + "'", where->getSourceRange());
  return {};
}

// `sub` given: the lvalue of `m[c]`, where `m` names an array field and `sub` is the
// subscript whose base is `m` decayed to a pointer.
LValue KernelExtractor::memberLValue(const clang::MemberExpr *m,
                                     const clang::ArraySubscriptExpr *sub) {
  const auto *field = llvm::dyn_cast<clang::FieldDecl>(m->getMemberDecl());
  if (!field) {
    unsupported("member", "'" + m->getMemberDecl()->getNameAsString() + "' is not a field",
                m->getSourceRange());
    return {};
  }
  const clang::Expr *base = strip(m->getBase());
  LValue object;
  if (m->isArrow()) {
    if (llvm::isa<clang::CXXThisExpr>(base->IgnoreImpCasts())) {
      if (frames_.back().this_object) {
        object.kind = LValue::Kind::Struct;
        object.binding = frames_.back().this_object;
      } else if (frames_.back().this_memory.kind != LValue::Kind::Invalid) {
        object = frames_.back().this_memory;
      } else {
        unsupported("member of 'this'", textOf(m->getSourceRange()), m->getSourceRange());
        return {};
      }
    } else {
      std::optional<Pointer> p = pointer(base);
      if (!p)
        return {};
      if (p->kind == Pointer::Kind::Local) {
        unsupported("member through a pointer to a local", textOf(m->getSourceRange()),
                    m->getSourceRange());
        return {};
      }
      // p->f: the part of the element p points to that is f (below)
      object.kind = LValue::Kind::Memory;
      object.array = p->array;
      object.index = p->offset;
      object.count = p->scale;
    }
  } else {
    object = lvalue(base);
  }
  if (object.kind == LValue::Kind::Struct) {
    auto it = object.binding->fields.find(field);
    if (it == object.binding->fields.end()) {
      unsupported("member", "'" + field->getNameAsString() + "'", m->getSourceRange());
      return {};
    }
    if (it->second->kind == Binding::Kind::Ref && it->second->ref.kind == LValue::Kind::Invalid) {
      unsupported("reference member kverify cannot follow", textOf(m->getSourceRange()),
                  m->getSourceRange());
      return {};
    }
    LValue lv = fromBinding(it->second, field->getType(), m);
    if (!sub)
      return lv;
    std::optional<Pointer> p = decay(lv, sub->getBase()->getType()->getPointeeType(), sub->getBase());
    return pointee(p, rvalue(sub->getIdx()), sub);
  }
  if (object.kind == LValue::Kind::Memory || object.kind == LValue::Kind::Choice) {
    // the field's own bytes: p[i].lo and p[i].hi are different memory
    if (field->isBitField()) {
      unsupported("bit-field of an object in memory", textOf(m->getSourceRange()), m->getSourceRange());
      return {};
    }
    clang::QualType record = m->isArrow() ? base->getType()->getPointeeType() : base->getType();
    const clang::RecordDecl *rd = record->getAsRecordDecl();
    if (!rd || rd->getCanonicalDecl() != field->getParent()->getCanonicalDecl()) {
      unsupported("member of another record than its object's", textOf(m->getSourceRange()),
                  m->getSourceRange());
      return {};
    }
    uint64_t offset = static_cast<uint64_t>(ctx_.getFieldOffset(field)) / ctx_.getCharWidth();
    LValue lv = partOf(object, offset, sizeOf(field->getType()), m);
    if (!sub || lv.kind == LValue::Kind::Invalid)
      return lv;
    std::optional<Pointer> p = decay(lv, sub->getBase()->getType()->getPointeeType(), sub->getBase());
    return pointee(p, rvalue(sub->getIdx()), sub);
  }
  if (object.kind != LValue::Kind::Invalid)
    unsupported("member access", textOf(m->getSourceRange()), m->getSourceRange());
  return {};
}

// `p[idx]`, `e` being the subscript.
LValue KernelExtractor::pointee(const std::optional<Pointer> &p, ExprPtr idx,
                                const clang::Expr *e) {
  LValue lv;
  if (!p)
    return lv;
  clang::SourceRange where = e->getSourceRange();
  switch (p->kind) {
  case Pointer::Kind::Memory:
    lv.kind = LValue::Kind::Memory;
    lv.array = p->array;
    lv.index = idx ? addIndex(p->offset, std::move(idx), p->scale) : p->offset;
    lv.count = p->scale;
    return lv;
  case Pointer::Kind::Local:
  case Pointer::Kind::Var: {
    const auto *c = idx ? idx->as<model::expr::Const>() : nullptr;
    if (idx && !(c && c->int_value == 0)) {
      unsupported("subscript of a pointer to a local", textOf(where), where);
      return lv;
    }
    if (p->kind == Pointer::Kind::Local) {
      lv.kind = LValue::Kind::Local;
      lv.local = p->local;
    } else {
      lv.kind = LValue::Kind::PointerVar;
      lv.binding = p->var;
    }
    return lv;
  }
  case Pointer::Kind::Choice: {
    LValue a = pointee(*p->then_p, idx, e), b = pointee(*p->else_p, idx, e);
    if (a.kind == LValue::Kind::Invalid || b.kind == LValue::Kind::Invalid)
      return lv;
    lv.kind = LValue::Kind::Choice;
    lv.cond = p->cond;
    lv.then_lv = std::make_shared<const LValue>(std::move(a));
    lv.else_lv = std::make_shared<const LValue>(std::move(b));
    return lv;
  }
  case Pointer::Kind::Unknown:
    unsupported(p->why, textOf(where), where);
    return lv;
  }
  return lv;
}

// The bytes [offset, offset + size) of what `object` designates (a field, a base-class
// part), in whichever array it is: in that array's units. Where they do not fall on whole units (a component narrower than the
// elements of a scalar array viewed through a cast) it is unsupported: a wider location
// would make two different components one value for the rules that compare values.
LValue KernelExtractor::partOf(const LValue &object, uint64_t offset, uint64_t size,
                               const clang::Expr *where) {
  if (object.kind == LValue::Kind::Choice) {
    LValue a = partOf(*object.then_lv, offset, size, where);
    LValue b = a.kind == LValue::Kind::Invalid ? LValue{}
                                               : partOf(*object.else_lv, offset, size, where);
    if (b.kind == LValue::Kind::Invalid)
      return {};
    LValue lv = object;
    lv.then_lv = std::make_shared<const LValue>(std::move(a));
    lv.else_lv = std::make_shared<const LValue>(std::move(b));
    return lv;
  }
  if (object.kind != LValue::Kind::Memory)
    return {};
  const model::Array &arr = k_.arrays[object.array];
  uint64_t unit = std::max(1u, arr.elem_size);
  if (offset % unit != 0 || size % unit != 0 || size == 0) {
    unsupported("part of an element smaller than the elements of its array",
                textOf(where->getSourceRange()) + ": " + std::to_string(size) + " bytes at offset " +
                    std::to_string(offset) + " of '" + arr.name + "', whose elements ('" +
                    arr.elem_c_type + "') have " + std::to_string(unit) + " bytes",
                where->getSourceRange());
    return {};
  }
  LValue lv = object;
  if (offset != 0)
    lv.index = addIndex(object.index, Expr::intConst(Type::i64(), static_cast<int64_t>(offset / unit)), 1);
  lv.count = size / unit;
  return lv;
}

// The byte offset of the base-class part a derived-to-base cast `c` designates; nullopt
// (and unsupported) through a virtual base.
std::optional<uint64_t> KernelExtractor::baseOffset(const clang::CastExpr *c) {
  clang::QualType from = c->getSubExpr()->getType();
  if (from->isPointerType())
    from = from->getPointeeType();
  const clang::CXXRecordDecl *cur = from->getAsCXXRecordDecl();
  uint64_t offset = 0;
  for (const clang::CXXBaseSpecifier *b : c->path()) {
    const clang::CXXRecordDecl *base = b->getType()->getAsCXXRecordDecl();
    if (!cur || !base || b->isVirtual() || !cur->hasDefinition()) {
      unsupported("conversion to a virtual base", textOf(c->getSourceRange()), c->getSourceRange());
      return std::nullopt;
    }
    offset += static_cast<uint64_t>(ctx_.getASTRecordLayout(cur).getBaseClassOffset(base).getQuantity());
    cur = base;
  }
  return offset;
}

// A variable or a field of one (`x`, `s.f.g`): naming it again evaluates nothing.
static bool namesVariable(const clang::Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (llvm::isa<clang::DeclRefExpr>(e))
    return true;
  const auto *m = llvm::dyn_cast<clang::MemberExpr>(e);
  return m && !m->isArrow() && namesVariable(m->getBase());
}

LValue KernelExtractor::lvalue(const clang::Expr *e) {
  Nested level(*this);
  if (tooDeep(e->getSourceRange())) return {};
  e = strip(e);
  if (const auto *d = llvm::dyn_cast<clang::DeclRefExpr>(e))
    return declLValue(d->getDecl(), e);
  if (const auto *m = llvm::dyn_cast<clang::MemberExpr>(e))
    return memberLValue(m);
  if (const auto *a = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
    // `E.f[c]`, `p->f[c]` with f an array field: subscripted where E is known
    if (const auto *d = llvm::dyn_cast<clang::ImplicitCastExpr>(strip(a->getBase()));
        d && d->getCastKind() == clang::CK_ArrayToPointerDecay)
      if (const auto *m = llvm::dyn_cast<clang::MemberExpr>(strip(d->getSubExpr()));
          m && llvm::isa<clang::FieldDecl>(m->getMemberDecl()))
        return memberLValue(m, a);
    std::optional<Pointer> p = pointerValue(a->getBase());
    ExprPtr idx = rvalue(a->getIdx());
    return pointee(p, idx, a);
  }
  if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
    if (u->getOpcode() == clang::UO_Deref) {
      return pointee(pointerValue(u->getSubExpr()), nullptr, u);
    }
    if ((u->getOpcode() == clang::UO_PreInc || u->getOpcode() == clang::UO_PreDec) &&
        llvm::isa<clang::DeclRefExpr>(strip(u->getSubExpr()))) {
      incDecValue(u, false);
      return lvalue(u->getSubExpr());
    }
  }
  if (const auto *b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
    if (b->getOpcode() == clang::BO_Comma) {
      discard(b->getLHS());
      return lvalue(b->getRHS());
    }
    if (b->isAssignmentOp() && namesVariable(b->getLHS())) {
      assignment(b);
      return lvalue(b->getLHS());
    }
  }
  if (const auto *c = llvm::dyn_cast<clang::CastExpr>(e)) {
    if (c->getCastKind() == clang::CK_NoOp || c->getCastKind() == clang::CK_LValueBitCast)
      return lvalue(c->getSubExpr());
    if (c->getCastKind() == clang::CK_UncheckedDerivedToBase ||
        c->getCastKind() == clang::CK_DerivedToBase) {
      LValue lv = lvalue(c->getSubExpr());
      if (lv.kind != LValue::Kind::Memory && lv.kind != LValue::Kind::Choice)
        return lv;  // a struct variable holds its base classes' fields too
      std::optional<uint64_t> offset = baseOffset(c);
      return offset ? partOf(lv, *offset, sizeOf(c->getType()), c) : LValue{};
    }
  }
  if (const auto *m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e)) {
    const clang::Expr *sub = m->getSubExpr();
    if (sub->getType()->isRecordType()) {
      LValue lv;
      lv.kind = LValue::Kind::Struct;
      lv.binding = freshStruct(sub->getType(), "temporary");
      assignStruct(lv.binding, sub);
      return lv;
    }
    if (sub->isGLValue())
      return lvalue(sub);
    LValue lv;
    lv.kind = LValue::Kind::Value;
    lv.value = rvalue(sub);
    return lv;
  }
  if (const auto *c = llvm::dyn_cast<clang::CallExpr>(e)) {
    BindingPtr b = call(c);
    if (b && b->kind == Binding::Kind::Struct) {
      LValue lv;
      lv.kind = LValue::Kind::Struct;
      lv.binding = b;
      return lv;
    }
    if (b && c->getCallReturnType(ctx_)->isReferenceType() && b->kind == Binding::Kind::Ref)
      return b->ref;
  }
  unsupported("lvalue", std::string(e->getStmtClassName()) + " " + textOf(e->getSourceRange()),
              e->getSourceRange());
  return {};
}

unsigned KernelExtractor::emitAccess(model::AccessKind kind, unsigned array, ExprPtr index,
                                     uint64_t count, clang::SourceRange where,
                                     const BuiltinInfo *atomic, ExprPtr operand, ExprPtr order) {
  model::stmt::Access a;
  a.id = newId();
  a.value = std::move(operand);
  a.kind = kind;
  a.array = array;
  a.index = std::move(index);
  a.count = static_cast<unsigned>(count);
  if (atomic) {
    a.atomic = atomic->atomic;
    a.scope = atomic->scope;
    a.order = std::move(order);
  }
  a.text = textOf(where);
  unsigned id = a.id;
  emit(Stmt{rangeOf(where), std::move(a)});
  return id;
}

ExprPtr KernelExtractor::load(const LValue &lv, const clang::Expr *where) {
  clang::QualType t = where->getType();
  switch (lv.kind) {
  case LValue::Kind::Value:
    return lv.value;
  case LValue::Kind::Local:
    return Expr::local(lv.local);
  case LValue::Kind::Memory: {
    if (in_premise_)  // what memory holds, not an access (KV_ASSUME_FORALL)
      return Expr::element(typeOf(t), lv.array, lv.index, std::max<unsigned>(lv.count, 1), k_.arrays[lv.array].name);
    unsigned id = emitAccess(model::AccessKind::Read, lv.array, lv.index, lv.count,
                             where->getSourceRange());
    return Expr::opaque(typeOf(t), id, "load of " + k_.arrays[lv.array].name);
  }
  case LValue::Kind::Struct:
  case LValue::Kind::PointerVar:
    return opaque(t, "value of " + textOf(where->getSourceRange()));
  case LValue::Kind::Choice: {  // if (cond) load one else load the other
    ExprPtr a, b;
    std::vector<Stmt> then_s = nested([&] { a = load(*lv.then_lv, where); });
    std::vector<Stmt> else_s = nested([&] { b = load(*lv.else_lv, where); });
    emit(Stmt{rangeOf(where->getSourceRange()),
              model::stmt::If{lv.cond, std::move(then_s), std::move(else_s)}});
    return Expr::select(lv.cond, a, Expr::cast(a->type, b));
  }
  case LValue::Kind::Invalid:
    break;
  }
  return opaque(t, "unsupported");
}

void KernelExtractor::store(const LValue &lv, ExprPtr value, const clang::Expr *where) {
  switch (lv.kind) {
  case LValue::Kind::Local:
    emitAssign(lv.local, std::move(value), where->getSourceRange());
    return;
  case LValue::Kind::Memory: {
    // the value stored, where it is a scalar the analysis compares (benign races) and
    // fills the location written (one element, or a field's bytes)
    bool integral = value && (value->type.kind == model::Type::Kind::Int ||
                              value->type.kind == model::Type::Kind::Bool);
    uint64_t bytes = integral ? std::max(1u, value->type.bits / 8) : 0;
    bool scalar = integral && (k_.arrays[lv.array].by_bytes
                                   ? bytes == lv.count * std::max(1u, k_.arrays[lv.array].elem_size)
                                   : lv.count <= 1);
    emitAccess(model::AccessKind::Write, lv.array, lv.index, lv.count, where->getSourceRange(),
               nullptr, scalar ? std::move(value) : nullptr);
    return;
  }
  case LValue::Kind::Value:
    unsupported("write to a read-only value", textOf(where->getSourceRange()),
                where->getSourceRange());
    return;
  case LValue::Kind::Struct:
  case LValue::Kind::PointerVar:
    unsupported("write", textOf(where->getSourceRange()), where->getSourceRange());
    return;
  case LValue::Kind::Choice: {
    std::vector<Stmt> then_s = nested([&] { store(*lv.then_lv, value, where); });
    std::vector<Stmt> else_s = nested([&] { store(*lv.else_lv, value, where); });
    emit(Stmt{rangeOf(where->getSourceRange()),
              model::stmt::If{lv.cond, std::move(then_s), std::move(else_s)}});
    return;
  }
  case LValue::Kind::Invalid:
    return;
  }
}

// --- pointers ------------------------------------------------------------------------

uint64_t KernelExtractor::scaleOf(unsigned array, clang::QualType pointee,
                                  const clang::Expr *where) {
  pointee = pointee.getNonReferenceType();
  if (pointee->isVoidType())
    return 1;
  uint64_t es = k_.arrays[array].elem_size, s = sizeOf(pointee);
  if (es == 0 || s % es != 0) {
    unsupported("pointer cast to a smaller element type",
                "'" + k_.arrays[array].name + "' has " + std::to_string(es) +
                    "-byte elements, accessed as '" + pointee.getAsString() + "' (" +
                    std::to_string(s) + " bytes)",
                where->getSourceRange());
    return 1;
  }
  return s / es;
}

// The address `p` holds, as a u64: an unknown base per array, the same for every thread,
// plus the offset in bytes; null where kverify has no such value. The base of a
// parameter's buffer is one for the grid, that of a __shared__ array one for the block
// (`in_block`: only threads of one block compare it).
ExprPtr KernelExtractor::addressOf(const std::optional<Pointer> &p, bool in_block) const {
  if (!p)
    return nullptr;
  Type u64 = Type::integer(64, false);
  if (p->kind == Pointer::Kind::Choice) {
    ExprPtr a = addressOf(*p->then_p, in_block), b = addressOf(*p->else_p, in_block);
    return a && b ? Expr::select(p->cond, a, b) : nullptr;
  }
  if (p->kind != Pointer::Kind::Memory || p->array >= k_.arrays.size())
    return nullptr;
  const model::Array &a = k_.arrays[p->array];
  if (a.origin != model::ArrayOrigin::Param &&
      !(in_block && a.space == model::AddressSpace::Shared))
    return nullptr;
  ExprPtr address = Expr::address(p->array, a.name);
  if (!p->offset)
    return address;
  ExprPtr bytes = Expr::binary(u64, model::BinaryOp::Mul, Expr::cast(u64, p->offset),
                               Expr::intConst(u64, static_cast<int64_t>(a.elem_size)));
  return Expr::binary(u64, model::BinaryOp::Add, address, bytes);
}

// The pointer variable `b` at offset `offset`: a choice over its arrays by its selector.
Pointer KernelExtractor::pointerAt(const BindingPtr &b, ExprPtr offset) const {
  Pointer p = Pointer::memory(b->pointer.array, offset, b->pointer.scale);
  for (size_t i = 0; i < b->more.size(); ++i) {
    Pointer alt = Pointer::memory(b->more[i], offset, b->pointer.scale);
    Pointer c;
    c.kind = Pointer::Kind::Choice;
    c.cond = Expr::binary(Type::boolean(), model::BinaryOp::Eq, Expr::local(*b->selector),
                          Expr::intConst(b->selector->type, static_cast<int64_t>(i + 1)));
    c.then_p = std::make_shared<const Pointer>(std::move(alt));
    c.else_p = std::make_shared<const Pointer>(std::move(p));
    c.from = b;
    p = std::move(c);
  }
  return p;
}

std::optional<Pointer> KernelExtractor::pointerOfBinding(const BindingPtr &b) {
  if (!b || b->kind != Binding::Kind::Pointer)
    return std::nullopt;
  b->read_at = ++event_;
  if (b->pointer.kind != Pointer::Kind::Memory)
    return b->pointer;
  if (!b->unknown.empty() || b->pointer.array == ~0u) {
    return Pointer::unknown(b->unknown.empty() ? "pointer used before it is assigned" : b->unknown);
  }
  return pointerAt(b, b->offset ? Expr::local(*b->offset) : b->pointer.offset);
}

std::optional<Pointer> KernelExtractor::decay(const LValue &lv, clang::QualType pointee,
                                              const clang::Expr *e) {
  if (lv.kind == LValue::Kind::Memory)
    return Pointer::memory(lv.array, lv.index, scaleOf(lv.array, pointee, e));
  if (lv.kind != LValue::Kind::Invalid)
    unsupported("array", textOf(e->getSourceRange()), e->getSourceRange());
  return std::nullopt;
}

void KernelExtractor::assignPointer(const BindingPtr &dst, const clang::Expr *src,
                                    clang::SourceRange where) {
  assignPointer(dst, pointerValue(src), where);
}

// Whether `b` may gain an array (or become unknown) here: no loop being translated
// that began after `b` was created has read it, since that read runs again after this.
bool KernelExtractor::widenable(const BindingPtr &b) const {
  for (unsigned start : loop_starts_)
    if (start > b->created_at && start < b->read_at)
      return false;
  return b->home != nullptr;
}

// Gives `b` a selector. Where an assignment under a branch (`widened`) makes it
// point into a second array, the selector is 0 (its first array) from the start of the
// list it was created in: every value it held so far points into that array. Otherwise
// the assignment that follows sets it on every path on.
bool KernelExtractor::startSelector(const BindingPtr &b, bool widened, clang::SourceRange where) {
  if (b->selector)
    return true;
  if (widened && std::find(out_.begin(), out_.end(), b->home) == out_.end()) {
    unsupported("pointer that may point into different arrays", textOf(where), where);
    return false;
  }
  std::string name = b->offset->name;  // "p.offset": the selector is "p.array"
  name = name.substr(0, name.rfind(".offset")) + ".array";
  b->selector = newLocal(name, Type::integer(32, false));
  if (widened)
    b->home->insert(b->home->begin(),
                    Stmt{rangeOf(where), model::stmt::Assign{*b->selector, Expr::intConst(
                                                                 b->selector->type, 0)}});
  return true;
}

// The Memory pointers a (choice of) pointer(s) may be.
static void arms(const Pointer &p, std::vector<const Pointer *> &out) {
  if (p.kind == Pointer::Kind::Choice) {
    arms(*p.then_p, out);
    arms(*p.else_p, out);
  } else {
    out.push_back(&p);
  }
}

static bool sameArrays(const Binding &a, const Binding &b) {
  return a.pointer.array == b.pointer.array && a.more == b.more;
}

// The value of `b`'s selector, or offset, once it holds `p` (whose arrays it has).
static ExprPtr selectorOf(const Pointer &p, const Binding &b) {
  if (p.from && sameArrays(*p.from, b))
    return Expr::local(*p.from->selector);  // a copy (double buffers' swaps)
  if (p.kind == Pointer::Kind::Choice)
    return Expr::select(p.cond, selectorOf(*p.then_p, b), selectorOf(*p.else_p, b));
  auto it = std::find(b.more.begin(), b.more.end(), p.array);
  int64_t i = p.array == b.pointer.array ? 0 : it - b.more.begin() + 1;
  return Expr::intConst(b.selector->type, i);
}

static ExprPtr offsetOf(const Pointer &p) {
  if (p.from)  // every arm at one offset
    return offsetOf(*p.else_p);
  if (p.kind != Pointer::Kind::Choice)
    return p.offset;
  ExprPtr a = offsetOf(*p.then_p), b = offsetOf(*p.else_p);
  const auto *ca = a->as<model::expr::Const>(), *cb = b->as<model::expr::Const>();
  if (a == b || (ca && cb && ca->int_value == cb->int_value))
    return a;  // `c ? A : B`: both at their start
  return Expr::select(p.cond, a, b);
}

void KernelExtractor::assignPointer(const BindingPtr &dst, const std::optional<Pointer> &p,
                                    clang::SourceRange where) {
  if (!p)
    return;
  bool unset = dst->pointer.kind == Pointer::Kind::Memory && dst->pointer.array == ~0u &&
               dst->unknown.empty();
  // Straight-line code of the variable's own scope: every path on assigns it (no branch
  // merges another target), so re-binding it to another object is exact.
  bool rebind = dst->scope && dst->scope == out_.back();
  bool widen = !unset && !rebind;
  if (widen && !dst->unknown.empty())
    return;  // unknown on some path already: every use is an error
  if (p->kind == Pointer::Kind::Unknown) {
    if (widen && !widenable(dst)) {
      unsupported(p->why, textOf(where), where);
      return;
    }
    dst->pointer = Pointer{};
    dst->pointer.array = ~0u;
    dst->more.clear();
    dst->unknown = p->why;
    return;
  }
  if (p->kind == Pointer::Kind::Local || p->kind == Pointer::Kind::Var) {
    if (widen) {
      unsupported("pointer to a local variable reassigned", textOf(where), where);
      return;
    }
    dst->pointer = *p;
    dst->more.clear();
    dst->unknown.clear();
    return;
  }
  std::vector<const Pointer *> ps;
  arms(*p, ps);
  for (const Pointer *a : ps) {
    if (a->kind != Pointer::Kind::Memory || a->scale != ps[0]->scale) {
      unsupported("pointer that may point into different kinds of object", textOf(where), where);
      return;
    }
  }
  if (!widen) {  // the arrays of `p`, in the order of the variable it copies
    std::vector<unsigned> more = p->from ? p->from->more : std::vector<unsigned>{};
    dst->pointer = Pointer::memory(p->from ? p->from->pointer.array : ps[0]->array, zero64(),
                                   ps[0]->scale);
    dst->more = std::move(more);
    dst->unknown.clear();
  } else if (dst->pointer.kind != Pointer::Kind::Memory || dst->pointer.scale != ps[0]->scale) {
    unsupported("pointer that may point into different kinds of object", textOf(where), where);
    return;
  }
  for (const Pointer *a : ps) {
    if (a->array == dst->pointer.array ||
        std::find(dst->more.begin(), dst->more.end(), a->array) != dst->more.end())
      continue;
    if (widen && !widenable(dst)) {
      unsupported("pointer that may point into different arrays",
                  textOf(where) + " (a loop reads it before this assignment)", where);
      return;
    }
    dst->more.push_back(a->array);
  }
  if (!dst->offset) {
    unsupported("pointer assignment", textOf(where), where);
    return;
  }
  if (!dst->more.empty() && !startSelector(dst, widen, where))
    return;
  if (dst->selector)
    emitAssign(*dst->selector, selectorOf(*p, *dst), where);
  emitAssign(*dst->offset, offsetOf(*p), where);
}

std::optional<Pointer> KernelExtractor::pointer(const clang::Expr *e) {
  std::optional<Pointer> p = pointerValue(e);
  if (!p)
    return p;
  clang::SourceRange where = e->getSourceRange();
  if (p->kind == Pointer::Kind::Unknown)
    unsupported(p->why, textOf(where), where);
  else if (p->kind == Pointer::Kind::Choice)
    unsupported("pointer that may point into different arrays", textOf(where), where);
  else if (p->kind == Pointer::Kind::Var)
    unsupported("pointer to a pointer variable", textOf(where), where);
  else
    return p;
  return std::nullopt;
}

// `p + k` (`p - k`), for each array p may point into.
std::optional<Pointer> KernelExtractor::shifted(const Pointer &p, const ExprPtr &k,
                                                bool subtract, const clang::Expr *where) {
  if (p.kind == Pointer::Kind::Choice) {
    std::optional<Pointer> a = shifted(*p.then_p, k, subtract, where);
    std::optional<Pointer> b = a ? shifted(*p.else_p, k, subtract, where) : std::nullopt;
    if (!b)
      return std::nullopt;
    Pointer c = p;
    c.then_p = std::make_shared<const Pointer>(std::move(*a));
    c.else_p = std::make_shared<const Pointer>(std::move(*b));
    return c;
  }
  if (p.kind != Pointer::Kind::Memory) {
    unsupported(p.kind == Pointer::Kind::Unknown ? p.why : "arithmetic on a pointer to a local",
                textOf(where->getSourceRange()), where->getSourceRange());
    return std::nullopt;
  }
  Pointer q = p;
  q.offset = addIndex(p.offset, k, p.scale, subtract);
  return q;
}

// `p` converted to a pointer to `pointee`: its scale, in each array it may point into.
Pointer KernelExtractor::rescaled(const Pointer &p, clang::QualType pointee, const clang::Expr *e) {
  Pointer q = p;
  if (p.kind == Pointer::Kind::Memory) {
    q.scale = scaleOf(p.array, pointee, e);
  } else if (p.kind == Pointer::Kind::Choice) {
    q.then_p = std::make_shared<const Pointer>(rescaled(*p.then_p, pointee, e));
    q.else_p = std::make_shared<const Pointer>(rescaled(*p.else_p, pointee, e));
  }
  return q;
}

// `p` moved on by `bytes` (a base-class part's offset), in each array it may point into.
std::optional<Pointer> KernelExtractor::movedBy(const Pointer &p, uint64_t bytes, const clang::Expr *e) {
  if (bytes == 0 || (p.kind != Pointer::Kind::Memory && p.kind != Pointer::Kind::Choice))
    return p;
  if (p.kind == Pointer::Kind::Choice) {
    std::optional<Pointer> a = movedBy(*p.then_p, bytes, e);
    std::optional<Pointer> b = a ? movedBy(*p.else_p, bytes, e) : std::nullopt;
    if (!b)
      return std::nullopt;
    Pointer q = p;
    q.then_p = std::make_shared<const Pointer>(std::move(*a));
    q.else_p = std::make_shared<const Pointer>(std::move(*b));
    return q;
  }
  uint64_t unit = std::max(1u, k_.arrays[p.array].elem_size);
  if (bytes % unit != 0) {
    unsupported("base class at an offset inside an element of its array", textOf(e->getSourceRange()),
                e->getSourceRange());
    return std::nullopt;
  }
  Pointer q = p;
  q.offset = addIndex(p.offset, Expr::intConst(Type::i64(), static_cast<int64_t>(bytes / unit)), 1);
  return q;
}

std::optional<Pointer> KernelExtractor::pointerValue(const clang::Expr *e) {
  Nested level(*this);
  if (tooDeep(e->getSourceRange())) return std::nullopt;
  e = strip(e);
  clang::SourceRange where = e->getSourceRange();
  if (const auto *c = llvm::dyn_cast<clang::CastExpr>(e)) {
    const clang::Expr *sub = c->getSubExpr();
    switch (c->getCastKind()) {
    case clang::CK_ArrayToPointerDecay:
      return decay(lvalue(sub), e->getType()->getPointeeType(), e);
    case clang::CK_LValueToRValue: {
      if (llvm::isa<clang::ConditionalOperator>(strip(sub)))
        return pointerValue(sub);  // `c ? p : q` of pointer lvalues
      LValue lv = lvalue(sub);
      if (lv.kind == LValue::Kind::PointerVar)
        return pointerOfBinding(lv.binding);
      if (lv.kind == LValue::Kind::Memory || lv.kind == LValue::Kind::Choice) {
        load(lv, sub);  // the read happens; what it reads is not followed
        return Pointer::unknown("pointer loaded from memory");
      } else if (lv.kind != LValue::Kind::Invalid) {
        unsupported("pointer value", textOf(where), where);
      }
      return std::nullopt;
    }
    case clang::CK_NoOp:
    case clang::CK_BitCast:
    case clang::CK_UncheckedDerivedToBase:
    case clang::CK_DerivedToBase: {
      std::optional<Pointer> p = pointerValue(sub);
      clang::QualType pointee = e->getType()->getPointeeType();
      if (p && (c->getCastKind() == clang::CK_UncheckedDerivedToBase ||
                c->getCastKind() == clang::CK_DerivedToBase)) {
        std::optional<uint64_t> offset = baseOffset(c);
        p = offset ? movedBy(*p, *offset, e) : std::nullopt;
      }
      if (p && !pointee->isVoidType())
        p = rescaled(*p, pointee, e);
      return p;
    }
    case clang::CK_FunctionToPointerDecay:
      unsupported("function pointer", textOf(where), where);
      return std::nullopt;
    case clang::CK_UserDefinedConversion:  // operator T*() (the SDK's SharedMemory<T>)
      return pointerValue(sub);
    default:
      unsupported("pointer conversion", std::string(c->getCastKindName()) + " " + textOf(where),
                  where);
      return std::nullopt;
    }
  }
  if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
    if (u->getOpcode() == clang::UO_AddrOf) {
      LValue lv = lvalue(u->getSubExpr());
      if (lv.kind == LValue::Kind::Memory)
        return Pointer::memory(lv.array, lv.index,
                       scaleOf(lv.array, u->getSubExpr()->getType(), e));
      if (lv.kind == LValue::Kind::Local)
        return Pointer::toLocal(lv.local);
      if (lv.kind == LValue::Kind::PointerVar) {
        return Pointer::toVar(lv.binding);
      }
      if (lv.kind != LValue::Kind::Invalid)
        unsupported("address of", textOf(where), where);
      return std::nullopt;
    }
    if (u->isIncrementDecrementOp()) {
      LValue lv = lvalue(u->getSubExpr());
      std::optional<Pointer> p =
          lv.kind == LValue::Kind::PointerVar ? pointerOfBinding(lv.binding) : std::nullopt;
      if (!p || (p->kind != Pointer::Kind::Memory && p->kind != Pointer::Kind::Choice) ||
          !lv.binding->offset) {
        unsupported("pointer increment", textOf(where), where);
        return std::nullopt;
      }
      const BindingPtr &v = lv.binding;
      ExprPtr old = Expr::local(*v->offset);
      if (u->isPostfix())
        old = snapshot(old, "old", where);
      ExprPtr updated = addIndex(old, Expr::intConst(Type::i64(), 1), v->pointer.scale,
                                 u->isDecrementOp());
      emitAssign(*v->offset, updated, where);
      return u->isPostfix() ? pointerAt(v, old) : pointerOfBinding(v);
    }
  }
  if (const auto *b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
    if (b->isAdditiveOp()) {
      bool ptr_left = b->getLHS()->getType()->isPointerType();
      std::optional<Pointer> p = pointerValue(ptr_left ? b->getLHS() : b->getRHS());
      ExprPtr k = rvalue(ptr_left ? b->getRHS() : b->getLHS());
      if (!p)
        return std::nullopt;
      return shifted(*p, k, b->getOpcode() == clang::BO_Sub, e);
    }
    if (b->getOpcode() == clang::BO_Comma) {
      discard(b->getLHS());
      return pointerValue(b->getRHS());
    }
  }
  if (const auto *c = llvm::dyn_cast<clang::ConditionalOperator>(e)) {
    ExprPtr cond = condition(c->getCond());
    std::optional<Pointer> a, b;
    std::vector<Stmt> then_effects = nested([&] { a = pointerValue(c->getTrueExpr()); });
    std::vector<Stmt> else_effects = nested([&] { b = pointerValue(c->getFalseExpr()); });
    cond = armEffects(c, cond, std::move(then_effects), std::move(else_effects));
    if (!a || !b)
      return std::nullopt;
    if (a->kind == Pointer::Kind::Memory && b->kind == Pointer::Kind::Memory &&
        a->array == b->array && a->scale == b->scale)
      return Pointer::memory(a->array, Expr::select(cond, a->offset, b->offset),
                     a->scale);
    if (a->kind == Pointer::Kind::Local || a->kind == Pointer::Kind::Var ||
        b->kind == Pointer::Kind::Local || b->kind == Pointer::Kind::Var) {
      unsupported("pointer that may point to different variables", textOf(where), where);
      return std::nullopt;
    }
    Pointer choice;  // an unknown arm stays unknown where the choice is used
    choice.kind = Pointer::Kind::Choice;
    choice.cond = cond;
    choice.then_p = std::make_shared<const Pointer>(std::move(*a));
    choice.else_p = std::make_shared<const Pointer>(std::move(*b));
    return choice;
  }
  if (llvm::isa<clang::CallExpr>(e)) {
    BindingPtr b = call(llvm::cast<clang::CallExpr>(e));
    if (b && b->kind == Binding::Kind::Pointer)  // an inlined function's result
      return pointerOfBinding(b);
    unsupported("call returning a pointer", textOf(where), where);
    return std::nullopt;
  }
  if (e->isGLValue()) {  // e.g. a pointer variable used as an lvalue of pointer type
    LValue lv = lvalue(e);
    if (lv.kind == LValue::Kind::PointerVar)
      return pointerOfBinding(lv.binding);
    return std::nullopt;
  }
  unsupported("pointer expression", std::string(e->getStmtClassName()) + " " + textOf(where),
              where);
  return std::nullopt;
}

// __popc, __clz, __ffs of `x` (its width: 32 or 64 bits) as `result` type: the sum of
// its bits; the bit count above the highest set bit; one past the lowest set bit.
static ExprPtr bitCount(BuiltinKind kind, ExprPtr x, Type result) {
  unsigned w = x->type.bits == 64 ? 64 : 32;
  Type u = Type::integer(w, false);
  x = Expr::cast(u, x);
  auto bit = [&](unsigned i) {
    ExprPtr shifted = Expr::binary(u, model::BinaryOp::Shr, x, Expr::intConst(u, i));
    return Expr::binary(u, model::BinaryOp::BitAnd, shifted, Expr::intConst(u, 1));
  };
  auto set = [&](unsigned i) {
    return Expr::binary(Type::boolean(), model::BinaryOp::Ne, bit(i), Expr::intConst(u, 0));
  };
  auto n = [&](int64_t v) { return Expr::intConst(result, v); };
  ExprPtr r;
  if (kind == BuiltinKind::PopCount) {
    r = Expr::cast(result, bit(0));
    for (unsigned i = 1; i < w; ++i)
      r = Expr::binary(result, model::BinaryOp::Add, r, Expr::cast(result, bit(i)));
  } else if (kind == BuiltinKind::LeadingZeros) {
    r = n(w);  // x == 0; a higher set bit decides over a lower one
    for (unsigned i = 0; i < w; ++i)
      r = Expr::select(set(i), n(w - 1 - i), r);
  } else {
    r = n(0);  // x == 0; a lower set bit decides over a higher one
    for (unsigned i = w; i-- > 0;)
      r = Expr::select(set(i), n(i + 1), r);
  }
  return r;
}

// --- structs ---------------------------------------------------------------------------

static ExprPtr leafValue(const BindingPtr &b) {
  if (b->kind == Binding::Kind::Local)
    return Expr::local(b->local);
  if (b->kind == Binding::Kind::Value)
    return b->value;
  return nullptr;
}

void KernelExtractor::havocStruct(const BindingPtr &dst, const std::string &what,
                                  clang::SourceRange where) {
  for (auto &[field, leaf] : dst->fields) {
    if (leaf->kind == Binding::Kind::Struct)
      havocStruct(leaf, what, where);
    else if (leaf->kind == Binding::Kind::Local)
      emitAssign(leaf->local, Expr::opaque(leaf->local.type, newId(), what), where);
    else if (leaf->kind == Binding::Kind::Ref)
      leaf->ref = LValue{};  // unknown referent: a use is unsupported
    else if (leaf->kind == Binding::Kind::Pointer && leaf->offset && leaf->scope == out_.back())
      assignPointer(leaf, Pointer::unknown("pointer field set to an unknown value"), where);
    else if (leaf->kind == Binding::Kind::Pointer && leaf->offset)
      unsupported("pointer field set to an unknown value", what, where);
  }
}

void KernelExtractor::copyStruct(const BindingPtr &dst, const BindingPtr &src,
                                 clang::SourceRange where) {
  for (auto &[field, leaf] : dst->fields) {
    auto it = src->fields.find(field);
    if (it == src->fields.end()) {
      unsupported("struct copy between different types", textOf(where), where);
      return;
    }
    if (leaf->kind == Binding::Kind::Struct)
      copyStruct(leaf, it->second, where);
    else if (leaf->kind == Binding::Kind::Local) {
      if (ExprPtr v = leafValue(it->second))
        emitAssign(leaf->local, v, where);
    } else if (leaf->kind == Binding::Kind::Ref && it->second->kind == Binding::Kind::Ref) {
      leaf->ref = it->second->ref;  // a copy refers to the same object
    } else if (leaf->kind == Binding::Kind::Pointer && leaf->offset) {  // a pointer field
      std::optional<Pointer> p = pointerOfBinding(it->second);
      if (!p)
        unsupported("pointer used before it is assigned", textOf(where), where);
      assignPointer(leaf, p, where);
    }
  }
}

// A constructor whose body is empty and whose member initializers only bind reference
// fields to reference parameters (`explicit atomic_ref(T &obj) : ref(obj) {}`): the
// fields refer to the arguments' objects. Anything else is left to the caller.
bool KernelExtractor::bindReferenceFields(const BindingPtr &dst,
                                          const clang::CXXConstructExpr *ce) {
  const clang::CXXConstructorDecl *ctor = ce->getConstructor();
  const clang::FunctionDecl *def = nullptr;
  if (!ctor->hasBody(def))
    return false;
  const auto *cdef = llvm::cast<clang::CXXConstructorDecl>(def);
  const auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(cdef->getBody());
  if (!body || !body->body_empty() || cdef->getNumParams() != ce->getNumArgs())
    return false;
  std::map<const clang::FieldDecl *, unsigned> bound;  // field -> parameter index
  for (const clang::CXXCtorInitializer *init : cdef->inits()) {
    const clang::FieldDecl *f = init->getMember();
    if (!f || !f->getType()->isReferenceType())
      return false;
    const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(strip(init->getInit())->IgnoreImpCasts());
    const auto *parm = ref ? llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl()) : nullptr;
    if (!parm || !parm->getType()->isReferenceType())
      return false;
    bound[f] = parm->getFunctionScopeIndex();
  }
  if (bound.empty() || bound.size() != dst->fields.size())
    return false;
  std::vector<LValue> args(ce->getNumArgs());
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
    if (cdef->getParamDecl(i)->getType()->isReferenceType())
      args[i] = lvalue(ce->getArg(i));
    else
      discard(ce->getArg(i));
  }
  for (auto &[field, leaf] : dst->fields) {
    auto it = bound.find(field);
    if (it == bound.end() || leaf->kind != Binding::Kind::Ref)
      return false;
    leaf->ref = args[it->second];
  }
  return true;
}

// Assigns `values` (in field order) to the leaves of `dst`, recursing into sub-structs.
static std::vector<const clang::FieldDecl *> fieldsOf(clang::QualType t) {
  std::vector<const clang::FieldDecl *> out;
  if (const clang::RecordDecl *rd = t->getAsRecordDecl(); rd && rd->getDefinition())
    for (const clang::FieldDecl *f : rd->getDefinition()->fields())
      out.push_back(f);
  return out;
}

void KernelExtractor::assignStruct(const BindingPtr &dst, const clang::Expr *src) {
  src = strip(src);
  clang::SourceRange where = src->getSourceRange();
  if (const auto *m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(src))
    return assignStruct(dst, m->getSubExpr());
  if (const auto *c = llvm::dyn_cast<clang::CastExpr>(src);
      c && (c->getCastKind() == clang::CK_NoOp ||
            c->getCastKind() == clang::CK_ConstructorConversion ||
            llvm::isa<clang::CXXFunctionalCastExpr>(c)))
    return assignStruct(dst, c->getSubExpr());
  if (const auto *ce = llvm::dyn_cast<clang::CXXConstructExpr>(src)) {
    const clang::CXXConstructorDecl *ctor = ce->getConstructor();
    if (ctor->isCopyOrMoveConstructor() && ce->getNumArgs() >= 1)
      return assignStruct(dst, ce->getArg(0));
    if (ctor->isDefaultConstructor() && ctor->isTrivial())
      return havocStruct(dst, "uninitialized", where);
    if (dst->fields.empty()) {  // an empty class (a cooperative group): nothing to model
      for (const clang::Expr *a : ce->arguments())
        discard(a);
      return;
    }
    if (bindReferenceFields(dst, ce))
      return;
    if (inPrelude(ctor) && !ctor->hasBody()) {  // a conversion (__nv_bfloat16(float)): a value
      for (const clang::Expr *a : ce->arguments())  // by value: the prelude's take no pointers
        discard(a);
      return havocStruct(dst, "value of " + ctor->getParent()->getName().str(), where);
    }
    if (inlineConstructor(dst, ce))
      return;
    unsupported("constructor call", textOf(where), where);
    return havocStruct(dst, "unsupported constructor", where);
  }
  if (const auto *il = llvm::dyn_cast<clang::InitListExpr>(src)) {
    std::vector<const clang::FieldDecl *> fields = fieldsOf(src->getType());
    // C++17 aggregates: an initializer per base class first; `dst` holds its fields too
    unsigned bases = 0;
    if (const auto *cxx = src->getType()->getAsCXXRecordDecl(); cxx && cxx->hasDefinition())
      for (; bases < cxx->getNumBases() && bases < il->getNumInits(); ++bases)
        assignStruct(dst, il->getInit(bases));
    for (size_t i = 0; i < fields.size(); ++i) {
      BindingPtr leaf = dst->fields[fields[i]];
      const clang::Expr *init = bases + i < il->getNumInits() ? il->getInit(bases + i) : nullptr;
      if (leaf->kind == Binding::Kind::Struct) {
        if (init)
          assignStruct(leaf, init);
        else
          havocStruct(leaf, "zero", where);
      } else if (leaf->kind == Binding::Kind::Local) {
        emitAssign(leaf->local, init ? rvalue(init) : Expr::intConst(leaf->local.type, 0),
                   where);
      } else if (leaf->kind == Binding::Kind::Pointer && leaf->offset && init) {
        assignPointer(leaf, init, where);
      } else if (init) {
        // an array field (element values untracked) or a reference: the initializer's
        // loads and calls still happen
        discard(init);
      }
    }
    return;
  }
  if (const auto *c = llvm::dyn_cast<clang::CallExpr>(src)) {
    const clang::FunctionDecl *fn = c->getDirectCallee();
    if (fn && inPrelude(fn) && !fn->hasBody() &&
        classifyBuiltin(fn->getName().str()).kind == BuiltinKind::MakeVector) {
      std::vector<const clang::FieldDecl *> fields = fieldsOf(src->getType());
      for (size_t i = 0; i < fields.size() && i < c->getNumArgs(); ++i)
        if (BindingPtr leaf = dst->fields[fields[i]]; leaf->kind == Binding::Kind::Local)
          emitAssign(leaf->local, rvalue(c->getArg(i)), where);
      return;
    }
    BindingPtr result = call(c);
    if (result && result->kind == Binding::Kind::Struct)
      return copyStruct(dst, result, where);
    if (result && result->kind == Binding::Kind::Ref && result->ref.binding)
      return copyStruct(dst, result->ref.binding, where);
    return havocStruct(dst, "result of " + textOf(where), where);
  }
  if (src->isGLValue()) {
    LValue lv = lvalue(src);
    if (lv.kind == LValue::Kind::Struct)
      return copyStruct(dst, lv.binding, where);
    if (lv.kind == LValue::Kind::Memory || lv.kind == LValue::Kind::Choice) {
      load(lv, src);
      return havocStruct(dst, "load of " + textOf(where), where);
    }
    return havocStruct(dst, "unsupported", where);
  }
  unsupported("struct value", std::string(src->getStmtClassName()) + " " + textOf(where), where);
  havocStruct(dst, "unsupported", where);
}

// --- calls ---------------------------------------------------------------------------

ExprPtr KernelExtractor::bindingValue(const BindingPtr &b, const clang::Expr *where) {
  if (b) {
    if (ExprPtr v = leafValue(b))
      return v;
    if (b->kind == Binding::Kind::Ref)
      return load(b->ref, where);
  }
  return opaque(where->getType(), "value of " + textOf(where->getSourceRange()));
}

// Whether a builtin's parameters, or the arguments of this call of it, include a pointer,
// reference or array: it may then touch memory kverify cannot see. (Type-generic builtins
// such as __builtin_isnan are declared variadic: their arguments tell.)
static bool takesPointers(const clang::FunctionDecl *fn, const clang::CallExpr *c) {
  auto pointerish = [](clang::QualType t) { return t->isPointerType() || t->isReferenceType() || t->isArrayType(); };
  for (const clang::ParmVarDecl *p : fn->parameters())
    if (pointerish(p->getType())) return true;
  for (const clang::Expr *a : c->arguments())
    if (pointerish(a->getType())) return true;
  return false;
}

// A writable variable in device memory (a non-const __device__ or __managed__ variable)
// declared in the user's code: a function kverify cannot see could write it.
static bool declaresDeviceVariable(const clang::DeclContext *dc, const KernelExtractor &x) {
  for (const clang::Decl *d : dc->decls()) {
    if (const auto *v = llvm::dyn_cast<clang::VarDecl>(d))
      if (v->hasGlobalStorage() && !x.inPrelude(v) && !v->getType().isConstQualified() &&
          (v->hasAttr<clang::CUDADeviceAttr>() || v->hasAttr<clang::HIPManagedAttr>()) &&
          !v->hasAttr<clang::CUDAConstantAttr>())
        return true;
    if (const auto *inner = llvm::dyn_cast<clang::DeclContext>(d))
      if (llvm::isa<clang::NamespaceDecl>(d) || llvm::isa<clang::LinkageSpecDecl>(d))
        if (declaresDeviceVariable(inner, x))
          return true;
  }
  return false;
}

BindingPtr KernelExtractor::call(const clang::CallExpr *c) {
  clang::SourceRange where = c->getSourceRange();
  if (llvm::isa<clang::CUDAKernelCallExpr>(c)) {
    unsupported("dynamic parallelism", "kernel launch from device code: " + textOf(where),
                where);
    return nullptr;
  }
  const clang::FunctionDecl *fn = c->getDirectCallee();
  if (!fn)
    return callThroughPointer(c);
  // Assignment of structs is a call of the implicit operator=.
  if (const auto *op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(c);
      op && op->getOperator() == clang::OO_Equal) {
    const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(fn);
    if (method && (method->isTrivial() || method->isDefaulted()) && c->getNumArgs() == 2) {
      LValue lv = lvalue(c->getArg(0));
      if (lv.kind == LValue::Kind::Struct) {
        assignStruct(lv.binding, c->getArg(1));
        auto b = std::make_shared<Binding>();
        b->kind = Binding::Kind::Ref;
        b->ref = lv;
        return b;
      }
      BindingPtr scratch = freshStruct(c->getArg(1)->getType(), "value");
      assignStruct(scratch, c->getArg(1));
      store(lv, opaque(c->getType(), "struct"), c->getArg(0));
      return nullptr;
    }
  }
  // before clang's builtins (__syncthreads is both); __kverify_assume_forall has a body
  // only so that clang accepts a lambda's type as its argument
  if (inPrelude(fn) && (!fn->hasBody() || classifyBuiltin(fn->getName().str()).kind == BuiltinKind::AssumeForall))
    return builtin(c, fn);
  if (fn->getBuiltinID() != 0) {
    if (fn->getBuiltinID() == clang::Builtin::BI__builtin_expect && c->getNumArgs() == 2)
      return valueBinding(rvalue(c->getArg(0)));
    if (unsigned id = fn->getBuiltinID(); id == clang::Builtin::BI__builtin_memcpy ||
        id == clang::Builtin::BImemcpy || id == clang::Builtin::BI__builtin_memset ||
        id == clang::Builtin::BImemset)
      return copyOrFill(c, id == clang::Builtin::BI__builtin_memset || id == clang::Builtin::BImemset);
    if (takesPointers(fn, c)) {
      unsupported("builtin function with pointer arguments", fn->getNameAsString(), where);
      return nullptr;
    }
    for (const clang::Expr *a : c->arguments())
      discard(a);
    return fn->getReturnType()->isVoidType()
               ? nullptr
               : valueBinding(opaque(fn->getReturnType(), "call of " + fn->getNameAsString()));
  }
  const clang::FunctionDecl *def = nullptr;
  if (fn->hasBody(def))
    return inlineCall(c, def);
  if (takesPointers(fn, c)) {
    unsupported("unknown external function with pointer arguments",
                "'" + fn->getQualifiedNameAsString() + "' has no body kverify can see",
                where);
    return nullptr;
  }
  if (declaresDeviceVariable(ctx_.getTranslationUnitDecl(), *this)) {
    unsupported("unknown external function",
                "'" + fn->getQualifiedNameAsString() +
                    "' has no body kverify can see, and could write the file's __device__ variables",
                where);
    return nullptr;
  }
  for (const clang::Expr *a : c->arguments())
    discard(a);
  if (fn->getReturnType()->isVoidType())
    return nullptr;
  return valueBinding(opaque(fn->getReturnType(), "call of " + fn->getNameAsString()));
}

BindingPtr KernelExtractor::builtin(const clang::CallExpr *c, const clang::FunctionDecl *fn) {
  std::string name = fn->getNameAsString();
  clang::SourceRange where = c->getSourceRange();
  if (!frames_.empty() && frames_.back().site.isValid())
    where = frames_.back().site;  // a builtin called by prelude code: report the user's call
  BuiltinInfo info = classifyBuiltin(name);
  clang::QualType ret = fn->getReturnType();
  auto arg = [&](unsigned i) { return c->getArg(i); };
  auto barrier = [&](model::BarrierKind kind, ExprPtr mask, ExprPtr pred) {
    emit(Stmt{rangeOf(where), model::stmt::Barrier{kind, name, std::move(mask), std::move(pred)}});
  };
  auto memoryAccess = [&](model::AccessKind kind, const clang::Expr *ptr, ExprPtr operand = nullptr,
                          ExprPtr order = nullptr) -> std::optional<unsigned> {
    std::optional<Pointer> p = pointer(ptr);
    if (!p)
      return std::nullopt;
    if (p->kind == Pointer::Kind::Local) {  // e.g. sincosf(x, &s, &c)
      if (kind != model::AccessKind::Read)
        emitAssign(p->local, Expr::opaque(p->local.type, newId(), "written by " + name), where);
      return std::nullopt;
    }
    return emitAccess(kind, p->array, p->offset, p->scale, where,
                      kind == model::AccessKind::Atomic ? &info : nullptr, std::move(operand),
                      std::move(order));
  };
  auto twoInts = [&](ExprPtr &a, ExprPtr &b) {
    Type t = typeOf(ret);
    a = snapshot(Expr::cast(t, rvalue(arg(0))), name + ".a", where);
    b = snapshot(Expr::cast(t, rvalue(arg(1))), name + ".b", where);
  };
  switch (info.kind) {
  case BuiltinKind::BlockBarrier:
    barrier(model::BarrierKind::Block, nullptr, nullptr);
    return nullptr;
  case BuiltinKind::PredicateBarrier:
    barrier(model::BarrierKind::Block, nullptr, condition(arg(0)));
    return valueBinding(Expr::opaque(typeOf(ret), newId(), "result of " + name, /*per_block=*/true));
  case BuiltinKind::WarpBarrier:
    barrier(model::BarrierKind::Warp, Expr::cast(Type::u32(), rvalue(arg(0))), nullptr);
    return nullptr;
  case BuiltinKind::GridBarrier:
    name = "grid_group::sync";  // reports name the barrier as users write it
    barrier(model::BarrierKind::Grid, nullptr, nullptr);
    return nullptr;
  case BuiltinKind::Fence: {
    emit(Stmt{rangeOf(where), model::stmt::Fence{info.scope, name}});
    return nullptr;
  }
  case BuiltinKind::Assume:
    emit(Stmt{rangeOf(where), model::stmt::Assume{condition(arg(0))}});
    return nullptr;
  case BuiltinKind::AssumeForall:
    assumeForall(c, where);
    return nullptr;
  case BuiltinKind::Requires:
    if (frames_.size() == 1) {  // the kernel's own precondition: an assumption at entry
      emit(Stmt{rangeOf(where), model::stmt::Assume{condition(arg(0))}});
    } else {
      k_.unchecked.push_back({"__requires", "a precondition of a called function, not assumed: " + textOf(where),
                              rangeOf(where)});
    }
    return nullptr;
  case BuiltinKind::Unchecked:
  case BuiltinKind::Unsupported: {
    const auto *lit = llvm::dyn_cast<clang::StringLiteral>(arg(0)->IgnoreParenImpCasts());
    std::string what = lit ? lit->getString().str() : name;
    if (info.kind == BuiltinKind::Unsupported)
      unsupported(what, textOf(where), where);
    else
      k_.unchecked.push_back({what, textOf(where), rangeOf(where)});
    return nullptr;
  }
  case BuiltinKind::Atomic: {
    // <cuda/atomic>'s operations end in the memory order and the object's scope
    unsigned args = c->getNumArgs();
    ExprPtr order;
    if (name.rfind("__kverify_atomic_", 0) == 0 && args >= 3) {
      order = rvalue(arg(args - 2));
      clang::Expr::EvalResult scope;
      if (!arg(args - 1)->EvaluateAsInt(scope, ctx_)) {
        unsupported("atomic scope that is not a constant", textOf(where), where);
        return nullptr;
      }
      int64_t s = scope.Val.getInt().getExtValue();  // cuda::thread_scope
      info.scope = s == 0 ? model::Scope::System : s == 1 ? model::Scope::Device : model::Scope::Block;
      args -= 2;
    }
    // The operand of an atomicAdd (a positive constant: the counter hands out tickets)
    // and the value an exchange or store writes (a flag's value: message passing).
    using Op = model::AtomicOp;
    const bool keep = info.atomic == Op::Add || info.atomic == Op::Exch || info.atomic == Op::Store;
    ExprPtr operand;
    for (unsigned i = 1; i < args; ++i)
      if (i == 1 && keep && arg(1)->getType()->isIntegerType())
        operand = rvalue(arg(1));
      else
        discard(arg(i));
    std::optional<unsigned> id = memoryAccess(model::AccessKind::Atomic, arg(0), operand, order);
    if (ret->isVoidType())  // __kverify_atomic_store
      return nullptr;
    return valueBinding(id ? Expr::opaque(typeOf(ret), *id, "result of " + name) : opaque(ret, "result of " + name));
  }
  case BuiltinKind::Ldg: {
    std::optional<unsigned> id = memoryAccess(model::AccessKind::Read, arg(0));
    if (id)
      return valueBinding(Expr::opaque(typeOf(ret), *id, "load via __ldg"));
    return valueBinding(opaque(ret, "load via __ldg"));
  }
  case BuiltinKind::Min:
  case BuiltinKind::Max:
    if (typeOf(ret).kind == Type::Kind::Int) {
      ExprPtr a, b;
      twoInts(a, b);
      auto lt = Expr::binary(Type::boolean(), model::BinaryOp::Lt, a, b);
      return valueBinding(info.kind == BuiltinKind::Min ? Expr::select(lt, a, b)
                                                        : Expr::select(lt, b, a));
    }
    break;
  case BuiltinKind::Abs:
    if (typeOf(ret).kind == Type::Kind::Int) {
      Type t = typeOf(ret);
      ExprPtr x = snapshot(Expr::cast(t, rvalue(arg(0))), name + ".x", where);
      auto neg = Expr::binary(Type::boolean(), model::BinaryOp::Lt, x, Expr::intConst(t, 0));
      return valueBinding(Expr::select(neg, Expr::unary(t, model::UnaryOp::Neg, x), x));
    }
    break;
  case BuiltinKind::Mul24: {
    // The product of the sign-extended low 24 bits of each operand.
    ExprPtr a, b;
    twoInts(a, b);
    auto eight = Expr::intConst(Type::i32(), 8);
    auto sext24 = [&](ExprPtr x) {
      return Expr::binary(Type::i32(), model::BinaryOp::Shr,
                          Expr::binary(Type::i32(), model::BinaryOp::Shl, x, eight), eight);
    };
    return valueBinding(Expr::binary(Type::i32(), model::BinaryOp::Mul, sext24(a), sext24(b)));
  }
  case BuiltinKind::UMul24: {
    ExprPtr a, b;
    twoInts(a, b);
    auto low = Expr::intConst(Type::u32(), 0xffffff);
    return valueBinding(Expr::binary(
        Type::u32(), model::BinaryOp::Mul,
        Expr::binary(Type::u32(), model::BinaryOp::BitAnd, a, low),
        Expr::binary(Type::u32(), model::BinaryOp::BitAnd, b, low)));
  }
  case BuiltinKind::BitReverse: {
    Type t = typeOf(ret);
    return valueBinding(Expr::unary(t, model::UnaryOp::BitReverse, Expr::cast(t, rvalue(arg(0)))));
  }
  case BuiltinKind::PopCount:
  case BuiltinKind::LeadingZeros:
  case BuiltinKind::FirstSet:
    return valueBinding(bitCount(info.kind, rvalue(arg(0)), typeOf(ret)));
  case BuiltinKind::SurfaceWrite:
    unsupported("surface write", textOf(where), where);
    return nullptr;
  case BuiltinKind::TextureRead:
    for (unsigned i = 1; i < c->getNumArgs(); ++i)  // the coordinates
      discard(arg(i));
    return valueBinding(opaque(ret, "texture fetch " + name));
  case BuiltinKind::DeviceHeap:
    if (name == "memcpy" || name == "memset")
      return copyOrFill(c, name == "memset");
    unsupported("device memory function", name + ": " + textOf(where), where);
    return nullptr;
  case BuiltinKind::MakeVector: {
    BindingPtr b = freshStruct(ret, name);
    assignStruct(b, c);
    return b;
  }
  case BuiltinKind::NoEffect:
    return nullptr;
  case BuiltinKind::Opaque:
    break;
  }
  // Opaque: math, conversions, shuffles, votes, texture reads, printf. Pointer
  // arguments (other than string literals) are out-parameters or reads.
  for (unsigned i = 0; i < c->getNumArgs(); ++i) {
    const clang::Expr *a = arg(i);
    if (llvm::isa<clang::StringLiteral>(a->IgnoreParenImpCasts()))
      continue;
    if (a->getType()->isPointerType()) {
      bool read_only = a->getType()->getPointeeType().isConstQualified();
      memoryAccess(read_only ? model::AccessKind::Read : model::AccessKind::Write, a);
    } else {
      discard(a);
    }
  }
  if (ret->isVoidType())
    return nullptr;
  return valueBinding(opaque(ret, "call of " + name));
}

// Whether every use of `var` in `s` reads its value (none assigns it, takes its address
// or binds a reference to it).
static bool onlyRead(const clang::Stmt *s, const clang::VarDecl *var) {
  if (!s)
    return true;
  if (const auto *ic = llvm::dyn_cast<clang::ImplicitCastExpr>(s);
      ic && ic->getCastKind() == clang::CK_LValueToRValue)
    if (const auto *d = llvm::dyn_cast<clang::DeclRefExpr>(ic->getSubExpr()->IgnoreParens());
        d && d->getDecl() == var)
      return true;
  if (const auto *d = llvm::dyn_cast<clang::DeclRefExpr>(s); d && d->getDecl() == var)
    return false;
  for (const clang::Stmt *c : s->children())
    if (!onlyRead(c, var))
      return false;
  return true;
}

// The value of length `n` when it is known at compile time: a constant expression, or a
// local of the current function that is never written after its constant initializer
// (`size_t len = 4;`).
std::optional<uint64_t> KernelExtractor::constantLength(const clang::Expr *n) {
  clang::Expr::EvalResult r;
  if (!n->isValueDependent() && n->EvaluateAsInt(r, ctx_))
    return r.Val.getInt().getZExtValue();
  const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(n->IgnoreParenImpCasts());
  const auto *var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!var || llvm::isa<clang::ParmVarDecl>(var) || !var->hasLocalStorage() ||
      !var->getType()->isIntegerType() || !var->getInit() ||
      !onlyRead(frames_.back().fn->getBody(), var))
    return std::nullopt;
  if (!var->getInit()->EvaluateAsInt(r, ctx_) || r.Val.getInt().isNegative())
    return std::nullopt;
  return r.Val.getInt().getZExtValue();
}

// memcpy(d, s, n) and memset(d, v, n) with `n` known at compile time: a read of the
// elements of s that the n bytes cover, then a write of those of d (in each array's own
// elements, a partly covered last element counting whole). The result is not modelled.
BindingPtr KernelExtractor::copyOrFill(const clang::CallExpr *c, bool is_fill) {
  clang::SourceRange where = c->getSourceRange();
  std::string name = is_fill ? "memset" : "memcpy";
  if (c->getNumArgs() != 3) {
    unsupported(name, textOf(where), where);
    return nullptr;
  }
  // `&s` with s a struct variable (a bit cast through memcpy, as llm.c's Packed128 does):
  // copying into it leaves its fields unknown, copying from it reads no shared memory
  auto structAt = [&](const clang::Expr *a) -> std::pair<BindingPtr, uint64_t> {
    const auto *u = llvm::dyn_cast<clang::UnaryOperator>(strip(a)->IgnoreParenImpCasts());
    if (!u || u->getOpcode() != clang::UO_AddrOf || !u->getSubExpr()->getType()->isRecordType())
      return {};
    LValue lv = lvalue(u->getSubExpr());
    if (lv.kind != LValue::Kind::Struct) return {};
    return {lv.binding, sizeOf(u->getSubExpr()->getType())};
  };
  auto [dst_struct, dst_size] = structAt(c->getArg(0));
  std::optional<Pointer> dst = dst_struct ? std::nullopt : pointer(c->getArg(0)), src;
  std::pair<BindingPtr, uint64_t> src_struct;
  if (is_fill)
    discard(c->getArg(1));
  else if (src_struct = structAt(c->getArg(1)); !src_struct.first)
    src = pointer(c->getArg(1));
  std::optional<uint64_t> bytes = constantLength(c->getArg(2));
  if (!bytes) {
    discard(c->getArg(2));
    unsupported(name, "a length kverify cannot compute at compile time: " +
                          textOf(c->getArg(2)->getSourceRange()), where);
    return nullptr;
  }
  if ((dst_struct && *bytes > dst_size) || (src_struct.first && *bytes > src_struct.second)) {
    unsupported(name, "more bytes than the struct holds: " + textOf(where), where);
    return nullptr;
  }
  if (dst_struct)
    havocStruct(dst_struct, "written by " + name, where);
  auto touch = [&](model::AccessKind kind, const std::optional<Pointer> &p) {
    if (!p || *bytes == 0)
      return;  // pointer() has said why it has no target
    if (p->kind == Pointer::Kind::Local) {  // a scalar local: its new value is unknown
      if (kind == model::AccessKind::Write)
        emitAssign(p->local, Expr::opaque(p->local.type, newId(), "written by " + name), where);
      return;
    }
    uint64_t es = std::max<uint64_t>(1, k_.arrays[p->array].elem_size);
    uint64_t count = *bytes / es + (*bytes % es != 0);
    if (count > (1u << 30)) {
      unsupported(name, "a length of " + std::to_string(*bytes) + " bytes", where);
      return;
    }
    emitAccess(kind, p->array, p->offset, count, where);
  };
  if (!is_fill)
    touch(model::AccessKind::Read, src);
  touch(model::AccessKind::Write, dst);
  return nullptr;
}

// `lv` as it designates now: its index (and which array a choice picks) snapshotted.
LValue KernelExtractor::pinned(LValue lv, const std::string &name, clang::SourceRange where) {
  if (lv.kind == LValue::Kind::Memory) {
    lv.index = snapshot(lv.index, name + ".index", where);
  } else if (lv.kind == LValue::Kind::Choice) {
    lv.cond = snapshot(lv.cond, name + ".cond", where);
    lv.then_lv = std::make_shared<const LValue>(pinned(*lv.then_lv, name, where));
    lv.else_lv = std::make_shared<const LValue>(pinned(*lv.else_lv, name, where));
  }
  return lv;
}

// A reference bound to `lv`: it names the element the index had at binding time.
BindingPtr KernelExtractor::referenceTo(LValue lv, const std::string &name, clang::SourceRange where) {
  auto b = std::make_shared<Binding>();
  b->kind = Binding::Kind::Ref;
  b->ref = pinned(std::move(lv), name, where);
  return b;
}

void KernelExtractor::bindArgument(Frame &frame, const clang::ParmVarDecl *param,
                                   const clang::Expr *arg) {
  clang::QualType t = param->getType();
  std::string name = frame.prefix + param->getNameAsString();
  auto b = std::make_shared<Binding>();
  clang::SourceRange where = arg->getSourceRange();
  if (t->isReferenceType() && t->getPointeeType()->isRecordType()) {
    LValue lv = lvalue(arg);
    if (lv.kind == LValue::Kind::Struct) {
      b = lv.binding;
    } else if (lv.kind == LValue::Kind::Memory || lv.kind == LValue::Kind::Choice) {
      b = referenceTo(lv, name, where);  // writes through it reach the element
    } else {
      b = freshStruct(t->getPointeeType(), name);
      havocStruct(b, "struct argument", where);
    }
  } else if (t->isReferenceType()) {
    b = referenceTo(lvalue(arg), name, where);
  } else if (t->isPointerType() && !t->isFunctionPointerType()) {
    b->kind = Binding::Kind::Pointer;
    b->pointer.array = ~0u;
    b->offset = newLocal(name + ".offset", Type::i64());
    b->scope = b->home = out_.back();  // the inlined body
    b->created_at = ++event_;
    assignPointer(b, arg, where);
  } else if (t->isRecordType()) {
    b = freshStruct(t, name);
    assignStruct(b, arg);
  } else if (t->isScalarType()) {
    b->kind = Binding::Kind::Local;
    b->local = newLocal(name, typeOf(t));
    emitAssign(b->local, rvalue(arg), where);
  } else {
    unsupported("parameter type", "'" + name + "' of type '" + t.getAsString() + "'", where);
  }
  frame.vars[param] = b;
}

// A constructor with a body kverify can see, inlined as a member call on `dst`: fields
// start unknown, then the member initializers and the body run. False when it has no
// body (the caller says so).
bool KernelExtractor::inlineConstructor(const BindingPtr &dst, const clang::CXXConstructExpr *ce) {
  const clang::FunctionDecl *def = nullptr;
  if (!ce->getConstructor()->hasBody(def) || def->getNumParams() != ce->getNumArgs())
    return false;
  const auto *ctor = llvm::cast<clang::CXXConstructorDecl>(def);
  clang::SourceRange where = ce->getSourceRange();
  for (const Frame &f : frames_)
    if (f.fn && f.fn->getCanonicalDecl() == ctor->getCanonicalDecl()) {
      unsupported("recursion", "'" + ctor->getQualifiedNameAsString() + "' calls itself", where);
      return true;
    }
  if (tooManyInlined(where)) return true;
  Frame frame;
  frame.fn = ctor;
  frame.prefix = ctor->getParent()->getNameAsString() + ".";
  frame.this_object = dst;
  frame.site = !frames_.empty() && frames_.back().site.isValid() ? frames_.back().site
               : inPrelude(ctor)                                  ? where
                                                                  : clang::SourceRange();
  model::stmt::Inlined inl;
  inl.function = ctor->getQualifiedNameAsString();
  inl.body = nested([&] {
    for (unsigned i = 0; i < ctor->getNumParams(); ++i)  // in the caller's frame
      bindArgument(frame, ctor->getParamDecl(i), ce->getArg(i));
    frames_.push_back(frame);
    auto uninitialized = std::make_shared<Binding>(*dst);  // the fields no initializer sets
    for (const clang::CXXCtorInitializer *init : ctor->inits())
      if (init->getMember())
        uninitialized->fields.erase(init->getMember());
    havocStruct(uninitialized, "uninitialized", where);
    for (const clang::CXXCtorInitializer *init : ctor->inits()) {
      const clang::FieldDecl *f = init->getMember();
      auto it = f ? dst->fields.find(f) : dst->fields.end();
      if (it == dst->fields.end()) {  // a base class, a delegating or indirect initializer
        unsupported("constructor initializer", textOf(init->getSourceRange()), where);
        continue;
      }
      const BindingPtr &leaf = it->second;
      const clang::Expr *value = init->getInit();
      if (leaf->kind == Binding::Kind::Struct)
        assignStruct(leaf, value);
      else if (leaf->kind == Binding::Kind::Local)
        emitAssign(leaf->local, rvalue(value), init->getSourceRange());
      else if (leaf->kind == Binding::Kind::Ref)
        leaf->ref = lvalue(value);
      else if (leaf->kind == Binding::Kind::Pointer && leaf->offset)
        assignPointer(leaf, value, init->getSourceRange());
      else
        discard(value);  // an array field: its element values are not tracked
    }
    if (shallowEnough(ctor->getBody()))
      stmt(ctor->getBody());
    frames_.pop_back();
  });
  emit(Stmt{rangeOf(where), std::move(inl)});
  return true;
}

bool KernelExtractor::tooManyInlined(clang::SourceRange where) {
  if (++inlined_ <= kMaxInlined) return false;
  if (inlined_ == kMaxInlined + 1)
    unsupported("call tree", "more than " + std::to_string(kMaxInlined) +
                                 " calls inlined into the kernel (a call tree that grows exponentially?)",
                where);
  return true;
}

// The function's body ends in its only return statement: every call that returns
// returns that statement's value.
static bool onlyReturnIsLast(const clang::FunctionDecl *fn) {
  struct Returns : clang::RecursiveASTVisitor<Returns> {
    unsigned count = 0;
    bool VisitReturnStmt(clang::ReturnStmt *) { return ++count, true; }
    bool TraverseLambdaExpr(clang::LambdaExpr *) { return true; }  // their own returns
  } returns;
  const auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(fn->getBody());
  if (!body || body->body_empty() || !llvm::isa<clang::ReturnStmt>(body->body_back()))
    return false;
  returns.TraverseStmt(const_cast<clang::CompoundStmt *>(body));
  return returns.count == 1;
}

BindingPtr KernelExtractor::inlineCall(const clang::CallExpr *c, const clang::FunctionDecl *fn) {
  clang::SourceRange where = c->getSourceRange();
  for (const Frame &f : frames_) {
    if (f.fn && f.fn->getCanonicalDecl() == fn->getCanonicalDecl()) {
      unsupported("recursion", "'" + fn->getQualifiedNameAsString() + "' calls itself", where);
      return nullptr;
    }
  }
  if (tooManyInlined(where)) return nullptr;
  Frame frame;
  frame.fn = fn;
  frame.prefix = fn->getNameAsString() + ".";
  if (!frames_.empty() && frames_.back().site.isValid())
    frame.site = frames_.back().site;
  else if (inPrelude(fn))
    frame.site = where;
  model::stmt::Inlined inl;
  inl.function = fn->getQualifiedNameAsString();
  inl.body = nested([&] {
    // Arguments are evaluated in the caller's frame.
    unsigned first = 0;
    const clang::Expr *object = nullptr;
    if (const auto *mc = llvm::dyn_cast<clang::CXXMemberCallExpr>(c)) {
      object = mc->getImplicitObjectArgument();
    } else if (llvm::isa<clang::CXXOperatorCallExpr>(c) && llvm::isa<clang::CXXMethodDecl>(fn)) {
      object = c->getArg(0);
      first = 1;
    }
    if (object) {
      const clang::Expr *o = strip(object)->IgnoreImpCasts();
      if (llvm::isa<clang::CXXThisExpr>(o)) {
        frame.this_object = frames_.back().this_object;
        frame.this_memory = frames_.back().this_memory;
      } else {
        LValue lv;
        if (!object->getType()->isPointerType())
          lv = lvalue(object);
        else if (std::optional<Pointer> p = pointer(object); p && p->kind == Pointer::Kind::Memory)
          lv = pointee(p, nullptr, object);
        if (lv.kind == LValue::Kind::Struct)
          frame.this_object = lv.binding;
        else if (lv.kind == LValue::Kind::Memory || lv.kind == LValue::Kind::Choice)
          frame.this_memory = pinned(lv, frame.prefix + "this", where);  // its fields are memory
      }
      if (!frame.this_object && frame.this_memory.kind == LValue::Kind::Invalid) {
        const auto *rd = llvm::cast<clang::CXXMethodDecl>(fn)->getParent();
        if (!rd->field_empty())
          unsupported("member call on an object kverify does not model", textOf(where), where);
        frame.this_object = std::make_shared<Binding>();
        frame.this_object->kind = Binding::Kind::Struct;
      }
    }
    if (c->getNumArgs() - first > fn->getNumParams())
      unsupported("variadic function", fn->getQualifiedNameAsString(), where);
    for (unsigned i = 0; i < fn->getNumParams() && first + i < c->getNumArgs(); ++i)
      bindArgument(frame, fn->getParamDecl(i), c->getArg(first + i));
    clang::QualType ret = fn->getReturnType();
    if (ret->isRecordType()) {
      frame.result = freshStruct(ret, frame.prefix + "result");
    } else if (ret->isPointerType() && !ret->isFunctionPointerType()) {  // a pointer variable its returns assign
      frame.result = std::make_shared<Binding>();
      frame.result->kind = Binding::Kind::Pointer;
      frame.result->pointer.array = ~0u;
      frame.result->offset = newLocal(frame.prefix + "result.offset", Type::i64());
      frame.result->home = out_.back();  // the inlined body
      frame.result->created_at = ++event_;
    } else if (ret->isReferenceType()) {
      // the lvalue of its one return (an accessor: `T &operator[](int i) { return v[i]; }`)
      if (!onlyReturnIsLast(fn))
        unsupported("function returning a reference from more than one return",
                    "'" + fn->getQualifiedNameAsString() + "'", where);
      frame.result = std::make_shared<Binding>();
      frame.result->kind = Binding::Kind::Ref;
    } else if (!ret->isVoidType()) {
      frame.result = std::make_shared<Binding>();
      frame.result->kind = Binding::Kind::Local;
      frame.result->local = newLocal(frame.prefix + "result", typeOf(ret));
    }
    if (const auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(fn->getBody());
        body && !body->body_empty())
      frame.last = body->body_back();
    frames_.push_back(frame);
    if (shallowEnough(fn->getBody()))
      stmt(fn->getBody());
    frame.result = frames_.back().result;
    frames_.pop_back();
  });
  emit(Stmt{rangeOf(where), std::move(inl)});
  return frame.result;
}

}  // namespace kverify::frontend::detail
