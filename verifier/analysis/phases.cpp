// Barrier phases for the report (see phases.hpp).
#include "analysis/phases.hpp"

namespace kverify::analysis {
namespace {

using model::Stmt;

// The kernel flattened to its memory accesses and block barriers, in program order.
struct Event {
  bool barrier;
  model::SourceRange range;
};

class Flatten {
public:
  explicit Flatten(const model::Kernel &k) : K(k) { walk(k.body); }
  std::vector<Event> events;
  std::vector<std::pair<size_t, size_t>> loops;  // [first, last) events of loops with barriers

private:
  const model::Kernel &K;
  void walk(const std::vector<Stmt> &body) {
    for (const Stmt &s : body) switch (s.kind) {
      case Stmt::Kind::Access:
        if (s.array < K.arrays.size() && (K.arrays[s.array].space == model::AddressSpace::Shared ||
                                          K.arrays[s.array].space == model::AddressSpace::Global))
          events.push_back({false, s.range});
        break;
      case Stmt::Kind::Barrier:
        // a grid barrier synchronizes the block too (as in the analysis)
        if (s.barrier == model::BarrierKind::Block || s.barrier == model::BarrierKind::Grid)
          events.push_back({true, s.range});
        break;
      case Stmt::Kind::If:
        walk(s.then_body);
        walk(s.else_body);
        break;
      case Stmt::Kind::Inlined: walk(s.body); break;
      case Stmt::Kind::Loop: {
        size_t first = events.size();
        walk(s.body);
        walk(s.step);
        for (size_t i = first; i < events.size(); ++i)
          if (events[i].barrier) {
            loops.emplace_back(first, events.size());
            break;
          }
        break;
      }
      default: break;
    }
  }
};

}  // namespace

std::vector<Phase> barrierPhases(const model::Kernel &kernel) {
  Flatten f(kernel);
  model::SourceRange entry = kernel.range, exit = kernel.range;
  exit.line = kernel.range.end_line ? kernel.range.end_line : kernel.range.line;
  exit.col = kernel.range.end_col;
  std::vector<Phase> phases;
  Phase cur{entry, {}, 0};
  for (const Event &e : f.events) {
    if (!e.barrier) {
      ++cur.accesses;
      continue;
    }
    cur.end = e.range;
    phases.push_back(cur);
    cur = Phase{e.range, {}, 0};
  }
  cur.end = exit;
  phases.push_back(cur);
  // back edges: from a loop's last barrier round to its first
  for (auto [first, last] : f.loops) {
    size_t b0 = first, b1 = last - 1;
    while (!f.events[b0].barrier) ++b0;
    while (!f.events[b1].barrier) --b1;
    Phase back{f.events[b1].range, f.events[b0].range, 0};
    back.accesses = static_cast<unsigned>((b0 - first) + (last - 1 - b1));
    phases.push_back(back);
  }
  return phases;
}

}  // namespace kverify::analysis
