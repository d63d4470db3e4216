#pragma once
// Internal to the front end: how host code uses its local variables, read for a whole
// function in one walk (a function with thousands of launches asks about each of them).

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace kverify::frontend {

// `e` without parentheses, implicit casts, temporaries and functional casts.
const clang::Expr *skipWrappers(const clang::Expr *e);

// `v.x`, `v.y`, `v.z` of a variable v: 0, 1, 2, and the reference to v in `ref`; else -1.
int dim3Field(const clang::Expr *e, const clang::DeclRefExpr *&ref);
// The same, of the variable w only.
int dim3Field(const clang::Expr *e, const clang::VarDecl *w);

// The uses of a dim3 variable other than a launch's grid or block. Reading a field
// (`block.x * sizeof(int)`) is not one; assigning one (`grid.x = n / 64;`) is not one
// either, but that field is then unknown.
struct DimUses {
  std::array<std::vector<const clang::BinaryOperator *>, 3> assignments;  // per field
  // per field: every value assigned to it is this constant (`threads.y = 1;`), or nothing
  std::array<std::optional<uint64_t>, 3> only_value{};
  std::array<bool, 3> other_value{};
  bool found = false;  // a use other than these
};

// DimUses of every variable used in `body` (variables absent from the map: no use).
std::map<const clang::VarDecl *, DimUses> dim3Uses(clang::Stmt *body, const clang::ASTContext &ctx);

// The variables of `body` that some use writes, takes the address of or binds a reference
// to (any use but reading the value).
std::set<const clang::VarDecl *> variablesNotOnlyRead(clang::Stmt *body);

}  // namespace kverify::frontend
