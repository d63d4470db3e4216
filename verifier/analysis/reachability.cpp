// Code no thread reaches under the launch and the assumptions: a proof about it proves
// nothing, so the kernel is `vacuous` (not `verified`), with the facts that exclude it.
#include "analysis/checker.hpp"
#include "analysis/debug.hpp"

#include "analysis/terms.hpp"
#include "model/walk.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <cstdio>
#include <cstdlib>
#include <tuple>

namespace kverify::analysis::detail {

namespace {

bool before(const model::SourceRange &a, const model::SourceRange &b) {
  return std::tie(a.line, a.col) < std::tie(b.line, b.col);
}

std::string where(const Stmt &s, const Kernel &k) {
  AccessRef r = refOf(s, k);
  return (r.kind == "barrier" ? "" : r.kind + " ") + r.text + " at " + loc(s.range);
}

// The statements of a call through a null or unknown function pointer (its arguments, then
// the read of the front end's pseudo-array that stands for the undefined call): reaching
// them is the bounds check's finding, and no thread reaching them is the proof itself.
std::set<const Stmt *> undefinedCalls(const Kernel &k) {
  std::set<const Stmt *> out;
  std::function<void(const model::Body &)> walk = [&](const model::Body &body) {
    bool call = std::any_of(body.begin(), body.end(), [&](const Stmt &s) {
      const auto *a = s.as<st::Access>();
      return a && a->array < k.arrays.size() &&
             k.arrays[a->array].origin == model::ArrayOrigin::FunctionPointer;
    });
    for (const Stmt &s : body) {
      if (call) model::forEachStmt(s, [&](const Stmt &in) { out.insert(&in); });
      for (const model::Body *c : model::children(s)) walk(*c);
    }
  };
  walk(k.body);
  return out;
}

}  // namespace

// The facts every reachability query is under: the launch's and the threads' side facts,
// each with its label. Those a model of few threads and small values rarely breaks (the
// 1024-thread product, no overflow, the race-free facts) start left out: a model that
// breaks one is no model, and adds it (as Checker::check does).
UnreachableCode::Facts UnreachableCode::facts() const {
  Facts F;
  for (size_t i = 0; i < checker.launch.size(); ++i) {
    F.fact.push_back(checker.launch[i]);
    F.why.push_back(checker.launch_why.at(i));
    F.used.push_back(!checker.enc.isBlockLimit(checker.launch[i]));
  }
  size_t i = 0;
  for (const Thread *T : {&*checker.thread1, &*checker.thread2})
    for (size_t j = 0; j < T->side.size(); ++j, ++i) F.used.push_back(!T->no_ub.count(j));
  for (; i < checker.side.size(); ++i) F.used.push_back(false);  // the race-free facts
  F.fact.insert(F.fact.end(), checker.side.begin(), checker.side.end());
  F.why.insert(F.why.end(), checker.side_why.begin(), checker.side_why.end());
  return F;
}

// The model, with thread 2's symbols it leaves open given thread 1's values: thread 2
// then takes thread 1's path (a copy of thread 1 is a thread of the launch; whether the
// facts hold under it is evaluated, never assumed).
z3::model UnreachableCode::withThread2(const z3::model &m) const {
  z3::model out(checker.enc.ctx);
  std::map<std::string, z3::func_decl> by_name;
  for (unsigned i = 0; i < m.num_consts(); ++i) {
    z3::func_decl d = m.get_const_decl(i);
    z3::expr v = m.get_const_interp(d);
    out.add_const_interp(d, v);
    by_name.emplace(d.name().str(), d);
  }
  auto copy = [&](z3::func_decl to, const z3::func_interp &f) {
    z3::expr otherwise = f.else_value();
    z3::func_interp g = out.add_func_interp(to, otherwise);
    for (unsigned j = 0; j < f.num_entries(); ++j) {
      z3::expr_vector args(checker.enc.ctx);
      for (unsigned a = 0; a < f.entry(j).num_args(); ++a) args.push_back(f.entry(j).arg(a));
      z3::expr value = f.entry(j).value();
      g.add_entry(args, value);
    }
  };
  for (unsigned i = 0; i < m.num_funcs(); ++i) {
    z3::func_decl d = m.get_func_decl(i);
    copy(d, m.get_func_interp(d));
    by_name.emplace(d.name().str(), d);
  }
  const std::string two = threadPrefix(2), one = threadPrefix(1);
  for (const z3::func_decl &d : thread2_symbols) {
    if (by_name.count(d.name().str())) continue;  // the model's own value
    auto it = by_name.find(one + d.name().str().substr(two.size()));
    if (it == by_name.end() || it->second.arity() != d.arity() || !z3::eq(it->second.range(), d.range()))
      continue;  // (left to the model's completion)
    z3::func_decl d2 = d;
    if (d.arity() == 0) {
      z3::expr v = m.get_const_interp(it->second);
      out.add_const_interp(d2, v);
    } else {
      copy(d2, m.get_func_interp(it->second));
    }
  }
  return out;
}

// Thread 2's symbols (those of the facts and paths: `terms`) and facts, left out of the queries.
void UnreachableCode::leaveOutThread2(Facts &F, const std::vector<z3::expr> &terms) {
  const std::string two = threadPrefix(2);
  std::set<unsigned> seen, ids;
  forEachTerm(terms, seen, [&](const z3::expr &e) {
    z3::func_decl d = e.decl();
    if (d.decl_kind() == Z3_OP_UNINTERPRETED && d.name().str().rfind(two, 0) == 0 &&
        ids.insert(d.id()).second)
      thread2_symbols.push_back(d);
    return true;
  });
  SymbolSets symbols;  // (memoized across the facts: they share deep terms)
  F.thread2.assign(F.fact.size(), false);
  for (size_t i = 0; i < F.fact.size(); ++i) {
    const SymbolSets::Set of = symbols.of(F.fact[i]);
    if (std::any_of(of->begin(), of->end(), [&](unsigned id) { return ids.count(id) > 0; }))
      F.used[i] = false, F.thread2[i] = true;
  }
}

// A model retires every pending statement it executes, where it breaks no fact (under the
// copy of thread 1 as thread 2); false, with the broken ones added, where it breaks one.
// Thread 1's broken facts are added first: the copy breaks their thread-2 twins too, and
// a thread-2 fact in the query brings thread 2's symbols with values of their own, which
// then break thread 2's launch facts one round at a time (reduce_stream: 7 rounds).
bool UnreachableCode::retire(const z3::model &m, Facts &F, Pending &pending) const {
  const z3::model both = withThread2(m);
  std::vector<bool> broken = F.used;  // (and those the model breaks)
  if (markBroken(both, F.fact, broken)) {
    auto added = [&](size_t i) { return broken[i] && !F.used[i]; };
    bool thread1 = false;
    for (size_t i = 0; i < F.fact.size(); ++i) thread1 = thread1 || (added(i) && !F.thread2[i]);
    for (size_t i = 0; i < F.fact.size(); ++i)
      if (added(i) && (!thread1 || !F.thread2[i])) F.used[i] = true;
    return false;
  }
  for (auto it = pending.begin(); it != pending.end();)
    it = both.eval(it->second.either, true).is_true() ? pending.erase(it) : std::next(it);
  return true;
}

// Every access and barrier some thread may execute is retired by a model that executes it;
// those left are unreachable. First cheaply, in batches (one query retires many); what the
// batches leave undecided, one statement at a time with the full --timeout: undecided
// there, the verdict is `unknown`, naming the query. Never given up silently.
void UnreachableCode::run() {
  std::map<const Stmt *, z3::expr> pending, first;  // either thread's path to it; thread 1's
  auto add = [&](std::map<const Stmt *, z3::expr> &to, const Stmt *st, const z3::expr &pc) {
    auto it = to.find(st);
    if (it == to.end())
      to.emplace(st, pc);
    else
      it->second = it->second || pc;
  };
  const std::set<const Stmt *> checks = undefinedCalls(checker.enc.kernel);
  for (const Thread *T : {&*checker.thread1, &*checker.thread2}) {
    auto event = [&](const Stmt *st, const z3::expr &pc) {
      if (checks.count(st)) return;
      add(pending, st, pc);
      if (T == &*checker.thread1) add(first, st, pc);
    };
    for (const AccessEv &a : T->accesses) event(a.s, a.pc);
    for (const SyncEv &b : T->syncs)
      if (b.s->is<st::Barrier>()) event(b.s, b.pc);
  }
  // A statement of the source that is several statements of the model (an access through a
  // pointer that may point into several arrays: one per array; a function inlined at
  // several calls) is reached where one of them is: the others are no code of their own.
  using Key = std::tuple<unsigned, unsigned, unsigned, unsigned, std::string>;
  auto key = [&](const Stmt *st) {
    const model::SourceRange &r = st->range;
    return Key{r.line, r.col, r.end_line, r.end_col, refKind(*st)};
  };
  std::vector<const Stmt *> candidates;
  for (const auto &[st, pc] : pending) candidates.push_back(st);
  // dead by construction (a constant condition): no fact makes it so; not asked about
  std::vector<const Stmt *> constant;
  for (const auto &[st, why] : checker.thread1->constant_dead)
    if (pending.erase(st)) constant.push_back(st);
  Facts F = facts();
  std::vector<z3::expr> terms = F.fact;  // (the array premises at the elements they read)
  for (const auto &[st, pc] : pending) terms.push_back(pc);
  for (const PremiseInstance &i : checker.premiseInstances(terms))
    F.fact.push_back(i.fact), F.why.push_back(i.of->label), F.used.push_back(true);
  // Thread 1 is any thread: models are looked for with thread 1's path and facts alone
  // (half the query), each checked against every fact with thread 2 a copy of thread 1.
  // What thread 1 cannot reach is asked again about either thread under every fact.
  const std::vector<bool> used = F.used;
  leaveOutThread2(F, terms);
  Pending asked;
  for (const auto &[st, pc] : pending) {
    auto one = first.find(st);
    asked.emplace(st, Path{one == first.end() ? pc : one->second, pc});
  }
  auto search = [&] { return batches(F, asked) || oneByOne(F, asked); };
  if (!search()) return;  // unknown: named
  if (!asked.empty()) {
    for (size_t i = 0; i < F.fact.size(); ++i) F.used[i] = F.used[i] || used[i];
    F.thread2.assign(F.fact.size(), false);  // (thread 2 has its own symbols now)
    for (auto &[st, path] : asked) path.asked = path.either;
    if (!search()) return;
  }
  for (auto it = pending.begin(); it != pending.end();)
    it = asked.count(it->first) ? std::next(it) : pending.erase(it);
  std::set<Key> reached;
  for (const Stmt *st : candidates)
    if (!pending.count(st) && !checker.thread1->constant_dead.count(st)) reached.insert(key(st));
  std::vector<const Stmt *> dead;
  for (const auto &[st, pc] : pending)
    if (!reached.count(key(st))) dead.push_back(st);
  std::sort(dead.begin(), dead.end(),
            [](const Stmt *a, const Stmt *b) { return before(a->range, b->range); });
  explain(F, dead, first);
  for (const Stmt *st : constant) {
    if (reached.count(key(st))) continue;
    UnreachableRef u;
    static_cast<AccessRef &>(u) = refOf(*st, checker.enc.kernel);
    u.because = {checker.thread1->constant_dead.at(st)};
    u.by_construction = true;
    checker.result.unreachable.push_back(u);
  }
  std::sort(checker.result.unreachable.begin(), checker.result.unreachable.end(),
            [](const UnreachableRef &a, const UnreachableRef &b) { return before(a.range, b.range); });
}

// Where to look for models first, where the index arithmetic folds to constants (a
// statement reached there is reached; one not reached there is asked again without):
// every launch dimension left open 1, or one wide block, or 1-D blocks and grids; each
// first with every integer parameter 1 (sizes and strides of one element).
std::vector<z3::expr> UnreachableCode::hints() const {
  Encoder &enc = checker.enc;
  z3::expr_vector ones(enc.ctx), wide(enc.ctx), flat(enc.ctx), unit(enc.ctx);
  for (int d = 0; d < 3; ++d) {
    if (!enc.options.block_dim[d]) {
      ones.push_back(enc.bdim[d] == enc.u32(1));
      wide.push_back(enc.bdim[d] == enc.u32(d == 0 ? 1024 : 1));
      if (d > 0) flat.push_back(enc.bdim[d] == enc.u32(1));
    }
    if (!enc.options.grid_dim[d]) {
      ones.push_back(enc.gdim[d] == enc.u32(1));
      wide.push_back(enc.gdim[d] == enc.u32(1));
      if (d > 0) flat.push_back(enc.gdim[d] == enc.u32(1));
    }
  }
  for (const auto &[name, p] : enc.params)
    if (p.is_bv()) unit.push_back(p == enc.ctx.bv_val(1, p.get_sort().bv_size()));
  std::vector<z3::expr> out;
  auto both = [&](const z3::expr_vector &a, const z3::expr_vector &b) {
    z3::expr_vector v(enc.ctx);
    for (unsigned i = 0; i < a.size(); ++i) v.push_back(a[i]);
    for (unsigned i = 0; i < b.size(); ++i) v.push_back(b[i]);
    if (!v.empty()) out.push_back(z3::mk_and(v));
  };
  z3::expr_vector none(enc.ctx);
  both(ones, unit);
  both(ones, none);
  both(wide, unit);
  both(wide, none);
  both(flat, none);
  // (without open dimensions, some hints are alike)
  std::vector<z3::expr> distinct;
  for (const z3::expr &h : out)
    if (std::none_of(distinct.begin(), distinct.end(), [&](const z3::expr &x) { return z3::eq(x, h); }))
      distinct.push_back(h);
  return distinct;
}

// The cheap part: a model executing any pending statement retires all it executes; unsat
// (without a hint) leaves every pending one unreachable. A quarter of a second under the
// user's assumptions (where vacuity is likeliest), a tenth without (the thread's CPU time:
// the same answers on a loaded machine as on an idle one). True when decided.
bool UnreachableCode::batches(Facts &F, Pending &pending) {
  const double t0 = threadSeconds();
  const double budget = checker.thread1->premises.empty() ? 0.1 : 0.25;
  const std::vector<z3::expr> hint = hints();
  size_t h = 0;  // hint[h], none past the last
  while (!pending.empty()) {
    double left = budget - (threadSeconds() - t0);
    if (left <= 0) return false;
    z3::expr_vector q(checker.enc.ctx);
    for (size_t i = 0; i < F.used.size(); ++i)
      if (F.used[i]) q.push_back(F.fact[i]);
    if (h < hint.size()) q.push_back(hint[h]);
    z3::expr_vector any(checker.enc.ctx);
    for (const auto &[st, path] : pending) any.push_back(path.asked);
    q.push_back(z3::mk_or(any));
    // under a hint, a share of the time: an answer there is a shortcut, not the answer
    Decision d = findModel(q, checker.enc.no_overflow, h < hint.size() ? left / 3 : left);
    if (debugOptions().queries)
      std::fprintf(stderr, "[kverify] reachability of %zu statements (hint %zu): %s (%s) at %.1f ms\n",
                   pending.size(), h,
                   d.result == z3::sat     ? "sat"
                   : d.result == z3::unsat ? "unsat"
                                           : "unknown",
                   d.how, 1000 * (threadSeconds() - t0));
    if (d.result != z3::sat && h < hint.size()) {
      ++h;
      continue;
    }
    if (d.result == z3::unknown) return false;
    if (d.result == z3::unsat) return true;
    retire(*d.model, F, pending);
  }
  return true;
}

// What the batches left: one statement at a time, in source order, first (up to 1.5 s) under
// each hint, then with the full --timeout (a model retires the others it executes).
// False, with the query named, at the first one not decided.
bool UnreachableCode::oneByOne(Facts &F, Pending &pending) {
  std::vector<const Stmt *> order;
  for (const auto &[st, path] : pending) order.push_back(st);
  std::sort(order.begin(), order.end(),
            [](const Stmt *a, const Stmt *b) { return before(a->range, b->range); });
  const std::vector<z3::expr> hint = hints();
  Pending dead;
  for (const Stmt *st : order) {
    auto it = pending.find(st);
    if (it == pending.end()) continue;  // retired by an earlier model
    const std::string name = "reachability of " + where(*st, checker.enc.kernel);
    const double t0 = threadSeconds();
    z3::check_result r = z3::unknown;
    for (size_t h = 0, round = 0; h <= hint.size() && round < 8 + hint.size(); ++round) {
      z3::expr_vector q(checker.enc.ctx);
      for (size_t i = 0; i < F.used.size(); ++i)
        if (F.used[i]) q.push_back(F.fact[i]);
      if (h < hint.size()) q.push_back(hint[h]);
      q.push_back(it->second.asked);
      double left = checker.enc.options.timeout_s - (threadSeconds() - t0);
      if (left <= 0) break;
      Decision d = h < hint.size() ? findModel(q, checker.enc.no_overflow, std::min(left, 1.5))
                                   : decide(q, checker.enc.no_overflow, left, name);
      r = d.result;
      if (r != z3::sat) {
        if (h++ < hint.size())
          r = z3::unknown;  // not under this hint: the next
        else
          break;
        continue;
      }
      if (!retire(*d.model, F, pending)) {
        r = z3::unknown;  // (not converged: asked again)
        continue;
      }
      break;
    }
    if (debugOptions().queries)
      std::fprintf(stderr, "[kverify] %s: %s in %.1f ms\n", name.c_str(),
                   r == z3::sat     ? "sat"
                   : r == z3::unsat ? "unsat"
                                    : "unknown",
                   1000 * (threadSeconds() - t0));
    if (r == z3::unknown) {
      checker.noteUnknown(name);
      return false;
    }
    if (r == z3::unsat) dead.emplace(st, pending.at(st)), pending.erase(st);
  }
  pending = std::move(dead);
  return true;
}

// Why each unreachable statement is: the labels of an unsat core of the facts with thread
// 1's path to it, made minimal by dropping one fact at a time. A core found for one
// statement is tried on the next first (the statements of one dead branch share it).
void UnreachableCode::explain(const Facts &F, const std::vector<const Stmt *> &dead,
                              const std::map<const Stmt *, z3::expr> &first) {
  const double t0 = threadSeconds();
  const double budget = std::min(checker.enc.options.timeout_s, 2.0);
  std::vector<std::vector<size_t>> cores;
  auto refutes = [&](const std::vector<size_t> &facts, const z3::expr &pc, double seconds) {
    z3::solver s = freshSolver(checker.enc.ctx);
    for (size_t i : facts) s.add(F.fact[i]);
    s.add(pc);
    return checkWithin(s, seconds) == z3::unsat;
  };
  for (const Stmt *st : dead) {
    UnreachableRef u;
    static_cast<AccessRef &>(u) = refOf(*st, checker.enc.kernel);
    auto p = first.find(st);
    std::optional<std::vector<size_t>> core;
    for (const std::vector<size_t> &c : cores)
      if (!core && p != first.end() && refutes(c, p->second, 0.05)) core = c;
    double left = budget - (threadSeconds() - t0);
    if (!core && p != first.end() && left > 0) {
      z3::solver s = freshSolver(checker.enc.ctx);
      z3::expr_vector lits(checker.enc.ctx);
      std::vector<size_t> index;
      for (size_t i = 0; i < F.fact.size(); ++i) {
        if (!F.used[i]) continue;
        z3::expr lit = checker.enc.ctx.bool_const(("fact!" + std::to_string(i)).c_str());
        s.add(z3::implies(lit, F.fact[i]));
        lits.push_back(lit);
        index.push_back(i);
      }
      s.add(p->second);
      if (checkWithin(s, left, &lits) == z3::unsat) {
        std::vector<size_t> c;
        z3::expr_vector found = s.unsat_core();
        for (unsigned j = 0; j < found.size(); ++j)
          for (unsigned l = 0; l < lits.size(); ++l)
            if (z3::eq(found[j], lits[l])) c.push_back(index[l]);
        // minimal: a fact whose removal keeps it unsat is not needed
        for (size_t j = 0; j < c.size() && c.size() > 1;) {
          std::vector<size_t> without = c;
          without.erase(without.begin() + static_cast<long>(j));
          if (threadSeconds() - t0 < budget && refutes(without, p->second, 0.1))
            c = std::move(without);
          else
            ++j;
        }
        core = c;
        cores.push_back(c);
      }
    }
    if (core) {
      for (size_t i : *core)
        if (std::find(u.because.begin(), u.because.end(), F.why[i]) == u.because.end())
          u.because.push_back(F.why[i]);
      if (u.because.empty()) u.because.push_back("its own path condition is contradictory");
    } else {
      u.because.push_back("(the facts that exclude it were not narrowed down in time)");
    }
    checker.result.unreachable.push_back(std::move(u));
  }
  if (debugOptions().queries)
    std::fprintf(stderr, "[kverify] reasons of %zu unreachable statements in %.1f ms\n", dead.size(),
                 1000 * (threadSeconds() - t0));
}

}  // namespace kverify::analysis::detail
