// Integer abstraction of bit-vector queries (see intabs.hpp).
#include "analysis/intabs.hpp"

#include <map>
#include <string>

namespace kverify::analysis {
namespace {

class Translator {
public:
  Translator(z3::context &c, const std::map<unsigned, z3::expr> &nov) : c(c), side(c), nov(nov) {}
  z3::context &c;
  z3::expr_vector side;
  const std::map<unsigned, z3::expr> &nov;
  std::map<unsigned, z3::expr> memo;
  unsigned fresh_id = 0;

  z3::expr powval(unsigned w) {
    // 2^w as a decimal numeral
    std::string digits = "1";
    for (unsigned i = 0; i < w; ++i) {
      int carry = 0;
      for (int j = static_cast<int>(digits.size()) - 1; j >= 0; --j) {
        int d = (digits[j] - '0') * 2 + carry;
        digits[j] = static_cast<char>('0' + d % 10);
        carry = d / 10;
      }
      if (carry) digits.insert(digits.begin(), static_cast<char>('0' + carry));
    }
    return c.int_val(digits.c_str());
  }
  z3::expr range(const z3::expr &u, unsigned w) {
    side.push_back(u >= 0 && u < powval(w));
    return u;
  }
  z3::expr freshBv(unsigned w) {
    return range(c.int_const(("ia!" + std::to_string(fresh_id++)).c_str()), w);
  }
  z3::expr mod(const z3::expr &a, unsigned w) { return z3::mod(a, powval(w)); }
  z3::expr sgn(const z3::expr &u, unsigned w) {
    return z3::ite(u >= powval(w - 1), u - powval(w), u);
  }
  static bool numeral(const z3::expr &e, uint64_t &v) { return e.is_numeral_u64(v); }

  z3::expr tr(const z3::expr &e) {
    auto it = memo.find(e.id());
    if (it != memo.end()) return it->second;
    z3::expr r = go(e);
    memo.emplace(e.id(), r);
    return r;
  }

