// The process's solver answers by query (see answer_cache.hpp).
#include "analysis/answer_cache.hpp"

#include "analysis/solve.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kverify::analysis {
namespace {

struct Entry {
  z3::expr_vector terms;  // keeps the key's ids alive in the cache's context
  z3::check_result result = z3::unknown;
  std::optional<z3::model> model;
  double seconds = 0;    // for unknown: how long it ran (a pending entry: 0, never found)
  bool solving = false;  // a thread was given the ticket to solve it and has not stored yet
};

using Key = std::pair<std::string, std::vector<unsigned>>;

// `formulas` with `true` and `false` folded out of their conjunctions and disjunctions,
// everywhere in them: the front end writes `pc || false` for some paths and `pc` for others,
// and `false || x` and `x` are one question (equivalent terms: a model of one is a model of
// the other). Z3's simplify() does this and much more, at a cost that doubled small files'
// solver time. An explicit stack, as in terms.hpp: terms nest deeper than the call stack
// allows. On Z3's C API: z3::expr's reference counting and error checks on every step
// cost more than the walk (a quarter of a one-line kernel's analysis).
z3::expr_vector foldedAll(const z3::expr_vector &formulas) {
  Z3_context c = formulas.ctx();
  z3::expr_vector made(formulas.ctx());      // keeps the terms made here alive
  std::unordered_map<unsigned, Z3_ast> now;  // each term walked, as folded
  auto folded = [&](Z3_ast a) {
    auto it = now.find(Z3_get_ast_id(c, a));
    return it == now.end() ? a : it->second;
  };
  std::vector<std::pair<Z3_ast, bool>> stack;  // (term, its arguments pushed)
  for (unsigned i = 0; i < formulas.size(); ++i) stack.emplace_back(formulas[i], false);
  std::vector<Z3_ast> args;
  while (!stack.empty()) {
    auto [a, pushed] = stack.back();
    const unsigned id = Z3_get_ast_id(c, a);
    if (Z3_get_ast_kind(c, a) != Z3_APP_AST || now.count(id)) {
      stack.pop_back();
      continue;
    }
    Z3_app app = Z3_to_app(c, a);
    const unsigned n = Z3_get_app_num_args(c, app);
    if (!pushed && n > 0) {
      stack.back().second = true;
      for (unsigned i = 0; i < n; ++i) stack.emplace_back(Z3_get_app_arg(c, app, i), false);
      continue;
    }
    stack.pop_back();
    const Z3_decl_kind k = Z3_get_decl_kind(c, Z3_get_app_decl(c, app));
    const bool junction = k == Z3_OP_AND || k == Z3_OP_OR;
    const Z3_lbool unit = k == Z3_OP_AND ? Z3_L_TRUE : Z3_L_FALSE;  // the operand that changes nothing
    args.clear();
    bool changed = false, absorbed = false;
    for (unsigned i = 0; i < n; ++i) {
      Z3_ast arg = Z3_get_app_arg(c, app, i), f = folded(arg);
      changed |= f != arg;
      if (junction && Z3_get_bool_value(c, f) != Z3_L_UNDEF) {
        changed = true;
        absorbed |= Z3_get_bool_value(c, f) != unit;
        continue;
      }
      args.push_back(f);
    }
    Z3_ast out = a;
    if (junction && (absorbed || args.size() < 2))
      out = absorbed       ? (k == Z3_OP_OR ? Z3_mk_true(c) : Z3_mk_false(c))
            : args.empty() ? (k == Z3_OP_AND ? Z3_mk_true(c) : Z3_mk_false(c))
                           : args[0];
    else if (changed)
      out = junction ? (k == Z3_OP_AND ? Z3_mk_and : Z3_mk_or)(c, args.size(), args.data())
                     : Z3_mk_app(c, Z3_get_app_decl(c, app), args.size(), args.data());
    if (!out) throw z3::exception("out of memory");  // (Z3 made no term)
    if (out != a) made.push_back(z3::expr(formulas.ctx(), out));
    now.emplace(id, out);
  }
  z3::expr_vector out(formulas.ctx());
  for (unsigned i = 0; i < formulas.size(); ++i) out.push_back(z3::expr(formulas.ctx(), folded(formulas[i])));
  return out;
}

// An unknown answer stands for a time up to this much longer than it ran: the budgets
// of one step differ a little between instantiations (what the steps before it took).
constexpr double kLonger = 1.25;

// The cache's context costs ~6 ms to make, and a file of a few quick queries would pay it
// for nothing: it is made for the first answer that took this long, or once the process has
// asked this many queries (a file of many small kernels repeats its queries: 1,000 one-line
// kernels, each with a witness search, 33 -> 6 ms a kernel). Then every answer is kept.
constexpr double kWorthKeeping = 0.02;
constexpr unsigned kManyQueries = 64;

// A full cache starts over, in a new context that frees the old one's terms: at this many
// entries, or past an eighth of Z3's memory limit (--max-memory; 512 MiB without one), so
// that the copies it keeps do not take the memory the solver needs. Under a limit below
// 1 GiB, nothing is kept (0).
constexpr size_t kMaxEntries = 20000;

uint64_t maxBytes() {
  static const uint64_t bytes = [] {
    Z3_string value = nullptr;
    uint64_t mib = 0;
    if (Z3_global_param_get("memory_max_size", &value) && value) mib = std::strtoull(value, nullptr, 10);
    if (mib == 0) mib = 4096;
    return mib < 1024 ? 0 : (mib << 20) / 8;
  }();
  return bytes;
}

struct State {
  std::mutex mu;
  std::condition_variable answered;  // an entry stopped solving, or the cache started over
  std::unique_ptr<Z3Context> ctx;    // made for the first answer worth keeping
  uint64_t generation = 0;
  std::map<Key, Entry> entries;
  uint64_t bytes = 0;                // Z3's allocations while copying into ctx (an estimate: other threads')
  unsigned asked = 0;                // answers stored before ctx was made
  std::atomic<bool> started{false};  // a context was made: queries are looked up

