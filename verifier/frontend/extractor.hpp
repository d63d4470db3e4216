#pragma once
// Internal to the front end: the AST -> model translation of one kernel, split over
// extract_decls.cpp (kernels, parameters, arrays, variables), extract_stmts.cpp
// (statements) and extract_exprs.cpp (expressions, lvalues, pointers, calls), and which
// kernels a translation unit has (extract_unit.cpp).
//
// Translation is a single walk that emits model statements into the innermost open
// statement list (`out_`), the way a code generator emits instructions: expression
// side effects (loads, stores, inlined calls) are emitted before the statement that
// uses their value, conditional ones under an If.

#include "frontend/builtins.hpp"
#include "model/model.hpp"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace kverify::frontend {

// Models every kernel defined in the main file of `ctx` into `tu`, every kernel of a
// project header that the main file launches or refers to (named with the launch, which
// gives its shape), and every instantiation of a kernel template of a project header that
// the main file causes.
struct CompileProblems;  // compile_errors.hpp

// Kernels that depend on code with compile errors get those errors instead of a model
// (extract_unit.cpp).
void extractTranslationUnit(clang::ASTContext &ctx, const std::string &prelude_dir, CompileProblems &problems,
                            model::TranslationUnitModel &tu);

namespace detail {

// Strips the wrappers that do not change what an expression computes (parentheses,
// cleanups, constant-expression and temporary wrappers, default arguments).
const clang::Expr *strip(const clang::Expr *e);
// The i64 constant 0, and base + idx * scale (or base - idx * scale) in i64, constants folded.
const model::ExprPtr &zero64();
model::ExprPtr addIndex(model::ExprPtr base, model::ExprPtr idx, uint64_t scale, bool subtract = false);

struct Binding;
struct LValue;
using BindingPtr = std::shared_ptr<Binding>;

struct Pointer;

// The kinds of pointer value.
namespace ptr {
// `offset` (i64) elements of the array's element type from the array's start; one
// pointee element spans `scale` array elements.
struct Memory {
  unsigned array = 0;
  model::ExprPtr offset;
  uint64_t scale = 1;
};
// The address of a scalar local, and that of a pointer variable: no arithmetic on either.
struct Local {
  model::Local local;
};
struct Var {
  BindingPtr var;
};
// `cond ? *then_p : *else_p`, a pointer that may point into different arrays. `from`: the
// pointer variable whose arrays it chooses between, by that variable's selector, every
// arm at one offset (pointerAt; kept by arithmetic).
struct Choice {
  model::ExprPtr cond;
  std::shared_ptr<const Pointer> then_p, else_p;
  BindingPtr from;
};
// A value kverify cannot follow (`why`): an error where it is used, not where it is copied.
struct Unknown {
  std::string why;
};
}  // namespace ptr

struct Pointer {
  using Node = std::variant<ptr::Memory, ptr::Local, ptr::Var, ptr::Choice, ptr::Unknown>;
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

