// Workers over one queue of tasks that add tasks (see task_pool.hpp).
#include "cli/task_pool.hpp"

#include <algorithm>
#include <optional>
#include <utility>  // (llvm/Support/thread.h uses std::exchange without it)
#include <vector>

#include "llvm/Support/thread.h"

namespace kverify::cli {

void TaskPool::add(Task task, bool urgent, std::string group) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    Entry e{std::move(task), std::move(group)};
    if (urgent)
      tasks_.push_front(std::move(e));
    else
      tasks_.push_back(std::move(e));
  }
  changed_.notify_one();
}

void TaskPool::work() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    changed_.wait(lock, [&] { return !tasks_.empty() || running_.empty(); });
    if (tasks_.empty()) {  // and nothing running that could add a task
      changed_.notify_all();
      return;
    }
    // the first task of no running group; else the first (a worker never idles beside work)
    auto next = std::find_if(tasks_.begin(), tasks_.end(),
                             [&](const Entry &e) { return e.group.empty() || !running_.count(e.group); });
    if (next == tasks_.end()) next = tasks_.begin();
    Entry e = std::move(*next);
    tasks_.erase(next);
    auto running = running_.insert(e.group);
    lock.unlock();
    e.task(*this);
    lock.lock();
    running_.erase(running);
    changed_.notify_all();
  }
}

void TaskPool::run(unsigned workers, unsigned stack_bytes, const std::function<void()> &init) {
  std::vector<llvm::thread> threads;
  for (unsigned t = 0; t < workers; ++t)
    threads.emplace_back(std::optional<unsigned>(stack_bytes), [this, &init] {
      init();
      work();
    });
  for (llvm::thread &t : threads) t.join();
}

}  // namespace kverify::cli
