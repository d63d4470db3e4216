// The Python tokenizer (see tokenizer.hpp). String rules follow the Python reference,
// "Lexical analysis": prefixes, quotes, escape sequences, f-string fields.
#include "python/tokenizer.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace kverify::python {
namespace {

bool isNameStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool isNameChar(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }
int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A code point as UTF-8 (Python's str literals are text; the .cu source is UTF-8).
void addCodePoint(uint32_t cp, Pos p, SourcedText &out) {
  if (cp < 0x80) {
    out.add(static_cast<char>(cp), p);
  } else if (cp < 0x800) {
    out.add(static_cast<char>(0xC0 | (cp >> 6)), p);
    out.add(static_cast<char>(0x80 | (cp & 0x3F)), p);
  } else if (cp < 0x10000) {
    out.add(static_cast<char>(0xE0 | (cp >> 12)), p);
    out.add(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), p);
    out.add(static_cast<char>(0x80 | (cp & 0x3F)), p);
  } else {
    out.add(static_cast<char>(0xF0 | (cp >> 18)), p);
    out.add(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)), p);
    out.add(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), p);
    out.add(static_cast<char>(0x80 | (cp & 0x3F)), p);
  }
}

const char *const kOps[] = {"**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "==", "!=", "<=",
                            ">=",  "<<",  ">>",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "@="};

// Scans an f-string replacement field starting after its `{`; returns the index of the
// closing `}` or npos. Nested brackets and quoted strings are skipped.
size_t scanField(std::string_view body, size_t i, StringPart &field) {
  int depth = 0;
  size_t expr_end = std::string_view::npos, conv_at = std::string_view::npos,
         spec_at = std::string_view::npos;
  for (; i < body.size(); ++i) {
    char c = body[i];
    if (c == '\'' || c == '"') {
      size_t close = body.find(c, i + 1);
      if (close == std::string_view::npos) return close;
      i = close;
      continue;
    }
    if (spec_at == std::string_view::npos) {
      if (c == '(' || c == '[' || c == '{')
        ++depth;
      else if ((c == ')' || c == ']') && depth > 0)
        --depth;
      else if (c == '}' && depth > 0) {
        --depth;
        continue;
      }
    }
    if (depth > 0) continue;
    if (c == '!' && spec_at == std::string_view::npos && conv_at == std::string_view::npos &&
        i + 1 < body.size() && body[i + 1] != '=') {
      conv_at = i;
      if (expr_end == std::string_view::npos) expr_end = i;
    } else if (c == ':' && spec_at == std::string_view::npos) {
      spec_at = i;
      if (expr_end == std::string_view::npos) expr_end = i;
    } else if (c == '{' && spec_at != std::string_view::npos) {
      return std::string_view::npos;  // a nested field in the spec: not decoded
    } else if (c == '}') {
      if (expr_end == std::string_view::npos) expr_end = i;
      return i;
    }
    (void)field;
  }
  return std::string_view::npos;
}

// Splits an f-string field's text `expr!conv:spec` at bracket depth 0 (scanField checked
// its structure).
void splitField(std::string_view inner, StringPart &field) {
  size_t cut = inner.size(), colon = std::string_view::npos, bang = std::string_view::npos;
  int depth = 0;
  for (size_t k = 0; k < inner.size(); ++k) {
    char d = inner[k];
    if (d == '\'' || d == '"') {
      k = inner.find(d, k + 1);
      if (k == std::string_view::npos) break;
      continue;
    }
    if (d == '(' || d == '[' || d == '{')
      ++depth;
    else if (d == ')' || d == ']' || d == '}')
      --depth;
    else if (depth == 0 && d == '!' && bang == std::string_view::npos && colon == std::string_view::npos &&
             k + 1 < inner.size() && inner[k + 1] != '=')
      bang = k;
    else if (depth == 0 && d == ':' && colon == std::string_view::npos) {
      colon = k;
      break;
    }
  }
  cut = std::min({cut, bang, colon});
  field.expr = std::string(inner.substr(0, cut));
  if (bang != std::string_view::npos)
    field.conversion = std::string(
        inner.substr(bang + 1, (colon == std::string_view::npos ? inner.size() : colon) - bang - 1));
  if (colon != std::string_view::npos) field.spec = std::string(inner.substr(colon + 1));
}

// A literal's body being decoded (decodeEscapes): its text, the place of each byte, and
// the parts so far.
struct Body {
  std::string_view text;
  const std::vector<Pos> &at;
  bool bytes;
  std::vector<StringPart> &parts;

