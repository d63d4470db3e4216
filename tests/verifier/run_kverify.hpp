#pragma once
// Running the kverify binary from a test: its exit status and what it printed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace kverify_cli {

struct CliRun {
  int status = -1;  // the exit status; -1 when killed by a signal
  std::string out, err;
};

inline std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline bool has(const std::string &s, const std::string &needle) {
  return s.find(needle) != std::string::npos;
}

// `cd dir && env kverify args`, its stdout and stderr kept in `output_base`.out/.err
// (one pair per test: CTest runs tests in parallel).
inline CliRun runKverify(const std::string &kverify, const std::string &dir, const std::string &args,
                         const std::string &output_base, const std::string &env = "") {
  std::string out = output_base + ".out", err = output_base + ".err";
  std::string cmd = "cd " + dir + " && " + env + " " + kverify + " " + args + " >" + out + " 2>" + err;
  int raw = std::system(cmd.c_str());
  CliRun r;
  if (WIFEXITED(raw)) r.status = WEXITSTATUS(raw);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// `text` written as the test's source file `name`.cu in the test temp directory; its path.
inline std::string writeSource(const std::string &name, const std::string &text) {
  std::string path = testing::TempDir() + "kverify_" + name + ".cu";
  std::ofstream(path) << text;
  return path;
}

// kverify `args` on `path`, killed after 120 s: `timeout` only guards the test (a run that
// long fails it), the budgets under test are kverify's own.
inline CliRun runGuarded(const std::string &kverify, const std::string &dir, const std::string &args,
                         const std::string &path) {
  CliRun r = runKverify("timeout 120 " + kverify, dir, args + " " + path, path + ".run");
  EXPECT_NE(r.status, 124) << "still running after 120 s";
  return r;
}

}  // namespace kverify_cli
