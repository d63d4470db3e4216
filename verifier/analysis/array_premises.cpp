// KV_ASSUME_FORALL: the premise one thread states, and its instances in a query.
#include "analysis/array_premises.hpp"
#include "analysis/exec.hpp"
#include "analysis/terms.hpp"

#include <algorithm>
#include <set>

namespace kverify::analysis::detail {

// Every value of the bound locals in [lo, hi) (compared as i64), on this thread's path,
// without undefined behaviour in the condition there: the condition holds.
void Exec::assumeForall(const Stmt &s, const st::Assume &a) {
  const std::string label = "the assumption at " + loc(s.range);
  z3::expr lo = resize(eval(*a.lo), 64, true), hi = resize(eval(*a.hi), 64, true);
  ForallPremise p{{}, enc.ctx.bool_val(true), lo, label};
  z3::expr guard = pc();
  for (const model::Local &l : a.forall) {
    z3::expr x = freshOwn("forall." + l.name, enc.bv(64));
    p.vars.push_back(x);
    env.insert_or_assign(l.id, resize(x, l.type.bits ? l.type.bits : 64, true));
    guard = guard && z3::sle(lo, x) && z3::slt(x, hi);
  }
  std::vector<z3::expr> defined;  // the condition's "no UB" facts guard it, are not assumed
  std::vector<z3::expr> *outer = capture;
  capture = &defined;
  premise_reads_written_.reset();
  z3::expr cond = boolOf(*a.cond);
  capture = outer;
  for (const model::Local &l : a.forall) env.erase(l.id);
  if (premise_reads_written_) {
    std::string note = label + " is not used: it reads '" + *premise_reads_written_ +
                       "', which the kernel may write (kverify uses facts only about arrays nothing writes)";
    if (std::find(enc.assumptions.begin(), enc.assumptions.end(), note) == enc.assumptions.end())
      enc.assumptions.push_back(note);
    return;
  }
  for (const z3::expr &d : defined) guard = guard && d;
  p.fact = z3::implies(guard, cond);
  enc.rules.note(Rule::ArrayPremise);
  thread.foralls.push_back(std::move(p));
}

// What an array the kernel never writes holds there: the contents function its reads use.
z3::expr Exec::evalElement(const Expr &e) {
  const ex::Element &m = *e.as<ex::Element>();
  z3::expr index = resize(eval(*m.index), 64, true);
  z3::sort value = e.type.kind == Type::Kind::Bool ? enc.ctx.bool_sort() : enc.bv(e.type.bits);
  if (auto f = enc.readOnlyContents(m.array, m.count, value)) return (*f)(index);
  premise_reads_written_ = m.name;
  return fresh(e.type, "element");
}

namespace {

bool mentions(const z3::expr &root, const std::vector<z3::expr> &vars) {
  return !forEachTerm({root}, [&](const z3::expr &e) {
    return std::none_of(vars.begin(), vars.end(), [&](const z3::expr &v) { return z3::eq(e, v); });
  });
}

// The applications of `functions` (one argument) under `roots`.
void applications(const std::vector<z3::expr> &roots, const std::set<unsigned> &functions,
                  std::vector<z3::expr> &out) {
  forEachTerm(roots, [&](const z3::expr &e) {
    if (e.num_args() == 1 && functions.count(e.decl().id())) out.push_back(e);
    return true;
  });
}

}  // namespace

std::vector<PremiseInstance> premiseInstances(const std::vector<const ForallPremise *> &premises,
                                              const std::vector<z3::expr> &query,
                                              const std::set<unsigned> &functions, size_t limit) {
  std::vector<PremiseInstance> out;
  if (premises.empty()) return out;
  std::vector<z3::expr> reads;
  applications(query, functions, reads);
  for (const ForallPremise *p : premises) {
    std::vector<z3::expr> patterns;
    applications({p->fact}, functions, patterns);
    // per bound variable, the values that make one of its patterns an element read
    std::vector<std::vector<z3::expr>> values(p->vars.size());
    for (size_t v = 0; v < p->vars.size(); ++v) {
      std::set<unsigned> have;
      const z3::expr &x = p->vars[v];
      for (const z3::expr &pat : patterns) {
        z3::expr arg = pat.arg(0);
        if (!mentions(arg, {x})) continue;
        z3::expr d = (arg - x).simplify();  // x + d: d free of the bound variables
        if (mentions(d, p->vars)) continue;
        for (const z3::expr &r : reads)
          if (z3::eq(r.decl(), pat.decl())) {
            z3::expr at = (r.arg(0) - d).simplify();
            if (have.insert(at.id()).second) values[v].push_back(at);
          }
      }
    }
    // every combination, the first variable slowest
    std::vector<size_t> pick(p->vars.size(), 0);
    bool any = std::all_of(values.begin(), values.end(), [](const auto &v) { return !v.empty(); });
    for (size_t n = 0; any && n < limit; ++n) {
      z3::expr_vector from(p->fact.ctx()), to(p->fact.ctx());
      for (size_t v = 0; v < pick.size(); ++v) from.push_back(p->vars[v]), to.push_back(values[v][pick[v]]);
      out.push_back({z3::expr(p->fact).substitute(from, to), p});
      size_t v = pick.size();
      while (v > 0 && ++pick[v - 1] == values[v - 1].size()) pick[--v] = 0;
      if (v == 0) break;
    }
  }
  return out;
}

}  // namespace kverify::analysis::detail
