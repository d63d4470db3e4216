// The Python tokenizer on its own: string literal rules (prefixes, quotes, escapes,
// f-string fields) and where each decoded byte came from.
#include "python/tokenizer.hpp"

#include <gtest/gtest.h>

using namespace kverify::python;

namespace {

// The one string token of `src`.
Token stringToken(const std::string &src) {
  Tokens t = tokenize(src);
  EXPECT_TRUE(t.error.empty()) << t.error;
  for (const Token &k : t.tokens)
    if (k.kind == TokenKind::String) return k;
  ADD_FAILURE() << "no string in " << src;
  return {};
}

std::string literal(const std::string &src) {
  Token t = stringToken(src);
  std::string out;
  for (const StringPart &p : t.parts) {
    EXPECT_FALSE(p.field);
    out += p.literal.text;
  }
  return out;
}

}  // namespace

TEST(PythonTokenizer, QuotesAndPrefixes) {
  EXPECT_EQ(literal("'a\"b'"), "a\"b");
  EXPECT_EQ(literal("\"a'b\""), "a'b");
  EXPECT_EQ(literal("'''x\n'y'\ny'''"), "x\n'y'\ny");
  EXPECT_EQ(literal("\"\"\"a \"\" b\"\"\""), "a \"\" b");
  EXPECT_EQ(literal("u'x'"), "x");
  EXPECT_EQ(literal("B'x'"), "x");
  EXPECT_TRUE(stringToken("Rb'x'").raw);
  EXPECT_TRUE(stringToken("Rb'x'").bytes);
  EXPECT_TRUE(stringToken("fR'x'").fstring);
}

TEST(PythonTokenizer, Escapes) {
  EXPECT_EQ(literal(R"('a\nb\tc')"), "a\nb\tc");
  EXPECT_EQ(literal(R"('\\ \' \" \a\b\f\r\v')"), "\\ ' \" \a\b\f\r\v");
  EXPECT_EQ(literal(R"('\x41\101\0')"), std::string("AA\0", 3));
  EXPECT_EQ(literal(R"('\u00e9')"), "\xC3\xA9");  // UTF-8 of U+00E9
  EXPECT_EQ(literal(R"('\U0001F600')"), "\xF0\x9F\x98\x80");
  EXPECT_EQ(literal(R"(b'\u00e9')"), "\\u00e9");  // not an escape in bytes
  EXPECT_EQ(literal(R"(b'\xff')"), "\xff");
  EXPECT_EQ(literal(R"('\q')"), "\\q");  // unknown escapes stay
  EXPECT_EQ(literal("'a\\\nb'"), "ab");  // backslash-newline: nothing
  EXPECT_EQ(literal("'''a\\\nb'''"), "ab");
}

TEST(PythonTokenizer, RawStrings) {
  EXPECT_EQ(literal(R"(r'a\nb')"), "a\\nb");
  EXPECT_EQ(literal(R"(r'\'')"), "\\'");  // the quote is escaped for termination only
  EXPECT_EQ(literal(R"(r"\\")"), "\\\\");
  EXPECT_EQ(literal("r'''x\\\ny'''"), "x\\\ny");
}

TEST(PythonTokenizer, NamedUnicodeEscapeIsAProblemNotAGuess) {
  Token t = stringToken(R"('\N{BULLET}')");
  EXPECT_NE(t.problem.find("\\N{"), std::string::npos);
}

TEST(PythonTokenizer, FStringFields) {
  Token t = stringToken("f'a{N}b{{c}}{x!s:>4}{d[\"k\"]}'");
  ASSERT_EQ(t.parts.size(), 5u);
  EXPECT_EQ(t.parts[0].literal.text, "a");
  EXPECT_TRUE(t.parts[1].field);
  EXPECT_EQ(t.parts[1].expr, "N");
  EXPECT_EQ(t.parts[1].at.col, 4u);
  EXPECT_EQ(t.parts[2].literal.text, "b{c}");
  EXPECT_EQ(t.parts[3].expr, "x");
  EXPECT_EQ(t.parts[3].conversion, "s");
  EXPECT_EQ(t.parts[3].spec, ">4");
  EXPECT_EQ(t.parts[4].expr, "d[\"k\"]");
}

// An escape that adds nothing (a line continuation) after a field starts no literal part.
TEST(PythonTokenizer, LineContinuationAfterAFieldAddsNoPart) {
  Token t = stringToken("f'{N}\\\n'");
  ASSERT_EQ(t.parts.size(), 2u);
  EXPECT_EQ(t.parts[0].literal.text, "");
  EXPECT_TRUE(t.parts[1].field);
  EXPECT_EQ(t.parts[1].expr, "N");
}

TEST(PythonTokenizer, PositionsOfDecodedBytes) {
  // line 2: `x = """ab` then line 3 `\tc\\nd"""`
  Tokens t = tokenize("# c\nx = \"\"\"ab\n\\tc\\nd\"\"\"\n");
  ASSERT_TRUE(t.error.empty());
  const Token &s = t.tokens[3];  // the comment, x, =, the string
  ASSERT_EQ(s.kind, TokenKind::String);
  const SourcedText &v = s.parts[0].literal;
  ASSERT_EQ(v.text, "ab\n\tc\nd");
  EXPECT_EQ(v.pos[0].line, 2u);
  EXPECT_EQ(v.pos[0].col, 8u);   // 'a' after x = """
  EXPECT_EQ(v.pos[3].line, 3u);  // the tab, from the two characters \t
  EXPECT_EQ(v.pos[3].col, 1u);
  EXPECT_EQ(v.pos[4].col, 3u);  // 'c' after the escape
  EXPECT_EQ(v.pos[6].col, 6u);  // 'd' after \n
}

TEST(PythonTokenizer, LogicalLinesCommentsAndErrors) {
  Tokens t = tokenize("f(a,\n  b)  # note\nx = 1 \\\n  + 2\n");
  ASSERT_TRUE(t.error.empty());
  int newlines = 0, comments = 0;
  for (const Token &k : t.tokens) {
    newlines += k.kind == TokenKind::Newline;
    comments += k.kind == TokenKind::Comment;
  }
  EXPECT_EQ(newlines, 2);  // the bracket and the backslash join lines
  EXPECT_EQ(comments, 1);
  EXPECT_FALSE(tokenize("x = 'abc\n").error.empty());
  EXPECT_FALSE(tokenize("x = '''abc\n").error.empty());
  EXPECT_EQ(tokenize("x = '''abc\n").error_at.line, 1u);
  EXPECT_FALSE(tokenize(R"(x = '\x4')").error.empty());
}

TEST(PythonTokenizer, NumbersAndOperators) {
  Tokens t = tokenize("a //= 0x1F ** 2 << 1_000\n");
  ASSERT_TRUE(t.error.empty());
  std::vector<std::string> texts;
  for (const Token &k : t.tokens)
    if (k.kind != TokenKind::Newline && k.kind != TokenKind::End) texts.push_back(k.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"a", "//=", "0x1F", "**", "2", "<<", "1_000"}));
}
