// The constant evaluator (see evaluate.hpp): a recursive-descent parser over tokens with
// Python's precedence, computing as it parses.
#include "python/evaluate.hpp"

#include "python/format.hpp"

#include <cctype>
#include <limits>

namespace kverify::python {
namespace {

using Kind = Value::Kind;

// Python's integer literal forms; floats and complex numbers are not integers.
Value parseNumber(const Token &t) {
  std::string s;
  for (char c : t.text)
    if (c != '_') s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  int base = 10;
  size_t from = 0;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o' || s[1] == 'b')) {
    base = s[1] == 'x' ? 16 : s[1] == 'o' ? 8 : 2;
    from = 2;
  } else if (s.find_first_of(".ej") != std::string::npos) {
    return Value::unknown("'" + t.text + "' is not an integer", t.begin);
  }
  unsigned __int128 v = 0;
  for (size_t i = from; i < s.size(); ++i) {
    int d = std::isdigit(static_cast<unsigned char>(s[i])) ? s[i] - '0'
            : (s[i] >= 'a' && s[i] <= 'f')                 ? s[i] - 'a' + 10
                                                           : 99;
    if (d >= base) return Value::unknown("'" + t.text + "' is not an integer literal", t.begin);
    v = v * static_cast<unsigned>(base) + static_cast<unsigned>(d);
    if (v > static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max()))
      return Value::unknown("'" + t.text + "' does not fit in 64 bits", t.begin);
  }
  return Value::integer(static_cast<int64_t>(v), t.begin);
}

// Python's floor division and modulo (rounding toward negative infinity).
int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }

class Parser {
public:
  Parser(const std::vector<Token> &t, size_t begin, size_t end, const Lookup &lookup)
      : t_(t), i_(begin), end_(end), lookup_(lookup) {}

  Value all() {
    Pos at = here();
    if (i_ >= end_) return Value::unknown("an empty expression", at);
    Value v = tupleOrExpr(end_);
    if (i_ != end_ && v.known()) return Value::unknown("cannot evaluate '" + textFrom(i_) + "'", here());
    return v;
  }

private:
  const Token &peek(size_t k = 0) const {
    static const Token end;
    return i_ + k < end_ ? t_[i_ + k] : end;
  }
  bool isOp(const char *op, size_t k = 0) const {
    return peek(k).kind == TokenKind::Op && peek(k).text == op;
  }
  Pos here() const { return i_ < end_ ? t_[i_].begin : (end_ > 0 ? t_[end_ - 1].end : Pos{}); }
  std::string textFrom(size_t b) const {
    std::string s;
    for (size_t k = b; k < end_ && s.size() < 60; ++k) s += (s.empty() ? "" : " ") + t_[k].text;
    return s;
  }

  // a, b, c  (a tuple) or a single expression, up to `stop` or a closing bracket
  Value tupleOrExpr(size_t) {
    Value first = expr();
    if (!isOp(",")) return first;
    Value tuple;
    tuple.kind = Kind::Tuple;
    tuple.at = first.at;
    tuple.items.push_back(first);
    while (isOp(",")) {
      ++i_;
      if (i_ >= end_ || isOp(")") || isOp("]")) break;
      tuple.items.push_back(expr());
    }
    return tuple;  // unknown items stay unknown one by one (a launch's y may be known, x not)
  }

  Value expr() {
    Value v = binary(0);
    if (peek().kind == TokenKind::Name && (peek().text == "if" || peek().text == "for")) {
      Pos at = here();
      skipToDelimiter();
      return Value::unknown("a conditional expression or comprehension is not evaluated", at);
    }
    if (peek().kind == TokenKind::Op &&
        (isOp("<") || isOp(">") || isOp("==") || isOp("!=") || isOp("<=") || isOp(">="))) {
      Pos at = here();
      skipToDelimiter();
      return Value::unknown("a comparison is not evaluated", at);
    }
    return v;
  }

  void skipToDelimiter() {
    int depth = 0;
    for (; i_ < end_; ++i_) {
      const Token &k = t_[i_];
      if (k.kind != TokenKind::Op) continue;
      if (k.text == "(" || k.text == "[" || k.text == "{")
        ++depth;
      else if (k.text == ")" || k.text == "]" || k.text == "}") {
        if (depth-- == 0) return;
      } else if (k.text == "," && depth == 0)
        return;
    }
  }

