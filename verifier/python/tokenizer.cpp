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

}  // namespace

std::string decodeEscapes(std::string_view body, bool raw, bool bytes, bool fstring,
                          const std::vector<Pos> &at, std::vector<StringPart> &parts) {
  parts.assign(1, StringPart{});
  auto lit = [&]() -> SourcedText & {
    if (parts.back().field) parts.emplace_back();
    return parts.back().literal;
  };
  std::string problem;
  for (size_t i = 0; i < body.size();) {
    char c = body[i];
    if (fstring && (c == '{' || c == '}')) {
      if (i + 1 < body.size() && body[i + 1] == c) {  // {{ and }} stand for one brace
        lit().add(c, at[i]);
        i += 2;
        continue;
      }
      if (c == '}') return "single '}' is not allowed in an f-string";
      StringPart field;
      field.field = true;
      field.at = at[i];
      size_t close = scanField(body, i + 1, field);
      if (close == std::string_view::npos)
        return "f-string field not decoded: '" + std::string(body.substr(i, 20)) + "'";
      std::string_view inner = body.substr(i + 1, close - i - 1);
      // split expr!conv:spec at depth 0 (scanField checked the structure)
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
        else if (depth == 0 && d == '!' && bang == std::string_view::npos &&
                 colon == std::string_view::npos && k + 1 < inner.size() && inner[k + 1] != '=')
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
      parts.push_back(std::move(field));
      i = close + 1;
      continue;
    }
    if (c != '\\') {
      lit().add(c, at[i]);
      ++i;
      continue;
    }
    if (i + 1 >= body.size()) {  // cannot happen for a terminated literal
      lit().add(c, at[i]);
      ++i;
      continue;
    }
    char e = body[i + 1];
    if (raw) {  // a backslash escapes the quote for termination only; both stay
      lit().add(c, at[i]);
      lit().add(e, at[i + 1]);
      i += 2;
      continue;
    }
    Pos p = at[i];
    size_t n = 2;
    switch (e) {
      case '\n': break;  // line continuation: nothing
      case '\r':
        if (i + 2 < body.size() && body[i + 2] == '\n') n = 3;
        break;
      case '\\': lit().add('\\', p); break;
      case '\'': lit().add('\'', p); break;
      case '"': lit().add('"', p); break;
      case 'a': lit().add('\a', p); break;
      case 'b': lit().add('\b', p); break;
      case 'f': lit().add('\f', p); break;
      case 'n': lit().add('\n', p); break;
      case 'r': lit().add('\r', p); break;
      case 't': lit().add('\t', p); break;
      case 'v': lit().add('\v', p); break;
      case 'x': {
        int h1 = i + 2 < body.size() ? hexDigit(body[i + 2]) : -1;
        int h2 = i + 3 < body.size() ? hexDigit(body[i + 3]) : -1;
        if (h1 < 0 || h2 < 0) return "truncated \\xXX escape";
        uint32_t v = static_cast<uint32_t>(h1 * 16 + h2);
        if (bytes)
          lit().add(static_cast<char>(v), p);
        else
          addCodePoint(v, p, lit());
        n = 4;
        break;
      }
      case 'u':
      case 'U': {
        size_t digits = e == 'u' ? 4 : 8;
        if (bytes) {  // not an escape in bytes literals
          lit().add('\\', p);
          lit().add(e, at[i + 1]);
          break;
        }
        uint32_t v = 0;
        for (size_t k = 0; k < digits; ++k) {
          int h = i + 2 + k < body.size() ? hexDigit(body[i + 2 + k]) : -1;
          if (h < 0) return std::string("truncated \\") + e + " escape";
          v = v * 16 + static_cast<uint32_t>(h);
        }
        if (v > 0x10FFFF) return "illegal Unicode character in \\U escape";
        addCodePoint(v, p, lit());
        n = 2 + digits;
        break;
      }
      case 'N':
        if (bytes) {
          lit().add('\\', p);
          lit().add(e, at[i + 1]);
          break;
        }
        // Python looks the name up in the Unicode database, which kverify does not carry.
        if (problem.empty()) problem = "a \\N{...} escape (Unicode character name) is not decoded";
        lit().add('\\', p);
        lit().add('N', at[i + 1]);
        break;
      default:
        if (e >= '0' && e <= '7') {
          uint32_t v = 0;
          n = 1;
          while (n < 4 && i + n < body.size() && body[i + n] >= '0' && body[i + n] <= '7')
            v = v * 8 + static_cast<uint32_t>(body[i + n++] - '0');
          if (bytes)
            lit().add(static_cast<char>(v & 0xFF), p);
          else
            addCodePoint(v, p, lit());
        } else {  // unrecognised escapes keep the backslash
          lit().add('\\', p);
          lit().add(e, at[i + 1]);
        }
    }
    i += n;
  }
  if (!problem.empty()) return "!" + problem;  // '!' marks a problem, not an error
  return "";
}

