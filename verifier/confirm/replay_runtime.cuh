// The part of every replay program kverify --confirm writes that is the same for all of
// them: checked CUDA calls, buffers for pointer parameters, the launch, and the access log
// that shows a global-memory collision. kverify copies this text into each program, so a
// program in --confirm-dir builds alone: nvcc -arch=native -lineinfo replay.cu.
//
// Exit status: 0 the launches ran (what they showed is on stdout and in the sanitizer's report),
// 3 no usable CUDA device, 4 a CUDA call failed (named on stderr), 5 a launch failed (the
// next fill's launch runs as ./replay N+1).
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
  bool no_device =
      e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || e == cudaErrorNoKernelImageForDevice;
  std::exit(no_device ? 3 : 4);
}
#define KVR_CHECK(call)                                  \
  do {                                                   \
    cudaError_t kvr_e = (call);                          \
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

// The first access of any thread that fell outside its shared array (KVR_WITHIN).
struct Outside {
  unsigned block[3], thread[3];
  long long offset;
  unsigned long long bytes, array_bytes;
};
__device__ Outside first_outside;
__device__ unsigned long long outside_count;

// Checks that an access lies inside its array, and is that access. An array of known size
// is checked; anything else (a pointer of the same name in a helper) passes unchecked.
template <class E, size_t N, class T>
__device__ inline T *within(E (&array)[N], T *p) {
  long long offset = reinterpret_cast<const char *>(p) - reinterpret_cast<const char *>(&array);
  if ((offset < 0 || offset + (long long)sizeof(T) > (long long)sizeof(array)) &&
      atomicAdd(&outside_count, 1ull) == 0)
    first_outside = Outside{{blockIdx.x, blockIdx.y, blockIdx.z},
                            {threadIdx.x, threadIdx.y, threadIdx.z},
                            offset,
                            sizeof(T),
                            sizeof(array)};
  return p;
}
template <class A, class T>
__device__ inline T *within(A &, T *p) {
  return p;
}

// After a launch: did an access fall outside its array? Says so on stdout when one did.
inline void reportOutside() {
  unsigned long long count = 0;
  KVR_CHECK(cudaMemcpyFromSymbol(&count, outside_count, sizeof count));
  if (count == 0) return;
  Outside o{};
  KVR_CHECK(cudaMemcpyFromSymbol(&o, first_outside, sizeof o));
  std::printf(
      "kverify-replay: out of bounds: block (%u, %u, %u) thread (%u, %u, %u) accessed %llu bytes at byte "
      "offset %lld of a %llu-byte array (%llu such accesses)\n",
      o.block[0], o.block[1], o.block[2], o.thread[0], o.thread[1], o.thread[2], o.bytes, o.offset,
      o.array_bytes, count);
}

// An element of a buffer the witness reads: stored before each launch.
struct Fill {
  long long index, value;
};

// One argument as the witness gives it.
struct Arg {
  const char *name;
  long long value;              // integers, enums, bools
  double real;                  // floating point
  size_t elements;              // pointers: the buffer's length in elements (at most 4 GiB)
  const Fill *fills = nullptr;  // pointers: the witness's loaded values
  unsigned fill_count = 0;
};

// The memory the witness leaves open is filled in turn with each pattern, one launch each:
// the values a kernel's control flow rests on (a float compared with a threshold, a
// loaded index) are ones kverify does not model.
constexpr int kPatterns = 4;
inline const char *patternName(int pattern) {
  static const char *names[kPatterns] = {"zeros", "ones", "small values -4..11", "minus ones"};
  return names[pattern];
}

template <class E>
__global__ void fillPattern(E *p, size_t n, int pattern) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    long long v = pattern == 1 ? 1 : pattern == 2 ? (long long)((i * 2654435761ull >> 7) % 16) - 4 : -1;
    p[i] = static_cast<E>(v);
  }
}

