// Integer abstraction of bit-vector queries (see intabs.hpp).
#include "analysis/intabs.hpp"
#include "analysis/intabs_bounds.hpp"
#include "analysis/terms.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace kverify::analysis {
namespace {

using namespace intabs;

std::string decimal(i128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  std::string s;
  for (i128 x = negative ? -v : v; x > 0; x /= 10) s.insert(s.begin(), char('0' + int(x % 10)));
  return negative ? "-" + s : s;
}

// A translated term: its integer value (as an unsigned number for bit-vectors) and the
// bounds on it; where known without an `ite`, its signed reading `s` too.
struct Term {
  z3::expr e;
  Itv r;
  std::optional<z3::expr> s = std::nullopt;
  Itv sr = Itv::top();
};

// x when e is |x| written as ite(x < 0, -x, x) (see signedMulFits in solve.cpp).
std::optional<z3::expr> magnitudeOf(const z3::expr &e) {
  if (!e.is_app() || e.decl().decl_kind() != Z3_OP_ITE) return std::nullopt;
  z3::expr cond = e.arg(0), neg = e.arg(1), x = e.arg(2);
  uint64_t zero = 1;
  bool ok = cond.is_app() && cond.decl().decl_kind() == Z3_OP_SLT && z3::eq(cond.arg(0), x) &&
            cond.arg(1).is_numeral_u64(zero) && zero == 0 && neg.is_app() &&
            neg.decl().decl_kind() == Z3_OP_BNEG && z3::eq(neg.arg(0), x);
  return ok ? std::optional<z3::expr>(x) : std::nullopt;
}

class Translator {
public:
  Translator(z3::context &c, const std::map<unsigned, z3::expr> &nov,
             const std::map<std::string, Itv> &bounds, const std::set<std::string> &signedConsts, bool linear)
      : c(c), side(c), nov(nov), bounds(bounds), signedConsts(signedConsts), linear(linear) {}
  z3::context &c;
  z3::expr_vector side;

  // Terms nested deeper than this are not translated (the abstraction is only a help:
  // without it, the bit-vector solver decides); deeper recursion would overflow the stack.
  static constexpr unsigned kMaxDepth = 1000;
  struct TooDeep {};
  Term tr(const z3::expr &e) {
    auto it = memo.find(e.id());
    if (it != memo.end()) return it->second;
    if (depth == kMaxDepth) throw TooDeep{};
    ++depth;
    struct Leave {
      unsigned &d;
      ~Leave() { --d; }
    } leave{depth};
    Term r = go(e);
    memo.emplace(e.id(), r);
    return r;
  }
  z3::expr formula(const z3::expr &e) { return tr(e).e; }

  // Facts about the products stood in for by fresh values (linear mode); all hold for
  // integer multiplication, so adding them keeps the abstraction sound. The pairwise ones
  // carry the injectivity arguments: with a shared factor b, a1 > a2 and b >= 0 give
  // a1*b - a2*b >= b, so a1*b + c1 == a2*b + c2 with 0 <= c1, c2 < b forces a1 == a2.
  void productLemmas() {
    for (const Product &p : products) {
      z3::expr a = p.a, b = p.b, x = p.p;
      side.push_back(z3::implies(a == 0 || b == 0, x == 0));
      side.push_back(z3::implies(a >= 0 && b >= 0, x >= 0));
      side.push_back(z3::implies(a <= 0 && b <= 0, x >= 0));
      side.push_back(z3::implies(a >= 0 && b <= 0, x <= 0));
      side.push_back(z3::implies(a <= 0 && b >= 0, x <= 0));
      for (int flip = 0; flip < 2; ++flip, std::swap(a, b)) {
        side.push_back(z3::implies(a >= 1 && b >= 0, x >= b));
        side.push_back(z3::implies(a >= 1 && b <= 0, x <= b));
        side.push_back(z3::implies(a <= -1 && b >= 0, x <= -b));
        side.push_back(z3::implies(a <= -1 && b <= 0, x >= -b));
      }
    }
    for (size_t i = 0; i < products.size(); ++i)
      for (size_t j = i + 1; j < products.size(); ++j) {
        const Product &p = products[i], &q = products[j];
        for (int fp = 0; fp < 2; ++fp)
          for (int fq = 0; fq < 2; ++fq) {
            const z3::expr &shared = fp ? p.b : p.a;
            if (!z3::eq(shared, fq ? q.b : q.a)) continue;
            const z3::expr &a1 = fp ? p.a : p.b, &a2 = fq ? q.a : q.b;
            z3::expr d = p.p - q.p, b = shared;
            side.push_back(z3::implies(a1 == a2, d == 0));
            side.push_back(z3::implies(a1 > a2 && b >= 0, d >= b));
            side.push_back(z3::implies(a1 > a2 && b <= 0, d <= b));
            side.push_back(z3::implies(a1 < a2 && b >= 0, d <= -b));
            side.push_back(z3::implies(a1 < a2 && b <= 0, d >= -b));
          }
      }
  }

private:
  const std::map<unsigned, z3::expr> &nov;
  const std::map<std::string, Itv> &bounds;
  const std::set<std::string> &signedConsts;
  std::map<unsigned, Term> memo;
  unsigned depth = 0;
  unsigned fresh_id = 0;
  bool linear;
  struct Product {
    z3::expr a, b, p;
  };
  std::vector<Product> products;
  std::map<std::pair<unsigned, unsigned>, z3::expr> productOf;

