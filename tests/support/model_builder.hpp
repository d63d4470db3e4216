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
    k.name = k.function = "k";
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
    model::stmt::Access a;
    a.id = next_id++;
    a.array = array;
    a.kind = kind;
    a.index = Expr::cast(Type::i64(), index);
    a.text = k.arrays[array].name + "[...]";
    return Stmt{{"test.cu", line, 5, line, 20}, std::move(a)};
  }
  static model::SourceRange at(unsigned line) { return {"test.cu", line, 3, line, 3}; }
  static Stmt sync(unsigned line) {
    return Stmt{{"test.cu", line, 5, line, 20},
                model::stmt::Barrier{model::BarrierKind::Block, "__syncthreads", nullptr, nullptr}};
  }
  static Stmt syncwarp(unsigned line, ExprPtr mask = nullptr) {
    return Stmt{{"test.cu", line, 5, line, 20},
                model::stmt::Barrier{model::BarrierKind::Warp, "__syncwarp", mask, nullptr}};
  }
  static Stmt assign(const model::Local &l, ExprPtr v) { return Stmt{{}, model::stmt::Assign{l, v}}; }
  static Stmt iff(ExprPtr c, std::vector<Stmt> then_body, std::vector<Stmt> else_body = {}) {
    return Stmt{{}, model::stmt::If{c, std::move(then_body), std::move(else_body)}};
  }
  static Stmt loop(ExprPtr c, std::vector<Stmt> body, std::vector<Stmt> step, unsigned line) {
    return Stmt{at(line), model::stmt::Loop{model::LoopKind::For, c, std::move(body), std::move(step)}};
  }
  static Stmt assume(ExprPtr c) { return Stmt{at(3), model::stmt::Assume{c}}; }
  static Stmt ret(unsigned line) { return Stmt{at(line), model::stmt::Return{}}; }
  static Stmt brk(unsigned line) { return Stmt{at(line), model::stmt::Break{}}; }
  static Stmt cont(unsigned line) { return Stmt{at(line), model::stmt::Continue{}}; }
  static Stmt inlined(std::string function, std::vector<Stmt> body) {
    return Stmt{{}, model::stmt::Inlined{std::move(function), std::move(body)}};
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

// The classic shared-memory tree reduction, with or without the barrier in the loop.
inline model::Kernel reductionKernel(bool with_barrier) {
  KB b;
  unsigned sdata = b.shared("sdata", 256);
  unsigned out = b.global("out");
  auto s = b.local("s");
  std::vector<Stmt> body = {
      KB::iff(bin(BinaryOp::Lt, tid(), L(s)),
              {b.access(sdata, AccessKind::Read, bin(BinaryOp::Add, tid(), L(s)), 10),
               b.access(sdata, AccessKind::Read, tid(), 10), b.access(sdata, AccessKind::Write, tid(), 10)})};
  if (with_barrier) body.push_back(KB::sync(11));
  b.k.body = {
      b.access(sdata, AccessKind::Write, tid(), 5),
      KB::sync(6),
      KB::assign(s, bin(BinaryOp::Shr, bdim(), u(1))),
      KB::loop(bin(BinaryOp::Gt, L(s), u(0)), body, {KB::assign(s, bin(BinaryOp::Shr, L(s), u(1)))}, 8),
      KB::iff(bin(BinaryOp::Eq, tid(), u(0)),
              {b.access(sdata, AccessKind::Read, u(0), 13), b.access(out, AccessKind::Write, bid(), 13)}),
  };
  return b.k;
}

}  // namespace kverify::testing_support
