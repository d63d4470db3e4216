#pragma once
// A Python file as kverify reads it: logical statements, the function and class scopes
// they belong to, the names each scope binds (and whether each is a constant: bound once,
// by a plain `name = expr`), calls with their arguments, and `# kverify:` comments.
// This is not a Python parser: it knows the statement forms that bind names and treats
// everything else as opaque, so a name it cannot pin down is Unknown, never guessed.

#include "python/evaluate.hpp"
#include "python/tokenizer.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kverify::python {

struct Statement {
  size_t begin = 0, end = 0;  // tokens [begin, end), comments and the newline excluded
  unsigned indent = 0;        // column of its first token
  size_t scope = 0;           // index into Module::scopes
};

struct Scope {
  std::string name;  // "" for the module, else the def or class name
  bool is_class = false;
  size_t parent = 0;  // where names not bound here are looked up (classes skipped from defs)
  std::set<std::string> params, globals;
};

// One binding of a name in a scope: a plain assignment (simple, with its value's tokens)
// or any other binding form (why says which).
struct Binding {
  size_t statement = 0;
  bool simple = false;
  size_t value_begin = 0, value_end = 0;
  int element = -1;  // `a, b = 1, 2`: which element of the value this name gets
  std::string why;
};

// A call `callee(args)`; `callee` is a dotted name, or empty for a call of a call's
// result (`mod.get_function("f")(...)`), then `result_of` is that call's index.
struct Call {
  std::string callee;
  size_t name_begin = 0, open = 0, close = 0;  // token indices
  std::optional<size_t> result_of;
  struct Arg {
    std::string keyword;  // empty: positional
    size_t begin = 0, end = 0;
    bool starred = false;
  };
  std::vector<Arg> args;
  Pos pos;  // the first token of the callee
};

class Module {
public:
  // Tokenizes and splits `source`; nothing (and `error`, `error_at`) when it does not tokenize.
  static std::optional<Module> read(std::string_view source, std::string &error, Pos &error_at);

  const std::vector<Token> &tokens() const { return tokens_; }
  const std::vector<Statement> &statements() const { return statements_; }
  const std::vector<Scope> &scopes() const { return scopes_; }

  // The value of expression tokens [begin, end) evaluated in `scope`.
  Value evaluate(size_t begin, size_t end, size_t scope) const;
  // The value `name` (a.b for attributes) has in `scope`, or Unknown with the reason.
  Value lookup(const std::string &name, size_t scope) const;
  // The bindings of `name` visible from `scope` (the nearest scope binding it), or null.
  const std::vector<Binding> *bindings(const std::string &name, size_t scope) const;

  // Every call in statement `s`, nested calls included, in source order.
  std::vector<Call> calls(const Statement &s) const;
  // The target of `s` when it is `target = <tokens from rhs_begin to the end>`.
  std::optional<std::string> assignedTo(const Statement &s, size_t rhs_begin) const;

  // The options of `# kverify:` comments on the full-line comment lines just above `line`
  // (joined by spaces, nearest last), and of those in the file's leading comment block.
  std::string optionsAbove(unsigned line) const;
  std::string fileOptions() const;

private:
  Value lookupIn(const std::string &name, size_t scope, Pos at) const;
  void bind(size_t scope, const std::string &name, Binding b);
  // The names statement `index` binds, by the kind of statement.
  void collectBindings(size_t index);
  // A binding that is not a constant: `name` is `why` (a function, imported, ...).
  void bindOther(size_t index, const std::string &name, const std::string &why);
  void bindImports(size_t index, size_t begin);
  void bindInnerTargets(size_t index, size_t begin);
  void bindAssignment(size_t index, size_t begin);
  void bindTarget(size_t index, size_t begin, size_t eq, size_t value_begin);

  std::vector<Token> tokens_;
  std::vector<Token> comments_;
  std::vector<Statement> statements_;
  std::vector<Scope> scopes_;
  std::map<std::pair<size_t, std::string>, std::vector<Binding>> bindings_;
  mutable std::map<std::pair<size_t, std::string>, Value> memo_;
  mutable std::set<std::pair<size_t, std::string>> evaluating_;
};

}  // namespace kverify::python
