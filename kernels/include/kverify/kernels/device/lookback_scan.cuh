// Single-pass scan with decoupled look-back (Merrill & Garland, "Single-pass
// Parallel Prefix Scan with Decoupled Look-back", NVIDIA 2016).
//
// Tiles are numbered in the order blocks start (an atomic counter), so every
// tile a block waits on belongs to a block already running: no deadlock.
// Each tile publishes its aggregate (flag A) as soon as it is known, and its
// inclusive prefix (flag P) once its own look-back is done. Flags are stored
// with release and loaded with acquire semantics (device scope), so a reader
// that sees a flag also sees the value stored before it.
#pragma once

#include <cuda/atomic>

#include <cstddef>

#include "kverify/kernels/ops.hpp"
#include "kverify/kernels/warp/warp_scan.cuh"

namespace kverify::kernels::device {

enum TileFlag : unsigned { kInvalid = 0, kAggregate = 1, kPrefix = 2 };

template <class T>
struct TileState {
  unsigned* counter;  // next tile id
  unsigned* flags;    // per tile: TileFlag
  T* aggregates;      // per tile: reduction of the tile alone
  T* prefixes;        // per tile: inclusive prefix up to and including the tile
};

// Tuning policy: 256 threads; 16 items per thread for 4-byte types (tile of
// 4096), 8 for 8-byte types, so a tile is 16 KiB either way.
template <class T>
struct LookbackPolicy {
  static constexpr unsigned kThreads = 256;
  static constexpr unsigned kItems = sizeof(T) >= 8 ? 8 : 16;
  static constexpr unsigned kTile = kThreads * kItems;
};

__device__ __forceinline__ void publish(unsigned* flag, unsigned value) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*flag).store(value,
                                                                     cuda::memory_order_release);
}
__device__ __forceinline__ unsigned observe(unsigned* flag) {
  return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*flag).load(
      cuda::memory_order_acquire);
}

// Shared-memory index with one pad word per 32, so both the striped and the
// blocked access patterns below are free of bank conflicts.
__device__ __forceinline__ unsigned padded(unsigned i) { return i + (i >> 5); }

// Called by all lanes of warp 0 for tile > 0: the exclusive prefix of the tile.
// Lane l inspects tile (last - l); the window ends at the nearest P flag.
template <class T, class Op>
__device__ T look_back(const TileState<T>& st, int tile, Op op) {
  const unsigned lane = threadIdx.x & 31;
  T exclusive = Op::template identity<T>();
  bool have = false;
  for (int last = tile - 1;; last -= 32) {
    const int idx = last - static_cast<int>(lane);
    unsigned flag = kPrefix;
    do {
      if (idx >= 0) flag = observe(&st.flags[idx]);
    } while (__any_sync(warp::kFullMask, flag == kInvalid));
    T value = Op::template identity<T>();
    if (idx >= 0) value = flag == kPrefix ? st.prefixes[idx] : st.aggregates[idx];
    const unsigned prefix_lanes = __ballot_sync(warp::kFullMask, flag == kPrefix);
    const unsigned cut = prefix_lanes ? __ffs(prefix_lanes) - 1 : 31;
    const T window = warp::reduce(lane <= cut ? value : Op::template identity<T>(), op);
    exclusive = have ? op(window, exclusive) : window;
    have = true;
    if (prefix_lanes) return exclusive;
  }
}

template <class T, class Op>
__global__ void __launch_bounds__(LookbackPolicy<T>::kThreads)
    lookback_scan_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n,
                         TileState<T> st, bool exclusive_scan) {
  using P = LookbackPolicy<T>;
  constexpr unsigned kThreads = P::kThreads, kItems = P::kItems, kTile = P::kTile;
  __shared__ T tile_data[kTile + kTile / 32];
  __shared__ T warp_totals[kThreads / 32];
  __shared__ T tile_prefix;
  __shared__ unsigned tile_id_shared;

  const Op op{};
  const T identity = Op::template identity<T>();
  const unsigned t = threadIdx.x, lane = t & 31, w = t >> 5;
  if (t == 0) tile_id_shared = atomicAdd(st.counter, 1u);
  __syncthreads();
  const unsigned tile = tile_id_shared;
  const std::size_t base = static_cast<std::size_t>(tile) * kTile;
  const bool full = base + kTile <= n;

  // Coalesced striped loads, all in flight before first use; then transpose
  // through shared memory so each thread owns kItems consecutive elements.
  T v[kItems];
#pragma unroll
  for (unsigned k = 0; k < kItems; ++k) {
    const std::size_t i = base + k * kThreads + t;
    v[k] = (full || i < n) ? in[i] : identity;
  }
#pragma unroll
  for (unsigned k = 0; k < kItems; ++k) tile_data[padded(k * kThreads + t)] = v[k];
  __syncthreads();
#pragma unroll
  for (unsigned k = 0; k < kItems; ++k) v[k] = tile_data[padded(t * kItems + k)];

  // Sequential scan of the thread's items, then a block scan of thread totals.
#pragma unroll
  for (unsigned k = 1; k < kItems; ++k) v[k] = op(v[k - 1], v[k]);
  const T thread_inc = warp::inclusive_scan(v[kItems - 1], op, lane);
  const T thread_up = __shfl_up_sync(warp::kFullMask, thread_inc, 1);
  if (lane == 31) warp_totals[w] = thread_inc;
  __syncthreads();

  if (w == 0) {
    T wt = lane < kThreads / 32 ? warp_totals[lane] : identity;
    wt = warp::inclusive_scan(wt, op, lane);
    const T aggregate = __shfl_sync(warp::kFullMask, wt, kThreads / 32 - 1);
    if (lane < kThreads / 32) warp_totals[lane] = wt;  // now inclusive warp prefixes
    T prefix = identity;
    if (tile == 0) {
      if (lane == 0) {
        st.prefixes[0] = aggregate;
        publish(&st.flags[0], kPrefix);
      }
    } else {
      if (lane == 0) {
        st.aggregates[tile] = aggregate;
        publish(&st.flags[tile], kAggregate);
      }
      prefix = look_back(st, static_cast<int>(tile), op);
      if (lane == 0) {
        st.prefixes[tile] = op(prefix, aggregate);
        publish(&st.flags[tile], kPrefix);
      }
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

  T r[kItems];
#pragma unroll
  for (unsigned k = 0; k < kItems; ++k) {
    if (exclusive_scan) r[k] = k == 0 ? thread_prefix : (has ? op(thread_prefix, v[k - 1]) : v[k - 1]);
    else r[k] = has ? op(thread_prefix, v[k]) : v[k];
  }

  // Transpose back and store coalesced. The barriers above separate the reads
  // of tile_data from these writes.
#pragma unroll
  for (unsigned k = 0; k < kItems; ++k) tile_data[padded(t * kItems + k)] = r[k];
  __syncthreads();
#pragma unroll
  for (unsigned k = 0; k < kItems; ++k) {
    const std::size_t i = base + k * kThreads + t;
    if (full || i < n) out[i] = tile_data[padded(k * kThreads + t)];
  }
}

}  // namespace kverify::kernels::device
