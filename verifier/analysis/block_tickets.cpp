// Tickets broadcast through shared memory (see block_tickets.hpp).
#include "analysis/block_tickets.hpp"

#include "analysis/body_walks.hpp"
#include "model/walk.hpp"

#include <functional>
#include <map>
#include <vector>

namespace kverify::analysis::detail {
namespace {

using model::Body;
using model::Builtin;

struct Where {
  const Stmt *s;
  std::vector<const Stmt *> path;  // the statements enclosing s, outermost first
};

// Every access with the statements that enclose it.
void collect(const Body &body, std::vector<const Stmt *> &path, std::map<unsigned, Where> &out) {
  for (const Stmt &s : body) {
    if (const auto *a = s.as<st::Access>()) out[a->id] = Where{&s, path};
    path.push_back(&s);
    for (const Body *b : model::children(s)) collect(*b, path, out);
    path.pop_back();
  }
}

const Expr *widenedFrom(const Expr *e) {  // through casts that lose no bits
  while (const auto *c = e->as<ex::Cast>()) {
    const Expr *arg = c->arg.get();
    if (e->type.kind != Type::Kind::Int || arg->type.kind != Type::Kind::Int || e->type.bits < arg->type.bits)
      return e;
    e = arg;
  }
  return e;
}

bool constIndex(const st::Access &a, int64_t &at) {
  const Expr *i = a.index ? widenedFrom(a.index.get()) : nullptr;
  const auto *k = i ? i->as<ex::Const>() : nullptr;
  if (a.index && !k) return false;
  at = k ? k->int_value : 0;
  return a.count <= 1;
}

class Checker {
public:
  Checker(const Kernel &K, const std::map<unsigned, Where> &where) : K(K), where(where) {
    std::map<unsigned, int> assigned;
    assignedLocals(K.body, assigned);
    for (size_t i = 0; i < K.body.size(); ++i)
      if (const auto *as = K.body[i].as<st::Assign>(); as && assigned[as->local.id] == 1)
        defs[as->local.id] = {as->value.get(), i};
  }

  // The counter element whose tickets every write of `s` stores (else none).
  std::optional<CounterElement> counterOf(const std::vector<unsigned> &writes) const {
    std::optional<CounterElement> counter;
    for (unsigned w : writes) {
      const st::Access &a = *where.at(w).s->as<st::Access>();
      const Expr *v = a.value ? widenedFrom(a.value.get()) : nullptr;
      const auto *o = v ? v->as<ex::Opaque>() : nullptr;
      auto at = o && !o->per_block ? where.find(o->id) : where.end();
      if (at == where.end()) return std::nullopt;
      const st::Access &atomic = *at->second.s->as<st::Access>();
      CounterElement element{atomic.array, 0};
      if (atomic.kind != AccessKind::Atomic || !constIndex(atomic, element.index) ||
          (counter && *counter != element))
        return std::nullopt;
      counter = element;
    }
    return counter;
  }

  // Whether thread 0 of a block stores before `read`: a body holds, in this order, a
  // statement leading to a write only through conditions thread 0 satisfies, a block
  // barrier, and a statement holding the read. Whoever reaches the read passed that
  // barrier, so (barriers being uniform, which the divergence check proves) so did
  // thread 0 of its block, right after the store.
  bool storedBefore(unsigned read, const std::vector<unsigned> &writes) const {
    const Where &r = where.at(read);
    for (unsigned w : writes) {
      const Where &wr = where.at(w);
      std::vector<const Stmt *> wp = wr.path, rp = r.path;
      wp.push_back(wr.s);
      rp.push_back(r.s);
      size_t common = 0;  // depth of the body holding both
      while (common < wp.size() && common < rp.size() && wp[common] == rp[common]) ++common;
      if (common == wp.size() || common == rp.size()) continue;
      const Body &body = common == 0 ? K.body : bodyHolding(wp[common - 1], wp[common]);
      size_t wi = position(body, wp[common]), ri = position(body, rp[common]);
      if (ri >= body.size()) continue;  // in another arm of the same If
      bool barrier = false;
      for (size_t i = wi + 1; i < ri; ++i)
        if (const auto *b = body[i].as<st::Barrier>();
            b && b->kind == model::BarrierKind::Block && !b->predicate)
          barrier = true;
      if (barrier && threadZeroReaches(wp, common, position(K.body, wp[0]))) return true;
    }
    return false;
  }

private:
  const Kernel &K;
  const std::map<unsigned, Where> &where;
  std::map<unsigned, std::pair<const Expr *, size_t>> defs;  // locals assigned once, at the top level

  static const Body &bodyHolding(const Stmt *parent, const Stmt *child) {
    for (const Body *b : model::children(*parent))
      for (const Stmt &s : *b)
        if (&s == child) return *b;
    return *model::children(*parent).front();
  }
  static size_t position(const Body &body, const Stmt *s) {  // SIZE_MAX: not in `body`
    std::less<const Stmt *> lt;
    if (lt(s, body.data()) || !lt(s, body.data() + body.size())) return SIZE_MAX;
    return static_cast<size_t>(s - body.data());
  }

