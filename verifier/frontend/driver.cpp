// Runs clang (libTooling) on one file with kverify's CUDA prelude and hands the AST to
// the extractor. Also turns a compile_commands.json entry into clang arguments.
#include "frontend/compile_errors.hpp"
#include "frontend/extractor.hpp"
#include "frontend/launch_spelling.hpp"
#include "frontend/frontend.hpp"
#include "frontend/prelude_pch.hpp"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <optional>
#include <utility>

namespace kverify::frontend {
namespace {

// Records clang's diagnostics in the model and, optionally, prints them as clang would.
// A diagnostic's %select argument, or -1.
int64_t intArg(const clang::Diagnostic &info, unsigned i) {
  if (info.getArgKind(i) == clang::DiagnosticsEngine::ak_sint) return info.getArgSInt(i);
  if (info.getArgKind(i) == clang::DiagnosticsEngine::ak_uint)
    return static_cast<int64_t>(info.getArgUInt(i));
  return -1;
}

class RecordingConsumer : public clang::DiagnosticConsumer {
public:
  RecordingConsumer(model::TranslationUnitModel &tu, CompileProblems &problems, bool render)
      : tu_(tu), problems_(problems) {
    if (render) {
      opts_ = new clang::DiagnosticOptions();
      opts_->ShowColors = llvm::errs().has_colors();
      printer_ = std::make_unique<clang::TextDiagnosticPrinter>(out_, opts_.get());
    }
  }
  void BeginSourceFile(const clang::LangOptions &lo, const clang::Preprocessor *pp) override {
    if (printer_) printer_->BeginSourceFile(lo, pp);
  }
  void EndSourceFile() override {
    if (printer_) printer_->EndSourceFile();
  }
  std::vector<model::SourceRange> device_launches;  // the suppressed errors' locations
  std::vector<std::string> rendered;                // each recorded diagnostic as clang prints it

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &info) override {
    // Clang rejects device-side kernel launches outright; kverify reports them as the
    // unsupported construct "dynamic parallelism" instead (the extractor sees the launch).
    if (level == clang::DiagnosticsEngine::Error && info.getID() == clang::diag::err_ref_bad_target &&
        info.getNumArgs() >= 4 && intArg(info, 0) == 1 /* a __global__ */ &&
        intArg(info, 1) == 0 /* function */ &&
        (intArg(info, 3) == 0 || intArg(info, 3) == 1) /* in device code */) {
      suppressed_note_ = true;
      device_launches.push_back(rangeOf(info));
      return;
    }
    if (level == clang::DiagnosticsEngine::Note && suppressed_note_)
      return;  // the note that belongs to the suppressed error
    suppressed_note_ = false;
    DiagnosticConsumer::HandleDiagnostic(level, info);
    model::Diagnostic d;
    switch (level) {
      case clang::DiagnosticsEngine::Fatal:
        d.severity = "fatal";
        problems_.fatal = true;
        break;
      case clang::DiagnosticsEngine::Error: d.severity = "error"; break;
      case clang::DiagnosticsEngine::Warning: d.severity = "warning"; break;
      case clang::DiagnosticsEngine::Note: d.severity = "note"; break;
      default: return;
    }
    if (level == clang::DiagnosticsEngine::Error) {
      unsigned category = clang::DiagnosticIDs::getCategoryNumberForDiag(info.getID());
      problems_.errors.push_back({info.getLocation(), tu_.diagnostics.size(),
                                  clang::DiagnosticIDs::getCategoryNameFromID(category) == "Semantic Issue"});
    }
    llvm::SmallString<128> msg;
    info.FormatDiagnostic(msg);
    d.message = std::string(msg);
    d.range = rangeOf(info);
    tu_.diagnostics.push_back(std::move(d));
    if (printer_) {
      printer_->HandleDiagnostic(level, info);
      rendered.push_back(std::move(text_));
      text_.clear();
    }
  }

