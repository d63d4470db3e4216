// Uses of kernel objects that are no launch kverify reads (see kernel_uses.hpp).
#include "python/kernel_uses.hpp"

#include <algorithm>

namespace kverify::python {
namespace {

bool isOp(const Token &t, const char *op) { return t.kind == TokenKind::Op && t.text == op; }
bool isName(const Token &t, const char *n) { return t.kind == TokenKind::Name && t.text == n; }

std::string lastPart(const std::string &name) { return name.substr(name.rfind('.') + 1); }

// Attributes whose use neither launches the kernel nor lets it out: PyCUDA's Function
// (attributes, cache and shared memory settings) and CuPy's RawKernel and RawModule.
const std::set<std::string> kKernelAttributes = {"num_regs",
                                                 "shared_size_bytes",
                                                 "local_size_bytes",
                                                 "const_size_bytes",
                                                 "max_threads_per_block",
                                                 "get_attribute",
                                                 "set_attribute",
                                                 "set_cache_config",
                                                 "set_shared_config",
                                                 "attributes",
                                                 "compile",
                                                 "name",
                                                 "code",
                                                 "options",
                                                 "max_dynamic_shared_size_bytes",
                                                 "preferred_shared_memory_carveout"};
const std::set<std::string> kModuleAttributes = {"get_global", "get_texref", "get_surfref",     "compile",
                                                 "code",       "options",    "name_expressions"};
const std::set<std::string> kPreparedLaunches = {"prepared_call", "prepared_timed_call",
                                                 "prepared_async_call"};
// Names that look variables up by a computed name.
const std::set<std::string> kDynamicLookups = {"globals", "locals", "vars", "eval", "exec", "__dict__"};

class Uses {
public:
  Uses(const Module &m, const std::vector<KernelObject> &objects, const std::set<size_t> &read_launches)
      : m_(m), t_(m.tokens()), objects_(objects), read_(read_launches) {}

  std::vector<UnreadUse> run() {
    for (size_t si = 0; si < m_.statements().size(); ++si) {
      const Statement &s = m_.statements()[si];
      if (bindsOnly(s)) continue;
      for (size_t k = s.begin; k < s.end; ++k) {
        if (t_[k].kind != TokenKind::Name) continue;
        dynamicLookup(s, k);
        for (const KernelObject &o : objects_)
          if (usedAt(o, s, k) && !readable(o, si, s, k)) unread(o, o.module ? "" : o.kernel, t_[k].begin);
      }
    }
    return std::move(out_);
  }

private:
  const Module &m_;
  const std::vector<Token> &t_;
  const std::vector<KernelObject> &objects_;
  const std::set<size_t> &read_;
  std::vector<UnreadUse> out_;

  void unread(const KernelObject &o, const std::string &kernel, Pos at) {
    out_.push_back({o.source, kernel, at});
  }

  // import, global, nonlocal, del: names there are no uses of a value
  bool bindsOnly(const Statement &s) const {
    const Token &first = t_[s.begin];
    return isName(first, "import") || isName(first, "from") || isName(first, "global") ||
           isName(first, "nonlocal") || isName(first, "del");
  }

  // Whether the name at token k (in statement s) may be object o: its own name where that
  // binding is visible, or for an attribute (self.k) any attribute of that name.
  bool usedAt(const KernelObject &o, const Statement &s, size_t k) const {
    if (t_[k].text != lastPart(o.name)) return false;
    bool attribute = k > s.begin && isOp(t_[k - 1], ".");
    if (k + 1 < s.end && isOp(t_[k + 1], "=")) return false;  // a target or a keyword
    if (k > s.begin && (isName(t_[k - 1], "def") || isName(t_[k - 1], "class") || isName(t_[k - 1], "as") ||
                        isName(t_[k - 1], "for")))
      return false;
    if (parameterOfDef(s, k)) return false;
    if (o.name.find('.') != std::string::npos) return attribute;
    if (attribute) return false;
    const std::vector<Binding> *b = m_.bindings(o.name, s.scope);
    return b &&
           std::any_of(b->begin(), b->end(), [&](const Binding &x) { return x.statement == o.statement; });
  }

