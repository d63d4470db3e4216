#pragma once
// Locals split into webs: one C variable reused for unrelated values (a counter `int i;`
// declared at the top and reused by several loops, one of them under `if (tid == 0)`)
// becomes one local per web, the classic renaming behind SSA: a web is a set of
// assignments joined by the reads they may reach (two assignments one read may see are in
// one web). Each read is renamed to the web of the assignments that reach it, each
// assignment to its own web; a kernel's meaning does not change.
//
// Why: the analysis is per local (uniformity, closed forms, havoc). A value that no read
// of the other uses can see — the declaration's undefined value, or a per-thread count in
// one branch — no longer makes the block-uniform counter of another loop per-thread.
//
// Sound when the reaching assignments are over-approximated: they are computed by a
// forward pass in which a loop's head sees the state before it joined with the state at
// the end of an iteration (two passes reach the fixed point: the transfer is of the form
// gen ∪ (in ∩ keep)); a break, continue or return joins its state where control goes
// and the code after it is walked with its state too. Loops nested deeper than
// kExactDepth take every assignment inside them as reaching every read inside them
// (one pass, so the time is linear in the nesting).

#include "model/model.hpp"

namespace kverify::analysis {

model::Kernel splitLocalWebs(const model::Kernel &kernel);

}  // namespace kverify::analysis
