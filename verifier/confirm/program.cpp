#include "confirm/program.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <sstream>

namespace kverify::confirm {

extern const char *const kReplayRuntime;  // replay_runtime.cuh, embedded by the build

using analysis::Finding;
using analysis::Verdict;

const char *toolName(Tool t) {
  switch (t) {
    case Tool::Racecheck: return "racecheck";
    case Tool::Memcheck: return "memcheck";
    case Tool::Synccheck: return "synccheck";
    case Tool::AccessLog: return "access log";
    case Tool::BoundsCheck: return "bounds check";
  }
  return "?";
}

Tool toolFor(const Finding &f) {
  switch (f.kind) {
    case Verdict::Oob: return Tool::Memcheck;
    case Verdict::Divergence: return Tool::Synccheck;
    default: return f.space == "shared" ? Tool::Racecheck : Tool::AccessLog;
  }
}

std::string kernelExpression(const std::string &function) {
  std::string name = function;
  // members of an anonymous namespace are found by their unqualified name in the file
  for (size_t at; (at = name.find("(anonymous namespace)::")) != std::string::npos;) name.erase(at, 23);
  if (name.find("(anonymous") != std::string::npos || name.find("(lambda") != std::string::npos) return "";
  size_t open = name.find('(');
  if (open == std::string::npos) return name;
  // an overload, "fill(int *)": the function pointer of that type
  return "static_cast<void (*)" + name.substr(open) + ">(&" + name.substr(0, open) + ")";
}

namespace {

// Byte offset of 1-based line:col in `text`, or npos.
size_t offsetOf(const std::string &text, unsigned line, unsigned col) {
  size_t at = 0;
  for (unsigned l = 1; l < line; ++l) {
    at = text.find('\n', at);
    if (at == std::string::npos) return std::string::npos;
    ++at;
  }
  at += col - 1;
  return at <= text.size() ? at : std::string::npos;
}

bool balanced(const std::string &s) {
  int depth = 0;
  for (char c : s) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (depth < 0) return false;
  }
  return depth == 0;
}

// A long long literal (the most negative value has none: an expression).
std::string longLong(long long v) {
  if (v == std::numeric_limits<long long>::min()) return "(-9223372036854775807LL - 1)";
  return std::to_string(v) + "LL";
}

bool identifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Where an access is in the source: [begin, end), and whether that text is a pointer to
// the access (an atomic's first argument: atomicAdd(&a[i], v) gives &a[i]).
struct Site {
  size_t begin = 0, end = 0;
  bool pointer = false;
};

// The access at `r` as a plain expression of `source` (else why not).
std::string locate(const std::string &source, const model::SourceRange &r, const std::string &file,
                   Site &site) {
  std::string at = std::to_string(r.line) + ":" + std::to_string(r.col);
  if (r.file != file)
    return "the access at " + r.file + ":" + std::to_string(r.line) + " is not in the kernel's file";
  size_t b = offsetOf(source, r.line, r.col), e = offsetOf(source, r.end_line, r.end_col);
  if (b == std::string::npos || e == std::string::npos || e < b || e >= source.size())
    return "the access's location " + at + " is outside the file";
  ++e;  // the range ends at its last character
  std::string text = source.substr(b, e - b);
  if (!balanced(text) || (e < source.size() && identifierChar(source[e]) && identifierChar(source[e - 1])))
    return "the access at " + at + " is not a plain expression (a macro?)";
  size_t open = text.find('(');
  bool call =
      open != std::string::npos && text.back() == ')' && identifierChar(text[0]) &&
      std::all_of(text.begin(), text.begin() + open, [](char c) { return identifierChar(c) || c == ' '; });
  if (call && text.rfind("atomic", 0) != 0)
    return "the access at " + at + " is a call (" + text.substr(0, open) +
           "), not an expression the harness can wrap";
  site = {b, e, false};
  if (call) {
    size_t end = open + 1;
    for (int depth = 0; end < text.size() - 1 && (depth > 0 || text[end] != ','); ++end)
      depth += (text[end] == '(' || text[end] == '[') - (text[end] == ')' || text[end] == ']');
    site = {b + open + 1, b + end, true};
  }
  return "";
}

// The source with the finding's two accesses wrapped as KVR_AT(site, access): site 0 is
// the first access's, site 1 the second's (one site where both are one expression).
// Returns why not where a range is not a plain expression of this file.
std::string instrument(std::string &source, const Finding &f, const std::string &file, unsigned sites[2]) {
  struct Wrapped {
    Site at;
    unsigned id;
  };
  std::vector<Wrapped> wrapped;
  for (unsigned i = 0; i < 2; ++i) {
    Site s;
    if (std::string why = locate(source, f.accesses[i].range, file, s); !why.empty()) return why;
    auto same = std::find_if(wrapped.begin(), wrapped.end(),
                             [&](const Wrapped &w) { return w.at.begin == s.begin && w.at.end == s.end; });
    if (same != wrapped.end()) {
      sites[i] = same->id;
      continue;
    }
    for (const Wrapped &w : wrapped)
      if (s.begin < w.at.end && w.at.begin < s.end) return "the two accesses overlap in the source";
    sites[i] = i;
    wrapped.push_back({s, i});
  }
  std::sort(wrapped.begin(), wrapped.end(),
            [](const Wrapped &a, const Wrapped &b) { return a.at.begin > b.at.begin; });
  for (const Wrapped &w : wrapped) {
    source.insert(w.at.end, ")");
    source.insert(w.at.begin, (w.at.pointer ? "KVR_POINTER(" : "KVR_AT(") + std::to_string(w.id) + ", ");
  }
  return "";
}

// The source with a shared out-of-bounds access checked against its array's bytes,
// KVR_WITHIN(array, access): where the access names its array (`tile[i]`, `atomicAdd(&s[b],
// 1)`) and the array has a size. memcheck sees only accesses outside the block's whole
// shared window; this sees one past the array into its neighbour too.
void boundsCheck(std::string &source, const model::Kernel &k, const Finding &f, const std::string &file) {
  auto array = std::find_if(k.arrays.begin(), k.arrays.end(),
                            [&](const model::Array &a) { return a.name == f.array; });
  Site s;
  if (f.space != "shared" || f.accesses.empty() || array == k.arrays.end() || array->is_extern ||
      !locate(source, f.accesses[0].range, file, s).empty())
    return;
  size_t name = source.find_first_not_of("&( \t", s.begin);
  if (name == std::string::npos || source.compare(name, f.array.size(), f.array) != 0 ||
      identifierChar(source[name + f.array.size()]))
    return;
  source.insert(s.end, ")");
  source.insert(s.begin, (s.pointer ? "KVR_WITHIN_POINTER(" : "KVR_WITHIN(") + f.array + ", ");
}

std::string cString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out + "\"";
}

