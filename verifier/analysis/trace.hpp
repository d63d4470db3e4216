#pragma once
// What the symbolic execution of one thread produces (its trace): accesses and barrier
// events with path conditions, and for each access the last barrier instance it follows.
#include "analysis/array_premises.hpp"
#include "model/model.hpp"

#include <z3++.h>

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kverify::analysis::detail {

using model::AccessKind;
using model::AddressSpace;
using model::BinaryOp;
using model::Expr;
using model::ExprPtr;
using model::Kernel;
using model::Stmt;
using model::Type;
using model::UnaryOp;
namespace st = model::stmt;
namespace ex = model::expr;

constexpr int kEntry = -1;         // "no barrier passed yet"
constexpr int kStartBase = -1000;  // placeholders for "the start of loop L's iteration"

// One candidate for the last barrier instance a thread passed: under `cond`, it is
// static barrier `barrier` at the iterations `ks` of its enclosing barrier loops. An
// approximate candidate may hold where the thread passed another instance (one of the
// instances it may have passed last: a loop iteration that skipped its barriers leaves the
// one of some earlier iteration): it counts for "may be the same instance" (samePhase),
// never for "surely the same" or "surely different".
struct Cand {
  z3::expr cond;
  int barrier;
  std::vector<z3::expr> ks;
  bool approx = false;
  Cand when(const z3::expr &c) const { return Cand{cond && c, barrier, ks, approx}; }
  bool exact() const { return !approx && (barrier >= 0 || barrier == kEntry); }  // no placeholder
};
using LB = std::vector<Cand>;

// Phases by the barriers that end one: block barriers; those and full-mask warp barriers;
// every barrier, partial-mask __syncwarp(m) included; grid barriers (which order the
// blocks). Each access keeps, per kind, the last barrier instance it follows.
enum PhaseKind { kBlockPhase, kWarpPhase, kAnyPhase, kGridPhase, kPhaseKinds };
using Phases = std::array<LB, kPhaseKinds>;

struct LoopRef {
  std::string label;
  z3::expr k;
};

struct AccessEv {
  const Stmt *s;  // an Access
  const st::Access &access() const { return *s->as<st::Access>(); }
  z3::expr pc;
  z3::expr index;  // bv64, signed
  Phases lb;
  std::vector<LoopRef> loops;
  int seq;                          // position in the thread's trace (accesses and syncs)
  std::optional<z3::expr> stored;   // a write's integer value (benign races)
  std::optional<z3::expr> written;  // the value an atomic store or exchange writes
  model::MemoryOrder order = model::MemoryOrder::Relaxed;  // an atomic's (where constant)
};

// A __threadfence*: orders the thread's accesses before it with those after it.
struct FenceEv {
  int seq;
  z3::expr pc;
  std::vector<LoopRef> loops;
  model::Scope scope;
  const Stmt *s = nullptr;  // the Fence (where --dump-trace shows it)
};

// The threads' position in one enclosing loop: `reach` the loop, and are `in` iteration k.
struct Frame {
  z3::expr reach, in;
  const Stmt *loop;
};

// A barrier, a break/return inside a barrier loop, or the condition of a barrier loop.
// Divergence: two threads that both satisfy `guard`, at the same iterations `ks`, and are
// in those iterations of every enclosing loop both reach, disagree on `pc`.
struct SyncEv {
  const Stmt *s;
  z3::expr pc;
  std::vector<z3::expr> ks;  // all enclosing loops (and a loop's own counter)
  bool warp;
  std::optional<z3::expr> mask;
  int seq;
  z3::expr guard;
  std::vector<Frame> frames;  // all enclosing loops
};

// The value a thread read from shared memory at one of its accesses (see sharedReads).
struct LoadEv {
  size_t access;  // in Thread::accesses
  z3::expr value;
};

struct Thread {
  int t;
  // Trip counts of block-barrier loops shared by the block (race mode: only sound once the
  // divergence check has shown the loops uniform), or each thread's own (divergence mode).
  bool shared_trips = false;
  bool uniform_loops = false;      // some loop would share its trip count in race mode
  std::vector<z3::expr> tid, bid;  // u32 x,y,z
  std::vector<AccessEv> accesses;
  std::vector<SyncEv> syncs;
  std::vector<LoadEv> loads;           // shared locations read (Checker::sharedReads, rereads)
  std::vector<LoadEv> tickets;         // results of atomicAdd on a ticket counter (Checker::tickets)
  std::vector<LoadEv> block_tickets;   // tickets of the thread's block, read from shared memory
  std::vector<LoadEv> atomic_results;  // the values atomics returned (message_passing.hpp)
  std::vector<LoadEv> param_reads;     // integers loaded from pointer parameters' memory (witness)
  // the same for the last iteration of a loop a jump left, seen after the loop
  std::vector<std::pair<AccessEv, z3::expr>> last_iteration_results;
  std::vector<FenceEv> fences;
  std::vector<z3::expr> side;  // assumptions: no UB, __kverify_assume
  std::set<size_t> no_ub;      // which of them say "no UB, no wrap-around" (Checker::unreachable)
  // what each side fact says, for the user (why code is unreachable: an unsat core over them)
  std::vector<std::string> why;
  void label(const std::string &what) { why.resize(side.size(), what); }  // the facts since the last label
  // accesses and barriers dead by construction of the source (a constant condition, code
  // after a return), and why: no fact makes them so (UnreachableCode)
  std::map<const Stmt *, std::string> constant_dead;
  // the user's assumptions among them, named: --assume, KV_ASSUME at kernel entry
  std::vector<std::pair<std::string, z3::expr>> premises;
  // KV_ASSUME_FORALL: facts about array contents, used through their instances
  std::vector<ForallPremise> foralls;
  // Trace order: the program order of two events a thread executes at the same iterations
  // of the loops both are in (the body of a loop is executed symbolically once).
  int next_seq = 0;
};

// One thread's two events in the same iteration of the same loops.
inline bool sameIterations(const std::vector<LoopRef> &a, const std::vector<LoopRef> &b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].label != b[i].label || !z3::eq(a[i].k, b[i].k)) return false;
  return true;
}

