// L-values: variables, members, elements and what a pointer points at, and the loads and
// stores through them (each an Access statement).
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

static bool isBuiltinVar(llvm::StringRef n) {
  return n == "threadIdx" || n == "blockIdx" || n == "blockDim" || n == "gridDim" || n == "warpSize";
}

static model::Builtin builtinOf(llvm::StringRef var, llvm::StringRef field) {
  int base = var == "threadIdx" ? 0 : var == "blockIdx" ? 3 : var == "blockDim" ? 6 : 9;
  int off = field == "x" ? 0 : field == "y" ? 1 : 2;
  return static_cast<model::Builtin>(base + off);
}

LValue KernelExtractor::fromBinding(const BindingPtr &b, clang::QualType t, const clang::Expr *where) {
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
    case Binding::Kind::Ref: return b->ref;
    case Binding::Kind::Pointer:
      if (ctx_.getAsArrayType(t)) {  // an array variable designates its memory
        std::optional<Pointer> p = pointerOfBinding(b);
        const Pointer::Memory *m = p ? p->as<Pointer::Memory>() : nullptr;
        if (!m) return lv;
        lv.kind = LValue::Kind::Memory;
        lv.array = m->array;
        lv.index = m->offset;
        uint64_t es = k_.arrays[m->array].elem_size;
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
      return fromBinding(valueBinding(Expr::builtinVar(model::Builtin::WarpSize)), var->getType(), where);
    auto b = std::make_shared<Binding>();
    b->kind = Binding::Kind::Struct;
    if (const clang::RecordDecl *rd = var->getType()->getAsRecordDecl())
      for (const clang::FieldDecl *f : rd->fields())
        b->fields[f] = valueBinding(Expr::builtinVar(builtinOf(var->getName(), f->getName())));
    return fromBinding(b, var->getType(), where);
  }
  if (BindingPtr b = lookup(d)) return fromBinding(b, d->getType(), where);
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
        return fromBinding(
            valueBinding(Expr::floatConst(typeOf(var->getType()), v->getFloat().convertToDouble())),
            var->getType(), where);
  }
  unsupported("reference to a variable kverify does not model", "'" + d->getNameAsString() + "'",
              where->getSourceRange());
  return {};
}

// `sub` given: the lvalue of `m[c]`, where `m` names an array field and `sub` is the
// subscript whose base is `m` decayed to a pointer.
LValue KernelExtractor::memberLValue(const clang::MemberExpr *m, const clang::ArraySubscriptExpr *sub) {
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
      if (!p) return {};
      const auto *target = p->as<Pointer::Memory>();
      if (!target) {  // (pointer() gives Memory or ToLocal)
        unsupported("member through a pointer to a local", textOf(m->getSourceRange()), m->getSourceRange());
        return {};
      }
      // p->f: the part of the element p points to that is f (below)
      object.kind = LValue::Kind::Memory;
      object.array = target->array;
      object.index = target->offset;
      object.count = target->scale;
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
      unsupported("reference member kverify cannot follow", textOf(m->getSourceRange()), m->getSourceRange());
      return {};
    }
    LValue lv = fromBinding(it->second, field->getType(), m);
    if (!sub) return lv;
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
    if (!sub || lv.kind == LValue::Kind::Invalid) return lv;
    std::optional<Pointer> p = decay(lv, sub->getBase()->getType()->getPointeeType(), sub->getBase());
    return pointee(p, rvalue(sub->getIdx()), sub);
  }
  if (object.kind != LValue::Kind::Invalid)
    unsupported("member access", textOf(m->getSourceRange()), m->getSourceRange());
  return {};
}

