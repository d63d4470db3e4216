// JSON (docs/REPORT.md; its schema is docs/report.schema.json, which a CTest test checks this
// output against) and SARIF 2.1.0, both through llvm::json.
#include <algorithm>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/SHA256.h>

#include <map>
#include <regex>
#include <set>

#include "common.hpp"
#include "kverify/reports/render.hpp"

namespace kverify::reports {
namespace {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

Value triple_json(const std::array<uint64_t, 3> &v) {
  return Array{static_cast<int64_t>(v[0]), static_cast<int64_t>(v[1]), static_cast<int64_t>(v[2])};
}

Value pairs_json(const std::vector<std::pair<std::string, std::string>> &pairs) {
  Object o;
  for (const auto &[k, v] : pairs) o[k] = v;
  return o;
}

// A JSON object's keys are unordered; the text output lists them in this order.
Value names_json(const std::vector<std::pair<std::string, std::string>> &pairs) {
  Array names;
  for (const auto &[k, v] : pairs) names.push_back(k);
  return names;
}

Value thread_json(const analysis::ThreadCoords &t) {
  return Object{{"threadIdx", triple_json(t.thread_idx)}, {"blockIdx", triple_json(t.block_idx)}};
}

// [{"thread": 1, "loop": "k (loop at 12:3)", "iteration": 0}, ...]
Value loops_json(const std::vector<analysis::LoopIteration> &loops) {
  Array out;
  for (const analysis::LoopIteration &l : loops)
    out.push_back(Object{{"thread", static_cast<int64_t>(l.thread)},
                         {"loop", l.loop},
                         {"iteration", static_cast<int64_t>(l.iteration)}});
  return out;
}

Value witness_json(const analysis::Finding &f) {
  const auto &w = f.witness;
  Object o{{"thread1", thread_json(w.thread1)},  {"blockDim", triple_json(w.block_dim)},
           {"gridDim", triple_json(w.grid_dim)}, {"params", pairs_json(w.params)},
           {"loops", loops_json(w.loops)},       {"validated", w.validated}};
  if (w.params.size() > 1) o["param_order"] = names_json(w.params);
  if (f.kind != analysis::Verdict::Oob) o["thread2"] = thread_json(w.thread2);
  if (!w.index.empty()) o["index"] = w.index;
  if (!w.memory.empty()) {
    Array memory;
    for (const analysis::MemoryValue &v : w.memory)
      memory.push_back(Object{{"array", v.array}, {"index", v.index}, {"value", v.value}});
    o["memory"] = std::move(memory);
  }
  return o;
}

// Where a range ends (the text output underlines up to it), when known.
void end_fields(Object &o, const model::SourceRange &r) {
  if (r.end_line == 0 && r.end_col == 0) return;
  o["end_line"] = static_cast<int64_t>(r.end_line);
  o["end_col"] = static_cast<int64_t>(r.end_col);
}

Value range_fields(Object o, const model::SourceRange &r) {
  o["file"] = r.file;
  o["line"] = static_cast<int64_t>(r.line);
  o["col"] = static_cast<int64_t>(r.col);
  end_fields(o, r);
  return o;
}

// What --confirm's replay on the GPU showed (absent where it was not asked for).
Value confirmation_json(const analysis::Confirmation &c) {
  Object o{{"status", analysis::confirmationName(c.status)}, {"detail", c.detail}};
  if (!c.tool.empty()) o["tool"] = c.tool;
  if (!c.program.empty()) o["program"] = c.program;
  if (!c.output.empty()) o["output"] = c.output;
  return o;
}

Value finding_json(const analysis::Finding &f) {
  Array accesses;
  for (const auto &a : f.accesses) {
    Object o = *range_fields(Object{{"kind", a.kind}, {"text", a.text}}, a.range).getAsObject();
    if (!a.called_from.empty()) {
      Array calls;
      for (const auto &c : a.called_from)
        calls.push_back(range_fields(Object{{"function", c.function}}, c.range));
      o["called_from"] = std::move(calls);
    }
    accesses.push_back(std::move(o));
  }
  Object o{{"kind", analysis::verdictName(f.kind)},
           {"message", f.message},
           {"accesses", std::move(accesses)},
           {"witness", witness_json(f)}};
  if (!f.array.empty()) o["array"] = f.array;
  if (!f.space.empty()) o["space"] = f.space;
  if (!f.explanation.empty()) o["explanation"] = f.explanation;
  if (f.confirmation.status != analysis::Confirmation::Status::NotAsked)
    o["confirmation"] = confirmation_json(f.confirmation);
  return o;
}

Value kernel_json(const analysis::KernelResult &k) {
  Array findings, unsupported, diagnostics, assumptions;
  for (const auto &f : k.findings) findings.push_back(finding_json(f));
  for (const auto &u : k.unsupported)
    unsupported.push_back(range_fields(Object{{"construct", u.construct}, {"detail", u.detail}}, u.range));
  for (const auto &d : k.diagnostics)
    diagnostics.push_back(range_fields(Object{{"severity", d.severity}, {"message", d.message}}, d.range));
  for (const analysis::Assumption &a : k.assumptions)
    assumptions.push_back(Object{{"kind", analysis::assumptionKindName(a.kind)}, {"text", a.text}});
  Array phases;
  for (const auto &p : k.phases)
    phases.push_back(Object{{"begin", range_fields(Object{}, p.begin)},
                            {"end", range_fields(Object{}, p.end)},
                            {"accesses", static_cast<int64_t>(p.accesses)}});
  Object o{{"file", k.file},
           {"name", k.name},
           {"line", static_cast<int64_t>(k.range.line)},
           {"col", static_cast<int64_t>(k.range.col)},
           {"verdict", analysis::verdictName(k.verdict)},
           {"time_ms", k.time_ms},
           {"findings", std::move(findings)},
           {"assumptions", std::move(assumptions)}};
  end_fields(o, k.range);
  if (!unsupported.empty()) o["unsupported"] = std::move(unsupported);
  if (!diagnostics.empty()) o["diagnostics"] = std::move(diagnostics);
  if (!k.unknown_query.empty()) o["unknown_query"] = k.unknown_query;
  if (k.out_of_time) o["out_of_time"] = true;
  if (k.out_of_memory) o["out_of_memory"] = true;
  if (!k.undecided.empty()) {  // every one (unknown_query names the first few)
    Array undecided;
    for (const std::string &q : k.undecided) undecided.push_back(q);
    o["undecided"] = std::move(undecided);
  }
  Object rules;  // the precision rules applied, by name: those applied at least once
  for (size_t i = 0; i < analysis::kRules; ++i)
    if (k.rules.n[i])
      rules[analysis::ruleName(static_cast<analysis::Rule>(i))] = static_cast<int64_t>(k.rules.n[i]);
  if (!rules.empty()) o["rules"] = std::move(rules);
  if (!k.stats.empty()) {  // --stats: each stage's CPU time and queries
    Array stats;
    for (const analysis::StageStats &s : k.stats)
      stats.push_back(Object{{"stage", s.stage},
                             {"cpu_ms", s.cpu_ms},
                             {"queries", int64_t(s.queries)},
                             {"sat", int64_t(s.sat)},
                             {"unsat", int64_t(s.unsat)},
                             {"unknown", int64_t(s.unknown)},
                             {"solver_ms", s.solver_ms}});
    o["stats"] = std::move(stats);
  }
  if (!phases.empty()) o["phases"] = std::move(phases);
  if (!k.unreachable.empty()) {
    Array unreachable;
    for (const auto &u : k.unreachable) {
      Array because;
      for (const std::string &b : u.because) because.push_back(b);
      Object uo{{"kind", u.kind}, {"text", u.text}, {"because", std::move(because)}};
      if (u.by_construction) uo["by_construction"] = true;
      unreachable.push_back(range_fields(std::move(uo), u.range));
    }
    o["unreachable"] = std::move(unreachable);
  }
  return o;
}

std::string pretty(const Value &v) { return llvm::formatv("{0:2}", v).str() + "\n"; }

// SARIF rule ids, one per finding kind (and per non-verdict outcome).
const char *rule_id(analysis::Verdict v) {
  switch (v) {
    case analysis::Verdict::Race: return "KV001-data-race";
    case analysis::Verdict::Divergence: return "KV002-barrier-divergence";
    case analysis::Verdict::Oob: return "KV003-shared-out-of-bounds";
    case analysis::Verdict::Unknown: return "KV004-unknown";
    case analysis::Verdict::Unsupported: return "KV005-unsupported";
    case analysis::Verdict::BenignRace: return "KV007-benign-race";
    case analysis::Verdict::Vacuous: return "KV008-vacuous";
    default: return "KV006-error";
  }
}

// A path as a URI reference: bytes other than RFC 3986's unreserved ones and '/' are
// percent-encoded (a space in a directory name would make the URI invalid).
std::string uri_path(const std::string &path) {
  std::string out;
  for (unsigned char c : path) {
    if (llvm::isAlnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
      out += static_cast<char>(c);
    else
      out += "%" + llvm::utohexstr(c, /*LowerCase=*/false, /*Width=*/2);
  }
  return out;
}

// A location in `file` (used when the range has none, as for clang's command-line
// errors). SARIF lines and columns start at 1: a range without them names the file only.
Value sarif_location(const model::SourceRange &r, const std::string &message, const std::string &file) {
  Object physical{{"artifactLocation", Object{{"uri", uri_path(r.file.empty() ? file : r.file)}}}};
  if (r.valid()) {
    Object region{{"startLine", static_cast<int64_t>(r.line)}};
    if (r.col) region["startColumn"] = static_cast<int64_t>(r.col);
    if (r.end_line >= r.line) {
      region["endLine"] = static_cast<int64_t>(r.end_line);
      region["endColumn"] = static_cast<int64_t>(r.end_col + 1);  // SARIF: exclusive end
    }
    physical["region"] = std::move(region);
  }
  Object loc{{"physicalLocation", std::move(physical)}};
  if (!message.empty()) loc["message"] = Object{{"text", message}};
  return loc;
}

// Messages in fingerprint keys without "line:col" (premise errors name "the assumption at
// 5:5"), so that moving the code keeps the fingerprint.
std::string without_positions(const std::string &s) {
  static const std::regex position("[0-9]+:[0-9]+");
  return std::regex_replace(s, position, "?");
}

// SARIF partialFingerprints key. Its value is a hash of what identifies a finding
// (rule, file as given, kernel, array, source text of the accesses), never of line or
// column numbers: a finding keeps its hash when unrelated lines move it. Bump "v1" when
// the key's contents change.
constexpr const char *kFingerprintKey = "kverifyFindingHash/v1";

// Hands out fingerprints for one run. Identical keys (the same accesses found twice in
// one kernel) get an occurrence number, so every result's fingerprint is distinct.
class Fingerprints {
public:
  Value next(const std::vector<std::string> &parts) {
    std::string key;
    for (const auto &p : parts) key += std::to_string(p.size()) + ":" + p;  // unambiguous
    key += "#" + std::to_string(seen_[key]++);
    std::string hex = llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(key)),
                                  /*LowerCase=*/true);
    return Object{{kFingerprintKey, std::move(hex)}};
  }

private:
  std::map<std::string, unsigned> seen_;
};

std::vector<std::string> finding_key(const analysis::KernelResult &k, const analysis::Finding &f) {
  std::vector<std::string> parts{rule_id(f.kind), k.file, k.name, f.array};
  for (const auto &a : f.accesses) {
    parts.push_back(a.kind);
    parts.push_back(a.text);
  }
  return parts;
}

Value sarif_result(analysis::Verdict kind, const std::string &level, const std::string &text,
                   const model::SourceRange &at, const std::string &file, Value fingerprint) {
  return Object{{"ruleId", rule_id(kind)},
                {"level", level},
                {"message", Object{{"text", text}}},
                {"locations", Array{sarif_location(at, "", file)}},
                {"partialFingerprints", std::move(fingerprint)}};
}

}  // namespace

