#pragma once
// Loop updates with a closed form: x after k iterations, without unrolling.
#include "analysis/trace.hpp"

#include <map>
#include <optional>
#include <vector>

namespace kverify::analysis::detail {

// A recognised loop update `x = x op c`, or one half of a swap.
struct ClosedForm {
  // Flip: x = c - x (period 2); Swap: x and `other` exchange their values (period 2);
  // SDiv: x = x / 2^shift, signed (rounds toward zero, unlike AShr)
  enum Op { Add, Sub, Shl, LShr, AShr, SDiv, Flip, Swap } op;
  Type op_type;   // the type the arithmetic happens in (same width as x)
  ExprPtr step;   // c (loop-invariant); for shifts a constant amount
  int64_t shift = 0;
  unsigned other = 0;  // Swap: the local x exchanges values with
};

// The closed form of the update `x = value` in a loop that assigns `mods`, if it has one.
std::optional<ClosedForm> classify(const model::Local &x, const Expr &value,
                                   const std::map<unsigned, int> &mods);
void findSwaps(const std::vector<const Stmt *> &top, const std::map<unsigned, int> &mods,
               std::map<unsigned, ClosedForm> &forms);
}  // namespace kverify::analysis::detail
