// Message passing through a flag (message_passing.hpp).
#include "analysis/message_passing.hpp"

#include "model/walk.hpp"

#include <algorithm>

namespace kverify::analysis::detail {
namespace {

using model::MemoryOrder;

bool releases(MemoryOrder o) {
  return o == MemoryOrder::Release || o == MemoryOrder::AcqRel || o == MemoryOrder::SeqCst;
}
bool acquires(MemoryOrder o) {
  return o == MemoryOrder::Acquire || o == MemoryOrder::AcqRel || o == MemoryOrder::SeqCst;
}
bool isStore(const st::Access &a) {
  return a.kind == AccessKind::Atomic &&
         (a.atomic == model::AtomicOp::Store || a.atomic == model::AtomicOp::Exch);
}

}  // namespace

// A device-wide __threadfence() of T's between `from` and `to` (one iteration).
bool Publications::fenced(const Thread &T, const AccessEv &from, const AccessEv &to) const {
  return std::any_of(T.fences.begin(), T.fences.end(), [&](const FenceEv &f) {
    return f.scope != model::Scope::Block && f.seq > from.seq && f.seq < to.seq &&
           sameIterations(f.loops, from.loops);
  });
}

// A zeroed global array whose every write is an atomic store or exchange of device scope.
bool Publications::flagArray(unsigned flag) const {
  const std::vector<std::string> &zeroed = checker.enc.options.zero_init;
  return std::find(zeroed.begin(), zeroed.end(), checker.enc.kernel.arrays[flag].name) != zeroed.end() &&
         storesOnly(flag);
}

bool Publications::storesOnly(unsigned flag) const {
  if (checker.enc.kernel.arrays[flag].space != AddressSpace::Global) return false;
  bool ok = true;
  model::forEachStmt(checker.enc.kernel.body, [&](const Stmt &s) {
    const auto *a = s.as<st::Access>();
    const bool writes = a && (a->kind == AccessKind::Write ||
                              (a->kind == AccessKind::Atomic && a->atomic != model::AtomicOp::Load));
    if (writes && a->array == flag)
      ok = ok && isStore(*a) && a->scope != model::Scope::Block && a->count <= 1;
  });
  return ok;
}

// No two write events (threads, statements or iterations) write one element of `data`.
bool Publications::writeOnce(unsigned data) {
  auto it = write_once_.find(data);
  if (it != write_once_.end()) return it->second;
  z3::expr_vector twice(checker.enc.ctx);
  bool wide = false;
  for (const AccessEv &x : checker.thread1->accesses)
    for (const AccessEv &y : checker.thread2->accesses) {
      const st::Access &sx = x.access(), &sy = y.access();
      if (sx.array != data || sy.array != data || sx.kind == AccessKind::Read || sy.kind == AccessKind::Read)
        continue;
      wide = wide || sx.count > 1 || sy.count > 1;
      twice.push_back(x.pc && y.pc && x.index == y.index && !checker.sameEvent(x, y));
    }
  std::optional<z3::model> m;
  bool once = !wide && (twice.empty() || checker.check(z3::mk_or(twice),
                                                       "writes of '" + checker.enc.kernel.arrays[data].name +
                                                           "' once per element",
                                                       m, 0, true) == z3::unsat);
  return write_once_[data] = once;
}

// Whether `value` publishes `data` through `flag`: every store that may write it to flag[i]
// is a release after a write of data[i] (in thread 1's trace, which stands for every thread).
bool Publications::publishes(unsigned flag, unsigned data, uint64_t value) {
  auto key = std::make_tuple(flag, data, value);
  auto it = publishes_.find(key);
  if (it != publishes_.end()) return it->second;
  bool &out = publishes_[key];
  if (!flagArray(flag)) return out = false;
  const Thread &T = *checker.thread1;
  z3::expr_vector unpublished(checker.enc.ctx);
  for (const AccessEv &s : T.accesses) {
    if (s.access().array != flag || !isStore(s.access())) continue;
    z3::expr covered = checker.enc.ctx.bool_val(false);
    for (const AccessEv &w : T.accesses)
      if (w.access().array == data && w.access().kind == AccessKind::Write && w.seq < s.seq &&
          sameIterations(w.loops, s.loops) && (releases(s.order) || fenced(T, w, s)))
        covered = covered || (w.pc && w.index == s.index);
    const z3::expr &v = *s.written;
    unpublished.push_back(s.pc && v == checker.enc.ctx.bv_val(value, v.get_sort().bv_size()) && !covered);
  }
  std::optional<z3::model> m;
  std::string name = "'" + checker.enc.kernel.arrays[flag].name + "' = " + std::to_string(value) +
                     " publishes '" + checker.enc.kernel.arrays[data].name + "'";
  return out = checker.check(z3::mk_or(unpublished), name, m, 0, true) == z3::unsat;
}

// The constants the flag's stores write; `every`: whether each store writes one.
std::set<uint64_t> Publications::storedConstants(unsigned flag, bool &every) const {
  std::set<uint64_t> out;
  every = true;
  for (const AccessEv &s : checker.thread1->accesses)
    if (s.access().array == flag && isStore(s.access())) {
      z3::expr v = s.written ? s.written->simplify() : checker.enc.ctx.bool_val(false);
      if (v.is_numeral())
        out.insert(v.get_numeral_uint64());
      else
        every = false;
    }
  return out;
}

// Whether T's atomic `a` (which returned `value`) is an acquire of another array before `r`
// in the same iteration.
bool Publications::acquiredBefore(const Thread &T, const AccessEv &a, const z3::expr &value,
                                  const AccessEv &r) const {
  const st::Access &sa = a.access();
  return sa.array != r.access().array && a.seq < r.seq && sameIterations(a.loops, r.loops) &&
         sa.scope != model::Scope::Block && !value.is_bool() && (acquires(a.order) || fenced(T, a, r));
}

// The values T's atomics returned, with their events: those of each iteration, and those
// of the last iteration of a loop a jump left (seen after the loop).
static std::vector<std::pair<const AccessEv *, z3::expr>> atomicResults(const Thread &T) {
  std::vector<std::pair<const AccessEv *, z3::expr>> out;
  for (const LoadEv &l : T.atomic_results) out.emplace_back(&T.accesses[l.access], l.value);
  for (const auto &[a, v] : T.last_iteration_results) out.emplace_back(&a, v);
  return out;
}

std::optional<std::string> Publications::unzeroedFlag(const Thread &T, const AccessEv &r) const {
  for (const auto &[a, value] : atomicResults(T)) {
    unsigned flag = a->access().array;
    if (acquiredBefore(T, *a, value, r) && !flagArray(flag) && storesOnly(flag))
      return checker.enc.kernel.arrays[flag].name;
  }
  return std::nullopt;
}

z3::expr Publications::readAfterAcquire(const Thread &T, const AccessEv &r) {
  z3::expr any = checker.enc.ctx.bool_val(false);
  const unsigned data = r.access().array;
  // (where pointer parameters may alias, a write through another one could change either)
  if (r.access().kind != AccessKind::Read || r.access().count > 1 || !checker.enc.options.assume_no_alias)
    return any;
  for (const auto &[event, value_read] : atomicResults(T)) {
    const AccessEv &a = *event;
    const st::Access &sa = a.access();
    if (!acquiredBefore(T, a, value_read, r)) continue;
    const z3::expr &read = value_read;  // (a lambda captures no structured binding in C++17)
    auto constant = [&](uint64_t v) { return checker.enc.ctx.bv_val(v, read.get_sort().bv_size()); };
    auto value = [&](uint64_t v) { return read == constant(v); };
    // the values that publish data, of those r may follow: r's path with the value read
    // replaced by one that r's guard rules out (`f == kPrefix ? prefixes[i] : aggregates[i]`)
    // folds to false, and such a value needs no ordering (asking would cost a query as hard
    // as the reachability of the store)
    bool every = false;
    const std::set<uint64_t> stored = storedConstants(sa.array, every);
    std::set<uint64_t> values;
    for (uint64_t v : stored) {
      if (v == 0) continue;  // (zero: not set yet)
      z3::expr_vector from(checker.enc.ctx), to(checker.enc.ctx);
      from.push_back(read), to.push_back(constant(v));
      if (!z3::expr(r.pc).substitute(from, to).simplify().is_false() && publishes(sa.array, data, v))
        values.insert(v);
    }
    if (values.empty() || !writeOnce(data)) continue;
    z3::expr is = checker.enc.ctx.bool_val(false), possible = checker.enc.ctx.bool_val(false);
    for (uint64_t v : values) is = is || value(v);
    // a value neither zero nor stored is never read: no ordering is needed for it
    if (every) {
      for (uint64_t v : stored) possible = possible || value(v);
      is = is || !(value(0) || possible);
    }
    any = any || (a.pc && a.index == r.index && is);
    premises_.insert(
        "'" + checker.enc.kernel.arrays[sa.array].name +
        "' is zero when the kernel starts (--zero-init): the data it publishes is ready once it is set");
  }
  return any;
}

}  // namespace kverify::analysis::detail
