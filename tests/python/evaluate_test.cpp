// The constant evaluator: strings, formatting, integers, names through a Module's scopes.
#include "python/module.hpp"

#include <gtest/gtest.h>

using namespace kverify::python;

namespace {

// The value of the last statement's right-hand side (`name = expr`), in its scope.
Value valueOf(const std::string &src, const std::string &name) {
  std::string error;
  Pos at;
  std::optional<Module> m = Module::read(src, error, at);
  EXPECT_TRUE(m) << error;
  if (!m) return {};
  return m->lookup(name, 0);
}

std::string text(const std::string &src, const std::string &name = "s") {
  Value v = valueOf(src, name);
  EXPECT_EQ(v.kind, Value::Kind::Str) << v.why;
  return v.str.text;
}

}  // namespace

TEST(PythonEvaluate, ImplicitConcatenationAndPlus) {
  EXPECT_EQ(text("s = 'a' \"b\" r'\\n' + '''c'''\n"), "ab\\nc");
  EXPECT_EQ(text("s = ('x'\n     'y')\n"), "xy");
  EXPECT_EQ(valueOf("s = 'a' b'b'\n", "s").kind, Value::Kind::Unknown);
}

TEST(PythonEvaluate, PercentFormatting) {
  EXPECT_EQ(text("N = 256\ns = 'float t[%d];' % N\n"), "float t[256];");
  EXPECT_EQ(text("s = '%d %s %%' % (4, 'x')\n"), "4 x %");
  EXPECT_EQ(text("s = '%(n)d-%(m)05d' % {'n': 1, 'm': 42}\n"), "1-00042");
  EXPECT_EQ(text("s = '%x' % 255\n"), "ff");
  EXPECT_EQ(valueOf("s = '%d %d' % (1,)\n", "s").why, "not enough arguments for format string");
  EXPECT_EQ(valueOf("s = '%f' % 1\n", "s").kind, Value::Kind::Unknown);
}

// Why a `%` conversion is not evaluated, in the order it is read: the key or the next
// positional argument, then flags, width, precision and type; a key missing from the
// mapping only once the conversion is read.
TEST(PythonEvaluate, PercentFormattingReasons) {
  auto why = [](const std::string &src) { return valueOf(src, "s").why; };
  EXPECT_EQ(why("s = '%(k' % {'k': 1}\n"), "incomplete format key");
  EXPECT_EQ(why("s = '%(k)d' % (1,)\n"), "format requires a mapping");
  EXPECT_EQ(why("s = '%+d' % {'k': 1}\n"), "format requires a tuple, not a mapping");
  EXPECT_EQ(why("s = '%(k)+d' % {}\n"), "format flag '+' is not evaluated");
  EXPECT_EQ(why("s = '%(k).2d' % {}\n"), "format precision is not evaluated");
  EXPECT_EQ(why("s = '%(k)5' % {'k': 1}\n"), "incomplete format");
  EXPECT_EQ(why("s = '%(k)d' % {}\n"), "key 'k' is not in the mapping");
  EXPECT_EQ(why("s = '%x' % -1\n"), "%x of a value that is not a non-negative integer");
  EXPECT_EQ(why("s = '%d %d' % (1, 2, 3)\n"), "not all arguments converted during string formatting");
  EXPECT_EQ(text("s = '%-5x|%05o|%-05d|%5s' % (255, 8, 7, 'ab')\n"), "ff   |00010|7    |   ab");
}

TEST(PythonEvaluate, BraceFormatAndFStrings) {
  EXPECT_EQ(text("B = 128\ns = '{} {0} {n}'.format(B, n=2)\n"), "128 128 2");
  EXPECT_EQ(text("B = 128\ns = f'int s[{B}]; {{x}} {B * 2:d}'\n"), "int s[128]; {x} 256");
  EXPECT_EQ(text("T = 'float'\ns = f'{T} x;'\n"), "float x;");
  EXPECT_EQ(valueOf("s = f'{B}'\n", "s").why, "'B' is not a constant defined in this file");
}

