#!/usr/bin/env bash
# Quick start (a): set up, build, and run the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
BUILD_DIR=${KVERIFY_BUILD_DIR:-build}
"$BUILD_DIR/runtime/kverify-devices"
