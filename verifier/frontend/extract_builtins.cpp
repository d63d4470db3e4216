// Builtins and intrinsics (classified by name in builtins.cpp): barriers, fences,
// assumptions, atomics, loads, the integer arithmetic kverify computes, opaque calls.
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
    for (unsigned i = 0; i < w; ++i) r = Expr::select(set(i), n(w - 1 - i), r);
  } else {
    r = n(0);  // x == 0; a lower set bit decides over a higher one
    for (unsigned i = w; i-- > 0;) r = Expr::select(set(i), n(i + 1), r);
  }
  return r;
}

// --- structs ---------------------------------------------------------------------------

// A builtin's access through a pointer argument (an atomic's, __ldg's, an out-parameter's):
// the access's id, or none where the pointer is a local's address (sincosf(x, &s, &c)).
std::optional<unsigned> KernelExtractor::builtinAccess(model::AccessKind kind, const clang::Expr *ptr,
                                                       const std::string &name, clang::SourceRange where,
                                                       const BuiltinInfo *atomic, ExprPtr operand,
                                                       ExprPtr order) {
  std::optional<Pointer> p = pointer(ptr);
  if (!p) return std::nullopt;
  if (const auto *l = p->as<ptr::Local>()) {
    if (kind != model::AccessKind::Read)
      emitAssign(l->local, Expr::opaque(l->local.type, newId(), "written by " + name), where);
    return std::nullopt;
  }
  const auto &m = std::get<ptr::Memory>(p->node);  // pointer() gives no other kind
  return emitAccess(kind, m.array, m.offset, m.scale, where, atomic, std::move(operand), std::move(order));
}

// An atomic: <cuda/atomic>'s operations end in the memory order and the object's scope.
BindingPtr KernelExtractor::atomicBuiltin(const clang::CallExpr *c, const std::string &name,
                                          clang::QualType ret, BuiltinInfo info, clang::SourceRange where) {
  auto arg = [&](unsigned i) { return c->getArg(i); };
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
  std::optional<unsigned> id =
      builtinAccess(model::AccessKind::Atomic, arg(0), name, where, &info, operand, order);
  if (ret->isVoidType())  // __kverify_atomic_store
    return nullptr;
  return valueBinding(id ? Expr::opaque(typeOf(ret), *id, "result of " + name)
                         : opaque(ret, "result of " + name));
}

// Integer builtins kverify computes (min, max, abs, __mul24, __brev, bit counts); none
// (the call stays opaque) for their floating-point overloads.
std::optional<BindingPtr> KernelExtractor::integerBuiltin(const clang::CallExpr *c, const std::string &name,
                                                          clang::QualType ret, BuiltinKind kind,
                                                          clang::SourceRange where) {
  auto arg = [&](unsigned i) { return c->getArg(i); };
  Type t = typeOf(ret);
  auto twoInts = [&](ExprPtr &a, ExprPtr &b) {
    a = snapshot(Expr::cast(t, rvalue(arg(0))), name + ".a", where);
    b = snapshot(Expr::cast(t, rvalue(arg(1))), name + ".b", where);
  };
  switch (kind) {
    case BuiltinKind::Min:
    case BuiltinKind::Max: {
      if (t.kind != Type::Kind::Int) return std::nullopt;
      ExprPtr a, b;
      twoInts(a, b);
      auto lt = Expr::binary(Type::boolean(), model::BinaryOp::Lt, a, b);
      return valueBinding(kind == BuiltinKind::Min ? Expr::select(lt, a, b) : Expr::select(lt, b, a));
    }
    case BuiltinKind::Abs: {
      if (t.kind != Type::Kind::Int) return std::nullopt;
      ExprPtr x = snapshot(Expr::cast(t, rvalue(arg(0))), name + ".x", where);
      auto neg = Expr::binary(Type::boolean(), model::BinaryOp::Lt, x, Expr::intConst(t, 0));
      return valueBinding(Expr::select(neg, Expr::unary(t, model::UnaryOp::Neg, x), x));
    }
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
      return valueBinding(Expr::binary(Type::u32(), model::BinaryOp::Mul,
                                       Expr::binary(Type::u32(), model::BinaryOp::BitAnd, a, low),
                                       Expr::binary(Type::u32(), model::BinaryOp::BitAnd, b, low)));
    }
    case BuiltinKind::BitReverse:
      return valueBinding(Expr::unary(t, model::UnaryOp::BitReverse, Expr::cast(t, rvalue(arg(0)))));
    default:  // PopCount, LeadingZeros, FirstSet
      return valueBinding(bitCount(kind, rvalue(arg(0)), t));
  }
}

