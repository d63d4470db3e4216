#include "kernel_gen.hpp"

#include <algorithm>
#include <functional>
#include <sstream>

namespace kverify::difftest {

using rc::Gen;
namespace gen = rc::gen;
using EK = GExpr::K;
using SK = GStmt::K;

namespace {

// ---------------------------------------------------------------------------------------
// Structural shrinks: besides what the combinators give (smaller numbers, shorter lists,
// earlier alternatives), a compound expression may shrink to one of its operands and a
// statement list may replace a compound statement by its body.

template <typename T, typename F>
rc::Shrinkable<T> addShrinks(rc::Shrinkable<T> s, F children) {
  T v = s.value();
  auto extra = rc::seq::map(rc::seq::fromContainer(children(v)), [children](T c) {
    return rc::shrinkable::shrinkRecur(
        std::move(c), [children](const T &x) { return rc::seq::fromContainer(children(x)); });
  });
  auto orig = rc::seq::map(s.shrinks(),
                           [children](rc::Shrinkable<T> x) { return addShrinks(std::move(x), children); });
  // The generator's own shrinks first; the structural ones when those are exhausted.
  return rc::shrinkable::just(std::move(v), rc::seq::concat(std::move(orig), std::move(extra)));
}

template <typename T, typename F>
Gen<T> withShrinks(Gen<T> g, F children) {
  return Gen<T>([=](const rc::Random &r, int size) { return addShrinks(g(r, size), children); });
}

// A weighted choice between generators; shrinks toward the first alternative (list the
// simplest first).
template <typename T>
Gen<T> pick(std::vector<std::pair<std::size_t, Gen<T>>> alts) {
  std::size_t total = 0;
  for (auto &a : alts) total += a.first;
  return gen::mapcat(gen::inRange<std::size_t>(0, total), [alts](std::size_t r) {
    for (auto &a : alts) {
      if (r < a.first) return a.second;
      r -= a.first;
    }
    return alts.back().second;
  });
}

bool isIntExpr(const GExpr &e) { return e.k != EK::Cmp && e.k != EK::Logic; }

std::vector<GExpr> exprChildren(const GExpr &e) {
  std::vector<GExpr> out;
  switch (e.k) {
    case EK::Bin:
    case EK::Call: out = {e.a[0], e.a[1]}; break;
    case EK::Select: out = {e.a[1], e.a[2]}; break;
    case EK::Cast: out = {e.a[0]}; break;
    case EK::Load:
    case EK::Field: out = {GExpr{EK::Const, 1, 0, {}}}; break;
    case EK::RoLoad: out = {GExpr{EK::Const, 1, 0, {}}, e.a[0]}; break;
    case EK::Logic: out = e.a; break;
    default: break;
  }
  // Only same-sort replacements (an int for an int, a condition for a condition).
  std::vector<GExpr> same;
  for (auto &c : out)
    if (isIntExpr(c) == isIntExpr(e)) same.push_back(c);
  return same;
}

std::vector<std::vector<GStmt>> listChildren(const std::vector<GStmt> &v) {
  std::vector<std::vector<GStmt>> out;
  for (size_t i = 0; i < v.size(); ++i) {
    const GStmt &s = v[i];
    auto splice = [&](const std::vector<GStmt> &body) {
      std::vector<GStmt> r(v.begin(), v.begin() + i);
      r.insert(r.end(), body.begin(), body.end());
      r.insert(r.end(), v.begin() + i + 1, v.end());
      out.push_back(std::move(r));
    };
    if (s.k == SK::If) {
      splice(s.body);
      if (!s.els.empty()) splice(s.els);
    } else if (s.k == SK::For || s.k == SK::DoWhile || s.k == SK::Search) {
      // A loop's body may use the loop variable and contain break/continue: only splice
      // bodies that do not.
      bool ok = true;
      std::function<void(const GExpr &)> ex = [&](const GExpr &e) {
        if (e.k == EK::LoopVar && e.v >= s.depth) ok = false;
        for (auto &a : e.a) ex(a);
      };
      std::function<void(const std::vector<GStmt> &, bool)> st = [&](const std::vector<GStmt> &b,
                                                                     bool nested) {
        for (auto &x : b) {
          if (!nested && (x.k == SK::Break || x.k == SK::Continue)) ok = false;
          ex(x.idx), ex(x.val), ex(x.cond);
          bool inner = nested || x.k == SK::For || x.k == SK::DoWhile || x.k == SK::Search;
          st(x.body, inner);
          st(x.els, inner);
        }
      };
      st(s.body, false);
      if (ok) splice(s.body);
    }
  }
  // After a structural shrink only these apply: removing statements too.
  auto chunks = rc::shrink::removeChunks(v);
  while (auto c = chunks.next()) out.push_back(std::move(*c));
  return out;
}

GExpr mk(EK k, int v = 0, int op = 0, std::vector<GExpr> a = {}) {
  GExpr e;
  e.k = k;
  e.v = v;
  e.op = op;
  e.a = std::move(a);
  return e;
}

struct Ctx {
  int loops = 0;  // enclosing loops
};

Gen<GExpr> constant(int lo, int hi) {
  return gen::map(gen::inRange(lo, hi), [](int v) { return mk(EK::Const, v); });
}

Gen<GExpr> tid() {
  return pick<GExpr>({
      {6, gen::just(mk(EK::Tid, 0))},
      {1, gen::just(mk(EK::Tid, 1))},
      {2, gen::just(mk(EK::Tid, 2))},
      {1, gen::just(mk(EK::Tid, 3))},
  });
}

Gen<GExpr> leaf(Ctx c) {
  std::vector<std::pair<std::size_t, Gen<GExpr>>> alts = {
      {4, constant(0, 17)},
      {5, tid()},
      {1, gen::just(mk(EK::Bid))},
      {1, gen::map(gen::inRange(0, 2), [](int v) { return mk(EK::BDim, v); })},
      {2, gen::map(gen::inRange(0, 2), [](int v) { return mk(EK::Param, v); })},
      {2, gen::map(gen::inRange(0, 4), [](int v) { return mk(EK::Local, v); })},
  };
  if (c.loops > 0)
    alts.push_back({4, gen::map(gen::inRange(0, c.loops), [](int v) { return mk(EK::LoopVar, v); })});
  return pick<GExpr>(alts);
}

Gen<GExpr> intExpr(Ctx c, int depth);
Gen<GExpr> condExpr(Ctx c, int depth);

// An index into shared array `arr` (size n), mostly kept in range.
Gen<GExpr> sharedIndex(Ctx c, int depth, int arr) {
  return gen::map(
      gen::pair(gen::weightedElement<int>({{6, WrapMask}, {3, WrapMod}, {2, WrapNone}}), intExpr(c, depth)),
      [arr](const std::pair<int, GExpr> &p) { return mk(EK::Index, arr, p.first, {p.second}); });
}

Gen<GExpr> load(Ctx c, int depth) {
  return gen::mapcat(gen::inRange(0, 2), [c, depth](int arr) {
    return gen::map(sharedIndex(c, depth, arr), [arr](GExpr i) { return mk(EK::Load, arr, 0, {i}); });
  });
}

// The elements of each struct site's array (StructSite); 0: not an array.
constexpr int kSiteElems[kStructSites] = {kGlobalElems, 32, 32, 64, 16, 32, 4, 0};
constexpr int kSiteFields[kStructSites] = {2, 2, 2, 4, 2, 2, 4, 2};

Gen<GExpr> globalIndex(Ctx c);

// A field of a struct site: an element index (masked at emission; a global index for
// GPair), and for SRow's array field an item.
Gen<GExpr> field(Ctx c, int depth, bool writable) {
  std::vector<int> sites;  // SBox thrice: its four ways in (methods, a reference, a pointer)
  for (int site = 0; site < (writable ? int(CConf) : int(kStructSites)); ++site)
    sites.insert(sites.end(), site == SBox ? 3 : 1, site);
  return gen::mapcat(gen::elementOf(sites), [c, depth](int site) {
    Gen<GExpr> index = site == GPair   ? globalIndex(c)
                       : site == CConf ? gen::just(mk(EK::Const, 0))
                                       : intExpr(c, depth);
    return gen::map(gen::tuple(gen::inRange(0, kSiteFields[site]), index, intExpr(c, 0)),
                    [site](const std::tuple<int, GExpr, GExpr> &t) {
                      GExpr f = mk(EK::Field, site, std::get<0>(t), {std::get<1>(t)});
                      bool item = site == SRow ? std::get<0>(t) == 0 : site == SBox && std::get<0>(t) < 3;
                      if (item) f.a.push_back(std::get<2>(t));
                      return f;
                    });
  });
}

// g3[(index) & 1023], the index mostly a field.
Gen<GExpr> roLoad(Ctx c, int depth) {
  return gen::map(pick<GExpr>({{1, intExpr(c, depth)}, {2, field(c, depth, false)}}),
                  [](GExpr i) { return mk(EK::RoLoad, 0, 0, {i}); });
}

Gen<GExpr> rightOperand(int op, Ctx c, int depth) {
  switch (op) {
    case Mul: {  // by a loop variable too: `offset * (2 * tid + 1)` of a scan, i a power of two
      std::vector<std::pair<std::size_t, Gen<GExpr>>> alts = {{4, constant(1, 9)},
                                                              {1, gen::just(mk(EK::BDim, 0))}};
      if (c.loops > 0)
        alts.push_back({2, gen::map(gen::inRange(0, c.loops), [](int v) { return mk(EK::LoopVar, v); })});
      return pick<GExpr>(alts);
    }
    case Shl:
    case Shr: return constant(0, 5);
    case Mod:
      return pick<GExpr>({{3, constant(1, 9)}, {2, gen::map(gen::inRange(0, 2), [](int p) {
                                                  return mk(EK::Bin, 0, Add,
                                                            {mk(EK::Param, p), mk(EK::Const, 1)});
                                                })}});
    default: return intExpr(c, depth);
  }
}

Gen<GExpr> intExpr(Ctx c, int depth) {
  if (depth <= 0) return leaf(c);
  Gen<GExpr> sub = gen::lazy([c, depth] { return intExpr(c, depth - 1); });
  Gen<GExpr> bin = gen::mapcat(gen::inRange(0, int(kBinOps)), [c, depth, sub](int op) {
    return gen::map(gen::pair(sub, rightOperand(op, c, depth - 1)), [op](const std::pair<GExpr, GExpr> &p) {
      return mk(EK::Bin, 0, op, {p.first, p.second});
    });
  });
  Gen<GExpr> sel = gen::map(gen::tuple(gen::lazy([c, depth] { return condExpr(c, depth - 1); }), sub, sub),
                            [](const std::tuple<GExpr, GExpr, GExpr> &t) {
                              return mk(EK::Select, 0, 0, {std::get<0>(t), std::get<1>(t), std::get<2>(t)});
                            });
  Gen<GExpr> cast = gen::map(gen::pair(gen::inRange(0, 4), sub), [](const std::pair<int, GExpr> &p) {
    return mk(EK::Cast, p.first, 0, {p.second});
  });
  Gen<GExpr> call = gen::map(gen::pair(sub, sub), [](const std::pair<GExpr, GExpr> &p) {
    return mk(EK::Call, 0, 0, {p.first, p.second});
  });
  Gen<GExpr> ld = gen::lazy([c, depth] { return load(c, depth - 1); });
  Gen<GExpr> fld = gen::lazy([c, depth] { return field(c, depth - 1, false); });
  Gen<GExpr> ro = gen::lazy([c, depth] { return roLoad(c, depth - 1); });
  return withShrinks(pick<GExpr>({
                         {6, leaf(c)},
                         {8, bin},
                         {1, sel},
                         {1, cast},
                         {1, call},
                         {1, ld},
                         {1, fld},
                         {1, ro},
                     }),
                     exprChildren);
}

Gen<GExpr> cmp(Gen<GExpr> lhs, Gen<GExpr> rhs) {
  return gen::map(gen::tuple(gen::inRange(0, int(kCmpOps)), lhs, rhs),
                  [](const std::tuple<int, GExpr, GExpr> &t) {
                    return mk(EK::Cmp, 0, std::get<0>(t), {std::get<1>(t), std::get<2>(t)});
                  });
}

Gen<GExpr> condExpr(Ctx c, int depth) {
  // threadIdx.x < C and friends
  Gen<GExpr> tidCmp = cmp(tid(), pick<GExpr>({{3, constant(0, 65)}, {1, gen::just(mk(EK::Param, 0))}}));
  // threadIdx.x % 2 == 0
  Gen<GExpr> parity = gen::map(
      gen::tuple(tid(), gen::element(int(Mod), int(And)), constant(1, 5), constant(0, 2)),
      [](const std::tuple<GExpr, int, GExpr, GExpr> &t) {
        return mk(EK::Cmp, 0, Eq,
                  {mk(EK::Bin, 0, std::get<1>(t), {std::get<0>(t), std::get<2>(t)}), std::get<3>(t)});
      });
  Gen<GExpr> bidCmp = cmp(gen::just(mk(EK::Bid)), constant(0, 3));
  Gen<GExpr> paramCmp =
      cmp(gen::map(gen::inRange(0, 2), [](int v) { return mk(EK::Param, v); }), constant(0, 9));
  std::vector<std::pair<std::size_t, Gen<GExpr>>> alts = {
      {4, tidCmp},
      {2, parity},
      {1, bidCmp},
      {2, paramCmp},
  };
  if (depth > 0) {
    Gen<GExpr> sub = gen::lazy([c, depth] { return condExpr(c, depth - 1); });
    alts.push_back({3, cmp(intExpr(c, depth - 1), intExpr(c, depth - 1))});
    alts.push_back({1, cmp(gen::lazy([c, depth] { return load(c, depth - 1); }), constant(0, 3))});
    alts.push_back(
        {2, gen::map(gen::tuple(gen::inRange(0, 2), sub, sub), [](const std::tuple<int, GExpr, GExpr> &t) {
           return mk(EK::Logic, 0, std::get<0>(t), {std::get<1>(t), std::get<2>(t)});
         })});
    alts.push_back({1, gen::map(sub, [](GExpr e) { return mk(EK::Logic, 0, 2, {e}); })});
  }
  return withShrinks(pick<GExpr>(alts), exprChildren);
}

// A loop bound: constants, parameters, thread-dependent ones, or any expression, kept small.
Gen<GExpr> loopBound(Ctx c) {
  return pick<GExpr>({
      {4, constant(0, 5)},
      {3, gen::map(gen::inRange(0, 2), [](int v) { return mk(EK::Param, v); })},
      {2, gen::map(gen::pair(tid(), gen::element(0, 1, 2)),
                   [](const std::pair<GExpr, int> &p) {
                     if (p.second == 0) return mk(EK::Bin, 0, Mod, {p.first, mk(EK::Const, 3)});
                     if (p.second == 1) return mk(EK::Bin, 0, And, {p.first, mk(EK::Const, 3)});
                     return mk(EK::Bin, 0, Shr, {p.first, mk(EK::Const, 5)});
                   })},
      {1, gen::map(intExpr(c, 1), [](GExpr e) { return mk(EK::Bin, 0, And, {e, mk(EK::Const, 3)}); })},
  });
}

Gen<GExpr> globalIndex(Ctx c) {
  return pick<GExpr>({
      {5, gen::just(mk(EK::GIndex, 0, 0))},
      {3, gen::map(intExpr(c, 2), [](GExpr e) { return mk(EK::GIndex, 0, 1, {e}); })},
      {2, gen::map(constant(0, 17), [](GExpr e) { return mk(EK::GIndex, 0, 2, {e}); })},
      {1, gen::just(mk(EK::GIndex, 0, 3))},
      {1, gen::just(mk(EK::GIndex, 0, 4))},
  });
}

Gen<std::vector<GStmt>> stmtList(Ctx c, int depth, double scale);

GStmt st(SK k) {
  GStmt s;
  s.k = k;
  return s;
}

// A For statement without its body: the form, its bound (cond), step and start (val).
Gen<GStmt> loopHead(Ctx c, int form) {
  auto make = [form](GExpr bound, int step, GExpr start) {
    GStmt s = st(SK::For);
    s.op = form;
    s.cond = std::move(bound);
    s.step = step;
    s.val = std::move(start);
    return s;
  };
  Gen<GExpr> none = gen::just(mk(EK::Const, 0));
  // bounds of blockDim-strided loops: constants around the arrays, or blockDim.x (unsigned)
  Gen<GExpr> blockBound =
      pick<GExpr>({{2, loopBound(c)},
                   {2, gen::element(mk(EK::Const, 32), mk(EK::Const, 64), mk(EK::Const, 100))},
                   {1, gen::just(mk(EK::BDim, 0))}});
  Gen<GExpr> start = pick<GExpr>({{2, constant(1, 4)},
                                  {2, gen::just(mk(EK::Bin, 0, Add, {mk(EK::Tid, 0), mk(EK::Const, 1)}))},
                                  {1, gen::map(gen::inRange(0, 2), [](int v) { return mk(EK::Param, v); })}});
  switch (form) {
    case UpBlock:
    case UpBlockU: return gen::apply(make, blockBound, gen::element(0, 64, 100), none);
    case DownBlock: return gen::apply(make, blockBound, gen::just(1), none);
    case ShlOut: return gen::apply(make, none, gen::element(1, 2, 3), start);
    case MulWrap: return gen::apply(make, none, gen::element(2, 4, 6), start);
    case MulNeg:
      return gen::apply(
          make, pick<GExpr>({{2, loopBound(c)}, {2, gen::element(mk(EK::Const, 5), mk(EK::Const, 1000))}}),
          gen::just(2),
          pick<GExpr>({{2, constant(0, 3)},
                       {1, gen::just(mk(EK::Bin, 0, And, {mk(EK::Tid, 0), mk(EK::Const, 3)}))}}));
    case ShrDown: {  // from a bound, or from a power of two shifted in (1 << (p & 7)): a scan's halving offset
      Gen<GExpr> power = gen::map(gen::inRange(0, 2), [](int v) {
        return mk(EK::Bin, 0, Shl,
                  {mk(EK::Const, 1), mk(EK::Bin, 0, And, {mk(EK::Param, v), mk(EK::Const, 7)})});
      });
      return gen::apply(make, pick<GExpr>({{2, loopBound(c)}, {1, blockBound}, {2, power}}),
                        gen::element(1, 2), none);
    }
    default: return gen::apply(make, loopBound(c), gen::weightedElement<int>({{4, 1}, {1, 2}}), none);
  }
}

Gen<GStmt> stmt(Ctx c, int depth) {
  Gen<GStmt> storeShared = gen::mapcat(gen::inRange(0, 2), [c](int arr) {
    return gen::map(gen::tuple(sharedIndex(c, 2, arr), intExpr(c, 2),
                               gen::weightedElement<int>({{8, 0}, {2, 1}, {1, 2}})),
                    [arr](const std::tuple<GExpr, GExpr, int> &t) {
                      GStmt s = st(SK::StoreShared);
                      s.arr = arr;
                      s.idx = std::get<0>(t);
                      s.val = std::get<1>(t);
                      s.op = std::get<2>(t);
                      return s;
                    });
  });
  Gen<GStmt> storeGlobal = gen::map(gen::tuple(gen::inRange(0, 2), globalIndex(c), intExpr(c, 2)),
                                    [](const std::tuple<int, GExpr, GExpr> &t) {
                                      GStmt s = st(SK::StoreGlobal);
                                      s.arr = std::get<0>(t);
                                      s.idx = std::get<1>(t);
                                      s.val = std::get<2>(t);
                                      return s;
                                    });
  Gen<GStmt> atomicShared = gen::mapcat(gen::inRange(0, 2), [c](int arr) {
    return gen::map(gen::pair(sharedIndex(c, 2, arr), gen::weightedElement<int>({{6, -1}, {1, 0}})),
                    [arr](const std::pair<GExpr, int> &p) {
                      GStmt s = st(SK::AtomicShared);
                      s.arr = arr;
                      s.idx = p.first;
                      s.var = p.second;
                      return s;
                    });
  });
  Gen<GStmt> atomicGlobal =
      gen::map(gen::pair(gen::inRange(0, 2), globalIndex(c)), [](const std::pair<int, GExpr> &p) {
        GStmt s = st(SK::AtomicGlobal);
        s.arr = p.first;
        s.idx = p.second;
        return s;
      });
  Gen<GStmt> assign =
      gen::map(gen::tuple(gen::inRange(0, 4), intExpr(c, 2), gen::weightedElement<int>({{3, 1}, {1, 0}})),
               [](const std::tuple<int, GExpr, int> &t) {
                 GStmt s = st(SK::Assign);
                 s.var = std::get<0>(t);
                 s.val = std::get<1>(t);
                 s.op = std::get<2>(t);
                 return s;
               });
  Gen<GStmt> callStore = gen::mapcat(gen::inRange(0, 2), [c](int arr) {
    return gen::map(gen::pair(intExpr(c, 2), intExpr(c, 1)), [arr](const std::pair<GExpr, GExpr> &p) {
      GStmt s = st(SK::CallStore);
      s.arr = arr;
      s.idx = p.first;
      s.val = p.second;
      return s;
    });
  });
  auto condStmt = [c](SK k) {
    return gen::map(condExpr(c, 1), [k](GExpr e) {
      GStmt s = st(k);
      s.cond = e;
      return s;
    });
  };
  Gen<GStmt> storeField =
      gen::map(gen::tuple(field(c, 2, true), intExpr(c, 2), gen::weightedElement<int>({{5, 0}, {1, 1}})),
               [](const std::tuple<GExpr, GExpr, int> &t) {
                 GStmt s = st(SK::StoreField);
                 s.idx = std::get<0>(t);
                 s.val = std::get<1>(t);
                 s.op = std::get<2>(t);
                 return s;
               });
  // Tickets from one counter element or several (the index), global or per block.
  Gen<GStmt> ticket =
      gen::map(gen::tuple(gen::inRange(0, 2), gen::inRange(0, 2),
                          pick<GExpr>({{3, constant(0, 4)}, {2, intExpr(c, 1)}}), intExpr(c, 1)),
               [](const std::tuple<int, int, GExpr, GExpr> &t) {
                 GStmt s = st(SK::Ticket);
                 s.op = std::get<0>(t);
                 s.arr = std::get<1>(t);
                 s.idx = std::get<2>(t);
                 s.val = std::get<3>(t);
                 return s;
               });
  Gen<GStmt> blockTicket = gen::map(gen::tuple(gen::inRange(0, 2), constant(0, 4), intExpr(c, 1)),
                                    [](const std::tuple<int, GExpr, GExpr> &t) {
                                      GStmt s = st(SK::BlockTicket);
                                      s.arr = std::get<0>(t);
                                      s.idx = std::get<1>(t);
                                      s.val = std::get<2>(t);
                                      return s;
                                    });
  Gen<GStmt> update = gen::mapcat(gen::inRange(0, int(kUpdateForms)), [](int form) {
    // the locals each form may update without signed overflow in short loops
    std::vector<int> vars = {0, 1, 2, 3};
    if (form == UShl || form == UHavoc) vars = {1, 3};
    if (form == UAffine) vars = {1, 1, 2, 3};  // unsigned mostly: narrow types have no closed form
    if (form == UDiv) vars = {0, 2};
    if (form == URing) vars = {1};
    if (form == USwap || form == UCopy) vars = {0};
    return gen::map(
        gen::pair(gen::elementOf(vars),
                  pick<GExpr>({{3, constant(0, 9)},
                               {1, gen::map(gen::inRange(0, 2), [](int v) { return mk(EK::Param, v); })}})),
        [form](const std::pair<int, GExpr> &p) {
          GStmt s = st(SK::Update);
          s.op = form;
          s.var = p.first;
          s.val = p.second;
          return s;
        });
  });
  Gen<GStmt> publish = gen::map(gen::pair(gen::weightedElement<int>({{3, 0}, {1, 1}}), intExpr(c, 1)),
                                [](const std::pair<int, GExpr> &p) {
                                  GStmt s = st(SK::Publish);
                                  s.op = p.first;
                                  s.val = p.second;
                                  return s;
                                });
  Gen<GStmt> localObject = gen::map(intExpr(c, 2), [](GExpr v) {
    GStmt s = st(SK::LocalObject);
    s.val = std::move(v);
    return s;
  });
  // writes through g3's contents (ArrayPremise says what they are)
  auto throughG3 = [c](SK k) {
    return gen::mapcat(gen::inRange(0, 2), [c, k](int arr) {
      return gen::map(gen::tuple(intExpr(c, 1), intExpr(c, 1), gen::weightedElement<int>({{3, 0}, {1, 1}})),
                      [k, arr](const std::tuple<GExpr, GExpr, int> &t) {
                        GStmt s = st(k);
                        s.arr = arr;
                        s.idx = std::get<0>(t);
                        s.val = std::get<1>(t);
                        s.op = k == SK::Segment ? std::get<2>(t) : 0;
                        return s;
                      });
    });
  };
  std::vector<std::pair<std::size_t, Gen<GStmt>>> alts = {
      {8, storeShared},
      {1, throughG3(SK::Permuted)},
      {1, throughG3(SK::Segment)},
      {1, localObject},
      {3, storeField},
      {1, publish},
      {1, ticket},
      {1, blockTicket},
      {4, update},
      {3, storeGlobal},
      {4, gen::just(st(SK::Sync))},
      {2, atomicShared},
      {1, atomicGlobal},
      {3, assign},
      {1, gen::map(gen::inRange(0, 2),
                   [](int op) {
                     GStmt s = st(SK::SyncWarp);
                     s.op = op;
                     return s;
                   })},
      {1, gen::just(st(SK::SyncWarpMask))},
      {1, callStore},
      {1, condStmt(SK::Return)},
  };
  if (c.loops > 0) {
    alts.push_back({2, condStmt(SK::Break)});
    alts.push_back({2, condStmt(SK::Continue)});
  }
  if (depth > 0) {
    alts.push_back({5, gen::map(gen::tuple(condExpr(c, 1), stmtList(c, depth - 1, 0.04),
                                           pick<std::vector<GStmt>>({{3, gen::just(std::vector<GStmt>{})},
                                                                     {1, stmtList(c, depth - 1, 0.03)}})),
                                [](const std::tuple<GExpr, std::vector<GStmt>, std::vector<GStmt>> &t) {
                                  GStmt s = st(SK::If);
                                  s.cond = std::get<0>(t);
                                  s.body = std::get<1>(t);
                                  s.els = std::get<2>(t);
                                  return s;
                                })});
    if (c.loops < kMaxLoopDepth) {
      Ctx in = c;
      in.loops++;
      int level = c.loops;
      alts.push_back({6, gen::mapcat(gen::weightedElement<int>({{8, Up},
                                                                {2, UpBlock},
                                                                {2, UpBlockU},
                                                                {2, DownBlock},
                                                                {1, ShlOut},
                                                                {1, MulWrap},
                                                                {1, MulNeg},
                                                                {2, ShrDown}}),
                                     [c, in, depth, level](int form) {
                                       return gen::map(
                                           gen::tuple(loopHead(c, form), stmtList(in, depth - 1, 0.04)),
                                           [level](const std::tuple<GStmt, std::vector<GStmt>> &t) {
                                             GStmt s = std::get<0>(t);
                                             s.depth = level;
                                             s.body = std::get<1>(t);
                                             return s;
                                           });
                                     })});
      // a loop headed by an affine (v = v * 2 + c) or flip (v = c - v) update of an unsigned
      // local: the closed forms that apply only to an update every iteration runs first
      alts.push_back(
          {1, gen::map(gen::tuple(loopHead(c, Up), gen::elementOf(std::vector<int>{UAffine, UFlip}),
                                  constant(0, 9), stmtList(in, depth - 1, 0.04)),
                       [level](const std::tuple<GStmt, int, GExpr, std::vector<GStmt>> &t) {
                         GStmt s = std::get<0>(t);
                         s.depth = level;
                         GStmt u = st(SK::Update);
                         u.op = std::get<1>(t);
                         u.var = 1;
                         u.val = std::get<2>(t);
                         s.body = std::get<3>(t);
                         s.body.insert(s.body.begin(), u);
                         return s;
                       })});
      alts.push_back({1, gen::map(gen::tuple(gen::weightedElement<int>({{4, 0}, {1, 1}, {1, 2}}),
                                             stmtList(in, depth - 1, 0.04)),
                                  [level](const std::tuple<int, std::vector<GStmt>> &t) {
                                    GStmt s = st(SK::Search);
                                    s.depth = level;
                                    s.op = std::get<0>(t);
                                    s.body = std::get<1>(t);
                                    return s;
                                  })});
      alts.push_back(
          {2, gen::map(gen::tuple(gen::weightedElement<int>({{3, DoLoop}, {2, WhileLoop}, {2, DoSyncOr}}),
                                  loopBound(c), stmtList(in, depth - 1, 0.04)),
                       [level](const std::tuple<int, GExpr, std::vector<GStmt>> &t) {
                         GStmt s = st(SK::DoWhile);
                         s.depth = level;
                         s.op = std::get<0>(t);
                         s.cond = std::get<1>(t);
                         s.body = std::get<2>(t);
                         return s;
                       })});
    }
  }
  return pick<GStmt>(alts);
}

Gen<std::vector<GStmt>> stmtList(Ctx c, int depth, double scale) {
  return withShrinks(gen::scale(scale, gen::container<std::vector<GStmt>>(gen::resize(
                                           100, gen::lazy([c, depth] { return stmt(c, depth); })))),
                     listChildren);
}

// ---------------------------------------------------------------------------------------
// Emission

const char *binOpText(int op) {
  static const char *t[] = {"+", "-", "*", "<<", ">>", "%", "&", "^", "|"};
  return t[op];
}
const char *cmpOpText(int op) {
  static const char *t[] = {"<", "<=", ">", ">=", "==", "!="};
  return t[op];
}
const char *castText(int v) {
  static const char *t[] = {"int", "unsigned", "short", "unsigned char"};
  return t[v];
}
const char *kGid = "(blockIdx.x * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x)";

struct Emitter {
  const GenKernel &k;
  std::ostringstream os;

