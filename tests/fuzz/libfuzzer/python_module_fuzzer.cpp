// libFuzzer target: a .py file as kverify reads it (python::Module::read: the tokenizer
// and statement splitter; the constant evaluator through every name's lookup; the
// extraction of embedded CUDA sources and their launches).
#include "python/extract.hpp"
#include "python/module.hpp"

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

using namespace kverify::python;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string error;
  Pos error_at;
  std::optional<Module> m =
      Module::read(std::string_view(reinterpret_cast<const char *>(data), size), error, error_at);
  if (!m) return 0;
  // Every name evaluated in every scope: what the extraction does for the names it meets.
  std::set<std::string> names;
  for (const Token &t : m->tokens())
    if (t.kind == TokenKind::Name) names.insert(t.text);
  for (size_t scope = 0; scope < m->scopes().size(); ++scope)
    for (const std::string &name : names) (void)m->lookup(name, scope);
  for (const EmbeddedSource &e : extractSources(*m))
    for (const auto &[kernel, launch] : e.launches) (void)launch.optionText();
  (void)m->fileOptions();
  return 0;
}
