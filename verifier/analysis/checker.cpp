// The two symbolic threads, their facts, and one query under them.
#include "analysis/checker.hpp"
#include "analysis/debug.hpp"
#include "result/stats.hpp"
#include "analysis/terms.hpp"
#include "model/walk.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace kverify::analysis::detail {

std::string accessText(const st::Access &a, const Kernel &k) {
  if (!a.text.empty()) return a.text;
  return k.arrays[a.array].name + "[" + model::toString(a.index) + "]";
}

// The inlined calls around `target` in `body`, outermost first; true when found.
static bool callsAround(const model::Body &body, const Stmt *target, std::vector<CallSite> &calls) {
  for (const Stmt &s : body) {
    if (&s == target) return true;
    const auto *inl = s.as<st::Inlined>();
    if (inl) calls.push_back({inl->function, s.range});
    for (const model::Body *c : model::children(s))
      if (callsAround(*c, target, calls)) return true;
    if (inl) calls.pop_back();
  }
  return false;
}

std::string refKind(const Stmt &s) {
  const auto *a = s.as<st::Access>();
  return a ? model::accessKindName(a->kind) : "barrier";
}

AccessRef refOf(const Stmt &s, const Kernel &k) {
  AccessRef r;
  r.kind = refKind(s);
  if (const auto *a = s.as<st::Access>()) {
    r.text = accessText(*a, k);
  } else if (const auto *b = s.as<st::Barrier>()) {
    r.text = b->what.empty() ? "__syncthreads()" : b->what + "()";
  } else if (const auto *l = s.as<st::Loop>()) {
    r.text = std::string(model::loopKindName(l->kind)) + " loop";
  } else {
    r.text = s.is<st::Return>() ? "return" : "break";
  }
  r.range = s.range;
  if (callsAround(k.body, &s, r.called_from)) std::reverse(r.called_from.begin(), r.called_from.end());
  // a call the access is placed at (a prelude function's access is shown where it is called)
  r.called_from.erase(std::remove_if(r.called_from.begin(), r.called_from.end(),
                                     [&](const CallSite &c) {
                                       return c.range.file == s.range.file && c.range.line == s.range.line &&
                                              c.range.col == s.range.col;
                                     }),
                      r.called_from.end());
  return r;
}

uint64_t num(const z3::model &m, const z3::expr &e) {
  z3::expr v = m.eval(e, true);
  uint64_t out = 0;
  if (v.is_numeral_u64(out)) return out;
  if (v.is_true()) return 1;
  return 0;
}

bool satisfiesAll(const z3::model &m, const std::vector<z3::expr> &facts) {
  z3::expr_vector all(m.ctx());
  for (const z3::expr &f : facts) all.push_back(f);
  return m.eval(z3::mk_and(all), true).is_true();
}

// The facts' truth under m, read from one evaluation of one term: a bit per fact (an
// evaluation remembers shared subterms only within itself, and a kernel can have 10^5 facts
// about one big term: an evaluation per fact, or per group, is quadratic there).
static std::vector<bool> truths(const z3::model &m, const std::vector<z3::expr> &facts) {
  z3::context &c = m.ctx();
  std::vector<z3::expr> level;
  for (const z3::expr &f : facts) level.push_back(z3::ite(f, c.bv_val(1, 1), c.bv_val(0, 1)));
  while (level.size() > 1) {  // a balanced concatenation: fact 0 in the highest bit
    std::vector<z3::expr> up;
    for (size_t i = 0; i + 1 < level.size(); i += 2) up.push_back(z3::concat(level[i], level[i + 1]));
    if (level.size() % 2) up.push_back(level.back());
    level = std::move(up);
  }
  std::vector<bool> out(facts.size(), false);
  if (level.empty()) return out;
  z3::expr v = m.eval(level[0], true);
  if (!v.is_numeral()) {  // (some fact has no value under m: one at a time)
    for (size_t i = 0; i < facts.size(); ++i) out[i] = m.eval(facts[i], true).is_true();
    return out;
  }
  const std::string bits = Z3_get_numeral_binary_string(c, v);  // no leading zeros
  for (size_t i = 0; i < facts.size(); ++i) {
    const size_t p = facts.size() - 1 - i;  // fact i's bit, from the lowest
    out[i] = p < bits.size() && bits[bits.size() - 1 - p] == '1';
  }
  return out;
}

