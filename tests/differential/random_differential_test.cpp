// The differential property: random kernels (kernel_gen.hpp) through the whole pipeline
// (front end, analysis) and through the oracle (the concrete interpreter of the model).
//
//   (a) soundness: when an oracle run (the generated launch and parameters, a few seeds)
//       ends normally and shows a race, divergence or out-of-bounds access, the analysis
//       must not say `verified`, and unless it is `unknown`/`unsupported`/`error` it must
//       report a finding of that kind (a reported divergence covers a race: the analysis
//       does not look for races once barriers diverge).
//   (b) precision: for kernels without data-dependent values, every analysis finding's
//       witness is replayed in the oracle (its block and grid dims, its parameters, its two
//       blocks); a fully determined replay must show the same kind of hazard.
//
// KVERIFY_DIFF_MODE selects what fails the property: "soundness" (default: (a) only),
// "precision" ((b) only), "both", or "count" (nothing fails; disagreements are counted and
// the first few written to $KVERIFY_DIFF_LOG). Counters are printed to stderr at exit and
// written to $KVERIFY_DIFF_STATS (key=value lines) when set; scripts/differential.sh
// reads them. KVERIFY_DIFF_FAIL_KINDS (e.g. "divergence,oob") restricts which (a)
// disagreements fail, by the kind the oracle saw.
#include "analysis/analysis.hpp"
#include "frontend/frontend.hpp"
#include "kernel_gen.hpp"
#include "oracle/oracle.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace kverify;
using namespace kverify::difftest;
namespace fs = std::filesystem;
using analysis::Verdict;

namespace {

struct Stats {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  long kernels = 0, parse_failures = 0;
  long oracle_ok = 0, oracle_inconclusive = 0;  // kernels with at least one Ok run / none
  std::map<std::string, long> oracle_hazard;    // kernels with an oracle hazard, by kind
  std::map<std::string, long> verdicts;         // analysis verdicts
  long soundness = 0, precision = 0;            // (a) / (b) disagreements (kernels)
  long unknown_beside_finding = 0;              // hazards whose query was undecided, beside another finding
  long beside_race = 0;                      // hazards the other checks assumed away, beside a reported race
  long replays = 0, replays_determined = 0;  // (b) witness replays
  std::map<std::string, long> soundness_by_kind, precision_by_kind;
  double analysis_ms = 0, oracle_ms = 0;

