// The Z3 encoding: per-thread symbolic execution, barrier divergence, races, bounds,
// witnesses. See analysis.hpp for the passes and DESIGN.md for the semantics.
#include "analysis/analysis.hpp"
#include "analysis/phases.hpp"
#include "analysis/solve.hpp"
#include "analysis/uniformity.hpp"

#include <z3++.h>

#include <array>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>

namespace kverify::analysis {
namespace {

using model::AccessKind;
using model::AddressSpace;
using model::BinaryOp;
using model::Expr;
using model::ExprPtr;
using model::Kernel;
using model::Stmt;
using model::Type;
using model::UnaryOp;

constexpr int kEntry = -1;    // "no barrier passed yet"
constexpr int kUnknown = -2;  // matches any barrier instance (sound fallback)
constexpr int kStartBase = -1000;  // placeholders for "the start of loop L's iteration"

// One candidate for the last barrier instance a thread passed: under `cond`, it is
// static barrier `barrier` at the iterations `ks` of its enclosing barrier loops.
struct Cand {
  z3::expr cond;
  int barrier;
  std::vector<z3::expr> ks;
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
  const Stmt *s;
  z3::expr pc;
  z3::expr index;  // bv64, signed
  Phases lb;
  std::vector<LoopRef> loops;
  int seq;  // position in the thread's trace (accesses and syncs)
  std::optional<z3::expr> stored;  // a write's integer value (benign races)
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
  bool uniform_loops = false;  // some loop would share its trip count in race mode
  std::vector<z3::expr> tid, bid;  // u32 x,y,z
  std::vector<AccessEv> accesses;
  std::vector<SyncEv> syncs;
  std::vector<LoadEv> loads;   // single shared elements read
  std::vector<LoadEv> tickets; // results of atomicAdd on a ticket counter (Checker::tickets)
  std::vector<z3::expr> side;  // assumptions: no UB, __kverify_assume
  std::set<size_t> no_ub;      // which of them say "no UB, no wrap-around" (Checker::unreachable)
  // the user's assumptions among them, named: --assume, KV_ASSUME at kernel entry
  std::vector<std::pair<std::string, z3::expr>> premises;
  // Trace order: the program order of two events a thread executes at the same iterations
  // of the loops both are in (the body of a loop is executed symbolically once).
  int next_seq = 0;
};

std::string loc(const model::SourceRange &r) {
  return std::to_string(r.line) + ":" + std::to_string(r.col);
}

// Which kinds of barrier a body contains (block; block or full-mask warp; any at all).
struct BarrierInfo {
  bool block = false, any = false, part = false, grid = false;
  bool ends(int kind) const {
    return kind == kBlockPhase ? block : kind == kWarpPhase ? any : kind == kAnyPhase ? part : grid;
  }
};

bool isFullMask(const Stmt &s) {
  if (s.barrier != model::BarrierKind::Warp) return true;
  if (!s.mask) return true;
  const Expr *m = s.mask.get();
  while (m->kind == Expr::Kind::Cast) m = m->args[0].get();
  return m->kind == Expr::Kind::Const && (static_cast<uint64_t>(m->int_value) & 0xffffffffu) == 0xffffffffu;
}

void scanBarriers(const std::vector<Stmt> &body, BarrierInfo &bi) {
  for (const Stmt &s : body) {
    switch (s.kind) {
    case Stmt::Kind::Barrier:
      bi.part = true;
      if (s.barrier == model::BarrierKind::Block || s.barrier == model::BarrierKind::Grid)
        bi.block = bi.any = true;
      if (s.barrier == model::BarrierKind::Grid) bi.grid = true;
      else if (isFullMask(s))
        bi.any = true;
      break;
    case Stmt::Kind::If:
      scanBarriers(s.then_body, bi);
      scanBarriers(s.else_body, bi);
      break;
    case Stmt::Kind::Loop:
      scanBarriers(s.body, bi);
      scanBarriers(s.step, bi);
      break;
    case Stmt::Kind::Inlined: scanBarriers(s.body, bi); break;
    default: break;
    }
  }
}

bool hasKind(const std::vector<Stmt> &body, Stmt::Kind k, bool into_loops) {
  for (const Stmt &s : body) {
    if (s.kind == k) return true;
    if (s.kind == Stmt::Kind::If &&
        (hasKind(s.then_body, k, into_loops) || hasKind(s.else_body, k, into_loops)))
      return true;
    // Jumps inside an inlined call stay inside it; barriers and accesses do not.
    bool jump = k == Stmt::Kind::Return || k == Stmt::Kind::Break || k == Stmt::Kind::Continue;
    if (s.kind == Stmt::Kind::Inlined && !jump && hasKind(s.body, k, into_loops)) return true;
    if (s.kind == Stmt::Kind::Loop && into_loops &&
        (hasKind(s.body, k, into_loops) || hasKind(s.step, k, into_loops)))
      return true;
  }
  return false;
}

// Locals assigned anywhere in `body`: id -> number of assignments.
void assignedLocals(const std::vector<Stmt> &body, std::map<unsigned, int> &out) {
  for (const Stmt &s : body) {
    switch (s.kind) {
    case Stmt::Kind::Assign: out[s.local.id]++; break;
    case Stmt::Kind::If:
      assignedLocals(s.then_body, out);
      assignedLocals(s.else_body, out);
      break;
    case Stmt::Kind::Loop:
      // an inner loop's assignments happen an unknown number of times
      {
        std::map<unsigned, int> inner;
        assignedLocals(s.body, inner);
        assignedLocals(s.step, inner);
        for (auto &[id, n] : inner) out[id] += 2 + n;
      }
      break;
    case Stmt::Kind::Inlined: assignedLocals(s.body, out); break;
    default: break;
    }
  }
}

bool mentions(const Expr &e, const std::map<unsigned, int> &mods, bool &opaque) {
  if (e.kind == Expr::Kind::Local && mods.count(e.id)) return true;
  if (e.kind == Expr::Kind::Opaque) opaque = true;
  for (auto &a : e.args)
    if (mentions(*a, mods, opaque)) return true;
  return false;
}

const Expr *stripSameWidthCasts(const Expr *e) {
  while (e->kind == Expr::Kind::Cast && e->type.kind == Type::Kind::Int &&
         e->args[0]->type.kind == Type::Kind::Int && e->args[0]->type.bits == e->type.bits)
    e = e->args[0].get();
  return e;
}

// The integer constants each local is compared with (x == c, x < c, ...) anywhere in `body`:
// the bounds a loop's wrap-around index keeps to (`if (++i == n) i = 0;`).
void comparedConstants(const Expr &e, std::map<unsigned, std::set<int64_t>> &out) {
  if (e.kind == Expr::Kind::Binary && e.binary_op >= BinaryOp::Lt && e.binary_op <= BinaryOp::Ne)
    for (int side = 0; side < 2; ++side) {
      const Expr *x = stripSameWidthCasts(e.args[side].get()), *c = e.args[1 - side].get();
      while (c->kind == Expr::Kind::Cast) c = c->args[0].get();
      if (x->kind == Expr::Kind::Local && c->kind == Expr::Kind::Const && c->type.kind == Type::Kind::Int)
        out[x->id].insert(c->int_value);
    }
  for (auto &a : e.args) comparedConstants(*a, out);
}
void comparedConstants(const std::vector<Stmt> &body, std::map<unsigned, std::set<int64_t>> &out) {
  for (const Stmt &s : body) {
    for (const ExprPtr *e : {&s.cond, &s.value, &s.index})
      if (*e) comparedConstants(**e, out);
    for (const auto *b : {&s.then_body, &s.else_body, &s.body, &s.step}) comparedConstants(*b, out);
  }
}

// A recognised loop update `x = x op c`, or one half of a swap.
struct ClosedForm {
  // Flip: x = c - x (period 2); Swap: x and `other` exchange their values (period 2);
  // SDiv: x = x / 2^shift, signed (rounds toward zero, unlike AShr)
  enum Op { Add, Sub, Shl, LShr, AShr, SDiv, Flip, Swap } op;
  Type op_type;   // the type the arithmetic happens in (same width as x)
  ExprPtr step;   // c (loop-invariant); for shifts a constant amount
  int64_t shift = 0;
  unsigned other = 0;  // Swap: the local x exchanges values with
};

std::optional<ClosedForm> classify(const model::Local &x, const Expr &value,
                                   const std::map<unsigned, int> &mods) {
  if (x.type.kind != Type::Kind::Int) return std::nullopt;
  const Expr *v = stripSameWidthCasts(&value);
  if (v->kind != Expr::Kind::Binary || v->type.kind != Type::Kind::Int ||
      v->type.bits != x.type.bits)
    return std::nullopt;
  auto isX = [&](const ExprPtr &e) {
    const Expr *s = stripSameWidthCasts(e.get());
    return s->kind == Expr::Kind::Local && s->id == x.id;
  };
  auto invariant = [&](const ExprPtr &e) {
    bool opq = false;
    return !mentions(*e, mods, opq) && !opq;
  };
  auto constOf = [](const ExprPtr &e, int64_t &c) {
    const Expr *s = e.get();
    while (s->kind == Expr::Kind::Cast) s = s->args[0].get();
    if (s->kind != Expr::Kind::Const || s->type.kind != Type::Kind::Int) return false;
    c = s->int_value;
    return true;
  };
  const ExprPtr &a = v->args[0], &b = v->args[1];
  ClosedForm cf{ClosedForm::Add, v->type, nullptr, 0};
  int64_t c = 0;
  switch (v->binary_op) {
  case BinaryOp::Add:
    if (isX(a) && invariant(b)) cf.step = b;
    else if (isX(b) && invariant(a)) cf.step = a;
    else return std::nullopt;
    return cf;
  case BinaryOp::Sub:
    if (isX(b) && invariant(a)) {
      cf.op = ClosedForm::Flip;
      cf.step = a;
      return cf;
    }
    if (!isX(a) || !invariant(b)) return std::nullopt;
    cf.op = ClosedForm::Sub;
    cf.step = b;
    return cf;
  case BinaryOp::Shl:
  case BinaryOp::Shr:
    if (!isX(a) || !constOf(b, c) || c < 0 || c >= 64) return std::nullopt;
    cf.op = v->binary_op == BinaryOp::Shl ? ClosedForm::Shl
            : v->type.is_signed           ? ClosedForm::AShr
                                          : ClosedForm::LShr;
    cf.shift = c;
    return cf;
  case BinaryOp::Mul:
  case BinaryOp::Div: {
    const ExprPtr *other = nullptr;
    if (isX(a)) other = &b;
    else if (v->binary_op == BinaryOp::Mul && isX(b)) other = &a;
    if (!other || !constOf(*other, c) || c <= 0 || (c & (c - 1)) != 0) return std::nullopt;
    int sh = 0;
    while ((int64_t(1) << sh) != c) ++sh;
    if (v->binary_op == BinaryOp::Div) {
      cf.op = v->type.is_signed ? ClosedForm::SDiv : ClosedForm::LShr;
    } else {
      cf.op = ClosedForm::Shl;
    }
    cf.shift = sh;
    return cf;
  }
  default: return std::nullopt;
  }
}

// Swaps `t = a; a = b; b = t;` among the top-level statements of an iteration (the
// double-buffer pointer swap): a, b and t each assigned once in the loop and in this
// order, so t and then a read start-of-iteration values and b gets a's. Adds a Swap form
// for a and for b.
void findSwaps(const std::vector<const Stmt *> &top, const std::map<unsigned, int> &mods,
               std::map<unsigned, ClosedForm> &forms) {
  auto once = [&](unsigned id) {
    auto it = mods.find(id);
    return it != mods.end() && it->second == 1;
  };
  // the local a plain copy `x = y` reads, or none
  auto copyOf = [](const Stmt &s) -> std::optional<unsigned> {
    if (s.kind != Stmt::Kind::Assign || !s.value || s.local.type.kind != Type::Kind::Int)
      return std::nullopt;
    const Expr *v = stripSameWidthCasts(s.value.get());
    if (v->kind != Expr::Kind::Local || v->type.kind != Type::Kind::Int ||
        v->type.bits != s.local.type.bits)
      return std::nullopt;
    return v->id;
  };
  for (size_t i = 0; i < top.size(); ++i) {       // t = a
    auto a = copyOf(*top[i]);
    unsigned t = top[i]->local.id;
    if (!a || *a == t || !once(t) || !once(*a)) continue;
    for (size_t j = i + 1; j < top.size(); ++j) {  // a = b
      auto b = copyOf(*top[j]);
      if (top[j]->local.id != *a || !b || *b == *a || *b == t || !once(*b)) continue;
      for (size_t l = j + 1; l < top.size(); ++l)  // b = t
        if (top[l]->local.id == *b && copyOf(*top[l]) == t &&
            top[l]->local.type.bits == top[j]->local.type.bits) {
          Type ty = top[j]->local.type;
          forms.insert_or_assign(*a, ClosedForm{ClosedForm::Swap, ty, nullptr, 0, *b});
          forms.insert_or_assign(*b, ClosedForm{ClosedForm::Swap, ty, nullptr, 0, *a});
        }
    }
  }
}

// ---------------------------------------------------------------------------------

class Encoder;

using Env = std::map<unsigned, z3::expr>;

class Exec {
public:
  Exec(Encoder &E, Thread &T) : E(E), T(T) {}
  void run(const Kernel &k);

private:
  Encoder &E;
  Thread &T;
  std::map<unsigned, z3::expr> env;
  std::map<unsigned, size_t> last_read_;    // a shared read's Access id -> its AccessEv
  std::map<unsigned, size_t> last_ticket_;  // the same for atomics on ticket counters
  z3::expr pc() const { return *pc_; }
  std::optional<z3::expr> pc_;
  Phases lb;
  struct LoopCtx {
    const Stmt *s;
    z3::expr k, N, reach;
    BarrierInfo bi;
    std::string label;
    std::optional<z3::expr> brk, cont;
    std::vector<std::pair<z3::expr, Env>> cont_envs;  // the locals at each `continue`
    // do { } while (false): run once, its jumps keep their state (see onceLoop)
    bool once = false;
    struct Jump {
      z3::expr pc;
      Env env;
      Phases lb;
    };
    std::vector<Jump> jumps;
  };
  std::vector<LoopCtx> loops;
  std::vector<std::optional<z3::expr>> rets;  // per inlined region (innermost last)
  // Per region, the locals of the threads that returned, by where they returned: the
  // result of `if (a < 2) return 5; return a;` is 5 for the first ones.
  std::vector<std::vector<std::pair<z3::expr, Env>>> ret_envs;
  // env := `other` where `cond` holds
  void mergeEnv(const z3::expr &cond, const Env &other);
  std::vector<size_t> ret_loop_depth;         // loops.size() where each region starts
  std::vector<size_t> tripFacts;              // T.side entries: exit conditions of barrier loops
  int loop_counter = 0;

