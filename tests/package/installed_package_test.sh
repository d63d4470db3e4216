#!/usr/bin/env bash
# usage: installed_package_test.sh BUILD_DIR SOURCE_DIR WORK_DIR [CMAKE_ARG...]
# Installs BUILD_DIR into WORK_DIR/staging and moves it to WORK_DIR/prefix, so that only
# what is found relative to the prefix works; then configures, builds and tests copies of
# examples/cmake-project and tests/package/racy-project against it (CMAKE_ARGs: compilers,
# CUDA architectures, launchers). Exit 0 only when every check below holds.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR SOURCE_DIR WORK_DIR [CMAKE_ARG...]" >&2; exit 2; }
build=$1 src=$2 work=$3
shift 3
cmake_args=("$@")
jobs=${KVERIFY_JOBS:-2}

step() { echo; echo "== $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# json_get FILE EXPR: a Python expression over the parsed report `r`, printed.
json_get() { python3 -c "import json, sys; r = json.load(open(sys.argv[1])); print($2)" "$1"; }

rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

step "install, then move the prefix"
cmake --install "$build" --prefix "$work/staging" > "$work/install.log" \
  || { cat "$work/install.log"; fail "cmake --install failed"; }
mv "$work/staging" "$prefix"
for f in bin/kverify bin/kverify-devices share/kverify/prelude/kverify_prelude.h \
         share/kverify/clang/include/stddef.h include/kverify.h \
         include/kverify/runtime/launch.hpp include/kverify/properties/gpu_test.hpp \
         lib/cmake/kverify/kverifyConfig.cmake lib/cmake/kverify/kverifyConfigVersion.cmake \
         lib/cmake/kverify/kverifyFunctions.cmake; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done

step "the moved kverify reads its prelude and clang's headers from the prefix"
version=$("$prefix/bin/kverify" --version)
echo "$version"
grep -qxF "prelude: $prefix/share/kverify/prelude" <<<"$version" \
  || fail "the installed kverify does not use the installed prelude"
grep -qxF "clang resource directory: $prefix/share/kverify/clang" <<<"$version" \
  || fail "the installed kverify does not use the installed clang headers"

step "examples/cmake-project, copied out of the tree, against the installed package"
cp -r "$src/examples/cmake-project" "$work/example"
cmake -S "$work/example" -B "$work/example-build" -DCMAKE_PREFIX_PATH="$prefix" \
  "${cmake_args[@]}" > "$work/example-configure.log" \
  || { cat "$work/example-configure.log"; fail "the example does not configure"; }
grep -qxF "kverify_DIR:PATH=$prefix/lib/cmake/kverify" "$work/example-build/CMakeCache.txt" \
  || fail "the example found a kverify package other than the installed one"
cmake --build "$work/example-build" -j "$jobs" > "$work/example-build.log" \
  || { cat "$work/example-build.log"; fail "the example does not build"; }
status=0
ctest --test-dir "$work/example-build" --output-on-failure -j "$jobs" \
  > "$work/example-ctest.log" || status=$?
cat "$work/example-ctest.log"
[ "$status" -eq 0 ] || fail "the example's CTest failed (exit $status)"
grep -qE "block_sums_check \.+ +Passed" "$work/example-ctest.log" \
  || fail "the kverify check did not run and pass"
report=$work/example-build/kverify-reports/block_sums_check.json
[ -f "$report" ] || fail "no JSON report at $report"
[ "$(json_get "$report" "' '.join(k['verdict'] for k in r['kernels'])")" = verified ] \
  || fail "the report does not say the one kernel is verified: $(cat "$report")"
labels=$(ctest --test-dir "$work/example-build" -N -L property | grep -c "Test *#") || true
[ "$labels" -eq 2 ] || fail "expected 2 tests labelled property, found $labels"
if "$prefix/bin/kverify-devices" | grep -q "will be skipped"; then  # no GPU
  [ "$(grep -cE "BlockSums\.[A-Za-z]+ \.+\*+Skipped" "$work/example-ctest.log")" -eq 2 ] \
    || fail "without a GPU, CTest should show both property tests skipped"
  "$work/example-build/block_sums_properties" > "$work/properties.log" || true
  grep -q "no GPU: " "$work/properties.log" || fail "the skipped tests do not say why"
else
  [ "$(grep -cE "BlockSums\.[A-Za-z]+ \.+ +Passed" "$work/example-ctest.log")" -eq 2 ] \
    || fail "on a GPU both property tests should run and pass"
fi

step "a racy kernel fails its check, and its report says race"
cp -r "$src/tests/package/racy-project" "$work/racy"
cmake -S "$work/racy" -B "$work/racy-build" -DCMAKE_PREFIX_PATH="$prefix" --no-warn-unused-cli \
  "${cmake_args[@]}" > "$work/racy-configure.log" \
  || { cat "$work/racy-configure.log"; fail "the racy project does not configure"; }
status=0
ctest --test-dir "$work/racy-build" --output-on-failure > "$work/racy-ctest.log" || status=$?
cat "$work/racy-ctest.log"
[ "$status" -ne 0 ] || fail "CTest passed a kernel that races"
grep -q "error: data race on 'tile'" "$work/racy-ctest.log" \
  || fail "the failing check does not show the finding"
[ "$(json_get "$work/racy-build/kverify-reports/racy_check.json" "r['kernels'][0]['verdict']")" = race ] \
  || fail "the racy check's report does not say race"

step "a verifier-only install (--component verifier) serves kverify_add_check"
cmake --install "$build" --prefix "$work/verifier-only" --component verifier \
  > "$work/install-verifier.log" || { cat "$work/install-verifier.log"; fail "component install failed"; }
[ ! -e "$work/verifier-only/lib/cmake/kverify/kverifyLibraryTargets.cmake" ] \
  || fail "the verifier component installed the libraries"
cmake -S "$work/racy" -B "$work/racy-verifier-only" -DCMAKE_PREFIX_PATH="$work/verifier-only" \
  --no-warn-unused-cli "${cmake_args[@]}" > "$work/racy-verifier-only.log" \
  || { cat "$work/racy-verifier-only.log"; fail "no package in the verifier-only install"; }
status=0
ctest --test-dir "$work/racy-verifier-only" --output-on-failure \
  > "$work/racy-verifier-only-ctest.log" || status=$?
[ "$status" -ne 0 ] || fail "the verifier-only install passed a kernel that races"
grep -q "error: data race on 'tile'" "$work/racy-verifier-only-ctest.log" \
  || fail "the verifier-only install's check did not find the race"

status=0
cmake -S "$work/example" -B "$work/example-verifier-only" -DCMAKE_PREFIX_PATH="$work/verifier-only" \
  "${cmake_args[@]}" > "$work/example-verifier-only.log" 2>&1 || status=$?
[ "$status" -ne 0 ] || fail "a verifier-only install claimed the properties component"
tr -s ' \n' ' ' < "$work/example-verifier-only.log" | grep -qF "installed with --component verifier" \
  || { cat "$work/example-verifier-only.log"; fail "no clear message for a missing component"; }

step "a check of a file that does not exist stops the configuration"
status=0
cmake -S "$work/racy" -B "$work/racy-build" -DADD_MISSING_SOURCE=ON \
  > "$work/missing.log" 2>&1 || status=$?
[ "$status" -ne 0 ] || fail "a missing source was accepted"
# CMake wraps its messages: compare with the lines joined.
tr -s ' \n' ' ' < "$work/missing.log" \
  | grep -qF "kverify_add_check(NAME missing_check): 'missing.cu' not found" \
  || { cat "$work/missing.log"; fail "no clear message for a missing source"; }

echo
echo "installed package: all checks passed"