  // The part decoded text goes to. Called only when a byte is added, so that an escape
  // that adds nothing (a line continuation) right after a field makes no empty part.
  SourcedText &literal() {
    if (parts.back().field) parts.emplace_back();
    return parts.back().literal;
  }
  // The backslash at text[i] and the character after it, kept as written.
  void keep(size_t i) {
    literal().add('\\', at[i]);
    literal().add(text[i + 1], at[i + 1]);
  }
};

// An f-string brace at body.text[i]: `{{` or `}}` (one brace), or a replacement field.
// Moves `i` past it; returns the error, if any.
std::string decodeBrace(Body &body, size_t &i) {
  std::string_view text = body.text;
  char c = text[i];
  if (i + 1 < text.size() && text[i + 1] == c) {  // {{ and }} stand for one brace
    body.literal().add(c, body.at[i]);
    i += 2;
    return "";
  }
  if (c == '}') return "single '}' is not allowed in an f-string";
  StringPart field;
  field.field = true;
  field.at = body.at[i];
  size_t close = scanField(text, i + 1, field);
  if (close == std::string_view::npos)
    return "f-string field not decoded: '" + std::string(text.substr(i, 20)) + "'";
  splitField(text.substr(i + 1, close - i - 1), field);
  body.parts.push_back(std::move(field));
  i = close + 1;
  return "";
}

// What a one-character escape (\n, \t, \\, ...) stands for; 0 when `e` is not one.
char simpleEscape(char e) {
  switch (e) {
    case '\\': return '\\';
    case '\'': return '\'';
    case '"': return '"';
    case 'a': return '\a';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case 'v': return '\v';
    default: return 0;
  }
}

// \xXX at body.text[i]: a byte in a bytes literal, a code point in a str literal.
std::string hexEscape(Body &body, size_t i) {
  std::string_view text = body.text;
  int h1 = i + 2 < text.size() ? hexDigit(text[i + 2]) : -1;
  int h2 = i + 3 < text.size() ? hexDigit(text[i + 3]) : -1;
  if (h1 < 0 || h2 < 0) return "truncated \\xXX escape";
  uint32_t v = static_cast<uint32_t>(h1 * 16 + h2);
  if (body.bytes)
    body.literal().add(static_cast<char>(v), body.at[i]);
  else
    addCodePoint(v, body.at[i], body.literal());
  return "";
}

// \uXXXX or \UXXXXXXXX at body.text[i] (str literals): a code point; `n` gets its length.
std::string unicodeEscape(Body &body, size_t i, size_t &n) {
  std::string_view text = body.text;
  char e = text[i + 1];
  size_t digits = e == 'u' ? 4 : 8;
  uint32_t v = 0;
  for (size_t k = 0; k < digits; ++k) {
    int h = i + 2 + k < text.size() ? hexDigit(text[i + 2 + k]) : -1;
    if (h < 0) return std::string("truncated \\") + e + " escape";
    v = v * 16 + static_cast<uint32_t>(h);
  }
  if (v > 0x10FFFF) return "illegal Unicode character in \\U escape";
  addCodePoint(v, body.at[i], body.literal());
  n = 2 + digits;
  return "";
}

// \ooo at body.text[i], one to three octal digits: a byte (bytes) or a code point (str).
// Returns its length.
size_t octalEscape(Body &body, size_t i) {
  std::string_view text = body.text;
  uint32_t v = 0;
  size_t n = 1;
  while (n < 4 && i + n < text.size() && text[i + n] >= '0' && text[i + n] <= '7')
    v = v * 8 + static_cast<uint32_t>(text[i + n++] - '0');
  if (body.bytes)
    body.literal().add(static_cast<char>(v & 0xFF), body.at[i]);
  else
    addCodePoint(v, body.at[i], body.literal());
  return n;
}

// The escape whose backslash is at body.text[i] (not raw, not the last byte); moves `i`
// past it. Returns the error, if any; `problem` gets the first escape not decoded.
std::string decodeEscape(Body &body, size_t &i, std::string &problem) {
  std::string_view text = body.text;
  char e = text[i + 1];
  size_t n = 2;
  std::string error;
  if (e == '\n') {
    // line continuation: nothing
  } else if (e == '\r') {
    if (i + 2 < text.size() && text[i + 2] == '\n') n = 3;
  } else if (char decoded = simpleEscape(e)) {
    body.literal().add(decoded, body.at[i]);
  } else if (e == 'x') {
    error = hexEscape(body, i);
    n = 4;
  } else if ((e == 'u' || e == 'U' || e == 'N') && body.bytes) {
    body.keep(i);  // not escapes in bytes literals
  } else if (e == 'u' || e == 'U') {
    error = unicodeEscape(body, i, n);
  } else if (e == 'N') {
    // Python looks the name up in the Unicode database, which kverify does not carry.
    if (problem.empty()) problem = "a \\N{...} escape (Unicode character name) is not decoded";
    body.keep(i);
  } else if (e >= '0' && e <= '7') {
    n = octalEscape(body, i);
  } else {
    body.keep(i);  // unrecognised escapes keep the backslash
  }
  i += n;
  return error;
}

