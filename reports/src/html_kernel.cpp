// A kernel's part of the HTML report: findings with source excerpts and witness
// tables, barrier phases, and the assumptions behind the verdict.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "common.hpp"
#include "html_parts.hpp"

namespace kverify::reports::html {

using analysis::Verdict;

std::string esc(const std::string &s) { return xml_escape(s); }

std::string badge(const std::string &status) {
  return "<span class=\"v " + esc(status) + "\">" + esc(status) + "</span>";
}

std::string duration(double ms) {
  return ms < 1 ? "&lt; 1 ms" : std::to_string(static_cast<long long>(ms + 0.5)) + " ms";
}

std::string kernel_anchor(const analysis::KernelResult &k, std::size_t index) {
  std::string id = "k" + std::to_string(index) + "-";
  for (char c : k.name) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return id;
}

namespace {

struct Span {
  unsigned begin, end;  // 0-based [begin, end) columns on one line
  int mark;
};

// Source lines around the accesses of a finding, each access highlighted.
std::string excerpt(SourceCache &sources, const analysis::Finding &f) {
  if (f.accesses.empty()) return {};
  const std::string &file = f.accesses.front().range.file;
  std::set<unsigned> lines;
  std::map<unsigned, std::vector<Span>> spans;
  for (std::size_t i = 0; i < f.accesses.size(); ++i) {
    const auto &r = f.accesses[i].range;
    if (!r.valid() || r.file != file) continue;
    for (unsigned l = r.line > 2 ? r.line - 2 : 1; l <= r.line + 2; ++l)
      if (l <= sources.line_count(file)) lines.insert(l);
    unsigned end = r.end_line == r.line && r.end_col >= r.col
                       ? r.end_col
                       : static_cast<unsigned>(sources.line(file, r.line).size());
    spans[r.line].push_back({r.col - 1, end, static_cast<int>(std::min<std::size_t>(i, 2))});
  }
  if (lines.empty()) return {};
  std::ostringstream os;
  os << "<pre class=\"src\">";
  unsigned prev = 0;
  for (unsigned l : lines) {
    if (prev && l != prev + 1) os << "<span class=\"ln\">   ...</span>\n";
    prev = l;
    const std::string &text = sources.line(file, l);
    auto &sp = spans[l];
    std::sort(sp.begin(), sp.end(), [](const Span &a, const Span &b) { return a.begin < b.begin; });
    os << "<span class=\"ln\">" << l << " | </span>";
    unsigned pos = 0;
    for (const auto &s : sp) {
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

// The witness as a table: one column per thread for what differs between them (their
// indices, their loop iterations), one spanning row for what they share.
void witness_table(std::ostringstream &os, const analysis::Finding &f) {
  const auto &w = f.witness;
  const bool two = f.kind != Verdict::Oob;
  const char *span = two ? " colspan=\"2\"" : "";
  auto shared = [&](const std::string &k, const std::string &v) {
    os << "<tr><th scope=\"row\">" << esc(k) << "</th><td" << span << "><code>" << esc(v)
       << "</code></td></tr>";
  };
  auto each = [&](const std::string &k, const std::string &v1, const std::string &v2) {
    os << "<tr><th scope=\"row\">" << esc(k) << "</th><td><code>" << esc(v1) << "</code></td>";
    if (two) os << "<td><code>" << esc(v2) << "</code></td>";
    os << "</tr>";
  };
  os << "<div class=\"scroll\"><table class=\"witness\"><caption>Witness</caption><tr><th></th>"
     << (two ? "<th scope=\"col\">thread 1</th><th scope=\"col\">thread 2</th>"
             : "<th scope=\"col\">thread</th>")
     << "</tr>";
  each("threadIdx", triple(w.thread1.thread_idx), triple(w.thread2.thread_idx));
  each("blockIdx", triple(w.thread1.block_idx), triple(w.thread2.block_idx));
  // one loop's iterations of thread 1 and thread 2 share a row
  std::map<std::string, std::pair<std::string, std::string>> per_thread;
  std::vector<std::string> order;
  for (const analysis::LoopIteration &l : w.loops) {
    if (l.thread == 0) continue;
    if (!per_thread.count(l.loop)) order.push_back(l.loop);
    (l.thread == 1 ? per_thread[l.loop].first : per_thread[l.loop].second) = std::to_string(l.iteration);
  }
  for (const auto &key : order) each(key, per_thread[key].first, per_thread[key].second);
  shared("blockDim", triple(w.block_dim));
  shared("gridDim", triple(w.grid_dim));
  for (const auto &[name, value] : w.params) shared(name, value);
  for (const analysis::LoopIteration &l : w.loops)
    if (l.thread == 0) shared(l.loop, std::to_string(l.iteration));
  if (!w.index.empty()) shared(f.array.empty() ? "index" : f.array + "[...] index", w.index);
  for (const analysis::MemoryValue &v : w.memory)
    shared(v.array + "[" + std::to_string(v.index) + "]", std::to_string(v.value));
  shared("re-validated", w.validated ? "yes: the accesses collide at these values"
                                     : "no: the solver's model was not confirmed");
  os << "</table></div>";
}

// --confirm: a badge for what the replay on the GPU showed; the program and the run's
// output (the sanitizer's report) one click away.
void confirmation(std::ostringstream &os, const analysis::Confirmation &c) {
  using Status = analysis::Confirmation::Status;
  if (c.status == Status::NotAsked) return;
  std::string name = analysis::confirmationName(c.status), cls = name;
  for (char &ch : cls) ch = ch == ' ' ? '-' : ch;
  os << "<div class=\"confirmation\"><span class=\"v gpu-" << cls << "\">" << esc(name) << " on GPU</span> ";
  if (!c.tool.empty()) os << "<code>" << esc(c.tool) << "</code> ";
  os << "<span class=\"detail\">" << esc(c.detail) << "</span>";
  if (!c.program.empty() || !c.output.empty()) {
    os << "<details><summary>replay program and output</summary>";
    if (!c.program.empty()) os << "<p>Program: <code>" << esc(c.program) << "</code></p>";
    if (!c.output.empty()) os << "<pre>" << esc(c.output) << "</pre>";
    os << "</details>";
  }
  os << "</div>";
}

void finding(std::ostringstream &os, SourceCache &sources, const analysis::Finding &f) {
  os << "<div class=\"finding\"><p class=\"msg\">" << esc(f.message) << "</p>";
  if (!f.explanation.empty()) os << "<p>" << esc(f.explanation) << "</p>";
  os << "<ul class=\"accesses\">";
  for (std::size_t i = 0; i < f.accesses.size(); ++i) {
    os << "<li><mark class=\"a" << std::min<std::size_t>(i, 2) << "\">" << esc(f.accesses[i].kind)
       << "</mark> <code>" << esc(f.accesses[i].text) << "</code> at <code>"
       << esc(location(f.accesses[i].range)) << "</code>";
    for (const auto &c : f.accesses[i].called_from)
      os << ", in the call to <code>" << esc(c.function) << "</code> at <code>" << esc(location(c.range))
         << "</code>";
    os << "</li>";
  }
  os << "</ul>" << excerpt(sources, f);
  witness_table(os, f);
  confirmation(os, f.confirmation);
  os << "</div>";
}

// The line a phase boundary points at ("__syncthreads();"), or where it is.
std::string boundary(SourceCache &sources, const model::SourceRange &r) {
  if (!r.valid()) return "<span class=\"muted\">kernel end</span>";
  std::string text = sources.line(r.file, r.line);
  text.erase(0, text.find_first_not_of(" \t"));
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return "<code>" + esc(std::to_string(r.line) + ":" + std::to_string(r.col)) + "</code> " +
         (text.empty() ? "" : "<code class=\"line\">" + esc(text) + "</code>");
}

}  // namespace

void phases_and_assumptions(std::ostringstream &os, SourceCache &sources, const analysis::KernelResult &k) {
  if (k.phases.size() > 1) {  // one phase: no barrier, nothing to show
    os << "<details class=\"phases\"><summary>" << k.phases.size()
       << " barrier phases</summary><div class=\"scroll\"><table><tr><th>#</th><th>from</th>"
          "<th>to</th><th>accesses</th></tr>";
    for (std::size_t i = 0; i < k.phases.size(); ++i)
      os << "<tr><td>" << i + 1 << "</td><td>" << boundary(sources, k.phases[i].begin) << "</td><td>"
         << boundary(sources, k.phases[i].end) << "</td><td>" << k.phases[i].accesses << "</td></tr>";
    os << "</table></div></details>";
  }
  if (!k.assumptions.empty()) {
    os << "<div class=\"assumed\"><b>This verdict assumes:</b><ul>";
    for (const analysis::Assumption &a : k.assumptions) os << "<li>" << esc(a.display()) << "</li>";
    os << "</ul></div>";
  }
}

void kernel_details(std::ostringstream &os, SourceCache &sources, const analysis::KernelResult &k,
                    std::size_t index) {
  const std::string v = analysis::verdictName(k.verdict);
  os << "<article class=\"kernel\" data-v=\"" << esc(v) << "\" id=\"" << kernel_anchor(k, index)
     << "\"><h3><code class=\"name\">" << esc(k.name) << "</code> " << badge(v) << "</h3>"
     << "<p class=\"muted\"><code>" << esc(k.range.valid() ? location(k.range) : k.file)
     << "</code> &middot; " << duration(k.time_ms) << "</p>";
  for (const auto &f : k.findings) finding(os, sources, f);
  for (const auto &u : k.unsupported)
    os << "<p>Unsupported: <b>" << esc(u.construct) << "</b> " << esc(u.detail) << " at <code>"
       << esc(location(u.range)) << "</code></p>";
  if (!k.unknown_query.empty())
    os << "<p>The solver gave no answer in time for: " << esc(k.unknown_query)
       << (k.out_of_time ? " (the kernel's solver time ran out: <code>--kernel-timeout</code>)" : "")
       << "</p>";
  if (!k.diagnostics.empty()) {
    os << "<pre class=\"diag\">";
    for (const auto &d : k.diagnostics)
      os << esc(location(d.range) + ": " + d.severity + ": " + d.message) << "\n";
    os << "</pre>";
  }
  for (const auto &u : k.unreachable) {
    const bool error = makes_vacuous(k, u);
    os << (error ? "<div class=\"finding\"><p class=\"msg\">" : "<p class=\"muted\">")
       << esc(unreachable_message(k, u)) << " at <code>" << esc(location(u.range)) << "</code>"
       << (error ? "</p>" : "");
    if (!u.by_construction && !u.because.empty()) {
      os << (error ? "<p>" : " ") << "Because: ";
      for (std::size_t i = 0; i < u.because.size(); ++i) os << (i ? "; " : "") << esc(u.because[i]);
      os << (error ? "</p>" : "");
    }
    os << (error ? "</div>" : "</p>");
  }
  phases_and_assumptions(os, sources, k);
  os << "</article>\n";
}

}  // namespace kverify::reports::html