  void block(const std::vector<Stmt> &body);
  void stmt(const Stmt &s);
  void loop(const Stmt &s);
  void onceLoop(const Stmt &s);
  struct Range {
    unsigned local;
    int64_t lo, hi;
    bool is_signed;
    z3::expr holds(const z3::expr &x) const {
      z3::context &c = x.ctx();
      unsigned w = x.get_sort().bv_size();
      z3::expr l = c.bv_val(lo, w), h = c.bv_val(hi, w);
      return is_signed ? z3::sle(l, x) && z3::sle(x, h) : z3::ule(l, x) && z3::ule(x, h);
    }
  };
  std::vector<Range> rangeInvariants(const Stmt &s, const std::set<unsigned> &havocked,
                                     const std::map<unsigned, z3::expr> &start,
                                     const std::map<unsigned, z3::expr> &before, const z3::expr &pc0,
                                     const z3::expr &pcEnd);
  z3::expr tripCount(const Stmt &s, int id, bool shared, const std::vector<z3::expr> &outer);
  std::vector<z3::expr> phaseKs(int kind) const;
  std::vector<z3::expr> allKs() const;
  std::vector<Frame> frames() const;
  void sync(const Stmt &s, const z3::expr &pc, bool warp, std::optional<z3::expr> mask = {},
            std::optional<z3::expr> guard = {}, std::vector<z3::expr> ks = {});
  // No undefined behaviour where the current path condition holds (or, while `capture`
  // is set, a fact the caller guards itself).
  std::vector<z3::expr> *capture = nullptr;
  void ub(const z3::expr &ok) {
    if (capture) capture->push_back(ok);
    else {
      T.no_ub.insert(T.side.size());
      T.side.push_back(z3::implies(pc(), ok));
    }
  }
  // `e` evaluated under the extra path condition `cond` (its UB side conditions hold there)
  z3::expr evalUnder(const Expr &e, const z3::expr &cond, bool as_bool);

public:
  z3::expr evalAtEntry(const Expr &e);
  z3::expr eval(const Expr &e);
  z3::expr boolOf(const Expr &e);
  z3::expr fresh(const Type &t, const std::string &name);
};

class Encoder {
public:
  z3::context c;
  const Kernel &K;
  const Options &O;
  const Uniformity U{K};
  std::vector<z3::expr> bdim, gdim;  // u32
  std::map<std::string, z3::expr> params;
  // NotNull and Address of each array: unknown, one value for every thread
  std::map<std::pair<Expr::Kind, unsigned>, z3::expr> array_facts;
  std::vector<z3::expr> base;  // launch constraints and --assume, both threads share
  std::optional<z3::expr> block_limit;  // among them: at most 1024 threads (costly to solve)
  unsigned fresh_id = 0;
  std::map<const Stmt *, int> barrier_ids;
  std::map<const Stmt *, BarrierInfo> loop_barriers;
  std::map<const Stmt *, z3::func_decl> shared_trip;  // barrier loops: N per block
  std::map<unsigned, z3::expr> no_overflow;  // signed op term id -> where it cannot overflow
  void signedOp(const z3::expr &term, const z3::expr &pc) {
    auto it = no_overflow.find(term.id());
    if (it == no_overflow.end()) no_overflow.emplace(term.id(), pc);
    else if (!z3::eq(it->second, pc)) it->second = it->second || pc;
  }
  std::set<unsigned> ticket_arrays;  // counters of tickets (Checker::tickets)
  std::vector<std::string> assumptions;
  std::vector<ExprPtr> assume_exprs;  // O.assumes, parsed
  std::string error;

  Encoder(const Kernel &K, const Options &O) : K(K), O(O) {}

  z3::sort bv(unsigned w) { return c.bv_sort(w); }
  z3::expr u32(uint64_t v) { return c.bv_val(static_cast<uint64_t>(v), 32); }
  std::vector<z3::expr> created;  // every fresh constant, in order (see Exec::loop)
  z3::expr freshConst(const std::string &name, z3::sort s) {
    created.push_back(c.constant((name + "!" + std::to_string(fresh_id++)).c_str(), s));
    return created.back();
  }

