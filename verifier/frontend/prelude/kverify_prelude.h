// kverify's CUDA prelude: force-included before every parsed file, in place of the CUDA
// toolkit headers (clang 19 cannot parse CUDA 13's). It declares what device code uses;
// the front end recognises the body-less functions declared here by name (see
// frontend/builtins.cpp), so a declaration here is a promise that the front end models it.
// Functions defined here with bodies (cooperative groups) are inlined like user code.
#pragma once
#define __KVERIFY__ 1
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 12000
#endif

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__
#define __KV_DH__ __host__ __device__

typedef unsigned long __kv_size_t;
// What nvcc's implicit #include "cuda_runtime.h" brings along: size_t, NULL, ptrdiff_t,
// clock_t (the SDK's timing kernels store clock() into clock_t arrays), <stdlib.h>,
// <string.h> (host code calls memcpy and strlen without including it), and
// <math.h>'s constants (files use M_PI without including it; <math.h> itself, with C++'s
// overloads, would triple the time to parse a small file). Spelled as glibc does, so a
// later #include <math.h> redefines them identically.
#include <stddef.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#ifndef M_PI
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#endif
typedef unsigned int uint;  // <sys/types.h>'s, which CUDA code takes for granted
typedef unsigned short ushort;
typedef unsigned long ulong;

// --- built-in variables and vector types -------------------------------------------
#define __KV_VEC1(name, T) struct name##1 { T x; };
#define __KV_VEC2(name, T, A) struct __align__(A) name##2 { T x, y; };
#define __KV_VEC3(name, T) struct name##3 { T x, y, z; };
#define __KV_VEC4(name, T, A) struct __align__(A) name##4 { T x, y, z, w; };
#define __KV_VECS(name, T)                                                               \
  __KV_VEC1(name, T) __KV_VEC2(name, T, 2 * sizeof(T)) __KV_VEC3(name, T)                \
  __KV_VEC4(name, T, (4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)))                          \
  __KV_DH__ name##1 make_##name##1(T x);                                                 \
  __KV_DH__ name##2 make_##name##2(T x, T y);                                            \
  __KV_DH__ name##3 make_##name##3(T x, T y, T z);                                       \
  __KV_DH__ name##4 make_##name##4(T x, T y, T z, T w);
__KV_VECS(char, signed char)
__KV_VECS(uchar, unsigned char)
__KV_VECS(short, short)
__KV_VECS(ushort, unsigned short)
__KV_VECS(int, int)
__KV_VECS(uint, unsigned int)
__KV_VECS(long, long)
__KV_VECS(ulong, unsigned long)
__KV_VECS(longlong, long long)
__KV_VECS(ulonglong, unsigned long long)
__KV_VECS(float, float)
__KV_VECS(double, double)
#undef __KV_VEC1
#undef __KV_VEC2
#undef __KV_VEC3
#undef __KV_VEC4
#undef __KV_VECS

struct dim3 {
  unsigned int x, y, z;
  __KV_DH__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __KV_DH__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};

extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

// --- synchronisation ---------------------------------------------------------------
__device__ void __syncthreads();
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ void __threadfence_block();
__device__ void __threadfence();
__device__ void __threadfence_system();
__device__ void __kverify_grid_sync();          // grid-wide barrier (cooperative groups)
__device__ void __kverify_assume(bool cond);    // see <kverify.h>: KV_ASSUME(cond)
// KV_ASSUME_FORALL: `holds` (a lambda of one or two long long indices) is true for every
// index in [lo, hi). Modelled by name (a body, so clang accepts a lambda's type here).
template <class F>
__device__ inline void __kverify_assume_forall(long long lo, long long hi, F holds) {}

// --- atomics (all families, with _block and _system scopes) ---------------------------
#define __KV_ATOMIC(name, T) \
  __device__ T name(T *address, T val); \
  __device__ T name##_block(T *address, T val); \
  __device__ T name##_system(T *address, T val);
#define __KV_ATOMIC_CAS(T) \
  __device__ T atomicCAS(T *address, T compare, T val); \
  __device__ T atomicCAS_block(T *address, T compare, T val); \
  __device__ T atomicCAS_system(T *address, T compare, T val);