  static Pointer memory(unsigned array, model::ExprPtr offset, uint64_t scale) {
    return {ptr::Memory{array, std::move(offset), scale}};
  }
  // A pointer variable's base before its first assignment, or once it is unknown.
  static Pointer unset() { return memory(~0u, nullptr, 1); }
  static Pointer toLocal(model::Local l) { return {ptr::Local{std::move(l)}}; }
  static Pointer toVar(BindingPtr b) { return {ptr::Var{std::move(b)}}; }
  static Pointer unknown(std::string why) { return {ptr::Unknown{std::move(why)}}; }
};

// What an lvalue expression designates.
namespace lval {
struct Invalid {};  // nothing kverify can use (said where it was found)
struct Value {      // read-only (a kernel parameter, a builtin)
  model::ExprPtr value;
};
struct Local {
  model::Local local;
};
// `count` elements of `array` from `index`.
struct Memory {
  unsigned array = 0;
  model::ExprPtr index;
  uint64_t count = 1;
};
// A struct variable, and a pointer variable.
struct Struct {
  BindingPtr binding;
};
struct PointerVar {
  BindingPtr binding;
};
// `cond ? *then_lv : *else_lv` (an element through a pointer that may point into
// different arrays).
struct Choice {
  model::ExprPtr cond;
  std::shared_ptr<const LValue> then_lv, else_lv;
};
}  // namespace lval

struct LValue {
  using Node = std::variant<lval::Invalid, lval::Value, lval::Local, lval::Memory, lval::Struct,
                            lval::PointerVar, lval::Choice>;
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
  bool valid() const { return !is<lval::Invalid>(); }
  // An element (or part) in memory, of one array or of either of a choice's.
  bool inMemory() const { return is<lval::Memory>() || is<lval::Choice>(); }
};

// A record's fields in declaration order, not by address: the order the model's statements
// come in, the same whether the declarations were parsed or read from the precompiled
// prelude. (Fields of different records, a base's and the derived one's: by the records'
// names, then addresses where those are alike.)
struct InDeclarationOrder {
  bool operator()(const clang::FieldDecl *a, const clang::FieldDecl *b) const {
    const clang::RecordDecl *ra = a->getParent(), *rb = b->getParent();
    if (ra == rb) return a->getFieldIndex() < b->getFieldIndex();
    std::string na = ra->getQualifiedNameAsString(), nb = rb->getQualifiedNameAsString();
    return na != nb ? na < nb : ra < rb;
  }
};

// The kinds of thing a C variable (or struct field, or reference) stands for.
namespace bind {
struct Value {
  model::ExprPtr value;
};
struct Local {
  model::Local local;
};
// A pointer variable.
struct Pointer {
  explicit Pointer(detail::Pointer base, std::optional<model::Local> mutable_offset = std::nullopt)
      : pointer(std::move(base)), offset(std::move(mutable_offset)) {}
  detail::Pointer pointer;             // the base and initial offset
  std::optional<model::Local> offset;  // the mutable offset, when assigned
  // The base of one into memory: its first array (the selector's 0, ~0u before its first
  // assignment), offset and scale.
  ptr::Memory &base() { return std::get<ptr::Memory>(pointer.node); }
  const ptr::Memory &base() const { return std::get<ptr::Memory>(pointer.node); }
  // Pointer into one of several arrays: `pointer`'s array when `selector` is 0, more[i]
  // when it is i + 1 (the offset and scale are shared).
  std::vector<unsigned> more;
  std::optional<model::Local> selector;
  std::string unknown;  // why its value cannot be followed
  // The statement list it was created in (the selector starts at 0 there), and the
  // translation events (KernelExtractor::event_) of its creation and last read.
  std::vector<model::Stmt> *home = nullptr;
  unsigned created_at = 0, read_at = 0;
  // The statement list it was declared in. An assignment emitted straight into that
  // list runs on every path that reaches what follows, so it may re-bind the variable to
  // another object exactly; null: never re-bound (a function's result).
  const std::vector<model::Stmt> *scope = nullptr;
};
using Fields = std::map<const clang::FieldDecl *, BindingPtr, InDeclarationOrder>;
struct Struct {
  Fields fields;
};
struct Ref {
  LValue ref;
};
}  // namespace bind

// Held by BindingPtr and changed in place: assignments re-bind a pointer variable,
// constructors fill a struct's fields.
struct Binding {
  using Node = std::variant<bind::Value, bind::Local, bind::Pointer, bind::Struct, bind::Ref>;
  Node node;