// A pointer parameter's buffer, and how to refill it before a launch. The parameter points
// a guard's length into its allocation: a witness's index may be negative (a race at
// hist[-255] is still a race), and other threads' indices around it.
struct Buffer {
  const char *param;
  void *allocation, *base;  // base: what the kernel gets
  size_t bytes, elements;   // from base
  size_t guard_bytes;       // before base
  const Fill *fills;
  unsigned fill_count;
  void (*refill)(const Buffer &, int pattern);
};
inline std::vector<Buffer> &buffers() {
  static std::vector<Buffer> all;
  return all;
}

template <class E>
void refillAs(const Buffer &b, int pattern) {
  KVR_CHECK(cudaMemset(b.allocation, 0, b.guard_bytes + b.bytes));
  if constexpr (std::is_arithmetic_v<E>) {
    if (pattern > 0) {
      fillPattern<E><<<1024, 256>>>(static_cast<E *>(b.base), b.elements, pattern);
      KVR_CHECK(cudaGetLastError());
    }
    for (unsigned i = 0; i < b.fill_count; ++i) {
      long long at = b.fills[i].index;
      if (at >= -(long long)(b.guard_bytes / sizeof(E)) && (at < 0 || size_t(at) < b.elements)) {
        E v = static_cast<E>(b.fills[i].value);
        KVR_CHECK(cudaMemcpy(static_cast<E *>(b.base) + at, &v, sizeof v, cudaMemcpyHostToDevice));
      }
    }
  }
  KVR_CHECK(cudaDeviceSynchronize());
}

template <class T>
T make(const Arg &a) {
  static_assert(!std::is_function_v<std::remove_pointer_t<T>>,
                "kverify-replay: a function pointer parameter");
  if constexpr (std::is_pointer_v<T>) {
    using E = std::remove_cv_t<std::remove_pointer_t<T>>;
    size_t size = 1;
    if constexpr (!std::is_void_v<E>) size = sizeof(E);
    size_t elements = a.elements < (size_t(4) << 30) / size ? a.elements : (size_t(4) << 30) / size;
    size_t guard = elements / 4 * size;
    void *p = nullptr;
    KVR_CHECK(cudaMalloc(&p, guard + elements * size));
    void *base = static_cast<char *>(p) + guard;
    buffers().push_back(
        Buffer{a.name, p, base, elements * size, elements, guard, a.fills, a.fill_count, &refillAs<E>});
    return static_cast<T>(base);
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
    if (address >= base - b.guard_bytes && address < base + b.bytes) {
      long long offset = (long long)(address - base);
      std::snprintf(out, n, "%s %s %lld bytes", b.param, offset < 0 ? "-" : "+",
                    offset < 0 ? -offset : offset);
      return;
    }
  }
  std::snprintf(out, n, "0x%llx", address);
}

// After a launch: did the first watched thread's access at site_a and the second's at
// site_b touch a common byte? Says so on stdout when they did.
inline bool reportCollision(unsigned site_a, unsigned site_b) {
  unsigned long long count = 0;
  KVR_CHECK(cudaMemcpyFromSymbol(&count, log_count, sizeof count));
  if (count > kLogCapacity) count = kLogCapacity;
  std::vector<LogEntry> log(count);
  if (count) KVR_CHECK(cudaMemcpyFromSymbol(log.data(), log_entries, count * sizeof(LogEntry)));
  for (const LogEntry &a : log) {
    if (a.watched != 0 || a.site != site_a) continue;
    for (const LogEntry &b : log) {
      if (b.watched != 1 || b.site != site_b) continue;
      if (a.address < b.address + b.bytes && b.address < a.address + a.bytes) {
        char where[256];
        describe(a.address > b.address ? a.address : b.address, where, sizeof where);
        std::printf("kverify-replay: collision: both threads accessed %s\n", where);
        return true;
      }
    }
  }
  return false;
}

