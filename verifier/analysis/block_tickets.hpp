#pragma once
// Tickets broadcast through shared memory: thread 0 of each block takes a ticket from a
// global counter (`if (t == 0) s = atomicAdd(counter, 1);`), a barrier, and every thread
// of the block reads it (the dynamic tile ids of a look-back scan, a work queue). Every
// value such a read sees is a ticket some thread of the reader's own block took, so two
// blocks never read the same one: what tells the blocks' tiles apart (Checker::tickets).
#include "analysis/trace.hpp"

#include <cstdint>
#include <map>
#include <set>

namespace kverify::analysis::detail {

// One element of a counter array.
struct CounterElement {
  unsigned array = 0;
  int64_t index = 0;
  friend bool operator==(const CounterElement &a, const CounterElement &b) {
    return a.array == b.array && a.index == b.index;
  }
  friend bool operator!=(const CounterElement &a, const CounterElement &b) { return !(a == b); }
};

// The reads of such shared variables (access id -> the counter element): every write of
// the variable stores a ticket of one element, at a constant index, of one global counter
// (`ticket_arrays`, whose every update is a device-wide atomicAdd of a positive step: one
// count for the whole grid, where a __shared__ counter counts per block) at element 0, and
// thread 0 of the block stores one before any thread reads it (a block barrier between).
std::map<unsigned, CounterElement> blockTicketReads(const Kernel &K, const std::set<unsigned> &ticket_arrays);

}  // namespace kverify::analysis::detail
