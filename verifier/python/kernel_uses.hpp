#pragma once
// Every use of a kernel object (a RawKernel, a module's get_function result) or of a module
// in a Python file that is not a launch kverify reads: the object passed to a function,
// bound to another name, put in a container, returned, looked up with getattr... Such a use
// may launch the kernel in a way kverify does not see, so it counts as a launch of unknown
// shape (the kernel is verified for every launch), never as no launch at all.

#include "python/module.hpp"

#include <set>
#include <string>
#include <vector>

namespace kverify::python {

// A name a constructor or get_function result is bound to, at statement `statement`.
struct KernelObject {
  size_t statement = 0;
  std::string name;   // a.b for attributes
  size_t source = 0;  // index of its EmbeddedSource
  bool module = false;
  std::string kernel;  // functions: the kernel's name
};

// A use kverify cannot follow: some launch of `kernel` (empty: of every kernel of the source).
struct UnreadUse {
  size_t source = 0;
  std::string kernel;
  Pos at;
};

// `read_launches`: the token indices of the `(` of every launch call that was read.
std::vector<UnreadUse> unreadUses(const Module &m, const std::vector<KernelObject> &objects,
                                  const std::set<size_t> &read_launches);

}  // namespace kverify::python
