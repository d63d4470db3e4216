// Reading a file that does not fully compile: missing headers skipped, and each kernel
// given the errors of the code it depends on (see compile_errors.hpp).
#include "frontend/compile_errors.hpp"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include "llvm/ADT/StringRef.h"

#include <cctype>
#include <map>
#include <set>

namespace kverify::frontend {
namespace {

// Host-library headers and the prefixes of the macros they define. A header not listed
// may define any macro.
struct LibraryHeader {
  llvm::StringRef header_prefix;  // matched against the #include name's file name
  std::vector<llvm::StringRef> macro_prefixes;
};
const std::vector<LibraryHeader> &libraryHeaders() {
  static const std::vector<LibraryHeader> headers = {
      {"cublas", {"CUBLAS", "CUDA_", "__CUBLAS"}},
      {"cudnn", {"CUDNN", "__CUDNN"}},
      {"nccl", {"NCCL"}},
      {"nvToolsExt", {"NVTX"}},
      {"nvtx", {"NVTX"}},
      {"mpi", {"MPI", "OMPI", "MPICH", "PMPI"}},
      {"omp", {"OMP", "_OMP", "omp_"}},
      {"cuda_profiler_api", {"CUDA_PROFILER", "__CUDA_PROFILER"}},
      {"cufft", {"CUFFT", "__CUFFT"}},
      {"cusparse", {"CUSPARSE", "__CUSPARSE"}},
      {"cusolver", {"CUSOLVER", "__CUSOLVER"}},
      {"curand", {"CURAND", "__CURAND"}},
      {"nvrtc", {"NVRTC", "__NVRTC"}},
      {"npp", {"NPP"}},
      {"nvml", {"NVML"}},
      {"cutensor", {"CUTENSOR"}},
  };
  return headers;
}

bool mayDefine(llvm::StringRef header, llvm::StringRef macro) {
  llvm::StringRef file = header.rsplit('/').second.empty() ? header : header.rsplit('/').second;
  for (const LibraryHeader &h : libraryHeaders())
    if (file.starts_with(h.header_prefix)) {
      for (llvm::StringRef p : h.macro_prefixes)
        if (macro.starts_with(p)) return true;
      return false;
    }
  return true;
}

// The identifiers of a preprocessor condition's text (numbers and their suffixes skipped).
std::vector<std::string> identifiers(llvm::StringRef text) {
  std::vector<std::string> out;
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
        std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
      if (!std::isdigit(static_cast<unsigned char>(c))) out.push_back(text.substr(i, j - i).str());
      i = j;
    } else {
      ++i;
    }
  }
  return out;
}

class SkipMissingHeaders : public clang::PPCallbacks {
public:
  SkipMissingHeaders(clang::Preprocessor &pp, CompileProblems &problems) : pp_(pp), problems_(problems) {}

  bool FileNotFound(llvm::StringRef) override { return true; }  // skip it, go on
  void InclusionDirective(clang::SourceLocation hash, const clang::Token &, llvm::StringRef name, bool angled,
                          clang::CharSourceRange, clang::OptionalFileEntryRef file, llvm::StringRef,
                          llvm::StringRef, const clang::Module *, bool,
                          clang::SrcMgr::CharacteristicKind) override {
    if (!file) problems_.skipped_headers.push_back({name.str(), hash, angled});
  }

  void Ifdef(clang::SourceLocation loc, const clang::Token &name, const clang::MacroDefinition &md) override {
    open(loc, md ? std::vector<std::string>{} : std::vector<std::string>{spelling(name)});
  }
  void Ifndef(clang::SourceLocation loc, const clang::Token &name,
              const clang::MacroDefinition &md) override {
    // an include guard (`#ifndef X` then `#define X`): had a skipped header defined X, the
    // guarded code, kernels included, would not exist; as they do, it did not
    if (!md && isIncludeGuard(name)) return open(loc, {});
    Ifdef(loc, name, md);
  }
  void If(clang::SourceLocation loc, clang::SourceRange cond, ConditionValueKind) override {
    open(loc, undefinedIn(cond));
  }
  void Elif(clang::SourceLocation, clang::SourceRange cond, ConditionValueKind,
            clang::SourceLocation if_loc) override {
    add(if_loc, undefinedIn(cond));
  }
  void Elifdef(clang::SourceLocation, const clang::Token &name, const clang::MacroDefinition &md) override {
    if (!md && !stack_.empty()) add(stack_.back(), {spelling(name)});
  }
  void Elifndef(clang::SourceLocation loc, const clang::Token &name,
                const clang::MacroDefinition &md) override {
    Elifdef(loc, name, md);
  }
  void Endif(clang::SourceLocation loc, clang::SourceLocation if_loc) override {
    if (!stack_.empty()) stack_.pop_back();
    auto it = pending_.find(if_loc.getRawEncoding());
    if (it == pending_.end()) return;
    it->second.begin = if_loc;
    it->second.end = loc;
    problems_.undefined_tests.push_back(std::move(it->second));
    pending_.erase(it);
  }

private:
  std::string spelling(const clang::Token &t) const { return pp_.getSpelling(t); }

