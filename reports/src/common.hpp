#pragma once
// Small pieces the renderers share.

#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "analysis/result.hpp"

namespace kverify::reports {

// "(3,0,0)"
std::string triple(const std::array<uint64_t, 3>& v);

// One-line witness: "thread (1,0,0) of block (0,0,0) and thread (0,0,0) of block (0,0,0);
// blockDim=(2,1,1) gridDim=(1,1,1); n=4; s (loop at 10:3)=1; index 1"
std::string witness_line(const analysis::Finding& f);

// "file:line:col"
std::string location(const model::SourceRange& r);

// Verdict name -> number of kernels with it, in Verdict order.
std::map<analysis::Verdict, unsigned> verdict_counts(const analysis::RunResult& run);

// Escapes &, <, >, " and ' for HTML and XML text and attributes; drops characters
// XML 1.0 cannot carry.
std::string xml_escape(const std::string& s);

}  // namespace kverify::reports