  std::string e(const GExpr &x) {
    switch (x.k) {
      case EK::Const: return std::to_string(x.v);
      case EK::Tid: {
        static const char *t[] = {"threadIdx.x", "threadIdx.y", "(threadIdx.y * blockDim.x + threadIdx.x)",
                                  "(threadIdx.x & 31)"};
        return t[x.v];
      }
      case EK::Bid: return "blockIdx.x";
      case EK::BDim: return x.v ? "blockDim.y" : "blockDim.x";
      case EK::Param: return "p" + std::to_string(x.v);
      case EK::LoopVar: return "i" + std::to_string(x.v);
      case EK::Local: return "v" + std::to_string(x.v);
      case EK::Bin: return "(" + e(x.a[0]) + " " + binOpText(x.op) + " " + e(x.a[1]) + ")";
      case EK::Select: return "(" + e(x.a[0]) + " ? " + e(x.a[1]) + " : " + e(x.a[2]) + ")";
      case EK::Cast: return std::string("((") + castText(x.v) + ")" + e(x.a[0]) + ")";
      case EK::Load: return "s" + std::to_string(x.v) + "[" + e(x.a[0]) + "]";
      case EK::Index: {
        int n = k.shared_size[x.v];
        if (x.op == WrapMask) return "(" + e(x.a[0]) + ") & " + std::to_string(n - 1);
        if (x.op == WrapMod) return "(" + e(x.a[0]) + ") % " + std::to_string(n);
        return e(x.a[0]);
      }
      case EK::GIndex:
        switch (x.op) {
          case 0: return kGid;
          case 1: return "(" + e(x.a[0]) + ") & 1023";
          case 2: return std::string(kGid) + " + " + e(x.a[0]);
          case 3: return "threadIdx.y * blockDim.x + threadIdx.x";
          default: return "blockIdx.x";
        }
      case EK::Call: return "kv_helper(" + e(x.a[0]) + ", " + e(x.a[1]) + ")";
      case EK::Field: return field(x);
      case EK::RoLoad: return "g3[(" + e(x.a[0]) + ") & 1023]";
      case EK::Cmp: return "(" + e(x.a[0]) + " " + cmpOpText(x.op) + " " + e(x.a[1]) + ")";
      case EK::Logic:
        if (x.op == 2) return "(!" + e(x.a[0]) + ")";
        return "(" + e(x.a[0]) + (x.op == 0 ? " && " : " || ") + e(x.a[1]) + ")";
    }
    return "0";
  }

