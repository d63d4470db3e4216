// Data races: two accesses of distinct threads, one a write, unordered by barriers.
#include "analysis/checker.hpp"
#include "analysis/debug.hpp"
#include "analysis/message_passing.hpp"
#include "analysis/terms.hpp"
#include "analysis/body_walks.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace kverify::analysis::detail {

namespace {
unsigned width(const AccessEv &a) { return std::max(a.access().count, 1u); }
bool sameSort(const z3::expr &x, const z3::expr &y) { return z3::eq(x.get_sort(), y.get_sort()); }
}  // namespace

// Partial-mask __syncwarp(m) orders a (thread 1) and b (thread 2) of one warp when one
// instance of it lies between them: after a and before b in trace order (or the reverse),
// executed by both threads (the same barrier at the same iterations of its loops: the
// divergence check makes threads of a mask pass the same instances), with each thread in
// both threads' masks (__syncwarp(m) waits for the lanes in m; CUDA requires the same m).
// Trace order is program order only within the same iterations of shared loops, so an
// instance in a loop orders accesses of its own iteration, never across iterations
// (partOrdered, from the last barrier instances, orders those).
z3::expr RaceCheck::maskOrdered(const AccessEv &a, const AccessEv &b) {
  z3::expr_vector ors(checker.enc.ctx);
  z3::expr one = checker.enc.u32(1);
  auto in = [&](const z3::expr &mask, const Thread &T) {
    return (z3::lshr(mask, checker.lane(T)) & one) == one;
  };
  for (size_t i : partial_syncs_) {
    const SyncEv &s1 = checker.thread1->syncs[i], &s2 = checker.thread2->syncs[i];
    bool between = (a.seq < s1.seq && s1.seq < b.seq) || (b.seq < s1.seq && s1.seq < a.seq);
    if (!between) continue;
    z3::expr e = s1.pc && s2.pc && in(*s1.mask, *checker.thread1) && in(*s1.mask, *checker.thread2) &&
                 in(*s2.mask, *checker.thread1) && in(*s2.mask, *checker.thread2);
    for (size_t j = 0; j < s1.ks.size(); ++j) e = e && s1.ks[j] == s2.ks[j];
    ors.push_back(e);
  }
  return ors.empty() ? checker.enc.ctx.bool_val(false) : z3::mk_or(ors);
}

// Under what condition threads 1 and 2 (of one warp) are both in both threads' masks at
// every instance of static barrier `id`: true for block and full-mask barriers (and the
// entry); for a partial mask, only if each thread's mask is built from launch-invariant
// values alone (thread/block indices, dimensions, scalar parameters), so one value holds
// at all its instances; nullopt (no such guarantee) otherwise.
std::optional<z3::expr> RaceCheck::barrierLanes(int id) {
  if (id == kEntry) return checker.enc.ctx.bool_val(true);
  if (!lanes_) lanes_ = allBarrierLanes();
  auto it = lanes_->find(id);
  return it == lanes_->end() ? std::nullopt : it->second;
}

// barrierLanes of every static barrier the threads pass, in one walk over their events
// (one walk per barrier was quadratic in a kernel's barriers)
std::map<int, std::optional<z3::expr>> RaceCheck::allBarrierLanes() {
  z3::expr one = checker.enc.u32(1);
  auto in = [&](const z3::expr &mask, const Thread &T) {
    return (z3::lshr(mask, checker.lane(T)) & one) == one;
  };
  std::map<int, std::optional<z3::expr>> lanes;
  for (const Thread *T : {&*checker.thread1, &*checker.thread2})
    for (const SyncEv &s : T->syncs) {
      if (!s.s->is<st::Barrier>()) continue;
      auto bid = checker.enc.barrier_ids.find(s.s);
      if (bid == checker.enc.barrier_ids.end()) continue;
      std::optional<z3::expr> &r =
          lanes.try_emplace(bid->second, checker.enc.ctx.bool_val(true)).first->second;
      if (!s.warp || isFullMask(*s.s->as<st::Barrier>())) continue;
      if (!r || !s.mask || !launchInvariant(*s.mask, *T)) {
        r.reset();
        continue;
      }
      *r = *r && in(*s.mask, *checker.thread1) && in(*s.mask, *checker.thread2);
    }
  return lanes;
}

