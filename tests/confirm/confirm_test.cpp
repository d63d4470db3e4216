// kverify --confirm on the CPU: the replay program's parameter setup against the witness,
// the instrumented accesses of a global race, nvcc building the programs, how a run's
// output is read (compute-sanitizer's reports as an H100 printed them), the time limit,
// and the command line without a GPU.
#include "analysis/analysis.hpp"
#include "analysis/configure.hpp"
#include "confirm/replay.hpp"
#include "frontend/frontend.hpp"

#include <gtest/gtest.h>

#include "../verifier/run_kverify.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace kverify;
using Status = analysis::Confirmation::Status;

namespace {

std::string fixture(const std::string &name) { return std::string(KVERIFY_FIXTURES) + "/verifier/" + name; }

// The fixture's first kernel, its analysis, and the replay program of its first finding.
struct Replay {
  model::Kernel kernel;
  analysis::KernelResult result;
  confirm::ReplayProgram program;
};

// (with the witness search --confirm gives; `launch`: a fixed launch where the fixture has
// none, so that the witness is small however loaded the machine is)
Replay replayOf(const std::string &name, analysis::Options base = {}) {
  base.witness_seconds = 3;
  frontend::Options options;
  model::TranslationUnitModel tu = frontend::parseFile(fixture(name), options);
  EXPECT_TRUE(tu.parsed && !tu.kernels.empty()) << name;
  Replay r;
  if (tu.kernels.empty()) return r;
  r.kernel = tu.kernels.front();
  r.result = analysis::analyzeKernel(r.kernel, analysis::configure(base, tu.options, r.kernel));
  EXPECT_FALSE(r.result.findings.empty()) << name;
  if (!r.result.findings.empty())
    r.program = confirm::makeProgram(r.kernel, r.result.findings.front(),
                                     {r.kernel.file, kverify_cli::slurp(r.kernel.file)});
  return r;
}

using kverify_cli::has;

}  // namespace

TEST(ConfirmProgram, NamesTheKernelFromOutsideIt) {
  EXPECT_EQ(confirm::kernelExpression("scan"), "scan");
  EXPECT_EQ(confirm::kernelExpression("ns::reduce<256>"), "ns::reduce<256>");
  EXPECT_EQ(confirm::kernelExpression("(anonymous namespace)::k"), "k");
  EXPECT_EQ(confirm::kernelExpression("fill(int *)"), "static_cast<void (*)(int *)>(&fill)");
  EXPECT_EQ(confirm::kernelExpression("(lambda at x.cu:3:1)"), "");
}

// Every scalar parameter holds the witness's value, the launch is the witness's, and the
// integers the witness's threads load are stored before it.
TEST(ConfirmProgram, SetsUpTheWitnessLaunch) {
  Replay r = replayOf("forall_bins_histogram_off_by_one_oob.cu");
  ASSERT_TRUE(r.program.not_run.empty()) << r.program.not_run;
  EXPECT_EQ(r.program.tool, confirm::Tool::Memcheck);
  const analysis::Witness &w = r.result.findings.front().witness;
  for (const auto &[name, value] : w.params)
    EXPECT_TRUE(has(r.program.text, "{\"" + name + "\", " + value + "LL")) << name;
  std::ostringstream grid, block;
  grid << "dim3(" << w.grid_dim[0] << ", " << w.grid_dim[1] << ", " << w.grid_dim[2] << ")";
  block << "dim3(" << w.block_dim[0] << ", " << w.block_dim[1] << ", " << w.block_dim[2] << ")";
  EXPECT_TRUE(has(r.program.text,
                  "kvr::Launch launch{" + grid.str() + ", " + block.str() + ", false, false, -1, -1}"));
  EXPECT_TRUE(
      has(r.program.text, "kvr::launch(histogram64, launch, args, watched, kvr::firstPattern(argc, argv));"));
  // the out-of-range bin is a value loaded from memory: the witness names it, the program stores it
  ASSERT_FALSE(w.memory.empty());
  for (const analysis::MemoryValue &v : w.memory)
    EXPECT_TRUE(
        has(r.program.text, "{" + std::to_string(v.index) + "LL, " + std::to_string(v.value) + "LL}"));
  EXPECT_EQ(w.memory.front().array, "bin");
  EXPECT_EQ(w.memory.front().value, 64);                                  // one past the 64 bins
  EXPECT_TRUE(has(r.program.text, "#line 1 \"" + r.kernel.file + "\""));  // reports name the user's lines
}

