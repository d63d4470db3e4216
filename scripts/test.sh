#!/usr/bin/env bash
# Quick start (b): set up, build, and run the whole test suite, then the libFuzzer targets
# of the parsers briefly (KVERIFY_LIBFUZZ_SECONDS each, 10 by default; 0 skips them), and
# with KVERIFY_SANITIZE=1 (CI) kverify built with ASan+UBSan over the fixtures.
# GPU tests skip (shown as skipped, with the reason) where there is no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
BUILD_DIR=${KVERIFY_BUILD_DIR:-build}
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "${KVERIFY_JOBS:-$(nproc)}"
seconds=${KVERIFY_LIBFUZZ_SECONDS:-10}
if [ "$seconds" != 0 ]; then scripts/libfuzz.sh "$seconds"; fi
if [ "${KVERIFY_SANITIZE:-0}" != 0 ]; then scripts/sanitize.sh; fi
