#pragma once
// Deciding one query within a time budget: Z3's bit-vector solver, helped by the integer
// abstractions of intabs.hpp for the non-linear index arithmetic bit-blasting struggles with.
#include <z3++.h>

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace kverify::analysis {

struct Decision {
  z3::check_result result = z3::unknown;
  std::optional<z3::model> model;  // when sat: a model of the bit-vector query
  const char *how = "";            // which step decided (for --debug-queries)
};

// a * b (signed, equal widths) does not overflow. Not Z3's bvsmul_noovfl alone: Z3 4.8.12
// folds it wrongly once its operands are constants (-100 * 3 "overflows"), which would
// drop threads from every query where a value is known (tests/analysis/solve_test.cpp).
z3::expr signedMulFits(const z3::expr &a, const z3::expr &b);

// k where `e` is `1 << k` (a power of two the program made by shifting).
std::optional<z3::expr> shiftedOne(const z3::expr &e);

// x * (1 << k) (signed, equal widths) does not overflow: exactly signedMulFits(1 << k, x),
// without a multiplier for the solver to bit-blast.
z3::expr signedShlFits(const z3::expr &x, const z3::expr &k);

// x * p where p is a power of two the program made by shifting 1 left and then right
// (`offset *= 2` in one loop of a scan, `offset >>= 1` in the next): the product's bits and
// its no-overflow fact (signed), exactly those of x * p and signedMulFits(x, p), without a
// multiplier (bit-blasting 32-bit products of unknowns is most of such a kernel's solver
// time). None where p is not of that form.
struct PowerOfTwoProduct {
  z3::expr bits, fits;
};
std::optional<PowerOfTwoProduct> timesPowerOfTwo(const z3::expr &x, const z3::expr &p);

// CPU seconds the calling thread has run. Every time budget is in these (Z3 solves on the
// calling thread), so that verdicts, witnesses and notes do not depend on the machine's load.
double threadSeconds();

// A Z3 context whose making can fail without a crash: past --max-memory (Z3's
// memory_max_size) Z3 makes none, and z3::context would go on with the null it returns.
// This one throws z3::exception("out of memory") instead, which leaves a kernel `unknown`
// (out of memory).
class Z3Context {
public:
  Z3Context();
  ~Z3Context();
  Z3Context(const Z3Context &) = delete;
  Z3Context &operator=(const Z3Context &) = delete;
  z3::context &operator*() { return scoped_(); }

private:
  Z3_context raw_;
  z3::scoped_context scoped_;  // a z3::context over raw_ that does not delete it
};

// A context for one kernel's analysis: a spare one of the calling thread's, where it has
// one, else a new one. Making a context costs ~1.2 ms of CPU and 8 MiB, as much as a small
// kernel's whole analysis (a file of 10,000 one-line kernels). It is handed on with none
// of the kernel's terms left (they all die with its analysis) and no interrupt pending,
// and only after an analysis that ended normally.
// Answers are the query's whatever the context held before; which model a search meets
// first may differ, as it already does from run to run.
class KernelContext {
public:
  KernelContext();
  ~KernelContext();
  KernelContext(const KernelContext &) = delete;
  KernelContext &operator=(const KernelContext &) = delete;
  z3::context &operator*() { return **owned_; }

private:
  std::unique_ptr<Z3Context> owned_;
  int unwinding_;  // exceptions in flight when it was made
};

// A fresh solver for bit-vector queries (`logic` names another, e.g. "QF_UFLIA"; null:
// Z3's default solver). The default one spends ~5 ms per check probing what a query is
// (most queries here take under 1 ms); the solver for the logic skips that.
z3::solver freshSolver(z3::context &c, const char *logic = "QF_UFBV");

// Bit-blasting to the SAT solver right after the usual simplifications (functions
// removed by Ackermann's reduction): 1.4-4x faster than the QF_BV solver on most of this
// tool's queries (that solver tries more before bit-blasting); slow where a query applies
// functions to many different arguments (fewFunctionPairs). A `tactic` for solveOnce.
inline constexpr const char *kBitBlast = "simplify propagate-values solve-eqs ackermannize_bv bit-blast sat";
// Whether kBitBlast suits `query`: at most a thousand pairs of applications of one function.
bool fewFunctionPairs(const z3::expr_vector &query);

// One solver call on the conjunction of `fs`, for at most `seconds` of CPU time: by
// `tactic` if given, else by the solver for `logic` (null: Z3's default solver). A fresh,
// non-incremental solver each time: Z3's one-shot QF_BV strategy (preprocessing,
// bit-blasting) beats its incremental core here. Answered from the process's cache where
// the same query was asked before (answer_cache.hpp). `m`: set to a model when sat.
// `name` labels it for --dump-queries and --debug-queries.
z3::check_result solveOnce(const z3::expr_vector &fs, double seconds, std::optional<z3::model> *m,
                           const std::string &name, const char *tactic = nullptr,
                           const char *logic = "QF_UFBV");

// s.check() (under `assumptions`, if given) for at most `seconds` of the calling thread's
// CPU time (the same answer on a loaded machine); unknown when interrupted.
z3::check_result checkWithin(z3::solver &s, double seconds, const z3::expr_vector *assumptions = nullptr);
// Clears an interrupt that reached the context after its check had returned (Z3 would throw
// "canceled" from the next model, evaluation or simplification), keeping solvers and models.
void clearInterrupt(z3::context &c);

// The solver time left to the kernel analysed on this thread (--kernel-timeout): while a
// budget is in scope, every checkWithin on the thread stops where it runs out.
class KernelBudget {
public:
  explicit KernelBudget(double seconds);
  ~KernelBudget();
  KernelBudget(const KernelBudget &) = delete;
  KernelBudget &operator=(const KernelBudget &) = delete;
  bool ranOut() const;  // a check was cut short by it, or not asked at all
};

// Whether the kernel's time (KernelBudget) is spent: work that builds queries stops, and
// says what it did not decide.
bool kernelTimeSpent();

// Thrown by the symbolic execution once the kernel's time is spent (200 nested loops
// with a barrier grow their last-barrier sets without bound): the kernel is `unknown`.
struct KernelTimeSpent {};

// What decide() knows of a query beyond its formulas, to order its attempts.
struct Ladder {
  // the linear abstraction before the bit-vector solver (where it decided the kernel's last
  // query: its queries share their index arithmetic, and bit-blasting it was slow)
  bool linear_first = false;
  // facts that fix a small launch (one block, 1-D, ...), each tried briefly on a hard query:
  // a model under one is a model (huge grids slow the search for one down)
  std::vector<z3::expr> small;
  // the query is asked again with a few more side facts, and the last time its model came
  // from this step (Decision::how): that step first
  const char *again = "";
  // the first, brief bit-blasting's time: most queries are easy. A batch over all pairs or
  // accesses of an array gets 0.25 s: its bit-blasting is larger (the Blelloch scan's race
  // batch took 0.2 s; 0.1 s cost it 0.3 s of other attempts first), and over the fixtures
  // and the corpus the longer first try cost nothing in total
  double bits = 0.1;
};

// `no_overflow` as in integerAbstraction. `name` only labels dumped queries
// (--dump-queries=DIR writes each solver call as SMT-LIB).
Decision decide(const z3::expr_vector &query, const std::map<unsigned, z3::expr> &no_overflow, double seconds,
                const std::string &name, const Ladder &ladder = {});

// For queries that are usually satisfiable (is this statement reachable?): first a model
// of the non-linear integer abstraction (for `abstraction_share` of the time, at most what
// nlsat answers within), tried on the bit-vector query with its values fixed (no
// bit-blasted search), then the bit-vector solver with the rest of the time. `how` is
// "bv" where the abstraction did not decide.
Decision findModel(const z3::expr_vector &query, const std::map<unsigned, z3::expr> &no_overflow,
                   double seconds, double abstraction_share = 0.25);

}  // namespace kverify::analysis
