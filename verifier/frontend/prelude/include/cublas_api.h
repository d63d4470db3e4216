// kverify stub for <cublas_api.h> (and cublas_v2.h, cublasLt.h, which include it): what
// the real header brings to device code, <cuda_fp16.h> and <cuda_bf16.h>, and its handle
// and status types. The host API is not declared: host code that calls it has errors
// that no kernel depends on, which kverify notes and ignores.
#pragma once
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
typedef struct cublasContext *cublasHandle_t;
typedef struct cublasLtContext *cublasLtHandle_t;
typedef enum { CUBLAS_STATUS_SUCCESS = 0 } cublasStatus_t;
