// kverify model of cub::WarpReduce: on sm_30 and later CUB reduces a warp through shuffles,
// with no shared memory (its TempStorage is empty): the result is an unknown value, for lane
// 0 the reduction. Calling it from lanes that are not all converged is CUB's own rule and
// not checked here.
#pragma once
#include <cub/util_type.cuh>
namespace cub {
template <typename T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpReduce {
public:
  struct TempStorage {};
  __device__ WarpReduce(TempStorage &) {}
  __device__ T Sum(T input) { return __kverify_unknown_value(input); }
  __device__ T Sum(T input, int valid_items) { return __kverify_unknown_value(input); }
  template <class ReductionOp> __device__ T Reduce(T input, ReductionOp) {
    return __kverify_unknown_value(input);
  }
  template <class ReductionOp> __device__ T Reduce(T input, ReductionOp, int valid_items) {
    return __kverify_unknown_value(input);
  }
};
}  // namespace cub
