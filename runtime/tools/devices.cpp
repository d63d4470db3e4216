// kverify-devices: what GPUs this machine has. No GPU is a normal answer
// (exit 0 with the reason); a failing query is exit 1.
#include <cstdio>
#include <exception>

#include "kverify/runtime/device.hpp"

int main() {
  try {
    const auto q = kverify::rt::query_devices();
    if (!q.available()) {
      std::printf("kverify-devices: %s; GPU tests and property suites will be skipped\n",
                  q.unavailable_reason.c_str());
      return 0;
    }
    for (const auto& d : q.devices) std::printf("%s", kverify::rt::describe(d).c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kverify-devices: error: %s\n", e.what());
    return 1;
  }
}
