#pragma once
// Uniformity: which values and which statements are the same for every thread of a block.
//
// A value is uniform when any two threads of one block that evaluate it at the same
// iterations of its enclosing loops get the same result: constants, scalar parameters,
// blockIdx/blockDim/gridDim/warpSize, __syncthreads_or/_and/_count results, and locals
// whose every assignment stores a uniform value under uniform control. A statement is
// under uniform control when such two threads both execute it or neither does: every
// enclosing condition is uniform, every enclosing loop runs the same iterations in all
// threads, and no thread left the code before it by a return, break or continue that
// other threads did not take. Syntactic and flow-insensitive (sound, not complete).
//
// The divergence check skips barriers under uniform control and loops with a uniform
// trip count: no two threads can disagree there.

#include "model/model.hpp"

#include <set>

namespace kverify::analysis {

class Uniformity {
public:
  explicit Uniformity(const model::Kernel &kernel);

  bool value(const model::Expr &e) const;
  bool local(unsigned id) const { return !varying_.count(id); }
  bool control(const model::Stmt &s) const { return !varying_control_.count(&s); }
  // a loop under uniform control whose threads all run the same number of iterations
  bool loop(const model::Stmt &s) const { return control(s) && !varying_loops_.count(&s); }
  // every barrier under uniform control and every loop around one uniform, and no grid
  // barrier (uniform in a block is not uniform in the grid): no barrier divergence is
  // possible (except a __syncwarp lane outside its own mask)
  bool barriersUniform() const { return barriers_uniform_; }

private:
  struct Jumps {
    bool ret = false, brk = false, cont = false;  // taken by only part of the threads
    bool any() const { return ret || brk || cont; }
  };
  Jumps block(const model::Body &body, bool uniform);
  Jumps stmt(const model::Stmt &s, bool uniform);
  Jumps loopStmt(const model::Stmt &s, const model::stmt::Loop &l, bool uniform);
  bool barriers(const model::Body &body) const;

  std::set<unsigned> varying_;  // locals
  std::set<const model::Stmt *> varying_control_, varying_loops_;
  bool changed_ = false;
  bool barriers_uniform_ = false;
};

}  // namespace kverify::analysis
