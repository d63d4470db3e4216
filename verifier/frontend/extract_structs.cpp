// Structs: copies, assignments and havoc of struct values, field by field.
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

static ExprPtr leafValue(const BindingPtr &b) {
  if (const auto *l = b->as<bind::Local>()) return Expr::local(l->local);
  if (const auto *v = b->as<bind::Value>()) return v->value;
  return nullptr;
}

void KernelExtractor::havocStruct(const BindingPtr &dst, const std::string &what, clang::SourceRange where) {
  for (auto &[field, leaf] : dst->fields()) {
    const auto *v = leaf->as<bind::Pointer>();
    if (leaf->is<bind::Struct>())
      havocStruct(leaf, what, where);
    else if (const auto *l = leaf->as<bind::Local>())
      emitAssign(l->local, Expr::opaque(l->local.type, newId(), what), where);
    else if (auto *r = leaf->as<bind::Ref>())
      r->ref = LValue{};  // unknown referent: a use is unsupported
    else if (v && v->offset && v->scope == out_.back())
      assignPointer(leaf, Pointer::unknown("pointer field set to an unknown value"), where);
    else if (v && v->offset)
      unsupported("pointer field set to an unknown value", what, where);
  }
}

void KernelExtractor::copyStruct(const BindingPtr &dst, const BindingPtr &src, clang::SourceRange where) {
  for (auto &[field, leaf] : dst->fields()) {
    auto it = src->fields().find(field);
    if (it == src->fields().end()) {
      unsupported("struct copy between different types", textOf(where), where);
      return;
    }
    const auto *v = leaf->as<bind::Pointer>();
    auto *ref = leaf->as<bind::Ref>();
    const auto *src_ref = it->second->as<bind::Ref>();
    if (leaf->is<bind::Struct>())
      copyStruct(leaf, it->second, where);
    else if (const auto *l = leaf->as<bind::Local>()) {
      if (ExprPtr value = leafValue(it->second)) emitAssign(l->local, value, where);
    } else if (ref && src_ref) {
      ref->ref = src_ref->ref;    // a copy refers to the same object
    } else if (v && v->offset) {  // a pointer field
      std::optional<Pointer> p = pointerOfBinding(it->second);
      if (!p) unsupported("pointer used before it is assigned", textOf(where), where);
      assignPointer(leaf, p, where);
    }
  }
}

// A constructor whose body is empty and whose member initializers only bind reference
// fields to reference parameters (`explicit atomic_ref(T &obj) : ref(obj) {}`): the
// fields refer to the arguments' objects. Anything else is left to the caller.
bool KernelExtractor::bindReferenceFields(const BindingPtr &dst, const clang::CXXConstructExpr *ce) {
  const clang::CXXConstructorDecl *ctor = ce->getConstructor();
  const clang::FunctionDecl *def = nullptr;
  if (!ctor->hasBody(def)) return false;
  const auto *cdef = llvm::cast<clang::CXXConstructorDecl>(def);
  const auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(cdef->getBody());
  if (!body || !body->body_empty() || cdef->getNumParams() != ce->getNumArgs()) return false;
  std::map<const clang::FieldDecl *, unsigned> bound;  // field -> parameter index
  for (const clang::CXXCtorInitializer *init : cdef->inits()) {
    const clang::FieldDecl *f = init->getMember();
    if (!f || !f->getType()->isReferenceType()) return false;
    const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(strip(init->getInit())->IgnoreImpCasts());
    const auto *parm = ref ? llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl()) : nullptr;
    if (!parm || !parm->getType()->isReferenceType()) return false;
    bound[f] = parm->getFunctionScopeIndex();
  }
  if (bound.empty() || bound.size() != dst->fields().size()) return false;
  std::vector<LValue> args(ce->getNumArgs());
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
    if (cdef->getParamDecl(i)->getType()->isReferenceType())
      args[i] = lvalue(ce->getArg(i));
    else
      discard(ce->getArg(i));
  }
  for (auto &[field, leaf] : dst->fields()) {
    auto it = bound.find(field);
    auto *r = leaf->as<bind::Ref>();
    if (it == bound.end() || !r) return false;
    r->ref = args[it->second];
  }
  return true;
}

// A record type's own fields, in declaration order (none where it has no definition).
static std::vector<const clang::FieldDecl *> fieldsOf(clang::QualType t) {
  std::vector<const clang::FieldDecl *> out;
  if (const clang::RecordDecl *rd = t->getAsRecordDecl(); rd && rd->getDefinition())
    for (const clang::FieldDecl *f : rd->getDefinition()->fields()) out.push_back(f);
  return out;
}

