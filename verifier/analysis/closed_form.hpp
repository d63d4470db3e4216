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
  // SDiv: x = x / 2^shift, signed (rounds toward zero, unlike AShr); Affine: x = x * 2^shift
  // + step (`2 * i + 1`: heap and tree descents), or - step where `negate`; Set: x = v,
  // v loop-invariant (the value from the second iteration on; `step` is v)
  enum Op { Add, Sub, Shl, LShr, AShr, SDiv, Flip, Swap, Affine, Set } op;
  Type op_type;  // the type the arithmetic happens in (same width as x)
  ExprPtr step;  // c (loop-invariant); for shifts a constant amount
  int64_t shift = 0;
  unsigned other = 0;   // Swap: the local x exchanges values with
  bool negate = false;  // Affine: x * 2^shift - step
  bool mul = false;     // Shl: written `x *= 2^shift` (a multiplication), not `x <<= shift`
};

// The closed form of the update `x = value` in a loop that assigns `mods`, if it has one.
std::optional<ClosedForm> classify(const model::Local &x, const ExprPtr &value,
                                   const std::map<unsigned, int> &mods);
// Swaps among the top-level assignments of an iteration, in order (`top`).
void findSwaps(const std::vector<const st::Assign *> &top, const std::map<unsigned, int> &mods,
               std::map<unsigned, ClosedForm> &forms);
// The closed forms of loop `s`'s top-level updates (`mods`: what it assigns; `has_break`:
// it may be left early).
std::map<unsigned, ClosedForm> loopForms(const st::Loop &s, const std::map<unsigned, int> &mods,
                                         bool has_break);

// x after j updates (u64 j) from x0, exactly as C computes it: modulo 2^w (unsigned
// arithmetic and the conversion back to x's type wrap; where a signed update does not
// overflow, the same value). Add/Sub: `step` is c evaluated in x's width; shifts and SDiv.
z3::expr steppedAt(const ClosedForm &cf, const z3::expr &x0, const z3::expr &step, const z3::expr &j);
z3::expr shiftedAt(const ClosedForm &cf, const z3::expr &x0, const z3::expr &j);
// Whether x does not wrap around in j updates: the exact value (as an integer: x0 + j*c,
// x0 - j*c, x0 * 2^(j*shift)) lies in the range of x's type (signed where `x_signed`; c
// is read with the signedness of the arithmetic). None for the other updates.
std::optional<z3::expr> inRangeAt(const ClosedForm &cf, const z3::expr &x0, const z3::expr &step,
                                  const z3::expr &j, bool x_signed);
// Whether C leaves the update's overflow undefined, so that it may be assumed not to
// happen where the update is evaluated: signed arithmetic on a signed x (no conversion to
// unsigned on the way), adding, subtracting or multiplying (`x <<= m` is defined on
// every value since C++20).
bool overflowIsUndefined(const ClosedForm &cf, bool x_signed);
// Affine: x after j updates x = x * 2^m + d, modulo 2^w (exact as C's unsigned arithmetic;
// for signed x, where no update overflows, the same value).
z3::expr affineAt(const ClosedForm &cf, const z3::expr &x0, const z3::expr &d, const z3::expr &j);
}  // namespace kverify::analysis::detail
