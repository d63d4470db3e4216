// Function pointers. A function pointer's value is an integer tag (u64): 0 is null, and
// 1, 2, ... number the functions whose address the translation unit takes, in the order
// first met. So assignment, `?:`, returns, struct fields and casts through `void *` move
// tags, `==`/`!=` compare them exactly, and an ordered comparison is an unknown bool.
//
// A call through a pointer inlines each candidate (a __device__ function of the callee's
// type whose address is taken) under `tag == candidate`, as an if/else-if chain. The last
// case, a pointer holding none of them (null, or a function kverify does not see), is
// undefined behaviour at run time; the model has no statement for "this must not be
// reached", so that case reads element 0 of an empty shared pseudo-array (origin
// "function_pointer", named `<pointer>.null_or_unknown_function`): reaching it is an
// out-of-bounds finding, with a witness, and never verified.
//
// A kernel parameter of function-pointer type is a plain u64 parameter, not limited to
// the file's tags: with -rdc the host may pass a function of another file, and such a
// value, like null, takes the last case. `__requires(f == a | f == b)` narrows it.
#include "frontend/extractor.hpp"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <algorithm>
#include <cctype>

namespace kverify::frontend::detail {

using model::Expr;
using model::ExprPtr;
using model::Stmt;
using model::Type;

static Type tagType() { return Type::integer(64, false); }

static ExprPtr tagConst(uint64_t tag) { return Expr::intConst(tagType(), static_cast<int64_t>(tag)); }

namespace {
// The functions whose address the translation unit takes: every reference to a function
// (not a non-static member) other than the callee of a direct call.
struct AddressTaken : clang::RecursiveASTVisitor<AddressTaken> {
  std::vector<const clang::FunctionDecl *> functions;
  std::set<const clang::Expr *> callees;  // a CallExpr is visited before its callee

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCallExpr(clang::CallExpr *c) {
    if (const clang::Expr *callee = c->getCallee()) callees.insert(callee->IgnoreParenImpCasts());
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *e) {
    const auto *fn = llvm::dyn_cast<clang::FunctionDecl>(e->getDecl());
    if (!fn || callees.count(e)) return true;
    if (const auto *m = llvm::dyn_cast<clang::CXXMethodDecl>(fn); m && !m->isStatic()) return true;
    fn = fn->getCanonicalDecl();
    if (std::find(functions.begin(), functions.end(), fn) == functions.end()) functions.push_back(fn);
    return true;
  }
};
}  // namespace

// Tag i + 1 is function i: found by one walk of the translation unit, when first needed.
std::vector<const clang::FunctionDecl *> &KernelExtractor::functionTags() {
  if (!function_tags_) {
    AddressTaken taken;
    taken.TraverseAST(ctx_);
    function_tags_ = std::move(taken.functions);
  }
  return *function_tags_;
}

uint64_t KernelExtractor::tagOf(const clang::FunctionDecl *fn) {
  std::vector<const clang::FunctionDecl *> &tags = functionTags();
  fn = fn->getCanonicalDecl();
  auto it = std::find(tags.begin(), tags.end(), fn);
  if (it != tags.end()) return static_cast<uint64_t>(it - tags.begin()) + 1;
  tags.push_back(fn);  // not met by the walk: a new tag (calls met before it miss it: reported)
  return tags.size();
}

// The functions a pointer to `type` may call: __device__ functions of that type (noexcept
// aside) whose address is taken.
std::vector<const clang::FunctionDecl *> KernelExtractor::candidatesOf(clang::QualType type) {
  std::vector<const clang::FunctionDecl *> out;
  for (const clang::FunctionDecl *fn : functionTags())
    if (fn->hasAttr<clang::CUDADeviceAttr>() && !fn->hasAttr<clang::CUDAGlobalAttr>() &&
        ctx_.hasSameFunctionTypeIgnoringExceptionSpec(fn->getType(), type))
      out.push_back(fn);
  return out;
}

bool KernelExtractor::isFunctionValue(const clang::Expr *e) {
  e = strip(e);
  clang::QualType t = e->getType();
  if (t->isFunctionPointerType() || t->isFunctionType()) return true;
  if (!t->isPointerType()) return false;
  if (const auto *c = llvm::dyn_cast<clang::CastExpr>(e))
    return (c->getCastKind() == clang::CK_BitCast || c->getCastKind() == clang::CK_NoOp ||
            c->getCastKind() == clang::CK_LValueToRValue) &&
           isFunctionValue(c->getSubExpr());
  // a `void *` (or other pointer) variable that holds a function pointer: a tag Local
  if (const auto *d = llvm::dyn_cast<clang::DeclRefExpr>(e))
    if (BindingPtr b = frames_.empty() ? nullptr : lookup(d->getDecl()))
      if (const auto *l = b->as<bind::Local>()) return l->local.type == tagType();
  return false;
}

ExprPtr KernelExtractor::functionTag(const clang::Expr *e) {
  e = strip(e);
  clang::SourceRange where = e->getSourceRange();
  if (const auto *d = llvm::dyn_cast<clang::DeclRefExpr>(e))
    if (const auto *fn = llvm::dyn_cast<clang::FunctionDecl>(d->getDecl())) return tagConst(tagOf(fn));
  if (const auto *c = llvm::dyn_cast<clang::CastExpr>(e)) return functionCast(c);
  if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
    // `*f` designates the function f points to; `&fn` points to fn
    bool deref = u->getOpcode() == clang::UO_Deref && e->getType()->isFunctionType();
    bool addr = u->getOpcode() == clang::UO_AddrOf && u->getSubExpr()->getType()->isFunctionType();
    if (deref || addr) return functionTag(u->getSubExpr());
  }
  if (const auto *c = llvm::dyn_cast<clang::ConditionalOperator>(e)) {
    ExprPtr cond = condition(c->getCond()), a, b;
    std::vector<Stmt> then_effects = nested([&] { a = functionTag(c->getTrueExpr()); });
    std::vector<Stmt> else_effects = nested([&] { b = functionTag(c->getFalseExpr()); });
    cond = armEffects(c, cond, std::move(then_effects), std::move(else_effects));
    return Expr::select(cond, a, b);
  }
  if (const auto *b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
    if (b->getOpcode() == clang::BO_Comma) {
      discard(b->getLHS());
      return functionTag(b->getRHS());
    }
    if (b->isAssignmentOp()) return assignFunction(b);
  }
  if (const auto *c = llvm::dyn_cast<clang::CallExpr>(e))  // a function returning one
    return Expr::cast(tagType(), bindingValue(call(c), e));
  if (e->isGLValue()) return storedFunction(e);
  return unsupportedValue(e->getType(), "function pointer expression",
                          std::string(e->getStmtClassName()) + " " + textOf(where), where);
}