  // The next directive after `#ifndef name`, with only white space and comments between,
  // is `#define name`.
  bool isIncludeGuard(const clang::Token &name) const {
    const clang::SourceManager &sm = pp_.getSourceManager();
    bool invalid = false;
    const char *at = sm.getCharacterData(name.getEndLoc(), &invalid);
    if (invalid) return false;
    llvm::StringRef rest(at, sm.getBufferData(sm.getFileID(name.getLocation())).end() - at);
    for (;;) {
      rest = rest.ltrim();
      if (rest.consume_front("//"))
        rest = rest.drop_until([](char c) { return c == '\n'; });
      else if (rest.consume_front("/*"))
        rest = rest.drop_front(std::min(rest.find("*/") + 2, rest.size()));
      else
        break;
    }
    if (!rest.consume_front("#")) return false;
    rest = rest.ltrim(" \t");
    if (!rest.consume_front("define")) return false;
    rest = rest.ltrim(" \t");
    std::string id = spelling(name);
    return rest.starts_with(id) &&
           (rest.size() == id.size() ||
            !(std::isalnum((unsigned char)rest[id.size()]) || rest[id.size()] == '_'));
  }

  std::vector<std::string> undefinedIn(clang::SourceRange cond) const {
    if (problems_.skipped_headers.empty()) return {};
    const clang::SourceManager &sm = pp_.getSourceManager();
    llvm::StringRef text =
        clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(cond), sm, pp_.getLangOpts());
    std::vector<std::string> out;
    for (std::string &id : identifiers(text))
      if (id != "defined" && !pp_.isMacroDefined(id)) out.push_back(std::move(id));
    return out;
  }
  void open(clang::SourceLocation loc, std::vector<std::string> names) {
    stack_.push_back(loc);
    add(loc, std::move(names));
  }
  // Records the macros of a test at the conditional opened at `if_loc` that a skipped
  // header could have defined.
  void add(clang::SourceLocation if_loc, std::vector<std::string> names) {
    for (const std::string &m : names)
      for (const CompileProblems::SkippedHeader &h : problems_.skipped_headers)
        if (mayDefine(h.name, m)) {
          CompileProblems::UndefinedTest &t = pending_[if_loc.getRawEncoding()];
          if (t.header.empty()) t.header = h.name;
          t.macros.push_back(m);
          break;
        }
  }

  clang::Preprocessor &pp_;
  CompileProblems &problems_;
  std::vector<clang::SourceLocation> stack_;  // the open conditionals
  std::map<clang::SourceLocation::UIntTy, CompileProblems::UndefinedTest> pending_;
};

