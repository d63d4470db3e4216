// The oracle's interpreter: one thread of the kernel model, run to its end, leaving a
// trace of its accesses and barriers (see oracle.hpp and model/model.hpp).
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
#include "model/walk.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

namespace kverify::oracle::detail {

using model::BinaryOp;
using model::Expr;
using model::Stmt;
using model::Type;
using model::UnaryOp;
namespace st = model::stmt;
namespace ex = model::expr;

namespace {

uint64_t mix(uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
uint64_t hashOf(std::initializer_list<uint64_t> parts) {
  uint64_t h = 0x51ed270b27a1f3c5ull;
  for (uint64_t p : parts) h = mix(h ^ p);
  return h;
}
uint64_t hashString(const std::string &s) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

unsigned widthOf(const Type &t) {
  if (t.kind == Type::Kind::Bool) return 1;
  if (t.kind == Type::Kind::Int && t.bits > 0 && t.bits < 64) return t.bits;
  return 64;
}

// Truncates to the type's width, then sign- or zero-extends.
uint64_t normalise(const Type &t, uint64_t v) {
  if (t.kind == Type::Kind::Bool) return v & 1;
  unsigned w = widthOf(t);
  if (w >= 64) return v;
  uint64_t m = (uint64_t(1) << w) - 1;
  v &= m;
  if (t.kind == Type::Kind::Int && t.is_signed && (v >> (w - 1)) & 1) v |= ~m;
  return v;
}

bool isSignedInt(const Type &t) { return t.kind == Type::Kind::Int && t.is_signed; }

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

  void runBody() {
    Flow f = execBlock(kernel_.body);
    (void)f;  // Return at top level ends the thread; Break/Continue outside loops: ignore
  }

  Value eval(const Expr &e) {
    return std::visit(
        model::Overloaded{
            [&](const ex::Const &c) {
              if (e.type.kind == Type::Kind::Float) return floatValue(e.type, c.float_value);
              return intValue(e.type, static_cast<uint64_t>(c.int_value));
            },
            [&](const ex::Param &p) { return param(e.type, p.name); },
            [&](const ex::NotNull &) { return intValue(e.type, 1); },
            [&](const ex::Address &a) { return intValue(e.type, (uint64_t(a.array) + 1) << 20); },
            [&](const ex::Builtin &b) { return builtin(e.type, b.which); },
            [&](const ex::Local &l) { return local(e.type, l.id); },
            [&](const ex::Opaque &o) { return opaque(e, o); },
            [&](const ex::Unary &u) { return unary(e.type, u); },
            [&](const ex::Binary &b) { return binary(e.type, b); },
            [&](const ex::Select &s) {
              const Expr &arm = truth(*s.cond) ? *s.then_value : *s.else_value;
              return convert(e.type, arm, eval(arm));
            },
            [&](const ex::Cast &c) { return convert(e.type, *c.arg, eval(*c.arg)); },
            [&](const ex::Element &m) {  // what a read of an array nothing writes gives
              int64_t index = static_cast<int64_t>(convert(Type::i64(), *m.index, eval(*m.index)).i);
              return drawn(e.type,
                           hashOf({launch_.seed, 0xc0de, m.array, static_cast<uint64_t>(index), m.count}),
                           true);
            },
        },
        e.node);
  }

  bool truth(const Expr &e) {
    Value v = eval(e);
    return e.type.kind == Type::Kind::Float ? v.f != 0 : v.i != 0;
  }

  bool seeded = false;

  std::optional<int64_t> integer(const Expr &e) {
    if (!e.type.isIntegral()) return std::nullopt;
    return static_cast<int64_t>(eval(e).i);
  }

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

  // A seeded value of type t from hash h: mostly small, sometimes ids (unless
  // `same_for_all`: then only h decides it), sometimes anything.
  Value drawn(const Type &t, uint64_t h, bool same_for_all = false) {
    seeded = true;
    if (t.kind == Type::Kind::Float) {
      return floatValue(t, static_cast<double>(static_cast<int64_t>(mix(h) % 2001) - 1000) / 8);
    }
    if (t.kind == Type::Kind::Bool) return intValue(t, mix(h) & 1);
    uint64_t r = mix(h ^ 0x1234);
    uint64_t pick = r % 16, v;
    // Full-range values make signed arithmetic overflow (UB: the run is lost) in nearly
    // every thread, so they are only drawn for one seed in four.
    if (pick >= 14 && launch_.seed % 4 != 3) pick = 0;
    if (same_for_all && pick >= 10 && pick <= 13 && (pick < 13 || !isSignedInt(t))) pick = 0;
    if (pick < 10)
      v = mix(h) % (2 * block_size_ + 1);
    else if (pick == 10)
      v = trace_.id.thread[0];
    else if (pick == 11)
      v = trace_.linear;
    else if (pick == 12)
      v = global_linear_;
    else if (pick == 13)  // signed: a small negative value; else threadIdx.y
      v = isSignedInt(t) ? 0 - (1 + mix(h) % (block_size_ + 1)) : trace_.id.thread[1];
    else
      v = mix(h + 7);
    return intValue(t, v);
  }

  Value param(const Type &type, const std::string &name) {
    auto it = launch_.params.find(name);
    if (it != launch_.params.end()) {
      if (type.kind == Type::Kind::Float) return floatValue(type, double(it->second));
      if (type.kind == Type::Kind::Bool) return intValue(type, it->second != 0);
      return intValue(type, static_cast<uint64_t>(it->second));
    }
    seeded = true;
    uint64_t h = hashOf({launch_.seed, hashString(name), 0x9a9a});
    if (type.kind == Type::Kind::Bool) return intValue(type, mix(h) & 1);
    if (type.kind == Type::Kind::Float) return floatValue(type, double(mix(h) % 65));
    if (type.kind == Type::Kind::Pointer || type.kind == Type::Kind::Other)
      return intValue(type, (mix(h) | 1) << 8);  // non-null, distinct per name
    // Small: 0..64, or the block size (or twice it), or 1.
    uint64_t pick = mix(h ^ 0x55) % 8, v;
    if (pick < 5)
      v = mix(h) % 65;
    else if (pick == 5)
      v = block_size_;
    else if (pick == 6)
      v = 2 * block_size_;
    else
      v = 1;
    return intValue(type, v);
  }

  Value builtin(const Type &type, model::Builtin which) {
    const ThreadId &id = trace_.id;
    uint64_t v = 0;
    switch (which) {
      case model::Builtin::ThreadIdxX: v = id.thread[0]; break;
      case model::Builtin::ThreadIdxY: v = id.thread[1]; break;
      case model::Builtin::ThreadIdxZ: v = id.thread[2]; break;
      case model::Builtin::BlockIdxX: v = id.block[0]; break;
      case model::Builtin::BlockIdxY: v = id.block[1]; break;
      case model::Builtin::BlockIdxZ: v = id.block[2]; break;
      case model::Builtin::BlockDimX: v = launch_.block[0]; break;
      case model::Builtin::BlockDimY: v = launch_.block[1]; break;
      case model::Builtin::BlockDimZ: v = launch_.block[2]; break;
      case model::Builtin::GridDimX: v = grid_[0]; break;
      case model::Builtin::GridDimY: v = grid_[1]; break;
      case model::Builtin::GridDimZ: v = grid_[2]; break;
      case model::Builtin::WarpSize: v = 32; break;
    }
    return intValue(type, v);
  }

  Value local(const Type &type, unsigned id) {
    auto it = locals_.find(id);
    if (it != locals_.end()) return it->second;
    Value v = drawn(type, hashOf({launch_.seed, 0x10ca1, id, global_linear_}));
    locals_[id] = v;
    return v;
  }

  // The value a thread left in a shared location in an earlier barrier interval (thread 0
  // stores, a barrier, all read), as the block's previous run wrote it (the block runs
  // until those writes settle, so every thread, whenever it runs, reads the same): where
  // the last write before this interval to every unit read is one scalar store of exactly
  // those units and this type. A write in this interval is a race with the read: the read
  // keeps the drawn value all threads of the block agree on.
  std::optional<Value> forwarded(const Type &type, const Location &at) {
    const RunMemory::Written *w = nullptr;
    for (unsigned u = 0; u < at.count; ++u) {
      auto it = memory_.settled.find({at.array, block_linear_, at.first + u});
      if (it == memory_.settled.end()) return std::nullopt;
      auto before = it->second.lower_bound(block_barriers_);
      if (before == it->second.begin()) return std::nullopt;
      const RunMemory::Written *last = &std::prev(before)->second;
      if (w && last->serial != w->serial) return std::nullopt;
      w = last;
    }
    if (!w || w->first != at.first || w->count != at.count || !w->type || !(*w->type == type))
      return std::nullopt;
    Value v;
    v.i = w->i;
    v.f = w->f;
    return v;
  }

  // Every unit a write or atomic of a shared array covers now has it as its last write in
  // this interval.
  void sharedWrite(const st::Access &a, int64_t index, const std::optional<Value> &stored) {
    RunMemory::Written w;
    w.serial = ++memory_.writes;
    w.first = index;
    w.count = std::max(a.count, 1u);
    if (stored && a.kind == model::AccessKind::Write)
      w.type = a.value->type, w.i = stored->i, w.f = stored->f;
    for (unsigned u = 0; u < w.count; ++u)
      memory_.shared[{a.array, block_linear_, index + u}][block_barriers_] = w;
  }

  // The counter's value before this atomicAdd. Every element of a counter array starts at
  // one seeded value, as counters zeroed together do.
  uint64_t ticket(const st::Access &s, int64_t index) {
    bool shared = kernel_.arrays[s.array].space == model::AddressSpace::Shared;
    auto key = std::make_tuple(s.array, shared ? block_linear_ : 0, index);
    auto it = memory_.next.find(key);
    if (it == memory_.next.end())
      it = memory_.next.emplace(key, mix(hashOf({launch_.seed, 0x71c7, s.array})) % 1000).first;
    uint64_t v = it->second;
    it->second += static_cast<uint64_t>(eval(*s.value).i);
    return v;
  }

  bool written(unsigned array) {
    if (!written_) {
      written_.emplace(kernel_.arrays.size(), false);
      model::forEachStmt(kernel_.body, [&](const Stmt &s) {
        if (const auto *a = s.as<model::stmt::Access>();
            a && a->kind != model::AccessKind::Read && a->array < written_->size())
          (*written_)[a->array] = true;
      });
    }
    return array >= written_->size() || (*written_)[array];
  }

  // A global or constant array no access of the kernel writes: one value per element for
  // the whole launch (its reads, and KV_ASSUME_FORALL's elements).
  bool fixedContents(unsigned array) {
    if (array >= kernel_.arrays.size() || written(array)) return false;
    model::AddressSpace s = kernel_.arrays[array].space;
    return s == model::AddressSpace::Global || s == model::AddressSpace::Constant;
  }

  Value opaque(const Expr &e, const ex::Opaque &o) {
    uint64_t n = evaluations_[&e]++;
    if (auto c = last_constant_read_.find(o.id); c != last_constant_read_.end())
      return drawn(e.type,
                   hashOf({launch_.seed, 0xc0de, c->second.array, static_cast<uint64_t>(c->second.first),
                           c->second.count}),
                   true);
    auto tk = last_ticket_.find(o.id);
    if (tk != last_ticket_.end()) return intValue(e.type, tk->second);
    if (auto fl = last_flag_.find(o.id); fl != last_flag_.end()) return intValue(e.type, fl->second);
    auto read = last_read_.find(o.id);
    if (read != last_read_.end()) {  // a shared location: one value per block and interval
      const Location &at = read->second;
      if (std::optional<Value> v = forwarded(e.type, at)) return *v;
      // an array the kernel never writes keeps its contents through every interval
      bool changes = written(at.array);
      return drawn(e.type,
                   hashOf({launch_.seed, 0x5ead, at.array, static_cast<uint64_t>(at.first), at.count,
                           block_linear_, changes ? block_phase_ : 0, changes ? any_phase_ : 0}),
                   true);
    }
    if (o.per_block) {  // uniform over the block
      seeded = true;
      uint64_t h = hashOf({launch_.seed, 0xb10c, o.id, block_linear_, n});
      if (e.type.kind == Type::Kind::Int) return intValue(e.type, mix(h) % (block_size_ + 1));
      return drawn(e.type, h);
    }
    return drawn(e.type, hashOf({launch_.seed, 0x0a0a, o.id, global_linear_, n}));
  }

  Value unary(const Type &type, const ex::Unary &u) {
    const Expr &a = *u.arg;
    switch (u.op) {
      case UnaryOp::LNot: return intValue(type, !truth(a));
      case UnaryOp::BitNot: return intValue(type, ~eval(a).i);
      case UnaryOp::BitReverse: {
        uint64_t v = eval(a).i, r = 0;
        for (unsigned i = 0; i < type.bits; ++i) r |= ((v >> i) & 1) << (type.bits - 1 - i);
        return intValue(type, r);
      }
      case UnaryOp::Neg: {
        Value v = eval(a);
        if (type.kind == Type::Kind::Float) return floatValue(type, -v.f);
        if (isSignedInt(type)) {
          Value r = intValue(type, 0 - v.i);
          if (v.i != 0 && r.i == v.i) ub("signed overflow in negation");
          return r;
        }
        return intValue(type, 0 - v.i);
      }
    }
    return {};
  }

  // Converts a value of a's type to type t (C conversion).
  Value convert(const Type &t, const Expr &a, Value v) {
    const Type &s = a.type;
    if (s == t) return v;
    bool sf = s.kind == Type::Kind::Float, tf = t.kind == Type::Kind::Float;
    if (sf && tf) return floatValue(t, v.f);
    if (!sf && tf) {
      double d = isSignedInt(s) ? double(static_cast<int64_t>(v.i)) : double(v.i);
      return floatValue(t, d);
    }
    if (sf) {  // float -> bool / int
      if (t.kind == Type::Kind::Bool) return intValue(t, v.f != 0);
      double d = std::trunc(v.f);
      unsigned w = widthOf(t);
      bool ok = std::isfinite(d);
      if (ok && isSignedInt(t)) {
        double lo = -std::ldexp(1.0, int(w) - 1), hi = std::ldexp(1.0, int(w) - 1);
        ok = d >= lo && d < hi;
        if (ok) return intValue(t, static_cast<uint64_t>(static_cast<int64_t>(d)));
      } else if (ok) {
        ok = d >= 0 && d < std::ldexp(1.0, int(w));
        if (ok) return intValue(t, static_cast<uint64_t>(d));
      }
      return drawn(t, hashOf({launch_.seed, 0xf10a7, global_linear_, evaluations_[&a]++}));
    }
    // integral/pointer/other -> integral/pointer/other: the value (sign- or zero-extended
    // by the source, already so in its normal form), truncated to the target.
    if (t.kind == Type::Kind::Bool) return intValue(t, v.i != 0);
    return intValue(t, v.i);
  }

  Value binary(const Type &type, const ex::Binary &bin) {
    const Expr &a = *bin.lhs, &b = *bin.rhs;
    BinaryOp op = bin.op;
    if (op == BinaryOp::LAnd) return intValue(type, truth(a) && truth(b));
    if (op == BinaryOp::LOr) return intValue(type, truth(a) || truth(b));
    Value x = eval(a), y = eval(b);
    const Type &t = a.type;  // the operands' common type (shifts: the left one)
    if (t.kind == Type::Kind::Float) return floatBinary(type, op, x.f, y.f);
    bool sgn = isSignedInt(t);
    int64_t sx = static_cast<int64_t>(x.i), sy = static_cast<int64_t>(y.i);
    switch (op) {
      case BinaryOp::Lt: return intValue(type, sgn ? sx < sy : x.i < y.i);
      case BinaryOp::Le: return intValue(type, sgn ? sx <= sy : x.i <= y.i);
      case BinaryOp::Gt: return intValue(type, sgn ? sx > sy : x.i > y.i);
      case BinaryOp::Ge: return intValue(type, sgn ? sx >= sy : x.i >= y.i);
      case BinaryOp::Eq: return intValue(type, x.i == y.i);
      case BinaryOp::Ne: return intValue(type, x.i != y.i);
      default: break;
    }
    const Type &rt = type;
    bool rsgn = isSignedInt(rt);
    unsigned w = widthOf(rt);
    auto checked = [&](__int128 exact, const char *what) {
      Value r = intValue(rt, static_cast<uint64_t>(exact));
      if (rsgn && static_cast<__int128>(static_cast<int64_t>(r.i)) != exact)
        ub(std::string("signed overflow in ") + what);
      return r;
    };
    switch (op) {
      case BinaryOp::Add:
        if (rsgn) return checked(__int128(sx) + sy, "+");
        return intValue(rt, x.i + y.i);
      case BinaryOp::Sub:
        if (rsgn) return checked(__int128(sx) - sy, "-");
        return intValue(rt, x.i - y.i);
      case BinaryOp::Mul:
        if (rsgn) return checked(__int128(sx) * sy, "*");
        return intValue(rt, x.i * y.i);
      case BinaryOp::Div:
      case BinaryOp::Rem: {
        bool div = op == BinaryOp::Div;
        if (y.i == 0) ub(div ? "division by zero" : "remainder by zero");
        if (rsgn) {
          int64_t min = w >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (w - 1));
          if (sx == min && sy == -1) ub(div ? "signed overflow in /" : "signed overflow in %");
          return intValue(rt, static_cast<uint64_t>(div ? sx / sy : sx % sy));
        }
        return intValue(rt, div ? x.i / y.i : x.i % y.i);
      }
      case BinaryOp::Shl:
      case BinaryOp::Shr: {
        // The amount as an unsigned pattern of its own width; >= width: 0 or sign fill.
        uint64_t amount = y.i;
        if (widthOf(b.type) < 64) amount &= (uint64_t(1) << widthOf(b.type)) - 1;
        uint64_t v = normalise(rt, x.i);
        if (op == BinaryOp::Shl) return intValue(rt, amount >= w ? 0 : v << amount);
        if (rsgn) {
          int64_t sv = static_cast<int64_t>(v);
          return intValue(rt, static_cast<uint64_t>(amount >= w ? (sv < 0 ? -1 : 0) : sv >> amount));
        }
        uint64_t uv = w >= 64 ? v : v & ((uint64_t(1) << w) - 1);
        return intValue(rt, amount >= w ? 0 : uv >> amount);
      }
      case BinaryOp::BitAnd: return intValue(rt, x.i & y.i);
      case BinaryOp::BitOr: return intValue(rt, x.i | y.i);
      case BinaryOp::BitXor: return intValue(rt, x.i ^ y.i);
      default: break;
    }
    return {};
  }

