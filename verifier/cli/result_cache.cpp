// The result cache (see result_cache.hpp).
#include "cli/result_cache.hpp"

#include "llvm/Support/xxhash.h"

#include "frontend/preprocess.hpp"
#include "kverify/reports/read_json.hpp"
#include "kverify/reports/render.hpp"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <link.h>
#include <mutex>

namespace kverify::cli {
namespace {

// Bumped when what an entry holds, or how keys are made, changes.
constexpr const char *kCacheFormat = "kverify-cache/1";

// Length-prefixed, so that no two sequences of fields hash alike.
void addField(llvm::BLAKE3 &hash, llvm::StringRef field) {
  hash.update(std::to_string(field.size()) + ":");
  hash.update(field);
}

std::string hex(const llvm::BLAKE3Result<32> &digest) {
  return llvm::toHex(llvm::ArrayRef<uint8_t>(digest.data(), digest.size()), /*LowerCase=*/true);
}

std::string dims(const std::array<std::optional<uint64_t>, 3> &d) {
  std::string s;
  for (const std::optional<uint64_t> &v : d) s += (v ? std::to_string(*v) : "*") + ",";
  return s;
}

int collectLibrary(dl_phdr_info *info, size_t, void *names) {
  if (info->dlpi_name && *info->dlpi_name)
    static_cast<std::vector<std::string> *>(names)->push_back(info->dlpi_name);
  return 0;
}

}  // namespace

// A new field in either Options must be added to the key below (else a run with another
// value of it could reuse results computed without it). (A bool may fit in padding: the
// size alone does not catch it.)
static_assert(sizeof(analysis::Options) == 176 && sizeof(frontend::Options) == 128,
              "analysis::Options or frontend::Options changed: update optionsKey()");

std::string optionsKey(const analysis::Options &analysis, const frontend::Options &frontend,
                       const std::string &kernel_filter) {
  llvm::BLAKE3 hash;
  addField(hash, dims(analysis.block_dim));
  addField(hash, dims(analysis.grid_dim));
  addField(hash, std::to_string(analysis.assumes.size()));
  for (const std::string &a : analysis.assumes) addField(hash, a);
  char timeout[32];
  std::snprintf(timeout, sizeof timeout, "%.17g", analysis.timeout_s);
  addField(hash, timeout);
  std::snprintf(timeout, sizeof timeout, "%.17g", analysis.kernel_timeout_s);
  addField(hash, timeout);
  std::snprintf(timeout, sizeof timeout, "%.17g", analysis.witness_seconds);
  addField(hash, timeout);
  addField(hash, analysis.assume_no_alias ? "no-alias" : "alias");
  addField(hash, analysis.assume_grid_fits_32_bits ? "grid-fits-32-bits" : "");
  addField(hash, analysis.allow_unreachable ? "allow-unreachable" : "");
  addField(hash, std::to_string(analysis.zero_init.size()));
  for (const std::string &a : analysis.zero_init) addField(hash, a);
  // extra_args, -p and the prelude also shape each file's clang command line, which is in
  // its key; naming them here as well costs nothing. print_diagnostics and pch_dir (where
  // the prelude is kept precompiled) change no result.
  addField(hash, std::to_string(frontend.extra_args.size()));
  for (const std::string &a : frontend.extra_args) addField(hash, a);
  addField(hash, frontend.compile_commands_dir);
  addField(hash, frontend.prelude_dir);
  addField(hash, frontend.gpuverify ? "gpuverify" : "");
  addField(hash, kernel_filter);
  return hex(hash.final());
}

std::optional<std::string> buildId() {
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, (void *)&buildId);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> binary = llvm::MemoryBuffer::getFile(exe);
  if (exe.empty() || !binary) return std::nullopt;
  llvm::BLAKE3 hash;
  addField(hash, kCacheFormat);
  addField(hash, "kverify " KVERIFY_VERSION);
  addField(hash, (*binary)->getBuffer());
  // libclang-cpp, libLLVM and libz3 are shared: an upgrade changes what kverify does
  std::vector<std::string> libraries;
  dl_iterate_phdr(collectLibrary, &libraries);
  std::sort(libraries.begin(), libraries.end());
  for (const std::string &library : libraries) {
    addField(hash, library);
    llvm::sys::fs::file_status status;
    if (llvm::sys::fs::status(library, status)) continue;  // e.g. the kernel's vDSO
    addField(hash, std::to_string(status.getSize()));
    addField(hash, std::to_string(status.getLastModificationTime().time_since_epoch().count()));
  }
  return hex(hash.final());
}