inline std::string loc(const model::SourceRange &r) {
  return std::to_string(r.line) + ":" + std::to_string(r.col);
}

// Which kinds of barrier a body contains (block; block or full-mask warp; any at all).
struct BarrierInfo {
  bool block = false, any = false, part = false, grid = false;
  bool ends(int kind) const {
    return kind == kBlockPhase ? block : kind == kWarpPhase ? any : kind == kAnyPhase ? part : grid;
  }
};

inline z3::expr orOpt(const std::optional<z3::expr> &a, const z3::expr &b) { return a ? (*a || b) : b; }

inline z3::expr conj(z3::context &c, const std::vector<z3::expr> &es) {
  z3::expr_vector v(c);
  for (const z3::expr &e : es) v.push_back(e);
  return z3::mk_and(v);
}

z3::expr resize(const z3::expr &v, unsigned to, bool is_signed);  // C conversion between widths

// The last-barrier candidate sets (last_barrier.cpp).
LB mergeLB(const LB &a, const LB &b, const z3::expr &c);  // after an If: a where c, else b
LB expandLB(const LB &lb, int marker, const LB &start);   // placeholder `marker` := start
LB substLB(const LB &lb, const z3::expr &from, const z3::expr &to);
LB substLB(const LB &lb, const z3::expr_vector &from, const z3::expr_vector &to);
bool sameLB(const LB &a, const LB &b);  // the same candidates (no merge needed)
LB compactLB(const LB &lb);             // one candidate per barrier instance
// May a and b be the same barrier instance? An approximate candidate matches the instances
// of its barrier at the iterations it allows (the race query asks whether one exists); with
// `approx_match_all`, any instance, for premises ("if the same instance, then ...") that the
// solver must not escape by choosing the approximate iteration.
z3::expr samePhase(z3::context &c, const LB &a, const LB &b, bool approx_match_all = false);
}  // namespace kverify::analysis::detail