uint64_t threadCount(const analysis::Witness &w) {
  uint64_t threads = 1;  // (saturating: a witness's grid can be absurdly large)
  for (int d = 0; d < 3; ++d)
    for (uint64_t v : {w.block_dim[d], w.grid_dim[d]})
      threads = v > 1 && threads > UINT64_MAX / v ? UINT64_MAX : threads * std::max<uint64_t>(v, 1);
  return threads;
}

// Elements enough for every pointer parameter's buffer: four per thread of the launch
// (kernels index by the global thread id, often with a stride), as many per thread as
// the largest integer parameter up to 2^28 (a row length, a number of rounds: `(b * rounds
// + r) * 256 + t`), twice the witness's index, its loaded elements and its integer
// parameters (bounds such as `i < n`), at least 2^20 (the program caps a buffer at 4 GiB).
uint64_t bufferElements(const Finding &f) {
  const analysis::Witness &w = f.witness;
  const uint64_t threads = std::min<uint64_t>(threadCount(w), uint64_t(1) << 34);
  uint64_t n = std::max<uint64_t>(uint64_t(1) << 20, threads * 4);
  auto cover = [&](long long i) {
    if (i > 0) n = std::max<uint64_t>(n, 2 * std::min<uint64_t>(i, uint64_t(1) << 34) + 2);
  };
  cover(std::atoll(w.index.c_str()));
  for (const analysis::MemoryValue &v : w.memory) cover(v.index);
  for (const auto &[name, value] : w.params) {
    long long v = std::atoll(value.c_str());
    cover(v);
    if (v > 0)
      n = std::max<uint64_t>(
          n, std::min<uint64_t>(threads * uint64_t(std::min<long long>(v, 1 << 28)), uint64_t(1) << 28));
  }
  return n;
}

// Why the harness cannot set parameter `prm` (a struct's field, a function pointer, a
// pointer to pointers); empty where it can.
std::string unsettable(const model::Kernel &k, const model::Param &prm) {
  if (prm.name.find('.') != std::string::npos)
    return "parameter '" + prm.name.substr(0, prm.name.find('.')) +
           "' is a struct: the harness sets only scalars and pointers";
  if (prm.c_type.find("(*") != std::string::npos ||
      (prm.array && k.arrays[*prm.array].origin == model::ArrayOrigin::FunctionPointer))
    return "parameter '" + prm.name + "' is a function pointer: the harness cannot choose the function";
  bool pointer = prm.array.has_value() || prm.type.kind == model::Type::Kind::Pointer;
  if (pointer && std::count(prm.c_type.begin(), prm.c_type.end(), '*') +
                         std::count(prm.c_type.begin(), prm.c_type.end(), '[') >
                     1)
    return "parameter '" + prm.name + "' points to pointers: the harness allocates flat buffers only";
  return "";
}

