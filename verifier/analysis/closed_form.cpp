// Loop updates with a closed form: x after k iterations, without unrolling.
#include "analysis/closed_form.hpp"
#include "analysis/body_walks.hpp"
#include "analysis/solve.hpp"

namespace kverify::analysis::detail {

static z3::expr shiftAmount(const z3::expr &j, int64_t shift, unsigned w);

namespace {

// e does not change in the loop: it reads nothing the loop assigns, and no opaque value.
bool loopInvariant(const Expr &e, const std::map<unsigned, int> &mods) {
  bool opq = false;
  return !mentions(e, mods, opq) && !opq;
}

// e is local x (up to casts that keep its width).
bool isLocal(const ExprPtr &e, const model::Local &x) {
  const auto *l = stripSameWidthCasts(e.get())->as<ex::Local>();
  return l && l->id == x.id;
}

// e is an integer constant (up to casts): its value in c.
bool constantOf(const ExprPtr &e, int64_t &c) {
  const Expr *s = e.get();
  while (const auto *cast = s->as<ex::Cast>()) s = cast->arg.get();
  const auto *k = s->as<ex::Const>();
  if (!k || s->type.kind != Type::Kind::Int) return false;
  c = k->int_value;
  return true;
}

// x * 2^m (or x << m), m >= 1: the scaled half of an affine update
bool scaledLocal(const ExprPtr &e, const model::Local &x, int64_t &m) {
  const Expr *se = stripSameWidthCasts(e.get());
  const auto *s = se->as<ex::Binary>();
  if (!s || se->type.kind != Type::Kind::Int || se->type.bits != x.type.bits) return false;
  if (s->op == BinaryOp::Shl) return isLocal(s->lhs, x) && constantOf(s->rhs, m) && m >= 1 && m < 64;
  if (s->op != BinaryOp::Mul) return false;
  const ExprPtr &k = isLocal(s->lhs, x) ? s->rhs : s->lhs;
  int64_t c = 0;
  if ((!isLocal(s->lhs, x) && !isLocal(s->rhs, x)) || !constantOf(k, c) || c < 2 || (c & (c - 1)) != 0)
    return false;
  for (m = 0; (int64_t(1) << m) != c; ++m) {}
  return true;
}

// x = x + c, c + x, x * 2^m + c or c + x * 2^m (c loop-invariant): Add or Affine.
std::optional<ClosedForm> sumForm(const model::Local &x, const ex::Binary &bin, const Type &t,
                                  const std::map<unsigned, int> &mods) {
  const ExprPtr &a = bin.lhs, &b = bin.rhs;
  int64_t m = 0;
  if (isLocal(a, x) && loopInvariant(*b, mods)) return ClosedForm{ClosedForm::Add, t, b, 0};
  if (isLocal(b, x) && loopInvariant(*a, mods)) return ClosedForm{ClosedForm::Add, t, a, 0};
  if (scaledLocal(a, x, m) && loopInvariant(*b, mods)) return ClosedForm{ClosedForm::Affine, t, b, m};
  if (scaledLocal(b, x, m) && loopInvariant(*a, mods)) return ClosedForm{ClosedForm::Affine, t, a, m};
  return std::nullopt;
}

// x = x * 2^m - c (Affine, negated), c - x (Flip) or x - c (Sub), c loop-invariant.
std::optional<ClosedForm> differenceForm(const model::Local &x, const ex::Binary &bin, const Type &t,
                                         const std::map<unsigned, int> &mods) {
  const ExprPtr &a = bin.lhs, &b = bin.rhs;
  int64_t m = 0;
  if (scaledLocal(a, x, m) && loopInvariant(*b, mods)) {
    ClosedForm cf{ClosedForm::Affine, t, b, m};
    cf.negate = true;
    return cf;
  }
  if (isLocal(b, x) && loopInvariant(*a, mods)) return ClosedForm{ClosedForm::Flip, t, a, 0};
  if (!isLocal(a, x) || !loopInvariant(*b, mods)) return std::nullopt;
  return ClosedForm{ClosedForm::Sub, t, b, 0};
}

// x = x << c or x >> c, c a constant below 64.
std::optional<ClosedForm> shiftForm(const model::Local &x, const ex::Binary &bin, const Type &t) {
  int64_t c = 0;
  if (!isLocal(bin.lhs, x) || !constantOf(bin.rhs, c) || c < 0 || c >= 64) return std::nullopt;
  ClosedForm::Op op = bin.op == BinaryOp::Shl ? ClosedForm::Shl
                      : t.is_signed           ? ClosedForm::AShr
                                              : ClosedForm::LShr;
  return ClosedForm{op, t, nullptr, c};
}

// x = x * 2^m, 2^m * x or x / 2^m: a shift by m (SDiv for a signed division, which
// rounds toward zero).
std::optional<ClosedForm> powerOfTwoForm(const model::Local &x, const ex::Binary &bin, const Type &t) {
  const ExprPtr &a = bin.lhs, &b = bin.rhs;
  const ExprPtr *other = nullptr;
  if (isLocal(a, x))
    other = &b;
  else if (bin.op == BinaryOp::Mul && isLocal(b, x))
    other = &a;
  int64_t c = 0;
  if (!other || !constantOf(*other, c) || c <= 0 || (c & (c - 1)) != 0) return std::nullopt;
  int sh = 0;
  while ((int64_t(1) << sh) != c) ++sh;
  if (bin.op == BinaryOp::Div)
    return ClosedForm{t.is_signed ? ClosedForm::SDiv : ClosedForm::LShr, t, nullptr, sh};
  ClosedForm cf{ClosedForm::Shl, t, nullptr, sh};
  cf.mul = true;
  return cf;
}

}  // namespace

std::optional<ClosedForm> classify(const model::Local &x, const ExprPtr &value_ptr,
                                   const std::map<unsigned, int> &mods) {
  const Expr &value = *value_ptr;
  if (x.type.kind != Type::Kind::Int) return std::nullopt;
  if (value.type == x.type && loopInvariant(value, mods))  // `p = tile` re-points a pointer each time
    return ClosedForm{ClosedForm::Set, x.type, value_ptr, 0};
  const Expr *v = stripSameWidthCasts(&value);
  const auto *bin = v->as<ex::Binary>();
  if (!bin || v->type.kind != Type::Kind::Int || v->type.bits != x.type.bits) return std::nullopt;
  switch (bin->op) {
    case BinaryOp::Add: return sumForm(x, *bin, v->type, mods);
    case BinaryOp::Sub: return differenceForm(x, *bin, v->type, mods);
    case BinaryOp::Shl:
    case BinaryOp::Shr: return shiftForm(x, *bin, v->type);
    case BinaryOp::Mul:
    case BinaryOp::Div: return powerOfTwoForm(x, *bin, v->type);
    default: return std::nullopt;
  }
}

// Swaps `t = a; a = b; b = t;` among the top-level statements of an iteration (the
// double-buffer pointer swap): a, b and t each assigned once in the loop and in this
// order, so t and then a read start-of-iteration values and b gets a's. Adds a Swap form
// for a and for b.
void findSwaps(const std::vector<const st::Assign *> &top, const std::map<unsigned, int> &mods,
               std::map<unsigned, ClosedForm> &forms) {
  auto once = [&](unsigned id) {
    auto it = mods.find(id);
    return it != mods.end() && it->second == 1;
  };
  // the local a plain copy `x = y` reads, or none
  auto copyOf = [](const st::Assign &s) -> std::optional<unsigned> {
    if (!s.value || s.local.type.kind != Type::Kind::Int) return std::nullopt;
    const Expr *v = stripSameWidthCasts(s.value.get());
    const auto *l = v->as<ex::Local>();
    if (!l || v->type.kind != Type::Kind::Int || v->type.bits != s.local.type.bits) return std::nullopt;
    return l->id;
  };
  for (size_t i = 0; i < top.size(); ++i) {  // t = a
    auto a = copyOf(*top[i]);
    unsigned t = top[i]->local.id;
    if (!a || *a == t || !once(t) || !once(*a)) continue;
    for (size_t j = i + 1; j < top.size(); ++j) {  // a = b
      auto b = copyOf(*top[j]);
      if (top[j]->local.id != *a || !b || *b == *a || *b == t || !once(*b)) continue;
      for (size_t l = j + 1; l < top.size(); ++l)  // b = t
        if (top[l]->local.id == *b && copyOf(*top[l]) == t &&
            top[l]->local.type.bits == top[j]->local.type.bits) {
          Type ty = top[j]->local.type;
          forms.insert_or_assign(*a, ClosedForm{ClosedForm::Swap, ty, nullptr, 0, *b});
          forms.insert_or_assign(*b, ClosedForm{ClosedForm::Swap, ty, nullptr, 0, *a});
        }
    }
  }
}

std::map<unsigned, ClosedForm> loopForms(const st::Loop &s, const std::map<unsigned, int> &mods,
                                         bool has_break) {
  std::map<unsigned, ClosedForm> forms;
  auto assignedOnce = [&](unsigned id) {
    auto it = mods.find(id);
    return it != mods.end() && it->second == 1;
  };
  auto scanTop = [&](const model::Body &list) {
    for (const Stmt &x : list)
      if (const auto *a = x.as<st::Assign>(); a && a->value && assignedOnce(a->local.id))
        if (auto cf = classify(a->local, a->value, mods)) forms.emplace(a->local.id, *cf);
  };
  // after a `continue` the rest of the body is skipped: its updates have no closed form
  bool body_cont = hasKind<st::Continue>(s.body, false);
  if (!body_cont) scanTop(s.body);
  scanTop(s.step);
  if (!has_break) {  // a break between the three copies would leave half a swap
    std::vector<const st::Assign *> top;
    auto add = [&](const model::Body &list) {
      for (const Stmt &x : list)
        if (const auto *a = x.as<st::Assign>()) top.push_back(a);
    };
    if (!body_cont) add(s.body);
    add(s.step);
    findSwaps(top, mods, forms);
  }
  return forms;
}

z3::expr steppedAt(const ClosedForm &cf, const z3::expr &x0, const z3::expr &step, const z3::expr &j) {
  // (j mod 2^w) * c is j * c modulo 2^w: exactly what j updates give
  z3::expr prod = resize(j, x0.get_sort().bv_size(), false) * step;
  return cf.op == ClosedForm::Add ? x0 + prod : x0 - prod;
}

std::optional<z3::expr> inRangeAt(const ClosedForm &cf, const z3::expr &x0, const z3::expr &step,
                                  const z3::expr &j, bool x_signed) {
  z3::context &c = x0.ctx();
  unsigned w = x0.get_sort().bv_size();
  if (cf.op == ClosedForm::Shl) {
    // x0 * 2^amt in range: shifting back gives x0 (amt reaches w, where only 0 stays 0)
    z3::expr amt = shiftAmount(j, cf.shift, w), there = z3::shl(x0, amt);
    return (x_signed ? z3::ashr(there, amt) : z3::lshr(there, amt)) == x0;
  }
  if (cf.op != ClosedForm::Add && cf.op != ClosedForm::Sub) return std::nullopt;
  // Both x0 and the result lie in a range of 2^w values, so |j*c| < 2^w: j < 2^w (unless
  // c = 0), and in w + 2 bits the product and the sum are exact where that holds (where
  // the product fits but the sum does not, the sum wraps to a value outside x's range).
  auto ext = [&](const z3::expr &v, bool sg) { return sg ? z3::sext(v, 2) : z3::zext(v, 2); };
  z3::expr jw = z3::zext(j.extract(w - 1, 0), 2), cw = ext(step, cf.op_type.is_signed),
           xw = ext(x0, x_signed);
  z3::expr few = w >= 64 ? c.bool_val(true) : z3::ult(j, c.bv_val(uint64_t(1) << w, 64));
  z3::expr prod = jw * cw, exact = cf.op == ClosedForm::Add ? xw + prod : xw - prod;
  z3::expr low = exact.extract(w - 1, 0);
  return (step == c.bv_val(0, w) || few) && signedMulFits(jw, cw) && ext(low, x_signed) == exact;
}

bool overflowIsUndefined(const ClosedForm &cf, bool x_signed) {
  bool arith = cf.op == ClosedForm::Add || cf.op == ClosedForm::Sub || (cf.op == ClosedForm::Shl && cf.mul);
  return arith && cf.op_type.is_signed && x_signed;
}

// j * shift as a w-bit shift amount, w once it reaches w (a shift by w or more gives 0).
static z3::expr shiftAmount(const z3::expr &j, int64_t shift, unsigned w) {
  z3::context &c = j.ctx();
  z3::expr amt64 =
      z3::ite(z3::uge(j, c.bv_val(64, 64)), c.bv_val(64, 64), j * c.bv_val(static_cast<uint64_t>(shift), 64));
  return w >= 64 ? amt64 : z3::ite(z3::uge(amt64, c.bv_val(w, 64)), c.bv_val(w, w), amt64.extract(w - 1, 0));
}

z3::expr shiftedAt(const ClosedForm &cf, const z3::expr &x0, const z3::expr &j) {
  if (cf.shift == 0) return x0;
  z3::context &c = x0.ctx();
  unsigned w = x0.get_sort().bv_size();
  z3::expr amt = shiftAmount(j, cf.shift, w);
  z3::expr v = cf.op == ClosedForm::Shl    ? z3::shl(x0, amt)
               : cf.op == ClosedForm::LShr ? z3::lshr(x0, amt)
                                           : z3::ashr(x0, amt);
  // dividing k times by 2^c is dividing once by 2^(kc) (both round toward zero): the
  // floor ashr gives, plus one where a negative x0 leaves a remainder
  if (cf.op == ClosedForm::SDiv) {
    z3::expr zero = c.bv_val(0, w), low = z3::shl(c.bv_val(1, w), amt) - c.bv_val(1, w);
    v = v + z3::ite(z3::slt(x0, zero) && (x0 & low) != zero, c.bv_val(1, w), zero);
  }
  return v;
}

z3::expr affineAt(const ClosedForm &cf, const z3::expr &x0, const z3::expr &d, const z3::expr &j) {
  z3::context &c = x0.ctx();
  unsigned w = x0.get_sort().bv_size();
  // c^j = 2^(m*j) is a shift (0 once m*j >= w, as modulo 2^w); 1 + c + ... + c^(j-1) =
  // (c^j - 1) / (c - 1), and c - 1 is odd: dividing is multiplying by its inverse mod 2^w
  z3::expr amt = shiftAmount(j, cf.shift, w);
  z3::expr power = z3::shl(c.bv_val(1, w), amt);
  uint64_t odd = (uint64_t(1) << cf.shift) - 1, inv = 1;
  for (int i = 0; i < 6; ++i) inv *= 2 - odd * inv;  // Newton: inverse modulo 2^64
  z3::expr sum = (power - c.bv_val(1, w)) * c.bv_val(inv, w);
  z3::expr step = cf.negate ? -d : d;
  return z3::shl(x0, amt) + step * sum;
}

}  // namespace kverify::analysis::detail