  // A struct site's element: sb[(i) & 3]; through a pointer (&sb[(i) & 3])->.
  std::string element(const GExpr &x) {
    static const char *arrays[] = {"g2", "sp", "sv", "sc", "sr", "sd", "sb", "kv_conf"};
    std::string out = arrays[x.v];
    if (x.v == GPair)
      out += "[" + e(x.a[0]) + "]";
    else if (x.v != CConf)
      out += "[(" + e(x.a[0]) + ") & " + std::to_string(kSiteElems[x.v] - 1) + "]";
    if (x.v == SBox && x.op == 2) return "(&" + out + ")->";
    return out + ".";
  }

  // A field read (or, for SBox's methods, a call that reads it).
  std::string field(const GExpr &x) {
    static const char *names[kStructSites][4] = {{"a", "b"},
                                                 {"a", "b"},
                                                 {"x", "y"},
                                                 {"x", "y", "z", "w"},
                                                 {"v", "n"},
                                                 {"base", "extra"},
                                                 {"get", "at", "get", "n"},
                                                 {"lo", "hi"}};
    if (x.v == SBox && x.op < 3) return element(x) + names[SBox][x.op] + "(" + e(x.a[1]) + ")";
    std::string out = element(x) + names[x.v][x.op];
    if (x.v == SRow && x.op == 0) out += "[(" + e(x.a[1]) + ") & 3]";
    return out;
  }

