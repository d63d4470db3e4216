#pragma once
// Evaluates the Python expressions that build kernel sources and launch sizes: string
// literals (implicit concatenation, f-strings), integers, tuples, `+ - * // % ** << >> & | ^`,
// `str % args`, `str.format(...)`, int()/str()/min()/max() and numpy integer casts
// (`np.int32(256)`), and names, through a lookup the caller provides (module and function
// constants). Anything else is Unknown with the reason, so nothing is guessed. The string
// formatting is in format.hpp.

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
  static Value string(SourcedText s, Pos at) {
    Value v;
    v.kind = Kind::Str;
    v.str = std::move(s);
    v.at = at;
    return v;
  }
  bool known() const { return kind != Kind::Unknown; }
};

// Int or Bool: the values integer operations take.
inline bool isIntLike(const Value &v) { return v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool; }

// The value a name has where the expression is, or Unknown with the reason.
using Lookup = std::function<Value(const std::string &name, Pos at)>;

// Evaluates tokens [begin, end) of `tokens` as one expression.
Value evaluate(const std::vector<Token> &tokens, size_t begin, size_t end, const Lookup &lookup);

}  // namespace kverify::python
