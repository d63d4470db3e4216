// kverify's user header: state a kernel precondition the verifier may assume.
//   #include <kverify.h>
//   KV_ASSUME(n == 2 * blockDim.x);
// Under kverify it becomes __kverify_assume(cond); under nvcc (or any other compiler)
// it is a no-op and `cond` is not evaluated. Put this directory on nvcc's include path
// or copy the header next to your sources.
#pragma once
#if defined(__KVERIFY__)
#define KV_ASSUME(cond) __kverify_assume(cond)
#else
#define KV_ASSUME(cond) ((void)0)
#endif