ExprPtr KernelExtractor::functionCast(const clang::CastExpr *c) {
  const clang::Expr *sub = c->getSubExpr();
  switch (c->getCastKind()) {
    case clang::CK_FunctionToPointerDecay:
    case clang::CK_BitCast:  // between function pointer types, to and from `void *`
    case clang::CK_NoOp:
    case clang::CK_LValueToRValue: return functionTag(sub);
    case clang::CK_NullToPointer: return tagConst(0);
    case clang::CK_IntegralToPointer:
      // an address no function of this file is known to have: calling it is reported
      rvalue(sub);
      return Expr::opaque(tagType(), newId(),
                          "integer converted to a function pointer " + textOf(c->getSourceRange()));
    default:
      return unsupportedValue(c->getType(), "function pointer conversion",
                              std::string(c->getCastKindName()) + " " + textOf(c->getSourceRange()),
                              c->getSourceRange());
  }
}

// The value of a function pointer variable, parameter or field.
ExprPtr KernelExtractor::storedFunction(const clang::Expr *e) {
  clang::SourceRange where = e->getSourceRange();
  LValue lv = lvalue(e);
  if (lv.is<lval::Memory>()) {  // element values are not tracked
    load(lv, e);
    return unsupportedValue(e->getType(), "function pointer loaded from memory", textOf(where), where);
  }
  if (lv.is<lval::Local>() || lv.is<lval::Value>()) return Expr::cast(tagType(), load(lv, e));
  if (!lv.valid()) return Expr::opaque(tagType(), newId(), "unsupported");
  return unsupportedValue(e->getType(), "function pointer value", textOf(where), where);
}

