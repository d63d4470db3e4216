// CUDA, emulated for the host: enough of it to compile a generated kernel (kernel_gen.hpp)
// with g++ -x c++ and run its threads one after another (host_driver.cpp). Included first
// (-include) by the host oracle; the kernel's memory accesses are recorded by the
// compiler's ThreadSanitizer instrumentation (-fsanitize=thread, whose callbacks
// host_driver.cpp defines), so an address is what the compiler computed from the source,
// not what kverify's front end made of it.
//
// Threads run to their end one at a time, so only kernels whose control flow and indices
// do not depend on values read from memory (or on other threads) are compared; a barrier
// only counts the intervals a thread passed.
#pragma once

struct KvDim3 {
  unsigned x, y, z;
};
extern "C" {
extern KvDim3 threadIdx, blockIdx, blockDim, gridDim;
void kv_barrier(void);                                   // a block barrier passed
void kv_atomic(const volatile void *p, unsigned width);  // an atomic access, before it happens
}
#define warpSize 32

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
// Each static 1 MiB apart: an index past an array lands in a gap the driver recognises,
// instead of in the next array.
#define __shared__ static __attribute__((aligned(1 << 20)))
#define __constant__ __attribute__((aligned(1 << 20)))
#define __align__(n) __attribute__((aligned(n)))

struct __align__(8) int2 {
  int x, y;
};
struct __align__(4) uchar4 {
  unsigned char x, y, z, w;
};

inline void __syncthreads() { kv_barrier(); }
inline int __syncthreads_or(int p) {
  kv_barrier();
  return p;
}
inline void __syncwarp(unsigned = 0xffffffffu) {}

#define KV_ATOMIC_ADD(T)                                                 \
  __attribute__((no_sanitize("thread"))) inline T atomicAdd(T *p, T v) { \
    kv_atomic(p, sizeof(T));                                             \
    T old = *p;                                                          \
    *p = T(old + v);                                                     \
    return old;                                                          \
  }
KV_ATOMIC_ADD(int)
KV_ATOMIC_ADD(unsigned)
#undef KV_ATOMIC_ADD
