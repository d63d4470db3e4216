// Compiler-style text: "file:line:col: error: ..." with the source line and a caret
// underline, "note:" at related locations, the witness below.
#include <algorithm>
#include <set>
#include <sstream>

#include "common.hpp"
#include "kverify/reports/render.hpp"
#include "source_cache.hpp"

namespace kverify::reports {
namespace {

using analysis::Verdict;

struct Style {
  bool color;
  std::string bold(const std::string &s) const { return color ? "\033[1m" + s + "\033[0m" : s; }
  std::string paint(const char *code, const std::string &s) const {
    return color ? std::string("\033[1;") + code + "m" + s + "\033[0m" : s;
  }
  std::string error() const { return paint("31", "error:"); }
  std::string warning() const { return paint("35", "warning:"); }
  std::string note() const { return paint("30", "note:"); }
  std::string remark() const { return paint("34", "remark:"); }
};

class TextWriter {
public:
  explicit TextWriter(bool color) : style_{color} {}

  void diagnostic(const model::SourceRange &r, const std::string &label, const std::string &msg) {
    if (r.valid()) os_ << style_.bold(location(r) + ":") << " ";
    os_ << label << " " << style_.bold(msg) << "\n";
    excerpt(r);
  }

  void kernel(const analysis::KernelResult &k) {
    const std::string who = "kernel '" + k.name + "'";
    switch (k.verdict) {
      case Verdict::Verified: diagnostic_line(k.range, style_.remark(), who + " verified"); break;
      case Verdict::BenignRace:
      case Verdict::Race:
      case Verdict::Divergence:
      case Verdict::Oob:
        for (const auto &f : k.findings) finding(k, f);
        if (!k.unknown_query.empty())  // never hidden behind the findings
          diagnostic(k.range, style_.warning(),
                     who + ": besides these findings, the solver could not decide " + k.unknown_query +
                         (k.out_of_time ? " (the kernel's solver time ran out: --kernel-timeout)" : ""));
        break;
      case Verdict::Vacuous:  // the unreachable code, below
        break;
      case Verdict::Unknown:
        for (const auto &f : k.findings) finding(k, f);  // benign races: the undecided query may hide a race
        diagnostic(
            k.range, style_.warning(),
            who + ": the solver could not decide" + (k.unknown_query.empty() ? "" : " " + k.unknown_query) +
                (k.out_of_memory ? "; no verdict: it ran out of memory (raise --max-memory?)"
                 : k.out_of_time ? "; no verdict: the kernel's solver time ran out (raise --kernel-timeout?)"
                                 : "; no verdict (raise --timeout?)"));
        break;
      case Verdict::Unsupported:
        for (const auto &u : k.unsupported)
          diagnostic(u.range, style_.error(),
                     who + " uses an unsupported construct: " + u.construct +
                         (u.detail.empty() ? "" : " (" + u.detail + ")"));
        if (k.unsupported.empty())
          diagnostic(k.range, style_.error(), who + " uses an unsupported construct");
        break;
      case Verdict::Error:
        for (const auto &d : k.diagnostics) diagnostic(d.range, d.severity + ":", d.message);
        if (k.diagnostics.empty()) diagnostic(k.range, style_.error(), who + " could not be analysed");
        break;
    }
    // a verdict says nothing about code no thread runs: show it, and why no thread does
    for (const auto &u : k.unreachable) {
      diagnostic(u.range, makes_vacuous(k, u) ? style_.error() : style_.note(), unreachable_message(k, u));
      if (u.by_construction) continue;
      for (const auto &b : u.because) os_ << style_.note() << " because: " << b << "\n";
    }
    if (k.verdict == Verdict::Vacuous)
      os_ << style_.note() << " if this code is dead on purpose, say so with --allow-unreachable "
          << "(or in a // kverify: comment)\n";
    // annotations read but not checked (GPUVerify's __assert, ...): the verdict does not cover them
    for (const analysis::Assumption &a : k.assumptions)
      if (a.kind == analysis::Assumption::Kind::NotChecked)
        diagnostic(k.range, style_.note(), a.display() + " in " + who);
  }

  std::string str() const { return os_.str(); }

private:
  void diagnostic_line(const model::SourceRange &r, const std::string &label, const std::string &msg) {
    if (r.valid()) os_ << style_.bold(location(r) + ":") << " ";
    os_ << label << " " << msg << "\n";
  }

  void finding(const analysis::KernelResult &k, const analysis::Finding &f) {
    const auto &acc = f.accesses;
    model::SourceRange at = acc.empty() ? k.range : acc.front().range;
    diagnostic(at, f.kind == Verdict::BenignRace ? style_.warning() : style_.error(),
               f.message + " in kernel '" + k.name + "'");
    if (!acc.empty()) calls(acc.front());
    for (std::size_t i = 1; i < acc.size(); ++i) {
      diagnostic(
          acc[i].range, style_.note(),
          (acc[i].kind == "barrier" ? "barrier: " : "conflicting " + acc[i].kind + ": ") + acc[i].text);
      calls(acc[i]);
    }
    if (!f.explanation.empty()) os_ << style_.note() << " " << f.explanation << "\n";
    os_ << style_.note() << " witness: " << witness_line(f)
        << (f.witness.validated ? "" : " (not re-validated)") << "\n";
    confirmation(f.confirmation);
  }

