#pragma once
// Questions about a kernel body, answered by walking the model.
#include "analysis/trace.hpp"

#include <map>
#include <set>
#include <vector>

namespace kverify::analysis::detail {

bool isFullMask(const Stmt &s);  // a block barrier, or a warp barrier of all 32 lanes
void scanBarriers(const std::vector<Stmt> &body, BarrierInfo &bi);
// Whether `body` holds a statement of kind k (inside loops too, if `into_loops`).
bool hasKind(const std::vector<Stmt> &body, Stmt::Kind k, bool into_loops);
// Locals assigned anywhere in `body`: id -> number of assignments.
void assignedLocals(const std::vector<Stmt> &body, std::map<unsigned, int> &out);
// Whether `e` reads a local of `mods` (and sets `opaque` where it reads an opaque value).
bool mentions(const Expr &e, const std::map<unsigned, int> &mods, bool &opaque);
const Expr *stripSameWidthCasts(const Expr *e);
void comparedConstants(const Expr &e, std::map<unsigned, std::set<int64_t>> &out);
void comparedConstants(const std::vector<Stmt> &body, std::map<unsigned, std::set<int64_t>> &out);
void readLocals(const Expr &e, std::set<unsigned> &out);  // the locals an expression reads
}  // namespace kverify::analysis::detail