  Value floatBinary(const Type &type, BinaryOp op, double x, double y) {
    switch (op) {
      case BinaryOp::Lt: return intValue(type, x < y);
      case BinaryOp::Le: return intValue(type, x <= y);
      case BinaryOp::Gt: return intValue(type, x > y);
      case BinaryOp::Ge: return intValue(type, x >= y);
      case BinaryOp::Eq: return intValue(type, x == y);
      case BinaryOp::Ne: return intValue(type, x != y);
      case BinaryOp::Add: return floatValue(type, x + y);
      case BinaryOp::Sub: return floatValue(type, x - y);
      case BinaryOp::Mul: return floatValue(type, x * y);
      case BinaryOp::Div: return floatValue(type, x / y);
      case BinaryOp::Rem: return floatValue(type, std::fmod(x, y));
      default: return floatValue(type, 0);  // bit operations on floats do not type-check
    }
  }

  void step(const Stmt &s) {
    if (++steps_ > launch_.max_steps)
      stop(Result::Status::StepLimit, "more than " + std::to_string(launch_.max_steps) + " steps", &s.range);
  }

  void record(const Stmt &s, int64_t index, uint32_t mask) {
    Event ev;
    ev.stmt = &s;
    ev.index = index;
    ev.mask = mask;
    ev.iter_begin = static_cast<uint32_t>(trace_.iterations.size());
    trace_.iterations.insert(trace_.iterations.end(), loops_.begin(), loops_.end());
    ev.iter_end = static_cast<uint32_t>(trace_.iterations.size());
    trace_.events.push_back(ev);
  }

