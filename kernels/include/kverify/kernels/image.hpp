// 8-bit image kernels from a PyCUDA guide. Images are row-major, width x height.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kverify/runtime/buffer.hpp"

namespace kverify::kernels {

// Mean of the in-image pixels of each 3x3 neighbourhood, truncated (from a PyCUDA guide):
// the float quotient sum / count of integers <= 2295 truncates to sum / count.
void blur3x3(const rt::DeviceBuffer<std::uint8_t> &in, rt::DeviceBuffer<std::uint8_t> &out, std::size_t width,
             std::size_t height, cudaStream_t stream = nullptr);

// gray = trunc(0.299f r + 0.587f g + 0.114f b), rgb interleaved. Evaluated with
// explicitly rounded float operations in this order (no FMA contraction), so a
// plain C++ float evaluation on the host gives the same bits.
void rgb_to_gray(const rt::DeviceBuffer<std::uint8_t> &rgb, rt::DeviceBuffer<std::uint8_t> &gray,
                 std::size_t width, std::size_t height, cudaStream_t stream = nullptr);

}  // namespace kverify::kernels
