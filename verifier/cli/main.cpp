// kverify: the command line over libkverify. Follows clang tools' conventions:
//   kverify [options] <file.cu | dir>... [-- <extra clang arguments>]
// Exit status: 0 ok, 1 findings matching --fail-on (analysis), 2 usage, I/O or parse errors.
#include "analysis/analysis.hpp"
#include "analysis/configure.hpp"
#include "analysis/debug.hpp"
#include "analysis/phases.hpp"
#include "analysis/solve.hpp"
#include "cli/confirm_command.hpp"
#include "cli/crash_report.hpp"
#include "cli/gate.hpp"
#include "cli/memory_limit.hpp"
#include "cli/merge_report.hpp"
#include "cli/result_cache.hpp"
#include "cli/shard.hpp"
#include "cli/task_pool.hpp"
#include "cli/write_file.hpp"
#include "confirm/replay.hpp"
#include "frontend/frontend.hpp"
#include "kverify/reports/render.hpp"
#include "model/json.hpp"
#include "model/print.hpp"
#include "python/embedded.hpp"

#include "llvm/ADT/Statistic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include <unistd.h>

namespace cl = llvm::cl;

// The stack of each worker thread: 1 GiB of address space, used only as deep as a source
// nests (memory is committed as the stack grows).
static constexpr unsigned kWorkerStackBytes = 1u << 30;
using namespace kverify;

static cl::OptionCategory category("kverify options");
static cl::list<std::string> inputs(cl::Positional, cl::desc("<file.cu | file.py | dir>..."),
                                    cl::cat(category));
static cl::opt<std::string> compile_commands("p", cl::desc("Directory holding compile_commands.json"),
                                             cl::value_desc("dir"), cl::cat(category));
static cl::opt<bool> dump_model("dump-model",
                                cl::desc("Print the kernel model as JSON (verifier/model/SCHEMA.md)"),
                                cl::cat(category));
static cl::opt<bool> dump_model_text("dump-model-text", cl::desc("Print the kernel model as C-like text"),
                                     cl::cat(category));
static cl::opt<bool> dump_phases("dump-phases",
                                 cl::desc("Print each kernel's barrier phases and their accesses"),
                                 cl::cat(category));
static cl::opt<bool> dump_trace(
    "dump-trace",
    cl::desc("Print each kernel's symbolic trace (thread 1 as the race check builds "
             "it: accesses, barriers and fences in trace order) and its side facts"),
    cl::cat(category));
// developer switches (analysis/debug.hpp); each turns the result cache off
static cl::opt<bool> debug_queries("debug-queries",
                                   cl::desc("Print each solver query's result, strategy and time on stderr"),
                                   cl::cat(category));
static cl::opt<std::string> dump_queries("dump-queries",
                                         cl::desc("Write each solver call to DIR as SMT-LIB (qN.smt2)"),
                                         cl::value_desc("DIR"), cl::cat(category));
static cl::opt<bool> all_assumptions("all-assumptions",
                                     cl::desc("Give every query all of the kernel's side facts (checks that "
                                              "slicing them by symbols changes no verdict)"),
                                     cl::cat(category));
static cl::opt<std::string> kernel_filter("kernel", cl::desc("Only the kernel named NAME"),
                                          cl::value_desc("NAME"), cl::cat(category));

// --- analysis options ---
static cl::opt<std::string> block_dim("block-dim", cl::desc("Concrete blockDim X[,Y[,Z]]"),
                                      cl::value_desc("X,Y,Z"), cl::cat(category));
static cl::opt<std::string> grid_dim("grid-dim", cl::desc("Concrete gridDim X[,Y[,Z]]"),
                                     cl::value_desc("X,Y,Z"), cl::cat(category));
static cl::opt<std::string> block_dim_gv("blockDim", cl::desc("GPUVerify spelling: [X,Y,Z]"),
                                         cl::cat(category));
static cl::opt<std::string> grid_dim_gv("gridDim", cl::desc("GPUVerify spelling: [X,Y,Z]"),
                                        cl::cat(category));
