// Kernels, parameters, arrays and variables: the declaration side of the extractor.
#include "frontend/compile_errors.hpp"
#include "frontend/extractor.hpp"
#include "frontend/frontend.hpp"
#include "frontend/host_launches.hpp"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

namespace kverify::frontend {
namespace detail {

using model::Type;

KernelExtractor::KernelExtractor(clang::ASTContext &ctx, std::string prelude_dir, model::Kernel &kernel)
    : ctx_(ctx), sm_(ctx.getSourceManager()), prelude_dir_(std::move(prelude_dir)), k_(kernel) {}

// --- types, locations, text ------------------------------------------------------------

model::Type KernelExtractor::typeOf(clang::QualType t) const {
  t = t.getNonReferenceType().getCanonicalType();
  if (t->isBooleanType()) return Type::boolean();
  if (t->isIntegralOrEnumerationType() && !t->isDependentType())
    return Type::integer(static_cast<unsigned>(ctx_.getIntWidth(t)), t->isSignedIntegerOrEnumerationType());
  if (t->isRealFloatingType()) return Type::floating(static_cast<unsigned>(ctx_.getTypeSize(t)));
  if (t->isFunctionPointerType()) return Type::integer(64, false);  // a tag (function_pointers.cpp)
  if (t->isPointerType()) return Type::pointer();
  return Type::other();
}

uint64_t KernelExtractor::sizeOf(clang::QualType t) const {
  t = t.getNonReferenceType();
  if (t->isVoidType() || t->isIncompleteType() || t->isDependentType() || t->isFunctionType()) return 1;
  return static_cast<uint64_t>(ctx_.getTypeSizeInChars(t).getQuantity());
}

// Code inside the prelude's own functions (cuRAND, <cuda/atomic>) is shown as the user's
// call it came from.
clang::SourceRange KernelExtractor::userRange(clang::SourceRange r) const {
  if (frames_.empty() || !frames_.back().site.isValid() || prelude_dir_.empty()) return r;
  return sm_.getFilename(sm_.getExpansionLoc(r.getBegin())).starts_with(prelude_dir_) ? frames_.back().site
                                                                                      : r;
}

model::SourceRange KernelExtractor::rangeOf(clang::SourceRange r) const {
  model::SourceRange out;
  r = userRange(r);
  clang::SourceLocation b = sm_.getExpansionLoc(r.getBegin());
  clang::SourceLocation e = sm_.getExpansionRange(r.getEnd()).getEnd();
  clang::PresumedLoc pb = sm_.getPresumedLoc(b);
  if (pb.isInvalid()) return out;
  out.file = pb.getFilename();
  out.line = pb.getLine();
  out.col = pb.getColumn();
  clang::PresumedLoc pe = sm_.getPresumedLoc(e);
  if (pe.isValid()) {
    // End at the last character of the last token.
    unsigned len = clang::Lexer::MeasureTokenLength(e, sm_, ctx_.getLangOpts());
    out.end_line = pe.getLine();
    out.end_col = pe.getColumn() + (len ? len - 1 : 0);
  }
  return out;
}

std::string KernelExtractor::textOf(clang::SourceRange r) const {
  r = userRange(r);
  clang::CharSourceRange cr = clang::CharSourceRange::getTokenRange(
      sm_.getExpansionLoc(r.getBegin()), sm_.getExpansionRange(r.getEnd()).getEnd());
  return clang::Lexer::getSourceText(cr, sm_, ctx_.getLangOpts()).str();
}

bool KernelExtractor::inPrelude(const clang::Decl *d) const {
  clang::SourceLocation loc = sm_.getExpansionLoc(d->getLocation());
  llvm::StringRef file = sm_.getFilename(loc);
  return !prelude_dir_.empty() && file.starts_with(prelude_dir_);
}

void KernelExtractor::unsupported(std::string construct, std::string detail, clang::SourceRange where) {
  model::SourceRange r = rangeOf(where);
  for (const model::Unsupported &u : k_.unsupported)  // a construct inlined twice: once
    if (u.construct == construct && u.range.line == r.line && u.range.col == r.col && u.range.file == r.file)
      return;
  k_.unsupported.push_back({std::move(construct), std::move(detail), r});
}

model::Local KernelExtractor::newLocal(const std::string &name, model::Type type) {
  model::Local l{name, newId(), type};
  k_.locals.push_back(l);
  return l;
}

BindingPtr KernelExtractor::lookup(const clang::ValueDecl *d) {
  auto &vars = frames_.back().vars;
  auto it = vars.find(d);
  return it == vars.end() ? nullptr : it->second;
}

std::vector<const clang::FieldDecl *> KernelExtractor::recordFields(const clang::RecordDecl *rd,
                                                                    clang::SourceRange where) {
  std::vector<const clang::FieldDecl *> out;
  if (const auto *cxx = llvm::dyn_cast<clang::CXXRecordDecl>(rd)) {
    if (cxx->getNumVBases() != 0)
      unsupported("virtual base class", "'" + cxx->getNameAsString() + "'", where);
    for (const clang::CXXBaseSpecifier &base : cxx->bases())
      if (const clang::RecordDecl *b = base.getType()->getAsRecordDecl();
          b && !base.isVirtual() && b->getDefinition())
        for (const clang::FieldDecl *f : recordFields(b->getDefinition(), where)) out.push_back(f);
  }
  for (const clang::FieldDecl *f : rd->fields()) out.push_back(f);
  return out;
}

// --- arrays ---------------------------------------------------------------------------

// Describes `a`'s element type `elem`. Arrays of structs, unions and (CUDA's struct)
// vector types are addressed in bytes, so that fields are distinct locations
// (model::Array::by_bytes). Returns the units of `a` one element spans.
uint64_t KernelExtractor::describeElement(model::Array &a, clang::QualType elem) const {
  a.elem_c_type = elem.getUnqualifiedType().getAsString(ctx_.getPrintingPolicy());
  a.elem = typeOf(elem);
  uint64_t size = sizeOf(elem);
  a.by_bytes = elem.getCanonicalType()->isRecordType() && size > 0;
  a.elem_size = a.by_bytes ? 1 : static_cast<unsigned>(size);
  return a.by_bytes ? size : 1;
}

// Peels constant array dimensions off `t` into `dims`; returns the element type.
static clang::QualType peelDims(clang::ASTContext &ctx, clang::QualType t, std::vector<uint64_t> &dims,
                                bool &incomplete) {
  incomplete = false;
  while (const clang::ArrayType *at = ctx.getAsArrayType(t)) {
    if (const auto *ca = llvm::dyn_cast<clang::ConstantArrayType>(at))
      dims.push_back(ca->getSize().getZExtValue());
    else
      incomplete = true;
    t = at->getElementType();
  }
  return t;
}

std::optional<unsigned> KernelExtractor::globalArray(const clang::VarDecl *var) {
  if (auto it = global_arrays_.find(var); it != global_arrays_.end()) return it->second;
  model::Array a;
  if (var->hasAttr<clang::CUDASharedAttr>()) {
    a.space = model::AddressSpace::Shared;
    a.origin = model::ArrayOrigin::Shared;
  } else if (var->hasAttr<clang::CUDAConstantAttr>()) {
    a.space = model::AddressSpace::Constant;
    a.origin = model::ArrayOrigin::ConstantVar;
  } else if (var->hasAttr<clang::CUDADeviceAttr>() && var->hasGlobalStorage()) {
    a.space = model::AddressSpace::Global;
    a.origin = model::ArrayOrigin::DeviceVar;
  } else {
    return std::nullopt;
  }
  bool incomplete = false;
  clang::QualType elem = peelDims(ctx_, var->getType(), a.dims, incomplete);
  a.name = var->getNameAsString();
  uint64_t units = describeElement(a, elem);
  a.is_const = elem.isConstQualified() || a.space == model::AddressSpace::Constant;
  a.range = rangeOf(var->getSourceRange());
  if (a.space == model::AddressSpace::Shared && incomplete) {
    // Every extern __shared__ array starts at the same address: model them as one.
    a.is_extern = true;
    if (extern_shared_) {
      const model::Array &base = k_.arrays[*extern_shared_];
      if (sizeOf(elem) % base.elem_size != 0)
        unsupported(
            "extern __shared__ aliasing",
            "'" + a.name + "' has elements smaller than those of '" + base.name + "', which it aliases",
            var->getSourceRange());
      global_arrays_[var] = *extern_shared_;
      return *extern_shared_;
    }
  } else if (!incomplete) {
    uint64_t size = units;
    for (uint64_t d : a.dims) size *= d;
    a.size = size;
  }
  a.id = static_cast<unsigned>(k_.arrays.size());
  k_.arrays.push_back(a);
  global_arrays_[var] = a.id;
  if (a.is_extern) extern_shared_ = a.id;
  return a.id;
}

// --- variables ----------------------------------------------------------------------

// A thread-private array of type `t` (a local array variable, or an array field of a
// struct local): a Local-space model::Array whose element values are not tracked (loads
// are opaque), bound as a pointer to its first element.
BindingPtr KernelExtractor::localArray(clang::QualType t, const std::string &name, clang::SourceRange where) {
  model::Array a;
  bool incomplete = false;
  clang::QualType elem = peelDims(ctx_, t, a.dims, incomplete);
  a.id = static_cast<unsigned>(k_.arrays.size());
  a.name = name;
  a.space = model::AddressSpace::Local;
  a.origin = model::ArrayOrigin::Local;
  uint64_t units = describeElement(a, elem);
  uint64_t size = units;
  for (uint64_t d : a.dims) size *= d;
  a.size = size;
  a.range = rangeOf(where);
  k_.arrays.push_back(a);
  auto b = std::make_shared<Binding>();
  b->kind = Binding::Kind::Pointer;
  b->pointer = Pointer::memory(a.id, model::Expr::intConst(Type::i64(), 0), units);
  return b;
}

BindingPtr KernelExtractor::freshStruct(clang::QualType t, const std::string &name) {
  auto b = std::make_shared<Binding>();
  b->kind = Binding::Kind::Struct;
  const clang::RecordDecl *rd = t.getNonReferenceType()->getAsRecordDecl();
  if (!rd || !rd->getDefinition()) return b;
  for (const clang::FieldDecl *f : recordFields(rd->getDefinition(), rd->getSourceRange())) {
    std::string fname = name + "." + f->getNameAsString();
    clang::QualType ft = f->getType();
    if (ft->isRecordType()) {
      b->fields[f] = freshStruct(ft, fname);
    } else if (ft->isReferenceType()) {
      auto leaf = std::make_shared<Binding>();  // bound by a constructor (bindReferenceFields)
      leaf->kind = Binding::Kind::Ref;
      b->fields[f] = leaf;
    } else if (ctx_.getAsConstantArrayType(ft)) {
      // an array field: thread-private memory of its own, as a local array is
      b->fields[f] = localArray(ft, fname, f->getSourceRange());
    } else if (ft->isPointerType() && !ft->isFunctionPointerType()) {
      // a pointer field: as a pointer variable, its array fixed by the first assignment
      auto leaf = std::make_shared<Binding>();
      leaf->kind = Binding::Kind::Pointer;
      leaf->pointer.array = ~0u;
      leaf->offset = newLocal(fname + ".offset", Type::i64());
      leaf->scope = leaf->home = out_.back();
      leaf->created_at = ++event_;
      b->fields[f] = leaf;
    } else {
      auto leaf = std::make_shared<Binding>();
      leaf->kind = Binding::Kind::Local;
      leaf->local = newLocal(fname, typeOf(ft));
      b->fields[f] = leaf;
      if (!ft->isScalarType())
        unsupported("struct local with a non-scalar field",
                    "field '" + fname + "' of type '" + ft.getAsString() + "'", f->getSourceRange());
    }
  }
  return b;
}

void KernelExtractor::declareLocal(const clang::VarDecl *var) {
  clang::SourceRange where = var->getSourceRange();
  if (globalArray(var)) return;  // __shared__ (or device/constant) variables: one per block, not per thread
  if (var->isStaticLocal() || var->hasGlobalStorage()) {
    unsupported("static local variable", "'" + var->getNameAsString() + "'", where);
    return;
  }
  std::string name = frames_.back().prefix + var->getNameAsString();
  clang::QualType t = var->getType();
  const clang::Expr *init = var->getInit();
  auto b = std::make_shared<Binding>();
  frames_.back().vars[var] = b;
  if (t->isReferenceType()) {
    if (init && init->isGLValue() && !t->getPointeeType()->isRecordType()) {
      *b = *referenceTo(lvalue(init), name, where);
    } else if (init && t->getPointeeType()->isRecordType()) {
      LValue lv = lvalue(init);
      if (lv.kind == LValue::Kind::Struct) {
        *b = *lv.binding;
      } else if ((lv.kind == LValue::Kind::Memory || lv.kind == LValue::Kind::Choice) && init->isGLValue()) {
        *b = *referenceTo(lv, name, where);  // `Acc &a = acc[i];`: writes reach acc[i]
      } else {
        *b = *freshStruct(t->getPointeeType(), name);
        assignStruct(b, init);
      }
    } else {
      b->kind = Binding::Kind::Local;
      b->local = newLocal(name, typeOf(t));
      if (init) emitAssign(b->local, model::Expr::cast(b->local.type, rvalue(init)), where);
    }
    return;
  }
  if (ctx_.getAsArrayType(t)) {
    *b = *localArray(t, name, where);
    if (init)  // element values are not tracked (loads are opaque); side effects are
      discard(init);
    return;
  }
  if (t->isFunctionPointerType() || (t->isPointerType() && init && isFunctionValue(init))) {
    // a function pointer, or a `void *` holding one: a tag Local (function_pointers.cpp)
    b->kind = Binding::Kind::Local;
    b->local = newLocal(name, Type::integer(64, false));
    emitAssign(
        b->local,
        init ? functionTag(init) : model::Expr::opaque(b->local.type, newId(), "uninitialized " + name),
        where);
    return;
  }
  if (t->isPointerType()) {
    b->kind = Binding::Kind::Pointer;
    b->pointer.array = ~0u;  // no base yet: set by the first assignment
    b->offset = newLocal(name + ".offset", Type::i64());
    b->scope = b->home = out_.back();
    b->created_at = ++event_;
    if (init) assignPointer(b, init, where);
    return;
  }
  if (t->isRecordType()) {
    *b = *freshStruct(t, name);
    if (init) assignStruct(b, init);
    return;
  }
  if (!t->isScalarType()) {
    unsupported("local variable type", "'" + name + "' of type '" + t.getAsString() + "'", where);
    return;
  }
  b->kind = Binding::Kind::Local;
  b->local = newLocal(name, typeOf(t));
  model::ExprPtr value =
      init ? rvalue(init) : model::Expr::opaque(b->local.type, newId(), "uninitialized " + b->local.name);
  emitAssign(b->local, model::Expr::cast(b->local.type, value), where);
}

// --- kernels ----------------------------------------------------------------------

// The kernel parameters its body assigns (or whose address it takes): they become
// Locals initialised from the parameter's value.
struct ModifiedParams : clang::RecursiveASTVisitor<ModifiedParams> {
  std::set<const clang::ValueDecl *> &out;
  explicit ModifiedParams(std::set<const clang::ValueDecl *> &o) : out(o) {}
  void mark(const clang::Expr *e) {
    e = e->IgnoreParenImpCasts();
    while (const auto *m = llvm::dyn_cast<clang::MemberExpr>(e)) e = m->getBase()->IgnoreParenImpCasts();
    if (const auto *d = llvm::dyn_cast<clang::DeclRefExpr>(e))
      if (llvm::isa<clang::ParmVarDecl>(d->getDecl())) out.insert(d->getDecl());
  }
  bool VisitBinaryOperator(clang::BinaryOperator *b) {
    if (b->isAssignmentOp()) mark(b->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *u) {
    if (u->isIncrementDecrementOp() || u->getOpcode() == clang::UO_AddrOf) mark(u->getSubExpr());
    return true;
  }
};

// Binds one kernel parameter (or a field of one, `name` being its path) and lists it.
static void bindParam(KernelExtractor &x, model::Kernel &k, clang::ASTContext &ctx, unsigned position,
                      const std::string &name, clang::QualType t, const clang::Decl *decl, bool modified,
                      BindingPtr &b, std::vector<model::Stmt> &prologue) {
  b = std::make_shared<Binding>();
  model::Param p;
  p.position = position;
  p.name = name;
  p.c_type = t.getAsString(ctx.getPrintingPolicy());
  p.type = x.typeOf(t);
  p.range = x.rangeOf(decl->getSourceRange());
  if (const clang::RecordDecl *rd = t->getAsRecordDecl(); rd && rd->getDefinition()) {
    b->kind = Binding::Kind::Struct;
    for (const clang::FieldDecl *f : x.recordFields(rd->getDefinition(), decl->getSourceRange()))
      bindParam(x, k, ctx, position, name + "." + f->getNameAsString(), f->getType(), f, modified,
                b->fields[f], prologue);
    return;
  }
  if ((t->isPointerType() && !t->isFunctionPointerType()) || ctx.getAsArrayType(t)) {
    // Pointers point into global memory; array fields of a struct parameter live in
    // (read-only) parameter space.
    bool is_array = ctx.getAsArrayType(t) != nullptr;
    model::Array a;
    a.id = static_cast<unsigned>(k.arrays.size());
    a.name = name;
    a.origin = model::ArrayOrigin::Param;
    a.space = is_array ? model::AddressSpace::Constant : model::AddressSpace::Global;
    clang::QualType elem = is_array ? t : t->getPointeeType();
    while (const clang::ArrayType *at = ctx.getAsArrayType(elem)) {
      if (const auto *ca = llvm::dyn_cast<clang::ConstantArrayType>(at))
        a.dims.push_back(ca->getSize().getZExtValue());
      elem = at->getElementType();
    }
    uint64_t units = x.describeElement(a, elem);
    if (is_array) {
      uint64_t size = units;
      for (uint64_t d : a.dims) size *= d;
      a.size = size;
    }
    a.is_const = elem.isConstQualified() || is_array;
    a.is_restrict = t.isRestrictQualified();
    a.range = p.range;
    k.arrays.push_back(a);
    p.array = a.id;
    b->kind = Binding::Kind::Pointer;
    // one pointee spans `units` of the array (a struct's bytes), or the elements of
    // the rows of a pointer to arrays (`float (*p)[16]`)
    uint64_t scale =
        is_array ? units : std::max<uint64_t>(1, x.sizeOf(t->getPointeeType()) / std::max(1u, a.elem_size));
    b->pointer = Pointer::memory(a.id, model::Expr::intConst(Type::i64(), 0), scale);
    b->scope = b->home = &prologue;  // the kernel's body
    if (modified && !is_array) {
      b->offset = x.newLocal(name + ".offset", Type::i64());
      prologue.push_back(model::Stmt{p.range, model::stmt::Assign{*b->offset, b->pointer.offset}});
    }
  } else if (t->isScalarType()) {
    model::ExprPtr value = model::Expr::param(p.type, name);
    if (modified) {
      b->kind = Binding::Kind::Local;
      b->local = x.newLocal(name, p.type);
      prologue.push_back(model::Stmt{p.range, model::stmt::Assign{b->local, value}});
    } else {
      b->kind = Binding::Kind::Value;
      b->value = value;
    }
  } else {
    x.unsupported("parameter type", "'" + name + "' of type '" + p.c_type + "'", decl->getSourceRange());
  }
  k.params.push_back(p);
}

void KernelExtractor::describe(const clang::FunctionDecl *kernel) {
  std::string name;
  llvm::raw_string_ostream os(name);
  kernel->getNameForDiagnostic(os, ctx_.getPrintingPolicy(), /*Qualified=*/true);
  // overloaded kernels (fill(int *), fill(float *)) are told apart by their parameters
  unsigned overloads = 0;
  for (const clang::NamedDecl *d : kernel->getDeclContext()->lookup(kernel->getDeclName()))
    if (const auto *f = llvm::dyn_cast<clang::FunctionDecl>(d->getUnderlyingDecl());
        f && f->hasAttr<clang::CUDAGlobalAttr>())
      ++overloads;
  if (overloads > 1) {
    os << "(";
    for (unsigned i = 0; i < kernel->getNumParams(); ++i)
      os << (i ? ", " : "") << kernel->getParamDecl(i)->getType().getAsString(ctx_.getPrintingPolicy());
    os << ")";
  }
  k_.name = os.str();
  k_.range = rangeOf(kernel->getSourceRange());
  k_.file = k_.range.file;
}

void KernelExtractor::run(const clang::FunctionDecl *kernel) {
  ModifiedParams(modified_).TraverseStmt(kernel->getBody());
  frames_.push_back(Frame{});
  frames_.back().fn = kernel;
  out_.push_back(&k_.body);
  for (unsigned i = 0; i < kernel->getNumParams(); ++i) {
    const clang::ParmVarDecl *p = kernel->getParamDecl(i);
    bindParam(*this, k_, ctx_, i, p->getNameAsString(), p->getType(), p, modified_.count(p) != 0,
              frames_.back().vars[p], k_.body);
  }
  if (shallowEnough(kernel->getBody())) stmt(kernel->getBody());
  out_.pop_back();
  frames_.pop_back();
}

}  // namespace detail

// --- the translation unit ----------------------------------------------------------

// The text after "kverify:" in the `//` comment lines right above line `line` (1-based)
// of `text`, or at the top of the file when line == 0.
static std::string optionsComment(llvm::StringRef text, unsigned line) {
  llvm::SmallVector<llvm::StringRef, 0> lines;
  text.split(lines, '\n');
  std::string found;
  auto take = [&](llvm::StringRef l) {
    size_t at = l.find("kverify:");
    if (at != llvm::StringRef::npos) {
      if (!found.empty()) found += " ";
      found += l.substr(at + 8).trim().str();
    }
  };
  if (line == 0) {
    // GPUVerify's header launch, then the file's first block of `//` lines (a blank
    // line ends it): kverify: comments there come later and win.
    for (const std::string &f : gpuverifyHeaderFlags(text.str()))
      if (llvm::StringRef(f).starts_with("--blockDim=") || llvm::StringRef(f).starts_with("--gridDim="))
        found += (found.empty() ? "" : " ") + f;
    bool started = false;
    for (llvm::StringRef l : lines) {
      l = l.trim();
      if (l.empty() && !started) continue;
      if (!l.starts_with("//")) break;
      started = true;
      take(l);
    }
    return found;
  }
  for (unsigned i = line - 1; i-- > 0;) {
    llvm::StringRef l = lines[i].trim();
    if (!l.starts_with("//")) break;
    take(l);
  }
  return found;
}

// Code of the translation unit itself: the main file, or a .cu file it #includes (Rodinia's
// `#include "kernel_gpu_cuda.cu"`: nvcc compiles such a fragment only there, so its kernels
// and launchers are this file's, not a header's).
static bool inUnitSource(const clang::SourceManager &sm, clang::SourceLocation loc) {
  loc = sm.getExpansionLoc(loc);
  if (loc.isInvalid()) return false;
  if (sm.isInMainFile(loc)) return true;
  return !sm.isInSystemHeader(loc) && sm.getFilename(loc).ends_with(".cu");
}

namespace {
struct KernelFinder : clang::RecursiveASTVisitor<KernelFinder> {
  clang::SourceManager &sm;
  std::vector<const clang::FunctionDecl *> kernels;
  std::vector<const clang::FunctionTemplateDecl *> uninstantiated;
  std::set<const clang::FunctionDecl *> seen;
  // Functions whose code this file causes (see HeaderInstantiations).
  std::vector<const clang::FunctionDecl *> roots;
  explicit KernelFinder(clang::SourceManager &s) : sm(s) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool inMain(clang::SourceLocation loc) const { return inUnitSource(sm, loc); }
  bool isKernelHere(const clang::FunctionDecl *fd) const {
    return fd->hasAttr<clang::CUDAGlobalAttr>() && inMain(fd->getLocation());
  }
  void add(const clang::FunctionDecl *fd) {
    if (fd->doesThisDeclarationHaveABody() && seen.insert(fd).second) kernels.push_back(fd);
  }
  // Code of this file: a function defined in it, or a template instantiation whose point
  // of instantiation is in it (explicit instantiations, uses from its code).
  void root(const clang::FunctionDecl *fd) {
    if (fd->isDependentContext() || !fd->doesThisDeclarationHaveABody()) return;
    if (inMain(fd->getLocation()) ||
        (fd->getTemplateInstantiationPattern() && inMain(fd->getPointOfInstantiation())))
      roots.push_back(fd);
  }
  bool VisitFunctionDecl(clang::FunctionDecl *fd) {
    if (isKernelHere(fd) && !fd->isDependentContext() && !fd->isTemplateInstantiation()) add(fd);
    root(fd);
    return true;
  }
  bool VisitFunctionTemplateDecl(clang::FunctionTemplateDecl *td) {
    for (const clang::FunctionDecl *spec : td->specializations())
      root(spec);  // explicit instantiations, which the traversal may not visit
    const clang::FunctionDecl *fd = td->getTemplatedDecl();
    if (!isKernelHere(fd) || !fd->doesThisDeclarationHaveABody()) return true;
    bool any = false;
    for (const clang::FunctionDecl *spec : td->specializations()) {
      if (spec->isTemplateInstantiation() && spec->doesThisDeclarationHaveABody()) {
        add(spec);
        any = true;
      }
    }
    if (!any) uninstantiated.push_back(td);
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *vd) {  // `auto *k = &kernel<float>;` at file scope
    if (vd->hasGlobalStorage() && inMain(vd->getLocation()) && vd->getInit())
      init_roots.push_back(vd->getInit());
    return true;
  }
  std::vector<const clang::Expr *> init_roots;
};

// The kernels of project headers that the main file launches or refers to, and the kernel
// template instantiations it causes: the functions of the main file (and the template instantiations they use,
// transitively: a host function template of a header, explicitly instantiated in the
// .cu, that launches a kernel template) are searched for references to functions.
struct HeaderInstantiations : clang::RecursiveASTVisitor<HeaderInstantiations> {
  clang::SourceManager &sm;
  const std::string &prelude_dir;
  std::set<const clang::FunctionDecl *> visited;
  std::vector<const clang::FunctionDecl *> work;
  std::vector<const clang::FunctionDecl *> kernels;  // in the order first reached
  HeaderInstantiations(clang::SourceManager &s, const std::string &p) : sm(s), prelude_dir(p) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool inProjectHeader(const clang::FunctionDecl *fd) const {
    clang::SourceLocation loc = sm.getExpansionLoc(fd->getLocation());
    if (loc.isInvalid() || inUnitSource(sm, loc) || sm.isInSystemHeader(loc)) return false;
    llvm::StringRef file = sm.getFilename(loc);
    return !file.empty() && (prelude_dir.empty() || !file.starts_with(prelude_dir));
  }
  void reach(const clang::FunctionDecl *fd) {
    if (!fd) return;
    if (const clang::FunctionDecl *def = fd->getDefinition()) fd = def;
    if (fd->isDependentContext() || !visited.insert(fd).second) return;
    if (fd->hasAttr<clang::CUDAGlobalAttr>()) {
      // a project header's kernel that this file launches or instantiates (the file's
      // launches give its shape; one the file never uses is the header's business)
      if (fd->doesThisDeclarationHaveABody() && inProjectHeader(fd)) kernels.push_back(fd);
      return;  // a kernel's body launches nothing (dynamic parallelism is unsupported)
    }
    // Only template instantiations (and the main file's own functions, the roots) are
    // followed: a non-template header function is the header's business.
    if (fd->doesThisDeclarationHaveABody() &&
        (fd->getTemplateInstantiationPattern() || inUnitSource(sm, fd->getLocation())))
      work.push_back(fd);
  }
  void run() {
    while (!work.empty()) {
      const clang::FunctionDecl *fd = work.back();
      work.pop_back();
      if (const auto *ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(fd))
        for (const clang::CXXCtorInitializer *init : ctor->inits())
          if (init->getInit()) TraverseStmt(init->getInit());
      TraverseStmt(fd->getBody());
    }
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *e) {
    if (const auto *fd = llvm::dyn_cast<clang::FunctionDecl>(e->getDecl())) reach(fd);
    return true;
  }
  bool VisitMemberExpr(clang::MemberExpr *e) {
    if (const auto *fd = llvm::dyn_cast<clang::FunctionDecl>(e->getMemberDecl())) reach(fd);
    return true;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr *e) {
    reach(e->getConstructor());
    return true;
  }
};
}  // namespace

// `k` once per distinct launch of it in the file's host code ("name (launch at L:C)" when
// there are several), or once, with no launch, when the file does not launch it.
// A use of the kernel that may launch it in any shape (its address taken) reads nothing:
// that Kernel has no launch.
static void addPerLaunch(model::Kernel k, const std::vector<model::HostLaunch> &launches,
                         std::vector<model::Kernel> &out) {
  auto known = [](const model::HostLaunch &l) {
    auto any = [](const auto &d) { return d[0] || d[1] || d[2]; };
    return any(l.block) || any(l.grid) || !l.block_facts.empty() || !l.grid_facts.empty() ||
           !l.arg_facts.empty();
  };
  k.function = k.name;
  // one launch in the kernel's own file: the kernel's name; else the launch's place
  if (launches.size() == 0 || (launches.size() == 1 && launches[0].at.file == k.file)) {
    if (!launches.empty() && known(launches.front())) k.launch = launches.front();
    out.push_back(std::move(k));
    return;
  }
  for (const model::HostLaunch &l : launches) {
    model::Kernel copy = k;
    copy.name += std::string(known(l) ? " (launch at " : " (used at ") +
                 llvm::sys::path::filename(l.at.file).str() + ":" + std::to_string(l.at.line) + ":" +
                 std::to_string(l.at.col) + ")";
    if (known(l)) copy.launch = l;
    out.push_back(std::move(copy));
  }
}

void extractTranslationUnit(clang::ASTContext &ctx, const std::string &prelude_dir, CompileProblems &problems,
                            model::TranslationUnitModel &tu) {
  clang::SourceManager &sm = ctx.getSourceManager();
  llvm::StringRef text = sm.getBufferData(sm.getMainFileID());
  tu.options = optionsComment(text, 0);

  KernelFinder finder(sm);
  finder.TraverseAST(ctx);
  HeaderInstantiations reached(sm, prelude_dir);
  for (const clang::FunctionDecl *fd : finder.roots) {
    reached.reach(fd);
    reached.run();
  }
  for (const clang::Expr *e : finder.init_roots) {
    reached.TraverseStmt(const_cast<clang::Expr *>(e));
    reached.run();
  }
  std::vector<const clang::FunctionDecl *> kernels = finder.kernels;
  for (const clang::FunctionDecl *fd : reached.kernels)
    if (finder.seen.insert(fd).second)  // each instantiation once
      kernels.push_back(fd);

  std::map<const clang::FunctionDecl *, std::vector<model::HostLaunch>> launches = readHostLaunches(ctx);
  for (const clang::FunctionDecl *fd : kernels) {
    model::Kernel k;
    detail::KernelExtractor extractor(ctx, prelude_dir, k);
    extractor.describe(fd);
    attachProblems(ctx, fd, problems, tu.diagnostics, k);
    if (k.errors.empty())  // a kernel whose code has errors is not modelled
      extractor.run(fd);
    const clang::Decl *outer = fd;
    if (const clang::FunctionTemplateDecl *td = fd->getPrimaryTemplate())
      outer = td;
    else if (const clang::FunctionDecl *pattern = fd->getTemplateInstantiationPattern())
      outer = pattern;  // a member of a class template
    // The comment above the definition, in whichever file holds it (a header's kernel
    // template instantiated from the main file).
    clang::SourceLocation begin = sm.getExpansionLoc(outer->getBeginLoc());
    k.options = optionsComment(sm.getBufferData(sm.getFileID(begin)), sm.getSpellingLineNumber(begin));
    // __launch_bounds__(N): a launch of more than N threads per block fails
    if (const auto *lb = fd->getAttr<clang::CUDALaunchBoundsAttr>())
      if (std::optional<llvm::APSInt> n = lb->getMaxThreads()->getIntegerConstantExpr(ctx);
          n && n->isStrictlyPositive())
        k.max_threads = n->getZExtValue();
    addPerLaunch(std::move(k), launches[fd->getCanonicalDecl()], tu.kernels);
  }
  for (const clang::FunctionTemplateDecl *td : finder.uninstantiated) {
    model::Kernel scratch;  // only for its range helper
    detail::KernelExtractor x(ctx, prelude_dir, scratch);
    tu.skipped.push_back({td->getQualifiedNameAsString(), "template kernel never instantiated in this file",
                          x.rangeOf(td->getSourceRange())});
  }
}

}  // namespace kverify::frontend