std::string defaultCacheDir() {
  llvm::SmallString<256> dir;
  std::optional<std::string> xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
  if (xdg && llvm::sys::path::is_absolute(*xdg))  // the XDG spec: ignore relative paths
    dir = *xdg;
  else if (llvm::sys::path::home_directory(dir))
    llvm::sys::path::append(dir, ".cache");
  else
    return "";
  llvm::sys::path::append(dir, "kverify");
  return std::string(dir);
}

ResultCache::ResultCache(std::string dir, std::string run_key)
    : dir_(std::move(dir)), run_key_(std::move(run_key)) {}

std::optional<ResultCache::Key> ResultCache::key(const std::string &file,
                                                 const frontend::Options &options) const {
  std::optional<frontend::Preprocessed> source = frontend::preprocess(file, options);
  if (!source) return std::nullopt;
  llvm::BLAKE3 hash;
  Key key;
  addField(hash, run_key_);
  addField(hash, file);
  for (const std::string &arg : frontend::clangArguments(file, options)) addField(hash, arg);
  addField(hash, source->text);
  for (const auto &[path, contents] : source->files) {
    addField(hash, path);
    addField(hash, contents);
    key.sources.push_back(llvm::xxh3_64bits(contents));
  }
  for (uint64_t digest : source->precompiled) {
    addField(hash, std::to_string(digest));
    key.sources.push_back(digest);
  }
  key.hash = hex(hash.final());
  return key;
}

bool ResultCache::sameSources(const Key &key, const model::TranslationUnitModel &tu) {
  // Every file the key hashed was read by the parse with those bytes. (The parse reads a
  // few more: the Clang driver's /etc/os-release and the toolkit's cuda.h, which the
  // preprocessor's list leaves out; a header read twice counts once.)
  std::vector<uint64_t> read = tu.sources_read, hashed = key.sources;
  for (std::vector<uint64_t> *v : {&read, &hashed}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  return std::includes(read.begin(), read.end(), hashed.begin(), hashed.end());
}

std::string ResultCache::path(const std::string &key) const {
  llvm::SmallString<256> p(dir_);
  llvm::sys::path::append(p, key + ".json");
  return std::string(p);
}

std::optional<analysis::RunResult> ResultCache::load(const std::string &key) const {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> entry = llvm::MemoryBuffer::getFile(path(key));
  if (!entry) return std::nullopt;
  std::string error;
  return reports::read_json((*entry)->getBuffer().str(), error);  // unreadable: a miss
}

void ResultCache::store(const std::string &key, const analysis::RunResult &results) const {
  std::string json = reports::render_json(results);
  std::error_code made = llvm::sys::fs::create_directories(dir_);
  llvm::Error written =
      made ? llvm::errorCodeToError(made) : llvm::writeToOutput(path(key), [&](llvm::raw_ostream &out) {
        out << json;  // to a temporary file, renamed when complete
        return llvm::Error::success();
      });
  if (!written) return;
  static std::once_flag reported;
  std::string why = llvm::toString(std::move(written));
  std::call_once(reported, [&] {
    llvm::errs() << "kverify: warning: cannot write the result cache in '" << dir_ << "': " << why << "\n";
  });
}

bool cacheable(const model::TranslationUnitModel &tu, const std::vector<analysis::KernelResult> &results) {
  if (!tu.parsed || !tu.diagnostics.empty()) return false;
  return std::none_of(results.begin(), results.end(), [](const analysis::KernelResult &r) {
    return r.verdict == analysis::Verdict::Unknown;
  });
}

}  // namespace kverify::cli
