// The host oracle: generated kernels (kernel_gen.hpp) compiled for the host with g++ under
// an emulation of CUDA (host_oracle/cuda_host.h) and run thread by thread
// (host_oracle/host_driver.cpp), their memory accesses recorded by the compiler's own
// instrumentation, against the accesses of the oracle's run of kverify's model of the same
// source (same launch and parameters). It shares nothing with kverify's front end, so a
// mis-modelled expression, a wrong field offset or a field folded into its element shows
// up as a differing byte address.
//
// Compared: kernels whose control flow and indices do not depend on values read from
// memory (not data_dependent: what the oracle draws from its seed is only stored) and
// whose oracle run is Ok; per thread,
// the accesses as multisets of (array, read/write/atomic, block barriers passed before,
// bytes). A thread the host stopped at an address outside every array (an out-of-bounds
// index) must have an out-of-bounds access in the model too. Outcomes per kernel:
//   exact     every host access is a model access of the same bytes, and none is left over
//   coarse    the same, but some model access covers more bytes than the host's (a struct
//             field modelled as its whole element: sound, less precise)
//   disagree  a host access no model access covers, or a model access the host never made
//   skipped   data-dependent, not parsed/unsupported, oracle run not Ok
//
// KVERIFY_HOST_ORACLE_N kernels (default 40) from KVERIFY_HOST_ORACLE_SEED (default 1);
// KVERIFY_HOST_ORACLE_STATS names a file for the counters (key=value lines).
#include "frontend/frontend.hpp"
#include "kernel_gen.hpp"
#include "oracle/oracle.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace kverify;
using namespace kverify::difftest;
namespace fs = std::filesystem;