  Flow execBlock(const model::Body &body) {
    for (const Stmt &s : body) {
      Flow f = exec(s);
      if (f != Flow::Normal) return f;
    }
    return Flow::Normal;
  }

  Flow exec(const Stmt &s) {
    step(s);
    current_ = &s.range;
    return std::visit(
        model::Overloaded{
            [&](const st::Access &a) { return access(s, a); },
            [&](const st::Barrier &b) { return barrier(s, b); },
            [&](const st::Fence &f) { return fence(f); },
            [&](const st::If &i) { return execBlock(truth(*i.cond) ? i.then_body : i.else_body); },
            [&](const st::Loop &l) { return loop(s, l); },
            [&](const st::Assign &a) { return assign(a); },
            [&](const st::Assume &a) {
              if (!a.forall.empty()) return assumeForall(s, a);
              if (a.cond && !truth(*a.cond))
                stop(Result::Status::Assumption, "assumption " + model::toString(a.cond) + " is false",
                     &s.range);
              return Flow::Normal;
            },
            [&](const st::Return &) { return Flow::Return; },
            [&](const st::Break &) { return Flow::Break; },
            [&](const st::Continue &) { return Flow::Continue; },
            [&](const st::Inlined &c) {
              Flow f = execBlock(c.body);
              return f == Flow::Return ? Flow::Normal : f;
            },
        },
        s.node);
  }