  std::string text() const {
    std::ostringstream os;
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    os << "kernels=" << kernels << "\n"
       << "parse_failures=" << parse_failures << "\n"
       << "oracle_ok=" << oracle_ok << "\n"
       << "oracle_inconclusive=" << oracle_inconclusive << "\n";
    for (auto &[k, v] : oracle_hazard) os << "oracle_hazard." << k << "=" << v << "\n";
    for (auto &[k, v] : verdicts) os << "analysis_verdict." << k << "=" << v << "\n";
    os << "disagree_a_soundness=" << soundness << "\n";
    os << "unknown_beside_finding=" << unknown_beside_finding << "\n";
    os << "beside_race=" << beside_race << "\n";
    for (auto &[k, v] : soundness_by_kind) os << "disagree_a." << k << "=" << v << "\n";
    os << "disagree_b_precision=" << precision << "\n";
    for (auto &[k, v] : precision_by_kind) os << "disagree_b." << k << "=" << v << "\n";
    os << "witness_replays=" << replays << "\n"
       << "witness_replays_determined=" << replays_determined << "\n"
       << "analysis_seconds=" << analysis_ms / 1000 << "\n"
       << "oracle_seconds=" << oracle_ms / 1000 << "\n"
       << "seconds=" << secs << "\n";
    return os.str();
  }
  ~Stats() {
    std::cerr << "--- differential counters ---\n" << text();
    if (const char *f = std::getenv("KVERIFY_DIFF_STATS")) std::ofstream(f) << text();
  }
};
Stats stats;

std::string mode() {
  const char *m = std::getenv("KVERIFY_DIFF_MODE");
  return m ? m : "soundness";
}

// The first few disagreements of each class, unshrunk, for `count` runs.
void logDisagreement(const std::string &cls, const std::string &report) {
  static std::map<std::string, int> logged;
  const char *f = std::getenv("KVERIFY_DIFF_LOG");
  if (!f || logged[cls]++ >= 20) return;
  std::ofstream(f, std::ios::app) << "==== " << cls << "\n" << report << "\n";
}

std::string hazardName(oracle::Kind k) { return oracle::kindName(k); }

Verdict asVerdict(oracle::Kind k) {
  switch (k) {
    case oracle::Kind::Race: return Verdict::Race;
    case oracle::Kind::BenignRace: return Verdict::BenignRace;
    case oracle::Kind::Divergence: return Verdict::Divergence;
    default: return Verdict::Oob;
  }
}

std::string dims(const std::array<uint64_t, 3> &d) {
  return "(" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + ")";
}
std::string dims(const oracle::Dim3 &d) {
  return "(" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + ")";
}

std::string analysisText(const analysis::KernelResult &r) {
  std::ostringstream os;
  os << "analysis verdict: " << analysis::verdictName(r.verdict) << "\n";
  if (!r.unknown_query.empty()) os << "  unknown query: " << r.unknown_query << "\n";
  if (!r.premise_error.empty()) os << "  premise error: " << r.premise_error << "\n";
  for (const auto &u : r.unsupported) os << "  unsupported: " << u.construct << " " << u.detail << "\n";
  for (const auto &f : r.findings) {
    os << "  " << analysis::verdictName(f.kind) << ": " << f.message;
    for (const auto &a : f.accesses)
      os << " [" << a.kind << " " << a.range.line << ":" << a.range.col << " " << a.text << "]";
    const auto &w = f.witness;
    os << "\n    witness: t1 " << dims(w.thread1.thread_idx) << " b1 " << dims(w.thread1.block_idx) << " t2 "
       << dims(w.thread2.thread_idx) << " b2 " << dims(w.thread2.block_idx) << " blockDim "
       << dims(w.block_dim) << " gridDim " << dims(w.grid_dim) << " index " << w.index
       << (w.validated ? " (validated)" : "");
    for (const auto &[p, v] : w.params) os << " " << p << "=" << v;
    for (const analysis::LoopIteration &l : w.loops) os << " " << l.name() << "=" << l.iteration;
    os << "\n";
  }
  return os.str();
}

std::string oracleText(const oracle::Result &r, const oracle::Launch &l) {
  std::ostringstream os;
  os << "oracle (seed " << l.seed << ", block " << dims(l.block) << ", grid " << dims(l.grid) << ", blocks";
  for (auto &b : l.blocks) os << " " << dims(b);
  os << ", params";
  for (auto &[k, v] : l.params) os << " " << k << "=" << v;
  os << "): " << oracle::statusName(r.status) << (r.seeded ? " (seeded)" : "");
  if (!r.detail.empty()) os << " " << r.detail;
  os << "\n";
  for (const auto &f : r.findings) os << "  " << hazardName(f.kind) << ": " << f.message << "\n";
  return os.str();
}

// Per-process temp directory; per-case file names.
fs::path caseFile() {
  static fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("kverify_diff_" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  static long n = 0;
  return dir / ("case_" + std::to_string(n++) + ".cu");
}

struct DirCleanup {
  ~DirCleanup() {
    std::error_code ec;
    fs::remove_all(fs::temp_directory_path() / ("kverify_diff_" + std::to_string(::getpid())), ec);
  }
} cleanup;

}  // namespace

RC_GTEST_PROP(RandomDifferential, AnalysisAgreesWithOracle, (const GenKernel &k)) {
  ++stats.kernels;
  fs::path file = caseFile();
  std::ofstream(file) << k.source;
  frontend::Options fo;
  fo.print_diagnostics = false;
  model::TranslationUnitModel tu = frontend::parseFile(file.string(), fo);
  std::error_code ec;
  fs::remove(file, ec);
  if (!tu.parsed || tu.kernels.size() != 1) ++stats.parse_failures;
  RC_ASSERT(tu.parsed);
  RC_ASSERT(tu.kernels.size() == 1u);
  const model::Kernel &m = tu.kernels[0];
  RC_ASSERT(m.unsupported.empty());

  // The analysis, launch fixed to the generated one (or read from the source's host code).
  analysis::Options opts;
  if (k.host_launch == NoHostLaunch) {
    opts.block_dim = {k.block[0], k.block[1], k.block[2]};
    opts.grid_dim = {k.grid[0], k.grid[1], k.grid[2]};
  }
  opts.timeout_s = 10;
  opts.zero_init = zeroInit(k);
  auto t0 = std::chrono::steady_clock::now();
  analysis::KernelResult ar = analysis::analyzeKernel(m, opts);
  auto t1 = std::chrono::steady_clock::now();
  stats.analysis_ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
  ++stats.verdicts[analysis::verdictName(ar.verdict)];

  // The oracle, same launch and parameters, a few seeds.
  std::set<oracle::Kind> seen;
  std::string oracleLog;
  bool anyOk = false;
  const int seeds = k.data_dependent ? 3 : 2;
  for (int seed = 0; seed < seeds; ++seed) {
    oracle::Launch l;
    l.block = {k.block[0], k.block[1], k.block[2]};
    l.grid = {k.grid[0], k.grid[1], k.grid[2]};
    l.params = k.params;
    l.seed = uint64_t(seed);
    l.max_steps = 200000;
    l.zero_init = zeroInit(k);
    oracle::Result r = oracle::run(m, l);
    oracleLog += oracleText(r, l);
    if (r.status != oracle::Result::Status::Ok) continue;
    anyOk = true;
    for (const auto &f : r.findings)
      if (f.kind != oracle::Kind::ConstantWrite) seen.insert(f.kind);
  }
  stats.oracle_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
  if (anyOk)
    ++stats.oracle_ok;
  else
    ++stats.oracle_inconclusive;
  for (oracle::Kind kind : seen) ++stats.oracle_hazard[hazardName(kind)];
  if (seen.empty() && anyOk) ++stats.oracle_hazard["none"];

  auto unknownAbout = [](const std::vector<std::string> &undecided, oracle::Kind kind) {
    std::string queries;
    for (const std::string &q : undecided) queries += q + "; ";
    switch (kind) {
      case oracle::Kind::Race:
      case oracle::Kind::BenignRace: return queries.find("race on ") != std::string::npos;
      case oracle::Kind::Divergence:
        return queries.find("divergence") != std::string::npos ||
               queries.find("lane outside the mask") != std::string::npos;
      case oracle::Kind::Oob: return queries.find("bounds of ") != std::string::npos;
      default: return false;
    }
  };
  auto has = [&](Verdict v) {
    return std::any_of(ar.findings.begin(), ar.findings.end(),
                       [&](const analysis::Finding &f) { return f.kind == v; });
  };
  const bool inconclusive =
      ar.verdict == Verdict::Unknown || ar.verdict == Verdict::Unsupported || ar.verdict == Verdict::Error;
  const std::string header = "kernel:\n" + k.source + "launch: " + launchText(k) +
                             (k.data_dependent ? " (data-dependent)" : "") + "\n";

  // (a) soundness
  std::vector<std::string> missed;
  for (oracle::Kind kind : seen) {
    // a race in which this run's two writes stored one value is covered by any race; a
    // race of different values only by a (real) race
    const bool reported =
        has(asVerdict(kind)) || (kind == oracle::Kind::BenignRace && has(Verdict::Race)) ||
        ((kind == oracle::Kind::Race || kind == oracle::Kind::BenignRace) && has(Verdict::Divergence));
    bool covered;
    if (ar.verdict == Verdict::Verified)
      covered = false;
    else if (inconclusive || reported)
      covered = true;
    // a finding of another kind outranked an undecided query of this kind: the analysis
    // said it does not know (the report names the query beside the finding)
    else if ((covered = unknownAbout(ar.undecided, kind)))
      ++stats.unknown_beside_finding;
    // a divergence or out-of-bounds access the reported race may cause: the other checks
    // assumed shared reads agree, and the report says the race breaks that
    else if ((covered = ar.race_free_premise_broken && has(Verdict::Race)))
      ++stats.beside_race;
    if (!covered) missed.push_back(hazardName(kind));
  }
  std::string soundReport;
  if (!missed.empty()) {
    ++stats.soundness;
    std::string kinds;
    for (auto &s : missed) {
      ++stats.soundness_by_kind[s];
      kinds += (kinds.empty() ? "" : ",") + s;
    }
    soundReport = "(a) SOUNDNESS: the oracle sees " + kinds + ", the analysis does not report it\n" + header +
                  oracleLog + analysisText(ar);
    logDisagreement("a " + kinds, soundReport);
  }

  // (b) precision: replay the witnesses.
  std::string precReport;
  if (!k.data_dependent) {
    for (const auto &f : ar.findings) {
      const auto &w = f.witness;
      if (w.block_dim[0] == 0) continue;
      oracle::Launch l;
      for (int d = 0; d < 3; ++d) {
        l.block[d] = uint32_t(w.block_dim[d]);
        l.grid[d] = uint32_t(std::max<uint64_t>(w.grid_dim[d], 1));
      }
      l.params = k.params;
      bool paramsOk = true;
      for (const auto &[name, value] : w.params) {
        char *end = nullptr;
        long long v = std::strtoll(value.c_str(), &end, 0);
        if (!end || *end != '\0')
          paramsOk = false;
        else
          l.params[name] = int64_t(int32_t(uint32_t(uint64_t(v))));
      }
      if (!paramsOk) continue;
      auto blockOf = [](const analysis::ThreadCoords &t) {
        return oracle::Dim3{uint32_t(t.block_idx[0]), uint32_t(t.block_idx[1]), uint32_t(t.block_idx[2])};
      };
      l.blocks.push_back(blockOf(w.thread1));
      if (f.kind != Verdict::Oob && blockOf(w.thread2) != blockOf(w.thread1))
        l.blocks.push_back(blockOf(w.thread2));
      l.max_steps = 200000;
      l.zero_init = zeroInit(k);
      ++stats.replays;
      oracle::Result r = oracle::run(m, l);
      if (r.status != oracle::Result::Status::Ok || r.seeded) continue;
      ++stats.replays_determined;
      bool same = std::any_of(r.findings.begin(), r.findings.end(), [&](const oracle::Finding &of) {
        return asVerdict(of.kind) == f.kind && of.kind != oracle::Kind::ConstantWrite;
      });
      if (!same) {
        std::string kind = analysis::verdictName(f.kind);
        if (precReport.empty()) ++stats.precision;
        ++stats.precision_by_kind[kind];
        std::string one = "(b) PRECISION: the analysis' " + kind +
                          " witness does not replay in the oracle\n" + header + analysisText(ar) + "replay " +
                          oracleText(r, l) + "first runs:\n" + oracleLog;
        logDisagreement("b " + kind, one);
        precReport += one;
      }
    }
  }

  const std::string md = mode();
  // KVERIFY_DIFF_FAIL_KINDS=divergence,oob: only (a) disagreements about those kinds fail
  // (to shrink one class while another is known).
  bool failA = !soundReport.empty();
  if (const char *only = std::getenv("KVERIFY_DIFF_FAIL_KINDS")) {
    failA = false;
    for (auto &s : missed) failA = failA || std::string(only).find(s) != std::string::npos;
  }
  if (failA && (md == "soundness" || md == "both")) RC_FAIL(soundReport);
  if (!precReport.empty() && (md == "precision" || md == "both")) RC_FAIL(precReport);
}