  void setup();
  Thread makeThread(int t, bool shared_trips);
  int barrierId(const Stmt *s) {
    auto it = barrier_ids.find(s);
    if (it != barrier_ids.end()) return it->second;
    int id = static_cast<int>(barrier_ids.size());
    barrier_ids[s] = id;
    return id;
  }
};

// The arrays whose every write is an atomicAdd of a positive constant, and that no other
// array may alias.
static std::set<unsigned> ticketArrays(const Kernel &K, bool assume_no_alias) {
  std::set<unsigned> ok, bad;
  std::function<void(const std::vector<Stmt> &)> walk = [&](const std::vector<Stmt> &body) {
    for (const Stmt &s : body) {
      if (s.kind == Stmt::Kind::Access && s.access != AccessKind::Read) {
        const Expr *v = s.value.get();
        while (v && v->kind == Expr::Kind::Cast) v = v->args[0].get();
        bool ticket = s.access == AccessKind::Atomic && v && v->kind == Expr::Kind::Const &&
                      v->type.kind == Type::Kind::Int && v->int_value > 0;
        (ticket ? ok : bad).insert(s.array);
      }
      for (const auto *b : {&s.then_body, &s.else_body, &s.body, &s.step}) walk(*b);
    }
  };
  walk(K.body);
  std::set<unsigned> out;
  for (unsigned a : ok) {
    if (bad.count(a) || a >= K.arrays.size()) continue;
    const model::Array &arr = K.arrays[a];
    bool aliased = !assume_no_alias && arr.origin == "param" &&
                   std::any_of(K.arrays.begin(), K.arrays.end(), [&](const model::Array &o) {
                     return o.id != a && o.origin == "param" && o.space == arr.space;
                   });
    if (!aliased && arr.elem.kind == Type::Kind::Int) out.insert(a);
  }
  return out;
}

void Encoder::setup() {
  ticket_arrays = ticketArrays(K, O.assume_no_alias);
  const char *dn[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    bdim.push_back(c.bv_const((std::string("blockDim.") + dn[d]).c_str(), 32));
    gdim.push_back(c.bv_const((std::string("gridDim.") + dn[d]).c_str(), 32));
  }
  for (int d = 0; d < 3; ++d) {
    base.push_back(z3::uge(bdim[d], u32(1)));
    base.push_back(z3::uge(gdim[d], u32(1)));
    if (O.block_dim[d]) base.push_back(bdim[d] == u32(*O.block_dim[d]));
    if (O.grid_dim[d]) base.push_back(gdim[d] == u32(*O.grid_dim[d]));
  }
  base.push_back(z3::ule(bdim[0], u32(1024)));
  base.push_back(z3::ule(bdim[1], u32(1024)));
  base.push_back(z3::ule(bdim[2], u32(64)));
  // exact in 32 bits under the bounds above (at most 2^26), and cheaper to bit-blast
  block_limit = z3::ule(bdim[0] * bdim[1] * bdim[2], u32(1024));
  base.push_back(*block_limit);
  base.push_back(z3::ult(gdim[0], u32(uint64_t(1) << 31)));
  base.push_back(z3::ule(gdim[1], u32(65535)));
  base.push_back(z3::ule(gdim[2], u32(65535)));
  if (O.assume_no_alias) assumptions.push_back("distinct pointer parameters do not alias");
  assumptions.push_back("signed integer arithmetic does not overflow (undefined behaviour)");
  assumptions.push_back("loop induction variables do not wrap around");

  for (const std::string &a : O.assumes) {
    std::string err;
    if (ExprPtr e = parseAssumption(a, K, err)) assume_exprs.push_back(e);
    else error = "--assume='" + a + "': " + err;
  }
  for (const model::Param &p : K.params) {
    if (p.array) continue;
    z3::sort s = p.type.kind == Type::Kind::Bool ? c.bool_sort()
                 : p.type.bits ? bv(p.type.bits) : bv(64);
    params.emplace(p.name, c.constant(("param." + p.name).c_str(), s));
  }
}

Thread Encoder::makeThread(int t, bool shared_trips) {
  Thread T;
  T.t = t;
  T.shared_trips = shared_trips;
  const char *dn[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    T.tid.push_back(c.bv_const(("t" + std::to_string(t) + ".threadIdx." + dn[d]).c_str(), 32));
    T.bid.push_back(c.bv_const(("t" + std::to_string(t) + ".blockIdx." + dn[d]).c_str(), 32));
    base.push_back(z3::ult(T.tid[d], bdim[d]));
    base.push_back(z3::ult(T.bid[d], gdim[d]));
  }
  Exec X(*this, T);
  X.run(K);
  // --assume expressions, evaluated for this thread (parsed and checked in setup)
  for (size_t i = 0; i < assume_exprs.size(); ++i) {
    T.side.push_back(X.evalAtEntry(*assume_exprs[i]));
    T.premises.emplace_back("--assume='" + O.assumes[i] + "'", T.side.back());
  }
  return T;
}

// --- expressions -----------------------------------------------------------------

z3::expr Exec::fresh(const Type &t, const std::string &name) {
  if (t.kind == Type::Kind::Bool) return E.freshConst(name, E.c.bool_sort());
  return E.freshConst(name, E.bv(t.bits ? t.bits : 64));
}

z3::expr Exec::boolOf(const Expr &e) {
  z3::expr v = eval(e);
  if (v.is_bool()) return v;
  return v != E.c.bv_val(0, v.get_sort().bv_size());
}

static z3::expr resize(const z3::expr &v, unsigned to, bool is_signed) {
  unsigned from = v.get_sort().bv_size();
  if (from == to) return v;
  z3::expr r = from > to    ? v.extract(to - 1, 0)
               : is_signed ? z3::sext(v, to - from)
                           : z3::zext(v, to - from);
  // constants stay numerals (the integer abstraction recognises `x / 16` by them)
  return v.is_numeral() ? r.simplify() : r;
}

z3::expr Exec::eval(const Expr &e) {
  z3::context &c = E.c;
  const Type &ty = e.type;
  bool isInt = ty.kind == Type::Kind::Int, isBool = ty.kind == Type::Kind::Bool;
  if (!isInt && !isBool) {
    // floats, pointers, structs: not modelled, a fresh value (evaluate args for UB side
    // conditions anyway? no: their integer sub-expressions cannot race by themselves)
    if (e.kind == Expr::Kind::Param) {
      auto it = E.params.find(e.name);
      if (it != E.params.end()) return it->second;
    }
    return fresh(Type::integer(ty.bits ? ty.bits : 64, false), "val");
  }
  switch (e.kind) {
  case Expr::Kind::Const:
    if (isBool) return c.bool_val(e.int_value != 0);
    return c.bv_val(static_cast<uint64_t>(e.int_value), ty.bits);
  case Expr::Kind::Param: {
    auto it = E.params.find(e.name);
    if (it != E.params.end()) {
      z3::expr v = it->second;
      if (isBool && !v.is_bool()) return v != c.bv_val(0, v.get_sort().bv_size());
      if (isInt && v.is_bool()) return z3::ite(v, c.bv_val(1, ty.bits), c.bv_val(0, ty.bits));
      if (isInt && v.get_sort().bv_size() != ty.bits) return resize(v, ty.bits, ty.is_signed);
      return v;
    }
    z3::expr v = isBool ? c.bool_const(("param." + e.name).c_str())
                        : c.bv_const(("param." + e.name).c_str(), ty.bits);
    E.params.emplace(e.name, v);
    return v;
  }
  case Expr::Kind::NotNull:
  case Expr::Kind::Address: {
    auto key = std::make_pair(e.kind, e.id);
    auto it = E.array_facts.find(key);
    if (it != E.array_facts.end()) return it->second;
    std::string name = "array." + std::to_string(e.id) + "." + E.K.arrays.at(e.id).name;
    z3::expr v = e.kind == Expr::Kind::NotNull ? c.bool_const((name + ".notnull").c_str())
                                               : c.bv_const((name + ".address").c_str(), 64);
    E.array_facts.emplace(key, v);
    return v;
  }
  case Expr::Kind::Builtin: {
    int b = static_cast<int>(e.builtin);
    z3::expr v = c.bv_val(32, 32);
    if (b < 3) v = T.tid[b];
    else if (b < 6) v = T.bid[b - 3];
    else if (b < 9) v = E.bdim[b - 6];
    else if (b < 12) v = E.gdim[b - 9];
    return isBool ? v != c.bv_val(0, 32) : resize(v, ty.bits, false);
  }
  case Expr::Kind::Local: {
    auto it = env.find(e.id);
    if (it == env.end()) {
      z3::expr v = fresh(ty, "uninit." + e.name);
      env.emplace(e.id, v);
      return v;
    }
    z3::expr v = it->second;
    if (isBool && !v.is_bool()) return v != c.bv_val(0, v.get_sort().bv_size());
    if (isInt && v.is_bool()) return z3::ite(v, c.bv_val(1, ty.bits), c.bv_val(0, ty.bits));
    if (isInt && v.get_sort().bv_size() != ty.bits) return resize(v, ty.bits, ty.is_signed);
    return v;
  }
  case Expr::Kind::Opaque:
    if (e.what.rfind("result of __syncthreads_", 0) == 0) {
      // __syncthreads_or/_and/_count: one value for the whole block at one instance
      z3::sort_vector dom(c);
      z3::expr_vector args(c);
      for (int d = 0; d < 3; ++d) dom.push_back(E.bv(32)), args.push_back(T.bid[d]);
      for (const LoopCtx &l : loops) dom.push_back(E.bv(64)), args.push_back(l.k);
      std::string name = "block.opaque" + std::to_string(e.id) + "." + std::to_string(loops.size());
      z3::sort rs = isBool ? c.bool_sort() : E.bv(ty.bits);
      return c.function(name.c_str(), dom, rs)(args);
    }
    {
      z3::expr v = fresh(ty, "t" + std::to_string(T.t) + ".opaque" + std::to_string(e.id));
      auto lr = last_read_.find(e.id);  // a load: the value read at that access
      if (lr != last_read_.end()) T.loads.push_back(LoadEv{lr->second, v});
      auto lt = last_ticket_.find(e.id);
      if (lt != last_ticket_.end()) T.tickets.push_back(LoadEv{lt->second, v});
      return v;
    }
  case Expr::Kind::Unary: {
    const Expr &a = *e.args[0];
    if (e.unary_op == UnaryOp::LNot) {
      z3::expr b = boolOf(a);
      return isBool ? !b : z3::ite(!b, c.bv_val(1, ty.bits), c.bv_val(0, ty.bits));
    }
    if (a.type.kind != Type::Kind::Int || !isInt) return fresh(ty, "val");
    z3::expr v = resize(eval(a), ty.bits, a.type.is_signed);
    if (e.unary_op == UnaryOp::BitNot) return ~v;
    if (e.unary_op == UnaryOp::BitReverse) {  // bit 0 becomes the most significant
      z3::expr r = v.extract(0, 0);
      for (unsigned i = 1; i < ty.bits; ++i) r = z3::concat(r, v.extract(i, i));
      return r;
    }
    if (ty.is_signed) ub(z3::bvneg_no_overflow(v));
    return -v;
  }
  case Expr::Kind::Select: {
    // only the chosen arm is evaluated: its UB side conditions hold only when chosen
    z3::expr cnd = boolOf(*e.args[0]);
    z3::expr a = evalUnder(*e.args[1], cnd, false), b = evalUnder(*e.args[2], !cnd, false);
    if (a.is_bool() != b.is_bool() ||
        (!a.is_bool() && a.get_sort().bv_size() != b.get_sort().bv_size()))
      return fresh(ty, "val");
    return z3::ite(cnd, a, b);
  }
  case Expr::Kind::Cast: {
    const Expr &a = *e.args[0];
    if (a.type.kind == Type::Kind::Int || a.type.kind == Type::Kind::Bool) {
      if (isBool) return boolOf(a);
      z3::expr v = eval(a);
      if (v.is_bool()) return z3::ite(v, c.bv_val(1, ty.bits), c.bv_val(0, ty.bits));
      return resize(v, ty.bits, a.type.is_signed);
    }
    return fresh(ty, "cast");
  }
  case Expr::Kind::Binary: {
    BinaryOp op = e.binary_op;
    const Expr &A = *e.args[0], &B = *e.args[1];
    // short-circuit: B is evaluated only when A does not decide
    if (op == BinaryOp::LAnd) {
      z3::expr a = boolOf(A);
      return a && evalUnder(B, a, true);
    }
    if (op == BinaryOp::LOr) {
      z3::expr a = boolOf(A);
      return a || evalUnder(B, !a, true);
    }
    bool cmp = op == BinaryOp::Lt || op == BinaryOp::Le || op == BinaryOp::Gt ||
               op == BinaryOp::Ge || op == BinaryOp::Eq || op == BinaryOp::Ne;
    if (cmp) {
      bool ai = A.type.isIntegral(), bi = B.type.isIntegral();
      if (!ai || !bi) return fresh(Type::boolean(), "cmp");
      z3::expr a = eval(A), b = eval(B);
      if (a.is_bool() && b.is_bool()) {
        if (op == BinaryOp::Eq) return a == b;
        if (op == BinaryOp::Ne) return a != b;
      }
      if (a.is_bool()) a = z3::ite(a, c.bv_val(1, 32), c.bv_val(0, 32));
      if (b.is_bool()) b = z3::ite(b, c.bv_val(1, 32), c.bv_val(0, 32));
      unsigned w = std::max(a.get_sort().bv_size(), b.get_sort().bv_size());
      bool sg = A.type.is_signed && B.type.is_signed;
      a = resize(a, w, A.type.is_signed);
      b = resize(b, w, B.type.is_signed);
      switch (op) {
      case BinaryOp::Lt: return sg ? z3::slt(a, b) : z3::ult(a, b);
      case BinaryOp::Le: return sg ? z3::sle(a, b) : z3::ule(a, b);
      case BinaryOp::Gt: return sg ? z3::sgt(a, b) : z3::ugt(a, b);
      case BinaryOp::Ge: return sg ? z3::sge(a, b) : z3::uge(a, b);
      case BinaryOp::Eq: return a == b;
      default: return a != b;
      }
    }
    if (!isInt || !A.type.isIntegral() || !B.type.isIntegral()) return fresh(ty, "val");
    unsigned w = ty.bits;
    z3::expr a = eval(A), b = eval(B);
    if (a.is_bool()) a = z3::ite(a, c.bv_val(1, w), c.bv_val(0, w));
    if (b.is_bool()) b = z3::ite(b, c.bv_val(1, w), c.bv_val(0, w));
    a = resize(a, w, A.type.is_signed);
    b = resize(b, w, B.type.is_signed);
    bool sg = ty.is_signed;
    auto side = [&](const z3::expr &ok) { ub(ok); };
    switch (op) {
    case BinaryOp::Add: {
      z3::expr r = a + b;
      if (sg) side(z3::bvadd_no_overflow(a, b, true) && z3::bvadd_no_underflow(a, b)), E.signedOp(r, pc());
      return r;
    }
    case BinaryOp::Sub: {
      z3::expr r = a - b;
      if (sg) side(z3::bvsub_no_overflow(a, b) && z3::bvsub_no_underflow(a, b, true)), E.signedOp(r, pc());
      return r;
    }
    case BinaryOp::Mul: {
      z3::expr r = a * b;
      if (sg) side(signedMulFits(a, b)), E.signedOp(r, pc());
      return r;
    }
    case BinaryOp::Div:
    case BinaryOp::Rem:
      side(b != c.bv_val(0, w));
      if (sg) side(z3::bvsdiv_no_overflow(a, b));
      if (op == BinaryOp::Div) return sg ? a / b : z3::udiv(a, b);
      return sg ? z3::srem(a, b) : z3::urem(a, b);
    case BinaryOp::Shl: return z3::shl(a, b);
    case BinaryOp::Shr: return sg ? z3::ashr(a, b) : z3::lshr(a, b);
    case BinaryOp::BitAnd: return a & b;
    case BinaryOp::BitOr: return a | b;
    case BinaryOp::BitXor: return a ^ b;
    default: return fresh(ty, "val");
    }
  }
  }
  return fresh(ty, "val");
}

void Exec::mergeEnv(const z3::expr &cond, const Env &other) {
  for (const auto &[id, v] : other) {
    auto it = env.find(id);
    if (it == env.end()) {
      env.emplace(id, v);  // declared on that path only
      continue;
    }
    if (z3::eq(it->second, v) || it->second.is_bool() != v.is_bool() ||
        (!v.is_bool() && v.get_sort().bv_size() != it->second.get_sort().bv_size()))
      continue;
    it->second = z3::ite(cond, v, it->second);
  }
}

z3::expr Exec::evalAtEntry(const Expr &e) {
  pc_ = E.c.bool_val(true);
  return boolOf(e);
}

z3::expr Exec::evalUnder(const Expr &e, const z3::expr &cond, bool as_bool) {
  z3::expr saved = pc();
  pc_ = saved && cond;
  z3::expr v = as_bool ? boolOf(e) : eval(e);
  pc_ = saved;
  return v;
}

// --- statements ------------------------------------------------------------------

// The counters of the enclosing loops with barriers of this kind: what tells a barrier's
// instances apart.
std::vector<z3::expr> Exec::phaseKs(int kind) const {
  std::vector<z3::expr> ks;
  for (const LoopCtx &l : loops)
    if (l.bi.ends(kind)) ks.push_back(l.k);
  return ks;
}
std::vector<z3::expr> Exec::allKs() const {
  std::vector<z3::expr> ks;
  for (const LoopCtx &l : loops) ks.push_back(l.k);
  return ks;
}
std::vector<Frame> Exec::frames() const {
  std::vector<Frame> fs;
  for (const LoopCtx &l : loops) fs.push_back(Frame{l.reach, z3::ult(l.k, l.N), l.s});
  return fs;
}
void Exec::sync(const Stmt &s, const z3::expr &pc, bool warp, std::optional<z3::expr> mask,
                std::optional<z3::expr> guard, std::vector<z3::expr> ks) {
  if (ks.empty()) ks = allKs();
  T.syncs.push_back(SyncEv{&s, pc, std::move(ks), warp, std::move(mask), T.next_seq++,
                           guard ? *guard : E.c.bool_val(true), frames()});
}

void Exec::run(const Kernel &k) {
  pc_ = E.c.bool_val(true);
  lb.fill({Cand{E.c.bool_val(true), kEntry, {}}});
  rets.push_back(std::nullopt);
  ret_envs.emplace_back();
  ret_loop_depth.push_back(0);
  block(k.body);
}

void Exec::block(const std::vector<Stmt> &body) {
  for (const Stmt &s : body) stmt(s);
}

static z3::expr orOpt(const std::optional<z3::expr> &a, const z3::expr &b) {
  return a ? (*a || b) : b;
}

// Merge two LBs after an If.
static LB mergeLB(const LB &a, const LB &b, const z3::expr &c) {
  LB r;
  for (const Cand &x : a) r.push_back(Cand{x.cond && c, x.barrier, x.ks});
  for (const Cand &x : b) r.push_back(Cand{x.cond && !c, x.barrier, x.ks});
  return r;
}

void Exec::stmt(const Stmt &s) {
  z3::context &c = E.c;
  switch (s.kind) {
  case Stmt::Kind::Access: {
    z3::expr idx = s.index ? eval(*s.index) : c.bv_val(0, 64);
    if (idx.is_bool()) idx = z3::ite(idx, c.bv_val(1, 64), c.bv_val(0, 64));
    bool sg = s.index ? s.index->type.is_signed : true;
    idx = resize(idx, 64, sg);
    std::vector<LoopRef> ls;
    for (const LoopCtx &l : loops)
      if (!l.once) ls.push_back(LoopRef{l.label, l.k});
    T.accesses.push_back(AccessEv{&s, pc(), idx, lb, ls, T.next_seq++});
    if (s.access == AccessKind::Write && s.value) T.accesses.back().stored = eval(*s.value);
    if (s.access == AccessKind::Read && s.count <= 1 && s.array < E.K.arrays.size() &&
        E.K.arrays[s.array].space == AddressSpace::Shared)
      last_read_[s.id] = T.accesses.size() - 1;
    if (s.access == AccessKind::Atomic && E.ticket_arrays.count(s.array))
      last_ticket_[s.id] = T.accesses.size() - 1;
    break;
  }
  case Stmt::Kind::Barrier: {
    bool warp = s.barrier == model::BarrierKind::Warp;
    std::optional<z3::expr> mask;
    if (warp && s.mask) mask = resize(eval(*s.mask), 32, false);
    if (s.cond) eval(*s.cond);
    sync(s, pc(), warp, mask);
    int id = E.barrierId(&s);
    const bool ends[kPhaseKinds] = {!warp, !warp || isFullMask(s), true, s.barrier == model::BarrierKind::Grid};
    for (int p = 0; p < kPhaseKinds; ++p)
      if (ends[p]) lb[p] = {Cand{c.bool_val(true), id, phaseKs(p)}};
    break;
  }
  case Stmt::Kind::Fence: break;
  case Stmt::Kind::If: {
    z3::expr cond = boolOf(*s.cond);
    z3::expr pc0 = pc();
    Phases lb0 = lb;
    auto env0 = env;
    pc_ = pc0 && cond;
    block(s.then_body);
    z3::expr pcT = pc();
    Phases lbT = lb;
    auto envT = env;
    env = env0;
    lb = lb0;
    pc_ = pc0 && !cond;
    block(s.else_body);
    bool jumps = hasKind(s.then_body, Stmt::Kind::Return, true) ||
                 hasKind(s.else_body, Stmt::Kind::Return, true) ||
                 hasKind(s.then_body, Stmt::Kind::Break, false) ||
                 hasKind(s.else_body, Stmt::Kind::Break, false) ||
                 hasKind(s.then_body, Stmt::Kind::Continue, false) ||
                 hasKind(s.else_body, Stmt::Kind::Continue, false);
    pc_ = jumps ? (pcT || pc()) : pc0;
    mergeEnv(cond, envT);
    BarrierInfo bi;
    scanBarriers(s.then_body, bi);
    scanBarriers(s.else_body, bi);
    for (int p = 0; p < kPhaseKinds; ++p)
      if (bi.ends(p)) lb[p] = mergeLB(lbT[p], lb[p], cond);
    break;
  }
  case Stmt::Kind::Loop: loop(s); break;
  case Stmt::Kind::Assign: {
    if (!s.value) {
      env.insert_or_assign(s.local.id, fresh(s.local.type, s.local.name));
      break;
    }
    z3::expr v = eval(*s.value);
    const Type &lt = s.local.type;
    if (lt.kind == Type::Kind::Int) {
      if (v.is_bool()) v = z3::ite(v, c.bv_val(1, lt.bits), c.bv_val(0, lt.bits));
      else v = resize(v, lt.bits, s.value->type.is_signed);
    } else if (lt.kind == Type::Kind::Bool) {
      if (!v.is_bool()) v = v != c.bv_val(0, v.get_sort().bv_size());
    }
    env.insert_or_assign(s.local.id, v);
    break;
  }
  case Stmt::Kind::Assume:
    T.side.push_back(z3::implies(pc(), boolOf(*s.cond)));
    if (loops.empty()) T.premises.emplace_back("the assumption at " + loc(s.range), T.side.back());
    break;
  case Stmt::Kind::Return:
    // A return leaves only its inlined region: the loops around the call go on.
    for (size_t i = ret_loop_depth.back(); i < loops.size(); ++i)
      if (const LoopCtx &l = loops[i]; l.bi.part) {
        sync(s, pc(), !l.bi.block);
        break;
      }
    rets.back() = orOpt(rets.back(), pc());
    ret_envs.back().emplace_back(pc(), env);
    pc_ = c.bool_val(false);
    break;
  case Stmt::Kind::Break:
  case Stmt::Kind::Continue:
    if (loops.empty()) break;
    if (loops.back().once) {
      loops.back().jumps.push_back(LoopCtx::Jump{pc(), env, lb});
    } else if (s.kind == Stmt::Kind::Break) {
      if (loops.back().bi.part) sync(s, pc(), !loops.back().bi.block);
      loops.back().brk = orOpt(loops.back().brk, pc());
    } else {
      loops.back().cont = orOpt(loops.back().cont, pc());
      loops.back().cont_envs.emplace_back(pc(), env);
    }
    pc_ = c.bool_val(false);
    break;
  case Stmt::Kind::Inlined: {
    rets.push_back(std::nullopt);
    ret_envs.emplace_back();
    ret_loop_depth.push_back(loops.size());
    block(s.body);
    if (rets.back()) pc_ = pc() || *rets.back();
    for (const auto &[where, renv] : ret_envs.back()) mergeEnv(where, renv);
    ret_envs.pop_back();
    rets.pop_back();
    ret_loop_depth.pop_back();
    break;
  }
  }
}

// Replace the placeholder `marker` in lb with `start`.
static LB expandLB(const LB &lb, int marker, const LB &start) {
  bool has = false;
  for (const Cand &x : lb) has |= x.barrier == marker;
  if (!has) return lb;
  LB r;
  for (const Cand &x : lb) {
    if (x.barrier != marker) {
      r.push_back(x);
      continue;
    }
    for (const Cand &s : start) r.push_back(Cand{x.cond && s.cond, s.barrier, s.ks});
  }
  return r;
}

static LB substLB(const LB &lb, const z3::expr &from, const z3::expr &to) {
  z3::expr_vector src(from.ctx()), dst(from.ctx());
  src.push_back(from);
  dst.push_back(to);
  LB r;
  for (const Cand &x : lb) {
    Cand y{z3::expr(x.cond).substitute(src, dst), x.barrier, {}};
    for (const z3::expr &k : x.ks) y.ks.push_back(z3::expr(k).substitute(src, dst));
    r.push_back(y);
  }
  return r;
}

static z3::expr conj(z3::context &c, const std::vector<z3::expr> &es) {
  z3::expr_vector v(c);
  for (const z3::expr &e : es) v.push_back(e);
  return z3::mk_and(v);
}

// Locals an expression reads.
static void readLocals(const Expr &e, std::set<unsigned> &out) {
  if (e.kind == Expr::Kind::Local) out.insert(e.id);
  for (auto &a : e.args) readLocals(*a, out);
}

// Ranges [0, c - 1] or [0, c] that a local the loop havocs keeps at the start of every
// iteration, c a constant it is compared with (`if (++pos == 64) pos = 0;`), each proved
// by induction: its value before the loop lies in it, and an iteration (read at k, with
// any loads and any values of the other havocked locals) that starts in it ends in it.
std::vector<Exec::Range> Exec::rangeInvariants(const Stmt &s, const std::set<unsigned> &havocked,
                                               const std::map<unsigned, z3::expr> &start,
                                               const std::map<unsigned, z3::expr> &before, const z3::expr &pc0,
                                               const z3::expr &pcEnd) {
  std::map<unsigned, std::set<int64_t>> consts;
  comparedConstants(s.body, consts);
  comparedConstants(s.step, consts);
  if (s.cond) comparedConstants(*s.cond, consts);
  auto proved = [&](const z3::expr &q) {
    z3::solver S(E.c);
    for (const z3::expr &f : E.base) S.add(f);
    S.add(q);
    return checkWithin(S, 0.1) == z3::unsat;
  };
  std::vector<Range> out;
  for (const auto &[lid, cs] : consts) {
    auto st = start.find(lid), b = before.find(lid);
    auto e = env.find(lid);
    if (!havocked.count(lid) || st == start.end() || b == before.end() || e == env.end()) continue;
    const z3::expr &x = st->second;
    if (!x.is_bv() || !b->second.is_bv() || !e->second.is_bv() ||
        b->second.get_sort().bv_size() != x.get_sort().bv_size() ||
        e->second.get_sort().bv_size() != x.get_sort().bv_size())
      continue;
    bool sg = false;
    for (const model::Local &l : E.K.locals)
      if (l.id == lid) sg = l.type.is_signed;
    for (int64_t c : cs) {
      bool found = false;
      for (int64_t hi : {c - 1, c}) {
        Range r{lid, 0, hi, sg};
        if (hi < 0 || (x.get_sort().bv_size() < 64 && hi >= (int64_t(1) << (x.get_sort().bv_size() - 1))))
          continue;
        if (proved(pc0 && !r.holds(b->second)) && proved(pcEnd && r.holds(x) && !r.holds(e->second))) {
          out.push_back(r);
          found = true;
          break;
        }
      }
      if (found) break;
    }
  }
  return out;
}

// The trip count N of loop `s` for this thread (a function of the outer iterations).
z3::expr Exec::tripCount(const Stmt &s, int id, bool shared, const std::vector<z3::expr> &outer) {
  z3::context &c = E.c;
  z3::sort_vector dom(c);
  z3::expr_vector args(c);
  if (shared) {  // per block: a function of the block index too
    for (int d = 0; d < 3; ++d) dom.push_back(E.bv(32)), args.push_back(T.bid[d]);
  }
  for (auto &o : outer) dom.push_back(E.bv(64)), args.push_back(o);
  std::string name = shared ? "N.L" + std::to_string(id)
                            : "t" + std::to_string(T.t) + ".L" + std::to_string(id) + ".N";
  if (!shared) return c.function(name.c_str(), dom, E.bv(64))(args);
  auto it = E.shared_trip.find(&s);
  if (it == E.shared_trip.end()) it = E.shared_trip.emplace(&s, c.function(name.c_str(), dom, E.bv(64))).first;
  return it->second(args);
}

// do { body } while (false) (macros, lowered switch statements): the body runs once, so no
// iteration counter is needed; a break or continue leaves with the locals and the last
// barrier it has there, merged after the loop by where each thread left.
void Exec::onceLoop(const Stmt &s) {
  z3::context &c = E.c;
  loops.push_back(LoopCtx{&s, c.bv_val(0, 64), c.bv_val(1, 64), pc(), BarrierInfo{}, "",
                          std::nullopt, std::nullopt, {}, true, {}});
  block(s.body);
  std::vector<LoopCtx::Jump> jumps = std::move(loops.back().jumps);
  loops.pop_back();
  for (const LoopCtx::Jump &j : jumps) {
    pc_ = pc() || j.pc;
    mergeEnv(j.pc, j.env);
    for (int p = 0; p < kPhaseKinds; ++p) lb[p] = mergeLB(j.lb[p], lb[p], j.pc);
  }
}

static bool runsOnce(const Stmt &s) {
  return s.loop == model::LoopKind::Do && s.step.empty() && s.cond &&
         s.cond->kind == Expr::Kind::Const && s.cond->int_value == 0;
}

void Exec::loop(const Stmt &s) {
  if (runsOnce(s)) {
    onceLoop(s);
    return;
  }
  z3::context &c = E.c;
  int id = loop_counter++;
  BarrierInfo bi;
  scanBarriers(s.body, bi);
  scanBarriers(s.step, bi);
  std::string label = "k (loop at " + loc(s.range) + ")";
  std::string tag = "t" + std::to_string(T.t) + ".L" + std::to_string(id);

  std::map<unsigned, int> mods;
  assignedLocals(s.body, mods);
  assignedLocals(s.step, mods);
  std::set<unsigned> induction;  // the locals the condition reads
  if (s.cond) readLocals(*s.cond, induction);
  bool body_cont = hasKind(s.body, Stmt::Kind::Continue, false);
  bool has_break = hasKind(s.body, Stmt::Kind::Break, false) ||
                   hasKind(s.body, Stmt::Kind::Return, true);
  // top-level updates with a closed form
  std::map<unsigned, ClosedForm> forms;
  auto scanTop = [&](const std::vector<Stmt> &list, bool ok) {
    if (!ok) return;
    for (const Stmt &st : list)
      if (st.kind == Stmt::Kind::Assign && st.value && mods[st.local.id] == 1)
        if (auto cf = classify(st.local, *st.value, mods)) forms.emplace(st.local.id, *cf);
  };
  scanTop(s.body, !body_cont);
  scanTop(s.step, true);
  if (!has_break) {  // a break between the three copies would leave half a swap
    std::vector<const Stmt *> top;
    if (!body_cont)
      for (const Stmt &st : s.body) top.push_back(&st);
    for (const Stmt &st : s.step) top.push_back(&st);
    findSwaps(top, mods, forms);
  }

  z3::expr k = E.freshConst(tag + ".k", E.bv(64));
  std::vector<z3::expr> outer = allKs();
  // Trip count N (iterations started). Shared by a block only in race mode, for loops with
  // block barriers and no jumps out: the divergence check (in divergence mode, with each
  // thread's own N) has shown the loop condition uniform by then.
  bool uniform = bi.block && !has_break;
  T.uniform_loops |= uniform;
  z3::expr N = tripCount(s, id, T.shared_trips && uniform, outer);

  // the state at the start of iteration j (j = k for the body, j = N at the exit)
  auto env0 = env;
  z3::expr pc0 = pc();
  std::map<unsigned, z3::func_decl> havoc;
  auto stateAt = [&](const z3::expr &j, std::vector<z3::expr> &side) {
    std::map<unsigned, z3::expr> st = env0;
    for (auto &[lid, n] : mods) {
      (void)n;
      // the local's type: from its Local entry
      const model::Local *L = nullptr;
      for (const model::Local &l : E.K.locals)
        if (l.id == lid) L = &l;
      Type lt = L ? L->type : Type::i64();
      auto f = forms.find(lid);
      auto it0 = env0.find(lid);
      if (f != forms.end() && f->second.op == ClosedForm::Swap) {
        auto o = env0.find(f->second.other);  // a swap needs both start values
        if (o == env0.end() || o->second.is_bool() || o->second.get_sort().bv_size() != lt.bits)
          f = forms.end();
      }
      if (f != forms.end() && it0 != env0.end() && !it0->second.is_bool() &&
          it0->second.get_sort().bv_size() == lt.bits) {
        const ClosedForm &cf = f->second;
        unsigned w = lt.bits;
        z3::expr x0 = it0->second;
        z3::expr kw = resize(j, w, false);
        z3::expr v = x0;
        // Signed updates cannot overflow (UB); unsigned ones may wrap, except the loop's
        // induction variables (the locals its condition reads): the stated assumption.
        bool sg = cf.op_type.is_signed, nowrap = sg || induction.count(lid);
        if (cf.op == ClosedForm::Swap) {
          // odd iterations see the other local's start value
          z3::expr odd = (j & c.bv_val(1, 64)) == c.bv_val(1, 64);
          v = z3::ite(odd, env0.at(cf.other), x0);
        } else if (cf.op == ClosedForm::Flip) {
          z3::expr c0 = resize(eval(*cf.step), w, cf.step->type.is_signed);
          z3::expr odd = (j & c.bv_val(1, 64)) == c.bv_val(1, 64);
          if (sg)
            side.push_back(z3::implies(odd, z3::bvsub_no_overflow(c0, x0) &&
                                                z3::bvsub_no_underflow(c0, x0, true)));
          v = z3::ite(odd, c0 - x0, x0);
        } else if (cf.op == ClosedForm::Add || cf.op == ClosedForm::Sub) {
          z3::expr st0 = resize(eval(*cf.step), w, cf.step->type.is_signed);
          z3::expr prod = kw * st0;
          if (nowrap) {
            if (w < 64) side.push_back(z3::ult(j, c.bv_val(uint64_t(1) << (sg ? w - 1 : w), 64)));
            else if (sg) side.push_back(z3::ult(j, c.bv_val(uint64_t(1) << 63, 64)));
            side.push_back(sg ? signedMulFits(kw, st0) : z3::bvmul_no_overflow(kw, st0, false));
          }
          if (cf.op == ClosedForm::Add) {
            if (nowrap) side.push_back(z3::bvadd_no_overflow(x0, prod, sg));
            if (sg) side.push_back(z3::bvadd_no_underflow(x0, prod));
            v = x0 + prod;
          } else {
            if (nowrap) side.push_back(z3::bvsub_no_underflow(x0, prod, sg));
            if (sg) side.push_back(z3::bvsub_no_overflow(x0, prod));
            v = x0 - prod;
          }
          // unsigned and allowed to wrap: k*c in w bits is exactly what the updates give
        } else if (cf.shift != 0) {
          z3::expr amt64 = z3::ite(z3::uge(j, c.bv_val(64, 64)), c.bv_val(64, 64),
                                   j * c.bv_val(static_cast<uint64_t>(cf.shift), 64));
          z3::expr amt = w >= 64 ? amt64
                                 : z3::ite(z3::uge(amt64, c.bv_val(w, 64)), c.bv_val(w, w),
                                           amt64.extract(w - 1, 0));
          if (w == 64) amt = amt64;
          if (cf.op == ClosedForm::Shl && nowrap) side.push_back(z3::lshr(z3::shl(x0, amt), amt) == x0);
          v = cf.op == ClosedForm::Shl    ? z3::shl(x0, amt)
              : cf.op == ClosedForm::LShr ? z3::lshr(x0, amt)
                                          : z3::ashr(x0, amt);
          // dividing k times by 2^c is dividing once by 2^(kc) (both round toward zero):
          // the floor ashr gives, plus one where a negative x0 leaves a remainder
          if (cf.op == ClosedForm::SDiv) {
            z3::expr zero = c.bv_val(0, w), low = z3::shl(c.bv_val(1, w), amt) - c.bv_val(1, w);
            v = v + z3::ite(z3::slt(x0, zero) && (x0 & low) != zero, c.bv_val(1, w), zero);
          }
        }
        st.insert_or_assign(lid, v);
        continue;
      }
      // havoc: a value depending on the iteration only through an unknown function
      auto h = havoc.find(lid);
      if (h == havoc.end()) {
        z3::sort_vector dom(c);
        for (size_t i = 0; i < outer.size() + 1; ++i) dom.push_back(E.bv(64));
        z3::sort rs = lt.kind == Type::Kind::Bool ? c.bool_sort() : E.bv(lt.bits ? lt.bits : 64);
        h = havoc.emplace(lid, c.function((tag + ".havoc" + std::to_string(lid)).c_str(), dom, rs))
                .first;
      }
      z3::expr_vector args(c);
      for (auto &o : outer) args.push_back(o);
      args.push_back(j);
      st.insert_or_assign(lid, h->second(args));
    }
    return st;
  };
  // Whether iteration j starts (For/While: the condition; Do: always the first), with the
  // side conditions of evaluating it there.
  // `evaluated`: where the condition is evaluated at j for sure (signed operations in it
  // do not overflow there).
  auto enterAt = [&](const z3::expr &j, std::vector<z3::expr> &side, const z3::expr &evaluated) {
    env = stateAt(j, side);
    z3::expr saved = pc();
    pc_ = evaluated;
    capture = &side;
    z3::expr cond = s.cond ? boolOf(*s.cond) : c.bool_val(true);
    capture = nullptr;
    pc_ = saved;
    return s.loop == model::LoopKind::Do ? (j == c.bv_val(0, 64) || cond) : cond;
  };

  // iteration k
  std::vector<z3::expr> side;
  z3::expr inIter = z3::ult(k, N);
  z3::expr enter = enterAt(k, side, pc0 && inIter);
  std::map<unsigned, z3::expr> atStart = env;  // the locals at the start of iteration k
  pc_ = pc0 && inIter && enter;
  for (auto &sd : side) {
    T.no_ub.insert(T.side.size());
    T.side.push_back(z3::implies(pc(), sd));
  }
  if (bi.part) {
    // A loop with barriers must have a uniform condition: both threads evaluate it at
    // iteration k (neither left before) and disagree. Checked with each thread's own N.
    std::vector<z3::expr> ks = allKs();
    ks.push_back(k);
    sync(s, enter, !bi.block, std::nullopt, pc0 && z3::ule(k, N), ks);
  }

  // per kind of barrier the body has: a placeholder for "the start of iteration k"
  Phases lb0 = lb;
  auto marker = [&](int p) { return kStartBase - kPhaseKinds * id - p; };
  for (int p = 0; p < kPhaseKinds; ++p)
    if (bi.ends(p)) lb[p] = {Cand{c.bool_val(true), marker(p), {}}};
  size_t firstAccess = T.accesses.size();
  size_t firstTripFact = tripFacts.size();
  size_t firstCreated = E.created.size();
  std::optional<z3::expr> retBefore = rets.back();
  rets.back().reset();
  size_t firstRetEnv = ret_envs.back().size();
  loops.push_back(LoopCtx{&s, k, N, pc0, bi, label, std::nullopt, std::nullopt, {}});
  block(s.body);
  if (loops.back().cont) pc_ = pc() || *loops.back().cont;
  for (const auto &[where, cenv] : loops.back().cont_envs) mergeEnv(where, cenv);
  block(s.step);
  // ranges the havocked locals provably keep (by induction over the iterations)
  std::set<unsigned> havocked;
  for (const auto &h : havoc) havocked.insert(h.first);
  std::vector<Range> ranges = rangeInvariants(s, havocked, atStart, env0, pc0, pc());
  for (const Range &r : ranges) T.side.push_back(z3::implies(pc0 && z3::ule(k, N), r.holds(atStart.at(r.local))));
  std::optional<z3::expr> brk = loops.back().brk;
  loops.pop_back();
  std::optional<z3::expr> ret = rets.back();
  rets.back() = retBefore;
  if (bi.part) {
    // The exit conditions of the barrier loops inside (each guarded by its path
    // condition) hold at every iteration, not only at k: the fix-ups below look at
    // iterations k-1 and N-1, where the inner trip counts are pinned down only if stated.
    z3::expr_vector from(c), prev(c), last(c);
    from.push_back(k);
    prev.push_back(k - c.bv_val(1, 64));
    last.push_back(N - c.bv_val(1, 64));
    for (size_t i = firstTripFact, end = tripFacts.size(); i < end; ++i) {
      z3::expr f = T.side[tripFacts[i]];
      for (const z3::expr_vector *to : {&prev, &last}) {
        tripFacts.push_back(T.side.size());
        T.side.push_back(f.substitute(from, *to));
      }
    }
  }

  // fix up the last-barrier candidates at the start of iteration k
  auto startOf = [&](const LB &end, const LB &before, int marker) {
    LB prev;
    for (const Cand &x : end)
      prev.push_back(x.barrier == marker ? Cand{x.cond, kUnknown, {}} : x);
    prev = substLB(prev, k, k - c.bv_val(1, 64));
    LB r;
    z3::expr first = k == c.bv_val(0, 64);
    for (const Cand &x : before) r.push_back(Cand{x.cond && first, x.barrier, x.ks});
    for (const Cand &x : prev) r.push_back(Cand{x.cond && !first, x.barrier, x.ks});
    return r;
  };
  Phases end = lb, start = lb0;
  for (int p = 0; p < kPhaseKinds; ++p) {
    if (!bi.ends(p)) continue;
    start[p] = startOf(end[p], lb0[p], marker(p));
    for (size_t i = firstAccess; i < T.accesses.size(); ++i)
      T.accesses[i].lb[p] = expandLB(T.accesses[i].lb[p], marker(p), start[p]);
  }

  // The substitution reading the body's terms at iteration j instead of k, as a fact about
  // that one iteration: the values the body created (loads, inner counters) are renamed
  // apart from the ones the body's events use at iteration k.
  size_t endCreated = E.created.size();
  auto atIteration = [&](const z3::expr &j, const char *name) {
    std::pair<z3::expr_vector, z3::expr_vector> sub{z3::expr_vector(c), z3::expr_vector(c)};
    sub.first.push_back(k);
    sub.second.push_back(j);
    for (size_t i = firstCreated; i < endCreated; ++i) {
      sub.first.push_back(E.created[i]);
      sub.second.push_back(E.freshConst(name, E.created[i].get_sort()));
    }
    return sub;
  };
  // A jump out of iteration j: a break, or a return.
  std::optional<z3::expr> jump = brk;
  if (ret) jump = orOpt(jump, *ret);
  auto jumpAt = [&](const z3::expr &j) {
    auto [from, to] = atIteration(j, "jump");
    return jump->substitute(from, to);
  };

  // After the loop. N is the first iteration that does not start, unless a jump left
  // iteration N-1: (N == 0 or iteration N-1 started) and (iteration N does not start, or
  // a jump left N-1). Side conditions of evaluating the condition hold where it was.
  z3::expr Nm1 = N - c.bv_val(1, 64);
  std::vector<z3::expr> prevSide, lastSide;
  z3::expr enterPrev = enterAt(Nm1, prevSide, pc0 && N != c.bv_val(0, 64));
  z3::expr enterLast = enterAt(N, lastSide, c.bool_val(false));
  z3::expr exitOk = (N == c.bv_val(0, 64) || (enterPrev && conj(c, prevSide))) &&
                    ((!enterLast && conj(c, lastSide)) || (jump ? jumpAt(Nm1) : c.bool_val(false)));
  // Threads that returned inside the loop do not reach the code after it; J is the
  // iteration they returned at. Leaving the kernel, J is one value shared by both threads
  // (named alike in both): a thread that returned at J and one that did not differ there,
  // and a return both take at one iteration is no divergence. Leaving an inlined call,
  // the locals of each thread at its own return matter, so each has its own J.
  z3::expr pcAfter = pc0;
  if (ret) {
    std::string jname = (rets.size() == 1 ? "" : "t" + std::to_string(T.t) + ".") + "J.L" + std::to_string(id);
    z3::expr J = c.bv_const(jname.c_str(), 64);
    auto [from, to] = atIteration(J, "ret");
    z3::expr returned = z3::ult(J, N) && ret->substitute(from, to);
    pcAfter = pc0 && !returned;
    rets.back() = orOpt(rets.back(), pc0 && returned);
    // the locals of those threads, at the iteration J they returned in
    for (size_t i = firstRetEnv; i < ret_envs.back().size(); ++i) {
      auto &[where, renv] = ret_envs.back()[i];
      where = pc0 && z3::ult(J, N) && where.substitute(from, to);
      for (auto &[id, v] : renv) v = v.substitute(from, to);
    }
  }
  if (bi.part) tripFacts.push_back(T.side.size());
  T.side.push_back(z3::implies(pc0, exitOk));
  if (jump) {
    // a jump leaves from the middle of an iteration: the updated locals are unknown
    env = env0;
    for (auto &[lid, n] : mods) {
      (void)n;
      for (const model::Local &l : E.K.locals)
        if (l.id == lid) env.insert_or_assign(lid, fresh(l.type, l.name));
    }
  } else {
    std::vector<z3::expr> exitSide;
    env = stateAt(N, exitSide);
    for (auto &sd : exitSide) T.side.push_back(z3::implies(pc0, sd));
    for (const Range &r : ranges)
      if (env.count(r.local)) T.side.push_back(z3::implies(pc0, r.holds(env.at(r.local))));
  }
  pc_ = pcAfter;

  auto after = [&](const LB &end, const LB &start, const LB &before, int marker) {
    if (has_break) return LB{Cand{c.bool_val(true), kUnknown, {}}};  // a jump: any barrier
    LB full = substLB(expandLB(end, marker, start), k, N - c.bv_val(1, 64));
    LB r;
    z3::expr zero = N == c.bv_val(0, 64);
    for (const Cand &x : before) r.push_back(Cand{x.cond && zero, x.barrier, x.ks});
    for (const Cand &x : full) r.push_back(Cand{x.cond && !zero, x.barrier, x.ks});
    return r;
  };
  for (int p = 0; p < kPhaseKinds; ++p) lb[p] = bi.ends(p) ? after(end[p], start[p], lb0[p], marker(p)) : lb0[p];
}

// --- queries ---------------------------------------------------------------------

z3::expr samePhase(z3::context &c, const LB &a, const LB &b) {
  z3::expr_vector ors(c);
  for (const Cand &x : a)
    for (const Cand &y : b) {
      if (x.barrier == kUnknown || y.barrier == kUnknown) {
        ors.push_back(x.cond && y.cond);
        continue;
      }
      if (x.barrier != y.barrier || x.ks.size() != y.ks.size()) continue;
      z3::expr e = x.cond && y.cond;
      for (size_t i = 0; i < x.ks.size(); ++i) e = e && x.ks[i] == y.ks[i];
      ors.push_back(e);
    }
  return ors.empty() ? c.bool_val(false) : z3::mk_or(ors);
}

std::string accessText(const Stmt &s, const Kernel &k) {
  if (!s.text.empty()) return s.text;
  return k.arrays[s.array].name + "[" + model::toString(s.index) + "]";
}

AccessRef refOf(const Stmt &s, const Kernel &k) {
  AccessRef r;
  if (s.kind == Stmt::Kind::Access) {
    r.kind = model::accessKindName(s.access);
    r.text = accessText(s, k);
  } else if (s.kind == Stmt::Kind::Barrier) {
    r.kind = "barrier";
    r.text = s.what.empty() ? "__syncthreads()" : s.what + "()";
  } else {
    r.kind = "barrier";
    r.text = s.kind == Stmt::Kind::Return ? "return"
             : s.kind == Stmt::Kind::Loop ? std::string(model::loopKindName(s.loop)) + " loop"
                                          : "break";
  }
  r.range = s.range;
  return r;
}

uint64_t num(const z3::model &m, const z3::expr &e) {
  z3::expr v = m.eval(e, true);
  uint64_t out = 0;
  if (v.is_numeral_u64(out)) return out;
  if (v.is_true()) return 1;
  return 0;
}

std::string signedStr(uint64_t v, unsigned bits, bool is_signed) {
  if (!is_signed || bits == 0) return std::to_string(v);
  if (bits < 64 && (v >> (bits - 1)) & 1) v |= ~uint64_t(0) << bits;
  return std::to_string(static_cast<int64_t>(v));
}

class Checker {
public:
  Checker(Encoder &E, KernelResult &R) : E(E), R(R), P(E.c) {}
  void run();

private:
  Encoder &E;
  KernelResult &R;
  z3::params P;
  std::vector<z3::expr> launch, side;
  std::vector<std::set<std::string>> sideSymbols;
  std::vector<bool> isPremise;
  bool linear_first = false;  // the last query was decided by the linear abstraction (decide)  // the user's assumptions: few, and they chain (n == m, m == 64)
  std::set<std::string> launchSymbols;
  std::optional<Thread> T1, T2;
  bool unknown = false;

