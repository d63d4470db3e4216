#include <gtest/gtest.h>

#include <vector>

#include "kverify/runtime/buffer.hpp"
#include "kverify/runtime/error.hpp"

namespace rt = kverify::rt;

TEST(ErrorFormat, NamesCallLocationAndRuntimeText) {
  EXPECT_EQ(rt::format_cuda_error("cudaMalloc(&p, n)", "/src/runtime/buffer.cpp", 42,
                                  "cudaErrorMemoryAllocation", "out of memory"),
            "cudaMalloc(&p, n) failed at buffer.cpp:42: cudaErrorMemoryAllocation (out of memory)");
}

TEST(ErrorFormat, CheckThrowsWithRuntimeStrings) {
  try {
    rt::check(cudaErrorInvalidValue, "cudaMemcpy(dst, src, n, kind)", "x.cu", 7);
    FAIL() << "expected CudaError";
  } catch (const rt::CudaError &e) {
    EXPECT_EQ(e.code(), cudaErrorInvalidValue);
    EXPECT_EQ(std::string(e.what()),
              "cudaMemcpy(dst, src, n, kind) failed at x.cu:7: cudaErrorInvalidValue (invalid "
              "argument)");
  }
  EXPECT_NO_THROW(rt::check(cudaSuccess, "fine()", "x.cu", 8));
}

TEST(ErrorFormat, OutOfMemoryStatesSizes) {
  rt::OutOfMemory e(1000, 10, 100);
  EXPECT_EQ(e.code(), cudaErrorMemoryAllocation);
  EXPECT_EQ(e.requested_bytes(), 1000u);
  EXPECT_EQ(std::string(e.what()), "out of device memory: requested 1000 bytes, 10 of 100 bytes free");
}

TEST(ErrorFormat, CheckedModeToggles) {
  const bool before = rt::checked_mode();
  rt::set_checked_mode(true);
  EXPECT_TRUE(rt::checked_mode());
  rt::set_checked_mode(false);
  EXPECT_FALSE(rt::checked_mode());
  rt::set_checked_mode(before);
}

TEST(Poison, DetectsUntouchedElements) {
  std::vector<float> v(4);
  std::memset(v.data(), rt::kPoisonByte, v.size() * sizeof(float));
  v[1] = 1.0f;
  v[3] = -0.0f;
  EXPECT_EQ(rt::poisoned_indices(v), (std::vector<std::size_t>{0, 2}));
  EXPECT_TRUE(v[0] != v[0]) << "float poison is NaN, so it never compares equal";
  std::vector<int> w{-1, 0, 5};
  EXPECT_EQ(rt::poisoned_indices(w), (std::vector<std::size_t>{0}));
}

TEST(BufferWithoutGpu, EmptyBufferNeedsNoDevice) {
  rt::DeviceBuffer<int> b;
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.data(), nullptr);
  rt::DeviceBuffer<int> zero(0);
  EXPECT_EQ(zero.size(), 0u);
  EXPECT_TRUE(zero.download().empty());
  EXPECT_THROW(zero.upload(std::vector<int>{1}), std::length_error);
}