  Binding() = default;
  // One of the kinds, built in place: destroying a Node temporary makes GCC 12 warn
  // (-Wmaybe-uninitialized, a false positive)
  template <class Kind, class = std::enable_if_t<!std::is_same_v<std::decay_t<Kind>, Binding>>>
  explicit Binding(Kind kind) : node(std::move(kind)) {}
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
  // A struct variable's fields; none for the other kinds.
  const bind::Fields &fields() const {
    static const bind::Fields none;
    const auto *s = as<bind::Struct>();
    return s ? s->fields : none;
  }
  // The pointer variable this is, where the caller knows it is one.
  bind::Pointer &pointerVar() { return std::get<bind::Pointer>(node); }
  const bind::Pointer &pointerVar() const { return std::get<bind::Pointer>(node); }
};

// One function being translated: the kernel, or an inlined __device__ function.
struct Frame {
  const clang::FunctionDecl *fn = nullptr;
  std::map<const clang::ValueDecl *, BindingPtr> vars;
  BindingPtr this_object;             // member calls: the object (a struct variable)
  LValue this_memory;                 // or the object in memory (a __shared__ object, p->f())
  BindingPtr result;                  // non-void callees: where `return e` puts e
  const clang::Stmt *last = nullptr;  // the body's last statement: its return needs no Return
  std::string prefix;                 // prepended to local names ("f.")
  clang::SourceRange site;            // inside prelude code (<cuda/atomic>): the user's call
};

class KernelExtractor {
public:
  KernelExtractor(clang::ASTContext &ctx, std::string prelude_dir, model::Kernel &kernel);
  void describe(const clang::FunctionDecl *kernel);  // name and place
  void run(const clang::FunctionDecl *kernel);       // the model (after describe)

  // --- extract_decls.cpp
  model::Type typeOf(clang::QualType t) const;
  uint64_t sizeOf(clang::QualType t) const;
  uint64_t describeElement(model::Array &a, clang::QualType elem) const;
  model::SourceRange rangeOf(clang::SourceRange r) const;
  std::string textOf(clang::SourceRange r) const;
  bool inPrelude(const clang::Decl *d) const;
  clang::SourceRange userRange(clang::SourceRange r) const;
  void unsupported(std::string construct, std::string detail, clang::SourceRange where);
  model::Local newLocal(const std::string &name, model::Type type);
  unsigned newId() { return next_id_++; }
  // The array of a __shared__, __device__ or __constant__ variable, registering it.
  std::optional<unsigned> globalArray(const clang::VarDecl *var);
  void declareLocal(const clang::VarDecl *var);
  BindingPtr localArray(clang::QualType t, const std::string &name, clang::SourceRange where);
  // A binding of fresh Locals for every scalar leaf of a struct type.
  BindingPtr freshStruct(clang::QualType t, const std::string &name);
  bool bindReferenceFields(const BindingPtr &dst, const clang::CXXConstructExpr *ce);
  BindingPtr lookup(const clang::ValueDecl *d);
  // A record's fields, those of its non-virtual bases first (a virtual base is unsupported).
  std::vector<const clang::FieldDecl *> recordFields(const clang::RecordDecl *rd, clang::SourceRange where);

  // --- extract_stmts.cpp
  void stmt(const clang::Stmt *s);
  void emit(model::Stmt s) { out_.back()->push_back(std::move(s)); }
  // Runs `body` with statements going into a fresh list, which it returns.
  template <class F>
  std::vector<model::Stmt> nested(F body) {
    std::vector<model::Stmt> list;
    out_.push_back(&list);
    body();
    out_.pop_back();
    return list;
  }
  void emitAssign(const model::Local &l, model::ExprPtr value, clang::SourceRange where);

