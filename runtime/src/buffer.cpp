#include "kverify/runtime/buffer.hpp"

#include <sstream>

#include "kverify/runtime/device.hpp"

namespace kverify::rt {

void *device_allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void *p = nullptr;
  cudaError_t err = cudaMalloc(&p, bytes);
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // not sticky: clear it so the process carries on cleanly
    MemoryInfo m = memory_info();
    throw OutOfMemory(bytes, m.free_bytes, m.total_bytes);
  }
  check(err, "cudaMalloc", __FILE__, __LINE__);
  return p;
}

void device_free(void *p) noexcept {
  // A destructor must not throw; a failing cudaFree here means the context is
  // already broken, which the next checked call reports.
  if (p) cudaFree(p);
}

void throw_size_mismatch(const char *what, std::size_t expected, std::size_t got) {
  std::ostringstream os;
  os << "DeviceBuffer::" << what << ": buffer holds " << expected << " elements, host side has " << got;
  throw std::length_error(os.str());
}

}  // namespace kverify::rt
