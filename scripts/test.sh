#!/usr/bin/env bash
# Quick start (b): set up, build, and run the whole test suite. Exit status is CTest's.
# GPU tests skip (shown as skipped, with the reason) where there is no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
BUILD_DIR=${KVERIFY_BUILD_DIR:-build}
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "${KVERIFY_JOBS:-$(nproc)}"
