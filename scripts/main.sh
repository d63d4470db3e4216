#!/usr/bin/env bash
# Quick start (a): set up, build, and run the main job: kverify over the kernel
# library in kernels/, writing build/kverify-report.html.
# Exit status is kverify's: 0 when nothing new is found (the known-bad kernels'
# findings are in the baseline), 1 on a new finding, 2 on an error.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
BUILD_DIR=${KVERIFY_BUILD_DIR:-build}
"$BUILD_DIR/runtime/kverify-devices"
echo
status=0
"$BUILD_DIR/verifier/kverify" -j "${KVERIFY_JOBS:-$(nproc)}" \
  --html="$BUILD_DIR/kverify-report.html" \
  --baseline=kernels/known_bad/kverify-baseline.json \
  kernels/src kernels/include kernels/python kernels/known_bad \
  -- -Ikernels/include -Iruntime/include -Ikernels/known_bad || status=$?
echo "kverify: HTML report: $BUILD_DIR/kverify-report.html"
exit $status
