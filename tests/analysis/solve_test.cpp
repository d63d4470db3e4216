// The integer abstractions must over-approximate: whenever a bit-vector query is
// satisfiable, so is its abstraction (linear or not). Random 8-bit queries check it
// against Z3's bit-vector solver; a few fixed ones check that the abstraction is strong
// enough for the injectivity arguments it exists for.
#include "analysis/answer_cache.hpp"
#include "analysis/intabs.hpp"
#include "analysis/solve.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <optional>
#include <stdexcept>
#include <thread>

using namespace kverify::analysis;

namespace {

z3::check_result solveFor(const z3::expr &f, unsigned ms) {
  z3::solver s(f.ctx());
  s.add(f);
  return checkWithin(s, ms / 1000.0);
}

// Builds a random query from a list of choices (RapidCheck shrinks the list).
class RandomQuery {
public:
  // functions: terms may apply an uninterpreted function (a loaded value, a trip count),
  // and products' no-wrap facts are signedMulFits, as the analysis makes them (Z3's raw
  // predicates fold negative operands unlike its bit-blaster does: see signedMulFits)
  RandomQuery(z3::context &c, const std::vector<unsigned> &choices, bool functions = false)
      : c(c),
        ch(choices),
        vars{c.bv_const("x", 8), c.bv_const("y", 8), c.bv_const("z", 8)},
        assumptions(c),
        f(c.function("f", c.bv_sort(8), c.bv_sort(8))),
        functions(functions) {}
  z3::context &c;
  std::map<unsigned, z3::expr> noOverflow;

  z3::expr query() {
    z3::expr_vector parts(c);
    unsigned n = 1 + next(3);
    for (unsigned i = 0; i < n; ++i) parts.push_back(atom());
    for (unsigned i = 0; i < assumptions.size(); ++i) parts.push_back(assumptions[i]);
    return z3::mk_and(parts);
  }

private:
  const std::vector<unsigned> &ch;
  size_t pos = 0;
  std::vector<z3::expr> vars;
  z3::expr_vector assumptions;  // the no-overflow facts the abstraction may use
  z3::func_decl f;
  bool functions;