  z3::expr go(const z3::expr &e) {
    if (e.is_numeral() && e.is_bv()) {
      std::string s;
      e.is_numeral(s);
      return c.int_val(s.c_str());
    }
    if (!e.is_app()) return e.is_bool() ? c.bool_const(("ib!" + std::to_string(fresh_id++)).c_str()) : freshBv(width(e));
    z3::func_decl d = e.decl();
    Z3_decl_kind k = d.decl_kind();
    unsigned n = e.num_args();
    auto arg = [&](unsigned i) { return tr(e.arg(i)); };
    unsigned w = e.is_bv() ? e.get_sort().bv_size() : 0;
    switch (k) {
    case Z3_OP_TRUE: return c.bool_val(true);
    case Z3_OP_FALSE: return c.bool_val(false);
    case Z3_OP_AND: {
      z3::expr_vector v(c);
      for (unsigned i = 0; i < n; ++i) v.push_back(arg(i));
      return z3::mk_and(v);
    }
    case Z3_OP_OR: {
      z3::expr_vector v(c);
      for (unsigned i = 0; i < n; ++i) v.push_back(arg(i));
      return z3::mk_or(v);
    }
    case Z3_OP_NOT: return !arg(0);
    case Z3_OP_IMPLIES: return z3::implies(arg(0), arg(1));
    case Z3_OP_XOR: return arg(0) != arg(1);
    case Z3_OP_IFF: return arg(0) == arg(1);
    case Z3_OP_EQ: return arg(0) == arg(1);
    case Z3_OP_DISTINCT: {
      z3::expr_vector v(c);
      for (unsigned i = 0; i < n; ++i) v.push_back(arg(i));
      return z3::distinct(v);
    }
    case Z3_OP_ITE: return z3::ite(arg(0), arg(1), arg(2));
    case Z3_OP_ULEQ: return arg(0) <= arg(1);
    case Z3_OP_ULT: return arg(0) < arg(1);
    case Z3_OP_UGEQ: return arg(0) >= arg(1);
    case Z3_OP_UGT: return arg(0) > arg(1);
    case Z3_OP_SLEQ: case Z3_OP_SLT: case Z3_OP_SGEQ: case Z3_OP_SGT: {
      unsigned aw = e.arg(0).get_sort().bv_size();
      z3::expr a = sgn(arg(0), aw), b = sgn(arg(1), aw);
      if (k == Z3_OP_SLEQ) return a <= b;
      if (k == Z3_OP_SLT) return a < b;
      if (k == Z3_OP_SGEQ) return a >= b;
      return a > b;
    }
    case Z3_OP_BADD: case Z3_OP_BSUB: case Z3_OP_BMUL: {
      auto nv = nov.find(e.id());
      if (nv == nov.end() || n != 2) break;
      z3::expr a = sgn(arg(0), w), b = sgn(arg(1), w);
      z3::expr exact = k == Z3_OP_BADD ? a + b : k == Z3_OP_BSUB ? a - b : a * b;
      z3::expr wrapped = mod(exact, w);
      z3::expr u = z3::ite(exact >= 0, exact, exact + powval(w));
      z3::expr pc = tr(nv->second);
      // where the program evaluates it, it does not overflow (undefined behaviour)
      side.push_back(z3::implies(pc, exact >= -powval(w - 1) && exact < powval(w - 1)));
      return z3::ite(pc, u, wrapped);
    }
    default: break;
    }
    switch (k) {
    case Z3_OP_BADD: {
      z3::expr s = arg(0);
      for (unsigned i = 1; i < n; ++i) s = s + arg(i);
      return mod(s, w);
    }
    case Z3_OP_BSUB: return mod(arg(0) - arg(1), w);
    case Z3_OP_BNEG: return mod(powval(w) - arg(0), w);
    case Z3_OP_BMUL: {
      z3::expr s = arg(0);
      for (unsigned i = 1; i < n; ++i) s = s * arg(i);
      return mod(s, w);
    }
    case Z3_OP_BNOT: return powval(w) - 1 - arg(0);
    case Z3_OP_ZERO_EXT: return arg(0);
    case Z3_OP_SIGN_EXT: {
      unsigned aw = e.arg(0).get_sort().bv_size();
      z3::expr a = arg(0);
      return z3::ite(a >= powval(aw - 1), a + powval(w) - powval(aw), a);
    }
    case Z3_OP_EXTRACT: {
      unsigned hi = e.hi(), lo = e.lo();
      z3::expr a = arg(0);
      if (lo) a = z3::expr(c, Z3_mk_div(c, a, powval(lo)));
      return mod(a, hi - lo + 1);
    }
    case Z3_OP_CONCAT: {
      z3::expr s = arg(0);
      for (unsigned i = 1; i < n; ++i) s = s * powval(e.arg(i).get_sort().bv_size()) + arg(i);
      return s;
    }
    case Z3_OP_BSHL: {
      uint64_t v;
      if (numeral(e.arg(1), v)) return v >= w ? c.int_val(0) : mod(arg(0) * powval(static_cast<unsigned>(v)), w);
      return freshBv(w);
    }
    case Z3_OP_BLSHR: {
      uint64_t v;
      if (numeral(e.arg(1), v))
        return v >= w ? c.int_val(0) : z3::expr(c, Z3_mk_div(c, arg(0), powval(static_cast<unsigned>(v))));
      z3::expr r = freshBv(w);
      side.push_back(r <= arg(0));
      return r;
    }
    case Z3_OP_BASHR: {
      uint64_t v;
      if (numeral(e.arg(1), v)) {
        unsigned sh = v >= w ? w - 1 : static_cast<unsigned>(v);
        z3::expr s = sgn(arg(0), w);
        // SMT-LIB div rounds towards -inf for positive divisors: an arithmetic shift
        return mod(z3::expr(c, Z3_mk_div(c, s, powval(sh))), w);
      }
      return freshBv(w);
    }
    case Z3_OP_BUDIV: case Z3_OP_BUDIV_I: {
      uint64_t v;
      if (numeral(e.arg(1), v) && v != 0) return z3::expr(c, Z3_mk_div(c, arg(0), c.int_val(v)));
      z3::expr r = freshBv(w);
      return r;
    }
    case Z3_OP_BUREM: case Z3_OP_BUREM_I: {
      uint64_t v;
      if (numeral(e.arg(1), v) && v != 0) return z3::mod(arg(0), c.int_val(v));
      z3::expr r = freshBv(w);
      side.push_back(r <= arg(0));
      return r;
    }
    case Z3_OP_BAND: {
      if (n == 2) {
        uint64_t v;
        for (int i = 0; i < 2; ++i)
          if (numeral(e.arg(i), v) && v != 0 && ((v + 1) & v) == 0) {
            unsigned bits = 0;
            while (bits < 64 && (v >> bits)) ++bits;
            return mod(arg(1 - i), bits);
          }
      }
      z3::expr r = freshBv(w);
      for (unsigned i = 0; i < n; ++i) side.push_back(r <= arg(i));
      return r;
    }
    case Z3_OP_BOR: {
      z3::expr r = freshBv(w);
      for (unsigned i = 0; i < n; ++i) side.push_back(r >= arg(i));
      return r;
    }
    case Z3_OP_UNINTERPRETED: {
      if (n == 0) {
        if (e.is_bool()) return c.bool_const((d.name().str() + "!i").c_str());
        if (e.is_bv()) return range(c.int_const((d.name().str() + "!i").c_str()), w);
        break;
      }
      z3::sort_vector dom(c);
      z3::expr_vector args(c);
      for (unsigned i = 0; i < n; ++i) {
        z3::expr a = arg(i);
        dom.push_back(a.get_sort());
        args.push_back(a);
      }
      z3::sort rs = e.is_bool() ? c.bool_sort() : c.int_sort();
      z3::func_decl f = c.function((d.name().str() + "!i").c_str(), dom, rs);
      z3::expr r = f(args);
      if (e.is_bv()) range(r, w);
      return r;
    }
    default: break;
    }
    if (e.is_bool()) return c.bool_const(("ib!" + std::to_string(fresh_id++)).c_str());
    if (e.is_bv()) return freshBv(w);
    throw z3::exception("intabs: unsupported sort");
  }
  static unsigned width(const z3::expr &e) { return e.is_bv() ? e.get_sort().bv_size() : 64; }
};

}  // namespace

std::optional<z3::expr> integerAbstraction(const z3::expr_vector &assertions,
                                           const std::map<unsigned, z3::expr> &no_overflow) {
  if (assertions.empty()) return std::nullopt;
  z3::context &c = assertions.ctx();
  try {
    Translator t(c, no_overflow);
    z3::expr_vector out(c);
    for (unsigned i = 0; i < assertions.size(); ++i) out.push_back(t.tr(assertions[i]));
    for (unsigned i = 0; i < t.side.size(); ++i) out.push_back(t.side[i]);
    return z3::mk_and(out);
  } catch (const z3::exception &) {
    return std::nullopt;
  }
}

}  // namespace kverify::analysis
