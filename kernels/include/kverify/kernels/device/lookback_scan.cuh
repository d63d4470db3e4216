// Single-pass scan with decoupled look-back (Merrill & Garland, "Single-pass
// Parallel Prefix Scan with Decoupled Look-back", NVIDIA 2016).
//
// Tiles are numbered in the order blocks start (an atomic counter), so every
// tile a block waits on belongs to a block already running: no deadlock.
// Each tile publishes its aggregate (flag A) as soon as it is known, and its
// inclusive prefix (flag P) once its own look-back is done (see TileState for
// how a reader that sees a flag also sees its value).
#pragma once

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kverify/kernels/scan.hpp"
#include "kverify/runtime/launch.hpp"

#include "kverify/kernels/ops.hpp"
#include "kverify/kernels/warp/warp_scan.cuh"

namespace kverify::kernels::device {

enum TileFlag : unsigned { kInvalid = 0, kAggregate = 1, kPrefix = 2 };

// Per-tile published state. For 4-byte T the flag and the value share one
// 64-bit word, stored and loaded whole (relaxed atomics: one access carries
// both, nothing else needs ordering) - one L2 round trip per look. Wider T
// keeps flag and value apart: the value is stored before the flag is
// released, and read after the flag is acquired.
template <class T>
struct TileState {
  static constexpr bool kPacked = sizeof(T) == 4;
  unsigned *counter;          // next tile id
  unsigned long long *words;  // packed: (flag << 32) | value bits
  unsigned *flags;            // unpacked: TileFlag per tile
  T *aggregates;              // unpacked: reduction of the tile alone
  T *prefixes;                // unpacked: inclusive prefix through the tile

  __device__ void publish(unsigned tile, unsigned flag, T value) const {
    if constexpr (kPacked) {
      unsigned bits;
      memcpy(&bits, &value, sizeof bits);
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile])
          .store((static_cast<unsigned long long>(flag) << 32) | bits, cuda::memory_order_relaxed);
    } else {
      (flag == kPrefix ? prefixes : aggregates)[tile] = value;
      cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flags[tile])
          .store(flag, cuda::memory_order_release);
    }
  }

  // The tile's flag; `value` is meaningful unless the flag is kInvalid.
  __device__ unsigned read(unsigned tile, T &value) const {
    if constexpr (kPacked) {
      const unsigned long long w =
          cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile])
              .load(cuda::memory_order_relaxed);
      const auto bits = static_cast<unsigned>(w);
      memcpy(&value, &bits, sizeof bits);
      return static_cast<unsigned>(w >> 32);
    } else {
      const unsigned f =
          cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flags[tile]).load(cuda::memory_order_acquire);
      if (f != kInvalid) value = f == kPrefix ? prefixes[tile] : aggregates[tile];
      return f;
    }
  }
};

// Tuning policy: threads per block, items per thread, the blocks per SM the
// register allocation must allow, the width of the global loads and stores
// (elements per access: 4 makes them 16 bytes for 4-byte types), how tiles
// get their ids, the sleep before the first look at the predecessors and
// the longest back-off while a predecessor has published nothing.
//
// DynamicIds: ids from an atomic counter in the order blocks start, so a tile
// only ever waits on tiles of blocks already running - deadlock-free by
// construction, at the cost of one atomic round trip before a block can
// load. Otherwise the id is blockIdx.x, as in CUB, which relies on the
// hardware dispatching blocks in index order (true in practice, not promised
// by the CUDA programming model).
template <class T, unsigned Threads, unsigned Items, unsigned MinBlocks, unsigned Vec = 1,
          bool DynamicIds = true, unsigned FirstDelayNs = 0, unsigned MaxBackoffNs = 64>
struct LookbackPolicy {
  static constexpr unsigned kThreads = Threads;
  static constexpr unsigned kItems = Items;
  static constexpr unsigned kTile = Threads * Items;
  static constexpr unsigned kMinBlocks = MinBlocks;  // per SM, for __launch_bounds__
  static constexpr unsigned kVec = Vec;
  static constexpr bool kDynamicIds = DynamicIds;
  static constexpr unsigned kFirstDelayNs = FirstDelayNs;
  static constexpr unsigned kMaxBackoffNs = MaxBackoffNs;
  static_assert(Threads % 32 == 0 && Threads <= 1024, "whole warps, at most 32 of them");
  static_assert(Items % Vec == 0, "items per thread come in whole vectors");
};

