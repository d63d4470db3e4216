// The fixture corpus (tests/fixtures/verifier) through both the analysis and the oracle.
//
// For every kernel of every fixture: the analysis runs once (options from the file's and
// the kernel's `// kverify:` comments); the oracle runs several small concrete launches
// consistent with those options (fixed dims where given, else small blocks; two or three
// blocks of the grid; several seeds and parameter values; runs that break an --assume or a
// KV_ASSUME, or end in UB / the step limit, are skipped). Then:
//   (a) soundness: a hazard the oracle sees in a run must be among the analysis' findings
//       (a race may hide behind a reported divergence); verified would be wrong. These are
//       never allow-listed.
//   (b) precision: every analysis finding's witness is replayed in the oracle (its block
//       dims, its two blocks, its parameter values); where the replay is fully determined
//       (no seeded value used) the oracle must see the same kind of hazard. Known, understood
//       analysis imprecisions may be listed in known_disagreements.txt.
#include "analysis/configure.hpp"
#include "frontend/frontend.hpp"
#include "model/walk.hpp"
#include "oracle/oracle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <set>
#include <sstream>

using namespace kverify;
namespace fs = std::filesystem;
using analysis::Verdict;
using model::Expr;
using model::ExprPtr;
using model::Stmt;

namespace {

std::vector<std::string> fixtures() {
  std::vector<std::string> out;
  for (const auto &e : fs::directory_iterator(KVERIFY_CORPUS))
    if (e.path().extension() == ".cu") out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// "fixture kernel kind" -> reason, from known_disagreements.txt (# comments, blank lines).
std::map<std::string, std::string> knownDisagreements() {
  std::map<std::string, std::string> out;
  std::ifstream in(KVERIFY_KNOWN_DISAGREEMENTS);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    std::string fixture, kernel, kind, reason;
    s >> fixture >> kernel >> kind;
    std::getline(s, reason);
    if (!kind.empty()) out[fixture + " " + kernel + " " + kind] = reason;
  }
  return out;
}

std::string dims(const oracle::Dim3 &d) {
  return "(" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + ")";
}

std::string launchText(const oracle::Launch &l) {
  std::string s = "block " + dims(l.block) + " grid " + dims(l.grid) + " blocks";
  for (const auto &b : l.blocks) s += " " + dims(b);
  s += " seed " + std::to_string(l.seed) + " params {";
  bool first = true;
  for (const auto &[k, v] : l.params) {
    s += (first ? "" : ", ") + k + "=" + std::to_string(v);
    first = false;
  }
  return s + "}";
}

const char *oracleKindAsVerdict(oracle::Kind k) {
  switch (k) {
    case oracle::Kind::Race: return "race";
    case oracle::Kind::Divergence: return "divergence";
    case oracle::Kind::Oob: return "oob";
    case oracle::Kind::ConstantWrite: return "constant-write";
    case oracle::Kind::BenignRace: return "benign-race";
  }
  return "?";
}

std::string analysisText(const analysis::KernelResult &r) {
  std::string s = std::string("verdict ") + analysis::verdictName(r.verdict);
  for (const auto &f : r.findings) s += "; " + std::string(analysis::verdictName(f.kind)) + ": " + f.message;
  return s;
}

// Which builtins and expression kinds a kernel uses.
struct Uses {
  bool y = false, z = false;
};
Uses usesOf(const model::Kernel &k) {
  Uses u;
  model::forEachExpr(k.body, [&](const Expr &e) {
    const auto *b = e.as<model::expr::Builtin>();
    if (!b) return;
    using model::Builtin;
    if (b->which == Builtin::ThreadIdxY || b->which == Builtin::BlockDimY) u.y = true;
    if (b->which == Builtin::ThreadIdxZ || b->which == Builtin::BlockDimZ) u.z = true;
  });
  return u;
}

const Expr *stripCasts(const Expr *e) {
  while (const auto *c = e->as<model::expr::Cast>()) e = c->arg.get();
  return e;
}
bool mentionsParam(const ExprPtr &e) {
  bool found = false;
  if (e) model::forEachNode(*e, [&](const Expr &x) { found = found || x.is<model::expr::Param>(); });
  return found;
}

// Sets parameters that an assumption pins down: conjuncts `p == e` with e free of params.
void solveEqualities(const model::Kernel &k, const ExprPtr &a, oracle::Launch &l) {
  const auto *b = a->as<model::expr::Binary>();
  if (b && b->op == model::BinaryOp::LAnd) {
    solveEqualities(k, b->lhs, l);
    solveEqualities(k, b->rhs, l);
    return;
  }
  if (!b || b->op != model::BinaryOp::Eq) return;
  for (int side = 0; side < 2; ++side) {
    const auto *p = stripCasts((side ? b->rhs : b->lhs).get())->as<model::expr::Param>();
    const ExprPtr &other = side ? b->lhs : b->rhs;
    if (!p || mentionsParam(other)) continue;
    if (auto v = oracle::evaluateInt(k, l, *other)) l.params[p->name] = *v;
  }
}

struct Disagreement {
  std::string key;  // "fixture kernel kind"
  bool soundness = false;
  std::string text;
};

class FixtureDifferential : public ::testing::TestWithParam<std::string> {};

TEST_P(FixtureDifferential, OracleAndAnalysisAgree) {
  const std::string fixture = GetParam();
  const std::string path = std::string(KVERIFY_CORPUS) + "/" + fixture;
  frontend::Options fo;
  fo.print_diagnostics = false;
  model::TranslationUnitModel tu = frontend::parseFile(path, fo);
  if (!tu.parsed) GTEST_SKIP() << "does not parse";
  static const std::map<std::string, std::string> known = knownDisagreements();

  std::vector<Disagreement> found;
  double analysis_s = 0;
  std::set<std::string> seen;  // hazard kinds the oracle saw in some run
  std::string first_skip;      // why the first skipped oracle run stopped
  auto start = std::chrono::steady_clock::now();
  int oracle_runs = 0, ok_runs = 0, replays = 0, determined_replays = 0;
  for (const model::Kernel &k : tu.kernels) {
    // the options the analysis runs under: the file's and the kernel's comments
    const analysis::KernelConfig config = analysis::configure({}, tu.options, k);
    if (!config.error.empty()) {
      ADD_FAILURE() << fixture << " " << k.name << ": " << config.error;
      continue;
    }
    const analysis::Options &opts = config.options;
    auto t0 = std::chrono::steady_clock::now();
    analysis::KernelResult ar = analysis::analyzeKernel(k, config);
    analysis_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    auto satisfies = [&](const oracle::Launch &l) {
      for (const ExprPtr &a : config.assumes) {
        auto v = oracle::evaluate(k, l, *a);
        if (!v || !*v) return false;
      }
      return true;
    };
    auto has = [&](Verdict v) {
      return std::any_of(ar.findings.begin(), ar.findings.end(),
                         [&](const analysis::Finding &f) { return f.kind == v; });
    };
    bool inconclusive =
        ar.verdict == Verdict::Unknown || ar.verdict == Verdict::Unsupported || ar.verdict == Verdict::Error;

    // --- (a) oracle runs on small launches -------------------------------------------
    Uses uses = usesOf(k);
    std::vector<oracle::Dim3> block_dims, grid_dims;
    if (opts.block_dim[0] && opts.block_dim[1] && opts.block_dim[2]) {
      block_dims.push_back(
          {uint32_t(*opts.block_dim[0]), uint32_t(*opts.block_dim[1]), uint32_t(*opts.block_dim[2])});
    } else if (uses.z) {
      block_dims = {{8, 4, 2}, {4, 4, 4}};
    } else if (uses.y) {
      block_dims = {{8, 4, 1}, {16, 16, 1}, {32, 1, 1}};
    } else {
      block_dims = {{32, 1, 1}, {64, 1, 1}};
    }
    if (opts.grid_dim[0] && opts.grid_dim[1] && opts.grid_dim[2]) {
      grid_dims.push_back(
          {uint32_t(*opts.grid_dim[0]), uint32_t(*opts.grid_dim[1]), uint32_t(*opts.grid_dim[2])});
    } else {
      grid_dims = {{2, 1, 1}, {2, 2, 1}, {2, 1, 2}};
    }
    // components the launch fixes (a host launch `dim3 grid(n / 64, 1, 1)`) keep their
    // value in every launch the oracle tries
    for (auto *dims : {&block_dims, &grid_dims}) {
      const auto &fixed = dims == &block_dims ? opts.block_dim : opts.grid_dim;
      std::vector<oracle::Dim3> kept;
      for (oracle::Dim3 d : *dims) {
        for (int i = 0; i < 3; ++i)
          if (fixed[i]) d[i] = uint32_t(*fixed[i]);
        if (std::find(kept.begin(), kept.end(), d) == kept.end()) kept.push_back(d);
      }
      *dims = kept;
    }
    // Parameter values: small ones and ones near the block size.
    std::set<oracle::Kind> reported;
    for (const oracle::Dim3 &bd : block_dims) {
      uint64_t threads = uint64_t(bd[0]) * bd[1] * bd[2];
      if (threads == 0 || threads > 1024 || (k.max_threads && threads > *k.max_threads)) continue;
      for (const oracle::Dim3 &gd : grid_dims) {
        std::vector<oracle::Dim3> blocks = {{0, 0, 0}};
        if (gd[0] > 1)
          blocks.push_back({1, 0, 0});
        else if (gd[1] > 1)
          blocks.push_back({0, 1, 0});
        else if (gd[2] > 1)
          blocks.push_back({0, 0, 1});
        oracle::Dim3 last = {gd[0] - 1, gd[1] - 1, gd[2] - 1};
        if (std::find(blocks.begin(), blocks.end(), last) == blocks.end() && threads <= 512)
          blocks.push_back(last);
        const int64_t bx = bd[0];
        const std::vector<int64_t> values = {0,      1,      2,  3,          5,         7,      16,
                                             31,     32,     33, 64,         100,       bx - 1, bx,
                                             bx + 1, 2 * bx, -1, 0x7fffffff, 0x80000000};
        // Seeds 0-3: every integer parameter the same typical value (the block size, past
        // it, 1, 0); seeds 4-11: each drawn from `values`.
        for (uint64_t seed = 0; seed < 12; ++seed) {
          oracle::Launch l;
          l.block = bd;
          l.grid = gd;
          l.blocks = blocks;
          l.seed = seed;
          l.max_steps = 5000;  // per thread: keeps each run well under a second
          l.zero_init = config.options.zero_init;
          uint64_t h = seed * 0x9e3779b97f4a7c15ull + 12345;
          for (const model::Param &p : k.params) {
            if (p.array || !p.type.isIntegral()) continue;
            h = h * 6364136223846793005ull + 1442695040888963407ull;
            static const int64_t fixed[] = {0, 0, 1, 0};  // seed 0, 1: set below
            int64_t v = seed == 0   ? bx
                        : seed == 1 ? 2 * bx + 1
                        : seed < 4  ? fixed[seed]
                                    : values[(h >> 33) % values.size()];
            if (p.type.kind == model::Type::Kind::Bool) v = seed == 0 ? 1 : seed == 3 ? 0 : (h >> 33) & 1;
            l.params[p.name] = v;
          }
          for (const ExprPtr &a : config.assumes) solveEqualities(k, a, l);
          if (!satisfies(l)) continue;
          ++oracle_runs;
          oracle::Result r = oracle::run(k, l);
          if (r.status != oracle::Result::Status::Ok) {
            if (first_skip.empty()) first_skip = k.name + ": " + r.detail;
            continue;
          }
          ++ok_runs;
          for (const oracle::Finding &f : r.findings) {
            seen.insert(oracleKindAsVerdict(f.kind));
            if (f.kind == oracle::Kind::ConstantWrite || reported.count(f.kind)) continue;
            if (inconclusive) continue;
            Verdict want = f.kind == oracle::Kind::Race         ? Verdict::Race
                           : f.kind == oracle::Kind::BenignRace ? Verdict::BenignRace
                           : f.kind == oracle::Kind::Divergence ? Verdict::Divergence
                                                                : Verdict::Oob;
            // this run's writes stored one value: any race covers it; else only a real one
            if (has(want) || (want == Verdict::BenignRace && has(Verdict::Race)) ||
                ((want == Verdict::Race || want == Verdict::BenignRace) && has(Verdict::Divergence)))
              continue;
            reported.insert(f.kind);
            Disagreement d;
            d.soundness = true;
            d.key = fixture + " " + k.name + " " + oracleKindAsVerdict(f.kind);
            d.text = "SOUNDNESS " + d.key + "\n  launch: " + launchText(l) + "\n  oracle: " + f.message +
                     "\n  analysis: " + analysisText(ar);
            found.push_back(d);
          }
        }
      }
    }

    // --- (b) replay every analysis witness ------------------------------------------
    for (const analysis::Finding &f : ar.findings) {
      if (f.kind != Verdict::Race && f.kind != Verdict::Divergence && f.kind != Verdict::Oob) continue;
      const analysis::Witness &w = f.witness;
      uint64_t threads = w.block_dim[0] * w.block_dim[1] * w.block_dim[2];
      if (threads == 0 || threads > 1024 || (k.max_threads && threads > *k.max_threads)) continue;
      oracle::Launch l;
      l.zero_init = config.options.zero_init;
      bool fits = true;
      for (int d = 0; d < 3; ++d) {
        fits = fits && w.grid_dim[d] >= 1 && w.grid_dim[d] <= 0xffffffffull;
        l.block[d] = uint32_t(w.block_dim[d]);
        l.grid[d] = uint32_t(w.grid_dim[d]);
      }
      if (!fits) continue;
      auto blk = [](const analysis::ThreadCoords &c) {
        return oracle::Dim3{uint32_t(c.block_idx[0]), uint32_t(c.block_idx[1]), uint32_t(c.block_idx[2])};
      };
      l.blocks = {blk(w.thread1)};
      if (f.kind != Verdict::Oob) l.blocks.push_back(blk(w.thread2));
      for (const auto &[name, value] : w.params) {
        if (value == "true")
          l.params[name] = 1;
        else if (value == "false")
          l.params[name] = 0;
        else {
          try {
            l.params[name] = std::stoll(value);
          } catch (...) {
            try {
              l.params[name] = static_cast<int64_t>(std::stoull(value));
            } catch (...) {}
          }
        }
      }
      l.max_steps = 20000;
      ++replays;
      oracle::Result r = oracle::run(k, l);
      std::string kind = analysis::verdictName(f.kind);
      bool same = r.status == oracle::Result::Status::Ok &&
                  std::any_of(r.findings.begin(), r.findings.end(),
                              [&](const oracle::Finding &o) { return kind == oracleKindAsVerdict(o.kind); });
      if (r.seeded || r.status == oracle::Result::Status::StepLimit ||
          r.status == oracle::Result::Status::Unsupported)
        continue;  // not determined by the witness: nothing to hold the analysis to
      ++determined_replays;
      if (same) continue;
      Disagreement d;
      d.key = fixture + " " + k.name + " " + kind;
      std::string oracle_says =
          std::string(oracle::statusName(r.status)) + (r.detail.empty() ? "" : " (" + r.detail + ")");
      for (const oracle::Finding &o : r.findings) oracle_says += "; " + o.message;
      if (r.findings.empty() && r.status == oracle::Result::Status::Ok) oracle_says += ", no hazard";
      bool assume_ok = satisfies(l);
      d.text = "PRECISION " + d.key + " (witness does not replay" +
               (assume_ok ? "" : "; the witness breaks an --assume") + ")\n  launch: " + launchText(l) +
               "\n  analysis: " + f.message + " [threads " + std::to_string(w.thread1.thread_idx[0]) + "," +
               std::to_string(w.thread1.thread_idx[1]) + "," + std::to_string(w.thread1.thread_idx[2]) +
               " / " + std::to_string(w.thread2.thread_idx[0]) + "," +
               std::to_string(w.thread2.thread_idx[1]) + "," + std::to_string(w.thread2.thread_idx[2]) +
               ", index " + w.index + "]\n  oracle: " + oracle_says;
      found.push_back(d);
    }
  }

  std::cout << fixture << ": " << tu.kernels.size() << " kernel(s), " << oracle_runs << " oracle runs ("
            << ok_runs << " ok), " << replays << " witness replays (" << determined_replays
            << " determined); analysis " << analysis_s << " s, total "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
            << " s; oracle saw:";
  for (const std::string &k : seen) std::cout << " " << k;
  std::cout << (seen.empty() ? " nothing\n" : "\n");
  if (!first_skip.empty()) std::cout << "  first skipped run: " << first_skip << "\n";
  for (const Disagreement &d : found) {
    auto it = known.find(d.key);
    bool allowed = !d.soundness && it != known.end();
    if (allowed) {
      std::cout << d.text << "\n  known:" << it->second << "\n";
      continue;
    }
    ADD_FAILURE() << d.text;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, FixtureDifferential, ::testing::ValuesIn(fixtures()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           std::string n = info.param.substr(0, info.param.size() - 3);
                           for (char &c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
