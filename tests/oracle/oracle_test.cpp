// Unit tests of the oracle (the concrete interpreter) on hand-built kernel models.
#include "oracle/oracle.hpp"

#include <gtest/gtest.h>

#include "model_builder.hpp"

#include <functional>
#include <optional>
#include <set>

using namespace kverify;
using namespace kverify::oracle;
using model::AccessKind;
using model::BinaryOp;
using model::Builtin;
using model::Expr;
using model::ExprPtr;
using model::Stmt;
using model::Type;

namespace {

using namespace kverify::testing_support;

Launch launch(uint32_t bx, uint32_t gx = 1) {
  Launch l;
  l.block = {bx, 1, 1};
  l.grid = {gx, 1, 1};
  return l;
}

std::vector<Finding> ofKind(const Result &r, Kind k) {
  std::vector<Finding> out;
  for (const Finding &f : r.findings)
    if (f.kind == k) out.push_back(f);
  return out;
}

TEST(Oracle, ReductionWithBarrierIsRaceFree) {
  model::Kernel k = reductionKernel(true);
  Result r = run(k, launch(256, 2));
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
  EXPECT_FALSE(r.seeded);
}

TEST(Oracle, ReductionWithoutLoopBarrierRaces) {
  model::Kernel k = reductionKernel(false);
  Result r = run(k, launch(8));
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  ASSERT_EQ(r.findings.size(), 1u);
  const Finding &f = r.findings[0];
  EXPECT_EQ(f.kind, Kind::Race);
  EXPECT_EQ(f.array, 0u);
  // Lowest colliding element: s=4: thread 0 reads sdata[4], thread 4... no, thread 4 does
  // not take the branch; round s=2: thread 0 reads sdata[2], thread 2 writes sdata[2]
  // (rounds are not separated, all in one interval) -> element 1 is the lowest: s=1 thread 0
  // reads sdata[1], thread 1 writes sdata[1] (round s=4/s=2).
  EXPECT_EQ(f.index, 1);
  std::set<uint32_t> threads = {f.first.thread.thread[0], f.second.thread.thread[0]};
  EXPECT_EQ(threads, (std::set<uint32_t>{0, 1}));
  ASSERT_NE(f.first.stmt, nullptr);
  ASSERT_NE(f.second.stmt, nullptr);
  EXPECT_TRUE(f.first.stmt->as<model::stmt::Access>()->kind == AccessKind::Write ||
              f.second.stmt->as<model::stmt::Access>()->kind == AccessKind::Write);
  // The accesses are inside the loop: their iterations are reported.
  EXPECT_EQ(f.first.iterations.size(), 1u);
}

// A grid barrier only block 0 reaches: every block agrees with itself, the grid does not.
TEST(Oracle, GridBarrierReachedByOneBlockDiverges) {
  KB b;
  Stmt grid = KB::sync(3);
  *grid.as<model::stmt::Barrier>() = {model::BarrierKind::Grid, "grid_group::sync", nullptr, nullptr};
  b.k.body = {KB::iff(bin(BinaryOp::Eq, bid(), u(0)), {grid})};
  Result r = run(b.k, launch(8, 2));
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  auto d = ofKind(r, Kind::Divergence);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].first.thread.block[0], 0u);
  EXPECT_EQ(d[0].second.thread.block[0], 1u);
  EXPECT_EQ(d[0].second.stmt, nullptr);  // block 1 never arrives
  Result same = run(b.k, launch(8, 1));  // one block: nothing to disagree with
  EXPECT_TRUE(ofKind(same, Kind::Divergence).empty());
}

TEST(Oracle, EarlyReturnBeforeBarrierDiverges) {
  KB b;
  unsigned s = b.shared("s", 64);
  b.k.body = {KB::iff(bin(BinaryOp::Ge, tid(), u(16)), {KB::ret(2)}),
              b.access(s, AccessKind::Write, tid(), 3), KB::sync(4),
              b.access(s, AccessKind::Read, bin(BinaryOp::Add, tid(), u(1)), 5)};
  Result r = run(b.k, launch(32));
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  auto d = ofKind(r, Kind::Divergence);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].first.thread.thread[0], 0u);
  EXPECT_EQ(d[0].second.thread.thread[0], 16u);
  ASSERT_NE(d[0].first.stmt, nullptr);
  EXPECT_TRUE(d[0].first.stmt->is<model::stmt::Barrier>());
  EXPECT_EQ(d[0].second.stmt, nullptr);  // thread 16 had ended
  EXPECT_TRUE(ofKind(r, Kind::Race).empty());
}