  // --- extract_exprs.cpp
  model::ExprPtr rvalue(const clang::Expr *e);
  model::ExprPtr condition(const clang::Expr *e);  // as bool
  void discard(const clang::Expr *e);
  LValue lvalue(const clang::Expr *e);
  // The pointer `e` evaluates to; an error (and nullopt) where it may point into
  // different arrays or cannot be followed. pointerValue: any pointer (the places that
  // handle choices, pointers to pointer variables and unknown values).
  std::optional<Pointer> pointer(const clang::Expr *e);
  std::optional<Pointer> pointerValue(const clang::Expr *e);
  std::optional<Pointer> castPointer(const clang::CastExpr *c);  // (pointerValue's parts)
  std::optional<Pointer> addressOf(const clang::UnaryOperator *u);
  std::optional<Pointer> incrementedPointer(const clang::UnaryOperator *u);
  std::optional<Pointer> chosenPointer(const clang::ConditionalOperator *c);
  model::ExprPtr load(const LValue &lv, const clang::Expr *where);
  void store(const LValue &lv, model::ExprPtr value, const clang::Expr *where);
  // Initialises or assigns struct `dst` from `src`.
  void assignStruct(const BindingPtr &dst, const clang::Expr *src);
  void assignPointer(const BindingPtr &dst, const clang::Expr *src, clang::SourceRange where);
  void assignPointer(const BindingPtr &dst, const std::optional<Pointer> &p, clang::SourceRange where);
  // Calls: the result as a Binding (scalar Local/Value, Struct), or null for void.
  BindingPtr call(const clang::CallExpr *c);

private:
  model::ExprPtr opaque(clang::QualType t, const std::string &what);
  model::ExprPtr notNull(const clang::Expr *pointer_expr);
  // Emits an Access statement and returns its id (a load's or an atomic's opaque value
  // carries it).
  // `atomic` says which atomic an Atomic access is (classifyBuiltin's op and scope).
  unsigned emitAccess(model::AccessKind kind, unsigned array, model::ExprPtr index, uint64_t count,
                      clang::SourceRange where, const BuiltinInfo *atomic = nullptr,
                      model::ExprPtr operand = nullptr, model::ExprPtr order = nullptr);
  model::ExprPtr unsupportedValue(clang::QualType t, std::string construct, std::string detail,
                                  clang::SourceRange where);
  model::ExprPtr binaryOp(const clang::BinaryOperator *b);
  model::ExprPtr assignment(const clang::BinaryOperator *b);
  model::ExprPtr conditional(const clang::ConditionalOperator *c);
  model::ExprPtr shortCircuit(const clang::BinaryOperator *b);
  model::ExprPtr cast(const clang::CastExpr *c);
  model::ExprPtr bindingValue(const BindingPtr &b, const clang::Expr *where);
  LValue memberLValue(const clang::MemberExpr *m, const clang::ArraySubscriptExpr *sub = nullptr);
  LValue partOf(const LValue &object, uint64_t offset, uint64_t size, const clang::Expr *where);
  std::optional<uint64_t> baseOffset(const clang::CastExpr *c);
  std::optional<Pointer> movedBy(const Pointer &p, uint64_t bytes, const clang::Expr *e);
  bool conditionalAccess(const clang::Expr *e, const clang::Expr *&ptr, const clang::Expr *&idx);
  model::ExprPtr throughConditional(const clang::Expr *ptr, const clang::Expr *idx, const clang::Expr *where,
                                    const std::function<model::ExprPtr(const LValue &)> &access);
  model::ExprPtr loadValue(const clang::Expr *e);
  // `p[idx]`, or `*p` where idx is null.
  LValue pointee(const std::optional<Pointer> &p, model::ExprPtr idx, const clang::Expr *e);
  LValue declLValue(const clang::ValueDecl *d, const clang::Expr *where);
  std::optional<Pointer> pointerOfBinding(const BindingPtr &b);
  Pointer pointerAt(const BindingPtr &b, model::ExprPtr offset) const;
  model::ExprPtr addressOf(const std::optional<Pointer> &p, bool in_block) const;
  bool widenable(const BindingPtr &b) const;
  bool startSelector(const BindingPtr &b, bool widened, clang::SourceRange where);
  Pointer rescaled(const Pointer &p, clang::QualType pointee, const clang::Expr *e);
  std::optional<Pointer> shifted(const Pointer &p, const model::ExprPtr &k, bool subtract,
                                 const clang::Expr *where);
  std::optional<Pointer> decay(const LValue &lv, clang::QualType pointee, const clang::Expr *e);
  uint64_t scaleOf(unsigned array, clang::QualType pointee, const clang::Expr *where);
  BindingPtr builtin(const clang::CallExpr *c, const clang::FunctionDecl *fn);
  // builtin's parts, by the kind of builtin (extract_builtins.cpp)
  BindingPtr barrierBuiltin(const clang::CallExpr *c, const std::string &name, BuiltinKind kind,
                            clang::QualType ret, clang::SourceRange where);
  void annotationBuiltin(const clang::CallExpr *c, const std::string &name, BuiltinKind kind,
                         clang::SourceRange where);
  BindingPtr memoryBuiltin(const clang::CallExpr *c, const std::string &name, BuiltinKind kind,
                           clang::QualType ret, clang::SourceRange where);
  std::optional<unsigned> builtinAccess(model::AccessKind kind, const clang::Expr *ptr,
                                        const std::string &name, clang::SourceRange where,
                                        const BuiltinInfo *atomic = nullptr, model::ExprPtr operand = nullptr,
                                        model::ExprPtr order = nullptr);
  BindingPtr atomicBuiltin(const clang::CallExpr *c, const std::string &name, clang::QualType ret,
                           BuiltinInfo info, clang::SourceRange where);
  std::optional<BindingPtr> integerBuiltin(const clang::CallExpr *c, const std::string &name,
                                           clang::QualType ret, BuiltinKind kind, clang::SourceRange where);
  BindingPtr opaqueCall(const clang::CallExpr *c, const std::string &name, clang::QualType ret,
                        clang::SourceRange where);
  BindingPtr inlineCall(const clang::CallExpr *c, const clang::FunctionDecl *fn);
  // inlineCall's parts: the object a member call runs on, and where the returns put the result
  unsigned bindObject(Frame &frame, const clang::CallExpr *c, const clang::FunctionDecl *fn);
  BindingPtr resultOf(const clang::FunctionDecl *fn, const std::string &prefix, clang::SourceRange where);
  bool inlineConstructor(const BindingPtr &dst, const clang::CXXConstructExpr *ce);
  model::ExprPtr armEffects(const clang::ConditionalOperator *c, model::ExprPtr cond,
                            std::vector<model::Stmt> then_effects, std::vector<model::Stmt> else_effects);
  LValue pinned(LValue lv, const std::string &name, clang::SourceRange where);
  BindingPtr referenceTo(LValue lv, const std::string &name, clang::SourceRange where);
  void bindArgument(Frame &frame, const clang::ParmVarDecl *param, const clang::Expr *arg);
  BindingPtr valueBinding(model::ExprPtr v);
  model::ExprPtr snapshot(model::ExprPtr v, const std::string &name, clang::SourceRange where);
  LValue fromBinding(const BindingPtr &b, clang::QualType t, const clang::Expr *where);
  void copyStruct(const BindingPtr &dst, const BindingPtr &src, clang::SourceRange where);
  void havocStruct(const BindingPtr &dst, const std::string &what, clang::SourceRange where);
  // assignStruct's parts, by what `src` is (extract_structs.cpp)
  void constructStruct(const BindingPtr &dst, const clang::CXXConstructExpr *ce);
  void initStruct(const BindingPtr &dst, const clang::InitListExpr *il);
  void structFromCall(const BindingPtr &dst, const clang::CallExpr *c);
  model::ExprPtr incDecValue(const clang::UnaryOperator *u, bool value_used);
  void loop(model::LoopKind kind, const clang::Stmt *init, const clang::Expr *cond,
            const clang::VarDecl *cond_var, const clang::Stmt *body, const clang::Expr *inc,
            clang::SourceRange where);
  static bool continues(const std::vector<model::Stmt> &body);
  void widenCopies(const clang::Stmt *loop_body, clang::SourceRange where);
  void returnStmt(const clang::ReturnStmt *r);
  void switchStmt(const clang::SwitchStmt *s);
  // --- function_pointers.cpp: a function pointer is an integer tag (see there)
  bool isFunctionValue(const clang::Expr *e);
  model::ExprPtr functionTag(const clang::Expr *e);
  model::ExprPtr functionCast(const clang::CastExpr *c);
  model::ExprPtr storedFunction(const clang::Expr *e);
  model::ExprPtr assignFunction(const clang::BinaryOperator *b);
  model::ExprPtr compareFunctions(const clang::BinaryOperator *b);
  model::ExprPtr functionNotNull(const clang::Expr *e);
  std::vector<const clang::FunctionDecl *> &functionTags();
  uint64_t tagOf(const clang::FunctionDecl *fn);
  std::vector<const clang::FunctionDecl *> candidatesOf(clang::QualType type);
  BindingPtr callThroughPointer(const clang::CallExpr *c);
  BindingPtr callResult(const clang::CallExpr *c);
  void dispatch(const clang::CallExpr *c, const model::ExprPtr &tag,
                const std::vector<const clang::FunctionDecl *> &candidates, size_t i,
                const BindingPtr &result);
  BindingPtr callCandidate(const clang::CallExpr *c, const clang::FunctionDecl *fn);
  void takeResult(const BindingPtr &result, const BindingPtr &value, const clang::CallExpr *c);
  void callNoFunction(const clang::CallExpr *c, const BindingPtr &result);
  unsigned noFunctionArray(const clang::CallExpr *c);
  void gotoStmt(const clang::GotoStmt *g);
  // Emits a loop (or a switch's loop) with what the gotos out of it need around it.
  void emitBreakable(model::Stmt loop);
  // memcpy/memset with a length known at compile time: a read and a write of ranges.
  BindingPtr copyOrFill(const clang::CallExpr *c, bool is_fill);
  std::optional<uint64_t> constantLength(const clang::Expr *n);
  // KV_ASSUME_FORALL (extract_premises.cpp): the lambda's condition, its loads read as
  // Elements (in_premise_), for every value of its parameters in [lo, hi).
  void assumeForall(const clang::CallExpr *c, clang::SourceRange where);
  bool in_premise_ = false;