  static model::SourceRange rangeOf(const clang::Diagnostic &info) {
    if (!info.hasSourceManager()) return {};
    return placeOf(info.getSourceManager(), info.getLocation());
  }

private:
  model::TranslationUnitModel &tu_;
  CompileProblems &problems_;
  bool suppressed_note_ = false;
  std::string text_;
  llvm::raw_string_ostream out_{text_};
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> opts_;
  std::unique_ptr<clang::TextDiagnosticPrinter> printer_;
};

// Whether some file the compiler read, the prelude's aside, has the word __global__ (or
// could not be read back).
static bool mentionsGlobal(clang::SourceManager &sm, llvm::StringRef prelude_dir) {
  for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
    if (it->first.getName().starts_with(prelude_dir)) continue;
    std::optional<llvm::MemoryBufferRef> text = sm.getMemoryBufferForFileOrNone(it->first);
    if (!text || text->getBuffer().contains("__global__")) return true;
  }
  return false;
}

class ExtractConsumer : public clang::ASTConsumer {
public:
  ExtractConsumer(model::TranslationUnitModel &tu, std::string prelude, CompileProblems &problems)
      : tu_(tu), prelude_(std::move(prelude)), problems_(problems) {}
  void HandleTranslationUnit(clang::ASTContext &ctx) override {
    if (problems_.fatal) return;  // clang stopped: the AST is incomplete
    extractTranslationUnit(ctx, prelude_, problems_, tu_);
    // errors and no kernel analysed: the errors may have hidden one, or the instantiations
    // of a kernel template (never "no kernels" in silence), unless no file read says
    // __global__ and no project header was skipped (a host-only file: cuBLAS calls)
    // and every error is an unknown name or type, no syntax error (not garbage)
    bool project_header_skipped =
        std::any_of(problems_.skipped_headers.begin(), problems_.skipped_headers.end(),
                    [](const CompileProblems::SkippedHeader &h) { return !h.angled; });
    bool all_semantic = std::all_of(problems_.errors.begin(), problems_.errors.end(),
                                    [](const CompileProblems::Error &e) { return e.semantic; });
    tu_.parsed =
        problems_.errors.empty() || !tu_.kernels.empty() ||
        (all_semantic && !project_header_skipped && !mentionsGlobal(ctx.getSourceManager(), prelude_));
    if (!tu_.parsed) tu_.skipped.clear();
    tu_.notes = problemNotes(ctx.getSourceManager(), problems_, tu_.diagnostics, tu_.parsed);
  }

private:
  model::TranslationUnitModel &tu_;
  std::string prelude_;
  CompileProblems &problems_;
};

class ExtractAction : public clang::ASTFrontendAction {
public:
  ExtractAction(model::TranslationUnitModel &tu, std::string prelude, CompileProblems &problems)
      : tu_(tu), prelude_(std::move(prelude)), problems_(problems) {}
  bool BeginSourceFileAction(clang::CompilerInstance &ci) override {
    ci.getPreprocessor().addPPCallbacks(skipMissingHeaders(ci.getPreprocessor(), problems_));
    return true;
  }
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
    return std::make_unique<ExtractConsumer>(tu_, prelude_, problems_);
  }

private:
  model::TranslationUnitModel &tu_;
  std::string prelude_;
  CompileProblems &problems_;
};

// nvcc's spellings of the flags kept below, in clang's: `-isystem=DIR` (as CMake writes it
// for nvcc) and long names (`--include-path DIR`, `--define-macro=N=1`).
std::vector<std::string> clangSpelling(const std::vector<std::string> &cmd) {
  static const std::pair<llvm::StringRef, llvm::StringRef> names[] = {{"-I", "-I"},
                                                                      {"-D", "-D"},
                                                                      {"-U", "-U"},
                                                                      {"-isystem", "-isystem"},
                                                                      {"-include", "-include"},
                                                                      {"--include-path", "-I"},
                                                                      {"--system-include", "-isystem"},
                                                                      {"--define-macro", "-D"},
                                                                      {"--undefine-macro", "-U"},
                                                                      {"--pre-include", "-include"}};
  std::vector<std::string> out;
  for (const std::string &arg : cmd) {
    llvm::StringRef a = arg, name = a.split('=').first;  // -DN=1: name "-DN", kept as is
    auto hit =
        std::find_if(std::begin(names), std::end(names), [&](const auto &n) { return n.first == name; });
    if (hit == std::end(names)) {
      out.push_back(arg);
      continue;
    }
    out.push_back(hit->second.str());
    if (name.size() < a.size()) out.push_back(a.drop_front(name.size() + 1).str());
  }
  return out;
}

