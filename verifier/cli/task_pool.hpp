#pragma once
// Workers that take tasks from one queue, where a task may add more (a file's parse adds
// the analyses of its kernels): the kernels of one file run in parallel, and a worker with
// nothing to do waits only while a running task may still add work. Tasks of one group (the
// instantiations of a kernel template) run one at a time while a task of no running group
// waits: they ask the solver the same questions, and a second one started beside the first
// would wait for its answers (analysis/answer_cache.hpp) rather than find them done.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <set>
#include <string>

namespace kverify::cli {

class TaskPool {
public:
  using Task = std::function<void(TaskPool &)>;
  // `urgent` tasks run before the others (a parsed file's kernels before the next file);
  // `group`: none where empty
  void add(Task task, bool urgent = false, std::string group = {});
  // Runs every task on `workers` threads, each with `stack_bytes` of stack and `init` run
  // first on it; returns when the queue is empty and no task is running.
  void run(unsigned workers, unsigned stack_bytes, const std::function<void()> &init);

private:
  void work();
  std::mutex mu_;
  std::condition_variable changed_;
  struct Entry {
    Task task;
    std::string group;
  };
  std::deque<Entry> tasks_;
  std::multiset<std::string> running_;  // the group of each running task ("": none)
};

}  // namespace kverify::cli