  // --confirm: what the witness's replay on the GPU showed, the sanitizer's report indented.
  void confirmation(const analysis::Confirmation &c) {
    using Status = analysis::Confirmation::Status;
    if (c.status == Status::NotAsked) return;
    std::string what = c.status == Status::Confirmed       ? "confirmed on the GPU"
                       : c.status == Status::NotReproduced ? "not reproduced on the GPU"
                                                           : "not run on the GPU";
    if (!c.tool.empty() && c.status != Status::NotRun) what += " (" + c.tool + ")";
    std::string detail = c.detail;
    for (size_t at = 0; (at = detail.find('\n', at)) != std::string::npos; at += 7)
      detail.replace(at, 1, "\n      ");
    os_ << style_.note() << " " << what << ": " << detail << "\n";
    if (!c.program.empty()) os_ << style_.note() << " replay program: " << c.program << "\n";
  }

  // Where an access inside an inlined device function is called from, as clang's "in
  // instantiation of ..." notes say where a template was used.
  void calls(const analysis::AccessRef &a) {
    for (const analysis::CallSite &c : a.called_from)
      diagnostic(c.range, style_.note(), "in the call to '" + c.function + "' here");
  }

  // The source line with a caret under the range, as clang prints it; a long line (generated
  // or minified code) cut to the part around the caret, so thousands of findings on one
  // 100,000-column line do not print it thousands of times.
  void excerpt(const model::SourceRange &r) {
    if (!r.valid()) return;
    std::string text = sources_.line(r.file, r.line);
    if (text.empty()) return;
    size_t start = r.col ? r.col - 1 : 0;
    size_t end = (r.end_line == r.line && r.end_col >= r.col) ? r.end_col : r.col;
    constexpr size_t kShown = 160;
    if (text.size() > kShown) {
      size_t from = start > kShown / 2 ? std::min(start - kShown / 2, text.size() - kShown) : 0;
      std::string before = from ? "..." : "", after = from + kShown < text.size() ? "..." : "";
      text = before + text.substr(from, kShown) + after;
      start = start - from + before.size();
      end = std::min(end - from + before.size(), before.size() + kShown + 1);
    }
    std::string gutter = std::to_string(r.line);
    os_ << " " << gutter << " | " << text << "\n";
    os_ << " " << std::string(gutter.size(), ' ') << " | ";
    for (unsigned i = 0; i < start && i < text.size(); ++i) os_ << (text[i] == '\t' ? '\t' : ' ');
    os_ << style_.paint("32", "^" + std::string(end > start + 1 ? end - start - 1 : 0, '~')) << "\n";
  }

  Style style_;
  SourceCache sources_;
  std::ostringstream os_;
};

}  // namespace

std::string render_text(const RunResult &run, bool color) {
  TextWriter w(color);
  for (const auto &k : run.kernels) w.kernel(k);
  return w.str();
}

std::string render_summary(const RunResult &run) {
  std::set<std::string> files;
  unsigned unparsed = 0;
  for (const auto &k : run.kernels) {
    files.insert(k.file);
    unparsed += is_file_error(k);
  }
  unsigned kernels = kernel_count(run);
  std::ostringstream os;
  os << "kverify: " << kernels << " kernel" << (kernels == 1 ? "" : "s") << " in " << files.size() << " file"
     << (files.size() == 1 ? "" : "s");
  const char *sep = ": ";
  for (const auto &[verdict, n] : verdict_counts(run)) {
    os << sep << n << " " << analysis::verdictName(verdict);
    sep = ", ";
  }
  if (!run.skipped.empty())
    os << " (" << run.skipped.size() << " uninstantiated template" << (run.skipped.size() == 1 ? "" : "s")
       << " skipped)";
  if (unparsed > 0) os << "; " << unparsed << " file" << (unparsed == 1 ? " does" : "s do") << " not parse";
  return os.str();
}

std::string render_stats(const RunResult &run) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(1);
  auto cpu = [](const analysis::KernelResult &k) {
    double ms = 0;
    for (const auto &s : k.stats) ms += s.cpu_ms;
    return ms;
  };
  double parse = 0, analysis = 0;
  for (const auto &f : run.file_stats) parse += f.parse_ms;
  for (const auto &k : run.kernels) analysis += cpu(k);
  auto count = [](size_t n, const char *what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  out << "kverify: stats (CPU time): " << count(run.file_stats.size(), "file") << " parsed in " << parse
      << " ms, " << count(run.kernels.size(), "kernel") << " analysed in " << analysis << " ms\n";
  std::vector<const analysis::FileStats *> files;
  for (const auto &f : run.file_stats) files.push_back(&f);
  std::sort(files.begin(), files.end(), [](auto *a, auto *b) { return a->parse_ms > b->parse_ms; });
  for (const auto *f : files) out << "  parse " << f->parse_ms << " ms  " << f->file << "\n";
  std::vector<const analysis::KernelResult *> kernels;
  for (const auto &k : run.kernels) kernels.push_back(&k);
  std::sort(kernels.begin(), kernels.end(), [&](auto *a, auto *b) { return cpu(*a) > cpu(*b); });
  for (const auto *k : kernels) {
    out << "  kernel " << cpu(*k) << " ms  " << k->name << " (" << k->file << ")\n";
    std::vector<analysis::StageStats> stages = k->stats;
    std::sort(stages.begin(), stages.end(), [](const auto &a, const auto &b) { return a.cpu_ms > b.cpu_ms; });
    for (const auto &s : stages) {
      out << "    " << s.stage << " " << s.cpu_ms << " ms";
      if (s.queries)
        out << ": " << s.queries << (s.queries == 1 ? " query" : " queries") << " (" << s.unsat << " unsat, "
            << s.sat << " sat, " << s.unknown << " unknown), solver " << s.solver_ms << " ms";
      out << "\n";
    }
  }
  return out.str();
}

}  // namespace kverify::reports