// What a compile_commands.json entry says about parsing: include paths, macros, forced
// includes, the language standard, the GPU architecture (`__CUDA_ARCH__`; the first one
// an nvcc command compiles for), and the flags kverify does not translate that may change
// how the code reads (a note names them). nvcc's code-generation and output flags are
// dropped in silence. Response files are expanded.
struct CompileFlags {
  std::vector<std::string> args;
  std::optional<std::string> arch;  // "sm_80"
  std::vector<std::string> untranslated;
};

// nvcc flags that change only code generation, outputs or the host compiler: nothing
// kverify reads. By prefix first, then whole.
const llvm::StringRef kCodeGenerationPrefixes[] = {
    // -O3, -Wall, -fPIC, -m64: optimisation, warnings and host compiler flags
    "-O", "-W", "-f", "-m",
    // -lcublas, -L/usr/lib (and -lineinfo): link flags
    "-l", "-L",
    // flags with a value, written `-f=v`
    "-Xcompiler=", "--compiler-options=", "-Xptxas=", "-ccbin=", "--cudart=", "-cudart=", "--threads=",
    "-maxrregcount=", "--maxrregcount=", "-code=", "--diag-suppress=", "--default-stream="};
const llvm::StringRef kCodeGenerationFlags[] = {
    // compilation only, relocatable device code, debug and line information
    "-c", "--compile", "-dc", "-dw", "-rdc=true", "-rdc=false", "--relocatable-device-code=true",
    "--relocatable-device-code=false", "-g", "-G", "--generate-line-info",
    // dependency files
    "-MD", "-MMD", "-M",
    // the host compiler, language extensions, fast math, warnings, linking, intermediate files, reports
    "-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler", "--expt-relaxed-constexpr",
    "--expt-extended-lambda", "--extended-lambda", "-extended-lambda", "--use_fast_math", "-use_fast_math",
    "-shared", "-w", "-restrict", "--restrict", "--resource-usage", "-res-usage", "--keep", "-keep", "-pipe",
    "-cudart", "--cudart", "--display-error-number", "-time", "-v"};
const llvm::StringRef kCodeGenerationFlagsWithValue[] = {
    // flags that take the next word as their value: outputs and the host compiler
    "-o", "--output-file", "-x", "-ccbin", "--compiler-bindir",
    // options passed on to the host compiler, ptxas, nvlink, the linker and cudafe
    "-Xcompiler", "--compiler-options", "-Xptxas", "--ptxas-options", "-Xnvlink", "--nvlink-options",
    "-Xlinker", "--linker-options", "-Xcudafe",
    // dependency files
    "-MT", "-MF", "-MQ", "--dependency-output",
    // code generation, diagnostics and link flags
    "--threads", "-t", "-maxrregcount", "--maxrregcount", "--default-stream", "-code", "--gpu-code",
    "--diag-suppress", "-diag-suppress", "-L", "-l"};

bool codeGenerationFlag(llvm::StringRef a, bool &takes_value) {
  takes_value = false;
  if (llvm::any_of(kCodeGenerationPrefixes, [&](llvm::StringRef p) { return a.starts_with(p); })) return true;
  if (llvm::is_contained(kCodeGenerationFlags, a)) return true;
  if (llvm::is_contained(kCodeGenerationFlagsWithValue, a)) return takes_value = true;
  return false;
}

// sm_XX from nvcc's -arch=sm_XX / compute_XX, --gpu-architecture, -gencode arch=compute_XX,code=sm_XX
std::optional<std::string> archOf(llvm::StringRef v) {
  size_t at = v.find("sm_");
  if (at == llvm::StringRef::npos) at = v.find("compute_");
  if (at == llvm::StringRef::npos) return std::nullopt;
  llvm::StringRef digits =
      v.drop_front(at).split('_').second.take_while([](char c) { return std::isalnum(c); });
  if (digits.empty() || !std::isdigit(digits.front())) return std::nullopt;
  return "sm_" + digits.take_while([](char c) { return std::isdigit(c); }).str();
}

