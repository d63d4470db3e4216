// kverify stub for <cooperative_groups/reduce.h>: cg::reduce moves values between the
// group's threads through registers (no memory): its result is an unknown value.
#pragma once
#include <cooperative_groups.h>
template <class T> __device__ T __kverify_unknown_value(T like);
namespace cooperative_groups {
template <class T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(T a, T b) const { return a < b ? a : b; } };
template <class T> struct greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };
template <class Group, class T, class Op> __device__ T reduce(const Group &, T value, Op) {
  return __kverify_unknown_value(value);
}
}  // namespace cooperative_groups
