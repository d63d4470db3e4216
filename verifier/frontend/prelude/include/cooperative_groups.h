// kverify stub for <cooperative_groups.h>: thread-block and grid groups. The members
// have bodies, so the front end inlines them like user code: sync() becomes the
// matching barrier and thread_rank()/size() become expressions over the builtins.
// Other group kinds (tiled_partition, coalesced_threads, ...) are not declared: a file
// using them does not parse under kverify, which says so.
#pragma once
namespace cooperative_groups {

class thread_block {
public:
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned thread_rank() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  __device__ unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
  __device__ unsigned num_threads() const { return blockDim.x * blockDim.y * blockDim.z; }
};

class grid_group {
public:
  __device__ void sync() const { __kverify_grid_sync(); }
  __device__ unsigned long long thread_rank() const {
    return ((unsigned long long)((blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x +
                                 blockIdx.x)) *
               (blockDim.x * blockDim.y * blockDim.z) +
           (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  __device__ unsigned long long size() const {
    return (unsigned long long)(gridDim.x * gridDim.y * gridDim.z) *
           (blockDim.x * blockDim.y * blockDim.z);
  }
  __device__ unsigned long long num_threads() const { return size(); }
};

__device__ inline thread_block this_thread_block() { return thread_block(); }
__device__ inline grid_group this_grid() { return grid_group(); }
// the free-function spelling: cg::sync(g), and the older cg::synchronize(g)
template <class Group> __device__ void sync(const Group &g) { g.sync(); }
template <class Group> __device__ void synchronize(const Group &g) { g.sync(); }
__device__ inline void sync(const thread_block &g) { g.sync(); }
__device__ inline void sync(const grid_group &g) { g.sync(); }

}  // namespace cooperative_groups
