// Launch configuration: grid math, validation against the device's and the
// kernel's limits (before launching, with a clear message), and a checked launch.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "kverify/runtime/device.hpp"
#include "kverify/runtime/error.hpp"

namespace kverify::rt {

struct LaunchConfig {
  dim3 grid{1, 1, 1};
  dim3 block{1, 1, 1};
  std::size_t dynamic_shared_bytes = 0;
  cudaStream_t stream = nullptr;
};

// What one compiled kernel allows (registers limit its block size).
struct KernelLimits {
  int max_threads_per_block = 1024;
  std::size_t static_shared_bytes = 0;
};

// ceil(n / block); 0 for n == 0. Throws LaunchConfigError if block is 0.
std::size_t blocks_for(std::size_t n, unsigned block);

// A 1-D configuration covering n elements. Throws LaunchConfigError when n needs
// more blocks than a grid can hold; n == 0 gives an empty grid (see is_empty).
LaunchConfig config_for(std::size_t n, unsigned block, std::size_t dynamic_shared_bytes = 0,
                        cudaStream_t stream = nullptr);

// True when the grid has no blocks: there is nothing to launch.
bool is_empty(const LaunchConfig &cfg);

// Empty when the configuration is launchable; otherwise what is wrong, e.g.
// "block of 2048 threads exceeds the device limit of 1024 threads per block".
std::string validation_error(const LaunchConfig &cfg, const DeviceLimits &device,
                             const KernelLimits &kernel = {});

// Throws LaunchConfigError("<kernel>: <validation_error>") when not launchable.
void validate(const char *kernel_name, const LaunchConfig &cfg, const DeviceLimits &device,
              const KernelLimits &kernel = {});

// The kernel's own limits (cudaFuncGetAttributes).
KernelLimits kernel_limits(const void *kernel);

// Validates cfg for the current device and this kernel, and opts the kernel in to
// more than the default dynamic shared memory when cfg asks for it.
void prepare_launch(const char *kernel_name, const void *kernel, const LaunchConfig &cfg);

#ifdef __CUDACC__
// Validated, checked launch: an invalid configuration throws before launching;
// launch errors (and, in checked mode, asynchronous faults) throw after.
// An empty grid launches nothing.
template <class... KernelArgs, class... Args>
void launch(const char *kernel_name, void (*kernel)(KernelArgs...), const LaunchConfig &cfg, Args &&...args) {
  if (is_empty(cfg)) return;
  prepare_launch(kernel_name, reinterpret_cast<const void *>(kernel), cfg);
  kernel<<<cfg.grid, cfg.block, cfg.dynamic_shared_bytes, cfg.stream>>>(static_cast<KernelArgs>(args)...);
  check_launch(kernel_name, __FILE__, __LINE__);
}
#endif

}  // namespace kverify::rt
