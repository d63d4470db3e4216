// Reads render_json's output back into a RunResult. Absent optional fields take the
// defaults render_json leaves out; a missing kernel list, kernel name or verdict makes
// the report unreadable. KernelResult::premise_error is not in the JSON: the analysis
// also puts its message among the kernel's diagnostics, which are.
#include "kverify/reports/read_json.hpp"

#include <llvm/Support/JSON.h>

#include <algorithm>

namespace kverify::reports {
namespace {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

std::string text(const Object &o, llvm::StringRef key) { return o.getString(key).value_or("").str(); }

unsigned number(const Object &o, llvm::StringRef key) {
  return static_cast<unsigned>(o.getInteger(key).value_or(0));
}

const Array &list(const Object &o, llvm::StringRef key) {
  static const Array empty;
  const Array *a = o.getArray(key);
  return a ? *a : empty;
}

const Object &object(const Object &o, llvm::StringRef key) {
  static const Object empty;
  const Object *v = o.getObject(key);
  return v ? *v : empty;
}

model::SourceRange range(const Object &o) {
  model::SourceRange r;
  r.file = text(o, "file");
  r.line = number(o, "line");
  r.col = number(o, "col");
  r.end_line = number(o, "end_line");
  r.end_col = number(o, "end_col");
  return r;
}

std::array<uint64_t, 3> triple(const Object &o, llvm::StringRef key) {
  std::array<uint64_t, 3> v{};
  const Array &a = list(o, key);
  for (std::size_t i = 0; i < 3 && i < a.size(); ++i)
    v[i] = static_cast<uint64_t>(a[i].getAsInteger().value_or(0));
  return v;
}

analysis::ThreadCoords thread(const Object &o) { return {triple(o, "threadIdx"), triple(o, "blockIdx")}; }

// Name/value pairs in the order `order` lists them; without it (one pair, or an older
// report) in key order, as render_json writes objects.
std::vector<std::pair<std::string, std::string>> pairs(const Object &values, const Array &order) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Value &name : order) {
    std::string n = name.getAsString().value_or("").str();
    out.emplace_back(n, text(values, n));
  }
  if (order.empty()) {
    for (const auto &[k, v] : values) out.emplace_back(k.str(), v.getAsString().value_or("").str());
    std::sort(out.begin(), out.end());
  }
  return out;
}

analysis::AccessRef access(const Object &o) {
  analysis::AccessRef a{text(o, "kind"), range(o), text(o, "text"), {}};
  for (const Value &c : list(o, "called_from"))
    if (const Object *co = c.getAsObject()) a.called_from.push_back({text(*co, "function"), range(*co)});
  return a;
}

analysis::Witness witness(const Object &o) {
  analysis::Witness w;
  w.thread1 = thread(object(o, "thread1"));
  w.thread2 = thread(object(o, "thread2"));
  w.block_dim = triple(o, "blockDim");
  w.grid_dim = triple(o, "gridDim");
  w.params = pairs(object(o, "params"), list(o, "param_order"));
  for (const Value &v : list(o, "loops"))
    if (const Object *l = v.getAsObject())
      w.loops.push_back({static_cast<unsigned>(l->getInteger("thread").value_or(0)), text(*l, "loop"),
                         static_cast<uint64_t>(l->getInteger("iteration").value_or(0))});
  w.index = text(o, "index");
  w.validated = o.getBoolean("validated").value_or(false);
  for (const Value &v : list(o, "memory"))
    if (const Object *m = v.getAsObject())
      w.memory.push_back(
          {text(*m, "array"), m->getInteger("index").value_or(0), m->getInteger("value").value_or(0)});
  return w;
}

analysis::Confirmation confirmation(const Object &o) {
  analysis::Confirmation c;
  std::string status = text(o, "status");
  for (auto s : {analysis::Confirmation::Status::Confirmed, analysis::Confirmation::Status::NotReproduced,
                 analysis::Confirmation::Status::NotRun})
    if (status == analysis::confirmationName(s)) c.status = s;
  c.tool = text(o, "tool");
  c.detail = text(o, "detail");
  c.program = text(o, "program");
  c.output = text(o, "output");
  return c;
}

bool finding(const Object &o, analysis::Finding &f, std::string &error) {
  std::optional<analysis::Verdict> kind = analysis::verdictFromName(text(o, "kind"));
  if (!kind) return error = "a finding without a known kind", false;
  f.kind = *kind;
  f.array = text(o, "array");
  f.space = text(o, "space");
  f.message = text(o, "message");
  f.explanation = text(o, "explanation");
  for (const Value &a : list(o, "accesses"))
    if (const Object *ao = a.getAsObject()) f.accesses.push_back(access(*ao));
  f.witness = witness(object(o, "witness"));
  f.confirmation = confirmation(object(o, "confirmation"));
  return true;
}

