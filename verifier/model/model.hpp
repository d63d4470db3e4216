#pragma once
// The kernel model: what kverify's front end understood of each CUDA kernel.
//
// A handful of small algebraic types (in the spirit of Faial's protocol IR):
//   Type  - the C type of a value (integer width + signedness, bool, float, pointer)
//   Expr  - immutable, shared expression trees over parameters, builtins, locals and
//           opaque values: a type and a std::variant of the kinds in namespace expr
//   Stmt  - the structured body: memory accesses, barriers, control flow, assignments;
//           a source range and a std::variant of the kinds in namespace stmt
//   Kernel, TranslationUnitModel - the containers
// No Clang types appear here: the analysis builds on this header alone.
// The JSON form (kverify --dump-model) is documented in SCHEMA.md next to this file.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace kverify::model {

// std::visit over lambdas: std::visit(Overloaded{[](const expr::Const &c) {...}, ...}, e.node)
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// A place in a source file (1-based lines and columns; end is the last character).
struct SourceRange {
  std::string file;
  unsigned line = 0, col = 0, end_line = 0, end_col = 0;
  bool valid() const { return line != 0; }
};

// The C type of a value. Integers are bit-vectors of `bits` bits with C signedness;
// bool is its own kind (1 bit). Pointers only appear in pointer comparisons.
struct Type {
  enum class Kind { Bool, Int, Float, Pointer, Other };
  Kind kind = Kind::Other;
  unsigned bits = 0;
  bool is_signed = false;

  static Type boolean() { return {Kind::Bool, 1, false}; }
  static Type integer(unsigned bits, bool is_signed) { return {Kind::Int, bits, is_signed}; }
  static Type i32() { return integer(32, true); }
  static Type u32() { return integer(32, false); }
  static Type i64() { return integer(64, true); }
  static Type floating(unsigned bits) { return {Kind::Float, bits, true}; }
  static Type pointer() { return {Kind::Pointer, 64, false}; }
  static Type other() { return {Kind::Other, 0, false}; }

  bool isIntegral() const { return kind == Kind::Bool || kind == Kind::Int; }
  // "bool", "i32", "u8", "f32", "ptr", "other".
  std::string name() const;
  friend bool operator==(const Type &a, const Type &b) {
    return a.kind == b.kind && a.bits == b.bits && a.is_signed == b.is_signed;
  }
  friend bool operator!=(const Type &a, const Type &b) { return !(a == b); }
};

// CUDA's built-in variables. All are u32 except warpSize (i32).
enum class Builtin {
  ThreadIdxX,
  ThreadIdxY,
  ThreadIdxZ,
  BlockIdxX,
  BlockIdxY,
  BlockIdxZ,
  BlockDimX,
  BlockDimY,
  BlockDimZ,
  GridDimX,
  GridDimY,
  GridDimZ,
  WarpSize,
};
const char *builtinName(Builtin b);  // "threadIdx.x", ..., "warpSize"

// BitReverse: __brev/__brevll, the operand's bits in reverse order.
enum class UnaryOp { Neg, LNot, BitNot, BitReverse };
// C's binary operators. Comparisons and LAnd/LOr yield bool; operands of arithmetic
// operators already have the common type (the usual conversions are explicit Casts).
// Shr is arithmetic for signed operands and logical for unsigned ones; Div/Rem truncate.
enum class BinaryOp {
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Shl,
  Shr,
  BitAnd,
  BitOr,
  BitXor,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  LAnd,
  LOr,
};
const char *unaryOpName(UnaryOp op);    // "-", "!", "~"
const char *binaryOpName(BinaryOp op);  // "+", "<", "&&", ...

