// Loops of one thread: the locals at an iteration j (closed forms where the updates have
// one, else havoc functions of the iteration; wrap-around of induction variables), and
// the ranges and constants the havocked locals keep, proved by induction.
#include "analysis/exec.hpp"
#include "analysis/body_walks.hpp"
#include "analysis/closed_form.hpp"
#include "analysis/intabs.hpp"
#include "analysis/solve.hpp"
#include "result/stats.hpp"

#include <set>

namespace kverify::analysis::detail {

// The type of local `id` (i64 if the kernel does not list it).
Type Exec::localType(unsigned id) const {
  const model::Local *found = nullptr;
  for (const model::Local &l : enc.kernel.locals)
    if (l.id == id) found = &l;
  return found ? found->type : Type::i64();
}

// The locals at the start of iteration j (j = k for the body, j = N at the exit): closed
// forms where the updates have one, else a havoc function of the iteration.
Env Exec::stateAt(LoopRun &L, const z3::expr &j, std::vector<z3::expr> &side) {
  Env st = L.env0;
  for (const auto &entry : L.mods) {
    unsigned lid = entry.first;
    Type lt = localType(lid);
    if (std::optional<z3::expr> v = closedFormAt(L, lid, lt, j, side))
      st.insert_or_assign(lid, *v);
    else
      st.insert_or_assign(lid, havocAt(L, lid, lt, j));
  }
  return st;
}

// Local `lid` at the start of iteration j by its closed form, with the facts it rests on
// (no overflow) in `side`; none where it has no closed form.
std::optional<z3::expr> Exec::closedFormAt(LoopRun &L, unsigned lid, const Type &lt, const z3::expr &j,
                                           std::vector<z3::expr> &side) {
  z3::context &c = enc.ctx;
  auto f = L.forms.find(lid);
  auto it0 = L.env0.find(lid);
  auto fits = [&](const Env::const_iterator &it) {
    return it != L.env0.end() && !it->second.is_bool() && it->second.get_sort().bv_size() == lt.bits;
  };
  if (f == L.forms.end() || !fits(it0)) return std::nullopt;
  const ClosedForm &cf = f->second;
  if (cf.op == ClosedForm::Swap && !fits(L.env0.find(cf.other))) return std::nullopt;  // needs both
  unsigned w = lt.bits;
  z3::expr x0 = it0->second;
  bool sg = cf.op_type.is_signed;
  enc.rules.note(closedFormRule(cf.op));
  z3::expr odd = (j & c.bv_val(1, 64)) == c.bv_val(1, 64);
  switch (cf.op) {
    case ClosedForm::Swap:  // odd iterations see the other local's start value
      return z3::ite(odd, L.env0.at(cf.other), x0);
    case ClosedForm::Set:  // loop-invariant: its value now is its value in every iteration
      return z3::ite(j == c.bv_val(0, 64), x0, resize(eval(*cf.step), w, cf.step->type.is_signed));
    case ClosedForm::Flip: {
      z3::expr c0 = resize(eval(*cf.step), w, cf.step->type.is_signed);
      if (sg)
        side.push_back(
            z3::implies(odd, z3::bvsub_no_overflow(c0, x0) && z3::bvsub_no_underflow(c0, x0, true)));
      return z3::ite(odd, c0 - x0, x0);
    }
    case ClosedForm::Affine: return affineAt(cf, x0, resize(eval(*cf.step), w, cf.step->type.is_signed), j);
    default: break;
  }
  z3::expr step = cf.step ? resize(eval(*cf.step), w, cf.step->type.is_signed) : c.bv_val(0, w);
  z3::expr v = cf.op == ClosedForm::Add || cf.op == ClosedForm::Sub ? steppedAt(cf, x0, step, j)
                                                                    : shiftedAt(cf, x0, j);
  // x does not wrap around in the j updates before iteration j where C leaves the overflow
  // undefined (each of those updates was evaluated). An induction variable (its loop's
  // condition reads it) does not, unless a first wrap-around happened before (firstWrap):
  // where a query shows that none can happen, plainly.
  std::optional<z3::expr> inRange = inRangeAt(cf, x0, step, j, lt.is_signed);
  if (!inRange) return v;
  if (overflowIsUndefined(cf, lt.is_signed))
    side.push_back(*inRange);
  else if (L.induction.count(lid) && !L.checking) {
    if (cannotWrap(L, lid, lt, step)) {
      enc.rules.note(Rule::InductionNoWrap);
      side.push_back(*inRange);
    } else {
      z3::expr at = enc.freshConst(L.tag + ".wrap." + enc.localName(lid), enc.bv(64));
      side.push_back(*inRange || (z3::ult(at, j) && firstWrap(L, lid, lt, step, at)));
    }
  }
  return v;
}

// The first update that wraps induction variable `lid` around ends an iteration `at` that
// started (its condition held, with every local at its value at `at`, where the other
// induction variables may have wrapped) and steps x from its value there out of range.
// Every wrap-around has such a first one.
z3::expr Exec::firstWrap(LoopRun &L, unsigned lid, const Type &lt, const z3::expr &step, const z3::expr &at) {
  z3::context &c = enc.ctx;
  const ClosedForm &cf = L.forms.at(lid);
  std::vector<z3::expr> side;
  Env saved = env;
  z3::expr savedPc = pc();
  L.checking = true;
  z3::expr enter = enterAt(L, at, side, L.pc0);
  z3::expr x = env.at(lid);
  L.checking = false;
  env = std::move(saved);
  pc_ = savedPc;
  return enter && conj(c, side) && !*inRangeAt(cf, x, step, c.bv_val(1, 64), lt.is_signed);
}

// Whether no iteration the loop can run wraps induction variable `lid` around: no first
// wrap-around can happen, shown quickly (then every iteration starts with x in range).
bool Exec::cannotWrap(LoopRun &L, unsigned lid, const Type &lt, const z3::expr &step) {
  auto known = L.no_wrap.find(lid);
  if (known != L.no_wrap.end()) return known->second;
  z3::expr at = enc.ctx.constant((L.tag + ".firstwrap." + enc.localName(lid)).c_str(), enc.bv(64));
  bool holds = refutedQuickly(L.pc0 && conj(enc.ctx, thread.side) && firstWrap(L, lid, lt, step, at));
  L.no_wrap.emplace(lid, holds);
  return holds;
}

// Local `lid` at iteration j where no closed form is known: a value that depends on the
// iteration only through an unknown function. A uniform local (uniformity.hpp) has one
// such function for the whole block: two threads of a block at the same iterations hold
// the same value (the double buffers' `src = dst` copies).
z3::expr Exec::havocAt(LoopRun &L, unsigned lid, const Type &lt, const z3::expr &j) {
  z3::context &c = enc.ctx;
  bool uniform = enc.uniformity.local(lid);
  auto h = L.havoc.find(lid);
  if (h == L.havoc.end()) {
    if (uniform) enc.rules.note(Rule::LoopHavocUniform);
    z3::sort_vector dom(c);
    if (uniform)
      for (int d = 0; d < 3; ++d) dom.push_back(enc.bv(32));
    for (size_t i = 0; i < L.outer.size() + 1; ++i) dom.push_back(enc.bv(64));
    z3::sort rs = lt.kind == Type::Kind::Bool ? c.bool_sort() : enc.bv(lt.bits ? lt.bits : 64);
    const std::string local = ".havoc." + enc.localName(lid);
    if (!uniform) {
      h = L.havoc.emplace(lid, c.function((L.tag + local).c_str(), dom, rs)).first;
    } else {  // per block: one function for the loop statement, which both threads' runs share
      // (numbered in the order first met, like the fresh constants: the same in every
      // instantiation of a template, and one name per statement and local)
      auto b = enc.block_havoc.find({&L.s, lid});
      if (b == enc.block_havoc.end()) {
        std::string name = "block.havoc" + std::to_string(enc.block_havoc.size());
        b = enc.block_havoc.emplace(std::pair{&L.s, lid}, c.function(name.c_str(), dom, rs)).first;
      }
      h = L.havoc.emplace(lid, b->second).first;
    }
  }
  z3::expr_vector args(c);
  if (uniform)
    for (int d = 0; d < 3; ++d) args.push_back(thread.bid[d]);
  for (auto &o : L.outer) args.push_back(o);
  args.push_back(j);
  z3::expr v = h->second(args);
  // iteration 0 starts with the value before the loop (and a loop that never runs ends so)
  auto x0 = L.env0.find(lid);
  if (x0 == L.env0.end() || !z3::eq(x0->second.get_sort(), v.get_sort())) return v;
  return z3::ite(j == c.bv_val(0, 64), x0->second, v);
}

// `q` has no model under the launch constraints, shown within 0.15 s (an invariant's step).
// (Without the block's thread count: shown without it, it holds with it.) Where bit-vectors
// do not show it in time, the linear integer abstraction may (unsat there is unsat here):
// the bounds arguments (`b < nbins <= 12288` cannot wrap by adding `blockDim.x`) that
// bit-blasting the product in `b`'s closed form does not finish.
bool Exec::refutedQuickly(const z3::expr &q) {
  z3::expr_vector fs(enc.ctx);
  for (const z3::expr &f : enc.base)
    if (!enc.isBlockLimit(f)) fs.push_back(f);
  fs.push_back(q);
  const double t0 = threadSeconds();
  z3::check_result r =
      solveOnce(fs, 0.1, nullptr, "loop invariant step", fewFunctionPairs(fs) ? kBitBlast : nullptr);
  if (r == z3::unknown)
    if (std::optional<z3::expr> linear = integerAbstraction(fs, enc.no_overflow, true)) {
      z3::expr_vector one(enc.ctx);
      one.push_back(*linear);
      if (solveOnce(one, 0.05, nullptr, "loop invariant step (linear)", nullptr, "QF_UFLIA") == z3::unsat)
        r = z3::unsat;
    }
  recordQuery(r == z3::unsat ? 0 : r == z3::sat ? 1 : 2, (threadSeconds() - t0) * 1000);  // (--stats)
  return r == z3::unsat;
}

// Ranges [0, c - 1] or [0, c] that a local the loop havocs keeps at the start of every
// iteration, c a constant it is compared with (`if (++pos == 64) pos = 0;`), each proved
// by induction: its value before the loop lies in it, and an iteration (read at k, with
// any loads and any values of the other havocked locals) that starts in it ends in it.
std::vector<Exec::Range> Exec::rangeInvariants(const Stmt &s, const std::set<unsigned> &havocked,
                                               const std::map<unsigned, z3::expr> &start,
                                               const std::map<unsigned, z3::expr> &before,
                                               const z3::expr &pc0, const z3::expr &pcEnd) {
  const st::Loop &lp = *s.as<st::Loop>();
  std::map<unsigned, std::set<int64_t>> consts;
  comparedConstants(lp.body, consts);
  comparedConstants(lp.step, consts);
  if (lp.cond) comparedConstants(*lp.cond, consts);
  std::vector<Range> out;
  for (const auto &[lid, cs] : consts) {
    auto st = start.find(lid), b = before.find(lid);
    auto e = env.find(lid);
    if (!havocked.count(lid) || st == start.end() || b == before.end() || e == env.end()) continue;
    const z3::expr &x = st->second;
    if (!x.is_bv() || !b->second.is_bv() || !e->second.is_bv() ||
        b->second.get_sort().bv_size() != x.get_sort().bv_size() ||
        e->second.get_sort().bv_size() != x.get_sort().bv_size())
      continue;
    bool sg = false;
    for (const model::Local &l : enc.kernel.locals)
      if (l.id == lid) sg = l.type.is_signed;
    for (int64_t c : cs) {
      bool found = false;
      for (int64_t hi : {c - 1, c}) {
        Range r{lid, 0, hi, sg};
        if (hi < 0 || (x.get_sort().bv_size() < 64 && hi >= (int64_t(1) << (x.get_sort().bv_size() - 1))))
          continue;
        if (refutedQuickly(pc0 && !r.holds(b->second)) &&
            refutedQuickly(pcEnd && r.holds(x) && !r.holds(e->second))) {
          out.push_back(r);
          enc.rules.note(Rule::LoopRangeInvariant);
          found = true;
          break;
        }
      }
      if (found) break;
    }
  }
  constantInvariants(havocked, start, before, pcEnd, out);
  return out;
}

// Havocked locals that stay at their constant value before the loop (the offsets of
// pointers a loop copies into one another, `src = dst; dst = src;`), proved together by
// induction and dropped one by one where the step does not keep them (Houdini).
void Exec::constantInvariants(const std::set<unsigned> &havocked, const std::map<unsigned, z3::expr> &start,
                              const std::map<unsigned, z3::expr> &before, const z3::expr &pcEnd,
                              std::vector<Range> &out) {
  std::vector<std::pair<Range, z3::expr>> cands;  // with the local's value at the end
  for (unsigned lid : havocked) {
    auto st = start.find(lid), b = before.find(lid);
    auto e = env.find(lid);
    if (st == start.end() || b == before.end() || e == env.end() || !b->second.is_bv() ||
        !b->second.is_numeral() || !st->second.is_bv() || !e->second.is_bv() ||
        st->second.get_sort().bv_size() != b->second.get_sort().bv_size() ||
        e->second.get_sort().bv_size() != b->second.get_sort().bv_size())
      continue;
    auto c = static_cast<int64_t>(b->second.get_numeral_uint64());
    cands.push_back({Range{lid, c, c, false}, e->second});
  }
  if (cands.empty() || cands.size() > 8) return;
  for (bool changed = true; changed && !cands.empty();) {
    changed = false;
    z3::expr_vector atStart(enc.ctx);
    for (const auto &[r, end] : cands) atStart.push_back(r.holds(start.at(r.local)));
    for (size_t i = 0; i < cands.size(); ++i) {
      if (!refutedQuickly(pcEnd && z3::mk_and(atStart) && !cands[i].first.holds(cands[i].second))) {
        cands.erase(cands.begin() + static_cast<long>(i));
        changed = true;
        break;
      }
    }
  }
  for (const auto &[r, end] : cands) out.push_back(r);
  enc.rules.note(Rule::LoopConstantInvariant, static_cast<uint32_t>(cands.size()));
}

}  // namespace kverify::analysis::detail
