// The bounds the integer abstraction reads off a query's top-level facts (intabs_bounds.hpp).
#include "analysis/intabs_bounds.hpp"
#include "analysis/terms.hpp"

namespace kverify::analysis::intabs {
namespace {

// A bit-vector constant of at most 64 bits: what the bounds are kept for.
bool isConst(const z3::expr &e) { return isBvConstant(e) && e.get_sort().bv_size() <= 64; }

// The largest unsigned value of e's width.
i128 top(const z3::expr &e) { return (i128(1) << e.get_sort().bv_size()) - 1; }

// e is a numeral of at most 64 bits: its value in v.
bool numeral(const z3::expr &e, i128 &v) {
  uint64_t u;
  if (!e.is_numeral_u64(u)) return false;
  v = u;
  return true;
}

}  // namespace

BoundsFromFacts::BoundsFromFacts(const z3::expr_vector &assertions) {
  for (unsigned i = 0; i < assertions.size(); ++i) collect(assertions[i]);
  for (int round = 0; round < 3; ++round)
    for (const z3::expr &f : facts) apply(f);
}

void BoundsFromFacts::collect(const z3::expr &e) {
  if (e.is_app() && e.decl().decl_kind() == Z3_OP_AND) {
    for (unsigned i = 0; i < e.num_args(); ++i) collect(e.arg(i));
    return;
  }
  facts.push_back(e);
}

// The unsigned value's bounds, forwards from the constants' (a few operations).
Itv BoundsFromFacts::of(const z3::expr &e, int depth) {
  i128 v;
  if (numeral(e, v)) return Itv::of(v);
  if (!e.is_bv() || e.get_sort().bv_size() > 64) return Itv::top();
  Itv full{0, top(e), false};
  if (isConst(e)) {
    auto it = bounds.find(e.decl().name().str());
    return it != bounds.end() ? it->second : full;
  }
  if (!e.is_app() || depth > 8) return full;
  auto fits = [&](const Itv &r) { return !r.wide && r.lo >= 0 && r.hi <= top(e) ? r : full; };
  switch (e.decl().decl_kind()) {
    case Z3_OP_ZERO_EXT: return of(e.arg(0), depth + 1);
    case Z3_OP_BADD:
    case Z3_OP_BMUL: {
      bool isAdd = e.decl().decl_kind() == Z3_OP_BADD;
      Itv r = of(e.arg(0), depth + 1);
      for (unsigned i = 1; i < e.num_args(); ++i)
        r = isAdd ? add(r, of(e.arg(i), depth + 1)) : mul(r, of(e.arg(i), depth + 1));
      return fits(r);
    }
    case Z3_OP_BUDIV:
    case Z3_OP_BUDIV_I: {
      Itv a = of(e.arg(0), depth + 1);
      if (numeral(e.arg(1), v) && v > 0) return {a.lo / v, a.hi / v, false};
      return full;
    }
    case Z3_OP_EXTRACT:
      if (e.lo() == 0) return fits(of(e.arg(0), depth + 1));
      return full;
    default: return full;
  }
}

// Every model has e's unsigned value in [lo, hi]: narrow the constants it is made of.
void BoundsFromFacts::tighten(const z3::expr &e, i128 lo, i128 hi, int depth) {
  if (!e.is_bv() || e.get_sort().bv_size() > 64 || !e.is_app() || depth > 8) return;
  i128 c;
  if (isConst(e)) {
    Itv cur = of(e);
    bounds[e.decl().name().str()] = {std::max(cur.lo, lo), std::min(cur.hi, hi), false};
    return;
  }
  switch (e.decl().decl_kind()) {
    case Z3_OP_ZERO_EXT: tighten(e.arg(0), lo, hi, depth + 1); break;
    case Z3_OP_EXTRACT:  // the low bits of a value that fits in them
      if (e.lo() == 0 && of(e.arg(0)).hi <= top(e)) tighten(e.arg(0), lo, hi, depth + 1);
      break;
    case Z3_OP_BADD:  // a + c, where a wrap-around would give less than c
      for (int i = 0; i < 2 && e.num_args() == 2; ++i)
        if (numeral(e.arg(1 - i), c) && lo >= c) tighten(e.arg(i), lo - c, hi - c, depth + 1);
      break;
    case Z3_OP_BUDIV:
    case Z3_OP_BUDIV_I:
      if (numeral(e.arg(1), c) && c > 0) tighten(e.arg(0), lo * c, hi * c + c - 1, depth + 1);
      break;
    default: break;
  }
}

// x <= y (strict: x < y), unsigned
void BoundsFromFacts::below(const z3::expr &x, const z3::expr &y, bool strict) {
  Itv a = of(x), b = of(y);
  if (!b.wide) tighten(x, 0, b.hi - strict);
  if (!a.wide) tighten(y, a.lo + strict, i128(1) << 64);  // (capped by y's width)
}

// One top-level fact: an equality or an unsigned comparison narrows both sides.
void BoundsFromFacts::apply(const z3::expr &f) {
  if (!f.is_app() || f.num_args() != 2 || !f.arg(0).is_bv()) return;
  const z3::expr a = f.arg(0), b = f.arg(1);
  switch (f.decl().decl_kind()) {
    case Z3_OP_EQ: {
      Itv ia = of(a), ib = of(b);
      if (!ib.wide) tighten(a, ib.lo, ib.hi);
      if (!ia.wide) tighten(b, ia.lo, ia.hi);
      break;
    }
    case Z3_OP_ULT: below(a, b, true); break;
    case Z3_OP_ULEQ: below(a, b, false); break;
    case Z3_OP_UGT: below(b, a, true); break;
    case Z3_OP_UGEQ: below(b, a, false); break;
    default: break;
  }
}

}  // namespace kverify::analysis::intabs
