// kverify-devices: what GPUs this machine has. No GPU is a normal answer
// (exit 0 with the reason); a failing query is exit 1. With --count, only the number
// of GPUs (0 when none), for scripts.
#include <cstdio>
#include <cstring>
#include <exception>

#include "kverify/runtime/device.hpp"

int main(int argc, char **argv) {
  const bool count_only = argc == 2 && std::strcmp(argv[1], "--count") == 0;
  if (argc > 1 && !count_only) {
    std::fprintf(stderr, "usage: kverify-devices [--count]\n");
    return 2;
  }
  try {
    const auto q = kverify::rt::query_devices();
    if (count_only) {
      std::printf("%zu\n", q.available() ? q.devices.size() : std::size_t{0});
      return 0;
    }
    if (!q.available()) {
      std::printf("kverify-devices: %s; GPU tests and property suites will be skipped\n",
                  q.unavailable_reason.c_str());
      return 0;
    }
    for (const auto &d : q.devices) std::printf("%s", kverify::rt::describe(d).c_str());
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "kverify-devices: error: %s\n", e.what());
    return 1;
  }
}
