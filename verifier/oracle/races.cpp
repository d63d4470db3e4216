// The oracle's races, out-of-bounds shared accesses and writes to __constant__, read off
// the traces of threads that all ran to their end.
//
// Races: two accesses to one Shared or Global array by distinct threads, overlapping
// element ranges, at least one not a read, not both atomic (two atomics of different
// blocks are, when one of them is block-scoped: atomicAdd_block), and concurrent:
//   same block: the same number of block-level barriers passed before each, and, when the
//     threads are lanes a, b of one warp, the same number of warp barriers (within that
//     interval) whose mask names both a and b before each;
//   different blocks (Global only): the same number of Grid barriers passed before each.
// One race per array: the lowest colliding element, then the earliest pair found. Two
// writes that stored the same value are a BenignRace, reported only where the array has
// no other race; so is a read racing a write (both of one element) when the reading
// thread's last write to that element before the read, with no barrier of any kind
// between them, stored the same integer value: the read returns that value whichever
// write comes last.
// Oob: a Shared array of known size (not extern) accessed outside [0, size): the first
// such access in thread order, one per array. ConstantWrite: a write or atomic to a
// Constant array, one per array.
#include "oracle/trace.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace kverify::oracle::detail {

using model::AccessKind;
using model::AddressSpace;
using model::BarrierKind;
namespace st = model::stmt;

