#include "model/print.hpp"

#include <sstream>

namespace kverify::model {
namespace {

struct Printer {
  const Kernel &k;
  std::ostringstream os;

  void line(int depth, const std::string &text) {
    os << std::string(2 * depth, ' ') << text << "\n";
  }
  std::string local(const Local &l) { return l.name; }

  void block(const std::vector<Stmt> &body, int depth) {
    for (const Stmt &s : body)
      stmt(s, depth);
  }

  void stmt(const Stmt &s, int d) {
    switch (s.kind) {
    case Stmt::Kind::Access: {
      std::string t = std::string(accessKindName(s.access)) + " " + k.arrays[s.array].name +
                      "[" + toString(s.index) + "]";
      if (s.count != 1)
        t += " x" + std::to_string(s.count);
      if (!s.atomic_op.empty())
        t += " " + s.atomic_op;
      if (s.value)
        t += " " + toString(s.value);
      line(d, t + "  // " + s.text + " @" + std::to_string(s.range.line) + ":" +
                  std::to_string(s.range.col) + " #" + std::to_string(s.id));
      break;
    }
    case Stmt::Kind::Barrier: {
      std::string t = std::string("barrier ") + barrierKindName(s.barrier) + " " + s.what;
      if (s.mask)
        t += " mask=" + toString(s.mask);
      if (s.cond)
        t += " pred=" + toString(s.cond);
      line(d, t);
      break;
    }
    case Stmt::Kind::Fence:
      line(d, std::string("fence ") + fenceScopeName(s.fence));
      break;
    case Stmt::Kind::If:
      line(d, "if (" + toString(s.cond) + ") {");
      block(s.then_body, d + 1);
      if (!s.else_body.empty()) {
        line(d, "} else {");
        block(s.else_body, d + 1);
      }
      line(d, "}");
      break;
    case Stmt::Kind::Loop:
      line(d, std::string(loopKindName(s.loop)) + " (" + (s.cond ? toString(s.cond) : "true") +
                  ") {");
      block(s.body, d + 1);
      if (!s.step.empty()) {
        line(d, "} step {");
        block(s.step, d + 1);
      }
      line(d, "}");
      break;
    case Stmt::Kind::Assign:
      line(d, local(s.local) + " = " + toString(s.value));
      break;
    case Stmt::Kind::Assume:
      line(d, "assume " + toString(s.cond));
      break;
    case Stmt::Kind::Return: line(d, "return"); break;
    case Stmt::Kind::Break: line(d, "break"); break;
    case Stmt::Kind::Continue: line(d, "continue"); break;
    case Stmt::Kind::Inlined:
      line(d, "inlined " + s.function + " {");
      block(s.body, d + 1);
      line(d, "}");
      break;
    }
  }

  void kernel() {
    os << "kernel " << k.name << "(";
    for (size_t i = 0; i < k.params.size(); ++i)
      os << (i ? ", " : "") << k.params[i].name << ": " << k.params[i].c_type;
    os << ")\n";
    for (const Array &a : k.arrays) {
      std::string dims;
      for (uint64_t d : a.dims)
        dims += "[" + std::to_string(d) + "]";
      if (a.is_extern)
        dims += "[]";
      line(1, std::string("array ") + a.name + ": " + addressSpaceName(a.space) + " " +
                  a.elem_c_type + dims + (a.is_const ? " const" : ""));
    }
    for (const Unsupported &u : k.unsupported)
      line(1, "unsupported " + u.construct + " @" + std::to_string(u.range.line) + ":" +
                  std::to_string(u.range.col) + ": " + u.detail);
    if (!k.options.empty())
      line(1, "options " + k.options);
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
  for (const Kernel &k : tu.kernels)
    out += toText(k);
  for (const SkippedKernel &s : tu.skipped)
    out += "skipped " + s.name + ": " + s.reason + "\n";
  return out;
}

}  // namespace kverify::model