// Defaults, from the policy sweep of kernels/bench against CUB on an H100.
// 4-byte types: 128 threads of 32 items (a 16 KiB tile, CUB's 128 threads
// with more bytes per load phase), 8 blocks per SM (64 registers: no
// spills), 16-byte accesses, and a first look-back after 2.5 us, then looks
// at most 1 us apart: a look-back that finds its predecessors published
// costs one L2 round trip, a look too early costs several and their traffic.
// 8-byte types: 256 threads of 8 items, the earlier shape (not tuned here).
template <class T>
using DefaultLookbackPolicy =
    std::conditional_t<sizeof(T) == 4, LookbackPolicy<T, 128, 32, 8, 4, true, 2500, 1024>,
                       LookbackPolicy<T, 256, 8, 1>>;

// Vec elements loaded or stored as one access (16 bytes for 4 floats).
template <class T, unsigned Vec>
struct alignas(sizeof(T) * Vec) Vector {
  T e[Vec];
};

// Shared-memory index with one pad word per 32, so both the striped and the
// blocked access patterns below are free of bank conflicts (at most 2-way for
// items per thread that are not powers of two).
__device__ __forceinline__ unsigned padded(unsigned i) { return i + (i >> 5); }

// Position in its warp's slice of a lane's k-th item when the warp reads the
// slice in coalesced Vec-element accesses: access k / Vec of the warp covers
// 32 * Vec consecutive elements, Vec per lane.
template <unsigned Vec>
__device__ __forceinline__ unsigned striped(unsigned k, unsigned lane) {
  return (k / Vec) * (32 * Vec) + lane * Vec + k % Vec;
}

// Grids smaller than this (about the blocks that fit on the GPU at once) run
// in one wave, where the first sleep of look_back would only add latency.
inline constexpr unsigned kFirstDelayMinTiles = 512;

// Called by all lanes of warp 0 for tile > 0: the exclusive prefix of the tile.
// Lane l inspects tile (last - l); the window ends at the nearest P flag.
// The first look waits FirstDelayNs (in grids of several waves), so that the
// predecessors started just before have published and the window rarely
// walks further back; after that, while a predecessor has published nothing,
// back off before looking again, so spinning warps do not crowd the memory
// system.
template <class T, class Op, unsigned FirstDelayNs, unsigned MaxBackoffNs>
__device__ T look_back(const TileState<T> &st, int tile, Op op) {
  const unsigned lane = threadIdx.x & 31;
  if (FirstDelayNs > 0 && gridDim.x >= kFirstDelayMinTiles) __nanosleep(FirstDelayNs);
  T exclusive = Op::template identity<T>();
  bool have = false;
  for (int last = tile - 1;; last -= 32) {
    const int idx = last - static_cast<int>(lane);
    unsigned flag = kPrefix;
    T value = Op::template identity<T>();
    for (unsigned delay = 8;; delay = delay < MaxBackoffNs ? 2 * delay : delay) {
      if (idx >= 0) flag = st.read(static_cast<unsigned>(idx), value);
      if (!__any_sync(warp::kFullMask, flag == kInvalid)) break;
      __nanosleep(delay);
    }
    const unsigned prefix_lanes = __ballot_sync(warp::kFullMask, flag == kPrefix);
    const unsigned cut = prefix_lanes ? __ffs(prefix_lanes) - 1 : 31;
    const T window = warp::reduce(lane <= cut ? value : Op::template identity<T>(), op);
    exclusive = have ? op(window, exclusive) : window;
    have = true;
    if (prefix_lanes) return exclusive;
  }
}

