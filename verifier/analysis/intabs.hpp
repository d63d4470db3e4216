#pragma once
// An integer abstraction of a bit-vector query, for the solver's hard cases
// (injectivity of `row * width + col` and the like, which bit-blasting struggles with).
//
// Every bit-vector term of width w becomes an integer in [0, 2^w); linear operations,
// multiplication, constant shifts and divisions, extensions and extractions are translated
// exactly (modulo 2^w); what has no exact translation (bitwise operations with
// non-constant masks, shifts by variables) becomes a fresh value in its range, which only
// adds behaviours. So the result over-approximates the query: when it is unsatisfiable,
// so is the query. A satisfiable result says nothing (the bit-vector query decides then).
#include <z3++.h>

#include <map>
#include <optional>

namespace kverify::analysis {

// `no_overflow`: signed operations (by term id) with the condition under which the
// program has them not overflow (C's undefined behaviour): there the term is translated
// as exact integer arithmetic, without the modulo.
std::optional<z3::expr> integerAbstraction(const z3::expr_vector &assertions,
                                           const std::map<unsigned, z3::expr> &no_overflow = {});

}  // namespace kverify::analysis
