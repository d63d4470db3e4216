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
  Type op_type;   // the type the arithmetic happens in (same width as x)
  ExprPtr step;   // c (loop-invariant); for shifts a constant amount
  int64_t shift = 0;
  unsigned other = 0;  // Swap: the local x exchanges values with
  bool negate = false;  // Affine: x * 2^shift - step
};

// The closed form of the update `x = value` in a loop that assigns `mods`, if it has one.
std::optional<ClosedForm> classify(const model::Local &x, const ExprPtr &value,
                                   const std::map<unsigned, int> &mods);
// Swaps among the top-level assignments of an iteration, in order (`top`).
void findSwaps(const std::vector<const st::Assign *> &top, const std::map<unsigned, int> &mods,
               std::map<unsigned, ClosedForm> &forms);
// The closed forms of loop `s`'s top-level updates (`mods`: what it assigns; `has_break`:
// it may be left early).
std::map<unsigned, ClosedForm> loopForms(const st::Loop &s, const std::map<unsigned, int> &mods, bool has_break);

// x after j updates (u64 j) from x0, with what that rests on (no overflow, where
// `nowrap`) in `side`. Add/Sub: `step` is c evaluated in x's width; shifts and SDiv.
// `signed_local`: x itself is signed (`int c; c += blockDim.x` adds in unsigned): where
// `nowrap`, it does not wrap in its own type either.
z3::expr steppedAt(const ClosedForm &cf, const z3::expr &x0, const z3::expr &step, const z3::expr &j,
                   bool nowrap, bool signed_local, std::vector<z3::expr> &side);
z3::expr shiftedAt(const ClosedForm &cf, const z3::expr &x0, const z3::expr &j, bool nowrap,
                   std::vector<z3::expr> &side);
// Affine: x after j updates x = x * 2^m + d, modulo 2^w (exact as C's unsigned arithmetic;
// for signed x, where no update overflows, the same value).
z3::expr affineAt(const ClosedForm &cf, const z3::expr &x0, const z3::expr &d, const z3::expr &j);
}  // namespace kverify::analysis::detail
