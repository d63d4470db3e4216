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
  (void)where;
  if (const auto *v = b->as<bind::Value>()) return {lval::Value{v->value}};
  if (const auto *l = b->as<bind::Local>()) return {lval::Local{l->local}};
  if (b->is<bind::Struct>()) return {lval::Struct{b}};
  if (const auto *r = b->as<bind::Ref>()) return r->ref;
  if (!ctx_.getAsArrayType(t)) return {lval::PointerVar{b}};
  // an array variable designates its memory
  std::optional<Pointer> p = pointerOfBinding(b);
  const ptr::Memory *m = p ? p->as<ptr::Memory>() : nullptr;
  if (!m) return {};
  uint64_t es = k_.arrays[m->array].elem_size;
  return {lval::Memory{m->array, m->offset, std::max<uint64_t>(1, sizeOf(t) / (es ? es : 1))}};
}

LValue KernelExtractor::declLValue(const clang::ValueDecl *d, const clang::Expr *where) {
  const auto *var = llvm::dyn_cast<clang::VarDecl>(d);
  if (var && inPrelude(var) && isBuiltinVar(var->getName())) {
    if (var->getName() == "warpSize")
      return fromBinding(valueBinding(Expr::builtinVar(model::Builtin::WarpSize)), var->getType(), where);
    auto b = std::make_shared<Binding>(bind::Struct{});
    if (const clang::RecordDecl *rd = var->getType()->getAsRecordDecl())
      for (const clang::FieldDecl *f : rd->fields())
        b->as<bind::Struct>()->fields[f] =
            valueBinding(Expr::builtinVar(builtinOf(var->getName(), f->getName())));
    return fromBinding(b, var->getType(), where);
  }
  if (BindingPtr b = lookup(d)) return fromBinding(b, d->getType(), where);
  if (var) {
    if (std::optional<unsigned> id = globalArray(var)) {
      uint64_t es = k_.arrays[*id].elem_size;
      return {lval::Memory{*id, zero64(), std::max<uint64_t>(1, sizeOf(var->getType()) / (es ? es : 1))}};
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
        object = {lval::Struct{frames_.back().this_object}};
      } else if (frames_.back().this_memory.valid()) {
        object = frames_.back().this_memory;
      } else {
        unsupported("member of 'this'", textOf(m->getSourceRange()), m->getSourceRange());
        return {};
      }
    } else {
      std::optional<Pointer> p = pointer(base);
      if (!p) return {};
      if (p->is<ptr::Local>()) {
        unsupported("member through a pointer to a local", textOf(m->getSourceRange()), m->getSourceRange());
        return {};
      }
      // p->f: the part of the element p points to that is f (below)
      const auto &to = std::get<ptr::Memory>(p->node);  // pointer() gives no other kind
      object = {lval::Memory{to.array, to.offset, to.scale}};
    }
  } else {
    object = lvalue(base);
  }
  if (const auto *s = object.as<lval::Struct>()) {
    const bind::Fields &fields = s->binding->fields();
    auto it = fields.find(field);
    if (it == fields.end()) {
      unsupported("member", "'" + field->getNameAsString() + "'", m->getSourceRange());
      return {};
    }
    if (const auto *r = it->second->as<bind::Ref>(); r && !r->ref.valid()) {
      unsupported("reference member kverify cannot follow", textOf(m->getSourceRange()), m->getSourceRange());
      return {};
    }
    LValue lv = fromBinding(it->second, field->getType(), m);
    if (!sub) return lv;
    std::optional<Pointer> p = decay(lv, sub->getBase()->getType()->getPointeeType(), sub->getBase());
    return pointee(p, rvalue(sub->getIdx()), sub);
  }
  if (object.inMemory()) {
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
    if (!sub || !lv.valid()) return lv;
    std::optional<Pointer> p = decay(lv, sub->getBase()->getType()->getPointeeType(), sub->getBase());
    return pointee(p, rvalue(sub->getIdx()), sub);
  }
  if (object.valid()) unsupported("member access", textOf(m->getSourceRange()), m->getSourceRange());
  return {};
}

