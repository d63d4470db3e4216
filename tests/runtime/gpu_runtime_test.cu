// Runtime layer on a real device. Each test skips, with the reason, without one.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "kverify/properties/gpu_test.hpp"
#include "kverify/runtime/buffer.hpp"
#include "kverify/runtime/launch.hpp"
#include "kverify/runtime/stream.hpp"

namespace rt = kverify::rt;

namespace {

__global__ void add_one(const int *in, int *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + 1;
}

// Writes only the even indices: the odd ones must still read as poison.
__global__ void write_even(float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 2 == 0) out[i] = static_cast<float>(i);
}

__global__ void uses_dynamic_shared(int *out) {
  extern __shared__ int tile[];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

}  // namespace

using RuntimeGpu = GpuTest;

TEST_F(RuntimeGpu, DeviceQueryReportsSaneLimits) {
  const auto &q = kverify::testing::devices();
  ASSERT_FALSE(q.devices.empty());
  const auto &d = q.devices.front();
  EXPECT_FALSE(d.name.empty());
  EXPECT_GE(d.cc_major, 7);
  EXPECT_GT(d.total_global_bytes, std::size_t{1} << 30);
  EXPECT_EQ(d.limits.max_threads_per_block, 1024);
  EXPECT_EQ(d.limits.warp_size, 32);
  EXPECT_GE(d.limits.shared_bytes_per_block_optin, d.limits.shared_bytes_per_block);
  EXPECT_NE(rt::describe(d).find(d.name), std::string::npos);
}

TEST_F(RuntimeGpu, UploadDownloadRoundTrip) {
  std::vector<double> host(12345);
  std::iota(host.begin(), host.end(), -100.5);
  auto buf = rt::DeviceBuffer<double>::from_host(host);
  EXPECT_EQ(buf.size(), host.size());
  EXPECT_EQ(buf.bytes(), host.size() * sizeof(double));
  EXPECT_EQ(buf.download(), host);

  rt::DeviceBuffer<double> copy(host.size());
  copy.copy_from(buf);
  EXPECT_EQ(copy.download(), host);
}

TEST_F(RuntimeGpu, SizeMismatchIsRejected) {
  rt::DeviceBuffer<int> buf(10);
  EXPECT_THROW(buf.upload(std::vector<int>(9)), std::length_error);
  std::vector<int> small(11);
  EXPECT_THROW(buf.download(small.data(), small.size()), std::length_error);
  rt::DeviceBuffer<int> other(11);
  EXPECT_THROW(buf.copy_from(other), std::length_error);
}

TEST_F(RuntimeGpu, MoveTransfersOwnership) {
  rt::DeviceBuffer<int> a = rt::DeviceBuffer<int>::from_host({1, 2, 3});
  const int *p = a.data();
  rt::DeviceBuffer<int> b(std::move(a));
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(a.size(), 0u);
  a = std::move(b);
  EXPECT_EQ(a.download(), (std::vector<int>{1, 2, 3}));
}

TEST_F(RuntimeGpu, TrivialKernelRunsThroughCheckedLaunch) {
  const unsigned n = 1000;  // not a multiple of the block
  std::vector<int> host(n);
  std::iota(host.begin(), host.end(), 0);
  auto in = rt::DeviceBuffer<int>::from_host(host);
  rt::DeviceBuffer<int> out(n);
  out.poison();
  rt::launch("add_one", add_one, rt::config_for(n, 128), in.data(), out.data(), n);
  auto got = out.download();
  for (unsigned i = 0; i < n; ++i) ASSERT_EQ(got[i], host[i] + 1) << "at " << i;
}

TEST_F(RuntimeGpu, EmptyLaunchDoesNothing) {
  rt::DeviceBuffer<int> in(0), out(0);
  EXPECT_NO_THROW(rt::launch("add_one", add_one, rt::config_for(0, 128), in.data(), out.data(), 0u));
}

TEST_F(RuntimeGpu, PoisonRevealsUnwrittenElements) {
  const unsigned n = 101;
  rt::DeviceBuffer<float> out(n);
  out.poison();
  rt::launch("write_even", write_even, rt::config_for(n, 32), out.data(), n);
  auto got = out.download();
  auto poisoned = rt::poisoned_indices(got);
  ASSERT_EQ(poisoned.size(), n / 2);
  for (std::size_t k = 0; k < poisoned.size(); ++k) EXPECT_EQ(poisoned[k], 2 * k + 1);
}

