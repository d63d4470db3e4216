// Embedded CUDA sources and their launches (see extract.hpp).
#include "python/extract.hpp"

#include "python/cupy_kernels.hpp"
#include "python/kernel_uses.hpp"

#include <map>
#include <set>

namespace kverify::python {
namespace {

std::string lastPart(const std::string &callee) { return callee.substr(callee.rfind('.') + 1); }
std::string prefixPart(const std::string &callee) {
  size_t dot = callee.rfind('.');
  return dot == std::string::npos ? "" : callee.substr(0, dot);
}

// An argument by keyword, else by position among the positional ones.
const Call::Arg *argument(const Call &c, int position, const char *keyword) {
  for (const Call::Arg &a : c.args)
    if (!a.starred && a.keyword == keyword) return &a;
  int k = 0;
  for (const Call::Arg &a : c.args) {
    if (!a.keyword.empty() || a.starred) continue;
    if (k++ == position) return &a;
  }
  return nullptr;
}

bool hasStarred(const Call &c) {
  for (const Call::Arg &a : c.args)
    if (a.starred) return true;
  return false;
}

// A launch's block= or grid= value; what is there but not read (a name kverify cannot
// follow, a number past 64 bits) is named in `unread` ("block", "grid.y").
Dims dimsOf(const Value &v, const char *what, std::vector<std::string> &unread) {
  Dims d;
  if (v.kind == Value::Kind::Int) {
    d = {v.num, 1, 1};
  } else if (v.kind == Value::Kind::Tuple && !v.items.empty() && v.items.size() <= 3) {
    for (size_t k = 0; k < 3; ++k) {
      if (k >= v.items.size())
        d[k] = 1;
      else if (v.items[k].kind == Value::Kind::Int)
        d[k] = v.items[k].num;
      else
        unread.push_back(std::string(what) + "." + "xyz"[k]);
    }
  } else {
    unread.push_back(what);
  }
  return d;
}

// What a name is bound to: a module (SourceModule, RawModule) or a kernel function.
struct Object {
  size_t source = 0;
  bool module = false;
  std::string kernel;  // functions: the kernel name ("" for ElementwiseKernel-like ones)
};

class Extractor {
public:
  explicit Extractor(const Module &m) : m_(m) {}

  std::vector<EmbeddedSource> run() {
    for (const Statement &s : m_.statements())
      for (const Call &c : m_.calls(s))
        if (!c.result_of && isKernelConstructor(c.callee)) constructor(s, c);
    for (const Statement &s : m_.statements())
      for (const Call &c : m_.calls(s))
        if (!c.result_of && lastPart(c.callee) == "get_function") getFunction(s, c);
    for (const Statement &s : m_.statements()) {
      std::vector<Call> calls = m_.calls(s);
      for (const Call &c : calls) launch(s, c, calls);
    }
    unreadLaunches();
    return std::move(out_);
  }

private:
  size_t index(const Statement &s) const { return static_cast<size_t>(&s - m_.statements().data()); }
  unsigned lineOf(const Statement &s) const { return m_.tokens()[s.begin].begin.line; }

  void bindResult(const Statement &s, const Call &c, Object o) {
    std::optional<std::string> target = m_.assignedTo(s, c.name_begin);
    if (target && c.close + 1 == s.end) objects_[{index(s), *target}] = o;
  }

  std::optional<Object> resolve(const std::string &name, size_t scope) const {
    const std::vector<Binding> *b = m_.bindings(name, scope);
    if (!b || b->size() != 1) return std::nullopt;
    auto it = objects_.find({(*b)[0].statement, name});
    if (it == objects_.end()) return std::nullopt;
    return it->second;
  }

  // A string argument's value; on failure sets e.unsupported.
  std::optional<SourcedText> text(const Statement &s, const Call &c, int position, const char *keyword,
                                  EmbeddedSource &e, bool required, const char *what) {
    const Call::Arg *a = argument(c, position, keyword);
    if (!a) {
      if (required && e.unsupported.empty())
        e.unsupported = hasStarred(c) ? std::string("the ") + what + " is passed with * or ** (not evaluated)"
                                      : std::string("no ") + what + " given";
      return std::nullopt;
    }
    const Token &first = m_.tokens()[a->begin];
    if (first.begin.line != lineOf(s)) optionsAbove(e, first.begin.line);
    if (a->end == a->begin + 1 && first.kind == TokenKind::Name)
      if (const std::vector<Binding> *b = m_.bindings(first.text, s.scope); b && b->size() == 1)
        optionsAbove(e, m_.tokens()[m_.statements()[(*b)[0].statement].begin].begin.line);
    Value v = m_.evaluate(a->begin, a->end, s.scope);
    if (v.kind == Value::Kind::None && !required) return SourcedText{};
    if (!v.known()) {
      if (e.unsupported.empty()) e.unsupported = std::string("the ") + what + " cannot be read: " + v.why;
      return std::nullopt;
    }
    if (v.kind != Value::Kind::Str) {
      if (e.unsupported.empty()) e.unsupported = std::string("the ") + what + " is not a string";
      return std::nullopt;
    }
    return v.str;
  }

