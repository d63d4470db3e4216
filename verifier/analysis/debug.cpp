#include "analysis/debug.hpp"

#include <atomic>

namespace kverify::analysis {

namespace {
DebugOptions current;
std::atomic<unsigned> dumped{0};
}  // namespace

const DebugOptions &debugOptions() { return current; }
void setDebugOptions(DebugOptions options) { current = std::move(options); }
unsigned nextDumpNumber() { return dumped++; }

}  // namespace kverify::analysis
