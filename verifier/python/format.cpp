// String formatting (see format.hpp): printf-style `%`, `.format` and f-string specs.
#include "python/format.hpp"

#include <cctype>
#include <cstdio>
#include <optional>

namespace kverify::python {
namespace {

using Kind = Value::Kind;

// The arguments of `template % args`: a mapping (`%(key)d`), or the positional ones (a
// tuple's items, or the one value) taken in order.
struct PercentArgs {
  const Value &args;
  std::vector<Value> positional;
  size_t next = 0;

  explicit PercentArgs(const Value &a) : args(a) {
    if (a.kind == Kind::Tuple)
      positional = a.items;
    else if (a.kind != Kind::Dict)
      positional.push_back(a);
  }
};

// One conversion `%[(key)][flags][width][length]type` as read, with its argument.
struct Conversion {
  Value arg;
  bool left = false, zero = false;  // the flags '-' and '0'
  size_t width = 0;
  char type = 0;
};

// The argument of the conversion whose text after '%' starts at s[k]: by `(key)` from the
// mapping (k moves past the key), else the next positional one. Returns the Unknown that
// stops formatting, if any; a key missing from the mapping makes `arg` Unknown instead,
// reported once the rest of the conversion is read.
std::optional<Value> takeArgument(const std::string &s, size_t &k, PercentArgs &from, Pos at, Value &arg) {
  if (k < s.size() && s[k] == '(') {
    size_t close = s.find(')', k);
    if (close == std::string::npos) return Value::unknown("incomplete format key", at);
    std::string key = s.substr(k + 1, close - k - 1);
    if (from.args.kind != Kind::Dict) return Value::unknown("format requires a mapping", at);
    arg = Value::unknown("key '" + key + "' is not in the mapping", at);
    for (const auto &[name, value] : from.args.entries)
      if (name == key) arg = value;
    k = close + 1;
    return std::nullopt;
  }
  if (from.args.kind == Kind::Dict) return Value::unknown("format requires a tuple, not a mapping", at);
  if (from.next >= from.positional.size())
    return Value::unknown("not enough arguments for format string", at);
  arg = from.positional[from.next++];
  return std::nullopt;
}

// Reads the flags, width and length of a conversion from s[k] up to its type, which k ends
// at. Returns the Unknown that stops formatting, if any (precision is not evaluated).
std::optional<Value> readConversion(const std::string &s, size_t &k, Conversion &c, Pos at) {
  while (k < s.size() && std::string("-+ #0").find(s[k]) != std::string::npos) {
    if (s[k] == '-')
      c.left = true;
    else if (s[k] == '0')
      c.zero = true;
    else
      return Value::unknown(std::string("format flag '") + s[k] + "' is not evaluated", at);
    ++k;
  }
  while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k])))
    if ((c.width = c.width * 10 + static_cast<size_t>(s[k++] - '0')) > kMaxString) return tooLong(at);
  if (k < s.size() && (s[k] == '.' || s[k] == '*'))
    return Value::unknown("format precision is not evaluated", at);
  while (k < s.size() && (s[k] == 'h' || s[k] == 'l' || s[k] == 'L')) ++k;
  if (k >= s.size()) return Value::unknown("incomplete format", at);
  c.type = s[k];
  return std::nullopt;
}

// The text of a conversion whose argument is known: the argument converted by the type
// (d i u s x X o), then padded to the width.
Value renderConversion(const Conversion &c, Pos at) {
  const Value &arg = c.arg;
  char type = c.type;
  Value text;
  if (type == 'd' || type == 'i' || type == 'u') {
    if (!isIntLike(arg)) return Value::unknown("%d of a value that is not an integer", at);
    text = toStr(Value::integer(arg.num, at), at);
  } else if (type == 's') {
    text = toStr(arg, at);
  } else if (type == 'x' || type == 'X' || type == 'o') {
    if (!isIntLike(arg) || arg.num < 0)
      return Value::unknown("%x of a value that is not a non-negative integer", at);
    char buf[32];
    std::snprintf(buf, sizeof buf,
                  type == 'x'   ? "%llx"
                  : type == 'X' ? "%llX"
                                : "%llo",
                  static_cast<unsigned long long>(arg.num));
    text = Value::string({}, at);
    text.str.append(buf, at);
  } else {
    return Value::unknown(std::string("format '%") + type + "' is not evaluated", at);
  }
  if (!text.known()) return text;
  if (text.str.text.size() < c.width) {
    SourcedText pad;
    pad.append(std::string(c.width - text.str.text.size(), c.zero && !c.left && type != 's' ? '0' : ' '), at);
    if (c.left)
      text.str.append(pad);
    else {
      pad.append(text.str);
      text.str = pad;
    }
  }
  return text;
}

}  // namespace

Value tooLong(Pos at) {
  return Value::unknown("builds a string longer than " + std::to_string(kMaxString >> 20) + " MiB", at);
}

