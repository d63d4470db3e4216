// Calls: device functions inlined at their call sites (arguments bound, returns turned
// into values), memcpy/memset; the builtins a call may be are in extract_builtins.cpp.
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

static bool takesPointers(const clang::FunctionDecl *fn, const clang::CallExpr *c) {
  auto pointerish = [](clang::QualType t) {
    return t->isPointerType() || t->isReferenceType() || t->isArrayType();
  };
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
        if (declaresDeviceVariable(inner, x)) return true;
  }
  return false;
}

BindingPtr KernelExtractor::call(const clang::CallExpr *c) {
  clang::SourceRange where = c->getSourceRange();
  if (llvm::isa<clang::CUDAKernelCallExpr>(c)) {
    unsupported("dynamic parallelism", "kernel launch from device code: " + textOf(where), where);
    return nullptr;
  }
  const clang::FunctionDecl *fn = c->getDirectCallee();
  if (!fn) return callThroughPointer(c);
  // Assignment of structs is a call of the implicit operator=.
  if (const auto *op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(c);
      op && op->getOperator() == clang::OO_Equal) {
    const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(fn);
    if (method && (method->isTrivial() || method->isDefaulted()) && c->getNumArgs() == 2) {
      LValue lv = lvalue(c->getArg(0));
      if (const auto *s = lv.as<lval::Struct>()) {
        assignStruct(s->binding, c->getArg(1));
        return std::make_shared<Binding>(bind::Ref{lv});
      }
      BindingPtr scratch = freshStruct(c->getArg(1)->getType(), "value");
      assignStruct(scratch, c->getArg(1));
      store(lv, opaque(c->getType(), "struct"), c->getArg(0));
      return nullptr;
    }
  }
  // before clang's builtins (__syncthreads is both); __kverify_assume_forall has a body
  // only so that clang accepts a lambda's type as its argument
  if (inPrelude(fn) &&
      (!fn->hasBody() || classifyBuiltin(fn->getName().str()).kind == BuiltinKind::AssumeForall))
    return builtin(c, fn);
  if (fn->getBuiltinID() != 0) {
    if (fn->getBuiltinID() == clang::Builtin::BI__builtin_expect && c->getNumArgs() == 2)
      return valueBinding(rvalue(c->getArg(0)));
    if (unsigned id = fn->getBuiltinID();
        id == clang::Builtin::BI__builtin_memcpy || id == clang::Builtin::BImemcpy ||
        id == clang::Builtin::BI__builtin_memset || id == clang::Builtin::BImemset)
      return copyOrFill(c, id == clang::Builtin::BI__builtin_memset || id == clang::Builtin::BImemset);
    if (takesPointers(fn, c)) {
      unsupported("builtin function with pointer arguments", fn->getNameAsString(), where);
      return nullptr;
    }
    for (const clang::Expr *a : c->arguments()) discard(a);
    return fn->getReturnType()->isVoidType()
               ? nullptr
               : valueBinding(opaque(fn->getReturnType(), "call of " + fn->getNameAsString()));
  }
  const clang::FunctionDecl *def = nullptr;
  if (fn->hasBody(def)) return inlineCall(c, def);
  if (takesPointers(fn, c)) {
    unsupported("unknown external function with pointer arguments",
                "'" + fn->getQualifiedNameAsString() + "' has no body kverify can see", where);
    return nullptr;
  }
  if (declaresDeviceVariable(ctx_.getTranslationUnitDecl(), *this)) {
    unsupported("unknown external function",
                "'" + fn->getQualifiedNameAsString() +
                    "' has no body kverify can see, and could write the file's __device__ variables",
                where);
    return nullptr;
  }
  for (const clang::Expr *a : c->arguments()) discard(a);
  if (fn->getReturnType()->isVoidType()) return nullptr;
  return valueBinding(opaque(fn->getReturnType(), "call of " + fn->getNameAsString()));
}

// Whether every use of `var` in `s` reads its value (none assigns it, takes its address
// or binds a reference to it).
static bool onlyRead(const clang::Stmt *s, const clang::VarDecl *var) {
  if (!s) return true;
  if (const auto *ic = llvm::dyn_cast<clang::ImplicitCastExpr>(s);
      ic && ic->getCastKind() == clang::CK_LValueToRValue)
    if (const auto *d = llvm::dyn_cast<clang::DeclRefExpr>(ic->getSubExpr()->IgnoreParens());
        d && d->getDecl() == var)
      return true;
  if (const auto *d = llvm::dyn_cast<clang::DeclRefExpr>(s); d && d->getDecl() == var) return false;
  for (const clang::Stmt *c : s->children())
    if (!onlyRead(c, var)) return false;
  return true;
}

