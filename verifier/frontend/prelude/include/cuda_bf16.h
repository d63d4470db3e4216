// kverify stub for <cuda_bf16.h>: bfloat16 values, opaque like every floating-point value
// (see cuda_fp16.h). Arrays of __nv_bfloat16 are 2-byte elements.
#pragma once
#include <cuda_fp16.h>
struct __align__(2) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(float f);
  __host__ __device__ operator float() const;
};
struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b);
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
__host__ __device__ __nv_bfloat16 __float2bfloat16(float f);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rn(float f);
__host__ __device__ float __bfloat162float(__nv_bfloat16 h);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(float a, float b);
__host__ __device__ float2 __bfloat1622float2(__nv_bfloat162 h);
__device__ __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b);
__device__ __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b);
__device__ __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b);
__device__ __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c);
__device__ __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b);
__device__ __nv_bfloat162 __hadd2(__nv_bfloat162 a, __nv_bfloat162 b);
__device__ __nv_bfloat162 __hmul2(__nv_bfloat162 a, __nv_bfloat162 b);
__device__ __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c);
__device__ __nv_bfloat16 operator+(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__device__ __nv_bfloat16 operator-(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__device__ __nv_bfloat16 operator*(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__device__ __nv_bfloat16 &operator+=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
__host__ __device__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b);
__host__ __device__ __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a);
__host__ __device__ __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h);
__host__ __device__ __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h);
__host__ __device__ float __low2float(__nv_bfloat162 h);
__host__ __device__ float __high2float(__nv_bfloat162 h);
__host__ __device__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short u);
__host__ __device__ unsigned short __bfloat16_as_ushort(__nv_bfloat16 h);
__host__ __device__ __nv_bfloat162 __float2bfloat162_rn(float f);
__device__ __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b);
__device__ __nv_bfloat16 __hneg(__nv_bfloat16 a);
__device__ __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b);
__device__ __nv_bfloat162 __hsub2(__nv_bfloat162 a, __nv_bfloat162 b);
__device__ __nv_bfloat162 __hmax2(__nv_bfloat162 a, __nv_bfloat162 b);
__device__ __nv_bfloat162 __hmin2(__nv_bfloat162 a, __nv_bfloat162 b);
__device__ __nv_bfloat16 hexp(__nv_bfloat16 a);
__device__ __nv_bfloat16 hsqrt(__nv_bfloat16 a);
__device__ __nv_bfloat16 hrsqrt(__nv_bfloat16 a);
__device__ __nv_bfloat16 __shfl_sync(unsigned mask, __nv_bfloat16 var, int srcLane, int width = 32);
__device__ __nv_bfloat16 __shfl_down_sync(unsigned mask, __nv_bfloat16 var, unsigned delta, int width = 32);
__device__ __nv_bfloat16 __shfl_xor_sync(unsigned mask, __nv_bfloat16 var, int laneMask, int width = 32);
__device__ __nv_bfloat16 operator/(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__device__ __nv_bfloat16 operator-(const __nv_bfloat16 &a);
__device__ __nv_bfloat16 &operator*=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
__device__ bool operator<(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__device__ bool operator>(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__device__ __nv_bfloat16 atomicAdd(__nv_bfloat16 *address, __nv_bfloat16 val);
__device__ __nv_bfloat162 atomicAdd(__nv_bfloat162 *address, __nv_bfloat162 val);
__device__ __nv_bfloat162 operator+(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__device__ __nv_bfloat162 operator-(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__device__ __nv_bfloat162 operator*(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
