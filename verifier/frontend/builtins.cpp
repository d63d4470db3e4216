#include "frontend/builtins.hpp"

namespace kverify::frontend {

static bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// atomicAdd, atomicCAS_block, atomicInc_system; cuda::atomic_ref's __kverify_atomic_fetch_add,
// __kverify_atomic_load, ...
static BuiltinInfo atomic(std::string_view name) {
  using model::AtomicOp;
  static const std::pair<std::string_view, AtomicOp> ops[] = {
      {"Add", AtomicOp::Add},       {"Sub", AtomicOp::Sub},       {"Exch", AtomicOp::Exch},
      {"Min", AtomicOp::Min},       {"Max", AtomicOp::Max},       {"Inc", AtomicOp::Inc},
      {"Dec", AtomicOp::Dec},       {"CAS", AtomicOp::Cas},       {"And", AtomicOp::And},
      {"Or", AtomicOp::Or},         {"Xor", AtomicOp::Xor},       {"fetch_add", AtomicOp::Add},
      {"fetch_sub", AtomicOp::Sub}, {"exchange", AtomicOp::Exch}, {"compare_exchange", AtomicOp::Cas},
      {"fetch_and", AtomicOp::And}, {"fetch_or", AtomicOp::Or},   {"fetch_xor", AtomicOp::Xor},
      {"fetch_min", AtomicOp::Min}, {"fetch_max", AtomicOp::Max}, {"load", AtomicOp::Load},
      {"store", AtomicOp::Store}};
  BuiltinInfo info{BuiltinKind::Atomic};
  std::string_view rest = name.substr(startsWith(name, "atomic") ? 6 : 17);
  if (size_t u = rest.rfind('_'); u != std::string_view::npos && startsWith(name, "atomic")) {
    std::string_view suffix = rest.substr(u + 1);
    rest = rest.substr(0, u);
    info.scope = suffix == "block" ? model::Scope::Block : model::Scope::System;
  }
  for (const auto &[text, op] : ops)
    if (rest == text) info.atomic = op;
  return info;
}

BuiltinInfo classifyBuiltin(std::string_view name) {
  using K = BuiltinKind;
  if (name == "__syncthreads") return {K::BlockBarrier};
  if (name == "__syncthreads_count" || name == "__syncthreads_and" || name == "__syncthreads_or")
    return {K::PredicateBarrier};
  if (name == "__syncwarp") return {K::WarpBarrier};
  if (name == "__kverify_grid_sync") return {K::GridBarrier};
  if (name == "__threadfence_block") return {K::Fence, model::Scope::Block};
  if (name == "__threadfence") return {K::Fence, model::Scope::Device};
  if (name == "__threadfence_system") return {K::Fence, model::Scope::System};
  if (name == "__kverify_assume") return {K::Assume};
  if (name == "__kverify_assume_forall") return {K::AssumeForall};
  if (name == "__kverify_requires") return {K::Requires};
  if (name == "__kverify_unchecked") return {K::Unchecked};
  if (name == "__kverify_unsupported") return {K::Unsupported};
  if (startsWith(name, "atomic") || startsWith(name, "__kverify_atomic_")) return atomic(name);
  // __ldg and the cache-hint loads (__ldcs: streaming, __ldcg: L2 only, ...): a read of *p
  if (name == "__ldg" || name == "__ldca" || name == "__ldcg" || name == "__ldcs" || name == "__ldlu" ||
      name == "__ldcv")
    return {K::Ldg};
  if (name == "min" || name == "umin") return {K::Min};
  if (name == "max" || name == "umax") return {K::Max};
  if (name == "abs" || name == "labs" || name == "llabs") return {K::Abs};
  if (name == "__mul24") return {K::Mul24};
  if (name == "__umul24") return {K::UMul24};
  if (name == "__brev" || name == "__brevll") return {K::BitReverse};
  if (name == "__popc" || name == "__popcll") return {K::PopCount};
  if (name == "__clz" || name == "__clzll") return {K::LeadingZeros};
  if (name == "__ffs" || name == "__ffsll") return {K::FirstSet};
  if (startsWith(name, "surf") && name.find("write") != std::string_view::npos) return {K::SurfaceWrite};
  if (startsWith(name, "tex1D") || startsWith(name, "tex2D") || startsWith(name, "tex3D") ||
      startsWith(name, "texCubemap"))
    return {K::TextureRead};
  if (name == "malloc" || name == "free" || name == "memcpy" || name == "memset") return {K::DeviceHeap};
  if (name == "__assert_fail" || name == "__trap" || name == "__brkpt") return {K::NoEffect};
  if (startsWith(name, "make_")) return {K::MakeVector};
  return {K::Opaque};
}

}  // namespace kverify::frontend
