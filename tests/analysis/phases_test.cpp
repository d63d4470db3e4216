// The alignment pass (analysis/phases.hpp) on hand-built models.
#include "analysis/phases.hpp"

#include <gtest/gtest.h>

#include "model_builder.hpp"

using namespace kverify;
using namespace kverify::analysis;
using namespace kverify::testing_support;
using model::AccessKind;

namespace {

TEST(Phases, SplitAtBlockBarriersWithTheLoopBackEdge) {
  // write@5 | sync@6 | loop { 3 accesses@10; sync@11 } | 2 accesses@13
  std::vector<Phase> ps = reportPhases(alignPhases(reductionKernel(true)));
  ASSERT_EQ(ps.size(), 4u);
  std::vector<std::array<unsigned, 3>> got;
  for (const Phase &p : ps) got.push_back({p.begin.line, p.end.line, p.accesses});
  std::vector<std::array<unsigned, 3>> want = {{1, 6, 1}, {6, 11, 3}, {11, 1, 2}, {11, 11, 3}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(alignPhases(reductionKernel(false)).phases.size(), 2u);  // no back edge without a barrier
}

// A grid barrier (grid.sync()) synchronizes the block too: it ends a phase, as in the
// analysis; a warp barrier does not.
TEST(Phases, GridBarriersEndAPhaseWarpBarriersDoNot) {
  KB b;
  unsigned s = b.shared("s", 64);
  Stmt grid = KB::sync(4), warp = KB::syncwarp(6);
  grid.as<model::stmt::Barrier>()->kind = model::BarrierKind::Grid;
  b.k.body = {b.access(s, AccessKind::Write, tid(), 3), grid, b.access(s, AccessKind::Read, tid(), 5), warp,
              b.access(s, AccessKind::Read, tid(), 7)};
  std::vector<Phase> ps = reportPhases(alignPhases(b.k));
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(ps[0].end.line, 4u);
  EXPECT_EQ(ps[1].accesses, 2u);
}

// A loop nested in a barrier loop: the inner loop's back edge (around its own barrier),
// then the outer one's, each with the accesses it spans; --dump-phases prints them.
TEST(Phases, NestedBarrierLoopsEachAddTheirBackEdge) {
  KB b;
  unsigned s = b.shared("s", 64);
  auto i = b.local("i"), j = b.local("j");
  Stmt inner = KB::loop(
      bin(BinaryOp::Lt, L(j), u(4)),
      {b.access(s, AccessKind::Write, tid(), 5), KB::sync(6), b.access(s, AccessKind::Read, tid(), 7)},
      {KB::assign(j, bin(BinaryOp::Add, L(j), u(1)))}, 4);
  b.k.body = {KB::loop(bin(BinaryOp::Lt, L(i), u(4)), {KB::assign(j, u(0)), inner, KB::sync(9)},
                       {KB::assign(i, bin(BinaryOp::Add, L(i), u(1)))}, 3)};
  PhasedKernel p = alignPhases(b.k);
  ASSERT_EQ(p.phases.size(), 5u);  // entry->6, 6->9, 9->exit, back edges of 4 and of 3
  EXPECT_EQ(p.phases[3].loop, &b.k.body[0].as<model::stmt::Loop>()->body[1]);
  EXPECT_EQ(p.phases[3].accesses.size(), 2u);  // 7 then (around) 5
  EXPECT_EQ(p.phases[4].loop, &b.k.body[0]);
  EXPECT_EQ(p.phases[4].accesses.size(), 1u);  // from 9 around to 6: the write at 5
  std::string text = toText(p);
  EXPECT_NE(
      text.find("kernel k: 5 phases\nphase 1: entry -> 6:5 __syncthreads\n  5:5 write s[(i64)threadIdx.x]\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("phase 4: 6:5 __syncthreads -> 6:5 __syncthreads (back edge of the loop at 4:3)\n"
                      "  7:5 read s[(i64)threadIdx.x]\n  5:5 write s[(i64)threadIdx.x]\n"),
            std::string::npos)
      << text;
}

}  // namespace
