#pragma once
// The kernels CuPy generates around ElementwiseKernel and ReductionKernel bodies, modelled
// on CuPy's templates (cupy/_core/_kernel.pyx `_get_simple_elementwise_kernel`,
// cupy/_core/_reduction.pyx `_create_reduction_function`): each element index `i` is one
// thread's, in a grid-stride loop; a reduction combines per-thread partials in a shared
// tree of `block_size` entries. Parameter names `x` of non-raw arrays stand for their
// element (`_raw_x[i]`), as CuPy's references do. Generated text points at the call.

#include "python/tokenizer.hpp"

#include <string>

namespace kverify::python {

struct ElementwiseSpec {
  SourcedText in_params, out_params, operation, preamble, loop_prep, after_loop;
  std::string name = "kernel";
  Pos at;
};

struct ReductionSpec {
  SourcedText in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, preamble;
  std::string name = "reduce_kernel";
  std::string reduce_type;  // empty: the first output's type
  Pos at;
};

// CUDA text of the kernel, or an error (a parameter list CuPy would reject too).
SourcedText elementwiseKernel(const ElementwiseSpec &spec, std::string &error);
SourcedText reductionKernel(const ReductionSpec &spec, std::string &error);

// The launches CuPy always makes: 1-D, at most 128 threads (ElementwiseKernel); 1-D,
// 512 threads, a power-of-two _block_stride (ReductionKernel).
std::string elementwiseLaunchOptions();
std::string reductionLaunchOptions();

// CuPy's block size for reductions (_default_block_size on CUDA).
constexpr int kReductionBlockSize = 512;

}  // namespace kverify::python