  void line(int ind, const std::string &s) { os << std::string(2 * ind, ' ') << s << "\n"; }

  void body(const std::vector<GStmt> &b, int ind) {
    for (const GStmt &s : b) stmt(s, ind);
  }

  void stmt(const GStmt &s, int ind) {
    switch (s.k) {
      case SK::StoreShared:
        line(ind, "s" + std::to_string(s.arr) + "[" + e(s.idx) + "]" + (s.op == 1 ? " += " : " = ") +
                      e(s.val) + ";");
        if (s.op == 2) line(ind, "v2 = s" + std::to_string(s.arr) + "[" + e(s.idx) + "];");
        break;
      case SK::StoreGlobal:
        line(ind, "g" + std::to_string(s.arr) + "[" + e(s.idx) + "] = " + e(s.val) + ";");
        break;
      case SK::AtomicShared:
        line(ind, (s.var >= 0 ? "v" + std::to_string(s.var) + " = " : std::string()) + "atomicAdd(&s" +
                      std::to_string(s.arr) + "[" + e(s.idx) + "], 1);");
        break;
      case SK::AtomicGlobal:
        line(ind, "atomicAdd(&g" + std::to_string(s.arr) + "[" + e(s.idx) + "], 1);");
        break;
      case SK::Assign:
        line(ind,
             "v" + std::to_string(s.var) + " = " + (s.op ? "(" + e(s.val) + ") & 1023" : e(s.val)) + ";");
        break;
      case SK::Sync: line(ind, "__syncthreads();"); break;
      case SK::SyncWarp: line(ind, s.op ? "__syncwarp(0xffffffffu);" : "__syncwarp();"); break;
      case SK::SyncWarpMask: line(ind, "if ((threadIdx.x & 31) < 16) __syncwarp(0xffffu);"); break;
      case SK::CallStore:
        line(ind, "kv_store(s" + std::to_string(s.arr) + ", " + std::to_string(k.shared_size[s.arr]) + ", " +
                      e(s.idx) + ", " + e(s.val) + ");");
        break;
      case SK::Return: line(ind, "if " + paren(e(s.cond)) + " return;"); break;
      case SK::Break: line(ind, "if " + paren(e(s.cond)) + " break;"); break;
      case SK::Continue: line(ind, "if " + paren(e(s.cond)) + " continue;"); break;
      case SK::If:
        line(ind, "if " + paren(e(s.cond)) + " {");
        body(s.body, ind + 1);
        if (!s.els.empty()) {
          line(ind, "} else {");
          body(s.els, ind + 1);
        }
        line(ind, "}");
        break;
      case SK::StoreField:
        if (s.idx.v == SBox && s.idx.op != 1 && s.idx.op != 3 && s.op == 0)  // put(item, v)
          line(ind, element(s.idx) + "put(" + e(s.idx.a[1]) + ", " + e(s.val) + ");");
        else if (s.idx.v == SBox && s.idx.op != 3)  // at(item) = v, at(item) += v
          line(ind, element(s.idx) + "at(" + e(s.idx.a[1]) + ")" + (s.op ? " += " : " = ") + e(s.val) + ";");
        else
          line(ind, e(s.idx) + (s.op ? " += " : " = ") + e(s.val) + ";");
        break;
      case SK::Permuted:
        line(ind, "s" + std::to_string(s.arr) + "[g3[(" + e(s.idx) + ") & 31]] = " + e(s.val) + ";");
        break;
      case SK::Segment: {
        std::string at = "(" + e(s.idx) + ") & 31";
        line(ind, "for (int j = g3[" + at + "]; j " + (s.op ? "<=" : "<") + " g3[(" + at + ") + 1]; ++j)");
        line(ind + 1, "s" + std::to_string(s.arr) + "[j] = " + e(s.val) + ";");
        break;
      }
      case SK::LocalObject:
        line(ind, "{");
        line(ind + 1, "KvAcc t(" + e(s.val) + ");");
        line(ind + 1, "v0 = t.total();");
        line(ind, "}");
        break;
      case SK::Ticket: {
        std::string counter = s.op == 0 ? "g4" : "scnt";
        std::string array = (s.op == 0 ? "g" : "s") + std::to_string(s.arr);
        int n = s.op == 0 ? kGlobalElems : k.shared_size[s.arr];
        line(ind, "v1 = atomicAdd(&" + counter + "[(" + e(s.idx) + ") & 3], 1u);");
        line(ind, "if (v1 < " + std::to_string(n) + "u) " + array + "[v1] = " + e(s.val) + ";");
        break;
      }
      case SK::BlockTicket:
        line(ind, "if ((threadIdx.y * blockDim.x + threadIdx.x) == 0) stk[0] = atomicAdd(&g4[(" + e(s.idx) +
                      ") & 3], 1u);");
        line(ind, "__syncthreads();");
        line(ind, "v1 = stk[0];");
        line(ind, "if (v1 < 15u) g" + std::to_string(s.arr) +
                      "[v1 * 128u + ((threadIdx.y * blockDim.x + threadIdx.x) & 127)] = " + e(s.val) + ";");
        break;
      case SK::Publish:
        line(ind, "if ((threadIdx.y * blockDim.x + threadIdx.x) == 0) {");
        line(ind + 1, "g5[blockIdx.x] = " + e(s.val) + ";");
        if (s.op == 0) line(ind + 1, "__threadfence();");
        line(ind + 1, "atomicExch(&g6[blockIdx.x], 1u);");
        line(ind + 1, "if (blockIdx.x > 0) {");
        line(ind + 2,
             "unsigned f = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(g6[blockIdx.x - 1])"
             ".load(cuda::memory_order_relaxed);");
        line(ind + 2, "__threadfence();");
        line(ind + 2, "if (f == 1u) v0 = g5[blockIdx.x - 1];");
        line(ind + 1, "}");
        line(ind, "}");
        break;
      case SK::Update: {
        std::string v = "v" + std::to_string(s.var), c = e(s.val);
        switch (s.op) {
          case UAdd: line(ind, v + " += " + c + ";"); break;
          case UShl: line(ind, v + " <<= 1;"); break;
          case UShr: line(ind, v + " >>= 1;"); break;
          case UDiv: line(ind, v + " /= 2;"); break;
          case UAffine: line(ind, v + " = " + v + " * 2 + " + c + ";"); break;
          case UFlip: line(ind, v + " = " + c + " - " + v + ";"); break;
          case UHavoc: line(ind, v + " = " + v + " * 3 + " + c + ";"); break;
          case URing:
            line(ind, "if (++" + v + " == " + std::to_string(16 + (s.val.k == EK::Const ? s.val.v : 0)) +
                          "u) " + v + " = 0;");
            break;
          case USwap: line(ind, "{ int t = v0; v0 = v4; v4 = t; }"); break;
          default: line(ind, "v4 = v5; v5 = v4;"); break;
        }
        break;
      }
      case SK::For: {
        std::string i = "i" + std::to_string(s.depth);
        std::string b = e(s.cond), st = std::to_string(s.step), head;
        switch (s.op) {
          case UpBlock:
            head = "int " + i + " = (int)threadIdx.x - " + st + "; " + i + " < " + b + "; " + i +
                   " += blockDim.x";
            break;
          case UpBlockU:
            head = "unsigned " + i + " = threadIdx.x - " + st + "u; " + i + " < " + b + "; " + i +
                   " += blockDim.x";
            break;
          case DownBlock:
            head = "int " + i + " = (int)(" + b + ") - 1 - (int)threadIdx.x; " + i + " >= 0; " + i +
                   " -= blockDim.x";
            break;
          case ShlOut:
            head = "unsigned " + i + " = " + e(s.val) + "; " + i + " != 0; " + i + " <<= " + st;
            break;
          case MulWrap:
            head = "unsigned " + i + " = " + e(s.val) + "; " + i + " != 0; " + i + " *= " + st;
            break;
          case MulNeg:
            head = "int " + i + " = -1 - " + paren(e(s.val)) + "; " + i + " >= -(int)(" + b + "); " + i +
                   " *= 2";
            break;
          case ShrDown: head = "int " + i + " = " + b + "; " + i + " > 0; " + i + " >>= " + st; break;
          default:
            head = "int " + i + " = 0; " + i + " < " + b + "; " + i + (s.step == 1 ? "++" : " += " + st);
            break;
        }
        line(ind, "for (" + head + ") {");
        body(s.body, ind + 1);
        line(ind, "}");
        break;
      }
      case SK::Search: {
        std::string d = std::to_string(s.depth), i = "i" + d, w = "w" + d;
        line(ind, "{");
        line(ind + 1, "int " + w + ", " + i + ";");
        line(ind + 1, w + (s.op & 1 ? " = (int)(threadIdx.x & 1);" : " = 0;"));
        line(ind + 1, "if ((threadIdx.x & 3) == 0)");
        line(ind + 2, "for (" + i + " = 0; " + i + " < 2; ++" + i + ") v0 += " + i + ";");
        line(ind + 1, "for (" + i + " = 1; " + i + " <= 40; " + i + " = " + i + " * 3 + 1)");
        line(ind + 2, std::string("if (") + (s.op & 2 ? "(int)threadIdx.x" : "p1") + " >= " + i + ") " + w +
                          " = " + i + ";");
        line(ind + 1, "for (" + i + " = 1; " + i + " <= " + w + "; " + i + " *= 2) {");
        body(s.body, ind + 2);
        line(ind + 1, "}");
        line(ind, "}");
        break;
      }
      case SK::DoWhile: {
        std::string i = "i" + std::to_string(s.depth);
        line(ind, "{");
        line(ind + 1, "int " + i + " = 0;");
        if (s.op == WhileLoop)
          line(ind + 1, "while (" + i + " < " + e(s.cond) + ") {");
        else
          line(ind + 1, "do {");
        line(ind + 2, i + "++;");
        body(s.body, ind + 2);
        if (s.op == WhileLoop)
          line(ind + 1, "}");
        else if (s.op == DoSyncOr)
          line(ind + 1, "} while (__syncthreads_or(" + i + " < " + e(s.cond) + "));");
        else
          line(ind + 1, "} while (" + i + " < " + e(s.cond) + ");");
        line(ind, "}");
        break;
      }
    }
  }
  static std::string paren(const std::string &s) {
    if (!s.empty() && s.front() == '(') {
      // Already parenthesized as a whole?
      int d = 0;
      for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '(') ++d;
        if (s[i] == ')') --d;
        if (d == 0 && i + 1 < s.size()) return "(" + s + ")";
      }
      return s;
    }
    return "(" + s + ")";
  }
};

