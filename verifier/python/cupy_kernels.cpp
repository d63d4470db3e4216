// CuPy's generated elementwise and reduction kernels (see cupy_kernels.hpp).
#include "python/cupy_kernels.hpp"

#include <cctype>
#include <map>
#include <vector>

namespace kverify::python {
namespace {

// One entry of a CuPy parameter list: "[raw] type name".
struct Param {
  bool raw = false;
  std::string type;
  SourcedText name;
};

// Splits "float32 x, raw T y" keeping where each name is; false on a malformed entry.
bool parseParams(const SourcedText &list, std::vector<Param> &out, std::string &error) {
  std::vector<SourcedText> words;
  auto flush = [&](std::vector<SourcedText> &ws) {
    if (ws.empty()) return true;
    Param p;
    size_t k = 0;
    if (ws[0].text == "raw") {
      p.raw = true;
      ++k;
    }
    if (ws.size() - k != 2) {
      std::string entry;
      for (const SourcedText &w : ws) entry += (entry.empty() ? "" : " ") + w.text;
      error = "CuPy parameter '" + entry + "' is not '[raw] type name'";
      return false;
    }
    p.type = ws[k].text;
    p.name = ws[k + 1];
    out.push_back(p);
    ws.clear();
    return true;
  };
  SourcedText word;
  for (size_t i = 0; i <= list.text.size(); ++i) {
    char c = i < list.text.size() ? list.text[i] : ',';
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      if (!word.text.empty()) words.push_back(word);
      word = {};
      if (c == ',' && !flush(words)) return false;
      continue;
    }
    word.add(c, list.pos[i]);
  }
  return true;
}

// numpy dtype names as CuPy types them (cupy/_core/_scalar.pyx get_typename); other
// names are type placeholders, fixed by the arguments at the call.
std::string cType(const std::string &t) {
  static const std::map<std::string, std::string> names = {
      {"bool", "bool"},           {"int8", "signed char"},      {"uint8", "unsigned char"},
      {"int16", "short"},         {"uint16", "unsigned short"}, {"int32", "int"},
      {"uint32", "unsigned int"}, {"int64", "long long"},       {"uint64", "unsigned long long"},
      {"int", "long long"},       {"float32", "float"},         {"float64", "double"},
      {"float", "double"},        {"double", "double"},         {"float16", "float"}};
  auto it = names.find(t);
  return it == names.end() ? "" : it->second;
}

class Writer {
public:
  explicit Writer(Pos at) : at_(at) {}
  Writer &gen(const std::string &s) {
    out.append(s, at_);
    return *this;
  }
  Writer &src(const SourcedText &s) {
    out.append(s);
    return *this;
  }
  SourcedText out;

private:
  Pos at_;
};

// typedefs for the placeholders (read as float: the call's dtypes are not known here)
void typedefs(Writer &w, const std::vector<Param> &params) {
  std::vector<std::string> seen;
  for (const Param &p : params) {
    if (!cType(p.type).empty()) continue;
    bool dup = false;
    for (const std::string &s : seen) dup |= s == p.type;
    if (dup) continue;
    seen.push_back(p.type);
    w.gen("typedef float " + p.type + ";\n");
  }
}

std::string typeOf(const Param &p) {
  std::string c = cType(p.type);
  return c.empty() ? p.type : c;
}

// CuPy's element references for the non-raw arrays: `const T &x = _raw_x[i];` for inputs
// (a copy, `const T x`, in reductions), `T &y = _raw_y[i];` for outputs.
void bindElements(Writer &w, const std::vector<Param> &params, size_t n_in, const std::string &index,
                  bool copy_inputs) {
  for (size_t k = 0; k < params.size(); ++k) {
    const Param &p = params[k];
    if (p.raw) continue;
    bool in = k < n_in;
    w.gen(std::string(in ? "const " : "") + typeOf(p) + (in && copy_inputs ? " " : " &"))
        .src(p.name)
        .gen(" = _raw_")
        .src(p.name)
        .gen("[" + index + "];\n");
  }
}

void declare(Writer &w, const std::vector<Param> &params, size_t n_in, bool &first) {
  for (size_t k = 0; k < params.size(); ++k) {
    const Param &p = params[k];
    w.gen(first ? "" : ", ");
    first = false;
    w.gen((k < n_in && !p.raw ? "const " : "") + typeOf(p) + " *");
    if (!p.raw) w.gen("_raw_");
    w.src(p.name);
  }
}

// CuPy's REDUCE(x, y) macro, `(reduce_expr)` with a and b replaced by the arguments, as a
// block binding a and b, so that locations stay in the user's expression: `target = (...)`.
void reduce(Writer &w, const ReductionSpec &spec, const char *x, const char *y, const char *target) {
  w.gen(std::string("{\nconst _type_reduce &a = ") + x + ", &b = " + y + ";\n" + target + " = (")
      .src(spec.reduce_expr)
      .gen(");\n}\n");
}

}  // namespace

