// Writes K generated kernels as standalone CUDA programs (kernel + host main that
// allocates zeroed global arrays, launches with the generated launch and parameters,
// checks every CUDA call and exits nonzero on error), plus manifest.jsonl, one line per
// program: {"file","kernel","block":[x,y,z],"grid":[x,y,z],"params":{...},
// "data_dependent":bool}. Run them on a GPU under compute-sanitizer
// (--tool racecheck / synccheck / memcheck) for a third opinion.
//
//   differential_export_gpu_cases OUT_DIR [K=100] [SEED=1]
#include "kernel_gen.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

using namespace kverify::difftest;
namespace fs = std::filesystem;

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " OUT_DIR [K=100] [SEED=1]\n";
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
  std::ofstream manifest(out / "manifest.jsonl");
  rc::Random r(seed);
  rc::Gen<GenKernel> g = genKernel();
  for (int i = 0; i < count; ++i) {
    rc::Random ri = r.split();
    GenKernel k = g(ri, 10 + (i * 90) / std::max(count, 1)).value();
    std::string file = "case_" + std::to_string(i) + ".cu";
    std::ofstream(out / file) << emitStandaloneProgram(k);
    manifest << "{\"file\":\"" << file << "\",\"kernel\":\"" << k.name << "\",\"block\":[" << k.block[0] << ","
             << k.block[1] << "," << k.block[2] << "],\"grid\":[" << k.grid[0] << "," << k.grid[1] << ","
             << k.grid[2] << "],\"params\":{";
    bool first = true;
    for (auto &[n, v] : k.params) {
      manifest << (first ? "" : ",") << "\"" << n << "\":" << v;
      first = false;
    }
    manifest << "},\"data_dependent\":" << (k.data_dependent ? "true" : "false") << "}\n";
  }
  if (!manifest) {
    std::cerr << "cannot write " << (out / "manifest.jsonl") << "\n";
    return 2;
  }
  std::cout << "wrote " << count << " programs and manifest.jsonl to " << out << "\n";
  return 0;
}