static cl::list<std::string> assumes("assume",
                                     cl::desc("Precondition (C expression over "
                                              "parameters and builtins)"),
                                     cl::value_desc("EXPR"), cl::cat(category));
static cl::opt<double> timeout("timeout", cl::desc("Per-query solver timeout in seconds of CPU time"),
                               cl::init(10.0), cl::value_desc("SECONDS"), cl::cat(category));
static cl::opt<double> kernel_timeout(
    "kernel-timeout",
    cl::desc("Solver time per kernel, all its queries together, in seconds of CPU time: past "
             "it the kernel's undecided checks are `unknown`"),
    cl::init(120.0), cl::value_desc("SECONDS"), cl::cat(category));
static cl::opt<uint64_t> max_memory(
    "max-memory",
    cl::desc("Memory kverify may allocate, in MiB (0: no limit): past it a kernel's analysis or a "
             "query is `unknown`, and the front end stops with an error"),
    cl::init(4096), cl::value_desc("MIB"), cl::cat(category));
static cl::opt<unsigned> jobs(
    "j", cl::desc("Files and kernels analysed in parallel (0, the default: one per core)"), cl::init(0),
    cl::Prefix, cl::value_desc("N"), cl::cat(category));
static cl::opt<std::string> format("format", cl::desc("text|json|sarif|junit"), cl::init("text"),
                                   cl::cat(category));
static cl::opt<std::string> output("output", cl::desc("Write the report to FILE"), cl::value_desc("FILE"),
                                   cl::cat(category));
static cl::opt<std::string> html("html", cl::desc("Also write an HTML report to FILE"),
                                 cl::value_desc("FILE"), cl::cat(category));
static cl::opt<std::string> json_file("json",
                                      cl::desc("Also write the JSON report (--format=json) to "
                                               "FILE; an old FILE is removed first"),
                                      cl::value_desc("FILE"), cl::cat(category));
static cl::opt<std::string> fail_on(
    "fail-on",
    cl::desc("Verdicts that make the exit status 1 "
             "(race,divergence,oob,vacuous[,benign-race,unknown,unsupported]), "
             "or `confirmed`: only findings --confirm reproduced on the GPU"),
    cl::init("race,divergence,oob,vacuous"), cl::cat(category));
static cl::opt<bool> confirm_flag(
    "confirm",
    cl::desc("Replay each finding's witness on the GPU: a program built with nvcc, "
             "run under compute-sanitizer (racecheck, memcheck, synccheck) or "
             "with its accesses logged; each finding is then confirmed, not "
             "reproduced or not run"),
    cl::cat(category));
static cl::opt<std::string> confirm_dir("confirm-dir",
                                        cl::desc("With --confirm: keep each finding's replay program "
                                                 "(replay.cu, its build and output.txt) in DIR"),
                                        cl::value_desc("DIR"), cl::cat(category));
static cl::opt<double> confirm_timeout("confirm-timeout",
                                       cl::desc("With --confirm: seconds each replay may run (a divergent "
                                                "barrier that hangs this long is confirmed)"),
                                       cl::init(30), cl::cat(category));
static cl::opt<std::string> baseline("baseline",
                                     cl::desc("A previous --format=json report: its findings "
                                              "do not count for --fail-on"),
                                     cl::value_desc("FILE"), cl::cat(category));
static cl::opt<bool> gpuverify("gpuverify",
                               cl::desc("Read GPUVerify's annotations (__requires as an assumption, "
                                        "__assert and invariants listed as not checked); on by "
                                        "default in files with GPUVerify's //--blockDim= header"),
                               cl::cat(category));
static cl::opt<bool> no_alias_assumption("no-alias-assumption",
                                         cl::desc("Do not assume that distinct pointer "
                                                  "parameters do not alias"),
                                         cl::cat(category));

static cl::opt<bool> no_grid_size_assumption(
    "no-grid-size-assumption",
    cl::desc("Do not assume that each dimension of a symbolic grid has at most 2^32 threads "
             "(blockIdx.x * blockDim.x + threadIdx.x fits in 32 bits)"),
    cl::cat(category));