// The declarations a kernel depends on, as source ranges: its own definition, the
// functions it calls (transitively), the globals, fields, records and typedefs it uses.
struct Dependencies : clang::RecursiveASTVisitor<Dependencies> {
  std::set<const clang::Decl *> decls;
  std::vector<const clang::FunctionDecl *> work;

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  void collect(const clang::FunctionDecl *kernel) {
    function(kernel);
    while (!work.empty()) {
      const clang::FunctionDecl *fd = work.back();
      work.pop_back();
      for (const clang::ParmVarDecl *p : fd->parameters()) type(p->getType());
      type(fd->getReturnType());
      if (const auto *ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(fd))
        for (const clang::CXXCtorInitializer *init : ctor->inits())
          if (init->getInit()) TraverseStmt(init->getInit());
      if (fd->hasBody()) TraverseStmt(fd->getBody());
    }
  }
  void function(const clang::FunctionDecl *fd) {
    if (!fd) return;
    if (const clang::FunctionDecl *def = fd->getDefinition()) fd = def;
    if (!decls.insert(fd).second) return;
    if (const clang::FunctionDecl *pattern = fd->getTemplateInstantiationPattern()) decls.insert(pattern);
    if (const auto *m = llvm::dyn_cast<clang::CXXMethodDecl>(fd)) record(m->getParent());
    work.push_back(fd);
  }
  void record(const clang::RecordDecl *rd) {
    if (!rd) return;
    if (const clang::RecordDecl *def = rd->getDefinition()) rd = def;
    if (!decls.insert(rd).second || !rd->isCompleteDefinition())
      return;  // (an incomplete type has no fields, no bases)
    if (const auto *spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(rd))
      if (const clang::ClassTemplateDecl *td = spec->getSpecializedTemplate()) decls.insert(td);
    for (const clang::FieldDecl *f : rd->fields()) type(f->getType());
    if (const auto *cxx = llvm::dyn_cast<clang::CXXRecordDecl>(rd))
      for (const clang::CXXBaseSpecifier &b : cxx->bases()) type(b.getType());
  }
  void type(clang::QualType t) {
    for (int depth = 0; !t.isNull() && depth < 64; ++depth) {
      if (const auto *td = t->getAs<clang::TypedefType>()) decls.insert(td->getDecl());
      if (const clang::RecordDecl *rd = t->getAsRecordDecl()) {
        record(rd);
        return;
      }
      if (t->isPointerType() || t->isReferenceType())
        t = t->getPointeeType();
      else if (const clang::ArrayType *a = t->getAsArrayTypeUnsafe())
        t = a->getElementType();
      else
        return;
    }
  }
  void value(const clang::ValueDecl *d) {
    if (const auto *fd = llvm::dyn_cast<clang::FunctionDecl>(d)) return function(fd);
    if (const auto *vd = llvm::dyn_cast<clang::VarDecl>(d); vd && vd->hasGlobalStorage()) decls.insert(vd);
    if (const auto *ec = llvm::dyn_cast<clang::EnumConstantDecl>(d))
      decls.insert(llvm::cast<clang::Decl>(ec->getDeclContext()));
    type(d->getType());
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr *e) {
    value(e->getDecl());
    return true;
  }
  bool VisitMemberExpr(clang::MemberExpr *e) {
    value(e->getMemberDecl());
    return true;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr *e) {
    function(e->getConstructor());
    return true;
  }
  bool VisitCallExpr(clang::CallExpr *e) {
    if (const clang::FunctionDecl *fd = e->getDirectCallee()) function(fd);
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *vd) {
    type(vd->getType());
    return true;
  }
  bool VisitExplicitCastExpr(clang::ExplicitCastExpr *e) {
    type(e->getTypeAsWritten());
    return true;
  }
  bool VisitUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr *e) {
    if (e->isArgumentType()) type(e->getArgumentType());
    return true;
  }
};

// Names of the declarations clang marked invalid, with their ranges: a declaration that
// failed may still have changed which overload or specialization a kernel uses.
struct InvalidDecls : clang::RecursiveASTVisitor<InvalidDecls> {
  std::multimap<std::string, clang::SourceRange> by_name;
  bool VisitNamedDecl(clang::NamedDecl *d) {
    if (d->isInvalidDecl() && d->getIdentifier()) by_name.emplace(d->getName().str(), d->getSourceRange());
    return true;
  }
};

struct Span {
  clang::FileID file;
  unsigned begin = 0, end = 0;
};

std::optional<Span> spanOf(const clang::SourceManager &sm, clang::SourceRange r) {
  if (r.isInvalid()) return std::nullopt;
  clang::SourceLocation b = sm.getExpansionLoc(r.getBegin());
  clang::SourceLocation e = sm.getExpansionRange(r.getEnd()).getEnd();
  auto [fb, ob] = sm.getDecomposedLoc(b);
  auto [fe, oe] = sm.getDecomposedLoc(e);
  if (fb != fe || oe < ob) return std::nullopt;
  return Span{fb, ob, oe};
}

}  // namespace

std::unique_ptr<clang::PPCallbacks> skipMissingHeaders(clang::Preprocessor &pp, CompileProblems &problems) {
  return std::make_unique<SkipMissingHeaders>(pp, problems);
}

