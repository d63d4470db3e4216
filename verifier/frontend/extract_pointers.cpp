// Pointers: what a pointer expression points into (an array and an offset, or a selector
// over several arrays), pointer assignment and arithmetic.
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

uint64_t KernelExtractor::scaleOf(unsigned array, clang::QualType pointee, const clang::Expr *where) {
  pointee = pointee.getNonReferenceType();
  if (pointee->isVoidType()) return 1;
  uint64_t es = k_.arrays[array].elem_size, s = sizeOf(pointee);
  if (es == 0 || s % es != 0) {
    unsupported("pointer cast to a smaller element type",
                "'" + k_.arrays[array].name + "' has " + std::to_string(es) +
                    "-byte elements, accessed as '" + pointee.getAsString() + "' (" + std::to_string(s) +
                    " bytes)",
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
  if (!p) return nullptr;
  Type u64 = Type::integer(64, false);
  if (const auto *c = p->as<ptr::Choice>()) {
    ExprPtr a = addressOf(*c->then_p, in_block), b = addressOf(*c->else_p, in_block);
    return a && b ? Expr::select(c->cond, a, b) : nullptr;
  }
  const auto *m = p->as<ptr::Memory>();
  if (!m || m->array >= k_.arrays.size()) return nullptr;
  const model::Array &a = k_.arrays[m->array];
  if (a.origin != model::ArrayOrigin::Param && !(in_block && a.space == model::AddressSpace::Shared))
    return nullptr;
  ExprPtr address = Expr::address(m->array, a.name);
  if (!m->offset) return address;
  ExprPtr bytes = Expr::binary(u64, model::BinaryOp::Mul, Expr::cast(u64, m->offset),
                               Expr::intConst(u64, static_cast<int64_t>(a.elem_size)));
  return Expr::binary(u64, model::BinaryOp::Add, address, bytes);
}

// The pointer variable `b` at offset `offset`: a choice over its arrays by its selector.
Pointer KernelExtractor::pointerAt(const BindingPtr &b, ExprPtr offset) const {
  const bind::Pointer &v = b->pointerVar();
  const ptr::Memory &base = v.base();
  Pointer p = Pointer::memory(base.array, offset, base.scale);
  for (size_t i = 0; i < v.more.size(); ++i) {
    ptr::Choice c;
    c.cond = Expr::binary(Type::boolean(), model::BinaryOp::Eq, Expr::local(*v.selector),
                          Expr::intConst(v.selector->type, static_cast<int64_t>(i + 1)));
    c.then_p = std::make_shared<const Pointer>(Pointer::memory(v.more[i], offset, base.scale));
    c.else_p = std::make_shared<const Pointer>(std::move(p));
    c.from = b;
    p = Pointer{std::move(c)};
  }
  return p;
}

std::optional<Pointer> KernelExtractor::pointerOfBinding(const BindingPtr &b) {
  bind::Pointer *v = b ? b->as<bind::Pointer>() : nullptr;
  if (!v) return std::nullopt;
  v->read_at = ++event_;
  const auto *base = v->pointer.as<ptr::Memory>();
  if (!base) return v->pointer;
  if (!v->unknown.empty() || base->array == ~0u) {
    return Pointer::unknown(v->unknown.empty() ? "pointer used before it is assigned" : v->unknown);
  }
  return pointerAt(b, v->offset ? Expr::local(*v->offset) : base->offset);
}

std::optional<Pointer> KernelExtractor::decay(const LValue &lv, clang::QualType pointee,
                                              const clang::Expr *e) {
  if (const auto *m = lv.as<lval::Memory>())
    return Pointer::memory(m->array, m->index, scaleOf(m->array, pointee, e));
  if (lv.valid()) unsupported("array", textOf(e->getSourceRange()), e->getSourceRange());
  return std::nullopt;
}

void KernelExtractor::assignPointer(const BindingPtr &dst, const clang::Expr *src, clang::SourceRange where) {
  assignPointer(dst, pointerValue(src), where);
}

// Whether `b` may gain an array (or become unknown) here: no loop being translated
// that began after `b` was created has read it, since that read runs again after this.
bool KernelExtractor::widenable(const BindingPtr &b) const {
  const bind::Pointer &v = b->pointerVar();
  for (unsigned start : loop_starts_)
    if (start > v.created_at && start < v.read_at) return false;
  return v.home != nullptr;
}

// Gives `b` a selector. Where an assignment under a branch (`widened`) makes it
// point into a second array, the selector is 0 (its first array) from the start of the
// list it was created in: every value it held so far points into that array. Otherwise
// the assignment that follows sets it on every path on.
bool KernelExtractor::startSelector(const BindingPtr &b, bool widened, clang::SourceRange where) {
  bind::Pointer &v = b->pointerVar();
  if (v.selector) return true;
  if (widened && std::find(out_.begin(), out_.end(), v.home) == out_.end()) {
    unsupported("pointer that may point into different arrays", textOf(where), where);
    return false;
  }
  std::string name = v.offset->name;  // "p.offset": the selector is "p.array"
  name = name.substr(0, name.rfind(".offset")) + ".array";
  v.selector = newLocal(name, Type::integer(32, false));
  if (widened)
    v.home->insert(
        v.home->begin(),
        Stmt{rangeOf(where), model::stmt::Assign{*v.selector, Expr::intConst(v.selector->type, 0)}});
  return true;
}

// The Memory pointers a (choice of) pointer(s) may be; false where an arm is another kind.
static bool arms(const Pointer &p, std::vector<const ptr::Memory *> &out) {
  if (const auto *c = p.as<ptr::Choice>()) return arms(*c->then_p, out) && arms(*c->else_p, out);
  const auto *m = p.as<ptr::Memory>();
  if (m) out.push_back(m);
  return m != nullptr;
}

// Whether two pointer variables choose between the same arrays, by the same selector values.
static bool sameArrays(const bind::Pointer &a, const bind::Pointer &b) {
  return a.base().array == b.base().array && a.more == b.more;
}

// The value of `b`'s selector, or offset, once it holds `p` (whose arms are all Memory and
// whose arrays it has).
static ExprPtr selectorOf(const Pointer &p, const bind::Pointer &b) {
  if (const auto *c = p.as<ptr::Choice>()) {
    if (c->from && sameArrays(c->from->pointerVar(), b))
      return Expr::local(*c->from->pointerVar().selector);  // a copy (double buffers' swaps)
    return Expr::select(c->cond, selectorOf(*c->then_p, b), selectorOf(*c->else_p, b));
  }
  unsigned array = std::get<ptr::Memory>(p.node).array;
  auto it = std::find(b.more.begin(), b.more.end(), array);
  int64_t i = array == b.base().array ? 0 : it - b.more.begin() + 1;
  return Expr::intConst(b.selector->type, i);
}

static ExprPtr offsetOf(const Pointer &p) {
  const auto *c = p.as<ptr::Choice>();
  if (!c) return std::get<ptr::Memory>(p.node).offset;
  if (c->from)  // every arm at one offset
    return offsetOf(*c->else_p);
  ExprPtr a = offsetOf(*c->then_p), b = offsetOf(*c->else_p);
  const auto *ca = a->as<model::expr::Const>(), *cb = b->as<model::expr::Const>();
  if (a == b || (ca && cb && ca->int_value == cb->int_value)) return a;  // `c ? A : B`: both at their start
  return Expr::select(c->cond, a, b);
}

void KernelExtractor::assignPointer(const BindingPtr &dst, const std::optional<Pointer> &p,
                                    clang::SourceRange where) {
  if (!p) return;
  bind::Pointer &to = dst->pointerVar();
  const auto *base = to.pointer.as<ptr::Memory>();
  bool unset = base && base->array == ~0u && to.unknown.empty();
  // Straight-line code of the variable's own scope: every path on assigns it (no branch
  // merges another target), so re-binding it to another object is exact.
  bool rebind = to.scope && to.scope == out_.back();
  bool widen = !unset && !rebind;
  if (widen && !to.unknown.empty()) return;  // unknown on some path already: every use is an error
  if (const auto *u = p->as<ptr::Unknown>()) {
    if (widen && !widenable(dst)) {
      unsupported(u->why, textOf(where), where);
      return;
    }
    to.pointer = Pointer::unset();
    to.more.clear();
    to.unknown = u->why;
    return;
  }
  if (p->is<ptr::Local>() || p->is<ptr::Var>()) {
    if (widen) {
      unsupported("pointer to a local variable reassigned", textOf(where), where);
      return;
    }
    to.pointer = *p;
    to.more.clear();
    to.unknown.clear();
    return;
  }
  std::vector<const ptr::Memory *> ps;
  bool one_kind = arms(*p, ps);
  for (const ptr::Memory *a : ps) one_kind = one_kind && a->scale == ps[0]->scale;
  if (!one_kind) {
    unsupported("pointer that may point into different kinds of object", textOf(where), where);
    return;
  }
  if (!widen) {  // the arrays of `p`, in the order of the variable it copies
    const auto *choice = p->as<ptr::Choice>();
    const BindingPtr from = choice ? choice->from : nullptr;
    std::vector<unsigned> more = from ? from->pointerVar().more : std::vector<unsigned>{};
    to.pointer =
        Pointer::memory(from ? from->pointerVar().base().array : ps[0]->array, zero64(), ps[0]->scale);
    to.more = std::move(more);
    to.unknown.clear();
  } else if (!base || base->scale != ps[0]->scale) {
    unsupported("pointer that may point into different kinds of object", textOf(where), where);
    return;
  }
  for (const ptr::Memory *a : ps) {
    if (a->array == to.base().array || std::find(to.more.begin(), to.more.end(), a->array) != to.more.end())
      continue;
    if (widen && !widenable(dst)) {
      unsupported("pointer that may point into different arrays",
                  textOf(where) + " (a loop reads it before this assignment)", where);
      return;
    }
    to.more.push_back(a->array);
  }
  if (!to.offset) {
    unsupported("pointer assignment", textOf(where), where);
    return;
  }
  if (!to.more.empty() && !startSelector(dst, widen, where)) return;
  if (to.selector) emitAssign(*to.selector, selectorOf(*p, to), where);
  emitAssign(*to.offset, offsetOf(*p), where);
}

std::optional<Pointer> KernelExtractor::pointer(const clang::Expr *e) {
  std::optional<Pointer> p = pointerValue(e);
  if (!p) return p;
  clang::SourceRange where = e->getSourceRange();
  if (const auto *u = p->as<ptr::Unknown>())
    unsupported(u->why, textOf(where), where);
  else if (p->is<ptr::Choice>())
    unsupported("pointer that may point into different arrays", textOf(where), where);
  else if (p->is<ptr::Var>())
    unsupported("pointer to a pointer variable", textOf(where), where);
  else
    return p;
  return std::nullopt;
}

// A choice between two pointers with `f` applied to each arm (the then-arm first); none
// where an arm gives none.
template <class F>
static std::optional<Pointer> eachArm(const ptr::Choice &c, F f) {
  std::optional<Pointer> a = f(*c.then_p);
  std::optional<Pointer> b = a ? f(*c.else_p) : std::nullopt;
  if (!b) return std::nullopt;
  ptr::Choice q = c;
  q.then_p = std::make_shared<const Pointer>(std::move(*a));
  q.else_p = std::make_shared<const Pointer>(std::move(*b));
  return Pointer{std::move(q)};
}

// `p + k` (`p - k`), for each array p may point into.
std::optional<Pointer> KernelExtractor::shifted(const Pointer &p, const ExprPtr &k, bool subtract,
                                                const clang::Expr *where) {
  if (const auto *c = p.as<ptr::Choice>())
    return eachArm(*c, [&](const Pointer &arm) { return shifted(arm, k, subtract, where); });
  const auto *m = p.as<ptr::Memory>();
  if (!m) {
    const auto *u = p.as<ptr::Unknown>();
    unsupported(u ? u->why : "arithmetic on a pointer to a local", textOf(where->getSourceRange()),
                where->getSourceRange());
    return std::nullopt;
  }
  return Pointer::memory(m->array, addIndex(m->offset, k, m->scale, subtract), m->scale);
}

// `p` converted to a pointer to `pointee`: its scale, in each array it may point into.
Pointer KernelExtractor::rescaled(const Pointer &p, clang::QualType pointee, const clang::Expr *e) {
  Pointer q = p;
  if (auto *m = q.as<ptr::Memory>()) {
    m->scale = scaleOf(m->array, pointee, e);
  } else if (auto *c = q.as<ptr::Choice>()) {
    c->then_p = std::make_shared<const Pointer>(rescaled(*c->then_p, pointee, e));
    c->else_p = std::make_shared<const Pointer>(rescaled(*c->else_p, pointee, e));
  }
  return q;
}

// `p` moved on by `bytes` (a base-class part's offset), in each array it may point into.
std::optional<Pointer> KernelExtractor::movedBy(const Pointer &p, uint64_t bytes, const clang::Expr *e) {
  if (bytes == 0) return p;
  if (const auto *c = p.as<ptr::Choice>())
    return eachArm(*c, [&](const Pointer &arm) { return movedBy(arm, bytes, e); });
  const auto *m = p.as<ptr::Memory>();
  if (!m) return p;
  uint64_t unit = std::max(1u, k_.arrays[m->array].elem_size);
  if (bytes % unit != 0) {
    unsupported("base class at an offset inside an element of its array", textOf(e->getSourceRange()),
                e->getSourceRange());
    return std::nullopt;
  }
  return Pointer::memory(
      m->array, addIndex(m->offset, Expr::intConst(Type::i64(), static_cast<int64_t>(bytes / unit)), 1),
      m->scale);
}

// A pointer conversion: an array decaying, a pointer loaded, casts that keep or rescale it.
std::optional<Pointer> KernelExtractor::castPointer(const clang::CastExpr *c) {
  const clang::Expr *e = c;
  clang::SourceRange where = e->getSourceRange();
  const clang::Expr *sub = c->getSubExpr();
  switch (c->getCastKind()) {
    case clang::CK_ArrayToPointerDecay: return decay(lvalue(sub), e->getType()->getPointeeType(), e);
    case clang::CK_LValueToRValue: {
      if (llvm::isa<clang::ConditionalOperator>(strip(sub)))
        return pointerValue(sub);  // `c ? p : q` of pointer lvalues
      LValue lv = lvalue(sub);
      if (const auto *v = lv.as<lval::PointerVar>()) return pointerOfBinding(v->binding);
      if (lv.inMemory()) {
        load(lv, sub);  // the read happens; what it reads is not followed
        return Pointer::unknown("pointer loaded from memory");
      } else if (lv.valid()) {
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
      if (p && !pointee->isVoidType()) p = rescaled(*p, pointee, e);
      return p;
    }
    case clang::CK_FunctionToPointerDecay:
      unsupported("function pointer", textOf(where), where);
      return std::nullopt;
    case clang::CK_UserDefinedConversion:  // operator T*() (the SDK's SharedMemory<T>)
      return pointerValue(sub);
    default:
      unsupported("pointer conversion", std::string(c->getCastKindName()) + " " + textOf(where), where);
      return std::nullopt;
  }
}

// `&x`: a pointer into memory, to a local, or to a pointer variable.
std::optional<Pointer> KernelExtractor::addressOf(const clang::UnaryOperator *u) {
  const clang::Expr *e = u;
  clang::SourceRange where = e->getSourceRange();
  LValue lv = lvalue(u->getSubExpr());
  if (const auto *m = lv.as<lval::Memory>())
    return Pointer::memory(m->array, m->index, scaleOf(m->array, u->getSubExpr()->getType(), e));
  if (const auto *l = lv.as<lval::Local>()) return Pointer::toLocal(l->local);
  if (const auto *v = lv.as<lval::PointerVar>()) return Pointer::toVar(v->binding);
  if (lv.valid()) unsupported("address of", textOf(where), where);
  return std::nullopt;
}

// `p++`, `--p`: the pointer variable's offset updated; the old or the new pointer is the value.
std::optional<Pointer> KernelExtractor::incrementedPointer(const clang::UnaryOperator *u) {
  clang::SourceRange where = u->getSourceRange();
  LValue lv = lvalue(u->getSubExpr());
  const auto *var = lv.as<lval::PointerVar>();
  std::optional<Pointer> p = var ? pointerOfBinding(var->binding) : std::nullopt;
  if (!p || !(p->is<ptr::Memory>() || p->is<ptr::Choice>()) || !var->binding->pointerVar().offset) {
    unsupported("pointer increment", textOf(where), where);
    return std::nullopt;
  }
  const BindingPtr &b = var->binding;
  const bind::Pointer &v = b->pointerVar();
  ExprPtr old = Expr::local(*v.offset);
  if (u->isPostfix()) old = snapshot(old, "old", where);
  ExprPtr updated = addIndex(old, Expr::intConst(Type::i64(), 1), v.base().scale, u->isDecrementOp());
  emitAssign(*v.offset, updated, where);
  return u->isPostfix() ? pointerAt(b, old) : pointerOfBinding(b);
}

// `c ? p : q`: one pointer where both arms point into one array, else a choice of the two.
std::optional<Pointer> KernelExtractor::chosenPointer(const clang::ConditionalOperator *c) {
  clang::SourceRange where = c->getSourceRange();
  ExprPtr cond = condition(c->getCond());
  std::optional<Pointer> a, b;
  std::vector<Stmt> then_effects = nested([&] { a = pointerValue(c->getTrueExpr()); });
  std::vector<Stmt> else_effects = nested([&] { b = pointerValue(c->getFalseExpr()); });
  cond = armEffects(c, cond, std::move(then_effects), std::move(else_effects));
  if (!a || !b) return std::nullopt;
  const auto *ma = a->as<ptr::Memory>(), *mb = b->as<ptr::Memory>();
  if (ma && mb && ma->array == mb->array && ma->scale == mb->scale)
    return Pointer::memory(ma->array, Expr::select(cond, ma->offset, mb->offset), ma->scale);
  auto toVariable = [](const Pointer &p) { return p.is<ptr::Local>() || p.is<ptr::Var>(); };
  if (toVariable(*a) || toVariable(*b)) {
    unsupported("pointer that may point to different variables", textOf(where), where);
    return std::nullopt;
  }
  // an unknown arm stays unknown where the choice is used
  return Pointer{ptr::Choice{cond, std::make_shared<const Pointer>(std::move(*a)),
                             std::make_shared<const Pointer>(std::move(*b)), nullptr}};
}

std::optional<Pointer> KernelExtractor::pointerValue(const clang::Expr *e) {
  Nested level(*this);
  if (tooDeep(e->getSourceRange())) return std::nullopt;
  e = strip(e);
  clang::SourceRange where = e->getSourceRange();
  if (const auto *c = llvm::dyn_cast<clang::CastExpr>(e)) return castPointer(c);
  if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
    if (u->getOpcode() == clang::UO_AddrOf) return addressOf(u);
    if (u->isIncrementDecrementOp()) return incrementedPointer(u);
  }
  if (const auto *b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
    if (b->isAdditiveOp()) {
      bool ptr_left = b->getLHS()->getType()->isPointerType();
      std::optional<Pointer> p = pointerValue(ptr_left ? b->getLHS() : b->getRHS());
      ExprPtr k = rvalue(ptr_left ? b->getRHS() : b->getLHS());
      if (!p) return std::nullopt;
      return shifted(*p, k, b->getOpcode() == clang::BO_Sub, e);
    }
    if (b->getOpcode() == clang::BO_Comma) {
      discard(b->getLHS());
      return pointerValue(b->getRHS());
    }
  }
  if (const auto *c = llvm::dyn_cast<clang::ConditionalOperator>(e)) return chosenPointer(c);
  if (llvm::isa<clang::CallExpr>(e)) {
    BindingPtr b = call(llvm::cast<clang::CallExpr>(e));
    if (b && b->is<bind::Pointer>())  // an inlined function's result
      return pointerOfBinding(b);
    unsupported("call returning a pointer", textOf(where), where);
    return std::nullopt;
  }
  if (e->isGLValue()) {  // e.g. a pointer variable used as an lvalue of pointer type
    LValue lv = lvalue(e);
    if (const auto *v = lv.as<lval::PointerVar>()) return pointerOfBinding(v->binding);
    return std::nullopt;
  }
  unsupported("pointer expression", std::string(e->getStmtClassName()) + " " + textOf(where), where);
  return std::nullopt;
}

}  // namespace kverify::frontend::detail
