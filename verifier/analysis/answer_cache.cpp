// The process's solver answers by query (see answer_cache.hpp).
#include "analysis/answer_cache.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

namespace kverify::analysis {
namespace {

struct Entry {
  z3::expr_vector terms;  // keeps the key's ids alive in the cache's context
  z3::check_result result = z3::unknown;
  std::optional<z3::model> model;
  double seconds = 0;  // for unknown: how long it ran (a pending entry: 0, never found)
};

using Key = std::pair<std::string, std::vector<unsigned>>;

// An unknown answer stands for a time up to this much longer than it ran: the budgets
// of one step differ a little between instantiations (what the steps before it took).
constexpr double kLonger = 1.25;

// A full cache starts over, in a new context that frees the old one's terms.
constexpr size_t kMaxEntries = 20000;

struct State {
  std::mutex mu;
  std::unique_ptr<z3::context> ctx = std::make_unique<z3::context>();
  uint64_t generation = 1;
  std::map<Key, Entry> entries;
};

State &state() {
  static State s;
  return s;
}

}  // namespace

std::optional<CachedAnswer> AnswerCache::find(const z3::expr_vector &formulas, const std::string &how,
                                              double seconds, std::optional<Ticket> &ticket) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  try {
    if (s.entries.size() >= kMaxEntries) {
      s.entries.clear();
      s.ctx = std::make_unique<z3::context>();
      ++s.generation;
    }
    // a copy in the cache's context, simplified: `false || x` and `x` are one question
    // (equivalent terms, so a model of one is a model of the other)
    z3::expr_vector copy(*s.ctx, formulas), terms(*s.ctx);
    for (unsigned i = 0; i < copy.size(); ++i) terms.push_back(copy[i].simplify());
    Key key{how, {}};
    for (unsigned i = 0; i < terms.size(); ++i) key.second.push_back(terms[i].id());
    // a conjunction: its order and repeats do not change what satisfies it
    std::sort(key.second.begin(), key.second.end());
    key.second.erase(std::unique(key.second.begin(), key.second.end()), key.second.end());
    auto [it, added] = s.entries.try_emplace(key, Entry{terms, z3::unknown, std::nullopt, 0});
    const Entry &e = it->second;
    if (added || (e.result == z3::unknown && seconds > kLonger * e.seconds)) {
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

void AnswerCache::store(const Ticket &ticket, z3::check_result result, const z3::model *model,
                        double seconds) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (ticket.generation != s.generation) return;
  auto it = s.entries.find(Key{ticket.how, ticket.ids});
  if (it == s.entries.end()) return;
  Entry &e = it->second;
  try {
    if (result == z3::sat && !model) return;  // (a model is part of the answer)
    e.result = result, e.seconds = seconds, e.model.reset();
    if (model) e.model = z3::model(const_cast<z3::model &>(*model), *s.ctx, z3::model::translate{});
  } catch (const z3::exception &) { e.result = z3::unknown, e.seconds = 0, e.model.reset(); }
}

}  // namespace kverify::analysis
