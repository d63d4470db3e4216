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
// Every kernel starts with the same signature:
//   __global__ void <name>(int *g0, int *g1, int p0, int p1
// followed, where the body uses them, by `KvPair *g2` (global structs), `const int *g3`
// (read-only, never written), `unsigned *g4` (ticket counters, only atomicAdd'ed) and
// `int *g5, unsigned *g6` (data published through flags, which start zeroed);
// two shared arrays `__shared__ int s0[N0]`, `s1[N1]` (N in 32, 64, 128) and four locals
//   int v0; unsigned v1; short v2; unsigned char v3;
// Struct sites (StructSite) are declared where used: shared arrays of structs, int2 and
// uchar4, a struct with an array field, a struct with a base class, a __constant__ struct.
// Global indices always stay in [0, kGlobalElems) so a host program can allocate them;
// struct sites' indices are masked into their arrays.

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
    Field,    // a field of struct site v (StructSite), field op; element a[0] (masked into
              // the site's array; a GIndex for GPair; none for CConf); SRow's v[] field
              // and SBox's methods: item a[1] (masked & 3, & 15 inside SBox's methods)
    RoLoad,   // g3[(a[0]) & 1023]: the read-only global array
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
// Where struct fields live (GExpr::v for Field):
//   GPair    g2[i].{a,b}         global `struct KvPair { int a; int b; }`
//   SPair    sp[32].{a,b}        __shared__ KvPair
//   SInt2    sv[32].{x,y}        __shared__ int2
//   SUchar4  sc[64].{x,y,z,w}    __shared__ uchar4
//   SRow     sr[16].{v[4],n}     __shared__ `struct KvRow { int v[4]; int n; }`
//   SDerived sd[32].{base,extra} __shared__ `struct KvDerived : KvBase { int extra; }`
//   SBox     sb[4]               __shared__ `struct KvBox { int d[16]; int n; }` through its
//                                methods (field op): 0 get(item)/put(item, v), 1 at(item) (a
//                                reference), 2 the same as 0 through a pointer (&sb[i])->,
//                                3 the field n
//   CConf    kv_conf.{lo,hi}     __constant__ `struct KvConf { int lo; int hi; }` (read only)
enum StructSite { GPair, SPair, SInt2, SUchar4, SRow, SDerived, SBox, CConf, kStructSites };
// The shape of a For loop (GStmt::op for For); i is the loop variable, B the bound (cond):
//   Up          for (int i = 0; i < B; i += step)
//   UpBlock     for (int i = (int)threadIdx.x - step; i < B; i += blockDim.x)  (B may be unsigned)
//   UpBlockU    for (unsigned i = threadIdx.x - step; i < B; i += blockDim.x)
//   DownBlock   for (int i = (int)(B) - 1 - (int)threadIdx.x; i >= 0; i -= blockDim.x)
//   ShlOut      for (unsigned i = S; i != 0; i <<= step)      (S: val; shifts out)
//   MulWrap     for (unsigned i = S; i != 0; i *= step)       (step even: wraps to 0)
//   MulNeg      for (int i = -1 - S; i >= -(int)(B); i *= 2)  (S: val, small)
//   ShrDown     for (int i = B; i > 0; i >>= step)             (B may be 1 << (p & 7))
enum LoopForm { Up, UpBlock, UpBlockU, DownBlock, ShlOut, MulWrap, MulNeg, ShrDown, kLoopForms };
// The shape of a DoWhile (GStmt::op); the counter i starts at 0 and is incremented first:
//   DoLoop   do { i++; body } while (i < B);
//   WhileLoop while (i < B) { i++; body }
//   DoSyncOr do { i++; body } while (__syncthreads_or(i < B));   (a block-uniform condition)
enum DoForm { DoLoop, WhileLoop, DoSyncOr };
// Updates of a local by itself (GStmt::op for Update; c is val, a constant or a parameter),
// the loop updates the analysis has closed forms or invariants for, and one it has none for:
//   UAdd     v += c                 UShl  v <<= 1          UShr   v >>= 1
//   UDiv     v /= 2 (signed v)      UAffine v = v * 2 + c   UFlip  v = c - v
//   UHavoc   v = v * 3 + c (no closed form)
//   URing    if (++v1 == C) v1 = 0;   (stays in 0..C)
//   USwap    { int t = v0; v0 = v4; v4 = t; }
//   UCopy    v4 = v5; v5 = v4;        (both keep their start value 0)
enum UpdateForm { UAdd, UShl, UShr, UDiv, UAffine, UFlip, UHavoc, URing, USwap, UCopy, kUpdateForms };

