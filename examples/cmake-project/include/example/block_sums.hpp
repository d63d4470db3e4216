// Per-block sums of a float array: out[b] = in[256 b] + ... + in[256 b + 255] (elements
// past the end count as 0), each added by a tree of depth 8.
#pragma once

#include "kverify/runtime/buffer.hpp"

namespace example {

inline constexpr unsigned kBlock = 256;
inline constexpr std::size_t kTreeDepth = 8;  // log2(kBlock) additions from leaf to root

// out must hold one element per block: ceil(in.size() / kBlock).
void block_sums(const kverify::rt::DeviceBuffer<float> &in, kverify::rt::DeviceBuffer<float> &out);

}  // namespace example
