#pragma once
// `kverify merge-report --html=FILE INPUT...`: one HTML page from kverify JSON reports
// (a run, or its shards) and JUnit XML files of test runs (ctest --output-junit).

#include "llvm/Support/CommandLine.h"

namespace kverify::cli {

// Set when the command line names the merge-report subcommand.
extern llvm::cl::SubCommand merge_report_command;

// Runs it once the command line is parsed. Exit status: 0 when the page is written,
// 2 when an input cannot be read or is malformed, or the page cannot be written.
int runMergeReport();

}  // namespace kverify::cli
