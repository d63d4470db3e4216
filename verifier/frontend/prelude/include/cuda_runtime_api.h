// kverify stub: the host-side CUDA Runtime API, declared so that host code in a .cu file
// parses. kverify never models host code; it only has to type-check.
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
typedef enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1,
                         cudaErrorMemoryAllocation = 2, cudaErrorUnknown = 999 } cudaError_t;
typedef enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1,
                              cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3,
                              cudaMemcpyDefault = 4 } cudaMemcpyKind;
typedef struct CUevent_st *cudaEvent_t;
struct cudaDeviceProp { char name[256]; __kv_size_t totalGlobalMem; __kv_size_t sharedMemPerBlock;
                        int regsPerBlock; int warpSize; int maxThreadsPerBlock;
                        int maxThreadsDim[3]; int maxGridSize[3]; int major; int minor;
                        int multiProcessorCount; };
cudaError_t cudaMalloc(void **ptr, __kv_size_t size);
cudaError_t cudaMallocManaged(void **ptr, __kv_size_t size, unsigned flags);
cudaError_t cudaMallocHost(void **ptr, __kv_size_t size);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, __kv_size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, __kv_size_t count,
                            cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemset(void *ptr, int value, __kv_size_t count);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, __kv_size_t count,
                               __kv_size_t offset, cudaMemcpyKind kind);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t error);
const char *cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
#ifdef __cplusplus
}
template <class T> inline cudaError_t cudaMalloc(T **ptr, __kv_size_t size) {
  return cudaMalloc(reinterpret_cast<void **>(ptr), size);
}
template <class T> inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src,
    __kv_size_t count, __kv_size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol(static_cast<const void *>(&symbol), src, count, offset, kind);
}
#endif
