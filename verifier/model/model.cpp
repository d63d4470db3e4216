#include "model/model.hpp"

#include <cstdio>

namespace kverify::model {

std::string Type::name() const {
  switch (kind) {
  case Kind::Bool: return "bool";
  case Kind::Int: return (is_signed ? "i" : "u") + std::to_string(bits);
  case Kind::Float: return "f" + std::to_string(bits);
  case Kind::Pointer: return "ptr";
  case Kind::Other: return "other";
  }
  return "other";
}

const char *builtinName(Builtin b) {
  static const char *const names[] = {
      "threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y",
      "blockIdx.z",  "blockDim.x",  "blockDim.y",  "blockDim.z", "gridDim.x",
      "gridDim.y",   "gridDim.z",   "warpSize"};
  return names[static_cast<int>(b)];
}

const char *unaryOpName(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg: return "-";
  case UnaryOp::LNot: return "!";
  case UnaryOp::BitNot: return "~";
  case UnaryOp::BitReverse: return "__brev";
  }
  return "?";
}

const char *binaryOpName(BinaryOp op) {
  static const char *const names[] = {"+",  "-",  "*", "/",  "%",  "<<", ">>",
                                      "&",  "|",  "^", "<",  "<=", ">",  ">=",
                                      "==", "!=", "&&", "||"};
  return names[static_cast<int>(op)];
}

const char *arrayOriginName(ArrayOrigin o) {
  static const char *const names[] = {"param", "shared", "local", "device_var", "constant_var", "function_pointer"};
  return names[static_cast<int>(o)];
}
const char *addressSpaceName(AddressSpace s) {
  static const char *const names[] = {"global", "shared", "local", "constant"};
  return names[static_cast<int>(s)];
}
const char *accessKindName(AccessKind k) {
  static const char *const names[] = {"read", "write", "atomic"};
  return names[static_cast<int>(k)];
}
const char *barrierKindName(BarrierKind k) {
  static const char *const names[] = {"block", "warp", "grid"};
  return names[static_cast<int>(k)];
}
const char *fenceScopeName(FenceScope s) {
  static const char *const names[] = {"block", "device", "system"};
  return names[static_cast<int>(s)];
}
const char *loopKindName(LoopKind k) {
  static const char *const names[] = {"for", "while", "do"};
  return names[static_cast<int>(k)];
}

// --- factories -------------------------------------------------------------------

static std::shared_ptr<Expr> make(Expr::Kind k, Type t) {
  auto e = std::make_shared<Expr>();
  e->kind = k;
  e->type = t;
  return e;
}

ExprPtr Expr::intConst(Type t, int64_t v) {
  auto e = make(Kind::Const, t);
  e->int_value = v;
  return e;
}
ExprPtr Expr::floatConst(Type t, double v) {
  auto e = make(Kind::Const, t);
  e->float_value = v;
  return e;
}
ExprPtr Expr::param(Type t, std::string name) {
  auto e = make(Kind::Param, t);
  e->name = std::move(name);
  return e;
}
ExprPtr Expr::notNull(unsigned array, std::string name) {
  auto e = make(Kind::NotNull, Type::boolean());
  e->id = array;
  e->name = std::move(name);
  return e;
}
ExprPtr Expr::address(unsigned array, std::string name) {
  auto e = make(Kind::Address, Type::integer(64, false));
  e->id = array;
  e->name = std::move(name);
  return e;
}
ExprPtr Expr::builtinVar(Builtin b) {
  auto e = make(Kind::Builtin, b == Builtin::WarpSize ? Type::i32() : Type::u32());
  e->builtin = b;
  return e;
}
ExprPtr Expr::local(const Local &l) {
  auto e = make(Kind::Local, l.type);
  e->name = l.name;
  e->id = l.id;
  return e;
}
ExprPtr Expr::opaque(Type t, unsigned id, std::string what, bool per_block) {
  auto e = make(Kind::Opaque, t);
  e->id = id;
  e->what = std::move(what);
  e->per_block = per_block;
  return e;
}
ExprPtr Expr::unary(Type t, UnaryOp op, ExprPtr a) {
  auto e = make(Kind::Unary, t);
  e->unary_op = op;
  e->args = {std::move(a)};
  return e;
}
ExprPtr Expr::binary(Type t, BinaryOp op, ExprPtr a, ExprPtr b) {
  auto e = make(Kind::Binary, t);
  e->binary_op = op;
  e->args = {std::move(a), std::move(b)};
  return e;
}
ExprPtr Expr::select(ExprPtr c, ExprPtr a, ExprPtr b) {
  auto e = make(Kind::Select, a->type);
  e->args = {std::move(c), std::move(a), std::move(b)};
  return e;
}
ExprPtr Expr::cast(Type t, ExprPtr a) {
  if (a->type == t)
    return a;
  auto e = make(Kind::Cast, t);
  e->args = {std::move(a)};
  return e;
}