  // Binary operators by precedence level (0: |, 1: ^, 2: &, 3: shifts, 4: + -, 5: * / // %).
  Value binary(int level) {
    static const std::vector<std::vector<std::string>> ops = {
        {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}};
    if (level == 6) return unary();
    Value left = binary(level + 1);
    for (;;) {
      std::string op;
      for (const std::string &o : ops[static_cast<size_t>(level)])
        if (isOp(o.c_str())) op = o;
      if (op.empty()) return left;
      Pos at = here();
      ++i_;
      Value right = binary(level + 1);
      left = apply(op, left, right, at);
    }
  }

  Value unary() {
    if (isOp("-") || isOp("+") || isOp("~")) {
      std::string op = peek().text;
      Pos at = here();
      ++i_;
      Value v = unary();
      if (!v.known()) return v;
      if (!isIntLike(v)) return Value::unknown("unary '" + op + "' of a value that is not an integer", at);
      if (op == "-") {
        if (v.num == std::numeric_limits<int64_t>::min()) return Value::unknown("integer overflow", at);
        return Value::integer(-v.num, at);
      }
      return Value::integer(op == "~" ? ~v.num : v.num, at);
    }
    Value base = postfix();
    if (isOp("**")) {
      Pos at = here();
      ++i_;
      Value e = unary();
      return apply("**", base, e, at);
    }
    return base;
  }

  Value apply(const std::string &op, const Value &a, const Value &b, Pos at) {
    if (!a.known()) return a;
    if (!b.known()) return b;
    if (op == "%" && a.kind == Kind::Str) return percentFormat(a, b);
    if (op == "+" && a.kind == Kind::Str && b.kind == Kind::Str) {
      if (a.str.text.size() + b.str.text.size() > kMaxString) return tooLong(at);
      Value s = a;
      s.str.append(b.str);
      return s;
    }
    if (op == "+" && a.kind == Kind::Tuple && b.kind == Kind::Tuple) {
      Value s = a;
      s.items.insert(s.items.end(), b.items.begin(), b.items.end());
      return s;
    }
    if (op == "*" && a.kind == Kind::Str && isIntLike(b)) {
      if (b.num > 0 && a.str.text.size() > kMaxString / uint64_t(b.num)) return tooLong(at);
      Value s = Value::string({}, a.at);
      for (int64_t k = 0; k < b.num && k < 100000; ++k) s.str.append(a.str);
      return s;
    }
    if (!isIntLike(a) || !isIntLike(b))
      return Value::unknown("'" + op + "' of values that are not integers", at);
    int64_t x = a.num, y = b.num, r = 0;
    bool overflow = false;
    if (op == "+")
      overflow = __builtin_add_overflow(x, y, &r);
    else if (op == "-")
      overflow = __builtin_sub_overflow(x, y, &r);
    else if (op == "*")
      overflow = __builtin_mul_overflow(x, y, &r);
    else if (op == "/")
      return Value::unknown("'/' gives a float (use '//')", at);
    else if (op == "//" || op == "%") {
      if (y == 0) return Value::unknown("division by zero", at);
      if (x == std::numeric_limits<int64_t>::min() && y == -1) return Value::unknown("integer overflow", at);
      r = op == "//" ? floorDiv(x, y) : floorMod(x, y);
    } else if (op == "**") {
      if (y < 0) return Value::unknown("a negative power gives a float", at);
      r = 1;
      for (int64_t k = 0; k < y && !overflow; ++k) overflow = __builtin_mul_overflow(r, x, &r);
    } else if (op == "<<") {
      if (y < 0) return Value::unknown("negative shift count", at);
      if (y >= 63 || (x != 0 && (x > (std::numeric_limits<int64_t>::max() >> y) ||
                                 x < (std::numeric_limits<int64_t>::min() >> y))))
        overflow = true;
      else
        r = static_cast<int64_t>(static_cast<uint64_t>(x) << y);
    } else if (op == ">>") {
      if (y < 0) return Value::unknown("negative shift count", at);
      r = y >= 63 ? (x < 0 ? -1 : 0) : x >> y;
    } else if (op == "&")
      r = x & y;
    else if (op == "|")
      r = x | y;
    else if (op == "^")
      r = x ^ y;
    else
      return Value::unknown("operator '" + op + "' is not evaluated", at);
    if (overflow) return Value::unknown("integer overflow beyond 64 bits", at);
    return Value::integer(r, at);
  }

