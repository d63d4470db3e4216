#pragma once
// The rule (result.hpp's Rule) each closed form of a loop update applies.
#include "analysis/closed_form.hpp"
#include "result/result.hpp"

namespace kverify::analysis::detail {

inline Rule closedFormRule(ClosedForm::Op op) {
  switch (op) {
    case ClosedForm::Add:
    case ClosedForm::Sub: return Rule::ClosedFormAdd;
    case ClosedForm::Affine: return Rule::ClosedFormAffine;
    case ClosedForm::Flip: return Rule::ClosedFormFlip;
    case ClosedForm::Swap: return Rule::ClosedFormSwap;
    case ClosedForm::Set: return Rule::ClosedFormSet;
    default: return Rule::ClosedFormShift;
  }
}

}  // namespace kverify::analysis::detail
