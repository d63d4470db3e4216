// The part of every replay program kverify --confirm writes that is the same for all of
// them: checked CUDA calls, buffers for pointer parameters, the launch, and the access log
// that shows a global-memory collision. kverify copies this text into each program, so a
// program in --confirm-dir builds alone: nvcc -arch=native -lineinfo replay.cu.
//
// Exit status: 0 the launch ran (what it showed is on stdout and in the sanitizer's report),
// 3 no usable CUDA device, 4 a CUDA call failed (named on stderr).
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace kvr {

[[noreturn]] inline void fail(const char *call, cudaError_t e) {
  std::fprintf(stderr, "kverify-replay: %s: %s (%s)\n", call, cudaGetErrorString(e), cudaGetErrorName(e));
  bool no_device = e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || e == cudaErrorNoKernelImageForDevice;
  std::exit(no_device ? 3 : 4);
}
#define KVR_CHECK(call)                              \
  do {                                               \
    cudaError_t kvr_e = (call);                      \
    if (kvr_e != cudaSuccess) ::kvr::fail(#call, kvr_e); \
  } while (0)

// One access of a watched thread at an instrumented site.
struct LogEntry {
  unsigned site, watched;
  unsigned long long address, bytes;
};
constexpr unsigned kLogCapacity = 1u << 16;
__device__ LogEntry log_entries[kLogCapacity];
__device__ unsigned long long log_count;
// the witness's two threads: blockIdx then threadIdx, x y z
__constant__ unsigned watched_threads[2][6];

__device__ inline int watchedIndex() {
  for (int w = 0; w < 2; ++w) {
    const unsigned *t = watched_threads[w];
    if (blockIdx.x == t[0] && blockIdx.y == t[1] && blockIdx.z == t[2] && threadIdx.x == t[3] &&
        threadIdx.y == t[4] && threadIdx.z == t[5])
      return w;
  }
  return -1;
}

// Records where a watched thread's access at `site` goes, and is that access.
template <class T>
__device__ inline T *record(unsigned site, T *p) {
  int w = watchedIndex();
  if (w >= 0) {
    unsigned long long i = atomicAdd(&log_count, 1ull);
    if (i < kLogCapacity)
      log_entries[i] = LogEntry{site, unsigned(w), reinterpret_cast<unsigned long long>(p), sizeof(T)};
  }
  return p;
}

// A pointer parameter's buffer: zero-filled but for the witness's values.
struct Buffer {
  const char *param;
  void *base;
  size_t bytes;
};
inline std::vector<Buffer> &buffers() {
  static std::vector<Buffer> all;
  return all;
}

// An element of a buffer the witness reads: stored before the launch.
struct Fill {
  long long index, value;
};

// One argument as the witness gives it.
struct Arg {
  const char *name;
  long long value;            // integers, enums, bools
  double real;                // floating point
  size_t elements;            // pointers: the buffer's length in elements (at most 4 GiB)
  const Fill *fills = nullptr;  // pointers: the witness's loaded values
  unsigned fill_count = 0;
};

template <class T>
T make(const Arg &a) {
  if constexpr (std::is_pointer_v<T>) {
    using E = std::remove_cv_t<std::remove_pointer_t<T>>;
    size_t size = 1;
    if constexpr (!std::is_void_v<E>) size = sizeof(E);
    size_t elements = a.elements < (size_t(4) << 30) / size ? a.elements : (size_t(4) << 30) / size;
    void *p = nullptr;
    KVR_CHECK(cudaMalloc(&p, elements * size));
    KVR_CHECK(cudaMemset(p, 0, elements * size));
    buffers().push_back(Buffer{a.name, p, elements * size});
    if constexpr (std::is_arithmetic_v<E>)
      for (unsigned i = 0; i < a.fill_count; ++i)
        if (a.fills[i].index >= 0 && size_t(a.fills[i].index) < elements) {
          E v = static_cast<E>(a.fills[i].value);
          KVR_CHECK(cudaMemcpy(static_cast<E *>(p) + a.fills[i].index, &v, sizeof v, cudaMemcpyHostToDevice));
        }
    return static_cast<T>(p);
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(a.real);
  } else {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>,
                  "kverify-replay: a parameter of this type cannot be set from a witness");
    return static_cast<T>(a.value);
  }
}

// The buffer and byte offset an address falls in, for the report.
inline void describe(unsigned long long address, char *out, size_t n) {
  for (const Buffer &b : buffers()) {
    auto base = reinterpret_cast<unsigned long long>(b.base);
    if (address >= base && address < base + b.bytes) {
      std::snprintf(out, n, "%s + %llu bytes", b.param, address - base);
      return;
    }
  }
  std::snprintf(out, n, "0x%llx", address);
}

// After the launch: did the first watched thread's access at site_a and the second's at
// site_b touch a common byte? One line on stdout either way.
inline void reportCollision(unsigned site_a, unsigned site_b) {
  unsigned long long count = 0;
  KVR_CHECK(cudaMemcpyFromSymbol(&count, log_count, sizeof count));
  if (count > kLogCapacity) count = kLogCapacity;
  std::vector<LogEntry> log(count);
  if (count) KVR_CHECK(cudaMemcpyFromSymbol(log.data(), log_entries, count * sizeof(LogEntry)));
  unsigned seen[2] = {0, 0};
  for (const LogEntry &a : log) {
    if (a.watched != 0 || a.site != site_a) continue;
    ++seen[0];
    for (const LogEntry &b : log) {
      if (b.watched != 1 || b.site != site_b) continue;
      if (a.address < b.address + b.bytes && b.address < a.address + a.bytes) {
        char where[256];
        describe(a.address > b.address ? a.address : b.address, where, sizeof where);
        std::printf("kverify-replay: collision: both threads accessed %s\n", where);
        return;
      }
    }
  }
  for (const LogEntry &b : log) seen[1] += b.watched == 1 && b.site == site_b;
  std::printf("kverify-replay: no collision: the first thread made %u accesses at the first site, "
              "the second %u at the second, none to a common byte\n",
              seen[0], seen[1]);
}

template <class... P, size_t... I>
void launchWith(void (*kernel)(P...), dim3 grid, dim3 block, bool dynamic_shared, const Arg *args,
                std::index_sequence<I...>) {
  std::tuple<std::decay_t<P>...> values{make<std::decay_t<P>>(args[I])...};
  size_t shared = 0;
  if (dynamic_shared) {  // extern __shared__: as much as the device lets one block have
    int device = 0, optin = 0;
    cudaFuncAttributes attributes{};
    KVR_CHECK(cudaGetDevice(&device));
    KVR_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    KVR_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    shared = size_t(optin) - attributes.sharedSizeBytes;
    KVR_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  }
  kernel<<<grid, block, shared>>>(std::get<I>(values)...);
  KVR_CHECK(cudaGetLastError());
  KVR_CHECK(cudaDeviceSynchronize());
}

// Sets the watched threads, launches, and waits. `args` holds one Arg per parameter.
template <class... P>
void launch(void (*kernel)(P...), dim3 grid, dim3 block, bool dynamic_shared, const Arg *args,
            const unsigned (&watched)[2][6]) {
  int devices = 0;
  KVR_CHECK(cudaGetDeviceCount(&devices));
  KVR_CHECK(cudaMemcpyToSymbol(watched_threads, watched, sizeof watched));
  launchWith(kernel, grid, block, dynamic_shared, args, std::index_sequence_for<P...>{});
  std::printf("kverify-replay: launch finished\n");
}

}  // namespace kvr

// An instrumented access: records the address, then is the access itself.
#define KVR_AT(site, ...) (*::kvr::record(site, &(__VA_ARGS__)))
// An instrumented pointer an atomic is given: records where it points, and is the pointer.
#define KVR_POINTER(site, ...) ::kvr::record(site, (__VA_ARGS__))