// A global race is seen by logging the two accesses: each wrapped where it is in the source.
TEST(ConfirmProgram, InstrumentsTheAccessesOfAGlobalRace) {
  analysis::Options small;
  small.block_dim = {64, 1, 1};
  small.grid_dim = {4, 1, 1};
  Replay plain = replayOf("counter_rmw_nonatomic_race.cu", small);
  EXPECT_EQ(plain.program.tool, confirm::Tool::AccessLog);
  EXPECT_TRUE(has(plain.program.text, "KVR_AT(0, *count) += 1;"))
      << plain.program.text;                                       // one site: read and write
  EXPECT_TRUE(has(plain.program.text, ", false, false, 0, 0};"));  // the log compares site 0 with site 0
  Replay atomic = replayOf("block_scoped_atomic_across_blocks_race.cu", small);
  EXPECT_TRUE(has(atomic.program.text, "atomicAdd_block(KVR_POINTER(0, total), 1);"))
      << atomic.program.not_run << atomic.program.text;
  Replay shared = replayOf("broadcast_shared_without_barrier_race.cu");
  EXPECT_EQ(shared.program.tool, confirm::Tool::Racecheck);
  // a shared race is logged too: racecheck does not see two threads of one warp conflict
  EXPECT_TRUE(has(shared.program.text, "KVR_AT(")) << shared.program.text;
}

// A shared out-of-bounds access is checked against its array's bytes where the access
// names the array (memcheck sees only what leaves the block's shared window).
TEST(ConfirmProgram, ChecksASharedOutOfBoundsAccessAgainstItsArray) {
  Replay read = replayOf("shared_oob_neighbor_read.cu");
  EXPECT_EQ(read.program.tool, confirm::Tool::Memcheck);
  EXPECT_TRUE(has(read.program.text, "out[i] = KVR_WITHIN(s, s[t + 1]) - s[t];")) << read.program.text;
  Replay atomic = replayOf("forall_bins_histogram_off_by_one_oob.cu");
  EXPECT_TRUE(has(atomic.program.text, "atomicAdd(KVR_WITHIN_POINTER(hist, &hist[bin[i]]), 1u);"))
      << atomic.program.text;
  // through a pointer variable (`p[t]`, p = small): no array named at the access
  Replay pointer = replayOf("pointer_variable_two_arrays_oob.cu");
  EXPECT_TRUE(pointer.program.not_run.empty()) << pointer.program.not_run;
  EXPECT_FALSE(has(pointer.program.text, "KVR_WITHIN(small")) << pointer.program.text;
  EXPECT_TRUE(has(pointer.program.text, "    p[t] = in[i];"));
}

TEST(ConfirmProgram, RefusesWhatItCannotSetUp) {
  model::Kernel k;
  k.name = k.function = "k";
  k.file = "k.cu";
  model::Param field;
  field.name = "p.dst";
  k.params.push_back(field);
  analysis::Finding f;
  f.kind = analysis::Verdict::Divergence;
  EXPECT_TRUE(has(confirm::makeProgram(k, f, {}).not_run, "struct"));
  k.params[0].name = "pp";
  k.params[0].c_type = "float **";
  k.params[0].type.kind = model::Type::Kind::Pointer;
  EXPECT_TRUE(has(confirm::makeProgram(k, f, {}).not_run, "points to pointers"));
  k.params.clear();
  f.witness.grid_dim = {1u << 31, 65535, 65535};
  f.witness.block_dim = {1024, 1, 1};
  EXPECT_TRUE(has(confirm::makeProgram(k, f, {}).not_run, "more than a replay runs"));
}