std::string render_json(const RunResult &run) {
  Array kernels;
  for (const auto &k : run.kernels) kernels.push_back(kernel_json(k));
  Object summary{{"kernels", static_cast<int64_t>(kernel_count(run))}};
  for (const auto &[verdict, n] : verdict_counts(run))
    summary[analysis::verdictName(verdict)] = static_cast<int64_t>(n);
  summary["files_not_parsed"] =
      static_cast<int64_t>(std::count_if(run.kernels.begin(), run.kernels.end(), is_file_error));
  Array skipped;
  for (const auto &s : run.skipped)
    skipped.push_back(range_fields(Object{{"name", s.name}, {"reason", s.reason}}, s.range));
  summary["skipped_templates"] = static_cast<int64_t>(run.skipped.size());
  Array notes;
  for (const auto &n : run.notes)
    notes.push_back(range_fields(Object{{"severity", n.severity}, {"message", n.message}}, n.range));
  Object out{{"kernels", std::move(kernels)},
             {"skipped", std::move(skipped)},
             {"notes", std::move(notes)},
             {"summary", std::move(summary)}};
  if (!run.file_stats.empty()) {
    Array files;
    for (const auto &f : run.file_stats) files.push_back(Object{{"file", f.file}, {"parse_ms", f.parse_ms}});
    out["file_stats"] = std::move(files);
  }
  return pretty(std::move(out));
}

