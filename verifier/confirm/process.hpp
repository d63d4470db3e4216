#pragma once
// Runs a program with a time limit and collects what it prints.
#include <string>
#include <vector>

namespace kverify::confirm {

struct ProcessResult {
  bool started = false;    // false: it could not be run (output says why)
  bool timed_out = false;  // killed at the time limit, with everything it started
  int exit_code = -1;      // its exit status, or 128 + the signal that ended it
  std::string output;      // stdout and stderr together, at most the last 1 MiB
};

// argv[0] is looked up on PATH. `cwd` empty: this process's.
ProcessResult runProcess(const std::vector<std::string> &argv, double timeout_s, const std::string &cwd = "");

}  // namespace kverify::confirm
