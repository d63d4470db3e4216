#pragma once
// What the analysis concludes about each kernel: verdicts, findings and witnesses.
// Plain data, no Z3 and no Clang: the CLI and the report renderers (reports/)
// build on this header alone.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "result/stats.hpp"
#include "model/model.hpp"

namespace kverify::analysis {

// Per-kernel verdict. Order matters: a kernel's verdict is its most severe finding,
// and Unknown/Unsupported/Error never become Verified. BenignRace: a write-write race in
// which both threads provably store the same value, or a read racing such a write where
// the reading thread stored that value there first (a warning, as in GPUVerify).
// Vacuous: no finding, but some access or barrier is reached by no thread under the launch
// and the assumptions (a proof about it proves nothing); it replaces only Verified.
enum class Verdict { Verified, BenignRace, Race, Divergence, Oob, Vacuous, Unknown, Unsupported, Error };

inline const char *verdictName(Verdict v) {
  switch (v) {
    case Verdict::Verified: return "verified";
    case Verdict::BenignRace: return "benign-race";
    case Verdict::Race: return "race";
    case Verdict::Divergence: return "divergence";
    case Verdict::Oob: return "oob";
    case Verdict::Vacuous: return "vacuous";
    case Verdict::Unknown: return "unknown";
    case Verdict::Unsupported: return "unsupported";
    case Verdict::Error: return "error";
  }
  return "error";
}

// The verdict a name stands for (verdictName's inverse).
inline std::optional<Verdict> verdictFromName(std::string_view name) {
  for (int v = 0; v <= static_cast<int>(Verdict::Error); ++v)
    if (name == verdictName(static_cast<Verdict>(v))) return static_cast<Verdict>(v);
  return std::nullopt;
}

// A call of a device function that kverify inlined: the function and where it is called.
struct CallSite {
  std::string function;
  model::SourceRange range;
};

// One access (or barrier) a finding points at.
struct AccessRef {
  std::string kind;  // "read", "write", "atomic", or "barrier"
  model::SourceRange range;
  std::string text;                   // the source text of the access, e.g. "sdata[tid + s]"
  std::vector<CallSite> called_from;  // inside inlined calls: the innermost call first
};

// An access or barrier no thread reaches under the launch and the assumptions, and why.
struct UnreachableRef : AccessRef {
  // the facts that exclude every thread (an unsat core, each fact by its label: the launch,
  // an --assume, a no-overflow or loop fact), or, by construction, the constant condition
  std::vector<std::string> because;
  // dead by construction of the source (a condition constant whatever the launch, the
  // parameters and the memory, code after a return): never compiled in, not a vacuous proof
  bool by_construction = false;
};

struct ThreadCoords {
  std::array<uint64_t, 3> thread_idx{};
  std::array<uint64_t, 3> block_idx{};
};

// An element of a pointer parameter's memory as the witness reads it: a replay stores
// `value` at array[index] before the launch.
struct MemoryValue {
  std::string array;
  int64_t index = 0;
  int64_t value = 0;  // as the element's type reads it (an unsigned 64-bit one above 2^63 wraps)
};

// The iteration of an enclosing loop at which a witness's thread makes its access.
struct LoopIteration {
  unsigned thread = 0;  // 1 or 2: whose (0: the witness has one thread, as for oob)
  std::string loop;     // "k (loop at 12:3)"
  uint64_t iteration = 0;
  std::string name() const {  // as the text report shows it: "thread 1: k (loop at 12:3)"
    return thread ? "thread " + std::to_string(thread) + ": " + loop : loop;
  }
};

// A concrete counterexample read off the solver's model.
struct Witness {
  ThreadCoords thread1, thread2;  // thread2 is unused for oob
  std::array<uint64_t, 3> block_dim{};
  std::array<uint64_t, 3> grid_dim{};
  std::vector<std::pair<std::string, std::string>> params;  // parameter -> value
  std::vector<LoopIteration> loops;
  std::string index;                // the colliding (race) or out-of-range (oob) element index
  std::vector<MemoryValue> memory;  // the integer loads from parameters' memory it reads
  bool validated = false;           // re-evaluated at the model and confirmed
};

// What replaying a finding's witness as a real launch showed (kverify --confirm).
struct Confirmation {
  enum class Status { NotAsked, Confirmed, NotReproduced, NotRun };
  Status status = Status::NotAsked;
  std::string tool;     // "racecheck", "memcheck", "synccheck", "access log"
  std::string detail;   // what the tool reported, or why it was not reproduced or not run
  std::string program;  // the generated program (kept with --confirm-dir)
  std::string output;   // the run's output, the sanitizer's report included
};

inline const char *confirmationName(Confirmation::Status s) {
  switch (s) {
    case Confirmation::Status::NotAsked: return "not asked";
    case Confirmation::Status::Confirmed: return "confirmed";
    case Confirmation::Status::NotReproduced: return "not reproduced";
    case Confirmation::Status::NotRun: return "not run";
  }
  return "not asked";
}

struct Finding {
  Verdict kind = Verdict::Race;     // BenignRace, Race, Divergence or Oob
  std::string array;                // empty for divergence
  std::string space;                // "shared" or "global"
  std::string message;              // "data race on 'sdata' (write/read)"
  std::string explanation;          // e.g. why warp-synchronous code races on sm_70+
  std::vector<AccessRef> accesses;  // first = the error location, rest = notes
  Witness witness;
  Confirmation confirmation;
};

// What a verdict rests on beyond the source, as the report states it.
struct Assumption {
  enum class Kind {
    Premise,     // an assumption kverify makes (no aliasing, a rule's premise), or a checked launch fact
    Launch,      // the launch the kernel was analysed under ("blockDim = (256, 1, 1) ...")
    Assumed,     // the user's --assume or // kverify: assume
    NotChecked,  // an annotation read but not checked (GPUVerify's __assert, __invariant)
  };
  Kind kind = Kind::Premise;
  std::string text;
  std::string display() const {  // as the reports show it
    return kind == Kind::Assumed      ? "assumed: " + text
           : kind == Kind::NotChecked ? "not checked: " + text
                                      : text;
  }
};

inline const char *assumptionKindName(Assumption::Kind k) {
  switch (k) {
    case Assumption::Kind::Premise: return "premise";
    case Assumption::Kind::Launch: return "launch";
    case Assumption::Kind::Assumed: return "assumed";
    case Assumption::Kind::NotChecked: return "not-checked";
  }
  return "premise";
}

// Code between two consecutive barriers, for the report.
struct Phase {
  model::SourceRange begin, end;  // the barriers (or kernel entry/exit) that bound it
  unsigned accesses = 0;
};

// The precision rules the analysis applied to a kernel: each a fact it adds to the
// encoding where the rule's premise holds (closed forms of loop updates, values equal by
// an argument about races, tickets, benign races, message passing, ...). Counted per
// instance in every encoding of the kernel (both threads, divergence and race modes), so
// a test corpus can tell which rules it exercises (verifier/bench/rule_coverage.py).
enum class Rule {
  ClosedFormAdd,          // x += c / x -= c: x0 + k*c
  ClosedFormShift,        // x <<= c, x >>= c, signed x /= 2^c
  ClosedFormAffine,       // x = x * 2^m + d
  ClosedFormFlip,         // x = c - x (period 2)
  ClosedFormSwap,         // t = a; a = b; b = t
  ClosedFormSet,          // x = v, v loop-invariant
  InductionNoWrap,        // a local the loop condition reads is shown not to wrap (first-wrap query)
  LoopHavocUniform,       // a uniform local without closed form: one havoc per block
  LoopSharedTrips,        // a loop with block barriers: one trip count per block
  LoopUniformTrips,       // a loop the uniformity pass shows uniform: one trip count per block
  LoopRangeInvariant,     // a havocked local stays in 0..c, by induction
  LoopConstantInvariant,  // a havocked local keeps its constant start value, by induction
  ReadOnlyValue,          // a load from an array nothing writes: one value per element
  ArrayPremise,           // a KV_ASSUME_FORALL over such arrays' contents
  SharedReadsAgree,       // two threads' reads of one shared element in one interval agree
  Reread,                 // one thread's two reads of an element in one interval agree
  BlockVote,              // __syncthreads_or/_and/_count: one value per block
  Ticket,                 // two atomicAdds on one counter element return different values
  BlockTicket,            // tickets read from shared memory differ across blocks
  BenignSameValue,        // a race of two writes of one value
  BenignOwnValue,         // a read racing a write of the value the reader wrote there first
  MessagePassing,         // a read after an acquire of a flag the writer released
  UniformBarriers,        // every barrier under uniform control: no divergence-mode run
  kCount
};
// "closed_form.add", ..., "message_passing", "uniform_barriers"
inline const char *ruleName(Rule r) {
  switch (r) {
    case Rule::ClosedFormAdd: return "closed_form.add";
    case Rule::ClosedFormShift: return "closed_form.shift";
    case Rule::ClosedFormAffine: return "closed_form.affine";
    case Rule::ClosedFormFlip: return "closed_form.flip";
    case Rule::ClosedFormSwap: return "closed_form.swap";
    case Rule::ClosedFormSet: return "closed_form.set";
    case Rule::InductionNoWrap: return "loop.induction_no_wrap";
    case Rule::LoopHavocUniform: return "loop.havoc_uniform";
    case Rule::LoopSharedTrips: return "loop.shared_trips";
    case Rule::LoopUniformTrips: return "loop.uniform_trips";
    case Rule::LoopRangeInvariant: return "loop.range_invariant";
    case Rule::LoopConstantInvariant: return "loop.constant_invariant";
    case Rule::ReadOnlyValue: return "value.read_only";
    case Rule::ArrayPremise: return "value.array_premise";
    case Rule::SharedReadsAgree: return "value.shared_reads";
    case Rule::Reread: return "value.reread";
    case Rule::BlockVote: return "value.block_vote";
    case Rule::Ticket: return "ticket";
    case Rule::BlockTicket: return "ticket.block";
    case Rule::BenignSameValue: return "benign.same_value";
    case Rule::BenignOwnValue: return "benign.own_value";
    case Rule::MessagePassing: return "message_passing";
    case Rule::UniformBarriers: return "uniform_barriers";
    case Rule::kCount: break;
  }
  return "?";
}
inline constexpr size_t kRules = static_cast<size_t>(Rule::kCount);

struct RuleCounts {
  std::array<uint32_t, kRules> n{};
  void note(Rule r, uint32_t times = 1) { n[static_cast<size_t>(r)] += times; }
  uint32_t operator[](Rule r) const { return n[static_cast<size_t>(r)]; }
};

struct KernelResult {
  std::string file;
  std::string name;
  model::SourceRange range;
  Verdict verdict = Verdict::Verified;
  double time_ms = 0;
  std::vector<Finding> findings;
  std::vector<Phase> phases;
  std::vector<Assumption> assumptions;  // stated in the output, e.g. no aliasing
  std::vector<model::Unsupported> unsupported;
  std::string unknown_query;                   // which query timed out / returned unknown
  std::vector<std::string> undecided;          // every query the solver did not decide
  bool out_of_time = false;                    // --kernel-timeout ran out (see unknown_query)
  bool out_of_memory = false;                  // --max-memory ran out (see unknown_query)
  std::string premise_error;                   // the launch and the assumptions contradict each other
  std::vector<UnreachableRef> unreachable;     // accesses and barriers no thread reaches
  std::vector<model::Diagnostic> diagnostics;  // Error: clang's diagnostics
  RuleCounts rules;                            // the precision rules applied
  KernelStats stats;                           // where the time went (kept for --stats only)
  // A race was found, and the other checks assumed none (shared reads agree): a divergence
  // or an out-of-bounds access that only the race causes may be missing beside it.
  bool race_free_premise_broken = false;
};

// --stats: the front end's CPU time on one file (parsing with Clang, building the model).
struct FileStats {
  std::string file;
  double parse_ms = 0;
};

struct RunResult {
  std::vector<KernelResult> kernels;
  std::vector<model::SkippedKernel> skipped;
  // What the front end skipped and went on without (missing headers, host-code errors)
  std::vector<model::Diagnostic> notes;
  std::vector<FileStats> file_stats;  // --stats only
};

}  // namespace kverify::analysis
