// Locals split into webs (see local_webs.hpp).
#include "analysis/local_webs.hpp"
#include "analysis/solve.hpp"
#include "model/walk.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <vector>

namespace kverify::analysis {

using model::Expr;
using model::ExprPtr;
using model::Stmt;
namespace st = model::stmt;
namespace ex = model::expr;

namespace {

constexpr int kExactDepth = 4;  // loops nested deeper are summarized (local_webs.hpp)

// Which assignments of each local may reach a point: def indices per local id (a local
// absent from the map holds its value from before the kernel's first statement).
using State = std::map<unsigned, std::vector<unsigned>>;
constexpr unsigned kEntry = ~0u;  // in a State: the value from before the kernel

class Webs {
public:
  explicit Webs(const model::Kernel &k) {
    State s;
    block(k.body, s);
  }

  // The local each read and each assignment uses after the split, and the new locals.
  model::Kernel rewrite(const model::Kernel &k) {
    unsigned next = 0;
    for (const model::Local &l : k.locals) next = std::max(next, l.id + 1);
    // the web that holds the value from before the kernel keeps the local's id
    std::map<unsigned, std::vector<unsigned>> roots;  // local -> its webs
    for (unsigned d = 0; d < defs_.size(); ++d) {
      unsigned r = find(d);
      std::vector<unsigned> &rs = roots[defs_[d].local];
      if (std::find(rs.begin(), rs.end(), r) == rs.end()) rs.push_back(r);
    }
    model::Kernel out = k;
    for (auto &[local, rs] : roots) {
      auto entry = entry_.find(local);
      if (entry != entry_.end())
        std::stable_partition(rs.begin(), rs.end(), [&](unsigned r) { return r == find(entry->second); });
      const model::Local *orig = nullptr;
      for (const model::Local &l : k.locals)
        if (l.id == local) orig = &l;
      for (std::size_t i = 0; i < rs.size(); ++i) {
        unsigned id = i == 0 || !orig ? local : next++;
        id_[rs[i]] = id;
        if (i > 0 && orig) out.locals.push_back({orig->name, id, orig->type});
      }
    }
    out.body = rewritten(k.body);
    return out;
  }

private:
  struct Def {
    unsigned local;
  };
  struct LoopFlow {
    std::vector<State> breaks, continues;
  };

  unsigned find(unsigned d) {
    while (parent_[d] != d) d = parent_[d] = parent_[parent_[d]];
    return d;
  }
  unsigned newDef(unsigned local) {
    defs_.push_back({local});
    parent_.push_back(unsigned(parent_.size()));
    return unsigned(defs_.size() - 1);
  }
  unsigned entryDef(unsigned local) {
    auto it = entry_.find(local);
    if (it == entry_.end()) it = entry_.emplace(local, newDef(local)).first;
    return it->second;
  }
  unsigned defOf(const Stmt &s, unsigned local) {
    auto it = assign_def_.find(&s);
    if (it == assign_def_.end()) it = assign_def_.emplace(&s, newDef(local)).first;
    return it->second;
  }

  static void add(std::vector<unsigned> &ds, unsigned d) {
    if (std::find(ds.begin(), ds.end(), d) == ds.end()) ds.push_back(d);
  }
  // `into` joined with `from` (kEntry: the value from before the kernel, where a local is absent)
  static void join(State &into, const State &from) {
    for (auto &[local, ds] : into)
      if (!from.count(local)) add(ds, kEntry);
    for (const auto &[local, ds] : from) {
      auto it = into.try_emplace(local, std::vector<unsigned>{kEntry}).first;
      for (unsigned d : ds) add(it->second, d);
    }
  }

  // The assignments reaching `local` here, merged into one web (a read sees them all).
  unsigned read(unsigned local, State &s) {
    auto it = s.find(local);
    std::vector<unsigned> ds = it == s.end() ? std::vector<unsigned>{kEntry} : it->second;
    unsigned root = kEntry;
    for (unsigned d : ds) {
      unsigned r = find(d == kEntry ? entryDef(local) : d);
      if (root == kEntry)
        root = r;
      else if (r != root)
        parent_[r] = root;
    }
    s[local] = {root};
    return root;
  }