  unsigned next(unsigned n) { return pos < ch.size() ? ch[pos++] % n : 0; }
  z3::expr constant() {
    static const unsigned interesting[] = {0, 1, 2, 3, 7, 8, 15, 16, 127, 128, 200, 255};
    return c.bv_val(next(2) ? interesting[next(12)] : next(256), 8);
  }
  z3::expr atom() {
    z3::expr a = term(2), b = term(2);
    switch (next(7)) {
      case 0: return z3::ult(a, b);
      case 1: return z3::ule(a, b);
      case 2: return a < b;  // signed
      case 3: return a <= b;
      case 4: return a == b;
      case 5: return a != b;
      default: return z3::ult(vars[next(3)], next(2) ? vars[next(3)] : constant());  // a bound fact
    }
  }
  z3::expr term(int depth) {
    if (functions && depth > 0 && next(5) == 0) return f(term(depth - 1));
    if (depth == 0 || next(4) == 0) return next(3) == 2 ? constant() : vars[next(3)];
    z3::expr a = term(depth - 1), b = term(depth - 1);
    switch (next(19)) {
      case 0: return a + b;
      case 1: return a - b;
      case 2:
      case 16: return a * b;  // twice as likely: products are what the abstraction is for
      case 3: return -a;
      case 4: return ~a;
      case 5: return a & b;
      case 6: return a | b;
      case 7: return z3::shl(a, c.bv_val(next(9), 8));
      case 8: return z3::lshr(a, c.bv_val(next(9), 8));
      case 9: return z3::ashr(a, c.bv_val(next(9), 8));
      case 10: return z3::udiv(a, next(2) ? constant() : b);
      case 11: return z3::urem(a, next(2) ? constant() : b);
      case 12: {
        unsigned lo = next(8);
        return z3::zext(a.extract(7, lo), lo);
      }
      case 13: return z3::sext(a.extract(3, 0), 4);
      case 14: return z3::ite(z3::ult(a, b), a, b);
      case 17: {  // the loop closed forms' no-wrap facts
        unsigned op = next(3);
        if (functions) {
          assumptions.push_back(signedMulFits(a, b));
          return a * b;
        }
        assumptions.push_back(op == 0   ? z3::bvmul_no_overflow(a, b, false)
                              : op == 1 ? z3::bvmul_no_overflow(a, b, true)
                                        : z3::bvmul_no_underflow(a, b));
        return a * b;
      }
      case 15: {  // signed arithmetic the program does not let overflow
        unsigned op = next(3);
        z3::expr r = op == 0 ? a + b : op == 1 ? a - b : a * b;
        z3::expr ok = op == 0   ? z3::bvadd_no_overflow(a, b, true) && z3::bvadd_no_underflow(a, b)
                      : op == 1 ? z3::bvsub_no_overflow(a, b) && z3::bvsub_no_underflow(a, b, true)
                                : signedMulFits(a, b);
        z3::expr pc = next(2) ? c.bool_val(true) : z3::ult(vars[0], vars[1]);
        noOverflow.emplace(r.id(), pc);
        assumptions.push_back(z3::implies(pc, ok));
        return r;
      }
      default: return term(depth - 1) * term(depth - 1);
    }
  }
};

RC_GTEST_PROP(IntegerAbstraction, OverApproximatesRandomQueries, ()) {
  // a fixed length: shrinking makes choices 0, which picks the simplest alternative
  const auto choices = *rc::gen::container<std::vector<unsigned>>(48, rc::gen::arbitrary<unsigned>());
  z3::context c;
  RandomQuery g(c, choices);
  z3::expr q = g.query();
  z3::expr_vector qs(c);
  qs.push_back(q);
  z3::check_result bv = solveFor(q, 500);
  RC_PRE(bv != z3::unknown);
  for (bool linear : {false, true}) {
    auto abs = integerAbstraction(qs, g.noOverflow, linear);
    RC_ASSERT(abs.has_value());
    z3::check_result ia = solveFor(*abs, 500);
    RC_LOG() << "query: " << q << "\nlinear: " << linear << "\nabstraction: " << *abs << "\n";
    if (bv == z3::sat) RC_ASSERT(ia != z3::unsat);
  }
}

// Bit-blasting (kBitBlast, after Ackermann's reduction of the functions) answers as Z3's
// solver does, and its models, mapped back through the reduction, satisfy the query.
RC_GTEST_PROP(BitBlast, AgreesWithTheSolverAndItsModelsHold, ()) {
  const auto choices = *rc::gen::container<std::vector<unsigned>>(48, rc::gen::arbitrary<unsigned>());
  z3::context c;
  RandomQuery g(c, choices, true);
  z3::expr q = g.query();
  z3::check_result expected = solveFor(q, 500);
  RC_PRE(expected != z3::unknown);
  z3::expr_vector qs(c);
  qs.push_back(q);
  RC_ASSERT(fewFunctionPairs(qs));
  std::optional<z3::model> m;
  RC_LOG() << "query: " << q << "\n";
  RC_ASSERT(solveOnce(qs, 5, &m, "random", kBitBlast) == expected);
  if (expected == z3::sat) RC_ASSERT(m->eval(q, true).is_true());
}

TEST(BitBlast, NotWhereAFunctionIsAppliedToManyArguments) {
  z3::context c;
  z3::func_decl f = c.function("f", c.bv_sort(32), c.bv_sort(32));
  z3::expr x = c.bv_const("x", 32);
  z3::expr_vector few(c), many(c);
  for (unsigned i = 0; i < 20; ++i) few.push_back(f(x + c.bv_val(i, 32)) != c.bv_val(i, 32));
  for (unsigned i = 0; i < 60; ++i) many.push_back(f(x + c.bv_val(i, 32)) != c.bv_val(i, 32));
  EXPECT_TRUE(fewFunctionPairs(few));    // 190 pairs
  EXPECT_FALSE(fewFunctionPairs(many));  // 1,770
}

TEST(IntegerAbstraction, DistinctProductsStayDistinct) {
  // x*y and x*z are different values: the linear form must not merge them
  z3::context c;
  z3::expr x = c.bv_const("x", 8), y = c.bv_const("y", 8), z = c.bv_const("z", 8);
  z3::expr_vector qs(c);
  qs.push_back(x * y == c.bv_val(3, 8) && x * z == c.bv_val(5, 8));
  ASSERT_EQ(solveFor(qs[0], 1000), z3::sat);
  for (bool linear : {false, true}) {
    auto abs = integerAbstraction(qs, {}, linear);
    ASSERT_TRUE(abs);
    EXPECT_NE(solveFor(*abs, 1000), z3::unsat) << "linear=" << linear;
  }
}

// row*width + col == row'*width + col' with 0 <= col, col' < width: the same cell.
z3::expr injectivityQuery(z3::context &c, bool rightPitch, std::map<unsigned, z3::expr> &nov) {
  auto v = [&](const char *n) { return c.bv_const(n, 32); };
  z3::expr r1 = v("r1"), c1 = v("c1"), r2 = v("r2"), c2 = v("c2"), w = v("w"), h = v("h");
  z3::expr p1 = r1 * w, p2 = r2 * (rightPitch ? w : h);
  z3::expr i1 = p1 + c1, i2 = p2 + c2;
  z3::expr t = c.bool_val(true);
  for (const z3::expr &e : {p1, p2, i1, i2}) nov.emplace(e.id(), t);
  z3::expr zero = c.bv_val(0, 32);
  return r1 >= zero && r2 >= zero && c1 >= zero && c2 >= zero && c1 < w && c2 < w && r1 < h && r2 < h &&
         (r1 != r2 || c1 != c2) && i1 == i2 && z3::bvmul_no_overflow(r1, w, true) &&
         z3::bvmul_no_overflow(r2, rightPitch ? w : h, true) && z3::bvadd_no_overflow(p1, c1, true) &&
         z3::bvadd_no_overflow(p2, c2, true);
}

TEST(IntegerAbstraction, LinearFormProvesRowMajorIndexInjective) {
  z3::context c;
  std::map<unsigned, z3::expr> nov;
  z3::expr_vector qs(c);
  qs.push_back(injectivityQuery(c, true, nov));
  auto lin = integerAbstraction(qs, nov, true);
  ASSERT_TRUE(lin);
  EXPECT_EQ(solveFor(*lin, 5000), z3::unsat);
}

TEST(IntegerAbstraction, WrongPitchStaysSatisfiable) {
  z3::context c;
  std::map<unsigned, z3::expr> nov;
  z3::expr_vector qs(c);
  qs.push_back(injectivityQuery(c, false, nov));
  for (bool linear : {false, true}) {
    auto abs = integerAbstraction(qs, nov, linear);
    ASSERT_TRUE(abs);
    EXPECT_NE(solveFor(*abs, 5000), z3::unsat) << "linear=" << linear;
  }
}

TEST(Decide, FindsTheInjectivityArgumentAndTheWrongPitchWitness) {
  z3::context c;
  std::map<unsigned, z3::expr> nov;
  z3::expr_vector ok(c), bad(c);
  ok.push_back(injectivityQuery(c, true, nov));
  bad.push_back(injectivityQuery(c, false, nov));
  EXPECT_EQ(decide(ok, nov, 10, "ok").result, z3::unsat);
  Decision d = decide(bad, nov, 10, "bad");
  ASSERT_EQ(d.result, z3::sat);
  ASSERT_TRUE(d.model);
  EXPECT_TRUE(d.model->eval(bad[0], true).is_true());
}

TEST(IntegerAbstraction, BoundsFromFactsDropTheModulo) {
  // t < 16 and b < 64 make b*16 + t exact: no wrap-around for the solver to consider
  z3::context c;
  z3::expr t = c.bv_const("t", 32), b = c.bv_const("b", 32);
  z3::expr_vector qs(c);
  qs.push_back(z3::ult(t, c.bv_val(16, 32)));
  qs.push_back(z3::ult(b, c.bv_val(64, 32)));
  qs.push_back(b * c.bv_val(16, 32) + t == c.bv_val(0xffffffffu, 32));
  auto abs = integerAbstraction(qs);
  ASSERT_TRUE(abs);
  EXPECT_EQ(solveFor(*abs, 1000), z3::unsat);
  EXPECT_EQ(abs->to_string().find("mod"), std::string::npos) << *abs;
}

}  // namespace

