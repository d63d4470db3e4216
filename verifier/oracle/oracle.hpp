#pragma once
// The oracle: a concrete interpreter of the kernel model (model/model.hpp).
//
// It runs every thread of a small concrete launch with concrete parameter values and
// reports exactly the races, barrier divergence and out-of-bounds shared accesses of that
// run. It shares no code with the symbolic analysis (no Z3): tests compare the two, so a
// mistake in one shows up as a disagreement. It interprets the *model*, so where the model
// says "opaque" (a load from memory, an atomic's result, a shuffle, an unknown call) it
// uses a seeded value: any value is one the analysis must also allow.
//
// Threads only interact through memory, and every value read from memory is opaque, so
// each thread runs to completion on its own, leaving a trace of events (accesses and
// barriers, each with the iterations of its enclosing loops); the hazards are read off
// the traces barrier interval by barrier interval.

#include "model/model.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kverify::oracle {

using Dim3 = std::array<uint32_t, 3>;

struct Launch {
  Dim3 block{1, 1, 1}, grid{1, 1, 1};
  // Scalar parameters by their model name ("n", "p.n" for a struct field). A missing one
  // gets a seeded value.
  std::map<std::string, int64_t> params;
  uint64_t seed = 0;             // opaque values, uninitialised locals
  std::vector<Dim3> blocks;      // the blocks to run; empty: every block of the grid
  uint64_t max_steps = 1000000;  // per thread (statements and loop iterations)
  // Global arrays zeroed before the launch, by name (--zero-init): flags through which
  // threads publish data; their atomics read what earlier threads stored, else 0.
  std::vector<std::string> zero_init;
};

// BenignRace: only write-write races in which both threads stored the same value, and
// reads racing a write of the value the reader itself last stored there in the interval.
enum class Kind { Race, Divergence, Oob, ConstantWrite, BenignRace };
const char *kindName(Kind k);  // "race", "divergence", "oob", "constant-write", "benign-race"

struct ThreadId {
  Dim3 thread{}, block{};
};

// One loop iteration an event happened in: the loop's source range and its counter
// (0 for the first iteration).
struct Iteration {
  model::SourceRange loop;
  uint64_t k = 0;
};

// Where one thread was for a finding: its id, the statement (an Access or a Barrier, or
// null where the thread had already finished), and the loop iterations around it.
struct Site {
  ThreadId thread;
  const model::Stmt *stmt = nullptr;
  std::vector<Iteration> iterations;
};

struct Finding {
  Kind kind = Kind::Race;
  unsigned array = 0;   // Kernel::arrays index (race, oob, constant-write)
  int64_t index = 0;    // the colliding (race) or out-of-range (oob) element
  Site first, second;   // second: the other thread (race, divergence); unused otherwise
  std::string message;  // one line for people
};

struct Result {
  enum class Status {
    Ok,           // every thread ran to its end: `findings` are exactly this run's hazards
    Ub,           // a thread executed undefined behaviour the analysis assumes away
                  // (signed overflow, division by zero, ...): the run proves nothing
    Assumption,   // a KV_ASSUME / --assume-style Assume statement was false
    StepLimit,    // a thread ran past max_steps (a loop that does not end)
    Unsupported,  // the kernel has Unsupported entries, or a construct the oracle lacks
  };
  Status status = Status::Ok;
  std::string detail;  // why, for anything but Ok: "signed overflow at 12:5 in thread ..."
  std::vector<Finding> findings;
  // Some value of the run came from the seed (an opaque, an uninitialised local, a
  // parameter missing from Launch::params, a float->int conversion out of range, a
  // pointer value): false means the run is fully determined by the launch and params.
  bool seeded = false;
};
const char *statusName(Result::Status s);

// Runs `kernel` on `launch`. Never throws on kernel content; a malformed launch (a zero
// dimension, a block outside the grid) is reported as Unsupported with a detail.
Result run(const model::Kernel &kernel, const Launch &launch);

// One memory access of a run: elements [index, index + count) of Kernel::arrays[array], as
// the thread made it, with the block (and grid) barriers it had passed before. For tests
// that compare the model's accesses with those of the source run another way (compiled
// for the host: tests/differential/host_oracle).
struct AccessRecord {
  ThreadId thread;
  unsigned array = 0;
  int64_t index = 0;
  unsigned count = 1;
  model::AccessKind kind = model::AccessKind::Read;
  uint32_t barriers = 0;
  model::SourceRange range;
};
// run(), also listing every access of every thread (blocks and threads in run order, each
// thread's in program order); `accesses` is filled for Ok runs only.
Result run(const model::Kernel &kernel, const Launch &launch, std::vector<AccessRecord> &accesses);

// Evaluates a bool expression (an --assume precondition: over parameters and builtins) as
// thread `thread` of `launch` sees it. Empty when its evaluation is undefined behaviour or
// reads something that is not there (locals, opaques take seeded values as in run()).
std::optional<bool> evaluate(const model::Kernel &kernel, const Launch &launch, const model::Expr &cond,
                             const ThreadId &thread = {});
// The same for an integral expression: its C value (sign-extended for signed types).
// Empty for undefined behaviour and for non-integral expressions.
std::optional<int64_t> evaluateInt(const model::Kernel &kernel, const Launch &launch, const model::Expr &e,
                                   const ThreadId &thread = {});

}  // namespace kverify::oracle
