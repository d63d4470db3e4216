#pragma once
// Per-thread symbolic execution: the Encoder holds what both threads share (launch,
// parameters, fresh names), an Exec runs one thread through the kernel into its Thread.
#include "analysis/analysis.hpp"
#include "analysis/block_tickets.hpp"
#include "analysis/closed_form.hpp"
#include "analysis/configure.hpp"
#include "analysis/rules.hpp"
#include "analysis/solve.hpp"
#include "analysis/trace.hpp"
#include "analysis/uniformity.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kverify::analysis::detail {

// Thrown by the symbolic execution where the kernel's barrier structure grows past what it
// models in bounded time and memory: barrier loops nested deep multiply the candidates for
// the last barrier (about 4x per level) and the inner trip-count facts (3x). The kernel is
// `unsupported`, naming the loop.
struct BarrierStateTooLarge {
  std::string what;
  model::SourceRange range;
};

class Encoder;

using Env = std::map<unsigned, z3::expr>;

// The prefix of thread t's own symbols' names (Exec::own).
inline std::string threadPrefix(int t) { return "t" + std::to_string(t) + "."; }

class Exec {
public:
  Exec(Encoder &encoder, Thread &out) : enc(encoder), thread(out) {}
  void run(const Kernel &k);

private:
  Encoder &enc;
  Thread &thread;
  std::map<unsigned, z3::expr> env;
  std::map<unsigned, size_t> last_read_;  // a shared read's Access id -> its AccessEv
  struct ReadAt {
    unsigned array, count;
    z3::expr index;
  };
  std::map<unsigned, ReadAt> read_at_;          // any read's id -> the location it reads
  std::map<unsigned, size_t> last_ticket_;      // the same for atomics on ticket counters
  std::map<unsigned, size_t> last_atomic_;      // and for every atomic
  std::map<unsigned, size_t> last_param_read_;  // and for reads of pointer parameters' memory
  std::vector<LoopRef> loopRefs() const;        // the enclosing loops that iterate
  z3::expr pc() const { return *pc_; }
  std::optional<z3::expr> pc_;
  Phases lb;
  // The state of the threads that jumped (`continue`, `return` from an inlined call, any
  // jump out of a run-once loop) where they rejoin the others: where they jumped, with
  // their locals and their last barriers (a barrier they skipped is not one they passed).
  struct Jump {
    z3::expr pc;
    Env env;
    Phases lb;
  };
  void rejoin(const Jump &j);
  struct LoopCtx {
    const Stmt *s;
    z3::expr k, N, reach;
    BarrierInfo bi;
    std::string label;
    std::vector<Jump> brks;  // each `break`
    // do { } while (false): run once, its jumps keep their state (see onceLoop)
    bool once = false;
    std::vector<Jump> jumps;  // each `continue` (and, run once, each `break`)
  };
  std::vector<LoopCtx> loops;
  std::vector<std::optional<z3::expr>> rets;  // per inlined region (innermost last)
  // Per region, the threads that returned, by where they returned: the result of
  // `if (a < 2) return 5; return a;` is 5 for the first ones.
  std::vector<std::vector<Jump>> ret_jumps;
  // env := `other` where `cond` holds
  void mergeEnv(const z3::expr &cond, const Env &other);
  std::vector<size_t> ret_loop_depth;  // loops.size() where each region starts
  std::vector<size_t> tripFacts;       // thread.side entries: exit conditions of barrier loops
  int loop_counter = 0;
  const Stmt *cur_ = nullptr;  // the statement being executed (labels its facts)
  // why the code being executed is dead by construction (a constant condition), if it is
  std::optional<std::string> dead_;
  void noteDead(const Stmt &s);

