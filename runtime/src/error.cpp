#include "kverify/runtime/error.hpp"

#include <atomic>
#include <cstdlib>
#include <sstream>

namespace kverify::rt {
namespace {

std::string basename(const char *file) {
  std::string path = file ? file : "?";
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string describe(cudaError_t code, const std::string &call, const char *file, int line) {
  return format_cuda_error(call, file, line, cudaGetErrorName(code), cudaGetErrorString(code));
}

std::string describe_oom(std::size_t requested, std::size_t free_bytes, std::size_t total) {
  std::ostringstream os;
  os << "out of device memory: requested " << requested << " bytes, " << free_bytes << " of " << total
     << " bytes free";
  return os.str();
}

bool checked_from_env() {
  const char *v = std::getenv("KVERIFY_CUDA_CHECKED");
  return v && *v && std::string(v) != "0";
}

std::atomic<bool> &checked_flag() {
  static std::atomic<bool> flag{checked_from_env()};
  return flag;
}

}  // namespace

std::string format_cuda_error(const std::string &call, const char *file, int line,
                              const std::string &error_name, const std::string &error_text) {
  std::ostringstream os;
  os << call << " failed at " << basename(file) << ":" << line << ": " << error_name << " (" << error_text
     << ")";
  return os.str();
}

CudaError::CudaError(cudaError_t code, const std::string &call, const char *file, int line)
    : std::runtime_error(describe(code, call, file, line)), code_(code) {}

CudaError::CudaError(cudaError_t code, const std::string &message)
    : std::runtime_error(message), code_(code) {}

OutOfMemory::OutOfMemory(std::size_t requested, std::size_t free_bytes, std::size_t total)
    : CudaError(cudaErrorMemoryAllocation, describe_oom(requested, free_bytes, total)),
      requested_(requested) {}

void check(cudaError_t code, const char *call, const char *file, int line) {
  if (code == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so later calls start clean
  throw CudaError(code, call, file, line);
}

void check_launch(const char *kernel_name, const char *file, int line) {
  std::string what = std::string("launch of ") + kernel_name;
  check(cudaGetLastError(), what.c_str(), file, line);
  if (checked_mode()) {
    std::string sync = what + " (checked mode: cudaDeviceSynchronize)";
    check(cudaDeviceSynchronize(), sync.c_str(), file, line);
  }
}

bool checked_mode() { return checked_flag().load(); }
void set_checked_mode(bool on) { checked_flag().store(on); }

}  // namespace kverify::rt
