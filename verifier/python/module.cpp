// Statements, scopes and bindings of a Python file (see module.hpp).
#include "python/module.hpp"

#include <algorithm>

namespace kverify::python {
namespace {

bool isOp(const Token &t, const char *op) { return t.kind == TokenKind::Op && t.text == op; }
bool isName(const Token &t, const char *n) { return t.kind == TokenKind::Name && t.text == n; }
bool opens(const Token &t) { return isOp(t, "(") || isOp(t, "[") || isOp(t, "{"); }
bool closes(const Token &t) { return isOp(t, ")") || isOp(t, "]") || isOp(t, "}"); }

const std::set<std::string> kAugmented = {
    "+=", "-=", "*=", "/=", "//=", "%=", "**=", ">>=", "<<=", "&=", "|=", "^=", "@="};

std::string kverifyOptions(const Token &comment) {
  std::string s = comment.text.substr(1);  // drop '#'
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos || s.compare(b, 8, "kverify:") != 0) return "";
  s = s.substr(b + 8);
  size_t f = s.find_first_not_of(" \t"), l = s.find_last_not_of(" \t\r");
  return f == std::string::npos ? "" : s.substr(f, l - f + 1);
}

// An assignment target, tokens [begin, eq): true when it is NAME, NAME: annotation or
// a.b.c (then `dotted` is that name); false for anything else (unpacking, subscripts).
bool plainTarget(const std::vector<Token> &t, size_t begin, size_t eq, std::string &dotted) {
  size_t k = begin;
  if (t[k].kind != TokenKind::Name) return false;
  dotted = t[k].text;
  ++k;
  while (k + 1 < eq && isOp(t[k], ".") && t[k + 1].kind == TokenKind::Name) {
    dotted += "." + t[k + 1].text;
    k += 2;
  }
  return k == eq || (isOp(t[k], ":") && dotted.find('.') == std::string::npos);
}

// The names of an unpacking target `a, b` or `(a, b)`, tokens [begin, eq); false when the
// target has anything else (a subscript, an attribute, a starred name).
bool unpackedNames(const std::vector<Token> &t, size_t begin, size_t eq, std::vector<std::string> &names) {
  for (size_t j = begin; j < eq; ++j) {
    const Token &tk = t[j];
    if (tk.kind == TokenKind::Name)
      names.push_back(tk.text);
    else if (!isOp(tk, ",") && !((isOp(tk, "(") && j == begin) || (isOp(tk, ")") && j + 1 == eq)))
      return false;
  }
  return true;
}

}  // namespace

std::optional<Module> Module::read(std::string_view source, std::string &error, Pos &error_at) {
  Tokens t = tokenize(source);
  if (!t.error.empty()) {
    error = t.error;
    error_at = t.error_at;
    return std::nullopt;
  }
  Module m;
  for (Token &tok : t.tokens) {
    if (tok.kind == TokenKind::Comment)
      m.comments_.push_back(tok);
    else
      m.tokens_.push_back(std::move(tok));
  }
  m.scopes_.push_back(Scope{});
  // Statements: runs of tokens up to a Newline, split at top-level ';'.
  std::vector<std::pair<unsigned, size_t>> open;  // (indent of a def/class header, its scope)
  size_t begin = 0;
  int depth = 0;
  for (size_t i = 0; i < m.tokens_.size(); ++i) {
    const Token &tok = m.tokens_[i];
    if (opens(tok))
      ++depth;
    else if (closes(tok) && depth > 0)
      --depth;
    bool ends =
        tok.kind == TokenKind::Newline || tok.kind == TokenKind::End || (depth == 0 && isOp(tok, ";"));
    if (!ends) continue;
    if (i > begin) {
      Statement s;
      s.begin = begin;
      s.end = i;
      s.indent = m.tokens_[begin].begin.col;
      bool line_start = m.tokens_[begin].first_on_line;
      if (line_start)
        while (!open.empty() && s.indent <= open.back().first) open.pop_back();
      s.scope = open.empty() ? 0 : open.back().second;
      m.statements_.push_back(s);
      size_t k = begin;
      if (isName(m.tokens_[k], "async")) ++k;
      if ((isName(m.tokens_[k], "def") || isName(m.tokens_[k], "class")) && k + 1 < i &&
          m.tokens_[k + 1].kind == TokenKind::Name) {
        Scope sc;
        sc.name = m.tokens_[k + 1].text;
        sc.is_class = isName(m.tokens_[k], "class");
        size_t parent = s.scope;
        if (!sc.is_class)  // a function body does not see class attributes
          while (parent != 0 && m.scopes_[parent].is_class) parent = m.scopes_[parent].parent;
        sc.parent = parent;
        if (!sc.is_class && k + 2 < i && isOp(m.tokens_[k + 2], "(")) {
          int d = 0;
          for (size_t p = k + 2; p < i; ++p) {
            const Token &pt = m.tokens_[p];
            if (opens(pt))
              ++d;
            else if (closes(pt) && --d == 0)
              break;
            const Token &prev = m.tokens_[p - 1];
            if (d == 1 && pt.kind == TokenKind::Name &&
                (isOp(prev, "(") || isOp(prev, ",") || isOp(prev, "*") || isOp(prev, "**")))
              sc.params.insert(pt.text);
          }
        }
        m.scopes_.push_back(sc);
        open.emplace_back(s.indent, m.scopes_.size() - 1);
      }
    }
    begin = i + 1;
  }
  for (size_t s = 0; s < m.statements_.size(); ++s) m.collectBindings(s);
  return m;
}