static cl::opt<bool> allow_unreachable("allow-unreachable",
                                       cl::desc("Code no thread reaches is dead on purpose: the "
                                                "kernel may be verified (the code is still listed)"),
                                       cl::cat(category));

static cl::list<std::string> zero_init(
    "zero-init",
    cl::desc("Global arrays the launcher zeroes before the launch (flags a kernel publishes "
             "data through with release/acquire atomics or fences)"),
    cl::value_desc("ARRAY[,ARRAY...]"), cl::CommaSeparated, cl::cat(category));

// --- large repositories ---
static cl::opt<std::string> cache_dir(
    "cache-dir",
    cl::desc("Keep each file's results in DIR and reuse them while the file, the headers it "
             "includes, the options and kverify are unchanged (default: $XDG_CACHE_HOME/kverify "
             "or ~/.cache/kverify)"),
    cl::value_desc("DIR"), cl::cat(category));
// --stats is LLVM's own option (every tool has it, registered while the command line is
// parsed: kverify cannot declare it again): kverify gives it its meaning, reads it with
// llvm::AreStatisticsEnabled() and describes it below the other options.
static bool statsWanted() { return llvm::AreStatisticsEnabled(); }
static cl::extrahelp stats_help(
    "\n  --stats                        - Print where the time goes: each file's parse, each kernel's\n"
    "                                   stages and their solver queries (on stderr; in the report with\n"
    "                                   --format=json); no result cache\n");
static cl::opt<bool> no_cache("no-cache",
                              cl::desc("Analyse every file; do not use the result cache (the prelude "
                                       "precompiled into the cache directory is still used)"),
                              cl::cat(category));
static cl::opt<std::string> shard_flag(
    "shard",
    cl::desc("Analyse only shard K of N: the files are split into N shards by a hash of their "
             "path (K runs from 1 to N)"),
    cl::value_desc("K/N"), cl::cat(category));

static bool kernelSelected(const model::Kernel &k) {
  if (kernel_filter.empty()) return true;
  // "reduce<256>", an overload "fill(int *)", or each launch of a kernel verified per launch
  std::string base = k.function.substr(0, std::min(k.function.find('<'), k.function.find('(')));
  return k.name == kernel_filter || k.function == kernel_filter || base == kernel_filter;
}

// Each kernel of a parsed file analysed, under the options of the command line and of the
// file's and the kernel's `// kverify:` comments; a file that does not parse, one error.
static std::vector<analysis::KernelResult> analyseUnit(const model::TranslationUnitModel &tu,
                                                       const analysis::Options &base) {
  if (!tu.parsed) return {analysis::parseErrorResult(tu)};
  std::vector<analysis::KernelResult> results;
  for (const model::Kernel &k : tu.kernels)
    results.push_back(analysis::analyzeKernel(k, analysis::configure(base, tu.options, k)));
  return results;
}

// The result cache for this run, or nothing (--no-cache, no cache directory, or this
// binary cannot be read to tell its build apart).
static std::unique_ptr<cli::ResultCache> openCache(const analysis::Options &base,
                                                   const frontend::Options &options) {
  std::string dir = cache_dir.empty() ? cli::defaultCacheDir() : std::string(cache_dir);
  // (--confirm replays what this run finds: nothing to take from the cache)
  if (no_cache || statsWanted() || confirm_flag || debug_queries || !dump_queries.empty() ||
      all_assumptions || dir.empty())
    return nullptr;
  std::optional<std::string> build = cli::buildId();
  if (!build) {
    llvm::errs() << "kverify: warning: result cache off: cannot read the kverify binary\n";
    return nullptr;
  }
  return std::make_unique<cli::ResultCache>(dir, *build + cli::optionsKey(base, options, kernel_filter));
}

