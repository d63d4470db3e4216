#pragma once
// Kernels embedded in Python (PyCUDA, CuPy): the front end's entry for .py files. Each
// embedded source is parsed as a .cu file would be and comes back as its own model, with
// every location in the .py file and each kernel's options set from its launches and the
// `# kverify:` comments (file top, above the constructor or the string, above a launch).

#include "frontend/frontend.hpp"
#include "model/model.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace kverify::python {

bool isPythonSource(std::string_view path);

// One model per embedded source (a source kverify cannot read: a model whose one kernel
// is unsupported, with the reason). A file that cannot be read or tokenized: one model
// with parsed == false and the error as a diagnostic.
std::vector<model::TranslationUnitModel> parsePythonFile(const std::string &path,
                                                         const frontend::Options &options);

// The models of one file as one (what --dump-model shows and the CLI reports on).
model::TranslationUnitModel mergeUnits(const std::string &path,
                                       std::vector<model::TranslationUnitModel> units);

}  // namespace kverify::python