void Module::bind(size_t scope, const std::string &name, Binding b) {
  if (name.find('.') != std::string::npos)
    scope = 0;  // attributes: one table for the file
  else if (scopes_[scope].globals.count(name))
    scope = 0;
  bindings_[{scope, name}].push_back(std::move(b));
}

void Module::collectBindings(size_t index) {
  const Statement &s = statements_[index];
  const std::vector<Token> &t = tokens_;
  size_t b = s.begin;
  if (isName(t[b], "async")) ++b;
  if ((isName(t[b], "def") || isName(t[b], "class")) && b + 1 < s.end) {
    bindOther(index, t[b + 1].text, isName(t[b], "def") ? "a function" : "a class");
    return;
  }
  if (isName(t[b], "global") || isName(t[b], "nonlocal")) {
    for (size_t k = b + 1; k < s.end; ++k)
      if (t[k].kind == TokenKind::Name) scopes_[s.scope].globals.insert(t[k].text);
    return;
  }
  if (isName(t[b], "import") || isName(t[b], "from")) {
    bindImports(index, b);
    return;
  }
  bindInnerTargets(index, b);
  bindAssignment(index, b);
}

void Module::bindOther(size_t index, const std::string &name, const std::string &why) {
  Binding bd;
  bd.statement = index;
  bd.why = "'" + name + "' is " + why;
  bind(statements_[index].scope, name, bd);
}

// `import a.b, c as d` and `from m import x, y as z`: the names after `import`.
void Module::bindImports(size_t index, size_t b) {
  const Statement &s = statements_[index];
  const std::vector<Token> &t = tokens_;
  size_t k = b;
  while (k < s.end && !isName(t[k], "import")) ++k;
  bool first = true;
  for (++k; k < s.end; ++k) {
    if (isOp(t[k], ",")) {
      first = true;
      continue;
    }
    if (isName(t[k], "as") && k + 1 < s.end) {
      bindOther(index, t[k + 1].text, "imported");
      ++k;
      first = false;
      continue;
    }
    if (first && t[k].kind == TokenKind::Name && !(k + 1 < s.end && isName(t[k + 1], "as")))
      bindOther(index, t[k].text, "imported");
    first = false;
  }
}

// for-targets, with/except-as, walrus anywhere in the statement
void Module::bindInnerTargets(size_t index, size_t b) {
  const Statement &s = statements_[index];
  const std::vector<Token> &t = tokens_;
  for (size_t k = b; k < s.end; ++k) {
    if (isName(t[k], "for")) {
      for (size_t j = k + 1; j < s.end && !isName(t[j], "in"); ++j)
        if (t[j].kind == TokenKind::Name) bindOther(index, t[j].text, "a loop variable");
    } else if (isName(t[k], "as") && k + 1 < s.end && t[k + 1].kind == TokenKind::Name) {
      bindOther(index, t[k + 1].text, "bound by 'as'");
    } else if (isOp(t[k], ":=") && k > b && t[k - 1].kind == TokenKind::Name) {
      bindOther(index, t[k - 1].text, "assigned by ':='");
    }
  }
}

