// Histograms of 32-bit values: value v counts in bin v % bins.size(), so every
// value lands in a bin and the counts sum to n (for n < 2^32).
#pragma once

#include <cstdint>

#include "kverify/runtime/buffer.hpp"

namespace kverify::kernels {

enum class HistogramAlgorithm {
  GlobalAtomics,     // one atomicAdd per element on the global bins
  SharedPrivatized,  // per-block bins in shared memory, merged with atomics
};
const char *name(HistogramAlgorithm a);

// The largest bin count the privatized kernel accepts (48 KiB of counters).
inline constexpr std::size_t kMaxPrivatizedBins = 12 * 1024;

// Overwrites `bins` (at least one bin). Throws std::invalid_argument for no
// bins, or more than kMaxPrivatizedBins with SharedPrivatized.
void histogram(HistogramAlgorithm algo, const rt::DeviceBuffer<std::uint32_t> &values,
               rt::DeviceBuffer<std::uint32_t> &bins, unsigned block_threads = 256,
               cudaStream_t stream = nullptr);

}  // namespace kverify::kernels
