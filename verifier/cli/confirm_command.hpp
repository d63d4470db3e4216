#pragma once
// `kverify confirm REPORT.json`: the findings of an earlier run whose replay programs it
// kept (--confirm --confirm-dir on a machine without a GPU) replayed on this machine's GPU.

#include "llvm/Support/CommandLine.h"

namespace kverify::cli {

// Set when the command line names the confirm subcommand.
extern llvm::cl::SubCommand confirm_command;

// Runs it once the command line is parsed. Exit status: 1 when some finding is confirmed
// on the GPU, 0 when none is, 2 when the report cannot be read or an output written.
int runConfirm();

}  // namespace kverify::cli