// A thread-private, mutable variable (a C local, a parameter of an inlined function,
// a front-end temporary, or the offset of a pointer variable). `id` is unique within
// a kernel; `name` is for people.
struct Local {
  std::string name;
  unsigned id = 0;
  Type type;
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

// The kinds of expression: the alternatives of Expr::Node.
namespace expr {
// An integer or bool (int_value; 64-bit unsigned constants keep their bit pattern) or a
// float (float_value) constant.
struct Const {
  int64_t int_value = 0;
  double float_value = 0;
};
// A scalar kernel parameter, or a field path "p.n" of a struct one.
struct Param {
  std::string name;
};
struct Builtin {
  model::Builtin which = model::Builtin::ThreadIdxX;
};
// The current value of a Local (see model::Local).
struct Local {
  std::string name;
  unsigned id = 0;
};
// An unknown value, fresh per thread and per evaluation of the node: a load from memory,
// the result of an atomic, an unmodelled call. A load's opaque has the id of its Access
// statement. With `per_block` (the result of __syncthreads_or/_and/_count) it is one value
// for the whole block at one barrier instance.
struct Opaque {
  unsigned id = 0;
  std::string what;
  bool per_block = false;
};
struct Unary {
  UnaryOp op = UnaryOp::Neg;
  ExprPtr arg;
};
struct Binary {
  BinaryOp op = BinaryOp::Add;
  ExprPtr lhs, rhs;
};
struct Select {
  ExprPtr cond, then_value, else_value;
};
// arg converted to the Expr's type (C conversion: truncation, sign/zero extension by the
// source's signedness, int<->float, x != 0 for bool)
struct Cast {
  ExprPtr arg;
};
// Whether the pointer parameter whose memory is Kernel::arrays[array] (named `name`) is not
// null (bool); unknown, the same for every thread.
struct NotNull {
  unsigned array = 0;
  std::string name;
};
// The address of Kernel::arrays[array]'s first element (u64; alignment checks
// `(uintptr_t)p % 16`); unknown, the same for every thread.
struct Address {
  unsigned array = 0;
  std::string name;
};
// What Kernel::arrays[array] holds at `count` units from unit `index` (an i64 Expr), read
// as the Expr's type. Only in the condition of a quantified Assume (KV_ASSUME_FORALL): a
// statement about memory, not an access of it.
struct Element {
  unsigned array = 0;
  ExprPtr index;
  unsigned count = 1;
  std::string name;
};
}  // namespace expr

// An expression: immutable, shared trees of a type and one of the kinds above.
struct Expr {
  using Node =
      std::variant<expr::Const, expr::Param, expr::Builtin, expr::Local, expr::Opaque, expr::Unary,
                   expr::Binary, expr::Select, expr::Cast, expr::NotNull, expr::Address, expr::Element>;
  Type type;
  Node node;

  template <class T>
  const T *as() const {
    return std::get_if<T>(&node);
  }
  template <class T>
  bool is() const {
    return std::holds_alternative<T>(node);
  }

