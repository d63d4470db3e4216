// Property suites of transpose (naive, padded tiles) and matrix product
// (naive, shared tiles): equality with the references (exact; dot(k)), the
// transpose-twice and identity-product laws, determinism, poisoned outputs.
#include <cstdint>

#include "kverify/kernels/matrix.hpp"
#include "suite_support.hpp"

using namespace kvtest;
using kk::MatmulAlgorithm;
using kk::TransposeAlgorithm;

namespace {

// Matrix edges: 0, 1, tile edges +- 1 for both 16 and 32 tiles, and others.
rc::Gen<std::size_t> dims(std::size_t large) {
  return rc::gen::weightedOneOf<std::size_t>({
      {1, gen::pick<std::size_t>({0, 1, 2, 15, 16, 17, 31, 32, 33, 63, 65})},
      {2, rc::gen::inRange<std::size_t>(0, large + 1)},
  });
}

const prop::gen::FloatRange kMatrixRange{-30, 30};

template <class T>
std::vector<T> run_transpose(TransposeAlgorithm algo, const std::vector<T> &x, std::size_t rows,
                             std::size_t cols, unsigned char poison = rt::kPoisonByte) {
  const auto in = rt::DeviceBuffer<T>::from_host(x);
  auto out = poisoned<T>(x.size(), poison);
  kk::transpose(algo, in, out, rows, cols);
  return out.download();
}

template <class T>
std::vector<T> run_matmul(MatmulAlgorithm algo, const std::vector<T> &a, const std::vector<T> &b,
                          std::size_t m, std::size_t k, std::size_t n,
                          unsigned char poison = rt::kPoisonByte) {
  const auto da = rt::DeviceBuffer<T>::from_host(a);
  const auto db = rt::DeviceBuffer<T>::from_host(b);
  auto dc = poisoned<T>(m * n, poison);
  kk::matmul(algo, da, db, dc, m, k, n);
  return dc.download();
}

template <class T>
void transpose_property(TransposeAlgorithm algo) {
  const std::size_t rows = *dims(300), cols = *dims(300);
  const auto x = *gen::arrays<T>(rows * cols);
  const auto got = run_transpose(algo, x, rows, cols);
  KV_RC_REQUIRE(prop::exact(got, ref::transpose(x, rows, cols)));
  // Law: transposing back gives the input, bit for bit.
  const auto back = run_transpose(algo, got, cols, rows, kSecondPoison);
  if (!same_bits(back, x)) prop::fail("transpose twice differs: " + first_bit_difference(back, x));
}

template <class T>
void matmul_property(MatmulAlgorithm algo) {
  const std::size_t m = *dims(70), k = *dims(70), n = *dims(70);
  const auto a = *gen::arrays<T>(m * k, kMatrixRange);
  const auto b = *gen::arrays<T>(k * n, kMatrixRange);
  const auto got = run_matmul(algo, a, b, m, k, n);
  KV_RC_REQUIRE(prop::dot(got, ref::matmul(a, b, m, k, n)));
  const auto again = run_matmul(algo, a, b, m, k, n, kSecondPoison);
  if (!same_bits(got, again)) prop::fail("two runs differ: " + first_bit_difference(got, again));
}

template <class T>
std::vector<T> identity(std::size_t n) {
  std::vector<T> e(n * n, T(0));
  for (std::size_t i = 0; i < n; ++i) e[i * n + i] = T(1);
  return e;
}

// Law: A I = A and I A = A exactly (each output is one product by 1 plus
// zeros; compared as values, since 0 + -0 is +0).
template <class T>
void identity_property(MatmulAlgorithm algo) {
  const std::size_t m = *dims(70), k = *dims(70);
  const auto a = *gen::arrays<T>(m * k, kMatrixRange);
  KV_RC_REQUIRE(prop::exact(run_matmul(algo, a, identity<T>(k), m, k, k), a));
  KV_RC_REQUIRE(prop::exact(run_matmul(algo, identity<T>(m), a, m, m, k), a));
}

}  // namespace

KV_GPU_PROPERTY(Transpose, Naive_int32) { transpose_property<std::int32_t>(TransposeAlgorithm::Naive); }
KV_GPU_PROPERTY(Transpose, PaddedTiles_int32) {
  transpose_property<std::int32_t>(TransposeAlgorithm::PaddedTiles);
}
KV_GPU_PROPERTY(Transpose, Naive_float) { transpose_property<float>(TransposeAlgorithm::Naive); }
KV_GPU_PROPERTY(Transpose, PaddedTiles_float) { transpose_property<float>(TransposeAlgorithm::PaddedTiles); }
KV_GPU_PROPERTY(Transpose, PaddedTiles_double) {
  transpose_property<double>(TransposeAlgorithm::PaddedTiles);
}
KV_GPU_PROPERTY(Transpose, PaddedTiles_uint32) {
  transpose_property<std::uint32_t>(TransposeAlgorithm::PaddedTiles);
}
KV_GPU_PROPERTY(Matmul, Naive_float) { matmul_property<float>(MatmulAlgorithm::Naive); }
KV_GPU_PROPERTY(Matmul, SharedTiles_float) { matmul_property<float>(MatmulAlgorithm::SharedTiles); }
KV_GPU_PROPERTY(Matmul, Naive_double) { matmul_property<double>(MatmulAlgorithm::Naive); }
KV_GPU_PROPERTY(Matmul, SharedTiles_double) { matmul_property<double>(MatmulAlgorithm::SharedTiles); }
KV_GPU_PROPERTY(Matmul, IdentityIsNeutral_Naive) { identity_property<float>(MatmulAlgorithm::Naive); }
KV_GPU_PROPERTY(Matmul, IdentityIsNeutral_SharedTiles) {
  identity_property<double>(MatmulAlgorithm::SharedTiles);
}
