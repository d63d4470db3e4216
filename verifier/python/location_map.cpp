// Generated-text locations back to the .py file (see location_map.hpp).
#include "python/location_map.hpp"

#include "model/walk.hpp"

namespace kverify::python {
namespace {

// The statements of `body` and those nested in them. The walk hands out const bodies;
// the model here is our own, so writing through them is sound.
template <class Body, class F>
void eachStmt(Body &body, const F &f) {
  for (auto &s : body) {
    f(s);
    for (auto *nested : model::children(s)) eachStmt(const_cast<Body &>(*nested), f);
  }
}

}  // namespace

LocationMap::LocationMap(std::string generated, std::string py, const SourcedText &cuda, Pos fallback)
    : generated_(std::move(generated)), py_(std::move(py)), pos_(cuda.pos), fallback_(fallback) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < cuda.text.size(); ++i)
    if (cuda.text[i] == '\n') line_starts_.push_back(i + 1);
  auto source = std::make_shared<model::GeneratedSource>();
  source->name = generated_;
  source->text = cuda.text;
  for (const Pos &p : cuda.pos) source->py.emplace_back(p.line, p.col);
  source_ = std::move(source);
}

Pos LocationMap::at(unsigned line, unsigned col) const {
  if (line == 0 || line > line_starts_.size() || col == 0) return fallback_;
  size_t offset = line_starts_[line - 1] + col - 1;
  if (pos_.empty()) return fallback_;
  if (offset >= pos_.size()) return pos_.back();
  return pos_[offset].valid() ? pos_[offset] : fallback_;
}

model::SourceRange LocationMap::map(const model::SourceRange &r) const {
  if (r.file != generated_) return r;
  model::SourceRange out = r;
  out.file = py_;
  Pos b = at(r.line, r.col), e = at(r.end_line ? r.end_line : r.line, r.end_col ? r.end_col : r.col);
  out.line = b.line;
  out.col = b.col;
  // an end before the start (text from two places) collapses to the start
  bool ordered = e.line > b.line || (e.line == b.line && e.col >= b.col);
  out.end_line = ordered ? e.line : b.line;
  out.end_col = ordered ? e.col : b.col;
  return out;
}

void LocationMap::remap(model::TranslationUnitModel &tu) const {
  tu.file = py_;
  for (model::Kernel &k : tu.kernels) {
    if (k.file == generated_) k.file = py_, k.generated = source_;
    k.range = map(k.range);
    for (model::Param &p : k.params) p.range = map(p.range);
    for (model::Array &a : k.arrays) a.range = map(a.range);
    for (model::Unsupported &u : k.unsupported) u.range = map(u.range);
    for (model::Unsupported &u : k.unchecked) u.range = map(u.range);
    eachStmt(k.body, [&](model::Stmt &s) { s.range = map(s.range); });
  }
  for (model::SkippedKernel &s : tu.skipped) s.range = map(s.range);
  for (model::Diagnostic &d : tu.diagnostics) d.range = map(d.range);
}

}  // namespace kverify::python