__KV_ATOMIC(atomicAdd, int) __KV_ATOMIC(atomicAdd, unsigned int)
__KV_ATOMIC(atomicAdd, unsigned long long) __KV_ATOMIC(atomicAdd, float)
__KV_ATOMIC(atomicAdd, double)
__KV_ATOMIC(atomicSub, int) __KV_ATOMIC(atomicSub, unsigned int)
__KV_ATOMIC(atomicExch, int) __KV_ATOMIC(atomicExch, unsigned int)
__KV_ATOMIC(atomicExch, unsigned long long) __KV_ATOMIC(atomicExch, float)
__KV_ATOMIC(atomicMin, int) __KV_ATOMIC(atomicMin, unsigned int)
__KV_ATOMIC(atomicMin, unsigned long long) __KV_ATOMIC(atomicMin, long long)
__KV_ATOMIC(atomicMax, int) __KV_ATOMIC(atomicMax, unsigned int)
__KV_ATOMIC(atomicMax, unsigned long long) __KV_ATOMIC(atomicMax, long long)
__KV_ATOMIC(atomicInc, unsigned int) __KV_ATOMIC(atomicDec, unsigned int)
__KV_ATOMIC(atomicAnd, int) __KV_ATOMIC(atomicAnd, unsigned int)
__KV_ATOMIC(atomicAnd, unsigned long long)
__KV_ATOMIC(atomicOr, int) __KV_ATOMIC(atomicOr, unsigned int)
__KV_ATOMIC(atomicOr, unsigned long long)
__KV_ATOMIC(atomicXor, int) __KV_ATOMIC(atomicXor, unsigned int)
__KV_ATOMIC(atomicXor, unsigned long long)
__KV_ATOMIC_CAS(int) __KV_ATOMIC_CAS(unsigned int) __KV_ATOMIC_CAS(unsigned long long)
__KV_ATOMIC_CAS(unsigned short)
#undef __KV_ATOMIC
#undef __KV_ATOMIC_CAS

// Generic atomics behind <cuda/atomic> (cuda::atomic_ref, cuda::atomic): each is an
// `atomic` access of *address (frontend/builtins.cpp: the "__kverify_atomic_" prefix), with
// the operation's memory order (a cuda::memory_order) and the object's thread scope (a
// cuda::thread_scope, a constant). Release and acquire orders let data published through
// a flag be ordered (analysis: message passing).
template <class T> __device__ T __kverify_atomic_load(const T *address, int order, int scope);
template <class T> __device__ void __kverify_atomic_store(T *address, T val, int order, int scope);
template <class T> __device__ T __kverify_atomic_exchange(T *address, T val, int order, int scope);
template <class T>
__device__ T __kverify_atomic_compare_exchange(T *address, T expected, T desired, int order, int scope);
template <class T> __device__ T __kverify_atomic_fetch_add(T *address, T val, int order, int scope);
template <class T> __device__ T __kverify_atomic_fetch_sub(T *address, T val, int order, int scope);
template <class T> __device__ T __kverify_atomic_fetch_and(T *address, T val, int order, int scope);
template <class T> __device__ T __kverify_atomic_fetch_or(T *address, T val, int order, int scope);
template <class T> __device__ T __kverify_atomic_fetch_xor(T *address, T val, int order, int scope);
template <class T> __device__ T __kverify_atomic_fetch_min(T *address, T val, int order, int scope);
template <class T> __device__ T __kverify_atomic_fetch_max(T *address, T val, int order, int scope);

// --- timing (opaque values; __nanosleep only delays the calling thread) -----------------
__device__ void __nanosleep(unsigned ns);
__device__ long clock();
__device__ long long clock64();
__device__ unsigned long long __globaltimer();

// --- warp shuffles and votes (values, not memory accesses) ---------------------------
#define __KV_SHFL(T) \
  __device__ T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32); \
  __device__ T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32); \
  __device__ T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32); \
  __device__ T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32);
__KV_SHFL(int) __KV_SHFL(unsigned int) __KV_SHFL(long) __KV_SHFL(unsigned long)
__KV_SHFL(long long) __KV_SHFL(unsigned long long) __KV_SHFL(float) __KV_SHFL(double)
#undef __KV_SHFL
__device__ int __all_sync(unsigned mask, int predicate);
__device__ int __any_sync(unsigned mask, int predicate);
__device__ unsigned __ballot_sync(unsigned mask, int predicate);
__device__ unsigned __activemask();
__device__ unsigned __match_any_sync(unsigned mask, int value);
__device__ int __reduce_add_sync(unsigned mask, int value);

// Warp intrinsics without _sync were removed in CUDA 9 (Volta's independent thread
// scheduling): a clear error instead of "undeclared identifier".
#define __KV_REMOVED(name, instead) \
  template <class... A> __device__ int name(A...) \
      __attribute__((unavailable("removed in CUDA 9; use " instead " with an explicit lane mask")));
