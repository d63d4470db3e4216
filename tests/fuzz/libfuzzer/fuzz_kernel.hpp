#pragma once
// The kernel the --assume and `// kverify:` fuzzers parse against: scalar parameters of
// each integer kind the parser widens between, a bool, and a pointer (not assumable), so
// names in the input can resolve to parameters as well as to builtins.
#include "model/model.hpp"

namespace kverify::fuzz {

inline model::Kernel fuzzKernel() {
  model::Kernel k;
  k.name = k.function = "k";
  k.file = "fuzz.cu";
  auto scalar = [&](const char *name, model::Type t) {
    model::Param p;
    p.position = static_cast<unsigned>(k.params.size());
    p.name = name;
    p.type = t;
    k.params.push_back(p);
  };
  scalar("n", model::Type::i32());
  scalar("m", model::Type::u32());
  scalar("len", model::Type::i64());
  scalar("size", model::Type::integer(64, false));
  scalar("small", model::Type::integer(8, true));
  scalar("flag", model::Type::boolean());
  scalar("p.count", model::Type::i32());  // a field of a struct parameter
  model::Array data;
  data.id = 0;
  data.name = "data";
  data.space = model::AddressSpace::Global;
  k.arrays.push_back(data);
  model::Param ptr;
  ptr.position = static_cast<unsigned>(k.params.size());
  ptr.name = "data";
  ptr.type = model::Type::pointer();
  ptr.array = 0;
  k.params.push_back(ptr);
  return k;
}

}  // namespace kverify::fuzz