  // KV_ASSUME_FORALL: the condition at every index of the range (as the analysis, only
  // where it reads arrays nothing writes; an index where it has undefined behaviour
  // asserts nothing). A range too large to go through ends the run unchecked.
  Flow assumeForall(const Stmt &s, const st::Assume &a) {
    bool used = true;
    model::forEachNode(*a.cond, [&](const Expr &x) {
      if (const auto *m = x.as<ex::Element>()) used = used && fixedContents(m->array);
    });
    if (!used) return Flow::Normal;
    const int64_t lo = static_cast<int64_t>(eval(*a.lo).i), hi = static_cast<int64_t>(eval(*a.hi).i);
    const uint64_t n = hi > lo ? uint64_t(hi) - uint64_t(lo) : 0;
    if (n > (a.forall.size() == 1 ? 65536u : 256u))
      stop(Result::Status::Assumption, "assumption over " + std::to_string(n) + " indices, too many to check",
           &s.range);
    std::vector<int64_t> at(a.forall.size(), lo);
    for (bool more = n > 0; more;) {
      for (size_t v = 0; v < at.size(); ++v) locals_[a.forall[v].id] = intValue(Type::i64(), uint64_t(at[v]));
      bool holds = true;
      try {
        holds = truth(*a.cond);
      } catch (const Stop &stopped) {
        if (stopped.status != Result::Status::Ub) throw;
      }
      if (!holds)
        stop(Result::Status::Assumption, "assumption " + model::toString(a.cond) + " is false", &s.range);
      size_t v = at.size();
      while (v > 0 && ++at[v - 1] == hi) at[--v] = lo;
      more = v > 0;
    }
    for (const model::Local &l : a.forall) locals_.erase(l.id);
    return Flow::Normal;
  }

