#pragma once
// --max-memory: a ceiling on what kverify allocates, so that a hostile input (3,000
// accesses in one phase, an exponential expansion) ends in `unknown` or one error line,
// never in the machine's memory running out.
#include <cstdint>
#include <string>

namespace kverify::cli {

// Limits the process's data (its heap and anonymous mappings, RLIMIT_DATA) to `mib` MiB
// plus `reserved` bytes (the workers' stack reservations: address space, not memory) and
// Z3's allocations to `mib` MiB. Past it: an allocation in the analysis fails (the kernel
// is `unknown`, analyze.cpp), a solver call stops (its query is undecided), and one in
// Clang ends the run with one line naming the limit (exit 2). 0: no limit. False, with
// `error`, where the limit cannot be set.
bool limitMemory(uint64_t mib, uint64_t reserved, std::string &error);

}  // namespace kverify::cli
