#pragma once
// Pieces of the HTML report (html.cpp builds the page from them). Every string taken
// from a source file, a result or a test's output goes through esc().

#include <sstream>
#include <string>
#include <vector>

#include "result/result.hpp"
#include "kverify/reports/property_outcome.hpp"
#include "source_cache.hpp"

namespace kverify::reports::html {

std::string esc(const std::string &s);

// <span class="v race">race</span>
std::string badge(const std::string &status);

// "2357 ms", "< 1 ms": analysis times, to the millisecond.
std::string duration(double ms);

// A fragment id for the kernel at `index` in the run: unique, letters, digits and '-'.
std::string kernel_anchor(const analysis::KernelResult &k, std::size_t index);

// A kernel that is not verified, in full: findings (accesses, source excerpt, witness
// table), unsupported constructs, diagnostics, unreached code, phases, assumptions.
void kernel_details(std::ostringstream &os, SourceCache &sources, const analysis::KernelResult &k,
                    std::size_t index);

// The kernel's barrier phases and the assumptions its verdict rests on.
void phases_and_assumptions(std::ostringstream &os, SourceCache &sources, const analysis::KernelResult &k);

// The property tests: failures in full (message, counterexample, reproduce string),
// then passes and skips (with reasons), collapsed.
void property_section(std::ostringstream &os, const std::vector<PropertyOutcome> &tests);

}  // namespace kverify::reports::html