namespace {

// Factoring a 64-bit semiprime: far beyond a fraction of a second of bit-blasting.
z3::expr hardQuery(z3::context &c) {
  z3::expr x = c.bv_const("x", 64), y = c.bv_const("y", 64);
  return x * y == c.bv_val(uint64_t(4294967291u) * uint64_t(4294967279u), 64) &&
         z3::ugt(x, c.bv_val(1, 64)) && z3::ugt(y, c.bv_val(1, 64)) &&
         z3::ult(x, c.bv_val(uint64_t(1) << 32, 64)) && z3::ult(y, c.bv_val(uint64_t(1) << 32, 64)) &&
         z3::ult(x, y);
}

TEST(CheckWithin, StopsAHardQueryNearTheDeadline) {
  for (double seconds : {0.0, 0.2}) {
    z3::context c;
    z3::solver s(c);
    s.add(hardQuery(c));
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(checkWithin(s, seconds), z3::unknown);
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(took, seconds + 2.0) << "the interrupt did not stop the check";
  }
}

TEST(CheckWithin, TheContextIsUsableAfterAnInterrupt) {
  z3::context c;
  z3::solver hard(c);
  hard.add(hardQuery(c));
  ASSERT_EQ(checkWithin(hard, 0.05), z3::unknown);
  z3::solver easy(c);
  z3::expr x = c.bv_const("x", 8);
  easy.add(x + c.bv_val(1, 8) == c.bv_val(0, 8));
  EXPECT_EQ(checkWithin(easy, 5), z3::sat);
}

// A kernel's context is handed on to the thread's next kernel (making one costs as much as
// a small kernel's analysis); two alive at once are two contexts, and one handed on after
// an interrupted check answers the next kernel's queries.
TEST(KernelContext, IsHandedOnToTheThreadsNextKernel) {
  Z3_context first = nullptr;
  {
    KernelContext k;
    first = *k;
    z3::solver hard(*k);
    hard.add(hardQuery(*k));
    ASSERT_EQ(checkWithin(hard, 0.05), z3::unknown);
  }
  const uint64_t before = Z3_get_estimated_alloc_size();
  KernelContext next;
  // (a new context allocates ~8 MiB in Z3; and its address could be the last one's)
  EXPECT_LT(Z3_get_estimated_alloc_size() - before, uint64_t(1) << 20) << "a new context was made";
  EXPECT_EQ(static_cast<Z3_context>(*next), first);
  KernelContext beside;
  EXPECT_NE(static_cast<Z3_context>(*beside), first);
  z3::context &c = *next;
  z3::expr x = c.bv_const("x", 8);
  z3::expr_vector query(c);
  query.push_back(x * x == c.bv_val(9, 8));
  std::optional<z3::model> m;
  ASSERT_EQ(solveOnce(query, 5, &m, "handed on"), z3::sat);
  EXPECT_TRUE(m->eval(query[0], true).is_true());
}

// ... but not one whose analysis ended in an exception (Z3 out of memory in it).
TEST(KernelContext, OneWhoseAnalysisThrewIsNotHandedOn) {
  KernelContext a, b;  // (the spares the thread may have, taken)
  try {
    KernelContext k;
    throw std::runtime_error("out of memory");
  } catch (const std::runtime_error &) {}
  const uint64_t before = Z3_get_estimated_alloc_size();
  KernelContext next;
  EXPECT_GT(Z3_get_estimated_alloc_size() - before, uint64_t(1) << 20) << "the context was handed on";
}

}  // namespace