namespace {

struct HostAccess {
  char kind = 'r';  // r, w, a
  std::string array;
  uint64_t lo = 0, hi = 0;  // bytes
  uint32_t barriers = 0;
};
struct HostThread {
  std::vector<HostAccess> accesses;
  bool stopped = false;  // at an address outside every array
};
using ThreadKey = std::array<uint32_t, 6>;  // thread x y z, block x y z

std::string envOr(const char *name, const std::string &fallback) {
  const char *v = std::getenv(name);
  return v && *v ? v : fallback;
}

std::string run(const std::string &cmd) {
  std::string out;
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  if (pclose(p) != 0) out += "\n#failed\n";
  return out;
}

// The kernel's source (without its CUDA host launcher) and a kv_launch the driver calls
// with its global arrays.
std::string hostSource(const GenKernel &k) {
  std::string args = "(int *)g[0], (int *)g[1], p0, p1";
  for (const GlobalArray &a : extraGlobalArrays(k))
    args += std::string(", (") + (a.read_only ? "const " : "") + a.elem + " *)g[" + std::to_string(a.n) + "]";
  return emitSource(k) + "\nextern \"C\" void kv_launch(void *const *g, int p0, int p1) { " + k.name + "(" +
         args + "); }\n";
}

std::map<ThreadKey, HostThread> parseHost(const std::string &out, bool &ok) {
  std::map<ThreadKey, HostThread> threads;
  std::istringstream in(out);
  std::string tag;
  HostThread *cur = nullptr;
  ok = true;
  while (in >> tag) {
    if (tag == "T") {
      ThreadKey key;
      for (auto &v : key) in >> v;
      cur = &threads[key];
    } else if (tag == "A" && cur) {
      HostAccess a;
      uint64_t off, width;
      in >> a.kind >> a.array >> off >> width >> a.barriers;
      a.lo = off, a.hi = off + width;
      cur->accesses.push_back(a);
    } else if (tag == "X" && cur) {
      std::string arr, off;
      in >> arr >> off;
      cur->stopped = true;
    } else {
      ok = false;
      break;
    }
  }
  return threads;
}

char kindChar(model::AccessKind k) {
  return k == model::AccessKind::Read ? 'r' : k == model::AccessKind::Write ? 'w' : 'a';
}

struct Counters {
  std::map<std::string, long> outcome;        // exact, coarse, disagree, skipped.*
  std::map<std::string, long> coarse_arrays;  // array names with coarse accesses
  long host_accesses = 0;
  std::string text() const {
    std::ostringstream os;
    for (auto &[k, v] : outcome) os << "host_oracle." << k << "=" << v << "\n";
    for (auto &[k, v] : coarse_arrays) os << "host_oracle.coarse_array." << k << "=" << v << "\n";
    os << "host_oracle.accesses_compared=" << host_accesses << "\n";
    return os.str();
  }
};

// "" when the traces agree; `coarse` set when some model access covers more bytes.
std::string compare(const model::Kernel &m, const std::vector<oracle::AccessRecord> &model,
                    std::map<ThreadKey, HostThread> &host, bool &coarse, std::set<std::string> &coarseArrays,
                    long &compared) {
  struct M {
    const oracle::AccessRecord *r;
    uint64_t lo, hi;
    bool used = false;
  };
  std::map<ThreadKey, std::vector<M>> byThread;
  for (const auto &r : model) {
    ThreadKey key{r.thread.thread[0], r.thread.thread[1], r.thread.thread[2],
                  r.thread.block[0],  r.thread.block[1],  r.thread.block[2]};
    uint64_t es = m.arrays[r.array].elem_size;
    byThread[key].push_back({&r, uint64_t(r.index) * es, uint64_t(r.index + r.count) * es});
  }
  std::ostringstream why;
  auto name = [&](const oracle::AccessRecord &r) { return m.arrays[r.array].name; };
  auto describe = [&](const M &x) {
    std::ostringstream os;
    os << kindChar(x.r->kind) << " " << name(*x.r) << " element " << x.r->index << " (bytes " << int64_t(x.lo)
       << ".." << int64_t(x.hi) << ") after " << x.r->barriers << " barriers at " << x.r->range.line << ":"
       << x.r->range.col;
    return os.str();
  };
  for (auto &[key, ht] : host) {
    auto &ms = byThread[key];
    std::string who = "thread (" + std::to_string(key[0]) + "," + std::to_string(key[1]) + "," +
                      std::to_string(key[2]) + ") block (" + std::to_string(key[3]) + "," +
                      std::to_string(key[4]) + "," + std::to_string(key[5]) + ")";
    for (const HostAccess &h : ht.accesses) {
      ++compared;
      M *best = nullptr;
      for (M &x : ms) {
        if (x.used || x.r->barriers != h.barriers || kindChar(x.r->kind) != h.kind || name(*x.r) != h.array)
          continue;
        if (x.r->index < 0 || x.lo > h.lo || x.hi < h.hi) continue;
        if (!best || (x.lo == h.lo && x.hi == h.hi)) best = &x;
        if (x.lo == h.lo && x.hi == h.hi) break;
      }
      if (!best) {
        why << who << ": the host's " << h.kind << " " << h.array << " bytes " << h.lo << ".." << h.hi
            << " after " << h.barriers << " barriers is no access of the model\n";
        continue;
      }
      best->used = true;
      if (best->lo != h.lo || best->hi != h.hi) {
        coarse = true;
        coarseArrays.insert(h.array);
      }
    }
    bool oobLeft = false;
    for (M &x : ms) {
      if (x.used) continue;
      const model::Array &a = m.arrays[x.r->array];
      bool oob = x.r->index < 0 || (a.size && uint64_t(x.r->index + x.r->count) > *a.size);
      oobLeft = oobLeft || oob;
      if (!ht.stopped) why << who << ": the model's " << describe(x) << " is no access of the host\n";
    }
    if (ht.stopped && !oobLeft)
      why << who
          << ": the host stopped at an address outside every array; the model has no out-of-bounds access\n";
  }
  for (auto &[key, ms] : byThread)
    if (!host.count(key) && !ms.empty()) why << "a model thread the host did not run\n";
  return why.str();
}

}  // namespace

