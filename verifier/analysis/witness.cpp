// Witnesses: read off a model, and made as simple as the time allows.
#include "analysis/checker.hpp"
#include "analysis/debug.hpp"
#include "result/stats.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace kverify::analysis::detail {

Witness Checker::witness(const z3::model &m, const std::vector<const std::vector<LoopRef> *> &loops,
                         const std::vector<int> &which, const z3::expr &index, bool two) {
  Stage s("witness");
  Witness w;
  for (int d = 0; d < 3; ++d) {
    w.thread1.thread_idx[d] = num(m, thread1->tid[d]);
    w.thread1.block_idx[d] = num(m, thread1->bid[d]);
    if (two) {
      w.thread2.thread_idx[d] = num(m, thread2->tid[d]);
      w.thread2.block_idx[d] = num(m, thread2->bid[d]);
    }
    w.block_dim[d] = num(m, enc.bdim[d]);
    w.grid_dim[d] = num(m, enc.gdim[d]);
  }
  for (const model::Param &p : enc.kernel.params) {
    auto it = enc.params.find(p.name);
    if (it == enc.params.end() || p.array) continue;
    if (p.type.kind == Type::Kind::Float || p.type.kind == Type::Kind::Other) continue;
    uint64_t v = num(m, it->second);
    w.params.emplace_back(p.name, p.type.kind == Type::Kind::Bool
                                      ? (v ? "true" : "false")
                                      : signedStr(v, p.type.bits, p.type.is_signed));
  }
  for (size_t i = 0; i < loops.size(); ++i)
    for (const LoopRef &l : *loops[i])
      w.loops.push_back({two ? static_cast<unsigned>(which[i]) : 0u, l.label, num(m, l.k)});
  w.index = signedStr(num(m, index), 64, true);
  // the values its threads load from parameters' memory, at the iterations of the model
  for (const Thread *T : {&*thread1, two ? &*thread2 : nullptr}) {
    if (!T) continue;
    for (const LoadEv &l : T->param_reads) {
      const AccessEv &a = T->accesses[l.access];
      if (!m.eval(a.pc, true).is_true()) continue;
      const model::Array &array = enc.kernel.arrays[a.access().array];
      uint64_t bits = num(m, l.value);
      unsigned width = l.value.is_bool() ? 1 : l.value.get_sort().bv_size();
      if (array.elem.is_signed && width < 64 && (bits >> (width - 1)) & 1) bits |= ~uint64_t(0) << width;
      MemoryValue v{array.name, static_cast<int64_t>(num(m, a.index)), static_cast<int64_t>(bits)};
      auto same = [&](const MemoryValue &o) { return o.array == v.array && o.index == v.index; };
      if (std::none_of(w.memory.begin(), w.memory.end(), same)) w.memory.push_back(v);
    }
  }
  return w;
}

namespace {

// What the simplest witness makes small: a term, its least possible value, a value small
// enough to read (left as it is), and whether only a readable value is worth taking (no
// halfway values: a parameter halved to 268435455 reads no better, and overflows in other
// threads).
struct Goal {
  z3::expr what;
  uint64_t least, readable;
  bool all_or_nothing = false;
};

std::vector<Goal> witnessGoals(Checker &checker, const std::vector<z3::expr> &counters) {
  Encoder &enc = checker.enc;
  auto wide = [](const z3::expr &x) { return z3::zext(x, 64 - x.get_sort().bv_size()); };
  std::vector<Goal> goals;
  // each dimension on its own (products are slow to bit-blast), z before y before x
  for (int d = 2; d >= 0; --d)
    if (!enc.options.block_dim[d]) goals.push_back({enc.bdim[d], 1, 1});  // (a launch given is kept)
  for (int d = 2; d >= 0; --d)
    if (!enc.options.grid_dim[d]) goals.push_back({enc.gdim[d], 1, 1});
  z3::expr blocks = enc.ctx.bv_val(0, 64), threads = enc.ctx.bv_val(0, 64);
  for (int d = 0; d < 3; ++d) {
    blocks = blocks + wide(checker.thread1->bid[d]) + wide(checker.thread2->bid[d]);
    threads = threads + wide(checker.thread1->tid[d]) + wide(checker.thread2->tid[d]);
  }
  goals.push_back({blocks, 0, 1024});   // (block (1073741823,1023,0) does not read well)
  goals.push_back({threads, 0, 1024});  // (any thread of a block reads well)
  // the loop iterations the finding happens at, from the first (k = 9223372036854775806
  // says nothing a reader can replay), as few as the parameters allow
  for (const z3::expr &k : counters) goals.push_back({k, 0, 16});
  // then the parameters, nearest zero (signed ones by their absolute value)
  for (const model::Param &p : enc.kernel.params) {
    auto it = enc.params.find(p.name);
    if (it == enc.params.end() || !it->second.is_bv() || p.type.kind != Type::Kind::Int) continue;
    const z3::expr &x = it->second;
    z3::expr zero = enc.ctx.bv_val(0, x.get_sort().bv_size());
    goals.push_back({p.type.is_signed ? z3::ite(z3::slt(x, zero), -x, x) : x, 0, 4096, true});
  }
  return goals;
}

}  // namespace

