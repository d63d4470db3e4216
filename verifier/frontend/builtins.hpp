#pragma once
// How the front end models each body-less function of the prelude, by name.

#include "model/model.hpp"

#include <string_view>

namespace kverify::frontend {

enum class BuiltinKind {
  BlockBarrier,      // __syncthreads
  PredicateBarrier,  // __syncthreads_count/_and/_or: a block barrier with a predicate
  WarpBarrier,       // __syncwarp(mask)
  GridBarrier,       // cooperative groups grid sync
  Fence,             // __threadfence*
  Assume,            // __kverify_assume
  Atomic,            // atomic* (all families and scopes)
  Ldg,               // __ldg(p): a read of *p
  Min, Max, Abs,     // modelled exactly on integers, opaque on floats
  Mul24, UMul24,     // exact: product of the low 24 bits
  SurfaceWrite,      // surf*write: a write kverify does not model
  DeviceHeap,        // malloc, free, memcpy, memset on the device: not modelled
  MakeVector,        // make_float4 etc.: a struct value from its fields
  Opaque,            // everything else: a fresh value of the return type
};

struct BuiltinInfo {
  BuiltinKind kind = BuiltinKind::Opaque;
  model::FenceScope scope = model::FenceScope::Device;
};

BuiltinInfo classifyBuiltin(std::string_view name);

}  // namespace kverify::frontend