void walk(const std::vector<GStmt> &b, const std::function<void(const GStmt &)> &fs) {
  for (const GStmt &s : b) {
    fs(s);
    walk(s.body, fs);
    walk(s.els, fs);
  }
}
void walkE(const GExpr &e, const std::function<void(const GExpr &)> &f) {
  f(e);
  for (auto &a : e.a) walkE(a, f);
}
bool hasLoad(const GExpr &e) {
  bool r = false;
  walkE(e, [&](const GExpr &x) { r = r || x.k == EK::Load || x.k == EK::Field || x.k == EK::RoLoad; });
  return r;
}

}  // namespace

std::vector<GlobalArray> extraGlobalArrays(const GenKernel &k) {
  std::vector<GlobalArray> out;
  if (k.uses_site[GPair]) out.push_back({2, "KvPair"});
  if (k.uses_ro) out.push_back({3, "int", true});
  if (k.uses_counter || k.uses_block_ticket) out.push_back({4, "unsigned"});
  if (k.uses_flags) out.push_back({5, "int"}), out.push_back({6, "unsigned"});
  return out;
}

std::string kernelParams(const GenKernel &k) {
  std::string p = "int *g0, int *g1, int p0, int p1";
  for (const GlobalArray &a : extraGlobalArrays(k))
    p += std::string(", ") + (a.read_only ? "const " : "") + a.elem + " *g" + std::to_string(a.n);
  return p;
}

