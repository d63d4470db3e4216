#include "frontend/host_variable_uses.hpp"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace kverify::frontend {

const clang::Expr *skipWrappers(const clang::Expr *e) {
  for (;;) {
    e = e->IgnoreParens();
    if (const auto *c = llvm::dyn_cast<clang::ImplicitCastExpr>(e))
      e = c->getSubExpr();
    else if (const auto *m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e))
      e = m->getSubExpr();
    else if (const auto *b = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e))
      e = b->getSubExpr();
    else if (const auto *w = llvm::dyn_cast<clang::ExprWithCleanups>(e))
      e = w->getSubExpr();
    else if (const auto *f = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(e))
      e = f->getSubExpr();
    else
      return e;
  }
}

int dim3Field(const clang::Expr *e, const clang::DeclRefExpr *&ref) {
  const auto *m = llvm::dyn_cast<clang::MemberExpr>(e->IgnoreParenImpCasts());
  ref = m ? llvm::dyn_cast<clang::DeclRefExpr>(m->getBase()->IgnoreParenImpCasts()) : nullptr;
  if (!ref || !llvm::isa<clang::VarDecl>(ref->getDecl())) return -1;
  llvm::StringRef name = m->getMemberDecl()->getName();
  return name == "x" ? 0 : name == "y" ? 1 : name == "z" ? 2 : -1;
}

int dim3Field(const clang::Expr *e, const clang::VarDecl *w) {
  const clang::DeclRefExpr *ref;
  int i = dim3Field(e, ref);
  return ref && ref->getDecl() == w ? i : -1;
}

namespace {

// DimUses of every variable of one function, in one walk of its body (a function with
// thousands of launches reads each variable's uses from here). The visitor sees a parent
// before its children.
struct OtherUses : clang::RecursiveASTVisitor<OtherUses> {
  const clang::ASTContext *ctx = nullptr;
  std::set<const clang::Expr *> config_reads;  // launches' grid and block arguments (ConfigReads)
  std::set<const clang::Expr *> harmless;      // field reads and field assignments
  std::map<const clang::VarDecl *, DimUses> of;
  bool VisitBinaryOperator(clang::BinaryOperator *op) {
    const clang::DeclRefExpr *ref;
    int i = op->isAssignmentOp() ? dim3Field(op->getLHS(), ref) : -1;
    if (i < 0) return true;
    DimUses &u = of[llvm::cast<clang::VarDecl>(ref->getDecl())];
    u.assignments[i].push_back(op);
    harmless.insert(ref);
    clang::Expr::EvalResult r;
    const clang::Expr *rhs = op->getRHS();
    if (op->getOpcode() == clang::BO_Assign && !rhs->isValueDependent() && rhs->EvaluateAsInt(r, *ctx) &&
        !r.Val.getInt().isNegative() &&
        (!u.only_value[i] || *u.only_value[i] == r.Val.getInt().getZExtValue()))
      u.only_value[i] = r.Val.getInt().getZExtValue();
    else
      u.other_value[i] = true;
    return true;
  }
  bool VisitImplicitCastExpr(clang::ImplicitCastExpr *c) {
    const clang::DeclRefExpr *ref;
    if (c->getCastKind() == clang::CK_LValueToRValue && dim3Field(c->getSubExpr(), ref) >= 0)
      harmless.insert(ref);
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *e) {
    if (const auto *v = llvm::dyn_cast<clang::VarDecl>(e->getDecl());
        v && !config_reads.count(e) && !harmless.count(e))
      of[v].found = true;
    return true;
  }
};

// The grid and block arguments of a function's launches.
struct ConfigReads : clang::RecursiveASTVisitor<ConfigReads> {
  std::set<const clang::Expr *> reads;
  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *e) {
    if (const clang::CallExpr *c = e->getConfig())
      for (unsigned i = 0; i < 2 && i < c->getNumArgs(); ++i) {
        const clang::Expr *a = skipWrappers(c->getArg(i));
        if (const auto *ce = llvm::dyn_cast<clang::CXXConstructExpr>(a); ce && ce->getNumArgs() == 1)
          a = skipWrappers(ce->getArg(0));
        reads.insert(a);
      }
    return true;
  }
};

// The variables of one function that some use writes, takes the address of or binds a
// reference to (any use but reading the value), in one walk of its body.
struct NotOnlyRead : clang::RecursiveASTVisitor<NotOnlyRead> {
  std::set<const clang::Expr *> reads;
  std::set<const clang::VarDecl *> vars;
  bool VisitImplicitCastExpr(clang::ImplicitCastExpr *c) {
    if (c->getCastKind() == clang::CK_LValueToRValue) reads.insert(c->getSubExpr()->IgnoreParens());
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *e) {
    if (const auto *v = llvm::dyn_cast<clang::VarDecl>(e->getDecl()); v && !reads.count(e)) vars.insert(v);
    return true;
  }
};

}  // namespace

std::map<const clang::VarDecl *, DimUses> dim3Uses(clang::Stmt *body, const clang::ASTContext &ctx) {
  ConfigReads configs;
  configs.TraverseStmt(body);
  OtherUses walk;
  walk.ctx = &ctx;
  walk.config_reads = std::move(configs.reads);
  walk.TraverseStmt(body);
  return std::move(walk.of);
}

std::set<const clang::VarDecl *> variablesNotOnlyRead(clang::Stmt *body) {
  NotOnlyRead walk;
  walk.TraverseStmt(body);
  return std::move(walk.vars);
}

}  // namespace kverify::frontend
