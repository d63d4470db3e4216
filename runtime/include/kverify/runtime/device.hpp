// Device discovery. "No device" is an ordinary answer, not an exception: tools
// and tests ask, and report or skip.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace kverify::rt {

// What a launch is validated against; a plain struct so the validation logic is
// testable without a GPU.
struct DeviceLimits {
  int max_threads_per_block = 1024;
  std::array<int, 3> max_block_dim{1024, 1024, 64};
  std::array<long long, 3> max_grid_dim{2147483647LL, 65535, 65535};
  std::size_t shared_bytes_per_block = 48 * 1024;        // without opt-in
  std::size_t shared_bytes_per_block_optin = 48 * 1024;  // with cudaFuncAttributeMaxDynamicSharedMemorySize
  int warp_size = 32;
};

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  std::size_t total_global_bytes = 0;
  int multiprocessors = 0;
  int clock_khz = 0;
  int memory_bus_bits = 0;
  std::size_t l2_bytes = 0;
  DeviceLimits limits;
};

struct DeviceQuery {
  std::vector<DeviceInfo> devices;
  std::string unavailable_reason;  // why there are none, when devices is empty
  bool available() const { return !devices.empty(); }
};

// Never throws for "no GPU" / "no driver"; throws CudaError for real failures
// while querying a device that exists.
DeviceQuery query_devices();

// Limits of the current device, cached per device ordinal.
const DeviceLimits &current_device_limits();

// Memory free/total on the current device.
struct MemoryInfo {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
};
MemoryInfo memory_info();

// Human-readable, one device per block of lines.
std::string describe(const DeviceInfo &d);

}  // namespace kverify::rt
