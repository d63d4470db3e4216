#include "frontend/prelude_pch.hpp"

#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/Tooling.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>

namespace kverify::frontend {
namespace {

struct Input {
  std::string path;
  uint64_t digest;
};

// Clang's frontend on the prelude alone, as a header, writing the PCH to `out`; `inputs`:
// the files it read, with their bytes' digests.
class GeneratePrelude : public clang::tooling::ToolAction {
public:
  GeneratePrelude(std::string header, std::string out, std::vector<Input> &inputs)
      : header_(std::move(header)), out_(std::move(out)), inputs_(inputs) {}

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> inv, clang::FileManager *files,
                     std::shared_ptr<clang::PCHContainerOperations> pch,
                     clang::DiagnosticConsumer *diagnostics) override {
    clang::FrontendOptions &fo = inv->getFrontendOpts();
    fo.Inputs = {clang::FrontendInputFile(
        header_, clang::InputKind(clang::Language::CUDA, clang::InputKind::Source, false,
                                  clang::InputKind::HeaderUnit_None, /*IsHeader=*/true))};
    fo.OutputFile = out_;
    fo.ProgramAction = clang::frontend::GeneratePCH;
    inv->getPreprocessorOpts().Includes.clear();
    clang::CompilerInstance ci(std::move(pch));
    ci.setInvocation(std::move(inv));
    ci.setFileManager(files);
    ci.createDiagnostics(diagnostics, /*ShouldOwnClient=*/false);
    ci.createSourceManager(*files);
    clang::GeneratePCHAction action;
    if (!ci.ExecuteAction(action) || ci.getDiagnostics().hasErrorOccurred()) return false;
    const clang::SourceManager &sm = ci.getSourceManager();
    for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it)
      if (std::optional<llvm::MemoryBufferRef> buffer = it->second->getBufferIfLoaded())
        inputs_.push_back({it->first.getName().str(), llvm::xxh3_64bits(buffer->getBuffer())});
    std::sort(inputs_.begin(), inputs_.end(), [](const Input &a, const Input &b) { return a.path < b.path; });
    return true;
  }

private:
  std::string header_, out_;
  std::vector<Input> &inputs_;
};

std::string inputsPath(const std::string &pch) { return pch + ".inputs"; }

// The digests of the files `pch` was built from, each read again now; nothing when one of
// them differs (or the list is missing).
std::optional<std::vector<uint64_t>> unchangedInputs(const std::string &pch) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> list = llvm::MemoryBuffer::getFile(inputsPath(pch));
  if (!list || !llvm::sys::fs::exists(pch)) return std::nullopt;
  std::vector<uint64_t> digests;
  llvm::SmallVector<llvm::StringRef, 128> lines;
  (*list)->getBuffer().split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines) {
    auto [hex, path] = line.split(' ');
    uint64_t digest;
    if (hex.getAsInteger(16, digest)) return std::nullopt;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> now = llvm::MemoryBuffer::getFile(path);
    if (!now || llvm::xxh3_64bits((*now)->getBuffer()) != digest) return std::nullopt;
    digests.push_back(digest);
  }
  if (digests.empty()) return std::nullopt;
  return digests;
}

// Builds the PCH of `header` (bytes `text`) for the arguments `args` at `pch`, and its list
// of inputs, through files of their own renamed into place (other threads and processes
// may be building the same one); the list first, so a PCH in place has its list.
bool build(std::vector<std::string> args, const std::string &header, llvm::StringRef text,
           const std::string &pch) {
  llvm::SmallString<256> tmp, tmp_inputs;
  int fd;
  if (llvm::sys::fs::createUniqueFile(pch + "-%%%%%%%%.tmp", fd, tmp)) return false;
  llvm::sys::fs::closeFile(fd);
  args.back() = header;  // (the driver wants an input; the action parses the header)
  // the prelude's bytes as hashed, whatever happens to the file meanwhile
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(new llvm::vfs::InMemoryFileSystem);
  memory->addFile(header, 0, llvm::MemoryBuffer::getMemBufferCopy(text, header));
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> fs(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  fs->pushOverlay(memory);
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(new clang::FileManager(clang::FileSystemOptions(), fs));
  std::vector<Input> inputs;
  GeneratePrelude action(header, std::string(tmp), inputs);
  clang::IgnoringDiagConsumer quiet;
  clang::tooling::ToolInvocation invocation(args, &action, files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  invocation.setDiagnosticConsumer(&quiet);
  bool ok = invocation.run() && !inputs.empty() &&
            !llvm::sys::fs::createUniqueFile(pch + "-%%%%%%%%.tmp", fd, tmp_inputs);
  if (ok) {
    {
      llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
      for (const Input &i : inputs) out << llvm::utohexstr(i.digest) << ' ' << i.path << '\n';
      ok = !out.has_error();
    }
    ok = ok && !llvm::sys::fs::rename(tmp_inputs, inputsPath(pch)) && !llvm::sys::fs::rename(tmp, pch);
  }
  llvm::sys::fs::remove(tmp);
  if (!tmp_inputs.empty()) llvm::sys::fs::remove(tmp_inputs);
  return ok;
}

// Each command line (its -D macros: GPUVerify's headers give each file its own) has its
// PCH, ~1 MB: past this many, others parse the prelude as text.
constexpr size_t kMaxPrecompiled = 64;

size_t precompiled(const std::string &dir) {
  size_t n = 0;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    n += llvm::StringRef(it->path()).ends_with(".pch");
  return n;
}

}  // namespace

PreludeArguments withPrecompiledPrelude(std::vector<std::string> args, const std::string &pch_dir) {
  auto include = std::find(args.begin(), args.end(), "-include");
  if (pch_dir.empty() || include == args.end() || include + 1 == args.end() ||
      !llvm::StringRef(*(include + 1)).ends_with("kverify_prelude.h"))
    return {std::move(args), {}};
  const std::string header = *(include + 1);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text = llvm::MemoryBuffer::getFile(header);
  if (!text) return {std::move(args), {}};
  std::vector<std::string> rest(args.begin(), include);
  rest.insert(rest.end(), include + 2, args.end());
  std::string key = CLANG_VERSION_STRING;
  key += '\0' + (*text)->getBuffer().str();
  for (size_t i = 0; i + 1 < rest.size(); ++i) key += '\0' + rest[i];  // (the input, last, aside)
  llvm::SmallString<256> path(pch_dir);
  llvm::sys::path::append(path, "prelude-" + llvm::utohexstr(llvm::xxh3_64bits(key)) + ".pch");
  const std::string pch(path);
  std::optional<std::vector<uint64_t>> read = unchangedInputs(pch);
  if (!read && !llvm::sys::fs::create_directories(pch_dir) && precompiled(pch_dir) < kMaxPrecompiled &&
      build(rest, header, (*text)->getBuffer(), pch))
    read = unchangedInputs(pch);
  if (!read) return {std::move(args), {}};
  rest.insert(rest.end() - 1, {"-include-pch", pch, "-Xclang", "-fno-validate-pch"});
  return {std::move(rest), std::move(*read)};
}

}  // namespace kverify::frontend