// Whether `e` (a value of thread T) is built from launch-invariant values alone: T's
// thread and block indices, the dimensions, scalar parameters, pointer facts. Not from a
// load, a havocked local, a loop counter (fresh constants, or functions of the iteration).
bool RaceCheck::launchInvariant(const z3::expr &e, const Thread &T) {
  std::vector<z3::expr> allowed = checker.enc.bdim;
  allowed.insert(allowed.end(), checker.enc.gdim.begin(), checker.enc.gdim.end());
  allowed.insert(allowed.end(), T.tid.begin(), T.tid.end());
  allowed.insert(allowed.end(), T.bid.begin(), T.bid.end());
  for (const auto &p : checker.enc.params) allowed.push_back(p.second);
  for (const auto &f : checker.enc.array_facts) allowed.push_back(f.second);
  std::set<unsigned> ok;
  for (const z3::expr &a : allowed) ok.insert(a.id());
  return forEachTerm({e}, [&](const z3::expr &x) {
    return x.decl().decl_kind() != Z3_OP_UNINTERPRETED || ok.count(x.id());
  });
}

// Cross-iteration ordering by the last barrier instances of any mask (kAnyPhase). Let x be the
// last instance thread 1 passed before a, y thread 2's before b, x != y, and both threads
// in both threads' masks at x's and at y's static barrier (masks invariant, so at every
// instance). The divergence check (no finding, or races are not asked) then makes thread 2
// pass x and thread 1 pass y, and the threads agree on the order of the two instances (it
// is fixed by the program: barrier and loop iterations). If y comes after x: thread 1
// passes y after a (x is its last before a), thread 2 before b: a -> y -> b. Otherwise
// thread 2 passes x after b, thread 1 before a: b -> x -> a. Either instance synchronizes
// the two threads (each in both masks). Approximate candidates and unexpanded
// loop-start placeholders order nothing.
z3::expr RaceCheck::partOrdered(const AccessEv &a, const AccessEv &b) {
  z3::expr_vector ors(checker.enc.ctx);
  for (const Cand &x : a.lb[kAnyPhase]) {
    if (!x.exact()) continue;
    std::optional<z3::expr> lx = barrierLanes(x.barrier);
    if (!lx) continue;
    for (const Cand &y : b.lb[kAnyPhase]) {
      if (!y.exact()) continue;
      std::optional<z3::expr> ly = barrierLanes(y.barrier);
      if (!ly) continue;
      z3::expr differ = checker.enc.ctx.bool_val(true);
      if (x.barrier == y.barrier) {
        if (x.ks.size() != y.ks.size()) continue;  // not comparable: no claim
        z3::expr_vector ne(checker.enc.ctx);
        for (size_t i = 0; i < x.ks.size(); ++i) ne.push_back(x.ks[i] != y.ks[i]);
        if (ne.empty()) continue;  // the same instance
        differ = z3::mk_or(ne);
      }
      ors.push_back(x.cond && y.cond && differ && *lx && *ly);
    }
  }
  return ors.empty() ? checker.enc.ctx.bool_val(false) : z3::mk_or(ors);
}

std::vector<Finding> RaceCheck::run() {
  Publications publications(checker);
  publications_ = &publications;
  findPartialSyncs();
  std::map<std::pair<unsigned, unsigned>, ArrayPairs> arrays;  // by the two arrays
  for (size_t i = 0; i < checker.thread1->accesses.size(); ++i) {
    if (kernelTimeSpent()) {  // pairing thousands of accesses: say so, never `verified`
      checker.noteUnknown("races (the kernel's time ran out while pairing its accesses)");
      return std::move(found_);
    }
    for (size_t j : phaseMates(i)) {
      const auto key = std::minmax(checker.thread1->accesses[i].access().array,
                                   checker.thread2->accesses[j].access().array);
      ArrayPairs &ap = arrays[key];
      if (ap.raced) continue;  // (one finding per array)
      std::optional<Pair> p = mayRace(i, j, publications);
      if (!p) continue;
      ap.pending.push_back(*p);
      // thousands of accesses in one phase: their pairs asked about a batch at a time, each
      // batch's terms freed before the next is built (all at once, millions of pairs
      // outgrew any memory)
      if (ap.pending.size() == kPairsPerBatch) checkArrays(key, ap);
    }
  }
  for (auto &[key, ap] : arrays) {
    if (!ap.raced && !ap.pending.empty()) checkArrays(key, ap);
    if (!ap.raced && ap.benign) found_.push_back(*ap.benign);
  }
  for (const std::string &p : publications.premises()) checker.enc.assumptions.push_back(p);
  publications_ = nullptr;
  return std::move(found_);
}