TEST(Oracle, ReturnInsideInlinedLeavesOnlyTheRegion) {
  KB b;
  Stmt inl = KB::inlined("f", {KB::iff(bin(BinaryOp::Ge, tid(), u(16)), {KB::ret(2)})});
  b.k.body = {inl, KB::sync(4)};
  Result r = run(b.k, launch(32));
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  EXPECT_TRUE(r.findings.empty());
}

TEST(Oracle, BarrierInLoopWithThreadDependentTripCountDiverges) {
  KB b;
  auto i = b.local("i");
  b.k.body = {KB::assign(i, u(0)), KB::loop(bin(BinaryOp::Lt, L(i), tid()), {KB::sync(3)},
                                            {KB::assign(i, bin(BinaryOp::Add, L(i), u(1)))}, 2)};
  Result r = run(b.k, launch(4));
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  auto d = ofKind(r, Kind::Divergence);
  ASSERT_EQ(d.size(), 1u);
  // Position 0: thread 0 has ended, thread 1 waits at the barrier in iteration 0.
  EXPECT_EQ(d[0].index, 0);
  EXPECT_EQ(d[0].first.stmt, nullptr);
  EXPECT_EQ(d[0].second.thread.thread[0], 1u);
  ASSERT_EQ(d[0].second.iterations.size(), 1u);
  EXPECT_EQ(d[0].second.iterations[0].k, 0u);
}

TEST(Oracle, OutOfBoundsWrite) {
  KB b;
  unsigned s = b.shared("s", 32);
  b.k.body = {b.access(s, AccessKind::Write, bin(BinaryOp::Add, tid(), u(1)), 2)};
  Result r = run(b.k, launch(32));
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  auto o = ofKind(r, Kind::Oob);
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].index, 32);
  EXPECT_EQ(o[0].first.thread.thread[0], 31u);
  EXPECT_TRUE(ofKind(r, Kind::Race).empty());
  // 31 threads stay inside.
  EXPECT_TRUE(run(b.k, launch(31)).findings.empty());
}

// Lane t writes s[t], then reads s[t+1] (a neighbour's): needs a warp barrier between.
model::Kernel warpNeighbour(std::optional<ExprPtr> sync_mask) {
  KB b;
  unsigned s = b.shared("s", 64);
  b.k.body = {b.access(s, AccessKind::Write, tid(), 2)};
  if (sync_mask) b.k.body.push_back(KB::syncwarp(3, *sync_mask));
  b.k.body.push_back(b.access(s, AccessKind::Read, bin(BinaryOp::Add, tid(), u(1)), 4));
  return b.k;
}

TEST(Oracle, WarpSynchronousWithoutSyncwarpRaces) {
  model::Kernel k = warpNeighbour(std::nullopt);
  Result r = run(k, launch(32));
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  auto races = ofKind(r, Kind::Race);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].index, 1);
  std::set<uint32_t> threads = {races[0].first.thread.thread[0], races[0].second.thread.thread[0]};
  EXPECT_EQ(threads, (std::set<uint32_t>{0, 1}));
}

TEST(Oracle, FullSyncwarpOrders) {
  Result r = run(warpNeighbour(ExprPtr(nullptr)), launch(32));
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
  r = run(warpNeighbour(u(0xffffffff)), launch(32));
  EXPECT_TRUE(r.findings.empty());
}

TEST(Oracle, SyncwarpDoesNotOrderAcrossWarps) {
  // 64 threads: lane 31 of warp 0 reads s[32], written by lane 0 of warp 1.
  Result r = run(warpNeighbour(ExprPtr(nullptr)), launch(64));
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  auto races = ofKind(r, Kind::Race);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].index, 32);
  std::set<uint32_t> threads = {races[0].first.thread.thread[0], races[0].second.thread.thread[0]};
  EXPECT_EQ(threads, (std::set<uint32_t>{31, 32}));
}

