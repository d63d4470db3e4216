// The translation unit: which kernels to model (those defined in the main file, the kernels
// of project headers it launches or refers to, the instantiations of header kernel templates
// it causes), each kernel's options comment and launch bounds, and one Kernel per launch.
#include "frontend/compile_errors.hpp"
#include "frontend/extractor.hpp"
#include "frontend/frontend.hpp"
#include "frontend/host_launches.hpp"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace kverify::frontend {

// The text after "kverify:" in the `//` comment lines right above line `line` (1-based)
// of `text`, or at the top of the file when line == 0. In the main file, the block above a
// kernel that is also the file's first block is the file's comment (read once, not twice).
static std::string optionsComment(llvm::StringRef text, unsigned line, bool main_file = false) {
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
  unsigned first = line - 1;  // the block's first line (0-based)
  for (unsigned i = line - 1; i-- > 0;) {
    llvm::StringRef l = lines[i].trim();
    if (!l.starts_with("//")) break;
    take(l);
    first = i;
  }
  bool file_block =
      main_file && first < line - 1 &&
      std::all_of(lines.begin(), lines.begin() + first, [](llvm::StringRef l) { return l.trim().empty(); });
  return file_block ? "" : found;
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
    k.options = optionsComment(sm.getBufferData(sm.getFileID(begin)), sm.getSpellingLineNumber(begin),
                               sm.isInMainFile(begin));
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
