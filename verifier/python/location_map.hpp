#pragma once
// Maps locations in a generated .cu text (an embedded source as kverify parses it) back
// to the .py file: every byte of the text knows the .py line and column it came from, so
// columns are exact even after escapes, concatenation and substitution.

#include "model/model.hpp"
#include "python/tokenizer.hpp"

#include <string>
#include <vector>

namespace kverify::python {

class LocationMap {
public:
  // `generated`: the path clang saw; `py`: the .py file as the user named it.
  LocationMap(std::string generated, std::string py, const SourcedText &cuda, Pos fallback);

  // A range in the generated text, in the .py file; other files' ranges (headers) unchanged.
  model::SourceRange map(const model::SourceRange &r) const;

  // Every range in `tu` (kernels, parameters, arrays, statements, findings' sources,
  // unsupported constructs, diagnostics), and the kernels' file.
  void remap(model::TranslationUnitModel &tu) const;

private:
  Pos at(unsigned line, unsigned col) const;

  std::string generated_, py_;
  std::shared_ptr<const model::GeneratedSource> source_;  // handed to each kernel
  std::vector<Pos> pos_;
  std::vector<size_t> line_starts_;
  Pos fallback_;
};

}  // namespace kverify::python
