#!/usr/bin/env bash
# Quick start (a): set up, build, and run the main job: kverify over the kernel library
# in kernels/ (the PyCUDA example too) and, where there is a GPU, the property suites
# (ctest -L property); both halves go into one page, build/kverify-report.html
# (kverify merge-report).
# Exit status: 2 when kverify stops on an error; else 1 when kverify finds something
# new (the known-bad kernels' findings are in the baseline) or a property test fails;
# else 0.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
BUILD_DIR=${KVERIFY_BUILD_DIR:-build}
JOBS=${KVERIFY_JOBS:-$(nproc)}
REPORTS="$BUILD_DIR/reports-in"  # the merged page's inputs
mkdir -p "$REPORTS"
rm -f "$REPORTS"/*.json "$REPORTS"/*.xml

"$BUILD_DIR/runtime/kverify-devices"
gpus=$("$BUILD_DIR/runtime/kverify-devices" --count)
echo

# The static check, read like a compiler's output; then the same run as JSON for the
# page, which comes from kverify's result cache (files with an `unknown` verdict aside).
kverify_library() {
  "$BUILD_DIR/verifier/kverify" -j "$JOBS" --baseline=kernels/known_bad/kverify-baseline.json "$@" \
    kernels/src kernels/include kernels/python kernels/known_bad \
    -- -Ikernels/include -Iruntime/include -Ikernels/known_bad
}
static=0
kverify_library || static=$?
kverify_library --format=json --output="$REPORTS/kverify.json" 2>/dev/null || true

dynamic=0
inputs=("$REPORTS/kverify.json")
if [ "$gpus" -gt 0 ]; then
  echo
  echo "main: property suites on $gpus GPU(s) (ctest -L property)"
  ctest --test-dir "$BUILD_DIR" -L property -j "$JOBS" \
    --output-junit "$PWD/$REPORTS/property-tests.xml" || dynamic=1
  inputs+=("$REPORTS/property-tests.xml")
else
  echo "main: no GPU: the property suites are not run"
fi

[ -f "$REPORTS/kverify.json" ] || { echo "main: kverify wrote no report" >&2; exit 2; }
"$BUILD_DIR/verifier/kverify" merge-report --html="$BUILD_DIR/kverify-report.html" "${inputs[@]}"
echo "main: HTML report: $BUILD_DIR/kverify-report.html"

if [ "$static" -ge 2 ]; then exit "$static"; fi
if [ "$static" -eq 1 ] || [ "$dynamic" -ne 0 ]; then exit 1; fi
exit 0