// The value of length `n` when it is known at compile time: a constant expression, or a
// local of the current function that is never written after its constant initializer
// (`size_t len = 4;`).
std::optional<uint64_t> KernelExtractor::constantLength(const clang::Expr *n) {
  clang::Expr::EvalResult r;
  if (!n->isValueDependent() && n->EvaluateAsInt(r, ctx_)) return r.Val.getInt().getZExtValue();
  const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(n->IgnoreParenImpCasts());
  const auto *var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!var || llvm::isa<clang::ParmVarDecl>(var) || !var->hasLocalStorage() ||
      !var->getType()->isIntegerType() || !var->getInit() || !onlyRead(frames_.back().fn->getBody(), var))
    return std::nullopt;
  if (!var->getInit()->EvaluateAsInt(r, ctx_) || r.Val.getInt().isNegative()) return std::nullopt;
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
    if (!u || u->getOpcode() != clang::UO_AddrOf || !u->getSubExpr()->getType()->isRecordType()) return {};
    LValue lv = lvalue(u->getSubExpr());
    const auto *s = lv.as<lval::Struct>();
    if (!s) return {};
    return {s->binding, sizeOf(u->getSubExpr()->getType())};
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
    unsupported(name,
                "a length kverify cannot compute at compile time: " + textOf(c->getArg(2)->getSourceRange()),
                where);
    return nullptr;
  }
  if ((dst_struct && *bytes > dst_size) || (src_struct.first && *bytes > src_struct.second)) {
    unsupported(name, "more bytes than the struct holds: " + textOf(where), where);
    return nullptr;
  }
  if (dst_struct) havocStruct(dst_struct, "written by " + name, where);
  auto touch = [&](model::AccessKind kind, const std::optional<Pointer> &p) {
    if (!p || *bytes == 0) return;              // pointer() has said why it has no target
    if (const auto *l = p->as<ptr::Local>()) {  // a scalar local: its new value is unknown
      if (kind == model::AccessKind::Write)
        emitAssign(l->local, Expr::opaque(l->local.type, newId(), "written by " + name), where);
      return;
    }
    const auto &m = std::get<ptr::Memory>(p->node);  // pointer() gives no other kind
    uint64_t es = std::max<uint64_t>(1, k_.arrays[m.array].elem_size);
    uint64_t count = *bytes / es + (*bytes % es != 0);
    if (count > (1u << 30)) {
      unsupported(name, "a length of " + std::to_string(*bytes) + " bytes", where);
      return;
    }
    emitAccess(kind, m.array, m.offset, count, where);
  };
  if (!is_fill) touch(model::AccessKind::Read, src);
  touch(model::AccessKind::Write, dst);
  return nullptr;
}

// `lv` as it designates now: its index (and which array a choice picks) snapshotted.
LValue KernelExtractor::pinned(LValue lv, const std::string &name, clang::SourceRange where) {
  if (auto *m = lv.as<lval::Memory>()) {
    m->index = snapshot(m->index, name + ".index", where);
  } else if (auto *c = lv.as<lval::Choice>()) {
    c->cond = snapshot(c->cond, name + ".cond", where);
    c->then_lv = std::make_shared<const LValue>(pinned(*c->then_lv, name, where));
    c->else_lv = std::make_shared<const LValue>(pinned(*c->else_lv, name, where));
  }
  return lv;
}

// A reference bound to `lv`: it names the element the index had at binding time.
BindingPtr KernelExtractor::referenceTo(LValue lv, const std::string &name, clang::SourceRange where) {
  return std::make_shared<Binding>(bind::Ref{pinned(std::move(lv), name, where)});
}

