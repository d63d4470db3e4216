// Default case count of the GPU property suites (RapidCheck's max_success),
// chosen so the whole GPU suite stays under 2 minutes on an H100. RC_PARAMS in
// the environment overrides it, e.g. RC_PARAMS="max_success=1000".
#include "kverify/properties/rc_support.hpp"

namespace {
[[maybe_unused]] const bool kDefaultCasesSet =
    (kverify::prop::default_case_count(KVERIFY_PROPERTY_CASES), true);
}  // namespace