__KV_REMOVED(__shfl, "__shfl_sync(0xffffffff, var, srcLane)")
__KV_REMOVED(__shfl_up, "__shfl_up_sync(0xffffffff, var, delta)")
__KV_REMOVED(__shfl_down, "__shfl_down_sync(0xffffffff, var, delta)")
__KV_REMOVED(__shfl_xor, "__shfl_xor_sync(0xffffffff, var, laneMask)")
__KV_REMOVED(__any, "__any_sync(0xffffffff, predicate)")
__KV_REMOVED(__all, "__all_sync(0xffffffff, predicate)")
__KV_REMOVED(__ballot, "__ballot_sync(0xffffffff, predicate)")
#undef __KV_REMOVED

// --- integer intrinsics ----------------------------------------------------------------
__device__ int __mul24(int x, int y);
__device__ unsigned __umul24(unsigned x, unsigned y);
__device__ int __mulhi(int x, int y);
__device__ unsigned __umulhi(unsigned x, unsigned y);
__device__ long long __mul64hi(long long x, long long y);
__device__ unsigned long long __umul64hi(unsigned long long x, unsigned long long y);
__device__ int __popc(unsigned x);
__device__ int __popcll(unsigned long long x);
__device__ int __clz(int x);
__device__ int __clzll(long long x);
__device__ int __ffs(int x);
__device__ int __ffsll(long long x);
__device__ unsigned __brev(unsigned x);
__device__ unsigned long long __brevll(unsigned long long x);
__device__ unsigned __byte_perm(unsigned x, unsigned y, unsigned s);
__device__ unsigned __sad(int x, int y, unsigned z);
__device__ unsigned __usad(unsigned x, unsigned y, unsigned z);
__device__ int __hadd(int x, int y);
__device__ int __rhadd(int x, int y);
__device__ unsigned __uhadd(unsigned x, unsigned y);
__device__ unsigned __urhadd(unsigned x, unsigned y);
__KV_DH__ int min(int a, int b);
__KV_DH__ unsigned min(unsigned a, unsigned b);
__KV_DH__ long long min(long long a, long long b);
__KV_DH__ unsigned long long min(unsigned long long a, unsigned long long b);
__KV_DH__ float min(float a, float b);
__KV_DH__ double min(double a, double b);
__KV_DH__ int max(int a, int b);
__KV_DH__ unsigned max(unsigned a, unsigned b);
__KV_DH__ long long max(long long a, long long b);
__KV_DH__ unsigned long long max(unsigned long long a, unsigned long long b);
__KV_DH__ float max(float a, float b);
__KV_DH__ double max(double a, double b);
// nvcc's mixed-sign overloads compare in the unsigned type (`min(n - i, 256)`)
__KV_DH__ unsigned min(int a, unsigned b);
__KV_DH__ unsigned min(unsigned a, int b);
__KV_DH__ unsigned long long min(long long a, unsigned long long b);
__KV_DH__ unsigned long long min(unsigned long long a, long long b);
__KV_DH__ unsigned max(int a, unsigned b);
__KV_DH__ unsigned max(unsigned a, int b);
__KV_DH__ unsigned long long max(long long a, unsigned long long b);
__KV_DH__ unsigned long long max(unsigned long long a, long long b);
__KV_DH__ int umin(unsigned a, unsigned b);
__KV_DH__ int umax(unsigned a, unsigned b);
// --- the C library on the device: device-only declarations, so that they coexist with
// the host declarations of the system headers (<math.h>, <stdio.h>, <stdlib.h>). ---
extern "C" {
__device__ int abs(int a);
__device__ long labs(long a);
__device__ long long llabs(long long a);
__device__ int printf(const char *format, ...);
// assert() in device code: a failed assertion traps; kverify lets the thread go on (sound)
__device__ void __assert_fail(const char *assertion, const char *file, unsigned int line,
                              const char *function);
__device__ void *malloc(__kv_size_t size);
__device__ void free(void *ptr);
__device__ void *memcpy(void *dst, const void *src, __kv_size_t n);
__device__ void *memset(void *dst, int value, __kv_size_t n);
__device__ double acos(double x); __device__ float acosf(float x);
__device__ double asin(double x); __device__ float asinf(float x);
__device__ double atan(double x); __device__ float atanf(float x);
__device__ double cbrt(double x); __device__ float cbrtf(float x);
__device__ double ceil(double x); __device__ float ceilf(float x);
__device__ double cos(double x); __device__ float cosf(float x);
__device__ double cosh(double x); __device__ float coshf(float x);
__device__ double erf(double x); __device__ float erff(float x);
__device__ double erfc(double x); __device__ float erfcf(float x);
__device__ double exp(double x); __device__ float expf(float x);
__device__ double exp2(double x); __device__ float exp2f(float x);
__device__ double exp10(double x); __device__ float exp10f(float x);
__device__ double expm1(double x); __device__ float expm1f(float x);
__device__ double fabs(double x); __device__ float fabsf(float x);
__device__ double floor(double x); __device__ float floorf(float x);
__device__ double lgamma(double x); __device__ float lgammaf(float x);
__device__ double log(double x); __device__ float logf(float x);
__device__ double log10(double x); __device__ float log10f(float x);
__device__ double log1p(double x); __device__ float log1pf(float x);
__device__ double log2(double x); __device__ float log2f(float x);
__device__ double logb(double x); __device__ float logbf(float x);
__device__ double rint(double x); __device__ float rintf(float x);
__device__ double round(double x); __device__ float roundf(float x);
__device__ double rsqrt(double x); __device__ float rsqrtf(float x);
__device__ double sin(double x); __device__ float sinf(float x);
__device__ double sinh(double x); __device__ float sinhf(float x);
__device__ double sqrt(double x); __device__ float sqrtf(float x);
__device__ double tan(double x); __device__ float tanf(float x);
__device__ double tanh(double x); __device__ float tanhf(float x);
__device__ double tgamma(double x); __device__ float tgammaf(float x);
__device__ double trunc(double x); __device__ float truncf(float x);
__device__ double nearbyint(double x); __device__ float nearbyintf(float x);
__device__ double rcbrt(double x); __device__ float rcbrtf(float x);
__device__ double atan2(double x, double y); __device__ float atan2f(float x, float y);
__device__ double fdim(double x, double y); __device__ float fdimf(float x, float y);
__device__ double fmax(double x, double y); __device__ float fmaxf(float x, float y);
__device__ double fmin(double x, double y); __device__ float fminf(float x, float y);
__device__ double fmod(double x, double y); __device__ float fmodf(float x, float y);
__device__ double hypot(double x, double y); __device__ float hypotf(float x, float y);
__device__ double pow(double x, double y); __device__ float powf(float x, float y);
__device__ double remainder(double x, double y); __device__ float remainderf(float x, float y);
__device__ double copysign(double x, double y); __device__ float copysignf(float x, float y);
__device__ double nextafter(double x, double y); __device__ float nextafterf(float x, float y);
__device__ double fma(double x, double y, double z); __device__ float fmaf(float x, float y, float z);
__device__ void sincosf(float x, float *s, float *c); __device__ void sincos(double x, double *s, double *c);
__device__ double frexp(double x, int *e); __device__ float frexpf(float x, int *e);
__device__ double ldexp(double x, int e); __device__ float ldexpf(float x, int e);
}

