// The host oracle's driver (see cuda_host.h): runs every thread of a launch of the kernel
// compiled with -fsanitize=thread, one thread after another, and prints its accesses to the
// kernel's arrays:
//   T tx ty tz bx by bz          a thread starts
//   A r|w|a ARRAY OFFSET WIDTH N  an access (read, write, atomic) of WIDTH bytes at byte
//                                OFFSET of ARRAY, after N block barriers of the thread
//   X ARRAY|? OFFSET             the thread stopped before an access outside every array
//                                (in the gap after ARRAY, or anywhere: ?), or on a signal
// Global arrays g0..g6 are the driver's (kGlobalBytes each, far apart); shared arrays and
// __constant__ variables are found in the program's own symbol table (nm).
//
//   prog BX BY BZ GX GY GZ P0 P1
#include <csetjmp>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

struct KvDim3 {
  unsigned x, y, z;
};
// Each in its own 1 MiB slot, as the kernel's statics (cuda_host.h): never within a gap.
#define KV_SLOT __attribute__((aligned(1 << 20)))
extern "C" {
KV_SLOT KvDim3 threadIdx;
KV_SLOT KvDim3 blockIdx;
KV_SLOT KvDim3 blockDim;
KV_SLOT KvDim3 gridDim;
void kv_launch(void *const *globals, int p0, int p1);  // emitted with the kernel
}

namespace {

// An address within kGap of an array (statics are 1 MiB apart: a gap never reaches the next
// one) is an index past it.
constexpr uintptr_t kGlobalBytes = 2048 * 8, kSpacing = 16 << 20, kGap = 1 << 19;

struct Array {
  std::string name;
  uintptr_t lo, hi;
};
std::vector<Array> arrays;
unsigned barriers = 0;
bool running = false;
sigjmp_buf stop;

void record(const volatile void *p, unsigned width, char kind) {
  if (!running) return;
  auto a = reinterpret_cast<uintptr_t>(p);
  const Array *near = nullptr;
  for (const Array &r : arrays) {
    if (a >= r.lo && a + width <= r.hi) {
      std::printf("A %c %s %lu %u %u\n", kind, r.name.c_str(), (unsigned long)(a - r.lo), width, barriers);
      return;
    }
    if (a + width > r.lo - kGap && a < r.hi + kGap) near = &r;
  }
  if (!near) return;  // a local, a builtin, the driver's own data
  std::printf("X %s %ld\n", near->name.c_str(), (long)(a - near->lo));
  running = false;
  siglongjmp(stop, 1);
}

void onSignal(int) {
  if (!running) std::_Exit(3);
  std::printf("X ? 0\n");
  running = false;
  siglongjmp(stop, 1);
}

void addArray(const std::string &name, uintptr_t lo, uintptr_t bytes) {
  arrays.push_back({name, lo, lo + bytes});
}

// Statics of the kernel (`rand_kernel(...)::s0`) and __constant__ variables (`kv_conf`).
void findStatics() {
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) std::exit(2);
  self[len] = 0;
  FILE *nm = popen(("nm -C -S --defined-only '" + std::string(self) + "'").c_str(), "r");
  if (!nm) std::exit(2);
  char line[1024];
  while (std::fgets(line, sizeof line, nm)) {
    unsigned long addr = 0, size = 0;
    char type = 0;
    int n = 0;
    if (std::sscanf(line, "%lx %lx %c %n", &addr, &size, &type, &n) < 3) continue;
    std::string name = line + n;
    while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.pop_back();
    if (name.rfind("rand_kernel(", 0) == 0 && name.find(")::") != std::string::npos)
      addArray(name.substr(name.rfind("::") + 2), addr, size);
    else if (name.rfind("kv_", 0) == 0 && (type == 'B' || type == 'D' || type == 'b' || type == 'd'))
      addArray(name, addr, size);
  }
  pclose(nm);
}

}  // namespace

extern "C" {
void kv_barrier(void) { ++barriers; }
void kv_atomic(const volatile void *p, unsigned width) { record(p, width, 'a'); }

// ThreadSanitizer's callbacks (the runtime is not linked).
void __tsan_init() {}
void __tsan_func_entry(void *) {}
void __tsan_func_exit() {}
void __tsan_ignore_thread_begin() {}
void __tsan_ignore_thread_end() {}
void __tsan_vptr_update(void *, void *) {}
void __tsan_vptr_read(void *) {}
#define KV_TSAN(n)                                               \
  void __tsan_read##n(void *p) { record(p, n, 'r'); }            \
  void __tsan_write##n(void *p) { record(p, n, 'w'); }           \
  void __tsan_unaligned_read##n(void *p) { record(p, n, 'r'); }  \
  void __tsan_unaligned_write##n(void *p) { record(p, n, 'w'); } \
  void __tsan_volatile_read##n(void *p) { record(p, n, 'r'); }   \
  void __tsan_volatile_write##n(void *p) { record(p, n, 'w'); }
KV_TSAN(1)
KV_TSAN(2)
KV_TSAN(4)
KV_TSAN(8)
KV_TSAN(16)
void __tsan_read_range(void *p, unsigned long n) { record(p, unsigned(n), 'r'); }
void __tsan_write_range(void *p, unsigned long n) { record(p, unsigned(n), 'w'); }
}

int main(int argc, char **argv) {
  if (argc != 9) {
    std::fprintf(stderr, "usage: %s BX BY BZ GX GY GZ P0 P1\n", argv[0]);
    return 2;
  }
  unsigned v[6];
  for (int i = 0; i < 6; ++i) v[i] = unsigned(std::atoi(argv[1 + i]));
  int p0 = std::atoi(argv[7]), p1 = std::atoi(argv[8]);
  const int kGlobals = 7;
  void *region = mmap(nullptr, kSpacing * (kGlobals + 1), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) return 2;
  void *globals[kGlobals];
  for (int i = 0; i < kGlobals; ++i) {
    globals[i] = static_cast<char *>(region) + kSpacing * (i + 1) - kSpacing / 2;
    addArray("g" + std::to_string(i), reinterpret_cast<uintptr_t>(globals[i]), kGlobalBytes);
  }
  findStatics();
  std::signal(SIGSEGV, onSignal);
  std::signal(SIGFPE, onSignal);
  std::signal(SIGBUS, onSignal);
  blockDim = {v[0], v[1], v[2]};
  gridDim = {v[3], v[4], v[5]};
  for (unsigned bz = 0; bz < v[5]; ++bz)
    for (unsigned by = 0; by < v[4]; ++by)
      for (unsigned bx = 0; bx < v[3]; ++bx)
        for (unsigned z = 0; z < v[2]; ++z)
          for (unsigned y = 0; y < v[1]; ++y)
            for (unsigned x = 0; x < v[0]; ++x) {
              blockIdx = {bx, by, bz};
              threadIdx = {x, y, z};
              barriers = 0;
              std::printf("T %u %u %u %u %u %u\n", x, y, z, bx, by, bz);
              if (sigsetjmp(stop, 1) == 0) {
                running = true;
                kv_launch(globals, p0, p1);
                running = false;
              }
            }
  return 0;
}