  static ExprPtr make(Type t, Node node);
  static ExprPtr intConst(Type t, int64_t v);
  static ExprPtr floatConst(Type t, double v);
  static ExprPtr param(Type t, std::string name);
  static ExprPtr builtinVar(Builtin b);
  static ExprPtr local(const Local &l);
  static ExprPtr opaque(Type t, unsigned id, std::string what, bool per_block = false);
  static ExprPtr unary(Type t, UnaryOp op, ExprPtr a);
  static ExprPtr binary(Type t, BinaryOp op, ExprPtr a, ExprPtr b);
  static ExprPtr select(ExprPtr c, ExprPtr a, ExprPtr b);  // type of a
  static ExprPtr cast(Type t, ExprPtr a);                  // no-op when a has type t
  static ExprPtr notNull(unsigned array, std::string name);
  static ExprPtr address(unsigned array, std::string name);
  static ExprPtr element(Type t, unsigned array, ExprPtr index, unsigned count, std::string name);
};

// The operands of `e` in order: Unary, Cast and Element one, Binary two, Select three
// (cond first).
std::vector<const Expr *> operands(const Expr &e);

// C-like text of an expression, with explicit casts: "(i64)threadIdx.x * 16 + n".
std::string toString(const Expr &e);
inline std::string toString(const ExprPtr &e) { return e ? toString(*e) : "<none>"; }

enum class AddressSpace { Global, Shared, Local, Constant };
enum class AccessKind { Read, Write, Atomic };
enum class BarrierKind { Block, Warp, Grid };
// The threads a fence orders memory for, or an atomic is atomic among: the block, the
// device (every block), the system.
enum class Scope { Block, Device, System };
// What an atomic does (Load/Store/Exchange/CompareExchange/Fetch* are cuda::atomic_ref's).
enum class AtomicOp { Add, Sub, Exch, Min, Max, Inc, Dec, Cas, And, Or, Xor, Load, Store, Other };
// std::memory_order's values, as <cuda/atomic> numbers them.
enum class MemoryOrder { Relaxed, Consume, Acquire, Release, AcqRel, SeqCst };
enum class LoopKind { For, While, Do };
const char *addressSpaceName(AddressSpace s);  // "global", "shared", "local", "constant"
// Where an Array comes from: a pointer parameter's memory, a __shared__ variable, a
// thread-private local array, a __device__ / __constant__ variable, or the front end's
// stand-in for a call through a null or unknown function pointer (function_pointers.cpp).
enum class ArrayOrigin { Param, Shared, Local, DeviceVar, ConstantVar, FunctionPointer };
// "param", "shared", "local", "device_var", "constant_var", "function_pointer"
const char *arrayOriginName(ArrayOrigin o);
const char *accessKindName(AccessKind k);    // "read", "write", "atomic"
const char *barrierKindName(BarrierKind k);  // "block", "warp", "grid"
const char *scopeName(Scope s);              // "block", "device", "system"
const char *atomicOpName(AtomicOp op);       // "add", "sub", "exch", ..., "load", "store", "other"
const char *loopKindName(LoopKind k);        // "for", "while", "do"

struct Stmt;
using Body = std::vector<Stmt>;

// The kinds of statement: the alternatives of Stmt::Node.
namespace stmt {
// `count` consecutive units starting at unit `index` (an i64 Expr, multi-dimensional
// indices flattened row-major) of Kernel::arrays[array]: elements of its element type, or
// bytes for an array addressed in bytes (Array::by_bytes: `p[i].hi` of an 8-byte struct
// {int lo, hi;} is index 8*i + 4, count 4), so that two accesses touch the same memory
// exactly where their ranges [index, index + count) overlap. `a[i] += v` and `a[i]++` are a Read then a Write. A Write's
// `value` is the integer or bool stored (null otherwise); an Atomic's is atomicAdd's
// operand (null for other atomics). An Atomic's result, and a Read's loaded value, is the
// Opaque with the Access's id. `text` is the access as written.
struct Access {
  unsigned id = 0;
  unsigned array = 0;
  AccessKind kind = AccessKind::Read;
  ExprPtr index;
  unsigned count = 1;
  ExprPtr value;
  AtomicOp atomic = AtomicOp::Add;  // Atomic only
  Scope scope = Scope::Device;      // Atomic only: atomicAdd_block is Block
  // Atomic only: the C++ memory order, a MemoryOrder value (cuda::atomic_ref's argument,
  // a local of the inlined call); null for CUDA's atomicAdd & co., which are relaxed
  ExprPtr order;
  std::string text;
};
// what: "__syncthreads", "__syncwarp", "cg::thread_block::sync"...; mask: Warp's u32 lane
// mask (null otherwise); predicate: that of __syncthreads_count/_and/_or (else null).
struct Barrier {
  BarrierKind kind = BarrierKind::Block;
  std::string what;
  ExprPtr mask, predicate;
};
// A __threadfence*: orders memory, does not synchronize.
struct Fence {
  Scope scope = Scope::Device;
  std::string what;
};
struct If {
  ExprPtr cond;
  Body then_body, else_body;
};
// For/While: while (cond) { body; step }   Do: do { body; step } while (cond)
// cond null means true; `continue` jumps to step. A `for` init is emitted before the Loop.
struct Loop {
  LoopKind kind = LoopKind::For;
  ExprPtr cond;
  Body body, step;
};
struct Assign {
  model::Local local;
  ExprPtr value;
};
// cond may be assumed (from __kverify_assume / KV_ASSUME / a kernel's __requires). With
// `forall` locals (KV_ASSUME_FORALL: one or two, i64), cond holds for every value of
// them in [lo, hi) (i64 Exprs, evaluated here); cond then reads memory through Elements.
struct Assume {
  ExprPtr cond;
  std::vector<model::Local> forall{};
  ExprPtr lo{}, hi{};
};
// Leaves the innermost Inlined region, or the kernel when there is none.
struct Return {};
// Of the innermost Loop.
struct Break {};
struct Continue {};
// An inlined __device__ call (parameters and the result are Locals assigned inside body).
struct Inlined {
  std::string function;
  Body body;
};
}  // namespace stmt

// A statement of the structured body: where it is, and one of the kinds above.
struct Stmt {
  using Node = std::variant<stmt::Access, stmt::Barrier, stmt::Fence, stmt::If, stmt::Loop, stmt::Assign,
                            stmt::Assume, stmt::Return, stmt::Break, stmt::Continue, stmt::Inlined>;
  SourceRange range;
  Node node;