// --- floating-point intrinsics and conversions ------------------------------------------
__device__ float __saturatef(float x);
__device__ float __expf(float x);
__device__ float __exp10f(float x);
__device__ float __logf(float x);
__device__ float __log2f(float x);
__device__ float __log10f(float x);
__device__ float __powf(float x, float y);
__device__ float __sinf(float x);
__device__ float __cosf(float x);
__device__ float __tanf(float x);
__device__ void __sincosf(float x, float *s, float *c);
__device__ float __fdividef(float x, float y);
__device__ float __frcp_rn(float x);
__device__ float __fsqrt_rn(float x);
__device__ float __frsqrt_rn(float x);
__device__ float __fadd_rn(float x, float y);
__device__ float __fsub_rn(float x, float y);
__device__ float __fmul_rn(float x, float y);
__device__ float __fdiv_rn(float x, float y);
__device__ float __fmaf_rn(float x, float y, float z);
__device__ double __dadd_rn(double x, double y);
__device__ double __dmul_rn(double x, double y);
__device__ double __fma_rn(double x, double y, double z);
__device__ int __float2int_rn(float x);
__device__ int __float2int_rz(float x);
__device__ int __float2int_rd(float x);
__device__ int __float2int_ru(float x);
__device__ unsigned __float2uint_rn(float x);
__device__ unsigned __float2uint_rz(float x);
__device__ float __int2float_rn(int x);
__device__ float __uint2float_rn(unsigned x);
__device__ int __float_as_int(float x);
__device__ unsigned __float_as_uint(float x);
__device__ float __int_as_float(int x);
__device__ float __uint_as_float(unsigned x);
__device__ long long __double_as_longlong(double x);
__device__ double __longlong_as_double(long long x);
__device__ int __double2int_rn(double x);
__device__ float __double2float_rn(double x);

