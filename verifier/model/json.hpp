#pragma once
// The model as JSON (kverify --dump-model). The schema is documented in SCHEMA.md;
// change both together and bump kSchemaVersion on incompatible changes.

#include "model/model.hpp"

#include "llvm/Support/JSON.h"

namespace kverify::model {

inline constexpr const char *kSchemaVersion = "kverify-model/2";

llvm::json::Value toJSON(const SourceRange &r);
llvm::json::Value toJSON(const Expr &e);
llvm::json::Value toJSON(const Stmt &s);
llvm::json::Value toJSON(const Kernel &k);
llvm::json::Value toJSON(const TranslationUnitModel &tu);
// {"schema": ..., "files": [...]} for a whole run.
llvm::json::Value toJSON(const std::vector<TranslationUnitModel> &tus);

}  // namespace kverify::model
