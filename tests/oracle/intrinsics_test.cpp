// The front end's models of __popc, __clz and __ffs (sums and choices over the bits),
// evaluated by the oracle and compared with the compiler's builtins on sample values.
#include "frontend/frontend.hpp"
#include "model/walk.hpp"
#include "oracle/oracle.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace kverify;

TEST(Intrinsics, BitCountsMatchTheCompilersBuiltins) {
  frontend::Options options;
  options.print_diagnostics = false;
  model::TranslationUnitModel tu =
      frontend::parseFile(std::string(KVERIFY_FIXTURES) + "/bit_intrinsics.cu", options);
  ASSERT_TRUE(tu.parsed);
  ASSERT_EQ(tu.kernels.size(), 1u);
  const model::Kernel &k = tu.kernels[0];
  ASSERT_TRUE(k.unsupported.empty());
  std::vector<const model::stmt::Access *> stores;
  model::forEachStmt(k.body, [&](const model::Stmt &s) {
    if (const auto *a = s.as<model::stmt::Access>(); a && a->value) stores.push_back(a);
  });
  ASSERT_EQ(stores.size(), 6u);
  std::mt19937_64 rng(11);
  std::vector<uint64_t> samples{
      0, 1, 2, 3, 0x80000000u, 0xffffffffu, 0x100000000ull, 0x8000000000000000ull, ~0ull};
  for (int i = 0; i < 200; ++i) samples.push_back(rng() >> (rng() % 64));
  for (uint64_t v : samples) {
    auto x = static_cast<uint32_t>(v);
    oracle::Launch l;
    l.params["x"] = x;
    l.params["y"] = static_cast<int64_t>(v);
    int64_t want[6] = {__builtin_popcount(x),   x ? __builtin_clz(x) : 32,   x ? __builtin_ctz(x) + 1 : 0,
                       __builtin_popcountll(v), v ? __builtin_clzll(v) : 64, v ? __builtin_ctzll(v) + 1 : 0};
    for (int s = 0; s < 6; ++s) {
      std::optional<int64_t> got = oracle::evaluateInt(k, l, *stores[s]->value);
      ASSERT_TRUE(got) << stores[s]->text;
      EXPECT_EQ(*got, want[s]) << stores[s]->text << " of " << v;
    }
  }
}
