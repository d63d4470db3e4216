// Property suites of the the PyCUDA guide image kernels (3x3 blur, RGB to gray) and
// saxpy: exact equality for the 8-bit images (see image.hpp for why exact
// is right), dot(2) for saxpy, blur of a constant image, poisoned outputs.
#include <cstdint>

#include "kverify/kernels/image.hpp"
#include "kverify/kernels/saxpy.hpp"
#include "suite_support.hpp"

using namespace kvtest;

namespace {

rc::Gen<std::size_t> image_edges() {
  return rc::gen::weightedOneOf<std::size_t>({
      {1, gen::pick<std::size_t>({0, 1, 2, 3, 15, 16, 17})},
      {2, rc::gen::inRange<std::size_t>(0, 200)},
  });
}

rc::Gen<std::vector<std::uint8_t>> pixels(std::size_t n) {
  return rc::gen::container<std::vector<std::uint8_t>>(n, rc::gen::arbitrary<std::uint8_t>());
}

std::vector<std::uint8_t> run_blur(const std::vector<std::uint8_t> &img, std::size_t w, std::size_t h,
                                   unsigned char poison = rt::kPoisonByte) {
  const auto in = rt::DeviceBuffer<std::uint8_t>::from_host(img);
  auto out = poisoned<std::uint8_t>(img.size(), poison);
  kk::blur3x3(in, out, w, h);
  return out.download();
}

template <class T>
void saxpy_property() {
  const auto x = *gen::arrays<T>(gen::sizes(256, std::size_t{1} << 20), prop::gen::FloatRange{-60, 60});
  const auto y = *gen::arrays<T>(x.size(), prop::gen::FloatRange{-60, 60});
  const T a = prop::gen::draw<T>(*rc::gen::arbitrary<std::uint64_t>(), prop::gen::FloatRange{-60, 60});
  const auto dx = rt::DeviceBuffer<T>::from_host(x);
  auto dy = rt::DeviceBuffer<T>::from_host(y);
  kk::saxpy(a, dx, dy);
  KV_RC_REQUIRE(prop::dot(dy.download(), ref::saxpy(a, x, y)));
}

}  // namespace

KV_GPU_PROPERTY(Blur3x3, MatchesReference) {
  const std::size_t w = *image_edges(), h = *image_edges();
  const auto img = *pixels(w * h);
  const auto got = run_blur(img, w, h);
  KV_RC_REQUIRE(prop::exact(got, ref::blur3x3(img, w, h)));
  const auto again = run_blur(img, w, h, kSecondPoison);
  if (!same_bits(got, again)) prop::fail("two runs differ: " + first_bit_difference(got, again));
}

// Law: the blur of a constant image is that constant (sum = c * count).
KV_GPU_PROPERTY(Blur3x3, ConstantImageIsFixed) {
  const std::size_t w = *image_edges(), h = *image_edges();
  const std::uint8_t c = *rc::gen::arbitrary<std::uint8_t>();
  const std::vector<std::uint8_t> img(w * h, c);
  KV_RC_REQUIRE(prop::exact(run_blur(img, w, h), img));
}

KV_GPU_PROPERTY(RgbToGray, MatchesReference) {
  const std::size_t w = *image_edges(), h = *image_edges();
  const auto rgb = *pixels(3 * w * h);
  const auto in = rt::DeviceBuffer<std::uint8_t>::from_host(rgb);
  auto out = poisoned<std::uint8_t>(w * h);
  kk::rgb_to_gray(in, out, w, h);
  KV_RC_REQUIRE(prop::exact(out.download(), ref::rgb_to_gray(rgb, w, h)));
}

KV_GPU_PROPERTY(Saxpy, Float) { saxpy_property<float>(); }
KV_GPU_PROPERTY(Saxpy, Double) { saxpy_property<double>(); }
