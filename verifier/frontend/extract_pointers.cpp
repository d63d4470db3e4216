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
  if (const auto *c = p->as<Pointer::Choice>()) {
    ExprPtr a = addressOf(*c->then_p, in_block), b = addressOf(*c->else_p, in_block);
    return a && b ? Expr::select(c->cond, a, b) : nullptr;
  }
  const auto *m = p->as<Pointer::Memory>();
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
  const Pointer::Memory &base = b->target();
  Pointer p = Pointer::memory(base.array, offset, base.scale);
  for (size_t i = 0; i < b->more.size(); ++i) {
    ExprPtr cond = Expr::binary(Type::boolean(), model::BinaryOp::Eq, Expr::local(*b->selector),
                                Expr::intConst(b->selector->type, static_cast<int64_t>(i + 1)));
    auto alt = std::make_shared<const Pointer>(Pointer::memory(b->more[i], offset, base.scale));
    p = {Pointer::Choice{cond, std::move(alt), std::make_shared<const Pointer>(std::move(p)), b}};
  }
  return p;
}

std::optional<Pointer> KernelExtractor::pointerOfBinding(const BindingPtr &b) {
  if (!b || b->kind != Binding::Kind::Pointer) return std::nullopt;
  b->read_at = ++event_;
  const auto *m = b->pointer.as<Pointer::Memory>();
  if (!m) return b->pointer;
  if (!b->unknown.empty() || m->array == ~0u) {
    return Pointer::unknown(b->unknown.empty() ? "pointer used before it is assigned" : b->unknown);
  }
  return pointerAt(b, b->offset ? Expr::local(*b->offset) : m->offset);
}

std::optional<Pointer> KernelExtractor::decay(const LValue &lv, clang::QualType pointee,
                                              const clang::Expr *e) {
  if (lv.kind == LValue::Kind::Memory)
    return Pointer::memory(lv.array, lv.index, scaleOf(lv.array, pointee, e));
  if (lv.kind != LValue::Kind::Invalid)
    unsupported("array", textOf(e->getSourceRange()), e->getSourceRange());
  return std::nullopt;
}

void KernelExtractor::assignPointer(const BindingPtr &dst, const clang::Expr *src, clang::SourceRange where) {
  assignPointer(dst, pointerValue(src), where);
}

// Whether `b` may gain an array (or become unknown) here: no loop being translated
// that began after `b` was created has read it, since that read runs again after this.
bool KernelExtractor::widenable(const BindingPtr &b) const {
  for (unsigned start : loop_starts_)
    if (start > b->created_at && start < b->read_at) return false;
  return b->home != nullptr;
}

// Gives `b` a selector. Where an assignment under a branch (`widened`) makes it
// point into a second array, the selector is 0 (its first array) from the start of the
// list it was created in: every value it held so far points into that array. Otherwise
// the assignment that follows sets it on every path on.
bool KernelExtractor::startSelector(const BindingPtr &b, bool widened, clang::SourceRange where) {
  if (b->selector) return true;
  if (widened && std::find(out_.begin(), out_.end(), b->home) == out_.end()) {
    unsupported("pointer that may point into different arrays", textOf(where), where);
    return false;
  }
  std::string name = b->offset->name;  // "p.offset": the selector is "p.array"
  name = name.substr(0, name.rfind(".offset")) + ".array";
  b->selector = newLocal(name, Type::integer(32, false));
  if (widened)
    b->home->insert(
        b->home->begin(),
        Stmt{rangeOf(where), model::stmt::Assign{*b->selector, Expr::intConst(b->selector->type, 0)}});
  return true;
}

// The Memory pointers a (choice of) pointer(s) may be.
static void arms(const Pointer &p, std::vector<const Pointer *> &out) {
  if (const auto *c = p.as<Pointer::Choice>()) {
    arms(*c->then_p, out);
    arms(*c->else_p, out);
  } else {
    out.push_back(&p);
  }
}

static bool sameArrays(const Binding &a, const Binding &b) {
  return a.target().array == b.target().array && a.more == b.more;
}

// The value of `b`'s selector, or offset, once it holds `p` (whose arrays it has).
// (`p`: Memory pointers and choices of them)
static ExprPtr selectorOf(const Pointer &p, const Binding &b) {
  if (const auto *c = p.as<Pointer::Choice>()) {
    if (c->from && sameArrays(*c->from, b))
      return Expr::local(*c->from->selector);  // a copy (double buffers' swaps)
    return Expr::select(c->cond, selectorOf(*c->then_p, b), selectorOf(*c->else_p, b));
  }
  const unsigned array = p.as<Pointer::Memory>()->array;
  auto it = std::find(b.more.begin(), b.more.end(), array);
  int64_t i = array == b.target().array ? 0 : it - b.more.begin() + 1;
  return Expr::intConst(b.selector->type, i);
}

