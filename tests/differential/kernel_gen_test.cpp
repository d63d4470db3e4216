// The random kernel generator: its kernels parse with kverify's front end, completely
// (no `unsupported` entries), and compile with nvcc for sm_90 when nvcc is installed.
#include "frontend/frontend.hpp"
#include "kernel_gen.hpp"
#include "model/walk.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <unistd.h>

using namespace kverify;
using namespace kverify::difftest;
namespace fs = std::filesystem;

namespace {

// N kernels from a fixed seed, across the whole size range.
std::vector<GenKernel> sample(int n, uint64_t seed) {
  std::vector<GenKernel> out;
  rc::Random r(seed);
  rc::Gen<GenKernel> g = genKernel();
  for (int i = 0; i < n; ++i) {
    rc::Random ri = r.split();
    out.push_back(g(ri, i * 100 / n + 1).value());
  }
  return out;
}

fs::path tempDir(const std::string &what) {
  fs::path d = fs::temp_directory_path() / ("kverify_gen_" + what + "_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

// Constructs whose rules need a generator that makes them (struct fields, loops that wrap
// or run from negative starts, do/while with a block-uniform condition, tickets, methods
// and constructors, launches read from host code).
const char *const kNewConstructs[] = {
    "KvPair *g2",
    "__shared__ KvPair",
    "int2 sv",
    "uchar4 sc",
    "KvRow sr",
    "KvDerived sd",
    "kv_conf.",
    "g3[",
    "atomicAdd(&g4",
    "atomicAdd(&scnt",
    "i0 += blockDim.x",
    "-= blockDim.x",
    "<<= ",
    "*= ",
    "__syncthreads_or(",
    "while (i0 <",
    "continue;",
    "break;",
    "stk[0] = atomicAdd",
    " * 2 + ",
    " * 3 + ",
    "int t = v0",
    "v4 = v5",
    "if (++v1",
    " >>= 1;",
    " /= 2;",
    "atomicExch(&g6",
    "KvBox sb[",
    ".put(",
    ".at(",
    ")->get(",
    ")->put(",
    "KvAcc t(",
    "dim3 grid(",
    "dim3 grid((p0",
    "<<<blocks, threads>>>",
    "p0, (",
    "grid.x = ",
    "[g3[(",
    "for (int j = g3[",
    "KV_ASSUME_FORALL(",
    "KV_ASSUME_FORALL2(",
    "i == j || g3[i] != g3[j]",
    "i >= j || g3[i] <= g3[j]",
    " * 3 + 1)",
    "void run_",
};

// The premises about g3 (ArrayPremise) read back: two quantified assumptions, one index
// and then two, each over g3's contents.
void expectPremises(const GenKernel &k, const model::Kernel &m) {
  std::vector<const model::stmt::Assume *> quantified;
  model::forEachStmt(m.body, [&](const model::Stmt &s) {
    if (const auto *a = s.as<model::stmt::Assume>(); a && !a->forall.empty()) quantified.push_back(a);
  });
  if (k.premise == NoPremise) {
    EXPECT_TRUE(quantified.empty()) << k;
    return;
  }
  ASSERT_EQ(quantified.size(), 2u) << k;
  EXPECT_EQ(quantified[0]->forall.size(), 1u) << k;
  EXPECT_EQ(quantified[1]->forall.size(), 2u) << k;
  for (const auto *a : quantified) {
    bool reads_g3 = false;
    model::forEachNode(*a->cond, [&](const model::Expr &x) {
      if (const auto *e = x.as<model::expr::Element>()) reads_g3 = reads_g3 || e->name == "g3";
    });
    EXPECT_TRUE(reads_g3) << model::toString(a->cond) << k;
  }
}

// The launch the front end reads from a generated host launcher: every known component as
// generated, the p0-computed grid unknown with a fact, and nothing read without one.
void expectHostLaunch(const GenKernel &k, const model::Kernel &m) {
  if (k.host_launch == NoHostLaunch) {
    EXPECT_FALSE(m.launch.has_value()) << k;
    return;
  }
  ASSERT_TRUE(m.launch.has_value()) << k;
  const model::HostLaunch &l = *m.launch;
  for (int d = 0; d < 3; ++d) EXPECT_EQ(l.block[d], std::optional<uint64_t>(k.block[d])) << d << k;
  EXPECT_EQ(l.grid[1], std::optional<uint64_t>(1)) << k;
  EXPECT_EQ(l.grid[2], std::optional<uint64_t>(1)) << k;
  if (k.host_launch == FieldsAssigned) {  // every field as assigned, no facts needed
    EXPECT_EQ(l.grid[0], std::optional<uint64_t>(k.grid[0])) << k;
    EXPECT_TRUE(l.grid_facts.empty() && l.block_facts.empty() && l.arg_facts.empty()) << k;
  } else if (k.host_launch == LiteralDims || k.host_launch == ViaCaller) {
    EXPECT_EQ(l.grid[0], std::optional<uint64_t>(k.grid[0])) << k;
    EXPECT_TRUE(l.grid_facts.empty()) << k;
    int64_t p1 = k.params.at("p1");  // a negative constant gives no fact
    EXPECT_EQ(l.arg_facts,
              p1 < 0 ? std::vector<std::string>{} : std::vector<std::string>{"p1 == " + std::to_string(p1)})
        << k;
    // a value read through a call rests on the file holding every call of the launcher
    EXPECT_EQ(l.premises,
              k.host_launch == ViaCaller && p1 >= 0
                  ? std::vector<std::string>{"'launch_" + k.name + "' is called only from this file"}
                  : std::vector<std::string>{})
        << k;
  } else {
    EXPECT_FALSE(l.grid[0].has_value()) << k;
    EXPECT_EQ(l.grid_facts.size(), 1u) << k;
    EXPECT_TRUE(l.arg_facts.empty()) << k;  // p0 and p1 are the launcher's parameters
  }
}

}  // namespace

TEST(KernelGen, ParsesWithTheFrontEnd) {
  fs::path dir = tempDir("parse");
  int hazardsish = 0, loops = 0, dd = 0;
  std::map<std::string, int> constructs;
  auto kernels = sample(200, 12345);
  for (size_t i = 0; i < kernels.size(); ++i) {
    const GenKernel &k = kernels[i];
    fs::path file = dir / ("k" + std::to_string(i) + ".cu");
    std::ofstream(file) << k.source;
    frontend::Options fo;
    fo.print_diagnostics = false;
    model::TranslationUnitModel tu = frontend::parseFile(file.string(), fo);
    ASSERT_TRUE(tu.parsed) << k << "\n" << (tu.diagnostics.empty() ? "" : tu.diagnostics[0].message);
    for (const auto &d : tu.diagnostics) EXPECT_NE(d.severity, "error") << d.message << k;
    ASSERT_EQ(tu.kernels.size(), 1u) << k;
    const model::Kernel &m = tu.kernels[0];
    EXPECT_EQ(m.name, k.name);
    for (const auto &u : m.unsupported)
      ADD_FAILURE() << "unsupported " << u.construct << ": " << u.detail << " at " << u.range.line << ":"
                    << u.range.col << k;
    expectHostLaunch(k, m);
    expectPremises(k, m);
    if (k.source.find("for (") != std::string::npos) ++loops;
    for (const char *c : kNewConstructs)
      if (k.source.find(c) != std::string::npos) ++constructs[c];
    if (k.data_dependent) ++dd;
    if (k.source.find("__syncthreads") != std::string::npos) ++hazardsish;
  }
  fs::remove_all(dir);
  // The sample is varied.
  EXPECT_GT(loops, 20);
  EXPECT_GT(hazardsish, 20);
  EXPECT_GT(dd, 5);
  for (const char *c : kNewConstructs) EXPECT_GE(constructs[c], 1) << c;
}

TEST(KernelGen, ShrinksToSmallerKernels) {
  // Every shrink of a generated kernel is a valid kernel that still parses, and shrinking
  // reaches a small kernel.
  rc::Random r(777);
  rc::Gen<GenKernel> g = genKernel();
  rc::Shrinkable<GenKernel> s = g(r, 100);
  for (int i = 0; i < 5; ++i) {
    rc::Random ri = r.split();
    s = g(ri, 100);
    if (s.value().body.size() >= 3) break;
  }
  size_t before = s.value().source.size();
  // Greedy: always take the first shrink (the most aggressive).
  int steps = 0;
  while (auto next = s.shrinks().next()) {
    s = *next;
    if (std::getenv("KV_DEBUG_SHRINK"))
      std::cerr << steps << " " << s.value().body.size() << " " << s.value().source.size() << "\n";
    if (++steps > 5000) break;
  }
  EXPECT_LT(s.value().source.size(), before);
  EXPECT_TRUE(s.value().body.empty()) << s.value();
  EXPECT_EQ(s.value().block[0], 8u) << s.value();
  EXPECT_EQ(s.value().block[1], 1u) << s.value();
  EXPECT_EQ(s.value().grid[0], 1u) << s.value();
}

TEST(KernelGen, CompilesWithNvcc) {
  const char *nvcc = KVERIFY_NVCC;
  if (!fs::exists(nvcc)) GTEST_SKIP() << nvcc << " not found";
  fs::path dir = tempDir("nvcc");
  auto kernels = sample(20, 999);
  for (size_t i = 0; i < kernels.size(); ++i) {
    fs::path file = dir / ("k" + std::to_string(i) + ".cu");
    fs::path prog = dir / ("p" + std::to_string(i) + ".cu");
    std::ofstream(file) << kernels[i].source;
    std::ofstream(prog) << emitStandaloneProgram(kernels[i]);
    std::string log = (dir / ("k" + std::to_string(i) + ".log")).string();
    // Kernels compile alone; every few, the standalone program (host code too).
    std::string cmd = std::string(nvcc) + " -arch=sm_90 -c " + file.string() + " -o " +
                      (dir / ("k" + std::to_string(i) + ".o")).string() + " > " + log + " 2>&1";
    if (i % 5 == 0)
      cmd += " && " + std::string(nvcc) + " -arch=sm_90 " + prog.string() + " -o " +
             (dir / ("p" + std::to_string(i))).string() + " >> " + log + " 2>&1";
    int rc = std::system(cmd.c_str());
    if (rc != 0) {
      std::ifstream in(log);
      std::string text((std::istreambuf_iterator<char>(in)), {});
      ADD_FAILURE() << "nvcc failed:\n" << text << kernels[i];
    }
  }
  fs::remove_all(dir);
}
