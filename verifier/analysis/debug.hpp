#pragma once
// Developer switches of the analysis (--debug-queries, --dump-queries=DIR,
// --all-assumptions): set once from the command line before any kernel is analysed, read
// by every thread. None changes a verdict but --all-assumptions (which only restricts
// more); the CLI turns the result cache off under each.
#include <string>

namespace kverify::analysis {

struct DebugOptions {
  bool queries = false;          // each query's result, strategy and time on stderr
  std::string dump_dir;          // each solver call written to DIR as SMT-LIB (qN.smt2)
  bool all_assumptions = false;  // every side fact in every query: checks the slicing by symbols
};

const DebugOptions &debugOptions();
void setDebugOptions(DebugOptions options);

// The next query's number in --dump-queries=DIR (unique across -j threads).
unsigned nextDumpNumber();

}  // namespace kverify::analysis
