// Unit tests of the analysis on hand-built kernel models (no front end involved).
#include "analysis/analysis.hpp"

#include <gtest/gtest.h>

#include "model_builder.hpp"

using namespace kverify;
using namespace kverify::analysis;
using model::BinaryOp;
using model::Builtin;
using model::Expr;
using model::ExprPtr;
using model::Stmt;
using model::Type;

namespace {

using namespace kverify::testing_support;

using model::AccessKind;

Options fixedBlock(uint64_t x, uint64_t grid = 64) {
  Options o;
  o.block_dim = {x, 1, 1};
  o.grid_dim = {grid, 1, 1};
  return o;
}

std::string describe(const KernelResult &r) {
  std::string s = std::string(verdictName(r.verdict)) + " " + r.unknown_query;
  for (const Finding &f : r.findings) {
    s += "\n" + f.message + " t1=" + std::to_string(f.witness.thread1.thread_idx[0]) + "," +
         std::to_string(f.witness.thread1.thread_idx[1]) + " b" +
         std::to_string(f.witness.thread1.block_idx[0]) +
         " t2=" + std::to_string(f.witness.thread2.thread_idx[0]) + "," +
         std::to_string(f.witness.thread2.thread_idx[1]) + " b" +
         std::to_string(f.witness.thread2.block_idx[0]) + " idx=" + f.witness.index;
    for (const analysis::LoopIteration &l : f.witness.loops)
      s += " [" + l.name() + "=" + std::to_string(l.iteration) + "]";
    for (auto &[k, v] : f.witness.params) s += " " + k + "=" + v;
  }
  return s;
}

TEST(Analysis, ReductionWithBarrierIsVerified) {
  KernelResult r = analyzeKernel(reductionKernel(true), fixedBlock(256));
  EXPECT_EQ(r.verdict, Verdict::Verified) << describe(r);
}

TEST(Analysis, ReductionSymbolicBlockIsVerified) {
  Options o;
  o.assumes = {"blockDim.x == 256 && blockDim.y == 1 && blockDim.z == 1", "gridDim.y == 1 && gridDim.z == 1"};
  KernelResult r = analyzeKernel(reductionKernel(true), o);
  EXPECT_EQ(r.verdict, Verdict::Verified) << describe(r);
}

TEST(Analysis, ReductionWithoutBarrierRaces) {
  KernelResult r = analyzeKernel(reductionKernel(false), fixedBlock(256));
  ASSERT_EQ(r.verdict, Verdict::Race);
  EXPECT_EQ(r.findings[0].array, "sdata");
  EXPECT_TRUE(r.findings[0].witness.validated);
}

TEST(Analysis, BarrierUnderThreadConditionDiverges) {
  KB b;
  b.k.body = {KB::iff(bin(BinaryOp::Lt, tid(), u(16)), {KB::sync(3)})};
  KernelResult r = analyzeKernel(b.k, Options{});
  ASSERT_EQ(r.verdict, Verdict::Divergence);
  EXPECT_TRUE(r.findings[0].witness.validated);
}

// s[tid] = tid; if (s[0] > 2) __syncthreads();: the race on s makes the threads read
// different values of s[0], so the barrier diverges too; the divergence check took the
// reads to agree (race-free), and the result says the race breaks that premise.
TEST(Analysis, ARaceBreaksThePremiseOfTheOtherChecks) {
  KB b;
  unsigned s = b.shared("s", 64);
  Stmt write = b.access(s, AccessKind::Write, tid(), 3);
  write.as<model::stmt::Access>()->value = Expr::cast(Type::i32(), tid());
  Stmt read = b.access(s, AccessKind::Read, u(0), 4);
  ExprPtr loaded = Expr::opaque(Type::i32(), read.as<model::stmt::Access>()->id, "s[0]");
  b.k.body = {write, read, KB::iff(bin(BinaryOp::Gt, loaded, i(2)), {KB::sync(5)})};
  KernelResult r = analyzeKernel(b.k, fixedBlock(64, 1));
  ASSERT_EQ(r.verdict, Verdict::Race) << describe(r);
  EXPECT_TRUE(r.race_free_premise_broken);
  // without the race (a barrier between the write and the read) the premise stands
  b.k.body.insert(b.k.body.begin() + 1, KB::sync(6));
  r = analyzeKernel(b.k, fixedBlock(64, 1));
  EXPECT_EQ(r.verdict, Verdict::Verified) << describe(r);
  EXPECT_FALSE(r.race_free_premise_broken);
}

// The hint for a race inside one warp: __syncwarp() between two statements; none for one
// statement that two threads execute at once (there is no "between").
TEST(Analysis, WarpRaceHintFitsTheFinding) {
  KB one;
  unsigned s = one.shared("s", 32);
  Stmt w = one.access(s, AccessKind::Write, u(0), 3);
  w.as<model::stmt::Access>()->value = Expr::cast(Type::i32(), tid());
  one.k.body = {w};
  KernelResult r = analyzeKernel(one.k, fixedBlock(32, 1));
  ASSERT_EQ(r.verdict, Verdict::Race) << describe(r);
  EXPECT_EQ(r.findings[0].explanation.find("between"), std::string::npos) << r.findings[0].explanation;
  EXPECT_NE(r.findings[0].explanation.find("one thread"), std::string::npos) << r.findings[0].explanation;
  KB two;
  unsigned t = two.shared("s", 32);
  two.k.body = {two.access(t, AccessKind::Write, tid(), 3),
                two.access(t, AccessKind::Read, bin(BinaryOp::BitXor, tid(), u(1)), 4)};
  r = analyzeKernel(two.k, fixedBlock(32, 1));
  ASSERT_EQ(r.verdict, Verdict::Race) << describe(r);
  EXPECT_NE(r.findings[0].explanation.find("add __syncwarp() between"), std::string::npos)
      << r.findings[0].explanation;
}

TEST(Analysis, BarrierUnderUniformConditionIsFine) {
  KB b;
  ExprPtr n = b.param("n");
  b.k.body = {KB::iff(bin(BinaryOp::Gt, n, Expr::intConst(Type::i32(), 0)), {KB::sync(3)})};
  KernelResult r = analyzeKernel(b.k, Options{});
  EXPECT_EQ(r.verdict, Verdict::Verified);
}

// `if (p != nullptr) __syncthreads();`: a parameter's null check is the same for all threads.
TEST(Analysis, BarrierUnderPointerNullCheckIsFine) {
  KB b;
  unsigned p = b.global("p");
  b.k.body = {KB::iff(Expr::notNull(p, "p"), {KB::sync(3)})};
  KernelResult r = analyzeKernel(b.k, Options{});
  EXPECT_EQ(r.verdict, Verdict::Verified) << describe(r);
}

// `if ((uintptr_t)p % 16 == 0) s[tid] = 1; else s[0] = 1;`: the address is unknown, so the
// misaligned path (a race on s[0]) is analysed too; an aligned-only kernel is not.
TEST(Analysis, AddressAlignmentIsNotAssumed) {
  KB b;
  unsigned p = b.global("p");
  unsigned s = b.shared("s", 64);
  Type u64 = Type::integer(64, false);
  ExprPtr aligned = bin(BinaryOp::Eq, bin(BinaryOp::Rem, Expr::address(p, "p"), Expr::intConst(u64, 16)),
                        Expr::intConst(u64, 0));
  b.k.body = {KB::iff(aligned, {b.access(s, AccessKind::Write, tid(), 3)},
                      {b.access(s, AccessKind::Write, u(0), 4)})};
  KernelResult r = analyzeKernel(b.k, fixedBlock(64));
  ASSERT_EQ(r.verdict, Verdict::Race) << describe(r);
  EXPECT_EQ(r.findings[0].accesses[0].range.line, 4u);
  b.k.body.back().as<model::stmt::If>()->else_body.clear();
  EXPECT_EQ(analyzeKernel(b.k, fixedBlock(64)).verdict, Verdict::Verified);
}

TEST(Analysis, GlobalPerThreadWriteIsVerified) {
  KB b;
  unsigned out = b.global("out");
  ExprPtr i = bin(BinaryOp::Add, bin(BinaryOp::Mul, bid(), bdim()), tid());
  b.k.body = {b.access(out, AccessKind::Write, i, 3)};
  KernelResult r = analyzeKernel(b.k, fixedBlock(256));
  EXPECT_EQ(r.verdict, Verdict::Verified) << describe(r);
  // symbolic launch: blockDim.y may be 2, threads (x,0) and (x,1) collide
  EXPECT_EQ(analyzeKernel(b.k, Options{}).verdict, Verdict::Race);
}

TEST(Analysis, GlobalWriteByThreadIdOnlyRacesAcrossBlocks) {
  KB b;
  unsigned out = b.global("out");
  b.k.body = {b.access(out, AccessKind::Write, tid(), 3)};
  KernelResult r = analyzeKernel(b.k, fixedBlock(256));
  ASSERT_EQ(r.verdict, Verdict::Race);
  EXPECT_NE(r.findings[0].witness.thread1.block_idx, r.findings[0].witness.thread2.block_idx);
}

TEST(Analysis, AtomicsDoNotRace) {
  KB b;
  unsigned out = b.global("out");
  b.k.body = {b.access(out, AccessKind::Atomic, u(0), 3)};
  EXPECT_EQ(analyzeKernel(b.k, Options{}).verdict, Verdict::Verified);
}

TEST(Analysis, SharedOutOfBounds) {
  KB b;
  unsigned s = b.shared("s", 128);
  b.k.body = {b.access(s, AccessKind::Write, tid(), 3)};
  KernelResult r = analyzeKernel(b.k, fixedBlock(256));
  ASSERT_EQ(r.verdict, Verdict::Oob);
  EXPECT_TRUE(r.findings[0].witness.validated);
  EXPECT_EQ(analyzeKernel(b.k, fixedBlock(128)).verdict, Verdict::Verified);
}

TEST(Analysis, GridStrideLoopIsVerified) {
  KB b;
  unsigned out = b.global("out");
  ExprPtr n = b.param("n");
  auto i = b.local("i", Type::i32());
  ExprPtr start = Expr::cast(Type::i32(), bin(BinaryOp::Add, bin(BinaryOp::Mul, bid(), bdim()), tid()));
  ExprPtr stride = Expr::cast(Type::i32(), bin(BinaryOp::Mul, bdim(), Expr::builtinVar(Builtin::GridDimX)));
  b.k.body = {KB::assign(i, start),
              KB::loop(bin(BinaryOp::Lt, L(i), n), {b.access(out, AccessKind::Write, L(i), 4)},
                       {KB::assign(i, bin(BinaryOp::Add, L(i), stride))}, 3)};
  KernelResult r = analyzeKernel(b.k, fixedBlock(128, 1000));
  EXPECT_EQ(r.verdict, Verdict::Verified) << describe(r);
}

TEST(Analysis, TimeoutGivesUnknown) {
  KernelResult r = analyzeKernel(reductionKernel(true), [] {
    Options o;
    o.timeout_s = 0.000001;
    return o;
  }());
  EXPECT_NE(r.verdict, Verdict::Verified);
}

TEST(Options, Dims) {
  std::array<std::optional<uint64_t>, 3> d{};
  ASSERT_TRUE(parseDims("[32,2]", d));
  EXPECT_EQ(*d[0], 32u);
  EXPECT_EQ(*d[1], 2u);
  EXPECT_EQ(*d[2], 1u);
  EXPECT_FALSE(parseDims("0", d));
  EXPECT_FALSE(parseDims("a,b", d));
  Options o;
  std::string err;
  ASSERT_TRUE(applyOptionString("--blockDim=[64,1] --grid-dim=8 --assume='n == 2*blockDim.x'", o, err))
      << err;
  EXPECT_EQ(*o.block_dim[0], 64u);
  EXPECT_EQ(*o.grid_dim[0], 8u);
  ASSERT_EQ(o.assumes.size(), 1u);
  EXPECT_EQ(o.assumes[0], "n == 2*blockDim.x");
  EXPECT_FALSE(applyOptionString("--bogus", o, err));
}

TEST(Options, AssumptionParser) {
  KB b;
  b.param("n");
  std::string err;
  ExprPtr e = parseAssumption("n == 2*blockDim.x && n % 32 == 0", b.k, err);
  ASSERT_TRUE(e) << err;
  EXPECT_EQ(e->type.kind, Type::Kind::Bool);
  EXPECT_FALSE(parseAssumption("m > 0", b.k, err));
  EXPECT_FALSE(parseAssumption("n >", b.k, err));
}

TEST(Options, AssumptionsNestedTooDeeplyAreRefusedNotAStackOverflow) {
  KB b;
  b.param("n");
  std::string err;
  EXPECT_TRUE(parseAssumption(std::string(60, '(') + "n > 0" + std::string(60, ')'), b.k, err)) << err;
  EXPECT_TRUE(parseAssumption(std::string(60, '!') + "n", b.k, err)) << err;
  std::string chain;  // n ? n : n ? n : ... nests in the else branch
  for (int i = 0; i < 100000; ++i) chain += "n ? n : ";
  for (const std::string &deep : {std::string(100000, '(') + "n" + std::string(100000, ')'),
                                  std::string(100000, '-') + "n", chain + "n"}) {
    err.clear();
    EXPECT_FALSE(parseAssumption(deep, b.k, err));
    EXPECT_EQ(err, "nested too deeply");
  }
}

}  // namespace