// `p[idx]`, `e` being the subscript.
LValue KernelExtractor::pointee(const std::optional<Pointer> &p, ExprPtr idx, const clang::Expr *e) {
  if (!p) return {};
  clang::SourceRange where = e->getSourceRange();
  auto atStart = [&] {  // a local's address: only p[0]
    const auto *c = idx ? idx->as<model::expr::Const>() : nullptr;
    if (!idx || (c && c->int_value == 0)) return true;
    unsupported("subscript of a pointer to a local", textOf(where), where);
    return false;
  };
  return std::visit(
      model::Overloaded{
          [&](const ptr::Memory &m) -> LValue {
            return {
                lval::Memory{m.array, idx ? addIndex(m.offset, std::move(idx), m.scale) : m.offset, m.scale}};
          },
          [&](const ptr::Local &l) -> LValue { return atStart() ? LValue{lval::Local{l.local}} : LValue{}; },
          [&](const ptr::Var &v) -> LValue { return atStart() ? LValue{lval::PointerVar{v.var}} : LValue{}; },
          [&](const ptr::Choice &c) -> LValue {
            LValue a = pointee(*c.then_p, idx, e), b = pointee(*c.else_p, idx, e);
            if (!a.valid() || !b.valid()) return {};
            return {lval::Choice{c.cond, std::make_shared<const LValue>(std::move(a)),
                                 std::make_shared<const LValue>(std::move(b))}};
          },
          [&](const ptr::Unknown &u) -> LValue {
            unsupported(u.why, textOf(where), where);
            return {};
          },
      },
      p->node);
}

// The bytes [offset, offset + size) of what `object` designates (a field, a base-class
// part), in whichever array it is: in that array's units. Where they do not fall on whole units (a component narrower than the
// elements of a scalar array viewed through a cast) it is unsupported: a wider location
// would make two different components one value for the rules that compare values.
LValue KernelExtractor::partOf(const LValue &object, uint64_t offset, uint64_t size,
                               const clang::Expr *where) {
  if (const auto *c = object.as<lval::Choice>()) {
    LValue a = partOf(*c->then_lv, offset, size, where);
    LValue b = !a.valid() ? LValue{} : partOf(*c->else_lv, offset, size, where);
    if (!b.valid()) return {};
    return {lval::Choice{c->cond, std::make_shared<const LValue>(std::move(a)),
                         std::make_shared<const LValue>(std::move(b))}};
  }
  const auto *m = object.as<lval::Memory>();
  if (!m) return {};
  const model::Array &arr = k_.arrays[m->array];
  uint64_t unit = std::max(1u, arr.elem_size);
  if (offset % unit != 0 || size % unit != 0 || size == 0) {
    unsupported("part of an element smaller than the elements of its array",
                textOf(where->getSourceRange()) + ": " + std::to_string(size) + " bytes at offset " +
                    std::to_string(offset) + " of '" + arr.name + "', whose elements ('" + arr.elem_c_type +
                    "') have " + std::to_string(unit) + " bytes",
                where->getSourceRange());
    return {};
  }
  lval::Memory part = *m;
  if (offset != 0)
    part.index = addIndex(m->index, Expr::intConst(Type::i64(), static_cast<int64_t>(offset / unit)), 1);
  part.count = size / unit;
  return {std::move(part)};
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
      if (!lv.inMemory()) return lv;  // a struct variable holds its base classes' fields too
      std::optional<uint64_t> offset = baseOffset(c);
      return offset ? partOf(lv, *offset, sizeOf(c->getType()), c) : LValue{};
    }
  }
  if (const auto *m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e)) {
    const clang::Expr *sub = m->getSubExpr();
    if (sub->getType()->isRecordType()) {
      BindingPtr temporary = freshStruct(sub->getType(), "temporary");
      assignStruct(temporary, sub);
      return {lval::Struct{temporary}};
    }
    if (sub->isGLValue()) return lvalue(sub);
    return {lval::Value{rvalue(sub)}};
  }
  if (const auto *c = llvm::dyn_cast<clang::CallExpr>(e)) {
    BindingPtr b = call(c);
    if (b && b->is<bind::Struct>()) return {lval::Struct{b}};
    if (b && c->getCallReturnType(ctx_)->isReferenceType())
      if (const auto *r = b->as<bind::Ref>()) return r->ref;
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
  auto variable = [&](const auto &) { return opaque(t, "value of " + textOf(where->getSourceRange())); };
  return std::visit(model::Overloaded{
                        [&](const lval::Invalid &) { return opaque(t, "unsupported"); },
                        [&](const lval::Value &v) { return v.value; },
                        [&](const lval::Local &l) { return Expr::local(l.local); },
                        [&](const lval::Memory &m) {
                          if (in_premise_)  // what memory holds, not an access (KV_ASSUME_FORALL)
                            return Expr::element(typeOf(t), m.array, m.index, std::max<unsigned>(m.count, 1),
                                                 k_.arrays[m.array].name);
                          unsigned id = emitAccess(model::AccessKind::Read, m.array, m.index, m.count,
                                                   where->getSourceRange());
                          return Expr::opaque(typeOf(t), id, "load of " + k_.arrays[m.array].name);
                        },
                        [&](const lval::Struct &s) { return variable(s); },
                        [&](const lval::PointerVar &p) { return variable(p); },
                        [&](const lval::Choice &c) {  // if (cond) load one else load the other
                          ExprPtr a, b;
                          std::vector<Stmt> then_s = nested([&] { a = load(*c.then_lv, where); });
                          std::vector<Stmt> else_s = nested([&] { b = load(*c.else_lv, where); });
                          emit(Stmt{rangeOf(where->getSourceRange()),
                                    model::stmt::If{c.cond, std::move(then_s), std::move(else_s)}});
                          return Expr::select(c.cond, a, Expr::cast(a->type, b));
                        },
                    },
                    lv.node);
}