KernelProblems problemsOf(clang::ASTContext &ctx, const clang::FunctionDecl *kernel,
                          const CompileProblems &problems) {
  KernelProblems out;
  if (problems.errors.empty() && problems.undefined_tests.empty()) return out;
  const clang::SourceManager &sm = ctx.getSourceManager();
  Dependencies deps;
  deps.collect(kernel);
  std::vector<Span> spans;
  std::set<std::string> names;
  for (const clang::Decl *d : deps.decls) {
    if (std::optional<Span> s = spanOf(sm, d->getSourceRange())) spans.push_back(*s);
    if (const auto *nd = llvm::dyn_cast<clang::NamedDecl>(d); nd && nd->getIdentifier())
      names.insert(nd->getName().str());
  }
  if (!problems.errors.empty()) {
    InvalidDecls invalid;
    invalid.TraverseAST(ctx);
    for (const auto &[name, range] : invalid.by_name)
      if (names.count(name))
        if (std::optional<Span> s = spanOf(sm, range)) spans.push_back(*s);
  }
  for (size_t i = 0; i < problems.errors.size(); ++i) {
    clang::SourceLocation loc = problems.errors[i].loc;
    if (loc.isInvalid()) {  // no place: it may be anywhere
      out.errors.push_back(i);
      continue;
    }
    auto [file, offset] = sm.getDecomposedLoc(sm.getExpansionLoc(loc));
    for (const Span &s : spans)
      if (s.file == file && s.begin <= offset && offset <= s.end) {
        out.errors.push_back(i);
        break;
      }
  }
  for (const CompileProblems::UndefinedTest &t : problems.undefined_tests) {
    std::optional<Span> test = spanOf(sm, {t.begin, t.end});
    if (!test) continue;
    for (const Span &s : spans)
      if (s.file == test->file && s.begin <= test->end && test->begin <= s.end) {
        out.tests.push_back(&t);
        break;
      }
  }
  return out;
}

model::SourceRange placeOf(const clang::SourceManager &sm, clang::SourceLocation loc) {
  model::SourceRange r;
  clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (p.isValid()) {
    r.file = p.getFilename();
    r.line = r.end_line = p.getLine();
    r.col = r.end_col = p.getColumn();
  }
  return r;
}

static std::string skippedList(const CompileProblems &problems) {
  std::string out;
  for (const CompileProblems::SkippedHeader &h : problems.skipped_headers)
    if (out.find("'" + h.name + "'") == std::string::npos) out += (out.empty() ? "'" : ", '") + h.name + "'";
  return out;
}

void attachProblems(clang::ASTContext &ctx, const clang::FunctionDecl *kernel, CompileProblems &problems,
                    const std::vector<model::Diagnostic> &diagnostics, model::Kernel &k) {
  KernelProblems found = problemsOf(ctx, kernel, problems);
  // the first errors, as clang's -ferror-limit would show them (a line of 16,000 errors
  // printed with its source line each is gigabytes of report)
  constexpr size_t kShownErrors = 20;
  for (size_t n = 0; n < found.errors.size(); ++n) {
    size_t i = problems.errors[found.errors[n]].diagnostic;
    problems.used.insert(i);
    if (n >= kShownErrors) continue;
    k.errors.push_back(diagnostics[i]);
    while (++i < diagnostics.size() && diagnostics[i].severity == "note") k.errors.push_back(diagnostics[i]);
  }
  if (found.errors.size() > kShownErrors)
    k.errors.push_back(
        {"note", "and " + std::to_string(found.errors.size() - kShownErrors) + " more errors", k.range});
  if (!k.errors.empty() && !problems.skipped_headers.empty())
    k.errors.push_back({"note",
                        "headers not found and skipped: " + skippedList(problems) +
                            " (add their directory with -I, or -p with a compile_commands.json)",
                        k.range});
  for (const CompileProblems::UndefinedTest *t : found.tests) {
    std::string macros;
    for (const std::string &m : t->macros) macros += (macros.empty() ? "" : ", ") + m;
    k.unsupported.push_back({"skipped header",
                             "a conditional tests " + macros + ", which no header defined; '" + t->header +
                                 "' was not found and may define it (add its directory with -I)",
                             placeOf(ctx.getSourceManager(), t->begin)});
  }
}

std::vector<model::Diagnostic> problemNotes(const clang::SourceManager &sm, const CompileProblems &problems,
                                            const std::vector<model::Diagnostic> &diagnostics, bool parsed) {
  std::vector<model::Diagnostic> notes;
  for (const CompileProblems::SkippedHeader &h : problems.skipped_headers)
    notes.push_back({"note", "header '" + h.name + "' not found: skipped", placeOf(sm, h.at)});
  std::vector<size_t> ignored;
  for (const CompileProblems::Error &e : problems.errors)
    if (!problems.used.count(e.diagnostic)) ignored.push_back(e.diagnostic);
  if (parsed && !ignored.empty()) {
    const model::Diagnostic &first = diagnostics[ignored.front()];
    notes.push_back({"note",
                     std::to_string(ignored.size()) + " error" + (ignored.size() == 1 ? "" : "s") +
                         " in code no kernel depends on (host code) ignored; the first: " + first.message,
                     first.range});
  }
  return notes;
}

}  // namespace kverify::frontend
