// kverify model of cub::BlockReduce. A block collective is modelled by what matters to a
// race and barrier check, not by CUB's algorithm: every thread writes its value into the
// TempStorage, a block barrier, thread 0 reads every slot. The result is the reduction for
// thread 0 and an unknown value elsewhere (CUB defines it for thread 0 only). So, as CUB's
// documentation requires, reusing temp_storage for another collective without a
// __syncthreads() in between is a race (thread 0 may still be reading it), calling it from
// a divergent branch is barrier divergence, and a block larger than the template's
// dimensions indexes the storage out of bounds. The algorithm parameter is ignored.
#pragma once
#include <cub/util_type.cuh>
namespace cub {
enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_WARP_REDUCTIONS
};
template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

public:
  struct TempStorage {
    T slot[BLOCK_THREADS];
  };
  __device__ BlockReduce(TempStorage &temp_storage) : temp_(temp_storage) {}

  template <class ReductionOp> __device__ T Reduce(T input, ReductionOp op) {
    return Reduce(input, op, BLOCK_THREADS);
  }
  template <class ReductionOp> __device__ T Reduce(T input, ReductionOp op, int num_valid) {
    unsigned t = __kverify_linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>();
    if ((int)t < num_valid) temp_.slot[t] = input;
    __syncthreads();
    T aggregate = __kverify_unknown_value(input);
    if (t == 0)
      for (int i = 0; i < num_valid; ++i) aggregate = op(aggregate, temp_.slot[i]);
    return aggregate;
  }
  template <int ITEMS, class ReductionOp> __device__ T Reduce(T (&inputs)[ITEMS], ReductionOp op) {
    T partial = inputs[0];
    for (int i = 1; i < ITEMS; ++i) partial = op(partial, inputs[i]);
    return Reduce(partial, op, BLOCK_THREADS);
  }
  __device__ T Sum(T input) { return Reduce(input, ::cub::Sum(), BLOCK_THREADS); }
  __device__ T Sum(T input, int num_valid) { return Reduce(input, ::cub::Sum(), num_valid); }
  template <int ITEMS> __device__ T Sum(T (&inputs)[ITEMS]) { return Reduce(inputs, ::cub::Sum()); }

private:
  TempStorage &temp_;
};
}  // namespace cub
