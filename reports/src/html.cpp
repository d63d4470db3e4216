// One self-contained HTML page: inline CSS, no scripts, no network. Findings first,
// then property tests, then every kernel grouped by file (verified ones collapsed).
// The verdict filter is radio buttons and CSS: it works with JavaScript off.
// Everything taken from a source file, a result or a test's output is escaped.
#include <algorithm>
#include <map>

#include "common.hpp"
#include "html_parts.hpp"
#include "kverify/reports/render.hpp"

namespace kverify::reports {
namespace {

using analysis::Verdict;
using html::badge;
using html::esc;

const char *const kStyle = R"(
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:68rem;color:#1b1f24;padding:1rem 1.25rem 3rem}
h1{font-size:1.6rem;margin:.2rem 0}h2{font-size:1.25rem;margin:2rem 0 .6rem;border-bottom:1px solid #d8dee4;padding-bottom:.2rem}
h3{font-size:1.05rem;margin:0 0 .2rem;display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}
code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}
code.name{overflow-wrap:anywhere;font-weight:600}
pre{background:#f6f8fa;border:1px solid #e1e4e8;border-radius:6px;padding:.5rem .7rem;overflow-x:auto;margin:.5rem 0}
pre.msg{white-space:pre-wrap;overflow-wrap:anywhere}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #d0d7de;padding:.25rem .6rem;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-weight:600}caption{text-align:left;font-weight:600;padding:.2rem 0}
td pre{margin:0;border:0;padding:0;background:none;white-space:pre-wrap}
.scroll{overflow-x:auto;max-width:100%}
.v{display:inline-block;font-size:12px;font-weight:700;padding:.05rem .55rem;border-radius:1rem;color:#fff;white-space:nowrap}
.verified,.passed{background:#1a7f37}.race,.divergence,.oob,.vacuous,.failed{background:#cf222e}
.unknown,.skipped,.benign-race{background:#9a6700}.gpu-confirmed{background:#82071e}
.gpu-not-reproduced{background:#9a6700}.gpu-not-run{background:#57606a}.confirmation{margin:.4rem 0}
.confirmation pre{max-height:20rem;overflow:auto;font-size:12px}.unsupported{background:#8250df}.error{background:#57606a}
mark.a0{background:#ffd8d3}mark.a1{background:#d3e5ff}mark.a2{background:#e4d3ff}
.ln{color:#8c959f;user-select:none}.muted{color:#57606a}
.cards{display:flex;flex-wrap:wrap;gap:1rem;margin:1rem 0}
.card{flex:1 1 20rem;border:1px solid #d0d7de;border-radius:8px;padding:.6rem .9rem}
.card h2{margin:0 0 .4rem;border:0;font-size:1rem}
.chips{display:flex;flex-wrap:wrap;gap:.4rem}
.chips label{cursor:pointer;border:1px solid #d0d7de;border-radius:1rem;padding:.1rem .6rem .1rem .2rem;background:#fff;white-space:nowrap}
.chips label .v{margin-right:.3rem}.chips label.all{padding-left:.6rem}
.filter{position:absolute;opacity:0;pointer-events:none}
.hint{font-size:13px;margin:.3rem 0 0}.jump{margin:.4rem 0 0}
article,.finding{border:1px solid #d0d7de;border-radius:8px;padding:.7rem .9rem;margin:.8rem 0}
article[data-v=verified]{border-color:#d0d7de}
.finding{border-left:4px solid #cf222e;margin:.7rem 0}.finding .msg{font-weight:700;margin:0 0 .3rem}
ul.accesses{margin:.3rem 0;padding-left:1.2rem}
.assumed{font-size:14px;margin:.5rem 0}.assumed ul{margin:.2rem 0;padding-left:1.2rem}
details{margin:.4rem 0}summary{cursor:pointer}
details.file{border:1px solid #d0d7de;border-radius:8px;padding:.4rem .8rem}
details.file>summary{display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline}
ul.list{list-style:none;padding:0;margin:.4rem 0}
ul.list>li{padding:.3rem 0;border-top:1px solid #eaeef2;overflow-wrap:anywhere}
ul.list>li>details>summary{overflow-wrap:anywhere}
.repro{overflow-wrap:anywhere;background:#f6f8fa;padding:.05rem .3rem;border-radius:4px}
.ok{color:#1a7f37;font-weight:600}
@media (max-width:40rem){body{padding:.6rem .7rem 2rem;font-size:14px}h1{font-size:1.3rem}
article,.finding{padding:.5rem .6rem}.card{flex-basis:100%}td,th{padding:.2rem .4rem}}
)";

// Most severe first: what must be fixed, then what could not be checked, then warnings.
int severity_rank(Verdict v) {
  switch (v) {
    case Verdict::Race: return 0;
    case Verdict::Divergence: return 1;
    case Verdict::Oob: return 2;
    case Verdict::Vacuous: return 3;
    case Verdict::Error: return 4;
    case Verdict::Unknown: return 5;
    case Verdict::Unsupported: return 6;
    case Verdict::BenignRace: return 7;
    case Verdict::Verified: return 8;
  }
  return 8;
}

// The radio buttons (before everything they filter, for CSS's `~`) and the rules that
// hide what the checked one does not select.
void filter_inputs(std::ostringstream &os, const std::map<Verdict, unsigned> &verdicts,
                   const std::map<std::string, unsigned> &outcomes) {
  os << "<input type=\"radio\" class=\"filter\" name=\"verdict\" id=\"show-all\" checked "
        "aria-label=\"all kernels\">\n";
  std::ostringstream rules;
  for (const auto &[v, n] : verdicts) {
    const std::string name = analysis::verdictName(v);
    os << "<input type=\"radio\" class=\"filter\" name=\"verdict\" id=\"show-" << name << "\" aria-label=\""
       << name << " kernels\">\n";
    rules << "#show-" << name << ":checked~main [data-v]:not([data-v=" << name << "]),#show-" << name
          << ":checked~main .file:not(.has-" << name << "){display:none}\n#show-" << name
          << ":checked~header label[for=show-" << name << "]{outline:2px solid #0969da}\n";
  }
  os << "<input type=\"radio\" class=\"filter\" name=\"outcome\" id=\"tests-all\" checked "
        "aria-label=\"all tests\">\n";
  for (const auto &[o, n] : outcomes) {
    os << "<input type=\"radio\" class=\"filter\" name=\"outcome\" id=\"tests-" << o << "\" aria-label=\""
       << o << " tests\">\n";
    rules << "#tests-" << o << ":checked~main [data-o]:not([data-o=" << o << "]){display:none}\n#tests-" << o
          << ":checked~header label[for=tests-" << o << "]{outline:2px solid #0969da}\n";
  }
  rules << "#show-all:checked~header label[for=show-all],#tests-all:checked~header "
           "label[for=tests-all]{outline:2px solid #0969da}\n";
  os << "<style>" << rules.str() << "</style>\n";
}

void summary_cards(std::ostringstream &os, const RunResult &run, const std::map<Verdict, unsigned> &verdicts,
                   const std::map<std::string, unsigned> &outcomes, std::size_t tests) {
  os << "<div class=\"cards\"><section class=\"card\"><h2>Kernels by verdict</h2><div "
        "class=\"chips\"><label class=\"all\" for=\"show-all\">all <b>"
     << run.kernels.size() << "</b></label>";
  for (const auto &[v, n] : verdicts)
    os << "<label for=\"show-" << analysis::verdictName(v) << "\">" << badge(analysis::verdictName(v))
       << "<b>" << n << "</b></label>";
  os << "</div></section><section class=\"card\"><h2>Property tests by outcome</h2>";
  if (tests == 0) {
    os << "<p class=\"muted\">None in the inputs.</p>";
  } else {
    os << "<div class=\"chips\"><label class=\"all\" for=\"tests-all\">all <b>" << tests << "</b></label>";
    for (const auto &[o, n] : outcomes)
      os << "<label for=\"tests-" << o << "\">" << badge(o) << "<b>" << n << "</b></label>";
    os << "</div>";
  }
  os << "</section></div><p class=\"hint muted\">Pick a verdict or an outcome to show only "
        "those.</p>\n";
}

void findings_section(std::ostringstream &os, SourceCache &sources, const RunResult &run) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < run.kernels.size(); ++i)
    if (run.kernels[i].verdict != Verdict::Verified) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return severity_rank(run.kernels[a].verdict) < severity_rank(run.kernels[b].verdict);
  });
  os << "<section id=\"findings\"><h2>Findings: " << order.size() << " of " << run.kernels.size()
     << " kernels not verified</h2>\n";
  if (order.empty()) os << "<p class=\"ok\">Every kernel is verified.</p>";
  for (std::size_t i : order) html::kernel_details(os, sources, run.kernels[i], i);
  os << "</section>\n";
}

// What a kernel's row says about it besides the verdict.
std::string why(const analysis::KernelResult &k) {
  if (!k.findings.empty())
    return std::to_string(k.findings.size()) + (k.findings.size() == 1 ? " finding" : " findings");
  if (!k.unsupported.empty()) return esc(k.unsupported.front().construct);
  if (!k.unknown_query.empty()) return "no answer in time";
  if (k.verdict == Verdict::Error) return "see the diagnostics";
  if (k.verdict == Verdict::Vacuous) return "code no thread reaches";
  return "";
}

void kernel_row(std::ostringstream &os, SourceCache &sources, const analysis::KernelResult &k,
                std::size_t index) {
  const std::string v = analysis::verdictName(k.verdict);
  os << "<li data-v=\"" << esc(v) << "\">";
  if (k.verdict == Verdict::Verified) {
    os << "<details><summary><code class=\"name\">" << esc(k.name) << "</code> " << badge(v)
       << " <span class=\"muted\">" << (k.range.valid() ? "line " + std::to_string(k.range.line) : "")
       << " &middot; " << html::duration(k.time_ms) << "</span></summary>";
    html::phases_and_assumptions(os, sources, k);
    os << "</details>";
  } else {
    os << "<a href=\"#" << html::kernel_anchor(k, index) << "\"><code class=\"name\">" << esc(k.name)
       << "</code></a> " << badge(v) << " <span class=\"muted\">" << why(k) << " &middot; "
       << html::duration(k.time_ms) << "</span>";
  }
  os << "</li>";
}

void files_section(std::ostringstream &os, SourceCache &sources, const RunResult &run) {
  std::map<std::string, std::vector<std::size_t>> by_file;
  for (std::size_t i = 0; i < run.kernels.size(); ++i) by_file[run.kernels[i].file].push_back(i);
  os << "<section id=\"files\"><h2>Kernels by file: " << run.kernels.size() << " in " << by_file.size()
     << (by_file.size() == 1 ? " file" : " files") << "</h2>\n";
  for (const auto &[file, indices] : by_file) {
    std::map<Verdict, unsigned> counts;
    for (std::size_t i : indices) ++counts[run.kernels[i].verdict];
    const unsigned verified = counts.count(Verdict::Verified) ? counts[Verdict::Verified] : 0;
    std::string classes = "file";
    for (const auto &[v, n] : counts) classes += std::string(" has-") + analysis::verdictName(v);
    os << "<details class=\"" << classes << "\"" << (verified < indices.size() ? " open" : "")
       << "><summary><code class=\"name\">" << esc(file) << "</code><span class=\"muted\">" << indices.size()
       << (indices.size() == 1 ? " kernel" : " kernels");
    for (const auto &[v, n] : counts) os << " &middot; " << n << " " << analysis::verdictName(v);
    os << "</span></summary><ul class=\"list\">";
    for (std::size_t i : indices)
      if (run.kernels[i].verdict != Verdict::Verified) kernel_row(os, sources, run.kernels[i], i);
    if (verified > 0 && verified < indices.size()) {  // mixed file: verified ones folded
      os << "<li data-v=\"verified\"><details><summary>" << verified
         << " verified</summary><ul class=\"list\">";
      for (std::size_t i : indices)
        if (run.kernels[i].verdict == Verdict::Verified) kernel_row(os, sources, run.kernels[i], i);
      os << "</ul></details></li>";
    } else if (verified > 0) {  // the whole file is verified: its <details> is closed
      for (std::size_t i : indices) kernel_row(os, sources, run.kernels[i], i);
    }
    os << "</ul></details>\n";
  }
  if (!run.skipped.empty()) {
    os << "<p class=\"muted\">Skipped (templates never instantiated): ";
    for (std::size_t i = 0; i < run.skipped.size(); ++i)
      os << (i ? ", " : "") << "<code>" << esc(run.skipped[i].name) << "</code>";
    os << "</p>\n";
  }
  os << "</section>\n";
}

}  // namespace

std::string render_html(const RunResult &run, const std::vector<PropertyOutcome> &properties) {
  SourceCache sources;
  const std::map<Verdict, unsigned> verdicts = verdict_counts(run);
  std::map<std::string, unsigned> outcomes;
  for (const auto &p : properties) ++outcomes[p.status];

  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
     << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
     << "<title>kverify report</title><style>" << kStyle << "</style></head><body>\n";
  filter_inputs(os, verdicts, outcomes);
  os << "<header><h1>kverify report</h1><p class=\"muted\">" << esc(render_summary(run))
     << (properties.empty() ? "" : "; " + std::to_string(properties.size()) + " property tests") << "</p>";
  summary_cards(os, run, verdicts, outcomes, properties.size());
  os << "<nav class=\"jump\"><a href=\"#findings\">Findings</a>"
     << (properties.empty() ? "" : " &middot; <a href=\"#tests\">Property tests</a>")
     << " &middot; <a href=\"#files\">Kernels by file</a></nav>";
  os << "</header>\n<main>\n";
  findings_section(os, sources, run);
  if (!properties.empty()) {
    os << "<section id=\"tests\"><h2>Property tests</h2>\n";
    html::property_section(os, properties);
    os << "</section>\n";
  }
  files_section(os, sources, run);
  os << "</main>\n</body></html>\n";
  return os.str();
}

}  // namespace kverify::reports
