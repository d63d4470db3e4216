// The location map: a range in the generated .cu text back to the .py file, exact after
// substitutions; other files' ranges untouched.
#include "python/location_map.hpp"
#include "python/module.hpp"

#include <gtest/gtest.h>

using namespace kverify::python;

TEST(PythonLocationMap, RangesAfterASubstitutionKeepTheirPythonColumns) {
  std::string error;
  Pos at;
  std::optional<Module> m = Module::read("N = 1024\nsrc = f'''\n  s[{N}] = t[i];\n'''\n", error, at);
  ASSERT_TRUE(m);
  Value v = m->lookup("src", 0);
  ASSERT_EQ(v.str.text, "\n  s[1024] = t[i];\n");
  LocationMap map("/tmp/gen.cu", "app.py", v.str, Pos{2, 7});
  // `t[i]` is on generated line 2, columns 13..16; in the .py file line 3, columns 12..15
  // (the four bytes of 1024 replaced the three of {N})
  kverify::model::SourceRange r{"/tmp/gen.cu", 2, 13, 2, 16};
  kverify::model::SourceRange py = map.map(r);
  EXPECT_EQ(py.file, "app.py");
  EXPECT_EQ(py.line, 3u);
  EXPECT_EQ(py.col, 12u);
  EXPECT_EQ(py.end_col, 15u);
  // `s[1024]`: its 1024 points at the {N} field
  kverify::model::SourceRange field = map.map({"/tmp/gen.cu", 2, 5, 2, 8});
  EXPECT_EQ(field.col, 5u);
  EXPECT_EQ(field.end_col, 5u);
  kverify::model::SourceRange header{"/usr/include/x.h", 4, 2, 4, 3};
  EXPECT_EQ(map.map(header).file, "/usr/include/x.h");
  EXPECT_EQ(map.map(header).line, 4u);
}
