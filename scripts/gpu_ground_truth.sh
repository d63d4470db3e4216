#!/usr/bin/env bash
# GPU ground truth for generated kernels: compiles each program that
# differential_export_gpu_cases wrote and runs it under compute-sanitizer's racecheck
# (shared-memory races), synccheck (barrier divergence) and memcheck (out of bounds), each
# with a timeout: a hang is a finding (a divergent __syncthreads can deadlock the block, and
# synccheck hangs with it). Writes one line per case: file, then per tool ok | hazard |
# hang | error (and nvcc's failure as compile-error).
#
#   scripts/gpu_ground_truth.sh CASES_DIR OUT_TSV [JOBS=16] [TIMEOUT_S=60]
set -uo pipefail
DIR=$1
OUT=$2
JOBS=${3:-16}
LIMIT=${4:-60}
NVCC=${CUDACXX:-/usr/local/cuda/bin/nvcc}
SAN=${COMPUTE_SANITIZER:-compute-sanitizer}
one() {
  local cu=$1 exe=${1%.cu}.bin line
  line=$(basename "$cu")
  if ! "$NVCC" -arch=sm_90 -o "$exe" "$cu" >/dev/null 2>&1; then
    printf '%s\tcompile-error\n' "$line"
    return
  fi
  for tool in racecheck synccheck memcheck; do
    local log
    log=$(timeout "$LIMIT" "$SAN" --tool "$tool" --error-exitcode 99 "$exe" 2>&1)
    case $? in
      0) line+=$'\tok' ;;
      99) line+=$'\thazard' ;;
      124) line+=$'\thang' ;;
      *) if grep -q "ERROR SUMMARY: [1-9]" <<<"$log"; then line+=$'\thazard'; else line+=$'\terror'; fi ;;
    esac
  done
  printf '%s\n' "$line"
}
export -f one
export NVCC SAN LIMIT
printf 'file\tracecheck\tsynccheck\tmemcheck\n' >"$OUT"
# one line per case as it ends (a run cut short keeps what it finished)
ls "$DIR"/case_*.cu | xargs -P "$JOBS" -I{} bash -c 'one {} >>"$0"' "$OUT"
