// Loops of one thread: an arbitrary iteration k of N, the exit, and the last-barrier
// candidates around the back edge (the locals at an iteration: exec_loop_locals.cpp).
#include "analysis/exec.hpp"
#include "analysis/body_walks.hpp"
#include "analysis/closed_form.hpp"

#include <algorithm>
#include <set>

namespace kverify::analysis::detail {

// The trip count N of loop `s` for this thread (a function of the outer iterations).
z3::expr Exec::tripCount(const Stmt &s, int id, bool shared, const std::vector<z3::expr> &outer) {
  z3::context &c = enc.ctx;
  z3::sort_vector dom(c);
  z3::expr_vector args(c);
  if (shared) {  // per block: a function of the block index too
    for (int d = 0; d < 3; ++d) dom.push_back(enc.bv(32)), args.push_back(thread.bid[d]);
  }
  for (auto &o : outer) dom.push_back(enc.bv(64)), args.push_back(o);
  std::string name = shared ? "N.L" + std::to_string(id) : own("L" + std::to_string(id) + ".N");
  if (!shared) return c.function(name.c_str(), dom, enc.bv(64))(args);
  auto it = enc.shared_trip.find(&s);
  if (it == enc.shared_trip.end())
    it = enc.shared_trip.emplace(&s, c.function(name.c_str(), dom, enc.bv(64))).first;
  return it->second(args);
}

// do { body } while (false) (macros, lowered switch statements): the body runs once, so no
// iteration counter is needed; a break or continue leaves with the locals and the last
// barrier it has there, merged after the loop by where each thread left.
void Exec::onceLoop(const Stmt &s) {
  z3::context &c = enc.ctx;
  loops.push_back(LoopCtx{&s, c.bv_val(0, 64), c.bv_val(1, 64), pc(), BarrierInfo{}, "", {}, true, {}});
  block(s.as<st::Loop>()->body);
  std::vector<Jump> jumps = std::move(loops.back().jumps);
  loops.pop_back();
  for (const Jump &j : jumps) rejoin(j);
}

bool runsOnce(const st::Loop &l) {
  const auto *c = l.cond ? l.cond->as<ex::Const>() : nullptr;
  return l.kind == model::LoopKind::Do && l.step.empty() && c && c->int_value == 0;
}

// A loop: iteration k of N (any one, symbolically), then the exit at N.
void Exec::loop(const Stmt &s) {
  if (runsOnce(*s.as<st::Loop>())) {
    onceLoop(s);
    return;
  }
  const std::string at = "the loop at " + loc(s.range);
  LoopRun L = loopStart(s);
  loopEnter(L);
  thread.label(at + ": its induction variables do not wrap around, its condition has no undefined behaviour");
  // a For or While loop whose condition folds to false at iteration 0 (a zero-trip template
  // loop): its body is dead by construction
  const std::optional<std::string> dead0 = dead_;
  z3::expr_vector k(enc.ctx), zero(enc.ctx);
  k.push_back(L.k), zero.push_back(enc.ctx.bv_val(0, 64));
  if (!dead_ && L.lp.kind != model::LoopKind::Do && pc().substitute(k, zero).simplify().is_false())
    dead_ = at + " never starts an iteration: its condition is false at the start";
  loopBody(L);
  dead_ = dead0;
  thread.label(at + ": the ranges its locals keep from one iteration to the next (by induction)");
  if (L.bi.part) repeatTripFacts(L);
  thread.label(at + ": the trip counts of the barrier loops inside it, at every iteration");
  loopStartCandidates(L);
  loopExit(L);
  thread.label(at +
               ": it ends where its condition first fails (or a jump leaves it), and there its "
               "induction variables do not wrap around");
  loopAfterCandidates(L);
  boundBarrierState(L);
}

// The loop's shape (what it assigns, how, whether it can be left early), its counter k
// and trip count N, and the state before it.
Exec::LoopRun Exec::loopStart(const Stmt &s) {
  z3::context &c = enc.ctx;
  LoopRun L(s, c);
  L.id = loop_counter++;
  const st::Loop &lp = L.lp;
  scanBarriers(lp.body, L.bi);
  scanBarriers(lp.step, L.bi);
  L.label = "k (loop at " + loc(s.range) + ")";
  L.tag = own("L" + std::to_string(L.id));
  assignedLocals(lp.body, L.mods);
  assignedLocals(lp.step, L.mods);
  if (lp.cond) readLocals(*lp.cond, L.induction);
  L.has_break = hasKind<st::Break>(lp.body, false) || hasKind<st::Return>(lp.body, true) ||
                hasKind<st::Break>(lp.step, false) || hasKind<st::Return>(lp.step, true);
  L.forms = loopForms(lp, L.mods, L.has_break);
  L.k = enc.freshConst(L.tag + ".k", enc.bv(64));
  L.outer = allKs();
  // Trip count N (iterations started), shared by a block for loops without jumps out: in
  // race mode, loops with block barriers (the divergence check, with each thread's own N,
  // has shown their condition uniform by then); in both modes, loops the uniformity pass
  // shows to run the same iterations in every thread of a block.
  bool uniform = L.bi.block && !L.has_break;
  thread.uniform_loops |= uniform;
  bool shared = thread.shared_trips && uniform;
  if (shared)
    enc.rules.note(Rule::LoopSharedTrips);
  else if (!L.has_break && enc.uniformity.loop(s))
    shared = true, enc.rules.note(Rule::LoopUniformTrips);
  L.N = tripCount(s, L.id, shared, L.outer);
  L.env0 = env;
  L.pc0 = pc();
  return L;
}

// Whether iteration j starts (For/While: the condition; Do: always the first), with the
// side conditions of evaluating it there. `evaluated`: where the condition is evaluated
// at j for sure (signed operations in it do not overflow there).
z3::expr Exec::enterAt(LoopRun &L, const z3::expr &j, std::vector<z3::expr> &side,
                       const z3::expr &evaluated) {
  z3::context &c = enc.ctx;
  env = stateAt(L, j, side);
  z3::expr saved = pc();
  pc_ = evaluated;
  capture = &side;
  z3::expr cond = L.lp.cond ? boolOf(*L.lp.cond) : c.bool_val(true);
  capture = nullptr;
  pc_ = saved;
  return L.lp.kind == model::LoopKind::Do ? (j == c.bv_val(0, 64) || cond) : cond;
}

// Entering iteration k: the locals there, the condition (a loop with barriers must have
// a uniform one), and a placeholder last barrier "the start of iteration k".
void Exec::loopEnter(LoopRun &L) {
  z3::context &c = enc.ctx;
  std::vector<z3::expr> side;
  z3::expr inIter = z3::ult(L.k, L.N);
  z3::expr enter = enterAt(L, L.k, side, L.pc0 && inIter);
  L.atStart = env;
  pc_ = L.pc0 && inIter && enter;
  for (auto &sd : side) {
    thread.no_ub.insert(thread.side.size());
    thread.side.push_back(z3::implies(pc(), sd));
  }
  if (L.bi.part) {
    // both threads evaluate the condition at iteration k (neither left before) and
    // disagree: checked with each thread's own N
    std::vector<z3::expr> ks = allKs();
    ks.push_back(L.k);
    sync(L.s, enter, !L.bi.block, std::nullopt, L.pc0 && z3::ule(L.k, L.N), ks);
  }
  L.lb0 = lb;
  for (int p = 0; p < kPhaseKinds; ++p)
    if (L.bi.ends(p)) lb[p] = {Cand{c.bool_val(true), L.marker(p), {}}};
}

// The body and step at iteration k, and the ranges the havocked locals keep.
void Exec::loopBody(LoopRun &L) {
  L.firstAccess = thread.accesses.size();
  L.firstResult = thread.atomic_results.size();
  L.firstTripFact = tripFacts.size();
  L.firstCreated = enc.created.size();
  std::optional<z3::expr> retBefore = rets.back();
  rets.back().reset();
  L.firstRetEnv = ret_jumps.back().size();
  loops.push_back(LoopCtx{&L.s, L.k, L.N, L.pc0, L.bi, L.label, {}, false, {}});
  block(L.lp.body);
  // the step runs after a `continue` too; the barriers the jump skipped were not passed
  for (const Jump &j : loops.back().jumps) rejoin(j);
  block(L.lp.step);
  std::set<unsigned> havocked;
  for (const auto &h : L.havoc) havocked.insert(h.first);
  L.ranges = rangeInvariants(L.s, havocked, L.atStart, L.env0, L.pc0, pc());
  for (const Range &r : L.ranges)
    thread.side.push_back(z3::implies(L.pc0 && z3::ule(L.k, L.N), r.holds(L.atStart.at(r.local))));
  L.brks = std::move(loops.back().brks);
  for (const Jump &b : L.brks) L.brk = orOpt(L.brk, b.pc);
  loops.pop_back();
  L.ret = rets.back();
  rets.back() = retBefore;
}

// The exit conditions of the barrier loops inside (each guarded by its path condition)
// hold at every iteration, not only at k: the fix-ups below look at iterations k-1 and
// N-1, where the inner trip counts are pinned down only if stated.
void Exec::repeatTripFacts(LoopRun &L) {
  z3::context &c = enc.ctx;
  z3::expr_vector from(c), prev(c), last(c);
  from.push_back(L.k);
  prev.push_back(L.k - c.bv_val(1, 64));
  last.push_back(L.N - c.bv_val(1, 64));
  for (size_t i = L.firstTripFact, end = tripFacts.size(); i < end; ++i) {
    z3::expr f = thread.side[tripFacts[i]];
    for (const z3::expr_vector *to : {&prev, &last}) {
      tripFacts.push_back(thread.side.size());
      thread.side.push_back(f.substitute(from, *to));
    }
  }
}

// The last barrier at the start of iteration k: the one before the loop at k = 0, else
// the one at the end of iteration k-1; the body's accesses get it for the placeholder.
// Where iteration k-1 passed none of the loop's barriers (a `continue` or a condition
// skipped them), the last one is one of the loop's barriers at an earlier iteration j, or
// the one before the loop: approximate candidates, for some j < k-1 (and any iterations
// of the loops inside).
void Exec::loopStartCandidates(LoopRun &L) {
  z3::context &c = enc.ctx;
  L.endCreated = enc.created.size();
  L.end = lb;
  L.start = L.lb0;
  bool barriers = false;
  for (int p = 0; p < kPhaseKinds; ++p) barriers |= L.bi.ends(p);
  if (!barriers) return;  // no placeholder to expand (and no iteration k-1 to read)
  z3::expr km1 = L.k - c.bv_val(1, 64);
  z3::expr j = enc.freshConst(L.tag + ".passed", enc.bv(64));
  auto [fromPrev, toPrev] = atIteration(L, km1, "prev");
  // a barrier's instance at iteration j: the enclosing loops' iterations kept, this loop's
  // j, an inner loop's any
  auto atJ = [&](const Cand &y) {
    Cand r{c.bool_val(true), y.barrier, {}, true};
    for (const z3::expr &k : y.ks) {
      bool outer =
          std::any_of(L.outer.begin(), L.outer.end(), [&](const z3::expr &o) { return z3::eq(o, k); });
      r.ks.push_back(z3::eq(k, L.k) ? j : outer ? k : enc.freshConst(L.tag + ".inner", k.get_sort()));
    }
    return r;
  };
  auto startOf = [&](const LB &end, const LB &before, int marker) {
    LB prev;
    std::optional<z3::expr> skipped;
    for (const Cand &x : substLB(end, fromPrev, toPrev)) {
      if (x.barrier == marker)
        skipped = orOpt(skipped, x.cond);
      else
        prev.push_back(x);
    }
    if (skipped) {
      std::set<int> seen;
      for (const Cand &y : end)
        if (y.barrier != marker && seen.insert(y.barrier).second) {
          Cand at = atJ(y);
          at.cond = *skipped && z3::ult(j, km1);
          prev.push_back(at);
        }
      for (const Cand &y : before) prev.push_back(Cand{*skipped && y.cond, y.barrier, y.ks, true});
    }
    LB r;
    z3::expr first = L.k == c.bv_val(0, 64);
    for (const Cand &x : before) r.push_back(x.when(first));
    for (const Cand &x : prev) r.push_back(x.when(!first));
    return compactLB(r);
  };
  for (int p = 0; p < kPhaseKinds; ++p) {
    if (!L.bi.ends(p)) continue;
    L.start[p] = startOf(L.end[p], L.lb0[p], L.marker(p));
    for (size_t i = L.firstAccess; i < thread.accesses.size(); ++i)
      thread.accesses[i].lb[p] = expandLB(thread.accesses[i].lb[p], L.marker(p), L.start[p]);
  }
}

// The substitution reading the body's terms at iteration j instead of k, as a fact about
// that one iteration: the values the body created (loads, inner counters) are renamed
// apart from the ones the body's events use at iteration k.
std::pair<z3::expr_vector, z3::expr_vector> Exec::atIteration(LoopRun &L, const z3::expr &j,
                                                              const char *name) {
  z3::context &c = enc.ctx;
  std::pair<z3::expr_vector, z3::expr_vector> sub{z3::expr_vector(c), z3::expr_vector(c)};
  sub.first.push_back(L.k);
  sub.second.push_back(j);
  for (size_t i = L.firstCreated; i < L.endCreated; ++i) {
    sub.first.push_back(enc.created[i]);
    sub.second.push_back(freshOwn(name, enc.created[i].get_sort()));
  }
  return sub;
}

// After the loop. N is the first iteration that does not start, unless a jump left
// iteration N-1: (N == 0 or iteration N-1 started) and (iteration N does not start, or
// a jump (a break, or a return) left N-1). Side conditions of evaluating the condition
// hold where it was.
void Exec::loopExit(LoopRun &L) {
  z3::context &c = enc.ctx;
  std::optional<z3::expr> jump = L.brk;
  if (L.ret) jump = orOpt(jump, *L.ret);
  z3::expr Nm1 = L.N - c.bv_val(1, 64);
  std::vector<z3::expr> prevSide, lastSide;
  z3::expr enterPrev = enterAt(L, Nm1, prevSide, L.pc0 && L.N != c.bv_val(0, 64));
  z3::expr enterLast = enterAt(L, L.N, lastSide, c.bool_val(false));
  z3::expr jumpedLast = c.bool_val(false);
  z3::expr_vector from(c), to(c);
  if (jump) {
    std::tie(from, to) = atIteration(L, Nm1, "jump");
    jumpedLast = jump->substitute(from, to);
    L.jumpedLast = jumpedLast;
    L.atLast = {from, to};
    // the atomics of iteration N-1, whose values the jump tested (a spin-wait on a flag)
    for (size_t i = L.firstResult; i < thread.atomic_results.size(); ++i) {
      AccessEv a = thread.accesses[thread.atomic_results[i].access];
      a.pc = L.pc0 && L.N != c.bv_val(0, 64) && a.pc.substitute(from, to);
      a.index = a.index.substitute(from, to);
      a.loops = loopRefs();
      a.seq = thread.next_seq++;
      thread.last_iteration_results.push_back({a, thread.atomic_results[i].value.substitute(from, to)});
    }
  }
  z3::expr exitOk = (L.N == c.bv_val(0, 64) || (enterPrev && conj(c, prevSide))) &&
                    ((!enterLast && conj(c, lastSide)) || jumpedLast);
  z3::expr pcAfter = L.ret ? returnsInside(L) : L.pc0;
  if (L.bi.part) tripFacts.push_back(thread.side.size());
  thread.side.push_back(z3::implies(L.pc0, exitOk));
  // The locals after the loop: at the start of iteration N where no jump left iteration
  // N-1; where a break left it, those at that break (a thread that returned goes on
  // nowhere after the loop).
  std::vector<z3::expr> exitSide;
  Env atN = stateAt(L, L.N, exitSide);
  z3::expr normal = jump ? L.pc0 && !jumpedLast : L.pc0;
  for (auto &sd : exitSide) thread.side.push_back(z3::implies(normal, sd));
  for (const Range &r : L.ranges)
    if (atN.count(r.local)) thread.side.push_back(z3::implies(normal, r.holds(atN.at(r.local))));
  env = std::move(atN);
  for (const Jump &brk : L.brks) {
    z3::expr there = L.N != c.bv_val(0, 64) && z3::expr(brk.pc).substitute(from, to);
    for (const auto &entry : L.mods) {
      auto b = brk.env.find(entry.first);
      auto n = env.find(entry.first);
      if (b != brk.env.end() && n != env.end())
        n->second = z3::ite(there, z3::expr(b->second).substitute(from, to), n->second);
      else if (n != env.end())  // not assigned yet at that break
        n->second = z3::ite(there, freshOwn("brk", n->second.get_sort()), n->second);
    }
  }
  pc_ = pcAfter;
}

// Threads that returned inside the loop do not reach the code after it; J is the
// iteration they returned at. Leaving the kernel, J is one value shared by both threads
// (named alike in both): a thread that returned at J and one that did not differ there,
// and a return both take at one iteration is no divergence. Leaving an inlined call,
// the locals of each thread at its own return matter, so each has its own J. Returns
// the path condition after the loop.
z3::expr Exec::returnsInside(LoopRun &L) {
  z3::context &c = enc.ctx;
  std::string jname = rets.size() == 1 ? "J.L" + std::to_string(L.id) : own("J.L" + std::to_string(L.id));
  z3::expr J = c.bv_const(jname.c_str(), 64);
  auto [from, to] = atIteration(L, J, "ret");
  z3::expr returned = z3::ult(J, L.N) && L.ret->substitute(from, to);
  rets.back() = orOpt(rets.back(), L.pc0 && returned);
  // the locals and last barriers of those threads, at the iteration J they returned in
  for (size_t i = L.firstRetEnv; i < ret_jumps.back().size(); ++i) {
    Jump &r = ret_jumps.back()[i];
    r.pc = L.pc0 && z3::ult(J, L.N) && r.pc.substitute(from, to);
    for (auto &[id, v] : r.env) v = v.substitute(from, to);
    for (int p = 0; p < kPhaseKinds; ++p)
      if (L.bi.ends(p)) r.lb[p] = substLB(expandLB(r.lb[p], L.marker(p), L.start[p]), from, to);
  }
  return L.pc0 && !returned;
}

// The last barrier after the loop: the one before it if it ran no iteration, else the
// one at the end of iteration N-1, or, where a break left N-1, the one at that break
// (threads that returned go on nowhere after the loop: returnsInside).
void Exec::loopAfterCandidates(LoopRun &L) {
  z3::context &c = enc.ctx;
  z3::expr_vector from(c), to(c);
  if (L.atLast) {
    from = L.atLast->first, to = L.atLast->second;
  } else {
    from.push_back(L.k), to.push_back(L.N - c.bv_val(1, 64));
  }
  z3::expr ran = L.N != c.bv_val(0, 64);
  auto after = [&](const LB &end, const LB &start, const LB &before, int marker, int p) {
    LB r;
    for (const Cand &x : before) r.push_back(x.when(!ran));
    z3::expr normal = ran && (L.jumpedLast ? !*L.jumpedLast : c.bool_val(true));
    for (const Cand &x : substLB(expandLB(end, marker, start), from, to)) r.push_back(x.when(normal));
    for (const Jump &b : L.brks) {
      z3::expr there = ran && z3::expr(b.pc).substitute(from, to);
      for (const Cand &x : substLB(expandLB(b.lb[p], marker, start), from, to)) r.push_back(x.when(there));
    }
    return r;
  };
  for (int p = 0; p < kPhaseKinds; ++p)
    lb[p] = L.bi.ends(p) ? compactLB(after(L.end[p], L.start[p], L.lb0[p], L.marker(p), p)) : L.lb0[p];
}

}  // namespace kverify::analysis::detail