// What kverify --confirm writes builds with nvcc (for sm_90, as no GPU is here to ask).
TEST(ConfirmProgram, NvccBuildsTheWrittenPrograms) {
  confirm::Toolchain tools = confirm::findToolchain();
  if (tools.nvcc.empty()) GTEST_SKIP() << "no nvcc";
  std::string dir = testing::TempDir() + "confirm_programs_built";
  fs::remove_all(dir);
  std::string files;
  // (fixtures whose launch is fixed: a program is written whatever the witness search's luck)
  for (const char *f : {"stream_compaction_step_param_race.cu", "forall_bins_histogram_off_by_one_oob.cu",
                        "broadcast_shared_without_barrier_race.cu", "barrier_in_both_branches_divergence.cu",
                        "cg_tile16_exchange_race.cu", "shared_oob_neighbor_read.cu"})
    files += " " + fixture(f);
  // a kernel embedded in Python: its generated CUDA text is what the program builds
  files += " " + std::string(KVERIFY_FIXTURES) + "/python/pycuda_tile_missing_barrier_race.py";
  kverify_cli::CliRun run = kverify_cli::runKverify(
      KVERIFY_BIN, KVERIFY_FIXTURES, "--confirm --no-cache --confirm-dir=" + dir + files, dir + "-run");
  ASSERT_EQ(run.status, 1) << run.err;
  size_t built = 0;
  for (const fs::directory_entry &e : fs::directory_iterator(dir)) {
    confirm::ProcessResult b = confirm::runProcess(
        {"env", "ARCH=sm_90", "NVCC=" + tools.nvcc, "sh", (e.path() / "build.sh").string()}, 300);
    EXPECT_EQ(b.exit_code, 0) << e.path() << "\n" << b.output;
    EXPECT_TRUE(fs::exists(e.path() / "replay"));
    EXPECT_TRUE(fs::exists(e.path() / "finding.txt"));
    if (e.path().filename().string().rfind("pycuda_tile_missing_barrier_race", 0) == 0) {
      // the .py locations mapped back into the generated text: the accesses are wrapped there
      std::string program = kverify_cli::slurp((e.path() / "replay.cu").string());
      EXPECT_TRUE(has(program, "KVR_AT(0, tile[t]) = in[")) << program;
      EXPECT_TRUE(has(kverify_cli::slurp((e.path() / "finding.txt").string()), ".py.10.7.cu"));
    }
    ++built;
  }
  EXPECT_GE(built, 7u);
}

TEST(ConfirmProgram, FindingTextRoundTrips) {
  analysis::Finding f;
  f.kind = analysis::Verdict::Oob;
  f.space = "shared";
  analysis::AccessRef a;
  a.range.file = "dir with space/k.cu";
  a.range.line = 12;
  f.accesses = {a, a};
  f.witness.thread2.block_idx = {3, 2, 1};
  f.witness.thread2.thread_idx = {7, 0, 5};
  f.witness.block_dim = {8, 1, 6};
  analysis::Finding back = confirm::readFinding(confirm::describeFinding(f));
  EXPECT_EQ(back.witness.thread2.block_idx, f.witness.thread2.block_idx);
  EXPECT_EQ(back.witness.thread2.thread_idx, f.witness.thread2.thread_idx);
  EXPECT_EQ(back.witness.block_dim, f.witness.block_dim);
  EXPECT_EQ(back.kind, analysis::Verdict::Oob);
  EXPECT_EQ(back.space, "shared");
  ASSERT_EQ(back.accesses.size(), 2u);
  EXPECT_EQ(back.accesses[1].range.file, "dir with space/k.cu");
  EXPECT_EQ(back.accesses[1].range.line, 12u);
}

