// Unit tests of the uniformity pass (analysis/uniformity.hpp) on hand-built models. The
// differential tests check it end to end: a barrier it wrongly calls uniform hides a
// divergence the oracle then reports.
#include "analysis/uniformity.hpp"

#include <gtest/gtest.h>

#include "model_builder.hpp"

using namespace kverify;
using namespace kverify::testing_support;
using kverify::analysis::Uniformity;

namespace {

template <class K>
Stmt jump() {
  return Stmt{KB::at(4), K{}};
}

Stmt inlined(std::vector<Stmt> body) { return KB::inlined("f", std::move(body)); }

// for (int i = 16; i > 0; i /= 2) { if (tid < i) ...; __syncthreads(); }
TEST(Uniformity, HalvingLoopOverAConstantIsUniform) {
  KB b;
  auto i = b.local("i", Type::i32());
  b.k.body = {KB::assign(i, model::ExprPtr(testing_support::i(16))),
              KB::loop(bin(BinaryOp::Gt, L(i), testing_support::i(0)),
                       {KB::iff(bin(BinaryOp::Lt, tid(), L(i)), {}), KB::sync(5)},
                       {KB::assign(i, bin(BinaryOp::Div, L(i), testing_support::i(2)))}, 3)};
  Uniformity U(b.k);
  EXPECT_TRUE(U.loop(b.k.body[1]));
  EXPECT_TRUE(U.control(b.k.body[1].as<model::stmt::Loop>()->body[1]));
  EXPECT_TRUE(U.barriersUniform());
}

// for (i = tid; i < n; i += blockDim.x) __syncthreads();
TEST(Uniformity, BlockStrideLoopFromThreadIdIsVarying) {
  KB b;
  auto i = b.local("i");
  auto n = b.param("n", Type::u32());
  b.k.body = {KB::assign(i, tid()), KB::loop(bin(BinaryOp::Lt, L(i), n), {KB::sync(5)},
                                             {KB::assign(i, bin(BinaryOp::Add, L(i), bdim()))}, 3)};
  Uniformity U(b.k);
  EXPECT_FALSE(U.value(*L(i)));
  EXPECT_FALSE(U.loop(b.k.body[1]));
  EXPECT_FALSE(U.control(b.k.body[1].as<model::stmt::Loop>()->body[0]));
  EXPECT_FALSE(U.barriersUniform());
}

TEST(Uniformity, ReturnOfSomeThreadsMakesTheRestVarying) {
  KB b;
  b.k.body = {KB::iff(bin(BinaryOp::Eq, tid(), u(0)), {jump<model::stmt::Return>()}), KB::sync(5)};
  Uniformity U(b.k);
  EXPECT_FALSE(U.control(b.k.body[1]));
  EXPECT_FALSE(U.barriersUniform());
}

TEST(Uniformity, ReturnOfTheWholeBlockKeepsControlUniform) {
  KB b;
  auto n = b.param("n", Type::u32());
  b.k.body = {KB::iff(bin(BinaryOp::Lt, bid(), n), {jump<model::stmt::Return>()}), KB::sync(5)};
  Uniformity U(b.k);
  EXPECT_TRUE(U.control(b.k.body[1]));
  EXPECT_TRUE(U.barriersUniform());
}

// while (k < n) { if (tid == 3) break; __syncthreads(); k++; }
TEST(Uniformity, BreakOfSomeThreadsMakesTheLoopVarying) {
  KB b;
  auto k = b.local("k");
  auto n = b.param("n", Type::u32());
  b.k.body = {KB::assign(k, u(0)),
              KB::loop(bin(BinaryOp::Lt, L(k), n),
                       {KB::iff(bin(BinaryOp::Eq, tid(), u(3)), {jump<model::stmt::Break>()}), KB::sync(5),
                        KB::assign(k, bin(BinaryOp::Add, L(k), u(1)))},
                       {}, 3)};
  Uniformity U(b.k);
  EXPECT_FALSE(U.loop(b.k.body[1]));
  EXPECT_FALSE(U.value(*L(k)));  // counted by threads that stay, at iterations that differ
  EXPECT_FALSE(U.barriersUniform());
}

// for (k = 0; k < n; k++) { if (tid == 3) continue; __syncthreads(); }: the trip count
// stays uniform, the code after the continue does not.
TEST(Uniformity, ContinueOfSomeThreadsKeepsTheTripCount) {
  KB b;
  auto k = b.local("k");
  auto n = b.param("n", Type::u32());
  b.k.body = {
      KB::assign(k, u(0)),
      KB::loop(bin(BinaryOp::Lt, L(k), n),
               {KB::iff(bin(BinaryOp::Eq, tid(), u(3)), {jump<model::stmt::Continue>()}), KB::sync(5)},
               {KB::assign(k, bin(BinaryOp::Add, L(k), u(1)))}, 3)};
  Uniformity U(b.k);
  EXPECT_TRUE(U.loop(b.k.body[1]));
  EXPECT_TRUE(U.value(*L(k)));
  EXPECT_FALSE(U.control(b.k.body[1].as<model::stmt::Loop>()->body[1]));
  EXPECT_FALSE(U.barriersUniform());
}

// A return inside an inlined call ends at the call; its result is per thread.
TEST(Uniformity, ReturnInsideAnInlinedCallEndsThere) {
  KB b;
  auto r = b.local("result");
  b.k.body = {
      inlined({KB::iff(bin(BinaryOp::Lt, tid(), u(2)), {KB::assign(r, u(5)), jump<model::stmt::Return>()}),
               KB::assign(r, u(7))}),
      KB::sync(5)};
  Uniformity U(b.k);
  EXPECT_TRUE(U.control(b.k.body[1]));
  EXPECT_FALSE(U.value(*L(r)));
}

TEST(Uniformity, AssignmentUnderAThreadConditionIsVarying) {
  KB b;
  auto x = b.local("x");
  b.k.body = {KB::assign(x, u(0)), KB::iff(bin(BinaryOp::Lt, tid(), u(5)), {KB::assign(x, u(1))}),
              KB::iff(bin(BinaryOp::Eq, L(x), u(0)), {KB::sync(5)})};
  Uniformity U(b.k);
  EXPECT_FALSE(U.value(*L(x)));
  EXPECT_FALSE(U.control(b.k.body[2].as<model::stmt::If>()->then_body[0]));
}

TEST(Uniformity, BarrierResultsAreUniformLoadsAreNot) {
  KB b;
  auto any = Expr::opaque(Type::i32(), 9, "result of __syncthreads_or", /*per_block=*/true);
  auto load = Expr::opaque(Type::i32(), 10, "load of s[0]");
  EXPECT_TRUE(Uniformity(b.k).value(*any));
  EXPECT_FALSE(Uniformity(b.k).value(*load));
  EXPECT_TRUE(Uniformity(b.k).value(*bin(BinaryOp::Add, bid(), b.param("n"))));
  EXPECT_FALSE(Uniformity(b.k).value(*bin(BinaryOp::Add, tid(), u(1))));
}

TEST(Uniformity, ALocalNeverAssignedIsVarying) {
  KB b;
  auto x = b.local("x");
  Uniformity U(b.k);
  EXPECT_FALSE(U.value(*L(x)));
}

}  // namespace
