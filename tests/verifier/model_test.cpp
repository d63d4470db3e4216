// The model's own helpers: expression printing and the factories' guarantees.
#include "model/json.hpp"
#include "model/model.hpp"

#include <gtest/gtest.h>

using namespace kverify::model;

TEST(ModelExpr, PrintsWithMinimalParentheses) {
  auto a = Expr::param(Type::i32(), "a");
  auto b = Expr::param(Type::i32(), "b");
  auto c = Expr::builtinVar(Builtin::ThreadIdxX);
  auto sum = Expr::binary(Type::i32(), BinaryOp::Add, a, b);
  EXPECT_EQ(toString(Expr::binary(Type::i32(), BinaryOp::Mul, sum, b)), "(a + b) * b");
  EXPECT_EQ(
      toString(Expr::binary(Type::i32(), BinaryOp::Add, a, Expr::binary(Type::i32(), BinaryOp::Mul, a, b))),
      "a + a * b");
  // Left-associative: a - (a - b) keeps its parentheses.
  EXPECT_EQ(
      toString(Expr::binary(Type::i32(), BinaryOp::Sub, a, Expr::binary(Type::i32(), BinaryOp::Sub, a, b))),
      "a - (a - b)");
  EXPECT_EQ(toString(Expr::cast(Type::i64(), c)), "(i64)threadIdx.x");
  EXPECT_EQ(toString(Expr::select(Expr::binary(Type::boolean(), BinaryOp::Lt, a, b), a, b)), "a < b ? a : b");
}

TEST(ModelExpr, CastToTheSameTypeIsTheOperand) {
  auto a = Expr::param(Type::u32(), "a");
  EXPECT_EQ(Expr::cast(Type::u32(), a), a);
  EXPECT_NE(Expr::cast(Type::i32(), a), a);
}

TEST(ModelExpr, TypeNamesCarryWidthAndSignedness) {
  EXPECT_EQ(Type::integer(8, false).name(), "u8");
  EXPECT_EQ(Type::i64().name(), "i64");
  EXPECT_EQ(Type::boolean().name(), "bool");
  EXPECT_EQ(Type::floating(32).name(), "f32");
  EXPECT_EQ(Expr::builtinVar(Builtin::WarpSize)->type, Type::i32());
  EXPECT_EQ(Expr::builtinVar(Builtin::GridDimZ)->type, Type::u32());
}

TEST(ModelJson, ExpressionsAreTypedTrees) {
  auto e =
      Expr::binary(Type::i64(), BinaryOp::Add, Expr::cast(Type::i64(), Expr::builtinVar(Builtin::ThreadIdxY)),
                   Expr::intConst(Type::i64(), 3));
  llvm::json::Value v = toJSON(*e);
  const llvm::json::Object *o = v.getAsObject();
  ASSERT_TRUE(o);
  EXPECT_EQ(o->getString("kind"), "binary");
  EXPECT_EQ(o->getString("op"), "+");
  EXPECT_EQ(o->getString("type"), "i64");
  const llvm::json::Array *args = o->getArray("args");
  ASSERT_TRUE(args);
  ASSERT_EQ(args->size(), 2u);
  EXPECT_EQ((*args)[0].getAsObject()->getString("kind"), "cast");
  EXPECT_EQ((*args)[1].getAsObject()->getInteger("value"), 3);
}
