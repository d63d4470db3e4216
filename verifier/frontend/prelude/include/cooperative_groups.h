// kverify stub for <cooperative_groups.h>: thread blocks, their tiles (tiled_partition<N>),
// and grid groups. The members have bodies, so the front end inlines them like user code:
// sync() becomes the matching barrier, thread_rank()/size() expressions over the builtins,
// shuffles and votes the _sync intrinsics over the tile's lanes. Other group kinds
// (coalesced_threads, dynamic tiled_partition(block, n), thread_group) are not declared: a
// file using them does not parse under kverify, which says so.
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

// A tile of N lanes (a power of two up to 32) of one warp: sync() is __syncwarp over the
// tile's lanes.
template <unsigned N> class thread_block_tile {
  static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0, "tiles of 1, 2, 4, 8, 16 or 32 threads");
  __device__ unsigned lane() const { return thread_block().thread_rank() % 32; }

public:
  __device__ unsigned mask() const {
    return N == 32 ? 0xffffffffu : ((1u << (N % 32)) - 1) << (lane() / N * N);
  }
  __device__ void sync() const { __syncwarp(mask()); }
  __device__ unsigned thread_rank() const { return thread_block().thread_rank() % N; }
  __device__ unsigned size() const { return N; }
  __device__ unsigned num_threads() const { return N; }
  __device__ unsigned meta_group_rank() const { return thread_block().thread_rank() / N; }
  __device__ unsigned meta_group_size() const { return (thread_block().size() + N - 1) / N; }
  template <class T> __device__ T shfl(T var, int src) const { return __shfl_sync(mask(), var, src, N); }
  template <class T> __device__ T shfl_up(T var, unsigned d) const { return __shfl_up_sync(mask(), var, d, N); }
  template <class T> __device__ T shfl_down(T var, unsigned d) const { return __shfl_down_sync(mask(), var, d, N); }
  template <class T> __device__ T shfl_xor(T var, int m) const { return __shfl_xor_sync(mask(), var, m, N); }
  __device__ unsigned ballot(int predicate) const { return __ballot_sync(mask(), predicate); }
  __device__ int any(int predicate) const { return __any_sync(mask(), predicate); }
  __device__ int all(int predicate) const { return __all_sync(mask(), predicate); }
};
template <unsigned N> __device__ thread_block_tile<N> tiled_partition(const thread_block &) {
  return thread_block_tile<N>();
}

// the older free-function spelling cg::synchronize(g)
template <class Group> __device__ void synchronize(const Group &g) { g.sync(); }
__device__ inline void sync(const thread_block &g) { g.sync(); }
__device__ inline void sync(const grid_group &g) { g.sync(); }
template <unsigned N> __device__ void sync(const thread_block_tile<N> &g) { g.sync(); }

}  // namespace cooperative_groups
