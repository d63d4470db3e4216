// The oracle's interpreter: the expressions of one thread, their values, undefined
// behaviour and seeded values (interpret.hpp).
#include "oracle/interpret.hpp"

#include <cmath>
#include <limits>

namespace kverify::oracle::detail {

namespace {

uint64_t hashString(const std::string &s) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

bool isSignedInt(const Type &t) { return t.kind == Type::Kind::Int && t.is_signed; }

}  // namespace

Value Thread::eval(const Expr &e) {
  return std::visit(
      model::Overloaded{
          [&](const ex::Const &c) {
            if (e.type.kind == Type::Kind::Float) return floatValue(e.type, c.float_value);
            return intValue(e.type, static_cast<uint64_t>(c.int_value));
          },
          [&](const ex::Param &p) { return param(e.type, p.name); },
          [&](const ex::NotNull &) { return intValue(e.type, 1); },
          [&](const ex::Address &a) { return intValue(e.type, (uint64_t(a.array) + 1) << 20); },
          [&](const ex::Builtin &b) { return builtin(e.type, b.which); },
          [&](const ex::Local &l) { return local(e.type, l.id); },
          [&](const ex::Opaque &o) { return opaque(e, o); },
          [&](const ex::Unary &u) { return unary(e.type, u); },
          [&](const ex::Binary &b) { return binary(e.type, b); },
          [&](const ex::Select &s) {
            const Expr &arm = truth(*s.cond) ? *s.then_value : *s.else_value;
            return convert(e.type, arm, eval(arm));
          },
          [&](const ex::Cast &c) { return convert(e.type, *c.arg, eval(*c.arg)); },
          [&](const ex::Element &m) {  // what a read of an array nothing writes gives
            int64_t index = static_cast<int64_t>(convert(Type::i64(), *m.index, eval(*m.index)).i);
            return drawn(
                e.type, hashOf({launch_.seed, 0xc0de, m.array, static_cast<uint64_t>(index), m.count}), true);
          },
      },
      e.node);
}

bool Thread::truth(const Expr &e) {
  Value v = eval(e);
  return e.type.kind == Type::Kind::Float ? v.f != 0 : v.i != 0;
}

std::optional<int64_t> Thread::integer(const Expr &e) {
  if (!e.type.isIntegral()) return std::nullopt;
  return static_cast<int64_t>(eval(e).i);
}

// A seeded value of type t from hash h: mostly small, sometimes ids (unless
// `same_for_all`: then only h decides it), sometimes anything.
Value Thread::drawn(const Type &t, uint64_t h, bool same_for_all) {
  seeded = true;
  if (t.kind == Type::Kind::Float) {
    return floatValue(t, static_cast<double>(static_cast<int64_t>(mix(h) % 2001) - 1000) / 8);
  }
  if (t.kind == Type::Kind::Bool) return intValue(t, mix(h) & 1);
  uint64_t r = mix(h ^ 0x1234);
  uint64_t pick = r % 16, v;
  // Full-range values make signed arithmetic overflow (UB: the run is lost) in nearly
  // every thread, so they are only drawn for one seed in four.
  if (pick >= 14 && launch_.seed % 4 != 3) pick = 0;
  if (same_for_all && pick >= 10 && pick <= 13 && (pick < 13 || !isSignedInt(t))) pick = 0;
  if (pick < 10)
    v = mix(h) % (2 * block_size_ + 1);
  else if (pick == 10)
    v = trace_.id.thread[0];
  else if (pick == 11)
    v = trace_.linear;
  else if (pick == 12)
    v = global_linear_;
  else if (pick == 13)  // signed: a small negative value; else threadIdx.y
    v = isSignedInt(t) ? 0 - (1 + mix(h) % (block_size_ + 1)) : trace_.id.thread[1];
  else
    v = mix(h + 7);
  return intValue(t, v);
}

Value Thread::param(const Type &type, const std::string &name) {
  auto it = launch_.params.find(name);
  if (it != launch_.params.end()) {
    if (type.kind == Type::Kind::Float) return floatValue(type, double(it->second));
    if (type.kind == Type::Kind::Bool) return intValue(type, it->second != 0);
    return intValue(type, static_cast<uint64_t>(it->second));
  }
  seeded = true;
  uint64_t h = hashOf({launch_.seed, hashString(name), 0x9a9a});
  if (type.kind == Type::Kind::Bool) return intValue(type, mix(h) & 1);
  if (type.kind == Type::Kind::Float) return floatValue(type, double(mix(h) % 65));
  if (type.kind == Type::Kind::Pointer || type.kind == Type::Kind::Other)
    return intValue(type, (mix(h) | 1) << 8);  // non-null, distinct per name
  // Small: 0..64, or the block size (or twice it), or 1.
  uint64_t pick = mix(h ^ 0x55) % 8, v;
  if (pick < 5)
    v = mix(h) % 65;
  else if (pick == 5)
    v = block_size_;
  else if (pick == 6)
    v = 2 * block_size_;
  else
    v = 1;
  return intValue(type, v);
}

Value Thread::builtin(const Type &type, model::Builtin which) {
  const ThreadId &id = trace_.id;
  uint64_t v = 0;
  switch (which) {
    case model::Builtin::ThreadIdxX: v = id.thread[0]; break;
    case model::Builtin::ThreadIdxY: v = id.thread[1]; break;
    case model::Builtin::ThreadIdxZ: v = id.thread[2]; break;
    case model::Builtin::BlockIdxX: v = id.block[0]; break;
    case model::Builtin::BlockIdxY: v = id.block[1]; break;
    case model::Builtin::BlockIdxZ: v = id.block[2]; break;
    case model::Builtin::BlockDimX: v = launch_.block[0]; break;
    case model::Builtin::BlockDimY: v = launch_.block[1]; break;
    case model::Builtin::BlockDimZ: v = launch_.block[2]; break;
    case model::Builtin::GridDimX: v = grid_[0]; break;
    case model::Builtin::GridDimY: v = grid_[1]; break;
    case model::Builtin::GridDimZ: v = grid_[2]; break;
    case model::Builtin::WarpSize: v = 32; break;
  }
  return intValue(type, v);
}

Value Thread::local(const Type &type, unsigned id) {
  auto it = locals_.find(id);
  if (it != locals_.end()) return it->second;
  Value v = drawn(type, hashOf({launch_.seed, 0x10ca1, id, global_linear_}));
  locals_[id] = v;
  return v;
}

Value Thread::opaque(const Expr &e, const ex::Opaque &o) {
  uint64_t n = evaluations_[&e]++;
  if (auto c = last_constant_read_.find(o.id); c != last_constant_read_.end())
    return drawn(e.type,
                 hashOf({launch_.seed, 0xc0de, c->second.array, static_cast<uint64_t>(c->second.first),
                         c->second.count}),
                 true);
  auto tk = last_ticket_.find(o.id);
  if (tk != last_ticket_.end()) return intValue(e.type, tk->second);
  if (auto fl = last_flag_.find(o.id); fl != last_flag_.end()) return intValue(e.type, fl->second);
  auto read = last_read_.find(o.id);
  if (read != last_read_.end()) {  // a shared location: one value per block and interval
    const Location &at = read->second;
    if (std::optional<Value> v = forwarded(e.type, at)) return *v;
    // an array the kernel never writes keeps its contents through every interval
    bool changes = written(at.array);
    return drawn(e.type,
                 hashOf({launch_.seed, 0x5ead, at.array, static_cast<uint64_t>(at.first), at.count,
                         block_linear_, changes ? block_phase_ : 0, changes ? any_phase_ : 0}),
                 true);
  }
  if (o.per_block) {  // uniform over the block
    seeded = true;
    uint64_t h = hashOf({launch_.seed, 0xb10c, o.id, block_linear_, n});
    if (e.type.kind == Type::Kind::Int) return intValue(e.type, mix(h) % (block_size_ + 1));
    return drawn(e.type, h);
  }
  return drawn(e.type, hashOf({launch_.seed, 0x0a0a, o.id, global_linear_, n}));
}

Value Thread::unary(const Type &type, const ex::Unary &u) {
  const Expr &a = *u.arg;
  switch (u.op) {
    case UnaryOp::LNot: return intValue(type, !truth(a));
    case UnaryOp::BitNot: return intValue(type, ~eval(a).i);
    case UnaryOp::BitReverse: {
      uint64_t v = eval(a).i, r = 0;
      for (unsigned i = 0; i < type.bits; ++i) r |= ((v >> i) & 1) << (type.bits - 1 - i);
      return intValue(type, r);
    }
    case UnaryOp::Neg: {
      Value v = eval(a);
      if (type.kind == Type::Kind::Float) return floatValue(type, -v.f);
      if (isSignedInt(type)) {
        Value r = intValue(type, 0 - v.i);
        if (v.i != 0 && r.i == v.i) ub("signed overflow in negation");
        return r;
      }
      return intValue(type, 0 - v.i);
    }
  }
  return {};
}

// Converts a value of a's type to type t (C conversion).
Value Thread::convert(const Type &t, const Expr &a, Value v) {
  const Type &s = a.type;
  if (s == t) return v;
  bool sf = s.kind == Type::Kind::Float, tf = t.kind == Type::Kind::Float;
  if (sf && tf) return floatValue(t, v.f);
  if (!sf && tf) {
    double d = isSignedInt(s) ? double(static_cast<int64_t>(v.i)) : double(v.i);
    return floatValue(t, d);
  }
  if (sf) {  // float -> bool / int
    if (t.kind == Type::Kind::Bool) return intValue(t, v.f != 0);
    double d = std::trunc(v.f);
    unsigned w = widthOf(t);
    bool ok = std::isfinite(d);
    if (ok && isSignedInt(t)) {
      double lo = -std::ldexp(1.0, int(w) - 1), hi = std::ldexp(1.0, int(w) - 1);
      ok = d >= lo && d < hi;
      if (ok) return intValue(t, static_cast<uint64_t>(static_cast<int64_t>(d)));
    } else if (ok) {
      ok = d >= 0 && d < std::ldexp(1.0, int(w));
      if (ok) return intValue(t, static_cast<uint64_t>(d));
    }
    return drawn(t, hashOf({launch_.seed, 0xf10a7, global_linear_, evaluations_[&a]++}));
  }
  // integral/pointer/other -> integral/pointer/other: the value (sign- or zero-extended
  // by the source, already so in its normal form), truncated to the target.
  if (t.kind == Type::Kind::Bool) return intValue(t, v.i != 0);
  return intValue(t, v.i);
}

Value Thread::binary(const Type &type, const ex::Binary &bin) {
  const Expr &a = *bin.lhs, &b = *bin.rhs;
  BinaryOp op = bin.op;
  if (op == BinaryOp::LAnd) return intValue(type, truth(a) && truth(b));
  if (op == BinaryOp::LOr) return intValue(type, truth(a) || truth(b));
  Value x = eval(a), y = eval(b);
  const Type &t = a.type;  // the operands' common type (shifts: the left one)
  if (t.kind == Type::Kind::Float) return floatBinary(type, op, x.f, y.f);
  bool sgn = isSignedInt(t);
  int64_t sx = static_cast<int64_t>(x.i), sy = static_cast<int64_t>(y.i);
  switch (op) {
    case BinaryOp::Lt: return intValue(type, sgn ? sx < sy : x.i < y.i);
    case BinaryOp::Le: return intValue(type, sgn ? sx <= sy : x.i <= y.i);
    case BinaryOp::Gt: return intValue(type, sgn ? sx > sy : x.i > y.i);
    case BinaryOp::Ge: return intValue(type, sgn ? sx >= sy : x.i >= y.i);
    case BinaryOp::Eq: return intValue(type, x.i == y.i);
    case BinaryOp::Ne: return intValue(type, x.i != y.i);
    default: break;
  }
  const Type &rt = type;
  bool rsgn = isSignedInt(rt);
  unsigned w = widthOf(rt);
  auto checked = [&](__int128 exact, const char *what) {
    Value r = intValue(rt, static_cast<uint64_t>(exact));
    if (rsgn && static_cast<__int128>(static_cast<int64_t>(r.i)) != exact)
      ub(std::string("signed overflow in ") + what);
    return r;
  };
  switch (op) {
    case BinaryOp::Add:
      if (rsgn) return checked(__int128(sx) + sy, "+");
      return intValue(rt, x.i + y.i);
    case BinaryOp::Sub:
      if (rsgn) return checked(__int128(sx) - sy, "-");
      return intValue(rt, x.i - y.i);
    case BinaryOp::Mul:
      if (rsgn) return checked(__int128(sx) * sy, "*");
      return intValue(rt, x.i * y.i);
    case BinaryOp::Div:
    case BinaryOp::Rem: {
      bool div = op == BinaryOp::Div;
      if (y.i == 0) ub(div ? "division by zero" : "remainder by zero");
      if (rsgn) {
        int64_t min = w >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (w - 1));
        if (sx == min && sy == -1) ub(div ? "signed overflow in /" : "signed overflow in %");
        return intValue(rt, static_cast<uint64_t>(div ? sx / sy : sx % sy));
      }
      return intValue(rt, div ? x.i / y.i : x.i % y.i);
    }
    case BinaryOp::Shl:
    case BinaryOp::Shr: {
      // The amount as an unsigned pattern of its own width; >= width: 0 or sign fill.
      uint64_t amount = y.i;
      if (widthOf(b.type) < 64) amount &= (uint64_t(1) << widthOf(b.type)) - 1;
      uint64_t v = normalise(rt, x.i);
      if (op == BinaryOp::Shl) return intValue(rt, amount >= w ? 0 : v << amount);
      if (rsgn) {
        int64_t sv = static_cast<int64_t>(v);
        return intValue(rt, static_cast<uint64_t>(amount >= w ? (sv < 0 ? -1 : 0) : sv >> amount));
      }
      uint64_t uv = w >= 64 ? v : v & ((uint64_t(1) << w) - 1);
      return intValue(rt, amount >= w ? 0 : uv >> amount);
    }
    case BinaryOp::BitAnd: return intValue(rt, x.i & y.i);
    case BinaryOp::BitOr: return intValue(rt, x.i | y.i);
    case BinaryOp::BitXor: return intValue(rt, x.i ^ y.i);
    default: break;
  }
  return {};
}

Value Thread::floatBinary(const Type &type, BinaryOp op, double x, double y) {
  switch (op) {
    case BinaryOp::Lt: return intValue(type, x < y);
    case BinaryOp::Le: return intValue(type, x <= y);
    case BinaryOp::Gt: return intValue(type, x > y);
    case BinaryOp::Ge: return intValue(type, x >= y);
    case BinaryOp::Eq: return intValue(type, x == y);
    case BinaryOp::Ne: return intValue(type, x != y);
    case BinaryOp::Add: return floatValue(type, x + y);
    case BinaryOp::Sub: return floatValue(type, x - y);
    case BinaryOp::Mul: return floatValue(type, x * y);
    case BinaryOp::Div: return floatValue(type, x / y);
    case BinaryOp::Rem: return floatValue(type, std::fmod(x, y));
    default: return floatValue(type, 0);  // bit operations on floats do not type-check
  }
}

}  // namespace kverify::oracle::detail
