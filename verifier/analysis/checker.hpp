#pragma once
// The queries about two symbolic threads: divergence, races, bounds, reachability, and
// the witnesses of what they find.
#include "analysis/exec.hpp"
#include "analysis/solve.hpp"
#include "analysis/symbol_sets.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kverify::analysis::detail {

std::string accessText(const st::Access &a, const Kernel &k);
// where a statement is: its kind, text, range and the calls it was inlined at (a walk of
// the kernel's body: the kind alone is refKind)
AccessRef refOf(const Stmt &s, const Kernel &k);
std::string refKind(const Stmt &s);
uint64_t num(const z3::model &m, const z3::expr &e);  // a model's value of a bit-vector or bool
std::string signedStr(uint64_t v, unsigned bits, bool is_signed);
// Marks in `used` the facts not used yet that m breaks; true when there is one.
bool markBroken(const z3::model &m, const std::vector<z3::expr> &facts, std::vector<bool> &used);
// m satisfies every fact: one evaluation of their conjunction, which visits shared subterms once.
bool satisfiesAll(const z3::model &m, const std::vector<z3::expr> &facts);

// The two symbolic threads every query is about, their facts, and one query under them:
// what the checks share. run() builds the threads and runs the checks in order.
class Checker {
public:
  Checker(Encoder &encoder, KernelResult &out) : enc(encoder), result(out) {}
  void run();

  Encoder &enc;
  KernelResult &result;
  std::optional<Thread> thread1, thread2;
  std::vector<z3::expr> launch, side;             // the launch's constraints; the threads' facts
  std::vector<std::string> launch_why, side_why;  // what each says (why code is unreachable)
  bool unknown = false;                           // some query was not decided (result.unknown_query)
  bool race_free_facts = false;  // the threads' facts include ones only a race-free kernel has
  unsigned unknowns = 0;         // how many

  // `quiet`: an unknown answer is not the kernel's (a batched query, asked pair by pair next).
  // `small`: a hard query is tried under smallLaunches() (not where a batch already was).
  z3::check_result check(const z3::expr &q, const std::string &name, std::optional<z3::model> &m,
                         double seconds = 0, bool quiet = false, bool small = true);
  // A query over all pairs (or accesses) of an array at once (quiet): 2 s (the decided ones
  // over the fixtures, the corpus and the kernel library took at most 1.9 s; one undecided
  // is asked pair by pair, as a third of the time spent on it showed: 3.4 s for nothing),
  // bit-blasted longer first (Ladder::bits).
  z3::check_result checkBatch(const z3::expr &q, const std::string &name, std::optional<z3::model> &m);
  // The batched query's model, where it satisfies `q`, else a query of its own; `batched`:
  // whether a batch was asked (its model, if any, is `batch`).
  z3::check_result checkOrReuse(const z3::expr &q, const std::string &name, std::optional<z3::model> &m,
                                const std::optional<z3::model> &batch, bool batched);
  Witness witness(const z3::model &m, const std::vector<const std::vector<LoopRef> *> &loops,
                  const std::vector<int> &which, const z3::expr &index, bool two);
  // `counters`: the loop iterations the finding names (witness loop counters, least first)
  void simplest(const z3::expr &q, std::optional<z3::model> &m, const std::vector<z3::expr> &counters = {});
  // The instances of the threads' array premises (KV_ASSUME_FORALL) at the elements the
  // facts `q` read: a query under `q` is under them too.
  std::vector<PremiseInstance> premiseInstances(const std::vector<z3::expr> &q) const;
  void addPremiseInstances(z3::expr_vector &q) const;
  // A finding whose witness did not hold at the model: no verdict but `unknown`.
  void notValidated(const std::string &what) { noteUnknown("witness validation of " + what); }
  // A query the solver did not decide: named in result.unknown_query (the first few, so a
  // finding reported beside it never hides what else stayed open).
  void noteUnknown(const std::string &query) {
    result.undecided.push_back(query);
    if (unknowns < 4)
      result.unknown_query += (result.unknown_query.empty() ? "" : "; ") + query;
    else if (unknowns == 4)
      result.unknown_query += "; and more";
    ++unknowns;
    unknown = true;
  }
  z3::expr sameBlock() {
    return thread1->bid[0] == thread2->bid[0] && thread1->bid[1] == thread2->bid[1] &&
           thread1->bid[2] == thread2->bid[2];
  }
  z3::expr distinctThreads() {
    return thread1->tid[0] != thread2->tid[0] || thread1->tid[1] != thread2->tid[1] ||
           thread1->tid[2] != thread2->tid[2];
  }
  z3::expr linear(const Thread &T) {
    return T.tid[0] + T.tid[1] * enc.bdim[0] + T.tid[2] * enc.bdim[0] * enc.bdim[1];
  }
  z3::expr sameWarp() {
    return z3::udiv(linear(*thread1), enc.u32(32)) == z3::udiv(linear(*thread2), enc.u32(32));
  }
  z3::expr lane(const Thread &T) { return z3::urem(linear(T), enc.u32(32)); }
  z3::expr sameEvent(const AccessEv &a, const AccessEv &b);
  // Launches where a hard query's model is quick to find, if it has one there: one 1-D
  // block; a 1-D grid of 1-D blocks; one small 3-D block (the dimensions the launch leaves
  // open).
  std::vector<z3::expr> smallLaunches() const;
  std::vector<z3::expr> small_launches;  // smallLaunches(), made once by run()

private:
  z3::check_result ask(const z3::expr &q, const std::string &name, std::optional<z3::model> &m,
                       double seconds, bool quiet, bool small, double bits);
  SymbolSets symbols;
  std::vector<SymbolSets::Set> sideSymbols;
  std::vector<bool> isPremise;
  bool linear_first = false;  // the last query was decided by the linear abstraction (decide)
  SymbolSets::Set launchSymbols;
  void useThreads(bool shared_trips);
  bool premisesHold();
  std::vector<z3::expr> sharedReads();
  std::vector<z3::expr> rereads(const Thread &T);
  // The seqs of each array's writes in one thread's trace, sorted.
  struct WritesIndex {
    explicit WritesIndex(const Thread &T);
    std::map<unsigned, std::vector<int>> seqs;
    bool between(unsigned array, const AccessEv &a, const AccessEv &b) const;
  };
  std::vector<z3::expr> tickets();
  std::vector<z3::expr> blockTickets();
};