// The CUDA toolkit's own include directory (Makefiles add -I$(CUDA_DIR)/include): kverify's
// prelude stands in for it (clang 19 cannot read its headers), so it is left out.
bool toolkitIncludeDir(llvm::StringRef flag, llvm::StringRef value) {
  if (flag != "-I" && flag != "-isystem" && flag != "-idirafter") return false;
  return llvm::sys::fs::exists(value + "/cuda_runtime_api.h");
}

void readCompileFlags(const std::vector<std::string> &command, const std::string &dir,
                      const std::string &file, CompileFlags &out) {
  const std::vector<std::string> cmd = clangSpelling(command);
  static const char *const with_value[] = {"-I", "-D", "-U", "-isystem", "-include", "-iquote", "-idirafter"};
  for (size_t i = 1; i < cmd.size(); ++i) {
    llvm::StringRef a = cmd[i];
    if (a == "--options-file" || a.starts_with("@")) {
      std::string f = a == "--options-file" && i + 1 < cmd.size() ? cmd[++i] : a.drop_front().str();
      llvm::SmallString<256> path(f);
      if (!llvm::sys::path::is_absolute(path)) path = dir + "/" + f;
      if (auto buf = llvm::MemoryBuffer::getFile(path)) {
        // words as a shell splits them: CMake quotes paths there (-I"/src/include")
        llvm::BumpPtrAllocator alloc;
        llvm::StringSaver saver(alloc);
        llvm::SmallVector<const char *, 16> words;
        llvm::cl::TokenizeGNUCommandLine((*buf)->getBuffer(), saver, words);
        std::vector<std::string> inner{"rsp"};
        for (const char *w : words)
          if (w) inner.push_back(w);
        readCompileFlags(inner, dir, file, out);
      } else {
        out.untranslated.push_back(a.str() + " (not readable)");
      }
      continue;
    }
    if (a.starts_with("-std=") || a.starts_with("--std=")) {
      out.args.push_back(a.starts_with("--") ? a.drop_front().str() : a.str());
      continue;
    }
    // the GPU architecture: -arch=sm_80, -arch sm_80, --gpu-architecture=..., -gencode=...
    bool arch_flag = a == "-arch" || a == "--gpu-architecture" || a == "-gencode" || a == "--generate-code";
    if (arch_flag || a.starts_with("-arch=") || a.starts_with("--gpu-architecture=") ||
        a.starts_with("-gencode=") || a.starts_with("--generate-code=")) {
      llvm::StringRef v =
          arch_flag ? (i + 1 < cmd.size() ? llvm::StringRef(cmd[++i]) : "") : a.split('=').second;
      if (!out.arch) out.arch = archOf(v);
      continue;
    }
    bool kept = false;
    for (const char *flag : with_value) {
      if (a == flag && i + 1 < cmd.size()) {
        if (!toolkitIncludeDir(flag, cmd[i + 1])) out.args.push_back(flag), out.args.push_back(cmd[i + 1]);
        ++i;
        kept = true;
        break;
      }
      if (a.starts_with(flag) && a.size() > llvm::StringRef(flag).size() &&
          (a.starts_with("-I") || a.starts_with("-D") || a.starts_with("-U"))) {
        if (!toolkitIncludeDir(a.take_front(2), a.drop_front(2))) out.args.push_back(a.str());
        kept = true;
        break;
      }
    }
    if (kept) continue;
    bool takes_value = false;
    if (codeGenerationFlag(a, takes_value)) {
      if (takes_value) ++i;
      continue;
    }
    // the source itself (and any other input file)
    llvm::SmallString<256> abs(a);
    if (!a.starts_with("-") &&
        (a == file || llvm::sys::path::extension(a) == ".cu" || llvm::sys::path::extension(a) == ".cpp" ||
         llvm::sys::path::extension(a) == ".o"))
      continue;
    out.untranslated.push_back(a.str());
  }
}

