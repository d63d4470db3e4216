#pragma once
// The analysis: kernel models in, verdicts with findings and witnesses out.
// Clang-free and Z3-free interface; the Z3 encoding behind it: exec*.cpp (symbolic
// traces), *_check.cpp (the checks), checker.cpp (queries), witness.cpp, analyze.cpp.
//
// Passes (Faial-style, see docs/ARCHITECTURE.md), each in its own file with its own tests:
//   0. configuration (configure.hpp): the options one kernel is analysed under;
//      uniformity (uniformity.hpp); alignment (phases.hpp: the barrier phases the reports
//      show and --dump-phases prints);
//   1. per-thread symbolic execution of the structured body into events (accesses,
//      barriers) with path conditions, loop counters with closed forms (closed_form.hpp)
//      or havoc, and for each event its "last barrier instance" (which barrier, at which
//      iterations): trace.hpp, exec_*.cpp;
//   2. barrier divergence (DivergenceCheck): SAT(path(t1) != path(t2)) at the same loop
//      iterations, except where the uniformity pass shows all threads of a block agree;
//   3. races (RaceCheck): two accesses of distinct threads are concurrent when (same block
//      and the same last barrier instance) or (global memory and different blocks), and
//      not both atomic within a scope that holds both threads, and not a read of data
//      published to it through a flag (message_passing.hpp); facts the threads' values
//      obey (one value per shared read and interval, tickets, tickets broadcast per block:
//      block_tickets.hpp) narrow the queries;
//   4. bounds (BoundsCheck) for shared arrays of known size.
// Every finding's witness is re-evaluated at the solver's model before it is reported.

#include "result/result.hpp"
#include "model/model.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace kverify::analysis {

struct Options {
  // Concrete launch configuration; unset dimensions are symbolic within CUDA's limits.
  std::array<std::optional<uint64_t>, 3> block_dim{}, grid_dim{};
  std::vector<std::string> assumes;  // --assume expressions (C syntax)
  double timeout_s = 10;             // per solver query
  // per kernel, all its queries together (CPU seconds): past it every query is `unknown`
  double kernel_timeout_s = 120;
  // CPU time for making each witness simple (small launch, small values): what --confirm
  // replays must be small enough to run, so it gives more
  double witness_seconds = 0.3;
  bool assume_no_alias = true;  // distinct pointer parameters do not alias
  // a dimension of a symbolic grid has at most 2^32 threads (its global thread index fits
  // in 32 bits): gridDim * blockDim <= 2^32
  bool assume_grid_fits_32_bits = true;
  // code no thread reaches is dead on purpose: `verified`, not `vacuous` (still listed)
  bool allow_unreachable = false;
  // --zero-init: global arrays (by name, e.g. `flags` or `st.flags`) the launcher zeroes
  // before the launch: flags a kernel publishes data through start unset
  std::vector<std::string> zero_init;
};

// Parses `--block-dim=256`, `--block-dim=16,16`, `[32,1]` forms into dims.
// Returns false on a malformed value.
bool parseDims(const std::string &text, std::array<std::optional<uint64_t>, 3> &dims);

// CUDA's launch limits: block x, y <= 1024, z <= 64, x*y*z <= 1024; grid x < 2^31,
// y, z <= 65535; no dimension 0. The first limit the fixed dimensions break, named, or "".
std::string launchLimitError(const Options &options);

// Applies a `// kverify:` option string (the same flags as the CLI) on top of `base`.
// Unknown flags are reported in `error` (and return false).
bool applyOptionString(const std::string &text, Options &base, std::string &error);

// Parses an --assume / KV_ASSUME-style expression over the kernel's scalar parameters
// and the CUDA builtins into a model expression (bool). Empty result and `error` set
// when it does not parse or names something unknown.
model::ExprPtr parseAssumption(const std::string &text, const model::Kernel &kernel, std::string &error);

// Analyzes one kernel under `options` and its own `// kverify:` comment (configure.hpp).
KernelResult analyzeKernel(const model::Kernel &kernel, const Options &options);

// --dump-trace (trace_text.cpp): the symbolic trace of thread 1 as the race check builds it,
// as text: its accesses, barrier events and fences in trace order (location, array, index,
// path condition, loop counters, last-barrier candidates per phase kind), then its side
// facts and what each says. The kernel is configured as analyzeKernel configures it; an
// error there (or a kernel the analysis does not model) is one line saying so.
std::string traceText(const model::Kernel &kernel, const Options &options);

// A kernel result for a file that did not parse (verdict Error, clang's diagnostics).
KernelResult parseErrorResult(const model::TranslationUnitModel &tu);

}  // namespace kverify::analysis
