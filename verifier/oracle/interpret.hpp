#pragma once
// Internal to the oracle: one thread of the kernel model, run to its end, leaving a
// trace of its accesses and barriers (see oracle.hpp and model/model.hpp): its statements
// (interpret.cpp), its expressions (interpret_expr.cpp), and the memory it shares with
// the other threads of the run (interpret_memory.cpp).
//
// Values. Integers (and bools) are held as uint64_t bit patterns, normalised to their
// Type after every operation: truncated to `bits`, then sign-extended for signed types
// (so (int64_t)v is the C value) or zero-extended for unsigned ones. Floats are held as
// doubles (rounded through float for 32-bit floats). Pointer and Other values are integers
// of 64 bits; where they come from a parameter they are seeded.
//
// Undefined behaviour the analysis assumes away stops the run with Status::Ub, but only
// where the operation is actually evaluated (&&, || and ?: evaluate lazily):
//   signed Add/Sub/Mul/Neg overflow, Div/Rem by zero, signed INT_MIN / -1 and INT_MIN % -1.
// Shifts are NOT undefined here: the amount is read as an unsigned bit pattern, and an
// amount >= the width gives 0 (Shl, logical Shr) or the sign fill (arithmetic Shr),
// which is what a bit-vector (SMT-LIB bvshl/bvlshr/bvashr) semantics gives.
// A float -> int conversion of NaN or of a value out of the target's range gives a
// seeded value.
//
// Seeded values (a deterministic function of the launch's seed and what asks):
//   opaque:  (seed, opaque id, global linear thread id, n-th evaluation of that node in
//            this thread): mostly small (0 .. 2*block size), sometimes the thread's own
//            ids, sometimes small negative ones (signed types), and for seeds = 3 mod 4
//            sometimes any value of the type;
//   load of a shared location: (seed, array, first unit, width, block, the barrier
//            instances that opened the thread's current interval, unless no statement of
//            the kernel writes the array), never a thread's ids: the same for every thread
//            of the block reading it in that interval, unless forwarded from a store of an
//            earlier interval (Thread::forwarded);
//   load of a global or constant array the kernel never writes: (seed, array, first
//            unit, width), the same for the whole launch;
//   unassigned local (read before any Assign): (seed, local id, thread), then kept;
//   Assign with no value: (seed, local id, thread, n-th such assignment);
//   the result of __syncthreads_or/_and/_count (an opaque with `per_block`, which the analysis
//            also reads): one value for the whole block, (seed, opaque id, block, n-th
//            evaluation of that node in the thread), since threads run one at a time and
//            the real value (a reduction over the block's predicates) is not known here;
//   missing parameter: (seed, name), the same for every thread; small;
//   NotNull: true (pointer parameters point at buffers); Address: distinct per array and
//            aligned to 256 bytes, as cudaMalloc's are.
#include "oracle/trace.hpp"

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kverify::oracle::detail {

using model::BinaryOp;
using model::Expr;
using model::Stmt;
using model::Type;
using model::UnaryOp;
namespace st = model::stmt;
namespace ex = model::expr;

inline uint64_t mix(uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
inline uint64_t hashOf(std::initializer_list<uint64_t> parts) {
  uint64_t h = 0x51ed270b27a1f3c5ull;
  for (uint64_t p : parts) h = mix(h ^ p);
  return h;
}

inline unsigned widthOf(const Type &t) {
  if (t.kind == Type::Kind::Bool) return 1;
  if (t.kind == Type::Kind::Int && t.bits > 0 && t.bits < 64) return t.bits;
  return 64;
}

// Truncates to the type's width, then sign- or zero-extends.
inline uint64_t normalise(const Type &t, uint64_t v) {
  if (t.kind == Type::Kind::Bool) return v & 1;
  unsigned w = widthOf(t);
  if (w >= 64) return v;
  uint64_t m = (uint64_t(1) << w) - 1;
  v &= m;
  if (t.kind == Type::Kind::Int && t.is_signed && (v >> (w - 1)) & 1) v |= ~m;
  return v;
}

struct Value {
  uint64_t i = 0;  // integers, bools, pointers, other
  double f = 0;    // floats
};

struct Stop {  // ends the run: Ub, Assumption or StepLimit
  Result::Status status;
  std::string detail;
};

enum class Flow { Normal, Break, Continue, Return };

class Thread {
public:
  Thread(const model::Kernel &k, const Launch &l, const Dim3 &grid, RunMemory &memory, Trace &t)
      : kernel_(k), launch_(l), grid_(grid), memory_(memory), trace_(t) {
    const Dim3 &b = l.block;
    block_size_ = uint64_t(b[0]) * b[1] * b[2];
    uint64_t block_linear =
        t.id.block[0] + uint64_t(t.id.block[1]) * grid[0] + uint64_t(t.id.block[2]) * grid[0] * grid[1];
    block_linear_ = block_linear;
    global_linear_ = block_linear * block_size_ + t.linear;
  }

  void runBody();
  Value eval(const Expr &e);
  bool truth(const Expr &e);

  bool seeded = false;

  std::optional<int64_t> integer(const Expr &e);

private:
  const model::Kernel &kernel_;
  const Launch &launch_;
  const Dim3 &grid_;
  RunMemory &memory_;
  Trace &trace_;
  uint64_t block_size_ = 1, block_linear_ = 0, global_linear_ = 0, steps_ = 0;
  std::unordered_map<unsigned, Value> locals_;
  std::unordered_map<const Expr *, uint64_t> evaluations_;
  std::unordered_map<unsigned, uint64_t> havocs_;
  std::vector<std::pair<const Stmt *, uint64_t>> loops_;  // the enclosing loops now
  // Reads of one shared element in one barrier interval by the threads of a block give
  // one value (where no write races with them, they would in a real run; the analysis
  // assumes it): the interval is named by its opening barrier instance, of every kind of
  // barrier and of block barriers (0 before the first).
  uint64_t block_phase_ = 0, any_phase_ = 0;
  uint64_t block_barriers_ = 0;  // passed so far (the same count in every thread of a block)
  // A read's location: its array, first unit and width.
  struct Location {
    unsigned array = 0;
    int64_t first = 0;
    unsigned count = 1;
  };
  std::unordered_map<unsigned, Location> last_read_;  // Access id -> where it read
  // Reads of a global or constant array no access of the kernel writes: its contents, one
  // value per element for the whole launch (a real run reads the same value everywhere).
  std::unordered_map<unsigned, Location> last_constant_read_;
  std::optional<std::vector<bool>> written_;            // by array
  std::unordered_map<unsigned, uint64_t> last_ticket_;  // Access id -> the value it returns
  std::unordered_map<unsigned, uint64_t> last_flag_;    // the same for atomics on flags
  std::vector<Sync> pending_acquires_;                  // relaxed loads of flags, acquired at a fence
  size_t last_fence_ = 0;                               // events before the last device fence

  [[noreturn]] void stop(Result::Status s, const std::string &what, const model::SourceRange *r = nullptr) {
    std::string d = what;
    if (r && r->valid()) d += " at " + where(*r);
    d += " in thread " + threadName(trace_.id);
    throw Stop{s, d};
  }
  [[noreturn]] void ub(const std::string &what) { stop(Result::Status::Ub, what, current_); }

  const model::SourceRange *current_ = nullptr;  // the statement being executed

  static Value intValue(const Type &t, uint64_t v) { return {normalise(t, v), 0}; }
  static Value floatValue(const Type &t, double d) {
    if (t.bits == 32 && std::isfinite(d)) d = static_cast<double>(static_cast<float>(d));
    return {0, d};
  }

  // Expressions (interpret_expr.cpp)
  Value drawn(const Type &t, uint64_t h, bool same_for_all = false);
  Value param(const Type &type, const std::string &name);
  Value builtin(const Type &type, model::Builtin which);
  Value local(const Type &type, unsigned id);
  Value opaque(const Expr &e, const ex::Opaque &o);
  Value unary(const Type &type, const ex::Unary &u);
  Value convert(const Type &t, const Expr &a, Value v);
  Value binary(const Type &type, const ex::Binary &bin);
  Value floatBinary(const Type &type, BinaryOp op, double x, double y);

  // Memory the threads of the run share (interpret_memory.cpp)
  std::optional<Value> forwarded(const Type &type, const Location &at);
  void sharedWrite(const st::Access &a, int64_t index, const std::optional<Value> &stored);
  uint64_t ticket(const st::Access &s, int64_t index);
  bool written(unsigned array);
  bool fixedContents(unsigned array);
  void flagAccess(const st::Access &a, int64_t index);

  // Statements (interpret.cpp)
  void step(const Stmt &s);
  void record(const Stmt &s, int64_t index, uint32_t mask);
  Flow execBlock(const model::Body &body);
  Flow exec(const Stmt &s);
  Flow assumeForall(const Stmt &s, const st::Assume &a);
  Flow access(const Stmt &s, const st::Access &a);
  Flow fence(const st::Fence &f);
  Flow barrier(const Stmt &s, const st::Barrier &b);
  Flow assign(const st::Assign &a);
  Flow loop(const Stmt &s, const st::Loop &l);
};

}  // namespace kverify::oracle::detail
