#!/usr/bin/env bash
# Runs the differential property (random kernels: analysis vs oracle) with many cases and
# prints the counters: kernels generated, oracle hazards by kind, analysis verdicts,
# disagreements (a) soundness / (b) precision, and the time taken.
#
#   scripts/differential.sh [N=10000] [BUILD_DIR=build] [SEED=random]
#
# Nothing fails the run (KVERIFY_DIFF_MODE=count); the first disagreements of each class
# (unshrunk) go to BUILD_DIR/differential/disagreements.txt. To get a shrunk example of a
# class, rerun the test binary with KVERIFY_DIFF_MODE=soundness (or precision) and the
# same RC_PARAMS seed. Exit status: 1 when a soundness disagreement was found, else 0.
set -euo pipefail
N=${1:-10000}
BUILD=${2:-build}
SEED=${3:-$RANDOM$RANDOM}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
BIN=$BUILD/tests/differential/differential_random_tests
if [[ ! -x $BIN ]]; then
  echo "differential.sh: $BIN not built (cmake --build $BUILD --target differential_random_tests)" >&2
  exit 2
fi
OUT=$BUILD/differential
mkdir -p "$OUT"
STATS=$OUT/stats.txt
LOG=$OUT/disagreements.txt
rm -f "$STATS" "$LOG"
start=$(date +%s)
set +e
KVERIFY_DIFF_MODE=count KVERIFY_DIFF_STATS=$STATS KVERIFY_DIFF_LOG=$LOG \
  RC_PARAMS="max_success=$N max_size=100 seed=$SEED" "$BIN" > "$OUT/run.log" 2>&1
rc=$?
set -e
end=$(date +%s)
if [[ ! -f $STATS ]]; then
  echo "differential.sh: the test binary wrote no counters (exit $rc); see $OUT/run.log" >&2
  tail -20 "$OUT/run.log" >&2
  exit 2
fi
get() { awk -F= -v k="$1" '$1 == k { print $2 }' "$STATS"; }
echo "differential run: seed $SEED, $N cases requested, test exit status $rc"
echo "kernels generated:          $(get kernels)  (parse failures: $(get parse_failures))"
echo "oracle runs conclusive:     $(get oracle_ok)  (all runs UB / step limit: $(get oracle_inconclusive))"
echo "oracle hazards (kernels):"
grep '^oracle_hazard\.' "$STATS" | sed 's/^oracle_hazard\./  /; s/=/: /'
echo "analysis verdicts:"
grep '^analysis_verdict\.' "$STATS" | sed 's/^analysis_verdict\./  /; s/=/: /'
echo "disagreements (a) soundness: $(get disagree_a_soundness)  (hazards whose query stayed undecided beside another finding, reported as such: $(get unknown_beside_finding); divergences or out-of-bounds accesses beside a reported race the other checks assumed away, reported as such: $(get beside_race))"
grep '^disagree_a\.' "$STATS" | sed 's/^disagree_a\./  oracle saw /; s/=/: /' || true
echo "disagreements (b) precision: $(get disagree_b_precision)  (witness replays: $(get witness_replays), determined: $(get witness_replays_determined))"
grep '^disagree_b\.' "$STATS" | sed 's/^disagree_b\./  analysis /; s/=/ witness not replayed: /' || true
echo "time: $((end - start)) s (analysis $(get analysis_seconds) s, oracle $(get oracle_seconds) s)"
[[ -s $LOG ]] && echo "examples: $LOG"
[[ "$(get disagree_a_soundness)" == 0 ]] || exit 1
exit 0