TEST(Oracle, PartialMaskOrdersOnlyItsLanes) {
  // Every lane executes __syncwarp(0x0000ffff) (it names lanes 0..15 only): lanes 0..15
  // are ordered; lanes 15 and 16 are not (16 is not in the mask), and lanes >= 16 are
  // not in their own mask (so they synchronise with nobody).
  // That is also a divergence by our matching rule? No: lane a's events naming b are
  // matched by b's events naming a; lane 16's mask names 0..15, lane 0's names 0..15 but
  // not 16, so lane 16's events naming 0 (one) are not matched by lane 0's naming 16 (none).
  model::Kernel k = warpNeighbour(u(0x0000ffff));
  Result r = run(k, launch(32));
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  EXPECT_EQ(ofKind(r, Kind::Divergence).size(), 1u);

  // Lanes >= 16 skip the barrier; the half-warp barrier orders lanes 0..15 among
  // themselves; lane 15 reads s[16] written by lane 16: the only race.
  KB b;
  unsigned s = b.shared("s", 64);
  b.k.body = {b.access(s, AccessKind::Write, tid(), 2),
              KB::iff(bin(BinaryOp::Lt, tid(), u(16)), {KB::syncwarp(3, u(0x0000ffff))}),
              b.access(s, AccessKind::Read, bin(BinaryOp::Add, tid(), u(1)), 4)};
  r = run(b.k, launch(32));
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  EXPECT_TRUE(ofKind(r, Kind::Divergence).empty());
  auto races = ofKind(r, Kind::Race);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].index, 16);
  std::set<uint32_t> threads = {races[0].first.thread.thread[0], races[0].second.thread.thread[0]};
  EXPECT_EQ(threads, (std::set<uint32_t>{15, 16}));
}

TEST(Oracle, GlobalRaceAcrossBlocks) {
  // out[threadIdx.x] = ...: blocks collide; out[blockIdx.x*blockDim.x + threadIdx.x] do not.
  KB b;
  unsigned out = b.global("out");
  b.k.body = {b.access(out, AccessKind::Write, tid(), 2)};
  Result r = run(b.k, launch(32, 2));
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  auto races = ofKind(r, Kind::Race);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].index, 0);
  EXPECT_EQ(races[0].first.thread.thread[0], 0u);
  EXPECT_EQ(races[0].second.thread.thread[0], 0u);
  EXPECT_NE(races[0].first.thread.block[0], races[0].second.thread.block[0]);
  EXPECT_TRUE(run(b.k, launch(32, 1)).findings.empty());

  KB c;
  unsigned out2 = c.global("out");
  c.k.body = {
      c.access(out2, AccessKind::Write, bin(BinaryOp::Add, bin(BinaryOp::Mul, bid(), bdim()), tid()), 2)};
  EXPECT_TRUE(run(c.k, launch(32, 4)).findings.empty());
  // Same for a shared array: blocks have their own.
  KB d;
  unsigned sh = d.shared("s", 32);
  d.k.body = {d.access(sh, AccessKind::Write, tid(), 2)};
  EXPECT_TRUE(run(d.k, launch(32, 2)).findings.empty());
}

// array[0] = value, a write that records what it stores.
Stmt store(KB &b, unsigned array, ExprPtr value, unsigned line) {
  Stmt s = b.access(array, AccessKind::Write, u(0), line);
  s.as<model::stmt::Access>()->value = value;
  return s;
}

TEST(Oracle, ReadOfTheReadersOwnValueIsBenign) {
  // flag = 1; ... = flag;: the read races with the other threads' stores of 1, but its
  // thread stored 1 there first: it reads 1 whichever store lands last.
  KB b;
  unsigned flag = b.shared("flag", 1);
  b.k.body = {store(b, flag, i(1), 3), b.access(flag, AccessKind::Read, u(0), 4)};
  Result r = run(b.k, launch(64));
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  EXPECT_TRUE(ofKind(r, Kind::Race).empty()) << ofKind(r, Kind::Race).front().message;
  EXPECT_EQ(ofKind(r, Kind::BenignRace).size(), 1u);
  // the same across blocks, in global memory
  KB g;
  unsigned gflag = g.global("flag");
  g.k.body = {store(g, gflag, i(1), 3), g.access(gflag, AccessKind::Read, u(0), 4)};
  r = run(g.k, launch(32, 2));
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  EXPECT_TRUE(ofKind(r, Kind::Race).empty()) << ofKind(r, Kind::Race).front().message;
  EXPECT_EQ(ofKind(r, Kind::BenignRace).size(), 1u);
}