std::string kernelArgs(const GenKernel &k) {
  std::string args = "g0, g1, p0, p1";
  for (const GlobalArray &a : extraGlobalArrays(k)) args += ", g" + std::to_string(a.n);
  return args;
}

std::string emitSource(const GenKernel &k) {
  Emitter em{k, {}};
  std::ostream &os = em.os;
  os << "// generated by kverify's differential test generator\n"
     << "// launch: " << launchText(k) << "\n"
     << "// kverify:";
  if (k.host_launch == NoHostLaunch)
    os << " --block-dim=" << k.block[0] << "," << k.block[1] << "," << k.block[2]
       << " --grid-dim=" << k.grid[0] << "," << k.grid[1] << "," << k.grid[2];
  os << (k.uses_flags ? " --zero-init=g6" : "") << "\n";
  if (k.uses_helper)
    os << "__device__ int kv_helper(int a, int b)\n{\n"
       << "  if (a > b) return (a - b) & 63;\n"
       << "  for (int k = 0; k < 3; ++k) {\n"
       << "    if (a == k) return b & 63;\n"
       << "  }\n"
       << "  return (a + b) & 63;\n}\n\n";
  if (k.uses_store_helper)
    os << "__device__ void kv_store(int *arr, int n, int i, int v)\n{\n"
       << "  if (i < 0 || i >= n) return;\n"
       << "  arr[i] = v;\n}\n\n";
  const auto &site = k.uses_site;
  if (k.uses_flags) os << "#include <cuda/atomic>\n";
  if (k.premise != NoPremise)  // <kverify.h> under kverify, no-ops under nvcc and g++
    os << "#if defined(__KVERIFY__)\n#include <kverify.h>\n#else\n"
       << "#define KV_ASSUME_FORALL(i, lo, hi, cond) ((void)0)\n"
       << "#define KV_ASSUME_FORALL2(i, j, lo, hi, cond) ((void)0)\n#endif\n";
  if (site[GPair] || site[SPair]) os << "struct KvPair { int a; int b; };\n";
  if (site[SRow]) os << "struct KvRow { int v[4]; int n; };\n";
  if (site[SDerived]) os << "struct KvBase { int base; };\nstruct KvDerived : KvBase { int extra; };\n";
  if (site[SBox])
    os << "struct KvBox {\n  int d[16];\n  int n;\n"
       << "  __device__ int get(int i) const { return d[i & 15]; }\n"
       << "  __device__ void put(int i, int v) { d[i & 15] = v; }\n"
       << "  __device__ int &at(int i) { return d[i & 15]; }\n};\n";
  if (k.uses_local_object)
    os << "struct KvAcc {\n  int a;\n  int b;\n"
       << "  __device__ KvAcc(int x) : a(x & 63) { b = a + 1; }\n"
       << "  __device__ int total() const { return a + b; }\n};\n";
  if (site[CConf]) os << "struct KvConf { int lo; int hi; };\n__constant__ KvConf kv_conf;\n";
  os << "__global__ void " << k.name << "(" << kernelParams(k) << ")\n{\n"
     << "  __shared__ int s0[" << k.shared_size[0] << "];\n"
     << "  __shared__ int s1[" << k.shared_size[1] << "];\n";
  if (site[SPair]) os << "  __shared__ KvPair sp[" << kSiteElems[SPair] << "];\n";
  if (site[SInt2]) os << "  __shared__ int2 sv[" << kSiteElems[SInt2] << "];\n";
  if (site[SUchar4]) os << "  __shared__ uchar4 sc[" << kSiteElems[SUchar4] << "];\n";
  if (site[SRow]) os << "  __shared__ KvRow sr[" << kSiteElems[SRow] << "];\n";
  if (site[SDerived]) os << "  __shared__ KvDerived sd[" << kSiteElems[SDerived] << "];\n";
  if (site[SBox]) os << "  __shared__ KvBox sb[" << kSiteElems[SBox] << "];\n";
  if (k.uses_shared_counter) os << "  __shared__ unsigned scnt[4];\n";
  if (k.uses_block_ticket) os << "  __shared__ unsigned stk[1];\n";
  os << "  int v0 = threadIdx.x;\n"
     << "  unsigned v1 = 0u;\n"
     << "  short v2 = 1;\n"
     << "  unsigned char v3 = 0;\n";
  if (k.uses_extra_locals) os << "  int v4 = 0, v5 = 0;\n";
  switch (k.premise) {
    case Permutation:
    case ShortDistinct:
      os << "  KV_ASSUME_FORALL(i, 0, 32, 0 <= g3[i] && g3[i] < 32);\n"
         << "  KV_ASSUME_FORALL2(i, j, 0, " << (k.premise == Permutation ? 32 : 31)
         << ", i == j || g3[i] != g3[j]);\n";
      break;
    case WideRange:
      os << "  KV_ASSUME_FORALL(i, 0, 32, 0 <= g3[i] && g3[i] <= 32);\n"
         << "  KV_ASSUME_FORALL2(i, j, 0, 32, i == j || g3[i] != g3[j]);\n";
      break;
    case Sorted:
      os << "  KV_ASSUME_FORALL(i, 0, 33, 0 <= g3[i] && g3[i] <= 32);\n"
         << "  KV_ASSUME_FORALL2(i, j, 0, 33, i >= j || g3[i] <= g3[j]);\n";
      break;
  }
  em.body(k.body, 1);
  os << "}\n";
  return em.os.str();
}

