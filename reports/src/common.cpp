#include <algorithm>
#include "common.hpp"

#include <set>
#include <sstream>

namespace kverify::reports {

std::string triple(const std::array<uint64_t, 3> &v) {
  std::ostringstream os;
  os << "(" << v[0] << "," << v[1] << "," << v[2] << ")";
  return os.str();
}

std::string witness_line(const analysis::Finding &f) {
  const auto &w = f.witness;
  std::ostringstream os;
  os << "thread " << triple(w.thread1.thread_idx) << " of block " << triple(w.thread1.block_idx);
  if (f.kind != analysis::Verdict::Oob)
    os << " and thread " << triple(w.thread2.thread_idx) << " of block " << triple(w.thread2.block_idx);
  os << "; blockDim=" << triple(w.block_dim) << " gridDim=" << triple(w.grid_dim);
  for (const auto &[name, value] : w.params) os << "; " << name << "=" << value;
  for (const analysis::LoopIteration &l : w.loops) os << "; " << l.name() << "=" << l.iteration;
  if (!w.index.empty()) os << "; index " << w.index;
  // the loaded values it rests on, a few (the JSON report has them all)
  for (std::size_t i = 0; i < w.memory.size() && i < 4; ++i)
    os << (i ? ", " : "; memory ") << w.memory[i].array << "[" << w.memory[i].index
       << "]=" << w.memory[i].value;
  if (w.memory.size() > 4) os << ", ...";
  return os.str();
}

std::string location(const model::SourceRange &r) {
  std::ostringstream os;
  os << r.file << ":" << r.line << ":" << r.col;
  return os.str();
}

bool is_file_error(const analysis::KernelResult &k) { return k.name == "<file>"; }

std::map<analysis::Verdict, unsigned> verdict_counts(const analysis::RunResult &run) {
  std::map<analysis::Verdict, unsigned> counts;
  for (const auto &k : run.kernels)
    if (!is_file_error(k)) ++counts[k.verdict];
  return counts;
}

unsigned kernel_count(const analysis::RunResult &run) {
  return std::count_if(run.kernels.begin(), run.kernels.end(),
                       [](const analysis::KernelResult &k) { return !is_file_error(k); });
}

std::string unreachable_what(const analysis::UnreachableRef &u) {
  return (u.kind == "barrier" ? "" : u.kind + " ") + u.text;
}

std::string unreachable_because(const analysis::UnreachableRef &u) {
  std::string out;
  for (const auto &b : u.because) out += (out.empty() ? "" : "; ") + b;
  return out;
}

bool makes_vacuous(const analysis::KernelResult &k, const analysis::UnreachableRef &u) {
  return k.verdict == analysis::Verdict::Vacuous && !u.by_construction;
}

std::string unreachable_message(const analysis::KernelResult &k, const analysis::UnreachableRef &u) {
  std::string who = "kernel '" + k.name + "'";
  if (u.by_construction)
    return unreachable_what(u) + " in " + who + " is dead code (" + unreachable_because(u) + "): not checked";
  std::string msg = unreachable_what(u) + " in " + who +
                    " is never reached by any thread under the launch and the assumptions";
  if (makes_vacuous(k, u)) return msg + ": a proof about it is vacuous";
  if (k.verdict == analysis::Verdict::Verified) return msg + " (allowed: --allow-unreachable)";
  return msg;
}

std::string xml_escape(const std::string &s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') break;  // not XML 1.0
        out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace kverify::reports
