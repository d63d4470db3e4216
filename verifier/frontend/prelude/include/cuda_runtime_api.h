// kverify stub: the host-side CUDA Runtime API, declared so that host code in a .cu file
// parses. kverify never models host code; it only has to type-check.
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
typedef enum cudaError {
  cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3, cudaErrorCudartUnloading = 4, cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12, cudaErrorInvalidSymbol = 13, cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21, cudaErrorMissingConfiguration = 52,
  cudaErrorNoDevice = 100, cudaErrorInvalidDevice = 101, cudaErrorInvalidKernelImage = 200,
  cudaErrorNoKernelImageForDevice = 209, cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600, cudaErrorIllegalAddress = 700, cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702, cudaErrorLaunchFailure = 719, cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotSupported = 801, cudaErrorUnknown = 999 } cudaError_t;
typedef enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1,
                              cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3,
                              cudaMemcpyDefault = 4 } cudaMemcpyKind;
typedef struct CUevent_st *cudaEvent_t;
struct cudaDeviceProp { char name[256]; __kv_size_t totalGlobalMem; __kv_size_t sharedMemPerBlock;
                        int regsPerBlock; int warpSize; int maxThreadsPerBlock;
                        int maxThreadsDim[3]; int maxGridSize[3]; int major; int minor;
                        int multiProcessorCount; };
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaCpuDeviceId (-1)
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
typedef enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
                                 cudaFuncAttributePreferredSharedMemoryCarveout = 9 } cudaFuncAttribute;
typedef enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1,
                             cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 } cudaFuncCache;
typedef enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1,
                                   cudaSharedMemBankSizeEightByte = 2 } cudaSharedMemConfig;
typedef enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1,
                         cudaLimitMallocHeapSize = 2 } cudaLimit;
typedef enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7, cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrWarpSize = 10,
  cudaDevAttrClockRate = 13, cudaDevAttrMultiProcessorCount = 16, cudaDevAttrIntegrated = 18,
  cudaDevAttrComputeMode = 20, cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrConcurrentManagedAccess = 89, cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81, cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106 } cudaDeviceAttr;
typedef enum cudaComputeMode { cudaComputeModeDefault = 0, cudaComputeModeExclusive = 1,
                               cudaComputeModeProhibited = 2,
                               cudaComputeModeExclusiveProcess = 3 } cudaComputeMode;
struct cudaFuncAttributes { __kv_size_t sharedSizeBytes; __kv_size_t constSizeBytes;
                            __kv_size_t localSizeBytes; int maxThreadsPerBlock; int numRegs;
                            int ptxVersion; int binaryVersion; int cacheModeCA;
                            int maxDynamicSharedSizeBytes; int preferredShmemCarveout; };
struct cudaPointerAttributes { int type; int device; void *devicePointer; void *hostPointer; };
typedef void (*cudaHostFn_t)(void *userData);
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
cudaError_t cudaMallocPitch(void **ptr, __kv_size_t *pitch, __kv_size_t width, __kv_size_t height);
cudaError_t cudaMallocAsync(void **ptr, __kv_size_t size, cudaStream_t stream);
cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream);
cudaError_t cudaHostAlloc(void **ptr, __kv_size_t size, unsigned flags);
cudaError_t cudaHostRegister(void *ptr, __kv_size_t size, unsigned flags);
cudaError_t cudaHostUnregister(void *ptr);
cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned flags);
cudaError_t cudaMemGetInfo(__kv_size_t *free_bytes, __kv_size_t *total_bytes);
cudaError_t cudaMemsetAsync(void *ptr, int value, __kv_size_t count, cudaStream_t stream);
cudaError_t cudaMemset2D(void *ptr, __kv_size_t pitch, int value, __kv_size_t width,
                         __kv_size_t height);
cudaError_t cudaMemset2DAsync(void *ptr, __kv_size_t pitch, int value, __kv_size_t width,
                              __kv_size_t height, cudaStream_t stream);