std::string emitLauncher(const GenKernel &k) {
  std::ostringstream os;
  if (k.host_launch != NoHostLaunch) {
    std::string x = std::to_string(k.block[0]), y = std::to_string(k.block[1]);
    // the kernel's arguments with p1's value as a constant (LiteralDims, ViaCaller's caller)
    std::string p1_constant = kernelArgs(k);
    p1_constant.replace(p1_constant.find("p1"), 2, "(" + std::to_string(k.params.at("p1")) + ")");
    os << "\nvoid launch_" << k.name << "(" << kernelParams(k) << ")\n{\n";
    if (k.host_launch == FieldsAssigned) {
      os << "  dim3 block(1);\n  block.x = " << x << ";\n  block.y = " << y << ";\n"
         << "  dim3 grid(1);\n  grid.x = " << k.grid[0] << " * " << x << " / block.x;\n"
         << "  " << k.name << "<<<grid, block>>>(" << kernelArgs(k) << ");\n";
    } else if (k.host_launch == IntCeilGrid) {
      os << "  int threads = " << x << ";\n"
         << "  int blocks = (p0 + threads - 1) / threads;\n"
         << "  " << k.name << "<<<blocks, threads>>>(" << kernelArgs(k) << ");\n";
    } else {
      os << "  dim3 block(" << x << ", " << y << ");\n";
      if (k.host_launch == LiteralDims || k.host_launch == ViaCaller)
        os << "  dim3 grid(" << k.grid[0] << ");\n";
      else
        os << "  dim3 grid((p0 + " << x << " - 1) / " << x << ");\n";
      os << "  " << k.name << "<<<grid, block>>>("
         << (k.host_launch == LiteralDims ? p1_constant : kernelArgs(k)) << ");\n";
    }
    os << "}\n";
    if (k.host_launch == ViaCaller)  // p1's constant reaches the launch through the call
      os << "\nvoid run_" << k.name << "(" << kernelParams(k) << ")\n{\n"
         << "  launch_" << k.name << "(" << p1_constant << ");\n}\n";
  }
  return os.str();
}

std::vector<std::string> zeroInit(const GenKernel &k) {
  if (k.uses_flags) return {"g6"};
  return {};
}

std::string launchText(const GenKernel &k) {
  std::ostringstream os;
  os << "block (" << k.block[0] << "," << k.block[1] << "," << k.block[2] << ") grid (" << k.grid[0] << ","
     << k.grid[1] << "," << k.grid[2] << ") params {";
  bool first = true;
  for (auto &[n, v] : k.params) {
    os << (first ? "" : ", ") << n << "=" << v;
    first = false;
  }
  os << "}";
  if (k.host_launch != NoHostLaunch) os << " by launch_" << k.name;
  return os.str();
}

