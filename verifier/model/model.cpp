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
  static const char *const names[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y",
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
  static const char *const names[] = {"+", "-", "*",  "/", "%",  "<<", ">>", "&",  "|",
                                      "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||"};
  return names[static_cast<int>(op)];
}

const char *arrayOriginName(ArrayOrigin o) {
  static const char *const names[] = {"param",      "shared",       "local",
                                      "device_var", "constant_var", "function_pointer"};
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
const char *scopeName(Scope s) {
  static const char *const names[] = {"block", "device", "system"};
  return names[static_cast<int>(s)];
}
const char *atomicOpName(AtomicOp op) {
  static const char *const names[] = {"add", "sub", "exch", "min", "max",  "inc",   "dec",
                                      "cas", "and", "or",   "xor", "load", "store", "other"};
  return names[static_cast<int>(op)];
}
const char *loopKindName(LoopKind k) {
  static const char *const names[] = {"for", "while", "do"};
  return names[static_cast<int>(k)];
}

// --- factories -------------------------------------------------------------------

ExprPtr Expr::make(Type t, Node node) { return std::make_shared<const Expr>(Expr{t, std::move(node)}); }
ExprPtr Expr::intConst(Type t, int64_t v) { return make(t, expr::Const{v, 0}); }
ExprPtr Expr::floatConst(Type t, double v) { return make(t, expr::Const{0, v}); }
ExprPtr Expr::param(Type t, std::string name) { return make(t, expr::Param{std::move(name)}); }
ExprPtr Expr::notNull(unsigned array, std::string name) {
  return make(Type::boolean(), expr::NotNull{array, std::move(name)});
}
ExprPtr Expr::address(unsigned array, std::string name) {
  return make(Type::integer(64, false), expr::Address{array, std::move(name)});
}
ExprPtr Expr::element(Type t, unsigned array, ExprPtr index, unsigned count, std::string name) {
  return make(t, expr::Element{array, std::move(index), count, std::move(name)});
}
ExprPtr Expr::builtinVar(Builtin b) {
  return make(b == Builtin::WarpSize ? Type::i32() : Type::u32(), expr::Builtin{b});
}
ExprPtr Expr::local(const Local &l) { return make(l.type, expr::Local{l.name, l.id}); }
ExprPtr Expr::opaque(Type t, unsigned id, std::string what, bool per_block) {
  return make(t, expr::Opaque{id, std::move(what), per_block});
}
ExprPtr Expr::unary(Type t, UnaryOp op, ExprPtr a) { return make(t, expr::Unary{op, std::move(a)}); }
ExprPtr Expr::binary(Type t, BinaryOp op, ExprPtr a, ExprPtr b) {
  return make(t, expr::Binary{op, std::move(a), std::move(b)});
}
ExprPtr Expr::select(ExprPtr c, ExprPtr a, ExprPtr b) {
  Type t = a->type;
  return make(t, expr::Select{std::move(c), std::move(a), std::move(b)});
}
ExprPtr Expr::cast(Type t, ExprPtr a) {
  if (a->type == t) return a;
  return make(t, expr::Cast{std::move(a)});
}

std::vector<const Expr *> operands(const Expr &e) {
  if (auto *u = e.as<expr::Unary>()) return {u->arg.get()};
  if (auto *c = e.as<expr::Cast>()) return {c->arg.get()};
  if (auto *m = e.as<expr::Element>()) return {m->index.get()};
  if (auto *b = e.as<expr::Binary>()) return {b->lhs.get(), b->rhs.get()};
  if (auto *s = e.as<expr::Select>()) return {s->cond.get(), s->then_value.get(), s->else_value.get()};
  return {};
}

// --- printing ----------------------------------------------------------------------

// C precedence levels, higher binds tighter.
static int precedence(const Expr &e) {
  if (e.is<expr::Select>()) return 1;
  if (e.is<expr::Unary>() || e.is<expr::Cast>()) return 12;
  const auto *b = e.as<expr::Binary>();
  if (!b) return 13;
  switch (b->op) {
    case BinaryOp::LOr: return 2;
    case BinaryOp::LAnd: return 3;
    case BinaryOp::BitOr: return 4;
    case BinaryOp::BitXor: return 5;
    case BinaryOp::BitAnd: return 6;
    case BinaryOp::Eq:
    case BinaryOp::Ne: return 7;
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge: return 8;
    case BinaryOp::Shl:
    case BinaryOp::Shr: return 9;
    case BinaryOp::Add:
    case BinaryOp::Sub: return 10;
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Rem: return 11;
  }
  return 0;
}

static std::string child(const ExprPtr &c, int min_prec) {
  std::string s = toString(*c);
  return precedence(*c) < min_prec ? "(" + s + ")" : s;
}

static std::string constText(const Type &t, const expr::Const &c) {
  if (t.kind == Type::Kind::Float) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", c.float_value);
    return buf;
  }
  if (t.kind == Type::Kind::Bool) return c.int_value ? "true" : "false";
  if (!t.is_signed && t.bits == 64) return std::to_string(static_cast<uint64_t>(c.int_value));
  return std::to_string(c.int_value);
}

std::string toString(const Expr &e) {
  return std::visit(Overloaded{
                        [&](const expr::Const &c) { return constText(e.type, c); },
                        [](const expr::Param &p) { return p.name; },
                        [](const expr::Builtin &b) { return std::string(builtinName(b.which)); },
                        [](const expr::Local &l) { return l.name; },
                        [](const expr::Opaque &o) { return "opaque#" + std::to_string(o.id); },
                        [](const expr::NotNull &n) { return "(" + n.name + " != nullptr)"; },
                        [](const expr::Address &a) { return "(u64)&" + a.name + "[0]"; },
                        [](const expr::Element &m) {
                          return m.name + "[" + toString(*m.index) +
                                 (m.count > 1 ? " +" + std::to_string(m.count) : "") + "]";
                        },
                        [](const expr::Unary &u) {
                          if (u.op == UnaryOp::BitReverse) return "__brev(" + toString(*u.arg) + ")";
                          return unaryOpName(u.op) + child(u.arg, 12);
                        },
                        [&](const expr::Cast &c) { return "(" + e.type.name() + ")" + child(c.arg, 12); },
                        [&](const expr::Binary &b) {
                          int p = precedence(e);
                          // Left-associative: the right operand needs parentheses at equal precedence.
                          return child(b.lhs, p) + " " + binaryOpName(b.op) + " " + child(b.rhs, p + 1);
                        },
                        [](const expr::Select &s) {
                          return child(s.cond, 2) + " ? " + child(s.then_value, 2) + " : " +
                                 child(s.else_value, 1);
                        },
                    },
                    e.node);
}

}  // namespace kverify::model
