#pragma once
// String formatting as the evaluator does it (evaluate.hpp): `template % args`
// (printf-style), `template.format(...)`, f-string fields' `!conversion:spec`, and str().
// Every string built here is capped at kMaxString.

#include "python/evaluate.hpp"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace kverify::python {

// The longest string the evaluator builds (a kernel source is far shorter): a format
// width or a repetition beyond it is not evaluated, rather than built in memory
// (`"%1000000000d" % n` would take gigabytes).
constexpr size_t kMaxString = size_t(16) << 20;
// Unknown: a string longer than kMaxString.
Value tooLong(Pos at);

// `template % args` (printf-style) and `template.format(positional, keywords)`, as Python does
// for the conversions kernels use; Unknown with the reason for the others.
Value percentFormat(const Value &tmpl, const Value &args);
Value braceFormat(const Value &tmpl, const std::vector<Value> &positional,
                  const std::vector<std::pair<std::string, Value>> &keywords);

// A format spec of `{:spec}` and f-string fields (empty, d, s, or a width) after the
// conversion `!s` (or none).
Value applySpec(const Value &v, const std::string &conversion, const std::string &spec, Pos at);

// str(value) for Int/Str/Bool; Unknown otherwise. Substituted text points at `at`.
Value toStr(const Value &v, Pos at);

}  // namespace kverify::python