TEST(HostOracle, ModelAccessesAreTheCompiledKernels) {
  const int n = std::atoi(envOr("KVERIFY_HOST_ORACLE_N", "40").c_str());
  const uint64_t seed = std::strtoull(envOr("KVERIFY_HOST_ORACLE_SEED", "1").c_str(), nullptr, 10);
  const std::string cxx = envOr("KVERIFY_HOST_CXX", "g++");
  const std::string dir = KVERIFY_HOST_ORACLE_DIR;
  fs::path tmp = fs::temp_directory_path() / ("kverify_host_oracle_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  std::string driver = (tmp / "driver.o").string();
  std::string log = run(cxx + " -std=c++17 -O0 -c " + dir + "/host_driver.cpp -o " + driver + " 2>&1");
  ASSERT_EQ(log.find("#failed"), std::string::npos) << log;

  Counters c;
  std::vector<std::string> disagreements;
  rc::Random r(seed);
  rc::Gen<GenKernel> g = genKernel();
  for (int i = 0; i < n; ++i) {
    rc::Random ri = r.split();
    GenKernel k = g(ri, 10 + (i * 90) / std::max(n, 1)).value();
    if (k.data_dependent) {
      ++c.outcome["skipped.data_dependent"];
      continue;
    }
    fs::path cu = tmp / ("k" + std::to_string(i) + ".cu");
    std::ofstream(cu) << k.source;
    frontend::Options fo;
    fo.print_diagnostics = false;
    model::TranslationUnitModel tu = frontend::parseFile(cu.string(), fo);
    if (!tu.parsed || tu.kernels.size() != 1 || !tu.kernels[0].unsupported.empty()) {
      ++c.outcome["skipped.unsupported"];
      continue;
    }
    const model::Kernel &m = tu.kernels[0];
    oracle::Launch l;
    l.block = {k.block[0], k.block[1], k.block[2]};
    l.grid = {k.grid[0], k.grid[1], k.grid[2]};
    l.params = k.params;
    l.max_steps = 200000;
    l.zero_init = zeroInit(k);
    std::vector<oracle::AccessRecord> modelAccesses;
    oracle::Result res = oracle::run(m, l, modelAccesses);
    if (res.status != oracle::Result::Status::Ok) {
      ++c.outcome[std::string("skipped.oracle_") + oracle::statusName(res.status)];
      continue;
    }
    // seeded values (loads) only reach stored values here: the accesses do not depend on them
    fs::path cpp = tmp / ("k" + std::to_string(i) + ".cpp"), exe = tmp / ("k" + std::to_string(i));
    std::ofstream(cpp) << hostSource(k);
    log = run(cxx + " -std=c++17 -O0 -w -fwrapv -fsanitize=thread -include " + dir +
              "/cuda_host.h -x c++ -c " + cpp.string() + " -o " + exe.string() + ".o 2>&1 && " + cxx +
              " -no-pie " + exe.string() + ".o " + driver + " -o " + exe.string() + " 2>&1");
    if (log.find("#failed") != std::string::npos) {
      ++c.outcome["disagree"];
      disagreements.push_back("host compile failed:\n" + log + k.source);
      continue;
    }
    std::string out =
        run("timeout 30 " + exe.string() + " " + std::to_string(k.block[0]) + " " +
            std::to_string(k.block[1]) + " " + std::to_string(k.block[2]) + " " + std::to_string(k.grid[0]) +
            " " + std::to_string(k.grid[1]) + " " + std::to_string(k.grid[2]) + " " +
            std::to_string(k.params.at("p0")) + " " + std::to_string(k.params.at("p1")));
    bool ok = true;
    auto host = parseHost(out, ok);
    if (!ok || out.find("#failed") != std::string::npos) {
      ++c.outcome["skipped.host_run_failed"];
      continue;
    }
    bool coarse = false;
    std::set<std::string> coarseArrays;
    std::string why = compare(m, modelAccesses, host, coarse, coarseArrays, c.host_accesses);
    for (const auto &a : coarseArrays) ++c.coarse_arrays[a];
    if (!why.empty()) {
      ++c.outcome["disagree"];
      std::istringstream lines(why);
      std::string first, line;
      for (int j = 0; j < 6 && std::getline(lines, line); ++j) first += line + "\n";
      disagreements.push_back(first + "launch: " + launchText(k) + "\n" + k.source);
    } else {
      ++c.outcome[coarse ? "coarse" : "exact"];
    }
    fs::remove(exe);
    fs::remove(exe.string() + ".o");
  }
  fs::remove_all(tmp);
  std::cerr << "--- host oracle counters (" << n << " kernels, seed " << seed << ") ---\n" << c.text();
  if (const char *f = std::getenv("KVERIFY_HOST_ORACLE_STATS")) std::ofstream(f) << c.text();
  for (size_t i = 0; i < disagreements.size() && i < 5; ++i) ADD_FAILURE() << disagreements[i];
  EXPECT_EQ(c.outcome["disagree"], 0);
  // The comparison is not empty.
  EXPECT_GT(c.outcome["exact"] + c.outcome["coarse"], n / 5);
}