  // call arguments after '(' up to the matching ')'
  bool arguments(std::vector<Value> &positional, std::vector<std::pair<std::string, Value>> &keywords) {
    ++i_;  // (
    while (i_ < end_ && !isOp(")")) {
      if (isOp("*") || isOp("**")) {
        Pos at = here();
        skipToDelimiter();
        positional.push_back(Value::unknown("a starred argument is not evaluated", at));
      } else if (peek().kind == TokenKind::Name && isOp("=", 1)) {
        std::string name = peek().text;
        i_ += 2;
        keywords.emplace_back(name, expr());
      } else {
        positional.push_back(expr());
      }
      if (isOp(","))
        ++i_;
      else if (!isOp(")"))
        return false;
    }
    if (!isOp(")")) return false;
    ++i_;
    return true;
  }

  Value call(const std::string &callee, Pos at) {
    std::vector<Value> pos;
    std::vector<std::pair<std::string, Value>> kw;
    if (!arguments(pos, kw)) return Value::unknown("cannot evaluate the call of '" + callee + "'", at);
    for (const Value &v : pos)
      if (!v.known()) return v;
    std::string last = callee.substr(callee.rfind('.') + 1);
    bool numpy_int = (last.rfind("int", 0) == 0 || last.rfind("uint", 0) == 0) &&
                     last.find_first_not_of("uint0123456789cp") == std::string::npos;
    if ((numpy_int || callee == "int") && pos.size() == 1 && kw.empty()) {
      if (isIntLike(pos[0])) return Value::integer(pos[0].num, at);
      return Value::unknown(callee + "() of a value that is not an integer", at);
    }
    if (callee == "str" && pos.size() == 1) return toStr(pos[0], at);
    if ((callee == "min" || callee == "max") && pos.size() >= 2) {
      Value best = pos[0];
      for (const Value &v : pos) {
        if (!isIntLike(v)) return Value::unknown(callee + "() of values that are not integers", at);
        if (callee == "min" ? v.num < best.num : v.num > best.num) best = v;
      }
      return Value::integer(best.num, at);
    }
    if (callee == "len" && pos.size() == 1 && pos[0].kind == Kind::Tuple)
      return Value::integer(static_cast<int64_t>(pos[0].items.size()), at);
    return Value::unknown("the call of '" + callee + "()' is not evaluated", at);
  }

  Value method(const Value &self, const std::string &name, Pos at) {
    std::vector<Value> pos;
    std::vector<std::pair<std::string, Value>> kw;
    if (!arguments(pos, kw)) return Value::unknown("cannot evaluate the call of '." + name + "()'", at);
    if (!self.known()) return self;
    if (self.kind == Kind::Str && name == "format") return braceFormat(self, pos, kw);
    return Value::unknown("the method '." + name + "()' is not evaluated", at);
  }

  Value postfix() {
    Pos at = here();
    const Token &t = peek();
    if (t.kind != TokenKind::Name) return trailers(atom());
    std::string dotted = t.text;  // a name chain a.b.c
    ++i_;
    while (isOp(".") && peek(1).kind == TokenKind::Name) {
      dotted += "." + peek(1).text;
      i_ += 2;
    }
    if (!isOp("(")) return trailers(name(dotted, at));
    size_t dot = dotted.rfind('.');
    if (dot != std::string::npos && dotted.substr(dot + 1) == "format")
      return trailers(method(name(dotted.substr(0, dot), at), "format", at));
    return trailers(call(dotted, at));
  }

  Value name(const std::string &n, Pos at) {
    if (n == "True" || n == "False") {
      Value b = Value::integer(n == "True", at);
      b.kind = Kind::Bool;
      return b;
    }
    if (n == "None") {
      Value none;
      none.kind = Kind::None;
      none.at = at;
      return none;
    }
    Value v = lookup_(n, at);
    if (v.known()) v.at = v.kind == Kind::Str ? v.at : at;
    return v;
  }

