#pragma once
// Evaluates the Python expressions that build kernel sources and launch sizes: string
// literals (implicit concatenation, f-strings), integers, tuples, `+ - * // % ** << >> & | ^`,
// `str % args`, `str.format(...)`, int()/str()/min()/max() and numpy integer casts
// (`np.int32(256)`), and names, through a lookup the caller provides (module and function
// constants). Anything else is Unknown with the reason, so nothing is guessed.

#include "python/tokenizer.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kverify::python {

struct Value {
  enum class Kind { Str, Int, Bool, None, Tuple, Dict, Unknown };
  Kind kind = Kind::Unknown;
  SourcedText str;                                     // Str
  int64_t num = 0;                                     // Int, Bool
  std::vector<Value> items;                            // Tuple (lists too)
  std::vector<std::pair<std::string, Value>> entries;  // Dict with string keys
  std::string why;                                     // Unknown: the reason
  Pos at;                                              // where the expression starts

  static Value unknown(std::string why, Pos at) {
    Value v;
    v.why = std::move(why);
    v.at = at;
    return v;
  }
  static Value integer(int64_t n, Pos at) {
    Value v;
    v.kind = Kind::Int;
    v.num = n;
    v.at = at;
    return v;
  }
  bool known() const { return kind != Kind::Unknown; }
};

// The value a name has where the expression is, or Unknown with the reason.
using Lookup = std::function<Value(const std::string &name, Pos at)>;

// Evaluates tokens [begin, end) of `tokens` as one expression.
Value evaluate(const std::vector<Token> &tokens, size_t begin, size_t end, const Lookup &lookup);

// `template % args` (printf-style) and `template.format(positional, keywords)`, as Python does
// for the conversions kernels use; Unknown with the reason for the others.
Value percentFormat(const Value &tmpl, const Value &args);
Value braceFormat(const Value &tmpl, const std::vector<Value> &positional,
                  const std::vector<std::pair<std::string, Value>> &keywords);

// str(value) for Int/Str/Bool; Unknown otherwise. Substituted text points at `at`.
Value toStr(const Value &v, Pos at);

}  // namespace kverify::python
