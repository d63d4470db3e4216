#include "model/json.hpp"

namespace kverify::model {

using JArray = llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

Value toJSON(const SourceRange &r) {
  return Object{
      {"file", r.file}, {"line", r.line}, {"col", r.col}, {"end_line", r.end_line}, {"end_col", r.end_col}};
}

static Value exprOrNull(const ExprPtr &e) { return e ? toJSON(*e) : Value(nullptr); }

Value toJSON(const Expr &e) {
  Object o{{"type", e.type.name()}};
  auto kind = [&](const char *k) { o["kind"] = k; };
  std::visit(Overloaded{
                 [&](const expr::Const &c) {
                   kind("const");
                   if (e.type.kind == Type::Kind::Float)
                     o["value"] = c.float_value;
                   else
                     o["value"] = c.int_value;
                 },
                 [&](const expr::Param &p) { kind("param"), o["name"] = p.name; },
                 [&](const expr::NotNull &n) { kind("not_null"), o["array"] = n.array, o["name"] = n.name; },
                 [&](const expr::Address &a) { kind("address"), o["array"] = a.array, o["name"] = a.name; },
                 [&](const expr::Element &m) {
                   kind("element"), o["array"] = m.array, o["name"] = m.name, o["count"] = m.count;
                 },
                 [&](const expr::Builtin &b) { kind("builtin"), o["name"] = builtinName(b.which); },
                 [&](const expr::Local &l) { kind("local"), o["name"] = l.name, o["id"] = l.id; },
                 [&](const expr::Opaque &x) {
                   kind("opaque"), o["id"] = x.id, o["what"] = x.what;
                   if (x.per_block) o["per_block"] = true;
                 },
                 [&](const expr::Unary &u) { kind("unary"), o["op"] = unaryOpName(u.op); },
                 [&](const expr::Binary &b) { kind("binary"), o["op"] = binaryOpName(b.op); },
                 [&](const expr::Select &) { kind("select"); },
                 [&](const expr::Cast &) { kind("cast"); },
             },
             e.node);
  std::vector<const Expr *> ops = operands(e);
  if (!ops.empty()) {
    JArray args;
    for (const Expr *a : ops) args.push_back(toJSON(*a));
    o["args"] = std::move(args);
  }
  return o;
}

static Value toJSON(const Body &body) {
  JArray a;
  for (const Stmt &s : body) a.push_back(toJSON(s));
  return a;
}

static Value toJSON(const Local &l) {
  return Object{{"name", l.name}, {"id", l.id}, {"type", l.type.name()}};
}

static Object accessJSON(const stmt::Access &a) {
  Object o{{"stmt", "access"},
           {"id", a.id},
           {"array", a.array},
           {"access", accessKindName(a.kind)},
           {"index", exprOrNull(a.index)},
           {"index_text", toString(a.index)},
           {"count", a.count},
           {"text", a.text}};
  if (a.kind == AccessKind::Atomic) {
    o["atomic_op"] = atomicOpName(a.atomic);
    o["scope"] = scopeName(a.scope);
    if (a.order) o["order"] = exprOrNull(a.order);
  }
  if (a.value) o["operand"] = exprOrNull(a.value);
  return o;
}

Value toJSON(const Stmt &s) {
  Object o = std::visit(
      Overloaded{
          [](const stmt::Access &a) { return accessJSON(a); },
          [](const stmt::Barrier &b) {
            return Object{{"stmt", "barrier"},
                          {"barrier", barrierKindName(b.kind)},
                          {"what", b.what},
                          {"mask", exprOrNull(b.mask)},
                          {"predicate", exprOrNull(b.predicate)}};
          },
          [](const stmt::Fence &f) {
            return Object{{"stmt", "fence"}, {"scope", scopeName(f.scope)}, {"what", f.what}};
          },
          [](const stmt::If &i) {
            return Object{{"stmt", "if"},
                          {"cond", exprOrNull(i.cond)},
                          {"cond_text", toString(i.cond)},
                          {"then", toJSON(i.then_body)},
                          {"else", toJSON(i.else_body)}};
          },
          [](const stmt::Loop &l) {
            return Object{{"stmt", "loop"},
                          {"loop", loopKindName(l.kind)},
                          {"cond", exprOrNull(l.cond)},
                          {"cond_text", l.cond ? toString(l.cond) : "true"},
                          {"body", toJSON(l.body)},
                          {"step", toJSON(l.step)}};
          },
          [](const stmt::Assign &a) {
            return Object{{"stmt", "assign"},
                          {"local", toJSON(a.local)},
                          {"value", exprOrNull(a.value)},
                          {"value_text", toString(a.value)}};
          },
          [](const stmt::Assume &a) {
            Object o{{"stmt", "assume"}, {"cond", exprOrNull(a.cond)}, {"cond_text", toString(a.cond)}};
            if (!a.forall.empty()) {
              JArray vars;
              for (const Local &l : a.forall) vars.push_back(toJSON(l));
              o["forall"] = std::move(vars), o["lo"] = exprOrNull(a.lo), o["hi"] = exprOrNull(a.hi);
            }
            return o;
          },
          [](const stmt::Return &) { return Object{{"stmt", "return"}}; },
          [](const stmt::Break &) { return Object{{"stmt", "break"}}; },
          [](const stmt::Continue &) { return Object{{"stmt", "continue"}}; },
          [](const stmt::Inlined &c) {
            return Object{{"stmt", "inlined"}, {"function", c.function}, {"body", toJSON(c.body)}};
          },
      },
      s.node);
  o["range"] = toJSON(s.range);
  return o;
}

static Value toJSON(const Param &p) {
  Object o{{"position", p.position},
           {"name", p.name},
           {"c_type", p.c_type},
           {"type", p.type.name()},
           {"range", toJSON(p.range)}};
  if (p.array) o["array"] = *p.array;
  return o;
}

static Value toJSON(const model::Array &a) {
  JArray dims;
  for (uint64_t d : a.dims) dims.push_back(static_cast<int64_t>(d));
  return Object{{"id", a.id},
                {"name", a.name},
                {"space", addressSpaceName(a.space)},
                {"origin", arrayOriginName(a.origin)},
                {"elem_c_type", a.elem_c_type},
                {"elem_type", a.elem.name()},
                {"elem_size", a.elem_size},
                {"by_bytes", a.by_bytes},
                {"dims", std::move(dims)},
                {"size", a.size ? Value(static_cast<int64_t>(*a.size)) : Value(nullptr)},
                {"extern", a.is_extern},
                {"const", a.is_const},
                {"restrict", a.is_restrict},
                {"range", toJSON(a.range)}};
}

Value toJSON(const Kernel &k) {
  JArray params, arrays, locals, unsupported;
  for (const Param &p : k.params) params.push_back(toJSON(p));
  for (const model::Array &a : k.arrays) arrays.push_back(toJSON(a));
  for (const Local &l : k.locals) locals.push_back(toJSON(l));
  for (const Unsupported &u : k.unsupported)
    unsupported.push_back(
        Object{{"construct", u.construct}, {"detail", u.detail}, {"range", toJSON(u.range)}});
  return Object{{"name", k.name},
                {"function", k.function},
                {"file", k.file},
                {"range", toJSON(k.range)},
                {"options", k.options},
                {"max_threads", k.max_threads ? Value(static_cast<int64_t>(*k.max_threads)) : Value(nullptr)},
                {"params", std::move(params)},
                {"arrays", std::move(arrays)},
                {"locals", std::move(locals)},
                {"body", toJSON(k.body)},
                {"unsupported", std::move(unsupported)}};
}

Value toJSON(const TranslationUnitModel &tu) {
  JArray kernels, skipped, diagnostics;
  for (const Kernel &k : tu.kernels) kernels.push_back(toJSON(k));
  for (const SkippedKernel &s : tu.skipped)
    skipped.push_back(Object{{"name", s.name}, {"reason", s.reason}, {"range", toJSON(s.range)}});
  for (const Diagnostic &d : tu.diagnostics)
    diagnostics.push_back(
        Object{{"severity", d.severity}, {"message", d.message}, {"range", toJSON(d.range)}});
  return Object{{"file", tu.file},
                {"parsed", tu.parsed},
                {"options", tu.options},
                {"kernels", std::move(kernels)},
                {"skipped", std::move(skipped)},
                {"diagnostics", std::move(diagnostics)}};
}

Value toJSON(const std::vector<TranslationUnitModel> &tus) {
  JArray files;
  for (const TranslationUnitModel &tu : tus) files.push_back(toJSON(tu));
  return Object{{"schema", kSchemaVersion}, {"files", std::move(files)}};
}

}  // namespace kverify::model