TEST(Oracle, ReadRacesUnlessItsThreadStoredTheSameValueFirstInTheInterval) {
  auto racy = [](KB &b) {
    Result r = run(b.k, launch(64));
    EXPECT_EQ(r.status, Result::Status::Ok) << r.detail;
    return ofKind(r, Kind::Race).size() == 1;
  };
  {  // the read comes before its thread's store
    KB b;
    unsigned flag = b.shared("flag", 1);
    b.k.body = {b.access(flag, AccessKind::Read, u(0), 3), store(b, flag, i(1), 4)};
    EXPECT_TRUE(racy(b));
  }
  {  // the reader stored its parity: another thread's differs
    KB b;
    unsigned flag = b.shared("flag", 1);
    b.k.body = {store(b, flag, Expr::cast(Type::i32(), bin(BinaryOp::BitAnd, tid(), u(1))), 3),
                b.access(flag, AccessKind::Read, u(0), 4)};
    EXPECT_TRUE(racy(b));
  }
  {  // thread 0 reads without storing first
    KB b;
    unsigned flag = b.shared("flag", 1);
    b.k.body = {KB::iff(bin(BinaryOp::Ne, tid(), u(0)), {store(b, flag, i(1), 3)}),
                b.access(flag, AccessKind::Read, u(0), 4)};
    EXPECT_TRUE(racy(b));
  }
  {  // thread 0 stored 1 (then 0) before the barrier, reads after it while the others store 1
    KB b;
    unsigned flag = b.shared("flag", 1);
    b.k.body = {KB::iff(bin(BinaryOp::Eq, tid(), u(0)), {store(b, flag, i(1), 3), store(b, flag, i(0), 4)}),
                KB::sync(5),
                KB::iff(bin(BinaryOp::Eq, tid(), u(0)), {b.access(flag, AccessKind::Read, u(0), 6)},
                        {store(b, flag, i(1), 7)})};
    EXPECT_TRUE(racy(b));
  }
  {  // a __syncwarp() between the store and the read: other warps' stores race with the read
    KB b;
    unsigned flag = b.shared("flag", 1);
    b.k.body = {store(b, flag, i(1), 3), KB::syncwarp(4), b.access(flag, AccessKind::Read, u(0), 5)};
    EXPECT_TRUE(racy(b));
  }
}

// A value one thread stores before a barrier is what every thread reads after it, also the
// threads that run before the storing one in this sequential run: thread 6 stores v in
// s1[6], a barrier, each thread t writes s0[(s1[6] - t) % 8], distinct elements.
TEST(Oracle, ReadsAfterABarrierSeeTheStoreOfAThreadThatRunsLater) {
  KB b;
  unsigned s0 = b.shared("s0", 8), s1 = b.shared("s1", 8);
  model::Local v = b.local("v", Type::i32());
  Stmt load = b.access(s1, AccessKind::Read, u(6), 5);
  unsigned id = load.as<model::stmt::Access>()->id;
  ExprPtr loaded = Expr::opaque(Type::i32(), id, "s1[6]");
  ExprPtr index = bin(BinaryOp::Rem, bin(BinaryOp::Sub, Expr::cast(Type::u32(), loaded), tid()), u(8));
  Stmt publish = store(b, s1, b.param("x"), 3);
  publish.as<model::stmt::Access>()->index = Expr::cast(Type::i64(), u(6));
  b.k.body = {KB::iff(bin(BinaryOp::Eq, tid(), u(6)), {publish}), KB::sync(4), load, KB::assign(v, loaded),
              store(b, s0, i(1), 6)};
  b.k.body.back().as<model::stmt::Access>()->index = Expr::cast(Type::i64(), index);
  for (uint64_t seed : {0, 1, 2, 3}) {
    Launch l = launch(8);
    l.seed = seed;
    Result r = run(b.k, l);
    ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
    EXPECT_TRUE(r.findings.empty()) << "seed " << seed << ": " << r.findings.front().message;
  }
}

