// kverify stub for <cuda.h> (the driver API is host-only and not modelled).
#pragma once
#include <cuda_runtime_api.h>
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef unsigned long long CUtexObject;  // a texture object, read in kernels by tex2D<T>
typedef unsigned long long CUsurfObject;
#define CUDA_VERSION 12000
