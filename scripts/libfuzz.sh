#!/usr/bin/env bash
# libfuzz.sh [SECONDS]: builds the libFuzzer targets of the pure parsers (ASan, UBSan) in
# build-libfuzzer/ and runs each, one after another, for SECONDS (default 600: the 10
# minutes each a release asks for). Prints per target: runs executed, crashes, coverage.
# Inputs each run finds are kept in build-libfuzzer/runs/<target>/corpus and seed the
# next run; crashing inputs are saved under build-libfuzzer/runs/<target>/artifacts/.
# Environment: JOBS (build parallelism, default 1), CXX (default clang++-19).
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
build=build-libfuzzer
fuzz=tests/fuzz/libfuzzer

launcher=$(command -v ccache || true)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="${CXX:-clang++-19}" \
  ${launcher:+-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher} \
  -DKVERIFY_LIBFUZZER=ON -DKVERIFY_BUILD_VERIFIER=OFF -DKVERIFY_BUILD_GPU=OFF \
  -DKVERIFY_BUILD_TESTS=OFF >/dev/null || exit 1
cmake --build "$build" --target kverify_libfuzzers -j "${JOBS:-1}" >/dev/null || exit 1

failed=0
for seeds in "$fuzz"/seeds/*/; do
  name=$(basename "$seeds")
  "$fuzz/run_libfuzzer.sh" "$build/$fuzz/$name" "$seeds" "$build/runs/$name" "$seconds" || failed=1
done
exit $failed