  void reads(const Expr &e, State &s, const Stmt &at) {
    model::forEachNode(e, [&](const Expr &n) {
      const auto *l = n.as<ex::Local>();
      if (!l) return;
      unsigned r = read(l->id, s);
      auto [it, fresh] = uses_[&at].emplace(l->id, r);
      if (!fresh && find(it->second) != find(r)) parent_[find(r)] = find(it->second);
    });
  }

  void block(const model::Body &body, State &s) {
    for (const Stmt &x : body) stmt(x, s);
  }

  void stmt(const Stmt &s, State &state) {
    if (kernelTimeSpent()) throw KernelTimeSpent{};  // (10,000 conditionals in a loop: minutes)
    if (!s.is<st::Loop>())                           // a loop reads its condition at each head (loop())
      for (const Expr *e : model::expressions(s)) reads(*e, state, s);
    if (const auto *a = s.as<st::Assign>()) {
      state[a->local.id] = {defOf(s, a->local.id)};
    } else if (const auto *i = s.as<st::If>()) {
      State other = state;
      block(i->then_body, state);
      block(i->else_body, other);
      join(state, other);
    } else if (const auto *l = s.as<st::Loop>()) {
      loop(s, *l, state);
    } else if (const auto *c = s.as<st::Inlined>()) {
      calls_.emplace_back();
      block(c->body, state);
      for (const State &r : calls_.back()) join(state, r);
      calls_.pop_back();
    } else if (s.is<st::Return>()) {
      if (!calls_.empty()) calls_.back().push_back(state);  // at the kernel's end nothing reads
    } else if (s.is<st::Break>()) {
      if (!loops_.empty()) loops_.back().breaks.push_back(state);
    } else if (s.is<st::Continue>()) {
      if (!loops_.empty()) loops_.back().continues.push_back(state);
    }
  }

  // One iteration from `head`: the condition, the body, the jumps to the step, the step.
  // Returns the state at the end of the iteration; breaks are left in loops_.back().
  State iteration(const Stmt &s, const st::Loop &l, State head) {
    if (l.cond) reads(*l.cond, head, s);
    loops_.back() = {};
    block(l.body, head);
    for (const State &c : loops_.back().continues) join(head, c);
    block(l.step, head);
    return head;
  }

  void loop(const Stmt &s, const st::Loop &l, State &state) {
    loops_.emplace_back();
    State head = state;
    if (int(loops_.size()) <= kExactDepth) {
      join(head, iteration(s, l, state));  // gen ∪ (in ∩ keep) twice is once: a fixed point
    } else {
      model::forEachStmt(l.body, [&](const Stmt &x) { assignedAtHead(x, head); });
      model::forEachStmt(l.step, [&](const Stmt &x) { assignedAtHead(x, head); });
    }
    State end = iteration(s, l, head);
    join(head, end);
    // the exit: where the condition fails (at a head) or a break leaves
    if (l.cond) reads(*l.cond, head, s);
    for (const State &b : loops_.back().breaks) join(head, b);
    loops_.pop_back();
    state = std::move(head);
  }

  void assignedAtHead(const Stmt &x, State &head) {
    const auto *a = x.as<st::Assign>();
    if (!a) return;
    State one{{a->local.id, {defOf(x, a->local.id)}}};
    join(head, one);
  }

  // --- the rewrite -------------------------------------------------------------------

  model::Body rewritten(const model::Body &b) {
    model::Body out;
    out.reserve(b.size());
    for (const Stmt &s : b) out.push_back(rewritten(s));
    return out;
  }