// --- texture and surface objects: read-only opaque values --------------------------------
// Legacy texture references (removed in CUDA 12, all over older code) read the same way.
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC
// (a builtin texture type: clang lets device code name file-scope texture references)
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture {
  int normalized;
  int filterMode;
};
template <class T, int D, enum cudaTextureReadMode M> __device__ T tex1Dfetch(texture<T, D, M> t, int x);
template <class T, int D, enum cudaTextureReadMode M> __device__ T tex1D(texture<T, D, M> t, float x);
template <class T, int D, enum cudaTextureReadMode M> __device__ T tex2D(texture<T, D, M> t, float x, float y);
template <class T, int D, enum cudaTextureReadMode M>
__device__ T tex3D(texture<T, D, M> t, float x, float y, float z);
template <class T, int D, enum cudaTextureReadMode M>
__device__ T tex1DLayered(texture<T, D, M> t, float x, int layer);
template <class T, int D, enum cudaTextureReadMode M>
__device__ T tex2DLayered(texture<T, D, M> t, float x, float y, int layer);
template <class T, int D, enum cudaTextureReadMode M>
__device__ T texCubemap(texture<T, D, M> t, float x, float y, float z);
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
template <class T> __device__ T tex1Dfetch(cudaTextureObject_t tex, int x);
template <class T> __device__ T tex1D(cudaTextureObject_t tex, float x);
template <class T> __device__ T tex2D(cudaTextureObject_t tex, float x, float y);
template <class T> __device__ T tex3D(cudaTextureObject_t tex, float x, float y, float z);
template <class T> __device__ T tex1DLayered(cudaTextureObject_t tex, float x, int layer);
template <class T> __device__ T tex2DLayered(cudaTextureObject_t tex, float x, float y, int layer);
template <class T> __device__ T texCubemap(cudaTextureObject_t tex, float x, float y, float z);
template <class T> __device__ T tex2DLod(cudaTextureObject_t tex, float x, float y, float level);
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };
template <class T> __device__ T surf1Dread(cudaSurfaceObject_t surf, int x,
                                           cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ T surf2Dread(cudaSurfaceObject_t surf, int x, int y,
                                           cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ void surf1Dwrite(T data, cudaSurfaceObject_t surf, int x,
                                               cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T> __device__ void surf2Dwrite(T data, cudaSurfaceObject_t surf, int x, int y,
                                               cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);

// --- read-only and cache-hint loads: modelled as reads of *p -----------------------------
template <class T> __device__ T __ldg(const T *p);
template <class T> __device__ T __ldca(const T *p);
template <class T> __device__ T __ldcg(const T *p);
template <class T> __device__ T __ldcs(const T *p);
template <class T> __device__ T __ldlu(const T *p);
template <class T> __device__ T __ldcv(const T *p);
// --- cache-hint stores: a write of *p (an opaque call's pointer argument) ----------------
template <class T> struct __kv_same { typedef T type; };  // the value: converted, not deduced
template <class T> __device__ void __stwb(T *p, typename __kv_same<T>::type value);
template <class T> __device__ void __stcg(T *p, typename __kv_same<T>::type value);
template <class T> __device__ void __stcs(T *p, typename __kv_same<T>::type value);
template <class T> __device__ void __stwt(T *p, typename __kv_same<T>::type value);
// --- traps: the thread stops (kverify lets it go on, which is sound) ---------------------
__device__ void __trap(void);
__device__ void __brkpt(void);

// --- the host side of kernel launches (parsed, never modelled) ---------------------------
typedef struct CUstream_st *cudaStream_t;
extern "C" int cudaConfigureCall(dim3 grid, dim3 block, __kv_size_t shared = 0,
                                 cudaStream_t stream = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block,
                                                __kv_size_t shared = 0, void *stream = 0);

// --- <math_constants.h>, which CUDA code uses without including it ---------------------------
#include <math_constants.h>

#ifdef __KVERIFY_GPUVERIFY__
#include <kverify_gpuverify.h>
#endif

// --- nvcc includes <cuda_runtime.h> in every .cu file: its host API is there unasked -------
#include <cuda_runtime.h>