void KernelExtractor::bindArgument(Frame &frame, const clang::ParmVarDecl *param, const clang::Expr *arg) {
  clang::QualType t = param->getType();
  std::string name = frame.prefix + param->getNameAsString();
  auto b = std::make_shared<Binding>();
  clang::SourceRange where = arg->getSourceRange();
  if (t->isReferenceType() && t->getPointeeType()->isRecordType()) {
    LValue lv = lvalue(arg);
    if (const auto *s = lv.as<lval::Struct>()) {
      b = s->binding;
    } else if (lv.inMemory()) {
      b = referenceTo(lv, name, where);  // writes through it reach the element
    } else {
      b = freshStruct(t->getPointeeType(), name);
      havocStruct(b, "struct argument", where);
    }
  } else if (t->isReferenceType()) {
    b = referenceTo(lvalue(arg), name, where);
  } else if (t->isPointerType() && !t->isFunctionPointerType()) {
    bind::Pointer v{Pointer::unset(), newLocal(name + ".offset", Type::i64())};
    v.scope = v.home = out_.back();  // the inlined body
    v.created_at = ++event_;
    b->node = std::move(v);
    assignPointer(b, arg, where);
  } else if (t->isRecordType()) {
    b = freshStruct(t, name);
    assignStruct(b, arg);
  } else if (t->isScalarType()) {
    model::Local l = newLocal(name, typeOf(t));
    b->node = bind::Local{l};
    emitAssign(l, rvalue(arg), where);
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
  if (!ce->getConstructor()->hasBody(def) || def->getNumParams() != ce->getNumArgs()) return false;
  const auto *ctor = llvm::cast<clang::CXXConstructorDecl>(def);
  clang::SourceRange where = ce->getSourceRange();
  if (cannotInline(ctor, where)) return true;
  Frame frame;
  frame.fn = ctor;
  frame.prefix = ctor->getParent()->getNameAsString() + ".";
  frame.this_object = dst;
  frame.site = !frames_.empty() && frames_.back().site.isValid() ? frames_.back().site
               : inPrelude(ctor)                                 ? where
                                                                 : clang::SourceRange();
  model::stmt::Inlined inl;
  inl.function = ctor->getQualifiedNameAsString();
  inl.body = nested([&] {
    for (unsigned i = 0; i < ctor->getNumParams(); ++i)  // in the caller's frame
      bindArgument(frame, ctor->getParamDecl(i), ce->getArg(i));
    frames_.push_back(frame);
    auto uninitialized = std::make_shared<Binding>(*dst);  // the fields no initializer sets
    for (const clang::CXXCtorInitializer *init : ctor->inits())
      if (auto *s = uninitialized->as<bind::Struct>(); s && init->getMember())
        s->fields.erase(init->getMember());
    havocStruct(uninitialized, "uninitialized", where);
    for (const clang::CXXCtorInitializer *init : ctor->inits()) {
      const clang::FieldDecl *f = init->getMember();
      auto it = f ? dst->fields().find(f) : dst->fields().end();
      if (it == dst->fields().end()) {  // a base class, a delegating or indirect initializer
        unsupported("constructor initializer", textOf(init->getSourceRange()), where);
        continue;
      }
      const BindingPtr &leaf = it->second;
      const clang::Expr *value = init->getInit();
      if (leaf->is<bind::Struct>())
        assignStruct(leaf, value);
      else if (const auto *l = leaf->as<bind::Local>())
        emitAssign(l->local, rvalue(value), init->getSourceRange());
      else if (leaf->is<bind::Ref>())
        leaf->as<bind::Ref>()->ref = lvalue(value);
      else if (const auto *v = leaf->as<bind::Pointer>(); v && v->offset)
        assignPointer(leaf, value, init->getSourceRange());
      else
        discard(value);  // an array field: its element values are not tracked
    }
    if (shallowEnough(ctor->getBody())) stmt(ctor->getBody());
    frames_.pop_back();
  });
  emit(Stmt{rangeOf(where), std::move(inl)});
  return true;
}

bool KernelExtractor::cannotInline(const clang::FunctionDecl *fn, clang::SourceRange where) {
  for (const Frame &f : frames_)
    if (f.fn && f.fn->getCanonicalDecl() == fn->getCanonicalDecl()) {
      unsupported("recursion", "'" + fn->getQualifiedNameAsString() + "' calls itself", where);
      return true;
    }
  if (++inlined_ <= kMaxInlined) return false;
  if (inlined_ == kMaxInlined + 1)
    unsupported("call tree",
                "more than " + std::to_string(kMaxInlined) +
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
  if (!body || body->body_empty() || !llvm::isa<clang::ReturnStmt>(body->body_back())) return false;
  returns.TraverseStmt(const_cast<clang::CompoundStmt *>(body));
  return returns.count == 1;
}

// The object a member call runs on (`o.f()`, `p->f()`, `a[i].f()`, `f()` inside another
// member), as `frame`'s this_object (a struct variable) or this_memory (an object in
// memory, whose fields are memory). Returns the index of the first argument that binds a
// parameter: 1 for a member operator, whose object is argument 0.
unsigned KernelExtractor::bindObject(Frame &frame, const clang::CallExpr *c, const clang::FunctionDecl *fn) {
  clang::SourceRange where = c->getSourceRange();
  unsigned first = 0;
  const clang::Expr *object = nullptr;
  if (const auto *mc = llvm::dyn_cast<clang::CXXMemberCallExpr>(c)) {
    object = mc->getImplicitObjectArgument();
  } else if (llvm::isa<clang::CXXOperatorCallExpr>(c) && llvm::isa<clang::CXXMethodDecl>(fn)) {
    object = c->getArg(0);
    first = 1;
  }
  if (!object) return first;
  const clang::Expr *o = strip(object)->IgnoreImpCasts();
  if (llvm::isa<clang::CXXThisExpr>(o)) {
    frame.this_object = frames_.back().this_object;
    frame.this_memory = frames_.back().this_memory;
  } else {
    LValue lv;
    if (!object->getType()->isPointerType())
      lv = lvalue(object);
    else if (std::optional<Pointer> p = pointer(object); p && p->is<ptr::Memory>())
      lv = pointee(p, nullptr, object);
    if (const auto *s = lv.as<lval::Struct>())
      frame.this_object = s->binding;
    else if (lv.inMemory())
      frame.this_memory = pinned(lv, frame.prefix + "this", where);  // its fields are memory
  }
  if (!frame.this_object && !frame.this_memory.valid()) {
    const auto *rd = llvm::cast<clang::CXXMethodDecl>(fn)->getParent();
    if (!rd->field_empty())
      unsupported("member call on an object kverify does not model", textOf(where), where);
    frame.this_object = std::make_shared<Binding>(bind::Struct{});
  }
  return first;
}

// Where the returns of `fn`, inlined with local names starting `prefix`, put its result:
// a struct, a pointer variable or a scalar Local, the lvalue of its one return (a function
// returning a reference), or null for a void function.
BindingPtr KernelExtractor::resultOf(const clang::FunctionDecl *fn, const std::string &prefix,
                                     clang::SourceRange where) {
  clang::QualType ret = fn->getReturnType();
  if (ret->isRecordType()) return freshStruct(ret, prefix + "result");
  if (ret->isVoidType()) return nullptr;
  auto result = std::make_shared<Binding>();
  if (ret->isPointerType() && !ret->isFunctionPointerType()) {  // a pointer variable its returns assign
    bind::Pointer v{Pointer::unset(), newLocal(prefix + "result.offset", Type::i64())};
    v.home = out_.back();  // the inlined body
    v.created_at = ++event_;
    result->node = std::move(v);
  } else if (ret->isReferenceType()) {
    // the lvalue of its one return (an accessor: `T &operator[](int i) { return v[i]; }`)
    if (!onlyReturnIsLast(fn))
      unsupported("function returning a reference from more than one return",
                  "'" + fn->getQualifiedNameAsString() + "'", where);
    result->node = bind::Ref{};
  } else {
    result->node = bind::Local{newLocal(prefix + "result", typeOf(ret))};
  }
  return result;
}

BindingPtr KernelExtractor::inlineCall(const clang::CallExpr *c, const clang::FunctionDecl *fn) {
  clang::SourceRange where = c->getSourceRange();
  if (cannotInline(fn, where)) return nullptr;
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
    unsigned first = bindObject(frame, c, fn);
    if (c->getNumArgs() - first > fn->getNumParams())
      unsupported("variadic function", fn->getQualifiedNameAsString(), where);
    for (unsigned i = 0; i < fn->getNumParams() && first + i < c->getNumArgs(); ++i)
      bindArgument(frame, fn->getParamDecl(i), c->getArg(first + i));
    frame.result = resultOf(fn, frame.prefix, where);
    if (const auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(fn->getBody());
        body && !body->body_empty())
      frame.last = body->body_back();
    frames_.push_back(frame);
    if (shallowEnough(fn->getBody())) stmt(fn->getBody());
    frame.result = frames_.back().result;
    frames_.pop_back();
  });
  emit(Stmt{rangeOf(where), std::move(inl)});
  return frame.result;
}

}  // namespace kverify::frontend::detail
