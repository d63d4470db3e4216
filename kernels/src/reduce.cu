// Host side of the reductions and their explicit instantiations.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "kverify/kernels/device/device_reduce.cuh"
#include "kverify/kernels/reduce.hpp"
#include "kverify/runtime/launch.hpp"

namespace kverify::kernels {
namespace {

void validate_block(BlockReduceAlgorithm algo, unsigned threads) {
  std::string why;
  if (threads < 2 || threads > 1024)
    why = "must be in [2, 1024]";
  else if (algo == BlockReduceAlgorithm::WarpShuffle && threads % 32 != 0)
    why = "must be a multiple of 32 for the warp-shuffle reduction";
  if (!why.empty())
    throw rt::LaunchConfigError(std::string("tiled_reduce(") + name(algo) + "): block of " +
                                std::to_string(threads) + " threads " + why);
}

template <BlockReduceAlgorithm A, class T, class Op>
void reduce_tiles(const T *in, T *out, std::size_t n, unsigned threads, cudaStream_t stream) {
  const std::size_t smem = (A == BlockReduceAlgorithm::SharedTree ? threads : 32) * sizeof(T);
  rt::launch("reduce_tiles_kernel", device::reduce_tiles_kernel<A, T, Op>,
             rt::config_for(n, threads, smem, stream), in, out, n);
}

unsigned stream_blocks(std::size_t n) {
  const std::size_t per_block = std::size_t{device::kReduceThreads} * 16;
  const std::size_t b = (n + per_block - 1) / per_block;
  return static_cast<unsigned>(b < 1 ? 1 : b > device::kReduceMaxBlocks ? device::kReduceMaxBlocks : b);
}

unsigned ceil_log2(std::size_t x) {
  unsigned l = 0;
  while ((std::size_t{1} << l) < x) ++l;
  return l;
}

}  // namespace

const char *name(BlockReduceAlgorithm a) {
  return a == BlockReduceAlgorithm::SharedTree ? "shared_tree" : "warp_shuffle";
}

template <class T, class Op>
T tiled_reduce(BlockReduceAlgorithm algo, const rt::DeviceBuffer<T> &in, unsigned block_threads,
               cudaStream_t stream) {
  validate_block(algo, block_threads);
  if (in.empty()) return Op::template identity<T>();
  // Ping-pong between two partial buffers until one value is left.
  std::size_t n = in.size();
  rt::DeviceBuffer<T> a(rt::blocks_for(n, block_threads));
  rt::DeviceBuffer<T> b(rt::blocks_for(a.size(), block_threads));
  const T *src = in.data();
  T *dst = a.data();
  for (;;) {
    if (algo == BlockReduceAlgorithm::SharedTree)
      reduce_tiles<BlockReduceAlgorithm::SharedTree, T, Op>(src, dst, n, block_threads, stream);
    else
      reduce_tiles<BlockReduceAlgorithm::WarpShuffle, T, Op>(src, dst, n, block_threads, stream);
    n = rt::blocks_for(n, block_threads);
    if (n == 1) break;
    src = dst;
    dst = dst == a.data() ? b.data() : a.data();
  }
  T result;
  KV_CUDA_CHECK(cudaMemcpyAsync(&result, dst, sizeof(T), cudaMemcpyDeviceToHost, stream));
  KV_CUDA_CHECK(cudaStreamSynchronize(stream));
  return result;
}

template <class T>
std::size_t device_reduce_temp_bytes(std::size_t n) {
  return stream_blocks(n) * sizeof(T);
}

template <class T, class Op>
void device_reduce(const T *in, std::size_t n, T *out, void *temp, std::size_t temp_bytes,
                   cudaStream_t stream) {
  const unsigned blocks = stream_blocks(n);
  if (temp == nullptr || temp_bytes < blocks * sizeof(T))
    throw std::invalid_argument("device_reduce: temporary storage of " + std::to_string(temp_bytes) +
                                " bytes, need " + std::to_string(blocks * sizeof(T)));
  T *partials = static_cast<T *>(temp);
  rt::LaunchConfig cfg;
  cfg.grid = dim3(blocks);
  cfg.block = dim3(device::kReduceThreads);
  cfg.stream = stream;
  // n == 0 still runs: every partial is the identity, and so is *out.
  rt::launch("reduce_stream_kernel", device::reduce_stream_kernel<T, Op>, cfg, in, n, partials);
  cfg.grid = dim3(1);
  rt::launch("reduce_partials_kernel", device::reduce_partials_kernel<T, Op>, cfg,
             static_cast<const T *>(partials), blocks, out);
}

template <class T, class Op>
T device_reduce(const rt::DeviceBuffer<T> &in, cudaStream_t stream) {
  const std::size_t bytes = device_reduce_temp_bytes<T>(in.size());
  rt::DeviceBuffer<unsigned char> temp(bytes);
  rt::DeviceBuffer<T> out(1);
  device_reduce<T, Op>(in.data(), in.size(), out.data(), temp.data(), bytes, stream);
  T result;
  KV_CUDA_CHECK(cudaMemcpyAsync(&result, out.data(), sizeof(T), cudaMemcpyDeviceToHost, stream));
  KV_CUDA_CHECK(cudaStreamSynchronize(stream));
  return result;
}

std::size_t tiled_reduce_depth(BlockReduceAlgorithm algo, std::size_t n, unsigned block_threads) {
  const std::size_t per_level = algo == BlockReduceAlgorithm::SharedTree ? ceil_log2(block_threads) : 10;
  std::size_t levels = 1;
  for (std::size_t m = n; m > block_threads; m = (m + block_threads - 1) / block_threads) ++levels;
  const std::size_t bound = levels * per_level;
  return n == 0 ? 0 : bound < n - 1 ? bound : n - 1;
}

std::size_t device_reduce_depth(std::size_t n) {
  // Pass 1: a thread's sequential chain (its share, plus up to 4 for vector
  // rounding and the tail) and 10 warp-shuffle levels; pass 2: the same over
  // the partials.
  const std::size_t blocks = stream_blocks(n);
  const std::size_t threads = blocks * std::size_t{device::kReduceThreads};
  const std::size_t bound = (n + threads - 1) / threads + 5 + 10 +
                            (blocks + device::kReduceThreads - 1) / device::kReduceThreads + 10;
  return n == 0 ? 0 : bound < n - 1 ? bound : n - 1;
}

#define KV_REDUCE(T, OP)                                                                                     \
  template T tiled_reduce<T, OP>(BlockReduceAlgorithm, const rt::DeviceBuffer<T> &, unsigned, cudaStream_t); \
  template void device_reduce<T, OP>(const T *, std::size_t, T *, void *, std::size_t, cudaStream_t);        \
  template T device_reduce<T, OP>(const rt::DeviceBuffer<T> &, cudaStream_t);
#define KV_REDUCE_TYPE(T)                                        \
  template std::size_t device_reduce_temp_bytes<T>(std::size_t); \
  KV_REDUCE(T, Sum) KV_REDUCE(T, Max)
KV_REDUCE_TYPE(std::int32_t)
KV_REDUCE_TYPE(std::uint32_t)
KV_REDUCE_TYPE(float)
KV_REDUCE_TYPE(double)

}  // namespace kverify::kernels
