// Expressions of one thread, as Z3 terms, with their undefined-behaviour side conditions.
#include "analysis/exec.hpp"
#include "analysis/solve.hpp"

namespace kverify::analysis::detail {

z3::expr Exec::freshOwn(const std::string &name, z3::sort s) { return enc.freshConst(own(name), s); }

z3::expr Exec::fresh(const Type &t, const std::string &name) {
  return freshOwn(name, t.kind == Type::Kind::Bool ? enc.ctx.bool_sort() : enc.bv(t.bits ? t.bits : 64));
}

z3::expr Exec::boolOf(const Expr &e) {
  z3::expr v = eval(e);
  if (v.is_bool()) return v;
  return v != enc.ctx.bv_val(0, v.get_sort().bv_size());
}

z3::expr resize(const z3::expr &v, unsigned to, bool is_signed) {
  unsigned from = v.get_sort().bv_size();
  if (from == to) return v;
  z3::expr r = from > to ? v.extract(to - 1, 0) : is_signed ? z3::sext(v, to - from) : z3::zext(v, to - from);
  // constants stay numerals (the integer abstraction recognises `x / 16` by them)
  return v.is_numeral() ? r.simplify() : r;
}

z3::expr Exec::eval(const Expr &e) {
  z3::context &c = enc.ctx;
  const Type &ty = e.type;
  if (!ty.isIntegral()) {
    // floats, pointers, structs: not modelled, a fresh value (their integer
    // sub-expressions cannot race by themselves)
    if (const auto *p = e.as<ex::Param>()) {
      auto it = enc.params.find(p->name);
      if (it != enc.params.end()) return it->second;
    }
    return fresh(Type::integer(ty.bits ? ty.bits : 64, false), "val");
  }
  return std::visit(model::Overloaded{
                        [&](const ex::Const &k) {
                          if (ty.kind == Type::Kind::Bool) return c.bool_val(k.int_value != 0);
                          return c.bv_val(static_cast<uint64_t>(k.int_value), ty.bits);
                        },
                        [&](const ex::Param &) { return evalParam(e); },
                        [&](const ex::NotNull &n) { return evalArrayFact(false, n.array); },
                        [&](const ex::Address &a) { return evalArrayFact(true, a.array); },
                        [&](const ex::Element &) { return evalElement(e); },
                        [&](const ex::Builtin &b) { return evalBuiltin(b.which, ty); },
                        [&](const ex::Local &) { return evalLocal(e); },
                        [&](const ex::Opaque &) { return evalOpaque(e); },
                        [&](const ex::Unary &) { return evalUnary(e); },
                        [&](const ex::Select &) { return evalSelect(e); },
                        [&](const ex::Cast &) { return evalCast(e); },
                        [&](const ex::Binary &) { return evalBinary(e); },
                    },
                    e.node);
}

// `v` (a stored value: a parameter's, a local's) read as type `ty`.
z3::expr Exec::asType(const z3::expr &v, const Type &ty) {
  z3::context &c = enc.ctx;
  bool isBool = ty.kind == Type::Kind::Bool;
  if (isBool && !v.is_bool()) return v != c.bv_val(0, v.get_sort().bv_size());
  if (!isBool && v.is_bool()) return z3::ite(v, c.bv_val(1, ty.bits), c.bv_val(0, ty.bits));
  if (!isBool && v.get_sort().bv_size() != ty.bits) return resize(v, ty.bits, ty.is_signed);
  return v;
}

z3::expr Exec::evalParam(const Expr &e) {
  const std::string &name = e.as<ex::Param>()->name;
  auto it = enc.params.find(name);
  if (it != enc.params.end()) return asType(it->second, e.type);
  z3::context &c = enc.ctx;
  z3::expr v = e.type.kind == Type::Kind::Bool ? c.bool_const(("param." + name).c_str())
                                               : c.bv_const(("param." + name).c_str(), e.type.bits);
  enc.params.emplace(name, v);
  return v;
}

// NotNull and Address: one unknown value per array, the same for every thread.
z3::expr Exec::evalArrayFact(bool address, unsigned array) {
  z3::context &c = enc.ctx;
  auto key = std::make_pair(address, array);
  auto it = enc.array_facts.find(key);
  if (it != enc.array_facts.end()) return it->second;
  std::string name = "array." + std::to_string(array) + "." + enc.kernel.arrays.at(array).name;
  z3::expr v =
      !address ? c.bool_const((name + ".notnull").c_str()) : c.bv_const((name + ".address").c_str(), 64);
  enc.array_facts.emplace(key, v);
  return v;
}

z3::expr Exec::evalBuiltin(model::Builtin which, const Type &ty) {
  z3::context &c = enc.ctx;
  int b = static_cast<int>(which);
  z3::expr v = c.bv_val(32, 32);  // warpSize
  if (b < 3)
    v = thread.tid[b];
  else if (b < 6)
    v = thread.bid[b - 3];
  else if (b < 9)
    v = enc.bdim[b - 6];
  else if (b < 12)
    v = enc.gdim[b - 9];
  return ty.kind == Type::Kind::Bool ? v != c.bv_val(0, 32) : resize(v, ty.bits, false);
}

z3::expr Exec::evalLocal(const Expr &e) {
  const ex::Local &l = *e.as<ex::Local>();
  auto it = env.find(l.id);
  if (it != env.end()) return asType(it->second, e.type);
  z3::expr v = fresh(e.type, "uninit." + l.name);
  env.emplace(l.id, v);
  return v;
}

z3::expr Exec::evalOpaque(const Expr &e) {
  z3::context &c = enc.ctx;
  const Type &ty = e.type;
  const ex::Opaque &o = *e.as<ex::Opaque>();
  if (o.per_block) {
    enc.rules.note(Rule::BlockVote);
    // __syncthreads_or/_and/_count: one value for the whole block at one instance
    z3::sort_vector dom(c);
    z3::expr_vector args(c);
    for (int d = 0; d < 3; ++d) dom.push_back(enc.bv(32)), args.push_back(thread.bid[d]);
    for (const LoopCtx &l : loops) dom.push_back(enc.bv(64)), args.push_back(l.k);
    std::string name = "block.opaque." + enc.idName('o', o.id, o.what) + "." + std::to_string(loops.size());
    z3::sort rs = ty.kind == Type::Kind::Bool ? c.bool_sort() : enc.bv(ty.bits);
    return c.function(name.c_str(), dom, rs)(args);
  }
  z3::expr v = fresh(ty, "opaque." + enc.idName('o', o.id, o.what));
  auto lr = last_read_.find(o.id);  // a load: the value read at that access
  if (auto rd = read_at_.find(o.id);
      rd != read_at_.end() && (ty.kind == Type::Kind::Int || ty.kind == Type::Kind::Bool))
    if (auto f = enc.readOnlyContents(rd->second.array, rd->second.count, v.get_sort()))
      v = (*f)(rd->second.index), enc.rules.note(Rule::ReadOnlyValue);
  if (lr != last_read_.end()) thread.loads.push_back(LoadEv{lr->second, v});
  if (auto pr = last_param_read_.find(o.id);
      pr != last_param_read_.end() && (ty.kind == Type::Kind::Int || ty.kind == Type::Kind::Bool))
    thread.param_reads.push_back(LoadEv{pr->second, v});
  if (lr != last_read_.end() && enc.block_ticket_reads.count(o.id))
    thread.block_tickets.push_back(LoadEv{lr->second, v});
  if (auto at = last_atomic_.find(o.id); at != last_atomic_.end())
    thread.atomic_results.push_back(LoadEv{at->second, v});
  auto lt = last_ticket_.find(o.id);
  if (lt != last_ticket_.end()) thread.tickets.push_back(LoadEv{lt->second, v});
  return v;
}

z3::expr Exec::evalUnary(const Expr &e) {
  z3::context &c = enc.ctx;
  const Type &ty = e.type;
  const ex::Unary &u = *e.as<ex::Unary>();
  const Expr &a = *u.arg;
  if (u.op == UnaryOp::LNot) {
    z3::expr b = boolOf(a);
    return ty.kind == Type::Kind::Bool ? !b : z3::ite(!b, c.bv_val(1, ty.bits), c.bv_val(0, ty.bits));
  }
  if (a.type.kind != Type::Kind::Int || ty.kind != Type::Kind::Int) return fresh(ty, "val");
  z3::expr v = resize(eval(a), ty.bits, a.type.is_signed);
  if (u.op == UnaryOp::BitNot) return ~v;
  if (u.op == UnaryOp::BitReverse) {  // bit 0 becomes the most significant
    z3::expr r = v.extract(0, 0);
    for (unsigned i = 1; i < ty.bits; ++i) r = z3::concat(r, v.extract(i, i));
    return r;
  }
  if (v.is_numeral() && (!ty.is_signed || z3::bvneg_no_overflow(v).simplify().is_true()))
    return (-v).simplify();  // a constant (see evalArith)
  if (ty.is_signed) ub(z3::bvneg_no_overflow(v), "no signed overflow of unary '-'");
  return -v;
}

// Only the chosen arm is evaluated: its UB side conditions hold only when chosen.
z3::expr Exec::evalSelect(const Expr &e) {
  const ex::Select &sel = *e.as<ex::Select>();
  z3::expr cnd = boolOf(*sel.cond);
  z3::expr a = evalUnder(*sel.then_value, cnd, false), b = evalUnder(*sel.else_value, !cnd, false);
  if (a.is_bool() != b.is_bool() || (!a.is_bool() && a.get_sort().bv_size() != b.get_sort().bv_size()))
    return fresh(e.type, "val");
  return z3::ite(cnd, a, b);
}

z3::expr Exec::evalCast(const Expr &e) {
  z3::context &c = enc.ctx;
  const Type &ty = e.type;
  const Expr &a = *e.as<ex::Cast>()->arg;
  if (!a.type.isIntegral()) return fresh(ty, "cast");
  if (ty.kind == Type::Kind::Bool) return boolOf(a);
  z3::expr v = eval(a);
  if (v.is_bool()) return z3::ite(v, c.bv_val(1, ty.bits), c.bv_val(0, ty.bits));
  return resize(v, ty.bits, a.type.is_signed);
}

z3::expr Exec::evalBinary(const Expr &e) {
  const ex::Binary &bin = *e.as<ex::Binary>();
  BinaryOp op = bin.op;
  const Expr &A = *bin.lhs, &B = *bin.rhs;
  // short-circuit: B is evaluated only when A does not decide
  if (op == BinaryOp::LAnd) {
    z3::expr a = boolOf(A);
    return a && evalUnder(B, a, true);
  }
  if (op == BinaryOp::LOr) {
    z3::expr a = boolOf(A);
    return a || evalUnder(B, !a, true);
  }
  if (op >= BinaryOp::Lt && op <= BinaryOp::Ne) return evalCompare(e);
  if (e.type.kind != Type::Kind::Int || !A.type.isIntegral() || !B.type.isIntegral())
    return fresh(e.type, "val");
  return evalArith(e);
}

z3::expr Exec::evalCompare(const Expr &e) {
  z3::context &c = enc.ctx;
  const ex::Binary &bin = *e.as<ex::Binary>();
  BinaryOp op = bin.op;
  const Expr &A = *bin.lhs, &B = *bin.rhs;
  if (!A.type.isIntegral() || !B.type.isIntegral()) return fresh(Type::boolean(), "cmp");
  z3::expr a = eval(A), b = eval(B);
  if (a.is_bool() && b.is_bool()) {
    if (op == BinaryOp::Eq) return a == b;
    if (op == BinaryOp::Ne) return a != b;
  }
  if (a.is_bool()) a = z3::ite(a, c.bv_val(1, 32), c.bv_val(0, 32));
  if (b.is_bool()) b = z3::ite(b, c.bv_val(1, 32), c.bv_val(0, 32));
  unsigned w = std::max(a.get_sort().bv_size(), b.get_sort().bv_size());
  bool sg = A.type.is_signed && B.type.is_signed;
  a = resize(a, w, A.type.is_signed);
  b = resize(b, w, B.type.is_signed);
  switch (op) {
    case BinaryOp::Lt: return sg ? z3::slt(a, b) : z3::ult(a, b);
    case BinaryOp::Le: return sg ? z3::sle(a, b) : z3::ule(a, b);
    case BinaryOp::Gt: return sg ? z3::sgt(a, b) : z3::ugt(a, b);
    case BinaryOp::Ge: return sg ? z3::sge(a, b) : z3::uge(a, b);
    case BinaryOp::Eq: return a == b;
    default: return a != b;
  }
}

// Integer arithmetic in the result's type; signed operations do not overflow and
// divisors are not zero where they are evaluated (UB otherwise).
z3::expr Exec::evalArith(const Expr &e) {
  z3::context &c = enc.ctx;
  const Type &ty = e.type;
  const ex::Binary &bin = *e.as<ex::Binary>();
  BinaryOp op = bin.op;
  const Expr &A = *bin.lhs, &B = *bin.rhs;
  unsigned w = ty.bits;
  z3::expr a = eval(A), b = eval(B);
  if (a.is_bool()) a = z3::ite(a, c.bv_val(1, w), c.bv_val(0, w));
  if (b.is_bool()) b = z3::ite(b, c.bv_val(1, w), c.bv_val(0, w));
  a = resize(a, w, A.type.is_signed);
  b = resize(b, w, B.type.is_signed);
  bool sg = ty.is_signed;
  // Operations on constants fold (an --assume's `8192 + 8192 + ...` is one number, not
  // 50,000 terms with a fact each); one whose UB is certain keeps its false fact.
  const bool constant = a.is_numeral() && b.is_numeral();
  auto fold = [&](const z3::expr &r) { return constant ? r.simplify() : r; };
  auto signedOp = [&](const z3::expr &r, const z3::expr &fits) {
    if (constant && (!sg || fits.simplify().is_true())) return r.simplify();
    if (sg)
      ub(fits, std::string("no signed overflow of '") + model::binaryOpName(op) + "'"), enc.signedOp(r, pc());
    return r;
  };
  switch (op) {
    case BinaryOp::Add:
      return signedOp(a + b, z3::bvadd_no_overflow(a, b, true) && z3::bvadd_no_underflow(a, b));
    case BinaryOp::Sub:
      return signedOp(a - b, z3::bvsub_no_overflow(a, b) && z3::bvsub_no_underflow(a, b, true));
    case BinaryOp::Mul:
      // x * (1 << k), or 1 << k shifted right, is a shift: the same bits, with no multiplier
      // to bit-blast (timesPowerOfTwo)
      for (const auto &[x, p] : {std::pair{a, b}, std::pair{b, a}})
        if (std::optional<PowerOfTwoProduct> t = timesPowerOfTwo(x, p)) return signedOp(t->bits, t->fits);
      return signedOp(a * b, signedMulFits(a, b));
    case BinaryOp::Div:
    case BinaryOp::Rem: {
      z3::expr r =
          op == BinaryOp::Div ? (sg ? a / b : z3::udiv(a, b)) : (sg ? z3::srem(a, b) : z3::urem(a, b));
      z3::expr nonzero = b != c.bv_val(0, w), fits = sg ? z3::bvsdiv_no_overflow(a, b) : c.bool_val(true);
      if (constant && (nonzero && fits).simplify().is_true()) return r.simplify();
      ub(nonzero, std::string("no division by zero in '") + model::binaryOpName(op) + "'");
      if (sg) ub(fits, std::string("no signed overflow of '") + model::binaryOpName(op) + "'");
      return r;
    }
    case BinaryOp::Shl: return fold(z3::shl(a, b));
    case BinaryOp::Shr: return fold(sg ? z3::ashr(a, b) : z3::lshr(a, b));
    case BinaryOp::BitAnd: return fold(a & b);
    case BinaryOp::BitOr: return fold(a | b);
    case BinaryOp::BitXor: return fold(a ^ b);
    default: return fresh(ty, "val");
  }
}

void Exec::mergeEnv(const z3::expr &cond, const Env &other) {
  for (const auto &[id, v] : other) {
    auto it = env.find(id);
    if (it == env.end()) {
      env.emplace(id, v);  // declared on that path only
      continue;
    }
    if (z3::eq(it->second, v) || it->second.is_bool() != v.is_bool() ||
        (!v.is_bool() && v.get_sort().bv_size() != it->second.get_sort().bv_size()))
      continue;
    it->second = z3::ite(cond, v, it->second);
  }
}

z3::expr Exec::evalAtEntry(const Expr &e) {
  pc_ = enc.ctx.bool_val(true);
  return boolOf(e);
}

z3::expr Exec::evalUnder(const Expr &e, const z3::expr &cond, bool as_bool) {
  z3::expr saved = pc();
  pc_ = saved && cond;
  z3::expr v = as_bool ? boolOf(e) : eval(e);
  pc_ = saved;
  return v;
}

}  // namespace kverify::analysis::detail