TEST_F(RuntimeGpu, OversizedBlockIsRejectedBeforeLaunch) {
  rt::DeviceBuffer<int> in(4096), out(4096);
  rt::LaunchConfig c;
  c.grid = dim3(1);
  c.block = dim3(2048);
  try {
    rt::launch("add_one", add_one, c, in.data(), out.data(), 4096u);
    FAIL() << "expected LaunchConfigError";
  } catch (const rt::LaunchConfigError &e) {
    EXPECT_TRUE(contains(e.what(), "add_one: blockDim.x = 2048 exceeds the device limit of 1024"))
        << e.what();
  }
  // The process is fine afterwards.
  rt::launch("add_one", add_one, rt::config_for(4096, 256), in.data(), out.data(), 4096u);
}

TEST_F(RuntimeGpu, TooMuchSharedMemoryIsRejectedBeforeLaunch) {
  rt::DeviceBuffer<int> out(256);
  const auto &limits = rt::current_device_limits();
  rt::LaunchConfig c = rt::config_for(256, 256, limits.shared_bytes_per_block_optin + 1);
  try {
    rt::launch("uses_dynamic_shared", uses_dynamic_shared, c, out.data());
    FAIL() << "expected LaunchConfigError";
  } catch (const rt::LaunchConfigError &e) {
    EXPECT_TRUE(contains(e.what(), "exceeds the device limit of")) << e.what();
  }
}

TEST_F(RuntimeGpu, LargeDynamicSharedMemoryIsOptedIn) {
  // More than the 48 KiB default: launch() must opt the kernel in.
  rt::DeviceBuffer<int> out(256);
  rt::launch("uses_dynamic_shared", uses_dynamic_shared, rt::config_for(256, 256, 100 * 1024), out.data());
  auto got = out.download();
  for (int i = 0; i < 256; ++i) ASSERT_EQ(got[i], 255 - i);
}

TEST_F(RuntimeGpu, RawLaunchErrorIsReportedWithKernelName) {
  rt::DeviceBuffer<int> in(1), out(1);
  add_one<<<dim3(1), dim3(4096)>>>(in.data(), out.data(), 1u);  // bypasses validation
  try {
    KV_CHECK_LAUNCH("add_one");
    FAIL() << "expected CudaError";
  } catch (const rt::CudaError &e) {
    // CUDA 12 says InvalidConfiguration, CUDA 13 InvalidValue for an oversized block.
    EXPECT_TRUE(e.code() == cudaErrorInvalidConfiguration || e.code() == cudaErrorInvalidValue)
        << cudaGetErrorName(e.code());
    EXPECT_TRUE(contains(e.what(), "launch of add_one failed at")) << e.what();
  }
  // Not sticky: the next launch works.
  rt::launch("add_one", add_one, rt::config_for(1, 32), in.data(), out.data(), 1u);
}

TEST_F(RuntimeGpu, AllocationLargerThanTheCardFailsCleanly) {
  const auto before = rt::memory_info();
  const std::size_t too_much = before.total_bytes + (std::size_t{1} << 30);
  try {
    rt::DeviceBuffer<char> huge(too_much);
    FAIL() << "allocating " << too_much << " bytes should fail";
  } catch (const rt::OutOfMemory &e) {
    EXPECT_EQ(e.requested_bytes(), too_much);
    EXPECT_TRUE(contains(e.what(), "out of device memory")) << e.what();
  }
  // Usable afterwards, and nothing leaked.
  auto small = rt::DeviceBuffer<int>::from_host({7, 8, 9});
  EXPECT_EQ(small.download(), (std::vector<int>{7, 8, 9}));
  const auto after = rt::memory_info();
  EXPECT_LE(before.free_bytes - std::min(before.free_bytes, after.free_bytes), std::size_t{64} << 20);
}

TEST_F(RuntimeGpu, CheckedModeSynchronizesAtLaunch) {
  rt::set_checked_mode(true);
  rt::DeviceBuffer<int> in(64), out(64);
  EXPECT_NO_THROW(rt::launch("add_one", add_one, rt::config_for(64, 64), in.data(), out.data(), 64u));
  rt::set_checked_mode(false);
}

TEST_F(RuntimeGpu, EventTimerMeasuresWork) {
  rt::Stream stream;
  const unsigned n = 1 << 20;
  rt::DeviceBuffer<int> in(n), out(n);
  auto stats = rt::time_on_stream(
      [&](cudaStream_t s) {
        rt::launch("add_one", add_one, rt::config_for(n, 256, 0, s), in.data(), out.data(), n);
      },
      stream.get(), 2, 9);
  ASSERT_EQ(stats.samples_ms.size(), 9u);
  EXPECT_GT(stats.median_ms, 0.f);
  EXPECT_LE(stats.min_ms, stats.median_ms);
  EXPECT_LE(stats.median_ms, stats.max_ms);
}
