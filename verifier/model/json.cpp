#include "model/json.hpp"

namespace kverify::model {

using JArray = llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

Value toJSON(const SourceRange &r) {
  return Object{{"file", r.file},         {"line", r.line},       {"col", r.col},
                {"end_line", r.end_line}, {"end_col", r.end_col}};
}

static Value exprOrNull(const ExprPtr &e) { return e ? toJSON(*e) : Value(nullptr); }

static const char *exprKindName(Expr::Kind k) {
  static const char *const names[] = {"const",  "param",  "builtin", "local", "opaque",
                                      "unary",  "binary", "select",  "cast",
                                      "not_null", "address"};
  return names[static_cast<int>(k)];
}

Value toJSON(const Expr &e) {
  Object o{{"kind", exprKindName(e.kind)}, {"type", e.type.name()}};
  switch (e.kind) {
  case Expr::Kind::Const:
    if (e.type.kind == Type::Kind::Float)
      o["value"] = e.float_value;
    else
      o["value"] = e.int_value;
    break;
  case Expr::Kind::Param: o["name"] = e.name; break;
  case Expr::Kind::NotNull: case Expr::Kind::Address:
    o["array"] = e.id;
    o["name"] = e.name;
    break;
  case Expr::Kind::Builtin: o["name"] = builtinName(e.builtin); break;
  case Expr::Kind::Local:
    o["name"] = e.name;
    o["id"] = e.id;
    break;
  case Expr::Kind::Opaque:
    o["id"] = e.id;
    o["what"] = e.what;
    if (e.per_block) o["per_block"] = true;
    break;
  case Expr::Kind::Unary: o["op"] = unaryOpName(e.unary_op); break;
  case Expr::Kind::Binary: o["op"] = binaryOpName(e.binary_op); break;
  case Expr::Kind::Select:
  case Expr::Kind::Cast: break;
  }
  if (!e.args.empty()) {
    JArray args;
    for (const ExprPtr &a : e.args)
      args.push_back(toJSON(*a));
    o["args"] = std::move(args);
  }
  return o;
}

static Value toJSON(const std::vector<Stmt> &body) {
  JArray a;
  for (const Stmt &s : body)
    a.push_back(toJSON(s));
  return a;
}

static Value toJSON(const Local &l) {
  return Object{{"name", l.name}, {"id", l.id}, {"type", l.type.name()}};
}

Value toJSON(const Stmt &s) {
  Object o;
  switch (s.kind) {
  case Stmt::Kind::Access:
    o = Object{{"stmt", "access"},
               {"id", s.id},
               {"array", s.array},
               {"access", accessKindName(s.access)},
               {"index", exprOrNull(s.index)},
               {"index_text", toString(s.index)},
               {"count", s.count},
               {"text", s.text}};
    if (!s.atomic_op.empty())
      o["atomic_op"] = s.atomic_op;
    if (s.value)
      o["operand"] = exprOrNull(s.value);
    break;
  case Stmt::Kind::Barrier:
    o = Object{{"stmt", "barrier"},
               {"barrier", barrierKindName(s.barrier)},
               {"what", s.what},
               {"mask", exprOrNull(s.mask)},
               {"predicate", exprOrNull(s.cond)}};
    break;
  case Stmt::Kind::Fence:
    o = Object{{"stmt", "fence"}, {"scope", fenceScopeName(s.fence)}, {"what", s.what}};
    break;
  case Stmt::Kind::If:
    o = Object{{"stmt", "if"},
               {"cond", exprOrNull(s.cond)},
               {"cond_text", toString(s.cond)},
               {"then", toJSON(s.then_body)},
               {"else", toJSON(s.else_body)}};
    break;
  case Stmt::Kind::Loop:
    o = Object{{"stmt", "loop"},
               {"loop", loopKindName(s.loop)},
               {"cond", exprOrNull(s.cond)},
               {"cond_text", s.cond ? toString(s.cond) : "true"},
               {"body", toJSON(s.body)},
               {"step", toJSON(s.step)}};
    break;
  case Stmt::Kind::Assign:
    o = Object{{"stmt", "assign"},
               {"local", toJSON(s.local)},
               {"value", exprOrNull(s.value)},
               {"value_text", toString(s.value)}};
    break;
  case Stmt::Kind::Assume:
    o = Object{{"stmt", "assume"}, {"cond", exprOrNull(s.cond)}, {"cond_text", toString(s.cond)}};
    break;
  case Stmt::Kind::Return: o = Object{{"stmt", "return"}}; break;
  case Stmt::Kind::Break: o = Object{{"stmt", "break"}}; break;
  case Stmt::Kind::Continue: o = Object{{"stmt", "continue"}}; break;
  case Stmt::Kind::Inlined:
    o = Object{{"stmt", "inlined"}, {"function", s.function}, {"body", toJSON(s.body)}};
    break;
  }
  o["range"] = toJSON(s.range);
  return o;
}

static Value toJSON(const Param &p) {
  Object o{{"position", p.position}, {"name", p.name}, {"c_type", p.c_type},
           {"type", p.type.name()}, {"range", toJSON(p.range)}};
  if (p.array)
    o["array"] = *p.array;
  return o;
}

static Value toJSON(const model::Array &a) {
  JArray dims;
  for (uint64_t d : a.dims)
    dims.push_back(static_cast<int64_t>(d));
  return Object{{"id", a.id},
                {"name", a.name},
                {"space", addressSpaceName(a.space)},
                {"origin", arrayOriginName(a.origin)},
                {"elem_c_type", a.elem_c_type},
                {"elem_type", a.elem.name()},
                {"elem_size", a.elem_size},
                {"dims", std::move(dims)},
                {"size", a.size ? Value(static_cast<int64_t>(*a.size)) : Value(nullptr)},
                {"extern", a.is_extern},
                {"const", a.is_const},
                {"restrict", a.is_restrict},
                {"range", toJSON(a.range)}};
}

Value toJSON(const Kernel &k) {
  JArray params, arrays, locals, unsupported;
  for (const Param &p : k.params)
    params.push_back(toJSON(p));
  for (const model::Array &a : k.arrays)
    arrays.push_back(toJSON(a));
  for (const Local &l : k.locals)
    locals.push_back(toJSON(l));
  for (const Unsupported &u : k.unsupported)
    unsupported.push_back(Object{
        {"construct", u.construct}, {"detail", u.detail}, {"range", toJSON(u.range)}});
  return Object{{"name", k.name},
                {"file", k.file},
                {"range", toJSON(k.range)},
                {"options", k.options},
                {"params", std::move(params)},
                {"arrays", std::move(arrays)},
                {"locals", std::move(locals)},
                {"body", toJSON(k.body)},
                {"unsupported", std::move(unsupported)}};
}

Value toJSON(const TranslationUnitModel &tu) {
  JArray kernels, skipped, diagnostics;
  for (const Kernel &k : tu.kernels)
    kernels.push_back(toJSON(k));
  for (const SkippedKernel &s : tu.skipped)
    skipped.push_back(
        Object{{"name", s.name}, {"reason", s.reason}, {"range", toJSON(s.range)}});
  for (const Diagnostic &d : tu.diagnostics)
    diagnostics.push_back(Object{
        {"severity", d.severity}, {"message", d.message}, {"range", toJSON(d.range)}});
  return Object{{"file", tu.file},
                {"parsed", tu.parsed},
                {"options", tu.options},
                {"kernels", std::move(kernels)},
                {"skipped", std::move(skipped)},
                {"diagnostics", std::move(diagnostics)}};
}

Value toJSON(const std::vector<TranslationUnitModel> &tus) {
  JArray files;
  for (const TranslationUnitModel &tu : tus)
    files.push_back(toJSON(tu));
  return Object{{"schema", kSchemaVersion}, {"files", std::move(files)}};
}

}  // namespace kverify::model