  clang::ASTContext &ctx_;
  clang::SourceManager &sm_;
  std::string prelude_dir_;
  model::Kernel &k_;
  std::vector<Frame> frames_;
  std::vector<std::vector<model::Stmt> *> out_;
  std::map<const clang::VarDecl *, unsigned> global_arrays_;
  std::optional<unsigned> extern_shared_;        // all extern __shared__ arrays alias this one
  std::set<const clang::ValueDecl *> modified_;  // kernel parameters the body assigns
  // The loops and switches being translated, innermost last, each named by its body
  // statement, with the statements gotos lowered inside it need before and after it:
  // a flag's reset, and the tests that carry a multi-level break on outwards.
  struct Breakable {
    const clang::Stmt *body = nullptr;
    std::vector<model::Stmt> before, after;
  };
  std::vector<Breakable> breakables_;
  unsigned next_id_ = 1;  // ids of Locals, Accesses, Opaques
  // How deeply the expressions and statements being translated nest: past kMaxNesting
  // the rest is `unsupported` (a generated `- - - ... x`, `a + a + ... + a`), which bounds
  // the recursion here and in every pass over the model.
  unsigned nesting_ = 0;
  static constexpr unsigned kMaxNesting = 1000;
  bool tooDeep(clang::SourceRange where);  // true once past it (said once per kernel)
  bool shallowEnough(const clang::Stmt *body);
  bool said_too_deep_ = false;
  // Calls inlined into the kernel so far: past kMaxInlined the rest is `unsupported` (a
  // call tree that doubles at each level, f(x) = g(x) + g(x + 1) thirty levels deep, would
  // inline 2^30 bodies).
  unsigned inlined_ = 0;
  static constexpr unsigned kMaxInlined = 10000;
  // True (and `unsupported`) where `fn` is being inlined already (recursion), or once the
  // kernel is past kMaxInlined calls (said once); else counts the call.
  bool cannotInline(const clang::FunctionDecl *fn, clang::SourceRange where);
  struct Nested {
    KernelExtractor &x;
    explicit Nested(KernelExtractor &e) : x(e) { ++x.nesting_; }
    ~Nested() { --x.nesting_; }
  };
  // Translation events (a pointer variable created or read, a loop entered), numbered in
  // order, and the events at which the loops being translated were entered: a pointer
  // read inside a loop cannot gain an array later in that loop (the read, translated
  // already, runs again after it).
  unsigned event_ = 0;
  std::vector<unsigned> loop_starts_;
  // functions whose address the file takes; tag = index + 1 (function_pointers.cpp)
  std::optional<std::vector<const clang::FunctionDecl *>> function_tags_;

  friend struct ModifiedParams;
};

}  // namespace detail
}  // namespace kverify::frontend
