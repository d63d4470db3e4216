// Statements of one thread: accesses, barriers, branches, jumps, inlined calls.
#include "analysis/exec.hpp"
#include "analysis/body_walks.hpp"
#include "analysis/solve.hpp"

#include <algorithm>

namespace kverify::analysis::detail {

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
  thread.syncs.push_back(SyncEv{&s, pc, std::move(ks), warp, std::move(mask), thread.next_seq++,
                                guard ? *guard : enc.ctx.bool_val(true), frames()});
}

void Exec::run(const Kernel &k) {
  pc_ = enc.ctx.bool_val(true);
  lb.fill({Cand{enc.ctx.bool_val(true), kEntry, {}}});
  rets.push_back(std::nullopt);
  ret_jumps.emplace_back();
  ret_loop_depth.push_back(0);
  block(k.body);
}

void Exec::block(const model::Body &body) {
  for (const Stmt &s : body) stmt(s);
}

void Exec::stmt(const Stmt &s) {
  if (kernelTimeSpent()) throw KernelTimeSpent{};
  const Stmt *outer = cur_;
  cur_ = &s;
  std::visit(model::Overloaded{
                 [&](const st::Access &) { access(s); },
                 [&](const st::Barrier &) { barrier(s); },
                 [&](const st::Fence &) { fence(s); },
                 [&](const st::If &) { branch(s); },
                 [&](const st::Loop &) { loop(s); },
                 [&](const st::Assign &) { assign(s); },
                 [&](const st::Assume &a) {
                   if (!a.forall.empty()) return assumeForall(s, a);
                   thread.side.push_back(z3::implies(pc(), boolOf(*a.cond)));
                   thread.label("the assumption at " + loc(s.range));
                   if (loops.empty())
                     thread.premises.emplace_back("the assumption at " + loc(s.range), thread.side.back());
                 },
                 [&](const st::Return &) { ret(s); },
                 [&](const st::Break &) { jump(s); },
                 [&](const st::Continue &) { jump(s); },
                 [&](const st::Inlined &) { inlined(s); },
             },
             s.node);
  cur_ = outer;
}

// An access or barrier no thread executes whatever the launch, the parameters and the
// memory hold: under a condition that folds to a constant, or after a return or jump.
void Exec::noteDead(const Stmt &s) {
  if (dead_)
    thread.constant_dead.emplace(&s, *dead_);
  else if (pc().is_false())
    thread.constant_dead.emplace(&s, "it follows a return, break or continue");
}

void Exec::access(const Stmt &s) {
  z3::context &c = enc.ctx;
  const st::Access &a = *s.as<st::Access>();
  z3::expr idx = a.index ? eval(*a.index) : c.bv_val(0, 64);
  if (idx.is_bool()) idx = z3::ite(idx, c.bv_val(1, 64), c.bv_val(0, 64));
  bool sg = a.index ? a.index->type.is_signed : true;
  idx = resize(idx, 64, sg);
  noteDead(s);
  thread.accesses.push_back(
      AccessEv{&s, pc(), idx, lb, loopRefs(), thread.next_seq++, std::nullopt, std::nullopt});
  AccessEv &ev = thread.accesses.back();
  if (a.kind == AccessKind::Write && a.value) ev.stored = eval(*a.value);
  if (a.kind == AccessKind::Atomic) {
    last_atomic_[a.id] = thread.accesses.size() - 1;
    if (a.value && (a.atomic == model::AtomicOp::Store || a.atomic == model::AtomicOp::Exch))
      ev.written = eval(*a.value);
    z3::expr order = a.order ? eval(*a.order).simplify() : c.bv_val(0, 32);
    if (order.is_numeral() && order.get_numeral_uint64() <= uint64_t(model::MemoryOrder::SeqCst))
      ev.order = static_cast<model::MemoryOrder>(order.get_numeral_uint64());
  }
  // a read's location: its array, first unit and width (the rules on loaded values
  // compare all three)
  if (a.kind == AccessKind::Read)
    read_at_.insert_or_assign(a.id, ReadAt{a.array, std::max(a.count, 1u), idx});
  if (a.kind == AccessKind::Read && a.array < enc.kernel.arrays.size() &&
      enc.kernel.arrays[a.array].space == AddressSpace::Shared)
    last_read_[a.id] = thread.accesses.size() - 1;
  if (a.kind == AccessKind::Read && a.array < enc.kernel.arrays.size() &&
      enc.kernel.arrays[a.array].origin == model::ArrayOrigin::Param && !enc.kernel.arrays[a.array].by_bytes)
    last_param_read_[a.id] = thread.accesses.size() - 1;
  if (a.kind == AccessKind::Atomic && enc.ticket_arrays.count(a.array))
    last_ticket_[a.id] = thread.accesses.size() - 1;
}

std::vector<LoopRef> Exec::loopRefs() const {
  std::vector<LoopRef> ls;
  for (const LoopCtx &l : loops)
    if (!l.once) ls.push_back(LoopRef{l.label, l.k});
  return ls;
}

void Exec::fence(const Stmt &s) {
  thread.fences.push_back(FenceEv{thread.next_seq++, pc(), loopRefs(), s.as<st::Fence>()->scope, &s});
}

void Exec::barrier(const Stmt &s) {
  const st::Barrier &b = *s.as<st::Barrier>();
  bool warp = b.kind == model::BarrierKind::Warp;
  std::optional<z3::expr> mask;
  if (warp && b.mask) mask = resize(eval(*b.mask), 32, false);
  if (b.predicate) eval(*b.predicate);
  noteDead(s);
  sync(s, pc(), warp, mask);
  int id = enc.barrierId(&s);
  const bool ends[kPhaseKinds] = {!warp, !warp || isFullMask(b), true, b.kind == model::BarrierKind::Grid};
  for (int p = 0; p < kPhaseKinds; ++p)
    if (ends[p]) lb[p] = {Cand{enc.ctx.bool_val(true), id, phaseKs(p)}};
}