Tokens tokenize(std::string_view src) {
  Tokens out;
  // place of every byte
  std::vector<Pos> at(src.size() + 1);
  {
    Pos p{1, 1};
    for (size_t i = 0; i <= src.size(); ++i) {
      at[i] = p;
      if (i < src.size() && src[i] == '\n')
        p = {p.line + 1, 1};
      else
        ++p.col;
    }
  }
  int depth = 0;
  bool line_has_tokens = false, at_line_start = true;
  auto push = [&](TokenKind kind, size_t b, size_t e) {
    Token t;
    t.kind = kind;
    t.text = std::string(src.substr(b, e - b));
    t.begin = at[b];
    t.end = at[e > b ? e - 1 : b];
    t.first_on_line = at_line_start;
    at_line_start = false;
    out.tokens.push_back(std::move(t));
    if (kind != TokenKind::Comment) line_has_tokens = true;
  };
  auto fail = [&](const std::string &why, size_t i) {
    out.error = why;
    out.error_at = at[std::min(i, src.size())];
    out.tokens.clear();
    return out;
  };
  size_t i = 0;
  while (i < src.size()) {
    char c = src[i];
    if (c == '\n') {
      if (depth == 0 && line_has_tokens) {
        push(TokenKind::Newline, i, i + 1);
        line_has_tokens = false;
      }
      at_line_start = true;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      ++i;
      continue;
    }
    if (c == '\\' && (i + 1 < src.size() && (src[i + 1] == '\n' || src[i + 1] == '\r'))) {
      i += src[i + 1] == '\r' && i + 2 < src.size() && src[i + 2] == '\n' ? 3 : 2;
      continue;  // explicit line joining
    }
    if (c == '#') {
      size_t e = src.find('\n', i);
      if (e == std::string_view::npos) e = src.size();
      push(TokenKind::Comment, i, e);
      i = e;
      continue;
    }
    // a string, with an optional prefix
    size_t q = i;
    while (q < src.size() && q - i < 3 && std::strchr("rRbBuUfF", src[q]) && src[q] != '\0') ++q;
    if (q < src.size() && (src[q] == '\'' || src[q] == '"') && (q == i || isNameStart(src[i]))) {
      std::string prefix;
      for (size_t k = i; k < q; ++k) prefix += static_cast<char>(std::tolower(src[k]));
      bool valid = prefix.empty() || prefix == "r" || prefix == "u" || prefix == "b" || prefix == "f" ||
                   prefix == "br" || prefix == "rb" || prefix == "fr" || prefix == "rf";
      if (valid) {
        char quote = src[q];
        bool triple = q + 2 < src.size() && src[q + 1] == quote && src[q + 2] == quote;
        size_t body = q + (triple ? 3 : 1), k = body, close = std::string_view::npos;
        while (k < src.size()) {
          if (src[k] == '\\') {
            k += 2;
            continue;
          }
          if (!triple && src[k] == '\n') return fail("unterminated string literal", i);
          if (src[k] == quote &&
              (!triple || (k + 2 < src.size() && src[k + 1] == quote && src[k + 2] == quote))) {
            close = k;
            break;
          }
          ++k;
        }
        if (close == std::string_view::npos)
          return fail(triple ? "unterminated triple-quoted string literal" : "unterminated string literal",
                      i);
        size_t end = close + (triple ? 3 : 1);
        push(TokenKind::String, i, end);
        Token &t = out.tokens.back();
        t.raw = prefix.find('r') != std::string::npos;
        t.bytes = prefix.find('b') != std::string::npos;
        t.fstring = prefix.find('f') != std::string::npos;
        std::vector<Pos> body_at(at.begin() + static_cast<long>(body), at.begin() + static_cast<long>(close));
        std::string why =
            decodeEscapes(src.substr(body, close - body), t.raw, t.bytes, t.fstring, body_at, t.parts);
        if (!why.empty() && why[0] == '!')
          t.problem = why.substr(1);
        else if (!why.empty())
          return fail(why, i);
        i = end;
        continue;
      }
    }
    if (isNameStart(static_cast<unsigned char>(c))) {
      size_t e = i;
      while (e < src.size() && isNameChar(static_cast<unsigned char>(src[e]))) ++e;
      push(TokenKind::Name, i, e);
      i = e;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < src.size() && std::isdigit(static_cast<unsigned char>(src[i + 1])))) {
      size_t e = i;
      while (e < src.size()) {
        char d = src[e];
        if (std::isalnum(static_cast<unsigned char>(d)) || d == '_' || d == '.') {
          ++e;
          continue;
        }
        // exponent sign of a decimal float: 1e-5
        if ((d == '+' || d == '-') && (src[e - 1] == 'e' || src[e - 1] == 'E') &&
            !(src.substr(i, 2) == "0x" || src.substr(i, 2) == "0X")) {
          ++e;
          continue;
        }
        break;
      }
      push(TokenKind::Number, i, e);
      i = e;
      continue;
    }
    size_t len = 1;
    for (const char *op : kOps)
      if (src.substr(i, std::strlen(op)) == op) {
        len = std::strlen(op);
        break;
      }
    if (len == 1) {
      if (c == '(' || c == '[' || c == '{')
        ++depth;
      else if ((c == ')' || c == ']' || c == '}') && depth > 0)
        --depth;
    }
    push(TokenKind::Op, i, i + len);
    i += len;
  }
  if (line_has_tokens) push(TokenKind::Newline, src.size(), src.size());
  Token end;
  end.kind = TokenKind::End;
  end.begin = end.end = at[src.size()];
  out.tokens.push_back(end);
  return out;
}

}  // namespace kverify::python