  void block(const model::Body &body);
  void stmt(const Stmt &s);
  void access(const Stmt &s);
  void barrier(const Stmt &s);
  void fence(const Stmt &s);
  void branch(const Stmt &s);
  void assign(const Stmt &s);
  void ret(const Stmt &s);
  void jump(const Stmt &s);
  void inlined(const Stmt &s);
  void onceLoop(const Stmt &s);
  void assumeForall(const Stmt &s, const st::Assume &a);  // array_premises.cpp
  // while a premise's condition is evaluated: an array it reads that the kernel may write
  std::optional<std::string> premise_reads_written_;
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
  bool refutedQuickly(const z3::expr &q);
  void constantInvariants(const std::set<unsigned> &havocked, const std::map<unsigned, z3::expr> &start,
                          const std::map<unsigned, z3::expr> &before, const z3::expr &pcEnd,
                          std::vector<Range> &out);
  std::vector<Range> rangeInvariants(const Stmt &s, const std::set<unsigned> &havocked,
                                     const std::map<unsigned, z3::expr> &start,
                                     const std::map<unsigned, z3::expr> &before, const z3::expr &pc0,
                                     const z3::expr &pcEnd);
  z3::expr tripCount(const Stmt &s, int id, bool shared, const std::vector<z3::expr> &outer);

