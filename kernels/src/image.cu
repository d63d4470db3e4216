// Image kernels (from a PyCUDA guide) and their host entry points.
#include <string>

#include "kverify/kernels/image.hpp"
#include "kverify/runtime/launch.hpp"

namespace kverify::kernels {
namespace {

// kverify: --block-dim=16,16 --assume='gridDim.x == (width + 15) / 16 && gridDim.y == (height + 15) / 16 && gridDim.z == 1'
__global__ void blur3x3_kernel(const std::uint8_t *in, std::uint8_t *out, std::size_t width,
                               std::size_t height) {
  const std::size_t x = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t y = static_cast<std::size_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0.0f;
  int count = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const long long nx = static_cast<long long>(x) + dx, ny = static_cast<long long>(y) + dy;
      if (nx >= 0 && nx < static_cast<long long>(width) && ny >= 0 && ny < static_cast<long long>(height)) {
        sum += in[ny * width + nx];
        ++count;
      }
    }
  out[y * width + x] = static_cast<std::uint8_t>(sum / count);
}

// kverify: --block-dim=256 --assume='gridDim.x == (pixels + 255) / 256 && gridDim.y == 1 && gridDim.z == 1'
__global__ void rgb_to_gray_kernel(const std::uint8_t *rgb, std::uint8_t *gray, std::size_t pixels) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= pixels) return;
  const float r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];
  const float v = __fadd_rn(__fadd_rn(__fmul_rn(0.299f, r), __fmul_rn(0.587f, g)), __fmul_rn(0.114f, b));
  gray[i] = static_cast<std::uint8_t>(v);
}

void check_size(const char *what, std::size_t expected, std::size_t got) {
  if (expected != got) rt::throw_size_mismatch(what, expected, got);
}

}  // namespace

void blur3x3(const rt::DeviceBuffer<std::uint8_t> &in, rt::DeviceBuffer<std::uint8_t> &out, std::size_t width,
             std::size_t height, cudaStream_t stream) {
  check_size("blur3x3 input", width * height, in.size());
  check_size("blur3x3 output", width * height, out.size());
  if (width == 0 || height == 0) return;
  const std::size_t gx = rt::blocks_for(width, 16), gy = rt::blocks_for(height, 16);
  if (gx > 0x7fffffffu || gy > 65535)
    throw rt::LaunchConfigError("blur3x3: image of " + std::to_string(width) + " x " +
                                std::to_string(height) + " needs a larger grid than CUDA allows");
  rt::LaunchConfig cfg;
  cfg.grid = dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy));
  cfg.block = dim3(16, 16);
  cfg.stream = stream;
  rt::launch("blur3x3_kernel", blur3x3_kernel, cfg, in.data(), out.data(), width, height);
}

void rgb_to_gray(const rt::DeviceBuffer<std::uint8_t> &rgb, rt::DeviceBuffer<std::uint8_t> &gray,
                 std::size_t width, std::size_t height, cudaStream_t stream) {
  check_size("rgb_to_gray input", 3 * width * height, rgb.size());
  check_size("rgb_to_gray output", width * height, gray.size());
  const std::size_t pixels = width * height;
  rt::launch("rgb_to_gray_kernel", rgb_to_gray_kernel, rt::config_for(pixels, 256, 0, stream), rgb.data(),
             gray.data(), pixels);
}

}  // namespace kverify::kernels
