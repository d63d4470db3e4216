// kverify stub for <cuda_runtime.h>: device declarations come from kverify's prelude, the
// host API from cuda_runtime_api.h. The guard macros of the real headers are defined
// because code tests them (the CUDA samples' helper_cuda.h declares checkCudaErrors and
// findCudaDevice only under __DRIVER_TYPES_H__ and __CUDA_RUNTIME_H__).
#pragma once
#define __CUDA_RUNTIME_H__
#define __DRIVER_TYPES_H__
#include <cuda_runtime_api.h>
