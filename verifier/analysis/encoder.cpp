// What both symbolic threads share: the launch, its limits, the parameters.
#include "analysis/exec.hpp"
#include "analysis/block_tickets.hpp"
#include "model/walk.hpp"

#include <algorithm>

namespace kverify::analysis::detail {

// The arrays whose every write is an atomicAdd of a positive constant, and that no other
// array may alias.
std::set<unsigned> ticketArrays(const Kernel &K, bool assume_no_alias) {
  std::set<unsigned> ok, bad;
  model::forEachStmt(K.body, [&](const Stmt &s) {
    const auto *a = s.as<st::Access>();
    if (!a || a->kind == AccessKind::Read) return;
    const Expr *v = a->value.get();
    while (v && v->is<ex::Cast>()) v = v->as<ex::Cast>()->arg.get();
    const auto *k = v ? v->as<ex::Const>() : nullptr;
    // (a block-scoped atomicAdd_block hands out distinct values only within a block)
    bool ticket = a->kind == AccessKind::Atomic && a->atomic == model::AtomicOp::Add &&
                  a->scope != model::Scope::Block && k &&
                  v->type.kind == Type::Kind::Int && k->int_value > 0;
    (ticket ? ok : bad).insert(a->array);
  });
  std::set<unsigned> out;
  for (unsigned a : ok) {
    if (bad.count(a) || a >= K.arrays.size()) continue;
    const model::Array &arr = K.arrays[a];
    bool aliased = !assume_no_alias && arr.origin == model::ArrayOrigin::Param &&
                   std::any_of(K.arrays.begin(), K.arrays.end(), [&](const model::Array &o) {
                     return o.id != a && o.origin == model::ArrayOrigin::Param && o.space == arr.space;
                   });
    if (!aliased && arr.elem.kind == Type::Kind::Int) out.insert(a);
  }
  return out;
}

std::optional<z3::func_decl> Encoder::readOnlyContents(unsigned array, const z3::sort &value) {
  if (!written) {
    written.emplace();
    model::forEachStmt(K.body, [&](const Stmt &s) {
      if (const auto *a = s.as<st::Access>(); a && a->kind != AccessKind::Read) written->insert(a->array);
    });
  }
  const model::Array &arr = K.arrays.at(array);
  // shared and local memory are per block and per thread: only global and constant memory
  if (arr.space != model::AddressSpace::Global && arr.space != model::AddressSpace::Constant)
    return std::nullopt;
  bool global = arr.space == model::AddressSpace::Global;
  // without the no-alias assumption a parameter's buffer may be written through another
  if (written->count(array) || (global && !O.assume_no_alias && !written->empty())) return std::nullopt;
  auto key = std::make_pair(array, Z3_get_sort_id(c, value));
  auto it = contents.find(key);
  if (it == contents.end()) {
    std::string name = "contents." + std::to_string(array) + "." + arr.name;
    it = contents.emplace(key, c.function(name.c_str(), bv(64), value)).first;
  }
  return it->second;
}

void Encoder::setup() {
  ticket_arrays = ticketArrays(K, O.assume_no_alias);
  block_ticket_reads = blockTicketReads(K, ticket_arrays);
  const char *dn[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    bdim.push_back(c.bv_const((std::string("blockDim.") + dn[d]).c_str(), 32));
    gdim.push_back(c.bv_const((std::string("gridDim.") + dn[d]).c_str(), 32));
  }
  for (int d = 0; d < 3; ++d) {
    base.push_back(z3::uge(bdim[d], u32(1)));
    base.push_back(z3::uge(gdim[d], u32(1)));
    if (O.block_dim[d]) base.push_back(bdim[d] == u32(*O.block_dim[d]));
    if (O.grid_dim[d]) base.push_back(gdim[d] == u32(*O.grid_dim[d]));
  }
  base.push_back(z3::ule(bdim[0], u32(1024)));
  base.push_back(z3::ule(bdim[1], u32(1024)));
  base.push_back(z3::ule(bdim[2], u32(64)));
  // exact in 32 bits under the bounds above (at most 2^26), and cheaper to bit-blast
  block_limit = z3::ule(bdim[0] * bdim[1] * bdim[2], u32(1024));
  base.push_back(*block_limit);
  base.push_back(z3::ult(gdim[0], u32(uint64_t(1) << 31)));
  base.push_back(z3::ule(gdim[1], u32(65535)));
  base.push_back(z3::ule(gdim[2], u32(65535)));
  if (K.max_threads && *K.max_threads < 1024) {  // (the product is exact, as above)
    base.push_back(z3::ule(bdim[0] * bdim[1] * bdim[2], u32(*K.max_threads)));
    assumptions.push_back("at most " + std::to_string(*K.max_threads) +
                          " threads per block (__launch_bounds__: CUDA refuses larger launches)");
  }
  if (O.assume_no_alias) assumptions.push_back("distinct pointer parameters do not alias");
  assumptions.push_back("signed integer arithmetic does not overflow (undefined behaviour)");
  assumptions.push_back("loop induction variables do not wrap around");
  for (const model::Param &p : K.params) {
    if (p.array) continue;
    z3::sort s = p.type.kind == Type::Kind::Bool ? c.bool_sort()
                 : p.type.bits ? bv(p.type.bits) : bv(64);
    params.emplace(p.name, c.constant(("param." + p.name).c_str(), s));
  }
}

Thread Encoder::makeThread(int t, bool shared_trips) {
  Thread T;
  T.t = t;
  T.shared_trips = shared_trips;
  const char *dn[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    T.tid.push_back(c.bv_const(("t" + std::to_string(t) + ".threadIdx." + dn[d]).c_str(), 32));
    T.bid.push_back(c.bv_const(("t" + std::to_string(t) + ".blockIdx." + dn[d]).c_str(), 32));
    base.push_back(z3::ult(T.tid[d], bdim[d]));
    base.push_back(z3::ult(T.bid[d], gdim[d]));
  }
  Exec X(*this, T);
  X.run(K);
  // --assume expressions, evaluated for this thread (parsed by configure)
  for (size_t i = 0; i < config.assumes.size(); ++i) {
    T.side.push_back(X.evalAtEntry(*config.assumes[i]));
    T.premises.emplace_back("--assume='" + O.assumes[i] + "'", T.side.back());
  }
  return T;
}

}  // namespace kverify::analysis::detail