  Stmt rewritten(const Stmt &s) {
    Stmt c = s;
    std::map<unsigned, unsigned> to;  // the locals this statement reads, renamed
    auto used = uses_.find(&s);
    if (used != uses_.end())
      for (auto [local, d] : used->second)
        if (unsigned id = id_.at(find(d)); id != local) to[local] = id;
    std::unordered_map<const Expr *, ExprPtr> memo;
    auto re = [&](ExprPtr &e) {
      if (e && !to.empty()) e = renamed(e, to, memo);
    };
    std::visit(model::Overloaded{
                   [&](st::Access &a) { re(a.index), re(a.value), re(a.order); },
                   [&](st::Barrier &b) { re(b.mask), re(b.predicate); },
                   [&](st::If &i) {
                     re(i.cond);
                     i.then_body = rewritten(std::get<st::If>(s.node).then_body);
                     i.else_body = rewritten(std::get<st::If>(s.node).else_body);
                   },
                   [&](st::Loop &l) {
                     re(l.cond);
                     l.body = rewritten(std::get<st::Loop>(s.node).body);
                     l.step = rewritten(std::get<st::Loop>(s.node).step);
                   },
                   [&](st::Assign &a) {
                     re(a.value);
                     a.local.id = id_.at(find(assign_def_.at(&s)));
                   },
                   [&](st::Assume &a) { re(a.cond), re(a.lo), re(a.hi); },
                   [&](st::Inlined &i) { i.body = rewritten(std::get<st::Inlined>(s.node).body); },
                   [](auto &) {},
               },
               c.node);
    return c;
  }

  // `e` with the locals in `to` renamed (an explicit stack: expressions nest deeply)
  static ExprPtr renamed(const ExprPtr &e, const std::map<unsigned, unsigned> &to,
                         std::unordered_map<const Expr *, ExprPtr> &memo) {
    std::vector<std::pair<ExprPtr, bool>> todo{{e, false}};
    while (!todo.empty()) {
      auto [x, expanded] = todo.back();
      todo.pop_back();
      if (memo.count(x.get())) continue;
      std::vector<ExprPtr> ops = operands(*x);
      if (!expanded) {
        todo.push_back({x, true});
        for (const ExprPtr &o : ops) todo.push_back({o, false});
        continue;
      }
      memo[x.get()] = rebuilt(x, ops, to, memo);
    }
    return memo.at(e.get());
  }

  static std::vector<ExprPtr> operands(const Expr &e) {
    if (auto *u = e.as<ex::Unary>()) return {u->arg};
    if (auto *c = e.as<ex::Cast>()) return {c->arg};
    if (auto *m = e.as<ex::Element>()) return {m->index};
    if (auto *b = e.as<ex::Binary>()) return {b->lhs, b->rhs};
    if (auto *s = e.as<ex::Select>()) return {s->cond, s->then_value, s->else_value};
    return {};
  }

  static ExprPtr rebuilt(const ExprPtr &x, const std::vector<ExprPtr> &ops,
                         const std::map<unsigned, unsigned> &to,
                         const std::unordered_map<const Expr *, ExprPtr> &memo) {
    if (const auto *l = x->as<ex::Local>()) {
      auto it = to.find(l->id);
      return it == to.end() ? x : Expr::make(x->type, ex::Local{l->name, it->second});
    }
    std::vector<ExprPtr> now;
    bool changed = false;
    for (const ExprPtr &o : ops) {
      now.push_back(memo.at(o.get()));
      changed |= now.back() != o;
    }
    if (!changed) return x;
    Expr::Node n = x->node;
    std::visit(model::Overloaded{
                   [&](ex::Unary &u) { u.arg = now[0]; },
                   [&](ex::Cast &c) { c.arg = now[0]; },
                   [&](ex::Element &m) { m.index = now[0]; },
                   [&](ex::Binary &b) { b.lhs = now[0], b.rhs = now[1]; },
                   [&](ex::Select &s) { s.cond = now[0], s.then_value = now[1], s.else_value = now[2]; },
                   [](auto &) {},
               },
               n);
    return Expr::make(x->type, std::move(n));
  }

  std::vector<Def> defs_;
  std::vector<unsigned> parent_;
  std::map<unsigned, unsigned> entry_;           // local -> the def of its value before the kernel
  std::map<const Stmt *, unsigned> assign_def_;  // Assign -> its def
  std::map<const Stmt *, std::map<unsigned, unsigned>> uses_;  // statement -> local -> a def it reads
  std::map<unsigned, unsigned> id_;                            // web (root def) -> local id
  std::vector<LoopFlow> loops_;
  std::vector<std::vector<State>> calls_;  // the states at each enclosing call's returns
};

}  // namespace

model::Kernel splitLocalWebs(const model::Kernel &kernel) {
  Webs w(kernel);
  return w.rewrite(kernel);
}

}  // namespace kverify::analysis