// Terms nested deeper than the call stack allows (long chains of updates in generated
// kernels crashed the translation): no abstraction, no crash; shallow terms still get one.
TEST(IntegerAbstraction, DeepTermsGiveNoAbstractionInsteadOfACrash) {
  z3::context c;
  z3::expr x = c.bv_const("x", 32), e = x;
  for (int i = 0; i < 3000; ++i) e = z3::ite(e == c.bv_val(i, 32), x, e + c.bv_val(1, 32));
  z3::expr_vector deep(c);
  deep.push_back(e == c.bv_val(7, 32));
  EXPECT_FALSE(integerAbstraction(deep, {}, false));
  EXPECT_FALSE(integerAbstraction(deep, {}, true));
  z3::expr_vector shallow(c);
  shallow.push_back(x + c.bv_val(1, 32) == c.bv_val(7, 32));
  EXPECT_TRUE(integerAbstraction(shallow, {}, true));
}

// The encoding's signed-multiplication check, against the integers, for every pair of
// 8-bit values, folded as Z3's rewriter folds constants and as its solver decides them
// (Z3 4.8.12's own bvsmul_noovfl gets half of these wrong once folded).
TEST(SignedMulFits, AgreesWithIntegerArithmeticOnEveryEightBitPair) {
  z3::context c;
  z3::expr x = c.bv_const("x", 8), y = c.bv_const("y", 8);
  int wrong = 0;
  for (int a = -128; a < 128; ++a)
    for (int b = -128; b < 128; ++b) {
      bool fits = a * b >= -128 && a * b <= 127;
      z3::expr folded = signedMulFits(c.bv_val(a, 8), c.bv_val(b, 8)).simplify();
      wrong += folded.is_true() != fits;
      if ((a * 7 + b) % 97 == 0) {  // the solver too, on a sample (it folds the same way)
        for (const z3::expr &f : {signedMulFits(x, y), signedMulFits(x, c.bv_val(b, 8))}) {
          z3::solver s(c);
          s.add(x == c.bv_val(a, 8) && y == c.bv_val(b, 8) && f);
          wrong += (s.check() == z3::sat) != fits;
        }
      }
    }
  EXPECT_EQ(wrong, 0);
}

