// The solving strategy (see solve.hpp).
#include "analysis/solve.hpp"
#include "analysis/debug.hpp"

#include "analysis/answer_cache.hpp"
#include "analysis/intabs.hpp"
#include "result/stats.hpp"
#include "analysis/terms.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <limits>
#include <mutex>
#include <sstream>
#include <set>
#include <thread>

#include <pthread.h>
#include <time.h>
#include <cstdio>
#include <cstdlib>

namespace kverify::analysis {
namespace {

class Attempts {
public:
  Attempts(double seconds, const std::string &name) : budget(seconds), name(name), t0(threadSeconds()) {}

  double left() const { return budget - (threadSeconds() - t0); }
  // solveOnce for at most `seconds` and the time left.
  z3::check_result solve(const z3::expr_vector &fs, double seconds, std::optional<z3::model> *m,
                         const char *tactic = nullptr, const char *logic = "QF_UFBV") {
    seconds = std::min(seconds, left());
    if (seconds <= 0.001) return z3::unknown;
    return solveOnce(fs, seconds, m, name, tactic, logic);
  }
  // Bit-vectors with the rest of the time: half of it bit-blasting where `blast`, the rest
  // by the solver for `logic` (bit-blasting stalls where removing functions blows up).
  z3::check_result rest(const z3::expr_vector &fs, std::optional<z3::model> *m, bool blast,
                        const char *logic) {
    if (blast)
      if (z3::check_result r = solve(fs, left() / 2, m, kBitBlast); r != z3::unknown) return r;
    return solve(fs, left(), m, nullptr, logic);
  }

private:
  double budget;
  std::string name;
  double t0;  // threadSeconds() at the start
};

// A tactic, or several separated by spaces applied in turn.
z3::tactic tacticOf(z3::context &c, const std::string &names) {
  std::optional<z3::tactic> t;
  std::istringstream words(names);
  for (std::string w; words >> w;) t = t ? *t & z3::tactic(c, w.c_str()) : z3::tactic(c, w.c_str());
  return *t;
}

// A fresh, non-incremental solver for `fs`: by `tactic` if given, else for `logic`.
z3::solver solverFor(const z3::expr_vector &fs, const char *tactic, const char *logic) {
  z3::solver S = tactic ? tacticOf(fs.ctx(), tactic).mk_solver() : freshSolver(fs.ctx(), logic);
  for (unsigned i = 0; i < fs.size(); ++i) S.add(fs[i]);
  return S;
}

void dump(z3::solver S, const std::string &name) {
  const std::string &dir = debugOptions().dump_dir;
  std::string path = dir + "/q" + std::to_string(nextDumpNumber()) + ".smt2";
  if (FILE *f = std::fopen(path.c_str(), "w")) {
    std::fprintf(f, "; %s\n%s", name.c_str(), S.to_smt2().c_str());
    std::fclose(f);
  }
}

}  // namespace

z3::check_result solveOnce(const z3::expr_vector &fs, double seconds, std::optional<z3::model> *m,
                           const std::string &name, const char *tactic, const char *logic) {
  if (!debugOptions().dump_dir.empty()) dump(solverFor(fs, tactic, logic), name);
  auto start = std::chrono::steady_clock::now();
  const std::string how =
      tactic ? std::string("tactic ") + tactic : std::string("logic ") + (logic ? logic : "");
  bool before = false;
  CachedAnswer a = AnswerCache::ask(
      fs, how, seconds,
      [&] {
        z3::solver S = solverFor(fs, tactic, logic);
        CachedAnswer fresh{checkWithin(S, seconds), std::nullopt};
        if (fresh.result == z3::sat) fresh.model = S.get_model();
        return fresh;
      },
      before);
  const z3::check_result r = a.result;
  if (a.model && m) *m = a.model;
  if (debugOptions().queries)
    std::fprintf(stderr, "[kverify]   %s %s: %s%s in %.1f ms\n",
                 tactic  ? tactic
                 : logic ? logic
                         : "default",
                 fs.size() == 1 ? "(1 formula)" : "", before ? "(answered before) " : "",
                 r == z3::sat     ? "sat"
                 : r == z3::unsat ? "unsat"
                                  : "unknown",
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  return r;
}

namespace {

// The bit-vector constants' values in a model of the (non-linear) integer abstraction,
// as equations: where the abstraction was exact they make the query's model easy to find.
z3::expr_vector valuesFrom(const z3::model &m, const z3::expr_vector &query) {
  z3::context &c = query.ctx();
  std::set<unsigned> seen;
  std::vector<z3::expr> consts;
  for (unsigned i = 0; i < query.size(); ++i) bvConstants({query[i]}, seen, consts);
  z3::expr_vector eqs(c);
  for (const z3::expr &x : consts) {
    z3::expr v = m.eval(c.int_const((x.decl().name().str() + "!i").c_str()), false);
    std::string digits;
    if (!v.is_numeral(digits)) continue;  // fixed by the query's facts, or unconstrained
    // the abstraction's value may be the signed reading: Z3 takes it modulo 2^w
    eqs.push_back(x == z3::to_expr(c, Z3_mk_int2bv(c, x.get_sort().bv_size(), c.int_val(digits.c_str()))));
  }
  return eqs;
}

}  // namespace

double threadSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// Z3's own "timeout" runs on a timer thread pool that can deadlock in the 4.8 releases
// Debian ships (Z3Prover/z3#5371, #5990): a thread of ours interrupts the check instead,
// repeating the interrupt until the check is over (one sent before it starts is lost).
// The budget is the solving thread's CPU time, so a loaded machine (a CI runner, `-j`)
// reaches the same verdicts as an idle one; a wall-clock limit of ten times as long (and
// a second) is kept as a safety net.
namespace {
struct BudgetState {
  double end = std::numeric_limits<double>::infinity();  // in threadSeconds()
  bool ran_out = false;
};
thread_local BudgetState budget;
z3::check_result checkWithinSeconds(z3::solver &s, double seconds, const z3::expr_vector *assumptions);
}  // namespace

KernelBudget::KernelBudget(double seconds) { budget = {threadSeconds() + seconds, false}; }
KernelBudget::~KernelBudget() { budget = {}; }
bool KernelBudget::ranOut() const { return budget.ran_out; }

// Out of the kernel's time: nothing more to build or ask (building a query's abstractions
// and asserting it cost as much as solving it on large kernels).
bool kernelTimeSpent() {
  if (threadSeconds() < budget.end) return false;
  budget.ran_out = true;
  return true;
}

z3::check_result checkWithin(z3::solver &s, double seconds, const z3::expr_vector *assumptions) {
  const double left = budget.end - threadSeconds();
  if (left <= 0) {
    budget.ran_out = true;
    return z3::unknown;
  }
  const bool cut = left < seconds;
  seconds = std::min(seconds, left);
  z3::check_result result = checkWithinSeconds(s, seconds, assumptions);
  if (cut && result == z3::unknown) budget.ran_out = true;
  return result;
}

namespace {
Z3_context makeContext() {
  Z3_config config = Z3_mk_config();
  Z3_context c = config ? Z3_mk_context_rc(config) : nullptr;
  if (config) Z3_del_config(config);
  if (!c) throw z3::exception("out of memory");
  return c;
}
}  // namespace

Z3Context::Z3Context() : raw_(makeContext()), scoped_(raw_) {}
// (the scoped context lets go of raw_ after this)
Z3Context::~Z3Context() { Z3_del_context(raw_); }

namespace {
thread_local std::unique_ptr<Z3Context> spare_context;  // (a thread analyses one kernel at a time)
}

KernelContext::KernelContext()
    : owned_(spare_context ? std::move(spare_context) : std::make_unique<Z3Context>()),
      unwinding_(std::uncaught_exceptions()) {}

// (not one whose analysis ended in an exception: Z3 may have run out of memory in it)
KernelContext::~KernelContext() {
  if (std::uncaught_exceptions() == unwinding_ && !spare_context) spare_context = std::move(owned_);
}

z3::solver freshSolver(z3::context &c, const char *logic) {
  return logic ? z3::solver(c, logic) : z3::solver(c);
}

namespace {
z3::check_result checkWithinSeconds(z3::solver &s, double seconds, const z3::expr_vector *assumptions) {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false, interrupted = false;
  z3::context &c = s.ctx();
  clockid_t solver_clock;
  bool cpu = pthread_getcpuclockid(pthread_self(), &solver_clock) == 0;
  auto cpuSeconds = [&] {
    timespec ts{};
    clock_gettime(solver_clock, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
  };
  const double cpu0 = cpu ? cpuSeconds() : 0;
  seconds = std::max(0.0, seconds);
  // (its stack counts against --max-memory: where none can be made, memory is out)
  auto watch = [&](auto body) {
    try {
      return std::thread(body);
    } catch (const std::system_error &) { throw std::bad_alloc(); }
  };
  std::thread watchdog = watch([&] {
    std::unique_lock<std::mutex> lock(mu);
    auto start = std::chrono::steady_clock::now();
    auto over = [&] {
      double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return cpu ? cpuSeconds() - cpu0 >= seconds || wall >= 10 * seconds + 1 : wall >= seconds;
    };
    while (!cv.wait_for(lock, std::chrono::milliseconds(2), [&] { return done; }))
      if (over()) break;
    // (every millisecond, not every ten: inside a tactic an interrupt can be lost, nlsat's
    // first one was, and the CPU until the next is spent on every query cut short)
    while (!cv.wait_for(lock, std::chrono::milliseconds(1), [&] { return done; })) {
      c.interrupt();
      interrupted = true;
    }
  });
  z3::check_result r = z3::unknown;
  try {
    r = assumptions ? s.check(*assumptions) : s.check();
  } catch (const z3::exception &) {
    r = z3::unknown;  // interrupted, out of memory, or a tactic that gave up
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    done = true;
  }
  cv.notify_one();
  watchdog.join();
  // (the last interrupt may have landed after the check returned: its answer stands, but
  // the context would stay cancelled)
  if (interrupted) clearInterrupt(c);
  return r;
}
}  // namespace

// Z3 resets a context's cancellation when a check starts: an empty one costs next to nothing.
void clearInterrupt(z3::context &c) {
  try {
    z3::solver(c).check();
  } catch (const z3::exception &) {}
}

z3::expr signedMulFits(const z3::expr &a, const z3::expr &b) {
  z3::context &c = a.ctx();
  unsigned w = a.get_sort().bv_size();
  // by a constant factor (most products): a range for the other one, no multiplier
  for (const auto &[x, f] : {std::pair{a, b}, std::pair{b, a}}) {
    uint64_t u;
    if (w > 64 || !f.is_numeral_u64(u)) continue;
    __int128 k = w < 64 && u >> (w - 1) ? __int128(u) - (__int128(1) << w) : __int128(int64_t(u));
    if (k == 0) return c.bool_val(true);
    __int128 lo = -(__int128(1) << (w - 1)), hi = (__int128(1) << (w - 1)) - 1;
    // x * k in [lo, hi] for x in [from, to] (integer division of positives floors)
    __int128 from = k > 0 ? -((-lo) / k) : -(hi / -k), to = k > 0 ? hi / k : (-lo) / -k;
    from = std::max(from, lo), to = std::min(to, hi);
    return z3::sge(x, c.bv_val(static_cast<int64_t>(from), w)) &&
           z3::sle(x, c.bv_val(static_cast<int64_t>(to), w));
  }
  // Z3's predicates otherwise, shielded from the bad folding (it only ever claims a
  // positive overflow, and only for a negative operand): a positive overflow needs equal
  // signs, and two negative factors (not INT_MIN) overflow as their negations do
  z3::expr zero = c.bv_val(0, w), min = z3::shl(c.bv_val(1, w), c.bv_val(w - 1, w));
  z3::expr na = z3::slt(a, zero), nb = z3::slt(b, zero);
  z3::expr no_pos_overflow =
      na != nb ||
      (a != min && b != min && z3::bvmul_no_overflow(z3::ite(na, -a, a), z3::ite(nb, -b, b), true));
  return z3::bvmul_no_underflow(a, b) && no_pos_overflow;
}

std::optional<z3::expr> shiftedOne(const z3::expr &e) {
  uint64_t one;
  if (e.is_app() && e.decl().decl_kind() == Z3_OP_BSHL && e.arg(0).is_numeral_u64(one) && one == 1)
    return e.arg(1);
  return std::nullopt;
}

namespace {
// A value built from `1 << s` by shifts: 0 where `zero`, else -(1 << s) where `negative`
// (the bits from s up: 1 << (w - 1) shifted right arithmetically), else 1 << s (one bit;
// 0 for s past the width, as `<<` gives).
struct PowerOfTwo {
  z3::expr zero, negative, s;
};

// (a loop over the chain of shifts: a hostile source nests them deeper than the stack allows)
std::optional<PowerOfTwo> powerOfTwo(z3::expr e) {
  std::vector<z3::expr> shifts;  // outermost first
  while (!shiftedOne(e)) {
    if (!e.is_app() || e.num_args() != 2) return std::nullopt;
    const Z3_decl_kind op = e.decl().decl_kind();
    if (op != Z3_OP_BASHR && op != Z3_OP_BLSHR) return std::nullopt;
    shifts.push_back(e);
    e = e.arg(0);
  }
  z3::context &c = e.ctx();
  const unsigned w = e.get_sort().bv_size();
  PowerOfTwo p{c.bool_val(false), c.bool_val(false), *shiftedOne(e)};
  for (auto it = shifts.rbegin(); it != shifts.rend(); ++it) {
    const z3::expr j = it->arg(1), zero = p.zero || z3::uge(p.s, c.bv_val(w, w));
    if (it->decl().decl_kind() == Z3_OP_BLSHR) {
      // one bit moves right, or out; the bits from s up would not stay a power of two
      if (!p.negative.is_false()) return std::nullopt;
      p = PowerOfTwo{zero || z3::ugt(j, p.s), p.negative, p.s - j};
      continue;
    }
    // arithmetic: a bit below the sign moves right, or out; the sign bit, or the bits from
    // s up, move right with the sign copied in, down to all ones (-(1 << 0))
    const z3::expr sign = !zero && (p.negative || p.s == c.bv_val(w - 1, w));
    p = PowerOfTwo{zero || (!sign && z3::ugt(j, p.s)), sign,
                   z3::ite(z3::ule(j, p.s), p.s - j, c.bv_val(0, w))};
  }
  return p;
}
}  // namespace

std::optional<PowerOfTwoProduct> timesPowerOfTwo(const z3::expr &x, const z3::expr &p) {
  std::optional<PowerOfTwo> two = powerOfTwo(p);
  if (!two) return std::nullopt;
  z3::context &c = x.ctx();
  const unsigned w = x.get_sort().bv_size();
  const z3::expr shifted = z3::shl(x, two->s), fits = signedShlFits(x, two->s);
  if (two->zero.is_false() && two->negative.is_false()) return PowerOfTwoProduct{shifted, fits};
  // x * -(1 << s): the negated shift; it fits where x << s fits and is not the most
  // negative value, or where x << s is exactly one past the largest (x = 1 << (w-1-s))
  const z3::expr min = z3::shl(c.bv_val(1, w), c.bv_val(w - 1, w));
  const z3::expr negative_fits =
      (fits && shifted != min) || (z3::uge(two->s, c.bv_val(1, w)) && z3::ule(two->s, c.bv_val(w - 1, w)) &&
                                   x == z3::shl(c.bv_val(1, w), c.bv_val(w - 1, w) - two->s));
  return PowerOfTwoProduct{z3::ite(two->zero, c.bv_val(0, w), z3::ite(two->negative, -shifted, shifted)),
                           two->zero || z3::ite(two->negative, negative_fits, fits)};
}

// (1 << k) is 2^k below the sign bit, the most negative value at it and 0 past the width.
z3::expr signedShlFits(const z3::expr &x, const z3::expr &k) {
  z3::context &c = x.ctx();
  unsigned w = x.get_sort().bv_size();
  z3::expr top = c.bv_val(w - 1, w);
  return z3::ite(z3::ult(k, top), z3::ashr(z3::shl(x, k), k) == x,
                 z3::ite(k == top, x == c.bv_val(0, w) || x == c.bv_val(1, w), c.bool_val(true)));
}

// Whether some term of `query` multiplies two non-constant bit-vectors.
static bool multipliesUnknowns(const z3::expr_vector &query) {
  std::vector<z3::expr> roots;
  for (unsigned i = 0; i < query.size(); ++i) roots.push_back(query[i]);
  return !forEachTerm(roots, [](const z3::expr &e) {
    if (e.decl().decl_kind() != Z3_OP_BMUL) return true;
    unsigned unknown = 0;
    for (unsigned i = 0; i < e.num_args(); ++i) unknown += !e.arg(i).is_numeral();
    return unknown < 2;
  });
}

// Bit-blasting (kBitBlast) removes functions by Ackermann's reduction: one constraint per
// pair of applications of a function. Past a thousand it takes longer than the solvers that
// reason about functions (a loop nest's havoc functions: 14,641 pairs in one query).
bool fewFunctionPairs(const z3::expr_vector &query) {
  z3::goal g(query.ctx());
  for (unsigned i = 0; i < query.size(); ++i) g.add(query[i]);
  return z3::probe(query.ctx(), "ackr-bound-probe")(g) <= 1000;
}

namespace {
// nlsat's time for the integer abstraction `f`: over the fixtures and the corpus (up to
// 2,500 terms) its 2,343 answers all came within 52 ms, and later not at all; but its
// preprocessing grows with the formula (39,000 terms: an answer at 0.22 s), so 10 us a term
double nlsatSeconds(const z3::expr &f) {
  z3::goal g(f.ctx());
  g.add(f);
  return std::max(0.05, 1e-5 * z3::probe(f.ctx(), "num-exprs")(g));
}

z3::expr_vector one(const z3::expr &e) {
  z3::expr_vector v(e.ctx());
  v.push_back(e);
  return v;
}

// A model of `query` under one of the `small` launches, bit-vectors briefly each.
bool underSmallLaunch(Attempts &A, const z3::expr_vector &query, const std::vector<z3::expr> &small,
                      bool blast, Decision &d) {
  for (const z3::expr &launch : small) {
    z3::expr_vector within(query.ctx());
    for (unsigned i = 0; i < query.size(); ++i) within.push_back(query[i]);
    within.push_back(launch);
    if (A.solve(within, 0.1, &d.model, blast ? kBitBlast : nullptr) == z3::sat) {
      d.result = z3::sat, d.how = "bv-small-launch";
      return true;
    }
  }
  return false;
}

Decision decideOnce(const z3::expr_vector &query, const std::map<unsigned, z3::expr> &no_overflow,
                    double seconds, const std::string &name, const Ladder &ladder) {
  Attempts A(seconds, name);
  Decision d;
  // the linear integer abstraction: unsat there is unsat here (within 0.21 s over the
  // fixtures and the corpus, 0.16 s over the kernel library but for two at 0.9 and 1.7 s; a
  // CuPy saxpy's took 0.33 s where Z3's terms came in another order: 0.5 s)
  auto linear = [&] {
    if (auto lin = integerAbstraction(query, no_overflow, true))
      if (A.solve(one(*lin), 0.5, nullptr, nullptr, "QF_UFLIA") == z3::unsat) {
        d.result = z3::unsat, d.how = "int-linear";
        return true;
      }
    return false;
  };
  if (ladder.linear_first && linear()) return d;
  // the non-linear abstraction, by nlsat: it answers in milliseconds or not at all (and
  // gives up at once on uninterpreted functions); its models suggest the bit-vector
  // query's model. `budget`: its time; false when it did not decide.
  // (made when first needed: most queries are decided by step 1 without it)
  std::optional<std::optional<z3::expr>> made;
  auto abstraction = [&]() -> const std::optional<z3::expr> & {
    if (!made) made = integerAbstraction(query, no_overflow);
    return *made;
  };
  auto nonlinear = [&](double budget) {
    if (!abstraction()) return false;
    std::optional<z3::model> im;
    z3::check_result r = A.solve(one(*abstraction()), budget, &im, "qfnra-nlsat");
    if (r == z3::unsat) {
      d.result = z3::unsat, d.how = "int-nlsat";
      return true;
    }
    if (r == z3::sat) {
      z3::expr_vector hinted = valuesFrom(*im, query);
      for (unsigned i = 0; i < query.size(); ++i) hinted.push_back(query[i]);
      if (A.solve(hinted, std::max(0.5, seconds / 10), &d.model) == z3::sat) {
        d.result = z3::sat, d.how = "bv-from-int";
        return true;
      }
    }
    return false;
  };
  const bool blast = fewFunctionPairs(query);
  // a query asked again with a few more side facts (its last model broke them): first the
  // step that found that model, not the ones that failed before it
  const std::string_view again = ladder.again;
  if (again == "bv2") {
    d.result = A.rest(query, &d.model, blast, nullptr);
    d.how = "bv2";
    return d;
  }
  if (again == "bv-small-launch" && underSmallLaunch(A, query, ladder.small, blast, d)) return d;
  // 0. nlsat, very briefly, where the query multiplies unknowns (bit-blasting a 32-bit
  // product takes longer than step 1 allows: `blockIdx.x * blockDim.x`)
  if (multipliesUnknowns(query) && abstraction() && nonlinear(0.02)) return d;
  // 1. bit-vectors, briefly: most queries are easy
  d.result = A.solve(query, ladder.bits, &d.model, blast ? kBitBlast : nullptr);
  d.how = "bv";
  if (d.result != z3::unknown) return d;
  // 2. the linear abstraction
  if (!ladder.linear_first && linear()) return d;
  // 2b. bit-vectors under a small launch, briefly each
  if (again != "bv-small-launch" && underSmallLaunch(A, query, ladder.small, blast, d)) return d;
  // 3. nlsat, briefly
  if (abstraction() && nonlinear(nlsatSeconds(*abstraction()))) return d;
  // 4. bit-vectors with the rest of the time, after bit-blasting by Z3's default solver (its
  // luck on the hard satisfiable queries is the one the fixtures' budgets were set with)
  d.result = A.rest(query, &d.model, blast, nullptr);
  d.how = "bv2";
  return d;
}

Decision findModelOnce(const z3::expr_vector &query, const std::map<unsigned, z3::expr> &no_overflow,
                       double seconds, double abstraction_share) {
  Attempts A(seconds, "reachability");
  Decision d;
  if (auto abs = integerAbstraction(query, no_overflow)) {
    std::optional<z3::model> im;
    z3::check_result r =
        A.solve(one(*abs), std::min(seconds * abstraction_share, nlsatSeconds(*abs)), &im, "qfnra-nlsat");
    if (r == z3::unsat) {  // the abstraction over-approximates: unsat there is unsat here
      d.result = z3::unsat, d.how = "int-nlsat";
      return d;
    }
    if (r == z3::sat) {
      z3::expr_vector hinted = valuesFrom(*im, query);
      for (unsigned i = 0; i < query.size(); ++i) hinted.push_back(query[i]);
      if (A.solve(hinted, seconds / 4, &d.model) == z3::sat) {
        d.result = z3::sat, d.how = "bv-from-int";
        return d;
      }
    }
  }
  d.result = A.rest(query, &d.model, fewFunctionPairs(query), "QF_UFBV");
  d.how = "bv";
  return d;
}

// One query, counted for --stats with its result and time.
// Answered from the cache where the same query was decided before: its sat or unsat is the
// query's whatever the attempts were (a model under a hint is a model), so the attempts
// and their abstractions are skipped.
template <class Ask>
Decision counted(const z3::expr_vector &query, double seconds, Ask ask) {
  if (kernelTimeSpent()) return {};
  const double t0 = threadSeconds();
  Decision d;
  bool before = false;
  CachedAnswer a = AnswerCache::ask(
      query, "decision", seconds,
      [&] {
        d = ask();
        return CachedAnswer{d.result, d.model};
      },
      before);
  if (before) d.result = a.result, d.model = a.model, d.how = "answered before";
  recordQuery(d.result == z3::unsat ? 0 : d.result == z3::sat ? 1 : 2, (threadSeconds() - t0) * 1000);
  return d;
}

}  // namespace

Decision decide(const z3::expr_vector &query, const std::map<unsigned, z3::expr> &no_overflow, double seconds,
                const std::string &name, const Ladder &ladder) {
  return counted(query, seconds, [&] { return decideOnce(query, no_overflow, seconds, name, ladder); });
}

Decision findModel(const z3::expr_vector &query, const std::map<unsigned, z3::expr> &no_overflow,
                   double seconds, double abstraction_share) {
  return counted(query, seconds,
                 [&] { return findModelOnce(query, no_overflow, seconds, abstraction_share); });
}

}  // namespace kverify::analysis
