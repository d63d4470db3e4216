#include "cli/confirm_command.hpp"
#include "cli/write_file.hpp"

#include "confirm/replay.hpp"
#include "kverify/reports/read_json.hpp"
#include "kverify/reports/render.hpp"
#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <sstream>

namespace cl = llvm::cl;

namespace kverify::cli {

cl::SubCommand confirm_command("confirm",
                               "Replay on this machine's GPU the findings of a kverify JSON report whose "
                               "programs were kept (kverify --confirm --confirm-dir=DIR --json=REPORT.json)");

namespace {

cl::opt<std::string> report(cl::Positional, cl::Required, cl::sub(confirm_command),
                            cl::desc("<report.json>"));
cl::opt<double> run_timeout("timeout", cl::sub(confirm_command), cl::init(30),
                            cl::desc("Seconds each replay may run (a divergent barrier that hangs this long "
                                     "is confirmed)"));
cl::opt<unsigned> jobs("j", cl::sub(confirm_command), cl::init(1),
                       cl::desc("Replays built and run in parallel"));
cl::opt<std::string> json_out(
    "json", cl::sub(confirm_command), cl::value_desc("FILE"),
    cl::desc("Write the report, with each finding's confirmation, as JSON to FILE"));
cl::opt<std::string> html_out("html", cl::sub(confirm_command), cl::value_desc("FILE"),
                              cl::desc("Write the report as an HTML page to FILE"));

}  // namespace

int runConfirm() {
  std::ifstream in(report, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::string error;
  std::optional<analysis::RunResult> run = in ? reports::read_json(text.str(), error) : std::nullopt;
  if (!run) {
    llvm::errs() << "kverify confirm: error: cannot read '" << report << "'"
                 << (error.empty() ? "" : ": " + error) << "\n";
    return 2;
  }
  confirm::Toolchain tools = confirm::findToolchain();
  if (!tools.unavailable.empty()) llvm::errs() << "kverify confirm: note: " << tools.unavailable << "\n";
  if (confirm::replayReport(*run, tools, run_timeout, jobs) == 0)
    llvm::errs() << "kverify confirm: note: no finding in '" << report
                 << "' names a replay program (write them with kverify --confirm --confirm-dir=DIR)\n";
  llvm::outs() << reports::render_text(*run, false) << reports::render_summary(*run) << "\n";
  if ((!json_out.empty() && !writeFile(json_out, reports::render_json(*run), "kverify confirm")) ||
      (!html_out.empty() && !writeFile(html_out, reports::render_html(*run), "kverify confirm")))
    return 2;
  for (const analysis::KernelResult &k : run->kernels)
    for (const analysis::Finding &f : k.findings)
      if (f.confirmation.status == analysis::Confirmation::Status::Confirmed) return 1;
  return 0;
}

}  // namespace kverify::cli
