// GPUVerify's specification macros, for code written for GPUVerify (kverify --gpuverify,
// or a file starting with GPUVerify's `//--blockDim=...` header line).
//   __requires(c) in a kernel    an assumption at kernel entry, as KV_ASSUME(c)
//   __assume(c)                  an assumption where it stands
//   __requires(c) in a function  not assumed: kverify does not check it at the calls
//   __assert, __invariant, __ensures, __global_invariant, ...
//                                not checked (kverify infers loop invariants itself and
//                                verifies races, divergence and bounds, not assertions);
//                                each one is listed among the kernel's assumptions
// The predicates GPUVerify offers inside them (__enabled, __implies, __uniform_int,
// __read/__write and friends, __other_int, __return_val_int, ...) parse; the relational
// and access-history ones are unknown values, so an assumption built on them restricts
// less than GPUVerify's would: sound, never stronger.
#pragma once

__device__ void __kverify_requires(bool cond);
__device__ void __kverify_unchecked(const char *annotation);
__device__ bool __kverify_unknown_bool();
__device__ int __kverify_unknown_int();
__device__ void *__kverify_unknown_ptr();

#define __requires(c) __kverify_requires(c)
#define __global_requires(c) __kverify_requires(c)
#define __assume(c) __kverify_assume(c)
#define __assert(c) __kverify_unchecked("__assert")
#define __global_assert(c) __kverify_unchecked("__global_assert")
#define __invariant(c) __kverify_unchecked("__invariant")
#define __global_invariant(c) __kverify_unchecked("__global_invariant")
#define __candidate_invariant(c) __kverify_unchecked("__candidate_invariant")
#define __candidate_global_invariant(c) __kverify_unchecked("__candidate_global_invariant")
#define __function_wide_invariant(c) __kverify_unchecked("__function_wide_invariant")
#define __function_wide_candidate_invariant(c) __kverify_unchecked("__function_wide_candidate_invariant")
#define __ensures(c) __kverify_unchecked("__ensures")
#define __global_ensures(c) __kverify_unchecked("__global_ensures")
#define __requires_fresh_array(p) __kverify_unchecked("__requires_fresh_array")
// a file-scope axiom: a declaration that states nothing
#define __axiom(c) static_assert(true, "GPUVerify __axiom (not used by kverify)")

#define __implies(a, b) (!(a) || (b))
#define __ite(c, a, b) ((c) ? (a) : (b))
#define __enabled() true
#define __uniform_int(x) __kverify_unknown_bool()
#define __uniform_bool(x) __kverify_unknown_bool()
#define __distinct_int(x) __kverify_unknown_bool()
#define __distinct_bool(x) __kverify_unknown_bool()
#define __all(x) __kverify_unknown_bool()
#define __at_most_one(x) __kverify_unknown_bool()
#define __other_int(x) __kverify_unknown_int()
#define __other_bool(x) __kverify_unknown_bool()
#define __old_int(x) __kverify_unknown_int()
#define __old_bool(x) __kverify_unknown_bool()
#define __return_val_int() __kverify_unknown_int()
#define __return_val_bool() __kverify_unknown_bool()
#define __return_val_ptr() __kverify_unknown_ptr()
#define __return_val_funptr(T) ((T)__kverify_unknown_ptr())
#define __read(p) __kverify_unknown_bool()
#define __write(p) __kverify_unknown_bool()
#define __no_read(p) __kverify_unknown_bool()
#define __no_write(p) __kverify_unknown_bool()
#define __read_implies(p, c) __kverify_unknown_bool()
#define __write_implies(p, c) __kverify_unknown_bool()
#define __read_offset_bytes(p) __kverify_unknown_int()
#define __write_offset_bytes(p) __kverify_unknown_int()
#define __ptr_base(p) __kverify_unknown_ptr()
#define __ptr_offset_bytes(p) __kverify_unknown_int()
#define __array_snapshot(dst, src) __kverify_unchecked("__array_snapshot")
#define __non_temporal_loads_begin() __kverify_unchecked("__non_temporal_loads_begin")
#define __non_temporal_loads_end() __kverify_unchecked("__non_temporal_loads_end")

// GPUVerify's <cuda.h> brings cooperative groups and cuRAND along.
#include <cooperative_groups.h>
#include <curand_kernel.h>
