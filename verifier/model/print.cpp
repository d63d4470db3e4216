#include "model/print.hpp"

#include <sstream>

namespace kverify::model {
namespace {

struct Printer {
  const Kernel &k;
  std::ostringstream os;

  void line(int depth, const std::string &text) { os << std::string(2 * depth, ' ') << text << "\n"; }
  std::string local(const Local &l) { return l.name; }

  void block(const Body &body, int depth) {
    for (const Stmt &s : body) stmt(s, depth);
  }

  void stmt(const Stmt &s, int d) {
    std::visit(Overloaded{
                   [&](const stmt::Access &a) { access(s, a, d); },
                   [&](const stmt::Barrier &b) {
                     std::string t = std::string("barrier ") + barrierKindName(b.kind) + " " + b.what;
                     if (b.mask) t += " mask=" + toString(b.mask);
                     if (b.predicate) t += " pred=" + toString(b.predicate);
                     line(d, t);
                   },
                   [&](const stmt::Fence &f) { line(d, std::string("fence ") + scopeName(f.scope)); },
                   [&](const stmt::If &i) {
                     line(d, "if (" + toString(i.cond) + ") {");
                     block(i.then_body, d + 1);
                     if (!i.else_body.empty()) {
                       line(d, "} else {");
                       block(i.else_body, d + 1);
                     }
                     line(d, "}");
                   },
                   [&](const stmt::Loop &l) {
                     line(d, std::string(loopKindName(l.kind)) + " (" + (l.cond ? toString(l.cond) : "true") +
                                 ") {");
                     block(l.body, d + 1);
                     if (!l.step.empty()) {
                       line(d, "} step {");
                       block(l.step, d + 1);
                     }
                     line(d, "}");
                   },
                   [&](const stmt::Assign &a) { line(d, local(a.local) + " = " + toString(a.value)); },
                   [&](const stmt::Assume &a) {
                     std::string vars;
                     for (const Local &l : a.forall) vars += (vars.empty() ? "" : ", ") + l.name;
                     line(d, "assume " +
                                 (vars.empty() ? ""
                                               : "forall " + vars + " in [" + toString(a.lo) + ", " +
                                                     toString(a.hi) + "): ") +
                                 toString(a.cond));
                   },
                   [&](const stmt::Return &) { line(d, "return"); },
                   [&](const stmt::Break &) { line(d, "break"); },
                   [&](const stmt::Continue &) { line(d, "continue"); },
                   [&](const stmt::Inlined &c) {
                     line(d, "inlined " + c.function + " {");
                     block(c.body, d + 1);
                     line(d, "}");
                   },
               },
               s.node);
  }

  void access(const Stmt &s, const stmt::Access &a, int d) {
    std::string t =
        std::string(accessKindName(a.kind)) + " " + k.arrays[a.array].name + "[" + toString(a.index) + "]";
    if (a.count != 1) t += " x" + std::to_string(a.count);
    if (a.kind == AccessKind::Atomic)
      t += std::string(" ") + atomicOpName(a.atomic) +
           (a.scope == Scope::Device ? "" : std::string("_") + scopeName(a.scope));
    if (a.value) t += " " + toString(a.value);
    if (a.order) t += " order " + toString(a.order);
    line(d, t + "  // " + a.text + " @" + std::to_string(s.range.line) + ":" + std::to_string(s.range.col) +
                " #" + std::to_string(a.id));
  }

  void kernel() {
    os << "kernel " << k.name << "(";
    for (size_t i = 0; i < k.params.size(); ++i)
      os << (i ? ", " : "") << k.params[i].name << ": " << k.params[i].c_type;
    os << ")\n";
    for (const Array &a : k.arrays) {
      std::string dims;
      for (uint64_t d : a.dims) dims += "[" + std::to_string(d) + "]";
      if (a.is_extern) dims += "[]";
      line(1, std::string("array ") + a.name + ": " + addressSpaceName(a.space) + " " + a.elem_c_type + dims +
                  (a.is_const ? " const" : "") + (a.by_bytes ? " (in bytes)" : ""));
    }
    for (const Unsupported &u : k.unsupported)
      line(1, "unsupported " + u.construct + " @" + std::to_string(u.range.line) + ":" +
                  std::to_string(u.range.col) + ": " + u.detail);
    if (!k.options.empty()) line(1, "options " + k.options);
    line(0, "{");
    block(k.body, 1);
    line(0, "}");
  }
};

}  // namespace

std::string toText(const Kernel &k) {
  Printer p{k, {}};
  p.kernel();
  return p.os.str();
}

std::string toText(const TranslationUnitModel &tu) {
  std::string out;
  for (const Kernel &k : tu.kernels) out += toText(k);
  for (const SkippedKernel &s : tu.skipped) out += "skipped " + s.name + ": " + s.reason + "\n";
  return out;
}

}  // namespace kverify::model
