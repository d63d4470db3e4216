#pragma once
// The standalone CUDA program that replays one finding's witness as a real launch: the
// kernel's own source (with the accesses of a global race instrumented), then a main()
// that sets every parameter to the witness's value, launches with the witness's grid and
// block, and checks every CUDA call (replay_runtime.cuh).
#include "result/result.hpp"
#include "model/model.hpp"

#include <string>
#include <vector>

namespace kverify::confirm {

// What observes the finding on the GPU.
// The access log and the bounds check are instrumentation in the program (read off its
// stdout), the others compute-sanitizer's tools.
enum class Tool { Racecheck, Memcheck, Synccheck, AccessLog, BoundsCheck };
const char *toolName(Tool t);  // "racecheck", ..., "access log", "bounds check"

struct ReplayProgram {
  std::string text;     // the program (empty where it cannot be made)
  std::string not_run;  // why it cannot be made: a construct the harness cannot set up
  Tool tool = Tool::Racecheck;
  std::vector<std::string> notes;  // values the witness leaves open and the harness chose
};

// A race on shared memory is seen by racecheck, one on global memory by the access log,
// an out-of-bounds access by memcheck, barrier divergence by synccheck (or a hang).
Tool toolFor(const analysis::Finding &f);

// The text a replay builds the kernel from, and the file name it stands under: the kernel's
// own file as the front end read it, or, for a kernel embedded in Python, the CUDA text
// kverify extracted (the finding's ranges then point into it).
struct ReplaySource {
  std::string file, text;
};

ReplayProgram makeProgram(const model::Kernel &kernel, const analysis::Finding &finding,
                          const ReplaySource &source);

// The C++ expression that names the kernel function (model::Kernel::function) in the
// program: "scan", "reduce<256>", "static_cast<void (*)(int *)>(&fill)" for an overload;
// empty where it cannot be named.
std::string kernelExpression(const std::string &function);

}  // namespace kverify::confirm