static ExprPtr offsetOf(const Pointer &p) {
  const auto *c = p.as<Pointer::Choice>();
  if (!c) return p.as<Pointer::Memory>()->offset;
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
  const auto *target = dst->pointer.as<Pointer::Memory>();
  bool unset = target && target->array == ~0u && dst->unknown.empty();
  // Straight-line code of the variable's own scope: every path on assigns it (no branch
  // merges another target), so re-binding it to another object is exact.
  bool rebind = dst->scope && dst->scope == out_.back();
  bool widen = !unset && !rebind;
  if (widen && !dst->unknown.empty()) return;  // unknown on some path already: every use is an error
  if (const auto *u = p->as<Pointer::Unknown>()) {
    if (widen && !widenable(dst)) {
      unsupported(u->why, textOf(where), where);
      return;
    }
    dst->pointer = Pointer::memory(~0u, nullptr, 1);
    dst->more.clear();
    dst->unknown = u->why;
    return;
  }
  if (p->is<Pointer::ToLocal>() || p->is<Pointer::ToVar>()) {
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
  std::vector<const Pointer::Memory *> ms;
  for (const Pointer *a : ps) {
    const auto *m = a->as<Pointer::Memory>();
    if (!m || (!ms.empty() && m->scale != ms[0]->scale)) {
      unsupported("pointer that may point into different kinds of object", textOf(where), where);
      return;
    }
    ms.push_back(m);
  }
  const uint64_t scale = ms[0]->scale;
  if (!widen) {  // the arrays of `p`, in the order of the variable it copies
    const auto *c = p->as<Pointer::Choice>();
    const BindingPtr from = c ? c->from : nullptr;
    std::vector<unsigned> more = from ? from->more : std::vector<unsigned>{};
    dst->pointer = Pointer::memory(from ? from->target().array : ms[0]->array, zero64(), scale);
    dst->more = std::move(more);
    dst->unknown.clear();
  } else if (!target || target->scale != scale) {
    unsupported("pointer that may point into different kinds of object", textOf(where), where);
    return;
  }
  for (const Pointer::Memory *a : ms) {
    if (a->array == dst->target().array ||
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
  if (!dst->more.empty() && !startSelector(dst, widen, where)) return;
  if (dst->selector) emitAssign(*dst->selector, selectorOf(*p, *dst), where);
  emitAssign(*dst->offset, offsetOf(*p), where);
}

std::optional<Pointer> KernelExtractor::pointer(const clang::Expr *e) {
  std::optional<Pointer> p = pointerValue(e);
  if (!p) return p;
  clang::SourceRange where = e->getSourceRange();
  if (const auto *u = p->as<Pointer::Unknown>())
    unsupported(u->why, textOf(where), where);
  else if (p->is<Pointer::Choice>())
    unsupported("pointer that may point into different arrays", textOf(where), where);
  else if (p->is<Pointer::ToVar>())
    unsupported("pointer to a pointer variable", textOf(where), where);
  else
    return p;
  return std::nullopt;
}

// A choice between two pointers with `f` applied to each arm (the then-arm first); none
// where an arm gives none.
template <class F>
static std::optional<Pointer> eachArm(const Pointer::Choice &c, F f) {
  std::optional<Pointer> a = f(*c.then_p);
  std::optional<Pointer> b = a ? f(*c.else_p) : std::nullopt;
  if (!b) return std::nullopt;
  Pointer::Choice q = c;
  q.then_p = std::make_shared<const Pointer>(std::move(*a));
  q.else_p = std::make_shared<const Pointer>(std::move(*b));
  return Pointer{std::move(q)};
}

// `p + k` (`p - k`), for each array p may point into.
std::optional<Pointer> KernelExtractor::shifted(const Pointer &p, const ExprPtr &k, bool subtract,
                                                const clang::Expr *where) {
  if (const auto *c = p.as<Pointer::Choice>())
    return eachArm(*c, [&](const Pointer &arm) { return shifted(arm, k, subtract, where); });
  const auto *m = p.as<Pointer::Memory>();
  if (!m) {
    const auto *u = p.as<Pointer::Unknown>();
    unsupported(u ? u->why : "arithmetic on a pointer to a local", textOf(where->getSourceRange()),
                where->getSourceRange());
    return std::nullopt;
  }
  return Pointer::memory(m->array, addIndex(m->offset, k, m->scale, subtract), m->scale);
}

// `p` converted to a pointer to `pointee`: its scale, in each array it may point into.
Pointer KernelExtractor::rescaled(const Pointer &p, clang::QualType pointee, const clang::Expr *e) {
  if (const auto *m = p.as<Pointer::Memory>())
    return Pointer::memory(m->array, m->offset, scaleOf(m->array, pointee, e));
  if (const auto *c = p.as<Pointer::Choice>()) {
    Pointer::Choice q = *c;
    q.then_p = std::make_shared<const Pointer>(rescaled(*c->then_p, pointee, e));
    q.else_p = std::make_shared<const Pointer>(rescaled(*c->else_p, pointee, e));
    return Pointer{std::move(q)};
  }
  return p;
}

// `p` moved on by `bytes` (a base-class part's offset), in each array it may point into.
std::optional<Pointer> KernelExtractor::movedBy(const Pointer &p, uint64_t bytes, const clang::Expr *e) {
  if (bytes == 0) return p;
  if (const auto *c = p.as<Pointer::Choice>())
    return eachArm(*c, [&](const Pointer &arm) { return movedBy(arm, bytes, e); });
  const auto *m = p.as<Pointer::Memory>();
  if (!m) return p;
  uint64_t unit = std::max(1u, k_.arrays[m->array].elem_size);
  if (bytes % unit != 0) {
    unsupported("base class at an offset inside an element of its array", textOf(e->getSourceRange()),
                e->getSourceRange());
    return std::nullopt;
  }
  ExprPtr moved = addIndex(m->offset, Expr::intConst(Type::i64(), static_cast<int64_t>(bytes / unit)), 1);
  return Pointer::memory(m->array, moved, m->scale);
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
      if (lv.kind == LValue::Kind::PointerVar) return pointerOfBinding(lv.binding);
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
  if (lv.kind == LValue::Kind::Memory)
    return Pointer::memory(lv.array, lv.index, scaleOf(lv.array, u->getSubExpr()->getType(), e));
  if (lv.kind == LValue::Kind::Local) return Pointer::toLocal(lv.local);
  if (lv.kind == LValue::Kind::PointerVar) { return Pointer::toVar(lv.binding); }
  if (lv.kind != LValue::Kind::Invalid) unsupported("address of", textOf(where), where);
  return std::nullopt;
}

// `p++`, `--p`: the pointer variable's offset updated; the old or the new pointer is the value.
std::optional<Pointer> KernelExtractor::incrementedPointer(const clang::UnaryOperator *u) {
  clang::SourceRange where = u->getSourceRange();
  LValue lv = lvalue(u->getSubExpr());
  std::optional<Pointer> p =
      lv.kind == LValue::Kind::PointerVar ? pointerOfBinding(lv.binding) : std::nullopt;
  if (!p || !(p->is<Pointer::Memory>() || p->is<Pointer::Choice>()) || !lv.binding->offset) {
    unsupported("pointer increment", textOf(where), where);
    return std::nullopt;
  }
  const BindingPtr &v = lv.binding;
  ExprPtr old = Expr::local(*v->offset);
  if (u->isPostfix()) old = snapshot(old, "old", where);
  ExprPtr updated = addIndex(old, Expr::intConst(Type::i64(), 1), v->target().scale, u->isDecrementOp());
  emitAssign(*v->offset, updated, where);
  return u->isPostfix() ? pointerAt(v, old) : pointerOfBinding(v);
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
  const auto *ma = a->as<Pointer::Memory>(), *mb = b->as<Pointer::Memory>();
  if (ma && mb && ma->array == mb->array && ma->scale == mb->scale)
    return Pointer::memory(ma->array, Expr::select(cond, ma->offset, mb->offset), ma->scale);
  auto toVariable = [](const Pointer &p) { return p.is<Pointer::ToLocal>() || p.is<Pointer::ToVar>(); };
  if (toVariable(*a) || toVariable(*b)) {
    unsupported("pointer that may point to different variables", textOf(where), where);
    return std::nullopt;
  }
  // an unknown arm stays unknown where the choice is used
  return Pointer{Pointer::Choice{cond, std::make_shared<const Pointer>(std::move(*a)),
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
    if (b && b->kind == Binding::Kind::Pointer)  // an inlined function's result
      return pointerOfBinding(b);
    unsupported("call returning a pointer", textOf(where), where);
    return std::nullopt;
  }
  if (e->isGLValue()) {  // e.g. a pointer variable used as an lvalue of pointer type
    LValue lv = lvalue(e);
    if (lv.kind == LValue::Kind::PointerVar) return pointerOfBinding(lv.binding);
    return std::nullopt;
  }
  unsupported("pointer expression", std::string(e->getStmtClassName()) + " " + textOf(where), where);
  return std::nullopt;
}

}  // namespace kverify::frontend::detail