// Arrays of structs are addressed in bytes: `count` bytes from `index`.
TEST(Oracle, SameValueWritesAreBenignOnlyOnTheSameBytes) {
  auto findings = [](ExprPtr odd_index) {
    KB b;
    unsigned s = b.shared("s", 8);
    b.k.arrays[s].elem_size = 1;
    b.k.arrays[s].by_bytes = true;
    Stmt even = store(b, s, i(1), 3), odd = store(b, s, i(1), 5);
    even.as<model::stmt::Access>()->count = 4;
    odd.as<model::stmt::Access>()->count = 4;
    odd.as<model::stmt::Access>()->index = Expr::cast(Type::i64(), odd_index);
    b.k.body = {KB::iff(bin(BinaryOp::Eq, bin(BinaryOp::BitAnd, tid(), u(1)), u(0)), {even}, {odd})};
    Result r = run(b.k, launch(2));
    EXPECT_EQ(r.status, Result::Status::Ok) << r.detail;
    return std::make_pair(ofKind(r, Kind::Race).size(), ofKind(r, Kind::BenignRace).size());
  };
  EXPECT_EQ(findings(u(0)), std::make_pair(size_t(0), size_t(1)));  // one value on bytes 0..3
  EXPECT_EQ(findings(u(2)), std::make_pair(size_t(1), size_t(0)));  // bytes 2..3 of both: not one value
  EXPECT_EQ(findings(u(4)), std::make_pair(size_t(0), size_t(0)));  // two fields: no race
}

TEST(Oracle, LaunchBlocksSubsetAndMalformedLaunch) {
  KB b;
  unsigned out = b.global("out");
  b.k.body = {b.access(out, AccessKind::Write, tid(), 2)};
  Launch l = launch(32, 8);
  l.blocks = {{3, 0, 0}, {3, 0, 0}};  // one block, named twice
  EXPECT_TRUE(run(b.k, l).findings.empty());
  l.blocks = {{3, 0, 0}, {5, 0, 0}};
  Result r = run(b.k, l);
  ASSERT_EQ(ofKind(r, Kind::Race).size(), 1u);
  EXPECT_EQ(ofKind(r, Kind::Race)[0].second.thread.block[0], 5u);
  l.blocks = {{8, 0, 0}};
  EXPECT_EQ(run(b.k, l).status, Result::Status::Unsupported);
  EXPECT_EQ(run(b.k, launch(0)).status, Result::Status::Unsupported);
}

// s[t] written by thread 1, and by thread 0 when `cond_expr` (over t) holds without UB.
model::Kernel writeWhen(std::function<ExprPtr(ExprPtr t)> value, ExprPtr *out_param = nullptr) {
  KB b;
  unsigned s = b.shared("s", 32);
  ExprPtr total = b.param("total");
  if (out_param) *out_param = total;
  auto t = b.local("t");
  auto q = b.local("q", Type::i32());
  b.k.body = {KB::assign(t, tid()), KB::assign(q, value(Expr::cast(Type::i32(), L(t)))),
              KB::iff(bin(BinaryOp::Eq, L(t), u(0)), {b.access(s, AccessKind::Write, u(0), 5)}),
              KB::iff(bin(BinaryOp::Eq, L(t), u(1)), {b.access(s, AccessKind::Write, u(0), 6)})};
  return b.k;
}

