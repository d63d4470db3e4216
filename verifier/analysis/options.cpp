// Option strings (`// kverify:` comments), launch dimensions and --assume expressions.
#include "analysis/analysis.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

namespace kverify::analysis {

using model::BinaryOp;
using model::Expr;
using model::ExprPtr;
using model::Type;

bool parseDims(const std::string &text, std::array<std::optional<uint64_t>, 3> &dims) {
  std::string t;
  for (char ch : text)
    if (ch != '[' && ch != ']' && ch != ' ') t += ch;
  if (t.empty()) return false;
  std::array<std::optional<uint64_t>, 3> out{};
  size_t pos = 0;
  for (int d = 0; d < 3 && pos <= t.size(); ++d) {
    size_t comma = t.find(',', pos);
    std::string part = t.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (part.empty()) return false;
    for (char ch : part)
      if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
    uint64_t v = std::strtoull(part.c_str(), nullptr, 10);
    if (v == 0) return false;
    out[d] = v;
    if (comma == std::string::npos) {
      for (int e = d + 1; e < 3; ++e) out[e] = 1;
      dims = out;
      return true;
    }
    pos = comma + 1;
  }
  return false;
}

std::string launchLimitError(const Options &o) {
  static const char *axis[] = {"x", "y", "z"};
  static const uint64_t block_max[] = {1024, 1024, 64}, grid_max[] = {(1ull << 31) - 1, 65535, 65535};
  uint64_t threads = 1;
  for (int d = 0; d < 3; ++d) {
    std::string b = std::string("blockDim.") + axis[d], g = std::string("gridDim.") + axis[d];
    if (o.block_dim[d] && (*o.block_dim[d] == 0 || *o.block_dim[d] > block_max[d]))
      return "launch outside CUDA's limits: " + b + " = " + std::to_string(*o.block_dim[d]) +
             " (must be 1.." + std::to_string(block_max[d]) + ")";
    if (o.grid_dim[d] && (*o.grid_dim[d] == 0 || *o.grid_dim[d] > grid_max[d]))
      return "launch outside CUDA's limits: " + g + " = " + std::to_string(*o.grid_dim[d]) + " (must be 1.." +
             std::to_string(grid_max[d]) + ")";
    if (o.block_dim[d]) threads *= *o.block_dim[d];
  }
  if (threads > 1024)
    return "launch outside CUDA's limits: a block of " + std::to_string(threads) +
           " threads (blockDim.x * blockDim.y * blockDim.z must be at most 1024)";
  return "";
}

// Splits a flag string like a shell would (quotes '...' and "..." group).
static std::vector<std::string> splitArgs(const std::string &text) {
  std::vector<std::string> out;
  std::string cur;
  bool any = false;
  char quote = 0;
  for (char ch : text) {
    if (quote) {
      if (ch == quote)
        quote = 0;
      else
        cur += ch;
      continue;
    }
    if (ch == '\'' || ch == '"') {
      quote = ch;
      any = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(ch))) {
      if (any || !cur.empty()) out.push_back(cur);
      cur.clear();
      any = false;
      continue;
    }
    cur += ch;
  }
  if (any || !cur.empty()) out.push_back(cur);
  return out;
}

bool applyOptionString(const std::string &text, Options &o, std::string &error) {
  std::vector<std::string> args = splitArgs(text);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    auto value = [&](const std::string &flag, std::string &v) {
      if (a.rfind(flag + "=", 0) == 0) {
        v = a.substr(flag.size() + 1);
        return true;
      }
      if (a == flag && i + 1 < args.size()) {
        v = args[++i];
        return true;
      }
      return false;
    };
    auto seconds = [](const std::string &text, double &out) {  // a positive number
      char *end = nullptr;
      double t = std::strtod(text.c_str(), &end);
      if (!end || *end || t <= 0) return false;
      out = t;
      return true;
    };
    std::string v;
    if (value("--block-dim", v) || value("--blockDim", v)) {
      if (!parseDims(v, o.block_dim)) return error = "bad block dimensions '" + v + "'", false;
    } else if (value("--grid-dim", v) || value("--gridDim", v)) {
      if (!parseDims(v, o.grid_dim)) return error = "bad grid dimensions '" + v + "'", false;
    } else if (value("--assume", v)) {
      o.assumes.push_back(v);
    } else if (value("--timeout", v)) {
      if (!seconds(v, o.timeout_s)) return error = "bad timeout '" + v + "'", false;
    } else if (value("--kernel-timeout", v)) {
      if (!seconds(v, o.kernel_timeout_s)) return error = "bad kernel timeout '" + v + "'", false;
    } else if (value("--zero-init", v)) {
      for (size_t at = 0; at <= v.size();) {
        size_t comma = std::min(v.find(',', at), v.size());
        if (comma > at) o.zero_init.push_back(v.substr(at, comma - at));
        at = comma + 1;
      }
    } else if (a == "--no-alias-assumption" || a == "--alias") {
      o.assume_no_alias = false;
    } else if (a == "--no-grid-size-assumption") {
      o.assume_grid_fits_32_bits = false;
    } else if (a == "--allow-unreachable") {
      o.allow_unreachable = true;
    } else {
      error = "unknown option '" + a + "' in a kverify: comment";
      return false;
    }
  }
  return true;
}

