// Typed, move-only device memory. Sizes are in elements; copies check them.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kverify/runtime/error.hpp"

namespace kverify::rt {

// Byte written by poison(): all-ones is NaN for floats and -1/max for integers,
// so an element a kernel never wrote stands out in a comparison.
inline constexpr unsigned char kPoisonByte = 0xFF;

// Allocation and raw copies, untyped (buffer.cpp). Allocation failures throw
// OutOfMemory and leave the process usable.
void *device_allocate(std::size_t bytes);
void device_free(void *p) noexcept;
[[noreturn]] void throw_size_mismatch(const char *what, std::size_t expected, std::size_t got);

template <class T>
bool is_poison(const T &value, unsigned char byte = kPoisonByte) {
  const auto *p = reinterpret_cast<const unsigned char *>(&value);
  for (std::size_t i = 0; i < sizeof(T); ++i)
    if (p[i] != byte) return false;
  return true;
}

// Indices of elements that still hold the poison pattern.
template <class T>
std::vector<std::size_t> poisoned_indices(const std::vector<T> &values, unsigned char byte = kPoisonByte) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < values.size(); ++i)
    if (is_poison(values[i], byte)) out.push_back(i);
  return out;
}

template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "device buffers hold trivially copyable types");

public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count > std::numeric_limits<std::size_t>::max() / sizeof(T))
      throw std::length_error("DeviceBuffer: element count overflows the byte size");
    data_ = static_cast<T *>(device_allocate(count * sizeof(T)));
  }
  static DeviceBuffer from_host(const std::vector<T> &host) {
    DeviceBuffer b(host.size());
    b.upload(host);
    return b;
  }

  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  DeviceBuffer(DeviceBuffer &&o) noexcept
      : data_(std::exchange(o.data_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceBuffer &operator=(DeviceBuffer &&o) noexcept {
    if (this != &o) {
      device_free(data_);
      data_ = std::exchange(o.data_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  ~DeviceBuffer() { device_free(data_); }

  T *data() noexcept { return data_; }
  const T *data() const noexcept { return data_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }
  bool empty() const noexcept { return count_ == 0; }

  void upload(const T *src, std::size_t count) {
    if (count != count_) throw_size_mismatch("upload", count_, count);
    if (count_) KV_CUDA_CHECK(cudaMemcpy(data_, src, bytes(), cudaMemcpyHostToDevice));
  }
  void upload(const std::vector<T> &src) { upload(src.data(), src.size()); }

  void download(T *dst, std::size_t count) const {
    if (count != count_) throw_size_mismatch("download", count_, count);
    if (count_) KV_CUDA_CHECK(cudaMemcpy(dst, data_, bytes(), cudaMemcpyDeviceToHost));
  }
  std::vector<T> download() const {
    std::vector<T> out(count_);
    download(out.data(), out.size());
    return out;
  }

  // Device-to-device copy of a buffer of the same size.
  void copy_from(const DeviceBuffer &src, cudaStream_t stream = nullptr) {
    if (src.size() != count_) throw_size_mismatch("copy_from", count_, src.size());
    if (count_) KV_CUDA_CHECK(cudaMemcpyAsync(data_, src.data_, bytes(), cudaMemcpyDeviceToDevice, stream));
  }

  void fill_bytes(unsigned char byte) {
    if (count_) KV_CUDA_CHECK(cudaMemset(data_, byte, bytes()));
  }
  // Marks every element as "never written" (see kPoisonByte).
  void poison(unsigned char byte = kPoisonByte) { fill_bytes(byte); }

private:
  T *data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace kverify::rt
