// The oracle's entry point: checks the launch, runs every thread of the blocks asked for
// (interpret.cpp), and reads the hazards off their traces (hazards.cpp, races.cpp).
// The first thread (blocks in Launch::blocks order, threads in linear order) that does not
// run to its end decides the status; findings are only reported for Ok runs.
#include "oracle/trace.hpp"

#include <algorithm>

namespace kverify::oracle {

const char *kindName(Kind k) {
  switch (k) {
    case Kind::Race: return "race";
    case Kind::Divergence: return "divergence";
    case Kind::Oob: return "oob";
    case Kind::ConstantWrite: return "constant-write";
    case Kind::BenignRace: return "benign-race";
  }
  return "?";
}

const char *statusName(Result::Status s) {
  switch (s) {
    case Result::Status::Ok: return "ok";
    case Result::Status::Ub: return "ub";
    case Result::Status::Assumption: return "assumption";
    case Result::Status::StepLimit: return "step-limit";
    case Result::Status::Unsupported: return "unsupported";
  }
  return "?";
}

namespace {

void listAccesses(const std::vector<std::vector<detail::Trace>> &blocks, std::vector<AccessRecord> &out) {
  for (const auto &block : blocks)
    for (const detail::Trace &t : block) {
      uint32_t barriers = 0;
      for (const detail::Event &e : t.events) {
        if (const auto *b = e.stmt->as<model::stmt::Barrier>()) {
          barriers += b->kind != model::BarrierKind::Warp;
          continue;
        }
        const auto *a = e.stmt->as<model::stmt::Access>();
        if (!a) continue;
        out.push_back({t.id, a->array, e.index, a->count, a->kind, barriers, e.stmt->range});
      }
    }
}

// Runs every thread of one block, one after the other, until the values its threads
// stored in shared memory settle: a load of a value stored in an earlier barrier interval
// reads what the block's previous run stored, so a thread that runs before the one that
// stores reads it too, as on the GPU. Values flow only from one interval to a later one,
// so a block with n intervals settles within n + 1 runs; a run that has not settled after
// kMaxRuns proves nothing (Unsupported). Tickets and flags start over with every run.
constexpr int kMaxRuns = 8;

bool runBlock(const model::Kernel &kernel, const Launch &launch, const Dim3 &block_id,
              detail::RunMemory &memory, std::vector<detail::Trace> &block, Result &r) {
  const Dim3 &bd = launch.block;
  memory.shared.clear();  // another block's shared memory is not this one's
  memory.settled.clear();
  const detail::RunMemory before = memory;
  for (int run = 0; run < kMaxRuns; ++run) {
    detail::RunMemory::SharedWrites settled = std::move(memory.settled);
    memory = before;
    memory.settled = settled;
    block.assign(size_t(bd[0]) * bd[1] * bd[2], detail::Trace{});
    for (uint32_t z = 0; z < bd[2]; ++z)
      for (uint32_t y = 0; y < bd[1]; ++y)
        for (uint32_t x = 0; x < bd[0]; ++x) {
          uint32_t linear = x + y * bd[0] + z * bd[0] * bd[1];
          detail::Trace &t = block[linear];
          t.id.thread = {x, y, z};
          t.id.block = block_id;
          t.linear = linear;
          detail::ThreadOutcome o = detail::runThread(kernel, launch, launch.grid, memory, t);
          r.seeded = r.seeded || o.seeded;
          if (o.status != Result::Status::Ok) {
            r.status = o.status;
            r.detail = o.detail;
            return false;
          }
        }
    if (detail::sameWrites(memory.shared, settled)) return true;
    memory.settled = memory.shared;
  }
  r.status = Result::Status::Unsupported;
  r.detail = "the values stored in shared memory did not settle in " + std::to_string(kMaxRuns) +
             " runs of the block";
  return false;
}

Result runListing(const model::Kernel &kernel, const Launch &launch, std::vector<AccessRecord> *accesses) {
  Result r;
  if (!kernel.unsupported.empty()) {
    r.status = Result::Status::Unsupported;
    r.detail = "unsupported: " + kernel.unsupported.front().construct;
    return r;
  }
  for (int d = 0; d < 3; ++d)
    if (launch.block[d] == 0 || launch.grid[d] == 0) {
      r.status = Result::Status::Unsupported;
      r.detail = "malformed launch: a zero dimension";
      return r;
    }
  std::vector<Dim3> blocks;  // Launch::blocks without repeats
  for (const Dim3 &b : launch.blocks)
    if (std::find(blocks.begin(), blocks.end(), b) == blocks.end()) blocks.push_back(b);
  if (blocks.empty())
    for (uint32_t z = 0; z < launch.grid[2]; ++z)
      for (uint32_t y = 0; y < launch.grid[1]; ++y)
        for (uint32_t x = 0; x < launch.grid[0]; ++x) blocks.push_back({x, y, z});
  for (const Dim3 &b : blocks)
    for (int d = 0; d < 3; ++d)
      if (b[d] >= launch.grid[d]) {
        r.status = Result::Status::Unsupported;
        r.detail = "malformed launch: a block outside the grid";
        return r;
      }

  const Dim3 &bd = launch.block;
  detail::RunMemory memory(kernel, launch);
  std::vector<std::vector<detail::Trace>> traces(blocks.size());
  for (size_t bi = 0; bi < blocks.size(); ++bi)
    if (!runBlock(kernel, launch, blocks[bi], memory, traces[bi], r)) return r;
  if (accesses) listAccesses(traces, *accesses);
  for (size_t bi = 0; bi < blocks.size(); ++bi) detail::findBlockHazards(kernel, bd, traces[bi], r.findings);
  detail::findGridDivergence(traces, r.findings);
  detail::findRaces(kernel, bd, traces, r.findings);
  return r;
}

}  // namespace

Result run(const model::Kernel &kernel, const Launch &launch) { return runListing(kernel, launch, nullptr); }

Result run(const model::Kernel &kernel, const Launch &launch, std::vector<AccessRecord> &accesses) {
  return runListing(kernel, launch, &accesses);
}

}  // namespace kverify::oracle