// --- a small C expression parser for assumptions ---------------------------------

namespace {

class Parser {
public:
  Parser(const std::string &s, const model::Kernel &k) : s(s), k(k) {}
  ExprPtr parse(std::string &error) {
    ExprPtr e = ternary();
    skip();
    if (!e || pos != s.size()) {
      error = err.empty() ? "unexpected '" + s.substr(pos) + "'" : err;
      return nullptr;
    }
    return toBool(e);
  }

private:
  const std::string &s;
  const model::Kernel &k;
  size_t pos = 0;
  std::string err;
  // Each nested parenthesis, unary operator or ?: recurses; a bound keeps a hostile
  // `((((...` from overflowing the stack. Real assumptions nest a few levels.
  static constexpr unsigned kMaxNesting = 200;  // 100 parentheses
  unsigned nesting = 0;
  struct Nested {
    unsigned &n;
    explicit Nested(unsigned &count) : n(++count) {}
    ~Nested() { --n; }
  };

  void skip() {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
  }
  bool eat(const char *t) {
    skip();
    size_t n = std::char_traits<char>::length(t);
    if (s.compare(pos, n, t) != 0) return false;
    // do not split "<<" as "<", "&&" as "&", "==" as "=" ...
    if (n == 1 && pos + 1 < s.size()) {
      char nx = s[pos + 1];
      char c0 = t[0];
      if ((c0 == '<' || c0 == '>') && (nx == c0 || nx == '=')) return false;
      if ((c0 == '&' || c0 == '|') && nx == c0) return false;
      if ((c0 == '!' || c0 == '=') && nx == '=') return false;
    }
    if (n == 2 && pos + 2 < s.size() && (t[0] == '<' || t[0] == '>') && t[1] == t[0] && s[pos + 2] == '=')
      return false;
    pos += n;
    return true;
  }
  static ExprPtr toBool(const ExprPtr &e) {
    if (!e || e->type.kind == Type::Kind::Bool) return e;
    return Expr::binary(Type::boolean(), BinaryOp::Ne, e, Expr::intConst(e->type, 0));
  }
  static ExprPtr toInt(const ExprPtr &e) {
    if (e->type.kind == Type::Kind::Bool) return Expr::cast(Type::i32(), e);
    return e;
  }
  static Type common(const Type &a, const Type &b) {
    unsigned w = std::max({a.bits, b.bits, 32u});
    bool sg = true;
    if (a.bits == w && !a.is_signed) sg = false;
    if (b.bits == w && !b.is_signed) sg = false;
    return Type::integer(w, sg);
  }
  ExprPtr arith(BinaryOp op, ExprPtr a, ExprPtr b) {
    a = toInt(a);
    b = toInt(b);
    if (op == BinaryOp::Shl || op == BinaryOp::Shr) {
      Type t = common(a->type, Type::i32());
      return Expr::binary(t, op, Expr::cast(t, a), Expr::cast(t, b));
    }
    Type t = common(a->type, b->type);
    bool cmp = op >= BinaryOp::Lt && op <= BinaryOp::Ne;
    return Expr::binary(cmp ? Type::boolean() : t, op, Expr::cast(t, a), Expr::cast(t, b));
  }
  ExprPtr ternary() {
    Nested guard(nesting);
    if (nesting > kMaxNesting) return fail("nested too deeply");
    ExprPtr c = binary(0);
    if (!c) return nullptr;
    if (eat("?")) {
      ExprPtr a = ternary();
      if (!a || !eat(":")) return fail("expected ':'");
      ExprPtr b = ternary();
      if (!b) return nullptr;
      a = toInt(a);
      b = toInt(b);
      Type t = common(a->type, b->type);
      return Expr::select(toBool(c), Expr::cast(t, a), Expr::cast(t, b));
    }
    return c;
  }
  ExprPtr fail(const std::string &m) {
    if (err.empty()) err = m;
    return nullptr;
  }
  // precedence climbing
  ExprPtr binary(int level) {
    static const std::vector<std::vector<std::pair<const char *, BinaryOp>>> levels = {
        {{"||", BinaryOp::LOr}},
        {{"&&", BinaryOp::LAnd}},
        {{"|", BinaryOp::BitOr}},
        {{"^", BinaryOp::BitXor}},
        {{"&", BinaryOp::BitAnd}},
        {{"==", BinaryOp::Eq}, {"!=", BinaryOp::Ne}},
        {{"<=", BinaryOp::Le}, {">=", BinaryOp::Ge}, {"<", BinaryOp::Lt}, {">", BinaryOp::Gt}},
        {{"<<", BinaryOp::Shl}, {">>", BinaryOp::Shr}},
        {{"+", BinaryOp::Add}, {"-", BinaryOp::Sub}},
        {{"*", BinaryOp::Mul}, {"/", BinaryOp::Div}, {"%", BinaryOp::Rem}},
    };
    if (level == static_cast<int>(levels.size())) return unary();
    ExprPtr lhs = binary(level + 1);
    while (lhs) {
      bool matched = false;
      for (auto &[tok, op] : levels[level]) {
        if (!eat(tok)) continue;
        ExprPtr rhs = binary(level + 1);
        if (!rhs) return nullptr;
        if (op == BinaryOp::LAnd || op == BinaryOp::LOr)
          lhs = Expr::binary(Type::boolean(), op, toBool(lhs), toBool(rhs));
        else
          lhs = arith(op, lhs, rhs);
        matched = true;
        break;
      }
      if (!matched) break;
    }
    return lhs;
  }
  ExprPtr unary() {
    Nested guard(nesting);
    if (nesting > kMaxNesting) return fail("nested too deeply");
    if (eat("!")) {
      ExprPtr a = unary();
      return a ? Expr::unary(Type::boolean(), model::UnaryOp::LNot, toBool(a)) : nullptr;
    }
    if (eat("-")) {
      ExprPtr a = unary();
      if (!a) return nullptr;
      a = toInt(a);
      Type t = common(a->type, Type::i32());
      return Expr::unary(t, model::UnaryOp::Neg, Expr::cast(t, a));
    }
    if (eat("~")) {
      ExprPtr a = unary();
      if (!a) return nullptr;
      a = toInt(a);
      Type t = common(a->type, Type::i32());
      return Expr::unary(t, model::UnaryOp::BitNot, Expr::cast(t, a));
    }
    if (eat("+")) return unary();
    return primary();
  }
  ExprPtr primary() {
    skip();
    if (eat("(")) {
      ExprPtr e = ternary();
      if (!e || !eat(")")) return fail("expected ')'");
      return e;
    }
    if (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
      size_t end = pos;
      uint64_t v = std::strtoull(s.c_str() + pos, nullptr, 0);
      while (end < s.size() && std::isalnum(static_cast<unsigned char>(s[end]))) ++end;
      std::string lit = s.substr(pos, end - pos);
      pos = end;
      bool u = lit.find_first_of("uU") != std::string::npos;
      bool l = lit.find_first_of("lL") != std::string::npos;
      unsigned w = (l || v > 0xffffffffull || (!u && v > 0x7fffffffull)) ? 64 : 32;
      return Expr::intConst(Type::integer(w, !u), static_cast<int64_t>(v));
    }
    std::string id;
    while (pos < s.size() &&
           (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_' || s[pos] == '.'))
      id += s[pos++];
    if (id.empty()) return fail("expected an expression at '" + s.substr(pos) + "'");
    if (id == "true" || id == "false") return Expr::intConst(Type::boolean(), id == "true");
    for (int b = 0; b <= static_cast<int>(model::Builtin::WarpSize); ++b)
      if (id == model::builtinName(static_cast<model::Builtin>(b)))
        return Expr::builtinVar(static_cast<model::Builtin>(b));
    for (const model::Param &p : k.params)
      if (p.name == id && !p.array && p.type.isIntegral()) return Expr::param(p.type, p.name);
    return fail("unknown name '" + id + "' (scalar parameters and CUDA builtins only)");
  }
};

}  // namespace

ExprPtr parseAssumption(const std::string &text, const model::Kernel &kernel, std::string &error) {
  Parser p(text, kernel);
  return p.parse(error);
}

KernelResult parseErrorResult(const model::TranslationUnitModel &tu) {
  KernelResult r;
  r.file = tu.file;
  r.name = "<file>";
  r.verdict = Verdict::Error;
  r.range.file = tu.file;
  r.diagnostics = tu.diagnostics;
  return r;
}

}  // namespace kverify::analysis
