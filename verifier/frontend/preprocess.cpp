// Runs clang's preprocessor (libTooling) over one file, with parseFile's command line.
#include "frontend/preprocess.hpp"
#include "frontend/prelude_pch.hpp"

#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/Utils.h"
#include "clang/Tooling/Tooling.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace kverify::frontend {
namespace {

// Like clang -E, into `out`, then collects the files the preprocessor read.
class PreprocessAction : public clang::PreprocessorFrontendAction {
public:
  explicit PreprocessAction(Preprocessed &out) : out_(out) {}

protected:
  void ExecuteAction() override {
    clang::CompilerInstance &ci = getCompilerInstance();
    clang::PreprocessorOutputOptions opts = ci.getPreprocessorOutputOpts();
    opts.ShowCPP = 1;  // the command line says -fsyntax-only, which prints nothing
    opts.ShowLineMarkers = 1;
    llvm::raw_string_ostream os(out_.text);
    clang::DoPrintPreprocessedInput(ci.getPreprocessor(), &os, opts);
    const clang::SourceManager &sm = ci.getSourceManager();
    for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it)
      if (std::optional<llvm::MemoryBufferRef> buffer = it->second->getBufferIfLoaded())
        out_.files.emplace_back(it->first.getName().str(), buffer->getBuffer().str());
    std::sort(out_.files.begin(), out_.files.end());
  }

private:
  Preprocessed &out_;
};

}  // namespace

std::optional<Preprocessed> preprocess(const std::string &path, const Options &options) {
  Preprocessed out;
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(new clang::FileManager(clang::FileSystemOptions()));
  clang::DiagnosticConsumer quiet;  // counts errors, prints nothing
  PreludeArguments arguments = withPrecompiledPrelude(clangArguments(path, options), options.pch_dir);
  out.precompiled = std::move(arguments.read);
  clang::tooling::ToolInvocation invocation(std::move(arguments.args),
                                            std::make_unique<PreprocessAction>(out), files.get());
  invocation.setDiagnosticConsumer(&quiet);
  if (!invocation.run() || quiet.getNumErrors() > 0)  // a missing header is a fatal error
    return std::nullopt;
  return out;
}

}  // namespace kverify::frontend