// `dst` initialised by a constructor call: a copy or move, a trivial default (fields
// unknown), reference fields bound, a prelude conversion (an unknown value) or a
// constructor inlined; anything else is unsupported.
void KernelExtractor::constructStruct(const BindingPtr &dst, const clang::CXXConstructExpr *ce) {
  clang::SourceRange where = ce->getSourceRange();
  const clang::CXXConstructorDecl *ctor = ce->getConstructor();
  if (ctor->isCopyOrMoveConstructor() && ce->getNumArgs() >= 1) return assignStruct(dst, ce->getArg(0));
  if (ctor->isDefaultConstructor() && ctor->isTrivial()) return havocStruct(dst, "uninitialized", where);
  if (dst->fields().empty()) {  // an empty class (a cooperative group): nothing to model
    for (const clang::Expr *a : ce->arguments()) discard(a);
    return;
  }
  if (bindReferenceFields(dst, ce)) return;
  if (inPrelude(ctor) && !ctor->hasBody()) {      // a conversion (__nv_bfloat16(float)): a value
    for (const clang::Expr *a : ce->arguments())  // by value: the prelude's take no pointers
      discard(a);
    return havocStruct(dst, "value of " + ctor->getParent()->getName().str(), where);
  }
  if (inlineConstructor(dst, ce)) return;
  unsupported("constructor call", textOf(where), where);
  return havocStruct(dst, "unsupported constructor", where);
}

// `dst` initialised from a braced list, field by field (a scalar field without an
// initializer is 0).
void KernelExtractor::initStruct(const BindingPtr &dst, const clang::InitListExpr *il) {
  clang::SourceRange where = il->getSourceRange();
  std::vector<const clang::FieldDecl *> fields = fieldsOf(il->getType());
  // C++17 aggregates: an initializer per base class first; `dst` holds its fields too
  unsigned bases = 0;
  if (const auto *cxx = il->getType()->getAsCXXRecordDecl(); cxx && cxx->hasDefinition())
    for (; bases < cxx->getNumBases() && bases < il->getNumInits(); ++bases)
      assignStruct(dst, il->getInit(bases));
  for (size_t i = 0; i < fields.size(); ++i) {
    BindingPtr leaf = dst->fields().at(fields[i]);
    const clang::Expr *init = bases + i < il->getNumInits() ? il->getInit(bases + i) : nullptr;
    const auto *v = leaf->as<bind::Pointer>();
    if (leaf->is<bind::Struct>()) {
      if (init)
        assignStruct(leaf, init);
      else
        havocStruct(leaf, "zero", where);
    } else if (const auto *l = leaf->as<bind::Local>()) {
      emitAssign(l->local, init ? rvalue(init) : Expr::intConst(l->local.type, 0), where);
    } else if (v && v->offset && init) {
      assignPointer(leaf, init, where);
    } else if (init) {
      // an array field (element values untracked) or a reference: the initializer's
      // loads and calls still happen
      discard(init);
    }
  }
}

// `dst` set to a call's result: make_float4 and the like field by field, else the struct
// the call returns (an unknown value where it returns none kverify follows).
void KernelExtractor::structFromCall(const BindingPtr &dst, const clang::CallExpr *c) {
  clang::SourceRange where = c->getSourceRange();
  const clang::FunctionDecl *fn = c->getDirectCallee();
  if (fn && inPrelude(fn) && !fn->hasBody() &&
      classifyBuiltin(fn->getName().str()).kind == BuiltinKind::MakeVector) {
    std::vector<const clang::FieldDecl *> fields = fieldsOf(c->getType());
    for (size_t i = 0; i < fields.size() && i < c->getNumArgs(); ++i)
      if (const auto *l = dst->fields().at(fields[i])->as<bind::Local>())
        emitAssign(l->local, rvalue(c->getArg(i)), where);
    return;
  }
  BindingPtr result = call(c);
  if (result && result->is<bind::Struct>()) return copyStruct(dst, result, where);
  if (const auto *r = result ? result->as<bind::Ref>() : nullptr) {  // the variable it refers to
    if (const auto *s = r->ref.as<lval::Struct>()) return copyStruct(dst, s->binding, where);
    if (const auto *p = r->ref.as<lval::PointerVar>()) return copyStruct(dst, p->binding, where);
  }
  return havocStruct(dst, "result of " + textOf(where), where);
}

void KernelExtractor::assignStruct(const BindingPtr &dst, const clang::Expr *src) {
  src = strip(src);
  clang::SourceRange where = src->getSourceRange();
  if (const auto *m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(src))
    return assignStruct(dst, m->getSubExpr());
  if (const auto *c = llvm::dyn_cast<clang::CastExpr>(src);
      c && (c->getCastKind() == clang::CK_NoOp || c->getCastKind() == clang::CK_ConstructorConversion ||
            llvm::isa<clang::CXXFunctionalCastExpr>(c)))
    return assignStruct(dst, c->getSubExpr());
  if (const auto *ce = llvm::dyn_cast<clang::CXXConstructExpr>(src)) return constructStruct(dst, ce);
  if (const auto *il = llvm::dyn_cast<clang::InitListExpr>(src)) return initStruct(dst, il);
  if (const auto *c = llvm::dyn_cast<clang::CallExpr>(src)) return structFromCall(dst, c);
  if (src->isGLValue()) {
    LValue lv = lvalue(src);
    if (const auto *s = lv.as<lval::Struct>()) return copyStruct(dst, s->binding, where);
    if (lv.inMemory()) {
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
    if (ExprPtr v = leafValue(b)) return v;
    if (const auto *r = b->as<bind::Ref>()) return load(r->ref, where);
  }
  return opaque(where->getType(), "value of " + textOf(where->getSourceRange()));
}

// Whether a builtin's parameters, or the arguments of this call of it, include a pointer,
// reference or array: it may then touch memory kverify cannot see. (Type-generic builtins
// such as __builtin_isnan are declared variadic: their arguments tell.)

}  // namespace kverify::frontend::detail
