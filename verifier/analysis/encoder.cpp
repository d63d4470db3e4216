// What both symbolic threads share: the launch, its limits, the parameters.
#include "analysis/exec.hpp"
#include "analysis/block_tickets.hpp"
#include "model/walk.hpp"

#include <algorithm>

namespace kverify::analysis::detail {

// Whether two arrays may share memory: without the no-alias assumption, any two global
// arrays (pointer parameters, their pointer fields, __device__ variables) may overlap at any
// distance, except two __device__ variables (distinct objects). Shared, local and
// __constant__ memory alias nothing else.
bool mayAlias(const Options &O, const model::Array &a, const model::Array &b) {
  using model::ArrayOrigin;
  if (O.assume_no_alias || a.id == b.id) return false;
  auto pointee = [](const model::Array &x) {
    return x.space == AddressSpace::Global && x.elem_size &&
           (x.origin == ArrayOrigin::Param || x.origin == ArrayOrigin::DeviceVar);
  };
  return pointee(a) && pointee(b) &&
         !(a.origin == ArrayOrigin::DeviceVar && b.origin == ArrayOrigin::DeviceVar);
}

namespace {

// The value an integer constant expression (a constant under integer casts) has in its
// type, as that many bits; none for anything else.
std::optional<uint64_t> constantBits(const Expr &e) {
  if (e.type.kind != Type::Kind::Int || e.type.bits == 0 || e.type.bits > 64) return std::nullopt;
  const uint64_t mask = e.type.bits == 64 ? ~uint64_t(0) : (uint64_t(1) << e.type.bits) - 1;
  if (const auto *k = e.as<ex::Const>()) return static_cast<uint64_t>(k->int_value) & mask;
  const auto *c = e.as<ex::Cast>();
  if (!c) return std::nullopt;
  const Expr &arg = *c->arg;
  std::optional<uint64_t> v = constantBits(arg);
  if (!v) return std::nullopt;
  if (arg.type.is_signed && arg.type.bits < 64 && (*v >> (arg.type.bits - 1)) & 1)
    *v |= ~uint64_t(0) << arg.type.bits;  // sign-extend, then truncate
  return *v & mask;
}

// An atomicAdd's operand that moves the counter up by a positive step: a constant in
// (0, 2^(w-1)) at the operand's width w. A larger one is a decrement in disguise
// (atomicAdd(&n, 0xffffffffu) subtracts 1), after which another add returns a value an
// earlier one returned.
bool positiveStep(const Expr *v) {
  std::optional<uint64_t> bits = v ? constantBits(*v) : std::nullopt;
  return bits && *bits != 0 && (*bits >> (v->type.bits - 1)) == 0;
}

}  // namespace

// Counters handing out tickets: global or shared integer arrays whose every write is a
// device-wide atomicAdd of a positive step, and that no other array may alias.
std::set<unsigned> ticketArrays(const Kernel &K, const Options &O) {
  std::set<unsigned> ok, bad;
  model::forEachStmt(K.body, [&](const Stmt &s) {
    const auto *a = s.as<st::Access>();
    if (!a || a->kind == AccessKind::Read) return;
    // (a block-scoped atomicAdd_block is atomic only among the threads of one block)
    bool ticket = a->kind == AccessKind::Atomic && a->atomic == model::AtomicOp::Add &&
                  a->scope != model::Scope::Block && positiveStep(a->value.get());
    (ticket ? ok : bad).insert(a->array);
  });
  std::set<unsigned> out;
  for (unsigned a : ok) {
    if (bad.count(a) || a >= K.arrays.size()) continue;
    const model::Array &arr = K.arrays[a];
    if (arr.space != AddressSpace::Global && arr.space != AddressSpace::Shared) continue;
    // another array that may share its memory may write it otherwise
    bool aliased = std::any_of(K.arrays.begin(), K.arrays.end(),
                               [&](const model::Array &o) { return mayAlias(O, arr, o); });
    if (!aliased && arr.elem.kind == Type::Kind::Int) out.insert(a);
  }
  return out;
}

std::optional<z3::func_decl> Encoder::readOnlyContents(unsigned array, unsigned count,
                                                       const z3::sort &value) {
  if (!written) {
    written.emplace();
    model::forEachStmt(kernel.body, [&](const Stmt &s) {
      if (const auto *a = s.as<st::Access>(); a && a->kind != AccessKind::Read) written->insert(a->array);
    });
  }
  const model::Array &arr = kernel.arrays.at(array);
  // shared and local memory are per block and per thread: only global and constant memory
  if (arr.space != model::AddressSpace::Global && arr.space != model::AddressSpace::Constant)
    return std::nullopt;
  bool global = arr.space == model::AddressSpace::Global;
  // without the no-alias assumption a global array may be written through another one
  // that overlaps it (__constant__ memory is written by no kernel)
  bool written_through_alias = global && std::any_of(written->begin(), written->end(), [&](unsigned w) {
                                 return w < kernel.arrays.size() && mayAlias(options, arr, kernel.arrays[w]);
                               });
  if (written->count(array) || written_through_alias) return std::nullopt;
  auto key = std::make_tuple(array, count, Z3_get_sort_id(ctx, value));
  auto it = contents.find(key);
  if (it == contents.end()) {
    std::string name = "contents." + std::to_string(array) + "." + arr.name + ".x" + std::to_string(count);
    it = contents.emplace(key, ctx.function(name.c_str(), bv(64), value)).first;
  }
  return it->second;
}

// x, at most 2^bits - 1 by the launch facts, zero-extended from those bits to `width`: a
// multiplier over such operands bit-blasts far smaller than over all 32 (facts with products
// of launch dimensions are in most queries).
static z3::expr narrow(const z3::expr &x, unsigned bits, unsigned width) {
  return z3::zext(x.extract(bits - 1, 0), width - bits);
}

// blockDim.x * y * z <= n, with the bounds that make the narrow product exact (x, y <= 1024,
// z <= 64: below 2^27).
z3::expr Encoder::threadsPerBlockAtMost(uint64_t n) {
  z3::expr product = narrow(bdim[0], 11, 32) * narrow(bdim[1], 11, 32) * narrow(bdim[2], 7, 32);
  return z3::ule(bdim[0], u32(1024)) && z3::ule(bdim[1], u32(1024)) && z3::ule(bdim[2], u32(64)) &&
         z3::ule(product, u32(n));
}

const std::string &Encoder::localName(unsigned lid) {
  if (local_names.empty())  // (once: a kernel may name thousands of locals)
    for (const model::Local &l : kernel.locals) local_names.emplace(l.id, l.name);
  auto it = local_names.find(lid);
  return idName('l', lid, it == local_names.end() ? "local" : it->second);
}

void Encoder::setup() {
  ticket_arrays = ticketArrays(kernel, options);
  block_ticket_reads = blockTicketReads(kernel, ticket_arrays);
  const char *dn[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    bdim.push_back(ctx.bv_const((std::string("blockDim.") + dn[d]).c_str(), 32));
    gdim.push_back(ctx.bv_const((std::string("gridDim.") + dn[d]).c_str(), 32));
  }
  for (int d = 0; d < 3; ++d) {
    std::string b = std::string("blockDim.") + dn[d], g = std::string("gridDim.") + dn[d];
    launchFact(z3::uge(bdim[d], u32(1)), b + " >= 1 (the launch)");
    launchFact(z3::uge(gdim[d], u32(1)), g + " >= 1 (the launch)");
    if (options.block_dim[d])
      launchFact(bdim[d] == u32(*options.block_dim[d]),
                 b + " == " + std::to_string(*options.block_dim[d]) + " (--block-dim)");
    if (options.grid_dim[d])
      launchFact(gdim[d] == u32(*options.grid_dim[d]),
                 g + " == " + std::to_string(*options.grid_dim[d]) + " (--grid-dim)");
  }
  launchFact(z3::ule(bdim[0], u32(1024)), "blockDim.x <= 1024 (CUDA's limit)");
  launchFact(z3::ule(bdim[1], u32(1024)), "blockDim.y <= 1024 (CUDA's limit)");
  launchFact(z3::ule(bdim[2], u32(64)), "blockDim.z <= 64 (CUDA's limit)");
  // exact in 32 bits under the bounds above (at most 2^26), and cheaper to bit-blast
  block_limits.push_back(z3::ule(bdim[0] * bdim[1] * bdim[2], u32(1024)));
  launchFact(block_limits.back(), "at most 1024 threads per block (CUDA's limit)");
  launchFact(z3::ult(gdim[0], u32(uint64_t(1) << 31)), "gridDim.x < 2^31 (CUDA's limit)");
  launchFact(z3::ule(gdim[1], u32(65535)), "gridDim.y <= 65535 (CUDA's limit)");
  launchFact(z3::ule(gdim[2], u32(65535)), "gridDim.z <= 65535 (CUDA's limit)");
  // The grid's x dimension has at most 2^32 threads (2^32 threads in one dimension is legal,
  // and never launched): where the grid or the block is symbolic in x, stated. (In y and z,
  // CUDA's limits keep it below 65535 * 1024 threads.)
  if (options.assume_grid_fits_32_bits && !(options.block_dim[0] && options.grid_dim[0])) {
    z3::expr threads = narrow(gdim[0], 31, 64) * narrow(bdim[0], 11, 64);  // (exact: below 2^42)
    launchFact(z3::ult(gdim[0], u32(uint64_t(1) << 31)) && z3::ule(bdim[0], u32(1024)) &&
                   z3::ule(threads, ctx.bv_val(uint64_t(1) << 32, 64)),
               "gridDim.x * blockDim.x <= 2^32 (assumed: thread indices fit in 32 bits)");
    assumptions.push_back(
        "a grid dimension has at most 2^32 threads: blockIdx.x * blockDim.x + threadIdx.x does not wrap "
        "around (--no-grid-size-assumption drops this)");
  }
  if (kernel.max_threads && *kernel.max_threads < 1024) {  // (the product is exact, as above)
    launchFact(threadsPerBlockAtMost(*kernel.max_threads),
               "at most " + std::to_string(*kernel.max_threads) + " threads per block (__launch_bounds__)");
    assumptions.push_back("at most " + std::to_string(*kernel.max_threads) +
                          " threads per block (__launch_bounds__: CUDA refuses larger launches)");
  }
  if (options.assume_no_alias) {
    assumptions.push_back("distinct pointer parameters do not alias");
    // a __device__ array reaches a parameter through cudaGetSymbolAddress or &devArr[0]
    std::string device_vars;
    bool pointers = false;
    for (const model::Array &a : kernel.arrays) {
      if (a.space != AddressSpace::Global) continue;
      if (a.origin == model::ArrayOrigin::Param) pointers = true;
      if (a.origin == model::ArrayOrigin::DeviceVar)
        device_vars += (device_vars.empty() ? "'" : ", '") + a.name + "'";
    }
    if (pointers && !device_vars.empty())
      assumptions.push_back("pointer parameters do not point into the __device__ variables " + device_vars);
  }
  if (!ticket_arrays.empty()) {
    std::string names;
    for (unsigned a : ticket_arrays) names += (names.empty() ? "'" : ", '") + kernel.arrays[a].name + "'";
    assumptions.push_back("atomicAdd counters do not wrap around (each atomicAdd returns a new ticket): " +
                          names);
  }
  assumptions.push_back("signed integer arithmetic does not overflow (undefined behaviour)");
  for (const model::Param &p : kernel.params) {
    if (p.array) continue;
    z3::sort s = p.type.kind == Type::Kind::Bool ? ctx.bool_sort() : p.type.bits ? bv(p.type.bits) : bv(64);
    params.emplace(p.name, ctx.constant(("param." + p.name).c_str(), s));
  }
}

Thread Encoder::makeThread(int t, bool shared_trips) {
  Thread T;
  T.t = t;
  T.shared_trips = shared_trips;
  const char *dn[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    T.tid.push_back(ctx.bv_const((threadPrefix(t) + "threadIdx." + dn[d]).c_str(), 32));
    T.bid.push_back(ctx.bv_const((threadPrefix(t) + "blockIdx." + dn[d]).c_str(), 32));
    launchFact(z3::ult(T.tid[d], bdim[d]),
               std::string("threadIdx.") + dn[d] + " < blockDim." + dn[d] + " (the launch)");
    launchFact(z3::ult(T.bid[d], gdim[d]),
               std::string("blockIdx.") + dn[d] + " < gridDim." + dn[d] + " (the launch)");
  }
  Exec X(*this, T);
  // --assume expressions, evaluated for this thread (parsed by configure): facts from the
  // start, which the execution's own queries (loop invariants, no wrap-around) use too
  for (size_t i = 0; i < config.assumes.size(); ++i) {
    T.side.push_back(X.evalAtEntry(*config.assumes[i]));
    T.label("--assume='" + options.assumes[i] + "'");
    T.premises.emplace_back("--assume='" + options.assumes[i] + "'", T.side.back());
  }
  X.run(kernel);
  return T;
}

}  // namespace kverify::analysis::detail