// The simplest witness for `q`: the smallest block dimensions, then grid dimensions, then
// block indices, then thread indices, then parameters, each tightened in turn (every
// assumption kept, the earlier ones fixed; at most four solver calls each) within --confirm's or the default budget (0.3 s);
// where time runs out, what was found. Values already small enough to read stay.
void Checker::simplest(const z3::expr &q, std::optional<z3::model> &m,
                       const std::vector<z3::expr> &counters) {
  Stage s("witness");
  // of this thread's CPU time (on a loaded machine, or with other kernels analysed in
  // parallel, the same witness as on an idle one); the least values of a launch's nine
  // dimensions and indices alone take about 0.1 s
  const double budget = enc.options.witness_seconds, query_s = budget / 3, t0 = threadSeconds();
  auto left = [&] { return budget - (threadSeconds() - t0); };
  z3::expr_vector base(enc.ctx);
  for (const z3::expr &b : launch)
    if (!enc.isBlockLimit(b)) base.push_back(b);
  // the block's thread count, left out as in check(): added where a model breaks it
  bool limits = false;
  auto valid = [&](const Decision &d) {
    if (d.result != z3::sat || limits || satisfiesAll(*d.model, enc.block_limits)) return true;
    limits = true;
    for (const z3::expr &l : enc.block_limits) base.push_back(l);
    return false;
  };
  for (const z3::expr &b : side) base.push_back(b);
  base.push_back(q);
  addPremiseInstances(base);
  const std::vector<Goal> goals = witnessGoals(*this, counters);
  // first everything readable at once (one query: loop facts make each bound alone slow)
  if (!counters.empty()) {
    z3::expr_vector small(enc.ctx);
    for (unsigned i = 0; i < base.size(); ++i) small.push_back(base[i]);
    for (const Goal &g : goals)
      small.push_back(z3::ule(g.what, enc.ctx.bv_val(g.readable, g.what.get_sort().bv_size())));
    Decision d = findModel(small, enc.no_overflow, std::min(query_s, left()));
    if (d.result == z3::sat && valid(d)) m = d.model;
  }
  for (const auto &[g, least, readable, all_or_nothing] : goals) {
    unsigned w = g.get_sort().bv_size();
    uint64_t v = num(*m, g), lo = least;
    // the least value first (it usually holds), then a binary search on an upper bound
    for (int step = 0; step < (all_or_nothing ? 1 : 4) && lo < v && v > readable && left() > 0.01; ++step) {
      bool first = step == 0;
      uint64_t bound = all_or_nothing ? readable : first ? lo : lo + (v - lo) / 2;
      z3::expr_vector tighter(enc.ctx);
      for (unsigned i = 0; i < base.size(); ++i) tighter.push_back(base[i]);
      tighter.push_back(z3::ule(g, enc.ctx.bv_val(bound, w)));
      // (models of the integer abstraction first: index arithmetic defeats bit-blasting)
      Decision d = findModel(tighter, enc.no_overflow, std::min(query_s, left()));
      if (!valid(d)) {
        --step;  // (asked again with the thread count, once)
        continue;
      }
      if (d.result == z3::sat)
        m = d.model, v = num(*m, g);
      else if (d.result == z3::unsat)
        lo = bound + 1;
      else
        break;
    }
    base.push_back(g == enc.ctx.bv_val(v, w));  // kept (readable or tightened) while the next ones are
  }
  if (debugOptions().queries)
    std::fprintf(stderr, "[kverify] simplest witness: %.1f ms\n", 1000 * (budget - left()));
}

}  // namespace kverify::analysis::detail