  // a*b; in linear mode a fresh value (see productLemmas) unless a factor is a number.
  Term product(const Term &a, const Term &b) {
    Itv r = mul(a.r, b.r);
    if (!linear || a.e.is_numeral() || b.e.is_numeral()) return {a.e * b.e, r};
    std::pair<unsigned, unsigned> key = std::minmax(a.e.id(), b.e.id());  // copies: minmax returns references
    auto it = productOf.find(key);
    if (it == productOf.end()) {
      it = productOf.emplace(key, fresh("p", r)).first;
      products.push_back(Product{a.e, b.e, it->second});
    }
    return {it->second, r};
  }

  z3::expr val(i128 v) { return c.int_val(decimal(v).c_str()); }
  static i128 pow2(unsigned w) { return i128(1) << w; }
  Term num(i128 v) { return {val(v), Itv::of(v)}; }

  // A fresh integer in [lo, hi].
  z3::expr fresh(const char *what, const Itv &r) {
    z3::expr x = c.int_const((std::string(what) + "!" + std::to_string(fresh_id++)).c_str());
    if (!r.wide) side.push_back(x >= val(r.lo) && x <= val(r.hi));
    return x;
  }
  Term freshBv(unsigned w) {
    Itv r{0, pow2(w) - 1, w > 100};
    return {fresh("ia", r), r};
  }

