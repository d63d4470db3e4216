#include <cstdlib>
#include <string>

namespace kverify::prop {

void default_case_count(int n) {
  const std::string value = "max_success=" + std::to_string(n);
  setenv("RC_PARAMS", value.c_str(), /*overwrite=*/0);
}

}  // namespace kverify::prop
