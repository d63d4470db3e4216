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
  AssumeForall,      // __kverify_assume_forall(lo, hi, lambda): KV_ASSUME_FORALL
  Requires,          // __kverify_requires (GPUVerify's __requires): assumed in a kernel only
  Unchecked,         // __kverify_unchecked("__assert"): an annotation kverify does not check
  Unsupported,       // __kverify_unsupported("what"): the prelude's own "not modelled"
  Atomic,            // atomic* (all families and scopes)
  Ldg,               // __ldg(p) and the cache-hint loads (__ldcs, __ldcg, ...): a read of *p
  Min,
  Max,
  Abs,  // modelled exactly on integers, opaque on floats
  Mul24,
  UMul24,        // exact: product of the low 24 bits
  BitReverse,    // __brev, __brevll: exact (FFT index permutations)
  PopCount,      // __popc, __popcll: exact, as a sum of the bits
  LeadingZeros,  // __clz, __clzll: exact, as a choice by the highest set bit
  FirstSet,      // __ffs, __ffsll: exact, as a choice by the lowest set bit
  SurfaceWrite,  // surf*write: a write kverify does not model
  TextureRead,   // tex1Dfetch, tex2D, ...: read-only memory, an unknown value (the
                 // texture, an object handle or a legacy reference, is not evaluated)
  DeviceHeap,    // malloc, free, memcpy, memset on the device: not modelled
  MakeVector,    // make_float4 etc.: a struct value from its fields
  NoEffect,      // __assert_fail, __trap: the thread traps; going on instead is sound
  Opaque,        // everything else: a fresh value of the return type
};

struct BuiltinInfo {
  BuiltinKind kind = BuiltinKind::Opaque;
  model::Scope scope = model::Scope::Device;        // Fence, Atomic
  model::AtomicOp atomic = model::AtomicOp::Other;  // Atomic
};

BuiltinInfo classifyBuiltin(std::string_view name);

}  // namespace kverify::frontend