  // x mod 2^w, exactly: x itself when the bounds allow, else x - 2^w*q with a fresh q in
  // the few values the bounds leave (linear, which the non-linear solvers like).
  Term mod(const Term &x, unsigned w) {
    i128 m = w > 100 ? 0 : pow2(w);
    if (!m || x.r.wide) return {w > 100 ? x.e : z3::mod(x.e, val(m)), Itv{0, m - 1, !m}};
    if (x.r.within(0, m - 1)) return x;
    i128 qlo = floorDiv(x.r.lo, m), qhi = floorDiv(x.r.hi, m);
    z3::expr v = qlo == qhi ? x.e - val(qlo * m) : x.e - val(m) * fresh("q", {qlo, qhi, false});
    if (qlo != qhi) side.push_back(v >= 0 && v < val(m));
    return {v, {0, m - 1, false}};
  }
  // floor(x / d) for a constant d > 0: a fresh q with d*q <= x < d*q + d.
  Term div(const Term &x, i128 d) {
    if (d == 1) return x;
    if (x.r.wide) return {z3::expr(c, Z3_mk_div(c, x.e, val(d))), Itv::top()};
    Itv r{floorDiv(x.r.lo, d), floorDiv(x.r.hi, d), false};
    if (r.lo == r.hi) return num(r.lo);
    z3::expr q = fresh("d", r);
    side.push_back(val(d) * q <= x.e && x.e < val(d) * q + val(d));
    return {q, r};
  }
  // The signed reading of a w-bit unsigned value.
  Term sgn(const Term &u, unsigned w) {
    if (u.s) return {*u.s, u.sr};
    i128 h = pow2(w - 1);
    if (u.r.within(0, h - 1)) return u;
    if (u.r.within(h, 2 * h - 1)) return {u.e - val(2 * h), add(u.r, Itv::of(-2 * h))};
    return {z3::ite(u.e >= val(h), u.e - val(2 * h), u.e), Itv{-h, h - 1, false}};
  }
  // The w-bit unsigned value of an integer known to be in [-2^(w-1), 2^(w-1)).
  Term unsignedOf(const Term &s, unsigned w) {
    if (s.r.within(0, pow2(w) - 1)) return s;
    if (s.r.within(-pow2(w - 1), -1)) return {s.e + val(pow2(w)), add(s.r, Itv::of(pow2(w)))};
    return {z3::ite(s.e >= 0, s.e, s.e + val(pow2(w))), Itv{0, pow2(w) - 1, false}};
  }
  // A comparison the bounds decide, or the comparison.
  z3::expr compare(Z3_decl_kind k, const Term &a, const Term &b) {
    bool lt = !a.r.wide && !b.r.wide && a.r.hi < b.r.lo, ge = !a.r.wide && !b.r.wide && a.r.lo >= b.r.hi;
    bool le = !a.r.wide && !b.r.wide && a.r.hi <= b.r.lo, gt = !a.r.wide && !b.r.wide && a.r.lo > b.r.hi;
    switch (k) {
      case Z3_OP_ULT:
      case Z3_OP_SLT: return lt ? c.bool_val(true) : ge ? c.bool_val(false) : a.e < b.e;
      case Z3_OP_ULEQ:
      case Z3_OP_SLEQ: return le ? c.bool_val(true) : gt ? c.bool_val(false) : a.e <= b.e;
      case Z3_OP_UGT:
      case Z3_OP_SGT: return gt ? c.bool_val(true) : le ? c.bool_val(false) : a.e > b.e;
      default: return ge ? c.bool_val(true) : lt ? c.bool_val(false) : a.e >= b.e;
    }
  }

