#pragma once
// kverify --confirm: each finding's witness written as a program (program.hpp) into a
// folder of its own, with build.sh (nvcc for the GPU present) and run.sh (under the
// compute-sanitizer tool that sees the finding); where a GPU is present both run, and the
// finding's Confirmation says what the GPU showed. A folder written on a machine without
// a GPU is replayed later, on one with a GPU: `kverify confirm REPORT.json`.
#include "result/result.hpp"
#include "confirm/process.hpp"
#include "confirm/program.hpp"
#include "model/model.hpp"

#include <string>
#include <vector>

namespace kverify::confirm {

// Where nvcc and compute-sanitizer are, and whether a GPU is there to run on.
struct Toolchain {
  std::string nvcc, sanitizer;
  std::string unavailable;  // why no finding can be replayed here ("" when one can)
};
Toolchain findToolchain();

struct ReplayOptions {
  std::string dir;        // --confirm-dir: the programs are kept here (else a temporary folder)
  double timeout_s = 30;  // each run (a build may take 120 s)
  std::vector<std::string> compiler_args;  // the user's clang arguments (-I, -D, -U, -include, -std kept)
  std::string user_header;  // kverify.h (KV_ASSUME & co., no-ops under nvcc): copied beside each program
};

class Replayer {
public:
  Replayer(ReplayOptions options, Toolchain tools);
  ~Replayer();  // removes the temporary folder
  Replayer(const Replayer &) = delete;
  Replayer &operator=(const Replayer &) = delete;

  // Writes a program for every race, divergence and oob finding of `result` and replays it
  // where a GPU is present (safe from several threads). Without one each finding is `not
  // run`, and names its program when --confirm-dir keeps it.
  void confirm(analysis::KernelResult &result, const model::Kernel &kernel) const;

private:
  ReplayOptions options_;
  Toolchain tools_;
  std::string dir_;
  bool temporary_ = false;
  analysis::Confirmation confirmOne(const model::Kernel &kernel, const analysis::Finding &f,
                                    const std::string &folder) const;
};

// Builds (build.sh, unless the program is newer than its source) and runs (run.sh) the
// program in `folder`, and reads what the run showed against the finding the folder's
// finding.txt describes.
analysis::Confirmation replayFolder(const std::string &folder, const Toolchain &tools, double timeout_s);

// finding.txt: what a replay checks its run against (the kind, the memory space, where the
// accesses are), one fact per line, so that a folder replays without the report.
std::string describeFinding(const analysis::Finding &f);
analysis::Finding readFinding(const std::string &text);

// replayFolder on each folder, `jobs` at a time (one GPU serves several sanitizer runs).
std::vector<analysis::Confirmation> replayFolders(const std::vector<std::string> &folders,
                                                  const Toolchain &tools, double timeout_s, unsigned jobs);

// `kverify confirm REPORT.json`: every finding of the report whose program was kept, replayed
// here, `jobs` at a time. Returns how many were replayed.
size_t replayReport(analysis::RunResult &run, const Toolchain &tools, double timeout_s, unsigned jobs);

// What one run showed, read from its output (sanitizer.cpp).
analysis::Confirmation interpret(Tool tool, const analysis::Finding &f, const ProcessResult &run,
                                 double timeout_s);

// nvcc's arguments taken from clang's: include paths, macros, forced includes, the standard.
std::vector<std::string> nvccArguments(const std::vector<std::string> &clang_args);

}  // namespace kverify::confirm
