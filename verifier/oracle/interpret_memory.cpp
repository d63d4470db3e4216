// The oracle's interpreter: what one thread reads of and leaves in the memory the threads
// of a run share (shared writes forwarded across barriers, tickets of counters, flags),
// and that memory's setup (interpret.hpp).
#include "oracle/interpret.hpp"
#include "model/walk.hpp"

#include <algorithm>
#include <cmath>

namespace kverify::oracle::detail {

// The value a thread left in a shared location in an earlier barrier interval (thread 0
// stores, a barrier, all read), as the block's previous run wrote it (the block runs
// until those writes settle, so every thread, whenever it runs, reads the same): where
// the last write before this interval to every unit read is one scalar store of exactly
// those units and this type. A write in this interval is a race with the read: the read
// keeps the drawn value all threads of the block agree on.
std::optional<Value> Thread::forwarded(const Type &type, const Location &at) {
  const RunMemory::Written *w = nullptr;
  for (unsigned u = 0; u < at.count; ++u) {
    auto it = memory_.settled.find({at.array, block_linear_, at.first + u});
    if (it == memory_.settled.end()) return std::nullopt;
    auto before = it->second.lower_bound(block_barriers_);
    if (before == it->second.begin()) return std::nullopt;
    const RunMemory::Written *last = &std::prev(before)->second;
    if (w && last->serial != w->serial) return std::nullopt;
    w = last;
  }
  if (!w || w->first != at.first || w->count != at.count || !w->type || !(*w->type == type))
    return std::nullopt;
  Value v;
  v.i = w->i;
  v.f = w->f;
  return v;
}

// Every unit a write or atomic of a shared array covers now has it as its last write in
// this interval.
void Thread::sharedWrite(const st::Access &a, int64_t index, const std::optional<Value> &stored) {
  RunMemory::Written w;
  w.serial = ++memory_.writes;
  w.first = index;
  w.count = std::max(a.count, 1u);
  if (stored && a.kind == model::AccessKind::Write) w.type = a.value->type, w.i = stored->i, w.f = stored->f;
  for (unsigned u = 0; u < w.count; ++u)
    memory_.shared[{a.array, block_linear_, index + u}][block_barriers_] = w;
}

// The counter's value before this atomicAdd. Every element of a counter array starts at
// one seeded value, as counters zeroed together do.
uint64_t Thread::ticket(const st::Access &s, int64_t index) {
  bool shared = kernel_.arrays[s.array].space == model::AddressSpace::Shared;
  auto key = std::make_tuple(s.array, shared ? block_linear_ : 0, index);
  auto it = memory_.next.find(key);
  if (it == memory_.next.end())
    it = memory_.next.emplace(key, mix(hashOf({launch_.seed, 0x71c7, s.array})) % 1000).first;
  uint64_t v = it->second;
  it->second += static_cast<uint64_t>(eval(*s.value).i);
  return v;
}

bool Thread::written(unsigned array) {
  if (!written_) {
    written_.emplace(kernel_.arrays.size(), false);
    model::forEachStmt(kernel_.body, [&](const Stmt &s) {
      if (const auto *a = s.as<model::stmt::Access>();
          a && a->kind != model::AccessKind::Read && a->array < written_->size())
        (*written_)[a->array] = true;
    });
  }
  return array >= written_->size() || (*written_)[array];
}

// A global or constant array no access of the kernel writes: one value per element for
// the whole launch (its reads, and KV_ASSUME_FORALL's elements).
bool Thread::fixedContents(unsigned array) {
  if (array >= kernel_.arrays.size() || written(array)) return false;
  model::AddressSpace s = kernel_.arrays[array].space;
  return s == model::AddressSpace::Global || s == model::AddressSpace::Constant;
}

// An atomic on a zeroed flag array: it reads what a thread that ran earlier stored there
// (else 0), and acquires what that store released; a store or exchange releases this
// thread's earlier events up to the last fence (all of them, with a release order).
void Thread::flagAccess(const st::Access &a, int64_t index) {
  const size_t at = trace_.events.size() - 1;  // this access's event
  const auto order =
      a.order ? static_cast<model::MemoryOrder>(integer(*a.order).value_or(0)) : model::MemoryOrder::Relaxed;
  using O = model::MemoryOrder;
  auto it = memory_.flags.find({a.array, index});
  last_flag_[a.id] = it == memory_.flags.end() ? 0 : it->second.value;
  if (it != memory_.flags.end() && a.scope != model::Scope::Block) {
    Sync s{it->second.writer, it->second.writes_before, at + 1};
    if (order == O::Acquire || order == O::AcqRel || order == O::SeqCst)
      trace_.syncs.push_back(s);
    else
      pending_acquires_.push_back(s);  // acquired at the next fence
  }
  if (a.value && (a.atomic == model::AtomicOp::Store || a.atomic == model::AtomicOp::Exch)) {
    const bool release = order == O::Release || order == O::AcqRel || order == O::SeqCst;
    size_t released = a.scope == model::Scope::Block ? 0 : release ? at : last_fence_;
    memory_.flags[{a.array, index}] = RunMemory::Flag{eval(*a.value).i, trace_.id, released};
  }
}

RunMemory::RunMemory(const model::Kernel &kernel, const Launch &launch)
    : counter(kernel.arrays.size(), false), zeroed(kernel.arrays.size(), false) {
  for (const model::Array &a : kernel.arrays)
    zeroed[a.id] =
        a.space == model::AddressSpace::Global &&
        std::find(launch.zero_init.begin(), launch.zero_init.end(), a.name) != launch.zero_init.end();
  std::vector<bool> other(kernel.arrays.size(), false);  // written otherwise
  model::forEachStmt(kernel.body, [&](const Stmt &s) {
    const auto *a = s.as<st::Access>();
    if (!a || a->kind == model::AccessKind::Read || a->array >= counter.size()) return;
    const Expr *v = a->value.get();
    while (v && v->is<ex::Cast>()) v = v->as<ex::Cast>()->arg.get();
    const auto *k = v ? v->as<ex::Const>() : nullptr;
    if (a->kind == model::AccessKind::Atomic && a->atomic == model::AtomicOp::Add && k &&
        v->type.kind == Type::Kind::Int && k->int_value > 0)
      counter[a->array] = true;
    else
      other[a->array] = true;
  });
  // (the oracle's arrays never alias: the analysis, which may let parameters alias, is
  // only the more permissive)
  for (size_t a = 0; a < counter.size(); ++a)
    counter[a] = counter[a] && !other[a] && kernel.arrays[a].elem.kind == Type::Kind::Int;
}

bool sameWrites(const RunMemory::SharedWrites &a, const RunMemory::SharedWrites &b) {
  auto same = [](const RunMemory::Written &x, const RunMemory::Written &y) {
    return x.first == y.first && x.count == y.count && x.type == y.type && x.i == y.i &&
           (x.f == y.f || (std::isnan(x.f) && std::isnan(y.f)));
  };
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [&](const auto &x, const auto &y) {
    return x.first == y.first && std::equal(x.second.begin(), x.second.end(), y.second.begin(),
                                            y.second.end(), [&](const auto &p, const auto &q) {
                                              return p.first == q.first && same(p.second, q.second);
                                            });
  });
}

}  // namespace kverify::oracle::detail
