// Loop closed forms (analysis/closed_form.hpp): which updates have one, and the closed form
// against the update applied j times in C++ (an independent computation of the same value).
#include "analysis/closed_form.hpp"

#include <gtest/gtest.h>

#include "model_builder.hpp"

using namespace kverify;
using namespace kverify::analysis::detail;
using namespace kverify::testing_support;

namespace {

std::optional<ClosedForm> formOf(const model::Local &x, const ExprPtr &value,
                                 std::map<unsigned, int> mods = {}) {
  mods[x.id] = 1;
  return classify(x, value, mods);
}

TEST(ClosedForm, RecognisesTheUpdatesItHasFormsFor) {
  KB b;
  auto x = b.local("x", Type::i32()), y = b.local("y", Type::i32());
  ExprPtr n = b.param("n");
  auto op = [&](BinaryOp o, ExprPtr l, ExprPtr r) { return Expr::binary(Type::i32(), o, l, r); };
  EXPECT_EQ(formOf(x, op(BinaryOp::Add, L(x), n))->op, ClosedForm::Add);
  EXPECT_EQ(formOf(x, op(BinaryOp::Sub, n, L(x)))->op, ClosedForm::Flip);
  auto twice = formOf(x, op(BinaryOp::Mul, L(x), i(2)));
  ASSERT_TRUE(twice);
  EXPECT_EQ(twice->op, ClosedForm::Shl);
  EXPECT_EQ(twice->shift, 1);
  auto quarter = formOf(x, op(BinaryOp::Div, L(x), i(4)));
  ASSERT_TRUE(quarter);
  EXPECT_EQ(quarter->op, ClosedForm::SDiv);  // signed: rounds toward zero
  EXPECT_EQ(quarter->shift, 2);
  auto ux = b.local("ux", Type::u32());
  EXPECT_EQ(formOf(ux, Expr::binary(Type::u32(), BinaryOp::Div, L(ux), u(4)))->op, ClosedForm::LShr);
  auto heap = formOf(x, op(BinaryOp::Add, op(BinaryOp::Mul, i(2), L(x)), i(1)));  // 2 * x + 1
  ASSERT_TRUE(heap);
  EXPECT_EQ(heap->op, ClosedForm::Affine);
  EXPECT_EQ(heap->shift, 1);
  auto down = formOf(x, op(BinaryOp::Sub, op(BinaryOp::Shl, L(x), i(2)), n));  // (x << 2) - n
  ASSERT_TRUE(down);
  EXPECT_EQ(down->op, ClosedForm::Affine);
  EXPECT_TRUE(down->negate);
  // a loop-invariant value (`p = tile`): the value from the second iteration on
  auto set = formOf(x, op(BinaryOp::Mul, n, i(3)));
  ASSERT_TRUE(set);
  EXPECT_EQ(set->op, ClosedForm::Set);
  EXPECT_FALSE(formOf(x, L(y), {{y.id, 1}}));                     // a local the loop changes
  EXPECT_FALSE(formOf(x, Expr::opaque(Type::i32(), 7, "load")));  // a load: new each time
  // no closed form: a step the loop changes, a factor that is not a power of two
  EXPECT_FALSE(formOf(x, op(BinaryOp::Add, L(x), L(y)), {{y.id, 1}}));
  EXPECT_FALSE(formOf(x, op(BinaryOp::Mul, L(x), i(3))));
  EXPECT_FALSE(formOf(x, op(BinaryOp::Add, op(BinaryOp::Mul, L(x), i(3)), i(1))));
  EXPECT_FALSE(formOf(x, op(BinaryOp::Add, op(BinaryOp::Mul, L(x), i(2)), L(y)), {{y.id, 1}}));
}

// x after j steps, by the closed form (evaluated by Z3) and by iterating.
int64_t closed(const ClosedForm &cf, int64_t x0, int64_t step, uint64_t j, unsigned w) {
  z3::context c;
  z3::expr x = c.bv_val(static_cast<uint64_t>(x0), w), k = c.bv_val(j, 64);
  z3::expr d = c.bv_val(static_cast<uint64_t>(step), w);
  z3::expr v = cf.op == ClosedForm::Add || cf.op == ClosedForm::Sub ? steppedAt(cf, x, d, k)
               : cf.op == ClosedForm::Affine                        ? affineAt(cf, x, d, k)
                                                                    : shiftedAt(cf, x, k);
  z3::expr r = v.simplify();
  return w == 32 ? static_cast<int32_t>(r.get_numeral_uint64())
                 : static_cast<int64_t>(r.get_numeral_uint64());
}

TEST(ClosedForm, SignedHalvingRoundsTowardZeroLikeTheLoop) {
  ClosedForm cf{ClosedForm::SDiv, Type::i32(), nullptr, 1};
  for (int32_t x0 : {-1000, -37, -8, -3, -1, 0, 1, 5, 100, 2147483647})
    for (uint64_t j = 0; j < 12; ++j) {
      int32_t want = x0;
      for (uint64_t s = 0; s < j; ++s) want /= 2;
      EXPECT_EQ(closed(cf, x0, 0, j, 32), want) << x0 << " / 2, " << j << " times";
    }
}

TEST(ClosedForm, UnsignedStepsWrapLikeTheLoop) {
  ClosedForm add{ClosedForm::Add, Type::u32(), nullptr, 0}, sub{ClosedForm::Sub, Type::u32(), nullptr, 0};
  for (uint32_t x0 : {0u, 7u, 0xfffffff0u})
    for (uint32_t step : {1u, 32u, 1000u})
      for (uint64_t j = 0; j < 40; j += 3) {
        uint32_t up = x0, down = x0;
        for (uint64_t s = 0; s < j; ++s) up += step, down -= step;
        EXPECT_EQ(static_cast<uint32_t>(closed(add, int32_t(x0), step, j, 32)), up);
        EXPECT_EQ(static_cast<uint32_t>(closed(sub, int32_t(x0), step, j, 32)), down);
      }
}

TEST(ClosedForm, AffineUpdatesMatchTheLoopModuloTheWidth) {
  for (int m : {1, 2, 3, 5})
    for (bool negate : {false, true}) {
      ClosedForm cf{ClosedForm::Affine, Type::u32(), nullptr, m};
      cf.negate = negate;
      for (uint32_t x0 : {0u, 1u, 7u, 0x80000001u})
        for (uint32_t d : {0u, 1u, 3u, 0xffffffffu})
          for (uint64_t j : {0, 1, 2, 3, 7, 16, 31, 32, 33, 70}) {
            uint32_t want = x0;
            for (uint64_t s = 0; s < j; ++s) want = (want << m) + (negate ? 0u - d : d);
            EXPECT_EQ(static_cast<uint32_t>(closed(cf, int32_t(x0), int32_t(d), j, 32)), want)
                << "x = x * 2^" << m << (negate ? " - " : " + ") << d << " from " << x0 << ", " << j
                << " times";
          }
    }
}

// Whether the closed form says x stays in its type's range for j updates (inRangeAt,
// evaluated by Z3), for a w-bit x (x_signed) and a step c read in the arithmetic's type.
bool staysInRange(const ClosedForm &cf, int64_t x0, int64_t step, uint64_t j, unsigned w, bool x_signed) {
  z3::context c;
  z3::expr x = c.bv_val(static_cast<uint64_t>(x0), w), k = c.bv_val(j, 64);
  z3::expr d = c.bv_val(static_cast<uint64_t>(step), w);
  z3::expr r = inRangeAt(cf, x, d, k, x_signed)->simplify();
  EXPECT_TRUE(r.is_true() || r.is_false());
  return r.is_true();
}

// The exact integer value of 32-bit x after j steps of `x += c` (or -=), c read as signed
// or unsigned, and whether each step stayed in x's range.
bool exactStaysInRange(int64_t x0, int64_t c, uint64_t j, bool sub, bool x_signed) {
  __int128 lo = x_signed ? -(__int128(1) << 31) : 0,
           hi = x_signed ? (__int128(1) << 31) - 1 : (__int128(1) << 32) - 1;
  __int128 v = __int128(x0) + (sub ? -1 : 1) * __int128(j) * c;
  return lo <= v && v <= hi;
}

TEST(ClosedForm, WrapAroundIsDecidedExactlyForEveryMixOfSignedness) {
  // `int i; i += blockDim.x` (signed x, unsigned arithmetic) from below zero and down past
  // it; `unsigned x; x -= 3` past zero; signed steps from the bottom of the range (more
  // than 2^31 steps of 1 from INT_MIN stay in range)
  for (bool sub : {false, true})
    for (bool op_signed : {false, true})
      for (bool x_signed : {false, true}) {
        ClosedForm cf{sub ? ClosedForm::Sub : ClosedForm::Add, op_signed ? Type::i32() : Type::u32(), nullptr,
                      0};
        for (int64_t x0 : {int64_t(-2147483648), int64_t(-64), int64_t(-8), int64_t(0), int64_t(5),
                           int64_t(2147483647), int64_t(4294967295)}) {
          if (x_signed ? x0 > 2147483647 : x0 < 0) continue;
          for (int64_t c :
               {int64_t(0), int64_t(1), int64_t(3), int64_t(64), int64_t(-1), int64_t(4294967295)}) {
            if (op_signed ? c > 2147483647 : c < 0) continue;
            for (uint64_t j :
                 {uint64_t(0), uint64_t(1), uint64_t(2), uint64_t(3), uint64_t(70), uint64_t(2147483647),
                  uint64_t(2147483648), uint64_t(4294967295), uint64_t(4294967296), uint64_t(1) << 40})
              EXPECT_EQ(staysInRange(cf, x0, c, j, 32, x_signed), exactStaysInRange(x0, c, j, sub, x_signed))
                  << x0 << (sub ? " - " : " + ") << j << " * " << c << (op_signed ? " (signed" : " (unsigned")
                  << " arithmetic, " << (x_signed ? "signed" : "unsigned") << " x)";
          }
        }
      }
}

TEST(ClosedForm, ShiftsOutToZeroLikeTheLoopAndWrapOnlyThere) {
  // `for (unsigned bit = 1; bit != 0; bit <<= 1)`: 1 << j, then 0 from the 32nd update on
  ClosedForm shl{ClosedForm::Shl, Type::u32(), nullptr, 1};
  for (uint32_t x0 : {1u, 3u, 0x40000000u, 0u})
    for (uint64_t j = 0; j < 70; ++j) {
      uint32_t want = x0;
      bool fits = true;
      for (uint64_t s = 0; s < j; ++s) fits &= (want >> 31) == 0, want <<= 1;
      EXPECT_EQ(static_cast<uint32_t>(closed(shl, int32_t(x0), 0, j, 32)), want)
          << x0 << " << 1, " << j << " times";
      EXPECT_EQ(staysInRange(shl, int32_t(x0), 0, j, 32, false), fits) << x0 << " << 1, " << j << " times";
    }
  // `int d = -1; d *= 2`: negative starts are legitimate; in range until below INT_MIN
  ClosedForm twice{ClosedForm::Shl, Type::i32(), nullptr, 1};
  twice.mul = true;
  EXPECT_TRUE(overflowIsUndefined(twice, true));
  for (int32_t x0 : {-1, -3, 1, 0, -1073741824})
    for (uint64_t j = 0; j < 40; ++j) {
      __int128 exact = __int128(x0) * (__int128(1) << j);
      bool fits = exact >= -(__int128(1) << 31) && exact < (__int128(1) << 31);
      EXPECT_EQ(staysInRange(twice, x0, 0, j, 32, true), fits) << x0 << " * 2, " << j << " times";
      if (fits) { EXPECT_EQ(closed(twice, x0, 0, j, 32), int64_t(exact)) << x0 << " * 2, " << j << " times"; }
    }
}

TEST(ClosedForm, OnlySignedArithmeticOnASignedLocalHasUndefinedOverflow) {
  ClosedForm add{ClosedForm::Add, Type::i32(), nullptr, 0}, uadd{ClosedForm::Add, Type::u32(), nullptr, 0};
  ClosedForm shl{ClosedForm::Shl, Type::i32(), nullptr, 1};  // `x <<= 1`: defined since C++20
  EXPECT_TRUE(overflowIsUndefined(add, true));
  EXPECT_FALSE(overflowIsUndefined(uadd, true));  // `int i; i += blockDim.x`
  EXPECT_FALSE(overflowIsUndefined(add, false));
  EXPECT_FALSE(overflowIsUndefined(shl, true));
}

}  // namespace
