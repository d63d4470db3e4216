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
  return classify(x, *value, mods);
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
  // no closed form: a step the loop changes, a factor that is not a power of two
  EXPECT_FALSE(formOf(x, op(BinaryOp::Add, L(x), L(y)), {{y.id, 1}}));
  EXPECT_FALSE(formOf(x, op(BinaryOp::Mul, L(x), i(3))));
}

// x after j steps, by the closed form (evaluated by Z3) and by iterating.
int64_t closed(const ClosedForm &cf, int64_t x0, int64_t step, uint64_t j, unsigned w) {
  z3::context c;
  std::vector<z3::expr> side;
  z3::expr x = c.bv_val(static_cast<uint64_t>(x0), w), k = c.bv_val(j, 64);
  z3::expr v = cf.op == ClosedForm::Add || cf.op == ClosedForm::Sub
                   ? steppedAt(cf, x, c.bv_val(static_cast<uint64_t>(step), w), k, false, false, side)
                   : shiftedAt(cf, x, k, false, side);
  z3::expr r = v.simplify();
  return w == 32 ? static_cast<int32_t>(r.get_numeral_uint64()) : static_cast<int64_t>(r.get_numeral_uint64());
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

}  // namespace