// A call kverify does not compute (math, conversions, shuffles, votes, printf): an opaque
// result; pointer arguments (other than string literals) are out-parameters or reads.
BindingPtr KernelExtractor::opaqueCall(const clang::CallExpr *c, const std::string &name, clang::QualType ret,
                                       clang::SourceRange where) {
  for (unsigned i = 0; i < c->getNumArgs(); ++i) {
    const clang::Expr *a = c->getArg(i);
    if (llvm::isa<clang::StringLiteral>(a->IgnoreParenImpCasts())) continue;
    if (a->getType()->isPointerType()) {
      bool read_only = a->getType()->getPointeeType().isConstQualified();
      builtinAccess(read_only ? model::AccessKind::Read : model::AccessKind::Write, a, name, where);
    } else {
      discard(a);
    }
  }
  if (ret->isVoidType()) return nullptr;
  return valueBinding(opaque(ret, "call of " + name));
}

// A barrier: the block's (__syncthreads, and the counting forms, whose result is one value
// per block), a warp's (__syncwarp(mask)) or the grid's (a cooperative group's sync).
BindingPtr KernelExtractor::barrierBuiltin(const clang::CallExpr *c, const std::string &name,
                                           BuiltinKind kind, clang::QualType ret, clang::SourceRange where) {
  model::stmt::Barrier barrier{model::BarrierKind::Block, name, nullptr, nullptr};
  if (kind == BuiltinKind::PredicateBarrier) {
    barrier.predicate = condition(c->getArg(0));
  } else if (kind == BuiltinKind::WarpBarrier) {
    barrier.kind = model::BarrierKind::Warp;
    barrier.mask = Expr::cast(Type::u32(), rvalue(c->getArg(0)));
  } else if (kind == BuiltinKind::GridBarrier) {
    barrier.kind = model::BarrierKind::Grid;
    barrier.what = "grid_group::sync";  // reports name the barrier as users write it
  }
  emit(Stmt{rangeOf(where), std::move(barrier)});
  if (kind != BuiltinKind::PredicateBarrier) return nullptr;
  return valueBinding(Expr::opaque(typeOf(ret), newId(), "result of " + name, /*per_block=*/true));
}

// Annotations: assumptions (__kverify_assume, KV_ASSUME_FORALL, a kernel's own __requires)
// and what kverify does not check or model (a called function's __requires, the prelude's
// __kverify_unchecked and __kverify_unsupported).
void KernelExtractor::annotationBuiltin(const clang::CallExpr *c, const std::string &name, BuiltinKind kind,
                                        clang::SourceRange where) {
  switch (kind) {
    case BuiltinKind::Assume:
      emit(Stmt{rangeOf(where), model::stmt::Assume{condition(c->getArg(0))}});
      return;
    case BuiltinKind::AssumeForall: assumeForall(c, where); return;
    case BuiltinKind::Requires:
      if (frames_.size() == 1) {  // the kernel's own precondition: an assumption at entry
        emit(Stmt{rangeOf(where), model::stmt::Assume{condition(c->getArg(0))}});
      } else {
        k_.unchecked.push_back({"__requires",
                                "a precondition of a called function, not assumed: " + textOf(where),
                                rangeOf(where)});
      }
      return;
    default: {  // Unchecked, Unsupported: what the string argument names
      const auto *lit = llvm::dyn_cast<clang::StringLiteral>(c->getArg(0)->IgnoreParenImpCasts());
      std::string what = lit ? lit->getString().str() : name;
      if (kind == BuiltinKind::Unsupported)
        unsupported(what, textOf(where), where);
      else
        k_.unchecked.push_back({what, textOf(where), rangeOf(where)});
      return;
    }
  }
}

