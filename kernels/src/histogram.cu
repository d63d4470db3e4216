// Histogram kernels and their host entry point.
#include <stdexcept>
#include <string>

#include "kverify/kernels/histogram.hpp"
#include "kverify/runtime/launch.hpp"

namespace kverify::kernels {
namespace {

// Grid-stride, so a capped grid covers any n.
// kverify: --assume='blockDim.y == 1 && blockDim.z == 1 && gridDim.x <= 2048 && gridDim.y == 1 && gridDim.z == 1'
__global__ void histogram_global_kernel(const std::uint32_t *values, std::size_t n, std::uint32_t *bins,
                                        std::uint32_t nbins) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&bins[values[i] % nbins], 1u);
}

// histogram() launches it with 1 to kMaxPrivatizedBins (12 * 1024) bins.
// kverify: --assume='blockDim.y == 1 && blockDim.z == 1 && gridDim.x <= 2048 && gridDim.y == 1 && gridDim.z == 1 && nbins >= 1 && nbins <= 12288'
__global__ void histogram_privatized_kernel(const std::uint32_t *values, std::size_t n, std::uint32_t *bins,
                                            std::uint32_t nbins) {
  extern __shared__ std::uint32_t local[];
  for (std::uint32_t b = threadIdx.x; b < nbins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&local[values[i] % nbins], 1u);
  __syncthreads();  // all of this block's counts are in before merging
  for (std::uint32_t b = threadIdx.x; b < nbins; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}

rt::LaunchConfig grid_stride_config(std::size_t n, unsigned threads, std::size_t smem, cudaStream_t stream) {
  rt::LaunchConfig cfg = rt::config_for(n, threads, smem, stream);
  if (cfg.grid.x > 2048) cfg.grid.x = 2048;
  return cfg;
}

}  // namespace

const char *name(HistogramAlgorithm a) {
  return a == HistogramAlgorithm::GlobalAtomics ? "global_atomics" : "shared_privatized";
}

void histogram(HistogramAlgorithm algo, const rt::DeviceBuffer<std::uint32_t> &values,
               rt::DeviceBuffer<std::uint32_t> &bins, unsigned block_threads, cudaStream_t stream) {
  if (bins.empty()) throw std::invalid_argument("histogram: needs at least one bin");
  if (bins.size() > 0xffffffffu) throw std::invalid_argument("histogram: too many bins");
  if (algo == HistogramAlgorithm::SharedPrivatized && bins.size() > kMaxPrivatizedBins)
    throw std::invalid_argument("histogram(shared_privatized): " + std::to_string(bins.size()) +
                                " bins exceed " + std::to_string(kMaxPrivatizedBins));
  const auto nbins = static_cast<std::uint32_t>(bins.size());
  KV_CUDA_CHECK(cudaMemsetAsync(bins.data(), 0, bins.bytes(), stream));
  const std::size_t n = values.size();
  if (algo == HistogramAlgorithm::GlobalAtomics)
    rt::launch("histogram_global_kernel", histogram_global_kernel,
               grid_stride_config(n, block_threads, 0, stream), values.data(), n, bins.data(), nbins);
  else
    rt::launch("histogram_privatized_kernel", histogram_privatized_kernel,
               grid_stride_config(n, block_threads, nbins * sizeof(std::uint32_t), stream), values.data(), n,
               bins.data(), nbins);
}

}  // namespace kverify::kernels