bool markBroken(const z3::model &m, const std::vector<z3::expr> &facts, std::vector<bool> &used) {
  std::vector<size_t> unused;
  std::vector<z3::expr> asked;
  for (size_t i = 0; i < facts.size(); ++i)
    if (!used[i]) unused.push_back(i), asked.push_back(facts[i]);
  const std::vector<bool> hold = truths(m, asked);
  bool broken = false;
  for (size_t j = 0; j < unused.size(); ++j)
    if (!hold[j]) used[unused[j]] = broken = true;
  return broken;
}

std::string signedStr(uint64_t v, unsigned bits, bool is_signed) {
  if (!is_signed || bits == 0) return std::to_string(v);
  if (bits < 64 && (v >> (bits - 1)) & 1) v |= ~uint64_t(0) << bits;
  return std::to_string(static_cast<int64_t>(v));
}

z3::check_result Checker::check(const z3::expr &q, const std::string &name, std::optional<z3::model> &m,
                                double seconds, bool quiet, bool small) {
  return ask(q, name, m, seconds, quiet, small, Ladder{}.bits);
}

z3::check_result Checker::checkBatch(const z3::expr &q, const std::string &name,
                                     std::optional<z3::model> &m) {
  return ask(q, name, m, std::min(enc.options.timeout_s, 2.0), true, true, 0.25);
}

