// kverify model of CUB's common parts: the reduction functors and the linear thread rank
// the block collectives use. See block/block_reduce.cuh for what the models promise.
#pragma once
template <class T> __device__ T __kverify_unknown_value(T like);
namespace cub {
struct Sum {
  template <class T> __device__ T operator()(const T &a, const T &b) const { return a + b; }
};
struct Max {
  template <class T> __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
struct Min {
  template <class T> __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
// CUB's linear rank of a thread in a BLOCK_DIM_X x BLOCK_DIM_Y x BLOCK_DIM_Z block
template <int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
__device__ unsigned __kverify_linear_tid() {
  return (BLOCK_DIM_Y == 1 && BLOCK_DIM_Z == 1)
             ? threadIdx.x
             : (threadIdx.z * BLOCK_DIM_Y + threadIdx.y) * BLOCK_DIM_X + threadIdx.x;
}
}  // namespace cub
