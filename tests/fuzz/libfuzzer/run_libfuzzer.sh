#!/usr/bin/env bash
# run_libfuzzer.sh FUZZER SEEDS WORKDIR SECONDS: runs one libFuzzer target for SECONDS on its
# seed corpus (read only) and the inputs it found before (WORKDIR/corpus), then prints one
# line: runs executed, crashes (inputs this run saved: crash-, leak-, timeout-, oom-, under
# WORKDIR/artifacts/<time>/), coverage. Exits non-zero on any crash or sanitizer report.
# Log: WORKDIR/fuzz.log.
set -uo pipefail
[ $# -eq 4 ] || { echo "usage: $0 FUZZER SEEDS WORKDIR SECONDS" >&2; exit 2; }
fuzzer=$1 seeds=$2 work=$3 seconds=$4
name=$(basename "$fuzzer")
artifacts=$work/artifacts/$(date +%Y%m%d-%H%M%S)
mkdir -p "$work/corpus" "$artifacts"
log=$work/fuzz.log

# -timeout: an input that takes seconds is a hang (an `--assume` or a .py file is parsed
# in milliseconds). -rss_limit_mb: libFuzzer's default; -max_len: room for whole .py files.
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
  -print_final_stats=1 -artifact_prefix="$artifacts/" \
  "$work/corpus" "$seeds" >"$log" 2>&1
rc=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
corpus=$(find "$work/corpus" -type f | wc -l)
crashes=$(find "$artifacts" -type f | wc -l)
echo "$name: ${runs:-?} runs in ${seconds}s, $crashes crashes, ${cov:-cov: ?}, corpus $corpus new inputs (rc $rc)"
if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
  grep -E 'ERROR:|runtime error:|SUMMARY:|Test unit written' "$log" | head -20
  echo "$name: full log in $log"
  exit 1
fi