// x * (1 << k) is encoded as x << k with signedShlFits as its no-overflow fact: the same
// bits and the same fact as the product's, for every x and k (k past the width included), in
// 8 and 16 bits, shown by the solver over all values at once.
TEST(SignedShlFits, IsTheProductsFactForEveryShift) {
  for (unsigned w : {8u, 16u}) {
    z3::context c;
    z3::expr x = c.bv_const("x", w), k = c.bv_const("k", w), p = z3::shl(c.bv_val(1, w), k);
    ASSERT_TRUE(shiftedOne(p));
    EXPECT_TRUE(z3::eq(*shiftedOne(p), k));
    EXPECT_FALSE(shiftedOne(z3::shl(c.bv_val(2, w), k)));
    z3::solver s(c);
    s.add(z3::shl(x, k) != x * p || signedShlFits(x, k) != signedMulFits(p, x));
    EXPECT_EQ(s.check(), z3::unsat) << w << " bits: " << s.get_model();
  }
}

// x * p where p is 1 shifted left and then right, any number of times, arithmetically or
// logically (a scan's `offset *= 2`, then `offset >>= 1`): timesPowerOfTwo's bits and fact
// are the product's and signedMulFits's, for every x and every shift (past the width
// included), in 8 and 16 bits, shown by the solver over all values at once. The sign bit
// shifted right arithmetically fills with ones (-(1 << s)): a logical shift of that is no
// power of two, and gets no rewrite.
TEST(TimesPowerOfTwo, IsTheProductAndItsFactForEveryShift) {
  for (unsigned w : {8u, 16u}) {
    z3::context c;
    z3::expr x = c.bv_const("x", w), k = c.bv_const("k", w), i = c.bv_const("i", w), j = c.bv_const("j", w);
    const z3::expr one = z3::shl(c.bv_val(1, w), k);
    const std::vector<std::pair<const char *, z3::expr>> powers = {
        {"1 << k", one},
        {"(1 << k) >> i", z3::ashr(one, i)},
        {"(1 << k) >> i >> j", z3::ashr(z3::ashr(one, i), j)},
        {"(1 << k) >>> i", z3::lshr(one, i)},
        {"(1 << k) >>> i >>> j", z3::lshr(z3::lshr(one, i), j)},
        {"(1 << k) >>> i >> j", z3::ashr(z3::lshr(one, i), j)},
    };
    for (const auto &[what, p] : powers) {
      std::optional<PowerOfTwoProduct> t = timesPowerOfTwo(x, p);
      ASSERT_TRUE(t) << what;
      z3::solver s(c);
      s.add(t->bits != x * p || t->fits != signedMulFits(x, p));
      EXPECT_EQ(s.check(), z3::unsat) << w << " bits, " << what << ": " << s.get_model();
    }
    EXPECT_FALSE(timesPowerOfTwo(x, z3::lshr(z3::ashr(one, i), j))) << "(1 << k) >> i >>> j";
    EXPECT_FALSE(timesPowerOfTwo(x, z3::ashr(c.bv_val(2, w) * k, i)));
  }
}

// kverify builds against a z3++.h whose move assignment releases the term it overwrites
// (Z3 4.8.12's does not: every `e = a && b;` leaked, and deleting the context freed the
// leaked chains in quadratic time). Z3 keeps freed memory for reuse: a second chain of
// 100,000 overwrites, over another constant, fits in what the first one freed.
TEST(Z3Header, MoveAssignmentReleasesTheOverwrittenTerm) {
  z3::context c;
  auto chain = [&](const char *name) {
    z3::expr x = c.bool_const(name), e = x;
    for (int i = 0; i < 100000; ++i) e = e && x;  // each and(...) is a new term
  };
  chain("x");
  const uint64_t before = Z3_get_estimated_alloc_size();
  chain("y");
  const uint64_t after = Z3_get_estimated_alloc_size();
  EXPECT_LT(after, before + (1u << 20)) << "leaked " << (after - before) << " bytes";
}