z3::check_result Checker::ask(const z3::expr &q, const std::string &name, std::optional<z3::model> &m,
                              double seconds, bool quiet, bool small, double bits) {
  if (seconds <= 0) seconds = enc.options.timeout_s;
  // the kernel's time is spent: not even the assumptions are gathered (a kernel with
  // thousands of accesses asks for each of their pairs)
  if (kernelTimeSpent()) {
    m.reset();
    if (!quiet) noteUnknown(name);
    return z3::unknown;
  }
  auto t0 = std::chrono::steady_clock::now();  // (for --debug-queries)
  const double cpu0 = threadSeconds();
  // Assumptions only restrict: start with those about the query's symbols (dropping
  // others is sound, it only adds behaviours); a model that breaks one left out is no
  // witness: add the broken ones and ask again.
  const SymbolSets::Set qs = symbols.of(q);
  const bool all_sides = debugOptions().all_assumptions;
  std::vector<bool> used(side.size(), all_sides);
  for (size_t i = 0; i < side.size(); ++i)
    used[i] = used[i] || isPremise[i] || SymbolSets::covered(sideSymbols[i], qs, launchSymbols);
  z3::check_result r = z3::unknown;
  const char *how = "";
  bool limits = false;     // the block's thread count: added where a model breaks it (exec.hpp)
  const char *again = "";  // how the last round found its model
  for (int round = 0;; ++round) {
    z3::expr_vector all(enc.ctx);
    for (const z3::expr &b : launch)
      if (limits || !enc.isBlockLimit(b)) all.push_back(b);
    for (size_t i = 0; i < side.size(); ++i)
      if (used[i]) all.push_back(side[i]);
    all.push_back(q);
    addPremiseInstances(all);
    double left = seconds - (threadSeconds() - cpu0);
    Ladder ladder{linear_first, small ? small_launches : std::vector<z3::expr>{}, again, bits};
    Decision d = decide(all, enc.no_overflow, std::max(0.05, left), name, ladder);
    linear_first =
        std::string_view(d.how) == "int-linear" || (linear_first && std::string_view(d.how) != "bv");
    r = d.result, how = d.how, m = d.model;
    if (r != z3::sat) break;
    again = d.how;
    const bool broken_limit = !limits && !satisfiesAll(*m, enc.block_limits);
    limits = limits || broken_limit;
    if (!markBroken(*m, side, used) && !broken_limit) break;
    how = "refined";
    if (round == 8) {  // not converging: no verdict
      r = z3::unknown;
      break;
    }
  }
  if (debugOptions().queries)
    std::fprintf(stderr, "[kverify] %s: %s (%s) in %.1f ms\n", name.c_str(),
                 r == z3::sat     ? "sat"
                 : r == z3::unsat ? "unsat"
                                  : "unknown",
                 how,
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  if (r == z3::unknown && !quiet) noteUnknown(name);
  return r;
}

// Each with the indices it fixes (blockIdx.x < gridDim.x == 1: blockIdx.x == 0), implied
// but not derived by the bit-blaster's preprocessing: with them the products of indices and
// sizes fold away (`(blockIdx.y * blockDim.y + threadIdx.y) * width` does not overflow).
std::vector<z3::expr> Checker::smallLaunches() const {
  z3::expr_vector block(enc.ctx), flat(enc.ctx), grid(enc.ctx);
  auto one = [&](z3::expr_vector &v, const z3::expr &dim, const z3::expr &i1, const z3::expr &i2) {
    v.push_back(dim == enc.u32(1));
    v.push_back(i1 == enc.u32(0));
    v.push_back(i2 == enc.u32(0));
  };
  for (int d = 0; d < 3; ++d)
    if (!enc.options.grid_dim[d]) one(grid, enc.gdim[d], thread1->bid[d], thread2->bid[d]);
  for (int d = 1; d < 3; ++d) {
    if (!enc.options.block_dim[d]) one(flat, enc.bdim[d], thread1->tid[d], thread2->tid[d]);
    if (!enc.options.grid_dim[d]) one(flat, enc.gdim[d], thread1->bid[d], thread2->bid[d]);
  }
  for (unsigned i = 0; i < flat.size(); ++i) block.push_back(flat[i]);
  if (!enc.options.grid_dim[0]) one(block, enc.gdim[0], thread1->bid[0], thread2->bid[0]);
  std::vector<z3::expr> out;
  if (!block.empty()) out.push_back(z3::mk_and(block));
  if (!flat.empty() && flat.size() != block.size()) out.push_back(z3::mk_and(flat));
  // one block of at most 32 x 4 x 4 threads: a kernel that ignores threadIdx.z races only
  // where blockDim.z > 1, which the flat launches exclude (blur.cu's race: 6.8 -> 0.5 s)
  if (!enc.options.block_dim[1] || !enc.options.block_dim[2]) {
    z3::expr_vector cube(enc.ctx);
    for (unsigned i = 0; i < grid.size(); ++i) cube.push_back(grid[i]);
    for (int d = 0; d < 3; ++d)
      if (!enc.options.block_dim[d]) cube.push_back(z3::ule(enc.bdim[d], enc.u32(d == 0 ? 32 : 4)));
    out.push_back(z3::mk_and(cube));
  }
  return out;
}

std::vector<PremiseInstance> Checker::premiseInstances(const std::vector<z3::expr> &q) const {
  std::vector<const ForallPremise *> premises;
  for (const Thread *T : {&*thread1, &*thread2})
    for (const ForallPremise &p : T->foralls) premises.push_back(&p);
  if (premises.empty()) return {};
  std::set<unsigned> contents;
  for (const auto &[key, f] : enc.contents) contents.insert(f.id());
  return detail::premiseInstances(premises, q, contents);
}

void Checker::addPremiseInstances(z3::expr_vector &q) const {
  if (thread1->foralls.empty() && thread2->foralls.empty()) return;
  std::vector<z3::expr> terms;
  for (unsigned i = 0; i < q.size(); ++i) terms.push_back(q[i]);
  for (const PremiseInstance &i : premiseInstances(terms)) q.push_back(i.fact);
}

// The two symbolic threads every query is about, and their facts.
void Checker::useThreads(bool shared_trips) {
  Stage s("execution");  // the two threads' symbolic execution
  thread1 = enc.makeThread(1, shared_trips);
  thread2 = enc.makeThread(2, shared_trips);
  if (launch.empty()) {
    for (auto &b : enc.base) launch.push_back(b);
    launch_why = enc.base_why;
    z3::expr_vector all(enc.ctx);
    for (auto &b : launch) all.push_back(b);
    launchSymbols = symbols.of(z3::mk_and(all));
  }
  side.clear();
  side_why.clear();
  sideSymbols.clear();
  isPremise.clear();
  for (auto *T : {&*thread1, &*thread2}) {
    T->label("a fact of the symbolic execution");
    side_why.insert(side_why.end(), T->why.begin(), T->why.end());
    for (auto &b : T->side) {
      side.push_back(b);
      isPremise.push_back(std::any_of(T->premises.begin(), T->premises.end(),
                                      [&](const auto &p) { return z3::eq(p.second, b); }));
      sideSymbols.push_back(symbols.of(b));
    }
  }
  // facts about values read (each says why); all but the tickets' hold only where the
  // kernel is race-free, which the race check shows
  struct Extra {
    std::vector<z3::expr> facts;
    const char *why;
    bool race_free;
  };
  const Extra extras[] = {
      {sharedReads(),
       "two threads of a block read one value from a shared element in one barrier interval (else a race)",
       true},
      {tickets(), "two atomicAdds on a ticket counter return different values", false},
      {blockTickets(), "threads of different blocks read different block tickets", true},
      {rereads(*thread1),
       "a thread reads one value twice from a shared element in one barrier interval (else a race)", true},
      {rereads(*thread2),
       "a thread reads one value twice from a shared element in one barrier interval (else a race)", true}};
  std::vector<z3::expr> extra;
  for (const Extra &x : extras) {
    side_why.insert(side_why.end(), x.facts.size(), x.why);
    extra.insert(extra.end(), x.facts.begin(), x.facts.end());
    race_free_facts = race_free_facts || (x.race_free && !x.facts.empty());
  }
  for (const z3::expr &b : extra) {
    side.push_back(b);
    isPremise.push_back(false);
    sideSymbols.push_back(symbols.of(b));
  }
}

// a (thread 1) and b (thread 2) are one event: one thread, one statement, one iteration.
z3::expr Checker::sameEvent(const AccessEv &a, const AccessEv &b) {
  if (a.s != b.s || a.loops.size() != b.loops.size()) return enc.ctx.bool_val(false);
  z3::expr same = sameBlock() && !distinctThreads();
  for (size_t i = 0; i < a.loops.size(); ++i) same = same && a.loops[i].k == b.loops[i].k;
  return same;
}

// Counters whose every update is an atomicAdd of a positive constant hand out tickets:
// two different atomicAdds on one element return different values (the stream-compaction
// idiom `out[atomicAdd(&n, 1)] = x`). Assumed: such a counter does not wrap around.
std::vector<z3::expr> Checker::tickets() {
  std::vector<z3::expr> out;
  for (const LoadEv &l1 : thread1->tickets)
    for (const LoadEv &l2 : thread2->tickets) {
      const AccessEv &a = thread1->accesses[l1.access], &b = thread2->accesses[l2.access];
      if (a.access().array != b.access().array || l1.value.is_bool() || l2.value.is_bool() ||
          l1.value.get_sort().bv_size() != l2.value.get_sort().bv_size())
        continue;
      z3::expr one = a.pc && b.pc && a.index == b.index && !sameEvent(a, b);
      if (enc.kernel.arrays[a.access().array].space == AddressSpace::Shared) one = one && sameBlock();
      out.push_back(z3::implies(one, l1.value != l2.value));
      enc.rules.note(Rule::Ticket);
    }
  return out;
}

// Tickets read from shared memory are those of the reader's block (block_tickets.hpp):
// readers in different blocks read different ones.
std::vector<z3::expr> Checker::blockTickets() {
  std::vector<z3::expr> out;
  for (const LoadEv &l1 : thread1->block_tickets)
    for (const LoadEv &l2 : thread2->block_tickets) {
      const AccessEv &a = thread1->accesses[l1.access], &b = thread2->accesses[l2.access];
      if (enc.block_ticket_reads.at(a.access().id) != enc.block_ticket_reads.at(b.access().id) ||
          !z3::eq(l1.value.get_sort(), l2.value.get_sort()))
        continue;
      out.push_back(z3::implies(a.pc && b.pc && !sameBlock(), l1.value != l2.value));
      enc.rules.note(Rule::BlockTicket);
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
  for (const LoadEv &l1 : thread1->loads)
    for (const LoadEv &l2 : thread2->loads) {
      const AccessEv &a = thread1->accesses[l1.access], &b = thread2->accesses[l2.access];
      if (a.s != b.s || a.loops.size() != b.loops.size() || l1.value.is_bool() != l2.value.is_bool())
        continue;
      z3::expr same = a.pc && b.pc && sameBlock() && a.index == b.index &&
                      samePhase(enc.ctx, a.lb[kBlockPhase], b.lb[kBlockPhase], true) &&
                      samePhase(enc.ctx, a.lb[kAnyPhase], b.lb[kAnyPhase], true);
      for (size_t i = 0; i < a.loops.size(); ++i) same = same && a.loops[i].k == b.loops[i].k;
      out.push_back(z3::implies(same, l1.value == l2.value));
      enc.rules.note(Rule::SharedReadsAgree);
    }
  return out;
}

// One thread reading one shared location (the same first unit and width: a field's bytes)
// twice in a barrier interval, with no write of its own to the array in between, reads one
// value twice: another thread's write in between
// would race with one of the reads, a race the race check reports (sharedReads' argument).
// This is what tells `if (s[y][x] == 0 && s[k][x] != 0)` that s[k][x] is s[y][x] at k == y.
std::vector<z3::expr> Checker::rereads(const Thread &T) {
  std::vector<z3::expr> out;
  const WritesIndex writes(T);
  // The loads in trace order (a load is recorded where its value is used, which can be
  // later): a write of b's array between a and b is also between any earlier load and b, so
  // a scan away from b stops at the first such a, as no pair past it can be comparable.
  // Linear where every statement writes what the next one reads.
  std::vector<const LoadEv *> loads;
  for (const LoadEv &l : T.loads) loads.push_back(&l);
  auto ev = [&](size_t i) -> const AccessEv & { return T.accesses[loads[i]->access]; };
  std::stable_sort(loads.begin(), loads.end(), [&](const LoadEv *x, const LoadEv *y) {
    return T.accesses[x->access].seq < T.accesses[y->access].seq;
  });
  // (and no write of the array between them: each scan below stops at the first one)
  auto comparable = [&](size_t i, size_t j) {
    const AccessEv &a = ev(i), &b = ev(j);
    return &a != &b && a.access().array == b.access().array && a.access().count == b.access().count &&
           z3::eq(loads[i]->value.get_sort(), loads[j]->value.get_sort()) && sameIterations(a.loops, b.loops);
  };
  // A read repeating an earlier one exactly (its path, index and last barriers the same
  // terms: no barrier between them) reads its value; it is linked to it alone, and the
  // earlier read's facts with the others hold for it through the link (a statement
  // repeated 1,000 times is 999 facts, not half a million).
  std::vector<size_t> rep(loads.size());
  for (size_t j = 0; j < loads.size(); ++j) {
    rep[j] = j;
    const AccessEv &b = ev(j);
    for (size_t i = j; i-- > 0 && !writes.between(b.access().array, ev(i), b);) {
      const AccessEv &a = ev(i);
      if (z3::eq(a.pc, b.pc) && z3::eq(a.index, b.index) && sameLB(a.lb[kBlockPhase], b.lb[kBlockPhase]) &&
          sameLB(a.lb[kAnyPhase], b.lb[kAnyPhase]) && comparable(i, j)) {
        rep[j] = rep[i];
        out.push_back(z3::implies(b.pc, loads[i]->value == loads[j]->value));
        enc.rules.note(Rule::Reread);
        break;
      }
    }
  }
  for (size_t i = 0; i < loads.size(); ++i) {
    const AccessEv &a = ev(i);
    for (size_t j = i + 1; rep[i] == i && j < loads.size() && !writes.between(a.access().array, a, ev(j));
         ++j) {
      if (rep[j] != j || !comparable(i, j)) continue;
      const AccessEv &b = ev(j);
      z3::expr same = a.pc && b.pc && a.index == b.index &&
                      samePhase(enc.ctx, a.lb[kBlockPhase], b.lb[kBlockPhase]) &&
                      samePhase(enc.ctx, a.lb[kAnyPhase], b.lb[kAnyPhase]);
      out.push_back(z3::implies(same, loads[i]->value == loads[j]->value));
      enc.rules.note(Rule::Reread);
    }
  }
  return out;
}

Checker::WritesIndex::WritesIndex(const Thread &T) {
  for (const AccessEv &w : T.accesses)
    if (w.access().kind != AccessKind::Read) seqs[w.access().array].push_back(w.seq);
  for (auto &[array, s] : seqs) std::sort(s.begin(), s.end());
}

// A write (or atomic) of `array` in the thread's trace strictly between a and b.
bool Checker::WritesIndex::between(unsigned array, const AccessEv &a, const AccessEv &b) const {
  auto it = seqs.find(array);
  if (it == seqs.end()) return false;
  const int lo = std::min(a.seq, b.seq), hi = std::max(a.seq, b.seq);
  auto first = std::upper_bound(it->second.begin(), it->second.end(), lo);
  return first != it->second.end() && *first < hi;
}

namespace {
template <class F>
auto runStage(const char *name, F f) {
  Stage s(name);
  return f();
}

// A check run as stage `name`, its findings appended to `out` in the order it found them.
// Where it throws (a solver error, which analyzeKernel turns into the verdict), those it
// found before are appended too: the report lists them.
template <class Check>
void runCheck(const char *name, Check &&check, std::vector<Finding> &out) {
  std::vector<Finding> found;
  try {
    found = runStage(name, [&] { return check.run(); });
  } catch (...) {
    out.insert(out.end(), check.found().begin(), check.found().end());
    throw;
  }
  out.insert(out.end(), found.begin(), found.end());
}
}  // namespace

// Divergence first, with each thread's own trip counts; races only once the barriers are
// shown uniform, with the block's shared trip counts.
void Checker::run() {
  // barriers under uniform control (uniformity.hpp) need no divergence-mode execution
  bool uniform = enc.uniformity.barriersUniform();
  if (uniform) enc.rules.note(Rule::UniformBarriers);
  useThreads(uniform);
  small_launches = smallLaunches();  // (over the threads' indices: the same symbols in every execution)
  if (!runStage("premises", [&] { return premisesHold(); })) return;
  runCheck("divergence", DivergenceCheck(*this), result.findings);
  bool divergent = !result.findings.empty();
  if (!divergent) {
    if (!uniform && thread1->uniform_loops) useThreads(true);  // else the same threads again
    runCheck("race", RaceCheck(*this), result.findings);
  }
  runCheck("bounds", BoundsCheck(*this), result.findings);
  if (race_free_facts && std::any_of(result.findings.begin(), result.findings.end(),
                                     [](const Finding &f) { return f.kind == Verdict::Race; })) {
    result.race_free_premise_broken = true;
    enc.assumptions.push_back(
        "the divergence and bounds checks take reads of one shared element in one barrier interval "
        "to agree, which holds only without races: the race reported breaks that, so barriers and "
        "accesses that depend on the raced data are checked again only once it is fixed");
  }
  // A proof is vacuous where no thread goes under the assumptions (the user's, and the
  // side facts: no UB, no wrap-around): shown for every proof
  if (result.findings.empty() && !unknown) runStage("reachability", [&] { UnreachableCode(*this).run(); });
}

// The launch and the assumptions (--assume, KV_ASSUME) must be satisfiable together, else
// every query is vacuously unsat: an error naming the contradicting ones, never `verified`.
bool Checker::premisesHold() {
  std::vector<std::pair<std::string, z3::expr>> premises = thread1->premises;
  for (const ForallPremise &p : thread1->foralls) {  // each at its range's first index (a probe)
    z3::expr_vector from(enc.ctx), to(enc.ctx);
    for (const z3::expr &x : p.vars) from.push_back(x), to.push_back(p.lo);
    premises.emplace_back(p.label, z3::expr(p.fact).substitute(from, to));
  }
  if (premises.empty()) return true;  // the launch alone: within CUDA's limits (checked)
  z3::solver s = freshSolver(enc.ctx);
  for (const z3::expr &b : launch) s.add(b);
  z3::expr_vector lits(enc.ctx);
  std::vector<std::string> names;
  for (const auto &[name, fact] : premises) {
    z3::expr lit = enc.ctx.bool_const(("premise!" + std::to_string(names.size())).c_str());
    s.add(z3::implies(lit, fact));
    lits.push_back(lit);
    names.push_back(name);
  }
  z3::check_result r = checkWithin(s, enc.options.timeout_s, &lits);
  if (r == z3::sat) return true;
  if (r == z3::unknown) {
    result.unknown_query = "satisfiability of the launch and the assumptions";
    unknown = true;
    return false;
  }
  std::string msg = "no launch satisfies the assumptions together with the launch configuration:";
  z3::expr_vector core = s.unsat_core();
  for (unsigned i = 0; i < core.size(); ++i)
    for (unsigned j = 0; j < lits.size(); ++j)
      if (z3::eq(core[i], lits[j])) msg += " " + names[j] + (i + 1 < core.size() ? ";" : "");
  if (core.size() == 0) msg += " the launch configuration itself";
  result.premise_error = msg + " (a proof under them would be vacuous)";
  return false;
}

// The batched query's model, where it satisfies `q` (it satisfies the launch and every
// side constraint already: check() refines until it does), else a query of its own.
z3::check_result Checker::checkOrReuse(const z3::expr &q, const std::string &name,
                                       std::optional<z3::model> &m, const std::optional<z3::model> &batch,
                                       bool batched) {
  if (batch && batch->eval(q, true).is_true()) {
    m = batch;
    return z3::sat;
  }
  return check(q, name, m, 0, false, !batched);
}

}  // namespace kverify::analysis::detail
