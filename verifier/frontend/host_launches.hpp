#pragma once
// Internal to the front end: the launches of each kernel in the file's host code.

#include "model/model.hpp"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <map>
#include <vector>

namespace kverify::frontend {

// Each launched kernel (by canonical declaration) and its distinct launch shapes, each at
// the first launch of that shape.
std::map<const clang::FunctionDecl *, std::vector<model::HostLaunch>> readHostLaunches(
    clang::ASTContext &ctx);

}  // namespace kverify::frontend