// The watchdog interrupts the context until the check is over. An interrupt that lands just
// as the check returns leaves the context cancelled, and Z3 then throws "canceled" from the
// next model or simplification (seen as a kernel `unknown`, "solver error: canceled", on a
// loaded machine); checkWithin clears it with clearInterrupt.
TEST(CheckWithin, AnInterruptAfterTheCheckIsCleared) {
  z3::context c;
  z3::expr x = c.bv_const("x", 32), y = c.bv_const("y", 32);
  z3::solver s(c, "QF_UFBV");
  s.add(x * y == c.bv_val(77, 32) && z3::ugt(x, c.bv_val(1, 32)) && z3::ugt(y, c.bv_val(1, 32)));
  ASSERT_EQ(checkWithin(s, 5), z3::sat);
  c.interrupt();  // as the watchdog's last interrupt, after the check returned
  EXPECT_THROW((void)(x + y + 1 + 1).simplify(), z3::exception);  // what Z3 does then
  clearInterrupt(c);
  EXPECT_NO_THROW((void)s.get_model().eval(x * y, true));
  EXPECT_NO_THROW((void)(x + y + 1 + 1).simplify());
}

// The answer cache (answer_cache.hpp) is exact: whatever it answers, a fresh solver
// answers too, and a model it gives satisfies the query asked. Pairs of random queries,
// each asked in a context of its own (as two kernels are), the second often the first
// again (with its conjuncts in another order) and otherwise a different one.
RC_GTEST_PROP(AnswerCache, AnswersAsAFreshSolverDoes, ()) {
  const auto first = *rc::gen::container<std::vector<unsigned>>(48, rc::gen::arbitrary<unsigned>());
  const bool same = *rc::gen::arbitrary<bool>();
  const auto second =
      same ? first : *rc::gen::container<std::vector<unsigned>>(48, rc::gen::arbitrary<unsigned>());
  std::optional<z3::check_result> answers[2];
  for (int i = 0; i < 2; ++i) {
    z3::context c;
    RandomQuery g(c, i == 0 ? first : second);
    z3::expr q = g.query();
    // (Z3 evaluates its no-overflow predicates wrongly on constants: see signedMulFits)
    RC_PRE(q.to_string().find("_noovfl") == std::string::npos &&
           q.to_string().find("_noudfl") == std::string::npos);
    z3::expr_vector conjuncts(c);
    for (unsigned j = 0; j < q.num_args(); ++j) conjuncts.push_back(q.arg(i == 0 ? j : q.num_args() - 1 - j));
    std::optional<z3::model> m;
    z3::check_result r = solveOnce(conjuncts, 0.5, &m, "random");
    z3::check_result fresh = solveFor(q, 500);
    RC_LOG() << "query " << i << ": " << q << "\n";
    if (r != z3::unknown && fresh != z3::unknown) RC_ASSERT(r == fresh);
    if (r == z3::sat) RC_ASSERT(m && m->eval(q, true).is_true());
    answers[i] = r;
  }
  if (same) RC_ASSERT(answers[0] == answers[1]);
}

TEST(AnswerCache, AnswersTheSameQueryFromAnotherContext) {
  // (a factoring that takes the solver well over the time an answer must take to be kept)
  auto ask = [](double &seconds) {
    z3::context c;
    z3::expr x = c.bv_const("cache_x", 32), y = c.bv_const("cache_y", 32);
    z3::expr_vector q(c);
    q.push_back(x * y == c.bv_val(4292870399u, 32));  // 65519 * 65521
    q.push_back(z3::ugt(x, c.bv_val(1, 32)) && z3::ugt(y, c.bv_val(1, 32)));
    q.push_back(z3::ult(x, c.bv_val(65536, 32)) && z3::ult(y, c.bv_val(65536, 32)) && c.bool_val(true));
    std::optional<z3::model> m;
    const double t0 = threadSeconds();
    EXPECT_EQ(solveOnce(q, 10, &m, "factor"), z3::sat);
    seconds = threadSeconds() - t0;
    ASSERT_TRUE(m);
    EXPECT_TRUE(m->eval(z3::mk_and(q), true).is_true());
  };
  double first = 0, second = 0;
  ask(first);
  ask(second);
  EXPECT_LT(second, first / 4) << "the second context's identical query was solved again";
}