namespace {

analysis::Finding findingAt(analysis::Verdict kind, const std::string &space, std::vector<unsigned> lines) {
  analysis::Finding f;
  f.kind = kind;
  f.space = space;
  for (unsigned l : lines) {
    analysis::AccessRef a;
    a.range.file = "src/broadcast_shared_without_barrier_race.cu";
    a.range.line = l;
    f.accesses.push_back(a);
  }
  return f;
}

confirm::ProcessResult ran(const std::string &output, int exit_code = 0, bool timed_out = false) {
  confirm::ProcessResult r;
  r.started = true;
  r.output = output;
  r.exit_code = exit_code;
  r.timed_out = timed_out;
  return r;
}

// compute-sanitizer 2025.3 on an H100, as it printed them
const char *kRacecheck =
    "========= COMPUTE-SANITIZER\n"
    "========= Error: Race reported between Read access at segment_rounds(const int *, int *)+0x80 in "
    "broadcast_shared_without_barrier_race.cu:11\n"
    "=========     and Write access at segment_rounds(const int *, int *)+0x130 in "
    "broadcast_shared_without_barrier_race.cu:10 [152 hazards]\n"
    "========= \n"
    "kverify-replay: launch 1 finished (memory the witness leaves open: zeros)\n"
    "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
const char *kSynccheck =
    "========= COMPUTE-SANITIZER\n"
    "========= Barrier error detected. Divergent thread(s) in warp.\n"
    "=========     at pair_combine(float *)+0x100 in barrier_in_both_branches_divergence.cu:17\n"
    "=========     by thread (33,0,0) in block (52,0,0)\n"
    "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
    "========= \n"
    "kverify-replay: cudaDeviceSynchronize(): unspecified launch failure (cudaErrorLaunchFailure)\n"
    "========= Target application returned an error\n"
    "========= ERROR SUMMARY: 4688 errors\n";
const char *kQuiet =
    "========= COMPUTE-SANITIZER\n"
    "kverify-replay: launch 1 finished (memory the witness leaves open: zeros)\n"
    "kverify-replay: launch 2 finished (memory the witness leaves open: ones)\n"
    "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n";

}  // namespace

TEST(ConfirmOutput, ReadsRacecheckAtTheFindingsLines) {
  using analysis::Verdict;
  analysis::Confirmation c = confirm::interpret(
      confirm::Tool::Racecheck, findingAt(Verdict::Race, "shared", {11, 10}), ran(kRacecheck), 30);
  EXPECT_EQ(c.status, Status::Confirmed);
  EXPECT_TRUE(has(c.detail, "Race reported between Read access")) << c.detail;
  EXPECT_TRUE(has(c.detail, "\nand Write access")) << c.detail;  // the report's second line kept
  // a race elsewhere (line 110 is not line 11) does not confirm this one
  c = confirm::interpret(confirm::Tool::Racecheck, findingAt(Verdict::Race, "shared", {110}), ran(kRacecheck),
                         30);
  EXPECT_EQ(c.status, Status::NotReproduced);
  EXPECT_TRUE(has(c.detail, "only elsewhere")) << c.detail;
  c = confirm::interpret(confirm::Tool::Racecheck, findingAt(Verdict::Race, "shared", {11}), ran(kQuiet), 30);
  EXPECT_EQ(c.status, Status::NotReproduced);
  EXPECT_EQ(c.detail, "racecheck reported nothing in 2 launches");
}

// Racecheck is blind to two threads of one warp conflicting in one instruction: there the
// access log is the evidence, and only there (elsewhere a barrier may order the two).
TEST(ConfirmOutput, ReadsTheLogForAWarpsOwnConflict) {
  using analysis::Verdict;
  analysis::Finding f = findingAt(Verdict::Race, "shared", {8});
  f.witness.block_dim = {32, 1, 1};
  f.witness.thread2.thread_idx = {5, 0, 0};
  std::string out = std::string(kQuiet) + "kverify-replay: collision: both threads accessed 0x7f0000000000\n";
  analysis::Confirmation c = confirm::interpret(confirm::Tool::Racecheck, f, ran(out), 30);
  EXPECT_EQ(c.status, Status::Confirmed);
  EXPECT_EQ(c.tool, "access log");
  f.witness.block_dim = {64, 1, 1};
  f.witness.thread2.thread_idx = {40, 0, 0};  // another warp: racecheck would have seen it
  EXPECT_EQ(confirm::interpret(confirm::Tool::Racecheck, f, ran(out), 30).status, Status::NotReproduced);
}