ExprPtr KernelExtractor::assignFunction(const clang::BinaryOperator *b) {
  if (b->getOpcode() != clang::BO_Assign)
    return unsupportedValue(b->getType(), "arithmetic on a function pointer", textOf(b->getSourceRange()),
                            b->getSourceRange());
  ExprPtr value = functionTag(b->getRHS());  // C++17: the right operand first
  LValue lv = lvalue(b->getLHS());
  store(lv, value, b->getLHS());
  const auto *l = lv.as<lval::Local>();
  return l ? Expr::local(l->local) : value;
}

// `==` and `!=` compare tags; where functions lie in memory is not known, so an ordered
// comparison is an unknown bool.
ExprPtr KernelExtractor::compareFunctions(const clang::BinaryOperator *b) {
  ExprPtr l = functionTag(b->getLHS()), r = functionTag(b->getRHS());
  if (b->getOpcode() == clang::BO_EQ) return Expr::binary(Type::boolean(), model::BinaryOp::Eq, l, r);
  if (b->getOpcode() == clang::BO_NE) return Expr::binary(Type::boolean(), model::BinaryOp::Ne, l, r);
  return opaque(b->getType(), "order of function pointers " + textOf(b->getSourceRange()));
}

ExprPtr KernelExtractor::functionNotNull(const clang::Expr *e) {
  return Expr::binary(Type::boolean(), model::BinaryOp::Ne, functionTag(e), tagConst(0));
}

// --- calls -------------------------------------------------------------------------

// The called pointer as a name for people ("f", "box.op"), or "function_pointer".
static std::string pointerName(const KernelExtractor &x, const clang::CallExpr *c) {
  const clang::Expr *p = c->getCallee()->IgnoreParenImpCasts();
  if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(p); u && u->getOpcode() == clang::UO_Deref)
    p = u->getSubExpr()->IgnoreParenImpCasts();
  std::string name = x.textOf(p->getSourceRange());
  bool path = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
              std::all_of(name.begin(), name.end(), [](char ch) {
                return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.';
              });
  return path ? name : "function_pointer";
}

BindingPtr KernelExtractor::callThroughPointer(const clang::CallExpr *c) {
  clang::SourceRange where = c->getSourceRange();
  const clang::Expr *callee = c->getCallee();
  if (!callee->getType()->isFunctionPointerType()) {
    unsupported("call through a pointer to member function", textOf(where), where);
    return nullptr;
  }
  // the callee is evaluated before the arguments (C++17), once: the tests of the chain
  // all come before any argument, so a Local needs no copy
  ExprPtr tag = functionTag(callee);
  if (!tag->is<model::expr::Local>()) tag = snapshot(tag, "callee", callee->getSourceRange());
  BindingPtr result = callResult(c);
  dispatch(c, tag, candidatesOf(callee->getType()->getPointeeType()), 0, result);
  return result;
}

// Where the value of a call through a pointer goes: a struct, a Local, or null (void).
BindingPtr KernelExtractor::callResult(const clang::CallExpr *c) {
  clang::QualType ret = c->getCallReturnType(ctx_);
  std::string name = frames_.back().prefix + pointerName(*this, c) + ".call.result";
  if (ret->isVoidType()) return nullptr;
  if (ret->isRecordType()) return freshStruct(ret, name);
  if (ret->isReferenceType() || (ret->isPointerType() && !ret->isFunctionPointerType())) {
    unsupported("call through a function pointer returning a pointer or reference",
                textOf(c->getSourceRange()), c->getSourceRange());
    return nullptr;
  }
  return std::make_shared<Binding>(bind::Local{newLocal(name, typeOf(ret))});
}

