#include <limits>
#include <stdexcept>
#include <string>

#include "example/block_sums.hpp"
#include "kverify/runtime/launch.hpp"

namespace example {

// A shared-memory tree reduction for 1-D launches with blockDim.x == kBlock (kverify is
// told so in CMakeLists.txt).
__global__ void block_sums_kernel(const float *in, float *out, unsigned n) {
  __shared__ float partial[kBlock];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * kBlock + t;
  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = kBlock / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

void block_sums(const kverify::rt::DeviceBuffer<float> &in, kverify::rt::DeviceBuffer<float> &out) {
  if (in.size() > std::numeric_limits<unsigned>::max())
    throw std::invalid_argument("block_sums: more than 2^32 - 1 elements");
  const kverify::rt::LaunchConfig cfg = kverify::rt::config_for(in.size(), kBlock);
  if (out.size() != cfg.grid.x)
    throw std::invalid_argument("block_sums: out has " + std::to_string(out.size()) + " elements, the grid " +
                                std::to_string(cfg.grid.x) + " blocks");
  kverify::rt::launch("block_sums_kernel", block_sums_kernel, cfg, in.data(), out.data(),
                      static_cast<unsigned>(in.size()));
}

}  // namespace example