struct Launch {
  dim3 grid, block;
  bool dynamic_shared = false;   // extern __shared__: as much as the device lets one block have
  bool cooperative = false;      // grid.sync(): a cooperative launch
  int site_a = -1, site_b = -1;  // a global race's instrumented accesses (else -1)
};

// Launches once per fill pattern from `first` (0-based), each with freshly filled buffers.
// A launch that fails (an illegal address of a thread the witness does not name) spoils the
// context for good: the program says so and exits 5, and kverify runs it again from the
// next fill (./replay N+1).
template <class... P, size_t... I>
void launchWith(void (*kernel)(P...), const Launch &l, const Arg *args, int first,
                std::index_sequence<I...>) {
  std::tuple<std::decay_t<P>...> values{make<std::decay_t<P>>(args[I])...};
  size_t shared = 0;
  if (l.dynamic_shared) {
    int device = 0, optin = 0;
    cudaFuncAttributes attributes{};
    KVR_CHECK(cudaGetDevice(&device));
    KVR_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    KVR_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    shared = size_t(optin) - attributes.sharedSizeBytes;
    KVR_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  }
  void *pointers[] = {&std::get<I>(values)..., nullptr};
  bool collided = false;  // (the launches go on: a sanitizer may see more in the next fills)
  for (int pattern = first; pattern < kPatterns; ++pattern) {
    for (const Buffer &b : buffers()) b.refill(b, pattern);
    const unsigned long long zero = 0;
    KVR_CHECK(cudaMemcpyToSymbol(log_count, &zero, sizeof zero));
    KVR_CHECK(cudaMemcpyToSymbol(outside_count, &zero, sizeof zero));
    if (l.cooperative)
      KVR_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void *>(kernel), l.grid, l.block, pointers,
                                            shared));
    else
      kernel<<<l.grid, l.block, shared>>>(std::get<I>(values)...);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      std::printf("kverify-replay: launch %d failed (memory the witness leaves open: %s): %s (%s)\n",
                  pattern + 1, patternName(pattern), cudaGetErrorString(e), cudaGetErrorName(e));
      std::exit(5);
    }
    std::printf("kverify-replay: launch %d finished (memory the witness leaves open: %s)\n", pattern + 1,
                patternName(pattern));
    std::fflush(stdout);
    collided = collided || (l.site_a >= 0 && reportCollision(unsigned(l.site_a), unsigned(l.site_b)));
    reportOutside();
  }
  if (l.site_a >= 0 && !collided)
    std::printf("kverify-replay: no collision: the two threads' accesses shared no byte in %d launches\n",
                kPatterns - first);
}

// The first fill to launch with: the program's argument (1-based), else the first.
inline int firstPattern(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1;
  return n >= 1 && n <= kPatterns ? n - 1 : 0;
}

// Sets the watched threads and launches once per fill pattern from `first`. `args`: one per parameter.
template <class... P>
void launch(void (*kernel)(P...), const Launch &l, const Arg *args, const unsigned (&watched)[2][6],
            int first) {
  int devices = 0;
  KVR_CHECK(cudaGetDeviceCount(&devices));
  KVR_CHECK(cudaMemcpyToSymbol(watched_threads, watched, sizeof watched));
  launchWith(kernel, l, args, first, std::index_sequence_for<P...>{});
}

}  // namespace kvr

// An instrumented access: records the address, then is the access itself.
#define KVR_AT(site, ...) (*::kvr::record(site, &(__VA_ARGS__)))
// An instrumented pointer an atomic is given: records where it points, and is the pointer.
#define KVR_POINTER(site, ...) ::kvr::record(site, (__VA_ARGS__))
// A shared access checked against its array's bytes, and the access itself.
#define KVR_WITHIN(array, ...) (*::kvr::within(array, &(__VA_ARGS__)))
#define KVR_WITHIN_POINTER(array, ...) ::kvr::within(array, (__VA_ARGS__))
