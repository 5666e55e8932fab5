#!/usr/bin/env bash
# One-sided operations through libfabric's RMA and atomics: runs a one-sided program on 3 ranks
# with WEFT_TRANSPORT=ofi WEFT_SHM=0 WEFT_RMA_PATH=transport under a preload library that reports
# MPI_T counters at MPI_Finalize (pvar_report.c), and checks that the program passed and that
# every counter named was above 0 on every rank: a path that silently fell back to messages
# fails here.
# Usage: check_ofi_rma.sh WEFTRUN PROGRAM REPORT_LIBRARY COUNTER...
set -u
weftrun=$1 prog=$2 report=$3
shift 3
counters=$(IFS=,; echo "$*")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail() { echo "FAIL: $*"; cat "$out"; exit 1; }

WEFT_TRANSPORT=ofi WEFT_SHM=0 WEFT_RMA_PATH=transport WEFT_TEST_PVARS=$counters \
  "$weftrun" -n 3 --timeout 60 -x LD_PRELOAD="$report" "$prog" >"$out" 2>&1 ||
  fail "$(basename "$prog") failed"
[ "$(grep -c '^pvar_report:' "$out")" -eq 3 ] || fail "expected 3 pvar_report lines"
for c in "$@"; do
  grep '^pvar_report:' "$out" | grep -Eq " $c=(0|missing)( |$)" &&
    fail "a rank's $c is 0: the operations did not go through libfabric"
done
grep '^pvar_report:' "$out"
echo "$(basename "$prog"): every rank used libfabric for $counters"