// The analysis options of the command line; nullopt (and a message) where one is wrong.
static std::optional<analysis::Options> analysisOptions() {
  analysis::Options base;
  base.timeout_s = timeout;
  base.kernel_timeout_s = kernel_timeout;
  if (confirm_flag) base.witness_seconds = 3;  // a launch small enough to replay
  base.assumes.assign(assumes.begin(), assumes.end());
  base.assume_no_alias = !no_alias_assumption;
  base.assume_grid_fits_32_bits = !no_grid_size_assumption;
  base.allow_unreachable = allow_unreachable;
  base.zero_init.assign(zero_init.begin(), zero_init.end());
  auto dims = [&](const std::string &v, const char *flag, std::array<std::optional<uint64_t>, 3> &out) {
    if (!v.empty() && !analysis::parseDims(v, out)) {
      llvm::errs() << "kverify: error: bad value for --" << flag << ": '" << v << "'\n";
      return false;
    }
    return true;
  };
  if (!dims(block_dim, "block-dim", base.block_dim) || !dims(block_dim_gv, "blockDim", base.block_dim) ||
      !dims(grid_dim, "grid-dim", base.grid_dim) || !dims(grid_dim_gv, "gridDim", base.grid_dim))
    return std::nullopt;
  if (std::string limit = analysis::launchLimitError(base); !limit.empty()) {
    llvm::errs() << "kverify: error: " << limit << "\n";
    return std::nullopt;
  }
  if (timeout <= 0 || kernel_timeout <= 0) {
    llvm::errs() << "kverify: error: --timeout and --kernel-timeout must be positive\n";
    return std::nullopt;
  }
  return base;
}

// The report in --format on stdout or in --output, and the --html and --json copies; false
// (and a message) where one cannot be written.
static bool writeReports(const analysis::RunResult &run) {
  bool to_file = !output.empty();
  std::string text;
  if (format == "json")
    text = reports::render_json(run);
  else if (format == "sarif")
    text = reports::render_sarif(run);
  else if (format == "junit")
    text = reports::render_junit(run);
  else
    text = reports::render_text(run, !to_file && isatty(1)) + reports::render_summary(run) + "\n";
  if (to_file) {
    if (!cli::writeFile(output, text, "kverify")) return false;
  } else {
    llvm::outs() << text;
    llvm::outs().flush();
  }
  return (html.empty() || cli::writeFile(html, reports::render_html(run), "kverify")) &&
         (json_file.empty() || cli::writeFile(json_file, reports::render_json(run), "kverify"));
}

// --dump-model, --dump-model-text, --dump-phases: what the front end understood; --dump-trace:
// what the symbolic execution makes of it (each kernel configured as for its analysis).
static void dumpModels(const std::vector<model::TranslationUnitModel> &models,
                       const analysis::Options &base) {
  if (dump_model) {
    llvm::outs() << llvm::formatv("{0:2}", model::toJSON(models)) << "\n";
    return;
  }
  for (const model::TranslationUnitModel &tu : models) {
    if (dump_model_text)
      llvm::outs() << model::toText(tu);
    else if (dump_trace)
      for (const model::Kernel &k : tu.kernels)
        llvm::outs() << analysis::traceText(k, analysis::configure(base, tu.options, k));
    else
      for (const model::Kernel &k : tu.kernels) llvm::outs() << analysis::toText(analysis::alignPhases(k));
  }
}

// What a run needs from its command line, read and checked once.
struct Settings {
  frontend::Options frontend;
  analysis::Options base;
  cli::Gate gate;
  std::vector<std::string> files;
  unsigned workers = 1;  // files, then each file's kernels
  bool analyse = true;   // (false: a dump)
  std::unique_ptr<confirm::Replayer> replayer;
  int status = 0;  // 2 where an input could not be read (the others still run)
};