  Flow access(const Stmt &s, const st::Access &a) {
    Value v = eval(*a.index);
    int64_t index = static_cast<int64_t>(convert(Type::i64(), *a.index, v).i);
    std::optional<Value> stored;
    if (a.kind == model::AccessKind::Write && a.value) stored = eval(*a.value);
    record(s, index, 0);
    if (stored) trace_.events.back().value = stored->i;
    const Location at{a.array, index, std::max(a.count, 1u)};
    const bool shared =
        a.array < kernel_.arrays.size() && kernel_.arrays[a.array].space == model::AddressSpace::Shared;
    if (a.kind == model::AccessKind::Read && shared) last_read_[a.id] = at;
    if (a.kind == model::AccessKind::Read && fixedContents(a.array)) last_constant_read_[a.id] = at;
    if (a.kind != model::AccessKind::Read && shared && at.count <= (1u << 20)) sharedWrite(a, index, stored);
    if (a.kind == model::AccessKind::Atomic && a.array < memory_.counter.size() && memory_.counter[a.array])
      last_ticket_[a.id] = ticket(a, index);
    if (a.kind == model::AccessKind::Atomic && a.array < memory_.zeroed.size() && memory_.zeroed[a.array])
      flagAccess(a, index);
    return Flow::Normal;
  }

