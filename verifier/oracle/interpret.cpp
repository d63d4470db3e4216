// The oracle's interpreter: one thread of the kernel model, run to its end, statement by
// statement, leaving a trace of its accesses and barriers (the thread, its values and
// what it assumes: interpret.hpp; its expressions: interpret_expr.cpp; the memory the
// threads share: interpret_memory.cpp).
#include "oracle/interpret.hpp"
#include "model/walk.hpp"

#include <algorithm>

namespace kverify::oracle::detail {

void Thread::runBody() {
  Flow f = execBlock(kernel_.body);
  (void)f;  // Return at top level ends the thread; Break/Continue outside loops: ignore
}

void Thread::step(const Stmt &s) {
  if (++steps_ > launch_.max_steps)
    stop(Result::Status::StepLimit, "more than " + std::to_string(launch_.max_steps) + " steps", &s.range);
}

void Thread::record(const Stmt &s, int64_t index, uint32_t mask) {
  Event ev;
  ev.stmt = &s;
  ev.index = index;
  ev.mask = mask;
  ev.iter_begin = static_cast<uint32_t>(trace_.iterations.size());
  trace_.iterations.insert(trace_.iterations.end(), loops_.begin(), loops_.end());
  ev.iter_end = static_cast<uint32_t>(trace_.iterations.size());
  trace_.events.push_back(ev);
}

Flow Thread::execBlock(const model::Body &body) {
  for (const Stmt &s : body) {
    Flow f = exec(s);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

Flow Thread::exec(const Stmt &s) {
  step(s);
  current_ = &s.range;
  return std::visit(
      model::Overloaded{
          [&](const st::Access &a) { return access(s, a); },
          [&](const st::Barrier &b) { return barrier(s, b); },
          [&](const st::Fence &f) { return fence(f); },
          [&](const st::If &i) { return execBlock(truth(*i.cond) ? i.then_body : i.else_body); },
          [&](const st::Loop &l) { return loop(s, l); },
          [&](const st::Assign &a) { return assign(a); },
          [&](const st::Assume &a) {
            if (!a.forall.empty()) return assumeForall(s, a);
            if (a.cond && !truth(*a.cond))
              stop(Result::Status::Assumption, "assumption " + model::toString(a.cond) + " is false",
                   &s.range);
            return Flow::Normal;
          },
          [&](const st::Return &) { return Flow::Return; },
          [&](const st::Break &) { return Flow::Break; },
          [&](const st::Continue &) { return Flow::Continue; },
          [&](const st::Inlined &c) {
            Flow f = execBlock(c.body);
            return f == Flow::Return ? Flow::Normal : f;
          },
      },
      s.node);
}

// KV_ASSUME_FORALL: the condition at every index of the range (as the analysis, only
// where it reads arrays nothing writes; an index where it has undefined behaviour
// asserts nothing). A range too large to go through ends the run unchecked.
Flow Thread::assumeForall(const Stmt &s, const st::Assume &a) {
  bool used = true;
  model::forEachNode(*a.cond, [&](const Expr &x) {
    if (const auto *m = x.as<ex::Element>()) used = used && fixedContents(m->array);
  });
  if (!used) return Flow::Normal;
  const int64_t lo = static_cast<int64_t>(eval(*a.lo).i), hi = static_cast<int64_t>(eval(*a.hi).i);
  const uint64_t n = hi > lo ? uint64_t(hi) - uint64_t(lo) : 0;
  if (n > (a.forall.size() == 1 ? 65536u : 256u))
    stop(Result::Status::Assumption, "assumption over " + std::to_string(n) + " indices, too many to check",
         &s.range);
  std::vector<int64_t> at(a.forall.size(), lo);
  for (bool more = n > 0; more;) {
    for (size_t v = 0; v < at.size(); ++v) locals_[a.forall[v].id] = intValue(Type::i64(), uint64_t(at[v]));
    bool holds = true;
    try {
      holds = truth(*a.cond);
    } catch (const Stop &stopped) {
      if (stopped.status != Result::Status::Ub) throw;
    }
    if (!holds)
      stop(Result::Status::Assumption, "assumption " + model::toString(a.cond) + " is false", &s.range);
    size_t v = at.size();
    while (v > 0 && ++at[v - 1] == hi) at[--v] = lo;
    more = v > 0;
  }
  for (const model::Local &l : a.forall) locals_.erase(l.id);
  return Flow::Normal;
}

Flow Thread::access(const Stmt &s, const st::Access &a) {
  Value v = eval(*a.index);
  int64_t index = static_cast<int64_t>(convert(Type::i64(), *a.index, v).i);
  std::optional<Value> stored;
  if (a.kind == model::AccessKind::Write && a.value) stored = eval(*a.value);
  record(s, index, 0);
  if (stored) trace_.events.back().value = stored->i;
  const Location at{a.array, index, std::max(a.count, 1u)};
  const bool shared =
      a.array < kernel_.arrays.size() && kernel_.arrays[a.array].space == model::AddressSpace::Shared;
  if (a.kind == model::AccessKind::Read && shared) last_read_[a.id] = at;
  if (a.kind == model::AccessKind::Read && fixedContents(a.array)) last_constant_read_[a.id] = at;
  if (a.kind != model::AccessKind::Read && shared && at.count <= (1u << 20)) sharedWrite(a, index, stored);
  if (a.kind == model::AccessKind::Atomic && a.array < memory_.counter.size() && memory_.counter[a.array])
    last_ticket_[a.id] = ticket(a, index);
  if (a.kind == model::AccessKind::Atomic && a.array < memory_.zeroed.size() && memory_.zeroed[a.array])
    flagAccess(a, index);
  return Flow::Normal;
}

Flow Thread::fence(const st::Fence &f) {
  if (f.scope == model::Scope::Block) return Flow::Normal;
  last_fence_ = trace_.events.size();
  for (Sync &s : pending_acquires_) s.reads_from = trace_.events.size(), trace_.syncs.push_back(s);
  pending_acquires_.clear();
  return Flow::Normal;
}

Flow Thread::barrier(const Stmt &s, const st::Barrier &b) {
  uint32_t mask = 0xffffffffu;
  if (b.mask) mask = static_cast<uint32_t>(convert(Type::u32(), *b.mask, eval(*b.mask)).i);
  if (b.predicate) eval(*b.predicate);
  record(s, 0, mask);
  uint64_t key = hashOf({reinterpret_cast<uintptr_t>(&s)});
  for (const auto &[loop, k] : loops_) key = hashOf({key, reinterpret_cast<uintptr_t>(loop), k});
  any_phase_ = key;
  if (b.kind != model::BarrierKind::Warp) block_phase_ = key, ++block_barriers_;
  return Flow::Normal;
}

Flow Thread::assign(const st::Assign &a) {
  Value v;
  if (a.value) {
    v = convert(a.local.type, *a.value, eval(*a.value));
  } else {
    uint64_t n = havocs_[a.local.id]++;
    v = drawn(a.local.type, hashOf({launch_.seed, 0x4a7c, a.local.id, global_linear_, n}));
  }
  locals_[a.local.id] = v;
  return Flow::Normal;
}

Flow Thread::loop(const Stmt &s, const st::Loop &l) {
  loops_.push_back({&s, 0});
  Flow result = Flow::Normal;
  for (uint64_t k = 0;; ++k) {
    loops_.back().second = k;
    bool check = !(l.kind == model::LoopKind::Do && k == 0);
    current_ = &s.range;
    if (check && l.cond && !truth(*l.cond)) break;
    if (k > 0) step(s);  // each further iteration counts as a step
    Flow f = execBlock(l.body);
    if (f == Flow::Break) break;
    if (f == Flow::Return) {
      result = Flow::Return;
      break;
    }
    f = execBlock(l.step);
    if (f == Flow::Break) break;
    if (f == Flow::Return) {
      result = Flow::Return;
      break;
    }
  }
  loops_.pop_back();
  return result;
}

ThreadOutcome runThread(const model::Kernel &kernel, const Launch &launch, const Dim3 &grid,
                        RunMemory &memory, Trace &trace) {
  ThreadOutcome out;
  Thread t(kernel, launch, grid, memory, trace);
  try {
    t.runBody();
  } catch (const Stop &s) {
    out.status = s.status;
    out.detail = s.detail;
  }
  out.seeded = t.seeded;
  return out;
}

}  // namespace kverify::oracle::detail

namespace kverify::oracle {

// One expression in one thread at kernel entry; nullopt where evaluating it stops the run.
template <typename Eval>
static auto atEntry(const model::Kernel &kernel, const Launch &launch, const ThreadId &thread, Eval eval)
    -> std::optional<decltype(eval(std::declval<detail::Thread &>()))> {
  detail::Trace trace;
  trace.id = thread;
  trace.linear = thread.thread[0] + thread.thread[1] * launch.block[0] +
                 thread.thread[2] * launch.block[0] * launch.block[1];
  detail::RunMemory memory(kernel, launch);
  detail::Thread t(kernel, launch, launch.grid, memory, trace);
  try {
    return eval(t);
  } catch (const detail::Stop &) { return std::nullopt; }
}

std::optional<bool> evaluate(const model::Kernel &kernel, const Launch &launch, const model::Expr &cond,
                             const ThreadId &thread) {
  return atEntry(kernel, launch, thread, [&](detail::Thread &t) { return t.truth(cond); });
}

std::optional<int64_t> evaluateInt(const model::Kernel &kernel, const Launch &launch, const model::Expr &e,
                                   const ThreadId &thread) {
  return atEntry(kernel, launch, thread, [&](detail::Thread &t) { return t.integer(e); })
      .value_or(std::nullopt);
}

}  // namespace kverify::oracle