void finish(GenKernel &k) {
  k.data_dependent = false;
  k.uses_helper = false;
  k.uses_store_helper = false;
  k.uses_site = {};
  k.uses_ro = k.uses_counter = k.uses_shared_counter = false;
  k.uses_block_ticket = k.uses_extra_locals = k.uses_flags = k.uses_local_object = false;
  auto expr = [&](const GExpr &e, bool valueOnly) {
    walkE(e, [&](const GExpr &x) {
      k.uses_helper = k.uses_helper || x.k == EK::Call;
      if (x.k == EK::Field) k.uses_site[x.v] = true;
      k.uses_ro = k.uses_ro || x.k == EK::RoLoad;
    });
    if (!valueOnly && hasLoad(e)) k.data_dependent = true;
    // a load whose index reads memory: its address depends on data even in a stored value
    walkE(e, [&](const GExpr &x) {
      if (x.k == EK::Load || x.k == EK::Field || x.k == EK::RoLoad)
        for (const GExpr &a : x.a) k.data_dependent = k.data_dependent || hasLoad(a);
    });
  };
  walk(k.body, [&](const GStmt &s) {
    bool storesValue = s.k == SK::StoreShared || s.k == SK::StoreGlobal;
    if (s.k == SK::StoreField) {  // the target is no load; its index and item are
      expr(s.idx, true);
      for (const GExpr &a : s.idx.a) expr(a, false);
    } else {
      expr(s.idx, false);
    }
    expr(s.val, storesValue || s.k == SK::StoreField);
    expr(s.cond, false);
    if (s.k == SK::AtomicShared && s.var >= 0) k.data_dependent = true;
    if (s.k == SK::CallStore) k.uses_store_helper = true;
    if (s.k == SK::DoWhile && s.op == DoSyncOr) k.data_dependent = true;  // the block's vote
    if (s.k == SK::BlockTicket) k.uses_block_ticket = k.data_dependent = true;
    if (s.k == SK::Publish) k.uses_flags = k.data_dependent = true;
    if (s.k == SK::LocalObject) k.uses_local_object = true;
    if (s.k == SK::Permuted || s.k == SK::Segment) k.uses_ro = k.data_dependent = true;
    if (s.k == SK::StoreShared && s.op == 2) k.data_dependent = true;  // read back into v2
    if (s.k == SK::Update && (s.op == USwap || s.op == UCopy)) k.uses_extra_locals = true;
    if (s.k == SK::Ticket) {
      k.data_dependent = true;  // v1 holds the ticket
      (s.op == 0 ? k.uses_counter : k.uses_shared_counter) = true;
    }
  });
  if (k.premise != NoPremise) k.uses_ro = true;
  k.source = emitSource(k) + emitLauncher(k);
}

std::ostream &operator<<(std::ostream &os, const GenKernel &k) {
  return os << "\n// " << launchText(k) << (k.data_dependent ? " (data-dependent)" : "") << "\n" << k.source;
}

Gen<GenKernel> genKernel() {
  static const unsigned kBlockX[] = {8, 16, 32, 64, 128};
  Gen<unsigned> bx = pick<unsigned>(
      {{3, gen::map(gen::inRange(0, 5), [](int i) { return kBlockX[i]; })}, {2, gen::inRange(1u, 129u)}});
  Gen<unsigned> by = pick<unsigned>({{4, gen::just(1u)}, {1, gen::element(2u, 4u)}});
  Gen<int64_t> param = pick<int64_t>({{5, gen::inRange<int64_t>(0, 9)},
                                      {1, gen::inRange<int64_t>(0, 40)},
                                      {1, gen::inRange<int64_t>(-2, 0)}});
  Gen<int> size = gen::weightedElement<int>({{1, 32}, {3, 64}, {1, 128}});
  Gen<int> hostLaunch = gen::weightedElement<int>({{6, NoHostLaunch},
                                                   {1, LiteralDims},
                                                   {1, CeilGrid},
                                                   {1, IntCeilGrid},
                                                   {1, FieldsAssigned},
                                                   {1, ViaCaller}});
  Gen<int> premise = gen::weightedElement<int>(
      {{6, NoPremise}, {1, Permutation}, {1, ShortDistinct}, {1, WideRange}, {1, Sorted}});
  using Parts =
      std::tuple<std::vector<GStmt>, unsigned, unsigned, unsigned, int64_t, int64_t, int, int, int, int>;
  return gen::map(gen::tuple(stmtList(Ctx{}, 3, 0.08), bx, by, gen::inRange(1u, 4u), param, param, size, size,
                             hostLaunch, premise),
                  [](const Parts &t) {
                    GenKernel k;
                    k.name = "rand_kernel";
                    k.body = std::get<0>(t);
                    unsigned y = std::get<2>(t);
                    k.host_launch = std::get<8>(t);
                    k.premise = std::get<9>(t);
                    if (k.host_launch == IntCeilGrid) y = 1;  // an int block is 1-D
                    k.block = {std::min(std::get<1>(t), 128u / y), y, 1};
                    k.grid = {std::get<3>(t), 1, 1};
                    int64_t p0 = std::get<4>(t);
                    if (k.host_launch == CeilGrid || k.host_launch == IntCeilGrid) {
                      // the grid the host computes from p0: p0 >= 1, at most 3 blocks
                      int64_t x = k.block[0];
                      p0 = std::clamp<int64_t>(p0, 1, 3 * x);
                      k.grid[0] = unsigned((p0 + x - 1) / x);
                    }
                    k.params = {{"p0", p0}, {"p1", std::get<5>(t)}};
                    k.shared_size = {std::get<6>(t), std::get<7>(t)};
                    finish(k);
                    return k;
                  });
}

std::string emitStandaloneProgram(const GenKernel &k) {
  std::ostringstream os;
  os << k.source << "\n"
     << "#include <cstdio>\n#include <cstdlib>\n\n"
     << "#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \\\n"
     << "  std::fprintf(stderr, \"%s:%d: %s: %s\\n\", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); "
        "\\\n"
     << "  return 1; } } while (0)\n\n"
     << "int main()\n{\n"
     << "  const size_t n = " << kGlobalElems << ";\n"
     << "  int *g0 = nullptr, *g1 = nullptr;\n"
     << "  CHECK(cudaMalloc(&g0, n * sizeof(int)));\n"
     << "  CHECK(cudaMalloc(&g1, n * sizeof(int)));\n"
     << "  CHECK(cudaMemset(g0, 0, n * sizeof(int)));\n"
     << "  CHECK(cudaMemset(g1, 0, n * sizeof(int)));\n";
  for (const GlobalArray &a : extraGlobalArrays(k)) {
    std::string g = "g" + std::to_string(a.n), bytes = "n * sizeof(" + std::string(a.elem) + ")";
    os << "  " << a.elem << " *" << g << " = nullptr;\n"
       << "  CHECK(cudaMalloc(&" << g << ", " << bytes << "));\n"
       << "  CHECK(cudaMemset(" << g << ", 0, " << bytes << "));\n";
  }
  if (k.premise != NoPremise) {  // g3's contents: the premise holds (ArrayPremise)
    static const char *fill[] = {"", "(13 * i + 5) & 31", "i == 31 ? 5 : (13 * i + 5) & 31",
                                 "((13 * i + 5) & 31) + 1", "i <= 32 ? 3 * i / 4 : 0"};
    int limit = k.premise == Sorted ? 33 : 32;
    os << "  int h3[n] = {};\n"
       << "  for (int i = 0; i < " << limit << "; ++i) h3[i] = " << fill[k.premise] << ";\n"
       << "  CHECK(cudaMemcpy(g3, h3, sizeof h3, cudaMemcpyHostToDevice));\n";
  }
  if (k.uses_site[CConf])
    os << "  KvConf conf{3, 40};\n"
       << "  CHECK(cudaMemcpyToSymbol(kv_conf, &conf, sizeof conf));\n";
  os << "  int p0 = " << k.params.at("p0") << ", p1 = " << k.params.at("p1") << ";\n";
  if (k.host_launch != NoHostLaunch)
    os << "  " << (k.host_launch == ViaCaller ? "run_" : "launch_") << k.name << "(" << kernelArgs(k)
       << ");\n";
  else
    os << "  dim3 block(" << k.block[0] << ", " << k.block[1] << ", " << k.block[2] << ");\n"
       << "  dim3 grid(" << k.grid[0] << ", " << k.grid[1] << ", " << k.grid[2] << ");\n"
       << "  " << k.name << "<<<grid, block>>>(" << kernelArgs(k) << ");\n";
  os << "  CHECK(cudaGetLastError());\n"
     << "  CHECK(cudaDeviceSynchronize());\n"
     << "  CHECK(cudaFree(g0));\n"
     << "  CHECK(cudaFree(g1));\n"
     << "  std::printf(\"ok\\n\");\n"
     << "  return 0;\n}\n";
  return os.str();
}

}  // namespace kverify::difftest