  // The `# kverify:` comments above `line`, once per line (several arguments may start on it).
  void optionsAbove(EmbeddedSource &e, unsigned line) {
    if (option_lines_.insert(line).second) addOptions(e, m_.optionsAbove(line));
  }

  static void addOptions(EmbeddedSource &e, const std::string &o) {
    if (!o.empty()) e.options += (e.options.empty() ? "" : " ") + o;
  }

  void constructor(const Statement &s, const Call &c) {
    EmbeddedSource e;
    e.api = lastPart(c.callee);
    e.at = c.pos;
    e.end = m_.tokens()[c.close].begin;
    option_lines_.clear();
    optionsAbove(e, lineOf(s));
    Object o;
    o.source = out_.size();
    if (e.api == "SourceModule") {
      o.module = true;
      if (auto src = text(s, c, 0, "source", e, true, "source")) {
        bool extern_c = true;
        if (const Call::Arg *a = argument(c, 4, "no_extern_c")) {
          Value v = m_.evaluate(a->begin, a->end, s.scope);
          if (v.kind != Value::Kind::Bool && v.kind != Value::Kind::Int)
            e.unsupported = "no_extern_c cannot be read: " + (v.known() ? std::string("not a bool") : v.why);
          extern_c = v.num == 0;
        }
        // pycuda.compiler.SourceModule wraps the source unless no_extern_c=True
        if (extern_c) e.cuda.append("extern \"C\" {\n", c.pos);
        e.cuda.append(*src);
        if (extern_c) e.cuda.append("\n}\n", e.end);
      }
    } else if (e.api == "RawKernel") {
      auto src = text(s, c, 0, "code", e, true, "source");
      auto name = text(s, c, 1, "name", e, true, "kernel name");
      if (src && name) {
        e.cuda = *src;
        e.kernel = name->text;
        o.kernel = e.kernel;
      }
    } else if (e.api == "RawModule") {
      o.module = true;
      if (argument(c, 99, "path"))
        e.unsupported = "RawModule(path=...) loads a compiled file; kverify reads only code=";
      else if (auto src = text(s, c, 99, "code", e, true, "source"))
        e.cuda = *src;
    } else if (e.api == "ElementwiseKernel") {
      ElementwiseSpec spec;
      spec.at = c.pos;
      auto in = text(s, c, 0, "in_params", e, true, "in_params");
      auto outp = text(s, c, 1, "out_params", e, true, "out_params");
      auto op = text(s, c, 2, "operation", e, true, "operation");
      auto name = text(s, c, 3, "name", e, false, "name");
      auto pre = text(s, c, 5, "preamble", e, false, "preamble");
      auto prep = text(s, c, 99, "loop_prep", e, false, "loop_prep");
      auto after = text(s, c, 99, "after_loop", e, false, "after_loop");
      if (e.unsupported.empty() && in && outp && op) {
        spec.in_params = *in;
        spec.out_params = *outp;
        spec.operation = *op;
        if (name && !name->text.empty()) spec.name = name->text;
        if (pre) spec.preamble = *pre;
        if (prep) spec.loop_prep = *prep;
        if (after) spec.after_loop = *after;
        std::string error;
        e.cuda = elementwiseKernel(spec, error);
        e.unsupported = error;
        e.kernel = spec.name;
        addOptions(e, elementwiseLaunchOptions());
      }
    } else if (e.api == "ReductionKernel") {
      ReductionSpec spec;
      spec.at = c.pos;
      auto in = text(s, c, 0, "in_params", e, true, "in_params");
      auto outp = text(s, c, 1, "out_params", e, true, "out_params");
      auto map = text(s, c, 2, "map_expr", e, true, "map_expr");
      auto reduce = text(s, c, 3, "reduce_expr", e, true, "reduce_expr");
      auto post = text(s, c, 4, "post_map_expr", e, true, "post_map_expr");
      auto identity = text(s, c, 5, "identity", e, false, "identity");
      auto name = text(s, c, 6, "name", e, false, "name");
      auto type = text(s, c, 7, "reduce_type", e, false, "reduce_type");
      auto pre = text(s, c, 9, "preamble", e, false, "preamble");
      if (e.unsupported.empty() && in && outp && map && reduce && post) {
        spec.in_params = *in;
        spec.out_params = *outp;
        spec.map_expr = *map;
        spec.reduce_expr = *reduce;
        spec.post_map_expr = *post;
        if (identity) spec.identity = *identity;
        if (name && !name->text.empty()) spec.name = name->text;
        if (type) spec.reduce_type = type->text;
        if (pre) spec.preamble = *pre;
        std::string error;
        e.cuda = reductionKernel(spec, error);
        e.unsupported = error;
        e.kernel = spec.name;
        addOptions(e, reductionLaunchOptions());
      }
    }
    if (!e.unsupported.empty()) e.cuda = {};
    o.kernel = e.kernel;
    bindResult(s, c, o);
    out_.push_back(std::move(e));
  }

