#pragma once
// Internal to the integer abstraction (intabs.cpp): the bounds on a term's integer value,
// and the bounds the query's top-level facts give its constants (intabs_bounds.cpp).
#include <z3++.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace kverify::analysis::intabs {

using i128 = __int128;

// Bounds every model of the query gives a term's integer value. `wide` when they do not
// fit comfortably in an i128 (then nothing is simplified by them).
struct Itv {
  i128 lo = 0, hi = 0;
  bool wide = false;
  static Itv of(i128 v) { return {v, v, false}; }
  static Itv top() { return {0, 0, true}; }
  bool within(i128 a, i128 b) const { return !wide && a <= lo && hi <= b; }
};

inline constexpr i128 kLimit = i128(1) << 120;

inline Itv norm(i128 lo, i128 hi) {
  if (lo < -kLimit || hi > kLimit) return Itv::top();
  return {lo, hi, false};
}
inline Itv add(const Itv &a, const Itv &b) {
  return a.wide || b.wide ? Itv::top() : norm(a.lo + b.lo, a.hi + b.hi);
}
inline Itv neg(const Itv &a) { return a.wide ? a : Itv{-a.hi, -a.lo, false}; }
inline Itv mul(const Itv &a, const Itv &b) {
  if (a.wide || b.wide) return Itv::top();
  i128 p[4];
  const i128 xs[2] = {a.lo, a.hi}, ys[2] = {b.lo, b.hi};
  for (int i = 0; i < 4; ++i)
    if (__builtin_mul_overflow(xs[i / 2], ys[i % 2], &p[i])) return Itv::top();
  return norm(*std::min_element(p, p + 4), *std::max_element(p, p + 4));
}
inline Itv join(const Itv &a, const Itv &b) {
  if (a.wide || b.wide) return Itv::top();
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi), false};
}
inline i128 floorDiv(i128 a, i128 d) { return a >= 0 ? a / d : -((-a + d - 1) / d); }

// Bounds on the query's bit-vector constants that follow from its top-level conjuncts
// (`blockDim.x == 16`, `threadIdx.x < blockDim.x`, `gridDim.x == (n + 15) / 16`, ...):
// they hold in every model.
class BoundsFromFacts {
public:
  std::map<std::string, Itv> bounds;  // by the constant's name

  explicit BoundsFromFacts(const z3::expr_vector &assertions);

private:
  std::vector<z3::expr> facts;

  void collect(const z3::expr &e);
  Itv of(const z3::expr &e, int depth = 0);
  void tighten(const z3::expr &e, i128 lo, i128 hi, int depth = 0);
  void below(const z3::expr &x, const z3::expr &y, bool strict);
  void apply(const z3::expr &f);
};

}  // namespace kverify::analysis::intabs