// `for (s...) { op(); __syncthreads(); }` where the inlined op returns early for some
// threads: the return leaves only op, so every thread still reaches the barrier.
model::Kernel loopWithEarlyReturn(bool inside_inlined_call) {
  KB b;
  auto s = b.local("s");
  Stmt early = KB::iff(bin(BinaryOp::Lt, tid(), u(4)), {Stmt{{}, model::stmt::Return{}}});
  Stmt call = KB::inlined("op", {early});
  b.k.body = {
      KB::assign(s, u(8)),
      KB::loop(bin(BinaryOp::Gt, L(s), u(0)), {inside_inlined_call ? call : early, KB::sync(4)},
               {KB::assign(s, bin(BinaryOp::Shr, L(s), u(1)))}, 3),
  };
  return b.k;
}

TEST(Analysis, ReturnFromAnInlinedCallInABarrierLoopIsNotDivergence) {
  KernelResult r = analyzeKernel(loopWithEarlyReturn(true), fixedBlock(64));
  EXPECT_EQ(r.verdict, Verdict::Verified) << describe(r);
}

TEST(Analysis, ReturnFromTheKernelInABarrierLoopIsDivergence) {
  KernelResult r = analyzeKernel(loopWithEarlyReturn(false), fixedBlock(64));
  EXPECT_EQ(r.verdict, Verdict::Divergence) << describe(r);
}

namespace {
using namespace kverify::testing_support;

// The analysis refuses a launch outside CUDA's limits itself (not only the CLI does): no
// launch satisfies it, so any proof would be vacuous.
TEST(Analysis, LaunchOutsideLimitsIsAnError) {
  model::Kernel k = reductionKernel(false);
  Options o;
  o.block_dim = {64, 64, 1};
  KernelResult r = analyzeKernel(k, o);
  EXPECT_EQ(r.verdict, Verdict::Error);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(r.diagnostics[0].message.find("4096 threads"), std::string::npos);
}
}  // namespace
