// The .py entry of the front end (see embedded.hpp).
#include "python/embedded.hpp"

#include "python/extract.hpp"
#include "python/location_map.hpp"
#include "python/module.hpp"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

namespace kverify::python {
namespace {

model::SourceRange rangeOf(const std::string &file, Pos b, Pos e) {
  model::SourceRange r;
  r.file = file;
  r.line = b.line;
  r.col = b.col;
  r.end_line = e.valid() ? e.line : b.line;
  r.end_col = e.valid() ? e.col : b.col;
  return r;
}

model::TranslationUnitModel notRead(const std::string &path, const std::string &why, Pos at) {
  model::TranslationUnitModel tu;
  tu.file = path;
  tu.diagnostics.push_back({"error", why, rangeOf(path, at.valid() ? at : Pos{1, 1}, {})});
  return tu;
}

std::string join(const std::string &a, const std::string &b) {
  return a.empty() ? b : b.empty() ? a : a + " " + b;
}

// A source kverify cannot read: one kernel, unsupported, named after the call.
model::TranslationUnitModel unreadable(const std::string &path, const EmbeddedSource &e) {
  model::TranslationUnitModel tu;
  tu.file = path;
  tu.parsed = true;
  model::Kernel k;
  k.name = k.function = e.api + "@" + std::to_string(e.at.line);
  k.file = path;
  k.range = rangeOf(path, e.at, e.end);
  k.unsupported.push_back({"embedded source", e.api + ": " + e.unsupported, k.range});
  tu.kernels.push_back(std::move(k));
  return tu;
}

std::string baseName(const std::string &kernel) { return kernel.substr(0, kernel.find('<')); }

// Each kernel's options; a kernel launched in several different ways is verified once per
// launch, as "name (launch at L:C)".
void applyLaunches(const EmbeddedSource &e, model::TranslationUnitModel &tu) {
  std::vector<model::Kernel> out;
  for (model::Kernel &k : tu.kernels) {
    std::string base = join(k.options, e.options);
    std::vector<std::pair<std::string, Pos>> launches;  // (options, where)
    std::set<std::string> seen;
    for (const auto &[name, launch] : e.launches) {
      if (!name.empty() && name != k.name && name != baseName(k.name)) continue;
      std::string o = join(launch.optionText(), launch.options);
      if (seen.insert(o).second) launches.emplace_back(o, launch.at);
    }
    if (launches.size() <= 1) {
      k.options = join(base, launches.empty() ? "" : launches[0].first);
      out.push_back(std::move(k));
      continue;
    }
    for (const auto &[o, at] : launches) {
      model::Kernel copy = k;
      copy.name = k.name + " (launch at " + std::to_string(at.line) + ":" + std::to_string(at.col) + ")";
      copy.options = join(base, o);
      out.push_back(std::move(copy));
    }
  }
  tu.kernels = std::move(out);
}

// A launch dimension kverify could not read is analysed for every value CUDA allows: sound,
// but the user should know that the launch they wrote was not the one checked.
void noteUnreadDimensions(const std::string &path, const EmbeddedSource &e, model::TranslationUnitModel &tu) {
  for (const auto &[kernel, launch] : e.launches) {
    if (launch.unread.empty()) continue;
    std::string what;
    for (const std::string &u : launch.unread) what += (what.empty() ? "" : ", ") + u;
    tu.notes.push_back(
        {"note",
         "launch of '" + (kernel.empty() ? std::string("the kernel") : kernel) + "' at " +
             std::to_string(launch.at.line) + ":" + std::to_string(launch.at.col) + ": " + what +
             " not read (not a number kverify can evaluate): analysed for every value CUDA allows",
         rangeOf(path, launch.at, launch.at)});
  }
}

void printDiagnostics(const model::TranslationUnitModel &tu) {
  for (const model::Diagnostic &d : tu.diagnostics) {
    if (d.range.valid()) llvm::errs() << d.range.file << ":" << d.range.line << ":" << d.range.col << ": ";
    llvm::errs() << d.severity << ": " << d.message << "\n";
  }
}

}  // namespace

bool isPythonSource(std::string_view path) {
  return path.size() > 3 && path.substr(path.size() - 3) == ".py";
}

std::vector<model::TranslationUnitModel> parsePythonFile(const std::string &path,
                                                         const frontend::Options &options) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) return {notRead(path, "cannot read '" + path + "': " + buffer.getError().message(), {})};
  std::string error;
  Pos error_at;
  std::optional<Module> m = Module::read((*buffer)->getBuffer(), error, error_at);
  if (!m) {
    std::vector<model::TranslationUnitModel> units{notRead(path, "not read as Python: " + error, error_at)};
    if (options.print_diagnostics) printDiagnostics(units[0]);
    return units;
  }
  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);
  frontend::Options quiet = options;
  quiet.print_diagnostics = false;  // printed below, at .py locations
  std::vector<model::TranslationUnitModel> units;
  for (const EmbeddedSource &e : extractSources(*m)) {
    if (!e.unsupported.empty()) {
      units.push_back(unreadable(path, e));
      continue;
    }
    // next to the .py file, so that its quoted #includes resolve as they do for nvcc -I.
    std::string generated =
        std::string(absolute) + "." + std::to_string(e.at.line) + "." + std::to_string(e.at.col) + ".cu";
    model::TranslationUnitModel tu = frontend::parseSource(generated, e.cuda.text, quiet);
    LocationMap(generated, path, e.cuda, e.at).remap(tu);
    if (options.print_diagnostics) printDiagnostics(tu);
    tu.options = join(m->fileOptions(), tu.options);
    applyLaunches(e, tu);
    noteUnreadDimensions(path, e, tu);
    units.push_back(std::move(tu));
  }
  return units;
}

model::TranslationUnitModel mergeUnits(const std::string &path,
                                       std::vector<model::TranslationUnitModel> units) {
  model::TranslationUnitModel all;
  all.file = path;
  all.parsed = true;
  for (model::TranslationUnitModel &u : units) {
    all.parsed = all.parsed && u.parsed;
    if (all.options.empty()) all.options = u.options;
    for (model::Kernel &k : u.kernels) all.kernels.push_back(std::move(k));
    for (model::SkippedKernel &s : u.skipped) all.skipped.push_back(std::move(s));
    for (model::Diagnostic &d : u.diagnostics) all.diagnostics.push_back(std::move(d));
    for (model::Diagnostic &n : u.notes) all.notes.push_back(std::move(n));
  }
  return all;
}

}  // namespace kverify::python
