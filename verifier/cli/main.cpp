// kverify: the command line over libkverify. Follows clang tools' conventions:
//   kverify [options] <file.cu | dir>... [-- <extra clang arguments>]
// Exit status: 0 ok, 1 findings matching --fail-on (analysis), 2 usage, I/O or parse errors.
#include "frontend/frontend.hpp"
#include "model/json.hpp"
#include "model/print.hpp"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>

namespace cl = llvm::cl;
using namespace kverify;

static cl::OptionCategory category("kverify options");
static cl::list<std::string> inputs(cl::Positional, cl::desc("<file.cu | dir>..."),
                                    cl::cat(category));
static cl::opt<std::string> compile_commands(
    "p", cl::desc("Directory holding compile_commands.json"), cl::value_desc("dir"),
    cl::cat(category));
static cl::opt<bool> dump_model("dump-model",
                                cl::desc("Print the kernel model as JSON (verifier/model/SCHEMA.md)"),
                                cl::cat(category));
static cl::opt<bool> dump_model_text("dump-model-text",
                                     cl::desc("Print the kernel model as C-like text"),
                                     cl::cat(category));
static cl::opt<std::string> kernel_filter("kernel", cl::desc("Only the kernel named NAME"),
                                          cl::value_desc("NAME"), cl::cat(category));

static bool kernelSelected(const model::Kernel &k) {
  if (kernel_filter.empty())
    return true;
  std::string base = k.name.substr(0, k.name.find('<'));
  return k.name == kernel_filter || base == kernel_filter;
}

static void printSummary(const model::TranslationUnitModel &tu) {
  for (const model::Kernel &k : tu.kernels) {
    size_t accesses = 0, barriers = 0;
    std::vector<const std::vector<model::Stmt> *> todo = {&k.body};
    while (!todo.empty()) {
      const std::vector<model::Stmt> *list = todo.back();
      todo.pop_back();
      for (const model::Stmt &s : *list) {
        accesses += s.kind == model::Stmt::Kind::Access;
        barriers += s.kind == model::Stmt::Kind::Barrier;
        for (const auto *sub : {&s.then_body, &s.else_body, &s.body, &s.step})
          todo.push_back(sub);
      }
    }
    llvm::outs() << k.file << ":" << k.range.line << ":" << k.range.col << ": kernel '"
                 << k.name << "': " << accesses << " accesses, " << barriers << " barriers\n";
    for (const model::Unsupported &u : k.unsupported)
      llvm::outs() << u.range.file << ":" << u.range.line << ":" << u.range.col
                   << ": error: unsupported: " << u.construct << " in kernel '" << k.name
                   << "': " << u.detail << "\n";
  }
  for (const model::SkippedKernel &s : tu.skipped)
    llvm::outs() << s.range.file << ":" << s.range.line << ":" << s.range.col
                 << ": note: skipped '" << s.name << "': " << s.reason << "\n";
}

int main(int argc, char **argv) {
  // Arguments after `--` go to clang, as with clang tools.
  int own = argc;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--") == 0) {
      own = i;
      break;
    }
  frontend::Options options;
  for (int i = own + 1; i < argc; ++i)
    options.extra_args.push_back(argv[i]);

  cl::HideUnrelatedOptions(category);
  std::string errors;
  llvm::raw_string_ostream error_stream(errors);
  if (!cl::ParseCommandLineOptions(own, argv,
                                   "kverify: static verification of CUDA kernels\n",
                                   &error_stream)) {
    llvm::errs() << error_stream.str();
    return 2;
  }
  if (inputs.empty()) {
    llvm::errs() << "kverify: error: no input files (kverify --help for usage)\n";
    return 2;
  }
  options.compile_commands_dir = compile_commands;

  int status = 0;
  std::vector<std::string> input_errors;
  std::vector<std::string> files = frontend::collectSources(inputs, input_errors);
  for (const std::string &e : input_errors) {
    llvm::errs() << "kverify: error: " << e << "\n";
    status = 2;
  }
  std::vector<model::TranslationUnitModel> models;
  for (const std::string &file : files) {
    model::TranslationUnitModel tu = frontend::parseFile(file, options);
    if (!tu.parsed) {
      llvm::errs() << "kverify: error: '" << file << "' does not parse\n";
      status = 2;
    } else if (tu.kernels.empty() && tu.skipped.empty()) {
      llvm::errs() << "kverify: note: no kernels in '" << file << "'\n";
    }
    tu.kernels.erase(std::remove_if(tu.kernels.begin(), tu.kernels.end(),
                                    [](const model::Kernel &k) { return !kernelSelected(k); }),
                     tu.kernels.end());
    models.push_back(std::move(tu));
  }
  if (dump_model)
    llvm::outs() << llvm::formatv("{0:2}", model::toJSON(models)) << "\n";
  else if (dump_model_text)
    for (const model::TranslationUnitModel &tu : models)
      llvm::outs() << model::toText(tu);
  else
    for (const model::TranslationUnitModel &tu : models)
      printSummary(tu);
  return status;
}