// Memory a builtin reads or writes through its arguments other than an atomic's: __ldg's
// read, a texture fetch (read-only memory, an unknown value), memcpy and memset (with a
// length known at compile time); surface writes and the rest of the device heap are not
// modelled.
BindingPtr KernelExtractor::memoryBuiltin(const clang::CallExpr *c, const std::string &name, BuiltinKind kind,
                                          clang::QualType ret, clang::SourceRange where) {
  switch (kind) {
    case BuiltinKind::Ldg: {
      std::optional<unsigned> id = builtinAccess(model::AccessKind::Read, c->getArg(0), name, where);
      return valueBinding(id ? Expr::opaque(typeOf(ret), *id, "load via __ldg")
                             : opaque(ret, "load via __ldg"));
    }
    case BuiltinKind::SurfaceWrite: unsupported("surface write", textOf(where), where); return nullptr;
    case BuiltinKind::TextureRead:
      for (unsigned i = 1; i < c->getNumArgs(); ++i)  // the coordinates
        discard(c->getArg(i));
      return valueBinding(opaque(ret, "texture fetch " + name));
    default:  // DeviceHeap
      if (name == "memcpy" || name == "memset") return copyOrFill(c, name == "memset");
      unsupported("device memory function", name + ": " + textOf(where), where);
      return nullptr;
  }
}

// A builtin or intrinsic (builtins.cpp classifies it by name): barriers, fences,
// assumptions, atomics, loads, integer arithmetic kverify computes, or an opaque call.
BindingPtr KernelExtractor::builtin(const clang::CallExpr *c, const clang::FunctionDecl *fn) {
  std::string name = fn->getNameAsString();
  clang::SourceRange where = c->getSourceRange();
  if (!frames_.empty() && frames_.back().site.isValid())
    where = frames_.back().site;  // a builtin called by prelude code: report the user's call
  BuiltinInfo info = classifyBuiltin(name);
  clang::QualType ret = fn->getReturnType();
  switch (info.kind) {
    case BuiltinKind::BlockBarrier:
    case BuiltinKind::PredicateBarrier:
    case BuiltinKind::WarpBarrier:
    case BuiltinKind::GridBarrier: return barrierBuiltin(c, name, info.kind, ret, where);
    case BuiltinKind::Fence: emit(Stmt{rangeOf(where), model::stmt::Fence{info.scope, name}}); return nullptr;
    case BuiltinKind::Assume:
    case BuiltinKind::AssumeForall:
    case BuiltinKind::Requires:
    case BuiltinKind::Unchecked:
    case BuiltinKind::Unsupported: annotationBuiltin(c, name, info.kind, where); return nullptr;
    case BuiltinKind::Atomic: return atomicBuiltin(c, name, ret, info, where);
    case BuiltinKind::Ldg:
    case BuiltinKind::SurfaceWrite:
    case BuiltinKind::TextureRead:
    case BuiltinKind::DeviceHeap: return memoryBuiltin(c, name, info.kind, ret, where);
    case BuiltinKind::Min:
    case BuiltinKind::Max:
    case BuiltinKind::Abs:
    case BuiltinKind::Mul24:
    case BuiltinKind::UMul24:
    case BuiltinKind::BitReverse:
    case BuiltinKind::PopCount:
    case BuiltinKind::LeadingZeros:
    case BuiltinKind::FirstSet:
      if (std::optional<BindingPtr> v = integerBuiltin(c, name, ret, info.kind, where)) return *v;
      break;
    case BuiltinKind::MakeVector: {
      BindingPtr b = freshStruct(ret, name);
      assignStruct(b, c);
      return b;
    }
    case BuiltinKind::NoEffect: return nullptr;
    case BuiltinKind::Opaque: break;
  }
  return opaqueCall(c, name, ret, where);
}

}  // namespace kverify::frontend::detail