// main()'s arguments: one kvr::Arg per parameter position (a struct parameter lists its
// fields: not settable), and the fills of the pointer parameters' buffers.
struct Arguments {
  std::map<unsigned, std::string> args;
  std::string fill_arrays;
  unsigned positions = 0;
};

// The kvr::Arg of pointer parameter `prm`: a buffer of `elements` elements, filled with
// the witness's loaded values (their fills added to `a.fill_arrays`).
std::string pointerArg(const model::Param &prm, const analysis::Witness &w, uint64_t elements, Arguments &a) {
  std::string list;
  unsigned count = 0;
  for (const analysis::MemoryValue &v : w.memory)
    if (v.array == prm.name)
      list += (count++ ? ", {" : "{") + std::to_string(v.index) + "LL, " + longLong(v.value) + "}";
  std::string fills = count ? "fills_" + std::to_string(prm.position) : "nullptr";
  if (count) a.fill_arrays += "  static const kvr::Fill " + fills + "[] = {" + list + "};\n";
  return "{" + cString(prm.name) + ", 0, 0.0, " + std::to_string(elements) + ", " + fills + ", " +
         std::to_string(count) + "}";
}

// Every parameter's kvr::Arg: the witness's values, 0 where it leaves a scalar open (said
// in `notes`). Returns why not where the harness cannot set a parameter.
std::string setArguments(const model::Kernel &k, const analysis::Witness &w, uint64_t elements, Arguments &a,
                         std::vector<std::string> &notes) {
  std::map<std::string, std::string> values(w.params.begin(), w.params.end());
  for (const model::Param &prm : k.params) {
    a.positions = std::max(a.positions, prm.position + 1);
    if (std::string why = unsettable(k, prm); !why.empty()) return why;
    std::string name = cString(prm.name);
    if (prm.array.has_value() || prm.type.kind == model::Type::Kind::Pointer) {
      a.args[prm.position] = pointerArg(prm, w, elements, a);
      continue;
    }
    switch (prm.type.kind) {
      case model::Type::Kind::Int:
      case model::Type::Kind::Bool: {
        auto it = values.find(prm.name);
        std::string v = it == values.end()      ? "0"
                        : it->second == "true"  ? "1"
                        : it->second == "false" ? "0"
                                                : it->second;
        if (it == values.end()) notes.push_back(prm.name + " = 0 (the witness leaves it open)");
        a.args[prm.position] =
            "{" + name + ", " + longLong(std::strtoll(v.c_str(), nullptr, 10)) + ", 0.0, 0}";
        break;
      }
      case model::Type::Kind::Float:
        notes.push_back(prm.name + " = 0.0 (kverify does not model floating-point values)");
        a.args[prm.position] = "{" + name + ", 0, 0.0, 0}";
        break;
      default:
        return "parameter '" + prm.name + "' has type '" + prm.c_type +
               "': the harness sets only scalars and pointers";
    }
  }
  return "";
}

// The kernel's text as the program compiles it, and the access sites it logs (`log`).
struct ProgramBody {
  std::string text;
  unsigned sites[2] = {0, 0};
  bool log = false;
};

// A race's two accesses logged: the evidence for a global race, and for a shared one
// between threads of one warp (racecheck does not see conflicts within a warp's
// instruction); a shared out-of-bounds access checked against its array. Returns why
// not where the access log is the race's only evidence and the accesses cannot be wrapped.
std::string instrumentBody(const model::Kernel &k, const Finding &f, const ReplaySource &source, Tool tool,
                           ProgramBody &body) {
  if (f.kind == Verdict::Race || f.kind == Verdict::BenignRace) {
    std::string why = f.accesses.size() < 2 ? "the race names fewer than two accesses"
                                            : instrument(body.text, f, source.file, body.sites);
    if (!why.empty() && tool == Tool::AccessLog) return why;
    body.log = why.empty();  // (instrument leaves the text as it is where it refuses)
  }
  if (f.kind == Verdict::Oob) boundsCheck(body.text, k, f, source.file);
  return "";
}

