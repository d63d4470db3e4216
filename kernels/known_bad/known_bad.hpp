// Known-bad kernels: deliberately wrong, kept apart from the library, used only
// by meta-tests that check the property suites catch them. Never call these
// for results. All on int32 so their failures are exact, not tolerance calls.
#pragma once

#include <cstdint>

#include "kverify/runtime/buffer.hpp"

namespace kverify::kernels::known_bad {

// The PyCUDA guide's "scan": Blelloch's up-sweep without the down-sweep. One block of n
// threads, n <= 256. Right for n <= 2; element 2 is already wrong for n = 3.
void upsweep_only_scan(const rt::DeviceBuffer<std::int32_t> &in, rt::DeviceBuffer<std::int32_t> &out);

// Shared-tree sum (from a PyCUDA guide) with the __syncthreads() inside the loop removed:
// a warp may read its partner's slot before the partner's warp updated it.
std::int32_t reduce_without_loop_barrier(const rt::DeviceBuffer<std::int32_t> &in,
                                         unsigned block_threads = 1024);

// Hillis-Steele inclusive sum in a single buffer, two consecutive elements
// per thread: within a step, element i reads element i - d, which this step
// may already have overwritten. One block of 512 threads, n <= 1024. The
// thread's own order makes it deterministic: for n >= 4, element 3 reads the
// new element 2 (x1 + x2) instead of x2.
void in_place_hillis_steele_scan(const rt::DeviceBuffer<std::int32_t> &in,
                                 rt::DeviceBuffer<std::int32_t> &out);

// Tiled inclusive sum whose offset pass is sized n / block (rounded down): a
// last partial tile is scanned but never gets the prefix of the tiles before.
void last_partial_tile_scan(const rt::DeviceBuffer<std::int32_t> &in, rt::DeviceBuffer<std::int32_t> &out,
                            unsigned block_threads = 256);

// Histogram with a plain read-modify-write of the global bin: two threads of a
// warp hitting one bin both read the old count and one increment is lost.
void histogram_without_atomics(const rt::DeviceBuffer<std::uint32_t> &values,
                               rt::DeviceBuffer<std::uint32_t> &bins);

}  // namespace kverify::kernels::known_bad