  Term go(const z3::expr &e) {
    if (e.is_numeral() && e.is_bv()) {
      uint64_t v;
      if (e.is_numeral_u64(v)) return num(v);
      std::string s;
      e.is_numeral(s);
      return {c.int_val(s.c_str()), Itv::top()};
    }
    unsigned w = e.is_bv() ? e.get_sort().bv_size() : 0;
    auto opaque = [&]() -> Term {
      if (e.is_bool()) return {c.bool_const(("ib!" + std::to_string(fresh_id++)).c_str()), Itv::top()};
      if (e.is_bv()) return freshBv(w);
      throw z3::exception("intabs: unsupported sort");
    };
    if (!e.is_app()) return opaque();
    z3::func_decl d = e.decl();
    Z3_decl_kind k = d.decl_kind();
    unsigned n = e.num_args();
    auto arg = [&](unsigned i) { return tr(e.arg(i)); };
    auto args = [&] {
      z3::expr_vector v(c);
      for (unsigned i = 0; i < n; ++i) v.push_back(arg(i).e);
      return v;
    };
    auto boolean = [&](const z3::expr &b) { return Term{b, Itv::top()}; };
    auto constArg = [&](unsigned i, uint64_t &v) { return e.arg(i).is_numeral_u64(v); };
    switch (k) {
      case Z3_OP_TRUE:
      case Z3_OP_FALSE: return boolean(c.bool_val(k == Z3_OP_TRUE));
      case Z3_OP_AND: return boolean(z3::mk_and(args()));
      case Z3_OP_OR: {
        // signedMulFits' "no positive overflow", shielded from Z3's folding: in integers,
        // exactly x * y < 2^(w-1)
        if (n == 2 && e.arg(1).is_app() && e.arg(1).decl().decl_kind() == Z3_OP_AND) {
          z3::expr last = e.arg(1).arg(e.arg(1).num_args() - 1);
          if (last.is_app() && last.decl().decl_kind() == Z3_OP_BSMUL_NO_OVFL) {
            std::optional<z3::expr> x = magnitudeOf(last.arg(0)), y = magnitudeOf(last.arg(1));
            unsigned aw = last.arg(0).get_sort().bv_size();
            if (x && y)
              return boolean(
                  compare(Z3_OP_ULT, product(sgn(tr(*x), aw), sgn(tr(*y), aw)), num(pow2(aw - 1))));
          }
        }
        return boolean(z3::mk_or(args()));
      }
      case Z3_OP_NOT: return boolean(!arg(0).e);
      case Z3_OP_IMPLIES: return boolean(z3::implies(arg(0).e, arg(1).e));
      case Z3_OP_XOR: return boolean(arg(0).e != arg(1).e);
      case Z3_OP_IFF: return boolean(arg(0).e == arg(1).e);
      case Z3_OP_EQ: {
        Term a = arg(0), b = arg(1);
        if (!a.r.wide && !b.r.wide && (a.r.hi < b.r.lo || b.r.hi < a.r.lo)) return boolean(c.bool_val(false));
        return boolean(a.e == b.e);
      }
      case Z3_OP_DISTINCT: return boolean(z3::distinct(args()));
      case Z3_OP_ITE: {
        Term t = arg(1), f = arg(2);
        return {z3::ite(arg(0).e, t.e, f.e), join(t.r, f.r)};
      }
      case Z3_OP_ULEQ:
      case Z3_OP_ULT:
      case Z3_OP_UGEQ:
      case Z3_OP_UGT: return boolean(compare(k, arg(0), arg(1)));
      case Z3_OP_BUMUL_NO_OVFL:
      case Z3_OP_BSMUL_NO_OVFL:
      case Z3_OP_BSMUL_NO_UDFL: {
        // the loop closed forms' "the counter does not wrap": the exact product in range
        unsigned aw = e.arg(0).get_sort().bv_size();
        bool sg = k != Z3_OP_BUMUL_NO_OVFL;
        Term a = sg ? sgn(arg(0), aw) : arg(0), b = sg ? sgn(arg(1), aw) : arg(1);

        Term p = product(a, b);
        if (k == Z3_OP_BUMUL_NO_OVFL) return boolean(compare(Z3_OP_ULT, p, num(pow2(aw))));
        if (k == Z3_OP_BSMUL_NO_OVFL) return boolean(compare(Z3_OP_ULT, p, num(pow2(aw - 1))));
        return boolean(compare(Z3_OP_SGEQ, p, num(-pow2(aw - 1))));
      }
      case Z3_OP_SLEQ:
      case Z3_OP_SLT:
      case Z3_OP_SGEQ:
      case Z3_OP_SGT: {
        unsigned aw = e.arg(0).get_sort().bv_size();
        return boolean(compare(k, sgn(arg(0), aw), sgn(arg(1), aw)));
      }
      case Z3_OP_BADD:
      case Z3_OP_BSUB:
      case Z3_OP_BMUL: {
        auto nv = nov.find(e.id());
        if (nv == nov.end() || n != 2) break;
        // a signed operation the program evaluates where `pc` holds: there it does not
        // overflow (undefined behaviour), so it is exact; elsewhere it wraps
        Term a = sgn(arg(0), w), b = sgn(arg(1), w);
        Term exact = k == Z3_OP_BADD   ? Term{a.e + b.e, add(a.r, b.r)}
                     : k == Z3_OP_BSUB ? Term{a.e - b.e, add(a.r, neg(b.r))}
                                       : product(a, b);
        Itv signedRange{-pow2(w - 1), pow2(w - 1) - 1, false};
        if (exact.r.within(signedRange.lo, signedRange.hi)) {
          Term u = unsignedOf(exact, w);
          return {u.e, u.r, exact.e, exact.r};
        }
        z3::expr pc = tr(nv->second).e;
        side.push_back(z3::implies(pc, exact.e >= val(signedRange.lo) && exact.e <= val(signedRange.hi)));
        // where the program does not evaluate it, any value will do (over-approximation)
        Term other = freshBv(w);
        Term inRange = unsignedOf({exact.e, signedRange}, w);
        return {z3::ite(pc, inRange.e, other.e), other.r, z3::ite(pc, exact.e, sgn(other, w).e), signedRange};
      }
      default: break;
    }
    switch (k) {
      case Z3_OP_BADD: {
        Term s = arg(0);
        for (unsigned i = 1; i < n; ++i) {
          Term a = arg(i);
          s = {s.e + a.e, add(s.r, a.r)};
        }
        return mod(s, w);
      }
      case Z3_OP_BSUB: {
        Term a = arg(0), b = arg(1);
        return mod({a.e - b.e, add(a.r, neg(b.r))}, w);
      }
      case Z3_OP_BNEG: {
        Term a = arg(0);
        return mod({val(pow2(w)) - a.e, add(Itv::of(pow2(w)), neg(a.r))}, w);
      }
      case Z3_OP_BMUL: {
        Term s = arg(0);
        for (unsigned i = 1; i < n; ++i) {
          Term a = arg(i);
          s = product(s, a);
        }
        return mod(s, w);
      }
      case Z3_OP_BNOT: {
        Term a = arg(0);
        return {val(pow2(w) - 1) - a.e, add(Itv::of(pow2(w) - 1), neg(a.r))};
      }
      case Z3_OP_ZERO_EXT: return arg(0);
      case Z3_OP_SIGN_EXT: {
        unsigned aw = e.arg(0).get_sort().bv_size();
        Term s = sgn(arg(0), aw);
        return unsignedOf(s, w);
      }
      case Z3_OP_EXTRACT: {
        Term a = arg(0);
        return mod(div(a, pow2(e.lo())), e.hi() - e.lo() + 1);
      }
      case Z3_OP_CONCAT: {
        Term s = arg(0);
        for (unsigned i = 1; i < n; ++i) {
          Term a = arg(i);
          i128 m = pow2(e.arg(i).get_sort().bv_size());
          s = {s.e * val(m) + a.e, add(mul(s.r, Itv::of(m)), a.r)};
        }
        return s;
      }
      case Z3_OP_BSHL: {
        uint64_t v;
        if (!constArg(1, v)) return freshBv(w);
        if (v >= w) return num(0);
        Term a = arg(0);
        return mod({a.e * val(pow2(unsigned(v))), mul(a.r, Itv::of(pow2(unsigned(v))))}, w);
      }
      case Z3_OP_BLSHR: {
        uint64_t v;
        if (constArg(1, v)) return v >= w ? num(0) : div(arg(0), pow2(unsigned(v)));
        Term r = freshBv(w);
        side.push_back(r.e <= arg(0).e);
        return r;
      }
      case Z3_OP_BASHR: {
        uint64_t v;
        if (!constArg(1, v)) return freshBv(w);
        unsigned sh = v >= w ? w - 1 : unsigned(v);
        // floor division: an arithmetic shift
        return unsignedOf(div(sgn(arg(0), w), pow2(sh)), w);
      }
      case Z3_OP_BUDIV:
      case Z3_OP_BUDIV_I: {
        uint64_t v;
        if (constArg(1, v) && v != 0) return div(arg(0), v);
        return freshBv(w);  // x/0 is all ones in SMT-LIB: no bound by x
      }
      case Z3_OP_BUREM:
      case Z3_OP_BUREM_I: {
        uint64_t v;
        Term a = arg(0);
        if (constArg(1, v) && v != 0) {
          Term q = div(a, v);
          return {a.e - val(v) * q.e, Itv{0, std::min<i128>(v - 1, a.r.wide ? v - 1 : a.r.hi), false}};
        }
        Term r = freshBv(w);
        side.push_back(r.e <= a.e);
        return r;
      }
      case Z3_OP_BAND: {
        uint64_t v;
        for (unsigned i = 0; i < n && n == 2; ++i)
          if (constArg(i, v) && v != 0 && ((v + 1) & v) == 0) {
            unsigned bits = 0;
            while (bits < 64 && (v >> bits)) ++bits;
            return mod(arg(1 - i), bits);
          }
        Term r = freshBv(w);
        for (unsigned i = 0; i < n; ++i) side.push_back(r.e <= arg(i).e);
        return r;
      }
      case Z3_OP_BOR: {
        Term r = freshBv(w);
        for (unsigned i = 0; i < n; ++i) side.push_back(r.e >= arg(i).e);
        return r;
      }
      case Z3_OP_UNINTERPRETED: {
        std::string name = d.name().str();
        if (n == 0 && e.is_bool()) return boolean(c.bool_const((name + "!i").c_str()));
        if (n == 0 && e.is_bv()) {
          Itv r{0, pow2(w) - 1, w > 100};
          if (auto b = bounds.find(name); b != bounds.end()) r = b->second;
          if (!r.wide && r.lo == r.hi) return num(r.lo);
          z3::expr x = c.int_const((name + "!i").c_str());
          i128 h = pow2(w - 1);
          if (!r.wide && signedConsts.count(name) && !r.within(0, h - 1)) {
            // read as signed by the program: x is the signed value, the unsigned one an ite
            side.push_back(x >= val(-h) && x < val(h));
            return {z3::ite(x >= 0, x, x + val(2 * h)), r, x, Itv{-h, h - 1, false}};
          }
          if (!r.wide) side.push_back(x >= val(r.lo) && x <= val(r.hi));
          return {x, r};
        }
        if (n == 0) break;
        z3::sort_vector dom(c);
        z3::expr_vector as = args();
        for (unsigned i = 0; i < n; ++i) dom.push_back(as[i].get_sort());
        z3::func_decl f = c.function((name + "!i").c_str(), dom, e.is_bool() ? c.bool_sort() : c.int_sort());
        z3::expr r = f(as);
        if (!e.is_bv()) return boolean(r);
        Itv itv{0, pow2(w) - 1, w > 100};
        if (!itv.wide) side.push_back(r >= 0 && r <= val(itv.hi));
        return {r, itv};
      }
      default: break;
    }
    return opaque();
  }
};

// The bit-vector constants the query reads as signed numbers (operands of signed
// comparisons, sign extensions and signed arithmetic).
void signedUses(const z3::expr &root, const std::map<unsigned, z3::expr> &nov, std::set<unsigned> &seen,
                std::set<std::string> &out) {
  forEachTerm({root}, seen, [&](const z3::expr &e) {
    Z3_decl_kind k = e.decl().decl_kind();
    bool isSigned = k == Z3_OP_SLT || k == Z3_OP_SLEQ || k == Z3_OP_SGT || k == Z3_OP_SGEQ ||
                    k == Z3_OP_SIGN_EXT || k == Z3_OP_BASHR || nov.count(e.id());
    for (unsigned i = 0; isSigned && i < e.num_args(); ++i) {
      z3::expr a = e.arg(i);
      if (a.is_app() && a.num_args() == 0 && a.decl().decl_kind() == Z3_OP_UNINTERPRETED)
        out.insert(a.decl().name().str());
    }
    return true;
  });
}

}  // namespace

std::optional<z3::expr> integerAbstraction(const z3::expr_vector &assertions,
                                           const std::map<unsigned, z3::expr> &no_overflow, bool linear) {
  if (assertions.empty()) return std::nullopt;
  z3::context &c = assertions.ctx();
  try {
    BoundsFromFacts facts(assertions);
    for (auto &[name, r] : facts.bounds)
      if (r.lo > r.hi) return c.bool_val(false);  // the facts contradict each other
    std::set<unsigned> seen;
    std::set<std::string> signedConsts;
    for (unsigned i = 0; i < assertions.size(); ++i)
      signedUses(assertions[i], no_overflow, seen, signedConsts);
    Translator t(c, no_overflow, facts.bounds, signedConsts, linear);
    z3::expr_vector out(c);
    for (unsigned i = 0; i < assertions.size(); ++i) out.push_back(t.formula(assertions[i]));
    t.productLemmas();
    for (unsigned i = 0; i < t.side.size(); ++i) out.push_back(t.side[i]);
    return z3::mk_and(out);
  } catch (const z3::exception &) { return std::nullopt; } catch (const Translator::TooDeep &) {
    return std::nullopt;
  }
}

}  // namespace kverify::analysis
