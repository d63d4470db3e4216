#pragma once
// The alignment pass: a kernel's barrier phases. A phase is the code between consecutive
// block (or grid) barriers, or the kernel's entry and exit, in program order; a loop
// whose body holds barriers adds its back edge (from its last barrier to its first, around
// the loop) as a phase of its own. Loop bodies and inlined calls are walked once.
//
// The phases are what `kverify --dump-phases` prints and what the reports show. The race
// check does not read them: it tells barrier instances apart per thread and per loop
// iteration in the symbolic traces (trace.hpp), which is finer than these static phases.
#include "result/result.hpp"
#include "model/model.hpp"

#include <string>
#include <vector>

namespace kverify::analysis {

struct PhasedKernel {
  struct Phase {
    const model::Stmt *begin = nullptr;         // a barrier; null: the kernel's entry
    const model::Stmt *end = nullptr;           // a barrier; null: the kernel's exit
    const model::Stmt *loop = nullptr;          // set for a loop's back edge
    std::vector<const model::Stmt *> accesses;  // shared and global accesses, in order
  };
  const model::Kernel *kernel = nullptr;
  std::vector<Phase> phases;
};

PhasedKernel alignPhases(const model::Kernel &kernel);

// One line per phase and one per access: "phase 2: 14:5 __syncthreads -> 20:5 __syncthreads".
std::string toText(const PhasedKernel &phased);

// The phases as the reports show them: bounding locations and access counts.
std::vector<Phase> reportPhases(const PhasedKernel &phased);

}  // namespace kverify::analysis
