#include <gtest/gtest.h>

#include "kverify/runtime/launch.hpp"
#include "kverify/runtime/stream.hpp"

namespace rt = kverify::rt;

namespace {

rt::LaunchConfig cfg(dim3 grid, dim3 block, std::size_t shared = 0) {
  rt::LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.dynamic_shared_bytes = shared;
  return c;
}

rt::DeviceLimits h100() {
  rt::DeviceLimits d;
  d.shared_bytes_per_block = 48 * 1024;
  d.shared_bytes_per_block_optin = 227 * 1024;
  return d;
}

}  // namespace

TEST(BlocksFor, RoundsUpAndHandlesZero) {
  EXPECT_EQ(rt::blocks_for(0, 256), 0u);
  EXPECT_EQ(rt::blocks_for(1, 256), 1u);
  EXPECT_EQ(rt::blocks_for(255, 256), 1u);
  EXPECT_EQ(rt::blocks_for(256, 256), 1u);
  EXPECT_EQ(rt::blocks_for(257, 256), 2u);
  EXPECT_EQ(rt::blocks_for(std::size_t{1} << 28, 1024), std::size_t{1} << 18);
  EXPECT_THROW(rt::blocks_for(10, 0), rt::LaunchConfigError);
}

TEST(ConfigFor, CoversEveryElement) {
  for (std::size_t n : {std::size_t{1}, std::size_t{31}, std::size_t{1000}, std::size_t{1} << 20}) {
    for (unsigned b : {32u, 128u, 1024u}) {
      auto c = rt::config_for(n, b);
      EXPECT_GE(std::size_t{c.grid.x} * b, n);
      EXPECT_LT(std::size_t{c.grid.x - 1} * b, n);
      EXPECT_EQ(c.block.x, b);
    }
  }
}

TEST(ConfigFor, EmptyInputGivesEmptyGrid) {
  auto c = rt::config_for(0, 256);
  EXPECT_TRUE(rt::is_empty(c));
  EXPECT_FALSE(rt::is_empty(rt::config_for(1, 256)));
}

TEST(ConfigFor, TooManyBlocksIsAClearError) {
  try {
    rt::config_for(std::size_t{1} << 40, 32);
    FAIL() << "expected LaunchConfigError";
  } catch (const rt::LaunchConfigError &e) {
    EXPECT_NE(std::string(e.what()).find("grid-stride"), std::string::npos) << e.what();
  }
}

TEST(Validation, AcceptsOrdinaryLaunches) {
  EXPECT_EQ(rt::validation_error(cfg(dim3(1024), dim3(256)), h100()), "");
  EXPECT_EQ(rt::validation_error(cfg(dim3(1), dim3(32, 32)), h100()), "");
  EXPECT_EQ(rt::validation_error(cfg(dim3(1), dim3(1024), 100 * 1024), h100()), "");
}

TEST(Validation, RejectsTooManyThreads) {
  EXPECT_EQ(rt::validation_error(cfg(dim3(1), dim3(2048)), h100()),
            "blockDim.x = 2048 exceeds the device limit of 1024");
  EXPECT_EQ(rt::validation_error(cfg(dim3(1), dim3(64, 32)), h100()),
            "block of 2048 threads exceeds the device limit of 1024 threads per block");
  EXPECT_EQ(rt::validation_error(cfg(dim3(1), dim3(1, 1, 128)), h100()),
            "blockDim.z = 128 exceeds the device limit of 64");
}

TEST(Validation, RejectsKernelRegisterLimit) {
  rt::KernelLimits k;
  k.max_threads_per_block = 512;
  EXPECT_EQ(rt::validation_error(cfg(dim3(1), dim3(1024)), h100(), k),
            "block of 1024 threads exceeds this kernel's limit of 512 threads per block "
            "(register usage)");
}

TEST(Validation, RejectsZeroAndOversizedGrids) {
  EXPECT_EQ(rt::validation_error(cfg(dim3(0), dim3(32)), h100()), "gridDim.x is 0 (an empty launch)");
  EXPECT_EQ(rt::validation_error(cfg(dim3(1, 70000), dim3(32)), h100()),
            "gridDim.y = 70000 exceeds the device limit of 65535");
  EXPECT_EQ(rt::validation_error(cfg(dim3(1), dim3(0)), h100()), "blockDim.x is 0");
}

TEST(Validation, RejectsTooMuchSharedMemory) {
  rt::KernelLimits k;
  k.static_shared_bytes = 16 * 1024;
  EXPECT_EQ(rt::validation_error(cfg(dim3(1), dim3(256), 220 * 1024), h100(), k),
            "shared memory of 241664 bytes (16384 static + 225280 dynamic) exceeds the device "
            "limit of 232448 bytes per block");
}

TEST(Validation, ValidateThrowsWithKernelName) {
  try {
    rt::validate("my_kernel", cfg(dim3(1), dim3(4096)), h100());
    FAIL() << "expected LaunchConfigError";
  } catch (const rt::LaunchConfigError &e) {
    EXPECT_EQ(std::string(e.what()), "my_kernel: blockDim.x = 4096 exceeds the device limit of 1024");
  }
}

TEST(Summarize, MedianMinMax) {
  auto odd = rt::summarize({3.f, 1.f, 2.f});
  EXPECT_FLOAT_EQ(odd.median_ms, 2.f);
  EXPECT_FLOAT_EQ(odd.min_ms, 1.f);
  EXPECT_FLOAT_EQ(odd.max_ms, 3.f);
  EXPECT_EQ(odd.samples_ms, (std::vector<float>{3.f, 1.f, 2.f}));  // run order kept
  auto even = rt::summarize({4.f, 1.f, 2.f, 3.f});
  EXPECT_FLOAT_EQ(even.median_ms, 2.5f);
  auto none = rt::summarize({});
  EXPECT_FLOAT_EQ(none.median_ms, 0.f);
}
