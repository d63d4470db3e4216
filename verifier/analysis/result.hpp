#pragma once
// What the analysis concludes about each kernel: verdicts, findings and witnesses.
// Plain data, no Z3 and no Clang: the CLI and the report renderers (reports/)
// build on this header alone.

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/model.hpp"

namespace kverify::analysis {

// Per-kernel verdict. Order matters: a kernel's verdict is its most severe finding,
// and Unknown/Unsupported/Error never become Verified. BenignRace: a write-write race in
// which both threads provably store the same value, or a read racing such a write where
// the reading thread stored that value there first (a warning, as in GPUVerify).
enum class Verdict { Verified, BenignRace, Race, Divergence, Oob, Unknown, Unsupported, Error };

inline const char *verdictName(Verdict v) {
  switch (v) {
    case Verdict::Verified: return "verified";
    case Verdict::BenignRace: return "benign-race";
    case Verdict::Race: return "race";
    case Verdict::Divergence: return "divergence";
    case Verdict::Oob: return "oob";
    case Verdict::Unknown: return "unknown";
    case Verdict::Unsupported: return "unsupported";
    case Verdict::Error: return "error";
  }
  return "error";
}

// One access (or barrier) a finding points at.
struct AccessRef {
  std::string kind;  // "read", "write", "atomic", or "barrier"
  model::SourceRange range;
  std::string text;  // the source text of the access, e.g. "sdata[tid + s]"
};

struct ThreadCoords {
  std::array<uint64_t, 3> thread_idx{};
  std::array<uint64_t, 3> block_idx{};
};

// A concrete counterexample read off the solver's model.
struct Witness {
  ThreadCoords thread1, thread2;  // thread2 is unused for oob
  std::array<uint64_t, 3> block_dim{};
  std::array<uint64_t, 3> grid_dim{};
  std::vector<std::pair<std::string, std::string>> params;  // parameter -> value
  std::vector<std::pair<std::string, std::string>> loops;   // "k (loop at 12:3)" -> value
  std::string index;       // the colliding (race) or out-of-range (oob) element index
  bool validated = false;  // re-evaluated at the model and confirmed
};

struct Finding {
  Verdict kind = Verdict::Race;  // BenignRace, Race, Divergence or Oob
  std::string array;             // empty for divergence
  std::string space;             // "shared" or "global"
  std::string message;           // "data race on 'sdata' (write/read)"
  std::string explanation;       // e.g. why warp-synchronous code races on sm_70+
  std::vector<AccessRef> accesses;  // first = the error location, rest = notes
  Witness witness;
};

// Code between two consecutive barriers, for the report.
struct Phase {
  model::SourceRange begin, end;  // the barriers (or kernel entry/exit) that bound it
  unsigned accesses = 0;
};

struct KernelResult {
  std::string file;
  std::string name;
  model::SourceRange range;
  Verdict verdict = Verdict::Verified;
  double time_ms = 0;
  std::vector<Finding> findings;
  std::vector<Phase> phases;
  std::vector<std::string> assumptions;     // stated in the output, e.g. no aliasing
  std::vector<model::Unsupported> unsupported;
  std::string unknown_query;                // which query timed out / returned unknown
  std::string premise_error;  // the launch and the assumptions contradict each other
  std::vector<AccessRef> unreachable;  // accesses and barriers no thread reaches
  std::vector<model::Diagnostic> diagnostics;  // Error: clang's diagnostics
};

struct RunResult {
  std::vector<KernelResult> kernels;
  std::vector<model::SkippedKernel> skipped;
};

}  // namespace kverify::analysis