SourcedText elementwiseKernel(const ElementwiseSpec &spec, std::string &error) {
  std::vector<Param> params;
  if (!parseParams(spec.in_params, params, error)) return {};
  size_t n_in = params.size();
  if (!parseParams(spec.out_params, params, error)) return {};
  Writer w(spec.at);
  typedefs(w, params);
  w.src(spec.preamble).gen("\n");
  w.gen("extern \"C\" __global__ void " + spec.name + "(");
  bool first = true;
  declare(w, params, n_in, first);
  w.gen(std::string(first ? "" : ", ") + "ptrdiff_t _ind_size) {\n");
  w.src(spec.loop_prep).gen(";\n");
  // CUPY_FOR(i, _ind.size())
  w.gen(
      "for (ptrdiff_t i = static_cast<ptrdiff_t>(blockIdx.x) * blockDim.x + threadIdx.x; "
      "i < _ind_size; i += static_cast<ptrdiff_t>(blockDim.x) * gridDim.x) {\n");
  bindElements(w, params, n_in, "i", false);
  w.src(spec.operation).gen(";\n}\n");
  w.src(spec.after_loop).gen(";\n}\n");
  return w.out;
}

SourcedText reductionKernel(const ReductionSpec &spec, std::string &error) {
  std::vector<Param> in, out;
  if (!parseParams(spec.in_params, in, error) || !parseParams(spec.out_params, out, error)) return {};
  if (out.empty()) {
    error = "a ReductionKernel needs an output parameter";
    return {};
  }
  std::string reduce_type = spec.reduce_type.empty() ? typeOf(out[0]) : spec.reduce_type;
  std::vector<Param> all = in;
  all.insert(all.end(), out.begin(), out.end());
  const std::string bs = std::to_string(kReductionBlockSize);
  Writer w(spec.at);
  typedefs(w, all);
  w.src(spec.preamble).gen("\n");
  w.gen("typedef " + reduce_type + " _type_reduce;\n");
  w.gen("extern \"C\" __global__ void " + spec.name + "(");
  bool first = true;
  declare(w, all, in.size(), first);
  w.gen(", ptrdiff_t _in_ind_size, ptrdiff_t _out_ind_size, int _block_stride) {\n");
  w.gen("__shared__ _type_reduce _sdata[" + bs +
        "];\n"
        "unsigned int _tid = threadIdx.x;\n"
        "int _J_offset = _tid >> __popc(_block_stride - 1);\n"
        "ptrdiff_t _j_offset = (ptrdiff_t)_J_offset * _out_ind_size;\n"
        "int _J_stride = " +
        bs +
        " >> __popc(_block_stride - 1);\n"
        "ptrdiff_t _j_stride = (ptrdiff_t)_J_stride * _out_ind_size;\n"
        "for (ptrdiff_t _i_base = (ptrdiff_t)blockIdx.x * _block_stride; _i_base < _out_ind_size; "
        "_i_base += (ptrdiff_t)gridDim.x * _block_stride) {\n"
        "_type_reduce _s = _type_reduce(");
  w.src(spec.identity)
      .gen(
          ");\n"
          "ptrdiff_t _i = _i_base + (_tid & (_block_stride - 1));\n"
          "int _J = _J_offset;\n"
          "for (ptrdiff_t _j = _i + _j_offset; _j < _in_ind_size; _j += _j_stride, _J += _J_stride) {\n");
  bindElements(w, in, in.size(), "_j", true);
  w.gen("_type_reduce _a = static_cast<_type_reduce>(");
  w.src(spec.map_expr).gen(");\n");
  reduce(w, spec, "_s", "_a", "_s");
  w.gen(
      "}\n"
      "_sdata[_tid] = _s;\n"
      "__syncthreads();\n"
      "for (unsigned int _block = " +
      bs +
      " / 2; _block >= _block_stride; _block >>= 1) {\n"
      "if (_tid < _block) {\n"
      "_type_reduce _a = _sdata[_tid], _b = _sdata[(_tid + _block)];\n");
  reduce(w, spec, "_a", "_b", "_sdata[_tid]");
  w.gen(
      "}\n"
      "__syncthreads();\n"
      "}\n"
      "if (_tid < _block_stride) {\n_s = _sdata[_tid];\n}\n"
      "if (_tid < _block_stride && _i < _out_ind_size) {\n");
  bindElements(w, out, 0, "_i", false);
  // POST_MAP(_s)
  w.gen("{\nconst _type_reduce &a = _s;\n(").src(spec.post_map_expr).gen(");\n}\n}\n}\n}\n");
  return w.out;
}

std::string elementwiseLaunchOptions() {
  return "--assume='blockDim.x <= 128 && blockDim.y == 1 && blockDim.z == 1 && gridDim.y == 1 && "
         "gridDim.z == 1'";
}

std::string reductionLaunchOptions() {
  return "--block-dim=" + std::to_string(kReductionBlockSize) +
         " --assume='gridDim.y == 1 && gridDim.z == 1 && _block_stride >= 1 && _block_stride <= " +
         std::to_string(kReductionBlockSize) + " && (_block_stride & (_block_stride - 1)) == 0'";
}

}  // namespace kverify::python