// The comment the program opens with: the finding, how to build and run it, what the
// harness chose.
void writePreamble(std::ostream &o, const model::Kernel &k, const Finding &f, const ReplayProgram &p,
                   uint64_t elements, bool dynamic_shared) {
  o << "// kverify --confirm: the witness of \"" << f.message << "\" in kernel '" << k.name << "'\n"
    << "// replayed as a real launch. Build and run (what kverify does):\n"
    << "//   nvcc -arch=native -lineinfo -I<the kernel's folder> replay.cu -o replay\n";
  if (p.tool == Tool::AccessLog)
    o << "//   ./replay\n";
  else
    o << "//   compute-sanitizer --tool " << toolName(p.tool) << " ./replay\n";
  for (const std::string &n : p.notes) o << "// chosen by the harness: " << n << "\n";
  if (dynamic_shared)
    o << "// chosen by the harness: extern __shared__ gets all the shared memory a block can have\n";
  o << "// pointer parameters: buffers of " << elements << " elements, launched once for each fill\n"
    << "// of what the witness leaves open (zeros, ones, small values, minus ones)\n";
}

// A thread's block and thread indices, as a row of `watched`.
std::string threadCoords(const analysis::ThreadCoords &t) {
  std::ostringstream c;
  c << "{" << t.block_idx[0] << ", " << t.block_idx[1] << ", " << t.block_idx[2] << ", " << t.thread_idx[0]
    << ", " << t.thread_idx[1] << ", " << t.thread_idx[2] << "}";
  return c.str();
}

// main(): the arguments, the two threads watched, the witness's launch.
void writeMain(std::ostream &o, const Finding &f, const ReplaySource &source, const Arguments &a,
               const ProgramBody &body, const std::string &callee, bool dynamic_shared) {
  const analysis::Witness &w = f.witness;
  // cooperative groups' grid.sync() needs a cooperative launch (else the launch fails)
  bool cooperative = source.text.find("this_grid") != std::string::npos;
  o << "int main(int argc, char **argv) {\n" << a.fill_arrays << "  static const kvr::Arg args[] = {\n";
  for (unsigned i = 0; i < a.positions; ++i)
    o << "      " << (a.args.count(i) ? a.args.at(i) : "{\"?\", 0, 0.0, 0}") << ",\n";
  o << "      {\"\", 0, 0.0, 0}};\n";
  bool two = f.kind != Verdict::Oob;
  o << "  static const unsigned watched[2][6] = {" << threadCoords(w.thread1) << ", "
    << threadCoords(two ? w.thread2 : w.thread1) << "};\n"
    << "  kvr::Launch launch{dim3(" << w.grid_dim[0] << ", " << w.grid_dim[1] << ", " << w.grid_dim[2]
    << "), dim3(" << w.block_dim[0] << ", " << w.block_dim[1] << ", " << w.block_dim[2] << "), "
    << (dynamic_shared ? "true" : "false") << ", " << (cooperative ? "true" : "false") << ", "
    << (body.log ? int(body.sites[0]) : -1) << ", " << (body.log ? int(body.sites[1]) : -1) << "};\n"
    << "  kvr::launch(" << callee << ", launch, args, watched, kvr::firstPattern(argc, argv));\n"
    << "  return 0;\n}\n";
}

}  // namespace

ReplayProgram makeProgram(const model::Kernel &k, const Finding &f, const ReplaySource &source) {
  ReplayProgram p;
  p.tool = toolFor(f);
  auto notRun = [&](std::string why) {
    p.not_run = std::move(why);
    return p;
  };
  std::string callee = kernelExpression(k.function);
  if (callee.empty()) return notRun("the kernel '" + k.name + "' cannot be named from outside its file");
  const analysis::Witness &w = f.witness;
  if (uint64_t threads = threadCount(w); threads > (uint64_t(1) << 34))
    return notRun("the witness's launch has " + std::to_string(threads) +
                  " threads, more than a replay runs");
  const uint64_t elements = bufferElements(f);
  Arguments args;
  if (std::string why = setArguments(k, w, elements, args, p.notes); !why.empty()) return notRun(why);
  ProgramBody body{source.text};
  if (std::string why = instrumentBody(k, f, source, p.tool, body); !why.empty()) return notRun(why);
  bool dynamic_shared =
      std::any_of(k.arrays.begin(), k.arrays.end(), [](const model::Array &a) { return a.is_extern; });
  std::ostringstream o;
  writePreamble(o, k, f, p, elements, dynamic_shared);
  o << kReplayRuntime << "\n"
    << "#define main kverify_replaced_main\n"
    << "#line 1 " << cString(source.file) << "\n"
    << body.text << (body.text.empty() || body.text.back() == '\n' ? "" : "\n") << "#undef main\n\n";
  writeMain(o, f, source, args, body, callee, dynamic_shared);
  p.text = o.str();
  return p;
}

}  // namespace kverify::confirm
