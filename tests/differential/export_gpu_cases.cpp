// Writes K generated kernels as standalone CUDA programs (kernel + host main that
// allocates zeroed global arrays, launches with the generated launch and parameters,
// checks every CUDA call and exits nonzero on error), plus manifest.jsonl, one line per
// program: {"file","kernel","block":[x,y,z],"grid":[x,y,z],"params":{...},
// "data_dependent":bool,"kverify":verdict,"oracle":[hazard kinds]}: kverify's verdict for
// the launch (parameters symbolic) and the hazards of the oracle's run with the program's
// launch and parameters (seed 0; "inconclusive" when that run is not Ok). Run them on a
// GPU under compute-sanitizer (--tool racecheck / synccheck / memcheck) for a third
// opinion (scripts/gpu_ground_truth.sh). verdicts.tsv: case, kverify's verdict (one line
// per program, for comparing the GPU's hazards with kverify's verdicts).
// --kernels-only writes the kernels alone, kernel_<i>.cu, each with its launch as a
// `// kverify:` comment, and nothing else (for verifier/bench/rule_coverage.py).
//
// --range=A:B writes only cases A..B-1 of the K (the same kernels as without it), with
// manifest.A-B.jsonl and verdicts.A-B.tsv: shards that run side by side.
//
//   differential_export_gpu_cases OUT_DIR [K=100] [SEED=1] [--kernels-only] [--range=A:B]
#include "analysis/analysis.hpp"
#include "frontend/frontend.hpp"
#include "kernel_gen.hpp"
#include "oracle/oracle.hpp"

#include <set>
#include <string>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

using namespace kverify::difftest;
namespace fs = std::filesystem;

int main(int argc, char **argv) {
  bool kernelsOnly = false;
  int first = 0, last = -1;
  while (argc > 1 && std::string(argv[argc - 1]).rfind("--", 0) == 0) {
    std::string flag = argv[--argc];
    if (flag == "--kernels-only")
      kernelsOnly = true;
    else if (flag.rfind("--range=", 0) == 0 && std::sscanf(flag.c_str() + 8, "%d:%d", &first, &last) == 2)
      continue;
    else {
      std::cerr << "unknown option " << flag << "\n";
      return 2;
    }
  }
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " OUT_DIR [K=100] [SEED=1] [--kernels-only]\n";
    return 2;
  }
  fs::path out = argv[1];
  int count = argc > 2 ? std::atoi(argv[2]) : 100;
  uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) {
    std::cerr << "cannot create " << out << ": " << ec.message() << "\n";
    return 2;
  }
  rc::Random r(seed);
  rc::Gen<GenKernel> g = genKernel();
  if (kernelsOnly) {
    for (int i = 0; i < count; ++i) {
      rc::Random ri = r.split();
      GenKernel k = g(ri, 10 + (i * 90) / std::max(count, 1)).value();
      std::ofstream(out / ("kernel_" + std::to_string(i) + ".cu")) << k.source;
    }
    std::cout << "wrote " << count << " kernels to " << out << "\n";
    return 0;
  }
  std::string shard = last < 0 ? "" : "." + std::to_string(first) + "-" + std::to_string(last);
  if (last < 0) last = count;
  std::ofstream manifest(out / ("manifest" + shard + ".jsonl"));
  std::ofstream verdicts(out / ("verdicts" + shard + ".tsv"));
  if (shard.empty()) verdicts << "case\tkverify\n";
  for (int i = 0; i < count; ++i) {
    rc::Random ri = r.split();
    GenKernel k = g(ri, 10 + (i * 90) / std::max(count, 1)).value();
    if (i < first || i >= last) continue;
    std::string file = "case_" + std::to_string(i) + ".cu";
    std::ofstream(out / file) << emitStandaloneProgram(k);
    // the two static opinions, on the kernel alone
    fs::path src = out / ("kernel_" + std::to_string(i) + ".cu");
    std::ofstream(src) << k.source;
    kverify::frontend::Options fo;
    fo.print_diagnostics = false;
    kverify::model::TranslationUnitModel tu = kverify::frontend::parseFile(src.string(), fo);
    fs::remove(src, ec);
    std::string verdict = "error";
    std::set<std::string> hazards;
    if (tu.parsed && tu.kernels.size() == 1) {
      kverify::analysis::Options ao;
      if (k.host_launch == NoHostLaunch) {  // else the launch is read from the host code
        ao.block_dim = {k.block[0], k.block[1], k.block[2]};
        ao.grid_dim = {k.grid[0], k.grid[1], k.grid[2]};
      }
      ao.zero_init = zeroInit(k);
      verdict = kverify::analysis::verdictName(kverify::analysis::analyzeKernel(tu.kernels[0], ao).verdict);
      kverify::oracle::Launch l;
      l.block = {k.block[0], k.block[1], k.block[2]};
      l.grid = {k.grid[0], k.grid[1], k.grid[2]};
      l.params = k.params;
      l.max_steps = 200000;
      l.zero_init = zeroInit(k);
      kverify::oracle::Result r = kverify::oracle::run(tu.kernels[0], l);
      if (r.status != kverify::oracle::Result::Status::Ok) hazards.insert("inconclusive");
      for (const auto &f : r.findings) hazards.insert(kverify::oracle::kindName(f.kind));
    }
    verdicts << file << "\t" << verdict << "\n";
    manifest << "{\"file\":\"" << file << "\",\"kernel\":\"" << k.name << "\",\"block\":[" << k.block[0]
             << "," << k.block[1] << "," << k.block[2] << "],\"grid\":[" << k.grid[0] << "," << k.grid[1]
             << "," << k.grid[2] << "],\"params\":{";
    bool first = true;
    for (auto &[n, v] : k.params) {
      manifest << (first ? "" : ",") << "\"" << n << "\":" << v;
      first = false;
    }
    manifest << "},\"data_dependent\":" << (k.data_dependent ? "true" : "false") << ",\"kverify\":\""
             << verdict << "\",\"oracle\":[";
    first = true;
    for (const std::string &h : hazards) {
      manifest << (first ? "" : ",") << "\"" << h << "\"";
      first = false;
    }
    manifest << "]}\n";
  }
  if (!manifest) {
    std::cerr << "cannot write " << (out / "manifest.jsonl") << "\n";
    return 2;
  }
  std::cout << "wrote programs " << first << ".." << last - 1 << " and manifest" << shard << ".jsonl to "
            << out << "\n";
  return 0;
}