  // One loop being executed (exec_loop.cpp; its locals: exec_loop_locals.cpp), step by step.
  struct LoopRun {
    LoopRun(const Stmt &s, z3::context &c) : s(s), lp(*s.as<st::Loop>()), k(c), N(c), pc0(c) {}
    const Stmt &s;
    const st::Loop &lp;
    int id = 0;
    BarrierInfo bi;
    std::string label, tag;                // for witnesses; for its symbols
    std::map<unsigned, int> mods;          // the locals it assigns (assignedLocals)
    std::set<unsigned> induction;          // the locals its condition reads
    bool has_break = false;                // a break or return may leave it early
    std::map<unsigned, ClosedForm> forms;  // the locals with a closed form
    std::map<unsigned, bool> no_wrap;      // induction variables checked (cannotWrap)
    bool checking = false;                 // inside firstWrap: no wrap facts for the others
    z3::expr k, N;                         // the iteration executed symbolically; how many start
    std::vector<z3::expr> outer;           // the enclosing loops' counters
    Env env0;                              // the locals before the loop
    z3::expr pc0;
    std::map<unsigned, z3::func_decl> havoc;  // the locals without a closed form
    Env atStart;                              // the locals at the start of iteration k
    Phases lb0, start, end;                   // last barriers: before, at the start and end of k
    std::vector<Range> ranges;                // ranges havocked locals keep (rangeInvariants)
    std::optional<z3::expr> brk, ret;         // where iteration k breaks out; returns
    std::vector<Jump> brks;                   // the state at each break in k
    // where a jump left iteration N-1 (a break, or a return), and the substitution reading
    // iteration k's terms at N-1 (loopExit)
    std::optional<z3::expr> jumpedLast;
    std::optional<std::pair<z3::expr_vector, z3::expr_vector>> atLast;
    size_t firstAccess = 0, firstTripFact = 0, firstCreated = 0, endCreated = 0, firstRetEnv = 0;
    size_t firstResult = 0;                                                // in Thread::atomic_results
    int marker(int p) const { return kStartBase - kPhaseKinds * id - p; }  // "start of k"
  };
  void loop(const Stmt &s);
  LoopRun loopStart(const Stmt &s);
  void loopEnter(LoopRun &L);
  void loopBody(LoopRun &L);
  void repeatTripFacts(LoopRun &L);
  void loopStartCandidates(LoopRun &L);
  void loopExit(LoopRun &L);
  z3::expr returnsInside(LoopRun &L);
  void loopAfterCandidates(LoopRun &L);
  void boundBarrierState(const LoopRun &L);
  Type localType(unsigned id) const;
  Env stateAt(LoopRun &L, const z3::expr &j, std::vector<z3::expr> &side);
  std::optional<z3::expr> closedFormAt(LoopRun &L, unsigned lid, const Type &lt, const z3::expr &j,
                                       std::vector<z3::expr> &side);
  z3::expr firstWrap(LoopRun &L, unsigned lid, const Type &lt, const z3::expr &step, const z3::expr &at);
  bool cannotWrap(LoopRun &L, unsigned lid, const Type &lt, const z3::expr &step);
  z3::expr havocAt(LoopRun &L, unsigned lid, const Type &lt, const z3::expr &j);
  z3::expr enterAt(LoopRun &L, const z3::expr &j, std::vector<z3::expr> &side, const z3::expr &evaluated);
  std::pair<z3::expr_vector, z3::expr_vector> atIteration(LoopRun &L, const z3::expr &j, const char *name);
  std::vector<z3::expr> phaseKs(int kind) const;
  std::vector<z3::expr> allKs() const;
  std::vector<Frame> frames() const;
  void sync(const Stmt &s, const z3::expr &pc, bool warp, std::optional<z3::expr> mask = {},
            std::optional<z3::expr> guard = {}, std::vector<z3::expr> ks = {});
  // No undefined behaviour where the current path condition holds (or, while `capture`
  // is set, a fact the caller guards itself).
  std::vector<z3::expr> *capture = nullptr;
  void ub(const z3::expr &ok, const std::string &what) {
    if (capture)
      capture->push_back(ok);
    else {
      thread.no_ub.insert(thread.side.size());
      thread.side.push_back(z3::implies(pc(), ok));
      thread.label(what + (cur_ ? " at " + loc(cur_->range) : "") + " (undefined behaviour)");
    }
  }
  // `e` evaluated under the extra path condition `cond` (its UB side conditions hold there)
  z3::expr evalUnder(const Expr &e, const z3::expr &cond, bool as_bool);
  z3::expr asType(const z3::expr &v, const Type &ty);
  z3::expr evalParam(const Expr &e);
  z3::expr evalArrayFact(bool address, unsigned array);  // NotNull (false), Address (true)
  z3::expr evalBuiltin(model::Builtin which, const Type &ty);
  z3::expr evalLocal(const Expr &e);
  z3::expr evalOpaque(const Expr &e);
  z3::expr evalElement(const Expr &e);  // array_premises.cpp
  z3::expr evalUnary(const Expr &e);
  z3::expr evalSelect(const Expr &e);
  z3::expr evalCast(const Expr &e);
  z3::expr evalBinary(const Expr &e);
  z3::expr evalCompare(const Expr &e);
  z3::expr evalArith(const Expr &e);

public:
  z3::expr evalAtEntry(const Expr &e);
  z3::expr eval(const Expr &e);
  z3::expr boolOf(const Expr &e);
  z3::expr fresh(const Type &t, const std::string &name);
  // A name of this thread's own (its values, loop counters): `t1.` or `t2.` before it, so
  // that a thread's symbols are told apart from the shared ones, and matched to the other's
  std::string own(const std::string &name) const { return threadPrefix(thread.t) + name; }
  z3::expr freshOwn(const std::string &name, z3::sort s);
};

// Whether arrays a and b may share memory (only without the no-alias assumption).
bool mayAlias(const Options &O, const model::Array &a, const model::Array &b);

