#pragma once
// One way to visit a kernel's statements and expressions, shared by every pass.
#include "model/model.hpp"

#include <functional>
#include <vector>

namespace kverify::model {

// The statement lists nested in `s`: an If's arms, a Loop's body and step, an Inlined
// call's body (none for the other kinds).
std::vector<const Body *> children(const Stmt &s);

// The expressions `s` holds itself (index, value, cond, mask, predicate: those set).
std::vector<const Expr *> expressions(const Stmt &s);

// Every statement of `body` (or `s` itself) and every statement nested in it, in program order.
void forEachStmt(const Body &body, const std::function<void(const Stmt &)> &f);
void forEachStmt(const Stmt &s, const std::function<void(const Stmt &)> &f);

// Every node of `e`, parents before children (an explicit stack: expressions built by
// unrolled loops nest deeper than the call stack allows).
void forEachNode(const Expr &e, const std::function<void(const Expr &)> &f);

// Every node of every expression in `body`, nested statements included.
void forEachExpr(const Body &body, const std::function<void(const Expr &)> &f);

}  // namespace kverify::model