// Applies a format spec of `{:spec}` / f-strings: empty, d, s, or a width.
Value applySpec(const Value &v, const std::string &conversion, const std::string &spec, Pos at) {
  if (!conversion.empty() && conversion != "s")
    return Value::unknown("conversion '!" + conversion + "' is not evaluated", at);
  std::string s = spec;
  char type = 0;
  if (!s.empty() && std::isalpha(static_cast<unsigned char>(s.back()))) {
    type = s.back();
    s.pop_back();
  }
  if (type && type != 'd' && type != 's')
    return Value::unknown("format spec ':" + spec + "' is not evaluated", at);
  if (type == 'd' && !isIntLike(v)) return Value::unknown("':d' of a value that is not an integer", at);
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return Value::unknown("format spec ':" + spec + "' is not evaluated", at);
  if (s.size() > 8) return tooLong(at);  // (and no overflow reading it)
  Value text = toStr(v, at);
  if (!text.known()) return text;
  size_t width = s.empty() ? 0 : std::stoul(s);
  if (width > kMaxString) return tooLong(at);
  if (text.str.text.size() < width) {  // numbers align right, strings left
    SourcedText pad;
    pad.append(std::string(width - text.str.text.size(), ' '), at);
    if (isIntLike(v)) {
      pad.append(text.str);
      text.str = pad;
    } else
      text.str.append(pad);
  }
  return text;
}

Value toStr(const Value &v, Pos at) {
  switch (v.kind) {
    case Kind::Str: return v;
    case Kind::Int: {
      SourcedText s;
      s.append(std::to_string(v.num), at);
      return Value::string(s, at);
    }
    case Kind::Bool: {
      SourcedText s;
      s.append(v.num ? "True" : "False", at);
      return Value::string(s, at);
    }
    case Kind::None: {
      SourcedText s;
      s.append("None", at);
      return Value::string(s, at);
    }
    case Kind::Unknown: return v;
    default: return Value::unknown("str() of a tuple or dict is not evaluated", at);
  }
}

Value percentFormat(const Value &tmpl, const Value &args) {
  if (!args.known()) return args;
  PercentArgs from(args);
  const std::string &s = tmpl.str.text;
  SourcedText out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out.add(s[i], tmpl.str.pos[i]);
      continue;
    }
    Pos at = tmpl.str.pos[i];
    size_t k = i + 1;
    if (k < s.size() && s[k] == '%') {
      out.add('%', at);
      i = k;
      continue;
    }
    Conversion c;
    if (std::optional<Value> stop = takeArgument(s, k, from, at, c.arg)) return *stop;
    if (std::optional<Value> stop = readConversion(s, k, c, at)) return *stop;
    if (!c.arg.known()) return c.arg;
    Value text = renderConversion(c, at);
    if (!text.known()) return text;
    out.append(text.str);
    if (out.text.size() > kMaxString) return tooLong(at);
    i = k;
  }
  if (args.kind != Kind::Dict && from.next < from.positional.size())
    return Value::unknown("not all arguments converted during string formatting", tmpl.at);
  return Value::string(out, tmpl.at);
}

Value braceFormat(const Value &tmpl, const std::vector<Value> &positional,
                  const std::vector<std::pair<std::string, Value>> &keywords) {
  const std::string &s = tmpl.str.text;
  SourcedText out;
  size_t auto_index = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if ((c == '{' || c == '}') && i + 1 < s.size() && s[i + 1] == c) {
      out.add(c, tmpl.str.pos[i]);
      ++i;
      continue;
    }
    if (c == '}') return Value::unknown("single '}' in a format string", tmpl.str.pos[i]);
    if (c != '{') {
      out.add(c, tmpl.str.pos[i]);
      continue;
    }
    Pos at = tmpl.str.pos[i];
    size_t close = s.find('}', i);
    if (close == std::string::npos) return Value::unknown("single '{' in a format string", at);
    std::string field = s.substr(i + 1, close - i - 1), conversion, spec;
    if (size_t colon = field.find(':'); colon != std::string::npos) {
      spec = field.substr(colon + 1);
      field.resize(colon);
    }
    if (size_t bang = field.find('!'); bang != std::string::npos) {
      conversion = field.substr(bang + 1);
      field.resize(bang);
    }
    Value arg;
    if (field.empty() || std::isdigit(static_cast<unsigned char>(field[0]))) {
      size_t index = field.empty() ? auto_index++ : std::stoul(field);
      if (field.find_first_not_of("0123456789") != std::string::npos)
        return Value::unknown("format field '{" + field + "}' is not evaluated", at);
      if (index >= positional.size())
        return Value::unknown("format index " + std::to_string(index) + " out of range", at);
      arg = positional[index];
    } else {
      if (field.find_first_of(".[") != std::string::npos)
        return Value::unknown("format field '{" + field + "}' is not evaluated", at);
      arg = Value::unknown("format key '" + field + "' is not given", at);
      for (const auto &[name, value] : keywords)
        if (name == field) arg = value;
    }
    if (!arg.known()) return arg;
    Value text = applySpec(arg, conversion, spec, at);
    if (!text.known()) return text;
    out.append(text.str);
    if (out.text.size() > kMaxString) return tooLong(at);
    i = close;
  }
  return Value::string(out, tmpl.at);
}

}  // namespace kverify::python
