#pragma once
// A generator of small random CUDA kernels for differential testing (the analysis against
// the oracle, and a GPU under compute-sanitizer as a third opinion).
//
// GenKernel is a small AST (GExpr, GStmt) plus a launch and concrete values of its scalar
// parameters; emit() turns it into CUDA source that nvcc (-arch=sm_90) compiles and
// kverify's front end parses. genKernel() is built from rc::gen combinators, so failing
// cases shrink: statement lists lose elements, compound statements collapse into simpler
// ones, expressions shrink toward constants, loop bounds toward small constants and launch
// sizes toward one block of few threads.
//
// Every kernel has the same signature:
//   __global__ void <name>(int *g0, int *g1, int p0, int p1)
// two shared arrays `__shared__ int s0[N0]`, `s1[N1]` (N in 32, 64, 128) and four locals
//   int v0; unsigned v1; short v2; unsigned char v3;
// Global indices always stay in [0, kGlobalElems) so a host program can allocate them.

#include <rapidcheck.h>

#include <array>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace kverify::difftest {

constexpr int kGlobalElems = 2048;  // elements every global array needs
constexpr int kMaxLoopDepth = 3;

struct GExpr {
  enum class K {
    Const,    // v
    Tid,      // v: 0 threadIdx.x, 1 threadIdx.y, 2 linear id in the block, 3 lane (x & 31)
    Bid,      // blockIdx.x
    BDim,     // v: 0 blockDim.x, 1 blockDim.y
    Param,    // p<v>
    LoopVar,  // i<v> (v: loop nesting level, 0 outermost)
    Local,    // v<v>
    Bin,      // op(a[0], a[1])
    Select,   // a[0] ? a[1] : a[2]    (a[0] a condition)
    Cast,     // (type v) a[0]: 0 int, 1 unsigned, 2 short, 3 unsigned char
    Load,     // s<v>[index a[0]]       (index: a GExpr of kind Index)
    Index,    // an index into shared array v: a[0] wrapped by op (see IndexWrap)
    Call,     // kv_helper(a[0], a[1])
    Cmp,      // op(a[0], a[1]) comparison
    Logic,    // op: 0 &&, 1 ||, 2 ! (a[0] only)
    GIndex,   // an index into a global array, op: 0 global thread id, 1 (a[0]) & 1023,
              // 2 global thread id + a[0] (a constant), 3 linear id in the block, 4 blockIdx.x
  };
  K k = K::Const;
  int v = 0;
  int op = 0;
  std::vector<GExpr> a;
};

// Binary arithmetic operators (GExpr::op for Bin).
enum BinOp { Add, Sub, Mul, Shl, Shr, Mod, And, Xor, Or, kBinOps };
// Comparisons (GExpr::op for Cmp).
enum CmpOp { Lt, Le, Gt, Ge, Eq, Ne, kCmpOps };
// How an Index keeps itself in bounds (GExpr::op for Index).
enum IndexWrap { WrapMask, WrapMod, WrapNone };

struct GStmt {
  enum class K {
    StoreShared,   // s<arr>[idx] = val            (op 1: +=)
    StoreGlobal,   // g<arr>[gidx] = val
    AtomicShared,  // atomicAdd(&s<arr>[idx], 1)   (var >= 0: v<var> = atomicAdd(...))
    AtomicGlobal,  // atomicAdd(&g<arr>[gidx], 1)
    Assign,        // v<var> = val                  (op 1: masked with & 1023)
    Sync,          // __syncthreads()
    SyncWarp,      // __syncwarp()  (op 1: __syncwarp(0xffffffff))
    SyncWarpMask,  // if ((threadIdx.x & 31) < 16) __syncwarp(0xffff)
    If,            // if (cond) body else els
    For,           // for (int i<d> = 0; i<d> < bound; i<d> += step) body
    DoWhile,       // { int i<d> = 0; do { i<d>++; body } while (i<d> < bound); }
    Break,         // if (cond) break;
    Continue,      // if (cond) continue;
    Return,        // if (cond) return;
    CallStore,     // kv_store(s<arr>, N, idx-expr, val)
  };
  K k = K::Sync;
  int arr = 0;
  int var = -1;
  int op = 0;
  int step = 1;
  int depth = 0;     // loops: their nesting level
  GExpr idx, val, cond;  // cond doubles as a loop's bound
  std::vector<GStmt> body, els;
};

struct GenKernel {
  std::string name = "k";
  std::array<int, 2> shared_size{64, 64};
  std::vector<GStmt> body;
  std::array<unsigned, 3> block{32, 1, 1}, grid{1, 1, 1};
  std::map<std::string, int64_t> params;  // p0, p1
  // Derived by finish() (called by genKernel):
  std::string source;       // the whole .cu text
  bool data_dependent = false;  // loads or atomic results reach a condition, an index or a local
  bool uses_helper = false, uses_store_helper = false;
};

// Fills source, data_dependent and the uses_* flags.
void finish(GenKernel &k);
std::string emitSource(const GenKernel &k);
std::string launchText(const GenKernel &k);  // "block (32,2,1) grid (3,1,1) params {p0=1, p1=4}"

rc::Gen<GenKernel> genKernel();

// For RapidCheck's counterexample output: the launch, the parameters and the source.
std::ostream &operator<<(std::ostream &os, const GenKernel &k);

// A standalone program (host main included) that runs the kernel on a GPU with zeroed
// global arrays of kGlobalElems ints, checking every CUDA call.
std::string emitStandaloneProgram(const GenKernel &k);

}  // namespace kverify::difftest

namespace rc {
template <>
struct Arbitrary<kverify::difftest::GenKernel> {
  static Gen<kverify::difftest::GenKernel> arbitrary() { return kverify::difftest::genKernel(); }
};
}  // namespace rc
