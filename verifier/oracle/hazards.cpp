// The oracle's hazards: read off the traces of threads that all ran to their end.
//
// Divergence (per block): every thread passes the same sequence of block-level barriers
// (Block or Grid), compared by statement; a thread that ends while another waits, or two
// threads at different barrier statements at the same position, is a divergence (the
// earliest position, against thread 0 of the block). Warp barriers: the j-th warp barrier
// of lane a whose mask names lane b must meet the j-th warp barrier of lane b whose mask
// names lane a, at the same statement (only lanes that exist are checked). At most one
// divergence finding per block. Grid barriers: thread 0 of every block passes the same
// sequence of them as thread 0 of the first block run (one finding at most).
// A divergent block's races are still looked for, with intervals counted per thread as if
// the barriers had matched (keep it simple: the analysis stops at divergence, the tests
// allow that).
//
// Races, out-of-bounds accesses and writes to __constant__: races.cpp.
#include "oracle/trace.hpp"

#include <algorithm>
#include <sstream>

namespace kverify::oracle::detail {

using model::AccessKind;
using model::AddressSpace;
using model::BarrierKind;
using model::Stmt;
namespace st = model::stmt;

std::string where(const model::SourceRange &r) {
  if (!r.valid()) return "?";
  return std::to_string(r.line) + ":" + std::to_string(r.col);
}

std::string threadName(const ThreadId &t) {
  std::ostringstream o;
  o << "(" << t.thread[0] << "," << t.thread[1] << "," << t.thread[2] << ") of block (" << t.block[0] << ","
    << t.block[1] << "," << t.block[2] << ")";
  return o.str();
}

Site siteOf(const Trace &t, const Event *e) {
  Site s;
  s.thread = t.id;
  if (!e) return s;
  s.stmt = e->stmt;
  for (uint32_t i = e->iter_begin; i < e->iter_end; ++i)
    s.iterations.push_back({t.iterations[i].first->range, t.iterations[i].second});
  return s;
}

namespace {

bool blockLevel(const Stmt &s) {
  const auto *b = s.as<st::Barrier>();
  return b && b->kind != BarrierKind::Warp;
}
bool isWarp(const Stmt &s) {
  const auto *b = s.as<st::Barrier>();
  return b && b->kind == BarrierKind::Warp;
}
bool isGrid(const Stmt &s) {
  const auto *b = s.as<st::Barrier>();
  return b && b->kind == BarrierKind::Grid;
}

std::string stmtName(const Stmt *s) {
  if (!s) return "the end of the kernel";
  const std::string &what = s->as<st::Barrier>()->what;
  return (what.empty() ? std::string("barrier") : what) + " at " + where(s->range);
}

void blockDivergence(const std::vector<Trace> &block, std::vector<Finding> &findings) {
  if (block.empty()) return;
  std::vector<std::vector<const Event *>> seq(block.size());
  for (size_t t = 0; t < block.size(); ++t)
    for (const Event &e : block[t].events)
      if (blockLevel(*e.stmt)) seq[t].push_back(&e);
  size_t best_pos = SIZE_MAX, best_t = 0;
  for (size_t t = 1; t < block.size(); ++t) {
    size_t n = std::max(seq[0].size(), seq[t].size());
    for (size_t p = 0; p < n && p < best_pos; ++p) {
      const Event *a = p < seq[0].size() ? seq[0][p] : nullptr;
      const Event *b = p < seq[t].size() ? seq[t][p] : nullptr;
      if (!a || !b || a->stmt != b->stmt) {
        best_pos = p;
        best_t = t;
        break;
      }
    }
  }
  if (best_pos == SIZE_MAX) return;
  const Event *a = best_pos < seq[0].size() ? seq[0][best_pos] : nullptr;
  const Event *b = best_pos < seq[best_t].size() ? seq[best_t][best_pos] : nullptr;
  Finding f;
  f.kind = Kind::Divergence;
  f.index = static_cast<int64_t>(best_pos);
  f.first = siteOf(block[0], a);
  f.second = siteOf(block[best_t], b);
  f.message = "barrier divergence: at block-level barrier #" + std::to_string(best_pos) + " thread " +
              threadName(block[0].id) + " is at " + stmtName(a ? a->stmt : nullptr) + ", thread " +
              threadName(block[best_t].id) + " at " + stmtName(b ? b->stmt : nullptr);
  findings.push_back(f);
}

void warpDivergence(const std::vector<Trace> &block, std::vector<Finding> &findings) {
  // Warp barrier events per thread.
  std::vector<std::vector<const Event *>> warp(block.size());
  for (size_t t = 0; t < block.size(); ++t)
    for (const Event &e : block[t].events)
      if (isWarp(*e.stmt)) warp[t].push_back(&e);
  for (size_t base = 0; base < block.size(); base += 32) {
    size_t end = std::min(block.size(), base + 32);
    for (size_t a = base; a < end; ++a)
      for (size_t b = a + 1; b < end; ++b) {
        uint32_t la = static_cast<uint32_t>(a - base), lb = static_cast<uint32_t>(b - base);
        std::vector<const Event *> sa, sb;
        for (const Event *e : warp[a])
          if (e->mask >> lb & 1) sa.push_back(e);
        for (const Event *e : warp[b])
          if (e->mask >> la & 1) sb.push_back(e);
        size_t n = std::max(sa.size(), sb.size());
        for (size_t j = 0; j < n; ++j) {
          const Event *x = j < sa.size() ? sa[j] : nullptr;
          const Event *y = j < sb.size() ? sb[j] : nullptr;
          if (x && y && x->stmt == y->stmt) continue;
          Finding f;
          f.kind = Kind::Divergence;
          f.index = static_cast<int64_t>(j);
          f.first = siteOf(block[a], x);
          f.second = siteOf(block[b], y);
          f.message = "warp barrier divergence: lane " + std::to_string(la) + " (thread " +
                      threadName(block[a].id) + ") is at " + stmtName(x ? x->stmt : nullptr) + ", lane " +
                      std::to_string(lb) + " (thread " + threadName(block[b].id) + ") at " +
                      stmtName(y ? y->stmt : nullptr);
          findings.push_back(f);
          return;
        }
      }
  }
}

}  // namespace

void findBlockHazards(const model::Kernel &kernel, const Dim3 &, const std::vector<Trace> &block,
                      std::vector<Finding> &findings) {
  blockDivergence(block, findings);
  warpDivergence(block, findings);
  (void)kernel;
}

void findGridDivergence(const std::vector<std::vector<Trace>> &blocks, std::vector<Finding> &findings) {
  auto gridSeq = [](const Trace &t) {
    std::vector<const Event *> seq;
    for (const Event &e : t.events)
      if (isGrid(*e.stmt)) seq.push_back(&e);
    return seq;
  };
  if (blocks.empty() || blocks[0].empty()) return;
  const Trace &t0 = blocks[0][0];
  std::vector<const Event *> first = gridSeq(t0);
  for (size_t b = 1; b < blocks.size(); ++b) {
    if (blocks[b].empty()) continue;
    const Trace &tb = blocks[b][0];
    std::vector<const Event *> other = gridSeq(tb);
    for (size_t p = 0; p < std::max(first.size(), other.size()); ++p) {
      const Event *x = p < first.size() ? first[p] : nullptr, *y = p < other.size() ? other[p] : nullptr;
      if (x && y && x->stmt == y->stmt) continue;
      Finding f;
      f.kind = Kind::Divergence;
      f.index = static_cast<int64_t>(p);
      f.first = siteOf(t0, x);
      f.second = siteOf(tb, y);
      f.message = "grid barrier divergence: at grid barrier #" + std::to_string(p) + " thread " +
                  threadName(t0.id) + " is at " + stmtName(x ? x->stmt : nullptr) + ", thread " +
                  threadName(tb.id) + " at " + stmtName(y ? y->stmt : nullptr);
      findings.push_back(f);
      return;
    }
  }
}

}  // namespace kverify::oracle::detail