TEST(Oracle, UbOnlyOnTheEvaluatedArmOfSelect) {
  // q = (t == 0) ? 0 : total / t: no division by zero is evaluated.
  model::Kernel k = writeWhen([](ExprPtr t) {
    return Expr::select(bin(BinaryOp::Eq, t, i(0)), i(0),
                        bin(BinaryOp::Div, Expr::param(Type::i32(), "total"), t));
  });
  Launch l = launch(32);
  l.params["total"] = 100;
  Result r = run(k, l);
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  ASSERT_EQ(ofKind(r, Kind::Race).size(), 1u);
  // q = (t != 0) ? 0 : total / t: thread 0 divides by zero.
  model::Kernel k2 = writeWhen([](ExprPtr t) {
    return Expr::select(bin(BinaryOp::Ne, t, i(0)), i(0),
                        bin(BinaryOp::Div, Expr::param(Type::i32(), "total"), t));
  });
  r = run(k2, l);
  EXPECT_EQ(r.status, Result::Status::Ub);
  EXPECT_NE(r.detail.find("division by zero"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("(0,0,0)"), std::string::npos) << r.detail;
  EXPECT_TRUE(r.findings.empty());
}

TEST(Oracle, ShortCircuitAndOr) {
  // (t != 0 && total / t > 1): no UB. (t == 0 || total / t > 1): none either.
  // (t == 0 && total / t > 1): thread 0 divides by zero.
  auto div = [](ExprPtr t) {
    return bin(BinaryOp::Gt, bin(BinaryOp::Div, Expr::param(Type::i32(), "total"), t), i(1));
  };
  Launch l = launch(32);
  l.params["total"] = 100;
  auto cast = [](ExprPtr b) { return Expr::cast(Type::i32(), b); };
  model::Kernel a =
      writeWhen([&](ExprPtr t) { return cast(bin(BinaryOp::LAnd, bin(BinaryOp::Ne, t, i(0)), div(t))); });
  EXPECT_EQ(run(a, l).status, Result::Status::Ok);
  model::Kernel o =
      writeWhen([&](ExprPtr t) { return cast(bin(BinaryOp::LOr, bin(BinaryOp::Eq, t, i(0)), div(t))); });
  EXPECT_EQ(run(o, l).status, Result::Status::Ok);
  model::Kernel bad =
      writeWhen([&](ExprPtr t) { return cast(bin(BinaryOp::LAnd, bin(BinaryOp::Eq, t, i(0)), div(t))); });
  EXPECT_EQ(run(bad, l).status, Result::Status::Ub);
}

TEST(Oracle, SignedOverflowIsUbUnsignedWraps) {
  Launch l = launch(2);
  l.params["total"] = 0x7fffffff;
  model::Kernel k =
      writeWhen([](ExprPtr t) { return bin(BinaryOp::Add, Expr::param(Type::i32(), "total"), t); });
  Result r = run(k, l);
  EXPECT_EQ(r.status, Result::Status::Ub);
  EXPECT_NE(r.detail.find("(1,0,0)"), std::string::npos) << r.detail;  // thread 1 overflows
  // INT_MIN / -1 and % -1.
  l.params["total"] = INT32_MIN;
  for (BinaryOp op : {BinaryOp::Div, BinaryOp::Rem}) {
    model::Kernel m = writeWhen([op](ExprPtr) { return bin(op, Expr::param(Type::i32(), "total"), i(-1)); });
    EXPECT_EQ(run(m, l).status, Result::Status::Ub);
  }
  // Negation of INT_MIN.
  model::Kernel n = writeWhen([](ExprPtr) {
    return Expr::unary(Type::i32(), model::UnaryOp::Neg, Expr::param(Type::i32(), "total"));
  });
  EXPECT_EQ(run(n, l).status, Result::Status::Ub);
  // Unsigned: wraps, no UB.
  l.params["total"] = 0;
  model::Kernel w = writeWhen([](ExprPtr t) {
    return Expr::cast(Type::i32(), bin(BinaryOp::Sub, Expr::cast(Type::u32(), t), u(5)));
  });
  EXPECT_EQ(run(w, l).status, Result::Status::Ok);
}

TEST(Oracle, FalseAssumeStopsTheRun) {
  KB b;
  unsigned s = b.shared("s", 32);
  ExprPtr n = b.param("n");
  b.k.body = {KB::assume(bin(BinaryOp::Eq, n, i(32))), b.access(s, AccessKind::Write, u(0), 3)};
  Launch l = launch(32);
  l.params["n"] = 31;
  Result r = run(b.k, l);
  EXPECT_EQ(r.status, Result::Status::Assumption);
  EXPECT_TRUE(r.findings.empty());
  l.params["n"] = 32;
  r = run(b.k, l);
  ASSERT_EQ(r.status, Result::Status::Ok);
  EXPECT_EQ(ofKind(r, Kind::Race).size(), 1u);
}

// KV_ASSUME_FORALL(i, 0, n, a[i] < bound): checked at every index on the drawn contents of
// the read-only array a; not used (the run goes on) where the kernel writes a.
TEST(Oracle, ForallAssumptionCheckedOverItsRange) {
  for (bool written : {false, true}) {
    KB b;
    unsigned a = b.global("a");
    ExprPtr n = b.param("n");
    model::Local idx{"i", 900, Type::i64()};
    model::stmt::Assume q;
    q.forall = {idx};
    q.lo = Expr::intConst(Type::i64(), 0);
    q.hi = Expr::cast(Type::i64(), n);
    q.cond = bin(BinaryOp::Lt, Expr::element(Type::i32(), a, Expr::local(idx), 1, "a"), b.param("bound"));
    b.k.body = {model::Stmt{model::SourceRange{}, q}};
    if (written) b.k.body.push_back(b.access(a, AccessKind::Write, u(0), 4));
    Launch l = launch(1);
    l.params["n"] = 64;
    l.params["bound"] = -1000;  // no drawn value is below it
    EXPECT_EQ(run(b.k, l).status, written ? Result::Status::Ok : Result::Status::Assumption) << written;
    l.params["bound"] = 1 << 30;  // every drawn value is
    EXPECT_EQ(run(b.k, l).status, Result::Status::Ok) << written;
    l.params["n"] = 0;  // an empty range asserts nothing
    l.params["bound"] = -1000;
    EXPECT_EQ(run(b.k, l).status, Result::Status::Ok) << written;
  }
}

TEST(Oracle, StepLimit) {
  KB b;
  b.k.body = {KB::loop(nullptr, {KB::sync(3)}, {}, 2)};
  Launch l = launch(4);
  l.max_steps = 1000;
  Result r = run(b.k, l);
  EXPECT_EQ(r.status, Result::Status::StepLimit);
  // A loop with a Break ends.
  KB c;
  c.k.body = {KB::loop(nullptr, {KB::sync(3), KB::brk(4)}, {}, 2)};
  EXPECT_EQ(run(c.k, l).status, Result::Status::Ok);
}

TEST(Oracle, ConstantWrite) {
  KB b;
  unsigned c = b.array("table", model::AddressSpace::Constant, 16);
  b.k.body = {b.access(c, AccessKind::Read, tid(), 2)};
  EXPECT_TRUE(run(b.k, launch(16)).findings.empty());
  b.k.body.push_back(b.access(c, AccessKind::Write, u(3), 3));
  Result r = run(b.k, launch(16));
  auto w = ofKind(r, Kind::ConstantWrite);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].index, 3);
  EXPECT_EQ(w[0].array, c);
}