// The parsed command line checked, the inputs listed; nullopt after a usage error (said).
static std::optional<Settings> readSettings(frontend::Options frontend_options) {
  Settings s;
  s.frontend = std::move(frontend_options);
  frontend::Options &options = s.frontend;
  if (inputs.empty()) {
    llvm::errs() << "kverify: error: no input files (kverify --help for usage)\n";
    return std::nullopt;
  }
  options.compile_commands_dir = compile_commands;
  options.gpuverify = gpuverify;
  if (std::string dir = cache_dir.empty() ? cli::defaultCacheDir() : std::string(cache_dir); !dir.empty())
    options.pch_dir = dir + "/pch";
  std::vector<std::string> input_errors;
  s.files = frontend::collectSources(inputs, input_errors);
  for (const std::string &e : input_errors) {
    llvm::errs() << "kverify: error: " << e << "\n";
    s.status = 2;
  }
  if (shard_flag.getNumOccurrences() > 0) {
    std::optional<cli::Shard> shard = cli::parseShard(shard_flag);
    if (!shard) {
      llvm::errs() << "kverify: error: --shard must be K/N with 1 <= K <= N, not '" << shard_flag << "'\n";
      return std::nullopt;
    }
    s.files = cli::filesInShard(s.files, *shard);
  }
  if (!dump_queries.empty() && !std::filesystem::is_directory(std::string(dump_queries))) {
    llvm::errs() << "kverify: error: --dump-queries: '" << dump_queries << "' is not a directory\n";
    return std::nullopt;
  }
  analysis::setDebugOptions({debug_queries, dump_queries, all_assumptions});
  std::optional<analysis::Options> base = analysisOptions();
  if (!base) return std::nullopt;
  s.base = *base;
  s.workers = jobs ? static_cast<unsigned>(jobs) : std::max(1u, std::thread::hardware_concurrency());
  if (std::string why; !cli::limitMemory(max_memory, uint64_t(s.workers) * kWorkerStackBytes, why)) {
    llvm::errs() << "kverify: error: cannot limit memory to " << max_memory << " MiB: " << why << "\n";
    return std::nullopt;
  }
  std::string gate_error;
  std::optional<cli::Gate> gate = cli::parseFailOn(fail_on, gate_error);
  if (!gate || (!baseline.empty() && !cli::readBaseline(baseline, *gate, gate_error))) {
    llvm::errs() << "kverify: error: " << gate_error << "\n";
    return std::nullopt;
  }
  s.gate = *gate;
  if (format != "text" && format != "json" && format != "sarif" && format != "junit") {
    llvm::errs() << "kverify: error: --format must be text, json, sarif or junit\n";
    return std::nullopt;
  }
  s.analyse = !dump_model && !dump_model_text && !dump_phases && !dump_trace;
  if (s.gate.confirmed && !confirm_flag) {
    llvm::errs() << "kverify: error: --fail-on=confirmed needs --confirm\n";
    return std::nullopt;
  }
  if (confirm_flag && s.analyse) {
    confirm::Toolchain tools = confirm::findToolchain();
    if (!tools.unavailable.empty())
      llvm::errs() << "kverify: note: --confirm: " << tools.unavailable << ": findings are not replayed\n";
    s.replayer = std::make_unique<confirm::Replayer>(
        confirm::ReplayOptions{confirm_dir, confirm_timeout, options.extra_args,
                               frontend::locatePrelude() + "/include/kverify.h"},
        std::move(tools));
  }
  return s;
}

// Each file parsed (or its results read from the cache) and its kernels analysed, files
// and kernels in parallel on the workers; the results by file, in input order.
class FileRuns {
public:
  explicit FileRuns(const Settings &s)
      : s(s),
        models(s.files.size()),
        results(s.files.size()),
        parse_ms(s.files.size()),
        keys(s.files.size()),
        pending(s.files.size()),
        progress(s.analyse && s.files.size() > 1 && isatty(2)) {
    if (s.analyse) cache = openCache(s.base, s.frontend);
  }

  // Each worker (one also for -j1) runs on a thread with a deep stack: Clang's parser and
  // the passes after it recurse over expressions as deep as the source nests them
  // (`- - - ... x`, `a + a + ... + a`), far deeper than the default 8 MiB allows.
  void run() {
    cli::TaskPool pool;
    for (size_t i = 0; i < s.files.size(); ++i) pool.add([this, i](cli::TaskPool &p) { parse(i, p); });
    pool.run(s.workers, kWorkerStackBytes, cli::prepareThreadForCrashReport);
    if (progress) llvm::errs() << "\r\033[K";
    if (from_cache > 0)
      llvm::errs() << "kverify: " << from_cache << " of " << s.files.size() << " files from cache\n";
  }