// Thread 2's accesses j >= i, in order, that may share a block or grid phase with thread
// 1's access i: samePhase matches last-barrier candidates by static barrier, so only those
// after one of i's barriers can (mayRace asks nothing of the others). Work per phase, not
// per pair of all the kernel's accesses.
std::vector<size_t> RaceCheck::phaseMates(size_t i) {
  const std::vector<AccessEv> &A2 = checker.thread2->accesses;
  if (!after_barrier_) {
    after_barrier_.emplace();
    for (size_t j = 0; j < A2.size(); ++j)
      for (PhaseKind k : {kBlockPhase, kGridPhase})
        for (const Cand &c : A2[j].lb[k]) {
          std::vector<size_t> &js = (*after_barrier_)[c.barrier];
          if (js.empty() || js.back() != j) js.push_back(j);
        }
  }
  const AccessEv &a = checker.thread1->accesses[i];
  const std::vector<model::Array> &arrays = checker.enc.kernel.arrays;
  bool global = a.access().array < arrays.size() && arrays[a.access().array].space == AddressSpace::Global;
  std::vector<size_t> out;
  for (PhaseKind k : {kBlockPhase, kGridPhase}) {
    if (k == kGridPhase && !global) continue;  // (mayRace asks the grid phase of global memory only)
    for (const Cand &c : a.lb[k]) {
      auto it = after_barrier_->find(c.barrier);
      if (it == after_barrier_->end()) continue;
      out.insert(out.end(), std::lower_bound(it->second.begin(), it->second.end(), i), it->second.end());
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The partial-mask __syncwarp events both threads pass at the same position (maskOrdered);
// full-mask and block barriers: the phases (kWarpPhase, kBlockPhase) order those.
void RaceCheck::findPartialSyncs() {
  partial_syncs_.clear();
  for (size_t i = 0; i < checker.thread1->syncs.size() && i < checker.thread2->syncs.size(); ++i) {
    const SyncEv &s1 = checker.thread1->syncs[i], &s2 = checker.thread2->syncs[i];
    if (s1.s == s2.s && s1.warp && s1.mask && s2.mask && s1.s->is<st::Barrier>() &&
        !isFullMask(*s1.s->as<st::Barrier>()))
      partial_syncs_.push_back(i);
  }
}

// Access i of thread 1 and access j of thread 2 as a pair that may race: both touch one
// array (or two that may alias), one writes, not both atomic (in one scope), and some
// barrier interval holds both; none where they cannot.
std::optional<RaceCheck::Pair> RaceCheck::mayRace(size_t i, size_t j, Publications &publications) {
  const AccessEv &a = checker.thread1->accesses[i], &b = checker.thread2->accesses[j];
  const st::Access &sa = a.access(), &sb = b.access();
  if (sa.array >= checker.enc.kernel.arrays.size() || sb.array >= checker.enc.kernel.arrays.size())
    return std::nullopt;
  const model::Array &arr = checker.enc.kernel.arrays[sa.array];
  if (arr.space != AddressSpace::Shared && arr.space != AddressSpace::Global) return std::nullopt;
  if (sa.array != sb.array && !mayAlias(arr, checker.enc.kernel.arrays[sb.array])) return std::nullopt;
  bool wa = sa.kind != AccessKind::Read, wb = sb.kind != AccessKind::Read;
  if (!wa && !wb) return std::nullopt;
  // two atomics are atomic among the threads of their scope: a block-scoped one
  // (atomicAdd_block) is not atomic for another block's threads
  bool atomics = sa.kind == AccessKind::Atomic && sb.kind == AccessKind::Atomic;
  bool blockScoped = sa.scope == model::Scope::Block || sb.scope == model::Scope::Block;
  if (atomics && !blockScoped) return std::nullopt;
  // accesses no barrier interval holds both (different barriers before them) never race
  z3::expr blockPhase = samePhase(checker.enc.ctx, a.lb[kBlockPhase], b.lb[kBlockPhase]);
  z3::expr gridPhase = arr.space == AddressSpace::Global
                           ? samePhase(checker.enc.ctx, a.lb[kGridPhase], b.lb[kGridPhase])
                           : checker.enc.ctx.bool_val(false);
  if (blockPhase.is_false() && gridPhase.is_false()) return std::nullopt;
  z3::expr both = a.pc && b.pc && overlap(a, b);
  z3::expr warpOrdered =
      checker.sameWarp() && (!samePhase(checker.enc.ctx, a.lb[kWarpPhase], b.lb[kWarpPhase]) ||
                             maskOrdered(a, b) || partOrdered(a, b));
  z3::expr intra = atomics ? checker.enc.ctx.bool_val(false)
                           : checker.sameBlock() && checker.distinctThreads() && blockPhase && !warpOrdered;
  z3::expr inter =
      arr.space == AddressSpace::Global ? !checker.sameBlock() && gridPhase : checker.enc.ctx.bool_val(false);
  // a read of data published to it through a flag comes after the write
  if (sa.array == sb.array && sa.kind != sb.kind && sa.kind != AccessKind::Atomic &&
      sb.kind != AccessKind::Atomic) {
    z3::expr after = sa.kind == AccessKind::Read ? publications.readAfterAcquire(*checker.thread1, a)
                                                 : publications.readAfterAcquire(*checker.thread2, b);
    if (!after.is_false())
      intra = intra && !after, inter = inter && !after, checker.enc.rules.note(Rule::MessagePassing);
  }
  return Pair{i, j, both, intra, inter};
}

// The races on one array (or two that may alias) among its pending pairs: the first pair
// that races is its finding (`raced`); else its first benign race is kept (`benign`), shown
// unless a later batch of its pairs holds a real race.
void RaceCheck::checkArrays(const std::pair<unsigned, unsigned> &arrays, ArrayPairs &ap) {
  std::vector<Pair> ps = std::move(ap.pending);
  ap.pending.clear();
  current_ = &ap;
  const auto &A1 = checker.thread1->accesses, &A2 = checker.thread2->accesses;
  const model::Array &arr = checker.enc.kernel.arrays[arrays.first];
  bool global = arr.space == AddressSpace::Global;
  std::optional<z3::model> m;
  if (ps.size() > 1) {
    // Most arrays are race-free: one query over all pairs at once is far cheaper than
    // one per pair (Z3 shares the threads' index terms). Only if it is not unsat, ask
    // pair by pair, for the witness.
    z3::expr_vector any(checker.enc.ctx);
    for (const Pair &p : ps) {
      any.push_back(p.both && p.intra);
      if (global) any.push_back(p.both && p.inter);
    }
    std::string qname =
        "races on '" + arr.name + "'" +
        (arrays.first != arrays.second ? " and '" + checker.enc.kernel.arrays[arrays.second].name + "'"
                                       : "") +
        " (all pairs at once)";
    z3::check_result r = checker.checkBatch(z3::mk_or(any), qname, m);
    if (r == z3::unsat) return;
    if (r != z3::sat) m.reset();  // a model that broke an assumption: no witness
  }
  // one finding per array: the pair the batched model shows racing first (it costs no
  // query), then the others in source order
  std::stable_partition(ps.begin(), ps.end(), [&](const Pair &p) {
    return m && m->eval(p.both && (p.intra || p.inter), true).is_true();
  });
  for (const Pair &p : ps)
    if ((ap.raced = racePair(A1[p.i], A2[p.j], p.both, p.intra, p.inter, m, ps.size() > 1))) break;
}

// The elements a (thread 1) and b (thread 2) touch overlap: the same array and indices,
// or (arrays that may alias) the same bytes.
z3::expr RaceCheck::overlap(const AccessEv &a, const AccessEv &b) {
  const st::Access &sa = a.access(), &sb = b.access();
  uint64_t na = sa.count ? sa.count : 1, nb = sb.count ? sb.count : 1;
  auto v = [&](uint64_t x) { return checker.enc.ctx.bv_val(x, 64); };
  if (sa.array == sb.array) {
    if (na == 1 && nb == 1) return a.index == b.index;
    return z3::sle(a.index, b.index + v(nb - 1)) && z3::sle(b.index, a.index + v(na - 1));
  }
  const model::Array &xa = checker.enc.kernel.arrays[sa.array], &xb = checker.enc.kernel.arrays[sb.array];
  // b's first byte minus a's, modulo 2^64: overlap iff it lies in (-len b, len a)
  z3::expr d = (base(xb) + b.index * v(xb.elem_size)) - (base(xa) + a.index * v(xa.elem_size));
  return z3::sge(d, v(1 - nb * xb.elem_size)) && z3::sle(d, v(na * xa.elem_size - 1));
}

// One pair's race queries, and its finding; true when it has one.
bool RaceCheck::racePair(const AccessEv &a, const AccessEv &b, const z3::expr &both, const z3::expr &intra,
                         const z3::expr &inter, const std::optional<z3::model> &batch, bool batched) {
  const model::Array &arr = checker.enc.kernel.arrays[a.access().array];
  std::string qname = "race on '" + arr.name + "' between " + loc(a.s->range) + " and " + loc(b.s->range);
  std::optional<z3::model> m;
  z3::expr used = both && intra;
  if (checker.checkOrReuse(used, qname, m, batch, batched) != z3::sat) {
    if (arr.space != AddressSpace::Global) return false;
    used = both && inter;
    if (checker.checkOrReuse(used, qname + " (across blocks)", m, batch, batched) != z3::sat) return false;
  }
  // benign: why the race does no harm (empty: it is a real one)
  std::string benign;
  bool ownValue = false;
  if (sameValueWritten(a, b, both && (intra || inter), qname, m, used))
    benign = "both threads write the same value";
  else if ((ownValue = readsOwnValue(a, b, both && (intra || inter), qname, m, used)))
    benign = "the reading thread wrote that same value there first";
  if (!benign.empty() &&
      current_->benign) {  // the array's benign race to show is found: this pair is no real one
    checker.enc.rules.note(ownValue ? Rule::BenignOwnValue : Rule::BenignSameValue);
    return false;
  }
  std::vector<z3::expr> counters;
  for (const auto *loops : {&a.loops, &b.loops})
    for (const LoopRef &l : *loops) counters.push_back(l.k);
  checker.simplest(used, m, counters);
  // the simplest witness is in one warp: is the race warp-synchronous only (then
  // __syncwarp() is the fix), or does it happen across warps too? Only a proof counts
  // (undecided: not called warp-only), and it only words the finding: 0.15 s, without
  // the small launches (they only find models). The fixtures' and the corpus's proofs
  // take at most 80 ms; their models across warps took up to 3.5 s.
  bool warpOnly = false;
  if (benign.empty() && num(*m, checker.sameBlock() && checker.sameWarp())) {
    std::optional<z3::model> m2;
    warpOnly = checker.check(used && !checker.sameWarp(), qname + " (across warps)", m2, 0.15, true, false) ==
               z3::unsat;
  }
  Finding f = raceFinding(a, b, *m, benign, warpOnly);
  if (warpOnly && sameInstance(a, b, *m))  // no "between" to put a __syncwarp() in
    f.explanation =
        "two threads of one warp execute this statement on one element at once: no "
        "__syncwarp() can order them; let one thread write it, or give each thread its own element";
  if (ownValue)
    f.explanation += std::string(f.explanation.empty() ? "" : "; ") +
                     "the reading thread stored the value the other thread writes to this element earlier in "
                     "the same barrier interval, so the read returns it whichever write comes last";
  f.witness.validated = raceWitnessHolds(a, b, *m, used);
  if (!f.witness.validated) {
    checker.notValidated(qname);
    return false;
  }
  if (!benign.empty()) {  // kept unless a real race on the array turns up
    checker.enc.rules.note(ownValue ? Rule::BenignOwnValue : Rule::BenignSameValue);
    if (!current_->benign) current_->benign = f;
    return false;
  }
  found_.push_back(f);
  return true;
}

// `q`, a question about the race `race` (a model of `racing`) found: first with racing's
// constants (the launch, the threads, the indices) at their values there, where the values
// the threads write are usually still free (these questions over the fixtures and the
// corpus: 16.8 -> 1.9 s). Sat there is sat; anything else asks `q` itself.
z3::check_result RaceCheck::checkNearRace(const z3::expr &q, const z3::expr &racing,
                                          const std::optional<z3::model> &race, const std::string &name,
                                          std::optional<z3::model> &m) {
  if (race) {
    std::set<unsigned> seen;
    std::vector<z3::expr> constants;
    bvConstants({racing}, seen, constants);
    z3::expr_vector at(checker.enc.ctx);
    for (const z3::expr &x : constants)
      if (z3::expr v = race->eval(x, false); v.is_numeral()) at.push_back(x == v);
    if (!at.empty() &&
        checker.check(q && z3::mk_and(at), name + ", at the race's values", m, 0.3, true, false) == z3::sat)
      return z3::sat;
  }
  return checker.check(q, name, m);
}

// Two racing writes that provably store the same value at the same location (the same
// bytes: the same first unit and width of one array, or, for arrays that may alias, the
// same first byte and length), over every way the two may race (`racing`: in one block,
// or in two; the race found first may store one value where another does not): a benign
// race (a warning). Writes of different fields, or partly overlapping ones, are no such
// race. Where they may differ, `m` and `used` become that race.
bool RaceCheck::sameValueWritten(const AccessEv &a, const AccessEv &b, const z3::expr &racing,
                                 const std::string &qname, std::optional<z3::model> &m, z3::expr &used) {
  if (!a.stored || !b.stored || !sameSort(*a.stored, *b.stored)) return false;
  const st::Access &sa = a.access(), &sb = b.access();
  const model::Array &xa = checker.enc.kernel.arrays[sa.array], &xb = checker.enc.kernel.arrays[sb.array];
  if (uint64_t(width(a)) * xa.elem_size != uint64_t(width(b)) * xb.elem_size) return false;
  auto v = [&](uint64_t x) { return checker.enc.ctx.bv_val(x, 64); };
  z3::expr sameStart = sa.array == sb.array
                           ? a.index == b.index
                           : base(xa) + a.index * v(xa.elem_size) == base(xb) + b.index * v(xb.elem_size);
  std::optional<z3::model> m3;
  z3::expr differ = racing && (*a.stored != *b.stored || !sameStart);
  z3::check_result r3 = checkNearRace(differ, racing, m, qname + " (different values)", m3);
  if (r3 == z3::sat) m = m3, used = differ;
  return r3 == z3::unsat;
}

// A read racing another thread's write of a value, where the reading thread wrote that
// same value to the same location (first unit and width) earlier in the same interval (GPUVerify's `p = A; ... = p;`):
// over every way the two may race (`racing`), one of the reader's earlier writes applies.
// Sound for the kernel's verdict: the read returns the reader's last write to the element
// before it (no barrier of any kind between them: the same phases as the read, so it races
// with every write the read races with) or another thread's racing write. A racing write of
// another value races with that last write, a write/write race of two values, which is
// reported as a race. So only a read whose value does not depend on the interleaving loses
// its race. This holds within a block and across blocks (global memory: the grid phase
// is the same too). Where no earlier write may apply, `m` and `used` become that race.
bool RaceCheck::readsOwnValue(const AccessEv &a, const AccessEv &b, const z3::expr &racing,
                              const std::string &qname, std::optional<z3::model> &m, z3::expr &used) {
  const bool aReads = a.access().kind == AccessKind::Read;
  const AccessEv &r = aReads ? a : b, &w = aReads ? b : a;
  if (r.access().kind != AccessKind::Read || w.access().kind != AccessKind::Write || !w.stored ||
      r.access().array != w.access().array || width(r) != width(w))
    return false;
  z3::expr_vector firsts(checker.enc.ctx);
  for (const AccessEv &x : (aReads ? *checker.thread1 : *checker.thread2).accesses) {
    if (x.seq >= r.seq || x.access().kind != AccessKind::Write || x.access().array != r.access().array ||
        width(x) != width(r) || !x.stored || !sameSort(*x.stored, *w.stored))
      continue;
    firsts.push_back(x.pc && x.index == r.index && surelySamePhases(x, r) && sameOuterIterations(x, r) &&
                     *x.stored == *w.stored);
  }
  if (firsts.empty()) return false;
  std::optional<z3::model> m3;
  // (the read and the racing write at one location: a write of part of it is no such case)
  z3::expr unexplained = racing && (r.index != w.index || !z3::mk_or(firsts));
  z3::check_result r3 = checkNearRace(unexplained, racing, m, qname + " (no same value written first)", m3);
  if (r3 == z3::sat) m = m3, used = unexplained;
  return r3 == z3::unsat;
}

// Two events of one thread surely after the same barrier instance, of every kind: no
// barrier between them. Approximate candidates and loop-start placeholders,
// which samePhase lets match more, match nothing here.
z3::expr RaceCheck::surelySamePhases(const AccessEv &x, const AccessEv &y) {
  z3::expr all = checker.enc.ctx.bool_val(true);
  for (int kind = 0; kind < kPhaseKinds; ++kind) {
    z3::expr_vector ors(checker.enc.ctx);
    for (const Cand &p : x.lb[kind])
      for (const Cand &q : y.lb[kind]) {
        if (!p.exact() || !q.exact() || p.barrier != q.barrier || p.ks.size() != q.ks.size()) continue;
        z3::expr e = p.cond && q.cond;
        for (size_t i = 0; i < p.ks.size(); ++i) e = e && p.ks[i] == q.ks[i];
        ors.push_back(e);
      }
    all = all && (ors.empty() ? checker.enc.ctx.bool_val(false) : z3::mk_or(ors));
  }
  return all;
}

// Two events of one thread at the same iterations of the loops both are in, where trace
// order (seq) is program order.
z3::expr RaceCheck::sameOuterIterations(const AccessEv &x, const AccessEv &y) {
  z3::expr same = checker.enc.ctx.bool_val(true);
  for (size_t i = 0; i < x.loops.size() && i < y.loops.size() && x.loops[i].label == y.loops[i].label; ++i)
    same = same && x.loops[i].k == y.loops[i].k;
  return same;
}

// a (thread 1) and b (thread 2) are one statement at the same iterations of its loops, at m.
bool RaceCheck::sameInstance(const AccessEv &a, const AccessEv &b, const z3::model &m) {
  if (a.s != b.s || a.loops.size() != b.loops.size()) return false;
  for (size_t i = 0; i < a.loops.size(); ++i)
    if (num(m, a.loops[i].k) != num(m, b.loops[i].k)) return false;
  return true;
}

// The finding for a race of a (thread 1) and b (thread 2) at model m; `benign` says why
// the race is harmless (empty for a real race).
Finding RaceCheck::raceFinding(const AccessEv &a, const AccessEv &b, const z3::model &m,
                               const std::string &benign, bool warpOnly) {
  const st::Access &sa = a.access(), &sb = b.access();
  const model::Array &arr = checker.enc.kernel.arrays[sa.array], &arr2 = checker.enc.kernel.arrays[sb.array];
  bool aliased = sa.array != sb.array;
  Finding f;
  f.kind = benign.empty() ? Verdict::Race : Verdict::BenignRace;
  f.array = arr.name;
  f.space = model::addressSpaceName(arr.space);
  f.message = std::string(benign.empty() ? "" : "benign ") + "data race on '" + arr.name + "'" +
              (aliased ? " and '" + arr2.name + "'" : "") + " (" + model::accessKindName(sa.kind) + "/" +
              model::accessKindName(sb.kind) + ")" + (benign.empty() ? "" : ": " + benign);
  if (warpOnly)
    f.explanation =
        "the colliding threads are in the same warp and no __syncwarp() orders them: "
        "warp-synchronous code is a race on sm_70+ (independent thread scheduling); "
        "add __syncwarp() between the accesses";
  else if (!num(m, checker.sameBlock()))
    f.explanation = "the threads are in different blocks: barriers do not order them";
  if (arr.by_bytes) {
    if (!f.explanation.empty()) f.explanation += "; ";
    f.explanation += "'" + arr.name + "' holds '" + arr.elem_c_type +
                     "' values and is indexed in bytes: the index is a byte offset";
  }
  if (aliased) {
    int64_t ia = static_cast<int64_t>(num(m, a.index)), ib = static_cast<int64_t>(num(m, b.index));
    int64_t gap = static_cast<int64_t>(num(m, base(arr2)) - num(m, base(arr)));
    if (!f.explanation.empty()) f.explanation += "; ";
    f.explanation += "without the no-alias assumption: if '" + arr2.name + "' starts " +
                     std::to_string(gap < 0 ? -gap : gap) + " bytes " + (gap < 0 ? "before" : "after") +
                     " '" + arr.name + "', " + arr.name + "[" + std::to_string(ia) + "] and " + arr2.name +
                     "[" + std::to_string(ib) + "] overlap";
  }
  if (publications_ && !aliased && (sa.kind == AccessKind::Read) != (sb.kind == AccessKind::Read)) {
    const bool a_reads = sa.kind == AccessKind::Read;
    if (std::optional<std::string> flag =
            publications_->unzeroedFlag(a_reads ? *checker.thread1 : *checker.thread2, a_reads ? a : b)) {
      if (!f.explanation.empty()) f.explanation += "; ";
      f.explanation += "the read follows an acquire of '" + *flag + "': if the launcher zeroes '" + *flag +
                       "', say so with --zero-init=" + *flag +
                       " and the flag orders the write before the read";
    }
  }
  f.accesses.push_back(refOf(*a.s, checker.enc.kernel));
  f.accesses.push_back(refOf(*b.s, checker.enc.kernel));
  f.witness = checker.witness(m, {&a.loops, &b.loops}, {1, 2}, a.index, true);
  return f;
}

// The race re-checked at the model by evaluating the encoding's expressions: both
// accesses execute, their elements (or bytes) overlap, two distinct threads of the
// launch, every side fact holds.
bool RaceCheck::raceWitnessHolds(const AccessEv &a, const AccessEv &b, const z3::model &m,
                                 const z3::expr &used) {
  const st::Access &sa = a.access(), &sb = b.access();
  const model::Array &arr = checker.enc.kernel.arrays[sa.array], &arr2 = checker.enc.kernel.arrays[sb.array];
  bool ok = m.eval(used, true).is_true() && m.eval(a.pc, true).is_true() && m.eval(b.pc, true).is_true();
  uint64_t va = num(m, a.index), vb = num(m, b.index);
  int64_t ia = static_cast<int64_t>(va), ib = static_cast<int64_t>(vb);
  int64_t na = sa.count ? sa.count : 1, nb = sb.count ? sb.count : 1;
  if (sa.array != sb.array) {  // the same check in bytes, from the bases the model chose
    int64_t d = static_cast<int64_t>((num(m, base(arr2)) + vb * arr2.elem_size) -
                                     (num(m, base(arr)) + va * arr.elem_size));
    ok = ok && d > -nb * int64_t(arr2.elem_size) && d < na * int64_t(arr.elem_size);
  } else {
    ok = ok && ia <= ib + nb - 1 && ib <= ia + na - 1;
  }
  Witness w = checker.witness(m, {}, {}, a.index, true);
  ok = ok && (w.thread1.thread_idx != w.thread2.thread_idx || w.thread1.block_idx != w.thread2.block_idx);
  for (int d = 0; d < 3; ++d)
    ok = ok && w.thread1.thread_idx[d] < w.block_dim[d] && w.thread2.thread_idx[d] < w.block_dim[d] &&
         w.thread1.block_idx[d] < w.grid_dim[d] && w.thread2.block_idx[d] < w.grid_dim[d];
  ok = ok && satisfiesAll(m, checker.thread1->side) && satisfiesAll(m, checker.thread2->side);
  if (!ok && debugOptions().queries) {
    std::fprintf(stderr, "[kverify] validation failed: used=%d pcs=%d/%d idx=%lld/%lld\n",
                 (int)m.eval(used, true).is_true(), (int)m.eval(a.pc, true).is_true(),
                 (int)m.eval(b.pc, true).is_true(), (long long)ia, (long long)ib);
    for (auto &sd : checker.thread1->side)
      if (!m.eval(sd, true).is_true()) std::fprintf(stderr, "  side1: %s\n", sd.to_string().c_str());
  }
  return ok;
}

}  // namespace kverify::analysis::detail