// Barrier divergence: two threads that disagree on reaching a barrier (divergence_check.cpp).
class DivergenceCheck {
public:
  explicit DivergenceCheck(Checker &c) : checker(c) {}
  // its findings, in the order found (Checker::run appends them to the result)
  std::vector<Finding> run();
  // those found so far: where run() throws (a solver error), the ones before it
  const std::vector<Finding> &found() const { return found_; }

private:
  Checker &checker;
  std::vector<Finding> found_;
  Finding divergenceFinding(const SyncEv &a, const SyncEv &b, const z3::model &m, bool grid);
  bool laneOutsideMask(const SyncEv &a);
};

class Publications;  // message_passing.hpp

// Data races (race_check.cpp).
class RaceCheck {
public:
  explicit RaceCheck(Checker &c) : checker(c) {}
  // its findings, in the order found (Checker::run appends them to the result)
  std::vector<Finding> run();
  // those found so far: where run() throws (a solver error), the ones before it
  const std::vector<Finding> &found() const { return found_; }

private:
  Checker &checker;
  std::vector<Finding> found_;
  std::optional<std::map<int, std::optional<z3::expr>>> lanes_;      // barrierLanes, once asked
  std::optional<std::map<int, std::vector<size_t>>> after_barrier_;  // phaseMates: by barrier
  const Publications *publications_ = nullptr;                       // during run()
  std::vector<size_t> partial_syncs_;  // the partial-mask __syncwarp events (maskOrdered)
  // A pair of accesses that may race (mayRace): thread 1's access i, thread 2's j
  struct Pair {
    size_t i, j;
    // both execute and overlap; unordered threads of one block; of two blocks (global
    // memory: only a grid barrier orders them)
    z3::expr both, intra, inter;
  };
  // The pairs on one array (or two that may alias) not asked about yet, and what was found
  struct ArrayPairs {
    std::vector<Pair> pending;
    bool raced = false;             // a real race: its finding is in found_
    std::optional<Finding> benign;  // else the first benign race
  };
  static constexpr size_t kPairsPerBatch = 4096;
  ArrayPairs *current_ = nullptr;  // during checkArrays
  void findPartialSyncs();
  std::vector<size_t> phaseMates(size_t i);
  std::optional<Pair> mayRace(size_t i, size_t j, Publications &publications);
  void checkArrays(const std::pair<unsigned, unsigned> &arrays, ArrayPairs &ap);
  z3::expr maskOrdered(const AccessEv &a, const AccessEv &b);
  z3::expr partOrdered(const AccessEv &a, const AccessEv &b);
  std::optional<z3::expr> barrierLanes(int id);
  std::map<int, std::optional<z3::expr>> allBarrierLanes();
  bool launchInvariant(const z3::expr &e, const Thread &T);
  bool racePair(const AccessEv &a, const AccessEv &b, const z3::expr &both, const z3::expr &intra,
                const z3::expr &inter, const std::optional<z3::model> &batch, bool batched);
  bool sameValueWritten(const AccessEv &a, const AccessEv &b, const z3::expr &racing,
                        const std::string &qname, std::optional<z3::model> &m, z3::expr &used);
  bool readsOwnValue(const AccessEv &a, const AccessEv &b, const z3::expr &racing, const std::string &qname,
                     std::optional<z3::model> &m, z3::expr &used);
  z3::check_result checkNearRace(const z3::expr &q, const z3::expr &racing,
                                 const std::optional<z3::model> &race, const std::string &name,
                                 std::optional<z3::model> &m);
  z3::expr surelySamePhases(const AccessEv &x, const AccessEv &y);
  z3::expr sameOuterIterations(const AccessEv &x, const AccessEv &y);
  bool sameInstance(const AccessEv &a, const AccessEv &b, const z3::model &m);
  Finding raceFinding(const AccessEv &a, const AccessEv &b, const z3::model &m, const std::string &benign,
                      bool warpOnly);
  bool raceWitnessHolds(const AccessEv &a, const AccessEv &b, const z3::model &m, const z3::expr &used);
  // Without the no-alias assumption two global arrays may overlap at any distance
  // (encoder.cpp): their accesses collide where their bytes overlap.
  bool mayAlias(const model::Array &a, const model::Array &b) const {
    return detail::mayAlias(checker.enc.options, a, b);
  }
  z3::expr base(const model::Array &a) { return checker.enc.ctx.bv_const(("base of " + a.name).c_str(), 64); }
  z3::expr overlap(const AccessEv &a, const AccessEv &b);
};

