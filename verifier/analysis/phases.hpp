#pragma once
// The barrier phases of a kernel, for the report: the code between consecutive block (or
// grid) barriers (or the kernel's entry and exit), in program order.
#include "analysis/result.hpp"
#include "model/model.hpp"

#include <vector>

namespace kverify::analysis {

// Loop bodies and inlined calls are walked once; a loop containing barriers adds its back
// edge (its last barrier to its first) as a phase of its own. `accesses` counts the shared
// and global accesses in each.
std::vector<Phase> barrierPhases(const model::Kernel &kernel);

}  // namespace kverify::analysis
