#pragma once
// Tickets broadcast through shared memory: thread 0 of each block takes a ticket from a
// global counter (`if (t == 0) s = atomicAdd(counter, 1);`), a barrier, and every thread
// of the block reads it (the dynamic tile ids of a look-back scan, a work queue). Every
// value such a read sees is a ticket some thread of the reader's own block took, so two
// blocks never read the same one: what tells the blocks' tiles apart (Checker::tickets).
#include "analysis/trace.hpp"

#include <map>
#include <set>

namespace kverify::analysis::detail {

// The reads of such shared variables (access id -> the counter array): every write of the
// variable stores a ticket of one counter (`ticket_arrays`, whose every update is an
// atomicAdd of a positive constant) at element 0, and thread 0 of the block stores one
// before any thread reads it (a block barrier between them).
std::map<unsigned, unsigned> blockTicketReads(const Kernel &K, const std::set<unsigned> &ticket_arrays);

}  // namespace kverify::analysis::detail