  // An atomic on a zeroed flag array: it reads what a thread that ran earlier stored there
  // (else 0), and acquires what that store released; a store or exchange releases this
  // thread's earlier events up to the last fence (all of them, with a release order).
  void flagAccess(const st::Access &a, int64_t index) {
    const size_t at = trace_.events.size() - 1;  // this access's event
    const auto order = a.order ? static_cast<model::MemoryOrder>(integer(*a.order).value_or(0))
                               : model::MemoryOrder::Relaxed;
    using O = model::MemoryOrder;
    auto it = memory_.flags.find({a.array, index});
    last_flag_[a.id] = it == memory_.flags.end() ? 0 : it->second.value;
    if (it != memory_.flags.end() && a.scope != model::Scope::Block) {
      Sync s{it->second.writer, it->second.writes_before, at + 1};
      if (order == O::Acquire || order == O::AcqRel || order == O::SeqCst)
        trace_.syncs.push_back(s);
      else
        pending_acquires_.push_back(s);  // acquired at the next fence
    }
    if (a.value && (a.atomic == model::AtomicOp::Store || a.atomic == model::AtomicOp::Exch)) {
      const bool release = order == O::Release || order == O::AcqRel || order == O::SeqCst;
      size_t released = a.scope == model::Scope::Block ? 0 : release ? at : last_fence_;
      memory_.flags[{a.array, index}] = RunMemory::Flag{eval(*a.value).i, trace_.id, released};
    }
  }