// Where each byte of `src` is, and where its end is (one more entry than bytes).
std::vector<Pos> positions(std::string_view src) {
  std::vector<Pos> at(src.size() + 1);
  Pos p{1, 1};
  for (size_t i = 0; i <= src.size(); ++i) {
    at[i] = p;
    if (i < src.size() && src[i] == '\n')
      p = {p.line + 1, 1};
    else
      ++p.col;
  }
  return at;
}

// The tokenizer over one source: each token class is scanned by its own method, which
// returns where the next token may start.
class Lexer {
public:
  explicit Lexer(std::string_view src) : src_(src), at_(positions(src)) {}

  Tokens run() {
    for (size_t i = 0; i < src_.size();) i = next(i);
    if (!out_.error.empty()) {
      out_.tokens.clear();
      return std::move(out_);
    }
    if (line_has_tokens_) push(TokenKind::Newline, src_.size(), src_.size());
    Token end;
    end.kind = TokenKind::End;
    end.begin = end.end = at_[src_.size()];
    out_.tokens.push_back(end);
    return std::move(out_);
  }

private:
  static constexpr size_t kNone = std::string_view::npos;

  // Scans what starts at src[i] (a token, a blank, a line end); returns where the next
  // thing starts.
  size_t next(size_t i) {
    char c = src_[i];
    if (c == '\n') return lineEnd(i);
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f') return i + 1;
    // explicit line joining: a backslash at a line's end
    if (c == '\\' && (i + 1 < src_.size() && (src_[i + 1] == '\n' || src_[i + 1] == '\r')))
      return i + (src_[i + 1] == '\r' && i + 2 < src_.size() && src_[i + 2] == '\n' ? 3 : 2);
    if (c == '#') return comment(i);
    if (size_t end = string(i); end != kNone) return end;
    if (isNameStart(static_cast<unsigned char>(c))) return name(i);
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < src_.size() && std::isdigit(static_cast<unsigned char>(src_[i + 1]))))
      return number(i);
    return op(i);
  }

  void push(TokenKind kind, size_t b, size_t e) {
    Token t;
    t.kind = kind;
    t.text = std::string(src_.substr(b, e - b));
    t.begin = at_[b];
    t.end = at_[e > b ? e - 1 : b];
    t.first_on_line = at_line_start_;
    at_line_start_ = false;
    out_.tokens.push_back(std::move(t));
    if (kind != TokenKind::Comment) line_has_tokens_ = true;
  }

  // Records why the source does not tokenize; returns its end, where scanning stops.
  size_t fail(const std::string &why, size_t i) {
    out_.error = why;
    out_.error_at = at_[std::min(i, src_.size())];
    return src_.size();
  }

  // A line end: a Newline token unless brackets are open or the line has no tokens.
  size_t lineEnd(size_t i) {
    if (depth_ == 0 && line_has_tokens_) {
      push(TokenKind::Newline, i, i + 1);
      line_has_tokens_ = false;
    }
    at_line_start_ = true;
    return i + 1;
  }

  size_t comment(size_t i) {
    size_t e = src_.find('\n', i);
    if (e == std::string_view::npos) e = src_.size();
    push(TokenKind::Comment, i, e);
    return e;
  }

  // A string literal at src[i] with its prefix, decoded; kNone when there is none there.
  size_t string(size_t i) {
    size_t q = i;
    while (q < src_.size() && q - i < 3 && std::strchr("rRbBuUfF", src_[q]) && src_[q] != '\0') ++q;
    if (!(q < src_.size() && (src_[q] == '\'' || src_[q] == '"') && (q == i || isNameStart(src_[i]))))
      return kNone;
    std::string prefix;
    for (size_t k = i; k < q; ++k) prefix += static_cast<char>(std::tolower(src_[k]));
    bool valid = prefix.empty() || prefix == "r" || prefix == "u" || prefix == "b" || prefix == "f" ||
                 prefix == "br" || prefix == "rb" || prefix == "fr" || prefix == "rf";
    if (!valid) return kNone;  // a name, then a string
    char quote = src_[q];
    bool triple = q + 2 < src_.size() && src_[q + 1] == quote && src_[q + 2] == quote;
    size_t body = q + (triple ? 3 : 1), close = closingQuote(body, quote, triple);
    if (close == kNone)
      return fail(triple ? "unterminated triple-quoted string literal" : "unterminated string literal", i);
    size_t end = close + (triple ? 3 : 1);
    push(TokenKind::String, i, end);
    Token &t = out_.tokens.back();
    t.raw = prefix.find('r') != std::string::npos;
    t.bytes = prefix.find('b') != std::string::npos;
    t.fstring = prefix.find('f') != std::string::npos;
    std::vector<Pos> body_at(at_.begin() + static_cast<long>(body), at_.begin() + static_cast<long>(close));
    std::string why =
        decodeEscapes(src_.substr(body, close - body), t.raw, t.bytes, t.fstring, body_at, t.parts);
    if (!why.empty() && why[0] == '!')
      t.problem = why.substr(1);
    else if (!why.empty())
      return fail(why, i);
    return end;
  }

  // The closing quote(s) of a literal whose body starts at src[k]; kNone when it is not
  // terminated (a single-quoted one ends at its line's end).
  size_t closingQuote(size_t k, char quote, bool triple) const {
    while (k < src_.size()) {
      if (src_[k] == '\\') {
        k += 2;
        continue;
      }
      if (!triple && src_[k] == '\n') return kNone;
      if (src_[k] == quote &&
          (!triple || (k + 2 < src_.size() && src_[k + 1] == quote && src_[k + 2] == quote)))
        return k;
      ++k;
    }
    return kNone;
  }

  size_t name(size_t i) {
    size_t e = i;
    while (e < src_.size() && isNameChar(static_cast<unsigned char>(src_[e]))) ++e;
    push(TokenKind::Name, i, e);
    return e;
  }

  // A number: digits, letters, '_' and '.', and the exponent sign of a decimal float.
  size_t number(size_t i) {
    size_t e = i;
    while (e < src_.size()) {
      char d = src_[e];
      if (std::isalnum(static_cast<unsigned char>(d)) || d == '_' || d == '.') {
        ++e;
        continue;
      }
      // exponent sign of a decimal float: 1e-5
      if ((d == '+' || d == '-') && (src_[e - 1] == 'e' || src_[e - 1] == 'E') &&
          !(src_.substr(i, 2) == "0x" || src_.substr(i, 2) == "0X")) {
        ++e;
        continue;
      }
      break;
    }
    push(TokenKind::Number, i, e);
    return e;
  }

  // An operator (the longest of kOps, else one character); brackets count depth.
  size_t op(size_t i) {
    char c = src_[i];
    size_t len = 1;
    for (const char *op : kOps)
      if (src_.substr(i, std::strlen(op)) == op) {
        len = std::strlen(op);
        break;
      }
    if (len == 1) {
      if (c == '(' || c == '[' || c == '{')
        ++depth_;
      else if ((c == ')' || c == ']' || c == '}') && depth_ > 0)
        --depth_;
    }
    push(TokenKind::Op, i, i + len);
    return i + len;
  }

  std::string_view src_;
  std::vector<Pos> at_;  // the place of every byte
  Tokens out_;
  int depth_ = 0;  // open brackets: line ends inside them end no statement
  bool line_has_tokens_ = false, at_line_start_ = true;
};

}  // namespace

std::string decodeEscapes(std::string_view text, bool raw, bool bytes, bool fstring,
                          const std::vector<Pos> &at, std::vector<StringPart> &parts) {
  parts.assign(1, StringPart{});
  Body body{text, at, bytes, parts};
  std::string problem;
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    std::string error;
    if (fstring && (c == '{' || c == '}')) {
      error = decodeBrace(body, i);
    } else if (c != '\\' || i + 1 >= text.size()) {  // (a last backslash cannot end a terminated literal)
      body.literal().add(c, at[i]);
      ++i;
    } else if (raw) {  // a backslash escapes the quote for termination only; both stay
      body.keep(i);
      i += 2;
    } else {
      error = decodeEscape(body, i, problem);
    }
    if (!error.empty()) return error;
  }
  if (!problem.empty()) return "!" + problem;  // '!' marks a problem, not an error
  return "";
}

Tokens tokenize(std::string_view src) { return Lexer(src).run(); }

}  // namespace kverify::python