std::string render_sarif(const RunResult &run) {
  Array rules;
  for (auto v : {analysis::Verdict::Race, analysis::Verdict::Divergence, analysis::Verdict::Oob,
                 analysis::Verdict::Unknown, analysis::Verdict::Unsupported, analysis::Verdict::Error,
                 analysis::Verdict::BenignRace, analysis::Verdict::Vacuous})
    rules.push_back(Object{{"id", rule_id(v)},
                           {"name", analysis::verdictName(v)},
                           {"shortDescription", Object{{"text", analysis::verdictName(v)}}}});
  Array results;
  Fingerprints fp;
  for (const auto &k : run.kernels) {
    for (const auto &f : k.findings) {
      model::SourceRange at = f.accesses.empty() ? k.range : f.accesses.front().range;
      Object r = *sarif_result(f.kind, f.kind == analysis::Verdict::BenignRace ? "warning" : "error",
                               f.message + " in kernel '" + k.name + "'; witness: " + witness_line(f), at,
                               k.file, fp.next(finding_key(k, f)))
                      .getAsObject();
      Array related;
      for (std::size_t i = 1; i < f.accesses.size(); ++i) {
        Object loc =
            *sarif_location(f.accesses[i].range, f.accesses[i].kind + ": " + f.accesses[i].text, k.file)
                 .getAsObject();
        loc["id"] = static_cast<int64_t>(i);
        related.push_back(std::move(loc));
      }
      for (const auto &a : f.accesses)  // the calls of inlined device functions around them
        for (const auto &c : a.called_from) {
          Object loc = *sarif_location(c.range, "in the call to '" + c.function + "'", k.file).getAsObject();
          loc["id"] = static_cast<int64_t>(related.size() + 1);
          related.push_back(std::move(loc));
        }
      if (!related.empty()) r["relatedLocations"] = std::move(related);
      r["properties"] = Object{{"kernel", k.name}, {"witness", witness_json(f)}};
      if (f.confirmation.status != analysis::Confirmation::Status::NotAsked)
        (*r["properties"].getAsObject())["confirmation"] = confirmation_json(f.confirmation);
      results.push_back(std::move(r));
    }
    // The unknown query's name is left out of the key: it can carry a line number.
    if (k.verdict == analysis::Verdict::Unknown)
      results.push_back(sarif_result(k.verdict, "warning",
                                     "kernel '" + k.name + "': solver returned unknown " + k.unknown_query,
                                     k.range, k.file, fp.next({rule_id(k.verdict), k.file, k.name})));
    for (const auto &u : k.unreachable)
      if (makes_vacuous(k, u))
        results.push_back(sarif_result(
            analysis::Verdict::Vacuous, "error",
            unreachable_message(k, u) + " (because: " + unreachable_because(u) + ")", u.range, k.file,
            fp.next({rule_id(analysis::Verdict::Vacuous), k.file, k.name, u.kind, u.text})));
    for (const auto &u : k.unsupported)
      results.push_back(sarif_result(analysis::Verdict::Unsupported, "error",
                                     "kernel '" + k.name + "' uses an unsupported construct: " + u.construct,
                                     u.range, k.file,
                                     fp.next({rule_id(analysis::Verdict::Unsupported), k.file, k.name,
                                              u.construct, without_positions(u.detail)})));
    for (const auto &d : k.diagnostics)
      if (d.severity == "error" || d.severity == "fatal")
        results.push_back(sarif_result(
            analysis::Verdict::Error, "error", d.message, d.range, k.file,
            fp.next({rule_id(analysis::Verdict::Error), k.file, k.name, without_positions(d.message)})));
  }
  Object driver{{"name", "kverify"}, {"version", "0.1.0"}, {"rules", std::move(rules)}};
  return pretty(Object{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                       {"version", "2.1.0"},
                       {"runs", Array{Object{{"tool", Object{{"driver", std::move(driver)}}},
                                             {"results", std::move(results)}}}}});
}

}  // namespace kverify::reports
