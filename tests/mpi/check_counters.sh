#!/usr/bin/env bash
# Which path a program's operations took, by MPI_T counters: runs PROGRAM on NP ranks (in the
# environment the test gives it, e.g. WEFT_TRANSPORT=ofi WEFT_RMA_PATH=transport) under a
# preload library that reports counters at MPI_Finalize (pvar_report.c), and checks that the
# program passed and that each counter named was above 0 on every rank (NAME) or on some rank
# (NAME@any): a path that silently fell back fails here.
# Usage: check_counters.sh WEFTRUN NP PROGRAM REPORT_LIBRARY COUNTER...
set -u
weftrun=$1 np=$2 prog=$3 report=$4
shift 4
names=()
for c in "$@"; do names+=("${c%@any}"); done
counters=$(IFS=,; echo "${names[*]}")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail() { echo "FAIL: $*"; cat "$out"; exit 1; }

WEFT_TEST_PVARS=$counters "$weftrun" -n "$np" --timeout 60 -x LD_PRELOAD="$report" "$prog" \
  >"$out" 2>&1 || fail "$(basename "$prog") failed"
[ "$(grep -c '^pvar_report:' "$out")" -eq "$np" ] || fail "expected $np pvar_report lines"
for c in "$@"; do
  name=${c%@any}
  if [ "$name" != "$c" ]; then
    grep '^pvar_report:' "$out" | grep -Eq " $name=[1-9]" ||
      fail "no rank's $name is above 0: the operations did not take that path"
  else
    grep '^pvar_report:' "$out" | grep -Eq " $name=(0|missing)( |$)" &&
      fail "a rank's $name is 0: its operations did not take that path"
  fi
done
grep '^pvar_report:' "$out"
echo "$(basename "$prog"): counters $* as required"
