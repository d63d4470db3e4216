#include "confirm/process.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kverify::confirm {

ProcessResult runProcess(const std::vector<std::string> &argv, double timeout_s, const std::string &cwd) {
  ProcessResult r;
  int fds[2];
  if (argv.empty() || pipe2(fds, O_CLOEXEC) != 0) {
    r.output = "cannot create a pipe: " + std::string(std::strerror(errno));
    return r;
  }
  std::vector<char *> args;
  for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]);
    r.output = "cannot fork: " + std::string(std::strerror(errno));
    return r;
  }
  if (pid == 0) {
    // its own process group: a timeout kills what it started too (nvcc's cicc, ptxas)
    setpgid(0, 0);
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
    execvp(args[0], args.data());
    dprintf(2, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);
  close(fds[1]);
  r.started = true;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  char buf[65536];
  for (;;) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      kill(-pid, SIGKILL);
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int n = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    ssize_t got = read(fds[0], buf, sizeof buf);
    if (got <= 0) break;  // end of output: the program (and what it started) closed it
    r.output.append(buf, static_cast<size_t>(got));
    if (r.output.size() > (1u << 20)) r.output.erase(0, r.output.size() - (1u << 20));
  }
  close(fds[0]);
  int status = 0;
  // the output closed: the program is ending (or was killed), within the same deadline
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline && !r.timed_out) {
      r.timed_out = true;
      kill(-pid, SIGKILL);
    }
    usleep(5000);
  }
  if (r.timed_out) kill(-pid, SIGKILL);  // what it left behind
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

}  // namespace kverify::confirm