TEST(Oracle, UnsupportedKernel) {
  KB b;
  b.k.unsupported.push_back({"inline asm", "", {}});
  EXPECT_EQ(run(b.k, launch(1)).status, Result::Status::Unsupported);
}

// Evaluates `e == expected` (bool) in thread 0.
bool equals(ExprPtr e, ExprPtr expected) {
  KB b;
  Launch l = launch(1);
  std::optional<bool> r = evaluate(b.k, l, *bin(BinaryOp::Eq, e, expected));
  return r.has_value() && *r;
}

TEST(Oracle, NarrowUnsignedArithmeticWraps) {
  Type u8 = Type::integer(8, false);
  ExprPtr a = Expr::intConst(u8, 200), b = Expr::intConst(u8, 100);
  EXPECT_TRUE(equals(bin(BinaryOp::Add, a, b), Expr::intConst(u8, 44)));
  EXPECT_TRUE(equals(bin(BinaryOp::Sub, b, a), Expr::intConst(u8, 156)));
  EXPECT_TRUE(equals(bin(BinaryOp::Mul, a, b), Expr::intConst(u8, (200 * 100) & 255)));
  EXPECT_TRUE(equals(Expr::unary(u8, model::UnaryOp::BitNot, b), Expr::intConst(u8, 155)));
  // Zero extension of u8 to i32, sign extension of i8 (200 = -56).
  Type i8 = Type::integer(8, true);
  EXPECT_TRUE(equals(Expr::cast(Type::i32(), a), i(200)));
  EXPECT_TRUE(equals(Expr::cast(Type::i32(), Expr::cast(i8, a)), i(-56)));
  // Truncation.
  EXPECT_TRUE(equals(Expr::cast(u8, u(0x1234)), Expr::intConst(u8, 0x34)));
  // u32 wrap.
  EXPECT_TRUE(equals(bin(BinaryOp::Sub, u(0), u(1)), u(0xffffffff)));
  // Casts to bool and from float.
  EXPECT_TRUE(equals(Expr::cast(Type::boolean(), u(256)), Expr::intConst(Type::boolean(), 1)));
  EXPECT_TRUE(equals(Expr::cast(Type::i32(), Expr::floatConst(Type::floating(32), -2.75)), i(-2)));
  EXPECT_TRUE(equals(Expr::cast(Type::floating(64), i(-3)), Expr::floatConst(Type::floating(64), -3.0)));
  // Signed u8->i8 arithmetic overflow is UB at i8's width.
  KB kb;
  EXPECT_FALSE(
      evaluate(kb.k, launch(1),
               *bin(BinaryOp::Eq, bin(BinaryOp::Add, Expr::intConst(i8, 100), Expr::intConst(i8, 100)),
                    Expr::intConst(i8, 0)))
          .has_value());
}

