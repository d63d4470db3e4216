// Launches read from host code: `kernel<<<grid, block, shared, stream>>>(args)` gives the
// kernel's launch shape. Real code mostly launches with integers (`<<<n_blocks, 256>>>`),
// which CUDA turns into dim3(n, 1, 1): even where the value is unknown, the block is 1-D.
#include "frontend/host_launches.hpp"
#include "frontend/compile_errors.hpp"
#include "frontend/host_variable_uses.hpp"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <set>

namespace kverify::frontend {
namespace {

using Dims = std::array<std::optional<uint64_t>, 3>;

class LaunchReader : public clang::RecursiveASTVisitor<LaunchReader> {
public:
  explicit LaunchReader(clang::ASTContext &ctx) : ctx_(ctx), sm_(ctx.getSourceManager()) {}
  std::map<const clang::FunctionDecl *, std::vector<model::HostLaunch>> launches;

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseFunctionDecl(clang::FunctionDecl *fd) {
    const clang::FunctionDecl *outer = function_;
    function_ = fd;
    bool ok = clang::RecursiveASTVisitor<LaunchReader>::TraverseFunctionDecl(fd);
    function_ = outer;
    return ok;
  }
  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *e) {
    const clang::FunctionDecl *kernel = e->getDirectCallee();
    const clang::CallExpr *config = e->getConfig();
    if (!kernel || !config || config->getNumArgs() < 2) return true;
    clang::SourceLocation at = sm_.getExpansionLoc(e->getBeginLoc());
    if (sm_.isInSystemHeader(at)) return true;
    if (const auto *callee = llvm::dyn_cast<clang::DeclRefExpr>(skipWrappers(e->getCallee())))
      seen_.insert(callee);
    model::HostLaunch l;
    launch_ = e;
    premises_.clear();
    Components grid = components(config->getArg(0)), block = components(config->getArg(1));
    l.grid = grid.values(*this);
    l.block = block.values(*this);
    // facts relate the configuration to the arguments: both must be the values the launch
    // reads, so none of them may have side effects
    bool pure = std::none_of(e->arg_begin(), e->arg_end(),
                             [&](const clang::Expr *a) { return a->HasSideEffects(ctx_, false); }) &&
                std::none_of(config->arg_begin(), config->arg_end(),
                             [&](const clang::Expr *a) { return a->HasSideEffects(ctx_, false); });
    if (pure) {
      componentFacts(e, kernel, grid, l.grid, "gridDim", l.grid_facts);
      componentFacts(e, kernel, block, l.block, "blockDim", l.block_facts);
    }
    // an integer argument of constant value (converted to its parameter's type, as the
    // argument expression does): `prescan<<<g, b>>>(out, in, 0, 0)`
    for (unsigned i = 0; i < e->getNumArgs() && i < kernel->getNumParams(); ++i) {
      const clang::ParmVarDecl *p = kernel->getParamDecl(i);
      if (!p->getIdentifier() || !p->getType()->isIntegerType()) continue;
      if (std::optional<uint64_t> v = value(e->getArg(i)); v && *v <= uint64_t(INT32_MAX))
        l.arg_facts.push_back(p->getName().str() + " == " + std::to_string(*v));
    }
    l.premises.assign(premises_.begin(), premises_.end());
    l.at = placeOf(sm_, at);
    launches[kernel->getCanonicalDecl()].push_back(std::move(l));
    return true;
  }
  // The runtime API calls that take a kernel without launching it.
  bool VisitCallExpr(clang::CallExpr *e) {
    static const std::set<std::string> inspect = {"cudaFuncSetAttribute",
                                                  "cudaFuncGetAttributes",
                                                  "cudaFuncSetCacheConfig",
                                                  "cudaFuncSetSharedMemConfig",
                                                  "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
                                                  "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
                                                  "cudaOccupancyMaxPotentialBlockSize",
                                                  "cudaOccupancyMaxPotentialBlockSizeVariableSMem",
                                                  "cudaOccupancyMaxPotentialBlockSizeWithFlags",
                                                  "cudaOccupancyAvailableDynamicSMemPerBlock"};
    const clang::FunctionDecl *fd = e->getDirectCallee();
    if (fd && fd->getIdentifier() && inspect.count(fd->getName().str()))
      for (const clang::Expr *a : e->arguments())
        if (const auto *ref =
                llvm::dyn_cast<clang::DeclRefExpr>(skipWrappers(a)->IgnoreCasts()->IgnoreParenImpCasts()))
          seen_.insert(ref);
    return true;
  }
  // Any other use of a kernel in host code (its address passed to cudaLaunchKernel, stored,
  // returned) may launch it in a way kverify cannot read: a launch of unknown shape.
  bool VisitDeclRefExpr(clang::DeclRefExpr *e) {
    const auto *fd = llvm::dyn_cast<clang::FunctionDecl>(e->getDecl());
    if (!fd || !fd->hasAttr<clang::CUDAGlobalAttr>() || seen_.count(e)) return true;
    if (function_ &&
        (function_->hasAttr<clang::CUDAGlobalAttr>() || function_->hasAttr<clang::CUDADeviceAttr>()) &&
        !function_->hasAttr<clang::CUDAHostAttr>())
      return true;  // device code: dynamic parallelism, reported by the extractor
    clang::SourceLocation at = sm_.getExpansionLoc(e->getBeginLoc());
    if (sm_.isInSystemHeader(at)) return true;
    model::HostLaunch unknown;
    unknown.at = placeOf(sm_, at);
    launches[fd->getCanonicalDecl()].push_back(std::move(unknown));
    return true;
  }

private:
  // A constant, or a local variable whose initializer is one (`int threads = 256;`).
  std::optional<uint64_t> value(const clang::Expr *e, int depth = 0) const {
    if (e->isValueDependent() || e->isTypeDependent()) return std::nullopt;
    clang::Expr::EvalResult r;
    if (e->EvaluateAsInt(r, ctx_) && r.Val.isInt() && !r.Val.getInt().isNegative())
      return r.Val.getInt().getZExtValue();
    if (const clang::Expr *init = depth < 8 ? initializerOf(e) : nullptr)
      return value(init, depth + 1);  // (the initializer converts to the variable's type)
    const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
    if (const auto *p = ref && depth < 8 ? llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl()) : nullptr)
      return parameterValue(p, depth + 1);
    return std::nullopt;
  }