  Flow fence(const st::Fence &f) {
    if (f.scope == model::Scope::Block) return Flow::Normal;
    last_fence_ = trace_.events.size();
    for (Sync &s : pending_acquires_) s.reads_from = trace_.events.size(), trace_.syncs.push_back(s);
    pending_acquires_.clear();
    return Flow::Normal;
  }

  Flow barrier(const Stmt &s, const st::Barrier &b) {
    uint32_t mask = 0xffffffffu;
    if (b.mask) mask = static_cast<uint32_t>(convert(Type::u32(), *b.mask, eval(*b.mask)).i);
    if (b.predicate) eval(*b.predicate);
    record(s, 0, mask);
    uint64_t key = hashOf({reinterpret_cast<uintptr_t>(&s)});
    for (const auto &[loop, k] : loops_) key = hashOf({key, reinterpret_cast<uintptr_t>(loop), k});
    any_phase_ = key;
    if (b.kind != model::BarrierKind::Warp) block_phase_ = key, ++block_barriers_;
    return Flow::Normal;
  }

  Flow assign(const st::Assign &a) {
    Value v;
    if (a.value) {
      v = convert(a.local.type, *a.value, eval(*a.value));
    } else {
      uint64_t n = havocs_[a.local.id]++;
      v = drawn(a.local.type, hashOf({launch_.seed, 0x4a7c, a.local.id, global_linear_, n}));
    }
    locals_[a.local.id] = v;
    return Flow::Normal;
  }

  Flow loop(const Stmt &s, const st::Loop &l) {
    loops_.push_back({&s, 0});
    Flow result = Flow::Normal;
    for (uint64_t k = 0;; ++k) {
      loops_.back().second = k;
      bool check = !(l.kind == model::LoopKind::Do && k == 0);
      current_ = &s.range;
      if (check && l.cond && !truth(*l.cond)) break;
      if (k > 0) step(s);  // each further iteration counts as a step
      Flow f = execBlock(l.body);
      if (f == Flow::Break) break;
      if (f == Flow::Return) {
        result = Flow::Return;
        break;
      }
      f = execBlock(l.step);
      if (f == Flow::Break) break;
      if (f == Flow::Return) {
        result = Flow::Return;
        break;
      }
    }
    loops_.pop_back();
    return result;
  }
};

}  // namespace