  // A parameter a def header declares (`def run(k, *ks):`): a new name, no use.
  bool parameterOfDef(const Statement &s, size_t k) const {
    size_t b = s.begin + (isName(t_[s.begin], "async") ? 1 : 0);
    if (!isName(t_[b], "def")) return false;
    int depth = 0;
    for (size_t p = b; p < k; ++p) {
      if (isOp(t_[p], "(") || isOp(t_[p], "[") || isOp(t_[p], "{"))
        ++depth;
      else if (isOp(t_[p], ")") || isOp(t_[p], "]") || isOp(t_[p], "}"))
        --depth;
    }
    const Token &prev = t_[k - 1];
    return depth == 1 && (isOp(prev, "(") || isOp(prev, ",") || isOp(prev, "*") || isOp(prev, "**"));
  }

  const Call *callOpeningAt(const Statement &s, size_t open, std::vector<Call> &calls) const {
    calls = m_.calls(s);
    for (const Call &c : calls)
      if (c.open == open) return &c;
    return nullptr;
  }

  // A use at token k that is a launch kverify read, or harmless.
  bool readable(const KernelObject &o, size_t si, const Statement &s, size_t k) {
    size_t j = k + 1;
    if (j < s.end && isOp(t_[j], "(")) return !o.module && read_.count(j);
    if (!(j + 1 < s.end && isOp(t_[j], ".") && t_[j + 1].kind == TokenKind::Name)) return false;
    const std::string &attr = t_[j + 1].text;
    size_t after = j + 2;
    if (o.module) {
      if (attr == "get_function") return getFunction(o, si, s, after);
      return kModuleAttributes.count(attr) > 0;
    }
    if (kPreparedLaunches.count(attr)) return read_.count(after) > 0;
    if (attr == "prepare") {  // returns the function itself: fine only where that is dropped
      std::vector<Call> calls;
      const Call *c = callOpeningAt(s, after, calls);
      return c && c->name_begin == s.begin && c->close + 1 == s.end;
    }
    return kKernelAttributes.count(attr) > 0;
  }

  // mod.get_function(name) with its `(` at `open`: fine where the function it returns is a
  // tracked object or launched right there (a launch that was read).
  bool getFunction(const KernelObject &o, size_t si, const Statement &s, size_t open) {
    std::vector<Call> calls;
    const Call *c = callOpeningAt(s, open, calls);
    const Call::Arg *name = nullptr;
    if (c)
      for (const Call::Arg &a : c->args)
        if (!a.starred && (a.keyword == "name" || (a.keyword.empty() && &a == &c->args.front()))) name = &a;
    Value v = name ? m_.evaluate(name->begin, name->end, s.scope) : Value::unknown("no name", {});
    if (!c || v.kind != Value::Kind::Str) return false;  // any kernel of the module
    const std::string &kernel = v.str.text;
    bool fine = false;
    if (c->close + 1 < s.end && isOp(t_[c->close + 1], "(")) {
      fine = read_.count(c->close + 1) > 0;
    } else if (std::optional<std::string> target = m_.assignedTo(s, c->name_begin);
               target && c->close + 1 == s.end) {
      fine = std::any_of(objects_.begin(), objects_.end(),
                         [&](const KernelObject &x) { return x.statement == si && x.name == *target; });
    }
    if (!fine) unread(o, kernel, t_[c->name_begin].begin);
    return true;
  }

  // getattr(x, name) with a name that may be an object's, globals(), eval(...): every object
  // such a lookup may reach is used in an unknown way.
  void dynamicLookup(const Statement &s, size_t k) {
    bool attribute = k > s.begin && isOp(t_[k - 1], ".");
    if (kDynamicLookups.count(t_[k].text) && (!attribute || t_[k].text == "__dict__")) {
      for (const KernelObject &o : objects_) unread(o, o.module ? "" : o.kernel, t_[k].begin);
      return;
    }
    if (attribute || !isName(t_[k], "getattr") || k + 1 >= s.end || !isOp(t_[k + 1], "(")) return;
    std::vector<Call> calls;
    const Call *c = callOpeningAt(s, k + 1, calls);
    std::optional<std::string> name;
    if (c && c->args.size() >= 2 && !c->args[1].starred) {
      Value v = m_.evaluate(c->args[1].begin, c->args[1].end, s.scope);
      if (v.kind == Value::Kind::Str) name = v.str.text;
    }
    for (const KernelObject &o : objects_)
      if (!name || *name == lastPart(o.name)) unread(o, o.module ? "" : o.kernel, t_[k].begin);
  }
};

}  // namespace

std::vector<UnreadUse> unreadUses(const Module &m, const std::vector<KernelObject> &objects,
                                  const std::set<size_t> &read_launches) {
  return Uses(m, objects, read_launches).run();
}

}  // namespace kverify::python
