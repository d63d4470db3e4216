// Kernels, parameters, arrays and variables: the declaration side of the extractor
// (which kernels a translation unit has is extract_unit.cpp's).
#include "frontend/extractor.hpp"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include "llvm/ADT/StringRef.h"

namespace kverify::frontend::detail {

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
  return std::make_shared<Binding>(
      bind::Pointer{Pointer::memory(a.id, model::Expr::intConst(Type::i64(), 0), units)});
}

BindingPtr KernelExtractor::freshStruct(clang::QualType t, const std::string &name) {
  auto b = std::make_shared<Binding>(bind::Struct{});
  bind::Fields &fields = b->as<bind::Struct>()->fields;
  const clang::RecordDecl *rd = t.getNonReferenceType()->getAsRecordDecl();
  if (!rd || !rd->getDefinition()) return b;
  for (const clang::FieldDecl *f : recordFields(rd->getDefinition(), rd->getSourceRange())) {
    std::string fname = name + "." + f->getNameAsString();
    clang::QualType ft = f->getType();
    if (ft->isRecordType()) {
      fields[f] = freshStruct(ft, fname);
    } else if (ft->isReferenceType()) {
      fields[f] = std::make_shared<Binding>(bind::Ref{});  // bound by a constructor (bindReferenceFields)
    } else if (ctx_.getAsConstantArrayType(ft)) {
      // an array field: thread-private memory of its own, as a local array is
      fields[f] = localArray(ft, fname, f->getSourceRange());
    } else if (ft->isPointerType() && !ft->isFunctionPointerType()) {
      // a pointer field: as a pointer variable, its array fixed by the first assignment
      bind::Pointer v{Pointer::unset(), newLocal(fname + ".offset", Type::i64())};
      v.scope = v.home = out_.back();
      v.created_at = ++event_;
      fields[f] = std::make_shared<Binding>(std::move(v));
    } else {
      fields[f] = std::make_shared<Binding>(bind::Local{newLocal(fname, typeOf(ft))});
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
      if (const auto *s = lv.as<lval::Struct>()) {
        *b = *s->binding;
      } else if (lv.inMemory() && init->isGLValue()) {
        *b = *referenceTo(lv, name, where);  // `Acc &a = acc[i];`: writes reach acc[i]
      } else {
        *b = *freshStruct(t->getPointeeType(), name);
        assignStruct(b, init);
      }
    } else {
      model::Local l = newLocal(name, typeOf(t));
      b->node = bind::Local{l};
      if (init) emitAssign(l, model::Expr::cast(l.type, rvalue(init)), where);
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
    model::Local l = newLocal(name, Type::integer(64, false));
    b->node = bind::Local{l};
    emitAssign(l, init ? functionTag(init) : model::Expr::opaque(l.type, newId(), "uninitialized " + name),
               where);
    return;
  }
  if (t->isPointerType()) {
    bind::Pointer v{Pointer::unset(),
                    newLocal(name + ".offset", Type::i64())};  // set by the first assignment
    v.scope = v.home = out_.back();
    v.created_at = ++event_;
    b->node = std::move(v);
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
  model::Local l = newLocal(name, typeOf(t));
  b->node = bind::Local{l};
  model::ExprPtr value =
      init ? rvalue(init) : model::Expr::opaque(l.type, newId(), "uninitialized " + l.name);
  emitAssign(l, model::Expr::cast(l.type, value), where);
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
    b->node = bind::Struct{};
    for (const clang::FieldDecl *f : x.recordFields(rd->getDefinition(), decl->getSourceRange()))
      bindParam(x, k, ctx, position, name + "." + f->getNameAsString(), f->getType(), f, modified,
                b->as<bind::Struct>()->fields[f], prologue);
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
    // one pointee spans `units` of the array (a struct's bytes), or the elements of
    // the rows of a pointer to arrays (`float (*p)[16]`)
    uint64_t scale =
        is_array ? units : std::max<uint64_t>(1, x.sizeOf(t->getPointeeType()) / std::max(1u, a.elem_size));
    bind::Pointer v{Pointer::memory(a.id, model::Expr::intConst(Type::i64(), 0), scale)};
    v.scope = v.home = &prologue;  // the kernel's body
    if (modified && !is_array) {
      v.offset = x.newLocal(name + ".offset", Type::i64());
      prologue.push_back(
          model::Stmt{p.range, model::stmt::Assign{*v.offset, v.pointer.as<ptr::Memory>()->offset}});
    }
    b->node = std::move(v);
  } else if (t->isScalarType()) {
    model::ExprPtr value = model::Expr::param(p.type, name);
    if (modified) {
      model::Local l = x.newLocal(name, p.type);
      b->node = bind::Local{l};
      prologue.push_back(model::Stmt{p.range, model::stmt::Assign{l, value}});
    } else {
      b->node = bind::Value{value};
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

}  // namespace kverify::frontend::detail