void KernelExtractor::store(const LValue &lv, ExprPtr value, const clang::Expr *where) {
  clang::SourceRange range = where->getSourceRange();
  auto variable = [&](const auto &) { unsupported("write", textOf(range), range); };
  std::visit(
      model::Overloaded{
          [&](const lval::Invalid &) {},
          [&](const lval::Value &) { unsupported("write to a read-only value", textOf(range), range); },
          [&](const lval::Local &l) { emitAssign(l.local, std::move(value), range); },
          [&](const lval::Memory &m) {
            // the value stored, where it is a scalar the analysis compares (benign races)
            // and fills the location written (one element, or a field's bytes)
            bool integral = value && (value->type.kind == model::Type::Kind::Int ||
                                      value->type.kind == model::Type::Kind::Bool);
            uint64_t bytes = integral ? std::max(1u, value->type.bits / 8) : 0;
            const model::Array &a = k_.arrays[m.array];
            bool scalar =
                integral && (a.by_bytes ? bytes == m.count * std::max(1u, a.elem_size) : m.count <= 1);
            emitAccess(model::AccessKind::Write, m.array, m.index, m.count, range, nullptr,
                       scalar ? std::move(value) : nullptr);
          },
          [&](const lval::Struct &s) { variable(s); },
          [&](const lval::PointerVar &p) { variable(p); },
          [&](const lval::Choice &c) {
            std::vector<Stmt> then_s = nested([&] { store(*c.then_lv, value, where); });
            std::vector<Stmt> else_s = nested([&] { store(*c.else_lv, value, where); });
            emit(Stmt{rangeOf(range), model::stmt::If{c.cond, std::move(then_s), std::move(else_s)}});
          },
      },
      lv.node);
}

// --- pointers ------------------------------------------------------------------------

}  // namespace kverify::frontend::detail