TEST(ConfirmOutput, ReadsDivergenceFromSynccheckOrAHang) {
  using analysis::Verdict;
  analysis::Finding f = findingAt(Verdict::Divergence, "", {14});
  EXPECT_EQ(confirm::interpret(confirm::Tool::Synccheck, f, ran(kSynccheck, 4), 30).status,
            Status::Confirmed);
  analysis::Confirmation hang = confirm::interpret(confirm::Tool::Synccheck, f, ran("", -1, true), 30);
  EXPECT_EQ(hang.status, Status::Confirmed);
  EXPECT_TRUE(has(hang.detail, "hung")) << hang.detail;
  // a race whose launch hangs is not confirmed by it
  EXPECT_EQ(confirm::interpret(confirm::Tool::Racecheck, findingAt(Verdict::Race, "shared", {11}),
                               ran("", -1, true), 30)
                .status,
            Status::NotReproduced);
}

TEST(ConfirmOutput, ReadsMemcheckAndTheAccessLog) {
  using analysis::Verdict;
  const char *memcheck =
      "========= Invalid __shared__ atomic of size 4 bytes\n"
      "=========     at histogram64(const int *, int, unsigned int *)+0x2f0 in "
      "broadcast_shared_without_barrier_race.cu:18\n"
      "=========     by thread (254,0,0) in block (15,0,0)\n"
      "=========     Address 0x100 is out of bounds\n";
  EXPECT_EQ(confirm::interpret(confirm::Tool::Memcheck, findingAt(Verdict::Oob, "shared", {18}),
                               ran(memcheck, 4), 30)
                .status,
            Status::Confirmed);
  // memcheck silent, the program's bounds check not
  analysis::Confirmation bounds = confirm::interpret(
      confirm::Tool::Memcheck, findingAt(Verdict::Oob, "shared", {12}),
      ran("kverify-replay: launch 1 finished (...)\nkverify-replay: out of bounds: block (0, 0, 0) thread "
          "(255, 0, 0) "
          "accessed 4 bytes at byte offset 1024 of a 1024-byte array (64 such accesses)\n"),
      30);
  EXPECT_EQ(bounds.status, Status::Confirmed);
  EXPECT_EQ(bounds.tool, "bounds check");
  EXPECT_TRUE(has(bounds.detail, "out of bounds: block (0, 0, 0) thread (255, 0, 0)")) << bounds.detail;
  EXPECT_EQ(confirm::interpret(confirm::Tool::Memcheck, findingAt(Verdict::Oob, "shared", {12}),
                               ran("kverify-replay: launch 1 finished (...)\n"), 30)
                .status,
            Status::NotReproduced);
  analysis::Finding global = findingAt(Verdict::Race, "global", {9, 9});
  analysis::Confirmation c =
      confirm::interpret(confirm::Tool::AccessLog, global,
                         ran("kverify-replay: launch 1 finished (...)\nkverify-replay: collision: both "
                             "threads accessed total + 0 bytes\n"),
                         30);
  EXPECT_EQ(c.status, Status::Confirmed);
  EXPECT_EQ(c.detail, "collision: both threads accessed total + 0 bytes");
  c = confirm::interpret(confirm::Tool::AccessLog, global,
                         ran("kverify-replay: launch 1 finished (...)\nkverify-replay: no collision: the two "
                             "threads' accesses shared no byte in 4 launches\n"),
                         30);
  EXPECT_EQ(c.status, Status::NotReproduced);
  EXPECT_EQ(c.detail, "the two threads' accesses shared no byte in 4 launches");
  // no device: not run, with the program's reason
  c = confirm::interpret(
      confirm::Tool::AccessLog, global,
      ran("kverify-replay: cudaGetDeviceCount(&devices): no CUDA-capable device is detected "
          "(cudaErrorNoDevice)\n",
          3),
      30);
  EXPECT_EQ(c.status, Status::NotRun);
  EXPECT_TRUE(has(c.detail, "no usable CUDA device")) << c.detail;
}

