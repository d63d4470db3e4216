#include "cli/merge_report.hpp"
#include "cli/write_file.hpp"

#include <fstream>
#include <sstream>

#include "kverify/reports/merge.hpp"
#include "kverify/reports/render.hpp"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

namespace kverify::cli {

cl::SubCommand merge_report_command(
    "merge-report",
    "Write one HTML page from kverify JSON reports (a run, or its --shard runs) and JUnit XML "
    "files of test runs (ctest --output-junit)");

namespace {

cl::list<std::string> merge_inputs(cl::Positional, cl::OneOrMore, cl::sub(merge_report_command),
                                   cl::desc("<report.json | tests.xml>..."));
cl::opt<std::string> merge_html("html", cl::Required, cl::sub(merge_report_command),
                                cl::desc("Write the page to FILE"), cl::value_desc("FILE"));

bool read_file(const std::string &path, std::string &text) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return static_cast<bool>(in);
}

}  // namespace

int runMergeReport() {
  reports::MergedReport merged;
  for (const std::string &path : merge_inputs) {
    std::string text, error;
    if (!read_file(path, text)) {
      llvm::errs() << "kverify merge-report: error: cannot read '" << path << "'\n";
      return 2;
    }
    if (!reports::merge_input(path, text, merged, error)) {
      llvm::errs() << "kverify merge-report: error: " << error << "\n";
      return 2;
    }
  }
  for (const std::string &w : merged.warnings) llvm::errs() << "kverify merge-report: warning: " << w << "\n";
  if (!writeFile(merge_html, reports::render_html(merged.run, merged.properties), "kverify merge-report"))
    return 2;
  llvm::errs() << "kverify merge-report: " << merged.run.kernels.size() << " kernels and "
               << merged.properties.size() << " tests from " << merge_inputs.size() << " inputs in '"
               << merge_html << "'\n";
  return 0;
}

}  // namespace kverify::cli