// A file of many small kernels asks many quick queries, repeated from kernel to kernel:
// once the process has asked 64, quick answers are kept too (before, only answers that
// took 20 ms were, and such a file solved every query again: 33 ms a one-line kernel).
TEST(AnswerCache, KeepsQuickAnswersOnceManyWereAsked) {
  auto query = [](z3::context &c, unsigned i) {
    z3::expr_vector q(c);
    q.push_back(c.bv_const("quick_x", 32) == c.bv_val(i, 32));
    return q;
  };
  for (unsigned i = 0; i < 64; ++i) {
    z3::context c;
    EXPECT_EQ(solveOnce(query(c, i), 1, nullptr, "quick"), z3::sat);
  }
  z3::context c;
  z3::expr_vector again = query(c, 63);
  bool kept = false;
  CachedAnswer a = AnswerCache::ask(again, "logic QF_UFBV", 1, [] { return CachedAnswer{}; }, kept);
  ASSERT_TRUE(kept) << "the 64th quick answer was not kept";
  EXPECT_EQ(a.result, z3::sat);
  ASSERT_TRUE(a.model);
  EXPECT_TRUE(a.model->eval(again[0], true).is_true());
}

// Two threads (-j) asking the same query at once: one solves it, the other waits for its
// answer (before, both solved it: the library's instantiations of one template analysed
// side by side shared nothing).
// 64 quick queries asked: from here on quick answers are kept too.
void keepQuickAnswers() {
  for (unsigned i = 0; i < 64; ++i) {
    z3::context c;
    z3::expr_vector q(c);
    q.push_back(c.bv_const("warm_x", 32) == c.bv_val(i, 32));
    solveOnce(q, 1, nullptr, "warm");
  }
}

TEST(AnswerCache, AQueryAskedByTwoThreadsAtOnceIsSolvedOnce) {
  keepQuickAnswers();
  std::atomic<int> ready{0};
  double seconds[2] = {0, 0};
  auto ask = [&](int t) {
    z3::context c;
    z3::expr x = c.bv_const("twice_x", 32), y = c.bv_const("twice_y", 32);
    z3::expr_vector q(c);
    q.push_back(x * y == c.bv_val(4293001441u, 32));  // 65521 * 65521: as slow to find
    q.push_back(z3::ugt(x, c.bv_val(1, 32)) && z3::ugt(y, c.bv_val(1, 32)));
    q.push_back(z3::ult(x, c.bv_val(65536, 32)) && z3::ult(y, c.bv_val(65536, 32)));
    ++ready;
    while (ready < 2) std::this_thread::yield();
    std::optional<z3::model> m;
    const double t0 = threadSeconds();
    EXPECT_EQ(solveOnce(q, 10, &m, "twice"), z3::sat);
    seconds[t] = threadSeconds() - t0;
    ASSERT_TRUE(m);
    EXPECT_TRUE(m->eval(z3::mk_and(q), true).is_true());
  };
  std::thread a(ask, 0), b(ask, 1);
  a.join(), b.join();
  EXPECT_LT(std::min(seconds[0], seconds[1]), std::max(seconds[0], seconds[1]) / 4)
      << seconds[0] << " s and " << seconds[1] << " s of CPU: both solved it";
}

// A query decided before (the ladder of attempts of decide or findModel) is answered from
// the cache as a whole, with a model of the query asked.
TEST(AnswerCache, ADecisionIsAnsweredAgain) {
  keepQuickAnswers();
  for (int i = 0; i < 2; ++i) {
    z3::context c;
    z3::expr x = c.bv_const("decided_x", 32), y = c.bv_const("decided_y", 32);
    z3::expr_vector q(c);
    q.push_back(x * y == c.bv_val(391, 32));  // 17 * 23
    q.push_back(z3::ugt(x, c.bv_val(1, 32)) && z3::ult(x, y) && z3::ult(y, c.bv_val(1000, 32)));
    Decision d = i == 0 ? decide(q, {}, 5, "decided") : findModel(q, {}, 5);
    ASSERT_EQ(d.result, z3::sat);
    ASSERT_TRUE(d.model);
    EXPECT_TRUE(d.model->eval(z3::mk_and(q), true).is_true());
    EXPECT_EQ(std::string(d.how) == "answered before", i == 1) << d.how;
  }
}
