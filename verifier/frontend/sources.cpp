// Input expansion and prelude lookup: no Clang here, only LLVM Support.
#include "frontend/frontend.hpp"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <algorithm>

namespace kverify::frontend {

static bool isCudaSource(llvm::StringRef path) {
  llvm::StringRef ext = llvm::sys::path::extension(path);
  return ext == ".cu" || ext == ".cuh";
}

// A .py file that names one of the APIs kverify reads kernels from (PyCUDA, CuPy); other
// Python files in a directory are not kverify's business.
static bool embedsCuda(llvm::StringRef path) {
  if (llvm::sys::path::extension(path) != ".py") return false;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text = llvm::MemoryBuffer::getFile(path);
  if (!text) return true;  // reported when it is read
  llvm::StringRef t = (*text)->getBuffer();
  for (const char *api : {"SourceModule", "RawKernel", "RawModule", "ElementwiseKernel", "ReductionKernel"})
    if (t.contains(api)) return true;
  return false;
}

std::vector<std::string> collectSources(const std::vector<std::string> &inputs,
                                        std::vector<std::string> &errors) {
  std::vector<std::string> files;
  for (const std::string &input : inputs) {
    if (!llvm::sys::fs::exists(input)) {
      errors.push_back("no such file or directory: '" + input + "'");
      continue;
    }
    if (!llvm::sys::fs::is_directory(input)) {
      files.push_back(input);
      continue;
    }
    std::vector<std::string> found;
    std::error_code ec;
    for (llvm::sys::fs::recursive_directory_iterator it(input, ec), end; it != end && !ec; it.increment(ec)) {
      if (it->type() == llvm::sys::fs::file_type::regular_file &&
          (isCudaSource(it->path()) || embedsCuda(it->path())))
        found.push_back(it->path());
    }
    if (ec) errors.push_back("cannot read directory '" + input + "': " + ec.message());
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

// Any function of this binary serves to find the executable's path.
static void anchor() {}

// <exe>/../share/kverify/<dir> when the binary is installed and that directory holds
// `marker`; empty otherwise.
static std::string installedDataDir(const char *dir, const char *marker) {
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, (void *)&anchor);
  if (exe.empty()) return "";
  llvm::SmallString<256> installed(llvm::sys::path::parent_path(exe));
  llvm::sys::path::append(installed, "..", "share", "kverify", dir);
  llvm::sys::path::remove_dots(installed, /*remove_dot_dot=*/true);
  return llvm::sys::fs::exists(installed + "/" + marker) ? std::string(installed) : "";
}

std::string locatePrelude() {
  if (std::optional<std::string> env = llvm::sys::Process::GetEnv("KVERIFY_PRELUDE_DIR")) return *env;
  std::string installed = installedDataDir("prelude", "kverify_prelude.h");
  return installed.empty() ? KVERIFY_PRELUDE_SOURCE_DIR : installed;
}

std::string locateClangResourceDir() {
  std::string installed = installedDataDir("clang", "include/stddef.h");
  return installed.empty() ? KVERIFY_CLANG_RESOURCE_DIR : installed;
}

std::vector<std::string> gpuverifyHeaderFlags(std::string_view text) {
  std::vector<std::string> flags;
  size_t at = 0;
  for (int n = 0; n < 5 && at < text.size(); ++n) {  // the header is on the first lines
    size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    size_t i = line.find_first_not_of(" \t");
    if (i == std::string_view::npos || line.substr(i, 2) != "//") break;
    line.remove_prefix(i + 2);
    line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
    bool header = line.substr(0, 2) == "--" && (line.find("--blockDim=") != std::string_view::npos ||
                                                line.find("--gridDim=") != std::string_view::npos);
    if (!header) continue;
    while (!line.empty()) {
      size_t e = std::min(line.find_first_of(" \t\r"), line.size());
      if (e > 0) flags.emplace_back(line.substr(0, e));
      line.remove_prefix(std::min(e + 1, line.size()));
    }
  }
  return flags;
}

}  // namespace kverify::frontend