namespace {

// One access, for the race and bounds checks.
struct Acc {
  uint32_t block = 0;   // index into the blocks run
  uint32_t thread = 0;  // linear id in its block
  const Event *event = nullptr;
  AccessKind kind = AccessKind::Read;
  bool block_scoped = false;  // an atomic atomic only within its block (atomicAdd_block)
  uint32_t interval = 0;      // block-level barriers passed before it
  uint32_t grid_interval = 0;
  uint32_t wpos = 0, wstart = 0;  // warp barriers before it; before its interval began
  size_t pos = 0;                 // its event's index in the thread's trace
  // a read: its thread's last write or atomic to the element since its last barrier
  const Event *own_write = nullptr;
};

unsigned widthOf(const Event &e) { return std::max(e.stmt->as<st::Access>()->count, 1u); }

// The last of a thread's writes and atomics since its last barrier (`since`, in order)
// that touches any of the `count` units of `array` from `first`.
const Event *lastWriteTo(const std::vector<const Event *> &since, unsigned array, int64_t first,
                         unsigned count) {
  for (auto it = since.rbegin(); it != since.rend(); ++it) {
    const st::Access &w = *(*it)->stmt->as<st::Access>();
    int64_t lo = (*it)->index, hi = lo + static_cast<int64_t>(std::max(w.count, 1u));
    if (w.array == array && lo < first + static_cast<int64_t>(count) && first < hi) return *it;
  }
  return nullptr;
}

// A plain write's integer value and its width (values cut to it).
std::optional<std::pair<uint64_t, unsigned>> intStored(const Event &e) {
  const st::Access &a = *e.stmt->as<st::Access>();
  if (a.kind != AccessKind::Write || !a.value || !a.value->type.isIntegral() || !e.value) return std::nullopt;
  unsigned bits = a.value->type.bits;
  return std::make_pair(bits >= 64 ? *e.value : *e.value & ((uint64_t(1) << bits) - 1), bits);
}

// Two events at one location: the same first unit and width.
bool sameLocation(const Event &x, const Event &y) { return x.index == y.index && widthOf(x) == widthOf(y); }

// Two writes of one value to one location (not merely overlapping ones).
bool sameValueWritten(const Acc &x, const Acc &y) {
  if (x.kind != AccessKind::Write || y.kind != AccessKind::Write || !sameLocation(*x.event, *y.event))
    return false;
  auto vx = intStored(*x.event), vy = intStored(*y.event);
  return vx && vy && *vx == *vy;
}

// Read r and write w (of another thread) race, but r's thread wrote w's value to the
// location r reads (and w writes) earlier in the interval: r returns that value whichever
// write comes last.
bool readsOwnValue(const Acc &r, const Acc &w) {
  if (r.kind != AccessKind::Read || !r.own_write || !sameLocation(*r.event, *w.event) ||
      !sameLocation(*r.event, *r.own_write))
    return false;
  auto own = intStored(*r.own_write), other = intStored(*w.event);
  return own && other && *own == *other;
}

// Per thread: prefix[j][lane] = how many of its first j warp barriers name both its own
// lane and `lane`.
using Prefix = std::vector<std::array<uint32_t, 32>>;

// Every Shared and Global access of the traces, by array, with each thread's warp-barrier
// prefix; the first out-of-bounds Shared access and write to __constant__ of each array
// are findings on the way.
struct Accesses {
  std::vector<std::vector<Acc>> per_array;
  std::vector<std::vector<Prefix>> prefix;  // per block and thread
};

Finding oobFinding(const model::Array &arr, unsigned array, const Trace &t, const Event &e, int64_t lo) {
  const st::Access &s = *e.stmt->as<st::Access>();
  Finding f;
  f.kind = Kind::Oob;
  f.array = array;
  f.index = lo < 0 ? lo : std::max(lo, static_cast<int64_t>(*arr.size));
  f.first = siteOf(t, &e);
  f.message = "out-of-bounds " + std::string(model::accessKindName(s.kind)) + " of '" + arr.name +
              "' at element " + std::to_string(f.index) + " (size " + std::to_string(*arr.size) +
              ") by thread " + threadName(t.id) + " at " + where(e.stmt->range);
  return f;
}

Finding constantWriteFinding(const model::Array &arr, unsigned array, const Trace &t, const Event &e) {
  Finding f;
  f.kind = Kind::ConstantWrite;
  f.array = array;
  f.index = e.index;
  f.first = siteOf(t, &e);
  f.message = "write to __constant__ '" + arr.name + "' by thread " + threadName(t.id) + " at " +
              where(e.stmt->range);
  return f;
}

Accesses collectAccesses(const model::Kernel &kernel, const std::vector<std::vector<Trace>> &blocks,
                         std::vector<Finding> &findings) {
  const size_t narrays = kernel.arrays.size();
  Accesses out;
  out.per_array.resize(narrays);
  out.prefix.resize(blocks.size());
  std::vector<bool> oob_done(narrays), const_done(narrays);
  for (size_t bi = 0; bi < blocks.size(); ++bi) {
    const std::vector<Trace> &block = blocks[bi];
    out.prefix[bi].resize(block.size());
    for (size_t ti = 0; ti < block.size(); ++ti) {
      const Trace &t = block[ti];
      uint32_t lane = t.linear % 32;
      Prefix &px = out.prefix[bi][ti];
      px.push_back({});
      uint32_t interval = 0, grid_interval = 0, wstart = 0;
      std::vector<const Event *> writes_since;  // writes and atomics since the last barrier
      for (const Event &e : t.events) {
        if (const auto *b = e.stmt->as<st::Barrier>()) {
          writes_since.clear();
          if (b->kind == BarrierKind::Warp) {
            std::array<uint32_t, 32> next = px.back();
            if (e.mask >> lane & 1)
              for (uint32_t l = 0; l < 32; ++l) next[l] += e.mask >> l & 1;
            px.push_back(next);
          } else {
            ++interval;
            if (b->kind == BarrierKind::Grid) ++grid_interval;
            wstart = static_cast<uint32_t>(px.size() - 1);
          }
          continue;
        }
        const st::Access &s = *e.stmt->as<st::Access>();
        if (s.array >= narrays) continue;
        const model::Array &arr = kernel.arrays[s.array];
        int64_t lo = e.index, hi = e.index + static_cast<int64_t>(s.count);
        if (arr.space == AddressSpace::Shared && arr.size && !arr.is_extern && !oob_done[s.array] &&
            (lo < 0 || hi > static_cast<int64_t>(*arr.size))) {
          oob_done[s.array] = true;
          findings.push_back(oobFinding(arr, s.array, t, e, lo));
        }
        if (arr.space == AddressSpace::Constant && s.kind != AccessKind::Read && !const_done[s.array]) {
          const_done[s.array] = true;
          findings.push_back(constantWriteFinding(arr, s.array, t, e));
        }
        if (arr.space != AddressSpace::Shared && arr.space != AddressSpace::Global) continue;
        Acc a;
        a.block = static_cast<uint32_t>(bi);
        a.thread = static_cast<uint32_t>(ti);
        a.event = &e;
        a.kind = s.kind;
        a.block_scoped = s.kind == AccessKind::Atomic && s.scope == model::Scope::Block;
        a.interval = interval;
        a.grid_interval = grid_interval;
        a.wpos = static_cast<uint32_t>(px.size() - 1);
        a.wstart = wstart;
        a.pos = static_cast<size_t>(&e - t.events.data());
        if (s.kind == AccessKind::Read)
          a.own_write = lastWriteTo(writes_since, s.array, e.index, std::max(s.count, 1u));
        else
          writes_since.push_back(&e);
        out.per_array[s.array].push_back(a);
      }
    }
  }
  return out;
}

// Whether two accesses may happen at once: no barrier, flag or atomicity orders them.
struct Concurrency {
  const std::vector<std::vector<Trace>> &blocks;
  const std::vector<std::vector<Prefix>> &prefix;