// `if (tag == candidates[i]) call it; else dispatch(i + 1)`; after the last, no function.
void KernelExtractor::dispatch(const clang::CallExpr *c, const ExprPtr &tag,
                               const std::vector<const clang::FunctionDecl *> &candidates, size_t i,
                               const BindingPtr &result) {
  if (i == candidates.size()) return callNoFunction(c, result);
  model::stmt::If s;
  s.cond = Expr::binary(Type::boolean(), model::BinaryOp::Eq, tag, tagConst(tagOf(candidates[i])));
  s.then_body = nested([&] { takeResult(result, callCandidate(c, candidates[i]), c); });
  s.else_body = nested([&] { dispatch(c, tag, candidates, i + 1, result); });
  emit(Stmt{rangeOf(c->getSourceRange()), std::move(s)});
}

BindingPtr KernelExtractor::callCandidate(const clang::CallExpr *c, const clang::FunctionDecl *fn) {
  const clang::FunctionDecl *def = nullptr;
  if (fn->hasBody(def)) return inlineCall(c, def);
  if (inPrelude(fn))  // a math function, say: what a direct call of it gives
    return builtin(c, fn);
  unsupported("call through a function pointer",
              "'" + fn->getQualifiedNameAsString() + "' may be called and has no body kverify can see",
              c->getSourceRange());
  return nullptr;
}

void KernelExtractor::takeResult(const BindingPtr &result, const BindingPtr &value,
                                 const clang::CallExpr *c) {
  clang::SourceRange where = c->getSourceRange();
  if (!result) return;
  if (result->is<bind::Struct>()) {
    if (value && value->is<bind::Struct>())
      copyStruct(result, value, where);
    else
      havocStruct(result, "result of " + textOf(where), where);
    return;
  }
  const model::Local &l = std::get<bind::Local>(result->node).local;  // callResult's kinds
  emitAssign(l, Expr::cast(l.type, bindingValue(value, c)), where);
}

// The pointer holds no candidate: null, or a function kverify does not see. The arguments
// are evaluated, then the read of the empty pseudo-array marks the undefined call.
void KernelExtractor::callNoFunction(const clang::CallExpr *c, const BindingPtr &result) {
  clang::SourceRange where = c->getSourceRange();
  for (const clang::Expr *a : c->arguments()) discard(a);
  model::stmt::Access a;
  a.id = newId();
  a.kind = model::AccessKind::Read;
  a.array = noFunctionArray(c);
  a.index = Expr::intConst(Type::i64(), 0);
  a.text = textOf(where) + " through a null or unknown function pointer";
  emit(Stmt{rangeOf(where), std::move(a)});
  if (result && result->is<bind::Struct>()) {
    havocStruct(result, "result of a null or unknown function", where);
  } else if (result) {
    const model::Local &l = std::get<bind::Local>(result->node).local;  // callResult's kinds
    emitAssign(l, Expr::opaque(l.type, newId(), "result of a null or unknown function"), where);
  }
}

// The empty shared array whose read stands for calling no function at call `c`.
unsigned KernelExtractor::noFunctionArray(const clang::CallExpr *c) {
  model::Array a;
  a.id = static_cast<unsigned>(k_.arrays.size());
  a.name = pointerName(*this, c) + ".null_or_unknown_function";
  a.space = model::AddressSpace::Shared;
  a.origin = model::ArrayOrigin::FunctionPointer;
  a.elem_c_type = c->getCallee()->getType()->getPointeeType().getAsString(ctx_.getPrintingPolicy());
  a.elem = Type::other();
  a.elem_size = 1;
  a.dims = {0};
  a.size = 0;
  a.is_const = true;
  a.range = rangeOf(c->getSourceRange());
  k_.arrays.push_back(a);
  return a.id;
}

}  // namespace kverify::frontend::detail
