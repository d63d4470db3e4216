#include "cli/memory_limit.hpp"

#include <llvm/Support/ErrorHandling.h>
#include <z3++.h>

#include <cerrno>
#include <cstring>
#include <sys/resource.h>
#include <unistd.h>

namespace kverify::cli {

namespace {

uint64_t limit_mib = 0;

// Clang and LLVM cannot unwind from a failed allocation: one line, exit 2.
void outOfMemory(void *, const char *reason, bool) {
  char line[256];
  int n = snprintf(
      line, sizeof line,
      "kverify: error: out of memory: past --max-memory=%llu MiB (%s); raise it, or 0 for no limit\n",
      static_cast<unsigned long long>(limit_mib), reason ? reason : "allocation failed");
  if (n > 0) (void)!write(2, line, static_cast<size_t>(n) < sizeof line ? n : sizeof line - 1);
  _exit(2);
}

}  // namespace

bool limitMemory(uint64_t mib, uint64_t reserved, std::string &error) {
  if (mib == 0) return true;
  limit_mib = mib;
  rlimit now{};
  if (getrlimit(RLIMIT_DATA, &now) != 0) return error = std::strerror(errno), false;
  rlim_t want = static_cast<rlim_t>((mib << 20) + reserved);
  if (now.rlim_max != RLIM_INFINITY && want > now.rlim_max) want = now.rlim_max;
  if (now.rlim_cur == RLIM_INFINITY || want < now.rlim_cur) {
    rlimit set{want, now.rlim_max};
    if (setrlimit(RLIMIT_DATA, &set) != 0) return error = std::strerror(errno), false;
  }
  z3::set_param("memory_max_size", std::to_string(mib).c_str());
  llvm::install_bad_alloc_error_handler(outOfMemory, nullptr);
  return true;
}

}  // namespace kverify::cli
