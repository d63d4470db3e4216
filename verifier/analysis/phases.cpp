// The alignment pass (see phases.hpp).
#include "analysis/phases.hpp"
#include "model/walk.hpp"

#include <algorithm>

namespace kverify::analysis {
namespace {

using model::Stmt;
namespace st = model::stmt;

// Walks the body in program order, closing a phase at each block or grid barrier.
class Aligner {
public:
  explicit Aligner(const model::Kernel &k) : K(k) {
    out.kernel = &k;
    walk(k.body);
    out.phases.push_back(cur);
    out.phases.insert(out.phases.end(), back_edges.begin(), back_edges.end());
  }
  PhasedKernel out;

private:
  const model::Kernel &K;
  PhasedKernel::Phase cur;
  std::vector<PhasedKernel::Phase> back_edges;
  // events of the loop being walked: its accesses and barriers, in order
  std::vector<const Stmt *> *loop_events = nullptr;

  void walk(const model::Body &body) {
    for (const Stmt &s : body) stmt(s);
  }

  void stmt(const Stmt &s) {
    if (const auto *a = s.as<st::Access>()) {
      if (a->array < K.arrays.size() && (K.arrays[a->array].space == model::AddressSpace::Shared ||
                                         K.arrays[a->array].space == model::AddressSpace::Global)) {
        cur.accesses.push_back(&s);
        if (loop_events) loop_events->push_back(&s);
      }
    } else if (const auto *b = s.as<st::Barrier>()) {
      // a grid barrier synchronizes the block too (as in the analysis)
      if (b->kind == model::BarrierKind::Warp) return;
      cur.end = &s;
      out.phases.push_back(cur);
      cur = PhasedKernel::Phase{&s, nullptr, nullptr, {}};
      if (loop_events) loop_events->push_back(&s);
    } else if (const auto *l = s.as<st::Loop>()) {
      loop(s, *l);
    } else {
      for (const model::Body *c : model::children(s)) walk(*c);
    }
  }

  void loop(const Stmt &s, const st::Loop &l) {
    std::vector<const Stmt *> events, *outer = loop_events;
    loop_events = &events;
    walk(l.body);
    walk(l.step);
    loop_events = outer;
    if (outer) outer->insert(outer->end(), events.begin(), events.end());
    auto isBarrier = [](const Stmt *e) { return e->is<st::Barrier>(); };
    auto first = std::find_if(events.begin(), events.end(), isBarrier);
    if (first == events.end()) return;
    auto last = std::find_if(events.rbegin(), events.rend(), isBarrier).base() - 1;
    // around the loop: after its last barrier, then from its top to its first barrier
    PhasedKernel::Phase back{*last, *first, &s, {}};
    back.accesses.insert(back.accesses.end(), last + 1, events.end());
    back.accesses.insert(back.accesses.end(), events.begin(), first);
    back_edges.push_back(std::move(back));
  }
};

std::string where(const Stmt *barrier, const char *none) {
  if (!barrier) return none;
  return std::to_string(barrier->range.line) + ":" + std::to_string(barrier->range.col) + " " +
         barrier->as<model::stmt::Barrier>()->what;
}

}  // namespace

PhasedKernel alignPhases(const model::Kernel &kernel) { return Aligner(kernel).out; }

std::string toText(const PhasedKernel &phased) {
  std::string out =
      "kernel " + phased.kernel->name + ": " + std::to_string(phased.phases.size()) + " phases\n";
  for (size_t i = 0; i < phased.phases.size(); ++i) {
    const PhasedKernel::Phase &p = phased.phases[i];
    out += "phase " + std::to_string(i + 1) + ": " + where(p.begin, "entry") + " -> " + where(p.end, "exit");
    if (p.loop)
      out += " (back edge of the loop at " + std::to_string(p.loop->range.line) + ":" +
             std::to_string(p.loop->range.col) + ")";
    out += "\n";
    for (const Stmt *s : p.accesses) {
      const auto &a = *s->as<model::stmt::Access>();
      out += "  " + std::to_string(s->range.line) + ":" + std::to_string(s->range.col) + " " +
             model::accessKindName(a.kind) + " " + phased.kernel->arrays[a.array].name + "[" +
             model::toString(a.index) + "]\n";
    }
  }
  return out;
}

std::vector<Phase> reportPhases(const PhasedKernel &phased) {
  const model::Kernel &k = *phased.kernel;
  model::SourceRange exit = k.range;
  exit.line = k.range.end_line ? k.range.end_line : k.range.line;
  exit.col = k.range.end_col;
  std::vector<Phase> out;
  for (const PhasedKernel::Phase &p : phased.phases)
    out.push_back(Phase{p.begin ? p.begin->range : k.range, p.end ? p.end->range : exit,
                        static_cast<unsigned>(p.accesses.size())});
  return out;
}

}  // namespace kverify::analysis