// assignment: targets = ... = value, all at bracket depth 0; or an augmented one
void Module::bindAssignment(size_t index, size_t b) {
  const Statement &s = statements_[index];
  const std::vector<Token> &t = tokens_;
  std::vector<size_t> eqs;
  int depth = 0;
  for (size_t k = b; k < s.end; ++k) {
    if (opens(t[k]))
      ++depth;
    else if (closes(t[k]))
      --depth;
    else if (depth == 0 && isOp(t[k], "="))
      eqs.push_back(k);
    else if (depth == 0 && k == b + 1 && t[b].kind == TokenKind::Name && t[k].kind == TokenKind::Op &&
             kAugmented.count(t[k].text)) {
      bindOther(index, t[b].text, "updated with '" + t[k].text + "'");
      return;
    }
  }
  if (eqs.empty()) return;
  size_t target_begin = b;
  for (size_t eq : eqs) {
    bindTarget(index, target_begin, eq, eqs.back() + 1);
    target_begin = eq + 1;
  }
}

// One target, tokens [begin, eq), of an assignment whose value starts at value_begin.
void Module::bindTarget(size_t index, size_t begin, size_t eq, size_t value_begin) {
  const Statement &s = statements_[index];
  const std::vector<Token> &t = tokens_;
  std::string dotted;
  bool plain = plainTarget(t, begin, eq, dotted);
  // `a, b = x, y` (or `(a, b) = ...`): each name gets one element of the tuple
  std::vector<std::string> names;
  bool unpack = !plain && unpackedNames(t, begin, eq, names);
  Binding bd;
  bd.statement = index;
  bd.simple = true;
  bd.value_begin = value_begin;
  bd.value_end = s.end;
  if (unpack && names.size() > 1) {
    for (size_t n = 0; n < names.size(); ++n) {
      bd.element = static_cast<int>(n);
      bind(s.scope, names[n], bd);
    }
  } else if (plain) {
    bind(s.scope, dotted, bd);
  } else {
    for (size_t j = begin; j < eq; ++j)
      if (t[j].kind == TokenKind::Name && (j == begin || !isOp(t[j - 1], ".")) &&
          !(j + 1 < eq && (isOp(t[j + 1], ".") || isOp(t[j + 1], "[") || isOp(t[j + 1], "("))))
        bindOther(index, t[j].text, "assigned by unpacking");
  }
}

const std::vector<Binding> *Module::bindings(const std::string &name, size_t scope) const {
  if (name.find('.') != std::string::npos) {
    auto it = bindings_.find({0, name});
    return it == bindings_.end() ? nullptr : &it->second;
  }
  for (size_t s = scope;;) {
    if (!scopes_[s].globals.count(name)) {
      auto it = bindings_.find({s, name});
      if (it != bindings_.end()) return &it->second;
      if (scopes_[s].params.count(name)) return nullptr;
    }
    if (s == 0) return nullptr;
    s = scopes_[s].parent;
  }
}

Value Module::lookup(const std::string &name, size_t scope) const { return lookupIn(name, scope, {}); }

Value Module::lookupIn(const std::string &name, size_t scope, Pos at) const {
  size_t s = scope;
  if (name.find('.') != std::string::npos) s = 0;
  for (;;) {
    if (name.find('.') == std::string::npos && scopes_[s].params.count(name) &&
        !scopes_[s].globals.count(name))
      return Value::unknown("'" + name + "' is a parameter of '" + scopes_[s].name + "()'", at);
    auto it = bindings_.find({scopes_[s].globals.count(name) ? 0 : s, name});
    if (it != bindings_.end()) {
      const std::vector<Binding> &bs = it->second;
      if (bs.size() > 1) return Value::unknown("'" + name + "' is assigned more than once", at);
      if (!bs[0].simple) return Value::unknown(bs[0].why, at);
      std::pair<size_t, std::string> key{it->first.first, name};
      if (auto m = memo_.find(key); m != memo_.end()) return m->second;
      if (!evaluating_.insert(key).second)
        return Value::unknown("'" + name + "' is defined in terms of itself", at);
      const Statement &st = statements_[bs[0].statement];
      Value v = evaluate(bs[0].value_begin, bs[0].value_end, st.scope);
      if (bs[0].element >= 0 && v.known()) {
        size_t k = static_cast<size_t>(bs[0].element);
        v = v.kind == Value::Kind::Tuple && k < v.items.size()
                ? v.items[k]
                : Value::unknown("'" + name + "' is unpacked from a value that is not a tuple of that size",
                                 at);
      }
      evaluating_.erase(key);
      memo_[key] = v;
      return v;
    }
    if (s == 0) return Value::unknown("'" + name + "' is not a constant defined in this file", at);
    s = scopes_[s].parent;
  }
}

