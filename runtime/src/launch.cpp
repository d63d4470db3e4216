#include "kverify/runtime/launch.hpp"

#include <sstream>

namespace kverify::rt {
namespace {

const char *const kAxis[3] = {"x", "y", "z"};

unsigned long long dim_at(const dim3 &d, int i) { return i == 0 ? d.x : i == 1 ? d.y : d.z; }

}  // namespace

std::size_t blocks_for(std::size_t n, unsigned block) {
  if (block == 0) throw LaunchConfigError("block size must be positive");
  return n / block + (n % block != 0);
}

LaunchConfig config_for(std::size_t n, unsigned block, std::size_t dynamic_shared_bytes,
                        cudaStream_t stream) {
  const std::size_t blocks = blocks_for(n, block);
  const DeviceLimits defaults;
  if (blocks > static_cast<std::size_t>(defaults.max_grid_dim[0])) {
    std::ostringstream os;
    os << n << " elements with blocks of " << block << " need " << blocks
       << " blocks, more than a grid holds (" << defaults.max_grid_dim[0] << "); use a grid-stride kernel";
    throw LaunchConfigError(os.str());
  }
  LaunchConfig cfg;
  cfg.grid = dim3(static_cast<unsigned>(blocks), 1, 1);
  cfg.block = dim3(block, 1, 1);
  cfg.dynamic_shared_bytes = dynamic_shared_bytes;
  cfg.stream = stream;
  return cfg;
}

bool is_empty(const LaunchConfig &cfg) { return cfg.grid.x == 0 || cfg.grid.y == 0 || cfg.grid.z == 0; }

std::string validation_error(const LaunchConfig &cfg, const DeviceLimits &device,
                             const KernelLimits &kernel) {
  std::ostringstream os;
  for (int i = 0; i < 3; ++i) {
    const auto b = dim_at(cfg.block, i);
    if (b == 0) {
      os << "blockDim." << kAxis[i] << " is 0";
      return os.str();
    }
    if (b > static_cast<unsigned long long>(device.max_block_dim[i])) {
      os << "blockDim." << kAxis[i] << " = " << b << " exceeds the device limit of "
         << device.max_block_dim[i];
      return os.str();
    }
    const auto g = dim_at(cfg.grid, i);
    if (g == 0) {
      os << "gridDim." << kAxis[i] << " is 0 (an empty launch)";
      return os.str();
    }
    if (g > static_cast<unsigned long long>(device.max_grid_dim[i])) {
      os << "gridDim." << kAxis[i] << " = " << g << " exceeds the device limit of " << device.max_grid_dim[i];
      return os.str();
    }
  }
  const unsigned long long threads = static_cast<unsigned long long>(cfg.block.x) * cfg.block.y * cfg.block.z;
  if (threads > static_cast<unsigned long long>(device.max_threads_per_block)) {
    os << "block of " << threads << " threads exceeds the device limit of " << device.max_threads_per_block
       << " threads per block";
    return os.str();
  }
  if (threads > static_cast<unsigned long long>(kernel.max_threads_per_block)) {
    os << "block of " << threads << " threads exceeds this kernel's limit of " << kernel.max_threads_per_block
       << " threads per block (register usage)";
    return os.str();
  }
  const std::size_t shared = kernel.static_shared_bytes + cfg.dynamic_shared_bytes;
  if (shared > device.shared_bytes_per_block_optin) {
    os << "shared memory of " << shared << " bytes (" << kernel.static_shared_bytes << " static + "
       << cfg.dynamic_shared_bytes << " dynamic) exceeds the device limit of "
       << device.shared_bytes_per_block_optin << " bytes per block";
    return os.str();
  }
  return {};
}

void validate(const char *kernel_name, const LaunchConfig &cfg, const DeviceLimits &device,
              const KernelLimits &kernel) {
  std::string err = validation_error(cfg, device, kernel);
  if (!err.empty()) throw LaunchConfigError(std::string(kernel_name) + ": " + err);
}

KernelLimits kernel_limits(const void *kernel) {
  cudaFuncAttributes attr{};
  KV_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
  KernelLimits k;
  k.max_threads_per_block = attr.maxThreadsPerBlock;
  k.static_shared_bytes = attr.sharedSizeBytes;
  return k;
}

void prepare_launch(const char *kernel_name, const void *kernel, const LaunchConfig &cfg) {
  const DeviceLimits &device = current_device_limits();
  const KernelLimits limits = kernel_limits(kernel);
  validate(kernel_name, cfg, device, limits);
  if (limits.static_shared_bytes + cfg.dynamic_shared_bytes > device.shared_bytes_per_block) {
    KV_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(cfg.dynamic_shared_bytes)));
  }
}

}  // namespace kverify::rt