  // w happens before r through a flag r's thread acquired from w's thread (Sync)
  bool published(const Acc &w, const Acc &r) const {
    const Trace &tw = blocks[w.block][w.thread], &tr = blocks[r.block][r.thread];
    return std::any_of(tr.syncs.begin(), tr.syncs.end(), [&](const Sync &s) {
      return s.writer.thread == tw.id.thread && s.writer.block == tw.id.block && w.pos < s.writes_before &&
             r.pos >= s.reads_from;
    });
  }

  bool operator()(const Acc &x, const Acc &y) const {
    if (x.kind == AccessKind::Read && y.kind == AccessKind::Read) return false;
    if (published(x, y) || published(y, x)) return false;
    if (x.kind == AccessKind::Atomic && y.kind == AccessKind::Atomic)  // atomic within their scope
      return x.block != y.block && (x.block_scoped || y.block_scoped) && x.grid_interval == y.grid_interval;
    if (x.block != y.block) return x.grid_interval == y.grid_interval;
    if (x.thread == y.thread) return false;
    if (x.interval != y.interval) return false;
    if (x.thread / 32 != y.thread / 32) return true;
    uint32_t la = x.thread % 32, lb = y.thread % 32;
    const Prefix &px = prefix[x.block][x.thread], &py = prefix[y.block][y.thread];
    uint32_t cx = px[x.wpos][lb] - px[x.wstart][lb];
    uint32_t cy = py[y.wpos][la] - py[y.wstart][la];
    return cx == cy;
  }
};

// The race one array reports: a real one at the lowest colliding element (the earliest
// pair there), else the first benign one found.
struct ArrayRace {
  bool real = false;
  int64_t index = 0;
  uint32_t x = 0, y = 0;  // into the array's accesses
};

class RaceSearch {
public:
  RaceSearch(const std::vector<Acc> &accs, bool shared, const Concurrency &concurrent)
      : accs(accs), shared(shared), concurrent(concurrent) {}

  std::optional<ArrayRace> run() {
    // (element, access) for every element each access covers; wide ranges are few and
    // checked against every access.
    std::vector<std::pair<int64_t, uint32_t>> cells;
    std::vector<uint32_t> wide;
    for (uint32_t i = 0; i < accs.size(); ++i) {
      unsigned count = accs[i].event->stmt->as<st::Access>()->count;
      if (count > 4096) {
        wide.push_back(i);
        continue;
      }
      for (unsigned c = 0; c < count; ++c) cells.push_back({accs[i].event->index + c, i});
    }
    std::sort(cells.begin(), cells.end());
    for (size_t b = 0; b < cells.size() && !found;) {
      size_t e = b;
      while (e < cells.size() && cells[e].first == cells[b].first) ++e;
      cell(cells, b, e);
      b = e;
    }
    for (uint32_t w : wide) {
      const Acc &x = accs[w];
      int64_t xlo = x.event->index, xhi = xlo + x.event->stmt->as<st::Access>()->count;
      for (uint32_t j = 0; j < accs.size(); ++j) {
        if (j == w) continue;
        const Acc &y = accs[j];
        int64_t ylo = y.event->index, yhi = ylo + y.event->stmt->as<st::Access>()->count;
        if (std::max(xlo, ylo) < std::min(xhi, yhi)) consider(w, j, std::max(xlo, ylo));
      }
    }
    if (found) return real;
    return benign;
  }

private:
  const std::vector<Acc> &accs;
  bool shared;
  const Concurrency &concurrent;
  bool found = false;
  ArrayRace real;
  std::optional<ArrayRace> benign;