  template <class T>
  const T *as() const {
    return std::get_if<T>(&node);
  }
  template <class T>
  T *as() {
    return std::get_if<T>(&node);
  }
  template <class T>
  bool is() const {
    return std::holds_alternative<T>(node);
  }
};

// A scalar kernel parameter, or a scalar leaf of a struct parameter ("p.n").
// Pointer parameters (and pointer fields) are listed here too, with `array` naming the
// Array they point into.
struct Param {
  unsigned position = 0;  // position in the kernel's parameter list
  std::string name;       // "n", or "p.dst" for a field of struct parameter p
  std::string c_type;     // as written, e.g. "const float *"
  Type type;
  std::optional<unsigned> array;  // pointers: index into Kernel::arrays
  SourceRange range;
};

// A base object that accesses address: a pointer parameter's memory, a shared array
// (or shared scalar), a thread-private local array, a __device__/__constant__ variable.
struct Array {
  unsigned id = 0;  // its index in Kernel::arrays
  std::string name;
  AddressSpace space = AddressSpace::Global;
  ArrayOrigin origin = ArrayOrigin::Param;
  std::string elem_c_type;  // "float"
  Type elem;                // Other for structs/vectors
  // Bytes per index unit: the element's size, or 1 where the array is addressed in bytes
  // (`by_bytes`: its elements are structs, unions or vectors, whose fields, components and
  // base-class parts are distinct memory locations, at their offsets in the layout)
  unsigned elem_size = 0;
  bool by_bytes = false;
  std::vector<uint64_t> dims;    // static dimensions (of elem_c_type); empty for pointers and scalars
  std::optional<uint64_t> size;  // total units when known (scalars: 1 element)
  bool is_extern = false;        // extern __shared__ (dynamic size)
  bool is_const = false;         // pointee is const (read-only)
  bool is_restrict = false;
  SourceRange range;
};

struct Diagnostic {
  std::string severity;  // "error", "warning", "note", "fatal"
  std::string message;
  SourceRange range;
};

// Something the front end does not model: the kernel's verdict must be `unsupported`.
struct Unsupported {
  std::string construct;  // "recursion", "inline asm", "goto", ...
  std::string detail;
  SourceRange range;
};

// A launch `kernel<<<grid, block>>>(...)` read from the file's host code: each dimension's
// components, known (a constant; 1 for what an integer argument leaves out) or not.
struct HostLaunch {
  std::array<std::optional<uint64_t>, 3> block, grid;
  // what is known of unknown components: C expressions over the kernel's parameters and
  // blockDim (`gridDim.x == (n + blockDim.x - 1) / blockDim.x`), as --assume takes them
  std::vector<std::string> grid_facts, block_facts;
  // integer arguments the launch passes as constants: `base == 0`
  std::vector<std::string> arg_facts;
  // what those values rest on beyond the file's code: "f is called only from this file"
  std::vector<std::string> premises;
  SourceRange at;  // the launch
};

// A kernel embedded in Python: the CUDA text kverify parsed, under the name clang saw, and
// the .py line and column each of its bytes came from (a replay builds this text).
struct GeneratedSource {
  std::string name, text;
  std::vector<std::pair<unsigned, unsigned>> py;  // one per byte of text
};

struct Kernel {
  // with template arguments for instantiations: "reduce<256>"; a kernel verified once per
  // launch says which: "scan (launch at host.cu:40:5)"
  std::string name;
  std::string function;  // the kernel function alone, as C++ names it: "reduce<256>", "fill(int *)"
  std::string file;
  SourceRange range;
  std::vector<Param> params;
  std::vector<Array> arrays;
  std::vector<Local> locals;  // every Local the body uses
  std::vector<Stmt> body;
  std::vector<Unsupported> unsupported;
  // Compile errors in code the kernel depends on (its body, a function it calls, a type or
  // global it uses), each followed by its notes: the kernel is not modelled, its verdict
  // is `error`. Errors elsewhere in the file (host code) do not stop it.
  std::vector<Diagnostic> errors;
  // Annotations kverify reads but does not check (GPUVerify's __assert, __invariant, a
  // __requires of a device function): construct names the annotation. The verdict says so.
  std::vector<Unsupported> unchecked;
  std::string options;  // text after "kverify:" in a comment just above the kernel
  // How the file's host code launches the kernel (a kernel launched several ways is one
  // Kernel per launch); analysed under it where no option states the launch
  std::optional<HostLaunch> launch;
  // __launch_bounds__(N): CUDA refuses a launch of more than N threads per block
  std::optional<uint64_t> max_threads;
  std::shared_ptr<const GeneratedSource> generated;  // kernels embedded in Python only
};

// A template kernel that was never instantiated: nothing to verify, listed so users see it.
struct SkippedKernel {
  std::string name;
  std::string reason;
  SourceRange range;
};

struct TranslationUnitModel {
  std::string file;
  bool parsed = false;  // false: the file does not parse; see diagnostics
  std::vector<Kernel> kernels;
  std::vector<SkippedKernel> skipped;
  std::vector<Diagnostic> diagnostics;
  // What the front end skipped and went on without: headers it could not find, errors in
  // code no kernel depends on (one note for all). Reported with the results.
  std::vector<Diagnostic> notes;
  std::string options;  // text after "kverify:" in a comment at the top of the file
  // xxh3 of the bytes of each file the parse read, in the order it read them (the result
  // cache stores results only under a key computed from these very bytes)
  std::vector<uint64_t> sources_read;
};

}  // namespace kverify::model
