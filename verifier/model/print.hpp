#pragma once
// A compact, C-like text form of the model, for people and tests
// (kverify --dump-model-text). Not a stable interface: the JSON form is.

#include "model/model.hpp"

#include <string>

namespace kverify::model {

std::string toText(const Kernel &k);
std::string toText(const TranslationUnitModel &tu);

}  // namespace kverify::model
