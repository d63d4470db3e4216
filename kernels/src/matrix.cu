// Transpose and matrix product kernels and their host entry points.
#include <cstdint>
#include <string>

#include "kverify/kernels/matrix.hpp"
#include "kverify/runtime/launch.hpp"

namespace kverify::kernels {
namespace {

constexpr unsigned kTile = 32;  // transpose tile edge
constexpr unsigned kRows = 8;   // transpose block: 32 x 8 threads, 4 rows each
constexpr unsigned kMm = 16;    // matmul tile edge

void check_size(const char *what, std::size_t expected, std::size_t got) {
  if (expected != got) rt::throw_size_mismatch(what, expected, got);
}

rt::LaunchConfig grid_2d(std::size_t cols, std::size_t rows, unsigned tile, dim3 block, cudaStream_t stream) {
  rt::LaunchConfig cfg;
  const std::size_t gx = rt::blocks_for(cols, tile), gy = rt::blocks_for(rows, tile);
  if (gx > 0x7fffffffu || gy > 65535)
    throw rt::LaunchConfigError("matrix of " + std::to_string(rows) + " x " + std::to_string(cols) +
                                " needs a larger grid than CUDA allows");
  cfg.grid = dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy));
  cfg.block = block;
  cfg.stream = stream;
  return cfg;
}

// kverify: --block-dim=16,16 --assume='gridDim.x == (cols + 15) / 16 && gridDim.y == (rows + 15) / 16 && gridDim.z == 1'
template <class T>
__global__ void transpose_naive_kernel(const T *in, T *out, std::size_t rows, std::size_t cols) {
  const std::size_t x = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t y = static_cast<std::size_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}

// Reads a tile row-wise (coalesced), writes it transposed (coalesced). The
// extra column makes the column-wise shared reads hit 32 different banks.
// kverify: --block-dim=32,8 --assume='gridDim.x == (cols + 31) / 32 && gridDim.y == (rows + 31) / 32 && gridDim.z == 1'
template <class T>
__global__ void transpose_tiled_kernel(const T *in, T *out, std::size_t rows, std::size_t cols) {
  __shared__ T tile[kTile][kTile + 1];
  const std::size_t bx = static_cast<std::size_t>(blockIdx.x) * kTile;
  const std::size_t by = static_cast<std::size_t>(blockIdx.y) * kTile;
  for (unsigned r = threadIdx.y; r < kTile; r += kRows) {
    const std::size_t y = by + r, x = bx + threadIdx.x;
    if (y < rows && x < cols) tile[r][threadIdx.x] = in[y * cols + x];
  }
  __syncthreads();
  for (unsigned r = threadIdx.y; r < kTile; r += kRows) {
    const std::size_t oy = bx + r, ox = by + threadIdx.x;  // out is cols x rows
    if (oy < cols && ox < rows) out[oy * rows + ox] = tile[threadIdx.x][r];
  }
}

// kverify: --block-dim=16,16 --assume='gridDim.x == (n + 15) / 16 && gridDim.y == (m + 15) / 16 && gridDim.z == 1'
template <class T>
__global__ void matmul_naive_kernel(const T *a, const T *b, T *c, std::size_t m, std::size_t k,
                                    std::size_t n) {
  const std::size_t col = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t row = static_cast<std::size_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (row < m && col < n) {
    T sum = 0;
    for (std::size_t p = 0; p < k; ++p) sum += a[row * k + p] * b[p * n + col];
    c[row * n + col] = sum;
  }
}

