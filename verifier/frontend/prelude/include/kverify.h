// kverify's user header: state kernel preconditions the verifier may assume.
//   #include <kverify.h>
//   KV_ASSUME(n == 2 * blockDim.x);
//   KV_ASSUME_FORALL(i, 0, n, 0 <= bucket[i] && bucket[i] < 256);
//   KV_ASSUME_SORTED(row_ptr, 0, rows + 1);
//   KV_ASSUME_DISTINCT(perm, 0, n);
// Under kverify they become assumptions; under nvcc (or any other compiler) they are
// no-ops and nothing in them is evaluated. Copy this header next to your sources, or put
// the folder it is installed in (<prefix>/include) on nvcc's include path; not this one,
// whose other headers are kverify's stand-ins for CUDA's.
//
// KV_ASSUME_FORALL(i, lo, hi, cond): cond holds for every long long i in [lo, hi);
// KV_ASSUME_FORALL2(i, j, lo, hi, cond): for every i and j in [lo, hi). cond may read
// arrays the kernel never writes (a statement about their contents, not an access) and
// must not call functions or write anything. kverify uses such a fact at the elements
// the kernel reads, with indices `i + d` for d free of i (bucket[i], row_ptr[i + 1]).
#pragma once
#if defined(__KVERIFY__)
#define KV_ASSUME(cond) __kverify_assume(cond)
#define KV_ASSUME_FORALL(i, lo, hi, cond) \
  __kverify_assume_forall((lo), (hi), [&](long long i) -> bool { return (cond); })
#define KV_ASSUME_FORALL2(i, j, lo, hi, cond) \
  __kverify_assume_forall((lo), (hi), [&](long long i, long long j) -> bool { return (cond); })
#else
#define KV_ASSUME(cond) ((void)0)
#define KV_ASSUME_FORALL(i, lo, hi, cond) ((void)0)
#define KV_ASSUME_FORALL2(i, j, lo, hi, cond) ((void)0)
#endif
// a[lo..hi) is non-decreasing; its elements are pairwise different
#define KV_ASSUME_SORTED(a, lo, hi) \
  KV_ASSUME_FORALL2(kv_i_, kv_j_, lo, hi, kv_i_ >= kv_j_ || (a)[kv_i_] <= (a)[kv_j_])
#define KV_ASSUME_DISTINCT(a, lo, hi) \
  KV_ASSUME_FORALL2(kv_i_, kv_j_, lo, hi, kv_i_ == kv_j_ || (a)[kv_i_] != (a)[kv_j_])