// Out-of-bounds accesses of shared arrays of known size (bounds_check.cpp).
class BoundsCheck {
public:
  explicit BoundsCheck(Checker &c) : checker(c) {}
  // its findings, in the order found (Checker::run appends them to the result)
  std::vector<Finding> run();
  // those found so far: where run() throws (a solver error), the ones before it
  const std::vector<Finding> &found() const { return found_; }

private:
  Checker &checker;
  std::vector<Finding> found_;
  bool outOfBounds(const AccessEv &a, const z3::expr &q, const std::optional<z3::model> &batch, bool batched);
};

// Code no thread reaches under the launch and the assumptions, and the facts that make it
// so: a proof about it is vacuous (reachability.cpp).
class UnreachableCode {
public:
  explicit UnreachableCode(Checker &c) : checker(c) {}
  void run();

private:
  Checker &checker;
  struct Facts {
    std::vector<z3::expr> fact;
    std::vector<std::string> why;
    std::vector<bool> used;     // in the queries so far
    std::vector<bool> thread2;  // about thread 2's symbols (leaveOutThread2)
  };
  // A statement's path: the one asked about (thread 1's, or either thread's), and either
  // thread's (which a model must execute to retire the statement)
  struct Path {
    z3::expr asked, either;
  };
  using Pending = std::map<const Stmt *, Path>;
  Facts facts() const;
  std::vector<z3::expr> hints() const;
  void leaveOutThread2(Facts &F, const std::vector<z3::expr> &terms);
  z3::model withThread2(const z3::model &m) const;
  bool retire(const z3::model &m, Facts &F, Pending &pending) const;
  bool batches(Facts &F, Pending &pending);
  bool oneByOne(Facts &F, Pending &pending);
  std::vector<z3::func_decl> thread2_symbols;  // those of the facts and paths (withThread2)
  void explain(const Facts &F, const std::vector<const Stmt *> &dead,
               const std::map<const Stmt *, z3::expr> &first);
};

}  // namespace kverify::analysis::detail