// A launch that fails (an illegal address of a thread the witness does not name) leaves the
// other fills their launches; only when none finished is the replay not run.
TEST(ConfirmOutput, ReadsFailedLaunches) {
  using analysis::Verdict;
  const std::string failed =
      "kverify-replay: launch 1 failed (memory the witness leaves open: zeros): an illegal "
      "memory access was encountered (cudaErrorIllegalAddress)\n";
  analysis::Confirmation some = confirm::interpret(
      confirm::Tool::Racecheck, findingAt(Verdict::Race, "shared", {11}),
      ran(failed + "kverify-replay: launch 2 finished (memory the witness leaves open: ones)\n"), 30);
  EXPECT_EQ(some.status, Status::NotReproduced);
  EXPECT_EQ(
      some.detail,
      "racecheck reported nothing in 1 launch; 1 failed, the first: launch 1 failed (memory the "
      "witness leaves open: zeros): an illegal memory access was encountered (cudaErrorIllegalAddress)");
  analysis::Confirmation none = confirm::interpret(
      confirm::Tool::Racecheck, findingAt(Verdict::Race, "shared", {11}), ran(failed, 4), 30);
  EXPECT_EQ(none.status, Status::NotRun);
  EXPECT_TRUE(has(none.detail, "the replay failed: kverify-replay: launch 1 failed")) << none.detail;
}

TEST(ConfirmProcess, KillsARunAtItsTimeLimit) {
  auto t0 = std::chrono::steady_clock::now();
  confirm::ProcessResult r = confirm::runProcess({"sh", "-c", "echo started; sleep 30"}, 0.5);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(s, 10);
  EXPECT_EQ(r.output, "started\n");
  r = confirm::runProcess({"sh", "-c", "echo out; echo err >&2; exit 3"}, 10);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_TRUE(has(r.output, "out") && has(r.output, "err"));
  r = confirm::runProcess({"/nonexistent/program"}, 10);
  EXPECT_EQ(r.exit_code, 127);
}

// Without a GPU, --confirm says so once and the run is otherwise what it would be.
TEST(ConfirmCli, WithoutAGpuSaysSoOnceAndKeepsTheVerdicts) {
  if (confirm::findToolchain().unavailable.empty()) GTEST_SKIP() << "a GPU is here: the replays would run";
  std::string base = testing::TempDir() + "confirm_cli_no_gpu";
  std::string files =
      fixture("counter_rmw_nonatomic_race.cu") + " " + fixture("barrier_in_both_branches_divergence.cu");
  kverify_cli::CliRun with =
      kverify_cli::runKverify(KVERIFY_BIN, KVERIFY_FIXTURES, "--confirm --no-cache " + files, base);
  kverify_cli::CliRun without =
      kverify_cli::runKverify(KVERIFY_BIN, KVERIFY_FIXTURES, "--no-cache " + files, base + "-2");
  EXPECT_EQ(with.status, 1);
  EXPECT_EQ(with.status, without.status);
  size_t notes = 0;
  for (size_t at = 0; (at = with.err.find("--confirm: no GPU", at)) != std::string::npos; ++at) ++notes;
  EXPECT_EQ(notes, 1u) << with.err;
  EXPECT_TRUE(has(with.out, "note: not run on the GPU: no GPU")) << with.out;
  // --fail-on=confirmed: nothing confirmed here, so nothing fails
  kverify_cli::CliRun gate = kverify_cli::runKverify(
      KVERIFY_BIN, KVERIFY_FIXTURES, "--confirm --fail-on=confirmed --no-cache " + files, base + "-3");
  EXPECT_EQ(gate.status, 0) << gate.err;
}

TEST(ConfirmCli, FailOnConfirmedNeedsConfirm) {
  kverify_cli::CliRun r = kverify_cli::runKverify(
      KVERIFY_BIN, KVERIFY_FIXTURES, "--fail-on=confirmed " + fixture("counter_rmw_nonatomic_race.cu"),
      testing::TempDir() + "confirm_cli_fail_on");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "--fail-on=confirmed needs --confirm")) << r.err;
}