  // A new context when there is none or the cache is full (waiting threads go on first:
  // making one fails past --max-memory).
  void startIfFull() {
    if (ctx && entries.size() < kMaxEntries && bytes < maxBytes()) return;
    entries.clear();
    ++generation, bytes = 0;
    answered.notify_all();
    ctx.reset();
    ctx = std::make_unique<Z3Context>();
    started = true;
  }

  // `formulas` (folded) in the cache's context, and their key.
  std::pair<Key, z3::expr_vector> copy(const z3::expr_vector &formulas, const std::string &how) {
    const uint64_t before = Z3_get_estimated_alloc_size();
    z3::expr_vector terms(**ctx, formulas);
    Key key{how, {}};
    for (unsigned i = 0; i < terms.size(); ++i) key.second.push_back(terms[i].id());
    // a conjunction: its order and repeats do not change what satisfies it
    std::sort(key.second.begin(), key.second.end());
    key.second.erase(std::unique(key.second.begin(), key.second.end()), key.second.end());
    const uint64_t after = Z3_get_estimated_alloc_size();
    bytes += after > before ? after - before : 0;
    return {std::move(key), terms};
  }

  void set(Entry &e, z3::check_result result, const z3::model *model, double seconds) {
    if (result == z3::sat && !model) return;  // (a model is part of the answer)
    e.result = result, e.seconds = seconds, e.model.reset();
    if (model) e.model = z3::model(const_cast<z3::model &>(*model), **ctx, z3::model::translate{});
  }
};

State &state() {
  static State s;
  return s;
}

// The query in the cache's terms, from find() for the store() that follows a miss.
struct Ticket {
  std::string how;
  std::vector<unsigned> ids;  // the formulas' ids in the cache's context
  uint64_t generation = 0;    // of that context (a full cache starts a new one)
};

// The cached answer to `formulas` (foldedAll's), or nothing and `ticket` set: store() must
// follow.
std::optional<CachedAnswer> find(const z3::expr_vector &formulas, const std::string &how, double seconds,
                                 std::optional<Ticket> &ticket) {
  State &s = state();
  std::unique_lock<std::mutex> lock(s.mu);
  if (!s.ctx) return std::nullopt;
  try {
    s.startIfFull();
    const uint64_t generation = s.generation;
    auto [key, terms] = s.copy(formulas, how);
    s.entries.try_emplace(key, Entry{terms, z3::unknown, std::nullopt, 0});
    // asked by another thread (-j) that is solving it now: its answer, not a second search
    // (it stores one, unknown where it gave up, whatever happens: see ask)
    s.answered.wait(lock, [&] { return s.generation != generation || !s.entries.at(key).solving; });
    if (s.generation != generation) return std::nullopt;  // the cache started over meanwhile
    Entry &e = s.entries.at(key);
    if (e.seconds == 0 || (e.result == z3::unknown && seconds > kLonger * e.seconds)) {
      e.solving = true;
      ticket = Ticket{how, std::move(key.second), s.generation};
      return std::nullopt;
    }
    CachedAnswer a{e.result, std::nullopt};
    if (e.model)
      a.model = z3::model(const_cast<z3::model &>(*e.model), formulas.ctx(), z3::model::translate{});
    return a;
  } catch (const z3::exception &) {  // out of memory: the query is solved as if never seen
    return std::nullopt;
  }
}

// What the solver said to `formulas` having run for `seconds` of CPU time.
void store(const z3::expr_vector &formulas, const std::string &how, const std::optional<Ticket> &ticket,
           z3::check_result result, const z3::model *model, double seconds) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  try {
    if (ticket) {
      if (ticket->generation != s.generation) return;
      auto it = s.entries.find(Key{ticket->how, ticket->ids});
      if (it == s.entries.end()) return;
      it->second.solving = false;
      s.answered.notify_all();
      s.set(it->second, result, model, seconds);
      return;
    }
    if ((seconds < kWorthKeeping && ++s.asked < kManyQueries) || maxBytes() == 0) return;
    s.startIfFull();
    auto [key, terms] = s.copy(foldedAll(formulas), how);
    auto it = s.entries.try_emplace(key, Entry{terms, z3::unknown, std::nullopt, 0}).first;
    s.set(it->second, result, model, seconds);
  } catch (const z3::exception &) {  // out of memory: not kept
  }
}

}  // namespace

CachedAnswer AnswerCache::ask(const z3::expr_vector &formulas, const std::string &how, double seconds,
                              const std::function<CachedAnswer()> &solve, bool &before) {
  std::optional<Ticket> ticket;
  std::optional<CachedAnswer> cached;
  // (folded here, outside the cache's lock, and only once the cache is in use)
  if (state().started) cached = find(foldedAll(formulas), how, seconds, ticket);
  before = cached.has_value();
  if (cached) return *cached;
  const double t0 = threadSeconds();
  CachedAnswer answer;
  try {
    answer = solve();
  } catch (...) {  // (out of memory): threads waiting for this answer go on
    store(formulas, how, ticket, z3::unknown, nullptr, 0);
    throw;
  }
  store(formulas, how, ticket, answer.result, answer.model ? &*answer.model : nullptr, threadSeconds() - t0);
  return answer;
}

}  // namespace kverify::analysis
