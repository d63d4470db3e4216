// One kernel's analysis: the checks in order, the verdict, the notes.
#include "analysis/analysis.hpp"
#include "analysis/checker.hpp"
#include "analysis/local_webs.hpp"
#include "analysis/phases.hpp"
#include "analysis/solve.hpp"
#include "result/stats.hpp"
#include "model/walk.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>

namespace kverify::analysis {

using namespace detail;

// Writes to __constant__ memory: nvcc rejects them, so the kernel is in error.
static void constantWrites(const Kernel &k, std::vector<model::Diagnostic> &out) {
  model::forEachStmt(k.body, [&](const Stmt &s) {
    const auto *a = s.as<st::Access>();
    if (a && a->kind != AccessKind::Read && a->array < k.arrays.size() &&
        k.arrays[a->array].space == AddressSpace::Constant)
      out.push_back({"error",
                     "write to __constant__ memory '" + k.arrays[a->array].name +
                         "': constant memory is read-only in a kernel",
                     s.range});
  });
}

// A witness in a 2-D or 3-D block (grid) for a kernel that never reads threadIdx.y/.z
// (blockIdx.y/.z): the finding likely needs a launch the host code never makes. Say so,
// and how to state the launch.
void launchShapeNotes(const Kernel &kernel, const Options &options, std::vector<Finding> &findings) {
  using B = model::Builtin;
  std::set<B> read;  // the builtins the kernel reads anywhere
  model::forEachExpr(kernel.body, [&](const Expr &e) {
    if (const auto *b = e.as<ex::Builtin>()) read.insert(b->which);
  });
  for (Finding &f : findings) {
    const Witness &w = f.witness;
    std::string note;
    // (advice only where no option or launch of the file states the shape)
    bool block_free = !options.block_dim[1] && !options.block_dim[2];
    bool grid_free = !options.grid_dim[1] && !options.grid_dim[2];
    if (block_free && (w.block_dim[1] > 1 || w.block_dim[2] > 1) && !read.count(B::ThreadIdxY) &&
        !read.count(B::ThreadIdxZ))
      note = "the witness needs a " + std::string(w.block_dim[2] > 1 ? "3" : "2") +
             "-D block, but the kernel never reads threadIdx.y or .z: if its blocks are 1-D, say so "
             "with --block-dim=N (or a // kverify: comment)";
    else if (grid_free && (w.grid_dim[1] > 1 || w.grid_dim[2] > 1) && !read.count(B::BlockIdxY) &&
             !read.count(B::BlockIdxZ))
      note = "the witness needs a " + std::string(w.grid_dim[2] > 1 ? "3" : "2") +
             "-D grid, but the kernel never reads blockIdx.y or .z: if its grid is 1-D, say so "
             "with --grid-dim=N (or a // kverify: comment)";
    if (note.empty()) continue;
    f.explanation += (f.explanation.empty() ? "" : "; ") + note;
  }
}

KernelResult analyzeKernel(const model::Kernel &kernel, const Options &options) {
  return analyzeKernel(kernel, configure(options, "", kernel));
}

// What the verdict rests on: the encoding's premises, the launch, the --assume'd facts and
// the constructs the front end left unchecked.
static void listAssumptions(const model::Kernel &kernel, const KernelConfig &config, const Encoder &enc,
                            KernelResult &R) {
  using Kind = Assumption::Kind;
  for (const std::string &a : enc.assumptions) R.assumptions.push_back({Kind::Premise, a});
  if (!config.launch.empty()) R.assumptions.push_back({Kind::Launch, config.launch});
  for (const std::string &a : config.options.assumes) R.assumptions.push_back({Kind::Assumed, a});
  for (const model::Unsupported &u : kernel.unchecked)
    R.assumptions.push_back({Kind::NotChecked, u.construct + " at " + loc(u.range) + " (" + u.detail + ")"});
}

// The verdict once the checks have run, from their findings, undecided queries and
// unreachable code.
static void decideVerdict(const model::Kernel &kernel, const Options &options, KernelResult &R) {
  if (!R.premise_error.empty()) {
    R.verdict = Verdict::Error;
    R.diagnostics.push_back({"error", R.premise_error, kernel.range});
  } else if (!R.findings.empty()) {
    launchShapeNotes(kernel, options, R.findings);
    Verdict v = Verdict::Verified;
    for (const Finding &f : R.findings) v = std::max(v, f.kind);
    // A benign race says the kernel is otherwise race-free: an undecided query denies that.
    R.verdict = v == Verdict::BenignRace && !R.unknown_query.empty() ? Verdict::Unknown : v;
  } else if (!R.unknown_query.empty()) {
    R.verdict = Verdict::Unknown;
  } else if (!options.allow_unreachable &&
             std::any_of(R.unreachable.begin(), R.unreachable.end(),
                         [](const UnreachableRef &u) { return !u.by_construction; })) {
    R.verdict = Verdict::Vacuous;  // a proof about code no thread reaches proves nothing
  } else {
    R.verdict = Verdict::Verified;
  }
}

// The checks of a kernel the front end modelled in full, under the kernel's time budget:
// its encoding, the checks, then the verdict. What it throws (time spent before the
// checks, a barrier state too large, a solver error, no memory left) analyzeKernel turns
// into the verdict.
static void checkKernel(const model::Kernel &kernel, const KernelConfig &config, KernelResult &R) {
  const Options &options = config.options;
  KernelBudget budget(options.kernel_timeout_s);
  StatsRecorder stats(R.stats);
  std::optional<Stage> modelling(std::in_place, "model");
  const model::Kernel split = splitLocalWebs(kernel);  // one local per web of its values
  Encoder enc(split, config);
  enc.setup();
  Checker checker(enc, R);
  modelling.reset();
  try {
    checker.run();
  } catch (const KernelTimeSpent &) {  // the symbolic execution ran out of the kernel's time
    checker.noteUnknown("the symbolic execution of the kernel");
  }
  R.out_of_time = budget.ranOut();  // the queries it cut short are undecided
  R.rules = enc.rules;
  listAssumptions(kernel, config, enc, R);
  decideVerdict(kernel, options, R);
}

KernelResult analyzeKernel(const model::Kernel &kernel, const KernelConfig &config) {
  auto t0 = std::chrono::steady_clock::now();
  KernelResult R;
  R.file = kernel.file;
  R.name = kernel.name;
  R.range = kernel.range;
  R.phases = reportPhases(alignPhases(kernel));
  R.unsupported = kernel.unsupported;
  R.diagnostics = kernel.errors;  // compile errors in the kernel's code: nothing to model
  if (!config.error.empty())
    R.diagnostics.push_back({"error", config.error, kernel.range});  // no proof under it
  constantWrites(kernel, R.diagnostics);
  if (!R.diagnostics.empty()) {
    R.verdict = Verdict::Error;
  } else if (!kernel.unsupported.empty()) {
    R.verdict = Verdict::Unsupported;
  } else {
    try {
      checkKernel(kernel, config, R);
    } catch (const KernelTimeSpent &) {  // before the checks (checkKernel catches the symbolic execution's)
      R.verdict = Verdict::Unknown;
      R.out_of_time = true;
      R.unknown_query = "the preparation of the kernel's model (its locals' webs)";
    } catch (const BarrierStateTooLarge &e) {
      R.findings.clear(), R.unreachable.clear();
      R.verdict = Verdict::Unsupported;
      R.unsupported.push_back({"barrier structure", e.what, e.range});
    } catch (const z3::exception &e) {
      R.verdict = Verdict::Unknown;
      R.out_of_memory = std::string_view(e.msg()) == "out of memory";  // Z3's memory_max_size
      R.unknown_query = R.out_of_memory ? "the kernel" : std::string("solver error: ") + e.msg();
    } catch (const std::bad_alloc &) {  // past --max-memory: what was built is freed
      R.findings.clear(), R.unreachable.clear();
      R.verdict = Verdict::Unknown;
      R.out_of_memory = true;
      R.unknown_query = "the kernel";
    }
  }
  R.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return R;
}

}  // namespace kverify::analysis