// `p[idx]`, `e` being the subscript.
LValue KernelExtractor::pointee(const std::optional<Pointer> &p, ExprPtr idx, const clang::Expr *e) {
  LValue lv;
  if (!p) return lv;
  clang::SourceRange where = e->getSourceRange();
  if (const auto *m = p->as<Pointer::Memory>()) {
    lv.kind = LValue::Kind::Memory;
    lv.array = m->array;
    lv.index = idx ? addIndex(m->offset, std::move(idx), m->scale) : m->offset;
    lv.count = m->scale;
    return lv;
  }
  if (const auto *c = p->as<Pointer::Choice>()) {
    LValue a = pointee(*c->then_p, idx, e), b = pointee(*c->else_p, idx, e);
    if (a.kind == LValue::Kind::Invalid || b.kind == LValue::Kind::Invalid) return lv;
    lv.kind = LValue::Kind::Choice;
    lv.cond = c->cond;
    lv.then_lv = std::make_shared<const LValue>(std::move(a));
    lv.else_lv = std::make_shared<const LValue>(std::move(b));
    return lv;
  }
  if (const auto *u = p->as<Pointer::Unknown>()) {
    unsupported(u->why, textOf(where), where);
    return lv;
  }
  const auto *c = idx ? idx->as<model::expr::Const>() : nullptr;  // a local's or a pointer variable's address
  if (idx && !(c && c->int_value == 0)) {
    unsupported("subscript of a pointer to a local", textOf(where), where);
    return lv;
  }
  if (const auto *l = p->as<Pointer::ToLocal>()) {
    lv.kind = LValue::Kind::Local;
    lv.local = l->local;
  } else {
    lv.kind = LValue::Kind::PointerVar;
    lv.binding = std::get<Pointer::ToVar>(p->v).var;
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
    LValue b = a.kind == LValue::Kind::Invalid ? LValue{} : partOf(*object.else_lv, offset, size, where);
    if (b.kind == LValue::Kind::Invalid) return {};
    LValue lv = object;
    lv.then_lv = std::make_shared<const LValue>(std::move(a));
    lv.else_lv = std::make_shared<const LValue>(std::move(b));
    return lv;
  }
  if (object.kind != LValue::Kind::Memory) return {};
  const model::Array &arr = k_.arrays[object.array];
  uint64_t unit = std::max(1u, arr.elem_size);
  if (offset % unit != 0 || size % unit != 0 || size == 0) {
    unsupported("part of an element smaller than the elements of its array",
                textOf(where->getSourceRange()) + ": " + std::to_string(size) + " bytes at offset " +
                    std::to_string(offset) + " of '" + arr.name + "', whose elements ('" + arr.elem_c_type +
                    "') have " + std::to_string(unit) + " bytes",
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
  if (from->isPointerType()) from = from->getPointeeType();
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
  if (llvm::isa<clang::DeclRefExpr>(e)) return true;
  const auto *m = llvm::dyn_cast<clang::MemberExpr>(e);
  return m && !m->isArrow() && namesVariable(m->getBase());
}

LValue KernelExtractor::lvalue(const clang::Expr *e) {
  Nested level(*this);
  if (tooDeep(e->getSourceRange())) return {};
  e = strip(e);
  if (const auto *d = llvm::dyn_cast<clang::DeclRefExpr>(e)) return declLValue(d->getDecl(), e);
  if (const auto *m = llvm::dyn_cast<clang::MemberExpr>(e)) return memberLValue(m);
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
    if (u->getOpcode() == clang::UO_Deref) { return pointee(pointerValue(u->getSubExpr()), nullptr, u); }
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
    if (c->getCastKind() == clang::CK_UncheckedDerivedToBase || c->getCastKind() == clang::CK_DerivedToBase) {
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
    if (sub->isGLValue()) return lvalue(sub);
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
    if (b && c->getCallReturnType(ctx_)->isReferenceType() && b->kind == Binding::Kind::Ref) return b->ref;
  }
  unsupported("lvalue", std::string(e->getStmtClassName()) + " " + textOf(e->getSourceRange()),
              e->getSourceRange());
  return {};
}

unsigned KernelExtractor::emitAccess(model::AccessKind kind, unsigned array, ExprPtr index, uint64_t count,
                                     clang::SourceRange where, const BuiltinInfo *atomic, ExprPtr operand,
                                     ExprPtr order) {
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
    case LValue::Kind::Value: return lv.value;
    case LValue::Kind::Local: return Expr::local(lv.local);
    case LValue::Kind::Memory: {
      if (in_premise_)  // what memory holds, not an access (KV_ASSUME_FORALL)
        return Expr::element(typeOf(t), lv.array, lv.index, std::max<unsigned>(lv.count, 1),
                             k_.arrays[lv.array].name);
      unsigned id =
          emitAccess(model::AccessKind::Read, lv.array, lv.index, lv.count, where->getSourceRange());
      return Expr::opaque(typeOf(t), id, "load of " + k_.arrays[lv.array].name);
    }
    case LValue::Kind::Struct:
    case LValue::Kind::PointerVar: return opaque(t, "value of " + textOf(where->getSourceRange()));
    case LValue::Kind::Choice: {  // if (cond) load one else load the other
      ExprPtr a, b;
      std::vector<Stmt> then_s = nested([&] { a = load(*lv.then_lv, where); });
      std::vector<Stmt> else_s = nested([&] { b = load(*lv.else_lv, where); });
      emit(Stmt{rangeOf(where->getSourceRange()),
                model::stmt::If{lv.cond, std::move(then_s), std::move(else_s)}});
      return Expr::select(lv.cond, a, Expr::cast(a->type, b));
    }
    case LValue::Kind::Invalid: break;
  }
  return opaque(t, "unsupported");
}

void KernelExtractor::store(const LValue &lv, ExprPtr value, const clang::Expr *where) {
  switch (lv.kind) {
    case LValue::Kind::Local: emitAssign(lv.local, std::move(value), where->getSourceRange()); return;
    case LValue::Kind::Memory: {
      // the value stored, where it is a scalar the analysis compares (benign races) and
      // fills the location written (one element, or a field's bytes)
      bool integral = value && (value->type.kind == model::Type::Kind::Int ||
                                value->type.kind == model::Type::Kind::Bool);
      uint64_t bytes = integral ? std::max(1u, value->type.bits / 8) : 0;
      bool scalar = integral && (k_.arrays[lv.array].by_bytes
                                     ? bytes == lv.count * std::max(1u, k_.arrays[lv.array].elem_size)
                                     : lv.count <= 1);
      emitAccess(model::AccessKind::Write, lv.array, lv.index, lv.count, where->getSourceRange(), nullptr,
                 scalar ? std::move(value) : nullptr);
      return;
    }
    case LValue::Kind::Value:
      unsupported("write to a read-only value", textOf(where->getSourceRange()), where->getSourceRange());
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
    case LValue::Kind::Invalid: return;
  }
}

// --- pointers ------------------------------------------------------------------------

}  // namespace kverify::frontend::detail
