// Shared by GPU test suites: skip (visibly, with the reason) when no device.
#pragma once

#include <gtest/gtest.h>

#include "kverify/runtime/device.hpp"

namespace kverify::testing {

// Cached: device discovery runs once per test binary.
inline const kverify::rt::DeviceQuery& devices() {
  static const kverify::rt::DeviceQuery q = kverify::rt::query_devices();
  return q;
}

}  // namespace kverify::testing

// In a test body or SetUp(): skip with the reason when there is no GPU.
#define KV_REQUIRE_GPU()                                                          \
  do {                                                                            \
    if (!::kverify::testing::devices().available())                              \
      GTEST_SKIP() << "no GPU: " << ::kverify::testing::devices().unavailable_reason; \
  } while (0)

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override { KV_REQUIRE_GPU(); }
};
