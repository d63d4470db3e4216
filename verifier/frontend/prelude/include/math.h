// kverify stub for <math.h>: the CUDA device math functions, float and double.
// The front end models their results as opaque values of the return type.
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
__host__ __device__ double acos(double x); __host__ __device__ float acosf(float x);
__host__ __device__ double asin(double x); __host__ __device__ float asinf(float x);
__host__ __device__ double atan(double x); __host__ __device__ float atanf(float x);
__host__ __device__ double cbrt(double x); __host__ __device__ float cbrtf(float x);
__host__ __device__ double ceil(double x); __host__ __device__ float ceilf(float x);
__host__ __device__ double cos(double x); __host__ __device__ float cosf(float x);
__host__ __device__ double cosh(double x); __host__ __device__ float coshf(float x);
__host__ __device__ double erf(double x); __host__ __device__ float erff(float x);
__host__ __device__ double erfc(double x); __host__ __device__ float erfcf(float x);
__host__ __device__ double exp(double x); __host__ __device__ float expf(float x);
__host__ __device__ double exp2(double x); __host__ __device__ float exp2f(float x);
__host__ __device__ double exp10(double x); __host__ __device__ float exp10f(float x);
__host__ __device__ double expm1(double x); __host__ __device__ float expm1f(float x);
__host__ __device__ double fabs(double x); __host__ __device__ float fabsf(float x);
__host__ __device__ double floor(double x); __host__ __device__ float floorf(float x);
__host__ __device__ double lgamma(double x); __host__ __device__ float lgammaf(float x);
__host__ __device__ double log(double x); __host__ __device__ float logf(float x);
__host__ __device__ double log10(double x); __host__ __device__ float log10f(float x);
__host__ __device__ double log1p(double x); __host__ __device__ float log1pf(float x);
__host__ __device__ double log2(double x); __host__ __device__ float log2f(float x);
__host__ __device__ double logb(double x); __host__ __device__ float logbf(float x);
__host__ __device__ double rint(double x); __host__ __device__ float rintf(float x);
__host__ __device__ double round(double x); __host__ __device__ float roundf(float x);
__host__ __device__ double rsqrt(double x); __host__ __device__ float rsqrtf(float x);
__host__ __device__ double sin(double x); __host__ __device__ float sinf(float x);
__host__ __device__ double sinh(double x); __host__ __device__ float sinhf(float x);
__host__ __device__ double sqrt(double x); __host__ __device__ float sqrtf(float x);
__host__ __device__ double tan(double x); __host__ __device__ float tanf(float x);
__host__ __device__ double tanh(double x); __host__ __device__ float tanhf(float x);
__host__ __device__ double tgamma(double x); __host__ __device__ float tgammaf(float x);
__host__ __device__ double trunc(double x); __host__ __device__ float truncf(float x);
__host__ __device__ double nearbyint(double x); __host__ __device__ float nearbyintf(float x);
__host__ __device__ double rcbrt(double x); __host__ __device__ float rcbrtf(float x);
__host__ __device__ double atan2(double x, double y); __host__ __device__ float atan2f(float x, float y);
__host__ __device__ double fdim(double x, double y); __host__ __device__ float fdimf(float x, float y);
__host__ __device__ double fmax(double x, double y); __host__ __device__ float fmaxf(float x, float y);
__host__ __device__ double fmin(double x, double y); __host__ __device__ float fminf(float x, float y);
__host__ __device__ double fmod(double x, double y); __host__ __device__ float fmodf(float x, float y);
__host__ __device__ double hypot(double x, double y); __host__ __device__ float hypotf(float x, float y);
__host__ __device__ double pow(double x, double y); __host__ __device__ float powf(float x, float y);
__host__ __device__ double remainder(double x, double y); __host__ __device__ float remainderf(float x, float y);
__host__ __device__ double copysign(double x, double y); __host__ __device__ float copysignf(float x, float y);
__host__ __device__ double nextafter(double x, double y); __host__ __device__ float nextafterf(float x, float y);
__host__ __device__ double fma(double x, double y, double z); __host__ __device__ float fmaf(float x, float y, float z);
__host__ __device__ int isnan(double x); __host__ __device__ int isinf(double x); __host__ __device__ int isfinite(double x);
__host__ __device__ int signbit(double x);
__host__ __device__ long lround(double x); __host__ __device__ long lroundf(float x);
__host__ __device__ double frexp(double x, int *e); __host__ __device__ float frexpf(float x, int *e);
__host__ __device__ double ldexp(double x, int e); __host__ __device__ float ldexpf(float x, int e);
__device__ void sincosf(float x, float *s, float *c); __device__ void sincos(double x, double *s, double *c);
#ifdef __cplusplus
}
#endif
#define M_PI 3.14159265358979323846
#define M_E 2.7182818284590452354
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#define HUGE_VALF (__builtin_huge_valf())
#define FLT_MAX 3.402823466e+38F