RunMemory::RunMemory(const model::Kernel &kernel, const Launch &launch)
    : counter(kernel.arrays.size(), false), zeroed(kernel.arrays.size(), false) {
  for (const model::Array &a : kernel.arrays)
    zeroed[a.id] =
        a.space == model::AddressSpace::Global &&
        std::find(launch.zero_init.begin(), launch.zero_init.end(), a.name) != launch.zero_init.end();
  std::vector<bool> other(kernel.arrays.size(), false);  // written otherwise
  model::forEachStmt(kernel.body, [&](const Stmt &s) {
    const auto *a = s.as<st::Access>();
    if (!a || a->kind == model::AccessKind::Read || a->array >= counter.size()) return;
    const Expr *v = a->value.get();
    while (v && v->is<ex::Cast>()) v = v->as<ex::Cast>()->arg.get();
    const auto *k = v ? v->as<ex::Const>() : nullptr;
    if (a->kind == model::AccessKind::Atomic && a->atomic == model::AtomicOp::Add && k &&
        v->type.kind == Type::Kind::Int && k->int_value > 0)
      counter[a->array] = true;
    else
      other[a->array] = true;
  });
  // (the oracle's arrays never alias: the analysis, which may let parameters alias, is
  // only the more permissive)
  for (size_t a = 0; a < counter.size(); ++a)
    counter[a] = counter[a] && !other[a] && kernel.arrays[a].elem.kind == Type::Kind::Int;
}

bool sameWrites(const RunMemory::SharedWrites &a, const RunMemory::SharedWrites &b) {
  auto same = [](const RunMemory::Written &x, const RunMemory::Written &y) {
    return x.first == y.first && x.count == y.count && x.type == y.type && x.i == y.i &&
           (x.f == y.f || (std::isnan(x.f) && std::isnan(y.f)));
  };
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [&](const auto &x, const auto &y) {
    return x.first == y.first && std::equal(x.second.begin(), x.second.end(), y.second.begin(),
                                            y.second.end(), [&](const auto &p, const auto &q) {
                                              return p.first == q.first && same(p.second, q.second);
                                            });
  });
}

ThreadOutcome runThread(const model::Kernel &kernel, const Launch &launch, const Dim3 &grid,
                        RunMemory &memory, Trace &trace) {
  ThreadOutcome out;
  Thread t(kernel, launch, grid, memory, trace);
  try {
    t.runBody();
  } catch (const Stop &s) {
    out.status = s.status;
    out.detail = s.detail;
  }
  out.seeded = t.seeded;
  return out;
}

}  // namespace kverify::oracle::detail

namespace kverify::oracle {

// One expression in one thread at kernel entry; nullopt where evaluating it stops the run.
template <typename Eval>
static auto atEntry(const model::Kernel &kernel, const Launch &launch, const ThreadId &thread, Eval eval)
    -> std::optional<decltype(eval(std::declval<detail::Thread &>()))> {
  detail::Trace trace;
  trace.id = thread;
  trace.linear = thread.thread[0] + thread.thread[1] * launch.block[0] +
                 thread.thread[2] * launch.block[0] * launch.block[1];
  detail::RunMemory memory(kernel, launch);
  detail::Thread t(kernel, launch, launch.grid, memory, trace);
  try {
    return eval(t);
  } catch (const detail::Stop &) { return std::nullopt; }
}

std::optional<bool> evaluate(const model::Kernel &kernel, const Launch &launch, const model::Expr &cond,
                             const ThreadId &thread) {
  return atEntry(kernel, launch, thread, [&](detail::Thread &t) { return t.truth(cond); });
}

std::optional<int64_t> evaluateInt(const model::Kernel &kernel, const Launch &launch, const model::Expr &e,
                                   const ThreadId &thread) {
  return atEntry(kernel, launch, thread, [&](detail::Thread &t) { return t.integer(e); })
      .value_or(std::nullopt);
}

}  // namespace kverify::oracle