// Launched by lookback_scan (below): 1-D block of P::kThreads, 1-D grid of tiles, 0 < n < 2^31,
// with the tile counter and the flags zeroed; aligned: in and out aligned to Vector<T, P::kVec>.
// kverify: --assume='blockDim.y == 1 && blockDim.z == 1 && gridDim.y == 1 && gridDim.z == 1 && n >= 1 && n <= 2147483647' --zero-init=st.flags
template <class T, class Op, class P>
__global__ void __launch_bounds__(P::kThreads, P::kMinBlocks)
    lookback_scan_kernel(const T *__restrict__ in, T *__restrict__ out, std::size_t n, TileState<T> st,
                         bool exclusive_scan, bool aligned) {
  constexpr unsigned kThreads = P::kThreads, kItems = P::kItems, kTile = P::kTile, kVec = P::kVec;
  constexpr unsigned kWarps = kThreads / 32, kSlice = 32 * kItems;
  using V = Vector<T, kVec>;
  // Each warp owns a slice of the tile and transposes it alone (as CUB's
  // BLOCK_LOAD_WARP_TRANSPOSE): no block barrier between loads and scan.
  __shared__ T tile_data[kWarps][kSlice + kSlice / 32];
  __shared__ T warp_totals[kWarps];
  __shared__ T tile_prefix;
  __shared__ unsigned tile_id_shared;

  const Op op{};
  const T identity = Op::template identity<T>();
  const unsigned t = threadIdx.x, lane = t & 31, w = t >> 5;
  unsigned tile = blockIdx.x;
  if constexpr (P::kDynamicIds) {
    if (t == 0) tile_id_shared = atomicAdd(st.counter, 1u);
    __syncthreads();
    tile = tile_id_shared;
  }
  const std::size_t tile_base = static_cast<std::size_t>(tile) * kTile;
  const std::size_t base = tile_base + w * kSlice;       // this warp's slice
  const bool whole = aligned && tile_base + kTile <= n;  // whole vectors, no bounds checks
  T *slice = tile_data[w];

  // Coalesced loads, all in flight before first use (whole vectors in
  // aligned full tiles); then transpose through the warp's slice so each
  // thread owns kItems consecutive elements.
  T v[kItems];
  if (whole) {
    const V *src = reinterpret_cast<const V *>(in + base);
    V r[kItems / kVec];
#pragma unroll
    for (unsigned q = 0; q < kItems / kVec; ++q) r[q] = src[q * 32 + lane];
#pragma unroll
    for (unsigned k = 0; k < kItems; ++k) v[k] = r[k / kVec].e[k % kVec];
  } else {
#pragma unroll
    for (unsigned k = 0; k < kItems; ++k) {
      const std::size_t i = base + striped<kVec>(k, lane);
      v[k] = i < n ? in[i] : identity;
    }
  }
#pragma unroll
  for (unsigned k = 0; k < kItems; ++k) slice[padded(striped<kVec>(k, lane))] = v[k];
  __syncwarp();
#pragma unroll
  for (unsigned k = 0; k < kItems; ++k) v[k] = slice[padded(lane * kItems + k)];

  // Sequential scan of the thread's items, then a block scan of thread totals.
#pragma unroll
  for (unsigned k = 1; k < kItems; ++k) v[k] = op(v[k - 1], v[k]);
  const T thread_inc = warp::inclusive_scan(v[kItems - 1], op, lane);
  const T thread_up = __shfl_up_sync(warp::kFullMask, thread_inc, 1);
  if (lane == 31) warp_totals[w] = thread_inc;
  __syncthreads();

  if (w == 0) {
    T wt = lane < kWarps ? warp_totals[lane] : identity;
    wt = warp::inclusive_scan(wt, op, lane);
    const T aggregate = __shfl_sync(warp::kFullMask, wt, kWarps - 1);
    if (lane < kWarps) warp_totals[lane] = wt;  // now inclusive warp prefixes
    T prefix = identity;
    if (tile == 0) {
      if (lane == 0) st.publish(0, kPrefix, aggregate);
    } else {
      if (lane == 0) st.publish(tile, kAggregate, aggregate);
      prefix = look_back<T, Op, P::kFirstDelayNs, P::kMaxBackoffNs>(st, static_cast<int>(tile), op);
      if (lane == 0) st.publish(tile, kPrefix, op(prefix, aggregate));
    }
    if (lane == 0) tile_prefix = prefix;
  }
  __syncthreads();

  // Exclusive prefix of this thread's first item: tile prefix, warp prefix,
  // then the lanes before it. Combined only where there is something to add.
  T thread_prefix = lane > 0 ? thread_up : identity;
  bool has = lane > 0;
  if (w > 0) {
    thread_prefix = has ? op(warp_totals[w - 1], thread_prefix) : warp_totals[w - 1];
    has = true;
  }
  if (tile > 0) {
    thread_prefix = has ? op(tile_prefix, thread_prefix) : tile_prefix;
    has = true;
  }

  // Results in place (fewer registers, more blocks per SM): the exclusive
  // form shifts by one, so it goes from the last item down.
  if (exclusive_scan) {
#pragma unroll
    for (unsigned k = kItems - 1; k > 0; --k) v[k] = has ? op(thread_prefix, v[k - 1]) : v[k - 1];
    v[0] = thread_prefix;
  } else if (has) {
#pragma unroll
    for (unsigned k = 0; k < kItems; ++k) v[k] = op(thread_prefix, v[k]);
  }

  // Transpose back through the warp's slice and store coalesced. The block
  // barriers above separate the slice's reads from these writes.
#pragma unroll
  for (unsigned k = 0; k < kItems; ++k) slice[padded(lane * kItems + k)] = v[k];
  __syncwarp();
#pragma unroll
  for (unsigned k = 0; k < kItems; ++k) v[k] = slice[padded(striped<kVec>(k, lane))];
  if (whole) {
    V *dst = reinterpret_cast<V *>(out + base);
#pragma unroll
    for (unsigned q = 0; q < kItems / kVec; ++q) {
      V r;
#pragma unroll
      for (unsigned c = 0; c < kVec; ++c) r.e[c] = v[q * kVec + c];
      dst[q * 32 + lane] = r;
    }
  } else {
#pragma unroll
    for (unsigned k = 0; k < kItems; ++k) {
      const std::size_t i = base + striped<kVec>(k, lane);
      if (i < n) out[i] = v[k];
    }
  }
}

