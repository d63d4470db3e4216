// Checked CUDA Runtime calls: every failure becomes an exception that names the
// call, where it was made, and what the runtime said.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace kverify::rt {

// The text of a failed call, as shown to users:
//   "cudaMalloc(&p, bytes) failed at buffer.cpp:42: cudaErrorMemoryAllocation (out of memory)"
std::string format_cuda_error(const std::string &call, const char *file, int line,
                              const std::string &error_name, const std::string &error_text);

class CudaError : public std::runtime_error {
public:
  CudaError(cudaError_t code, const std::string &call, const char *file, int line);
  CudaError(cudaError_t code, const std::string &message);
  cudaError_t code() const noexcept { return code_; }

private:
  cudaError_t code_;
};

// An allocation the device could not satisfy. The process stays usable: the
// error is not sticky and nothing was allocated.
class OutOfMemory : public CudaError {
public:
  OutOfMemory(std::size_t requested_bytes, std::size_t free_bytes, std::size_t total_bytes);
  std::size_t requested_bytes() const noexcept { return requested_; }

private:
  std::size_t requested_;
};

// A launch rejected before it was made (block too large, too much shared memory...).
class LaunchConfigError : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

// Throws CudaError for anything but cudaSuccess. Clears the runtime's last error
// so a recoverable failure does not resurface at an unrelated later call.
void check(cudaError_t code, const char *call, const char *file, int line);

// After a kernel launch: reports launch errors (cudaGetLastError); in checked
// mode also synchronizes so asynchronous faults surface at this launch.
void check_launch(const char *kernel_name, const char *file, int line);

// Checked mode: on when KVERIFY_CUDA_CHECKED is set to a non-zero value, or by call.
bool checked_mode();
void set_checked_mode(bool on);

}  // namespace kverify::rt

#define KV_CUDA_CHECK(call) ::kverify::rt::check((call), #call, __FILE__, __LINE__)
#define KV_CHECK_LAUNCH(name) ::kverify::rt::check_launch((name), __FILE__, __LINE__)
