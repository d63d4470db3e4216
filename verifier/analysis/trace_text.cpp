// --dump-trace: the symbolic trace of thread 1 as the race check builds it, as text. Its
// events in trace order (accesses, barrier events, fences), then the side facts and what
// each says. Z3 terms are simplified and printed on one line, cut after kTermChars; an
// access's last-barrier candidates one a line, the first kCandidates of each kind.
#include "analysis/analysis.hpp"
#include "analysis/checker.hpp"
#include "analysis/configure.hpp"
#include "analysis/local_webs.hpp"
#include "analysis/solve.hpp"

#include <algorithm>
#include <new>
#include <tuple>

namespace kverify::analysis {

using namespace detail;

namespace {

constexpr size_t kTermChars = 400;
constexpr size_t kCandidates = 64;  // last-barrier candidates shown per phase kind

// A term simplified, on one line (Z3 breaks long terms into indented lines), cut after
// kTermChars characters.
std::string term(const z3::expr &e) {
  const std::string raw = e.simplify().to_string();
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\n') {
      out += raw[i];
      continue;
    }
    while (i + 1 < raw.size() && raw[i + 1] == ' ') ++i;
    out += ' ';
  }
  if (out.size() > kTermChars) out = out.substr(0, kTermChars) + "...";
  return out;
}

const char *const kPhaseNames[kPhaseKinds] = {"block", "warp", "any", "grid"};

class TraceText {
public:
  TraceText(const Encoder &enc, const Thread &thread) : enc_(enc), thread_(thread) {
    for (const auto &[s, id] : enc.barrier_ids) barriers_[id] = s;
  }
  std::string text();

private:
  const Encoder &enc_;
  const Thread &thread_;
  std::map<int, const Stmt *> barriers_;  // barrier id -> its statement
  std::string out_;

  std::string stmtText(const Stmt &s) const { return loc(s.range) + " " + refOf(s, enc_.kernel).text; }
  std::string candidate(const Cand &c) const;
  void lastBarriers(const Phases &lb);
  void loops(const std::vector<LoopRef> &ls);
  void access(const AccessEv &a, const char *note);
  void sync(const SyncEv &s);
  void fence(const FenceEv &f);
  void sideFacts();
};

// One candidate for the last barrier passed: which instance, and where it is the last.
std::string TraceText::candidate(const Cand &c) const {
  std::string out;
  auto it = barriers_.find(c.barrier);
  if (c.barrier == kEntry)
    out = "entry";
  else if (it != barriers_.end())
    out = stmtText(*it->second);
  else
    out = "placeholder " + std::to_string(c.barrier) + " (the start of a loop's iteration)";
  if (!c.ks.empty()) {
    out += " at [";
    for (size_t i = 0; i < c.ks.size(); ++i) out += (i ? ", " : "") + term(c.ks[i]);
    out += "]";
  }
  if (c.approx) out += " (approximate)";
  return out + " if " + term(c.cond);
}

// The candidates per phase kind, the kinds with the same candidates on one line.
void TraceText::lastBarriers(const Phases &lb) {
  std::vector<bool> shown(kPhaseKinds, false);
  for (int p = 0; p < kPhaseKinds; ++p) {
    if (shown[p]) continue;
    std::string kinds = kPhaseNames[p];
    for (int q = p + 1; q < kPhaseKinds; ++q)
      if (!shown[q] && sameLB(lb[p], lb[q])) shown[q] = true, kinds += ", " + std::string(kPhaseNames[q]);
    out_ += "    last barrier (" + kinds + "):";
    if (lb[p].size() <= 1) {
      out_ += (lb[p].empty() ? " none" : " " + candidate(lb[p][0])) + "\n";
      continue;
    }
    out_ += " " + std::to_string(lb[p].size()) + " candidates\n";
    for (size_t i = 0; i < lb[p].size() && i < kCandidates; ++i)
      out_ += "      " + candidate(lb[p][i]) + "\n";
    if (lb[p].size() > kCandidates)
      out_ += "      (and " + std::to_string(lb[p].size() - kCandidates) + " more)\n";
  }
}

void TraceText::loops(const std::vector<LoopRef> &ls) {
  if (ls.empty()) return;
  out_ += "    loops:";
  for (size_t i = 0; i < ls.size(); ++i) out_ += (i ? ", " : " ") + ls[i].label + " = " + term(ls[i].k);
  out_ += "\n";
}

void TraceText::access(const AccessEv &a, const char *note) {
  const st::Access &s = a.access();
  const std::string array = s.array < enc_.kernel.arrays.size() ? enc_.kernel.arrays[s.array].name : "?";
  out_ += "[" + std::to_string(a.seq) + "] " + loc(a.s->range) + " " + model::accessKindName(s.kind) + " " +
          array + "[" + term(a.index) + "]" + note + "\n";
  out_ += "    pc: " + term(a.pc) + "\n";
  loops(a.loops);
  lastBarriers(a.lb);
}

