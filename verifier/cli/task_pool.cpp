// Workers over one queue of tasks that add tasks (see task_pool.hpp).
#include "cli/task_pool.hpp"

#include <optional>
#include <utility>  // (llvm/Support/thread.h uses std::exchange without it)
#include <vector>

#include "llvm/Support/thread.h"

namespace kverify::cli {

void TaskPool::add(Task task, bool urgent) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (urgent)
      tasks_.push_front(std::move(task));
    else
      tasks_.push_back(std::move(task));
  }
  changed_.notify_one();
}

void TaskPool::work() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    changed_.wait(lock, [&] { return !tasks_.empty() || running_ == 0; });
    if (tasks_.empty()) {  // and nothing running that could add a task
      changed_.notify_all();
      return;
    }
    Task task = std::move(tasks_.front());
    tasks_.pop_front();
    ++running_;
    lock.unlock();
    task(*this);
    lock.lock();
    --running_;
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
