#!/usr/bin/env bash
# Configures and builds everything into build/ (or $KVERIFY_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${KVERIFY_BUILD_DIR:-build}
JOBS=${KVERIFY_JOBS:-$(nproc)}
# KVERIFY_WERROR=ON (CI): the project's own warnings fail the build
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DKVERIFY_WERROR="${KVERIFY_WERROR:-OFF}" "$@" >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS"