void TraceText::sync(const SyncEv &s) {
  const std::string text = refOf(*s.s, enc_.kernel).text;
  out_ += "[" + std::to_string(s.seq) + "] " + loc(s.s->range) + " ";
  if (const auto *b = s.s->as<st::Barrier>())
    out_ += "barrier " + text + " (" + model::barrierKindName(b->kind) + ")";
  else if (s.s->is<st::Loop>())
    out_ += "condition of the " + text + " (it holds barriers)";
  else
    out_ += "exit " + text + " (from a loop that holds barriers)";
  out_ += "\n    pc: " + term(s.pc) + "\n";
  if (!s.guard.simplify().is_true()) out_ += "    guard: " + term(s.guard) + "\n";
  if (s.mask) out_ += "    mask: " + term(*s.mask) + "\n";
  if (!s.ks.empty()) {
    out_ += "    iterations:";
    for (size_t i = 0; i < s.ks.size(); ++i) out_ += (i ? ", " : " ") + term(s.ks[i]);
    out_ += "\n";
  }
}

void TraceText::fence(const FenceEv &f) {
  const auto *s = f.s ? f.s->as<st::Fence>() : nullptr;
  out_ += "[" + std::to_string(f.seq) + "] " + (f.s ? loc(f.s->range) + " " : "") + "fence " +
          (s && !s->what.empty() ? s->what + "() " : "") + "(" + model::scopeName(f.scope) +
          ")\n    pc: " + term(f.pc) + "\n";
  loops(f.loops);
}

void TraceText::sideFacts() {
  out_ += "side facts: " + std::to_string(thread_.side.size()) + "\n";
  for (size_t i = 0; i < thread_.side.size(); ++i)
    out_ += "  " + std::to_string(i + 1) + ". " + (i < thread_.why.size() ? thread_.why[i] : "") + ": " +
            term(thread_.side[i]) + "\n";
}

std::string TraceText::text() {
  // (position in the trace, what: 0 access, 1 the last iteration's copy of an access,
  // 2 barrier event, 3 fence, which), sorted
  std::vector<std::tuple<int, int, size_t>> events;
  for (size_t i = 0; i < thread_.accesses.size(); ++i) events.emplace_back(thread_.accesses[i].seq, 0, i);
  for (size_t i = 0; i < thread_.last_iteration_results.size(); ++i)
    events.emplace_back(thread_.last_iteration_results[i].first.seq, 1, i);
  for (size_t i = 0; i < thread_.syncs.size(); ++i) events.emplace_back(thread_.syncs[i].seq, 2, i);
  for (size_t i = 0; i < thread_.fences.size(); ++i) events.emplace_back(thread_.fences[i].seq, 3, i);
  std::sort(events.begin(), events.end());
  out_ = "kernel " + enc_.kernel.name +
         ": thread 1 as the race check builds it: " + std::to_string(events.size()) + " events\n";
  for (const auto &[seq, what, i] : events) {
    if (what == 0) access(thread_.accesses[i], "");
    if (what == 1)
      access(thread_.last_iteration_results[i].first, " (the last iteration of a loop a jump left)");
    if (what == 2) sync(thread_.syncs[i]);
    if (what == 3) fence(thread_.fences[i]);
  }
  sideFacts();
  return out_;
}

// The trace as the race check builds it: thread 1 of the kernel with its locals split into
// webs (checkKernel), the block's barrier loops sharing their trip counts (Checker::run).
std::string traceOf(const model::Kernel &kernel, const KernelConfig &config) {
  KernelBudget budget(config.options.kernel_timeout_s);
  const model::Kernel split = splitLocalWebs(kernel);
  Encoder enc(split, config);
  enc.setup();
  Thread thread = enc.makeThread(1, true);
  thread.label("a fact of the symbolic execution");  // (as Checker::useThreads labels them)
  return TraceText(enc, thread).text();
}

}  // namespace

std::string traceText(const model::Kernel &kernel, const Options &options) {
  return traceText(kernel, configure(options, "", kernel));
}

std::string traceText(const model::Kernel &kernel, const KernelConfig &config) {
  const std::string head = "kernel " + kernel.name + ": ";
  if (!kernel.errors.empty()) return head + "error: " + kernel.errors.front().message + "\n";
  if (!config.error.empty()) return head + "error: " + config.error + "\n";
  if (!kernel.unsupported.empty()) {
    const model::Unsupported &u = kernel.unsupported.front();
    return head + "unsupported: " + u.construct + " at " + loc(u.range) + " (" + u.detail + "): no trace\n";
  }
  try {
    return traceOf(kernel, config);
  } catch (const KernelTimeSpent &) {
    return head + "error: the kernel's time ran out while its trace was built\n";
  } catch (const BarrierStateTooLarge &e) {
    return head + "unsupported: barrier structure: " + e.what + " at " + loc(e.range) + "\n";
  } catch (const z3::exception &e) {
    return head + "error: solver error: " + e.msg() + "\n";
  } catch (const std::bad_alloc &) { return head + "error: out of memory while its trace was built\n"; }
}

}  // namespace kverify::analysis