Value Module::evaluate(size_t begin, size_t end, size_t scope) const {
  return python::evaluate(tokens_, begin, end, [this, scope](const std::string &name, Pos at) {
    return lookupIn(name, scope, at);
  });
}

std::vector<Call> Module::calls(const Statement &s) const {
  std::vector<Call> out;
  const std::vector<Token> &t = tokens_;
  for (size_t k = s.begin; k < s.end; ++k) {
    bool chain_start = t[k].kind == TokenKind::Name && (k == s.begin || !isOp(t[k - 1], ".")) &&
                       !(k > s.begin && (isName(t[k - 1], "def") || isName(t[k - 1], "class")));
    if (!chain_start) continue;
    Call c;
    c.name_begin = k;
    c.pos = t[k].begin;
    c.callee = t[k].text;
    size_t j = k + 1;
    while (j + 1 < s.end && isOp(t[j], ".") && t[j + 1].kind == TokenKind::Name) {
      c.callee += "." + t[j + 1].text;
      j += 2;
    }
    if (j >= s.end || !isOp(t[j], "(")) continue;
    // one call, and then any calls of its result: f(a)(b)
    for (std::optional<size_t> prev; j < s.end && isOp(t[j], "(");) {
      c.open = j;
      int depth = 0;
      size_t arg_begin = j + 1;
      for (size_t p = j; p < s.end; ++p) {
        if (opens(t[p]))
          ++depth;
        else if (closes(t[p]) && --depth == 0) {
          c.close = p;
          break;
        } else if (depth == 1 && isOp(t[p], ",")) {
          if (p > arg_begin) c.args.push_back({"", arg_begin, p, false});
          arg_begin = p + 1;
        }
      }
      if (c.close == 0) break;
      if (c.close > arg_begin) c.args.push_back({"", arg_begin, c.close, false});
      for (Call::Arg &a : c.args) {
        if (a.end > a.begin + 1 && t[a.begin].kind == TokenKind::Name && isOp(t[a.begin + 1], "=")) {
          a.keyword = t[a.begin].text;
          a.begin += 2;
        } else if (isOp(t[a.begin], "*") || isOp(t[a.begin], "**")) {
          a.starred = true;
        }
      }
      c.result_of = prev;
      out.push_back(c);
      prev = out.size() - 1;
      j = c.close + 1;
      Call next;
      next.name_begin = c.name_begin;
      next.pos = c.pos;
      c = next;
    }
  }
  return out;
}

std::optional<std::string> Module::assignedTo(const Statement &s, size_t rhs_begin) const {
  const std::vector<Token> &t = tokens_;
  if (rhs_begin < s.begin + 2 || !isOp(t[rhs_begin - 1], "=")) return std::nullopt;
  std::string dotted;
  size_t k = s.begin;
  if (t[k].kind != TokenKind::Name) return std::nullopt;
  dotted = t[k++].text;
  while (k + 1 < rhs_begin - 1 && isOp(t[k], ".") && t[k + 1].kind == TokenKind::Name) {
    dotted += "." + t[k + 1].text;
    k += 2;
  }
  if (k != rhs_begin - 1) return std::nullopt;
  return dotted;
}

std::string Module::optionsAbove(unsigned line) const {
  std::vector<std::string> found;
  for (unsigned l = line; l > 1;) {
    --l;
    auto it = std::find_if(comments_.begin(), comments_.end(),
                           [&](const Token &c) { return c.begin.line == l && c.first_on_line; });
    if (it == comments_.end()) break;
    std::string o = kverifyOptions(*it);
    if (!o.empty()) found.push_back(o);
  }
  std::string out;
  for (auto it = found.rbegin(); it != found.rend(); ++it) out += (out.empty() ? "" : " ") + *it;
  return out;
}

std::string Module::fileOptions() const {
  unsigned first_code = tokens_.empty() ? ~0u : tokens_.front().begin.line;
  std::string out;
  for (const Token &c : comments_) {
    if (c.begin.line >= first_code) break;
    std::string o = kverifyOptions(c);
    if (!o.empty()) out += (out.empty() ? "" : " ") + o;
  }
  return out;
}

}  // namespace kverify::python
