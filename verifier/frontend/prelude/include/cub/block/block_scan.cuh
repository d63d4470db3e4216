// kverify model of cub::BlockScan (see block_reduce.cuh for what the models promise): every
// thread writes its value into the TempStorage, a block barrier, each thread reads the
// slots of the threads ranked below it; the outputs are unknown values. Reusing
// temp_storage without a __syncthreads() in between is a race, as CUB documents.
#pragma once
#include <cub/util_type.cuh>
namespace cub {
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
template <typename T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

  // the collective's accesses; the value of this thread's prefix, unknown
  __device__ T scan(T input) {
    unsigned t = __kverify_linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>();
    temp_.slot[t] = input;
    __syncthreads();
    T prefix = __kverify_unknown_value(input);
    for (unsigned i = 0; i < t; ++i) prefix = prefix + temp_.slot[i];
    return __kverify_unknown_value(prefix);
  }
  template <int ITEMS> __device__ void scanItems(T (&input)[ITEMS], T (&output)[ITEMS]) {
    T prefix = scan(input[0]);
    for (int i = 0; i < ITEMS; ++i) output[i] = __kverify_unknown_value(prefix);
  }

public:
  struct TempStorage {
    T slot[BLOCK_THREADS];
  };
  __device__ BlockScan(TempStorage &temp_storage) : temp_(temp_storage) {}

  __device__ void ExclusiveSum(T input, T &output) { output = scan(input); }
  __device__ void ExclusiveSum(T input, T &output, T &block_aggregate) {
    output = scan(input);
    block_aggregate = __kverify_unknown_value(input);
  }
  __device__ void InclusiveSum(T input, T &output) { output = scan(input); }
  __device__ void InclusiveSum(T input, T &output, T &block_aggregate) {
    output = scan(input);
    block_aggregate = __kverify_unknown_value(input);
  }
  template <class ScanOp> __device__ void ExclusiveScan(T input, T &output, T initial, ScanOp) {
    output = scan(input);
  }
  template <class ScanOp> __device__ void InclusiveScan(T input, T &output, ScanOp) {
    output = scan(input);
  }
  template <int ITEMS> __device__ void ExclusiveSum(T (&input)[ITEMS], T (&output)[ITEMS]) {
    scanItems(input, output);
  }
  template <int ITEMS> __device__ void InclusiveSum(T (&input)[ITEMS], T (&output)[ITEMS]) {
    scanItems(input, output);
  }

private:
  TempStorage &temp_;
};
}  // namespace cub