  Value trailers(Value v) {
    for (;;) {
      if (isOp(".") && peek(1).kind == TokenKind::Name && isOp("(", 2)) {
        Pos at = here();
        std::string m = peek(1).text;
        i_ += 2;
        v = method(v, m, at);
      } else if (isOp("[")) {
        Pos at = here();
        ++i_;
        Value index = expr();
        if (!isOp("]")) return Value::unknown("a slice is not evaluated", at);
        ++i_;
        if (!v.known()) return v;
        if (!index.known()) return index;
        if (v.kind == Kind::Tuple && isIntLike(index)) {
          int64_t k = index.num < 0 ? index.num + static_cast<int64_t>(v.items.size()) : index.num;
          if (k < 0 || k >= static_cast<int64_t>(v.items.size()))
            return Value::unknown("index out of range", at);
          // Copied out first: assigning v from its own element frees the element mid-copy.
          Value item = v.items[static_cast<size_t>(k)];
          v = std::move(item);
        } else if (v.kind == Kind::Dict && index.kind == Kind::Str) {
          Value found = Value::unknown("key '" + index.str.text + "' not in the dict", at);
          for (const auto &[key, value] : v.entries)
            if (key == index.str.text) found = value;
          v = found;
        } else {
          return Value::unknown("subscript is not evaluated", at);
        }
      } else if (isOp(".") && peek(1).kind == TokenKind::Name) {
        Pos at = here();
        i_ += 2;
        return Value::unknown("attribute '" + t_[i_ - 1].text + "' is not evaluated", at);
      } else {
        return v;
      }
    }
  }

  Value strings() {
    Pos at = here();
    Value v = Value::string({}, at);
    bool is_bytes = peek().bytes;
    while (peek().kind == TokenKind::String) {
      const Token &t = peek();
      ++i_;
      if (t.bytes != is_bytes) return Value::unknown("bytes and str literals concatenated", t.begin);
      if (!t.problem.empty()) return Value::unknown(t.problem, t.begin);
      for (const StringPart &part : t.parts) {
        if (!part.field) {
          v.str.append(part.literal);
          continue;
        }
        Tokens expr = tokenize(part.expr);
        if (!expr.error.empty() || expr.tokens.size() < 2)
          return Value::unknown("f-string field '{" + part.expr + "}' is not an expression", part.at);
        size_t n = expr.tokens.size() - 1;  // drop End (and a trailing Newline)
        if (n > 0 && expr.tokens[n - 1].kind == TokenKind::Newline) --n;
        Value field = evaluate(expr.tokens, 0, n, lookup_);
        if (!field.known()) {
          field.at = part.at;
          return field;
        }
        Value text = applySpec(field, part.conversion, part.spec, part.at);
        if (!text.known()) return text;
        v.str.append(text.str);
      }
    }
    return v;
  }

  Value atom() {
    const Token &t = peek();
    Pos at = here();
    if (t.kind == TokenKind::String) return strings();
    if (t.kind == TokenKind::Number) {
      ++i_;
      return parseNumber(t);
    }
    if (isOp("(") || isOp("[")) {
      bool paren = isOp("(");
      ++i_;
      if (isOp(paren ? ")" : "]")) {
        ++i_;
        Value empty;
        empty.kind = Kind::Tuple;
        empty.at = at;
        return empty;
      }
      Value first = expr();
      Value result = first;
      if (isOp(",") || !paren) {
        result = Value();
        result.kind = Kind::Tuple;
        result.at = at;
        result.items.push_back(first);
        while (isOp(",")) {
          ++i_;
          if (isOp(paren ? ")" : "]")) break;
          result.items.push_back(expr());
        }
      }
      if (!isOp(paren ? ")" : "]")) {
        skipToDelimiter();
        if (isOp(paren ? ")" : "]")) ++i_;
        return first.known() ? Value::unknown("cannot evaluate '" + textFrom(i_) + "'", at) : first;
      }
      ++i_;
      return result;
    }
    if (isOp("{")) {
      ++i_;
      Value d;
      d.kind = Kind::Dict;
      d.at = at;
      while (i_ < end_ && !isOp("}")) {
        Value key = expr();
        if (!isOp(":")) {
          skipToDelimiter();
          if (isOp("}")) ++i_;
          return Value::unknown("a set or dict comprehension is not evaluated", at);
        }
        ++i_;
        Value value = expr();
        if (!key.known()) return key;
        if (key.kind != Kind::Str) return Value::unknown("a dict key that is not a string", key.at);
        d.entries.emplace_back(key.str.text, value);
        if (isOp(","))
          ++i_;
        else
          break;
      }
      if (!isOp("}")) return Value::unknown("cannot evaluate the dict", at);
      ++i_;
      return d;
    }
    if (i_ < end_) ++i_;
    return Value::unknown("cannot evaluate '" + t.text + "'", at);
  }

  const std::vector<Token> &t_;
  size_t i_, end_;
  const Lookup &lookup_;
};

}  // namespace

Value evaluate(const std::vector<Token> &tokens, size_t begin, size_t end, const Lookup &lookup) {
  return Parser(tokens, begin, std::min(end, tokens.size()), lookup).all();
}

}  // namespace kverify::python