class Encoder {
public:
  KernelContext owned_ctx;  // (first: every term below lives in it)
  z3::context &ctx = *owned_ctx;
  const Kernel &kernel;
  const KernelConfig &config;
  const Options &options;
  const Uniformity uniformity{kernel};
  RuleCounts rules;                  // the precision rules applied (result.hpp)
  std::vector<z3::expr> bdim, gdim;  // u32
  std::map<std::string, z3::expr> params;
  // NotNull and Address of each array: unknown, one value for every thread
  std::map<std::pair<bool, unsigned>, z3::expr> array_facts;  // (is Address, array)
  std::vector<z3::expr> base;         // launch constraints and --assume, both threads share
  std::vector<std::string> base_why;  // what each says (why code is unreachable)
  void launchFact(const z3::expr &f, const std::string &why) {
    base.push_back(f);
    base_why.push_back(why);
  }
  // Among them, CUDA's limit on the block's thread count: a product, costly to bit-blast, and
  // rarely what decides a query (__launch_bounds__' smaller limit often is: always asked).
  // Queries leave it out and add it where a model breaks it; a refutation without it holds
  // with it.
  std::vector<z3::expr> block_limits;
  bool isBlockLimit(const z3::expr &fact) const {
    return std::any_of(block_limits.begin(), block_limits.end(),
                       [&](const z3::expr &l) { return z3::eq(l, fact); });
  }
  // fresh constants made so far, by name: numbered per name, so that the fresh values of
  // one part of a kernel (a float's) do not renumber another's (a loop counter's), and
  // the instantiations of a template ask the solver the same queries (answer_cache.hpp)
  std::map<std::string, unsigned> fresh_count;
  std::map<const Stmt *, int> barrier_ids;
  std::map<const Stmt *, z3::func_decl> shared_trip;                       // barrier loops: N per block
  std::map<std::pair<const Stmt *, unsigned>, z3::func_decl> block_havoc;  // (loop, local): uniform havoc
  std::map<unsigned, z3::expr> no_overflow;  // signed op term id -> where it cannot overflow
  void signedOp(const z3::expr &term, const z3::expr &pc) {
    auto it = no_overflow.find(term.id());
    if (it == no_overflow.end())
      no_overflow.emplace(term.id(), pc);
    else if (!z3::eq(it->second, pc))
      it->second = it->second || pc;
  }
  // The contents of a global or constant array no access of the kernel writes: one
  // unknown function of the index per value sort and width (`count` units: a field's
  // bytes), the same for every thread and all the time; null where the kernel may write
  // the array. Reads of different locations ([index, index + count)) are different
  // values: two fields of one struct are not one value.
  std::optional<z3::func_decl> readOnlyContents(unsigned array, unsigned count, const z3::sort &value);
  std::optional<std::set<unsigned>> written;  // the arrays some access may write
  std::map<std::tuple<unsigned, unsigned, unsigned>, z3::func_decl> contents;  // (array, count, sort id)
  std::set<unsigned> ticket_arrays;                       // counters of tickets (Checker::tickets)
  std::map<unsigned, CounterElement> block_ticket_reads;  // read -> counter element (block_tickets.hpp)
  std::vector<std::string> assumptions;

  Encoder(const Kernel &k, const KernelConfig &config) : kernel(k), config(config), options(config.options) {}

  z3::sort bv(unsigned w) { return ctx.bv_sort(w); }
  z3::expr threadsPerBlockAtMost(uint64_t n);
  z3::expr u32(uint64_t v) { return ctx.bv_val(static_cast<uint64_t>(v), 32); }
  // A name for the front end's id `id` of a local or an opaque value (`kind`), the same in
  // every instantiation of a template: `base` (its name in the source) numbered in the
  // order first met. (The front end numbers ids in source order, so one more local in one
  // instantiation, a Max's temporary, renumbers every id after it.)
  const std::string &idName(char kind, unsigned id, const std::string &base) {
    auto [it, added] = id_names.try_emplace({kind, id});
    if (added) it->second = base + "_" + std::to_string(id_name_count[{kind, base}]++);
    return it->second;
  }
  const std::string &localName(unsigned lid);   // idName of a local, by its name
  std::map<unsigned, std::string> local_names;  // kernel.locals' names by id
  std::map<std::pair<char, unsigned>, std::string> id_names;
  std::map<std::pair<char, std::string>, unsigned> id_name_count;
  std::vector<z3::expr> created;  // every fresh constant, in order (see Exec::loop)
  z3::expr freshConst(const std::string &name, z3::sort s) {
    created.push_back(ctx.constant((name + "!" + std::to_string(fresh_count[name]++)).c_str(), s));
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
}  // namespace kverify::analysis::detail
