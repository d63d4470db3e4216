#pragma once
// Internal to the oracle: one thread's run (interpret.hpp) and the hazards read off the
// traces (hazards.cpp: divergence; races.cpp: races, out-of-bounds accesses). Not for other
// components: use oracle.hpp.

#include "oracle/oracle.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace kverify::oracle::detail {

// One event of a thread's trace: an Access or a Barrier statement executed.
struct Event {
  const model::Stmt *stmt = nullptr;      // Access or Barrier
  int64_t index = 0;                      // Access: first element
  uint32_t mask = 0;                      // Warp barrier: the evaluated lane mask
  std::optional<uint64_t> value;          // Write of an integer or bool: the value stored
  uint32_t iter_begin = 0, iter_end = 0;  // the enclosing loops, in Trace::iterations
};

// The thread acquired what `writer` released: the writer's events before `writes_before`
// happen before this thread's events from `reads_from` on (message passing through a flag).
struct Sync {
  ThreadId writer;
  size_t writes_before = 0, reads_from = 0;
};

struct Trace {
  ThreadId id;
  uint32_t linear = 0;  // x + y*bdx + z*bdx*bdy within the block
  std::vector<Event> events;
  std::vector<Sync> syncs;
  // (loop statement, iteration counter), outermost first, slices named by Event.
  std::vector<std::pair<const model::Stmt *, uint64_t>> iterations;
};

struct ThreadOutcome {
  Result::Status status = Result::Status::Ok;
  std::string detail;
  bool seeded = false;  // some value came from the seed
};

// What the threads of one run share, beyond their traces.
// Counters of tickets: arrays whose every write is an atomicAdd of a positive constant. Each
// such atomicAdd returns the element's value and adds its operand, over the whole launch (per
// block for shared arrays), so two of them never return the same value, as on the GPU (the
// analysis assumes it, and that the counter does not wrap around).
// Shared writes: the last write to each unit of a shared array (an element, or a byte of
// an array addressed in bytes) in each barrier interval, counted in block barriers passed
// (Thread::forwarded).
struct RunMemory {
  RunMemory(const model::Kernel &kernel, const Launch &launch);
  std::vector<bool> counter;                                         // by array id
  std::map<std::tuple<unsigned, uint64_t, int64_t>, uint64_t> next;  // (array, block, index)
  // A write of `count` units from `first`, numbered `serial` in the run; with the value
  // it stored where that is known (a scalar store)
  struct Written {
    uint64_t serial = 0;
    int64_t first = 0;
    unsigned count = 1;
    std::optional<model::Type> type;
    uint64_t i = 0;
    double f = 0;
  };
  uint64_t writes = 0;  // serials handed out
  // (array, block, unit) -> barriers passed -> the last write to the unit then
  using SharedWrites = std::map<std::tuple<unsigned, uint64_t, int64_t>, std::map<uint64_t, Written>>;
  SharedWrites shared;
  // The same, as the block's previous run left it: what loads read (runBlock)
  SharedWrites settled;
  // Flags: zeroed arrays (by array id) and, per element, the last atomic store or
  // exchange: its value, and what it released.
  std::vector<bool> zeroed;
  struct Flag {
    uint64_t value = 0;
    ThreadId writer;
    size_t writes_before = 0;  // the writer's events released by it
  };
  std::map<std::pair<unsigned, int64_t>, Flag> flags;
};

// The same stored values (serials aside).
bool sameWrites(const RunMemory::SharedWrites &a, const RunMemory::SharedWrites &b);

// Runs one thread to its end, filling `trace`.
ThreadOutcome runThread(const model::Kernel &kernel, const Launch &launch, const Dim3 &grid,
                        RunMemory &memory, Trace &trace);

// The hazards of one block's traces (indexed by linear thread id; every thread of the
// block ran to its end), appended to `findings`. Races are collected across blocks, so
// this only records the block's accesses into `accesses`; findRaces reads them.
void findBlockHazards(const model::Kernel &kernel, const Dim3 &block_dim, const std::vector<Trace> &block,
                      std::vector<Finding> &findings);

// Grid barriers passed alike by every block run (thread 0 of each compared).
void findGridDivergence(const std::vector<std::vector<Trace>> &blocks, std::vector<Finding> &findings);

// Everything a race check needs of the launch: the traces of every block run.
void findRaces(const model::Kernel &kernel, const Dim3 &block_dim,
               const std::vector<std::vector<Trace>> &blocks, std::vector<Finding> &findings);

// Site of an event (its thread, statement and loop iterations).
Site siteOf(const Trace &t, const Event *e);

std::string threadName(const ThreadId &t);
std::string where(const model::SourceRange &r);

}  // namespace kverify::oracle::detail
