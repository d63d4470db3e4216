// Out-of-bounds accesses of shared arrays of known size.
#include "analysis/checker.hpp"

#include <algorithm>

namespace kverify::analysis::detail {

std::vector<Finding> BoundsCheck::run() {
  // out of range: per shared array of known size, its accesses and their conditions
  std::map<unsigned, std::vector<std::pair<const AccessEv *, z3::expr>>> outside;
  for (const AccessEv &a : checker.thread1->accesses) {
    const st::Access &s = a.access();
    if (s.array >= checker.enc.kernel.arrays.size()) continue;
    const model::Array &arr = checker.enc.kernel.arrays[s.array];
    if (arr.space != AddressSpace::Shared || !arr.size || arr.is_extern) continue;
    z3::expr size = checker.enc.ctx.bv_val(*arr.size, 64);
    z3::expr cnt = checker.enc.ctx.bv_val(s.count ? s.count : 1, 64);
    outside[s.array].emplace_back(
        &a, a.pc && (z3::slt(a.index, checker.enc.ctx.bv_val(0, 64)) || z3::sgt(a.index, size - cnt)));
  }
  for (auto &[array, qs] : outside) {
    const model::Array &arr = checker.enc.kernel.arrays[array];
    std::optional<z3::model> m;
    if (qs.size() > 1) {  // all accesses at once first, as for races
      z3::expr_vector any(checker.enc.ctx);
      for (auto &q : qs) any.push_back(q.second);
      z3::check_result r =
          checker.checkBatch(z3::mk_or(any), "bounds of '" + arr.name + "' (all accesses at once)", m);
      if (r == z3::unsat) continue;
      if (r != z3::sat) m.reset();  // a model that broke an assumption: no witness
    }
    // one finding per array: the access the batched model shows outside first
    std::stable_partition(qs.begin(), qs.end(),
                          [&](const auto &q) { return m && m->eval(q.second, true).is_true(); });
    for (auto &[a, q] : qs)
      if (outOfBounds(*a, q, m, qs.size() > 1)) break;
  }
  return std::move(found_);
}

// One access's bounds query, and its finding; true when it has one.
bool BoundsCheck::outOfBounds(const AccessEv &a, const z3::expr &q, const std::optional<z3::model> &batch,
                              bool batched) {
  const st::Access &s = a.access();
  const model::Array &arr = checker.enc.kernel.arrays[s.array];
  std::optional<z3::model> m;
  if (checker.checkOrReuse(q, "bounds of '" + arr.name + "' at " + loc(a.s->range), m, batch, batched) !=
      z3::sat)
    return false;
  std::vector<z3::expr> counters;
  for (const LoopRef &l : a.loops) counters.push_back(l.k);
  checker.simplest(q, m, counters);
  Finding f;
  f.kind = Verdict::Oob;
  f.array = arr.name;
  f.space = "shared";
  f.accesses.push_back(refOf(*a.s, checker.enc.kernel));
  f.witness = checker.witness(*m, {&a.loops}, {1}, a.index, false);
  f.message = "out-of-bounds " + std::string(model::accessKindName(s.kind)) + " of '" + arr.name +
              (arr.by_bytes ? "': byte " : "': index ") + f.witness.index + " outside [0, " +
              std::to_string(*arr.size) + ")";
  if (arr.origin ==
      model::ArrayOrigin::FunctionPointer)  // the front end's stand-in for "no function to call"
    f.message = "call through a null or unknown function pointer ('" + arr.name +
                "' is reached): undefined behaviour";
  int64_t v = static_cast<int64_t>(num(*m, a.index));
  bool ok = m->eval(a.pc, true).is_true() &&
            (v < 0 || v + int64_t(s.count ? s.count : 1) > int64_t(*arr.size)) &&
            satisfiesAll(*m, checker.thread1->side);
  f.witness.validated = ok;
  if (!ok) {
    checker.notValidated("bounds of '" + arr.name + "'");
    return false;
  }
  found_.push_back(f);
  return true;
}

}  // namespace kverify::analysis::detail
