// The known-bad kernels (see known_bad.hpp). Each keeps its bug on purpose.
#include <stdexcept>
#include <string>

#include "known_bad.hpp"
#include "kverify/kernels/device/tiled_scan.cuh"
#include "kverify/runtime/launch.hpp"

namespace kverify::kernels::known_bad {
namespace {

// Verbatim from a PyCUDA guide apart from the element type.
__global__ void upsweep_only_scan_kernel(const std::int32_t *input, std::int32_t *output, int n) {
  __shared__ std::int32_t temp[256];
  int thid = threadIdx.x;
  int offset = 1;
  temp[thid] = input[thid];
  __syncthreads();
  for (int d = n >> 1; d > 0; d >>= 1) {
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
    __syncthreads();
  }
  output[thid] = temp[thid];
}

__global__ void reduce_without_loop_barrier_kernel(const std::int32_t *a, std::int32_t *out, unsigned n) {
  extern __shared__ std::int32_t sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? a[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    // BUG: the __syncthreads() that belongs here is missing.
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Two consecutive elements per thread (the usual reason to go in place: a
// tile twice the block in the same shared memory), updated in ascending order.
__global__ void in_place_hillis_steele_kernel(const std::int32_t *in, std::int32_t *out, unsigned n) {
  __shared__ std::int32_t buf[1024];
  const unsigned t = threadIdx.x;
  for (unsigned i = 2 * t; i < 2 * t + 2; ++i) buf[i] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned d = 1; d < 1024; d <<= 1) {
    // BUG: element 2t + 1 reads element 2t + 1 - d after this step may have
    // overwritten it (for d = 1, this very thread just did).
    for (unsigned i = 2 * t; i < 2 * t + 2; ++i)
      if (i >= d) buf[i] += buf[i - d];
    __syncthreads();
  }
  for (unsigned i = 2 * t; i < 2 * t + 2; ++i)
    if (i < n) out[i] = buf[i];
}

__global__ void histogram_without_atomics_kernel(const std::uint32_t *values, std::size_t n,
                                                 std::uint32_t *bins, std::uint32_t nbins) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) bins[values[i] % nbins] += 1;  // BUG: not atomic
}

void check_same_size(const char *what, std::size_t in, std::size_t out) {
  if (in != out) rt::throw_size_mismatch(what, in, out);
}

}  // namespace

void upsweep_only_scan(const rt::DeviceBuffer<std::int32_t> &in, rt::DeviceBuffer<std::int32_t> &out) {
  check_same_size("upsweep_only_scan output", in.size(), out.size());
  if (in.size() > 256) throw std::invalid_argument("upsweep_only_scan: n must be <= 256");
  const unsigned n = static_cast<unsigned>(in.size());
  rt::launch("upsweep_only_scan_kernel", upsweep_only_scan_kernel, rt::config_for(n, n ? n : 1), in.data(),
             out.data(), static_cast<int>(n));
}

std::int32_t reduce_without_loop_barrier(const rt::DeviceBuffer<std::int32_t> &in, unsigned block_threads) {
  if (in.size() > 0xffffffffu) throw std::invalid_argument("reduce_without_loop_barrier: n too large");
  const auto n = static_cast<unsigned>(in.size());
  rt::DeviceBuffer<std::int32_t> partials(rt::blocks_for(n, block_threads));
  rt::launch("reduce_without_loop_barrier_kernel", reduce_without_loop_barrier_kernel,
             rt::config_for(n, block_threads, block_threads * sizeof(std::int32_t)), in.data(),
             partials.data(), n);
  std::uint32_t total = 0;  // wraps, like the reference
  for (std::int32_t p : partials.download()) total += static_cast<std::uint32_t>(p);
  return static_cast<std::int32_t>(total);
}

void in_place_hillis_steele_scan(const rt::DeviceBuffer<std::int32_t> &in,
                                 rt::DeviceBuffer<std::int32_t> &out) {
  check_same_size("in_place_hillis_steele_scan output", in.size(), out.size());
  if (in.size() > 1024) throw std::invalid_argument("in_place_hillis_steele_scan: n must be <= 1024");
  if (in.empty()) return;
  rt::launch("in_place_hillis_steele_kernel", in_place_hillis_steele_kernel, rt::config_for(512, 512),
             in.data(), out.data(), static_cast<unsigned>(in.size()));
}

void last_partial_tile_scan(const rt::DeviceBuffer<std::int32_t> &in, rt::DeviceBuffer<std::int32_t> &out,
                            unsigned block_threads) {
  check_same_size("last_partial_tile_scan output", in.size(), out.size());
  const std::size_t n = in.size();
  if (n == 0) return;
  const std::size_t tiles = rt::blocks_for(n, block_threads);
  if (tiles > block_threads)
    throw std::invalid_argument("last_partial_tile_scan: at most block_threads tiles");
  rt::DeviceBuffer<std::int32_t> totals(tiles), offsets(tiles);
  const std::size_t smem = 2 * block_threads * sizeof(std::int32_t);
  rt::launch("scan_tiles_kernel",
             device::scan_tiles_kernel<BlockScanAlgorithm::HillisSteele, std::int32_t, Sum>,
             rt::config_for(n, block_threads, smem), in.data(), out.data(), totals.data(), n, false);
  rt::launch("scan_tiles_kernel",
             device::scan_tiles_kernel<BlockScanAlgorithm::HillisSteele, std::int32_t, Sum>,
             rt::config_for(tiles, block_threads, smem), totals.data(), offsets.data(),
             static_cast<std::int32_t *>(nullptr), tiles, true);
  // BUG: n / block_threads blocks of block_threads cover only the full tiles.
  const std::size_t covered = n / block_threads * block_threads;
  rt::launch("add_tile_offsets_kernel", device::add_tile_offsets_kernel<std::int32_t, Sum>,
             rt::config_for(covered, block_threads), out.data(),
             static_cast<const std::int32_t *>(offsets.data()), n, block_threads);
}

void histogram_without_atomics(const rt::DeviceBuffer<std::uint32_t> &values,
                               rt::DeviceBuffer<std::uint32_t> &bins) {
  if (bins.empty()) throw std::invalid_argument("histogram_without_atomics: needs a bin");
  KV_CUDA_CHECK(cudaMemset(bins.data(), 0, bins.bytes()));
  rt::launch("histogram_without_atomics_kernel", histogram_without_atomics_kernel,
             rt::config_for(values.size(), 256), values.data(), values.size(), bins.data(),
             static_cast<std::uint32_t>(bins.size()));
}

}  // namespace kverify::kernels::known_bad