TEST(Oracle, Shifts) {
  // Logical for unsigned, arithmetic for signed; amounts >= width give 0 or the sign fill.
  EXPECT_TRUE(equals(bin(BinaryOp::Shr, u(0x80000000), u(4)), u(0x08000000)));
  EXPECT_TRUE(equals(bin(BinaryOp::Shr, i(-64), i(4)), i(-4)));
  EXPECT_TRUE(equals(bin(BinaryOp::Shl, u(1), u(31)), u(0x80000000)));
  EXPECT_TRUE(equals(bin(BinaryOp::Shl, u(1), u(32)), u(0)));
  EXPECT_FALSE(equals(bin(BinaryOp::Shl, u(1), u(32)), u(1)));  // the helper can fail
  EXPECT_TRUE(equals(bin(BinaryOp::Shr, u(0xffffffff), u(40)), u(0)));
  EXPECT_TRUE(equals(bin(BinaryOp::Shr, i(-5), i(40)), i(-1)));
  EXPECT_TRUE(equals(bin(BinaryOp::Shr, i(5), i(40)), i(0)));
  EXPECT_TRUE(equals(bin(BinaryOp::Shl, i(3), i(30)), i(static_cast<int32_t>(0xc0000000u))));
  Type u8 = Type::integer(8, false);
  EXPECT_TRUE(
      equals(bin(BinaryOp::Shl, Expr::intConst(u8, 0x81), Expr::intConst(u8, 1)), Expr::intConst(u8, 2)));
}

TEST(Oracle, SignedDivisionTruncates) {
  EXPECT_TRUE(equals(bin(BinaryOp::Div, i(-7), i(2)), i(-3)));
  EXPECT_TRUE(equals(bin(BinaryOp::Rem, i(-7), i(2)), i(-1)));
  EXPECT_TRUE(equals(bin(BinaryOp::Div, i(7), i(-2)), i(-3)));
  EXPECT_TRUE(equals(bin(BinaryOp::Rem, i(7), i(-2)), i(1)));
  EXPECT_TRUE(equals(bin(BinaryOp::Div, u(0xfffffff9), u(2)), u(0x7ffffffc)));
  KB kb;
  EXPECT_FALSE(
      evaluate(kb.k, launch(1), *bin(BinaryOp::Eq, bin(BinaryOp::Rem, u(1), u(0)), u(0))).has_value());
}

TEST(Oracle, OpaqueValuesAreSeededAndDeterministic) {
  KB b;
  unsigned s = b.shared("s", 64);
  // s[opaque] written by every thread: with most seeds some two threads collide.
  b.k.body = {b.access(s, AccessKind::Write,
                       Expr::cast(Type::u32(), Expr::opaque(Type::integer(8, false), 99, "load")), 2)};
  Launch l = launch(32);
  int races = 0;
  for (uint64_t seed = 0; seed < 8; ++seed) {
    l.seed = seed;
    Result r1 = run(b.k, l), r2 = run(b.k, l);
    EXPECT_TRUE(r1.seeded);
    ASSERT_EQ(r1.findings.size(), r2.findings.size());
    for (size_t j = 0; j < r1.findings.size(); ++j) EXPECT_EQ(r1.findings[j].index, r2.findings[j].index);
    races += !ofKind(r1, Kind::Race).empty();
  }
  EXPECT_GT(races, 0);
}

}  // namespace

namespace {

// A few thousand threads and ~10^5 events: a launch of the size the fixture test uses
// (its time is in the test's output; it runs in milliseconds).
TEST(Oracle, LargeLaunch) {
  KB b;
  unsigned s = b.shared("s", 1024);
  unsigned g = b.global("g");
  auto i = b.local("i");
  b.k.body = {
      KB::assign(i, u(0)),
      KB::loop(bin(BinaryOp::Lt, L(i), u(12)),
               {b.access(s, AccessKind::Write, tid(), 3), KB::sync(4),
                b.access(s, AccessKind::Read, bin(BinaryOp::BitXor, tid(), u(1)), 5), KB::syncwarp(6),
                KB::sync(7)},
               {KB::assign(i, bin(BinaryOp::Add, L(i), u(1)))}, 2),
      b.access(g, AccessKind::Write, bin(BinaryOp::Add, bin(BinaryOp::Mul, bid(), bdim()), tid()), 9)};
  Launch l = launch(1024, 4);
  Result r = run(b.k, l);  // 4096 threads x 61 events
  ASSERT_EQ(r.status, Result::Status::Ok) << r.detail;
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
}

}  // namespace
