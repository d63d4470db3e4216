// One self-contained HTML file: inline CSS, no scripts, no network. Everything
// taken from a source file or a result is escaped.
#include <algorithm>
#include <set>
#include <sstream>

#include "common.hpp"
#include "kverify/reports/render.hpp"
#include "source_cache.hpp"

namespace kverify::reports {
namespace {

using analysis::Verdict;

const char* const kStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;color:#1b1f24;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em}h2{margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ccd;padding:.25em .6em;text-align:left;vertical-align:top}
th{background:#f3f4f6}code,pre{font:12.5px/1.4 ui-monospace,monospace}
pre{background:#f8f8fa;border:1px solid #e1e3e8;padding:.5em;overflow-x:auto}
.v{font-weight:600;padding:.1em .5em;border-radius:.6em;color:#fff}
.verified,.passed{background:#1a7f37}.race,.divergence,.oob,.failed{background:#cf222e}
.unknown,.skipped,.benign-race{background:#9a6700}.unsupported{background:#8250df}.error{background:#57606a}
mark.a0{background:#ffd8d3}mark.a1{background:#d3e5ff}mark.a2{background:#e4d3ff}
.ln{color:#8c959f;user-select:none}.finding{border-left:4px solid #cf222e;padding-left:1em;margin:1.2em 0}
.muted{color:#57606a})";

std::string esc(const std::string& s) { return xml_escape(s); }

std::string badge(const std::string& status) {
  return "<span class=\"v " + esc(status) + "\">" + esc(status) + "</span>";
}

std::string anchor(const std::string& file, const std::string& kernel) {
  std::string id = "k-";
  for (char c : file + "-" + kernel) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return id;
}

struct Span {
  unsigned begin, end;  // 0-based [begin, end) columns on one line
  int mark;
};

// Source lines around the accesses of a finding, each access highlighted.
std::string excerpt(SourceCache& sources, const analysis::Finding& f) {
  if (f.accesses.empty()) return {};
  const std::string& file = f.accesses.front().range.file;
  std::set<unsigned> lines;
  std::map<unsigned, std::vector<Span>> spans;
  for (std::size_t i = 0; i < f.accesses.size(); ++i) {
    const auto& r = f.accesses[i].range;
    if (!r.valid() || r.file != file) continue;
    for (unsigned l = r.line > 2 ? r.line - 2 : 1; l <= r.line + 2; ++l)
      if (l <= sources.line_count(file)) lines.insert(l);
    unsigned end = r.end_line == r.line && r.end_col >= r.col
                       ? r.end_col
                       : static_cast<unsigned>(sources.line(file, r.line).size());
    spans[r.line].push_back({r.col - 1, end, static_cast<int>(std::min<std::size_t>(i, 2))});
  }
  std::ostringstream os;
  os << "<pre>";
  unsigned prev = 0;
  for (unsigned l : lines) {
    if (prev && l != prev + 1) os << "<span class=\"ln\">   ...</span>\n";
    prev = l;
    const std::string& text = sources.line(file, l);
    auto& sp = spans[l];
    std::sort(sp.begin(), sp.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
    os << "<span class=\"ln\">" << l << " | </span>";
    unsigned pos = 0;
    for (const auto& s : sp) {
      if (s.begin < pos || s.begin >= text.size()) continue;  // overlapping or off the line
      unsigned end = std::min<unsigned>(s.end, text.size());
      os << esc(text.substr(pos, s.begin - pos)) << "<mark class=\"a" << s.mark << "\">"
         << esc(text.substr(s.begin, end - s.begin)) << "</mark>";
      pos = end;
    }
    if (pos < text.size()) os << esc(text.substr(pos));
    os << "\n";
  }
  os << "</pre>";
  return os.str();
}

void witness_table(std::ostringstream& os, const analysis::Finding& f) {
  const auto& w = f.witness;
  auto row = [&](const std::string& k, const std::string& v) {
    os << "<tr><th>" << esc(k) << "</th><td><code>" << esc(v) << "</code></td></tr>";
  };
  os << "<table>";
  row("thread 1", "threadIdx=" + triple(w.thread1.thread_idx) + " blockIdx=" +
                      triple(w.thread1.block_idx));
  if (f.kind != Verdict::Oob)
    row("thread 2", "threadIdx=" + triple(w.thread2.thread_idx) + " blockIdx=" +
                        triple(w.thread2.block_idx));
  row("blockDim", triple(w.block_dim));
  row("gridDim", triple(w.grid_dim));
  for (const auto& [k, v] : w.params) row(k, v);
  for (const auto& [k, v] : w.loops) row(k, v);
  if (!w.index.empty()) row(f.array.empty() ? "index" : f.array + " index", w.index);
  row("re-validated", w.validated ? "yes" : "no");
  os << "</table>";
}

void kernel_section(std::ostringstream& os, SourceCache& sources, const analysis::KernelResult& k) {
  os << "<h3 id=\"" << anchor(k.file, k.name) << "\">" << esc(k.name) << " "
     << badge(analysis::verdictName(k.verdict)) << "</h3>";
  os << "<p class=\"muted\">" << (k.range.valid() ? esc(location(k.range)) + " &middot; " : "")
     << k.time_ms << " ms</p>";
  for (const auto& f : k.findings) {
    os << "<div class=\"finding\"><p><b>" << esc(f.message) << "</b></p>";
    if (!f.explanation.empty()) os << "<p>" << esc(f.explanation) << "</p>";
    os << "<ul>";
    for (std::size_t i = 0; i < f.accesses.size(); ++i)
      os << "<li><mark class=\"a" << std::min<std::size_t>(i, 2) << "\">" << esc(f.accesses[i].kind)
         << "</mark> <code>" << esc(f.accesses[i].text) << "</code> at "
         << esc(location(f.accesses[i].range)) << "</li>";
    os << "</ul>" << excerpt(sources, f);
    witness_table(os, f);
    os << "</div>";
  }
  for (const auto& u : k.unsupported)
    os << "<p>Unsupported: <b>" << esc(u.construct) << "</b> " << esc(u.detail) << " at "
       << esc(location(u.range)) << "</p>";
  if (!k.unknown_query.empty())
    os << "<p>Solver gave no answer for: " << esc(k.unknown_query) << "</p>";
  for (const auto& u : k.unreachable)
    os << "<p>Reached by no thread under the assumptions: <code>" << esc(u.text) << "</code> at "
       << esc(location(u.range)) << "</p>";
  if (!k.diagnostics.empty()) {
    os << "<pre>";
    for (const auto& d : k.diagnostics)
      os << esc(location(d.range) + ": " + d.severity + ": " + d.message) << "\n";
    os << "</pre>";
  }
  if (k.phases.size() > 1) {  // one phase: no barriers, nothing to show
    os << "<details><summary>" << k.phases.size() << " barrier phases</summary><ol>";
    for (const auto& p : k.phases)
      os << "<li>" << esc(location(p.begin)) << " &rarr; " << esc(location(p.end)) << ": "
         << p.accesses << " accesses</li>";
    os << "</ol></details>";
  }
  if (!k.assumptions.empty()) {
    os << "<p class=\"muted\">Assumed: ";
    for (std::size_t i = 0; i < k.assumptions.size(); ++i)
      os << (i ? "; " : "") << esc(k.assumptions[i]);
    os << "</p>";
  }
}

}  // namespace

std::string render_html(const RunResult& run, const std::vector<PropertyOutcome>& properties) {
  SourceCache sources;
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
     << "<title>kverify report</title><style>" << kStyle << "</style></head><body>\n"
     << "<h1>kverify report</h1><p>" << esc(render_summary(run)) << "</p>\n";

  os << "<h2>Kernels</h2><table><tr><th>file</th><th>kernel</th><th>verdict</th><th>findings</th>"
     << "<th>time (ms)</th></tr>\n";
  for (const auto& k : run.kernels)
    os << "<tr><td><code>" << esc(k.file) << "</code></td><td><a href=\"#"
       << anchor(k.file, k.name) << "\">" << esc(k.name) << "</a></td><td>"
       << badge(analysis::verdictName(k.verdict)) << "</td><td>" << k.findings.size() << "</td><td>"
       << k.time_ms << "</td></tr>\n";
  os << "</table>\n";
  if (!run.skipped.empty()) {
    os << "<p class=\"muted\">Skipped (uninstantiated templates): ";
    for (std::size_t i = 0; i < run.skipped.size(); ++i)
      os << (i ? ", " : "") << "<code>" << esc(run.skipped[i].name) << "</code>";
    os << "</p>\n";
  }

  if (!properties.empty()) {
    os << "<h2>Property suites</h2><table><tr><th>suite</th><th>property</th><th>outcome</th>"
       << "<th>details</th></tr>\n";
    for (const auto& p : properties)
      os << "<tr><td>" << esc(p.suite) << "</td><td>" << esc(p.name) << "</td><td>"
         << badge(p.status) << "</td><td><pre>" << esc(p.message) << "</pre></td></tr>\n";
    os << "</table>\n";
  }

  os << "<h2>Details</h2>\n";
  for (const auto& k : run.kernels)
    if (k.verdict != Verdict::Verified) kernel_section(os, sources, k);
  os << "<details><summary>Verified kernels</summary>";
  for (const auto& k : run.kernels)
    if (k.verdict == Verdict::Verified) kernel_section(os, sources, k);
  os << "</details>\n</body></html>\n";
  return os.str();
}

}  // namespace kverify::reports