// The PyCUDA guide's shared tiles, fixed for shapes that are not multiples of the
// tile: out-of-range loads become zeros, and every thread reaches the barriers.
// kverify: --block-dim=16,16 --assume='gridDim.x == (n + 15) / 16 && gridDim.y == (m + 15) / 16 && gridDim.z == 1'
template <class T>
__global__ void matmul_tiled_kernel(const T *a, const T *b, T *c, std::size_t m, std::size_t k,
                                    std::size_t n) {
  __shared__ T sa[kMm][kMm];
  __shared__ T sb[kMm][kMm];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t row = static_cast<std::size_t>(blockIdx.y) * kMm + ty;
  const std::size_t col = static_cast<std::size_t>(blockIdx.x) * kMm + tx;
  T sum = 0;
  for (std::size_t t0 = 0; t0 < k; t0 += kMm) {
    sa[ty][tx] = row < m && t0 + tx < k ? a[row * k + t0 + tx] : T(0);
    sb[ty][tx] = t0 + ty < k && col < n ? b[(t0 + ty) * n + col] : T(0);
    __syncthreads();
    const unsigned len = k - t0 < kMm ? static_cast<unsigned>(k - t0) : kMm;
    for (unsigned p = 0; p < len; ++p) sum += sa[ty][p] * sb[p][tx];
    __syncthreads();  // before the next tile overwrites sa/sb
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

}  // namespace

const char *name(TransposeAlgorithm a) { return a == TransposeAlgorithm::Naive ? "naive" : "padded_tiles"; }
const char *name(MatmulAlgorithm a) { return a == MatmulAlgorithm::Naive ? "naive" : "shared_tiles"; }

template <class T>
void transpose(TransposeAlgorithm algo, const rt::DeviceBuffer<T> &in, rt::DeviceBuffer<T> &out,
               std::size_t rows, std::size_t cols, cudaStream_t stream) {
  check_size("transpose input", rows * cols, in.size());
  check_size("transpose output", rows * cols, out.size());
  if (rows == 0 || cols == 0) return;
  if (algo == TransposeAlgorithm::Naive)
    rt::launch("transpose_naive_kernel", transpose_naive_kernel<T>,
               grid_2d(cols, rows, 16, dim3(16, 16), stream), in.data(), out.data(), rows, cols);
  else
    rt::launch("transpose_tiled_kernel", transpose_tiled_kernel<T>,
               grid_2d(cols, rows, kTile, dim3(kTile, kRows), stream), in.data(), out.data(), rows, cols);
}

template <class T>
void matmul(MatmulAlgorithm algo, const rt::DeviceBuffer<T> &a, const rt::DeviceBuffer<T> &b,
            rt::DeviceBuffer<T> &c, std::size_t m, std::size_t k, std::size_t n, cudaStream_t stream) {
  check_size("matmul a", m * k, a.size());
  check_size("matmul b", k * n, b.size());
  check_size("matmul c", m * n, c.size());
  if (m == 0 || n == 0) return;
  const auto cfg = grid_2d(n, m, kMm, dim3(kMm, kMm), stream);
  if (algo == MatmulAlgorithm::Naive)
    rt::launch("matmul_naive_kernel", matmul_naive_kernel<T>, cfg, a.data(), b.data(), c.data(), m, k, n);
  else
    rt::launch("matmul_tiled_kernel", matmul_tiled_kernel<T>, cfg, a.data(), b.data(), c.data(), m, k, n);
}

#define KV_TRANSPOSE(T)                                                                              \
  template void transpose<T>(TransposeAlgorithm, const rt::DeviceBuffer<T> &, rt::DeviceBuffer<T> &, \
                             std::size_t, std::size_t, cudaStream_t);
KV_TRANSPOSE(std::int32_t)
KV_TRANSPOSE(std::uint32_t)
KV_TRANSPOSE(float)
KV_TRANSPOSE(double)
#define KV_MATMUL(T)                                                                                 \
  template void matmul<T>(MatmulAlgorithm, const rt::DeviceBuffer<T> &, const rt::DeviceBuffer<T> &, \
                          rt::DeviceBuffer<T> &, std::size_t, std::size_t, std::size_t, cudaStream_t);
KV_MATMUL(float)
KV_MATMUL(double)

}  // namespace kverify::kernels
