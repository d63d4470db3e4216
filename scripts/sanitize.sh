#!/usr/bin/env bash
# sanitize.sh [FILE|DIR ...]: builds kverify with AddressSanitizer and UndefinedBehavior-
# Sanitizer (clang-19, build-asan/) and runs it over the fixtures (by default every .cu and
# .py under tests/fixtures), failing on any sanitizer report. kverify's own exit codes
# (0 verified, 1 findings, 2 errors) are expected; a sanitizer stops with exit 86.
# Environment: JOBS (build parallelism, and inputs run at once; default nproc), CXX (clang++-19).
set -uo pipefail
cd "$(dirname "$0")/.."
build=build-asan
jobs=${JOBS:-$(nproc)}
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# LLVM's shared libraries, not its archives: linked statically, LLVM's inline allocator
# would come in two copies, ours instrumented (it poisons free slab memory) and the
# archives' not, and ASan would report Clang's own allocations as use-after-poison.

launcher=$(command -v ccache || true)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="${CXX:-clang++-19}" \
  ${launcher:+-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher} -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
  -DKVERIFY_BUILD_GPU=OFF -DKVERIFY_BUILD_TESTS=OFF -DKVERIFY_STATIC_LLVM=OFF >/dev/null || exit 1
cmake --build "$build" --target kverify -j "$jobs" >"$build/build.log" 2>&1 \
  || { tail -40 "$build/build.log" >&2; echo "sanitize: build failed (log: $build/build.log)" >&2; exit 1; }

inputs=("$@")
[ ${#inputs[@]} -gt 0 ] || inputs=(tests/fixtures)
mapfile -t files < <(find "${inputs[@]}" -type f \( -name '*.cu' -o -name '*.py' \) | sort)
log=$build/sanitize.log
: > "$log"
# use_sigaltstack=0: kverify installs its own alternate signal stacks (cli/crash_report.cpp)
export ASAN_OPTIONS=exitcode=86:detect_leaks=1:abort_on_error=0:use_sigaltstack=0
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp
export UBSAN_OPTIONS=exitcode=86:print_stacktrace=1:halt_on_error=1
# One file per process: a report names its input, and one input's report stops no other.
check() {
  local out rc
  # (no --max-memory: its data-size limit leaves ASan no room for its shadow memory)
  out=$("$KVERIFY" --no-cache --max-memory=0 --timeout=5 --kernel-timeout=60 --format=json "$1" 2>&1 >/dev/null)
  rc=$?
  if [ $rc -gt 2 ] || grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' <<<"$out"; then
    { echo "== $1 (exit $rc)"; echo "$out"; } >> "$LOG"
    echo "sanitize: $1: exit $rc (report in $LOG)" >&2
  fi
}
export -f check
export KVERIFY=$build/verifier/kverify LOG=$log
printf '%s\0' "${files[@]}" | xargs -0 -n 1 -P "$jobs" bash -c 'check "$1"' _
failed=$(grep -c '^== ' "$log")
echo "sanitize: ${#files[@]} inputs under ASan+UBSan, $failed with a sanitizer report or a crash"
[ "$failed" -eq 0 ]