// --- printing ----------------------------------------------------------------------

// C precedence levels, higher binds tighter.
static int precedence(const Expr &e) {
  switch (e.kind) {
  case Expr::Kind::Select: return 1;
  case Expr::Kind::Binary:
    switch (e.binary_op) {
    case BinaryOp::LOr: return 2;
    case BinaryOp::LAnd: return 3;
    case BinaryOp::BitOr: return 4;
    case BinaryOp::BitXor: return 5;
    case BinaryOp::BitAnd: return 6;
    case BinaryOp::Eq: case BinaryOp::Ne: return 7;
    case BinaryOp::Lt: case BinaryOp::Le: case BinaryOp::Gt: case BinaryOp::Ge: return 8;
    case BinaryOp::Shl: case BinaryOp::Shr: return 9;
    case BinaryOp::Add: case BinaryOp::Sub: return 10;
    case BinaryOp::Mul: case BinaryOp::Div: case BinaryOp::Rem: return 11;
    }
    return 0;
  case Expr::Kind::Unary: case Expr::Kind::Cast: return 12;
  default: return 13;
  }
}

static std::string child(const ExprPtr &c, int min_prec) {
  std::string s = toString(*c);
  return precedence(*c) < min_prec ? "(" + s + ")" : s;
}

std::string toString(const Expr &e) {
  switch (e.kind) {
  case Expr::Kind::Const:
    if (e.type.kind == Type::Kind::Float) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", e.float_value);
      return buf;
    }
    if (e.type.kind == Type::Kind::Bool)
      return e.int_value ? "true" : "false";
    if (!e.type.is_signed && e.type.bits == 64)
      return std::to_string(static_cast<uint64_t>(e.int_value));
    return std::to_string(e.int_value);
  case Expr::Kind::Param: return e.name;
  case Expr::Kind::Builtin: return builtinName(e.builtin);
  case Expr::Kind::Local: return e.name;
  case Expr::Kind::Opaque: return "opaque#" + std::to_string(e.id);
  case Expr::Kind::NotNull: return "(" + e.name + " != nullptr)";
  case Expr::Kind::Address: return "(u64)&" + e.name + "[0]";
  case Expr::Kind::Unary:
    if (e.unary_op == UnaryOp::BitReverse) return "__brev(" + toString(*e.args[0]) + ")";
    return unaryOpName(e.unary_op) + child(e.args[0], 12);
  case Expr::Kind::Cast: return "(" + e.type.name() + ")" + child(e.args[0], 12);
  case Expr::Kind::Binary: {
    int p = precedence(e);
    // Left-associative: the right operand needs parentheses at equal precedence.
    return child(e.args[0], p) + " " + binaryOpName(e.binary_op) + " " +
           child(e.args[1], p + 1);
  }
  case Expr::Kind::Select:
    return child(e.args[0], 2) + " ? " + child(e.args[1], 2) + " : " + child(e.args[2], 1);
  }
  return "?";
}

}  // namespace kverify::model
