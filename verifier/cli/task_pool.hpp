#pragma once
// Workers that take tasks from one queue, where a task may add more (a file's parse adds
// the analyses of its kernels): the kernels of one file run in parallel, and a worker with
// nothing to do waits only while a running task may still add work.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>

namespace kverify::cli {

class TaskPool {
public:
  using Task = std::function<void(TaskPool &)>;
  // `urgent` tasks run before the others (a parsed file's kernels before the next file)
  void add(Task task, bool urgent = false);
  // Runs every task on `workers` threads, each with `stack_bytes` of stack and `init` run
  // first on it; returns when the queue is empty and no task is running.
  void run(unsigned workers, unsigned stack_bytes, const std::function<void()> &init);

private:
  void work();
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<Task> tasks_;
  std::size_t running_ = 0;
};

}  // namespace kverify::cli