  const Settings &s;
  std::vector<model::TranslationUnitModel> models;
  std::vector<std::vector<analysis::KernelResult>> results;
  std::vector<double> parse_ms;

private:
  std::unique_ptr<cli::ResultCache> cache;
  std::vector<std::optional<cli::ResultCache::Key>> keys;
  std::vector<std::atomic<size_t>> pending;  // kernels of each file left to analyse
  std::atomic<size_t> done{0}, from_cache{0};
  std::mutex mu;
  bool progress;

  // A file is done once its last kernel is: its results are cached (for exactly the bytes
  // the parse read) and counted.
  void fileDone(size_t i) {
    const model::TranslationUnitModel &tu = models[i];
    if (keys[i] && cli::cacheable(tu, results[i]) && cli::ResultCache::sameSources(*keys[i], tu))
      cache->store(keys[i]->hash, analysis::RunResult{results[i], tu.skipped, {}, {}});
    size_t d = ++done;
    if (progress) {
      std::lock_guard<std::mutex> lock(mu);
      const std::string &file = s.files[i];
      std::string name = file.size() > 50 ? "..." + file.substr(file.size() - 47) : file;
      llvm::errs() << "\r\033[K[" << d << "/" << s.files.size() << "] " << name;
      llvm::errs().flush();
    }
  }

  void analyseKernel(size_t i, size_t k) {
    cli::ReadingFile reading(s.files[i].c_str());
    const model::Kernel &kernel = models[i].kernels[k];
    results[i][k] = analysis::analyzeKernel(kernel, analysis::configure(s.base, models[i].options, kernel));
    if (s.replayer) s.replayer->confirm(results[i][k], kernel);
    if (--pending[i] == 0) fileDone(i);
  }

  static void keepSelectedKernels(model::TranslationUnitModel &tu) {
    tu.kernels.erase(std::remove_if(tu.kernels.begin(), tu.kernels.end(),
                                    [](const model::Kernel &k) { return !kernelSelected(k); }),
                     tu.kernels.end());
  }

  void parse(size_t i, cli::TaskPool &pool) {
    const std::string &file = s.files[i];
    cli::ReadingFile reading(file.c_str());
    // .py files are not cached: their key would need each embedded source preprocessed
    bool python = kverify::python::isPythonSource(file);
    keys[i] = cache && !python ? cache->key(file, s.frontend) : std::nullopt;
    std::optional<analysis::RunResult> cached = keys[i] ? cache->load(keys[i]->hash) : std::nullopt;
    if (cached) {
      results[i] = std::move(cached->kernels);
      models[i].file = file;
      models[i].parsed = true;
      models[i].skipped = std::move(cached->skipped);
      keys[i].reset();  // nothing to store
      ++from_cache;
      fileDone(i);
    } else if (python) {
      // each embedded source is its own unit (its own file and kernel options)
      std::vector<model::TranslationUnitModel> units = kverify::python::parsePythonFile(file, s.frontend);
      for (model::TranslationUnitModel &tu : units) {
        keepSelectedKernels(tu);
        if (!s.analyse) continue;
        std::vector<analysis::KernelResult> unit = analyseUnit(tu, s.base);
        for (size_t k = 0; s.replayer && tu.parsed && k < unit.size(); ++k)
          s.replayer->confirm(unit[k], tu.kernels[k]);
        for (analysis::KernelResult &r : unit) results[i].push_back(std::move(r));
      }
      models[i] = kverify::python::mergeUnits(file, std::move(units));
      fileDone(i);
    } else {
      double t0 = analysis::threadSeconds();
      model::TranslationUnitModel tu = frontend::parseFile(file, s.frontend);
      parse_ms[i] = (analysis::threadSeconds() - t0) * 1000;
      keepSelectedKernels(tu);
      models[i] = std::move(tu);
      size_t kernels = s.analyse && models[i].parsed ? models[i].kernels.size() : 0;
      if (s.analyse && !models[i].parsed) results[i] = analyseUnit(models[i], s.base);  // the parse error
      if (kernels == 0) return fileDone(i);
      // each kernel its own task: a file's kernels are analysed in parallel
      results[i].resize(kernels);
      pending[i] = kernels;
      // the instantiations of a template: one group (task_pool.hpp)
      for (size_t k = kernels; k-- > 0;) {
        const std::string &name = models[i].kernels[k].name;
        pool.add([this, i, k](cli::TaskPool &) { analyseKernel(i, k); }, true,
                 std::to_string(i) + ":" + name.substr(0, name.find('<')));
      }
    }
  }
};