// Strings that would take gigabytes are not built: a huge width, repetition or
// concatenation is unknown (the kernel then `unsupported`), with the reason.
TEST(PythonEvaluate, HugeStringsAreNotBuilt) {
  const std::string why = "builds a string longer than 16 MiB";
  EXPECT_EQ(valueOf("s = '%1000000000d' % 3\n", "s").why, why);
  EXPECT_EQ(valueOf("s = '%99999999999999999999999d' % 3\n", "s").why, why);
  EXPECT_EQ(valueOf("s = '{:1000000000}'.format(3)\n", "s").why, why);
  EXPECT_EQ(valueOf("s = '{:99999999999999999999999}'.format(3)\n", "s").why, why);
  EXPECT_EQ(valueOf("s = 'abcd' * 100000000\n", "s").why, why);
  EXPECT_EQ(valueOf("s = '%9000000d%9000000d' % (1, 2)\n", "s").why, why);
  EXPECT_EQ(text("s = '%5d|' % 42 + 'ab' * 3\n"), "   42|ababab");  // small ones still are
}

TEST(PythonEvaluate, Integers) {
  EXPECT_EQ(valueOf("n = (1000 + 255) // 256\n", "n").num, 4);
  EXPECT_EQ(valueOf("n = -7 // 2\n", "n").num, -4);  // Python floors
  EXPECT_EQ(valueOf("n = -7 % 2\n", "n").num, 1);
  EXPECT_EQ(valueOf("n = 2 ** 10 | 1 << 3\n", "n").num, 1032);
  EXPECT_EQ(valueOf("n = int(np.int32(7)) + min(3, 9)\n", "n").num, 10);
  EXPECT_EQ(valueOf("n = 7 / 2\n", "n").kind, Value::Kind::Unknown);
  EXPECT_EQ(valueOf("n = 2 ** 64\n", "n").kind, Value::Kind::Unknown);
  Value t = valueOf("N = 8\nt = (N, 1, 1)\n", "t");
  ASSERT_EQ(t.kind, Value::Kind::Tuple);
  EXPECT_EQ(t.items[0].num, 8);
  Value nested = valueOf("T = ((1, 2, 3),)\nu = T[0]\n", "u");  // an element that is a tuple
  ASSERT_EQ(nested.kind, Value::Kind::Tuple);
  ASSERT_EQ(nested.items.size(), 3u);
  EXPECT_EQ(nested.items[2].num, 3);
  EXPECT_EQ(valueOf("T = ((1, 2), 3)\nx = T[0][1]\n", "x").num, 2);
}

TEST(PythonEvaluate, ScopesAndBindings) {
  // a name assigned twice, a loop variable, a parameter: not constants
  EXPECT_EQ(valueOf("n = 1\nn = 2\n", "n").why, "'n' is assigned more than once");
  EXPECT_EQ(valueOf("for n in (1, 2):\n    pass\n", "n").why, "'n' is a loop variable");
  std::string error;
  Pos at;
  std::optional<Module> m = Module::read(
      "N = 4\ndef f(n, k=2):\n    m = N * 2\n    return m\nclass C:\n    Z = 3\n    def g(self):\n        "
      "return 1\n",
      error, at);
  ASSERT_TRUE(m);
  size_t f = 0, g = 0;
  for (size_t s = 0; s < m->scopes().size(); ++s) {
    if (m->scopes()[s].name == "f") f = s;
    if (m->scopes()[s].name == "g") g = s;
  }
  ASSERT_NE(f, 0u);
  EXPECT_EQ(m->lookup("m", f).num, 8);
  EXPECT_EQ(m->lookup("n", f).why, "'n' is a parameter of 'f()'");
  EXPECT_EQ(m->lookup("k", f).kind, Value::Kind::Unknown);
  EXPECT_EQ(m->lookup("Z", g).kind, Value::Kind::Unknown);  // class attributes are not in a method's scope
  EXPECT_EQ(m->lookup("N", g).num, 4);
}

TEST(PythonEvaluate, SubstitutedTextPointsAtItsOrigin) {
  Value v = valueOf("N = 256\ns = f'x[{N}] y'\n", "s");
  ASSERT_EQ(v.str.text, "x[256] y");
  EXPECT_EQ(v.str.pos[0].line, 2u);
  EXPECT_EQ(v.str.pos[0].col, 7u);   // x
  EXPECT_EQ(v.str.pos[2].col, 9u);   // the 256 stands where {N} is
  EXPECT_EQ(v.str.pos[7].col, 14u);  // y, after the field
  Value w = valueOf("H = 'ab'\ns = '<%s>' % H\n", "s");
  ASSERT_EQ(w.str.text, "<ab>");
  EXPECT_EQ(w.str.pos[1].line, 1u);  // a substituted string keeps its own place
  EXPECT_EQ(w.str.pos[1].col, 6u);
}