// Temporary storage: [counter][words or flags][aggregates][prefixes], each
// region 256-byte aligned; counter and flags/words are zeroed on every call.
template <class T, class P>
struct LookbackTemp {
  static constexpr std::size_t kAlign = 256;
  static std::size_t up(std::size_t x) { return (x + kAlign - 1) / kAlign * kAlign; }
  std::size_t tiles, state_offset, aggregates_offset, prefixes_offset, bytes;
  explicit LookbackTemp(std::size_t n) {
    tiles = rt::blocks_for(n, P::kTile);
    state_offset = kAlign;
    const std::size_t state_bytes =
        TileState<T>::kPacked ? tiles * sizeof(unsigned long long) : tiles * sizeof(unsigned);
    aggregates_offset = state_offset + up(state_bytes);
    const std::size_t value_bytes = TileState<T>::kPacked ? 0 : up(tiles * sizeof(T));
    prefixes_offset = aggregates_offset + value_bytes;
    bytes = prefixes_offset + value_bytes;
  }
};

template <class T, class Op, class P>
void lookback_scan(bool exclusive, const T *in, T *out, std::size_t n, void *temp, std::size_t temp_bytes,
                   cudaStream_t stream) {
  if (n == 0) return;
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument("device_scan: n = " + std::to_string(n) +
                                " exceeds the limit of 2^31 - 1 elements");
  const LookbackTemp<T, P> layout(n);
  if (temp == nullptr || temp_bytes < layout.bytes)
    throw std::invalid_argument("device_scan: temporary storage of " + std::to_string(temp_bytes) +
                                " bytes, need " + std::to_string(layout.bytes));
  auto *base = static_cast<unsigned char *>(temp);
  TileState<T> st{reinterpret_cast<unsigned *>(base),
                  reinterpret_cast<unsigned long long *>(base + layout.state_offset),
                  reinterpret_cast<unsigned *>(base + layout.state_offset),
                  reinterpret_cast<T *>(base + layout.aggregates_offset),
                  reinterpret_cast<T *>(base + layout.prefixes_offset)};
  KV_CUDA_CHECK(cudaMemsetAsync(base, 0, layout.aggregates_offset, stream));
  // Whole-vector accesses need in and out aligned to a vector; otherwise
  // every tile takes the element-wise path.
  const auto bits = reinterpret_cast<std::uintptr_t>(in) | reinterpret_cast<std::uintptr_t>(out);
  const bool aligned = bits % alignof(Vector<T, P::kVec>) == 0;
  rt::LaunchConfig cfg;
  cfg.grid = dim3(static_cast<unsigned>(layout.tiles));
  cfg.block = dim3(P::kThreads);
  cfg.stream = stream;
  rt::launch("lookback_scan_kernel", lookback_scan_kernel<T, Op, P>, cfg, in, out, n, st, exclusive, aligned);
}

}  // namespace kverify::kernels::device
