// Loops of one thread: an arbitrary iteration k of N, closed forms or havoc for the
// locals, the exit, and the last-barrier candidates around the back edge.
#include "analysis/exec.hpp"
#include "analysis/body_walks.hpp"
#include "analysis/closed_form.hpp"
#include "analysis/solve.hpp"


namespace kverify::analysis::detail {

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

bool runsOnce(const Stmt &s) {
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

}  // namespace kverify::analysis::detail