bool kernel(const Object &o, analysis::KernelResult &k, std::string &error) {
  std::optional<analysis::Verdict> v = analysis::verdictFromName(text(o, "verdict"));
  if (!o.getString("name") || !v) return error = "a kernel without a name or a known verdict", false;
  k.file = text(o, "file");
  k.name = text(o, "name");
  k.range = range(o);  // the kernel's own line, col and end sit next to its file
  k.verdict = *v;
  k.time_ms = o.getNumber("time_ms").value_or(0);
  for (const Value &f : list(o, "findings")) {
    const Object *fo = f.getAsObject();
    if (!fo) return error = "a finding that is not an object", false;
    if (!finding(*fo, k.findings.emplace_back(), error)) return false;
  }
  for (const Value &p : list(o, "phases"))
    if (const Object *po = p.getAsObject())
      k.phases.push_back({range(object(*po, "begin")), range(object(*po, "end")), number(*po, "accesses")});
  for (const Value &a : list(o, "assumptions"))
    if (const Object *ao = a.getAsObject()) {
      analysis::Assumption as{analysis::Assumption::Kind::Premise, text(*ao, "text")};
      for (auto kind : {analysis::Assumption::Kind::Launch, analysis::Assumption::Kind::Assumed,
                        analysis::Assumption::Kind::NotChecked})
        if (text(*ao, "kind") == analysis::assumptionKindName(kind)) as.kind = kind;
      k.assumptions.push_back(as);
    }
  for (const Value &u : list(o, "unsupported"))
    if (const Object *uo = u.getAsObject())
      k.unsupported.push_back({text(*uo, "construct"), text(*uo, "detail"), range(*uo)});
  k.unknown_query = text(o, "unknown_query");
  k.out_of_time = o.getBoolean("out_of_time").value_or(false);
  k.out_of_memory = o.getBoolean("out_of_memory").value_or(false);
  for (const Value &q : list(o, "undecided"))
    if (std::optional<llvm::StringRef> s = q.getAsString()) k.undecided.push_back(s->str());
  if (const Object *rules = o.getObject("rules"))
    for (size_t i = 0; i < analysis::kRules; ++i)
      k.rules.n[i] = number(*rules, analysis::ruleName(static_cast<analysis::Rule>(i)));
  for (const Value &u : list(o, "unreachable"))
    if (const Object *uo = u.getAsObject()) {
      analysis::UnreachableRef r;
      static_cast<analysis::AccessRef &>(r) = access(*uo);
      for (const Value &b : list(*uo, "because")) r.because.push_back(b.getAsString().value_or("").str());
      r.by_construction = uo->getBoolean("by_construction").value_or(false);
      k.unreachable.push_back(std::move(r));
    }
  for (const Value &d : list(o, "diagnostics"))
    if (const Object *dobj = d.getAsObject())
      k.diagnostics.push_back({text(*dobj, "severity"), text(*dobj, "message"), range(*dobj)});
  return true;
}

}  // namespace

std::optional<analysis::RunResult> read_json(const std::string &json, std::string &error) {
  llvm::Expected<Value> parsed = llvm::json::parse(json);
  if (!parsed) {
    error = llvm::toString(parsed.takeError());
    return std::nullopt;
  }
  const Object *root = parsed->getAsObject();
  const Array *kernels = root ? root->getArray("kernels") : nullptr;
  if (!kernels) {
    error = "not a kverify report: no \"kernels\" list";
    return std::nullopt;
  }
  analysis::RunResult run;
  for (const Value &k : *kernels) {
    const Object *ko = k.getAsObject();
    if (!ko) {
      error = "a kernel that is not an object";
      return std::nullopt;
    }
    if (!kernel(*ko, run.kernels.emplace_back(), error)) return std::nullopt;
  }
  for (const Value &s : list(*root, "skipped"))
    if (const Object *so = s.getAsObject())
      run.skipped.push_back({text(*so, "name"), text(*so, "reason"), range(*so)});
  for (const Value &n : list(*root, "notes"))
    if (const Object *no = n.getAsObject())
      run.notes.push_back({text(*no, "severity"), text(*no, "message"), range(*no)});
  return run;
}

}  // namespace kverify::reports