// What the runs found, reported: notes per file, the dump or the reports, the exit status.
static int report(FileRuns &runs) {
  const Settings &s = runs.s;
  int status = s.status;
  for (size_t i = 0; i < s.files.size(); ++i) {
    const model::TranslationUnitModel &tu = runs.models[i];
    for (const model::Diagnostic &n : tu.notes)
      llvm::errs() << "kverify: " << n.severity << ": " << s.files[i] << ": " << n.message << " ("
                   << n.range.file << ":" << n.range.line << ")\n";
    if (!tu.parsed) {
      llvm::errs() << "kverify: error: '" << s.files[i] << "' does not parse\n";
      status = 2;
    } else if ((s.analyse ? runs.results[i].empty() : tu.kernels.empty()) && tu.skipped.empty()) {
      llvm::errs() << "kverify: note: no kernels in '" << s.files[i] << "'\n";
    }
  }
  if (!s.analyse) {
    dumpModels(runs.models, s.base);
    return status;
  }
  analysis::RunResult run;
  for (size_t i = 0; i < s.files.size(); ++i) {
    for (analysis::KernelResult &r : runs.results[i]) run.kernels.push_back(std::move(r));
    for (const model::SkippedKernel &sk : runs.models[i].skipped) run.skipped.push_back(sk);
    for (const model::Diagnostic &n : runs.models[i].notes) run.notes.push_back(n);
    if (statsWanted()) run.file_stats.push_back({s.files[i], runs.parse_ms[i]});
  }
  if (statsWanted())
    llvm::errs() << reports::render_stats(run);
  else
    for (analysis::KernelResult &k : run.kernels) k.stats.clear();
  // an error (bad kverify: comment, contradictory premises) is a usage error
  for (const analysis::KernelResult &r : run.kernels)
    if (r.verdict == analysis::Verdict::Error) status = 2;
  bool fails = cli::fails(s.gate, run);
  if (!writeReports(run)) return 2;
  if (status == 0 && fails) status = 1;
  return status;
}

int main(int argc, char **argv) {
  cli::installCrashReport();
  // Arguments after `--` go to clang, as with clang tools.
  int own = argc;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--") == 0) {
      own = i;
      break;
    }
  frontend::Options options;
  for (int i = own + 1; i < argc; ++i) options.extra_args.push_back(argv[i]);

  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "kverify " KVERIFY_VERSION "\n"
       << "prelude: " << frontend::locatePrelude() << "\n"
       << "clang resource directory: " << frontend::locateClangResourceDir() << "\n";
  });
  std::string errors;
  llvm::raw_string_ostream error_stream(errors);
  if (!cl::ParseCommandLineOptions(own, argv, "kverify: static verification of CUDA kernels\n",
                                   &error_stream)) {
    llvm::errs() << error_stream.str();
    return 2;
  }
  if (cli::merge_report_command) return cli::runMergeReport();
  if (cli::confirm_command) return cli::runConfirm();
  // A run that stops early leaves no report behind that an earlier run wrote.
  if (!json_file.empty()) std::remove(json_file.c_str());
  std::optional<Settings> settings = readSettings(std::move(options));
  if (!settings) return 2;
  FileRuns runs(*settings);
  runs.run();
  return report(runs);
}