// kverify confirm REPORT.json: a report without kept programs replays nothing, and says so.
TEST(ConfirmCli, ConfirmCommandReadsAReport) {
  std::string base = testing::TempDir() + "confirm_cli_report";
  kverify_cli::CliRun analysed = kverify_cli::runKverify(
      KVERIFY_BIN, KVERIFY_FIXTURES,
      "--no-cache --json=" + base + ".json " + fixture("counter_rmw_nonatomic_race.cu"), base + "-analyse");
  ASSERT_EQ(analysed.status, 1) << analysed.err;
  kverify_cli::CliRun r =
      kverify_cli::runKverify(KVERIFY_BIN, KVERIFY_FIXTURES, "confirm " + base + ".json", base);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.err, "names a replay program")) << r.err;
  EXPECT_TRUE(has(r.out, "data race on 'count'")) << r.out;
  kverify_cli::CliRun bad =
      kverify_cli::runKverify(KVERIFY_BIN, KVERIFY_FIXTURES, "confirm /nonexistent.json", base + "-bad");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(has(bad.err, "cannot read '/nonexistent.json'")) << bad.err;
}

// A program nvcc cannot build is `not run`, with nvcc's first error (not its summary line).
TEST(ConfirmProcess, AProgramThatDoesNotBuildIsNotRun) {
  confirm::Toolchain tools = confirm::findToolchain();
  if (tools.nvcc.empty()) GTEST_SKIP() << "no nvcc";
  tools.unavailable.clear();  // (only the build is reached)
  fs::path folder = testing::TempDir() + "confirm_broken_program";
  fs::remove_all(folder);
  fs::create_directories(folder);
  std::ofstream(folder / "replay.cu") << "int main() { return undeclared_name; }\n";
  std::ofstream(folder / "build.sh")
      << "cd \"$(dirname \"$0\")\" && exec \"$NVCC\" -arch=sm_90 replay.cu -o replay\n";
  std::ofstream(folder / "finding.txt") << "kind race\nspace shared\n";
  analysis::Confirmation c = confirm::replayFolder(folder.string(), tools, 30);
  EXPECT_EQ(c.status, Status::NotRun);
  EXPECT_TRUE(
      has(c.detail, "nvcc could not build the replay: replay.cu(1): error: identifier \"undeclared_name\""))
      << c.detail;
}

// A launch that fails ends its process (exit 5): the replay runs again from the next fill,
// through run.sh, and reads all the runs' output together. Here the program is a stand-in
// script (what an illegal address in launch 1 prints) and compute-sanitizer one that runs it.
TEST(ConfirmProcess, AFailedLaunchRunsTheNextFillInANewProcess) {
  std::string dir = testing::TempDir() + "confirm_rerun";
  fs::remove_all(dir);
  kverify_cli::CliRun run = kverify_cli::runKverify(
      KVERIFY_BIN, KVERIFY_FIXTURES,
      "--confirm --no-cache --confirm-dir=" + dir + " " + fixture("cg_tile16_exchange_race.cu"),
      dir + "-run");
  ASSERT_EQ(run.status, 1) << run.err;
  fs::path folder = fs::directory_iterator(dir)->path();
  std::ofstream(folder / "replay")
      << "#!/bin/sh\n"
         "echo \"started at $1\" >> runs.txt\n"
         "if [ \"$1\" = 1 ]; then echo 'kverify-replay: launch 1 failed (memory the witness leaves open: "
         "zeros): an "
         "illegal memory access was encountered (cudaErrorIllegalAddress)'; exit 5; fi\n"
         "for n in $(seq \"$1\" 4); do echo \"kverify-replay: launch $n finished (memory the witness leaves "
         "open: x)\"; done\n";
  std::ofstream(fs::path(dir) / "sanitizer")
      << "#!/bin/sh\nshift 4\nexec \"$@\"\n";  // --tool T --print-limit N
  for (const fs::path &p : {folder / "replay", fs::path(dir) / "sanitizer"})
    fs::permissions(p, fs::perms::owner_all, fs::perm_options::add);
  confirm::Toolchain tools{"nvcc", (fs::path(dir) / "sanitizer").string(), ""};
  analysis::Confirmation c = confirm::replayFolder(folder.string(), tools, 30);
  EXPECT_EQ(kverify_cli::slurp((folder / "runs.txt").string()), "started at 1\nstarted at 2\n");
  EXPECT_EQ(c.status, Status::NotReproduced);
  EXPECT_TRUE(has(c.detail, "reported nothing in 3 launches; 1 failed, the first: launch 1 failed"))
      << c.detail;
  EXPECT_TRUE(has(kverify_cli::slurp((folder / "output.txt").string()), "launch 4 finished"));
}