  void getFunction(const Statement &s, const Call &c) {
    std::optional<Object> mod = resolve(prefixPart(c.callee), s.scope);
    if (!mod || !mod->module) return;
    const Call::Arg *a = argument(c, 0, "name");
    if (!a) return;
    Value v = m_.evaluate(a->begin, a->end, s.scope);
    if (v.kind != Value::Kind::Str) return;
    bindResult(s, c, Object{mod->source, false, v.str.text});
  }

  void launch(const Statement &s, const Call &c, const std::vector<Call> &calls) {
    std::optional<Object> fn;
    bool prepared = false;
    if (c.result_of) {  // mod.get_function("f")(...)
      const Call &g = calls[*c.result_of];
      if (lastPart(g.callee) != "get_function" || g.result_of) return;
      std::optional<Object> mod = resolve(prefixPart(g.callee), s.scope);
      const Call::Arg *a = argument(g, 0, "name");
      if (!mod || !mod->module || !a) return;
      Value v = m_.evaluate(a->begin, a->end, s.scope);
      if (v.kind != Value::Kind::Str) return;
      fn = Object{mod->source, false, v.str.text};
    } else if (lastPart(c.callee) == "prepared_call" || lastPart(c.callee) == "prepared_timed_call" ||
               lastPart(c.callee) == "prepared_async_call") {
      fn = resolve(prefixPart(c.callee), s.scope);
      prepared = true;
    } else {
      fn = resolve(c.callee, s.scope);
    }
    if (!fn || fn->module) return;
    EmbeddedSource &e = out_[fn->source];
    if (e.api == "ElementwiseKernel" || e.api == "ReductionKernel") return;  // CuPy picks the launch
    Launch l;
    l.at = c.pos;
    l.options = m_.optionsAbove(lineOf(s));
    // (after a *args, the positions are unknown; a **kwargs may hold grid=)
    auto read = [&](int position, const char *keyword) -> Dims {
      const Call::Arg *a = argument(c, hasStarred(c) ? 99 : position, keyword);
      if (!a) return {};
      return dimsOf(m_.evaluate(a->begin, a->end, s.scope), keyword, l.unread);
    };
    if (e.api == "SourceModule" && !prepared) {
      l.block = read(99, "block");
      bool pycuda_default = !argument(c, 99, "grid") && !hasStarred(c);
      l.grid = pycuda_default ? Dims{1, 1, 1} : read(99, "grid");  // PyCUDA's default
    } else {
      l.grid = read(0, "grid");
      l.block = read(1, "block");
    }
    e.launches.emplace_back(fn->kernel, l);
    read_launches_.insert(c.open);
  }

  // Every other use of a kernel object may launch it unseen: a launch of unknown shape
  // (CuPy picks the launch of ElementwiseKernel and ReductionKernel, whoever calls them).
  void unreadLaunches() {
    std::vector<KernelObject> objects;
    for (const auto &[where, o] : objects_)
      if (out_[o.source].api != "ElementwiseKernel" && out_[o.source].api != "ReductionKernel")
        objects.push_back(KernelObject{where.first, where.second, o.source, o.module, o.kernel});
    for (const UnreadUse &u : unreadUses(m_, objects, read_launches_)) {
      Launch l;
      l.at = u.at;
      l.options = m_.optionsAbove(u.at.line);
      out_[u.source].launches.emplace_back(u.kernel, l);
    }
  }

  const Module &m_;
  std::vector<EmbeddedSource> out_;
  std::map<std::pair<size_t, std::string>, Object> objects_;
  std::set<unsigned> option_lines_;  // lines whose comments the current source has read
  std::set<size_t> read_launches_;   // the `(` of each launch read
};

}  // namespace

bool isKernelConstructor(const std::string &callee) {
  static const std::set<std::string> names = {"SourceModule", "RawKernel", "RawModule", "ElementwiseKernel",
                                              "ReductionKernel"};
  return names.count(lastPart(callee)) > 0;
}

std::string Launch::optionText() const {
  static const char *axis[] = {"x", "y", "z"};
  std::string flags, assume;
  auto add = [&](const Dims &d, const char *flag, const char *builtin) {
    if (d[0] && d[1] && d[2]) {
      flags += std::string(flags.empty() ? "" : " ") + "--" + flag + "=" + std::to_string(*d[0]) + "," +
               std::to_string(*d[1]) + "," + std::to_string(*d[2]);
      return;
    }
    for (int k = 0; k < 3; ++k)
      if (d[k])
        assume += std::string(assume.empty() ? "" : " && ") + builtin + "." + axis[k] +
                  " == " + std::to_string(*d[k]);
  };
  add(block, "block-dim", "blockDim");
  add(grid, "grid-dim", "gridDim");
  if (!assume.empty()) flags += std::string(flags.empty() ? "" : " ") + "--assume='" + assume + "'";
  return flags;
}

std::vector<EmbeddedSource> extractSources(const Module &m) { return Extractor(m).run(); }

}  // namespace kverify::python
