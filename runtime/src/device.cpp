#include "kverify/runtime/device.hpp"

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>
#include <sstream>

#include "kverify/runtime/error.hpp"

namespace kverify::rt {
namespace {

DeviceInfo read_device(int ordinal) {
  cudaDeviceProp p{};
  KV_CUDA_CHECK(cudaGetDeviceProperties(&p, ordinal));
  DeviceInfo d;
  d.ordinal = ordinal;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.total_global_bytes = p.totalGlobalMem;
  d.multiprocessors = p.multiProcessorCount;
  KV_CUDA_CHECK(cudaDeviceGetAttribute(&d.clock_khz, cudaDevAttrClockRate, ordinal));
  d.memory_bus_bits = p.memoryBusWidth;
  d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  d.limits.max_threads_per_block = p.maxThreadsPerBlock;
  d.limits.max_block_dim = {p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]};
  d.limits.max_grid_dim = {p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]};
  d.limits.shared_bytes_per_block = p.sharedMemPerBlock;
  d.limits.shared_bytes_per_block_optin = p.sharedMemPerBlockOptin;
  d.limits.warp_size = p.warpSize;
  return d;
}

}  // namespace

DeviceQuery query_devices() {
  DeviceQuery q;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    q.unavailable_reason = err == cudaErrorInsufficientDriver
                               ? "no CUDA driver, or one older than this CUDA runtime "
                                 "(cudaErrorInsufficientDriver)"
                               : std::string("no usable CUDA device: ") + cudaGetErrorName(err) + " (" +
                                     cudaGetErrorString(err) + ")";
    return q;
  }
  if (count == 0) {
    q.unavailable_reason = "no CUDA device present";
    return q;
  }
  for (int i = 0; i < count; ++i) q.devices.push_back(read_device(i));
  return q;
}

const DeviceLimits &current_device_limits() {
  static std::mutex mu;
  static std::map<int, DeviceLimits> cache;
  int ordinal = 0;
  KV_CUDA_CHECK(cudaGetDevice(&ordinal));
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(ordinal);
  if (it == cache.end()) it = cache.emplace(ordinal, read_device(ordinal).limits).first;
  return it->second;
}

MemoryInfo memory_info() {
  MemoryInfo m;
  KV_CUDA_CHECK(cudaMemGetInfo(&m.free_bytes, &m.total_bytes));
  return m;
}

std::string describe(const DeviceInfo &d) {
  std::ostringstream os;
  const double gib = 1024.0 * 1024.0 * 1024.0;
  os << "device " << d.ordinal << ": " << d.name << "\n"
     << "  compute capability  " << d.cc_major << "." << d.cc_minor << "\n"
     << "  global memory       " << static_cast<double>(d.total_global_bytes) / gib << " GiB\n"
     << "  multiprocessors     " << d.multiprocessors << "\n"
     << "  clock               " << d.clock_khz / 1000 << " MHz\n"
     << "  memory bus          " << d.memory_bus_bits << " bits\n"
     << "  L2 cache            " << d.l2_bytes / 1024 << " KiB\n"
     << "  max threads/block   " << d.limits.max_threads_per_block << "\n"
     << "  max block dims      " << d.limits.max_block_dim[0] << " x " << d.limits.max_block_dim[1] << " x "
     << d.limits.max_block_dim[2] << "\n"
     << "  max grid dims       " << d.limits.max_grid_dim[0] << " x " << d.limits.max_grid_dim[1] << " x "
     << d.limits.max_grid_dim[2] << "\n"
     << "  shared mem/block    " << d.limits.shared_bytes_per_block / 1024 << " KiB ("
     << d.limits.shared_bytes_per_block_optin / 1024 << " KiB opt-in)\n"
     << "  warp size           " << d.limits.warp_size << "\n";
  return os.str();
}

}  // namespace kverify::rt
