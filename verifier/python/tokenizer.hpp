#pragma once
// A tokenizer for Python source, exact where kverify needs it: string literals (prefixes
// r/b/u/f in any case and combination, single, double and triple quotes, every escape
// Python decodes, implicit concatenation left to the evaluator) with the .py line and
// column each decoded byte came from. Everything else is names, numbers, operators,
// comments and logical-line ends, enough to find calls and constant assignments.
// No Clang, no LLVM: unit-tested on its own (tests/python).

#include <string>
#include <string_view>
#include <vector>

namespace kverify::python {

// A place in the .py file: 1-based line and byte column (clang's convention).
struct Pos {
  unsigned line = 0, col = 0;
  bool valid() const { return line != 0; }
};

// Text with, for each byte, the place in the .py file it came from. Substituted text
// (a constant put in by `%`, `.format` or an f-string) points at what it came from.
struct SourcedText {
  std::string text;
  std::vector<Pos> pos;  // pos.size() == text.size()

  void add(char c, Pos p) {
    text += c;
    pos.push_back(p);
  }
  void append(const SourcedText &other) {
    text += other.text;
    pos.insert(pos.end(), other.pos.begin(), other.pos.end());
  }
  // `s`, every byte attributed to `p` (generated text, substituted numbers).
  void append(std::string_view s, Pos p) {
    text += s;
    pos.insert(pos.end(), s.size(), p);
  }
};

enum class TokenKind { Name, Number, String, Op, Comment, Newline, End };

// One piece of a string literal: decoded literal text, or (f-strings) a replacement
// field `{expr!conv:spec}`.
struct StringPart {
  bool field = false;
  SourcedText literal;  // !field
  std::string expr;     // field: the expression's text
  std::string conversion, spec;
  Pos at;  // field: the `{`
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;            // the source text (strings: with prefix and quotes)
  Pos begin, end;              // first and last character
  bool first_on_line = false;  // nothing but blanks before it on its line
  // Strings only.
  bool raw = false, bytes = false, fstring = false;
  std::vector<StringPart> parts;  // one literal part unless an f-string has fields
  std::string problem;            // why the value cannot be used (e.g. a \N{...} escape)
};

struct Tokens {
  std::vector<Token> tokens;  // ends with an End token
  std::string error;          // empty: tokenized; else why not (the file is not Python)
  Pos error_at;
};

Tokens tokenize(std::string_view source);

// Decodes the body of a string literal (between the quotes). `body_at` maps a byte
// offset of `body` to its place. Exposed for f-string fields and for tests.
std::string decodeEscapes(std::string_view body, bool raw, bool bytes, bool fstring,
                          const std::vector<Pos> &body_pos, std::vector<StringPart> &parts);

}  // namespace kverify::python