struct GStmt {
  enum class K {
    StoreShared,   // s<arr>[idx] = val            (op 1: +=; op 2: then v2 = s<arr>[idx])
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
    StoreField,    // <idx: a Field> = val          (op 1: +=)
    Ticket,        // v1 = atomicAdd(&<counter>[(idx) & 3], 1u); if (v1 < N) <array>[v1] = val;
                   // op 0: counter g4, array g<arr>; op 1: counter __shared__ scnt, array s<arr>
    BlockTicket,   // thread 0 takes a ticket into __shared__ stk[0], a barrier, every thread
                   // reads it into v1 and, if v1 < 15, writes g<arr>[v1 * 128 + linear id]
    Update,        // a local updated by itself (op: UpdateForm)
    LocalObject,   // { KvAcc t(val); v0 = t.total(); }: a constructor with initializers and
                   // a body, then a const method (v0 = 2 * (val & 63) + 1)
    Permuted,      // s<arr>[g3[(idx) & 31]] = val;    (a data-dependent index: see ArrayPremise)
    Segment,       // for (int j = g3[(idx) & 31]; j < g3[((idx) & 31) + 1]; ++j) s<arr>[j] = val;
                   // (op 1: j <= ..., one element past the segment)
    Search,        // srad's reduce: one counter for three loops, declared without a value:
                   //   { int w<d>, i<d>; w<d> = 0 (op & 1: threadIdx.x & 1);
                   //     if ((threadIdx.x & 3) == 0) for (i<d> = 0; i<d> < 2; ++i<d>) v0 += i<d>;
                   //     for (i<d> = 1; i<d> <= 40; i<d> = i<d> * 3 + 1)
                   //       if (p1 (op & 2: (int)threadIdx.x) >= i<d>) w<d> = i<d>;
                   //     for (i<d> = 1; i<d> <= w<d>; i<d> *= 2) body }
    Publish,       // message passing between blocks: thread 0 writes g5[blockIdx.x] = val,
                   // (op 1: no fence) a fence, atomicExch(&g6[blockIdx.x], 1u); reads flag
                   // g6[blockIdx.x - 1] (an atomic load, a fence) and, if it is 1, reads
                   // g5[blockIdx.x - 1] into v0. g6 starts zeroed (--zero-init=g6).
  };
  K k = K::Sync;
  int arr = 0;
  int var = -1;
  int op = 0;
  int step = 1;
  int depth = 0;         // loops: their nesting level
  GExpr idx, val, cond;  // cond doubles as a loop's bound
  std::vector<GStmt> body, els;
};

// How the source launches the kernel (GenKernel::host_launch). Without a host launch the
// launch is a `// kverify:` comment; with one, a host function launch_<name> launches it
// and the analysis reads the launch (and its facts) from there:
//   LiteralDims  dim3 block(X, Y); dim3 grid(G); k<<<grid, block>>>(..., p0, (P1))
//                (p1's value passed as a constant)
//   CeilGrid     dim3 block(X, Y); dim3 grid((p0 + X - 1) / X); k<<<grid, block>>>
//                (p0 >= 1: the grid covers p0 blocks of X)
//   IntCeilGrid  int threads = X; int blocks = (p0 + threads - 1) / threads;
//                k<<<blocks, threads>>>   (1-D blocks)
//   FieldsAssigned  dim3 block(1); block.x = X; block.y = Y; dim3 grid(1);
//                grid.x = G * X / block.x; k<<<grid, block>>>   (fields read where assigned)
//   ViaCaller    as LiteralDims, but launch_<name> passes its own p1, and run_<name> calls it
//                with p1's value as a constant (the value read through the call)
enum HostLaunchForm {
  NoHostLaunch,
  LiteralDims,
  CeilGrid,
  IntCeilGrid,
  FieldsAssigned,
  ViaCaller,
  kHostLaunchForms
};

// What the kernel assumes about g3's contents (GenKernel::premise), stated at its start with
// KV_ASSUME_FORALL / KV_ASSUME_FORALL2, and what the standalone program stores there (the
// premise holds; outside its range, the worst case):
//   Permutation   g3[0..32) is a permutation of 0..31     g3[i] = (13 i + 5) & 31
//   ShortDistinct in [0, 32), distinct only on [0, 31)     the same, but g3[31] = g3[0]
//   WideRange     in [0, 32], distinct on [0, 32)          ((13 i + 5) & 31) + 1: 32 appears
//   Sorted        g3[0..33) non-decreasing, in [0, 32]      g3[i] = 3 i / 4
// Anything else in g3 is 0.
enum ArrayPremise { NoPremise, Permutation, ShortDistinct, WideRange, Sorted, kArrayPremises };

struct GenKernel {
  std::string name = "k";
  std::array<int, 2> shared_size{64, 64};
  std::vector<GStmt> body;
  std::array<unsigned, 3> block{32, 1, 1}, grid{1, 1, 1};
  std::map<std::string, int64_t> params;  // p0, p1
  int host_launch = NoHostLaunch;         // HostLaunchForm
  int premise = NoPremise;                // ArrayPremise
  // Derived by finish() (called by genKernel):
  std::string source;           // the whole .cu text
  bool data_dependent = false;  // loads or atomic results reach a condition, an index or a local
  bool uses_helper = false, uses_store_helper = false;
  std::array<bool, kStructSites> uses_site{};  // struct sites the body names
  bool uses_ro = false, uses_counter = false, uses_shared_counter = false;
  bool uses_block_ticket = false, uses_extra_locals = false;  // stk; v4, v5
  bool uses_flags = false;                                    // g5, g6 (zeroed)
  bool uses_local_object = false;                             // struct KvAcc
};

// The global arrays a kernel takes after (g0, g1, p0, p1): those its body uses, g<n> of
// `elem` (read_only: a `const` parameter).
struct GlobalArray {
  int n;
  const char *elem;
  bool read_only = false;
};
std::vector<GlobalArray> extraGlobalArrays(const GenKernel &k);

// Fills source, data_dependent and the uses_* flags.
void finish(GenKernel &k);
std::string emitSource(const GenKernel &k);    // the kernel (and what it uses)
std::string emitLauncher(const GenKernel &k);  // its host launcher, if any (source has both)
std::string launchText(const GenKernel &k);    // "block (32,2,1) grid (3,1,1) params {p0=1, p1=4}"
// The global arrays the launcher zeroes that the analysis and the oracle must be told of.
std::vector<std::string> zeroInit(const GenKernel &k);  // {"g6"} where flags are used

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
