// GoogleTest support for GPU tests and GPU properties: without a device they skip, and
// CTest shows them skipped, with the reason (gtest_discover_tests matches "[  SKIPPED ]").
#pragma once

#include <gtest/gtest.h>

#include "kverify/properties/rc_support.hpp"
#include "kverify/runtime/device.hpp"

namespace kverify::testing {

// Cached: device discovery runs once per test binary.
inline const kverify::rt::DeviceQuery &devices() {
  static const kverify::rt::DeviceQuery q = kverify::rt::query_devices();
  return q;
}

}  // namespace kverify::testing

// In a test body or SetUp(): skip with the reason when there is no GPU.
#define KV_REQUIRE_GPU()                                                              \
  do {                                                                                \
    if (!::kverify::testing::devices().available())                                   \
      GTEST_SKIP() << "no GPU: " << ::kverify::testing::devices().unavailable_reason; \
  } while (0)

class GpuTest : public ::testing::Test {
protected:
  void SetUp() override { KV_REQUIRE_GPU(); }
};

// A RapidCheck property as a GoogleTest test Suite.Name that skips without a GPU:
//   KV_GPU_PROPERTY(Scan, MatchesReference) { auto x = *rc::gen::arbitrary<int>(); ... }
#define KV_GPU_PROPERTY(Suite, Name)                       \
  static void kv_property_##Suite##_##Name();              \
  TEST(Suite, Name) {                                      \
    KV_REQUIRE_GPU();                                      \
    ::kverify::prop::check(&kv_property_##Suite##_##Name); \
  }                                                        \
  static void kv_property_##Suite##_##Name()
