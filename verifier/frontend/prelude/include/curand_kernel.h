// kverify stub for <curand_kernel.h>: the cuRAND device API. A generator's state lives in
// memory: every call reads and writes the state it is given (so two threads drawing from
// one state race, as they do on the GPU) and returns an unknown value. MTGP32 states are
// shared by up to 256 threads of a block by design; kverify cannot model their per-thread
// slots and reports their use as unsupported.
#pragma once
#include <curand.h>

#define __KV_CURAND_STATE(name) \
  struct name { unsigned int __kv_word; unsigned int __kv_rest[15]; };
__KV_CURAND_STATE(curandStateXORWOW)
__KV_CURAND_STATE(curandStatePhilox4_32_10)
__KV_CURAND_STATE(curandStateMRG32k3a)
__KV_CURAND_STATE(curandStateSobol32)
__KV_CURAND_STATE(curandStateScrambledSobol32)
__KV_CURAND_STATE(curandStateSobol64)
__KV_CURAND_STATE(curandStateScrambledSobol64)
#undef __KV_CURAND_STATE
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;
typedef struct curandStateSobol32 curandStateSobol32_t;
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t;
typedef struct curandStateSobol64 curandStateSobol64_t;
typedef struct curandStateScrambledSobol64 curandStateScrambledSobol64_t;
struct curandStateMtgp32 { unsigned int s[1024]; int offset; int pIdx; void *k; };
typedef struct curandStateMtgp32 curandStateMtgp32_t;
typedef unsigned int curandDirectionVectors32_t[32];

__device__ unsigned int __kverify_random_u32();
__device__ unsigned long long __kverify_random_u64();
__device__ float __kverify_random_f32();
__device__ double __kverify_random_f64();
__device__ void __kverify_unsupported(const char *what);

// one draw: the state is read and written
#define __KV_DRAW(state) ((state)->__kv_word = (state)->__kv_word + 1u)

template <class S>
__device__ void curand_init(unsigned long long seed, unsigned long long subsequence,
                            unsigned long long offset, S *state) {
  state->__kv_word = 0u;
}
#define __KV_CURAND_DRAW(ret, name, draw, ...)                         \
  template <class S> __device__ ret name(S *state __VA_OPT__(, ) __VA_ARGS__) { \
    __KV_DRAW(state);                                                   \
    return draw();                                                      \
  }
__KV_CURAND_DRAW(unsigned int, curand, __kverify_random_u32)
__KV_CURAND_DRAW(float, curand_uniform, __kverify_random_f32)
__KV_CURAND_DRAW(double, curand_uniform_double, __kverify_random_f64)
__KV_CURAND_DRAW(float, curand_normal, __kverify_random_f32)
__KV_CURAND_DRAW(double, curand_normal_double, __kverify_random_f64)
__KV_CURAND_DRAW(float, curand_log_normal, __kverify_random_f32, float mean, float stddev)
__KV_CURAND_DRAW(unsigned int, curand_poisson, __kverify_random_u32, double lambda)
#undef __KV_CURAND_DRAW
template <class S> __device__ float2 curand_normal2(S *state) {
  __KV_DRAW(state);
  return make_float2(__kverify_random_f32(), __kverify_random_f32());
}
template <class S> __device__ float4 curand_uniform4(S *state) {
  __KV_DRAW(state);
  return make_float4(__kverify_random_f32(), __kverify_random_f32(), __kverify_random_f32(),
                     __kverify_random_f32());
}
template <class S> __device__ uint4 curand4(S *state) {
  __KV_DRAW(state);
  return make_uint4(__kverify_random_u32(), __kverify_random_u32(), __kverify_random_u32(),
                    __kverify_random_u32());
}
template <class S> __device__ void skipahead(unsigned long long n, S *state) { __KV_DRAW(state); }
template <class S> __device__ void skipahead_sequence(unsigned long long n, S *state) { __KV_DRAW(state); }
#undef __KV_DRAW

#define __KV_MTGP32(ret, name)                                                             \
  template <> __device__ ret name(curandStateMtgp32 *state) {                             \
    __kverify_unsupported("cuRAND MTGP32 state (shared by the threads of a block by design)"); \
    return (ret)0;                                                                         \
  }
__KV_MTGP32(unsigned int, curand)
__KV_MTGP32(float, curand_uniform)
__KV_MTGP32(float, curand_normal)
__KV_MTGP32(double, curand_uniform_double)
__KV_MTGP32(double, curand_normal_double)
#undef __KV_MTGP32