void Exec::branch(const Stmt &s) {
  const st::If &i = *s.as<st::If>();
  z3::expr cond = boolOf(*i.cond);
  z3::expr pc0 = pc();
  Phases lb0 = lb;
  auto env0 = env;
  // a condition constant by construction (if (false), a template constant, unsigned < 0)
  const std::optional<std::string> dead0 = dead_;
  z3::expr folded = cond.simplify();
  pc_ = pc0 && cond;
  if (!dead_ && folded.is_false()) dead_ = "the condition at " + loc(s.range) + " is always false";
  block(i.then_body);
  dead_ = dead0;
  z3::expr pcT = pc();
  Phases lbT = lb;
  auto envT = env;
  env = env0;
  lb = lb0;
  pc_ = pc0 && !cond;
  if (!dead_ && folded.is_true()) dead_ = "the condition at " + loc(s.range) + " is always true";
  block(i.else_body);
  dead_ = dead0;
  pc_ = hasJump(i.then_body) || hasJump(i.else_body) ? (pcT || pc()) : pc0;
  mergeEnv(cond, envT);
  BarrierInfo bi;
  scanBarriers(i.then_body, bi);
  scanBarriers(i.else_body, bi);
  for (int p = 0; p < kPhaseKinds; ++p)
    if (bi.ends(p)) lb[p] = mergeLB(lbT[p], lb[p], cond);
}

void Exec::assign(const Stmt &s) {
  z3::context &c = enc.ctx;
  const st::Assign &a = *s.as<st::Assign>();
  if (!a.value) {
    env.insert_or_assign(a.local.id, fresh(a.local.type, a.local.name));
    return;
  }
  z3::expr v = eval(*a.value);
  const Type &lt = a.local.type;
  if (lt.kind == Type::Kind::Int) {
    if (v.is_bool())
      v = z3::ite(v, c.bv_val(1, lt.bits), c.bv_val(0, lt.bits));
    else
      v = resize(v, lt.bits, a.value->type.is_signed);
  } else if (lt.kind == Type::Kind::Bool) {
    if (!v.is_bool()) v = v != c.bv_val(0, v.get_sort().bv_size());
  }
  env.insert_or_assign(a.local.id, v);
}

// A return leaves only its inlined region: the loops around the call go on.
void Exec::ret(const Stmt &s) {
  for (size_t i = ret_loop_depth.back(); i < loops.size(); ++i)
    if (const LoopCtx &l = loops[i]; l.bi.part) {
      sync(s, pc(), !l.bi.block);
      break;
    }
  rets.back() = orOpt(rets.back(), pc());
  ret_jumps.back().push_back(Jump{pc(), env, lb});
  pc_ = enc.ctx.bool_val(false);
}

void Exec::jump(const Stmt &s) {
  if (loops.empty()) return;
  LoopCtx &l = loops.back();
  if (l.once || s.is<st::Continue>()) {
    l.jumps.push_back(Jump{pc(), env, lb});
  } else {
    if (l.bi.part) sync(s, pc(), !l.bi.block);
    l.brks.push_back(Jump{pc(), env, lb});
  }
  pc_ = enc.ctx.bool_val(false);
}

void Exec::rejoin(const Jump &j) {
  pc_ = pc() || j.pc;
  mergeEnv(j.pc, j.env);
  for (int p = 0; p < kPhaseKinds; ++p)
    if (!sameLB(j.lb[p], lb[p])) lb[p] = compactLB(mergeLB(j.lb[p], lb[p], j.pc));
}

void Exec::inlined(const Stmt &s) {
  rets.push_back(std::nullopt);
  ret_jumps.emplace_back();
  ret_loop_depth.push_back(loops.size());
  block(s.as<st::Inlined>()->body);
  for (const Jump &r : ret_jumps.back()) rejoin(r);
  ret_jumps.pop_back();
  rets.pop_back();
  ret_loop_depth.pop_back();
}

// The last-barrier candidates of one access and the trip facts stay within bounds that
// hand-written kernels stay far below (five barrier loops deep: under 1,000 candidates,
// 121 facts); past them the next level would take minutes and gigabytes.
void Exec::boundBarrierState(const LoopRun &L) {
  if (kernelTimeSpent()) throw KernelTimeSpent{};  // (a loop's rewrites past the budget)
  constexpr size_t kMaxCandidates = 4096, kMaxTripFacts = 4096;
  size_t candidates = 0;
  for (int p = 0; p < kPhaseKinds; ++p) {
    candidates = std::max(candidates, lb[p].size());
    for (size_t i = L.firstAccess; i < thread.accesses.size(); ++i)
      candidates = std::max(candidates, thread.accesses[i].lb[p].size());
  }
  auto tooMany = [&](size_t n, const char *what, size_t most) {
    if (n > most)
      throw BarrierStateTooLarge{"barrier loops nested too deep in this loop: " + std::to_string(n) + " " +
                                     what + " (at most " + std::to_string(most) + " are modelled)",
                                 L.s.range};
  };
  tooMany(candidates, "candidates for the last barrier of one access", kMaxCandidates);
  tooMany(tripFacts.size(), "trip-count facts of inner barrier loops", kMaxTripFacts);
}

}  // namespace kverify::analysis::detail
