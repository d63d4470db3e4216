#pragma once
// Small pieces the renderers share.

#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "result/result.hpp"

namespace kverify::reports {

// "(3,0,0)"
std::string triple(const std::array<uint64_t, 3> &v);

// One-line witness: "thread (1,0,0) of block (0,0,0) and thread (0,0,0) of block (0,0,0);
// blockDim=(2,1,1) gridDim=(1,1,1); n=4; s (loop at 10:3)=1; index 1"
std::string witness_line(const analysis::Finding &f);

// "file:line:col"
std::string location(const model::SourceRange &r);

// Verdict name -> number of kernels with it, in Verdict order.
// A file that does not parse is one result named "<file>": not a kernel, not counted
// among the verdicts (the summaries count such files apart).
bool is_file_error(const analysis::KernelResult &k);
std::map<analysis::Verdict, unsigned> verdict_counts(const analysis::RunResult &run);
unsigned kernel_count(const analysis::RunResult &run);

// Code no thread reaches: "write s[0]" (a barrier: its text alone); the facts that make it
// so, joined with "; "; and the one-line message every renderer shows (the error of a
// `vacuous` kernel, else a note: allowed with --allow-unreachable, or dead by construction).
std::string unreachable_what(const analysis::UnreachableRef &u);
std::string unreachable_because(const analysis::UnreachableRef &u);
std::string unreachable_message(const analysis::KernelResult &k, const analysis::UnreachableRef &u);
// Whether `u` is what makes `k` vacuous (an error, not a note).
bool makes_vacuous(const analysis::KernelResult &k, const analysis::UnreachableRef &u);

// Escapes &, <, >, " and ' for HTML and XML text and attributes; drops characters
// XML 1.0 cannot carry.
std::string xml_escape(const std::string &s);

}  // namespace kverify::reports