// The compile_commands.json entries for `path` (none without -p).
CompileFlags compileFlags(const std::string &path, const Options &options) {
  CompileFlags flags;
  if (options.compile_commands_dir.empty()) return flags;
  std::string error;
  auto db = clang::tooling::CompilationDatabase::loadFromDirectory(options.compile_commands_dir, error);
  llvm::SmallString<256> abs(path);
  llvm::sys::fs::make_absolute(abs);
  if (db)
    for (const clang::tooling::CompileCommand &cc : db->getCompileCommands(abs))
      readCompileFlags(cc.CommandLine, cc.Directory, cc.Filename, flags);
  return flags;
}

// Clang drops device-side kernel launches from the AST (after the error we suppress),
// so they are attributed here: to the kernel containing one, or, for a launch in a
// __device__ function, to every kernel of the file.
void reportDeviceLaunches(const std::vector<model::SourceRange> &launches, model::TranslationUnitModel &tu) {
  for (const model::SourceRange &at : launches) {
    bool inside = false;
    for (model::Kernel &k : tu.kernels)
      if (k.range.file == at.file && k.range.line <= at.line && at.line <= k.range.end_line) {
        k.unsupported.push_back({"dynamic parallelism", "kernel launch from device code", at});
        inside = true;
      }
    if (!inside)
      for (model::Kernel &k : tu.kernels)
        k.unsupported.push_back({"dynamic parallelism",
                                 "kernel launch from a __device__ function at line " +
                                     std::to_string(at.line) +
                                     " (kverify cannot tell which kernels reach it)",
                                 at});
  }
}

// Prints clang's diagnostics as clang would: all of them for a file that does not parse;
// else the warnings only (with their notes). The errors a kernel depends on are its
// verdict's; the others are counted in the unit's notes.
void printDiagnostics(const model::TranslationUnitModel &tu, const std::vector<std::string> &rendered) {
  bool show = false;
  for (size_t i = 0; i < tu.diagnostics.size() && i < rendered.size(); ++i) {
    const std::string &severity = tu.diagnostics[i].severity;
    if (severity != "note") show = !tu.parsed || severity == "warning";
    if (show) llvm::errs() << rendered[i];
  }
}

}  // namespace

std::vector<std::string> clangArguments(const std::string &path, const Options &options) {
  std::string prelude = options.prelude_dir.empty() ? locatePrelude() : options.prelude_dir;
  std::vector<std::string> args = {
      "clang++", "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "-fsyntax-only",
      "-fgpu-rdc",  // rdc: device-side launches parse (then: unsupported)
      "-Wno-unknown-cuda-version", "-Wno-pragma-once-outside-header",
      // `extern __shared__` arrays in an anonymous namespace are ordinary CUDA.
      "-Wno-undefined-internal",
      // every error of the file: the kernels' own are told apart from host code's
      "-ferror-limit=0",
      // no "N errors generated" line: kverify says which errors mattered (carets are
      // kverify's printer's own option)
      "-fno-caret-diagnostics", "-resource-dir=" + locateClangResourceDir(), "-isystem", prelude + "/include",
      "-include", prelude + "/kverify_prelude.h"};
  const CompileFlags flags = compileFlags(path, options);
  bool arch_given = false;
  for (const std::string &a : options.extra_args)
    arch_given |=
        llvm::StringRef(a).starts_with("--cuda-gpu-arch") || llvm::StringRef(a).starts_with("--offload-arch");
  if (!arch_given) args.push_back("--cuda-gpu-arch=" + flags.arch.value_or("sm_90"));
  std::vector<std::string> header;
  if (auto buf = llvm::MemoryBuffer::getFile(path)) header = gpuverifyHeaderFlags((*buf)->getBuffer().str());
  if (options.gpuverify || !header.empty()) args.push_back("-D__KVERIFY_GPUVERIFY__");
  for (const std::string &f : header)
    if (llvm::StringRef(f).starts_with("-D")) args.push_back(f);
  args.insert(args.end(), flags.args.begin(), flags.args.end());
  const std::vector<std::string> &extra = options.extra_args;
  for (size_t i = 0; i < extra.size(); ++i) {
    llvm::StringRef a = extra[i];
    if (i + 1 < extra.size() && toolkitIncludeDir(a, extra[i + 1]))
      ++i;
    else if (!(a.starts_with("-I") && toolkitIncludeDir("-I", a.drop_front(2))))
      args.push_back(a.str());
  }
  args.push_back(path);
  return args;
}