  // `quiet`: an unknown answer is not the kernel's (a batched query, asked pair by pair next)
  z3::check_result check(const z3::expr &q, const std::string &name, std::optional<z3::model> &m,
                         double seconds = 0, bool quiet = false);
  Witness witness(const z3::model &m, const std::vector<const std::vector<LoopRef> *> &loops,
                  const std::vector<int> &which, const z3::expr &index, bool two);
  z3::expr sameBlock() {
    return T1->bid[0] == T2->bid[0] && T1->bid[1] == T2->bid[1] && T1->bid[2] == T2->bid[2];
  }
  z3::expr distinctThreads() {
    return T1->tid[0] != T2->tid[0] || T1->tid[1] != T2->tid[1] || T1->tid[2] != T2->tid[2];
  }
  z3::expr linear(const Thread &T) {
    return T.tid[0] + T.tid[1] * E.bdim[0] + T.tid[2] * E.bdim[0] * E.bdim[1];
  }
  z3::expr sameWarp() {
    return z3::udiv(linear(*T1), E.u32(32)) == z3::udiv(linear(*T2), E.u32(32));
  }
  z3::expr lane(const Thread &T) { return z3::urem(linear(T), E.u32(32)); }
  z3::expr maskOrdered(const AccessEv &a, const AccessEv &b);
  z3::expr partOrdered(const AccessEv &a, const AccessEv &b);
  std::optional<z3::expr> barrierLanes(int id);
  std::map<int, std::optional<z3::expr>> lanes_cache;
  void useThreads(bool shared_trips);
  bool premisesHold();
  std::vector<z3::expr> sharedReads();
  void simplest(const z3::expr &q, std::optional<z3::model> &m);
  std::optional<Finding> benign_;  // the array's first benign race (races)
  std::vector<z3::expr> tickets();
  void unreachable();
  void divergence();
  bool laneOutsideMask(const SyncEv &a);
  void races();
  bool racePair(const AccessEv &a, const AccessEv &b, const z3::expr &both, const z3::expr &intra,
                const z3::expr &inter, const std::optional<z3::model> &batch);
  // Without the no-alias assumption two pointer parameters may point into one buffer at
  // any distance: their accesses collide where their bytes overlap.
  bool mayAlias(const model::Array &a, const model::Array &b) const {
    return !E.O.assume_no_alias && a.origin == "param" && b.origin == "param" &&
           a.space == AddressSpace::Global && b.space == AddressSpace::Global && a.elem_size && b.elem_size;
  }
  z3::expr base(const model::Array &a) { return E.c.bv_const(("base of " + a.name).c_str(), 64); }
  z3::expr overlap(const AccessEv &a, const AccessEv &b);
  void bounds();
  // a query over all pairs (or accesses) of an array at once: a third of the time
  double batchSeconds() const { return std::min(E.O.timeout_s, std::max(2.0, E.O.timeout_s / 3)); }
  bool outOfBounds(const AccessEv &a, const z3::expr &q, const std::optional<z3::model> &batch);
  z3::check_result checkOrReuse(const z3::expr &q, const std::string &name, std::optional<z3::model> &m,
                                const std::optional<z3::model> &batch);
};

// The uninterpreted constants and functions an expression mentions.
// (An explicit stack: terms can be nested deeper than the call stack allows.)
static void symbols(const z3::expr &root, std::set<unsigned> &seen, std::set<std::string> &out) {
  std::vector<z3::expr> todo{root};
  while (!todo.empty()) {
    z3::expr e = todo.back();
    todo.pop_back();
    if (!seen.insert(e.id()).second || !e.is_app()) continue;
    if (e.decl().decl_kind() == Z3_OP_UNINTERPRETED) out.insert(e.decl().name().str());
    for (unsigned i = 0; i < e.num_args(); ++i) todo.push_back(e.arg(i));
  }
}

z3::check_result Checker::check(const z3::expr &q, const std::string &name,
                                std::optional<z3::model> &m, double seconds, bool quiet) {
  if (seconds <= 0) seconds = E.O.timeout_s;
  auto t0 = std::chrono::steady_clock::now();
  // Assumptions only restrict: start with those about the query's symbols (dropping
  // others is sound, it only adds behaviours); a model that breaks one left out is no
  // witness: add the broken ones and ask again.
  std::set<unsigned> seen;
  std::set<std::string> qs;
  symbols(q, seen, qs);
  static const bool all_sides = std::getenv("KVERIFY_ALL_ASSUMPTIONS") != nullptr;
  std::vector<bool> used(side.size(), all_sides);
  for (size_t i = 0; i < side.size(); ++i)
    used[i] = used[i] || isPremise[i] || std::all_of(sideSymbols[i].begin(), sideSymbols[i].end(), [&](const std::string &sym) {
                return qs.count(sym) || launchSymbols.count(sym);
              });
  z3::check_result r = z3::unknown;
  const char *how = "";
  for (int round = 0;; ++round) {
    z3::expr_vector all(E.c);
    for (const z3::expr &b : launch) all.push_back(b);
    for (size_t i = 0; i < side.size(); ++i)
      if (used[i]) all.push_back(side[i]);
    all.push_back(q);
    double left = seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    Decision d = decide(all, E.no_overflow, std::max(0.05, left), name, linear_first);
    linear_first = std::string_view(d.how) == "int-linear" || (linear_first && std::string_view(d.how) != "bv");
    r = d.result, how = d.how, m = d.model;
    if (r != z3::sat) break;
    bool broken = false;
    for (size_t i = 0; i < side.size(); ++i)
      if (!used[i] && !m->eval(side[i], true).is_true()) used[i] = broken = true;
    if (!broken) break;
    how = "refined";
    if (round == 8) {  // not converging: no verdict
      r = z3::unknown;
      break;
    }
  }
  if (std::getenv("KVERIFY_DEBUG_QUERIES"))
    std::fprintf(stderr, "[kverify] %s: %s (%s) in %.1f ms\n", name.c_str(),
                 r == z3::sat ? "sat" : r == z3::unsat ? "unsat" : "unknown", how,
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  if (r == z3::unknown && !quiet && !unknown) {
    unknown = true;
    R.unknown_query = name;
  }
  return r;
}

Witness Checker::witness(const z3::model &m, const std::vector<const std::vector<LoopRef> *> &loops,
                         const std::vector<int> &which, const z3::expr &index, bool two) {
  Witness w;
  for (int d = 0; d < 3; ++d) {
    w.thread1.thread_idx[d] = num(m, T1->tid[d]);
    w.thread1.block_idx[d] = num(m, T1->bid[d]);
    if (two) {
      w.thread2.thread_idx[d] = num(m, T2->tid[d]);
      w.thread2.block_idx[d] = num(m, T2->bid[d]);
    }
    w.block_dim[d] = num(m, E.bdim[d]);
    w.grid_dim[d] = num(m, E.gdim[d]);
  }
  for (const model::Param &p : E.K.params) {
    auto it = E.params.find(p.name);
    if (it == E.params.end() || p.array) continue;
    if (p.type.kind == Type::Kind::Float || p.type.kind == Type::Kind::Other) continue;
    uint64_t v = num(m, it->second);
    w.params.emplace_back(p.name, p.type.kind == Type::Kind::Bool
                                      ? (v ? "true" : "false")
                                      : signedStr(v, p.type.bits, p.type.is_signed));
  }
  for (size_t i = 0; i < loops.size(); ++i)
    for (const LoopRef &l : *loops[i]) {
      std::string name = l.label;
      if (two) name = "thread " + std::to_string(which[i]) + ": " + name;
      w.loops.emplace_back(name, std::to_string(num(m, l.k)));
    }
  w.index = signedStr(num(m, index), 64, true);
  return w;
}

// The two symbolic threads every query is about, and their facts.
void Checker::useThreads(bool shared_trips) {
  T1 = E.makeThread(1, shared_trips);
  T2 = E.makeThread(2, shared_trips);
  lanes_cache.clear();
  if (launch.empty()) {
    for (auto &b : E.base) launch.push_back(b);
    std::set<unsigned> seen;
    for (auto &b : launch) symbols(b, seen, launchSymbols);
  }
  side.clear();
  sideSymbols.clear();
  isPremise.clear();
  for (auto *T : {&*T1, &*T2})
    for (auto &b : T->side) {
      side.push_back(b);
      isPremise.push_back(std::any_of(T->premises.begin(), T->premises.end(),
                                      [&](const auto &p) { return z3::eq(p.second, b); }));
      std::set<unsigned> seen;
      sideSymbols.emplace_back();
      symbols(b, seen, sideSymbols.back());
    }
  std::vector<z3::expr> extra = sharedReads(), more = tickets();
  extra.insert(extra.end(), more.begin(), more.end());
  for (const z3::expr &b : extra) {
    side.push_back(b);
    isPremise.push_back(false);
    std::set<unsigned> seen;
    sideSymbols.emplace_back();
    symbols(b, seen, sideSymbols.back());
  }
}

// Counters whose every update is an atomicAdd of a positive constant hand out tickets:
// two different atomicAdds on one element return different values (the stream-compaction
// idiom `out[atomicAdd(&n, 1)] = x`). Assumed: such a counter does not wrap around.
std::vector<z3::expr> Checker::tickets() {
  std::vector<z3::expr> out;
  for (const LoadEv &l1 : T1->tickets)
    for (const LoadEv &l2 : T2->tickets) {
      const AccessEv &a = T1->accesses[l1.access], &b = T2->accesses[l2.access];
      if (a.s->array != b.s->array || l1.value.is_bool() || l2.value.is_bool() ||
          l1.value.get_sort().bv_size() != l2.value.get_sort().bv_size())
        continue;
      // the same event: one thread, one statement, one iteration
      z3::expr same = sameBlock() && !distinctThreads();
      if (a.s != b.s || a.loops.size() != b.loops.size()) same = E.c.bool_val(false);
      for (size_t i = 0; i < a.loops.size() && a.s == b.s; ++i) same = same && a.loops[i].k == b.loops[i].k;
      z3::expr one = a.pc && b.pc && a.index == b.index && !same;
      if (E.K.arrays[a.s->array].space == AddressSpace::Shared) one = one && sameBlock();
      out.push_back(z3::implies(one, l1.value != l2.value));
    }
  return out;
}

// Two threads of a block that read one shared element in the same barrier interval read
// the same value, unless a write reaches one read and not the other, and such a write
// races with the other read (or another write): it is a race the race check reports.
// So, where the kernel is race-free, the reads of one access at the same iterations and
// address by both threads agree (GPUVerify's equality abstraction rests on the same
// argument). This is what makes a value broadcast through shared memory uniform (thread 0
// stores it, a barrier, every thread reads it).
std::vector<z3::expr> Checker::sharedReads() {
  std::vector<z3::expr> out;
  for (const LoadEv &l1 : T1->loads)
    for (const LoadEv &l2 : T2->loads) {
      const AccessEv &a = T1->accesses[l1.access], &b = T2->accesses[l2.access];
      if (a.s != b.s || a.loops.size() != b.loops.size() || l1.value.is_bool() != l2.value.is_bool())
        continue;
      z3::expr same = a.pc && b.pc && sameBlock() && a.index == b.index &&
                      samePhase(E.c, a.lb[kBlockPhase], b.lb[kBlockPhase]) &&
                      samePhase(E.c, a.lb[kAnyPhase], b.lb[kAnyPhase]);
      for (size_t i = 0; i < a.loops.size(); ++i) same = same && a.loops[i].k == b.loops[i].k;
      out.push_back(z3::implies(same, l1.value == l2.value));
    }
  return out;
}

// Divergence first, with each thread's own trip counts; races only once the barriers are
// shown uniform, with the block's shared trip counts.
void Checker::run() {
  // barriers under uniform control (uniformity.hpp) need no divergence-mode execution
  bool uniform = E.U.barriersUniform();
  useThreads(uniform);
  if (!premisesHold()) return;
  divergence();
  bool divergent = !R.findings.empty();
  if (!divergent) {
    if (!uniform && T1->uniform_loops) useThreads(true);  // else the same threads again
    races();
  }
  bounds();
  // A proof is vacuous where no thread goes under the assumptions (the user's, and the
  // side facts: no UB, no wrap-around): shown for every proof
  if (R.findings.empty() && !unknown) unreachable();
}

// The launch and the assumptions (--assume, KV_ASSUME) must be satisfiable together, else
// every query is vacuously unsat: an error naming the contradicting ones, never `verified`.
bool Checker::premisesHold() {
  if (T1->premises.empty()) return true;  // the launch alone: within CUDA's limits (checked)
  z3::solver s(E.c);
  for (const z3::expr &b : launch) s.add(b);
  z3::expr_vector lits(E.c);
  std::vector<std::string> names;
  for (const auto &[name, fact] : T1->premises) {
    z3::expr lit = E.c.bool_const(("premise!" + std::to_string(names.size())).c_str());
    s.add(z3::implies(lit, fact));
    lits.push_back(lit);
    names.push_back(name);
  }
  z3::check_result r = checkWithin(s, E.O.timeout_s, &lits);
  if (r == z3::sat) return true;
  if (r == z3::unknown) {
    R.unknown_query = "satisfiability of the launch and the assumptions";
    unknown = true;
    return false;
  }
  std::string msg = "no launch satisfies the assumptions together with the launch configuration:";
  z3::expr_vector core = s.unsat_core();
  for (unsigned i = 0; i < core.size(); ++i)
    for (unsigned j = 0; j < lits.size(); ++j)
      if (z3::eq(core[i], lits[j])) msg += " " + names[j] + (i + 1 < core.size() ? ";" : "");
  if (core.size() == 0) msg += " the launch configuration itself";
  R.premise_error = msg + " (a proof under them would be vacuous)";
  return false;
}

// Accesses and barriers no thread reaches under the assumptions: proofs about them are
// vacuous, so the user sees them (a note; in JSON, "unreachable").
void Checker::unreachable() {
  // statement -> where thread 1 or thread 2 executes it (two threads: each model can show
  // two paths through the kernel)
  std::map<const Stmt *, z3::expr> pending;
  auto add = [&](const Stmt *st, const z3::expr &pc) {
    auto it = pending.find(st);
    if (it == pending.end()) pending.emplace(st, pc);
    else it->second = it->second || pc;
  };
  for (const Thread *T : {&*T1, &*T2}) {
    for (const AccessEv &a : T->accesses) add(a.s, a.pc);
    for (const SyncEv &b : T->syncs)
      if (b.s->kind == Stmt::Kind::Barrier) add(b.s, b.pc);
  }
  // Ask for a model executing any pending statement, with the side facts it breaks added
  // (as Checker::check does): each model retires the statements it executes; unsat, even
  // with only some of the facts, leaves the rest unreachable. A note, not a verdict: kept
  // to a quarter of a second under the user's assumptions (where vacuity is likeliest),
  // a tenth without.
  auto t0 = std::chrono::steady_clock::now();
  const double budget = T1->premises.empty() ? 0.1 : 0.25;
  // The facts a model of few threads and small values rarely breaks start left out.
  std::vector<z3::expr> facts = launch;
  std::vector<bool> used;
  for (const z3::expr &b : launch) used.push_back(!z3::eq(b, *E.block_limit));
  for (const Thread *T : {&*T1, &*T2})
    for (size_t i = 0; i < T->side.size(); ++i) {
      facts.push_back(T->side[i]);
      used.push_back(!T->no_ub.count(i));
    }
  // first among one-dimensional blocks, where the 1024-thread limit needs no product
  std::optional<z3::expr> hint;
  if (!E.O.block_dim[1] || !E.O.block_dim[2]) hint = E.bdim[1] == E.u32(1) && E.bdim[2] == E.u32(1);
  while (!pending.empty()) {
    double left = budget - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (left <= 0) return;
    z3::expr_vector q(E.c);
    for (size_t i = 0; i < used.size(); ++i)
      if (used[i]) q.push_back(facts[i]);
    if (hint) q.push_back(*hint);
    z3::expr_vector any(E.c);
    for (const auto &[st, pc] : pending) any.push_back(pc);
    q.push_back(z3::mk_or(any));
    Decision d = findModel(q, E.no_overflow, left);
    z3::check_result r = d.result;
    if (std::getenv("KVERIFY_DEBUG_QUERIES"))
      std::fprintf(stderr, "[kverify] reachability of %zu statements: %s (%s) at %.1f ms\n", pending.size(),
                   r == z3::sat ? "sat" : r == z3::unsat ? "unsat" : "unknown", d.how,
                   std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (r == z3::unknown) return;
    if (r == z3::unsat && hint) {
      hint.reset();
      continue;
    }
    if (r == z3::unsat) break;
    z3::model m = *d.model;
    bool broken = false;
    for (size_t i = 0; i < used.size(); ++i)
      if (!used[i] && !m.eval(facts[i], true).is_true()) used[i] = broken = true;
    if (broken) continue;
    for (auto it = pending.begin(); it != pending.end();)
      it = m.eval(it->second, true).is_true() ? pending.erase(it) : std::next(it);
  }
  for (const auto &[st, pc] : pending) R.unreachable.push_back(refOf(*st, E.K));
  std::sort(R.unreachable.begin(), R.unreachable.end(), [](const AccessRef &a, const AccessRef &b) {
    return std::tie(a.range.line, a.range.col) < std::tie(b.range.line, b.range.col);
  });
}

// __syncwarp(mask) executed by a lane that is not in its mask: undefined in CUDA, and the
// lanes of the mask wait for one that never joins them.
bool Checker::laneOutsideMask(const SyncEv &a) {
  z3::expr one = E.u32(1);
  z3::expr q = a.pc && (z3::lshr(*a.mask, lane(*T1)) & one) != one;
  std::optional<z3::model> m;
  if (check(q, "lane outside the mask of the barrier at " + loc(a.s->range), m) != z3::sat) return false;
  Finding f;
  f.kind = Verdict::Divergence;
  f.message = "barrier divergence: '" + refOf(*a.s, E.K).text + "' is executed by a lane outside its mask";
  f.explanation = "thread 1 executes it, but its lane is not in the mask: the lanes of the mask wait for a "
                  "lane that never arrives (undefined behaviour)";
  f.accesses.push_back(refOf(*a.s, E.K));
  f.witness = witness(*m, {}, {}, E.c.bv_val(0, 64), false);
  f.witness.index.clear();
  f.witness.validated = m->eval(q, true).is_true();
  for (auto &sd : side) f.witness.validated = f.witness.validated && m->eval(sd, true).is_true();
  if (!f.witness.validated) return false;
  R.findings.push_back(f);
  return true;
}

// A grid barrier (or a loop or jump around one) must be reached alike by every thread of
// the grid, not only of a block.
static bool hasGridBarrier(const std::vector<Stmt> &body) {
  for (const Stmt &s : body)
    if ((s.kind == Stmt::Kind::Barrier && s.barrier == model::BarrierKind::Grid) ||
        hasGridBarrier(s.then_body) || hasGridBarrier(s.else_body) || hasGridBarrier(s.body) ||
        hasGridBarrier(s.step))
      return true;
  return false;
}

static bool gridWide(const SyncEv &a) {
  if (a.s->kind == Stmt::Kind::Barrier) return a.s->barrier == model::BarrierKind::Grid;
  if (a.s->kind == Stmt::Kind::Loop && (hasGridBarrier(a.s->body) || hasGridBarrier(a.s->step))) return true;
  return std::any_of(a.frames.begin(), a.frames.end(), [](const Frame &f) {
    return hasGridBarrier(f.loop->body) || hasGridBarrier(f.loop->step);
  });
}

void Checker::divergence() {
  std::set<const Stmt *> divergent;  // loops
  for (size_t i = 0; i < T1->syncs.size(); ++i) {
    if (const SyncEv &a = T1->syncs[i]; a.warp && a.mask && a.s->kind == Stmt::Kind::Barrier &&
                                         !isFullMask(*a.s) && laneOutsideMask(a))
      continue;
    const SyncEv &a = T1->syncs[i], &b = T2->syncs[i];
    bool grid = gridWide(a);
    if (!grid && (a.s->kind == Stmt::Kind::Loop ? E.U.loop(*a.s) : E.U.control(*a.s))) continue;
    // inside a loop already reported: its divergence comes first (and explains the rest)
    if (std::any_of(a.frames.begin(), a.frames.end(), [&](const Frame &f) { return divergent.count(f.loop); }))
      continue;
    z3::expr q = (grid ? distinctThreads() || !sameBlock() : sameBlock() && distinctThreads()) &&
                 a.guard && b.guard && (a.pc != b.pc);
    for (size_t j = 0; j < a.ks.size(); ++j) q = q && a.ks[j] == b.ks[j];
    // The first disagreement: had the threads left an enclosing loop at different
    // iterations, that loop's own event disagreed earlier.
    for (size_t j = 0; j < a.frames.size() && j < b.frames.size(); ++j)
      q = q && z3::implies(a.frames[j].reach && b.frames[j].reach, a.frames[j].in && b.frames[j].in);
    if (a.warp) {
      q = q && sameWarp();
      if (a.mask) {
        z3::expr one = E.u32(1);
        q = q && (z3::lshr(*a.mask, lane(*T1)) & one) == one &&
            (z3::lshr(*b.mask, lane(*T2)) & one) == one;
      }
    }
    std::optional<z3::model> m;
    std::string what = a.s->kind == Stmt::Kind::Barrier ? "barrier"
                       : a.s->kind == Stmt::Kind::Loop  ? "loop condition"
                                                        : "exit";
    if (check(q, "divergence of the " + what + " at " + loc(a.s->range), m) != z3::sat) continue;
    simplest(q, m);
    Finding f;
    f.kind = Verdict::Divergence;
    bool on1 = num(*m, a.pc) != 0;
    AccessRef r = refOf(*a.s, E.K);
    f.message = a.s->kind == Stmt::Kind::Barrier
                    ? "barrier divergence: '" + r.text + "' is reached by only part of the " +
                          (grid ? "grid" : a.warp ? "warp" : "block")
                : a.s->kind == Stmt::Kind::Loop
                    ? "barrier divergence: the " + r.text +
                          " contains barriers but its trip count differs between threads"
                    : "barrier divergence: '" + r.text +
                          "' inside a loop with barriers is taken by only part of the block";
    f.accesses.push_back(r);
    f.witness = witness(*m, {}, {}, E.c.bv_val(0, 64), true);
    auto name = [](const ThreadCoords &t) {
      auto xyz = [](const std::array<uint64_t, 3> &v) {
        return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
      };
      return "thread " + xyz(t.thread_idx) + " of block " + xyz(t.block_idx);
    };
    const ThreadCoords &in = on1 ? f.witness.thread1 : f.witness.thread2;
    const ThreadCoords &out = on1 ? f.witness.thread2 : f.witness.thread1;
    f.explanation = name(in) + " reaches it, " + name(out) + " does not (at the same loop iterations)";
    f.witness.index.clear();
    // validate: the two path conditions really differ at the model
    f.witness.validated = m->eval(a.pc, true).is_true() != m->eval(b.pc, true).is_true() &&
                          m->eval(a.guard && b.guard, true).is_true();
    for (auto &sd : side) f.witness.validated = f.witness.validated && m->eval(sd, true).is_true();
    if (!f.witness.validated && std::getenv("KVERIFY_DEBUG_QUERIES")) {
      std::fprintf(stderr, "[kverify] validation failed: pcs %s %s guards %s q %s\n", m->eval(a.pc, true).to_string().c_str(),
                   m->eval(b.pc, true).to_string().c_str(), m->eval(a.guard && b.guard, true).to_string().c_str(),
                   m->eval(q, true).to_string().c_str());
      for (auto &sd : side)
        if (!m->eval(sd, true).is_true()) std::fprintf(stderr, "  side: %s\n", sd.to_string().c_str());
    }
    if (!f.witness.validated) {
      if (!unknown) R.unknown_query = "witness validation of divergence at " + loc(a.s->range);
      unknown = true;
      continue;
    }
    R.findings.push_back(f);
    if (a.s->kind == Stmt::Kind::Loop) divergent.insert(a.s);
  }
}

// Partial-mask __syncwarp(m) orders a (thread 1) and b (thread 2) of one warp when one
// instance of it lies between them: after a and before b in trace order (or the reverse),
// executed by both threads (the same barrier at the same iterations of its loops: the
// divergence check makes threads of a mask pass the same instances), with each thread in
// both threads' masks (__syncwarp(m) waits for the lanes in m; CUDA requires the same m).
// Trace order is program order only within the same iterations of shared loops, so an
// instance in a loop orders accesses of its own iteration, never across iterations
// (partOrdered, from the last barrier instances, orders those).
z3::expr Checker::maskOrdered(const AccessEv &a, const AccessEv &b) {
  z3::expr_vector ors(E.c);
  z3::expr one = E.u32(1);
  auto in = [&](const z3::expr &mask, const Thread &T) {
    return (z3::lshr(mask, lane(T)) & one) == one;
  };
  for (size_t i = 0; i < T1->syncs.size(); ++i) {
    const SyncEv &s1 = T1->syncs[i], &s2 = T2->syncs[i];
    if (s1.s != s2.s || !s1.warp || !s1.mask || !s2.mask || s1.s->kind != Stmt::Kind::Barrier ||
        isFullMask(*s1.s))
      continue;  // full-mask and block barriers: the phases (kWarpPhase, kBlockPhase) order those
    bool between = (a.seq < s1.seq && s1.seq < b.seq) || (b.seq < s1.seq && s1.seq < a.seq);
    if (!between) continue;
    z3::expr e = s1.pc && s2.pc && in(*s1.mask, *T1) && in(*s1.mask, *T2) &&
                 in(*s2.mask, *T1) && in(*s2.mask, *T2);
    for (size_t j = 0; j < s1.ks.size(); ++j) e = e && s1.ks[j] == s2.ks[j];
    ors.push_back(e);
  }
  return ors.empty() ? E.c.bool_val(false) : z3::mk_or(ors);
}

// Under what condition threads 1 and 2 (of one warp) are both in both threads' masks at
// every instance of static barrier `id`: true for block and full-mask barriers (and the
// entry); for a partial mask, only if each thread's mask is built from launch-invariant
// values alone (thread/block indices, dimensions, scalar parameters), so one value holds
// at all its instances; nullopt (no such guarantee) otherwise.
std::optional<z3::expr> Checker::barrierLanes(int id) {
  if (id == kEntry) return E.c.bool_val(true);
  auto it = lanes_cache.find(id);
  if (it != lanes_cache.end()) return it->second;
  auto invariant = [&](const z3::expr &m, const Thread &T) {
    std::set<unsigned> seen;
    std::set<std::string> syms;
    symbols(m, seen, syms);
    std::string t = "t" + std::to_string(T.t) + ".";
    for (const std::string &n : syms) {
      if (n.find('!') != std::string::npos) return false;  // fresh: a read, a havoc, a counter
      bool ok = n.rfind(t + "threadIdx.", 0) == 0 || n.rfind(t + "blockIdx.", 0) == 0 ||
                n.rfind("blockDim.", 0) == 0 || n.rfind("gridDim.", 0) == 0 ||
                n.rfind("param.", 0) == 0 || n.rfind("array.", 0) == 0;
      if (!ok) return false;
    }
    return true;
  };
  z3::expr one = E.u32(1);
  auto in = [&](const z3::expr &mask, const Thread &T) {
    return (z3::lshr(mask, lane(T)) & one) == one;
  };
  std::optional<z3::expr> r = E.c.bool_val(true);
  bool seenAny = false;
  for (const Thread *T : {&*T1, &*T2})
    for (const SyncEv &s : T->syncs) {
      if (s.s->kind != Stmt::Kind::Barrier) continue;
      auto bid = E.barrier_ids.find(s.s);
      if (bid == E.barrier_ids.end() || bid->second != id) continue;
      seenAny = true;
      if (!s.warp || isFullMask(*s.s)) continue;
      if (!r || !s.mask || !invariant(*s.mask, *T)) {
        r.reset();
        continue;
      }
      *r = *r && in(*s.mask, *T1) && in(*s.mask, *T2);
    }
  if (!seenAny) r.reset();
  lanes_cache.emplace(id, r);
  return r;
}

// Cross-iteration ordering by the last barrier instances of any mask (kAnyPhase). Let x be the
// last instance thread 1 passed before a, y thread 2's before b, x != y, and both threads
// in both threads' masks at x's and at y's static barrier (masks invariant, so at every
// instance). The divergence check (no finding, or races are not asked) then makes thread 2
// pass x and thread 1 pass y, and the threads agree on the order of the two instances (it
// is fixed by the program: barrier and loop iterations). If y comes after x: thread 1
// passes y after a (x is its last before a), thread 2 before b: a -> y -> b. Otherwise
// thread 2 passes x after b, thread 1 before a: b -> x -> a. Either instance synchronizes
// the two threads (each in both masks). Unknown candidates and unexpanded loop-start
// placeholders order nothing.
z3::expr Checker::partOrdered(const AccessEv &a, const AccessEv &b) {
  z3::expr_vector ors(E.c);
  auto known = [](const Cand &x) { return x.barrier >= 0 || x.barrier == kEntry; };
  for (const Cand &x : a.lb[kAnyPhase]) {
    if (!known(x)) continue;
    std::optional<z3::expr> lx = barrierLanes(x.barrier);
    if (!lx) continue;
    for (const Cand &y : b.lb[kAnyPhase]) {
      if (!known(y)) continue;
      std::optional<z3::expr> ly = barrierLanes(y.barrier);
      if (!ly) continue;
      z3::expr differ = E.c.bool_val(true);
      if (x.barrier == y.barrier) {
        if (x.ks.size() != y.ks.size()) continue;  // not comparable: no claim
        z3::expr_vector ne(E.c);
        for (size_t i = 0; i < x.ks.size(); ++i) ne.push_back(x.ks[i] != y.ks[i]);
        if (ne.empty()) continue;  // the same instance
        differ = z3::mk_or(ne);
      }
      ors.push_back(x.cond && y.cond && differ && *lx && *ly);
    }
  }
  return ors.empty() ? E.c.bool_val(false) : z3::mk_or(ors);
}

void Checker::races() {
  const auto &A1 = T1->accesses, &A2 = T2->accesses;
  // the pairs that may race, by array: both touch it, one writes, not both atomic
  struct Pair {
    size_t i, j;
    // both execute and overlap; unordered threads of one block; of two blocks (global
    // memory: only a grid barrier orders them)
    z3::expr both, intra, inter;
  };
  std::map<std::pair<unsigned, unsigned>, std::vector<Pair>> pairs;  // by the two arrays
  for (size_t i = 0; i < A1.size(); ++i) {
    for (size_t j = i; j < A2.size(); ++j) {
      const AccessEv &a = A1[i], &b = A2[j];
      const Stmt &sa = *a.s, &sb = *b.s;
      if (sa.array >= E.K.arrays.size() || sb.array >= E.K.arrays.size()) continue;
      const model::Array &arr = E.K.arrays[sa.array];
      if (arr.space != AddressSpace::Shared && arr.space != AddressSpace::Global) continue;
      if (sa.array != sb.array && !mayAlias(arr, E.K.arrays[sb.array])) continue;
      bool wa = sa.access != AccessKind::Read, wb = sb.access != AccessKind::Read;
      if (!wa && !wb) continue;
      if (sa.access == AccessKind::Atomic && sb.access == AccessKind::Atomic) continue;
      z3::expr both = a.pc && b.pc && overlap(a, b);
      z3::expr warpOrdered =
          sameWarp() && (!samePhase(E.c, a.lb[kWarpPhase], b.lb[kWarpPhase]) || maskOrdered(a, b) ||
                         partOrdered(a, b));
      z3::expr intra = sameBlock() && distinctThreads() &&
                       samePhase(E.c, a.lb[kBlockPhase], b.lb[kBlockPhase]) &&
                       !warpOrdered;
      z3::expr inter = arr.space == AddressSpace::Global
                           ? !sameBlock() && samePhase(E.c, a.lb[kGridPhase], b.lb[kGridPhase])
                           : E.c.bool_val(false);
      pairs[std::minmax(sa.array, sb.array)].push_back(Pair{i, j, both, intra, inter});
    }
  }
  for (auto &[arrays, ps] : pairs) {
    const model::Array &arr = E.K.arrays[arrays.first];
    bool global = arr.space == AddressSpace::Global;
    std::optional<z3::model> m;
    if (ps.size() > 1) {
      // Most arrays are race-free: one query over all pairs at once is far cheaper than
      // one per pair (Z3 shares the threads' index terms). Only if it is not unsat, ask
      // pair by pair, for the witness.
      z3::expr_vector any(E.c);
      for (const Pair &p : ps) {
        any.push_back(p.both && p.intra);
        if (global) any.push_back(p.both && p.inter);
      }
      std::string qname = "races on '" + arr.name + "'" +
                          (arrays.first != arrays.second ? " and '" + E.K.arrays[arrays.second].name + "'" : "") +
                          " (all pairs at once)";
      z3::check_result r = check(z3::mk_or(any), qname, m, batchSeconds(), true);
      if (r == z3::unsat) continue;
      if (r != z3::sat) m.reset();  // a model that broke an assumption: no witness
    }
    // one finding per array: the pair the batched model shows racing first (it costs no
    // query), then the others in source order
    std::stable_partition(ps.begin(), ps.end(), [&](const Pair &p) {
      return m && m->eval(p.both && (p.intra || p.inter), true).is_true();
    });
    benign_.reset();
    bool real = false;
    for (const Pair &p : ps)
      if ((real = racePair(A1[p.i], A2[p.j], p.both, p.intra, p.inter, m))) break;
    if (!real && benign_) R.findings.push_back(*benign_);
  }
}

// The elements a (thread 1) and b (thread 2) touch overlap: the same array and indices,
// or (arrays that may alias) the same bytes.
z3::expr Checker::overlap(const AccessEv &a, const AccessEv &b) {
  const Stmt &sa = *a.s, &sb = *b.s;
  uint64_t na = sa.count ? sa.count : 1, nb = sb.count ? sb.count : 1;
  auto v = [&](uint64_t x) { return E.c.bv_val(x, 64); };
  if (sa.array == sb.array) {
    if (na == 1 && nb == 1) return a.index == b.index;
    return z3::sle(a.index, b.index + v(nb - 1)) && z3::sle(b.index, a.index + v(na - 1));
  }
  const model::Array &xa = E.K.arrays[sa.array], &xb = E.K.arrays[sb.array];
  // b's first byte minus a's, modulo 2^64: overlap iff it lies in (-len b, len a)
  z3::expr d = (base(xb) + b.index * v(xb.elem_size)) - (base(xa) + a.index * v(xa.elem_size));
  return z3::sge(d, v(1 - nb * xb.elem_size)) && z3::sle(d, v(na * xa.elem_size - 1));
}

// The simplest witness for `q`: the smallest block dimensions, then grid dimensions, then
// block indices, then thread indices, then parameters, each tightened in turn (every
// assumption kept, the earlier ones fixed; at most four solver calls each) within 0.1 s;
// where time runs out, what was found. Values already small enough to read stay.
void Checker::simplest(const z3::expr &q, std::optional<z3::model> &m) {
  auto t0 = std::chrono::steady_clock::now();
  auto left = [&] { return 0.1 - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  auto wide = [](const z3::expr &x) { return z3::zext(x, 64 - x.get_sort().bv_size()); };
  z3::expr_vector base(E.c);
  for (const z3::expr &b : launch) base.push_back(b);
  for (const z3::expr &b : side) base.push_back(b);
  base.push_back(q);
  // what, its least possible value, a value small enough to read (left as it is), and
  // whether only a readable value is worth taking (no halfway values: a parameter halved
  // to 268435455 reads no better, and overflows in other threads)
  struct Goal {
    z3::expr what;
    uint64_t least, readable;
    bool all_or_nothing = false;
  };
  std::vector<Goal> goals;
  // each dimension on its own (products are slow to bit-blast), z before y before x
  for (int d = 2; d >= 0; --d)
    if (!E.O.block_dim[d]) goals.push_back({E.bdim[d], 1, 1});  // (a launch given is kept)
  for (int d = 2; d >= 0; --d)
    if (!E.O.grid_dim[d]) goals.push_back({E.gdim[d], 1, 1});
  z3::expr blocks = E.c.bv_val(0, 64), threads = E.c.bv_val(0, 64);
  for (int d = 0; d < 3; ++d) {
    blocks = blocks + wide(T1->bid[d]) + wide(T2->bid[d]);
    threads = threads + wide(T1->tid[d]) + wide(T2->tid[d]);
  }
  goals.push_back({blocks, 0, 1024});  // (block (1073741823,1023,0) does not read well)
  goals.push_back({threads, 0, 1024});  // (any thread of a block reads well)
  // then the parameters, nearest zero (signed ones by their absolute value)
  for (const model::Param &p : E.K.params) {
    auto it = E.params.find(p.name);
    if (it == E.params.end() || !it->second.is_bv() || p.type.kind != Type::Kind::Int) continue;
    const z3::expr &x = it->second;
    z3::expr zero = E.c.bv_val(0, x.get_sort().bv_size());
    goals.push_back({p.type.is_signed ? z3::ite(z3::slt(x, zero), -x, x) : x, 0, 4096, true});
  }
  for (const auto &[g, least, readable, all_or_nothing] : goals) {
    unsigned w = g.get_sort().bv_size();
    uint64_t v = num(*m, g), lo = least;
    if (v <= readable) continue;
    // the least value first (it usually holds), then a binary search on an upper bound
    for (int step = 0; step < (all_or_nothing ? 1 : 4) && lo < v && left() > 0.01; ++step) {
      bool first = step == 0;
      uint64_t bound = all_or_nothing ? readable : first ? lo : lo + (v - lo) / 2;
      z3::expr_vector tighter(E.c);
      for (unsigned i = 0; i < base.size(); ++i) tighter.push_back(base[i]);
      tighter.push_back(z3::ule(g, E.c.bv_val(bound, w)));
      // (models of the integer abstraction first: index arithmetic defeats bit-blasting)
      Decision d = findModel(tighter, E.no_overflow, std::min(0.1, left()));
      if (d.result == z3::sat) m = d.model, v = num(*m, g);
      else if (d.result == z3::unsat) lo = bound + 1;
      else break;
    }
    base.push_back(g == E.c.bv_val(v, w));  // kept while the next one is tightened
  }
  if (std::getenv("KVERIFY_DEBUG_QUERIES"))
    std::fprintf(stderr, "[kverify] simplest witness: %.1f ms\n", 1000 * (0.1 - left()));
}

// The batched query's model, where it satisfies `q` (it satisfies the launch and every
// side constraint already: check() refines until it does), else a query of its own.
z3::check_result Checker::checkOrReuse(const z3::expr &q, const std::string &name,
                                       std::optional<z3::model> &m, const std::optional<z3::model> &batch) {
  if (batch && batch->eval(q, true).is_true()) {
    m = batch;
    return z3::sat;
  }
  return check(q, name, m);
}

// One pair's race queries, and its finding; true when it has one.
bool Checker::racePair(const AccessEv &a, const AccessEv &b, const z3::expr &both,
                       const z3::expr &intra, const z3::expr &inter, const std::optional<z3::model> &batch) {
  const Stmt &sa = *a.s, &sb = *b.s;
  const model::Array &arr = E.K.arrays[sa.array];
  z3::expr ia = a.index, ib = b.index;
  std::string qname = "race on '" + arr.name + "' between " + loc(sa.range) + " and " +
                      loc(sb.range);
  std::optional<z3::model> m;
  bool found = false, warpOnly = false;
  z3::expr used = both && intra;
  if (checkOrReuse(both && intra, qname, m, batch) == z3::sat) {
    found = true;
  } else if (arr.space == AddressSpace::Global) {
    used = both && inter;
    if (checkOrReuse(used, qname + " (across blocks)", m, batch) == z3::sat) found = true;
  }
  if (!found) return false;
  // two writes that provably store the same value: a benign race (a warning)
  bool benign = false;
  if (a.stored && b.stored && a.stored->is_bool() == b.stored->is_bool() &&
      (a.stored->is_bool() || a.stored->get_sort().bv_size() == b.stored->get_sort().bv_size())) {
    // over every way the two may race (in one block, or in two): the race found first
    // may store one value where another does not
    std::optional<z3::model> m3;
    z3::expr differ = both && (intra || inter) && *a.stored != *b.stored;
    z3::check_result r3 = check(differ, qname + " (different values)", m3);
    if (r3 == z3::sat) m = m3, used = differ;
    benign = r3 == z3::unsat;
  }
  simplest(used, m);
  // the simplest witness is in one warp: is the race warp-synchronous only (then
  // __syncwarp() is the fix), or does it happen across warps too?
  if (!benign && num(*m, sameBlock() && sameWarp())) {
    std::optional<z3::model> m2;
    warpOnly = check(used && !sameWarp(), qname + " (across warps)", m2) == z3::unsat;
  }
  Finding f;
  f.kind = benign ? Verdict::BenignRace : Verdict::Race;
  f.array = arr.name;
  f.space = model::addressSpaceName(arr.space);
  const model::Array &arr2 = E.K.arrays[sb.array];
  bool aliased = sa.array != sb.array;
  f.message = std::string(benign ? "benign " : "") + "data race on '" + arr.name + "'" +
              (aliased ? " and '" + arr2.name + "'" : "") + " (" + model::accessKindName(sa.access) + "/" +
              model::accessKindName(sb.access) + ")" + (benign ? ": both threads write the same value" : "");
  if (warpOnly)
    f.explanation =
        "the colliding threads are in the same warp and no __syncwarp() orders them: "
        "warp-synchronous code is a race on sm_70+ (independent thread scheduling); "
        "add __syncwarp() between the accesses";
  else if (!num(*m, sameBlock()))
    f.explanation = "the threads are in different blocks: barriers do not order them";
  f.accesses.push_back(refOf(sa, E.K));
  f.accesses.push_back(refOf(sb, E.K));
  f.witness = witness(*m, {&a.loops, &b.loops}, {1, 2}, ia, true);
  // validate by evaluating the encoding's expressions at the model
  bool ok = m->eval(used, true).is_true() && m->eval(a.pc, true).is_true() &&
            m->eval(b.pc, true).is_true();
  uint64_t va = num(*m, ia), vb = num(*m, ib);
  int64_t sa_i = static_cast<int64_t>(va), sb_i = static_cast<int64_t>(vb);
  int64_t na = sa.count ? sa.count : 1, nb = sb.count ? sb.count : 1;
  if (aliased) {  // the same check in bytes, from the bases the model chose
    int64_t d = static_cast<int64_t>((num(*m, base(arr2)) + vb * arr2.elem_size) -
                                     (num(*m, base(arr)) + va * arr.elem_size));
    ok = ok && d > -nb * int64_t(arr2.elem_size) && d < na * int64_t(arr.elem_size);
    if (!f.explanation.empty()) f.explanation += "; ";
    int64_t gap = static_cast<int64_t>(num(*m, base(arr2)) - num(*m, base(arr)));
    f.explanation += "without the no-alias assumption: if '" + arr2.name + "' starts " +
                     std::to_string(gap < 0 ? -gap : gap) + " bytes " + (gap < 0 ? "before" : "after") +
                     " '" + arr.name + "', " + arr.name + "[" + std::to_string(sa_i) + "] and " + arr2.name +
                     "[" + std::to_string(sb_i) + "] overlap";
  } else {
    ok = ok && sa_i <= sb_i + nb - 1 && sb_i <= sa_i + na - 1;
  }
  ok = ok && (f.witness.thread1.thread_idx != f.witness.thread2.thread_idx ||
              f.witness.thread1.block_idx != f.witness.thread2.block_idx);
  for (int d = 0; d < 3; ++d)
    ok = ok && f.witness.thread1.thread_idx[d] < f.witness.block_dim[d] &&
         f.witness.thread2.thread_idx[d] < f.witness.block_dim[d] &&
         f.witness.thread1.block_idx[d] < f.witness.grid_dim[d] &&
         f.witness.thread2.block_idx[d] < f.witness.grid_dim[d];
  for (auto &sd : T1->side) ok = ok && m->eval(sd, true).is_true();
  for (auto &sd : T2->side) ok = ok && m->eval(sd, true).is_true();
  f.witness.validated = ok;
  if (!ok && std::getenv("KVERIFY_DEBUG_QUERIES")) {
    std::fprintf(stderr, "[kverify] validation failed: used=%d pcs=%d/%d idx=%lld/%lld\n",
                 (int)m->eval(used, true).is_true(), (int)m->eval(a.pc, true).is_true(),
                 (int)m->eval(b.pc, true).is_true(), (long long)sa_i, (long long)sb_i);
    for (auto &sd : T1->side)
      if (!m->eval(sd, true).is_true()) std::fprintf(stderr, "  side1: %s\n", sd.to_string().c_str());
  }
  if (!ok) {
    if (!unknown) R.unknown_query = "witness validation of " + qname;
    unknown = true;
    return false;
  }
  if (benign) {  // kept unless a real race on the array turns up
    if (!benign_) benign_ = f;
    return false;
  }
  R.findings.push_back(f);
  return true;
}

void Checker::bounds() {
  // out of range: per shared array of known size, its accesses and their conditions
  std::map<unsigned, std::vector<std::pair<const AccessEv *, z3::expr>>> outside;
  for (const AccessEv &a : T1->accesses) {
    const Stmt &s = *a.s;
    if (s.array >= E.K.arrays.size()) continue;
    const model::Array &arr = E.K.arrays[s.array];
    if (arr.space != AddressSpace::Shared || !arr.size || arr.is_extern) continue;
    z3::expr size = E.c.bv_val(*arr.size, 64);
    z3::expr cnt = E.c.bv_val(s.count ? s.count : 1, 64);
    outside[s.array].emplace_back(&a, a.pc && (z3::slt(a.index, E.c.bv_val(0, 64)) ||
                                               z3::sgt(a.index, size - cnt)));
  }
  for (auto &[array, qs] : outside) {
    const model::Array &arr = E.K.arrays[array];
    std::optional<z3::model> m;
    if (qs.size() > 1) {  // all accesses at once first, as for races
      z3::expr_vector any(E.c);
      for (auto &q : qs) any.push_back(q.second);
      z3::check_result r =
          check(z3::mk_or(any), "bounds of '" + arr.name + "' (all accesses at once)", m, batchSeconds(), true);
      if (r == z3::unsat) continue;
      if (r != z3::sat) m.reset();  // a model that broke an assumption: no witness
    }
    // one finding per array: the access the batched model shows outside first
    std::stable_partition(qs.begin(), qs.end(), [&](const auto &q) { return m && m->eval(q.second, true).is_true(); });
    for (auto &[a, q] : qs)
      if (outOfBounds(*a, q, m)) break;
  }
}

// One access's bounds query, and its finding; true when it has one.
bool Checker::outOfBounds(const AccessEv &a, const z3::expr &q, const std::optional<z3::model> &batch) {
  const Stmt &s = *a.s;
  const model::Array &arr = E.K.arrays[s.array];
  std::optional<z3::model> m;
  if (checkOrReuse(q, "bounds of '" + arr.name + "' at " + loc(s.range), m, batch) != z3::sat) return false;
  simplest(q, m);
  Finding f;
  f.kind = Verdict::Oob;
  f.array = arr.name;
  f.space = "shared";
  f.accesses.push_back(refOf(s, E.K));
  f.witness = witness(*m, {&a.loops}, {1}, a.index, false);
  f.message = "out-of-bounds " + std::string(model::accessKindName(s.access)) + " of '" +
              arr.name + "': index " + f.witness.index + " outside [0, " +
              std::to_string(*arr.size) + ")";
  int64_t v = static_cast<int64_t>(num(*m, a.index));
  bool ok = m->eval(a.pc, true).is_true() &&
            (v < 0 || v + int64_t(s.count ? s.count : 1) > int64_t(*arr.size));
  for (auto &sd : T1->side) ok = ok && m->eval(sd, true).is_true();
  f.witness.validated = ok;
  if (!ok) {
    if (!unknown) R.unknown_query = "witness validation of bounds of '" + arr.name + "'";
    unknown = true;
    return false;
  }
  R.findings.push_back(f);
  return true;
}

}  // namespace

// Writes to __constant__ memory: nvcc rejects them, so the kernel is in error.
static void constantWrites(const Kernel &k, const std::vector<Stmt> &body,
                           std::vector<model::Diagnostic> &out) {
  for (const Stmt &s : body) {
    if (s.kind == Stmt::Kind::Access && s.access != AccessKind::Read && s.array < k.arrays.size() &&
        k.arrays[s.array].space == AddressSpace::Constant)
      out.push_back({"error", "write to __constant__ memory '" + k.arrays[s.array].name +
                                  "': constant memory is read-only in a kernel", s.range});
    for (const auto *b : {&s.then_body, &s.else_body, &s.body, &s.step}) constantWrites(k, *b, out);
  }
}

// Which builtins the kernel reads anywhere.
static void builtinsRead(const Expr &e, std::set<model::Builtin> &out) {
  if (e.kind == Expr::Kind::Builtin) out.insert(e.builtin);
  for (const ExprPtr &a : e.args) builtinsRead(*a, out);
}
static void builtinsRead(const std::vector<Stmt> &body, std::set<model::Builtin> &out) {
  for (const Stmt &s : body) {
    for (const ExprPtr *e : {&s.cond, &s.value, &s.index, &s.mask})
      if (*e) builtinsRead(**e, out);
    for (const auto *b : {&s.then_body, &s.else_body, &s.body, &s.step}) builtinsRead(*b, out);
  }
}

// A witness in a 2-D or 3-D block (grid) for a kernel that never reads threadIdx.y/.z
// (blockIdx.y/.z): the finding likely needs a launch the host code never makes. Say so,
// and how to state the launch.
static void launchShapeNotes(const Kernel &kernel, std::vector<Finding> &findings) {
  using B = model::Builtin;
  std::set<B> read;
  builtinsRead(kernel.body, read);
  for (Finding &f : findings) {
    const Witness &w = f.witness;
    std::string note;
    if ((w.block_dim[1] > 1 || w.block_dim[2] > 1) && !read.count(B::ThreadIdxY) && !read.count(B::ThreadIdxZ))
      note = "the witness needs a " + std::string(w.block_dim[2] > 1 ? "3" : "2") +
             "-D block, but the kernel never reads threadIdx.y or .z: if its blocks are 1-D, say so "
             "with --block-dim=N (or a // kverify: comment)";
    else if ((w.grid_dim[1] > 1 || w.grid_dim[2] > 1) && !read.count(B::BlockIdxY) && !read.count(B::BlockIdxZ))
      note = "the witness needs a " + std::string(w.grid_dim[2] > 1 ? "3" : "2") +
             "-D grid, but the kernel never reads blockIdx.y or .z: if its grid is 1-D, say so "
             "with --grid-dim=N (or a // kverify: comment)";
    if (note.empty()) continue;
    f.explanation += (f.explanation.empty() ? "" : "; ") + note;
  }
}

KernelResult analyzeKernel(const model::Kernel &kernel, const Options &options) {
  auto t0 = std::chrono::steady_clock::now();
  KernelResult R;
  R.file = kernel.file;
  R.name = kernel.name;
  R.range = kernel.range;
  R.phases = barrierPhases(kernel);
  R.unsupported = kernel.unsupported;
  if (std::string limit = launchLimitError(options); !limit.empty())
    R.diagnostics.push_back({"error", limit, kernel.range});  // no proof under it
  constantWrites(kernel, kernel.body, R.diagnostics);
  if (!R.diagnostics.empty()) {
    R.verdict = Verdict::Error;
  } else if (!kernel.unsupported.empty()) {
    R.verdict = Verdict::Unsupported;
  } else {
    try {
      Encoder E(kernel, options);
      E.setup();
      Checker C(E, R);
      C.run();
      R.assumptions = E.assumptions;
      for (const std::string &a : options.assumes) R.assumptions.push_back("assumed: " + a);
      for (const model::Unsupported &u : kernel.unchecked)
        R.assumptions.push_back("not checked: " + u.construct + " at " + loc(u.range) + " (" + u.detail + ")");
      if (!E.error.empty() || !R.premise_error.empty()) {
        R.verdict = Verdict::Error;
        model::Diagnostic d;
        d.severity = "error";
        d.message = E.error.empty() ? R.premise_error : E.error;
        d.range = kernel.range;
        R.diagnostics.push_back(d);
      } else if (!R.findings.empty()) {
        launchShapeNotes(kernel, R.findings);
        Verdict v = Verdict::Verified;
        for (const Finding &f : R.findings) v = std::max(v, f.kind);
        R.verdict = v;
      } else if (!R.unknown_query.empty()) {
        R.verdict = Verdict::Unknown;
      } else {
        R.verdict = Verdict::Verified;
      }
    } catch (const z3::exception &e) {
      R.verdict = Verdict::Unknown;
      R.unknown_query = std::string("solver error: ") + e.msg();
    }
  }
  R.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return R;
}

}  // namespace kverify::analysis
