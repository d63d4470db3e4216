#pragma once
// A tiny builder for kernel models, for tests that run a stage on hand-built models
// (the analysis, the oracle) without the front end.
#include "model/model.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kverify::testing_support {

using model::AccessKind;
using model::BinaryOp;
using model::Builtin;
using model::Expr;
using model::ExprPtr;
using model::Stmt;
using model::Type;

struct KB {
  model::Kernel k;
  unsigned next_id = 1;
  KB() {
    k.name = "k";
    k.file = "test.cu";
    k.range = {"test.cu", 1, 1, 1, 1};
  }
  unsigned array(const std::string &name, model::AddressSpace space, std::optional<uint64_t> size) {
    model::Array a;
    a.id = static_cast<unsigned>(k.arrays.size());
    a.name = name;
    a.space = space;
    a.origin = space == model::AddressSpace::Shared ? model::ArrayOrigin::Shared : model::ArrayOrigin::Param;
    a.elem = Type::integer(32, true);
    a.elem_size = 4;
    if (size) a.dims = {*size};
    a.size = size;
    k.arrays.push_back(a);
    return a.id;
  }
  unsigned shared(const std::string &name, uint64_t size) {
    return array(name, model::AddressSpace::Shared, size);
  }
  // A pointer parameter and the global memory it points into.
  unsigned global(const std::string &name) {
    unsigned id = array(name, model::AddressSpace::Global, std::nullopt);
    model::Param p;
    p.position = static_cast<unsigned>(k.params.size());
    p.name = name;
    p.type = Type::pointer();
    p.array = id;
    k.params.push_back(p);
    return id;
  }
  ExprPtr param(const std::string &name, Type t = Type::i32()) {
    model::Param p;
    p.position = static_cast<unsigned>(k.params.size());
    p.name = name;
    p.type = t;
    k.params.push_back(p);
    return Expr::param(t, name);
  }
  model::Local local(const std::string &name, Type t = Type::u32()) {
    model::Local l{name, next_id++, t};
    k.locals.push_back(l);
    return l;
  }
  Stmt access(unsigned array, AccessKind kind, ExprPtr index, unsigned line) {
    Stmt s = simple(Stmt::Kind::Access, line);
    s.id = next_id++;
    s.array = array;
    s.access = kind;
    s.index = Expr::cast(Type::i64(), index);
    s.range = {"test.cu", line, 5, line, 20};
    s.text = k.arrays[array].name + "[...]";
    return s;
  }
  static Stmt simple(Stmt::Kind kind, unsigned line = 0) {
    Stmt s;
    s.kind = kind;
    s.range = {"test.cu", line, 3, line, 3};
    return s;
  }
  static Stmt sync(unsigned line) {
    Stmt s = simple(Stmt::Kind::Barrier, line);
    s.what = "__syncthreads";
    s.range = {"test.cu", line, 5, line, 20};
    return s;
  }
  static Stmt syncwarp(unsigned line, ExprPtr mask = nullptr) {
    Stmt s = sync(line);
    s.barrier = model::BarrierKind::Warp;
    s.what = "__syncwarp";
    s.mask = mask;
    return s;
  }
  static Stmt assign(const model::Local &l, ExprPtr v) {
    Stmt s;
    s.kind = Stmt::Kind::Assign;
    s.local = l;
    s.value = v;
    return s;
  }
  static Stmt iff(ExprPtr c, std::vector<Stmt> then_body, std::vector<Stmt> else_body = {}) {
    Stmt s;
    s.kind = Stmt::Kind::If;
    s.cond = c;
    s.then_body = std::move(then_body);
    s.else_body = std::move(else_body);
    return s;
  }
  static Stmt loop(ExprPtr c, std::vector<Stmt> body, std::vector<Stmt> step, unsigned line) {
    Stmt s = simple(Stmt::Kind::Loop, line);
    s.cond = c;
    s.body = std::move(body);
    s.step = std::move(step);
    return s;
  }
  static Stmt assume(ExprPtr c) {
    Stmt s = simple(Stmt::Kind::Assume, 3);
    s.cond = c;
    return s;
  }
};

inline ExprPtr tid() { return Expr::builtinVar(Builtin::ThreadIdxX); }
inline ExprPtr bid() { return Expr::builtinVar(Builtin::BlockIdxX); }
inline ExprPtr bdim() { return Expr::builtinVar(Builtin::BlockDimX); }
inline ExprPtr u(int64_t v) { return Expr::intConst(Type::u32(), v); }
inline ExprPtr i(int64_t v) { return Expr::intConst(Type::i32(), v); }
inline ExprPtr bin(BinaryOp op, ExprPtr a, ExprPtr b) {
  bool cmp = op >= BinaryOp::Lt;
  return Expr::binary(cmp ? Type::boolean() : a->type, op, a, b);
}
inline ExprPtr L(const model::Local &l) { return Expr::local(l); }

}  // namespace kverify::testing_support
