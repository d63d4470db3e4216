#pragma once
// An integer abstraction of a bit-vector query, for the solver's hard cases
// (injectivity of `row * width + col` and the like, which bit-blasting struggles with).
//
// Every bit-vector term of width w becomes an integer in [0, 2^w); linear operations,
// multiplication, constant shifts and divisions, extensions and extractions are translated
// exactly (modulo 2^w, through fresh quotients: linear); what has no exact translation (bitwise operations with
// non-constant masks, shifts by variables) becomes a fresh value in its range, which only
// adds behaviours. So the result over-approximates the query: when it is unsatisfiable,
// so is the query. A satisfiable result says nothing (the bit-vector query decides then).
#include <z3++.h>

#include <map>
#include <optional>

namespace kverify::analysis {

// Bounds that follow from the query's top-level facts (`threadIdx.x < blockDim.x`,
// `blockDim.x == 16`) remove the modulo where no wrap-around is possible.
//
// `no_overflow`: signed operations (by term id) with the condition under which the
// program has them not overflow (C's undefined behaviour): there the term is translated
// as exact integer arithmetic, without the modulo.
//
// `linear`: products of two non-constant terms become fresh values constrained by facts
// true of multiplication (signs, magnitudes, and for two products with a shared factor
// the injectivity argument a1 != a2 => |a1*b - a2*b| >= |b|); the result is then linear
// integer arithmetic, which Z3 decides quickly, and still an over-approximation.
std::optional<z3::expr> integerAbstraction(const z3::expr_vector &assertions,
                                           const std::map<unsigned, z3::expr> &no_overflow = {},
                                           bool linear = false);

}  // namespace kverify::analysis