  // A parameter of a host function that only reads it, where every call of the function in
  // this file passes the same value (evaluated at the call the same way, the caller's
  // parameters included): llm.c's `matmul_backward_bias9(..., OC, ...)` reached from main's
  // `int OC = 768 * 4;`. Premise: the file holds every call: the function's address is not
  // taken, and one with external linkage is not called from another file (said with the
  // launch's facts).
  std::optional<uint64_t> parameterValue(const clang::ParmVarDecl *p, int depth) const {
    const auto *f = llvm::dyn_cast<clang::FunctionDecl>(p->getDeclContext());
    if (!f || f->isMain() || f->hasAttr<clang::CUDAGlobalAttr>() || f->hasAttr<clang::CUDADeviceAttr>() ||
        !p->getType()->isIntegerType() || !onlyRead(p))
      return std::nullopt;
    const CallSites &sites = callSites();
    auto calls = sites.calls.find(f->getCanonicalDecl());
    if (calls == sites.calls.end() || sites.address_taken.count(f->getCanonicalDecl())) return std::nullopt;
    uint64_t bits = ctx_.getTypeSize(p->getType());
    if (bits == 0 || bits > 64) return std::nullopt;
    uint64_t max =
        p->getType()->isSignedIntegerType() ? (uint64_t(1) << (bits - 1)) - 1 : ~uint64_t(0) >> (64 - bits);
    unsigned i = p->getFunctionScopeIndex();
    std::optional<uint64_t> v;
    for (const clang::CallExpr *c : calls->second) {
      std::optional<uint64_t> a = i < c->getNumArgs() ? value(c->getArg(i), depth) : std::nullopt;
      if (!a || *a > max || (v && *v != *a)) return std::nullopt;  // (unchanged by the conversion)
      v = a;
    }
    if (f->isExternallyVisible())
      premises_.insert("'" + f->getNameAsString() + "' is called only from this file");
    return v;
  }
  // Every direct call of each function in the file, and the functions used otherwise (their
  // address taken: calls kverify cannot see).
  struct CallSites : clang::RecursiveASTVisitor<CallSites> {
    std::map<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>> calls;
    std::set<const clang::FunctionDecl *> address_taken;
    std::set<const clang::Expr *> callees;
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitCallExpr(clang::CallExpr *e) {
      if (const clang::FunctionDecl *f = e->getDirectCallee()) {
        calls[f->getCanonicalDecl()].push_back(e);
        callees.insert(e->getCallee()->IgnoreParenImpCasts());
      }
      return true;
    }
    bool VisitDeclRefExpr(clang::DeclRefExpr *e) {
      if (const auto *f = llvm::dyn_cast<clang::FunctionDecl>(e->getDecl()); f && !callees.count(e))
        address_taken.insert(f->getCanonicalDecl());
      return true;
    }
  };
  const CallSites &callSites() const {
    if (!call_sites_) {
      call_sites_ = std::make_unique<CallSites>();
      call_sites_->TraverseDecl(ctx_.getTranslationUnitDecl());
    }
    return *call_sites_;
  }