  // From path[from] down to the write: only If then-arms whose condition holds for thread
  // (0,0,0) and inlined calls, with no jump before the next step down.
  bool threadZeroReaches(const std::vector<const Stmt *> &path, size_t from, size_t top) const {
    for (size_t i = from; i + 1 < path.size(); ++i) {
      const Stmt &s = *path[i];
      const Body *next = nullptr;
      if (const auto *f = s.as<st::If>()) {
        if (!zeroTrue(*f->cond, top)) return false;
        next = &f->then_body;
      } else if (const auto *c = s.as<st::Inlined>()) {
        next = &c->body;
      } else {
        return false;  // a loop may run no iteration
      }
      size_t at = position(*next, path[i + 1]);
      if (at == SIZE_MAX) return false;
      Body before(next->begin(), next->begin() + at);
      if (hasJump(before)) return false;
    }
    return true;
  }

  // Whether `e` is 0 in thread (0,0,0), evaluated within the top-level statement at `top`
  // (so it may read locals assigned once above it).
  bool zeroAtThreadZero(const Expr &e, size_t top) const {
    if (const auto *b = e.as<ex::Builtin>())
      return b->which == Builtin::ThreadIdxX || b->which == Builtin::ThreadIdxY ||
             b->which == Builtin::ThreadIdxZ;
    if (const auto *k = e.as<ex::Const>()) return k->int_value == 0 && e.type.kind == Type::Kind::Int;
    if (const auto *c = e.as<ex::Cast>())
      return e.type.kind == Type::Kind::Int && zeroAtThreadZero(*c->arg, top);
    if (const auto *l = e.as<ex::Local>()) {
      auto d = defs.find(l->id);
      return d != defs.end() && d->second.second < top &&
             zeroAtThreadZero(*d->second.first, d->second.second);
    }
    if (const auto *b = e.as<ex::Binary>()) {
      using B = model::BinaryOp;
      if (b->op == B::BitAnd || b->op == B::Mul)
        return zeroAtThreadZero(*b->lhs, top) || zeroAtThreadZero(*b->rhs, top);
      if (b->op == B::Shr || b->op == B::Shl) return zeroAtThreadZero(*b->lhs, top);
      if (b->op == B::Add || b->op == B::BitOr || b->op == B::BitXor)
        return zeroAtThreadZero(*b->lhs, top) && zeroAtThreadZero(*b->rhs, top);
    }
    return false;
  }

  bool zeroTrue(const Expr &e, size_t top) const {
    if (const auto *b = e.as<ex::Binary>()) {
      if (b->op == model::BinaryOp::LAnd) return zeroTrue(*b->lhs, top) && zeroTrue(*b->rhs, top);
      if (b->op == model::BinaryOp::Eq)
        return zeroAtThreadZero(*b->lhs, top) && zeroAtThreadZero(*b->rhs, top);
    }
    if (const auto *u = e.as<ex::Unary>(); u && u->op == model::UnaryOp::LNot)
      return zeroAtThreadZero(*u->arg, top);
    if (const auto *c = e.as<ex::Cast>();
        c && e.type.kind == Type::Kind::Bool && c->arg->type.kind == Type::Kind::Bool)
      return zeroTrue(*c->arg, top);
    if (const auto *k = e.as<ex::Const>()) return k->int_value != 0;
    return false;
  }
};

}  // namespace

std::map<unsigned, CounterElement> blockTicketReads(const Kernel &K,
                                                    const std::set<unsigned> &ticket_arrays) {
  std::map<unsigned, Where> where;
  std::vector<const Stmt *> path;
  collect(K.body, path, where);
  std::map<unsigned, std::vector<unsigned>> reads, writes;
  std::set<unsigned> bad;
  for (const auto &[id, w] : where) {
    const st::Access &a = *w.s->as<st::Access>();
    if (a.array >= K.arrays.size()) continue;
    const model::Array &arr = K.arrays[a.array];
    if (arr.space != AddressSpace::Shared) continue;
    int64_t at = 0;
    if (arr.is_extern || !constIndex(a, at) || at != 0 || a.kind == AccessKind::Atomic) bad.insert(a.array);
    (a.kind == AccessKind::Read ? reads : writes)[a.array].push_back(id);
  }
  Checker check(K, where);
  std::map<unsigned, CounterElement> out;
  for (const auto &[array, rs] : reads) {
    if (bad.count(array) || !writes.count(array)) continue;
    std::optional<CounterElement> counter = check.counterOf(writes[array]);
    // (a __shared__ counter is one per block: every block may draw the same tickets)
    if (!counter || !ticket_arrays.count(counter->array) ||
        K.arrays[counter->array].space != AddressSpace::Global)
      continue;
    bool all = true;
    for (unsigned r : rs) all = all && check.storedBefore(r, writes[array]);
    if (all)
      for (unsigned r : rs) out[r] = *counter;
  }
  return out;
}

}  // namespace kverify::analysis::detail
