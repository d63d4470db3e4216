// The task pool kverify analyses files and kernels on (-j): every task runs, tasks added by
// tasks too, and a task of a group that is running waits while another task can run.
#include "cli/task_pool.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

using kverify::cli::TaskPool;

namespace {

struct StartOrder {
  std::mutex mu;
  std::condition_variable changed;
  std::vector<std::string> started;
  void start(const std::string &name) {
    std::lock_guard<std::mutex> lock(mu);
    started.push_back(name);
    changed.notify_all();
  }
  // Waits (at most 10 s: a wrong order ends the wait, not the test run) until `name` started;
  // whether it did.
  bool awaitStart(const std::string &name) {
    std::unique_lock<std::mutex> lock(mu);
    return changed.wait_for(lock, std::chrono::seconds(10),
                            [&] { return std::find(started.begin(), started.end(), name) != started.end(); });
  }
};

}  // namespace

TEST(TaskPool, RunsEveryTaskAndTheTasksTheyAdd) {
  TaskPool pool;
  std::atomic<int> ran{0};
  for (int i = 0; i < 20; ++i)
    pool.add([&](TaskPool &p) {
      ++ran;
      p.add([&](TaskPool &) { ++ran; }, true, "g");
    });
  pool.run(3, 1 << 20, [] {});
  EXPECT_EQ(ran, 40);
}

// Two workers over [a1, a2, b] with a1 and a2 in one group: while a1 runs, the other worker
// takes b, not a2 (a1 waits until b has started: taking a2 first shows as the wrong order).
TEST(TaskPool, ATaskOfARunningGroupWaitsWhileAnotherCanRun) {
  TaskPool pool;
  StartOrder order;
  pool.add(
      [&](TaskPool &) {
        order.start("a1");
        order.awaitStart("b");
      },
      false, "a");
  pool.add([&](TaskPool &) { order.start("a2"); }, false, "a");
  pool.add([&](TaskPool &) { order.start("b"); });
  pool.run(2, 1 << 20, [] {});
  EXPECT_EQ(order.started, (std::vector<std::string>{"a1", "b", "a2"}));
}

// With nothing else queued, a worker takes a task of a running group rather than idle.
TEST(TaskPool, ATaskOfARunningGroupRunsWhenNothingElseCan) {
  TaskPool pool;
  StartOrder order;
  bool beside = false;  // a2 started while a1 ran
  pool.add(
      [&](TaskPool &) {
        order.start("a1");
        beside = order.awaitStart("a2");
      },
      false, "a");
  pool.add([&](TaskPool &) { order.start("a2"); }, false, "a");
  pool.run(2, 1 << 20, [] {});
  EXPECT_TRUE(beside);
}