  void consider(uint32_t i, uint32_t j, int64_t index) {
    const Acc &x = accs[i], &y = accs[j];
    if (shared && x.block != y.block) return;
    if (!concurrent(x, y)) return;
    if (sameValueWritten(x, y) || readsOwnValue(x, y) || readsOwnValue(y, x)) {
      if (!benign) benign = ArrayRace{false, index, std::min(i, j), std::max(i, j)};
      return;  // the same value: benign, unless a real race turns up
    }
    if (!found || index < real.index) {
      found = true;
      real = ArrayRace{true, index, std::min(i, j), std::max(i, j)};
    }
  }

  // The accesses of one element, cells[b..e): writers and atomics against everything in
  // it; reads among themselves never.
  void cell(const std::vector<std::pair<int64_t, uint32_t>> &cells, size_t b, size_t e) {
    std::vector<uint32_t> writes, atomics, reads;
    for (size_t k = b; k < e; ++k) {
      uint32_t i = cells[k].second;
      (accs[i].kind == AccessKind::Write    ? writes
       : accs[i].kind == AccessKind::Atomic ? atomics
                                            : reads)
          .push_back(i);
    }
    int64_t index = cells[b].first;
    for (size_t p = 0; p < writes.size() && !found; ++p) {
      for (size_t q = p + 1; q < writes.size() && !found; ++q) consider(writes[p], writes[q], index);
      for (uint32_t j : atomics) {
        if (found) break;
        consider(writes[p], j, index);
      }
      for (uint32_t j : reads) {
        if (found) break;
        consider(writes[p], j, index);
      }
    }
    for (size_t p = 0; p < atomics.size() && !found; ++p)
      for (uint32_t j : reads) {
        if (found) break;
        consider(atomics[p], j, index);
      }
    // a block-scoped atomic against the other atomics (of other blocks)
    auto scoped =
        std::find_if(atomics.begin(), atomics.end(), [&](uint32_t i) { return accs[i].block_scoped; });
    for (size_t q = 0; scoped != atomics.end() && q < atomics.size() && !found; ++q)
      if (atomics[q] != *scoped) consider(*scoped, atomics[q], index);
  }
};

}  // namespace

void findRaces(const model::Kernel &kernel, const Dim3 &, const std::vector<std::vector<Trace>> &blocks,
               std::vector<Finding> &findings) {
  Accesses all = collectAccesses(kernel, blocks, findings);
  const Concurrency concurrent{blocks, all.prefix};
  for (size_t ai = 0; ai < kernel.arrays.size(); ++ai) {
    const std::vector<Acc> &accs = all.per_array[ai];
    if (accs.empty()) continue;
    std::optional<ArrayRace> race =
        RaceSearch(accs, kernel.arrays[ai].space == AddressSpace::Shared, concurrent).run();
    if (!race) continue;
    const Acc &x = accs[race->x], &y = accs[race->y];
    const Trace &tx = blocks[x.block][x.thread], &ty = blocks[y.block][y.thread];
    Finding f;
    f.kind = race->real ? Kind::Race : Kind::BenignRace;
    f.array = static_cast<unsigned>(ai);
    f.index = race->index;
    f.first = siteOf(tx, x.event);
    f.second = siteOf(ty, y.event);
    f.message = std::string(race->real ? "" : "benign (one value) ") + "data race on '" +
                kernel.arrays[ai].name + "' element " + std::to_string(race->index) + ": " +
                model::accessKindName(x.kind) + " by " + threadName(tx.id) + " at " +
                where(x.event->stmt->range) + ", " + model::accessKindName(y.kind) + " by " +
                threadName(ty.id) + " at " + where(y.event->stmt->range);
    findings.push_back(f);
  }
}

}  // namespace kverify::oracle::detail