cudaError_t cudaMemcpy2D(void *dst, __kv_size_t dpitch, const void *src, __kv_size_t spitch,
                         __kv_size_t width, __kv_size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void *dst, __kv_size_t dpitch, const void *src,
                              __kv_size_t spitch, __kv_size_t width, __kv_size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemcpyPeer(void *dst, int dst_device, const void *src, int src_device,
                           __kv_size_t count);
cudaError_t cudaMemcpyPeerAsync(void *dst, int dst_device, const void *src, int src_device,
                                __kv_size_t count, cudaStream_t stream);
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, __kv_size_t count,
                                    __kv_size_t offset, cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, __kv_size_t count,
                                 __kv_size_t offset, cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, __kv_size_t count,
                                      __kv_size_t offset, cudaMemcpyKind kind,
                                      cudaStream_t stream);
cudaError_t cudaGetSymbolAddress(void **dev, const void *symbol);
cudaError_t cudaGetSymbolSize(__kv_size_t *size, const void *symbol);
cudaError_t cudaMemPrefetchAsync(const void *ptr, __kv_size_t count, int device,
                                 cudaStream_t stream);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr, const void *ptr);
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
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, __kv_size_t value);
cudaError_t cudaDeviceGetLimit(__kv_size_t *value, cudaLimit limit);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
cudaError_t cudaDriverGetVersion(int *version);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned flags, int priority);
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value);
cudaError_t cudaFuncSetCacheConfig(const void *func, cudaFuncCache config);
cudaError_t cudaFuncSetSharedMemConfig(const void *func, cudaSharedMemConfig config);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                             __kv_size_t shared, cudaStream_t stream);
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args,
                                        __kv_size_t shared, cudaStream_t stream);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func,
                                                          int block_size, __kv_size_t shared);
cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block, const void *func,
                                               __kv_size_t shared, int block_limit);
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, int mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
                                 unsigned long long flags);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
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
template <class T> inline cudaError_t cudaMallocManaged(T **ptr, __kv_size_t size,
                                                   unsigned flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(reinterpret_cast<void **>(ptr), size, flags);
}
template <class T> inline cudaError_t cudaMallocHost(T **ptr, __kv_size_t size) {
  return cudaMallocHost(reinterpret_cast<void **>(ptr), size);
}
template <class T> inline cudaError_t cudaMallocAsync(T **ptr, __kv_size_t size,
                                                      cudaStream_t stream) {
  return cudaMallocAsync(reinterpret_cast<void **>(ptr), size, stream);
}
template <class T> inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol,
    __kv_size_t count, __kv_size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(dst, static_cast<const void *>(&symbol), count, offset, kind);
}
template <class T> inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, T *func) {
  return cudaFuncGetAttributes(attr, reinterpret_cast<const void *>(func));
}
template <class T> inline cudaError_t cudaFuncSetAttribute(T *func, cudaFuncAttribute attr,
                                                           int value) {
  return cudaFuncSetAttribute(reinterpret_cast<const void *>(func), attr, value);
}
template <class T> inline cudaError_t cudaFuncSetCacheConfig(T *func, cudaFuncCache config) {
  return cudaFuncSetCacheConfig(reinterpret_cast<const void *>(func), config);
}
template <class T> inline cudaError_t cudaFuncSetSharedMemConfig(T *func, cudaSharedMemConfig config) {
  return cudaFuncSetSharedMemConfig(reinterpret_cast<const void *>(func), config);
}
template <class T> inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block, T func,
                                                                         __kv_size_t shared = 0,
                                                                         int block_limit = 0) {
  return cudaOccupancyMaxPotentialBlockSize(min_grid, block, reinterpret_cast<const void *>(func), shared,
                                            block_limit);
}
template <class T> inline cudaError_t cudaLaunchKernel(T *func, dim3 grid, dim3 block,
                                                       void **args, __kv_size_t shared = 0,
                                                       cudaStream_t stream = 0) {
  return cudaLaunchKernel(reinterpret_cast<const void *>(func), grid, block, args, shared, stream);
}
template <class T> inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *blocks, T func, int block_size, __kv_size_t shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      blocks, reinterpret_cast<const void *>(func), block_size, shared);
}
#endif
