#include "kverify/properties/tolerance.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "kverify/runtime/buffer.hpp"

namespace kverify::prop {

double gamma(std::size_t d, double u) {
  const double du = static_cast<double>(d) * u;
  if (du >= 1) return std::numeric_limits<double>::infinity();
  // d u / (1 - d u), rounded upwards by a relative 2^-50 so the bound is never
  // smaller than the real number because of its own rounding.
  return du / (1 - du) * (1 + 0x1p-50);
}

namespace {

template <class Bits, class T>
std::string with_bits(const char *fmt, T v) {
  Bits bits;
  std::memcpy(&bits, &v, sizeof bits);
  char buf[96];
  std::snprintf(buf, sizeof buf, fmt, static_cast<double>(v), static_cast<unsigned long long>(bits));
  std::string s = buf;
  if (rt::is_poison(v)) s += " [poison: never written]";
  return s;
}

}  // namespace

std::string show(float v) { return with_bits<std::uint32_t>("%.9g (0x%08llx)", v); }
std::string show(double v) { return with_bits<std::uint64_t>("%.17g (0x%016llx)", v); }
std::string show(long double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.21Lg", v);
  return buf;
}
std::string show(std::int32_t v) {
  std::string s = std::to_string(v);
  return rt::is_poison(v) ? s + " [poison?]" : s;
}
std::string show(std::uint32_t v) {
  std::string s = std::to_string(v);
  return rt::is_poison(v) ? s + " [poison?]" : s;
}
std::string show(std::uint8_t v) { return std::to_string(v); }

template <class T>
std::uint64_t ulp_distance(T a, T b) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<std::uint64_t>::max();
  // Map the sign-magnitude encoding onto a line of consecutive integers.
  auto ordered = [](T x) {
    Bits bits;
    std::memcpy(&bits, &x, sizeof bits);
    return bits < 0 ? static_cast<std::int64_t>(std::numeric_limits<Bits>::min()) - bits
                    : static_cast<std::int64_t>(bits);
  };
  const std::int64_t oa = ordered(a), ob = ordered(b);
  return oa > ob ? static_cast<std::uint64_t>(oa) - static_cast<std::uint64_t>(ob)
                 : static_cast<std::uint64_t>(ob) - static_cast<std::uint64_t>(oa);
}
template std::uint64_t ulp_distance<float>(float, float);
template std::uint64_t ulp_distance<double>(double, double);

std::string describe_bound(long double err, long double bound, const std::string &how) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "|error| %.6Lg > bound %.6Lg = ", err, bound);
  return buf + how;
}

void Explainer::size_mismatch(std::size_t got, std::size_t expected) {
  verdict_.ok = false;
  verdict_.failures = 1;
  first_ = "got " + std::to_string(got) + " elements, expected " + std::to_string(expected);
}

Verdict Explainer::finish() {
  if (!verdict_.ok)
    verdict_.message = "model " + model_ + ": " + first_ + " (" + std::to_string(verdict_.failures) + " of " +
                       std::to_string(count_) + " elements outside the model)";
  return verdict_;
}

}  // namespace kverify::prop
