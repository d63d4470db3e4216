// The property tests' part of the HTML report.
#include <map>

#include "html_parts.hpp"

namespace kverify::reports::html {
namespace {

std::string full_name(const PropertyOutcome &t) { return t.suite.empty() ? t.name : t.suite + "." + t.name; }

void failure(std::ostringstream &os, const PropertyOutcome &t) {
  os << "<article class=\"test\" data-o=\"failed\"><h3><code class=\"name\">" << esc(full_name(t))
     << "</code> " << badge("failed") << "</h3>";
  if (!t.message.empty()) os << "<pre class=\"msg\">" << esc(t.message) << "</pre>";
  if (!t.counterexample.empty()) {
    os << "<div class=\"scroll\"><table class=\"counterexample\"><caption>Minimal counterexample"
          "</caption><tr><th scope=\"col\">type</th><th scope=\"col\">value</th></tr>";
    for (const auto &c : t.counterexample)
      os << "<tr><td><code>" << esc(c.type) << "</code></td><td><pre>" << esc(c.value) << "</pre></td></tr>";
    os << "</table></div>";
  }
  if (!t.reproduce.empty())
    os << "<p>Replay this counterexample: run the test with <code class=\"repro\">" << esc(t.reproduce)
       << "</code> in its environment.</p>";
  os << "</article>\n";
}

}  // namespace

void property_section(std::ostringstream &os, const std::vector<PropertyOutcome> &tests) {
  std::map<std::string, unsigned> counts;
  for (const auto &t : tests) ++counts[t.status];
  for (const auto &t : tests)
    if (t.status == "failed") failure(os, t);
  if (counts["failed"] == 0) os << "<p class=\"ok\" data-o=\"passed\">No property test failed.</p>";
  for (const char *status : {"skipped", "passed"}) {
    if (!counts[status]) continue;
    os << "<details class=\"tests\" data-o=\"" << status << "\"><summary>" << counts[status] << " " << status
       << "</summary><ul class=\"list\">";
    for (const auto &t : tests)
      if (t.status == status)
        os << "<li><code class=\"name\">" << esc(full_name(t)) << "</code> " << badge(status)
           << (t.message.empty() ? "" : " <span class=\"muted\">" + esc(t.message) + "</span>") << "</li>";
    os << "</ul></details>\n";
  }
}

}  // namespace kverify::reports::html
