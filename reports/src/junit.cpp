// JUnit XML for CI test tabs: a testsuite per file, a testcase per kernel.
// race/divergence/oob/vacuous are failures, error is an error, unknown/unsupported are
// skipped with the reason (they are not passes).
#include <map>
#include <sstream>
#include <vector>

#include "common.hpp"
#include "kverify/reports/render.hpp"

namespace kverify::reports {

namespace {

using Kernels = std::vector<const analysis::KernelResult *>;

// A testsuite's counts: race/divergence/oob/vacuous fail, error is an error,
// unknown/unsupported are skipped, verified and benign-race (a warning) pass.
struct SuiteCounts {
  unsigned failures = 0, errors = 0, skipped = 0;
  double seconds = 0;
};

SuiteCounts countSuite(const Kernels &kernels) {
  SuiteCounts n;
  for (const auto *k : kernels) {
    n.seconds += k->time_ms / 1000;
    switch (k->verdict) {
      case analysis::Verdict::Race:
      case analysis::Verdict::Divergence:
      case analysis::Verdict::Oob:
      case analysis::Verdict::Vacuous: ++n.failures; break;
      case analysis::Verdict::Error: ++n.errors; break;
      case analysis::Verdict::Unknown:
      case analysis::Verdict::Unsupported: ++n.skipped; break;
      case analysis::Verdict::Verified:
      case analysis::Verdict::BenignRace: break;  // a warning: it passes
    }
  }
  return n;
}

// What a testcase holds, by its verdict: the findings as failures (a benign race's as
// output), the unreachable code, the compile errors, why it was skipped.
void writeTestcaseBody(std::ostringstream &os, const analysis::KernelResult &k) {
  const char *verdict = analysis::verdictName(k.verdict);
  switch (k.verdict) {
    case analysis::Verdict::Verified: break;
    case analysis::Verdict::BenignRace:
      for (const auto &f : k.findings)
        os << "\n      <system-out>" << xml_escape("warning: " + f.message + "; witness: " + witness_line(f))
           << "</system-out>";
      os << "\n    ";
      break;
    case analysis::Verdict::Race:
    case analysis::Verdict::Divergence:
    case analysis::Verdict::Oob:
      for (const auto &f : k.findings) {
        os << "\n      <failure type=\"" << verdict << "\" message=\"" << xml_escape(f.message) << "\">";
        for (const auto &a : f.accesses)
          os << xml_escape(location(a.range) + ": " + a.kind + ": " + a.text) << "\n";
        os << xml_escape("witness: " + witness_line(f)) << "</failure>";
      }
      os << "\n    ";
      break;
    case analysis::Verdict::Vacuous: {
      std::string text;
      for (const auto &u : k.unreachable)
        if (makes_vacuous(k, u))
          text += location(u.range) + ": " + unreachable_message(k, u) +
                  " (because: " + unreachable_because(u) + ")\n";
      os << "\n      <failure type=\"vacuous\" message=\""
         << xml_escape("code no thread reaches: a proof about it is vacuous") << "\">" << xml_escape(text)
         << "</failure>\n    ";
      break;
    }
    case analysis::Verdict::Error: {
      std::string text;
      for (const auto &d : k.diagnostics)
        text += location(d.range) + ": " + d.severity + ": " + d.message + "\n";
      os << "\n      <error type=\"error\" message=\"does not parse\">" << xml_escape(text)
         << "</error>\n    ";
      break;
    }
    case analysis::Verdict::Unknown:
    case analysis::Verdict::Unsupported: {
      std::string why = k.verdict == analysis::Verdict::Unknown
                            ? "unknown: solver could not decide " + k.unknown_query
                            : "unsupported";
      for (const auto &u : k.unsupported) why += ": " + u.construct + " at " + location(u.range);
      os << "\n      <skipped message=\"" << xml_escape(why) << "\"/>\n    ";
      break;
    }
  }
}

}  // namespace

std::string render_junit(const RunResult &run) {
  std::map<std::string, Kernels> by_file;
  for (const auto &k : run.kernels) by_file[k.file].push_back(&k);

  std::ostringstream os;
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"kverify\">\n";
  for (const auto &[file, kernels] : by_file) {
    const SuiteCounts n = countSuite(kernels);
    os << "  <testsuite name=\"" << xml_escape(file) << "\" tests=\"" << kernels.size() << "\" failures=\""
       << n.failures << "\" errors=\"" << n.errors << "\" skipped=\"" << n.skipped << "\" time=\""
       << n.seconds << "\">\n";
    for (const auto *k : kernels) {
      os << "    <testcase classname=\"" << xml_escape(file) << "\" name=\"" << xml_escape(k->name)
         << "\" time=\"" << k->time_ms / 1000 << "\">";
      writeTestcaseBody(os, *k);
      os << "</testcase>\n";
    }
    os << "  </testsuite>\n";
  }
  os << "</testsuites>\n";
  return os.str();
}

}  // namespace kverify::reports