// Where `text` has a run of more than kMaxPrefixOperators prefix operators (`-~-~...x`,
// whitespace between them aside; comments and literals skipped): clang's semantic analysis
// takes time quadratic in such a run inside a lambda (KV_ASSUME_FORALL's condition: 4 s at
// this bound, 33 s at 50,000), and no program writes one. (Shorter runs outside lambdas
// are `unsupported`: nesting deeper than the extractor's limit.)
constexpr size_t kMaxPrefixOperators = 20000;
static std::optional<std::pair<unsigned, unsigned>> prefixOperatorRun(llvm::StringRef text) {
  unsigned line = 1, col = 1, run_line = 0, run_col = 0;
  size_t run = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (size_t end = skipCommentOrLiteral(text, i); end != i) {
      for (; i < end; ++i) text[i] == '\n' ? (++line, col = 1) : ++col;
      --i, run = 0;
      continue;
    }
    if (llvm::StringRef("+-~!*&").contains(ch)) {
      if (run++ == 0) run_line = line, run_col = col;
      if (run > kMaxPrefixOperators) return std::make_pair(run_line, run_col);
    } else if (!std::isspace(static_cast<unsigned char>(ch))) {
      run = 0;
    }
    ch == '\n' ? (++line, col = 1) : ++col;
  }
  return std::nullopt;
}

// Parses `path`, read from `fs` (the real file system, or an overlay holding a generated
// source).
static model::TranslationUnitModel parseWith(const std::string &path, const Options &options,
                                             llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs) {
  model::TranslationUnitModel tu;
  tu.file = path;
  std::string prelude = options.prelude_dir.empty() ? locatePrelude() : options.prelude_dir;
  if (!options.compile_commands_dir.empty()) {
    std::string error;
    if (!clang::tooling::CompilationDatabase::loadFromDirectory(options.compile_commands_dir, error)) {
      tu.diagnostics.push_back({"fatal", "cannot load compilation database: " + error, {}});
      if (options.print_diagnostics)
        llvm::errs() << "kverify: error: cannot load compilation database: " << error << "\n";
      return tu;
    }
  }
  if (auto text = fs->getBufferForFile(path))
    if (auto at = prefixOperatorRun((*text)->getBuffer())) {
      std::string message = "more than " + std::to_string(kMaxPrefixOperators) + " prefix operators in a row";
      tu.diagnostics.push_back({"fatal", message, {path, at->first, at->second, at->first, at->second}});
      return tu;
    }
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), withJoinedLaunchChevrons(fs, &tu.sources_read)));
  CompileProblems problems;
  RecordingConsumer diagnostics(tu, problems, options.print_diagnostics);
  PreludeArguments arguments = withPrecompiledPrelude(clangArguments(path, options), options.pch_dir);
  tu.sources_read.insert(tu.sources_read.end(), arguments.read.begin(), arguments.read.end());
  clang::tooling::ToolInvocation invocation(
      std::move(arguments.args), std::make_unique<ExtractAction>(tu, prelude, problems), files.get());
  invocation.setDiagnosticConsumer(&diagnostics);
  invocation.run();  // false also for the suppressed errors and for errors no kernel needs
  if (std::vector<std::string> dropped = compileFlags(path, options).untranslated; !dropped.empty()) {
    std::string list;
    for (const std::string &f : dropped) list += (list.empty() ? "" : " ") + f;
    tu.notes.push_back({"note",
                        "compile_commands.json: flags kverify does not translate, left out: " + list +
                            " (if one changes what the code means, pass its clang equivalent after --)",
                        {}});
  }
  if (options.print_diagnostics) printDiagnostics(tu, diagnostics.rendered);
  reportDeviceLaunches(diagnostics.device_launches, tu);
  return tu;
}

model::TranslationUnitModel parseFile(const std::string &path, const Options &options) {
  return parseWith(path, options, llvm::vfs::getRealFileSystem());
}

model::TranslationUnitModel parseSource(const std::string &path, const std::string &text,
                                        const Options &options) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(new llvm::vfs::InMemoryFileSystem);
  memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(text, path));
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  overlay->pushOverlay(memory);
  return parseWith(path, options, overlay);
}

}  // namespace kverify::frontend