  // The initializer of a local variable that holds its value wherever it is read: every use
  // in the function reads it (no write, no address taken, no reference bound), so each read
  // sees what its declaration computed, from the values of that moment (a caller that
  // translates the initializer must treat it as `declared`).
  const clang::Expr *initializerOf(const clang::Expr *e) const {
    const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
    const auto *var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    if (!var || llvm::isa<clang::ParmVarDecl>(var) || !var->hasLocalStorage() || !var->getInit() ||
        var->getType()->isReferenceType() || !var->getType()->isIntegerType() || !onlyRead(var))
      return nullptr;
    return var->getInit();
  }

  // A grid or block argument's components: an integer n (y and z are 1), the arguments of
  // dim3(x, y, z), a constant dim3's values, or those of a dim3 variable's initializer
  // when the function uses it for nothing but launches, reads of its fields and
  // assignments to them (then `declared`: its expressions were evaluated before the
  // launch; a field assigned is unknown, unless every assignment gives it the value it
  // starts with: `threads.y = 1` on a default dim3).
  struct Components {
    std::array<const clang::Expr *, 3> of{};         // the component's expression
    std::array<std::optional<uint64_t>, 3> known{};  // or its value, without one
    bool declared = false;
    std::optional<uint64_t> value(int i, const LaunchReader &r) const {
      return known[i] ? known[i] : of[i] ? r.value(of[i]) : std::nullopt;
    }
    Dims values(const LaunchReader &r) const { return {value(0, r), value(1, r), value(2, r)}; }
  };
  Components components(const clang::Expr *arg, int depth = 0) const {
    Components c;
    if (!arg || arg->containsErrors()) return c;  // (host code clang could not make sense of)
    const clang::Expr *e = skipWrappers(arg);
    if (e->getType()->isIntegerType()) {
      c.of[0] = e;
      c.known[1] = c.known[2] = 1;
    } else if (clang::Expr::EvalResult r; !e->isValueDependent() && e->EvaluateAsRValue(r, ctx_) &&
                                          r.Val.isStruct() && r.Val.getStructNumFields() == 3) {
      for (unsigned i = 0; i < 3; ++i)
        if (r.Val.getStructField(i).isInt()) c.known[i] = r.Val.getStructField(i).getInt().getZExtValue();
    } else if (const auto *ce = llvm::dyn_cast<clang::CXXConstructExpr>(e)) {
      if (ce->getConstructor()->isCopyOrMoveConstructor() && ce->getNumArgs() == 1)
        return components(ce->getArg(0), depth);
      if (ce->getNumArgs() == 1 && !skipWrappers(ce->getArg(0))->getType()->isIntegerType())
        return c;  // dim3(uint3)
      for (unsigned i = 0; i < 3 && i < ce->getNumArgs(); ++i) {
        if (llvm::isa<clang::CXXDefaultArgExpr>(ce->getArg(i)))
          c.known[i] = value(ce->getArg(i));
        else
          c.of[i] = ce->getArg(i);  // with its conversion to unsigned
      }
    } else if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
      const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      if (!var || depth > 0 || !var->hasLocalStorage() || !var->getInit() || !function_) return c;
      const DimUses &uses = otherUses(var);
      if (uses.found) return c;
      c = components(var->getInit(), depth + 1);
      c.declared = true;
      for (int i = 0; i < 3; ++i)
        if (!uses.assignments[i].empty() &&
            (uses.other_value[i] || uses.only_value[i] != c.value(i, *this))) {
          std::optional<uint64_t> v = fieldAt(var, i, launch_, 0);
          if (!v) v = keptEverywhere(uses.assignments[i], c.value(i, *this));
          c.of[i] = nullptr, c.known[i] = v;
        }
    }
    return c;
  }
  // The facts of the components whose value is unknown.
  void componentFacts(const clang::CUDAKernelCallExpr *call, const clang::FunctionDecl *kernel,
                      const Components &c, const Dims &d, const std::string &base,
                      std::vector<std::string> &out) const {
    for (int i = 0; i < 3; ++i)
      if (!d[i] && c.of[i])
        facts(call, kernel, skipWrappers(c.of[i]), base + "." + "xyz"[i], c.declared, out);
  }

  // For a grid or block component whose value is unknown: its value as a C expression
  // over what the kernel sees (its parameters, blockDim.x), when the host expression can be
  // written so: `ceil_div(n, threads)` with n passed to the kernel and threads the block
  // size is `(n + blockDim.x - 1) / blockDim.x`.
  void facts(const clang::CUDAKernelCallExpr *call, const clang::FunctionDecl *kernel, const clang::Expr *e,
             const std::string &name_text, bool declared, std::vector<std::string> &out) const {
    const char *name = name_text.c_str();
    if (!e->getType()->isIntegerType()) return;
    if (const clang::Expr *init = initializerOf(e)) {  // `int blocks = ceil_div(n, 256);`
      e = init;
      declared = true;
    }
    Translation t{call, kernel, {}, declared};
    // X == E / B (CUDA's `ceil_div(n, threads)`) as B*X <= E < B*(X+1) in 64 bits: the
    // same for every launch that runs (X >= 1, so E >= B > 0, where C's division is the
    // floor) and far easier for the solver than a division by a symbolic B
    const clang::Expr *inner = e->IgnoreParenImpCasts();
    if (const auto *div = llvm::dyn_cast<clang::BinaryOperator>(inner);
        div && div->getOpcode() == clang::BO_Div) {
      std::optional<std::string> num = translate(div->getLHS(), t, 1);
      std::optional<std::string> den = num ? translate(div->getRHS(), t, 1) : std::nullopt;
      if (den) {
        std::string x = std::string("(0L + ") + name + ")", b = "(0L + " + *den + ")",
                    n = "(0L + " + *num + ")";
        out.push_back(b + " * " + x + " <= " + n + " && " + n + " < " + b + " * (" + x + " + 1)");
        return;
      }
    }
    if (std::optional<std::string> text = translate(e, t, 0); text && *text != name)
      out.push_back(std::string(name) + " == " + *text);
  }
  struct Translation {
    const clang::CUDAKernelCallExpr *call;
    const clang::FunctionDecl *kernel;
    std::map<const clang::ParmVarDecl *, const clang::Expr *> inlined;  // a callee's params
    // evaluated at a declaration before the launch: a variable stands for its value at the
    // launch only where the function never writes it
    bool declared = false;
  };
  std::optional<std::string> translate(const clang::Expr *e, const Translation &t, int depth) const {
    if (depth > 16) return std::nullopt;
    e = e->IgnoreParens();
    if (std::optional<uint64_t> v = value(e)) return std::to_string(*v);
    // `(int)(block_size * x128::size)`, an int argument of a long parameter: a cast that
    // keeps every value (same signedness, no narrower) is the value it casts; a narrowing
    // one is not translated (the fact would not hold for the values it changes)
    if (const auto *c = llvm::dyn_cast<clang::CastExpr>(e)) {
      clang::QualType to = c->getType(), from = c->getSubExpr()->getType();
      if (to->isIntegerType() && from->isIntegerType() &&
          to->isSignedIntegerType() == from->isSignedIntegerType() &&
          ctx_.getTypeSize(to) >= ctx_.getTypeSize(from))
        return translate(c->getSubExpr(), t, depth + 1);
      if (!llvm::isa<clang::ImplicitCastExpr>(c) || c->getCastKind() != clang::CK_LValueToRValue)
        return std::nullopt;
    }
    if (const auto *b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      static const std::set<clang::BinaryOperatorKind> ops = {clang::BO_Add, clang::BO_Sub, clang::BO_Mul,
                                                              clang::BO_Div, clang::BO_Rem, clang::BO_Shl,
                                                              clang::BO_Shr};
      if (!ops.count(b->getOpcode())) return std::nullopt;
      std::optional<std::string> l = translate(b->getLHS(), t, depth + 1);
      std::optional<std::string> r = l ? translate(b->getRHS(), t, depth + 1) : std::nullopt;
      if (!r) return std::nullopt;
      return "(" + *l + " " + b->getOpcodeStr().str() + " " + *r + ")";
    }
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
      const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      if (!var) return std::nullopt;
      if (const auto *p = llvm::dyn_cast<clang::ParmVarDecl>(var); p && t.inlined.count(p))
        return translate(t.inlined.at(p), Translation{t.call, t.kernel, {}, t.declared}, depth + 1);
      if (t.declared && !onlyRead(var)) return std::nullopt;
      // a variable the launch passes whole: that kernel parameter; the block size: blockDim.x
      for (unsigned i = 0; i < t.call->getNumArgs() && i < t.kernel->getNumParams(); ++i)
        if (refersTo(t.call->getArg(i), var) && t.kernel->getParamDecl(i)->getIdentifier() &&
            sameType(t.call->getArg(i), t.kernel->getParamDecl(i)))
          return t.kernel->getParamDecl(i)->getName().str();
      if (const clang::CallExpr *config = t.call->getConfig();
          config && config->getNumArgs() >= 2 && refersTo(scalarOf(config->getArg(1)), var))
        return std::string("blockDim.x");
      if (const clang::Expr *init = initializerOf(ref))
        return translate(init, Translation{t.call, t.kernel, {}, true}, depth + 1);
      return std::nullopt;
    }
    if (const auto *call = llvm::dyn_cast<clang::CallExpr>(e)) {  // return-one-expression helpers
      const clang::FunctionDecl *fd = call->getDirectCallee();
      const clang::FunctionDecl *def = fd ? fd->getDefinition() : nullptr;
      const auto *body = def ? llvm::dyn_cast_or_null<clang::CompoundStmt>(def->getBody()) : nullptr;
      const auto *ret =
          body && body->size() == 1 ? llvm::dyn_cast<clang::ReturnStmt>(body->body_front()) : nullptr;
      if (!ret || !ret->getRetValue() || call->getNumArgs() != def->getNumParams()) return std::nullopt;
      Translation inner{t.call, t.kernel, {}, t.declared};
      for (unsigned i = 0; i < call->getNumArgs(); ++i) inner.inlined[def->getParamDecl(i)] = call->getArg(i);
      return translate(ret->getRetValue(), inner, depth + 1);
    }
    return std::nullopt;
  }
  static const clang::Expr *scalarOf(const clang::Expr *dim3_arg) {
    const clang::Expr *a = skipWrappers(dim3_arg);
    if (const auto *ce = llvm::dyn_cast<clang::CXXConstructExpr>(a); ce && ce->getNumArgs() >= 1)
      a = skipWrappers(ce->getArg(0));
    return a;
  }
  static bool refersTo(const clang::Expr *e, const clang::VarDecl *var) {
    const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(skipWrappers(e));
    return ref && ref->getDecl() == var;
  }
  // The argument's own type is the parameter's (no conversion that changes the value).
  static bool sameType(const clang::Expr *arg, const clang::ParmVarDecl *p) {
    return skipWrappers(arg)->getType().getCanonicalType().getUnqualifiedType() ==
           p->getType().getCanonicalType().getUnqualifiedType();
  }

  // The value field `i` of the local dim3 `var` holds at statement `at`, read through
  // straight-line assignments (`dim3 threads(256); k1<<<g, threads>>>(); threads.x = 128;
  // grid.x = N / threads.x; k2<<<grid, threads>>>();`). Premise: `var` is used for nothing
  // but launches, field reads and field assignments; it is declared in a block whose
  // statements run in order (no label or case among them), and every assignment to the
  // field is a plain `=` that is itself one of that block's statements; `at` is inside
  // the block, after the declaration. Each run of the block declares `var` afresh, so at
  // `at` the field holds what the last of those assignments before `at`'s statement
  // stored, or, with none, the declaration's value. Anything else: unknown.
  std::optional<uint64_t> fieldAt(const clang::VarDecl *var, int i, const clang::Stmt *at, int depth) const {
    if (!at || depth > 8 || !var->hasLocalStorage() || !var->getInit()) return std::nullopt;
    const DimUses &uses = otherUses(var);
    if (uses.found) return std::nullopt;
    const std::vector<const clang::BinaryOperator *> &assignments = uses.assignments[i];
    const clang::Stmt *decl = parentOf(var);
    const auto *block = decl ? llvm::dyn_cast_or_null<clang::CompoundStmt>(parentOf(decl)) : nullptr;
    if (!block) return std::nullopt;
    const clang::Stmt *launch_stmt = at;  // the block's statement that holds `at`
    while (launch_stmt && parentOf(launch_stmt) != block) launch_stmt = parentOf(launch_stmt);
    if (!launch_stmt) return std::nullopt;
    const clang::Expr *last = nullptr;       // the value stored last before `at`'s statement
    const clang::Stmt *last_stmt = nullptr;  // (where it is evaluated)
    bool declared = false, before = true;
    size_t in_block = 0;  // the assignments that are statements of the block
    for (const clang::Stmt *child : block->body()) {
      if (llvm::isa<clang::LabelStmt>(child) || llvm::isa<clang::SwitchCase>(child)) return std::nullopt;
      if (child == launch_stmt) before = false;
      if (child == decl) declared = before;
      const auto *e = llvm::dyn_cast<clang::Expr>(child);
      const auto *op = e ? llvm::dyn_cast<clang::BinaryOperator>(skipWrappers(e)->IgnoreParens()) : nullptr;
      if (!op || std::find(assignments.begin(), assignments.end(), op) == assignments.end()) continue;
      ++in_block;
      if (!before) continue;
      if (op->getOpcode() != clang::BO_Assign || !declared) return std::nullopt;
      last = op->getRHS(), last_stmt = child;
    }
    if (!declared || in_block != assignments.size()) return std::nullopt;
    if (!last) return components(var->getInit(), 1).value(i, *this);
    return valueAt(last, last_stmt, depth + 1);  // the fields it reads as they were there
  }
  // The value a dim3 field declared as `initial` holds wherever it is read, when every
  // assignment to it is a plain `=` of that same value where it runs (`grid2.y = grid.y;`
  // in a loop, with grid.y = 1 there): then no write changes it, whatever the control flow.
  std::optional<uint64_t> keptEverywhere(const std::vector<const clang::BinaryOperator *> &assignments,
                                         std::optional<uint64_t> initial) const {
    if (!initial) return std::nullopt;
    for (const clang::BinaryOperator *op : assignments)
      if (op->getOpcode() != clang::BO_Assign || valueAt(op->getRHS(), op, 1) != initial) return std::nullopt;
    return initial;
  }
  // An integer expression's value at statement `at` (the fields it reads as they are
  // there, not at the launch): constants, read-only integer locals,
  // fields of local dim3s (fieldAt) and + - * / % of them, without wrap-around.
  std::optional<uint64_t> valueAt(const clang::Expr *e, const clang::Stmt *at, int depth) const {
    e = e->IgnoreParenImpCasts();
    if (std::optional<uint64_t> v = value(e)) return v;
    if (const auto *m = llvm::dyn_cast<clang::MemberExpr>(e)) {
      const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(m->getBase()->IgnoreParenImpCasts());
      const auto *w = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
      int f = w ? dim3Field(m, w) : -1;
      return f >= 0 ? fieldAt(w, f, at, depth + 1) : std::nullopt;
    }
    const auto *b = llvm::dyn_cast<clang::BinaryOperator>(e);
    if (!b || depth > 8) return std::nullopt;
    std::optional<uint64_t> l = valueAt(b->getLHS(), at, depth + 1), r = valueAt(b->getRHS(), at, depth + 1);
    if (!l || !r) return std::nullopt;
    const uint64_t limit = uint64_t(1) << 32;
    switch (b->getOpcode()) {
      case clang::BO_Add: return *l + *r < limit ? std::optional<uint64_t>(*l + *r) : std::nullopt;
      case clang::BO_Sub: return *l >= *r ? std::optional<uint64_t>(*l - *r) : std::nullopt;
      case clang::BO_Mul: return *r == 0 || *l < limit / *r ? std::optional<uint64_t>(*l * *r) : std::nullopt;
      case clang::BO_Div: return *r ? std::optional<uint64_t>(*l / *r) : std::nullopt;
      case clang::BO_Rem: return *r ? std::optional<uint64_t>(*l % *r) : std::nullopt;
      default: return std::nullopt;
    }
  }
  template <class Node>
  const clang::Stmt *parentOf(const Node *n) const {
    clang::DynTypedNodeList ps = ctx_.getParents(*n);
    return ps.empty() ? nullptr : ps[0].template get<clang::Stmt>();
  }

  // Every use of `var` in the function reads its value (none writes it, takes its address
  // or binds a reference to it).
  bool onlyRead(const clang::VarDecl *var) const {
    const auto *f = llvm::dyn_cast_or_null<clang::FunctionDecl>(var->getParentFunctionOrMethod());
    if (!f || !f->getBody()) return false;
    auto [at, fresh] = not_only_read_.try_emplace(f);
    if (fresh) at->second = variablesNotOnlyRead(f->getBody());
    return !at->second.count(var);
  }

  // How `var` is used other than as a launch's grid or block (then its value at the launch
  // may differ from its initializer's): field assignments, and whether anything else.
  const DimUses &otherUses(const clang::VarDecl *var) const {
    auto [at, fresh] = other_uses_.try_emplace(function_);
    if (fresh) at->second = dim3Uses(function_->getBody(), ctx_);
    static const DimUses none;
    auto it = at->second.find(var);
    return it == at->second.end() ? none : it->second;
  }

  clang::ASTContext &ctx_;
  clang::SourceManager &sm_;
  const clang::FunctionDecl *function_ = nullptr;
  const clang::CUDAKernelCallExpr *launch_ = nullptr;  // the launch being read
  std::set<const clang::DeclRefExpr *> seen_;          // kernel references that launch or inspect
  mutable std::set<std::string> premises_;             // of the launch being read (parameterValue)
  mutable std::unique_ptr<CallSites> call_sites_;
  // per function, walked once: the variables not only read, the dim3 variables' uses
  mutable std::map<const clang::FunctionDecl *, std::set<const clang::VarDecl *>> not_only_read_;
  mutable std::map<const clang::FunctionDecl *, std::map<const clang::VarDecl *, DimUses>> other_uses_;
};

bool sameLaunch(const model::HostLaunch &a, const model::HostLaunch &b) {
  return a.block == b.block && a.grid == b.grid && a.block_facts == b.block_facts &&
         a.grid_facts == b.grid_facts && a.arg_facts == b.arg_facts && a.premises == b.premises;
}

}  // namespace

std::map<const clang::FunctionDecl *, std::vector<model::HostLaunch>> readHostLaunches(
    clang::ASTContext &ctx) {
  LaunchReader reader(ctx);
  reader.TraverseAST(ctx);
  for (auto &[kernel, list] : reader.launches) {  // distinct shapes, each at its first launch
    std::vector<model::HostLaunch> distinct;
    for (model::HostLaunch &l : list)
      if (std::none_of(distinct.begin(), distinct.end(),
                       [&](const model::HostLaunch &d) { return sameLaunch(d, l); }))
        distinct.push_back(std::move(l));
    list = std::move(distinct);
  }
  return std::move(reader.launches);
}

}  // namespace kverify::frontend
