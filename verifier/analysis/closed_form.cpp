// Loop updates with a closed form: x after k iterations, without unrolling.
#include "analysis/closed_form.hpp"
#include "analysis/body_walks.hpp"


namespace kverify::analysis::detail {

std::optional<ClosedForm> classify(const model::Local &x, const Expr &value,
                                   const std::map<unsigned, int> &mods) {
  if (x.type.kind != Type::Kind::Int) return std::nullopt;
  const Expr *v = stripSameWidthCasts(&value);
  if (v->kind != Expr::Kind::Binary || v->type.kind != Type::Kind::Int ||
      v->type.bits != x.type.bits)
    return std::nullopt;
  auto isX = [&](const ExprPtr &e) {
    const Expr *s = stripSameWidthCasts(e.get());
    return s->kind == Expr::Kind::Local && s->id == x.id;
  };
  auto invariant = [&](const ExprPtr &e) {
    bool opq = false;
    return !mentions(*e, mods, opq) && !opq;
  };
  auto constOf = [](const ExprPtr &e, int64_t &c) {
    const Expr *s = e.get();
    while (s->kind == Expr::Kind::Cast) s = s->args[0].get();
    if (s->kind != Expr::Kind::Const || s->type.kind != Type::Kind::Int) return false;
    c = s->int_value;
    return true;
  };
  const ExprPtr &a = v->args[0], &b = v->args[1];
  ClosedForm cf{ClosedForm::Add, v->type, nullptr, 0};
  int64_t c = 0;
  switch (v->binary_op) {
  case BinaryOp::Add:
    if (isX(a) && invariant(b)) cf.step = b;
    else if (isX(b) && invariant(a)) cf.step = a;
    else return std::nullopt;
    return cf;
  case BinaryOp::Sub:
    if (isX(b) && invariant(a)) {
      cf.op = ClosedForm::Flip;
      cf.step = a;
      return cf;
    }
    if (!isX(a) || !invariant(b)) return std::nullopt;
    cf.op = ClosedForm::Sub;
    cf.step = b;
    return cf;
  case BinaryOp::Shl:
  case BinaryOp::Shr:
    if (!isX(a) || !constOf(b, c) || c < 0 || c >= 64) return std::nullopt;
    cf.op = v->binary_op == BinaryOp::Shl ? ClosedForm::Shl
            : v->type.is_signed           ? ClosedForm::AShr
                                          : ClosedForm::LShr;
    cf.shift = c;
    return cf;
  case BinaryOp::Mul:
  case BinaryOp::Div: {
    const ExprPtr *other = nullptr;
    if (isX(a)) other = &b;
    else if (v->binary_op == BinaryOp::Mul && isX(b)) other = &a;
    if (!other || !constOf(*other, c) || c <= 0 || (c & (c - 1)) != 0) return std::nullopt;
    int sh = 0;
    while ((int64_t(1) << sh) != c) ++sh;
    if (v->binary_op == BinaryOp::Div) {
      cf.op = v->type.is_signed ? ClosedForm::SDiv : ClosedForm::LShr;
    } else {
      cf.op = ClosedForm::Shl;
    }
    cf.shift = sh;
    return cf;
  }
  default: return std::nullopt;
  }
}

// Swaps `t = a; a = b; b = t;` among the top-level statements of an iteration (the
// double-buffer pointer swap): a, b and t each assigned once in the loop and in this
// order, so t and then a read start-of-iteration values and b gets a's. Adds a Swap form
// for a and for b.
void findSwaps(const std::vector<const Stmt *> &top, const std::map<unsigned, int> &mods,
               std::map<unsigned, ClosedForm> &forms) {
  auto once = [&](unsigned id) {
    auto it = mods.find(id);
    return it != mods.end() && it->second == 1;
  };
  // the local a plain copy `x = y` reads, or none
  auto copyOf = [](const Stmt &s) -> std::optional<unsigned> {
    if (s.kind != Stmt::Kind::Assign || !s.value || s.local.type.kind != Type::Kind::Int)
      return std::nullopt;
    const Expr *v = stripSameWidthCasts(s.value.get());
    if (v->kind != Expr::Kind::Local || v->type.kind != Type::Kind::Int ||
        v->type.bits != s.local.type.bits)
      return std::nullopt;
    return v->id;
  };
  for (size_t i = 0; i < top.size(); ++i) {       // t = a
    auto a = copyOf(*top[i]);
    unsigned t = top[i]->local.id;
    if (!a || *a == t || !once(t) || !once(*a)) continue;
    for (size_t j = i + 1; j < top.size(); ++j) {  // a = b
      auto b = copyOf(*top[j]);
      if (top[j]->local.id != *a || !b || *b == *a || *b == t || !once(*b)) continue;
      for (size_t l = j + 1; l < top.size(); ++l)  // b = t
        if (top[l]->local.id == *b && copyOf(*top[l]) == t &&
            top[l]->local.type.bits == top[j]->local.type.bits) {
          Type ty = top[j]->local.type;
          forms.insert_or_assign(*a, ClosedForm{ClosedForm::Swap, ty, nullptr, 0, *b});
          forms.insert_or_assign(*b, ClosedForm{ClosedForm::Swap, ty, nullptr, 0, *a});
        }
    }
  }
}

}  // namespace kverify::analysis::detail
