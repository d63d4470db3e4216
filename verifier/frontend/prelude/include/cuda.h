// kverify stub for <cuda.h> (the driver API is host-only and not modelled).
#pragma once
#include <cuda_runtime_api.h>
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
#define CUDA_VERSION 12000
