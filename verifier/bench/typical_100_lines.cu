// A typical ~100-line CUDA source for the front-end benchmark: a few kernels, a device
// helper, shared memory, host code with includes.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 256
#define TILE 16

__device__ float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

__global__ void saxpy(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void block_reduce(const float *in, float *out, int n) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

__global__ void transpose(const float *in, float *out, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < width && y < height) tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < height && y < width) out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void histogram(const unsigned char *data, unsigned *bins, int n) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

// Scan of one block (Hillis-Steele, double-buffered).
__global__ void block_scan(const int *in, int *out, int n) {
  __shared__ int buf[2][BLOCK];
  int t = threadIdx.x, src = 0;
  buf[0][t] = t < n ? in[t] : 0;
  __syncthreads();
  for (int off = 1; off < BLOCK; off *= 2) {
    buf[1 - src][t] = buf[src][t] + (t >= off ? buf[src][t - off] : 0);
    src = 1 - src;
    __syncthreads();
  }
  if (t < n) out[t] = buf[src][t];
}

__global__ void normalize(float *v, int n, float lo, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  v[i] = clampf((v[i] - lo) / (hi - lo), 0.0f, 1.0f);
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

int main() {
  const int n = 1 << 20;
  float *x = nullptr, *y = nullptr, *partial = nullptr;
  check(cudaMalloc(&x, n * sizeof(float)), "malloc x");
  check(cudaMalloc(&y, n * sizeof(float)), "malloc y");
  check(cudaMalloc(&partial, (n / BLOCK) * sizeof(float)), "malloc partial");
  saxpy<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(n, 2.0f, x, y);
  block_reduce<<<n / BLOCK, BLOCK>>>(y, partial, n);
  normalize<<<n / BLOCK, BLOCK>>>(y, n, 0.0f, 1.0f);
  dim3 tb(TILE, TILE), grid(1024 / TILE, 1024 / TILE);
  transpose<<<grid, tb>>>(x, y, 1024, 1024);
  check(cudaDeviceSynchronize(), "sync");
  cudaFree(x);
  cudaFree(y);
  cudaFree(partial);
  printf("done\n");
  return 0;
}
